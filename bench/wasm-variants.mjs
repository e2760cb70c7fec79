// wasm-variants.mjs — query speed of builds of the wasm module side by side
// (issue 23: which core files earn -O2 under the size cap).
//
//   node bench/wasm-variants.mjs [--tools=10000] [--queries=3000] [--rounds=9] A.wasm B.wasm …
//
// Every module is loaded into this one process and builds the same synthetic
// catalog (bench/lib/synth.mjs); each round times all the queries through
// Index#searchJSON on every module, the module order rotating each round, so
// machine noise falls on all of them. Prints per module the median time per
// query over the rounds, its ratio to the first module, the build time and
// the gzip -9 size, and checks that every module answers every query with
// the same bytes as the first (a build-flag change must not change output).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { gzipSize } from '../scripts/gzip-size.mjs';
import { synthCatalog, synthQueries } from './lib/synth.mjs';
import { load } from '../js/toolsift.js';

const argv = process.argv.slice(2);
const opt = (name, dflt) => Number(argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const files = argv.filter((a) => !a.startsWith('--'));
if (!files.length) {
  console.error('usage: node bench/wasm-variants.mjs [--tools=N] [--queries=N] [--rounds=N] A.wasm B.wasm …');
  process.exit(2);
}
const cat = synthCatalog(opt('tools', 10000));
const text = JSON.stringify({ tools: cat.tools });
const queries = synthQueries(cat, opt('queries', 3000));
const rounds = opt('rounds', 9);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const mods = [];
for (const f of files) {
  const ts = await load(f);
  const t0 = performance.now();
  const ix = ts.createIndex(text, { ids: 'lenient' });
  const buildMs = performance.now() - t0;
  mods.push({ f, ts, ix, buildMs, gzip: gzipSize(readFileSync(f)).size, raw: readFileSync(f).length, per: [], builds: [buildMs] });
}
// same answers, byte for byte
const ref = queries.map((q) => mods[0].ix.searchJSON(q, { limit: 10 }));
for (const m of mods.slice(1)) {
  const bad = queries.findIndex((q, i) => m.ix.searchJSON(q, { limit: 10 }) !== ref[i]);
  m.same = bad < 0;
  if (bad >= 0) console.log(`${m.f}: DIFFERENT answer for query ${bad}: ${queries[bad]}`);
}
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < mods.length; k++) {
    const m = mods[(k + r) % mods.length];
    const t0 = performance.now();
    for (const q of queries) m.ix.searchJSON(q, { limit: 10 });
    m.per.push((performance.now() - t0) / queries.length);
  }
  // one build per module per round too (medians below)
  for (let k = 0; k < mods.length; k++) {
    const m = mods[(k + r) % mods.length];
    const t0 = performance.now();
    const ix = m.ts.createIndex(text, { ids: 'lenient' });
    m.builds.push(performance.now() - t0);
    ix.free();
  }
}
const base = median(mods[0].per), baseBuild = median(mods[0].builds);
console.log(`${cat.tools.length} tools, ${queries.length} queries, ${rounds} rounds (median ms per query; ratio to the first module)`);
for (const m of mods)
  console.log(`${m.f}\tquery ${(median(m.per) * 1000).toFixed(1)} µs\t×${(median(m.per) / base).toFixed(3)}\tbuild ${median(m.builds).toFixed(0)} ms ×${(median(m.builds) / baseBuild).toFixed(3)}\tgzip ${m.gzip} (${m.gzip - mods[0].gzip >= 0 ? '+' : ''}${m.gzip - mods[0].gzip})\traw ${m.raw}${m.same === false ? '\tOUTPUT DIFFERS' : ''}`);
