// run.mjs — toolsift against the JS search engines, side by side in one run.
//
//   npm run bench          full: real catalog (when ../shared is present),
//                          synthetic 1k, 10k, 100k; every engine; relevance on
//                          our corpus and the dev sets; memory; bundle sizes;
//                          native C vs wasm. Writes bench/results/.
//   npm run bench:quick    smoke (< 2 min): synthetic 1k, corpus relevance,
//                          bundles, native; writes build/bench-quick/.
//
// Options: --quick, --sizes=real,synth-1000,…, --engines=toolsift,minisearch,…,
// --out=DIR, --no-memory, --no-native, --no-relevance, --no-bundle.
//
// Fairness: every engine runs in this one process on the same tools and the
// same queries; build, query and load are timed in interleaved rounds (the
// engine order rotates every round) so machine noise falls on all of them.
// See docs/performance.md for the method and each engine's configuration.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { gzipSize, nodeZlibSize } from '../scripts/gzip-size.mjs';
import { ROOT, REAL, loadCatalog, relevanceSets } from './lib/catalogs.mjs';
import { EXTRA_BUNDLES, allEngines } from './lib/engines.mjs';
import { needsMask, trustMask } from './lib/fields.mjs';
import { K, meanNdcg, median, summary } from './lib/metrics.mjs';
import { nativeFts5 } from './lib/fts5.mjs';
import { writeCharts } from './lib/charts.mjs';
import { markdown } from './lib/report.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const opt = (name, dflt) => {
  const a = argv.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : dflt;
};
const QUICK = flag('quick');
const OUT = new URL(opt('out', QUICK ? 'build/bench-quick/' : 'bench/results/').replace(/\/?$/, '/'), ROOT);
const SIZES = opt('sizes', QUICK ? 'synth-1000' : 'real,synth-1000,synth-10000,synth-100000').split(',').filter(Boolean);
const ONLY = opt('engines', '') ? new Set(opt('engines', '').split(',')) : null;
const REL_BUDGET_S = QUICK ? 20 : 180; // per engine and relevance set
const LIMIT_MS = 10 * 60 * 1000;
// (npm run bench gives this process --max-old-space-size=8192: the 8 GiB limit) // a 100k build beyond this (or 8 GiB of heap) is skipped
const t00 = performance.now();
const log = (...a) => console.log(`[${((performance.now() - t00) / 1000).toFixed(0).padStart(4)}s]`, ...a);

mkdirSync(OUT, { recursive: true });
const DATA = new URL('build/bench-data/', ROOT);
mkdirSync(DATA, { recursive: true });
const NATIVE_BIN = new URL('build/native/bench/native/toolsift_bench', ROOT);
// SQLite FTS5 natively (issue 23): built with the native build when
// libsqlite3-dev is there (bench/native/CMakeLists.txt), skipped otherwise.
const FTS5_BIN = new URL('build/native/bench/native/fts5_bench', ROOT);
const FTS5_MISSING = 'build/native/bench/native/fts5_bench not built (needs libsqlite3-dev: scripts/bootstrap.sh installs it; then scripts/build.sh)';
const fts5Io = { spawnSync, writeFileSync, readFileSync, timeout: LIMIT_MS };

const machine = {
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  node: process.version,
  v8: process.versions.v8,
  loadStart: os.loadavg().map((x) => +x.toFixed(2)),
  date: new Date().toISOString(),
};
log(`machine: ${machine.cpu}, ${machine.cores} cores, load ${machine.loadStart.join(' ')}`);

// The quick smoke run leaves out fuse.js (about 0.7 s per query at 1k tools: it alone would take minutes).
const missing = [];
const engines = (await allEngines(process.env.TOOLSIFT_WASM, missing)).filter((e) => (!ONLY || ONLY.has(e.name)) && !(QUICK && !ONLY && e.name === 'fuse.js'));
const ts = engines.find((e) => e.name === 'toolsift');
for (const m of missing) log(`${m.engine}: not available (${m.error}); run npm install`);
let results = { machine, quick: QUICK, missing, engines: {}, catalogs: {}, relevance: {}, bundles: {}, native: {}, nativeFts5: {}, floors: null };
// --merge: add these catalogs to an earlier run's latest.json in --out (e.g.
// the 100k catalog run on its own); that run's machine facts are kept and
// this run's are recorded under machine.merged.
if (flag('merge') && existsSync(new URL('latest.json', OUT))) {
  const earlier = JSON.parse(readFileSync(new URL('latest.json', OUT), 'utf8'));
  earlier.machine.merged = [...(earlier.machine.merged ?? []), { sizes: SIZES, ...machine }];
  results = earlier;
  results.nativeFts5 ??= {};
}
for (const e of engines) results.engines[e.name] = { version: e.version, config: e.config };

