#!/usr/bin/env node
// golden.mjs — a golden set of the engine's outputs, recorded before a
// behaviour-preserving change and compared after it (issue 36; the first
// legibility issue, 22, recorded the same by hand). docs/architecture.md,
// "Checking a refactor".
//
//   node scripts/golden.mjs record DIR  [--bin PATH] [--wasm PATH] [--full N]
//   node scripts/golden.mjs compare DIR [--bin PATH] [--wasm PATH]
//
// It records, for the corpus, corpus/mcp (over ../shared/catalogs/all.json)
// and the dev sets toollens, metatool and sealtools (../shared/datasets; each
// skipped with a message when absent):
//   eval/SET       `toolsift eval --loop --json` (stdout in full, exit code and
//                  stderr; absolute paths written as <root> and <shared>);
//                  eval-learn/SET, eval-noise/SET and eval/corpus+confidence
//                  as scripts/eval.sh (`npm run eval`) runs them, with --json;
//                  eval/corpus+glove with `--model glove`, when
//                  build/models/glove exists (npm run model)
//   rank/SET       `toolsift rank --k 50`: a sha256 per query line
//   snapshot/SET   `toolsift build -o` (native) and Index#snapshot() (wasm),
//                  byte for byte: sha256, size and a sha256 per 64 KiB chunk
//                  (the file itself when under 256 KiB)
//   explain/SET    searchJSON(query, {explain: true}) through the JS binding for
//                  every query: a sha256 per query, one combined sha256 and the
//                  first N outputs in full (explain/corpus+glove with the
//                  model's query vectors)
//   module         build/wasm/toolsift.wasm: gzip -9 size and sha256
// into DIR/manifest.json (+ DIR/files/). JSON Lines catalogs become one array
// the way the core's eval does (tsift_jsonl_to_array). compare re-runs all of
// it and prints every difference (item, query id, first differing bytes); it
// exits 1 on any difference except the module's size and bytes, which it
// reports (size as a percentage; issue 36 allows < 1 %). --bin and --wasm
// point at another build (the default: build/native/toolsift and
// build/wasm/toolsift.wasm; build them first with scripts/build.sh).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSize } from './gzip-size.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(ROOT, '..', 'shared');
const CHUNK = 64 * 1024;
const KEEP_FILE = 256 * 1024;
const sha = (b) => createHash('sha256').update(b).digest('hex');

function usage(msg) {
  if (msg) console.error(`golden: ${msg}`);
  console.error('usage: node scripts/golden.mjs record|compare DIR [--bin PATH] [--wasm PATH] [--full N]');
  process.exit(2);
}

const [mode, dirArg, ...rest] = process.argv.slice(2);
if (mode !== 'record' && mode !== 'compare') usage();
if (!dirArg) usage('no DIR');
const opt = { bin: join(ROOT, 'build/native/toolsift'), wasm: join(ROOT, 'build/wasm/toolsift.wasm'), full: 20 };
for (let i = 0; i < rest.length; i += 2) {
  const k = rest[i].replace(/^--/, '');
  if (!(k in opt) || rest[i + 1] === undefined) usage(`unknown option ${rest[i]}`);
  opt[k] = k === 'full' ? Number(rest[i + 1]) : resolve(rest[i + 1]);
}
const DIR = resolve(dirArg);
for (const f of [opt.bin, opt.wasm]) if (!existsSync(f)) usage(`${f} is missing (bash scripts/build.sh --quiet)`);

// Absolute paths (the checkout, ../shared, the scratch folder) as placeholders.
const TMP = mkdtempSync(join(tmpdir(), 'golden-'));
const normalise = (s) => s.split(TMP).join('<tmp>').split(SHARED).join('<shared>').split(ROOT).join('<root>');

