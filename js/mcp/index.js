// index.js — the gateway as a library (`toolsift/mcp`): what the
// `toolsift-mcp` command is made of, for hosts that embed it.

// The guard of an optional peer, shared with toolsift/ai-sdk.
import { importPeer } from '../integrations/common.js';

export { checkConfig, readConfig, GatewayConfigError } from './config.js';
export { VERSION } from './version.js';
export { replayJournal, readJournal, JournalError } from './replay.js';
export { ClientSession, SEGMENT_SOURCE } from './session.js';

// The MCP SDK and zod are optional peer dependencies of toolsift: without
// them, importing this module says what to install instead of Node's bare
// "Cannot find package" (tests/front-door/newcomer.test.mjs).
const [gateway, http] = await importPeer(
  () => Promise.all([import('./gateway.js'), import('./http.js')]),
  /Cannot find (package|module) ['"](@modelcontextprotocol\/sdk|zod)/,
  () => new Error(
    'toolsift/mcp needs the MCP SDK, an optional peer dependency of toolsift: npm install @modelcontextprotocol/sdk@^1.32.2 zod@^4.6.7',
  ),
);
export const { Gateway } = gateway;
export const { serveHttp } = http;
