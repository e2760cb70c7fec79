// http.js — the gateway over streamable HTTP, on 127.0.0.1 only.
//
// Owns: one node:http listener, the order in which a request is checked, and
// routing `POST/GET/DELETE <path>` to the client session named by the
// mcp-session-id header. Validate first, build later: a request is checked —
// Host (loopback names only: DNS rebinding), path, Origin (auth.js: web
// pages), bearer token (auth.js: other local processes and users), method,
// and for a new session Accept, Content-Type, JSON, an initialize request,
// http.maxSessions — before anything is made for it. Only a request that
// passes every check gets a client session (its menu, its journal, which is
// written to disk only once the SDK transport has accepted the initialize
// and the session records something), and only while http.maxSessions and
// the journal folder's caps leave room (503 otherwise, logged once per 10 s
// with a count: a client decides how often it is refused). A client that
// sends its headers (or its request) too slowly is answered 408 and its
// socket closed after http.headersTimeoutMs (requestTimeoutMs).
// A session belongs to the token that opened it: another token naming it
// gets the same 404 as an unknown id.

import { createServer } from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { authSettings, checkOrigin } from './auth.js';
import { CODES, errorBody, shownText } from './errors.js';

const MAX_BODY = 4 * 1024 * 1024;
const LOOPBACK_HOSTS = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;
const METHODS = ['GET', 'POST', 'DELETE'];
// What an MCP client in a browser sends and reads (preflight answer).
const CORS_ALLOW_HEADERS = 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id';
const CORS_EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';
// Ids of sessions closed for idleness are remembered (as digests: the ids
// are secrets) so their 404 can say why; bounded, oldest forgotten first.
const EXPIRED_REMEMBERED = 4096;

