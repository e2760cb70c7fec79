#!/usr/bin/env node
// figures.mjs — the README front page's figures, read from the benchmark's
// own output (bench/results/latest.json, written by `npm run bench`).
// The figures live in one generated block of README.md, between
//   <!-- figures: … --> and <!-- /figures -->
// and nowhere else on the page (outside code).
//   node scripts/figures.mjs            print the figures as JSON
//   node scripts/figures.mjs --write    rewrite README.md's block from latest.json
//   node scripts/figures.mjs --check    exit 1 when README.md disagrees with latest.json
// tests/front-door/figures.test.mjs runs the check.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
export const SOURCE = 'bench/results/latest.json';
const OPEN = /<!-- figures:[^>]*-->\n/;
const CLOSE = '<!-- /figures -->';

const int = (n) => Math.round(n).toLocaleString('en-US');
const ratio = (n) => `${n >= 10 ? Math.round(n) : n.toFixed(1)}×`;
const ndcg = (n) => n.toFixed(3);
const ms = (n) => (n >= 10 ? n.toFixed(1) : n >= 1 ? n.toFixed(2) : n.toFixed(2));

const SETS = [
  ['corpus', 'our corpus'],
  ['toollens', 'ToolLens dev'],
  ['metatool', 'MetaTool dev'],
  ['sealtools', 'Seal-Tools dev'],
];

/** The figures the front page shows, formatted, from a latest.json object. */
export function figures(latest) {
  if (!latest?.complete) throw new Error(`${SOURCE}: not a complete run (complete: ${latest?.complete})`);
  const f = {
    date: latest.machine.date.slice(0, 10),
    machine: `${latest.machine.cpu}, ${latest.machine.cores} cores, Node ${latest.machine.node}`,
  };
  const sets = Object.fromEntries(latest.floors.relevance.sets.map((s) => [s.set, s]));
  for (const [key] of SETS) {
    const r = latest.relevance[key];
    const floor = sets[key];
    if (!r || !floor) throw new Error(`${SOURCE}: no relevance for ${key}`);
    f[`${key}.tools`] = int(r.tools);
    f[`${key}.queries`] = int(r.engines.toolsift.judged);
    f[`${key}.toolsift`] = ndcg(r.engines.toolsift.ndcg10);
    f[`${key}.bm25`] = ndcg(r.plainBm25Ndcg10);
    f[`${key}.peer`] = ndcg(floor.bestPeerNdcg10);
    f[`${key}.peerName`] = floor.bestPeer;
  }
  const k10 = latest.catalogs['synth-10000'].engines;
  f['10k.p50'] = ms(k10.toolsift.queryMs.p50);
  f['10k.peerP50'] = ms(k10.minisearch.queryMs.p50);
  f['10k.p50Ratio'] = ratio(latest.floors.queryP50.value);
  f['10k.buildRatio'] = ratio(latest.floors.build.value);
  f['10k.loadRatio'] = ratio(latest.floors.load.value);
  f['10k.load'] = ms(k10.toolsift.loadMs.median);
  f['wasm.gzip'] = int(latest.bundles.toolsift.wasmGzip);
  f['wasm.servingGzip'] = int(latest.bundles.toolsift.servingWasmGzip);
  f['js.gzip'] = int(latest.bundles.toolsift.jsGzip);
  return f;
}

/** The README block for these figures (without its markers). */
export function render(f) {
  const rows = SETS.map(
    ([key, label]) =>
      `| ${label} (${f[`${key}.tools`]} tools, ${f[`${key}.queries`]} judged queries) | ${f[`${key}.toolsift`]} | ${f[`${key}.bm25`]} | ${f[`${key}.peer`]} (${f[`${key}.peerName`]}) |`,
  );
  return [
    `From the last full benchmark run (\`npm run bench\`, ${f.date}, ${f.machine};`,
    `[${SOURCE}](${SOURCE}), method in [docs/performance.md](docs/performance.md)):`,
    '',
    '| nDCG@10 | toolsift | plain BM25 | best other engine (JS engines, SQLite FTS5) |',
    '|---|---|---|---|',
    ...rows,
    '',
    `On 10,000 tools a query takes ${f['10k.p50']} ms at the median (minisearch ${f['10k.peerP50']} ms: ${f['10k.p50Ratio']}),`,
    `the index builds ${f['10k.buildRatio']} faster and a snapshot loads in ${f['10k.load']} ms (${f['10k.loadRatio']} faster than`,
    `minisearch's loadJSON); the wasm module is ${f['wasm.gzip']} bytes gzipped (${f['wasm.servingGzip']} for edges), the binding ${f['js.gzip']}.`,
    '',
  ].join('\n');
}

/** The block as README.md has it, or null. */
export function readmeBlock(readme) {
  const open = OPEN.exec(readme);
  if (!open) return null;
  const start = open.index + open[0].length;
  const end = readme.indexOf(CLOSE, start);
  return end < 0 ? null : readme.slice(start, end);
}

/**
 * Figure-like tokens (decimals, grouped thousands, ratios, sizes and times)
 * outside the generated block, fenced code and inline code: each one would be
 * a figure with no source.
 */
export function strayFigures(readme) {
  const open = OPEN.exec(readme);
  let text = readme;
  if (open) {
    const end = readme.indexOf(CLOSE, open.index);
    text = readme.slice(0, open.index) + readme.slice(end + CLOSE.length);
  }
  text = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '').replace(/\]\([^)]*\)/g, ']').replace(/<!--[\s\S]*?-->/g, '');
  const re = /\b(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(?:×|%|ms\b|s\b|KB\b|KiB\b|MB\b|MiB\b|bytes\b)|\b\d+\.\d+\b|\b\d{1,3}(?:,\d{3})+\b/g;
  return [...text.matchAll(re)].map((m) => m[0]);
}

export function readLatest() {
  return JSON.parse(readFileSync(new URL(SOURCE, ROOT), 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const f = figures(readLatest());
  const path = new URL('README.md', ROOT);
  const readme = readFileSync(path, 'utf8');
  const arg = process.argv[2];
  if (arg === '--write' || arg === '--check') {
    const have = readmeBlock(readme);
    if (have == null) {
      console.error('README.md: no <!-- figures: … --> … <!-- /figures --> block');
      process.exit(1);
    }
    const want = render(f);
    if (arg === '--write') {
      const open = OPEN.exec(readme);
      const start = open.index + open[0].length;
      writeFileSync(path, readme.slice(0, start) + want + readme.slice(readme.indexOf(CLOSE, start)));
      console.log(`README.md: figures from ${SOURCE} (${f.date})`);
    } else {
      const stray = strayFigures(readme);
      if (have !== want) console.error(`README.md's figures differ from ${SOURCE}: run node scripts/figures.mjs --write`);
      if (stray.length) console.error(`README.md: figures outside the generated block: ${stray.join(', ')}`);
      if (have !== want || stray.length) process.exit(1);
      console.log(`README.md's figures match ${SOURCE} (${f.date})`);
    }
  } else {
    console.log(JSON.stringify(f, null, 2));
  }
}
