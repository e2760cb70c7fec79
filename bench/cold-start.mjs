#!/usr/bin/env node
// cold-start.mjs — cold start where it matters (issue 37): the time from a
// stored index's bytes to the first search result inside a Worker under
// workerd, toolsift beside SQLite FTS5 (@sqlite.org/sqlite-wasm), for
// synthetic catalogs of 10k and 100k tools.
//
//   node bench/cold-start.mjs [--sizes=10000,100000] [--rounds=5] [--loads=3] [--out=DIR]
//   (npm run bench runs it after bench/run.mjs with --out=bench/results)
//
// In Node it builds, per size, toolsift's snapshot (Index#snapshot, ids
// 'lenient', as bench/run.mjs) and the FTS5 database (the sqlite-fts5 engine
// of bench/lib/engines.mjs: fts5Pack = its ids + sqlite3_js_db_export),
// picks one realistic query from synthQueries (below: the median by FTS5
// matching rows) and notes both engines' top 10 for it. A local HTTP
// server stands in for storage (R2, an origin); workerd runs three Workers,
// each its own isolate (bench/cold-start/: harness.mjs says what is timed):
//   toolsift           indexFromSnapshot(bytes) + the first search()
//   toolsift-stream    indexFromSnapshotStream(response body) + the first search()
//                      (examples/edge-worker/worker-storage.mjs's way; the
//                      transfer from the local server is inside this time)
//   sqlite-fts5        fts5Unpack + sqlite3_deserialize + prepare + the first query
// Each round starts a fresh workerd per size (fresh isolates): every Worker
// answers one load that is its isolate's first (the module instantiated
// just before it: "init", reported apart), then --loads more, each a fresh
// index after freeing the previous one. Every answer must list the same top
// 10 as Node did. Timing is inside the isolate (performance.now(), whole
// milliseconds in local workerd; the run stops if it does not advance).
// For reference, the same loads (bytes → first result) are timed --rounds
// times in this Node process too.
// Prints a table; writes DIR/cold-start.json (default build/bench-cold/).
// workerd runs in its own process group, killed when this script ends or fails.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadCatalog } from './lib/catalogs.mjs';
import { fts5Engine, toolsiftEngine } from './lib/engines.mjs';
import { fts5Close, fts5Match, fts5Open, fts5Search, fts5Unpack } from './lib/fts5.mjs';
import { K, median } from './lib/metrics.mjs';
import { initSqlite, recordCompiles } from './cold-start/sqlite-wasm.mjs';
import { fetchWithRetry, freePort } from '../tests/runtimes/run.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, dflt) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const count = (name, dflt) => {
  const n = Number(opt(name, dflt));
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer (got ${opt(name, dflt)})`);
  return n;
};
for (const a of argv) if (!/^--(sizes|rounds|loads|out)=/.test(a)) throw new Error(`unknown argument ${a} (--sizes=10000,100000 --rounds=N --loads=N --out=DIR)`);
const SIZES = opt('sizes', '10000,100000').split(',').filter(Boolean).map((s) => {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--sizes: ${s} is not a tool count`);
  return n;
});
const ROUNDS = count('rounds', 5);
const LOADS = count('loads', 3); // loads after the first, per isolate
const OUT = path.resolve(ROOT, opt('out', 'build/bench-cold'));
// the serving module, as examples/edge-worker ships it (env TOOLSIFT_WASM: another module)
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift-serving.wasm');
const WORKERD = path.join(ROOT, 'node_modules/.bin/workerd');
const SQLITE_DIST = path.join(ROOT, 'node_modules/@sqlite.org/sqlite-wasm/dist');
const need = (file, hint) => {
  if (!existsSync(file)) throw new Error(`${file} not found (${hint})`);
  return file;
};
need(WASM, 'npm run build');
need(WORKERD, 'npm ci installs the workerd devDependency');
need(path.join(SQLITE_DIST, 'sqlite3.wasm'), 'npm ci installs @sqlite.org/sqlite-wasm');

