// http.js — the gateway over streamable HTTP, on 127.0.0.1 only.
//
// Owns: one node:http listener, routing `POST/GET/DELETE <path>` to the
// client session named by the mcp-session-id header (an initialize request
// without one starts a new client session, with its own menu and journal),
// and refusing everything else with a status that says why. Hosts other than
// loopback names are refused (DNS rebinding protection).

import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const MAX_BODY = 4 * 1024 * 1024;

// A POST body, parsed (undefined when it is not JSON: the transport answers that).
async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw Object.assign(new Error(`request body over ${MAX_BODY} bytes`), { status: 413 });
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

const LOOPBACK_HOSTS = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;

function refuse(res, status, message) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serve `gateway` on 127.0.0.1:`port` (0 = any free port) at `mcpPath`.
 * Resolves to { url, close() } once listening.
 */
export function serveHttp(gateway, { port, path: mcpPath = '/mcp', idleTimeoutMs = 3600000 }) {
  const transports = new Map(); // session id → transport
  const lastSeen = new Map(); // session id → Date.now() of its last request
  // Client sessions nobody has used for idleTimeoutMs are closed (their
  // toolsift memory freed, their journal complete); the id then answers 404.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, seen] of lastSeen) {
      if (now - seen < idleTimeoutMs) continue;
      lastSeen.delete(id);
      const t = transports.get(id);
      transports.delete(id);
      gateway.log(`http: session ${id} idle for ${idleTimeoutMs} ms: closed`);
      t?.close().catch(() => {});
    }
  }, Math.min(idleTimeoutMs, 60000));
  sweep.unref();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (!LOOPBACK_HOSTS.test(req.headers.host ?? '')) {
        refuse(res, 403, `host ${JSON.stringify(req.headers.host)} refused: the gateway answers loopback names only`);
        return;
      }
      if (url.pathname !== mcpPath) {
        refuse(res, 404, `no MCP endpoint at ${url.pathname}; use ${mcpPath}`);
        return;
      }
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      if (req.method === 'POST' && body === undefined) {
        refuse(res, 400, 'the request body is not JSON');
        return;
      }
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (transport) lastSeen.set(sid, Date.now());
      if (!transport) {
        if (sid !== undefined) {
          refuse(res, 404, `unknown or closed session ${JSON.stringify(sid)}: initialize a new one`);
          return;
        }
        if (req.method !== 'POST' || !isInitializeRequest(body)) {
          refuse(res, 400, 'no mcp-session-id header: start a session with a POST initialize request');
          return;
        }
        const id = randomUUID();
        const entry = gateway.createClientSession('http', id);
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => id,
          onsessioninitialized: (sessionId) => {
            transports.set(sessionId, transport);
            lastSeen.set(sessionId, Date.now());
          },
        });
        transport.onclose = () => {
          transports.delete(id);
          lastSeen.delete(id);
        };
        await entry.server.connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (e) {
      gateway.log(`http: ${e?.message ?? e}`);
      refuse(res, e?.status ?? 500, `gateway error: ${e?.message ?? e}`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const url = `http://127.0.0.1:${server.address().port}${mcpPath}`;
      resolve({
        url,
        close: async () => {
          clearInterval(sweep);
          for (const t of transports.values()) await t.close().catch(() => {});
          const closed = new Promise((r) => server.close(() => r()));
          server.closeAllConnections?.(); // open SSE streams would hold close() forever
          await closed;
        },
      });
    });
  });
}
