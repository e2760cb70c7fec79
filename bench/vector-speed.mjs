// vector-speed.mjs — vector scoring against BM25F in the same run (issue 25):
// 10,000 tools (the development catalogs and the corpus, as rank-speed.mjs
// takes them, repeated under prefixed ids to the count) with a random
// 256-dimension vector each, every query searched lexically and fused with a
// random query vector (bench/native/bench_vectors.c). The issue asks for the
// fused search's p50 within 2x of BM25F's.
// Run: node bench/vector-speed.mjs [tools] [dim] [queries]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NTOOLS = Number(process.argv[2] ?? 10000);
const DIM = Number(process.argv[3] ?? 256);
const NQUERIES = Number(process.argv[4] ?? 2000);
const SHARED = path.resolve(ROOT, '../shared/datasets');
const BIN = path.join(ROOT, 'build/native/bench/native/bench_vectors');

const jsonl = (file) =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const base = [];
const texts = jsonl(path.join(ROOT, 'corpus/queries.jsonl')).map((q) => q.query);
if (existsSync(SHARED)) {
  for (const set of ['sealtools', 'toollens', 'metatool']) {
    for (const t of jsonl(path.join(SHARED, set, 'tools.jsonl')))
      base.push({ id: `${set}__${t.id}`, name: t.name, description: t.description, parameters: t.parameters });
    texts.push(...jsonl(path.join(SHARED, set, 'queries_dev.jsonl')).map((q) => q.query));
  }
} else {
  console.log('SKIP: vector-speed: ../shared/datasets not present; the corpus catalog only');
}
base.push(...JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8')).tools);
const tools = [];
for (let copy = 0; tools.length < NTOOLS; copy++)
  for (const t of base) {
    if (tools.length >= NTOOLS) break;
    tools.push({ ...t, id: copy ? `c${copy}_${t.id ?? t.name}` : (t.id ?? t.name) });
  }
if (!existsSync(BIN)) {
  console.error(`vector-speed: ${path.relative(ROOT, BIN)} is missing (scripts/build.sh)`);
  process.exit(1);
}
const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-vec-'));
try {
  writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify(tools));
  const queries = Array.from({ length: NQUERIES }, (_, i) => texts[i % texts.length].replace(/\n/g, ' '));
  writeFileSync(path.join(dir, 'queries.txt'), queries.join('\n') + '\n');
  const r = spawnSync(BIN, [path.join(dir, 'catalog.json'), path.join(dir, 'queries.txt'), String(DIM)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const j = JSON.parse(r.stdout);
  console.log(`${j.tools} tools x ${j.dim} dims, ${j.bm25f.n} queries (ms): BM25F p50 ${j.bm25f.p50.toFixed(3)} ` +
    `p95 ${j.bm25f.p95.toFixed(3)}; fused p50 ${j.fused.p50.toFixed(3)} p95 ${j.fused.p95.toFixed(3)}; ` +
    `p50 ratio ${j.p50Ratio} (target <= 2)`);
  console.log(JSON.stringify(j));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
