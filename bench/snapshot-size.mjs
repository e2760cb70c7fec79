// snapshot-size.mjs — snapshot size (raw, gzip -9), load time and wasm
// memory after load on synthetic catalogs (bench/lib/synth.mjs) of 1k, 10k
// and 100k tools (docs/performance.md, "Compact snapshots"). The snapshots are
// written by the native CLI (building 100k tools in wasm needs more memory
// than the load it measures); each load runs in a fresh process, so the wasm
// memory it reports is that of one module that has loaded one snapshot and
// answered one query (linear memory never shrinks: it is also the peak).
//
//   node bench/snapshot-size.mjs [sizes...]     (default 1000 10000 100000)
//   TOOLSIFT_NATIVE, TOOLSIFT_WASM: the CLI and module to measure
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE = path.resolve(ROOT, process.env.TOOLSIFT_NATIVE || 'build/native/toolsift');
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');

if (process.argv[2] === '--load') {
  // child: node snapshot-size.mjs --load SNAPSHOT RUNS
  const { load } = await import('../js/toolsift.js');
  const { performance } = await import('node:perf_hooks');
  const bytes = readFileSync(process.argv[3]);
  const runs = Number(process.argv[4]);
  const ts = await load(WASM);
  const before = ts.memory.buffer.byteLength;
  let t0 = performance.now();
  const ix = ts.indexFromSnapshot(bytes);
  const first = performance.now() - t0;
  ix.searchJSON('create an invoice for a customer', { limit: 10 });
  const after = ts.memory.buffer.byteLength;
  ix.free();
  const xs = [first];
  for (let i = 1; i < runs; i++) {
    t0 = performance.now();
    ts.indexFromSnapshot(bytes).free();
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  console.log(JSON.stringify({ before, after, loadMs: xs[Math.floor(xs.length / 2)] }));
  process.exit(0);
}

const { synthCatalog } = await import('./lib/synth.mjs');
const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1000, 10000, 100000];
const tmp = mkdtempSync(path.join(tmpdir(), 'toolsift-snapsize-'));
const MiB = (b) => `${(b / 1048576).toFixed(2)} MiB`;
try {
  for (const n of sizes) {
    const { tools } = synthCatalog(n);
    const catalog = JSON.stringify({ tools });
    const cat = path.join(tmp, `c${n}.json`), snap = path.join(tmp, `c${n}.tsi`);
    writeFileSync(cat, catalog);
    execFileSync(NATIVE, ['build', '--catalog', cat, '-o', snap]);
    const raw = statSync(snap).size, gz = gzipSync(readFileSync(snap), { level: 9 }).length;
    const catGz = gzipSync(catalog, { level: 9 }).length;
    const runs = n >= 100000 ? 3 : 11;
    const m = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--load', snap, String(runs)],
      { encoding: 'utf8', maxBuffer: 1 << 20 }));
    console.log(JSON.stringify({ tools: n, catalog: catalog.length, catalogGzip: catGz, snapshot: raw, snapshotGzip: gz,
      ratio: +(raw / catalog.length).toFixed(3), loadMs: +m.loadMs.toFixed(1), wasmAfterLoad: m.after }));
    console.error(`${n} tools: catalog ${MiB(catalog.length)} (gzip ${MiB(catGz)}), snapshot ${MiB(raw)} (gzip ${MiB(gz)}), ` +
      `load ${m.loadMs.toFixed(1)} ms, wasm memory after load ${MiB(m.after)}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
