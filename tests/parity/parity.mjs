#!/usr/bin/env node
// parity.mjs — native CLI vs wasm CLI, byte for byte.
//
// Runs build/native/toolsift and `node js/cli.js` (once per wasm module) over
// the same inputs and compares stdout bytes and exit codes:
//   - rank over a few hundred queries generated deterministically from
//     corpus/catalog.json (names, shuffled name words, description fragments)
//     plus fixed multilingual / odd strings, and raw invalid UTF-8;
//   - search --explain for ~30 of them, analyze for the odd strings;
//   - docs and info of the catalog;
//   - rank over ../shared/catalogs/all.json when it exists.
// Usage: node tests/parity/parity.mjs [module.wasm ...]
//   (default: build/wasm/toolsift.wasm and build/wasm/toolsift.emcc.wasm,
//    each one that exists). Exit 1 on any difference.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NATIVE = path.resolve(ROOT, process.env.TOOLSIFT_NATIVE || 'build/native/toolsift');
const CLI = path.join(ROOT, 'js/cli.js');
const CATALOG = path.join(ROOT, 'corpus/catalog.json');
const ALL = path.resolve(ROOT, '../shared/catalogs/all.json');

function fail(message) {
  console.log(`parity: FAIL: ${message}`);
  process.exit(1);
}

// ---- deterministic query generation ---------------------------------------

// mulberry32: a tiny seeded PRNG, so the query set never changes between runs.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function toolsOf(catalog) {
  const list = Array.isArray(catalog) ? catalog : catalog.tools ?? [];
  return list
    .filter((t) => t && typeof t === 'object')
    .map((t) => {
      const f = t.type === 'function' && t.function ? t.function : t;
      return {
        id: typeof t.id === 'string' ? t.id : f.name,
        name: typeof f.name === 'string' ? f.name : '',
        description: typeof f.description === 'string' ? f.description : '',
      };
    });
}

function words(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.:\-/]+/u)
    .filter(Boolean);
}

const ODD = [
  '🚀 deploy the app',
  '📧✉️ email',
  '翻译文本',
  '文本',
  'ファイルを検索する',
  '한국어 문서 검색',
  'ค้นหาไฟล์',
  'Straße öffnen',
  'STRASSE',
  'ß',
  'ﬁle ﬂow',
  'ＦＵＬＬＷＩＤＴＨ　ｓｅａｒｃｈ',
  'café résumé naïve',
  'e\u0301tude',
  'Ελληνικά αναζήτηση',
  'поиск файлов',
  'بحث الملفات',
  'the of and a an',
  'is it to be or not to be',
  'what does this do',
  '',
  '   ',
  '\t\n',
  '___',
  '....::::----',
  'HTTPServer createPullRequest XMLHttpRequest',
  'github__create_issue',
  'github.create_issue',
  'ns:name',
  'issues addresses status class',
  'a'.repeat(40),
  'x'.repeat(600),
  'search '.repeat(200),
  Array.from({ length: 40 }, (_, i) => `term${i}x`).join(' '),
  'zero\u200bwidth\u200djoiner',
  'null\u0000byte',
  '1234567890 42 3.14',
  '<script>alert(1)</script>',
  '"quoted" \\backslash\\',
];

function buildQueries(catalog, { perTool, maxTools, seed }) {
  const tools = toolsOf(catalog);
  const rand = rng(seed);
  const step = Math.max(1, Math.floor(tools.length / maxTools));
  const queries = [];
  for (let i = 0; i < tools.length && queries.length < maxTools * perTool; i += step) {
    const t = tools[i];
    queries.push(t.name);
    const w = words(t.name);
    for (let j = w.length - 1; j > 0; j--) {
      const k = Math.floor(rand() * (j + 1));
      [w[j], w[k]] = [w[k], w[j]];
    }
    queries.push(w.join(' '));
    const d = t.description.split(/\s+/).filter(Boolean);
    if (d.length) {
      queries.push(d.slice(0, 4).join(' '));
      const len = 3 + Math.floor(rand() * 4);
      const start = Math.floor(rand() * Math.max(1, d.length - len));
      queries.push(d.slice(start, start + len).join(' '));
    } else {
      queries.push(t.id);
    }
  }
  queries.push(...ODD);
  return queries;
}

