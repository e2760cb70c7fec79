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

import { syntheticVectors } from './synthetic-vectors.mjs';

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
const text = syntheticVectors({ ids, queries: readFileSync(a.queries, 'utf8'), kind: a.kind, dim: a.dim, signal: a.signal });
writeFileSync(a.out, text);
