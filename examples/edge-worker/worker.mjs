// worker.mjs — `search_tools` over HTTP from a Cloudflare Worker.
//
// The index is a snapshot (index.tsi) made at build time by build.mjs, so a
// cold start loads it without re-analysing the catalog. Workers import a
// .wasm file as a compiled WebAssembly.Module and a binary file as an
// ArrayBuffer; both are modules of the bundle (see config.capnp).
//
//   GET  /                          the search_tools tool definition (MCP)
//   GET  /search_tools?query=Q&limit=N
//   POST /search_tools  {"query": Q, "limit": N}
//   GET  /info                      index facts (version, tools, fingerprint)
// Search answers are the core's JSON, byte for byte what
// `toolsift search --index index.tsi --limit N Q` prints, less the newline
// the CLI ends its line with.

import wasm from './toolsift-serving.wasm'; // the serving module (no evaluation or learning)
import snapshot from './index.tsi';
import { load, ToolsiftError } from './toolsift.js';

const TOOL = {
  name: 'search_tools',
  description:
    'Search the tool catalog with a natural-language query; returns the best matching tools.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What the tool should do.' },
      limit: { type: 'integer', minimum: 1, maximum: 50, description: 'At most this many tools (default 5).' },
    },
    required: ['query'],
  },
};

// One module instance and one index per isolate, made on the first request.
let ready = null;
function index() {
  ready ??= load(wasm).then((toolsift) => toolsift.indexFromSnapshot(new Uint8Array(snapshot)));
  return ready;
}

const json = (body, status = 200) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

async function searchArgs(request, url) {
  if (request.method === 'POST') {
    const body = await request.json().catch(() => null);
    if (!body || typeof body !== 'object') return null;
    return { query: body.query, limit: body.limit ?? 5 };
  }
  const limit = url.searchParams.get('limit');
  return { query: url.searchParams.get('query'), limit: limit === null ? 5 : Number(limit) };
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    try {
      if (url.pathname === '/') return json(TOOL);
      if (url.pathname === '/info') return json((await index()).infoJSON());
      if (url.pathname !== '/search_tools') return json({ error: 'not found' }, 404);
      const args = await searchArgs(request, url);
      if (!args || typeof args.query !== 'string' || !Number.isInteger(args.limit) ||
          args.limit < 1 || args.limit > 50) {
        return json({ error: 'expected {"query": string, "limit": integer 1..50}' }, 400);
      }
      return json((await index()).searchJSON(args.query, { limit: args.limit }));
    } catch (e) {
      if (e instanceof ToolsiftError) return json({ error: e.code, message: e.message }, 400);
      return json({ error: 'internal', message: String(e?.message ?? e) }, 500);
    }
  },
};
