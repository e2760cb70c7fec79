#!/usr/bin/env node
// eval-vectors.mjs — synthetic vectors files for `toolsift eval --vectors`
// (docs/relevance.md, "Measuring a model"), to test the fusion rule, not to
// claim quality:
//   random  every tool and every query an independent Gaussian vector (a
//           model that knows nothing: fusion must not hurt);
//   oracle  each tool a Gaussian r_t seeded from its id, each query the sum
//           of grade x r_t over its relevant tools (a model that knows the
//           labels: fusion must help); a no-match query gets a random one;
//   noisy   the oracle query plus independent noise, the oracle part scaled
//           to --signal (0..1) of the noise's length: a mediocre model.
// Usage: node scripts/eval-vectors.mjs --catalog F --queries Q.jsonl
//          --kind random|oracle|noisy [--signal 0.5] [--dim 256] -o OUT.jsonl
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function args(argv) {
  const a = { kind: 'oracle', dim: 256, signal: 0.5, bin: 'build/native/toolsift' };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i].replace(/^--?/, '');
    a[k === 'o' ? 'out' : k] = argv[++i];
  }
  a.dim = Number(a.dim);
  a.signal = Number(a.signal);
  if (!a.catalog || !a.queries || !a.out || !['random', 'oracle', 'noisy'].includes(a.kind)) {
    process.stderr.write('usage: eval-vectors.mjs --catalog F --queries Q --kind random|oracle|noisy -o OUT\n');
    process.exit(2);
  }
  return a;
}

// A seeded stream of standard Gaussians (FNV-1a of the seed, mulberry32, Box-Muller).
function gaussian(seed) {
  let h = 2166136261;
  for (const c of Buffer.from(seed)) h = Math.imul(h ^ c, 16777619) >>> 0;
  const next = () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
}

function vector(seed, dim) {
  const g = gaussian(seed);
  return Array.from({ length: dim }, g);
}

function unit(v) {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / n);
}

const b64 = (v) => Buffer.from(new Float32Array(v).buffer).toString('base64');

// The catalog's tool ids as the core reads them (`toolsift docs`, lenient ids).
function toolIds(a) {
  let file = a.catalog;
  const dir = mkdtempSync(join(tmpdir(), 'tsift-vec-'));
  try {
    const text = readFileSync(file, 'utf8');
    if (/\.jsonl$/.test(file)) {
      file = join(dir, 'catalog.json');
      const lines = text.split('\n').filter((l) => l.trim());
      writeFileSync(file, `[${lines.join(',')}]`);
    }
    const out = execFileSync(a.bin, ['docs', '--catalog', file, '--options', '{"ids":"lenient"}'], {
      maxBuffer: 1 << 30,
    });
    return JSON.parse(out).tools.map((t) => t.id);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const a = args(process.argv);
const ids = toolIds(a);
const lines = [JSON.stringify({ kind: 'model', id: `${a.kind}-${a.dim}` })];
const toolVec = new Map();
for (const id of ids) {
  const v = a.kind === 'random' ? vector(`random-tool:${id}`, a.dim) : vector(`tool:${id}`, a.dim);
  toolVec.set(id, v);
  lines.push(JSON.stringify({ kind: 'tool', id, b64: b64(v) }));
}
for (const line of readFileSync(a.queries, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const q = JSON.parse(line);
  const rel = q.relevance ?? q.relevant ?? {};
  const noise = vector(`random-query:${JSON.stringify(q.id)}`, a.dim);
  let v = noise;
  const judged = Object.entries(rel).filter(([id, g]) => g > 0 && toolVec.has(id));
  if (a.kind !== 'random' && judged.length) {
    const sum = new Array(a.dim).fill(0);
    for (const [id, g] of judged) toolVec.get(id).forEach((x, i) => (sum[i] += g * x));
    const o = unit(sum);
    v = a.kind === 'oracle' ? o : unit(noise).map((x, i) => x + a.signal * o[i]);
  }
  lines.push(JSON.stringify({ kind: 'query', id: q.id, b64: b64(v) }));
}
writeFileSync(a.out, lines.join('\n') + '\n');