class HttpRefusal extends Error {
  constructor(status, code, message, headers = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

// A POST body, parsed (undefined when it is not JSON).
async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpRefusal(413, CODES.badRequest, `request body over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function refuse(res, status, code, message, headers = {}) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(errorBody(code, message));
}

// The SDK transport's own POST checks, made before a session exists (the
// transport would make them only after): Accept lists both types (a
// substring test, as the SDK's), Content-Type is application/json.
function checkNewSessionHeaders(req) {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new HttpRefusal(406, CODES.badRequest, 'Not Acceptable: the Accept header must list both application/json and text/event-stream');
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    throw new HttpRefusal(415, CODES.badRequest, `Unsupported Media Type: Content-Type must be application/json, not ${JSON.stringify(req.headers['content-type'] ?? '')}`);
  }
}

const digestOf = (id) => createHash('sha256').update(id).digest('hex');

/**
 * Serve `gateway` on 127.0.0.1:`port` (0 = any free port) at `path`.
 * Options: `tokens` (TokenSet or [{ name, token }]) or `noAuth: true`;
 * `allowedOrigins` (normalised origins; default none: only requests without
 * Origin), `maxSessions` (64), `maxSessionsPerToken` (maxSessions: no
 * share), `idleTimeoutMs` (1 h), `headersTimeoutMs`
 * (10 s) and `requestTimeoutMs` (30 s). Resolves to { url, close(),
 * sessions() (how many are open), httpServer (the node:http Server) } once
 * listening.
 */
export function serveHttp(gateway, {
  port, path: mcpPath = '/mcp', idleTimeoutMs = 3600000, maxSessions = 64, allowedOrigins = [], tokens, noAuth = false,
  headersTimeoutMs = 10000, requestTimeoutMs = 30000, maxSessionsPerToken = maxSessions,
}) {
  const auth = authSettings({ tokens, noAuth });
  const origins = new Set(allowedOrigins);
  const sessions = new Map(); // session id → { transport, entry, principal, lastSeen }
  const openingBy = new Map(); // principal → initializes in flight
  const expired = new Set(); // digests of ids closed for idleness
  let opening = 0; // sessions made for an initialize the transport is still handling
  const log = gateway.log;

  // Client sessions nobody has used for idleTimeoutMs are closed (their
  // toolsift memory freed, their journal complete); the id then answers 404
  // with CODES.sessionExpired.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) {
      if (now - s.lastSeen < idleTimeoutMs) continue;
      sessions.delete(id);
      expired.add(digestOf(id));
      if (expired.size > EXPIRED_REMEMBERED) expired.delete(expired.values().next().value);
      log(`http: session ${s.entry.label} idle for ${idleTimeoutMs} ms: closed`);
      s.transport.close().catch(() => {});
    }
  }, Math.min(idleTimeoutMs, 60000));
  sweep.unref();

  // A valid initialize: make the session, let the transport answer, keep it
  // if the transport accepted it (it calls onsessioninitialized), else
  // close it again — its journal was never written.
  async function openSession(req, res, body, principal) {
    if (sessions.size + opening >= maxSessions) {
      gateway.quiet.note('http-max-sessions', `http: initialize refused: http.maxSessions (${maxSessions}) sessions are open`);
      throw new HttpRefusal(503, CODES.tooManySessions, `too many sessions: http.maxSessions (${maxSessions}) are open; close one (DELETE) or wait for an idle one to time out`,
        { 'retry-after': '5' });
    }
    // Then one token's share: a client with a token cannot take every slot
    // from the others (http.maxSessionsPerToken; the same 503).
    let mine = openingBy.get(principal) ?? 0;
    for (const s of sessions.values()) mine += s.principal === principal;
    if (mine >= maxSessionsPerToken) {
      gateway.quiet.note('http-max-sessions-token', `http: initialize refused: http.maxSessionsPerToken (${maxSessionsPerToken}) sessions of one token are open`);
      throw new HttpRefusal(503, CODES.tooManySessions, `too many sessions for this token: http.maxSessionsPerToken (${maxSessionsPerToken}) are open; close one (DELETE) or wait for an idle one to time out`,
        { 'retry-after': '5' });
    }
    // A session that could record nothing could decide nothing: refused
    // while the journal folder is at a cap it cannot make room under.
    const full = gateway.journalRefusal();
    if (full) {
      gateway.quiet.note('http-journal-full', `http: initialize refused: journal storage full (${full.why})`);
      throw new HttpRefusal(503, CODES.journalStorageFull, `journal storage full: ${full.why}; a session whose decisions cannot be recorded is not opened — ` +
        `${gateway.config.journalWhenFull === 'refuse' ? 'the operator must move journals away (journal.whenFull "refuse")' : 'the open sessions\' journals alone fill it: close one'}`,
      { 'retry-after': '30' });
    }
    opening++;
    openingBy.set(principal, (openingBy.get(principal) ?? 0) + 1);
    let accepted = false;
    let entry;
    try {
      const id = randomUUID();
      entry = gateway.createClientSession('http', { principal, commit: false });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        onsessioninitialized: () => {
          accepted = true;
          sessions.set(id, { transport, entry, principal, lastSeen: Date.now() });
          entry.commit();
          log(`http: session ${entry.label} opened${principal ? ` (token "${principal}")` : ''}`);
        },
      });
      transport.onclose = () => {
        if (sessions.get(id)?.transport === transport) sessions.delete(id);
      };
      await entry.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      opening--;
      if (openingBy.get(principal) === 1) openingBy.delete(principal);
      else openingBy.set(principal, openingBy.get(principal) - 1);
      if (!accepted && entry) await entry.server.close().catch(() => {});
    }
  }

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!LOOPBACK_HOSTS.test(req.headers.host ?? '')) {
      throw new HttpRefusal(403, CODES.badRequest, `host ${JSON.stringify(req.headers.host)} refused: the gateway answers loopback names only`);
    }
    if (url.pathname !== mcpPath) throw new HttpRefusal(404, CODES.badRequest, `no MCP endpoint at ${url.pathname}; use ${mcpPath}`);
    const origin = checkOrigin(req.headers.origin, origins);
    if (!origin.ok) {
      throw new HttpRefusal(403, CODES.originRefused, `origin ${JSON.stringify(origin.origin)} refused: it is not in http.allowedOrigins`);
    }
    if (origin.origin !== null) {
      res.setHeader('access-control-allow-origin', origin.origin);
      res.setHeader('access-control-expose-headers', CORS_EXPOSE_HEADERS);
      res.setHeader('vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      // A preflight carries no credentials: it is answered for an allowed
      // Origin only (a request without Origin is no browser's: 204 is harmless).
      res.writeHead(204, {
        'access-control-allow-methods': METHODS.join(', '),
        'access-control-allow-headers': CORS_ALLOW_HEADERS,
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    let principal = null;
    if (auth) {
      principal = auth.identify(req.headers.authorization);
      if (principal === null) {
        const given = req.headers.authorization !== undefined;
        throw new HttpRefusal(401, CODES.unauthorized,
          given ? 'unauthorized: the bearer token is not one of this gateway\'s' : 'unauthorized: send Authorization: Bearer <token>',
          { 'www-authenticate': `Bearer realm="toolsift-mcp"${given ? ', error="invalid_token"' : ''}` });
      }
    }
    if (!METHODS.includes(req.method)) {
      throw new HttpRefusal(405, CODES.badRequest, `method ${req.method} not allowed: use ${METHODS.join(', ')}`, { allow: METHODS.join(', ') });
    }
    const sid = req.headers['mcp-session-id'];
    if (sid !== undefined) {
      const s = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (!s || s.principal !== principal) {
        if (typeof sid === 'string' && expired.has(digestOf(sid)) && s === undefined) {
          throw new HttpRefusal(404, CODES.sessionExpired, `session expired: it was closed after http.idleTimeoutMs (${idleTimeoutMs} ms) without a request; initialize a new one`);
        }
        throw new HttpRefusal(404, CODES.sessionNotFound, 'unknown or closed session: initialize a new one');
      }
      s.lastSeen = Date.now();
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      if (req.method === 'POST' && body === undefined) throw new HttpRefusal(400, CODES.badRequest, 'the request body is not JSON');
      await s.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') throw new HttpRefusal(400, CODES.badRequest, 'no mcp-session-id header: start a session with a POST initialize request');
    checkNewSessionHeaders(req);
    const body = await readJson(req);
    if (body === undefined) throw new HttpRefusal(400, CODES.badRequest, 'the request body is not JSON');
    if (!isInitializeRequest(body)) {
      throw new HttpRefusal(400, CODES.badRequest, 'no mcp-session-id header: start a session with a POST initialize request (one JSON-RPC message, not a batch)');
    }
    await openSession(req, res, body, principal);
  }

  // Node checks these every connectionsCheckingInterval (30 s by default):
  // once a second here, so a slow client is cut near its timeout.
  const server = createServer({ headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 2))) }, async (req, res) => {
    try {
      await handle(req, res);
    } catch (e) {
      if (e instanceof HttpRefusal) {
        refuse(res, e.status, e.code, e.message, e.headers);
        return;
      }
      log(`http: ${shownText(e?.message ?? e)}`);
      refuse(res, 500, CODES.badRequest, `gateway error: ${e?.message ?? e}`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const url = `http://127.0.0.1:${server.address().port}${mcpPath}`;
      resolve({
        url,
        httpServer: server,
        sessions: () => sessions.size,
        close: async () => {
          clearInterval(sweep);
          for (const s of sessions.values()) await s.transport.close().catch(() => {});
          const closed = new Promise((r) => server.close(() => r()));
          server.closeAllConnections?.(); // open SSE streams would hold close() forever
          await closed;
        },
      });
    });
  });
}
