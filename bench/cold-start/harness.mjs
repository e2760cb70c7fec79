// harness.mjs — the request handler both cold-start Workers share
// (worker-toolsift.mjs, worker-sqlite.mjs; bench/cold-start.mjs runs them
// under workerd). An engine is
//   init()                                  -> instance   (once per isolate, timed as initMs)
//   open(instance, bytes, query, k)         -> { state, ids }   the stored index's bytes → the first query's top-k ids
//   openStream(instance, body, length, query, k) -> Promise<{ state, ids }>   (optional) the same from a ReadableStream
//   free(instance, state)
//   memory(instance)                        -> the module's linear memory in bytes
//
//   GET /load?file=F&query=Q&k=K[&mode=bytes|stream]
//     fetches F from the STORAGE service (a local HTTP server), then times
//     inside the isolate, with performance.now():
//       bytes:  bodyMs  response → the bytes in an ArrayBuffer
//               loadMs  bytes → the first query's result (what is compared)
//       stream: streamMs  response → the first query's result, the body
//               streamed into the engine (transfer included)
//     and answers { first, initMs, bodyMs, loadMs | streamMs, ids, bytes, memory }.
//     The index loaded by the previous request is freed first (untimed), so
//     every load is a fresh one; `first` says it is the isolate's first.
//   GET /clock  whether performance.now() advances while JavaScript runs
//     (Cloudflare's production runtime freezes it between I/O; local
//     workerd 1.2026 advances it in whole milliseconds).
export function coldStartWorker(engine) {
  let instance = null;
  let initMs = null;
  let previous = null;
  let loads = 0;
  return {
    async fetch(request, env) {
      const url = new URL(request.url);
      try {
        if (url.pathname === '/clock') return json({ advancedMs: spin(5) });
        if (url.pathname !== '/load') return json({ error: `no route ${url.pathname}` }, 404);
        const file = url.searchParams.get('file');
        const query = url.searchParams.get('query');
        const k = Number(url.searchParams.get('k') ?? 10);
        const mode = url.searchParams.get('mode') ?? 'bytes';
        if (!file || !query || !(mode === 'bytes' || (mode === 'stream' && engine.openStream))) {
          return json({ error: 'expected file=F&query=Q[&k=K][&mode=bytes|stream] (stream: toolsift only)' }, 400);
        }
        if (!instance) {
          const t = performance.now();
          instance = await engine.init();
          initMs = performance.now() - t;
        }
        if (previous) engine.free(instance, previous);
        previous = null;
        const res = await env.STORAGE.fetch(`http://storage/${encodeURIComponent(file)}`);
        if (!res.ok) throw new Error(`storage answered ${res.status} for ${file}`);
        const out = { first: loads++ === 0, initMs };
        const t0 = performance.now(); // the last I/O: the response's headers are in
        let opened;
        if (mode === 'stream') {
          const length = Number(res.headers.get('content-length'));
          opened = await engine.openStream(instance, res.body, length, query, k);
          out.streamMs = performance.now() - t0;
          out.bytes = length;
        } else {
          const bytes = new Uint8Array(await res.arrayBuffer());
          const t1 = performance.now();
          opened = engine.open(instance, bytes, query, k);
          out.loadMs = performance.now() - t1;
          out.bodyMs = t1 - t0;
          out.bytes = bytes.length;
        }
        previous = opened.state;
        return json({ ...out, ids: opened.ids, memory: engine.memory(instance) });
      } catch (e) {
        return json({ error: String(e?.stack ?? e) }, 500);
      }
    },
  };
}

// Busy-waits until performance.now() has moved by `ms` (or gives up after
// ~10^8 steps): the milliseconds it moved.
function spin(ms) {
  const t0 = performance.now();
  let t = t0;
  for (let i = 0; i < 1e8 && t - t0 < ms; i++) t = performance.now();
  return t - t0;
}

const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
