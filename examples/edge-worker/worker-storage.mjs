// worker-storage.mjs — the edge worker with its catalogs in storage instead
// of the bundle: for a catalog larger than a Worker bundle allows (README),
// or one catalog per tenant. Each snapshot is fetched once per isolate, on
// the first request that needs it, streamed straight into the module's
// memory (Toolsift#indexFromSnapshotStream: never whole in JavaScript memory)
// and kept for the isolate's life; at most MAX_TENANTS indexes stay loaded
// (the least recently used one is freed).
//
// Storage is the STORAGE service binding (config-storage.capnp: a local HTTP
// server in the test; in production an R2 bucket's public URL, an origin, or
// an R2 binding's get()), asked for /<tenant>.tsi.
//
//   GET /search_tools?query=Q&limit=N[&tenant=T][&vector=V]   (tenant default: "default";
//        V: the query's vector, base64 float32 little-endian, for a snapshot
//        with vectors — e.g. StaticModel#queryVector(Q) on the caller's side)
//   GET /info[?tenant=T]
//   GET /memory                  the module's linear memory in bytes
import wasm from './toolsift-serving.wasm'; // the serving module (no evaluation or learning)
import { load, ToolsiftError } from './toolsift.js';

const MAX_TENANTS = 4;
const TENANT = /^[a-z0-9][a-z0-9_-]{0,62}$/;

let toolsift = null; // one module instance per isolate
const indexes = new Map(); // tenant -> Promise<Index>, in least recently used order

async function fetchIndex(env, tenant) {
  toolsift ??= await load(wasm);
  const res = await env.STORAGE.fetch(`http://storage/${tenant}.tsi`);
  if (res.status === 404) throw new ToolsiftError('arg', `no catalog for tenant "${tenant}"`, 1);
  if (!res.ok) throw new Error(`storage answered ${res.status}`);
  const length = Number(res.headers.get('content-length'));
  if (Number.isSafeInteger(length) && length > 0) return toolsift.indexFromSnapshotStream(res.body, length);
  return toolsift.indexFromSnapshot(new Uint8Array(await res.arrayBuffer())); // no length: buffer it
}

function index(env, tenant) {
  let p = indexes.get(tenant);
  if (p) {
    indexes.delete(tenant); // most recently used last
  } else {
    p = fetchIndex(env, tenant);
    p.catch(() => indexes.delete(tenant)); // a failed fetch is retried by the next request
    while (indexes.size >= MAX_TENANTS) {
      const [oldest, q] = indexes.entries().next().value;
      indexes.delete(oldest);
      q.then((ix) => ix.free(), () => {});
    }
  }
  indexes.set(tenant, p);
  return p;
}

const json = (body, status = 200) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    try {
      if (url.pathname === '/memory') return json({ wasmMemory: toolsift ? toolsift.memory.buffer.byteLength : 0 });
      const tenant = url.searchParams.get('tenant') ?? 'default';
      if (!TENANT.test(tenant)) return json({ error: 'bad tenant' }, 400);
      if (url.pathname === '/info') return json((await index(env, tenant)).infoJSON());
      if (url.pathname !== '/search_tools') return json({ error: 'not found' }, 404);
      const query = url.searchParams.get('query');
      const limit = Number(url.searchParams.get('limit') ?? 5);
      if (typeof query !== 'string' || !Number.isInteger(limit) || limit < 1 || limit > 50) {
        return json({ error: 'expected query=string&limit=integer 1..50' }, 400);
      }
      const vector = url.searchParams.get('vector');
      return json((await index(env, tenant)).searchJSON(query, vector === null ? { limit } : { limit, vector }));
    } catch (e) {
      if (e instanceof ToolsiftError) return json({ error: e.code, message: e.message }, 400);
      return json({ error: 'internal', message: String(e?.message ?? e) }, 500);
    }
  },
};