// The Workers: a name (its isolate), its module, the mode of its loads.
const WORKERS = [
  { name: 'toolsift', module: 'bench/cold-start/worker-toolsift.mjs', mode: 'bytes', label: 'toolsift indexFromSnapshot + search' },
  { name: 'toolsift-stream', module: 'bench/cold-start/worker-toolsift.mjs', mode: 'stream', label: 'toolsift indexFromSnapshotStream + search (from the response)' },
  { name: 'sqlite-fts5', module: 'bench/cold-start/worker-sqlite.mjs', mode: 'bytes', label: 'SQLite FTS5 deserialize + prepare + query' },
];
const fileOf = (w, size) => (w.name.startsWith('toolsift') ? `toolsift-${size}.tsi` : `sqlite-${size}.fts5`);

// ---- workerd, in its own process group ----------------------------------------

const running = new Set(); // workerd children not yet seen to exit
let tmp = null; // the Workers' folder, removed at exit
const killGroup = (child, signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch { /* already gone */ }
};
// On any exit (an error, a signal: process.exit skips finally blocks) no
// workerd outlives this script, nor its folder.
process.on('exit', () => {
  running.forEach((c) => killGroup(c, 'SIGKILL'));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});
for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) process.on(sig, () => process.exit(code));

/** Start workerd on DIR/config.capnp; resolves once every socket answers /clock. */
async function startWorkerd(dir, ports) {
  const child = spawn(WORKERD, ['serve', 'config.capnp'], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let log = '';
  const keep = (d) => (log = (log + d).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve)).then(() => running.delete(child));
  const alive = () => running.has(child);
  const stop = async () => {
    if (!alive()) return;
    killGroup(child, 'SIGTERM');
    const timer = new Promise((r) => setTimeout(r, 3000, 'late'));
    if ((await Promise.race([exited, timer])) === 'late') killGroup(child, 'SIGKILL');
    await exited;
  };
  try {
    for (const port of ports) {
      const { advancedMs } = JSON.parse(await fetchWithRetry(`http://127.0.0.1:${port}/clock`, { alive }));
      if (!(advancedMs >= 1)) throw new Error(`performance.now() does not advance while a Worker runs (moved ${advancedMs} ms): this workerd cannot time a load from inside`);
    }
  } catch (e) {
    await stop();
    throw new Error(`${e.message}\nworkerd: ${log.trim()}`);
  }
  return { stop, log: () => log.trim(), alive };
}

// ---- Node: the indexes, the query, the expected answers -------------------------

const t00 = performance.now();
const loadStart = os.loadavg().map((x) => +x.toFixed(2)); // the machine's other work, for reading the numbers
const say = (...a) => console.log(`[${((performance.now() - t00) / 1000).toFixed(0).padStart(4)}s]`, ...a);
const ts = await toolsiftEngine(WASM);
const fts5 = await fts5Engine();
const files = new Map(); // storage: name -> bytes
const sizes = {};
for (const size of SIZES) {
  const cat = loadCatalog(`synth-${size}`, 200);
  let t = performance.now();
  const index = ts.build({ text: cat.text });
  const tsBuildMs = performance.now() - t;
  t = performance.now();
  const db = fts5.build({ catalog: cat.catalog, mask: null }); // synthetic tools carry no trust fields: no mask
  const fts5BuildMs = performance.now() - t;
  // FTS5 reads the pages a query needs (toolsift decodes its whole snapshot),
  // so its first query costs more the more rows match: the query is the
  // median by FTS5 matching rows of the first 31 queries of 3–8 words that
  // both engines answer, neither a rare nor a common word's case.
  const candidates = cat.queries.filter((q) => {
    const n = q.split(/\s+/).length;
    return n >= 3 && n <= 8 && ts.search(index, q, K).length && fts5.search(db, q, K).length;
  }).slice(0, 31).map((q) => ({ q, rows: db.db.selectValue('SELECT count(*) FROM t WHERE t MATCH ?1', [fts5Match(q)]) }));
  if (!candidates.length) throw new Error(`synth-${size}: no query of 3–8 words that both engines answer`);
  const { q: query, rows: fts5Rows } = candidates.sort((a, b) => a.rows - b.rows)[candidates.length >> 1];
  const expect = { toolsift: ts.search(index, query, K), 'sqlite-fts5': fts5.search(db, query, K) };
  files.set(`toolsift-${size}.tsi`, ts.serialize(index));
  files.set(`sqlite-${size}.fts5`, fts5.serialize(db));
  ts.free(index);
  fts5.free(db);
  sizes[size] = {
    query, fts5Rows, expect, catalogBytes: Buffer.byteLength(cat.text),
    snapshotBytes: files.get(`toolsift-${size}.tsi`).length, fts5Bytes: files.get(`sqlite-${size}.fts5`).length,
    nodeBuildMs: { toolsift: +tsBuildMs.toFixed(0), 'sqlite-fts5': +fts5BuildMs.toFixed(0) },
  };
  say(`synth-${size}: built (toolsift ${tsBuildMs.toFixed(0)} ms, FTS5 ${fts5BuildMs.toFixed(0)} ms); query "${query}" (${fts5Rows} FTS5 rows match)`);
}