const rotate = (xs, r) => xs.map((_, i) => xs[(i + r) % xs.length]);
const bytesOf = (blob) => (typeof blob === 'string' ? Buffer.byteLength(blob) : blob.byteLength);

// A full GC, then a pause before a timed build or load: after gc() V8 goes
// on with background work (sweeping, releasing pages) for a time that grows
// with the heap, and on a 2-core machine that work lands inside whatever is
// timed next. Measured with a 10k snapshot load: 9 ms after a long pause;
// with 1 GiB of other engines' objects alive 30–38 ms after a 100 ms pause
// and 9.7 ms after 1.5 s. So the pause is 1.5 ms per MiB of live heap
// (100 ms to 3 s), the same rule for every engine.
const pause = new Int32Array(new SharedArrayBuffer(4));
function settle() {
  globalThis.gc?.();
  const heapMiB = process.memoryUsage().heapUsed / 2 ** 20;
  Atomics.wait(pause, 0, 0, Math.min(3000, Math.max(100, 1.5 * heapMiB)));
}

function memoryChild(name, key) {
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', new URL('mem.mjs', import.meta.url).pathname, name, key], {
    encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 1 << 20,
  });
  if (r.status === 0) {
    try {
      return JSON.parse(r.stdout.trim().split('\n').pop());
    } catch { /* fall through */ }
  }
  const why = r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGTERM' ? 'exceeded 10 min' : /heap out of memory|Allocation failed/.test(r.stderr ?? '') ? 'exceeded 8 GiB heap' : `failed (${(r.stderr ?? '').trim().split('\n').pop()})`;
  return { error: why };
}

