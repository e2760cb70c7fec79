// errors.js — the gateway's errors: the configuration error every bad key or
// flag throws, and the JSON-RPC error codes it answers with, in one table
// (docs/mcp-gateway.md "Security" lists them). -32000 and -32001 are the
// MCP SDK transport's own (bad request, session not found); ours are
// -32010 and up, so a client can tell every refusal apart by code.

export const CODES = Object.freeze({
  badRequest: -32000, // malformed request, wrong method, no session, Host refused
  sessionNotFound: -32001, // an id the gateway never issued or already forgot (HTTP 404)
  unauthorized: -32010, // no or wrong bearer token (HTTP 401)
  originRefused: -32011, // an Origin not in http.allowedOrigins (HTTP 403)
  tooManySessions: -32012, // http.maxSessions open already (HTTP 503)
  sessionExpired: -32013, // closed after http.idleTimeoutMs without a request (HTTP 404)
  journalFull: -32014, // journal.maxBytes reached: no more decisions this session (tools/call)
});

/** A JSON-RPC error body (id null: the request was refused before it was read as a message). */
export const errorBody = (code, message, id = null) => JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });

/** A configuration error: `message` names the key (or flag) and the reason. */
export class GatewayConfigError extends Error {
  constructor(message) {
    super(message);
    this.name = 'GatewayConfigError';
  }
}