// sqlite-wasm's browser build (what a Worker imports) run in Node on the
// Workers' code path, recording the function wrappers it compiles; its answers
// must be the sqlite-fts5 engine's.
const sqliteModule = new WebAssembly.Module(readFileSync(path.join(SQLITE_DIST, 'sqlite3.wasm')));
const sqlite3InitModule = (await import(pathToFileURL(path.join(SQLITE_DIST, 'index.mjs')).href)).default;
const { compiled: wrappers, result: sqlite3 } = await recordCompiles(async () => {
  const warn = console.warn; // its OPFS probe warns that Node has no OPFS
  console.warn = () => {};
  let sqlite3;
  try {
    sqlite3 = await initSqlite(sqlite3InitModule, sqliteModule);
  } finally {
    console.warn = warn;
  }
  for (const size of SIZES) {
    const { ids, image } = fts5Unpack(files.get(`sqlite-${size}.fts5`));
    const s = fts5Open(sqlite3, image, ids);
    const got = fts5Search(s, sizes[size].query, K);
    fts5Close(s);
    if (JSON.stringify(got) !== JSON.stringify(sizes[size].expect['sqlite-fts5'])) throw new Error(`synth-${size}: sqlite-wasm's browser build answers differently in Node: ${got}`);
  }
  return sqlite3;
});
say(`sqlite-wasm: ${wrappers.size} function wrappers recorded for the Worker`);

// The same loads in this Node process, for reference (warm: the modules
// instantiated and their code run before; the Workers' "later loads").
const nodeLoads = {
  toolsift: (size) => {
    const index = ts.load(files.get(`toolsift-${size}.tsi`));
    ts.search(index, sizes[size].query, K);
    return () => ts.free(index);
  },
  'sqlite-fts5': (size) => {
    const { ids, image } = fts5Unpack(files.get(`sqlite-${size}.fts5`));
    const s = fts5Open(sqlite3, image, ids);
    fts5Search(s, sizes[size].query, K);
    return () => fts5Close(s);
  },
};
for (const size of SIZES) {
  sizes[size].nodeLoadMs = {};
  for (const [name, loadOnce] of Object.entries(nodeLoads)) {
    loadOnce(size)(); // untimed: the first load after the builds meets their garbage being swept
    const xs = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      const close = loadOnce(size);
      xs.push(+(performance.now() - t).toFixed(2));
      close();
    }
    sizes[size].nodeLoadMs[name] = xs;
  }
}

// ---- the Workers' folder and config --------------------------------------------

