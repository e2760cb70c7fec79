// snapshot-load.mjs — cold load of an index snapshot next to building the
// index from catalog JSON, in one Node process through the wasm binding
// (SPEC S11; the edge cold-start case). Uses ../shared/catalogs/all.json
// (2,032 real tools) when present, else the bundled corpus catalog.
// Run: node bench/snapshot-load.mjs [runs]
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { load } from '../js/toolsift.js';

const runs = Number(process.argv[2] ?? 15);
const shared = new URL('../../shared/catalogs/all.json', import.meta.url);
const source = existsSync(shared) ? shared : new URL('../corpus/catalog.json', import.meta.url);
if (source !== shared) console.log('bench: ../shared/catalogs/all.json not present; using corpus/catalog.json');
const catalogText = readFileSync(source, 'utf8');
const ts = await load(process.env.TOOLSIFT_WASM);
const options = { ids: 'lenient' }; // all.json has two ids with spaces

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn) {
  const xs = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const ix = fn();
    xs.push(performance.now() - t0);
    ix.free();
  }
  return median(xs);
}

const first = ts.createIndex(catalogText, options);
const snapshot = first.snapshot();
const tools = first.info().tools;
const reference = first.searchJSON('create a pull request', { limit: 10 });
first.free();
const again = ts.indexFromSnapshot(snapshot);
if (again.searchJSON('create a pull request', { limit: 10 }) !== reference) throw new Error('snapshot search differs');
again.free();

const build = time(() => ts.createIndex(catalogText, options));
const loadMs = time(() => ts.indexFromSnapshot(snapshot));
console.log(`snapshot cold load, ${tools} tools (${source.pathname.split('/').slice(-2).join('/')}), median of ${runs}:`);
console.log(`  build from JSON (${(catalogText.length / 1024).toFixed(0)} KiB): ${build.toFixed(1)} ms`);
console.log(`  load snapshot (${(snapshot.length / 1024).toFixed(0)} KiB): ${loadMs.toFixed(1)} ms`);
console.log(`  ratio build/load: ${(build / loadMs).toFixed(2)}x`);
