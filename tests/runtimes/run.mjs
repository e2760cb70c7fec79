#!/usr/bin/env node
// run.mjs — the runtime matrix (`npm run test:runtimes`).
//
// Packs the repository (npm pack), installs the tarball into an empty
// project in a temporary folder, stages the scenario there (scenario.mjs,
// the entry points, corpus/catalog.json and fixtures/) and runs the same
// smoke scenario in:
//   node      node cli-entry.mjs                (package by name, default wasm)
//   deno      deno run --allow-read cli-entry.mjs   (npm `deno`)
//   bun       bun cli-entry.mjs                 (npm `bun`)
//   workerd   worker.mjs + the .wasm as a wasm module in a config.capnp,
//             served on 127.0.0.1:<free port>, queried over HTTP (npm `workerd`)
//   chromium  browser.html from a static server on 127.0.0.1, driven by
//             playwright-core with Debian's /usr/bin/chromium
// and compares each document byte for byte with the one native.mjs
// assembles from build/native/toolsift's output. The edge-worker example
// (examples/edge-worker) is checked under workerd too, against the native
// CLI's `search --index` output.
// Outputs go to build/runtimes/<name>.json. The last line is
//   runtimes: N/5 passed, N/5 identical to native
// Exit 1 unless every runtime (and the example) matched.
// Env: TOOLSIFT_RUNTIMES=node,deno,…  a subset; TOOLSIFT_NATIVE  the native CLI;
//      TOOLSIFT_KEEP=1  keep the temporary folder.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nativeReference } from './native.mjs';
import { installInto, pack } from './pack.mjs';
import { checkEdgeWorker } from '../../examples/edge-worker/check.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = path.join(ROOT, 'tests/runtimes');
const OUT = path.join(ROOT, 'build/runtimes');
const NATIVE = path.resolve(ROOT, process.env.TOOLSIFT_NATIVE || 'build/native/toolsift');
const BIN = (name) => path.join(ROOT, 'node_modules/.bin', name);
const CHROMIUM = process.env.TOOLSIFT_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const RUN_TIMEOUT_MS = 120_000;
const ALL = ['node', 'deno', 'bun', 'workerd', 'chromium'];

// Quiet, offline runtimes: no update checks, no telemetry.
const ENV = {
  ...process.env,
  DENO_NO_UPDATE_CHECK: '1',
  DENO_NO_PROMPT: '1',
  DO_NOT_TRACK: '1',
  NO_COLOR: '1',
};
delete ENV.TOOLSIFT_WASM; // every runtime loads the package's own module

// ---- helpers ----------------------------------------------------------------

function need(file, hint) {
  if (!existsSync(file)) throw new Error(`${file} not found (${hint})`);
  return file;
}