// JSONL with mixed id types, plus a raw line with invalid UTF-8 bytes.
function toJsonl(queries) {
  const parts = queries.map((q, i) => {
    const id = i % 3 === 0 ? i : i % 3 === 1 ? `q${i}` : { n: i };
    return Buffer.from(JSON.stringify({ id, query: q }) + '\n');
  });
  parts.push(Buffer.from('\n'));
  parts.push(Buffer.concat([
    Buffer.from('{"id":"bad-utf8","query":"email '),
    Buffer.from([0xff, 0xfe, 0x20, 0xc3, 0x28, 0x20, 0xe2, 0x82]),
    Buffer.from(' send"}\n'),
  ]));
  return Buffer.concat(parts);
}

// ---- running and comparing -------------------------------------------------

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 30,
  });
  if (r.error) fail(`cannot run ${cmd}: ${r.error.message}`);
  return r;
}

function firstDifference(a, b) {
  const la = a.toString('utf8').split('\n');
  const lb = b.toString('utf8').split('\n');
  const cut = (s) => (s === undefined ? '<missing>' : s.length > 300 ? `${s.slice(0, 300)}…` : s);
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}:\n  native: ${cut(la[i])}\n  wasm:   ${cut(lb[i])}`;
  }
  return 'bytes differ (not as text)';
}

const modules = (process.argv.length > 2
  ? process.argv.slice(2).map((p) => path.resolve(p))
  : ['build/wasm/toolsift.wasm', 'build/wasm/toolsift.emcc.wasm']
      .map((p) => path.join(ROOT, p))
      .filter((p) => {
        if (existsSync(p)) return true;
        console.log(`parity: skip ${path.relative(ROOT, p)} (not built)`);
        return false;
      }));

if (!existsSync(NATIVE)) fail(`${path.relative(ROOT, NATIVE)} is not built (npm run build)`);
if (modules.length === 0) fail('no wasm module is built (npm run build)');
for (const m of modules) if (!existsSync(m)) fail(`${m} does not exist`);
if (!existsSync(CATALOG)) {
  console.log('parity: skip: corpus/catalog.json does not exist yet');
  process.exit(0);
}

const tmp = mkdtempSync(path.join(tmpdir(), 'toolsift-parity-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const cases = []; // { name, args, mustSucceed }
function addCatalogCases(label, catalogPath, opts) {
  const catalog = JSON.parse(readFileSync(catalogPath, 'utf8'));
  const queries = buildQueries(catalog, opts);
  const qPath = path.join(tmp, `${label}.jsonl`);
  writeFileSync(qPath, toJsonl(queries));
  for (const k of opts.ks) {
    cases.push({
      name: `${label}: rank k=${k} (${queries.length + 1} queries)`,
      args: ['rank', '--catalog', catalogPath, '--queries', qPath, '--k', String(k)],
      mustSucceed: true,
    });
  }
  // Outside data sets may carry ids that are not model-facing names: rank is
  // lenient by default, info/docs are told so.
  const lenient = opts.lenient ? ['--options', '{"ids":"lenient"}'] : [];
  cases.push({ name: `${label}: info`, args: ['info', '--catalog', catalogPath, ...lenient], mustSucceed: true });
  cases.push({ name: `${label}: docs`, args: ['docs', '--catalog', catalogPath, ...lenient], mustSucceed: true });
  return queries;
}

const queries = addCatalogCases('catalog', CATALOG, { perTool: 4, maxTools: 90, seed: 1, ks: [10, 1] });
// ~30 explained searches: every 13th generated query (all four kinds), and a few odd ones.
const explained = queries.filter((q, i) => i % 13 === 0 && q.trim()).slice(0, 24);
explained.push('🚀 deploy the app', '翻译文本', 'Straße öffnen', 'the of and a an', 'x'.repeat(600), 'HTTPServer createPullRequest');
for (const q of explained) {
  cases.push({
    name: `search --explain ${JSON.stringify(q.slice(0, 40))}`,
    args: ['search', '--catalog', CATALOG, '--explain', '--limit', '5', ...q.split(' ').filter(Boolean)],
    mustSucceed: true,
  });
}
cases.push({
  name: 'rank --strict-ids --k 3',
  args: ['rank', '--catalog', CATALOG, '--queries', path.join(tmp, 'catalog.jsonl'), '--k', '3', '--strict-ids'],
  mustSucceed: true,
});
cases.push({
  name: 'search with --options (no stopwords, other weights)',
  args: ['search', '--catalog', CATALOG, '--options', '{"stopwords":[],"weights":{"name":1,"description":2}}',
    '--explain', 'the', 'list', 'of', 'open', 'issues'],
  mustSucceed: true,
});
cases.push({
  name: 'search (no options)',
  args: ['search', '--catalog', CATALOG, ...(queries[0] || 'search').split(' ')],
  mustSucceed: true,
});
for (const q of ODD.filter((s) => s.trim() && !s.includes('\u0000'))) {
  cases.push({ name: `analyze ${JSON.stringify(q.slice(0, 30))}`, args: ['analyze', q], mustSucceed: true });
}
// Error paths must agree too (stdout empty, same exit code and message).
const badJsonl = path.join(tmp, 'bad.jsonl');
writeFileSync(badJsonl, '{"id":1,"query":"ok"}\n{"id":2,"query":\n');
cases.push({
  name: 'rank with a malformed line',
  args: ['rank', '--catalog', CATALOG, '--queries', badJsonl, '--k', '3'],
  mustSucceed: false,
  compareStderr: true,
});
const dupCatalog = path.join(tmp, 'dup.json');
writeFileSync(dupCatalog, '[{"name":"same"},{"name":"same"}]');
cases.push({ name: 'duplicate id', args: ['info', '--catalog', dupCatalog], mustSucceed: false, compareStderr: true });

if (existsSync(ALL)) {
  addCatalogCases('all.json', ALL, { perTool: 2, maxTools: 200, seed: 2, ks: [10], lenient: true });
} else {
  console.log('parity: skip ../shared/catalogs/all.json (not found)');
}

let differences = 0;
let compared = 0;
for (const c of cases) {
  const native = run(NATIVE, c.args, {});
  if (c.mustSucceed && native.status !== 0) {
    console.log(`parity: native failed on ${c.name}: ${native.stderr.toString().trim()}`);
    differences++;
    continue;
  }
  for (const m of modules) {
    const wasm = run(process.execPath, [CLI, ...c.args], { TOOLSIFT_WASM: m });
    compared++;
    const label = `${c.name} [${path.basename(m)}]`;
    if (native.status !== wasm.status) {
      console.log(`parity: DIFF ${label}: exit ${native.status} native vs ${wasm.status} wasm`);
      console.log(`  native stderr: ${native.stderr.toString().trim()}`);
      console.log(`  wasm stderr:   ${wasm.stderr.toString().trim()}`);
      differences++;
    } else if (!native.stdout.equals(wasm.stdout)) {
      console.log(`parity: DIFF ${label}: stdout ${firstDifference(native.stdout, wasm.stdout)}`);
      differences++;
    } else if (c.compareStderr && !native.stderr.equals(wasm.stderr)) {
      console.log(`parity: DIFF ${label}: stderr ${firstDifference(native.stderr, wasm.stderr)}`);
      differences++;
    }
  }
}

const summary = `${cases.length} cases x ${modules.length} module(s) = ${compared} comparisons`;
if (differences) fail(`${differences} difference(s) in ${summary}`);
console.log(`parity: OK: ${summary}, native and wasm byte-identical`);