// ---- relevance ----------------------------------------------------------------
if (!flag('no-relevance')) {
  const sets = relevanceSets().filter((s) => !QUICK || s.name === 'corpus');
  if (!QUICK && sets.length === 1) log('relevance: ../shared/datasets not present; corpus only');
  for (const set of sets) {
    const row = { tools: Array.isArray(set.catalog) ? set.catalog.length : set.catalog.tools.length, queries: set.queries.length, engines: {} };
    results.relevance[set.name] = row;
    const mask = ts && needsMask(set.catalog) ? trustMask(set.catalog, (() => { const i = ts.build({ text: set.text }); const d = i.documents(); i.free(); return d; })()) : null;
    for (const e of engines) {
      if (e.maxTools && row.tools > e.maxTools) {
        row.engines[e.name] = { skipped: 'small lists only' };
        continue;
      }
      const t0 = performance.now();
      const s = e.build({ text: set.text, catalog: set.catalog, mask });
      // A budget for the slow engines (fuse.js): time the first 20 queries and
      // skip the set when all of them would take more than REL_BUDGET_S.
      const probe = set.queries.slice(0, 20);
      const tp = performance.now();
      for (const q of probe) e.search(s, q.query, K);
      const estimate = ((performance.now() - tp) / probe.length) * set.queries.length / 1000;
      if (estimate > REL_BUDGET_S) {
        row.engines[e.name] = { skipped: `too slow: about ${estimate.toFixed(0)} s for ${set.queries.length} queries (budget ${REL_BUDGET_S} s)` };
        e.free(s);
        continue;
      }
      const lat = [];
      const m = meanNdcg(set.queries, (q) => {
        const t1 = performance.now();
        const ids = e.search(s, q, K);
        lat.push(performance.now() - t1);
        return ids;
      });
      row.engines[e.name] = { ...m, ms: performance.now() - t0, queryMs: summary(lat) };
      e.free(s);
    }
    if (ts) {
      // the same metric from the core's own evaluator (SPEC S10), as a check of the JS one
      const ev = JSON.parse(ts.ts.evalJSON(set.text, set.queriesText ?? set.queries.map((q) => JSON.stringify(q)).join('\n')));
      row.coreEvalNdcg10 = ev.toolsift?.ndcg10 ?? null;
      row.plainBm25Ndcg10 = ev.baseline?.ndcg10 ?? null; // the core's plain-BM25 yardstick
    }
    if (!flag('no-native')) {
      // Natively on the same set: FTS5's ranking (nDCG) and both engines' build times.
      const qs = set.queries.map((q) => q.query);
      if (existsSync(FTS5_BIN)) {
        const n = nativeFts5(FTS5_BIN.pathname, DATA, `rel-${set.name}`, { catalog: set.catalog, mask, queries: qs, runs: QUICK ? 1 : 5, k: K, ranked: true, ...fts5Io });
        if (n.error) row.fts5Native = { error: n.error };
        else {
          const byQuery = new Map(qs.map((q, i) => [q, n.ranked[i]]));
          const wasm = row.engines['sqlite-fts5'];
          row.fts5Native = { ...meanNdcg(set.queries, (q) => byQuery.get(q)), sqlite: n.sqlite, buildMs: n.build_ms, searchMs: n.search_ms, dbBytes: n.db_bytes, loadMs: n.load_ms };
          if (wasm?.ndcg10 !== undefined) row.fts5Native.wasmNdcg10 = wasm.ndcg10;
        }
      } else row.fts5Native = { error: FTS5_MISSING };
      if (existsSync(NATIVE_BIN)) {
        writeFileSync(new URL(`rel-${set.name}.json`, DATA), set.text);
        writeFileSync(new URL(`rel-${set.name}.queries.txt`, DATA), qs.map((q) => q.replace(/[\r\n]+/g, ' ')).join('\n') + '\n');
        const r = spawnSync(NATIVE_BIN.pathname, [new URL(`rel-${set.name}.json`, DATA).pathname, new URL(`rel-${set.name}.queries.txt`, DATA).pathname, String(QUICK ? 1 : 5), String(K)], { encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 1 << 20 });
        row.toolsiftNative = r.status === 0 ? JSON.parse(r.stdout) : { error: (r.stderr || String(r.error)).trim() };
      }
    }
    log(`relevance ${set.name}: ${Object.entries(row.engines).map(([n, v]) => `${n} ${v.ndcg10 !== undefined ? v.ndcg10.toFixed(4) : v.skipped}`).join(', ')}${row.coreEvalNdcg10 != null ? ` (core eval ${Number(row.coreEvalNdcg10).toFixed(4)})` : ''}`);
  }
}

// ---- bundle sizes (minified with esbuild, gzip -9: scripts/gzip-size.mjs) ----------
if (!flag('no-bundle')) {
  let esbuild = null;
  try {
    esbuild = await import('esbuild');
  } catch {
    results.bundles = { error: 'esbuild not installed (npm install)' };
  }
  for (const e of esbuild ? [...engines, ...Object.entries(EXTRA_BUNDLES).map(([name, bundle]) => ({ name, bundle }))] : []) {
    const out = {};
    for (const platform of ['browser', 'node']) {
      try {
        const r = await esbuild.build({
          stdin: { contents: e.bundle, resolveDir: new URL('.', import.meta.url).pathname, loader: 'js' },
          bundle: true, minify: true, format: 'esm', platform, write: false, logLevel: 'silent', legalComments: 'none',
        });
        const js = r.outputFiles[0].contents;
        out.platform = platform;
        out.jsBytes = js.length;
        out.jsGzip = gzipSize(js).size;
        break;
      } catch (err) {
        out.error = String(err.message ?? err).split('\n')[0];
      }
    }
    if (e.name === 'toolsift' || e.wasmFile) {
      const wasm = readFileSync(e.wasmFile ?? new URL(process.env.TOOLSIFT_WASM ?? 'build/wasm/toolsift.wasm', ROOT));
      out.wasmBytes = wasm.length;
      const gz = gzipSize(wasm);
      out.wasmGzip = gz.size;
      out.gzipTool = gz.tool;
      out.wasmGzipNodeZlib = nodeZlibSize(wasm);
      // the serving module (no evaluation or learning: what edges ship)
      const serving = new URL('build/wasm/toolsift-serving.wasm', ROOT);
      if (e.name === 'toolsift' && !e.wasmFile && existsSync(serving)) out.servingWasmGzip = gzipSize(readFileSync(serving)).size;
    }
    out.totalGzip = (out.jsGzip ?? 0) + (out.wasmGzip ?? 0);
    results.bundles[e.name] = out;
  }
  log(`bundles (gzip): ${Object.entries(results.bundles).map(([n, b]) => `${n} ${((b.totalGzip ?? 0) / 1024).toFixed(1)} KiB`).join(', ')}`);
}

