// index.js — the gateway as a library (`toolsift/mcp`): what the
// `toolsift-mcp` command is made of, for hosts that embed it.

export { checkConfig, readConfig, GatewayConfigError } from './config.js';
export { VERSION } from './version.js';
export { replayJournal, readJournal, JournalError } from './replay.js';
export { ClientSession, SEGMENT_SOURCE } from './session.js';

// The MCP SDK and zod are optional peer dependencies of toolsift: without
// them, importing this module says what to install instead of Node's bare
// "Cannot find package" (tests/front-door/newcomer.test.mjs).
let gateway;
let http;
try {
  [gateway, http] = await Promise.all([import('./gateway.js'), import('./http.js')]);
} catch (e) {
  if (/Cannot find (package|module) ['"](@modelcontextprotocol\/sdk|zod)/.test(String(e?.message))) {
    const error = new Error(
      'toolsift/mcp needs the MCP SDK, an optional peer dependency of toolsift: npm install @modelcontextprotocol/sdk@^1.32.2 zod@^4.6.7',
    );
    error.code = e.code ?? 'ERR_MODULE_NOT_FOUND'; // what a host that checks the code expects
    error.cause = e;
    throw error;
  }
  throw e;
}
export const { Gateway } = gateway;
export const { serveHttp } = http;