/** Run a command to completion: its stdout (a Buffer), or an error with its stderr. */
function runCommand(cmd, args, cwd) {
  const r = spawnSync(cmd, args, {
    cwd, env: ENV, maxBuffer: 64 << 20, timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL',
  });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`${path.basename(cmd)} exited ${r.status ?? r.signal}: ${r.stderr.toString().trim().slice(0, 2000)}`);
  }
  return r.stdout; // bytes, compared as they are
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** GET url until it answers (bounded), with a per-request timeout. */
export async function fetchWithRetry(url, { attempts = 60, delayMs = 250, timeoutMs = 30_000, alive } = {}) {
  let last;
  for (let i = 0; i < attempts; i++) {
    if (alive && !alive()) throw new Error(`server exited before answering (${last?.message ?? 'no answer'})`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      const body = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${body.slice(0, 2000)}`);
      return body;
    } catch (e) {
      last = e;
      if (/^HTTP /.test(e.message)) throw e; // it answered: an error, not a slow start
      await sleep(delayMs);
    }
  }
  throw new Error(`no answer from ${url}: ${last?.message}`);
}

/**
 * Start workerd on `config` (a config.capnp whose socket address is
 * 127.0.0.1:PORT), call `use(baseUrl)`, and always kill it afterwards.
 */
export async function withWorkerd(configDir, configText, use) {
  const workerd = need(BIN('workerd'), 'npm ci installs the workerd devDependency');
  const port = await freePort();
  writeFileSync(path.join(configDir, 'config.capnp'), configText.replaceAll('@PORT@', String(port)));
  const child = spawn(workerd, ['serve', 'config.capnp'], { cwd: configDir, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  try {
    return await use(`http://127.0.0.1:${port}`, () => !exited);
  } catch (e) {
    e.message += log ? `\nworkerd: ${log.trim().slice(0, 2000)}` : '';
    throw e;
  } finally {
    if (!exited) {
      child.kill('SIGTERM');
      const done = new Promise((r) => child.once('exit', r));
      if (await Promise.race([done.then(() => true), sleep(3000).then(() => false)]) === false) {
        child.kill('SIGKILL');
        await done;
      }
    }
  }
}

// ---- staging ----------------------------------------------------------------

function stage(tmp) {
  const { tarball, size, files } = pack(ROOT, path.join(tmp, 'pack'));
  const proj = installInto(tarball, path.join(tmp, 'project'));
  for (const f of ['scenario.mjs', 'cli-entry.mjs', 'worker.mjs', 'browser.html']) {
    cpSync(path.join(HERE, f), path.join(proj, f));
  }
  mkdirSync(path.join(proj, 'inputs'));
  cpSync(path.join(ROOT, 'corpus/catalog.json'), path.join(proj, 'inputs/catalog.json'));
  cpSync(path.join(HERE, 'fixtures/session.json'), path.join(proj, 'inputs/session.json'));
  cpSync(path.join(HERE, 'fixtures/calls.jsonl'), path.join(proj, 'inputs/calls.jsonl'));
  return { proj, tarball, size, files };
}

// ---- the runtimes -----------------------------------------------------------

// workerd lists every module: the binding's files under js/binding/ too
// (toolsift.js imports them as ./binding/<file>).
const BINDING_MODULES = readdirSync(path.join(ROOT, 'js/binding')).filter((f) => f.endsWith('.js')).sort()
  .map((f) => `    (name = "binding/${f}", esModule = embed "node_modules/toolsift/js/binding/${f}"),`).join('\n');

const WORKER_CONFIG = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .smoke) ],
  sockets = [ (name = "http", address = "127.0.0.1:@PORT@", http = (), service = "main") ],
);

const smoke :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "toolsift.js", esModule = embed "node_modules/toolsift/js/toolsift.js"),
${BINDING_MODULES}
    (name = "toolsift-serving.wasm", wasm = embed "node_modules/toolsift/dist/toolsift-serving.wasm"),
    (name = "scenario.mjs", esModule = embed "scenario.mjs"),
    (name = "inputs/catalog.json", text = embed "inputs/catalog.json"),
    (name = "inputs/session.json", text = embed "inputs/session.json"),
    (name = "inputs/calls.jsonl", text = embed "inputs/calls.jsonl"),
  ],
  compatibilityDate = "2025-09-01",
);
`;

async function runChromium(proj) {
  need(CHROMIUM, 'apt-get install chromium (scripts/bootstrap.sh installs it)');
  const { chromium } = await import('playwright-core');
  const server = await serveStatic(proj);
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 60_000,
    });
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/browser.html`, { timeout: 30_000 });
    await page.waitForFunction(() => window.__toolsift !== undefined, null, { timeout: 60_000 });
    const r = await page.evaluate(() => window.__toolsift);
    if (!r.ok) throw new Error(`page: ${r.error}`);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return r.doc;
  } finally {
    await browser?.close().catch(() => {});
    await server.close();
  }
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.jsonl': 'text/plain; charset=utf-8', '.wasm': 'application/wasm',
};

/** A tiny static server for `dir` on 127.0.0.1: { url, close() }. */
export function serveStatic(dir) {
  const server = createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir + path.sep) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    );
  });
}

