// wasm-p50.mjs — the p50 of a wasm module's searchJSON over a snapshot, the
// statistic bench/native/query_profile prints for the native typed search
// (docs/performance.md, "Exact pruning and precomputed scoring"):
//
//   node bench/wasm-p50.mjs MODULE.wasm SNAPSHOT.tsi QUERIES.txt [COUNT [ROUNDS]]
//
// Loads the snapshot into the module in this one process, runs the first
// 200 queries to warm up, then every query ROUNDS times; prints the p50 and
// p90 over the queries of each query's median time, in µs.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { load } from '../js/toolsift.js';

const [wasm, snap, qf, count = '1000', rounds = '3'] = process.argv.slice(2);
if (!qf) {
  console.error('usage: node bench/wasm-p50.mjs MODULE.wasm SNAPSHOT.tsi QUERIES.txt [COUNT [ROUNDS]]');
  process.exit(2);
}
const ts = await load(wasm);
const ix = ts.indexFromSnapshot(new Uint8Array(readFileSync(snap)));
const qs = readFileSync(qf, 'utf8').split('\n').filter(Boolean).slice(0, +count);
for (const q of qs.slice(0, 200)) ix.searchJSON(q, { limit: 10 });
const t = qs.map(() => []);
for (let r = 0; r < +rounds; r++)
  qs.forEach((q, i) => {
    const t0 = performance.now();
    ix.searchJSON(q, { limit: 10 });
    t[i].push(performance.now() - t0);
  });
const med = t.map((x) => x.sort((a, b) => a - b)[x.length >> 1] * 1000).sort((a, b) => a - b);
console.log(JSON.stringify({ module: wasm, queries: qs.length, rounds: +rounds, p50_us: +med[med.length >> 1].toFixed(2), p90_us: +med[Math.floor(med.length * 0.9)].toFixed(2) }));
ix.free();
