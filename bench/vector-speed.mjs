// vector-speed.mjs — vector scoring against BM25F in the same run (issue 25):
// 10,000 tools (the development catalogs and the corpus, as rank-speed.mjs
// takes them, repeated under prefixed ids to the count) with a random
// 256-dimension vector each, every query searched lexically and fused with a
// random query vector (bench/native/bench_vectors.c); then the same in wasm
// through the JS binding (searchJSON: the query vector crosses as base64),
// the two searches interleaved per query. The issue asks for the fused
// search's p50 within 2x of BM25F's.
// Run: node bench/vector-speed.mjs [tools] [dim] [queries]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../js/toolsift.js';
import { repeatedTools } from './lib/repeated-tools.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NTOOLS = Number(process.argv[2] ?? 10000);
const DIM = Number(process.argv[3] ?? 256);
const NQUERIES = Number(process.argv[4] ?? 2000);
const BIN = path.join(ROOT, 'build/native/bench/native/bench_vectors');

const { tools, texts } = repeatedTools(NTOOLS, 'vector-speed');
if (!existsSync(BIN)) {
  console.error(`vector-speed: ${path.relative(ROOT, BIN)} is missing (scripts/build.sh)`);
  process.exit(1);
}
// The wasm module through the binding: the same tools, random vectors from
// a 32-bit LCG (uniform in [-0.5, 0.5), as the native driver's are uniform).
async function wasmSetup() {
  const wasm = path.join(ROOT, 'build/wasm/toolsift.wasm');
  if (!existsSync(wasm)) return null;
  return load(readFileSync(wasm));
}
const ts = await wasmSetup();
function wasmRun(queries) {
  if (!ts) return { skipped: 'build/wasm/toolsift.wasm is missing', bm25f: NaN, fused: NaN, p50Ratio: null };
  let seed = 7;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
  const ix = ts.createIndex(tools, { ids: 'lenient' });
  ix.setVectors('bench-random', Array.from({ length: tools.length }, () => Float32Array.from({ length: DIM }, rnd)));
  const lex = [], fused = [];
  for (const q of queries) {
    const vector = Float32Array.from({ length: DIM }, rnd);
    let t = performance.now();
    ix.searchJSON(q, { limit: 10 });
    lex.push(performance.now() - t);
    t = performance.now();
    ix.searchJSON(q, { limit: 10, vector });
    fused.push(performance.now() - t);
  }
  ix.free?.();
  const p50 = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  const b = p50(lex), f = p50(fused);
  return { bm25f: b, fused: f, p50Ratio: Number((f / b).toFixed(3)) };
}
const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-vec-'));
try {
  writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify(tools));
  const queries = Array.from({ length: NQUERIES }, (_, i) => texts[i % texts.length]);
  writeFileSync(path.join(dir, 'queries.txt'), queries.join('\n') + '\n');
  const r = spawnSync(BIN, [path.join(dir, 'catalog.json'), path.join(dir, 'queries.txt'), String(DIM)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const j = JSON.parse(r.stdout);
  console.log(`${j.tools} tools x ${j.dim} dims, ${j.bm25f.n} queries (ms): BM25F p50 ${j.bm25f.p50.toFixed(3)} ` +
    `p95 ${j.bm25f.p95.toFixed(3)}; fused p50 ${j.fused.p50.toFixed(3)} p95 ${j.fused.p95.toFixed(3)}; ` +
    `p50 ratio ${j.p50Ratio} (target <= 2)`);
  console.log(JSON.stringify(j));
  const w = wasmRun(queries);
  console.log(`wasm: BM25F p50 ${w.bm25f.toFixed(3)}; fused p50 ${w.fused.toFixed(3)}; p50 ratio ${w.p50Ratio} (target <= 2)`);
  console.log(JSON.stringify({ wasm: w }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