finalize(false);

// ---- performance per catalog ------------------------------------------------
for (const key of SIZES) {
  const cat = loadCatalog(key, 2000);
  if (!cat) {
    log(`${key}: ${new URL(REAL).pathname} not present; skipping the real catalog`);
    results.catalogs[key] = { skipped: '../shared/catalogs/all.json not present' };
    continue;
  }
  const big = cat.tools >= Number(opt('sequential-at', 100000)); // 100k: one engine at a time
  const rounds = QUICK ? 1 : big ? 1 : cat.tools >= 10000 ? 3 : 5;
  const nq = QUICK ? 500 : big ? 1000 : 2000;
  const queries = cat.queries.slice(0, nq);
  const row = { label: cat.label, tools: cat.tools, catalogBytes: Buffer.byteLength(cat.text), queries: queries.length, engines: {} };
  results.catalogs[key] = row;
  writeFileSync(new URL(`${key}.json`, DATA), cat.text);
  writeFileSync(new URL(`${key}.queries.txt`, DATA), queries.map((q) => q.replace(/[\r\n]+/g, ' ')).join('\n') + '\n');
  log(`${cat.label}: ${cat.tools} tools, ${(row.catalogBytes / 2 ** 20).toFixed(1)} MiB, ${queries.length} queries, ${rounds} build rounds`);

  // Which engines run here: fuse.js only for small lists; memory child first
  // (a fresh process, also the 10 min / 8 GiB gate for 100k).
  const active = [];
  for (const e of engines) {
    if (e.maxTools && cat.tools > e.maxTools) {
      row.engines[e.name] = { skipped: `small lists only (≤ ${e.maxTools.toLocaleString('en')} tools)` };
      continue;
    }
    // memory: a fresh process per engine (peak RSS) up to 10k; at 100k the
    // retained heap is measured in this process instead (a second 100k build
    // per engine would double the longest part of the run).
    if (!flag('no-memory') && !QUICK && !big) {
      const m = memoryChild(e.name, key);
      if (m.error) {
        row.engines[e.name] = { skipped: m.error };
        log(`  ${e.name}: memory child ${m.error}; skipped on ${key}`);
        continue;
      }
      row.engines[e.name] = { memory: m };
      log(`  ${e.name}: retained ${(m.retainedBytes / 2 ** 20).toFixed(1)} MiB, peak RSS +${(m.peakRssAbove / 2 ** 20).toFixed(0)} MiB (build ${m.buildMs.toFixed(0)} ms cold)`);
    } else row.engines[e.name] = {};
    active.push(e);
  }
  const input = { text: cat.text, catalog: cat.catalog, mask: needsMask(cat.catalog) && ts ? trustMask(cat.catalog, (() => { const i = ts.build({ text: cat.text }); const d = i.documents(); i.free(); return d; })()) : null };

  // At 100k the engines run one after the other (build, queries, load, free):
  // all six 100k indexes at once would not fit in one V8 heap. Up to 10k
  // every engine is built, queried and loaded in interleaved rounds.
  // (cheapest first, and the results are written after each engine).
  const COST = ['toolsift', 'minisearch', 'flexsearch', 'wink-bm25', 'orama', 'lunr'];
  const groups = big ? [...active].sort((a, b) => COST.indexOf(a.name) - COST.indexOf(b.name)).map((e) => [e]) : [active];
  for (const group of groups) {
    measure(group);
    if (big) finalize(false);
  }
  function measure(active) {
    // build: interleaved rounds, keep the last state
    const state = new Map();
    const buildTimes = new Map(active.map((e) => [e.name, []]));
    const mem = () => {
      const u = process.memoryUsage();
      return u.heapUsed + u.external;
    };
    for (let r = 0; r < rounds; r++) {
      for (const e of rotate(active, r)) {
        if (!active.includes(e)) continue;
        if (state.has(e.name)) {
          e.free(state.get(e.name));
          state.delete(e.name);
        }
        settle();
        const before = mem();
        const t0 = performance.now();
        const s = e.build(input);
        const dt = performance.now() - t0;
        buildTimes.get(e.name).push(dt);
        state.set(e.name, s);
        if (big && globalThis.gc && !row.engines[e.name].memory) {
          globalThis.gc();
          row.engines[e.name].memory = { retainedBytes: mem() - before, peakRssAbove: null, inProcess: true, wasmMemory: e.memory ? e.memory() : 0 };
        }
        if (dt > LIMIT_MS) {
          row.engines[e.name] = { skipped: `build took ${(dt / 60000).toFixed(1)} min (> 10 min)` };
          e.free(s);
          state.delete(e.name);
          active.splice(active.indexOf(e), 1);
        }
      }
    }
    for (const e of active) row.engines[e.name].buildMs = { median: median(buildTimes.get(e.name)), runs: buildTimes.get(e.name) };
    log(`  build: ${active.map((e) => `${e.name} ${row.engines[e.name].buildMs.median.toFixed(0)} ms`).join(', ')}`);

    // query: warm-up, then interleaved chunks; toolsift also through searchJSON
    const timed = [...active.map((e) => ({ name: e.name, run: (q) => e.search(state.get(e.name), q, K) }))];
    if (ts && state.has('toolsift')) {
      const ix = state.get('toolsift');
      timed.push({ name: 'toolsift:searchJSON', run: (q) => ix.searchJSON(q, { limit: K }) });
    }
    const warm = Math.min(big ? 100 : 200, queries.length);
    // At 100k the first 20 warm-up queries also project the engine's query time.
    const probe = big ? Math.min(20, warm) : warm;
    const tw = performance.now();
    for (const t of timed) for (let i = 0; i < probe; i++) t.run(queries[i]);
    const perQuery = (performance.now() - tw) / probe / timed.length;
    if (big && active.length === 1 && !QUICK) {
      // The 10-minute limit at 100k covers the engine's whole run: build plus
      // the timed queries, projected from the warm-up.
      const e = active[0];
      const buildMs = buildTimes.get(e.name)[0];
      const projected = perQuery * queries.length;
      if (buildMs + projected > LIMIT_MS) {
        row.engines[e.name] = { ...row.engines[e.name], buildMs: { median: buildMs, runs: [buildMs] }, skipped: `exceeds 10 min: build ${(buildMs / 1000).toFixed(0)} s + about ${(projected / 1000).toFixed(0)} s for ${queries.length} queries` };
        log(`  ${e.name}: ${row.engines[e.name].skipped}; skipped`);
        e.free(state.get(e.name));
        state.clear();
        return;
      }
    }
    for (const t of timed) for (let i = probe; i < warm; i++) t.run(queries[i]);
    const lat = new Map(timed.map((t) => [t.name, []]));
    const CHUNK = 50;
    for (let c = 0, r = 0; c < queries.length; c += CHUNK, r++) {
      const chunk = queries.slice(c, c + CHUNK);
      for (const t of rotate(timed, r)) {
        const xs = lat.get(t.name);
        for (const q of chunk) {
          const t0 = performance.now();
          t.run(q);
          xs.push(performance.now() - t0);
        }
      }
    }
    for (const t of timed) {
      const s = summary(lat.get(t.name));
      if (t.name === 'toolsift:searchJSON') row.toolsiftSearchJSON = s;
      else row.engines[t.name].queryMs = s;
    }
    // wasm ÷ native on the same JSON path, measured the way the native
    // driver measures (bench/native/bench_native.c): alone, one pass over
    // every query first, then each query timed once. The interleaved
    // chunks above run other engines between toolsift's queries, which the
    // native process never does.
    if (ts && state.has('toolsift')) {
      const ix = state.get('toolsift');
      for (const q of queries) ix.searchJSON(q, { limit: K });
      const alone = queries.map((q) => {
        const t0 = performance.now();
        ix.searchJSON(q, { limit: K });
        return performance.now() - t0;
      });
      row.toolsiftSearchJSONAlone = summary(alone);
    }
    log(`  query p50: ${timed.map((t) => `${t.name} ${summary(lat.get(t.name)).p50.toFixed(3)} ms`).join(', ')}`);

    // serialise once, then load in interleaved rounds; check the loaded index answers the same
    const blobs = new Map();
    for (const e of active) {
      const t0 = performance.now();
      const blob = e.serialize(state.get(e.name));
      const ser = performance.now() - t0;
      blobs.set(e.name, blob);
      const raw = typeof blob === 'string' ? Buffer.from(blob) : blob;
      row.engines[e.name].serialized = { bytes: bytesOf(blob), gzipBytes: gzipSync(raw, { level: 6 }).length, serializeMs: ser, format: typeof blob === 'string' ? 'JSON text' : 'binary' };
    }
    const loadTimes = new Map(active.map((e) => [e.name, []]));
    const loadRounds = big ? 2 : QUICK ? 2 : 5;
    for (let r = 0; r < loadRounds; r++) {
      for (const e of rotate(active, r)) {
        settle();
        const t0 = performance.now();
        const s = e.load(blobs.get(e.name));
        loadTimes.get(e.name).push(performance.now() - t0);
        if (r === 0) {
          const probe = queries.slice(0, 20);
          const same = probe.every((q) => JSON.stringify(e.search(s, q, K)) === JSON.stringify(e.search(state.get(e.name), q, K)));
          row.engines[e.name].loadSameResults = same;
        }
        e.free(s);
      }
    }
    for (const e of active) row.engines[e.name].loadMs = { median: median(loadTimes.get(e.name)), runs: loadTimes.get(e.name) };
    log(`  load: ${active.map((e) => `${e.name} ${row.engines[e.name].loadMs.median.toFixed(1)} ms`).join(', ')}`);
    for (const e of active) e.free(state.get(e.name));
    blobs.clear();
    state.clear();
  }

  // native C on the same catalog file and queries
  const bin = NATIVE_BIN;
  if (!flag('no-native') && existsSync(bin)) {
    const r = spawnSync(bin.pathname, [new URL(`${key}.json`, DATA).pathname, new URL(`${key}.queries.txt`, DATA).pathname, String(rounds), String(K)], { encoding: 'utf8', timeout: LIMIT_MS, maxBuffer: 1 << 20 });
    if (r.status === 0) {
      results.native[key] = JSON.parse(r.stdout);
      const alone = row.toolsiftSearchJSONAlone?.p50, jsonP50 = results.native[key].search_json_ms.p50;
      log(`  native: build ${results.native[key].build_ms.p50.toFixed(0)} ms, typed p50 ${results.native[key].search_typed_ms.p50.toFixed(3)} ms, json p50 ${jsonP50.toFixed(3)} ms, load ${results.native[key].snapshot_load_ms.p50.toFixed(1)} ms` +
        (alone ? `; wasm searchJSON alone p50 ${alone.toFixed(3)} ms (${(alone / jsonP50).toFixed(2)}× native)` : ''));
    } else results.native[key] = { error: (r.stderr || String(r.error)).trim() };
  } else if (!flag('no-native')) results.native[key] = { error: 'build/native/bench/native/toolsift_bench not built (scripts/build.sh)' };
  // SQLite FTS5 natively on the same tools and queries (pre-extracted text: bench/lib/fts5.mjs)
  if (!flag('no-native') && existsSync(FTS5_BIN)) {
    const n = nativeFts5(FTS5_BIN.pathname, DATA, key, { catalog: cat.catalog, mask: input.mask, queries, runs: rounds, k: K, ...fts5Io });
    results.nativeFts5[key] = n;
    if (!n.error) log(`  native FTS5 (SQLite ${n.sqlite}): build ${n.build_ms.p50.toFixed(0)} ms, p50 ${n.search_ms.p50.toFixed(3)} ms, p99 ${n.search_ms.p99.toFixed(3)} ms, ${(n.db_bytes / 2 ** 20).toFixed(1)} MiB, load ${n.load_ms.p50.toFixed(2)} ms`);
    else log(`  native FTS5: ${n.error}`);
  } else if (!flag('no-native')) {
    results.nativeFts5[key] = { error: FTS5_MISSING };
    log(`  native FTS5: skipped: ${FTS5_MISSING}`);
  }

  // pair-by-pair ratios, toolsift / peer (< 1: toolsift is lower = faster or smaller)
  const t = row.engines.toolsift;
  if (t?.buildMs) {
    row.ratios = {};
    for (const e of active) {
      if (e.name === 'toolsift') continue;
      const p = row.engines[e.name];
      if (!p.queryMs || !p.loadMs) continue;
      row.ratios[e.name] = {
        build: t.buildMs.median / p.buildMs.median,
        p50: t.queryMs.p50 / p.queryMs.p50,
        p95: t.queryMs.p95 / p.queryMs.p95,
        p99: t.queryMs.p99 / p.queryMs.p99,
        load: t.loadMs.median / p.loadMs.median,
        serializedBytes: t.serialized.bytes / p.serialized.bytes,
        retainedMemory: t.memory && p.memory ? t.memory.retainedBytes / p.memory.retainedBytes : null,
        peakRss: t.memory && p.memory ? t.memory.peakRssAbove / p.memory.peakRssAbove : null,
      };
    }
  }
  finalize(false); // partial results (tables, JSON, charts) survive a crash or a stop
}