// The native CLI, at most availableParallelism() at a time.
let running = 0;
const waiting = [];
async function run(args) {
  if (running >= availableParallelism()) await new Promise((go) => waiting.push(go));
  running++;
  try {
    return await new Promise((done, fail) => {
      const p = spawn(opt.bin, args, { cwd: ROOT });
      const out = [];
      const err = [];
      p.stdout.on('data', (d) => out.push(d));
      p.stderr.on('data', (d) => err.push(d));
      p.on('error', fail);
      p.on('close', (rc) =>
        done({ out: normalise(Buffer.concat(out).toString('utf8')), err: normalise(Buffer.concat(err).toString('utf8')), rc }),
      );
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

// The sets: catalog file, queries file, eval arguments (paths relative to ROOT).
function sets() {
  const list = [{ name: 'corpus', catalog: 'corpus/catalog.json', queries: 'corpus/queries.jsonl', evalArgs: ['--corpus', 'corpus'] }];
  const all = '../shared/catalogs/all.json';
  if (existsSync(join(ROOT, all))) {
    list.push({ name: 'mcp', catalog: all, queries: 'corpus/mcp/queries.jsonl' });
  } else console.log(`golden: skip mcp (${all} is absent)`);
  for (const s of ['toollens', 'metatool', 'sealtools']) {
    const d = `../shared/datasets/${s}`;
    if (existsSync(join(ROOT, d, 'tools.jsonl')) && existsSync(join(ROOT, d, 'queries_dev.jsonl'))) {
      list.push({ name: s, catalog: `${d}/tools.jsonl`, queries: `${d}/queries_dev.jsonl` });
    } else console.log(`golden: skip ${s} (${d} is absent)`);
  }
  for (const s of list) s.evalArgs ??= ['--catalog', s.catalog, '--queries', s.queries];
  return list;
}

// A JSON Lines catalog as one array, as tsift_jsonl_to_array makes it.
function catalogArray(file) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (!file.endsWith('.jsonl')) return text;
  const lines = text.split('\n').map((l) => l.replace(/^[ \t\r]+/, '')).filter((l) => /[^ \t\r]/.test(l));
  return `[${lines.join(',')}]`;
}

const queriesOf = (file) =>
  readFileSync(join(ROOT, file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

// ---- the items: every one is { kind, ... } under a key --------------------
// text:  { text, rc?, err? }   compared whole (stored in full)
// bytes: { buf }               sha256/size/chunks (file when small)
// lines: { ids, outs }         one sha256 per output, first N kept in full
// module: { buf }              gzip size (a % change) and sha256, reported only

async function collect() {
  const items = new Map();
  const set = (k, v) => items.set(k, v);
  const list = sets();
  const glove = join(ROOT, 'build/models/glove');
  const hasGlove = existsSync(join(glove, 'model.safetensors'));
  if (!hasGlove) console.log('golden: skip glove (build/models/glove is absent; npm run model builds it)');

  // native: evals (as the brief's `--loop --json` and as scripts/eval.sh
  // runs them: --learn with the gates, 20 % noise, the confidence rule),
  // rank, snapshots; all started at once, run a few at a time
  const jobs = [];
  const evalItem = (key, args) =>
    jobs.push(run(['eval', ...args, '--json']).then((e) => set(key, { kind: 'text', text: e.out, rc: e.rc, err: e.err })));
  const gates = (f) => (existsSync(join(ROOT, f)) ? ['--gates', f] : []);
  for (const s of list) {
    evalItem(`eval/${s.name}`, [...s.evalArgs, '--loop']);
    const g = s.name === 'mcp' ? gates('corpus/mcp/gates.json') : s.name === 'corpus' ? [] : gates(`corpus/dev-gates/${s.name}.json`);
    evalItem(`eval-learn/${s.name}`, [...s.evalArgs, '--loop', '--learn', ...g]);
    if (existsSync(join(ROOT, `corpus/dev-gates/${s.name}-noise.json`))) {
      evalItem(`eval-noise/${s.name}`, [...s.evalArgs, '--learn', '--noise', '0.2', ...gates(`corpus/dev-gates/${s.name}-noise.json`)]);
    }
    const cat = join(TMP, `${s.name}.json`);
    writeFileSync(cat, catalogArray(s.catalog));
    jobs.push(
      run(['rank', '--catalog', cat, '--queries', s.queries, '--k', '50']).then((r) => {
        if (r.rc !== 0) throw new Error(`rank ${s.name}: ${r.err}`);
        const lines = r.out.split('\n').filter(Boolean);
        set(`rank/${s.name}`, { kind: 'lines', ids: lines.map((l) => String(JSON.parse(l).id)), outs: lines });
      }),
    );
    const tsi = join(TMP, `${s.name}.tsi`);
    jobs.push(
      run(['build', '--catalog', cat, '-o', tsi]).then((b) => {
        if (b.rc !== 0) throw new Error(`build ${s.name}: ${b.err}`);
        set(`snapshot/${s.name}`, { kind: 'bytes', buf: readFileSync(tsi) });
      }),
    );
  }
  evalItem('eval/corpus+confidence', ['--corpus', 'corpus', '--options', '{"ids":"lenient","minCoverage":0.5}', ...gates('corpus/gates-confidence.json')]);
  if (hasGlove) evalItem('eval/corpus+glove', ['--corpus', 'corpus', '--model', 'glove', '--loop']);
  await Promise.all(jobs);

  // wasm through the JS binding: explain for every query, snapshots
  const { load } = await import(join(ROOT, 'js/toolsift.js'));
  const ts = await load(readFileSync(opt.wasm));
  for (const s of list) {
    const idx = ts.createIndex(catalogArray(s.catalog));
    const qs = queriesOf(s.queries);
    set(`explain/${s.name}`, {
      kind: 'lines',
      ids: qs.map((q) => String(q.id)),
      outs: qs.map((q) => idx.searchJSON(q.query, { explain: true })),
    });
    set(`snapshot-wasm/${s.name}`, { kind: 'bytes', buf: Buffer.from(idx.snapshot()) });
    idx.free();
  }
  if (hasGlove) {
    const f = (n) => readFileSync(join(glove, n));
    const model = ts.loadStaticModel(f('model.safetensors'), f('tokenizer.json'), existsSync(join(glove, 'config.json')) ? f('config.json') : null);
    const idx = ts.createIndex(catalogArray('corpus/catalog.json'), { model });
    const qs = queriesOf('corpus/queries.jsonl');
    set('explain/corpus+glove', {
      kind: 'lines',
      ids: qs.map((q) => String(q.id)),
      outs: qs.map((q) => idx.searchJSON(q.query, { explain: true, vector: model.queryVector(q.query) })),
    });
    set('snapshot-wasm/corpus+glove', { kind: 'bytes', buf: Buffer.from(idx.snapshot()) });
    idx.free();
    model.free();
  }
  set('module', { kind: 'module', buf: readFileSync(opt.wasm) });
  return new Map([...items].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const fileName = (key, ext) => `files/${key.replace(/[^A-Za-z0-9+_-]/g, '_')}.${ext}`;

// The manifest entry of an item (and the files it keeps).
function entry(key, it, write) {
  if (it.kind === 'text') {
    const file = fileName(key, 'txt');
    write(file, it.text);
    return { kind: 'text', sha256: sha(it.text), bytes: Buffer.byteLength(it.text), rc: it.rc, stderr: it.err, file };
  }
  if (it.kind === 'bytes') {
    const chunks = [];
    for (let o = 0; o < it.buf.length; o += CHUNK) chunks.push(sha(it.buf.subarray(o, o + CHUNK)));
    const e = { kind: 'bytes', sha256: sha(it.buf), bytes: it.buf.length, chunks };
    if (it.buf.length <= KEEP_FILE) write((e.file = fileName(key, 'bin')), it.buf);
    return e;
  }
  if (it.kind === 'lines') {
    const n = Math.min(opt.full, it.outs.length);
    const file = fileName(key, 'jsonl');
    write(file, it.outs.slice(0, n).join('\n') + '\n');
    return {
      kind: 'lines',
      count: it.outs.length,
      combined: sha(it.outs.join('\n')),
      full: n,
      file,
      items: it.ids.map((id, i) => [id, sha(it.outs[i])]),
    };
  }
  const g = gzipSize(it.buf);
  return { kind: 'module', bytes: it.buf.length, gzip: g.size, gzipTool: g.tool, sha256: sha(it.buf) };
}

// "at byte N: old «…» new «…»" for two buffers/strings.
function firstDiff(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const show = (buf) => JSON.stringify(buf.subarray(Math.max(0, i - 30), i + 50).toString('utf8'));
  return `first difference at byte ${i} (sizes ${x.length} / ${y.length}):\n      recorded ${show(x)}\n      now      ${show(y)}`;
}

function compareEntry(key, old, it, dir, report) {
  const now = entry(key, it, () => {});
  const stored = (f) => readFileSync(join(dir, f));
  if (old.kind !== now.kind) return report(`${key}: kind ${old.kind} -> ${now.kind}`);
  if (old.kind === 'module') {
    const pct = ((now.gzip - old.gzip) / old.gzip) * 100;
    console.log(`module: gzip ${old.gzip} -> ${now.gzip} B (${pct >= 0 ? '+' : ''}${pct.toFixed(3)} %, ${now.gzipTool}); ` +
      `${old.sha256 === now.sha256 ? 'bytes identical' : 'bytes differ'}${Math.abs(pct) >= 1 ? '  ** over 1 % **' : ''}`);
    return;
  }
  if (old.kind === 'text') {
    if (old.rc !== now.rc) report(`${key}: exit code ${old.rc} -> ${now.rc}`);
    if (old.stderr !== now.stderr) report(`${key}: stderr differs: ${firstDiff(old.stderr, now.stderr)}`);
    if (old.sha256 !== now.sha256) report(`${key}: output differs: ${firstDiff(stored(old.file), it.text)}`);
    return;
  }
  if (old.kind === 'bytes') {
    if (old.sha256 === now.sha256) return;
    if (old.file) return report(`${key}: snapshot differs: ${firstDiff(stored(old.file), it.buf)}`);
    const c = old.chunks.findIndex((h, i) => h !== now.chunks[i]);
    const at = c < 0 ? Math.min(old.chunks.length, now.chunks.length) * CHUNK : c * CHUNK;
    return report(`${key}: snapshot differs (sizes ${old.bytes} / ${now.bytes}); first differing 64 KiB chunk starts at byte ${at}`);
  }
  // lines
  if (old.combined === now.combined) return;
  if (old.count !== now.count) report(`${key}: ${old.count} outputs recorded, ${now.count} now`);
  const full = old.full ? stored(old.file).toString('utf8').split('\n') : [];
  const diffs = [];
  for (let i = 0; i < Math.min(old.count, now.count); i++) {
    const [id, h] = old.items[i];
    if (id !== now.items[i][0]) diffs.push(`#${i}: id ${id} -> ${now.items[i][0]}`);
    else if (h !== now.items[i][1]) {
      diffs.push(i < old.full ? `#${i} (id ${id}): ${firstDiff(full[i], it.outs[i])}` : `#${i} (id ${id}): sha256 differs (not kept in full)`);
    }
  }
  const shown = diffs.slice(0, 10);
  report(`${key}: ${diffs.length} of ${old.count} outputs differ${diffs.length > 10 ? ' (first 10)' : ''}\n    ${shown.join('\n    ')}`);
}

const t0 = performance.now();
try {
  const items = await collect();
  if (mode === 'record') {
    rmSync(join(DIR, 'files'), { recursive: true, force: true });
    mkdirSync(join(DIR, 'files'), { recursive: true });
    const write = (f, data) => writeFileSync(join(DIR, f), data);
    const manifest = { golden: 1, full: opt.full, items: {} };
    for (const [k, it] of items) manifest.items[k] = entry(k, it, write);
    const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT }).stdout?.toString().trim();
    manifest.recorded = { commit: git || null, bin: normalise(opt.bin), wasm: normalise(opt.wasm) };
    writeFileSync(join(DIR, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
    const lines = [...items.values()].filter((it) => it.kind === 'lines');
    const explains = [...items].filter(([k]) => k.startsWith('explain/')).reduce((n, [, it]) => n + it.outs.length, 0);
    console.log(`golden: recorded ${items.size} items into ${DIR} (${explains} explain outputs, ` +
      `${lines.reduce((n, it) => n + it.outs.length, 0) - explains} rank lines, ` +
      `${[...items.keys()].filter((k) => k.startsWith('snapshot')).length} snapshots, ` +
      `${[...items.keys()].filter((k) => k.startsWith('eval')).length} evals) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } else {
    const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8'));
    let n = 0;
    const report = (msg) => {
      n++;
      console.log(`DIFF ${msg}`);
    };
    for (const k of Object.keys(manifest.items)) if (!items.has(k)) report(`${k}: recorded, not produced now`);
    for (const [k, it] of items) {
      if (!manifest.items[k]) report(`${k}: produced now, not recorded`);
      else compareEntry(k, manifest.items[k], it, DIR, report);
    }
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(n ? `golden: ${n} differences from ${DIR} (${secs} s)` : `golden: equal to ${DIR}: ${items.size} items (${secs} s)`);
    process.exitCode = n ? 1 : 0;
  }
} finally {
  rmSync(TMP, { recursive: true, force: true });
}