tmp = mkdtempSync(path.join(os.tmpdir(), 'toolsift-cold-start-'));
const server = createServer((req, res) => {
  const bytes = files.get(decodeURIComponent(new URL(req.url, 'http://x').pathname.slice(1)));
  if (!bytes) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
  res.end(bytes);
});
const results = { rows: [] };
try {
  // The repository's layout, so the Workers' relative imports are the files' own.
  const stage = (from, to = from) => {
    mkdirSync(path.dirname(path.join(tmp, to)), { recursive: true });
    copyFileSync(path.isAbsolute(from) ? from : path.join(ROOT, from), path.join(tmp, to));
    return to;
  };
  const modules = [
    ...['harness.mjs', 'sqlite-wasm.mjs', 'worker-toolsift.mjs', 'worker-sqlite.mjs'].map((f) => stage(`bench/cold-start/${f}`)),
    stage('bench/lib/fts5.mjs'), stage('bench/lib/fields.mjs'), stage('js/toolsift.js'),
    ...readdirSync(path.join(ROOT, 'js/binding')).filter((f) => f.endsWith('.js')).map((f) => stage(`js/binding/${f}`)),
    stage(path.join(SQLITE_DIST, 'index.mjs'), 'node_modules/@sqlite.org/sqlite-wasm/dist/index.mjs'),
  ];
  const wasms = [stage(WASM, 'build/wasm/toolsift-serving.wasm'), stage(path.join(SQLITE_DIST, 'sqlite3.wasm'), 'node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm')];
  const wrapperLines = [];
  [...wrappers.values()].forEach((bytes, i) => {
    writeFileSync(path.join(tmp, `bench/cold-start/wrapper-${i}.wasm`), bytes);
    wasms.push(`bench/cold-start/wrapper-${i}.wasm`);
    wrapperLines.push(`import w${i} from './wrapper-${i}.wasm';`);
  });
  writeFileSync(path.join(tmp, 'bench/cold-start/sqlite-wrappers.mjs'), `// generated by bench/cold-start.mjs\n${wrapperLines.join('\n')}\n` +
    `export default new Map([${[...wrappers.keys()].map((k, i) => `[${JSON.stringify(k)}, w${i}]`).join(', ')}]);\n`);
  modules.push('bench/cold-start/sqlite-wrappers.mjs');

  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const ports = [];
  for (const _ of WORKERS) ports.push(await freePort());
  const moduleList = (main) => [main, ...modules.filter((m) => m !== main)].map((m) => `(name = "${m}", esModule = embed "${m}")`)
    .concat(wasms.map((m) => `(name = "${m}", wasm = embed "${m}")`)).join(',\n      ');
  writeFileSync(path.join(tmp, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    ${WORKERS.map((w) => `(name = "${w.name}", worker = (
      modules = [
      ${moduleList(w.module)}
      ],
      bindings = [ (name = "STORAGE", service = "storage") ],
      compatibilityDate = "2025-09-01",
    ))`).join(',\n    ')},
    (name = "storage", external = (address = "127.0.0.1:${server.address().port}", http = ())),
  ],
  sockets = [ ${WORKERS.map((w, i) => `(name = "${w.name}", address = "127.0.0.1:${ports[i]}", http = (), service = "${w.name}")`).join(', ')} ],
);
`);

  // ---- rounds ------------------------------------------------------------------
  const samples = {}; // `${size}/${worker}` -> [{ first, initMs, loadMs | streamMs, bodyMs, memory }]
  for (let r = 0; r < ROUNDS; r++) {
    for (const size of SIZES) {
      const wd = await startWorkerd(tmp, ports);
      try {
        // the Workers' order rotates each round, so the machine's noise falls on all of them
        for (let j = 0; j < WORKERS.length; j++) {
          const i = (j + r) % WORKERS.length;
          const w = WORKERS[i];
          const key = `${size}/${w.name}`;
          samples[key] ??= [];
          for (let n = 0; n <= LOADS; n++) {
            const params = new URLSearchParams({ file: fileOf(w, size), query: sizes[size].query, k: String(K), mode: w.mode });
            const got = JSON.parse(await fetchWithRetry(`http://127.0.0.1:${ports[i]}/load?${params}`, { alive: wd.alive, attempts: 1, timeoutMs: 120_000 }));
            const want = sizes[size].expect[w.name === 'sqlite-fts5' ? 'sqlite-fts5' : 'toolsift'];
            if (JSON.stringify(got.ids) !== JSON.stringify(want)) {
              throw new Error(`${w.name}, synth-${size}: the Worker answered ${JSON.stringify(got.ids)}, Node ${JSON.stringify(want)}`);
            }
            if (n === 0 && !got.first) throw new Error(`${w.name}: the round's first load was not its isolate's first`);
            samples[key].push({ first: got.first, initMs: got.first ? got.initMs : undefined, loadMs: got.loadMs, bodyMs: got.bodyMs, streamMs: got.streamMs, memory: got.memory });
          }
        }
      } catch (e) {
        throw new Error(`${e.message}\nworkerd: ${wd.log()}`);
      } finally {
        await wd.stop();
      }
      say(`round ${r + 1}/${ROUNDS}, synth-${size}: done`);
    }
  }

  // ---- summary -----------------------------------------------------------------
  const stat = (xs) => (xs.length ? { min: Math.min(...xs), median: median(xs), n: xs.length } : null);
  for (const size of SIZES) {
    for (const w of WORKERS) {
      const s = samples[`${size}/${w.name}`];
      const time = (x) => (w.mode === 'stream' ? x.streamMs : x.loadMs);
      results.rows.push({
        tools: size, worker: w.name, what: w.label,
        indexBytes: w.name === 'sqlite-fts5' ? sizes[size].fts5Bytes : sizes[size].snapshotBytes,
        initMs: stat(s.filter((x) => x.first).map((x) => x.initMs)),
        firstLoadMs: stat(s.filter((x) => x.first).map(time)),
        coldStartMs: stat(s.filter((x) => x.first).map((x) => x.initMs + time(x))),
        laterLoadMs: stat(s.filter((x) => !x.first).map(time)),
        bodyMs: w.mode === 'bytes' ? stat(s.map((x) => x.bodyMs)) : null,
        nodeLoadMs: w.mode === 'bytes' ? stat(sizes[size].nodeLoadMs[w.name]) : null,
        memoryBytes: Math.max(...s.map((x) => x.memory)),
        samples: s,
      });
    }
  }
} finally {
  server.close();
}