const RUNNERS = {
  node: (proj) => runCommand(process.execPath, ['cli-entry.mjs'], proj),
  deno: (proj) =>
    runCommand(need(BIN('deno'), 'npm ci installs the deno devDependency'),
      ['run', '--allow-read', '--no-prompt', 'cli-entry.mjs'], proj),
  bun: (proj) => runCommand(need(BIN('bun'), 'npm ci installs the bun devDependency'), ['cli-entry.mjs'], proj),
  workerd: (proj) =>
    withWorkerd(proj, WORKER_CONFIG, (base, alive) => fetchWithRetry(`${base}/`, { alive })),
  chromium: runChromium,
};

// ---- main -------------------------------------------------------------------

function firstDifference(a, b) {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) {
      return `line ${i + 1}:\n  native:  ${(lb[i] ?? '<none>').slice(0, 300)}\n  runtime: ${(la[i] ?? '<none>').slice(0, 300)}`;
    }
  }
  return 'same lines, different bytes';
}

async function main() {
  const names = process.env.TOOLSIFT_RUNTIMES ? process.env.TOOLSIFT_RUNTIMES.split(',') : ALL;
  for (const n of names) if (!RUNNERS[n]) throw new Error(`unknown runtime ${n} (${ALL.join(', ')})`);
  need(NATIVE, 'npm run build');
  mkdirSync(OUT, { recursive: true });
  const t0 = Date.now();
  const reference = Buffer.from(nativeReference(ROOT, NATIVE), 'utf8');
  writeFileSync(path.join(OUT, 'native.json'), reference);
  const tmp = mkdtempSync(path.join(tmpdir(), 'toolsift-runtimes-'));
  let failed = 0;
  let passed = 0;
  let identical = 0;
  try {
    const staged = stage(tmp);
    console.log(`packed ${path.basename(staged.tarball)} (${staged.size} bytes: ${staged.files.join(', ')}) and installed it into an empty project`);
    console.log(`native reference: ${reference.length} bytes (build/runtimes/native.json) in ${Date.now() - t0} ms`);
    for (const name of names) {
      const start = Date.now();
      let doc;
      try {
        doc = await RUNNERS[name](staged.proj);
        // Text from HTTP or the page, encoded back to UTF-8; CLI stdout as is.
        if (typeof doc === 'string') doc = Buffer.from(doc, 'utf8');
      } catch (e) {
        console.log(`FAIL  ${name.padEnd(8)} ${e.message}`);
        failed++;
        continue;
      }
      passed++;
      writeFileSync(path.join(OUT, `${name}.json`), doc);
      const ms = Date.now() - start;
      if (doc.equals(reference)) {
        identical++;
        console.log(`ok    ${name.padEnd(8)} identical to native (${doc.length} bytes, ${ms} ms)`);
      } else {
        console.log(`DIFF  ${name.padEnd(8)} differs from native (build/runtimes/${name}.json), ${firstDifference(doc.toString('utf8'), reference.toString('utf8'))}`);
      }
    }
    if (!process.env.TOOLSIFT_RUNTIMES || names.includes('workerd')) {
      const start = Date.now();
      try {
        const n = await checkEdgeWorker({ root: ROOT, native: NATIVE, packageDir: path.join(staged.proj, 'node_modules/toolsift'), tmp, withWorkerd, fetchWithRetry });
        console.log(`ok    edge-worker (examples/edge-worker under workerd) ${n} requests identical to native search --index (${Date.now() - start} ms)`);
      } catch (e) {
        console.log(`FAIL  edge-worker ${e.message}`);
        failed++;
      }
    }
  } finally {
    if (process.env.TOOLSIFT_KEEP === '1') console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`runtimes: ${passed}/${names.length} passed, ${identical}/${names.length} identical to native (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return failed === 0 && identical === names.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (ok) => process.exit(ok ? 0 : 1),
    (e) => {
      console.log(`runtimes: FAIL: ${e?.stack ?? e}`);
      process.exit(1);
    },
  );
}
