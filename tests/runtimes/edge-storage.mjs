#!/usr/bin/env node
// edge-storage.mjs — a big catalog at the edge: examples/edge-worker's
// storage-backed worker (worker-storage.mjs, config-storage.capnp) under
// workerd, with a local HTTP server standing in for storage. Serves a
// synthetic catalog (bench/lib/synth.mjs, 100k tools by default) as tenant
// "default" and corpus/catalog.json as tenant "corpus"; the worker fetches
// each snapshot once, streaming it into the module's memory. Checks:
//   - every answer is byte for byte the native CLI's `search --index` / `info --index`
//   - each snapshot is fetched once per isolate (the storage server counts)
//   - the module's linear memory after loading the big catalog and answering
//     leaves 8 MiB of a Worker's 128 MB (128e6 bytes) for the JavaScript heap.
// workerd has no per-isolate memory limit setting, so the bound is asserted on
// the module's memory (what dominates) and the workerd process's peak RSS is
// reported. Uses the repository's js/toolsift.js (with js/binding/) and build/wasm/toolsift-serving.wasm
// (the serving module, as the example ships it).
// With TOOLSIFT_EDGE_DIM=D (default 0: none) the big snapshot carries
// vectors: a static model of D dimensions generated over the catalog
// (scripts/gen-static-model.mjs) embeds the tools (`build --model`), and
// every other query is sent with the model's vector of it (computed here
// through the binding), answered byte for byte as native `search --model`.
//   node tests/runtimes/edge-storage.mjs        (TOOLSIFT_EDGE_TOOLS=N to change the size)
import { execFileSync } from 'node:child_process';
import { cpSync, createReadStream, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchWithRetry, withWorkerd } from './run.mjs';
import { synthCatalog, synthQueries } from '../../bench/lib/synth.mjs';
import { load } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NATIVE = path.resolve(ROOT, process.env.TOOLSIFT_NATIVE || 'build/native/toolsift');
const EXAMPLE = path.join(ROOT, 'examples/edge-worker');
const TOOLS = Number(process.env.TOOLSIFT_EDGE_TOOLS ?? 100000);
const DIM = Number(process.env.TOOLSIFT_EDGE_DIM ?? 0);
const LIMIT = 128e6, JS_HEAP_ROOM = 8 * 1048576;