// ---- floors (the 10k catalog) -------------------------------------------------------
function finalize(final) {
const tenk = results.catalogs['synth-10000'];
if (tenk?.ratios?.minisearch) {
  const r = tenk.ratios.minisearch;
  const rel = Object.entries(results.relevance).map(([set, row]) => {
    const mine = row.engines.toolsift?.ndcg10;
    const best = Object.entries(row.engines).filter(([n, v]) => n !== 'toolsift' && v.ndcg10 !== undefined).sort((a, b) => b[1].ndcg10 - a[1].ndcg10)[0];
    return { set, toolsift: mine, bestPeer: best?.[0], bestPeerNdcg10: best?.[1].ndcg10, met: best ? mine >= best[1].ndcg10 : true };
  });
  results.floors = {
    queryP50: { need: '≥ 5× lower than minisearch', value: 1 / r.p50, met: 1 / r.p50 >= 5 },
    build: { need: '≥ 2× faster than minisearch', value: 1 / r.build, met: 1 / r.build >= 2 },
    load: { need: '≥ 20× faster than minisearch loadJSON', value: 1 / r.load, met: 1 / r.load >= 20 },
    relevance: { need: '≥ every peer on every set', sets: rel, met: rel.every((x) => x.met) },
    // the serving module: 150,000, the original promise; the full module
    // 25,000 more for evaluation and learning (issue 37; docs/performance.md,
    // "The serving module")
    wasmGzip: { need: '≤ 175 KB (175,000 bytes)', value: results.bundles.toolsift?.wasmGzip ?? null, met: (results.bundles.toolsift?.wasmGzip ?? Infinity) <= 175000 },
    servingWasmGzip: { need: '≤ 150 KB (150,000 bytes)', value: results.bundles.toolsift?.servingWasmGzip ?? null, met: (results.bundles.toolsift?.servingWasmGzip ?? Infinity) <= 150000 },
  };
}

(results.machine.merged?.at(-1) ?? machine).loadEnd = os.loadavg().map((x) => +x.toFixed(2));
if (!results.machine.merged) machine.loadEnd = os.loadavg().map((x) => +x.toFixed(2));
if (results.machine.merged) results.machine.merged.at(-1).elapsedS = +((performance.now() - t00) / 1000).toFixed(1);
else results.elapsedS = +((performance.now() - t00) / 1000).toFixed(1);
results.complete = final;
writeFileSync(new URL('latest.json', OUT), JSON.stringify(results, null, 1) + '\n');
writeCharts(results, OUT);
writeFileSync(new URL('latest.md', OUT), markdown(results));
if (!final) return;
log(`load average at the end ${(results.machine.merged?.at(-1) ?? machine).loadEnd.join(' ')}; wrote ${OUT.pathname}latest.{json,md} and charts`);
if (results.floors) for (const [k, f] of Object.entries(results.floors)) log(`floor ${k}: ${f.met ? 'met' : 'NOT met'} (${f.need}${f.value != null ? `; ${typeof f.value === 'number' ? f.value.toFixed(2) : f.value}` : ''})`);
}
finalize(true);
