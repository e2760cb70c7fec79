// index.js — the gateway as a library (`toolsift/mcp`): what the
// `toolsift-mcp` command is made of, for hosts that embed it.

export { checkConfig, readConfig, GatewayConfigError } from './config.js';
export { Gateway, VERSION } from './gateway.js';
export { serveHttp } from './http.js';
export { replayJournal, readJournal, JournalError } from './replay.js';
export { ClientSession, SEGMENT_SOURCE } from './session.js';