const tmp = mkdtempSync(path.join(tmpdir(), 'toolsift-edge-storage-'));
let server;
try {
  const storage = path.join(tmp, 'storage');
  mkdirSync(storage);
  const cat = synthCatalog(TOOLS);
  writeFileSync(path.join(tmp, 'big.json'), JSON.stringify({ tools: cat.tools }));
  const modelDir = path.join(tmp, 'model');
  let model = null;
  if (DIM > 0) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/gen-static-model.mjs'), '--out', modelDir,
      '--catalog', path.join(tmp, 'big.json'), '--dim', String(DIM)]);
    const ts = await load(readFileSync(path.join(ROOT, 'build/wasm/toolsift.wasm')));
    model = ts.loadStaticModel(readFileSync(path.join(modelDir, 'model.safetensors')), readFileSync(path.join(modelDir, 'tokenizer.json'), 'utf8'));
  }
  execFileSync(NATIVE, ['build', '--catalog', path.join(tmp, 'big.json'), ...(model ? ['--model', modelDir] : []),
    '-o', path.join(storage, 'default.tsi')]);
  execFileSync(NATIVE, ['build', '--catalog', path.join(ROOT, 'corpus/catalog.json'), '-o', path.join(storage, 'corpus.tsi')]);
  const bigSize = statSync(path.join(storage, 'default.tsi')).size;

  const fetched = new Map();
  server = createServer((req, res) => {
    const name = path.basename(new URL(req.url, 'http://x').pathname);
    const file = path.join(storage, name);
    if (!readdirSync(storage).includes(name)) return res.writeHead(404).end();
    fetched.set(name, (fetched.get(name) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const storagePort = server.address().port;

  const dir = path.join(tmp, 'worker');
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(EXAMPLE, 'worker-storage.mjs'), path.join(dir, 'worker-storage.mjs'));
  cpSync(path.join(ROOT, 'js/toolsift.js'), path.join(dir, 'dist/toolsift.js'));
  cpSync(path.join(ROOT, 'js/binding'), path.join(dir, 'dist/binding'), { recursive: true });
  cpSync(path.join(ROOT, 'build/wasm/toolsift-serving.wasm'), path.join(dir, 'dist/toolsift-serving.wasm'));
  const config = readFileSync(path.join(EXAMPLE, 'config-storage.capnp'), 'utf8')
    .replace('address = "127.0.0.1:8787"', 'address = "127.0.0.1:@PORT@"')
    .replace('address = "127.0.0.1:8788"', `address = "127.0.0.1:${storagePort}"`);

  const native = (args) => execFileSync(NATIVE, args, { encoding: 'utf8', maxBuffer: 1 << 26 }).replace(/\n$/, '');
  const queries = synthQueries(cat, 6, 11).map((q, i) => [q, 1 + (i % 5) * 3]);
  await withWorkerd(dir, config, async (base, alive) => {
    const t0 = Date.now();
    const info = await fetchWithRetry(`${base}/info`, { alive, timeoutMs: 120_000 });
    const loadMs = Date.now() - t0;
    if (info !== native(['info', '--index', path.join(storage, 'default.tsi')])) throw new Error(`/info differs: ${info.slice(0, 300)}`);
    let n = 1, fused = 0;
    for (const [tenant, list] of [['default', queries], ['corpus', [['open a pull request', 3], ['refund a payment', 5]]], ['default', queries.slice(0, 2)]]) {
      for (const [query, limit] of list) {
        // with vectors, every other query of the big tenant fused with the model's vector of it
        const vector = model && tenant === 'default' && n % 2 ? model.queryVector(query) : null;
        const params = { tenant, query, limit: String(limit), ...(vector ? { vector } : {}) };
        const got = await fetchWithRetry(`${base}/search_tools?${new URLSearchParams(params)}`, { alive });
        const want = native(['search', '--index', path.join(storage, `${tenant}.tsi`), '--limit', String(limit),
          ...(vector ? ['--model', modelDir] : []), query]);
        if (vector) fused++;
        if (got !== want) throw new Error(`tenant ${tenant}, ${query}: worker answered\n  ${got.slice(0, 300)}\nnative:\n  ${want.slice(0, 300)}`);
        n++;
      }
    }
    const missing = await fetch(`${base}/search_tools?tenant=nobody&query=x`);
    if (missing.status !== 400) throw new Error(`an unknown tenant answered ${missing.status}`);
    if (fetched.get('default.tsi') !== 1 || fetched.get('corpus.tsi') !== 1) {
      throw new Error(`each snapshot must be fetched once per isolate: ${JSON.stringify([...fetched])}`);
    }
    const { wasmMemory } = JSON.parse(await fetchWithRetry(`${base}/memory`, { alive }));
    const hwm = workerdPeakRss();
    const MiB = (b) => `${(b / 1048576).toFixed(1)} MiB`;
    console.log(`edge-storage: ${TOOLS} tools${model ? ` with ${DIM}-dimension vectors` : ''} (snapshot ${MiB(bigSize)}) + corpus tenant under workerd: ` +
      `${n} answers identical to native${model ? ` (${fused} fused with the query's vector)` : ''}, ` +
      `first answer after ${loadMs} ms (fetch + load), each snapshot fetched once; module memory ${MiB(wasmMemory)}` +
      (hwm ? `, workerd peak RSS ${MiB(hwm)} (the whole process)` : ''));
    if (wasmMemory + JS_HEAP_ROOM > LIMIT) {
      throw new Error(`module memory ${wasmMemory} B leaves less than 8 MiB of a Worker's 128 MB`);
    }
  });
  console.log('edge-storage: ok');
} finally {
  server?.close();
  rmSync(tmp, { recursive: true, force: true });
}

// VmHWM of the workerd child of this process (Linux), or 0.
function workerdPeakRss() {
  try {
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid || !stat.includes('(workerd)')) continue;
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) return Number(m[1]) * 1024;
    }
  } catch {}
  return 0;
}
