// model-speed.mjs — search with the real static model (GloVe, `npm run
// model`, js/model-dir.js "glove") against BM25F in the same run (issue 35:
// fused p50 at 10k tools ≤ 2× BM25F natively). 10,000 tools (the catalog of
// vector-speed.mjs: bench/lib/repeated-tools.mjs) embedded with the model;
// every query searched lexically, then fused as a host does it: the query
// embedded by the model, then searched with that vector — natively
// (bench/native/bench_model.c, which also times the two parts apart) and in
// wasm through the binding (model.queryVector + searchJSON), the searches
// interleaved per query. Without the built model it says so and exits 0.
// Run: node bench/model-speed.mjs [tools] [queries] [--json FILE]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, ToolsiftError } from '../js/toolsift.js';
import { loadStaticModelDir, resolveModelDir } from '../js/model-dir.js';
import { repeatedTools } from './lib/repeated-tools.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonOut = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : null;
const NTOOLS = Number(args[0] ?? 10000);
const NQUERIES = Number(args[1] ?? 2000);
const BIN = path.join(ROOT, 'build/native/bench/native/bench_model');

let files;
try {
  files = resolveModelDir('glove');
} catch (e) {
  if (!(e instanceof ToolsiftError)) throw e;
  console.log(`SKIP: model-speed: ${e.message}`);
  process.exit(0);
}
if (!existsSync(BIN)) {
  console.error(`model-speed: ${path.relative(ROOT, BIN)} is missing (scripts/build.sh)`);
  process.exit(1);
}
const { tools, texts } = repeatedTools(NTOOLS, 'model-speed');
const queries = Array.from({ length: NQUERIES }, (_, i) => texts[i % texts.length]);
const p50 = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const ms = (x) => x.toFixed(3);

function nativeRun() {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-model-speed-'));
  try {
    writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify(tools));
    writeFileSync(path.join(dir, 'queries.txt'), queries.join('\n') + '\n');
    const r = spawnSync(BIN, [path.join(dir, 'catalog.json'), path.join(dir, 'queries.txt'), files.safetensors, files.tokenizer],
      { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function wasmRun() {
  const wasm = path.join(ROOT, 'build/wasm/toolsift.wasm');
  if (!existsSync(wasm)) return { skipped: 'build/wasm/toolsift.wasm is missing' };
  const ts = await load(readFileSync(wasm));
  const model = loadStaticModelDir(ts, 'glove');
  let t = performance.now();
  const ix = ts.createIndex(tools, { ids: 'lenient', model });
  const buildAndEmbed = performance.now() - t;
  const lex = [], fused = [], embed = [];
  for (const q of queries) {
    t = performance.now();
    ix.searchJSON(q, { limit: 10 });
    lex.push(performance.now() - t);
    t = performance.now();
    const vector = model.queryVector(q);
    const e = performance.now();
    ix.searchJSON(q, vector === null ? { limit: 10 } : { limit: 10, vector });
    fused.push(performance.now() - t);
    embed.push(e - t);
  }
  ix.free();
  model.free();
  const b = p50(lex), f = p50(fused);
  return { bm25f: b, fused: f, embed: p50(embed), p50Ratio: Number((f / b).toFixed(3)), buildAndEmbedMs: buildAndEmbed };
}

const n = nativeRun();
console.log(`model-speed: ${n.tools} tools, ${n.model} (dim ${n.dim}), ${n.bm25f.n} queries (${n.nullQueries} with no known word), ` +
  `${n.withoutVector} tools without a vector`);
console.log(`native (ms): BM25F p50 ${ms(n.bm25f.p50)} p95 ${ms(n.bm25f.p95)}; fused p50 ${ms(n.fused.p50)} p95 ${ms(n.fused.p95)} ` +
  `(embed p50 ${ms(n.embed.p50)}, search with the vector p50 ${ms(n.vecsearch.p50)}); p50 ratio ${n.p50Ratio} (target <= 2)`);
const w = await wasmRun();
if (w.skipped) console.log(`wasm: SKIP: ${w.skipped}`);
else console.log(`wasm (ms): BM25F p50 ${ms(w.bm25f)}; fused p50 ${ms(w.fused)} (embed p50 ${ms(w.embed)}); p50 ratio ${w.p50Ratio} (target <= 2)`);
const result = { native: n, wasm: w };
console.log(JSON.stringify(result));
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2) + '\n');
