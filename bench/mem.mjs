// mem.mjs — memory of one engine on one catalog, in a fresh process
// (run by bench/run.mjs with --expose-gc):
//   node --expose-gc bench/mem.mjs ENGINE CATALOG_KEY
// Prints one JSON line: retained bytes after the build and 200 queries (JS
// heap + external memory after a full GC, minus the same before the build;
// V8 counts a wasm linear memory as external, so toolsift's growth of it is
// included — the linear memory never shrinks, so that is also its peak), and
// the peak RSS of the process above its RSS before the build.
import { performance } from 'node:perf_hooks';
import { loadCatalog } from './lib/catalogs.mjs';
import { PEERS, toolsiftEngine } from './lib/engines.mjs';

const [name, key] = process.argv.slice(2);
const gc = globalThis.gc ?? (() => {});
const cat = loadCatalog(key, 200);
let engine = null;
if (name === 'toolsift') engine = await toolsiftEngine(process.env.TOOLSIFT_WASM);
else for (const make of PEERS) {
  const e = await make();
  if (e.name === name) engine = e;
}
if (!engine) throw new Error(`unknown engine ${name}`);
const input = { text: cat.text, catalog: cat.catalog, mask: null };
const wasmBefore = engine.memory ? engine.memory() : 0;
gc(); gc();
const used = () => {
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss };
};
const before = used();
const t0 = performance.now();
const state = engine.build(input);
const buildMs = performance.now() - t0;
for (const q of cat.queries) engine.search(state, q, 10);
gc(); gc();
const after = used();
const wasm = engine.memory ? engine.memory() : 0;
const peakRss = process.resourceUsage().maxRSS * 1024;
const retained = after.heap - before.heap + (after.external - before.external);
console.log(JSON.stringify({
  engine: name, catalog: key, buildMs,
  heapRetained: after.heap - before.heap,
  externalRetained: after.external - before.external,
  wasmMemory: wasm, wasmGrowth: wasm - wasmBefore,
  retainedBytes: retained,
  peakRssAbove: peakRss - before.rss,
  keep: typeof state,
}));