const machine = {
  cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, node: process.version,
  workerd: spawnSync(WORKERD, ['--version'], { encoding: 'utf8' }).stdout.trim(),
  toolsiftWasm: path.relative(ROOT, WASM), sqlite: fts5.version, loadStart, loadEnd: os.loadavg().map((x) => +x.toFixed(2)), date: new Date().toISOString(),
};
const out = { machine, rounds: ROUNDS, loadsPerIsolate: 1 + LOADS, k: K, sizes, rows: results.rows };
mkdirSync(OUT, { recursive: true });
writeFileSync(path.join(OUT, 'cold-start.json'), JSON.stringify(out, null, 1) + '\n');

const num = (x) => (x < 10 && !Number.isInteger(x) ? x.toFixed(1) : x.toFixed(0));
const ms = (s) => (s ? `${num(s.min)} / ${num(s.median)}` : '–');
const mib = (b) => `${(b / 1048576).toFixed(1)} MiB`;
console.log(`\nCold start in workerd (${machine.workerd}; ${machine.cores} cores, ${machine.cpu}, load average ${machine.loadStart[0]} → ${machine.loadEnd[0]}): ms, min / median; ` +
  `${ROUNDS} fresh isolates per row, ${LOADS} later loads each`);
console.log('| tools | Worker: bytes → first result | index | init (fresh isolate) | first load (fresh isolate) | init + first load | later loads | Node, the same load | body read (response → bytes) | module memory |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of results.rows) {
  console.log(`| ${row.tools.toLocaleString('en')} | ${row.what} | ${mib(row.indexBytes)} | ${ms(row.initMs)} | ${ms(row.firstLoadMs)} | ${ms(row.coldStartMs)} | ` +
    `${ms(row.laterLoadMs)} | ${ms(row.nodeLoadMs)} | ${ms(row.bodyMs)} | ${mib(row.memoryBytes)} |`);
}
console.log('(the stream row\'s loads start at the response, so they include reading the body from the local server)');
for (const size of SIZES) console.log(`synth-${size}: query "${sizes[size].query}" (${sizes[size].fts5Rows.toLocaleString('en')} FTS5 rows match)`);
console.log(`wrote ${path.relative(ROOT, path.join(OUT, 'cold-start.json'))}`);
