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
//   - rank over ../shared/catalogs/all.json when it exists;
//   - sessions (tests/fixtures/session): `session run --journal-out`, `session
//     replay` on the native journal and on tampered copies, `session menu` in
//     every format with and without a journal, odd calls lines and config
//     and catalog files (the core reads them, strictly: both CLIs hand it the
//     bytes), and their error paths, comparing stderr too; the journals each
//     CLI writes must be byte-identical;
//   - snapshots: `build -o` (the .tsi files each CLI writes must be
//     byte-identical), search/rank/info/docs with --index on a native
//     snapshot, and their error paths (corrupt, truncated, wrong magic,
//     missing -o …), comparing stderr too;
//   - embed (the static-embedding model of issue 25) over the generated test
//     model, F32 and F16, and the loader's error paths, comparing stderr too;
//   - the real model (issue 35): --model glove through embed, search, build,
//     eval on a small labelled set and session run, and a sentence-transformers
//     folder (skipped, saying so, when build/models/glove is not built);
//   - learning (issue 32, tests/fixtures/learn): `learn` over a folder of
//     journals the native `session run --client` wrote here, over files and
//     labelled examples, each rule flag, the journal key (file and env), -o
//     (the files compared byte for byte, each of mode 0600, also over an
//     existing file of mode 0644), `learn --diff`, and the errors (malformed
//     and unknown journal lines, a tampered journal refused, skipped,
//     accepted; bad examples; usage), comparing stderr too; `--annotations`
//     on search/rank/info/docs/texts/build/eval and its errors; `eval
//     --learn`; session run/replay/menu with --client and --annotations;
//   - --help, and query words such as `constructor` and `--json`.
// Usage and help text match except for the wasm CLI's last line naming the
// module it loads (WASM_USAGE_TRAILER), which is cut before comparing.
// The corpus catalog is copied once, so an edit to corpus/ during the run
// cannot make the two CLIs see different catalogs.
// Usage: node tests/parity/parity.mjs [module.wasm ...]
//   (default: build/wasm/toolsift.wasm and build/wasm/toolsift.emcc.wasm,
//    each one that exists). Exit 1 on any difference.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { b64, syntheticVectors, unit, vector } from '../../scripts/synthetic-vectors.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NATIVE = path.resolve(ROOT, process.env.TOOLSIFT_NATIVE || 'build/native/toolsift');
const CLI = path.join(ROOT, 'js/cli.js');
const CORPUS_CATALOG = path.join(ROOT, 'corpus/catalog.json');
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
  // the cross-lingual vocabulary (core/src/text/vocab.c): stems, phrases, bigram runs
  'Datei löschen und Nachrichten senden',
  'mettre à jour la base de données',
  'buscar archivos y enviar un correo',
  '删除数据库中的表格',
  'プルリクエストを作成してコメントを追加',
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

function run(cmd, args, env, cwd = ROOT) {
  const r = spawnSync(cmd, args, {
    cwd,
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
        console.log(`SKIP: parity: ${path.relative(ROOT, p)} (not built)`);
        return false;
      }));

if (!existsSync(NATIVE)) fail(`${path.relative(ROOT, NATIVE)} is not built (npm run build)`);
if (modules.length === 0) fail('no wasm module is built (npm run build)');
for (const m of modules) if (!existsSync(m)) fail(`${m} does not exist`);
if (!existsSync(CORPUS_CATALOG)) {
  console.log('SKIP: parity: corpus/catalog.json does not exist yet');
  process.exit(0);
}

const tmp = mkdtempSync(path.join(tmpdir(), 'toolsift-parity-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const CATALOG = path.join(tmp, 'catalog.json');
writeFileSync(CATALOG, readFileSync(CORPUS_CATALOG));

// The last line of the wasm CLI's usage text, which the native one lacks.
const WASM_USAGE_TRAILER = Buffer.from(
  '\nThe wasm CLI loads build/wasm/toolsift.wasm, or the module at env TOOLSIFT_WASM.\n',
);
function cutTrailer(buf) {
  const n = WASM_USAGE_TRAILER.length;
  return buf.length >= n && buf.subarray(buf.length - n).equals(WASM_USAGE_TRAILER)
    ? buf.subarray(0, buf.length - n)
    : buf;
}

// { name, args, mustSucceed, expectStatus?, compareStderr?, cwd?, env?,
//   outputMode? (the written file's permission bits, checked for each CLI),
//   outputExists? (the output file exists beforehand, mode 0644, longer) }
const cases = [];
const JOURNAL_OUT = '@journal-out@'; // in args: a per-run output file, compared too
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
// a request of two sentences and 13+ terms: ranked by the diversity rule
explained.push('Create a new issue in the repository and assign it to the on-call engineer. Then send a message ' +
  'to the team channel and schedule a meeting on the calendar for tomorrow morning.');
explained.push('🚀 deploy the app', '翻译文本', 'Straße öffnen', 'the of and a an', 'x'.repeat(600), 'HTTPServer createPullRequest');
// the graded loop: typo corrections, a miss with unmatched words, foreign function words, +words (searched as text)
explained.push('creat a jira tiket', 'deploymnets in kubernets', 'order a large pepperoni pizza', 'Wetter für München',
  'send a message +slack');
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
// ---- relevance evaluation -------------------------------------------------------
{
  const corpusDir = path.join(ROOT, 'corpus');
  const add = (name, args, opts) => cases.push({ name, args, compareStderr: true, ...opts });
  if (existsSync(path.join(corpusDir, 'queries.jsonl'))) {
    add('eval --corpus (report, gates)', ['eval', '--corpus', corpusDir], { expectStatus: 0 });
    add('eval --corpus --json', ['eval', '--corpus', corpusDir, '--json'], { expectStatus: 0 });
    // a floor no ranking reaches, so the gate fails whatever the corpus's own floors are
    const failing = path.join(tmp, 'failing-gates.json');
    writeFileSync(failing, '{"overall":{"ndcg10":0.99},"loop":{"overall":{"junkPerSearch":0.01}}}');
    add('eval with index options and a failing gate', ['eval', '--catalog', path.join(corpusDir, 'catalog.json'),
      '--queries', path.join(corpusDir, 'queries.jsonl'), '--gates', failing,
      '--options', '{"ids":"lenient","minCoverage":0.3}'], { expectStatus: 1 });
    add('eval --loop with a failing loop gate', ['eval', '--loop', '--catalog', path.join(corpusDir, 'catalog.json'),
      '--queries', path.join(corpusDir, 'queries.jsonl'), '--gates', failing], { expectStatus: 1 });
  }
  const metatool = path.join(ROOT, '../shared/datasets/metatool');
  if (existsSync(path.join(metatool, 'tools.jsonl'))) {
    add('eval on a JSON Lines catalog (MetaTool dev)', ['eval', '--json', '--catalog', path.join(metatool, 'tools.jsonl'),
      '--queries', path.join(metatool, 'queries_dev.jsonl')], { expectStatus: 0 });
  }
  add('eval: usage error', ['eval', '--catalog', path.join(corpusDir, 'catalog.json')], { expectStatus: 2 });
  add('eval: missing queries file', ['eval', '--catalog', path.join(corpusDir, 'catalog.json'),
    '--queries', path.join(tmp, 'no-such.jsonl')], { expectStatus: 1 });
}

// ---- vectors (docs/relevance.md, "Semantic search") ---------------------------
// The corpus catalog with a synthetic embedding on every tool whose own text
// is indexed, searches with query vectors (an array file, a base64 file, a
// tool's own vector: fusion lifts it), a snapshot of it, an evaluation with
// random and oracle vectors (fusion and the loop), and the errors.
{
  const add = (name, args, opts) => cases.push({ name, args, compareStderr: true, ...opts });
  const catalog = JSON.parse(readFileSync(CATALOG, 'utf8'));
  const tools = Array.isArray(catalog) ? catalog : catalog.tools;
  const own = (t) => !t.tainted && (!t.origin || t.origin === 'local' || t.trusted);
  const dim = 48;
  for (const t of tools) if (own(t)) t.embedding = vector(`parity:${t.id ?? t.name}`, dim).map((x) => Math.fround(x));
  const vcat = path.join(tmp, 'vectors-catalog.json');
  writeFileSync(vcat, JSON.stringify(catalog));
  const target = tools.find((t) => own(t) && t.embedding);
  const qArray = path.join(tmp, 'qvec.json');
  writeFileSync(qArray, JSON.stringify(unit(target.embedding.map((x, i) => x + 0.3 * Math.sin(i)))));
  const qB64 = path.join(tmp, 'qvec.b64');
  writeFileSync(qB64, JSON.stringify(b64(vector('parity:query', dim))));
  const qBad = path.join(tmp, 'qvec-bad.json');
  writeFileSync(qBad, '[1,2,3]');
  const ok = { expectStatus: 0 };
  for (const q of ['open a pull request', 'money back', 'page whoever is on call', target.name ?? target.id]) {
    add(`vectors: search --explain --vector (array) ${JSON.stringify(q)}`, ['search', '--catalog', vcat, '--explain',
      '--limit', '5', '--vector', qArray, ...q.split(' ')], ok);
    add(`vectors: search --vector (base64) ${JSON.stringify(q)}`, ['search', '--catalog', vcat, '--vector', qB64,
      ...q.split(' ')], ok);
  }
  add('vectors: search without --vector (as without embeddings)', ['search', '--catalog', vcat, '--explain', 'open', 'a', 'pull', 'request'], ok);
  add('vectors: info', ['info', '--catalog', vcat], ok);
  add('vectors: texts (what a host embeds, per trust class)', ['texts', '--catalog', vcat], ok);
  add('vectors: wrong dimension', ['search', '--catalog', vcat, '--vector', qBad, 'x'], { expectStatus: 1 });
  add('vectors: an index without vectors', ['search', '--catalog', CATALOG, '--vector', qBad, 'x'], { expectStatus: 1 });
  const vsnap = path.join(tmp, 'vectors.tsi');
  const built = spawnSync(NATIVE, ['build', '--catalog', vcat, '-o', vsnap]);
  if (built.status === 0) {
    add('vectors: search --index (native snapshot) --vector', ['search', '--index', vsnap, '--explain', '--vector', qArray,
      'open', 'a', 'pull', 'request'], ok);
  }
  const corpusDir = path.join(ROOT, 'corpus');
  if (existsSync(path.join(corpusDir, 'queries.jsonl'))) {
    const queriesText = readFileSync(path.join(corpusDir, 'queries.jsonl'), 'utf8');
    const ids = JSON.parse(spawnSync(NATIVE, ['docs', '--catalog', CATALOG]).stdout).tools.map((t) => t.id);
    for (const kind of ['random', 'oracle']) {
      const file = path.join(tmp, `vectors-${kind}.jsonl`);
      writeFileSync(file, syntheticVectors({ ids, queries: queriesText, kind, dim: 64 }));
      add(`vectors: eval --loop --json --vectors (${kind})`, ['eval', '--loop', '--json', '--catalog', CATALOG, '--queries',
        path.join(corpusDir, 'queries.jsonl'), '--vectors', file], { expectStatus: 0 });
    }
    const broken = path.join(tmp, 'vectors-broken.jsonl');
    writeFileSync(broken, '{"kind":"tool","id":"nope","vector":[1]}\n');
    add('vectors: eval --vectors naming no tool', ['eval', '--catalog', CATALOG, '--queries',
      path.join(corpusDir, 'queries.jsonl'), '--vectors', broken], { expectStatus: 1 });
  }
}

// ---- sessions -----------------------------------------------------------------

function addSessionCases() {
  const F = 'tests/fixtures/session';
  const config = `${F}/config.json`;
  const calls = `${F}/calls.jsonl`;
  if (!existsSync(path.join(ROOT, config)) || !existsSync(path.join(ROOT, calls))) {
    fail(`${F}/config.json or calls.jsonl is missing`);
  }
  // The native journal of the fixture run: replayed as-is and tampered with.
  const journalPath = path.join(tmp, 'session-native.jsonl');
  const made = run(NATIVE, ['session', 'run', '--config', config, '--calls', calls, '--journal-out', journalPath], {});
  if (made.status !== 0 || !existsSync(journalPath)) {
    fail(`native session run failed: ${made.stderr.toString().trim()}`);
  }
  const journal = readFileSync(journalPath, 'utf8');
  const records = journal.trimEnd().split('\n').map((l) => JSON.parse(l));
  const [header, ...decisions] = records; // the hash chain's header first
  if (header.source !== 'toolsift-journal') fail('the fixture journal does not start with its chain header');
  if (decisions.length < 5) fail(`the fixture run recorded only ${decisions.length} decisions`);

  // Tampered: forged, hidden, duplicate and wrong-typed ids, a widened
  // `loaded`, a non-array, a non-object value, a dropped decision and one
  // that is never asked for.
  const t = structuredClone(decisions);
  t[0].value.results = ['nope__forged', ...t[0].value.results, t[0].value.results[0], 17, 'filesystem__read_file'];
  t[0].value.loaded = [...t[0].value.loaded, 'nope__forged', 'stripe__create_refund'];
  t[1].value.results = [...t[1].value.results].reverse();
  t[2].value.loaded = 'everything';
  t[3].value = ['not', 'an', 'object'];
  t.splice(4, 1);
  t.push({ ...decisions[0], id: 'parity#turn:99:tool:0:search' });
  const tampered = path.join(tmp, 'session-tampered.jsonl');
  writeFileSync(tampered, [header, ...t].map((d) => JSON.stringify(d)).join('\n') + '\n');
  const asArray = path.join(tmp, 'session-journal-array.json');
  writeFileSync(asArray, JSON.stringify(records, null, 1));
  const keyFile = path.join(tmp, 'session-key.hex');
  writeFileSync(keyFile, '7e'.repeat(32));
  const empty = path.join(tmp, 'session-empty.jsonl');
  writeFileSync(empty, '');

  const add = (name, args, opts = {}) =>
    cases.push({ name: `session ${name}`, args: ['session', ...args], compareStderr: true, ...opts });
  const ok = { expectStatus: 0 };
  add('run --journal-out', ['run', '--config', config, '--calls', calls, '--journal-out', JOURNAL_OUT], ok);
  add('replay (native journal)', ['replay', '--config', config, '--calls', calls, '--journal', journalPath,
    '--journal-out', JOURNAL_OUT], ok);
  add('replay (journal as a JSON array)', ['replay', '--config', config, '--calls', calls, '--journal', asArray], ok);
  add('replay (tampered, --divergence warn)', ['replay', '--config', config, '--calls', calls, '--journal', tampered,
    '--divergence', 'warn', '--journal-out', JOURNAL_OUT], ok);
  add('replay (tampered, --divergence off)', ['replay', '--config', config, '--calls', calls, '--journal', tampered,
    '--divergence', 'off'], ok);
  add('replay (tampered, fail)', ['replay', '--config', config, '--calls', calls, '--journal', tampered,
    '--journal-out', JOURNAL_OUT], { expectStatus: 1 });
  add('replay (empty journal, fail)', ['replay', '--config', config, '--calls', calls, '--journal', empty],
    { expectStatus: 1 });
  add('verify (native journal)', ['verify', '--config', config, '--journal', journalPath], ok);
  add('verify (tampered: every problem)', ['verify', '--config', config, '--journal', tampered], { expectStatus: 1 });
  add('verify (a key for an unkeyed journal)', ['verify', '--config', config, '--journal', journalPath,
    '--journal-key-file', keyFile], { expectStatus: 1 });
  add('run --journal-key-file', ['run', '--config', config, '--calls', calls, '--journal-key-file', keyFile,
    '--journal-out', JOURNAL_OUT], ok);
  // Issue 34, downgrade: a keyed journal with its chain stripped (the header
  // dropped, and each record's chain field too) is refused by a keyed host.
  const keyedPath = path.join(tmp, 'session-keyed.jsonl');
  const keyed = run(NATIVE, ['session', 'run', '--config', config, '--calls', calls, '--journal-key-file', keyFile,
    '--journal-out', keyedPath], {});
  if (keyed.status !== 0) fail(`native keyed session run failed: ${keyed.stderr.toString().trim()}`);
  const keyedLines = readFileSync(keyedPath, 'utf8').trimEnd().split('\n').slice(1);
  const headless = path.join(tmp, 'session-keyed-headless.jsonl');
  writeFileSync(headless, `${keyedLines.join('\n')}\n`);
  const stripped = path.join(tmp, 'session-keyed-stripped.jsonl');
  writeFileSync(stripped, `${keyedLines.map((l) => { const r = JSON.parse(l); delete r.chain; return JSON.stringify(r); }).join('\n')}\n`);
  for (const [what, file] of [['header dropped', headless], ['chain stripped', stripped]]) {
    add(`verify (keyed journal, ${what}, with the key)`, ['verify', '--config', config, '--journal', file,
      '--journal-key-file', keyFile], { expectStatus: 1 });
    add(`replay (keyed journal, ${what}, with the key)`, ['replay', '--config', config, '--calls', calls, '--journal', file,
      '--journal-key-file', keyFile], { expectStatus: 1 });
  }
  // Issue 34: a key given is a key checked by the core's one reader — empty,
  // white space, short, uppercase, a NUL byte after 64 good digits, or an
  // empty TOOLSIFT_JOURNAL_KEY are errors naming their source, never "no key".
  const badKeys = { empty: '', 'white space': '   \n', short: 'ab'.repeat(8), uppercase: 'AB'.repeat(32),
    'NUL after 64 digits': `${'7e'.repeat(32)}\0junk`, 'two lines': `${'7e'.repeat(32)}\n${'7e'.repeat(32)}\n` };
  for (const [what, bytes] of Object.entries(badKeys)) {
    const f = path.join(tmp, `session-key-${what.replace(/\W+/g, '-')}.hex`);
    writeFileSync(f, bytes);
    add(`verify (key file: ${what})`, ['verify', '--config', config, '--journal', journalPath, '--journal-key-file', f],
      { expectStatus: 1 });
    cases.push({ name: `learn (key file: ${what})`, args: ['learn', '--catalog', 'corpus/catalog.json', '--journals',
      journalPath, '--journal-key-file', f], compareStderr: true, expectStatus: 1 });
  }
  add('verify (TOOLSIFT_JOURNAL_KEY empty)', ['verify', '--config', config, '--journal', journalPath],
    { expectStatus: 1, env: { TOOLSIFT_JOURNAL_KEY: '' } });
  add('run (TOOLSIFT_JOURNAL_KEY empty)', ['run', '--config', config, '--calls', calls],
    { expectStatus: 1, env: { TOOLSIFT_JOURNAL_KEY: '' } });
  for (const format of ['mcp', 'openai', 'anthropic']) {
    add(`menu --format ${format}`, ['menu', '--config', config, '--format', format], ok);
    add(`menu --format ${format} --journal`, ['menu', '--config', config, '--journal', journalPath, '--format', format], ok);
  }
  add('menu (default format, tampered journal, warn)', ['menu', '--config', config, '--journal', tampered,
    '--divergence', 'warn'], ok);
  add('menu (tampered journal, fail: refused, the chain is broken)', ['menu', '--config', config, '--journal', tampered],
    { expectStatus: 1 });
  add('menu --calls --journal-out', ['menu', '--config', config, '--calls', calls, '--format', 'openai',
    '--journal-out', JOURNAL_OUT], ok);

  // Issue 33: pre-search lines, run and replayed; auto mode over a small
  // catalog (every tool on the menu, no search tool) and a call in it.
  const preCalls = path.join(tmp, 'session-pre.jsonl');
  writeFileSync(preCalls, ['{"turn":0,"preSearch":"Please refund that Stripe payment."}',
    '{"turn":0,"call":0,"tool":"stripe__create_refund","args":{}}',
    '{"turn":1,"preSearch":"Hi! thanks a lot"}', '{"turn":1,"call":0,"tool":"search_tools","args":{"query":"slack"}}',
  ].join('\n') + '\n');
  const lateCalls = path.join(tmp, 'session-pre-late.jsonl');
  writeFileSync(lateCalls, readFileSync(preCalls, 'utf8') + '{"turn":1,"preSearch":"too late for turn 1"}\n');
  add('run (a pre-search after its turn\'s calls: arg)', ['run', '--config', config, '--calls', lateCalls], { expectStatus: 1 });
  add('run (pre-search lines)', ['run', '--config', config, '--calls', preCalls, '--journal-out', JOURNAL_OUT], ok);
  const preJournal = path.join(tmp, 'session-pre-journal.jsonl');
  if (run(NATIVE, ['session', 'run', '--config', config, '--calls', preCalls, '--journal-out', preJournal], {}).status !== 0) {
    fail('native session run with pre-search lines failed');
  }
  add('replay (pre-search lines)', ['replay', '--config', config, '--calls', preCalls, '--journal', preJournal,
    '--journal-out', JOURNAL_OUT], ok);
  add('menu --journal (pre-search lines)', ['menu', '--config', config, '--journal', preJournal, '--format', 'anthropic'], ok);
  const autoConfig = path.join(tmp, 'session-auto.json');
  const corpus = JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8'));
  const small = corpus.tools.filter((t) => /^(weather|translate|fx)__/.test(t.id ?? t.function?.name ?? t.name));
  writeFileSync(autoConfig, JSON.stringify({ loop: 'parity', catalog: { tools: small }, search: { auto: true } }));
  const autoCalls = path.join(tmp, 'session-auto-calls.jsonl');
  writeFileSync(autoCalls, '{"turn":0,"call":0,"tool":"weather__get_forecast","args":{"city":"Oslo"}}\n' +
    '{"turn":0,"call":1,"tool":"search_tools","args":{"query":"weather"}}\n');
  add('run (auto mode)', ['run', '--config', autoConfig, '--calls', autoCalls, '--journal-out', JOURNAL_OUT], ok);
  add('menu (auto mode)', ['menu', '--config', autoConfig, '--format', 'openai'], ok);

  // Calls lines as the core reads them (tsift_session_call_next): refused
  // (not a call) for a BOM, duplicate keys, trailing data, an escaped NUL,
  // a fractional or out-of-range turn, invalid UTF-8, wrong types; read for
  // CRLF, huge and fractional argument numbers, escapes, blank lines,
  // arguments that are not an object (the session's refusal), "args" before
  // the other keys or spelt with an escape, whitespace and brackets inside
  // the arguments (handed on as the line's own bytes).
  const odd = path.join(tmp, 'session-odd.jsonl');
  writeFileSync(odd, Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from([
      '{"turn":0,"call":0,"tool":"search_tools","args":{"query":"slack","query":"github"}} trailing',
      '{"turn":0,"call":1,"tool":"search_tools","args":{"query":"pods","limit":2.0}}\r',
      '{"turn":0,"call":2,"tool":"search_tools","args":{"query":"kubernetes","limit":1e999}}',
      '{"turn":0,"call":3,"tool":"search_tools","args":{"query":"caf\\u00e9 \\ud83d\\ude00 \\/ \\u0000 hidden"}}',
      '{"turn":0,"call":4,"tool":"search_tools","args":{"query":"merge","limit":-0}}',
      '{"turn":0,"call":5,"tool":"search_tools","args":{"query":"deploy","limit":3.5e0}}',
      '{"turn":1.9,"call":2.2,"tool":"slack__send_message"}',
      '{"turn":1,"call":3,"tool":"search\\u0000_tools","args":{"query":"git"}}',
      '{"turn":-1,"call":0,"tool":"x"}',
      '{"turn":4294967295,"call":4294967296,"tool":"x"}',
      '{"turn":4294967295,"call":4294967295,"tool":"reply","args":[1,"2",{"a":null}]}',
      '   \t',
      'not json',
      '["turn",0]',
      '{"turn":"1","call":0,"tool":"x"}',
      '{"turn":2,"call":0,"tool":"search_tools","args":{"query":"x","extra":{"deep":[1.5,true,false,null,"\\t"]}}}',
    ].join('\n')),
    Buffer.from('\n{"turn":3,"call":0,"tool":"search_tools","args":{"query":"caf'),
    Buffer.from([0xc3, 0x28, 0xff]),
    Buffer.from('"}}\n{"turn":3,"call":1,"tool":"'),
    Buffer.from([0xff]),
    Buffer.from(' bad name"}\n'),
    Buffer.from([
      '{"args":{"query":"slack message"},"tool":"search_tools","call":0,"turn":6}',
      '{"turn":6,"call":1,"tool":"search_tools","\\u0061rgs":{"query":"github issue"}}',
      '{ "turn" : 6 , "call" : 2 , "tool" : "search_tools" , "args" : { "query" : "caf\\u00e9 \\ud83d\\ude00 \\/ ' +
        '\\"pods\\" [logs] {x}" , "limit" : 2 } , "extra" : [ 1 , { "args" : 2 } ] }\r',
      '{"turn":6,"call":3,"tool":"search_tools","args":"find a tool"}',
      '{"turn":6,"call":4,"tool":"search_tools","args":null}',
      '{"turn":6,"call":5,"tool":"search_tools","args":{"query":"x","limit":1e999}}',
      '{"turn":6,"call":6,"tool":"reply"}',
    ].join('\n')),
  ]));
  add('run (odd calls lines)', ['run', '--config', config, '--calls', odd, '--journal-out', JOURNAL_OUT],
    { expectStatus: 1 });
  add('replay (odd calls lines, empty journal, warn)', ['replay', '--config', config, '--calls', odd,
    '--journal', empty, '--divergence', 'warn'], { expectStatus: 1 });

  // Configuration and catalog files as the core reads them: numbers and
  // escapes in the config and the catalog (their specs reach the menu), a
  // repeated key, bare catalog paths, what the strict reader refuses, error
  // paths.
  const catalogFile = path.join(tmp, 'session-odd-catalog.json');
  const catalogText = JSON.stringify({
    tools: [
      {
        id: 'num__tool',
        name: 'num_tool',
        description: 'Numbers \u00e9 \t tab "quoted" /slash/',
        inputSchema: { type: 'object', properties: { n: { type: 'number', minimum: 0.25, maximum: 12345678.5 } } },
      },
      { id: 'other__tool', name: 'other_tool', description: 'Another numbers tool' },
    ],
  });
  const oddCatalogText = catalogText.replace('12345678.5', '1.23456785e7').replace('0.25', '25e-2');
  writeFileSync(catalogFile, oddCatalogText);
  const oddConfig = path.join(tmp, 'session-odd-config.json');
  writeFileSync(oddConfig, '{"loop":"odd","tools":[{"name":"reply","description":"Reply \\u00e9 \\/","inputSchema":' +
    '{"type":"object","properties":{"k":{"type":"integer","minimum":1.0,"maximum":1e2,"default":-0,' +
    '"multipleOf":0.30000000000000004,"const":1e400}}}}],' +
    `"catalog":${JSON.stringify(catalogFile)},"search":{"maxPerSearch":2.0,"alwaysLoaded":["num__tool"],` +
    '"maxLoaded":6e0}}');
  const oddCalls = path.join(tmp, 'session-odd-config-calls.jsonl');
  writeFileSync(oddCalls, '{"turn":0,"call":0,"tool":"search_tools","args":{"query":"numbers tool"}}\n' +
    '{"turn":0,"call":1,"tool":"num__tool","args":{"n":1.0}}\n');
  add('run (odd config and catalog files)', ['run', '--config', oddConfig, '--calls', oddCalls,
    '--journal-out', JOURNAL_OUT], ok);
  for (const format of ['mcp', 'openai', 'anthropic']) {
    add(`menu --format ${format} (odd config and catalog files)`, ['menu', '--config', oddConfig, '--format', format], ok);
  }
  // What the core refuses in a configuration or the catalog file it names
  // (the CLIs' cJSON read these leniently until they handed the core bytes).
  const strictErrors = {
    'config with trailing data': [readFileSync(oddConfig, 'utf8') + ' trailing', null],
    'catalog file with a BOM': [null, '\ufeff' + oddCatalogText],
    'catalog file with trailing data': [null, oddCatalogText + '  trailing text'],
    'catalog file with a duplicate key': [null, '{"tools":[],"tools":[{"name":"a"}]}'],
    'catalog file with a \\u0000 escape': [null, '[{"name":"a","description":"x\\u0000y"}]'],
    'catalog file with a raw control character': [null, '[{"name":"a","description":"x\u0001y"}]'],
    'catalog file with invalid UTF-8': [null, Buffer.concat([Buffer.from('[{"name":"a","description":"'),
      Buffer.from([0xc3, 0x28]), Buffer.from('"}]')])],
    'empty catalog file': [null, ''],
    'catalog file that is not a catalog': [null, '42'],
    // issue 21: the reasons are named, the same in both CLIs
    'config with a BOM': ['\ufeff' + readFileSync(oddConfig, 'utf8'), null],
    'catalog file with a lone surrogate escape': [null, '[{"name":"a","description":"x\\ud800y"}]'],
    'catalog file with a schema nested past 1000': [null, '{"tools":[{"name":"a"},{"name":"deep","inputSchema":' +
      '{"properties":{"x":' + '['.repeat(5000) + ']'.repeat(5000) + '}},"id":"deep__tool"}]}'],
  };
  for (const [name, [configText, catalogBytes]] of Object.entries(strictErrors)) {
    const stem = `session-strict-${name.replace(/\W+/g, '-')}`;
    const cat = path.join(tmp, `${stem}-catalog.json`);
    const cfgFile = path.join(tmp, `${stem}-config.json`);
    if (catalogBytes !== null) writeFileSync(cat, catalogBytes);
    writeFileSync(cfgFile, configText ?? JSON.stringify({ catalog: path.basename(cat) }));
    add(`strict: ${name}`, ['menu', '--config', cfgFile], { expectStatus: 1 });
  }
  // A repeated key is refused by the core (cJSON would silently keep the first).
  const dupConfig = path.join(tmp, 'session-dup-key-config.json');
  writeFileSync(dupConfig, `{"loop":"dup","catalog":${JSON.stringify(catalogFile)},"catalog":"the second"}`);
  add('menu (a config with a duplicate key)', ['menu', '--config', dupConfig], { expectStatus: 1 });
  const bare = path.join(tmp, 'session-bare');
  mkdirSync(bare, { recursive: true });
  writeFileSync(path.join(bare, 'cfg.json'), JSON.stringify({ catalog: 'cat.json' }));
  writeFileSync(path.join(bare, 'cat.json'), JSON.stringify([{ name: 'only_tool', description: 'The only tool' }]));
  cases.push({ name: 'session menu (config path without a folder)', args: ['session', 'menu', '--config', 'cfg.json'],
    compareStderr: true, expectStatus: 0, cwd: bare });
  writeFileSync(path.join(tmp, 'session-bad-catalog.json'), '{"tools": [');
  writeFileSync(path.join(tmp, 'session-dup-catalog.json'), '[{"name":"a"},{"name":"a"}]');
  const errors = {
    'missing catalog file': JSON.stringify({ catalog: 'no-such-catalog.json' }),
    'empty catalog path': JSON.stringify({ catalog: '' }),
    'malformed catalog file': JSON.stringify({ catalog: 'session-bad-catalog.json' }),
    'catalog with duplicate ids': JSON.stringify({ catalog: 'session-dup-catalog.json' }),
    'bad cap': JSON.stringify({ catalog: catalogFile, search: { maxLoaded: 500 } }),
    'unknown key': JSON.stringify({ catalog: catalogFile, serach: {} }),
    collision: JSON.stringify({ tools: [{ name: 'num__tool' }], catalog: catalogFile }),
    'malformed config': '{"catalog": ',
    'empty config': '',
    'invalid UTF-8 in config': Buffer.concat([Buffer.from('{"loop":"'), Buffer.from([0xff]),
      Buffer.from(`","catalog":${JSON.stringify(catalogFile)}}`)]),
  };
  for (const [name, text] of Object.entries(errors)) {
    const file = path.join(tmp, `session-error-${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, text);
    add(`error: ${name}`, ['run', '--config', file, '--calls', calls, '--journal-out', JOURNAL_OUT],
      { expectStatus: 1 });
  }
  const missing = path.join(tmp, 'session-no-such-file.jsonl');
  add('error: unreadable journal and calls', ['replay', '--config', config, '--calls', missing, '--journal', missing],
    { expectStatus: 1 });
  add('error: unwritable --journal-out', ['run', '--config', config, '--calls', calls, '--journal-out', tmp],
    { expectStatus: 1 });
  add('error: bad --format', ['menu', '--config', config, '--format', 'xml'], { expectStatus: 1 });
  for (const args of [[], ['run'], ['walk', '--config', config], ['walk', '--bogus'], ['run', '--config'],
    ['replay', '--config', config, '--calls', calls], ['run', '--config', config, '--calls', calls, '--divergence', 'x'],
    ['menu', '--config', config, 'stray']]) {
    add(`usage: ${JSON.stringify(args)}`, args, { expectStatus: 2 });
  }
}

// ---- skills (SPEC S8) -------------------------------------------------------------

function addSkillCases() {
  const F = 'tests/fixtures/skills';
  const config = `${F}/config.json`;
  const calls = `${F}/calls.jsonl`;
  if (!existsSync(path.join(ROOT, config)) || !existsSync(path.join(ROOT, calls))) {
    fail(`${F}/config.json or calls.jsonl is missing`);
  }
  const journalPath = path.join(tmp, 'skills-native.jsonl');
  const made = run(NATIVE, ['session', 'run', '--config', config, '--calls', calls, '--journal-out', journalPath], {});
  if (made.status !== 0 || !existsSync(journalPath)) {
    fail(`native skills session run failed: ${made.stderr.toString().trim()}`);
  }
  const decisions = readFileSync(journalPath, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  // The catalog changed since the run: one skill's text edited, one skill gone.
  const catalog = JSON.parse(readFileSync(path.join(ROOT, F, 'catalog.json'), 'utf8'));
  catalog.skills.find((k) => k.id === 'release-notes').instructions += ' Then tag the release.';
  catalog.skills = catalog.skills.filter((k) => k.id !== 'refund-policy');
  const changedDir = path.join(tmp, 'skills-changed');
  mkdirSync(changedDir, { recursive: true });
  writeFileSync(path.join(changedDir, 'catalog.json'), JSON.stringify(catalog));
  const changedConfig = path.join(changedDir, 'config.json');
  writeFileSync(changedConfig, readFileSync(path.join(ROOT, config)));
  // Forged: an unknown skill accepted, a refusal turned into an acceptance.
  const t = structuredClone(decisions);
  t[0].value.skill = 'forged-skill';
  const refusal = t.find((d) => d.value.verdict === 'tainted');
  delete refusal.value.verdict;
  refusal.value.digest = decisions[0].value.digest;
  const forged = path.join(tmp, 'skills-forged.jsonl');
  writeFileSync(forged, t.map((d) => JSON.stringify(d)).join('\n') + '\n');
  // Over a snapshot: the config keeps only the catalog's skills.
  const snapDir = path.join(tmp, 'skills-snapshot');
  mkdirSync(snapDir, { recursive: true });
  const tools = { tools: JSON.parse(readFileSync(path.join(ROOT, F, 'catalog.json'), 'utf8')).tools };
  writeFileSync(path.join(snapDir, 'tools.json'), JSON.stringify(tools));
  const snap = path.join(snapDir, 'tools.tsi');
  const built = run(NATIVE, ['build', '--catalog', path.join(snapDir, 'tools.json'), '-o', snap], {});
  if (built.status !== 0) fail(`native build failed: ${built.stderr.toString().trim()}`);
  const cfg = JSON.parse(readFileSync(path.join(ROOT, config), 'utf8'));
  cfg.catalog = { skills: JSON.parse(readFileSync(path.join(ROOT, F, 'catalog.json'), 'utf8')).skills };
  const snapConfig = path.join(snapDir, 'config.json');
  writeFileSync(snapConfig, JSON.stringify(cfg));
  // The same with the skills in a catalog file the configuration names.
  writeFileSync(path.join(snapDir, 'skills.json'), JSON.stringify(cfg.catalog));
  const snapFileConfig = path.join(snapDir, 'config-file.json');
  writeFileSync(snapFileConfig, JSON.stringify({ ...cfg, catalog: 'skills.json' }));
  // ... and a catalog file with tools, which a snapshot does not allow.
  const snapToolsConfig = path.join(snapDir, 'config-tools.json');
  writeFileSync(snapToolsConfig, JSON.stringify({ ...cfg, catalog: 'tools.json' }));

  const add = (name, args, opts = {}) =>
    cases.push({ name: `skills ${name}`, args: ['session', ...args], compareStderr: true, ...opts });
  const ok = { expectStatus: 0 };
  add('run --journal-out', ['run', '--config', config, '--calls', calls, '--journal-out', JOURNAL_OUT], ok);
  add('replay', ['replay', '--config', config, '--calls', calls, '--journal', journalPath, '--journal-out',
    JOURNAL_OUT], ok);
  // A dropped activation frees a maxActive slot, so a later call that was a
  // refusal is now a live activation the journal lacks: divergence, warned.
  add('replay (catalog changed, warn)', ['replay', '--config', changedConfig, '--calls', calls, '--journal',
    journalPath, '--divergence', 'warn', '--journal-out', JOURNAL_OUT], ok);
  add('replay (catalog changed, fail)', ['replay', '--config', changedConfig, '--calls', calls, '--journal',
    journalPath], { expectStatus: 1 });
  add('replay (forged records, warn)', ['replay', '--config', config, '--calls', calls, '--journal', forged,
    '--divergence', 'warn', '--journal-out', JOURNAL_OUT], ok);
  add('menu --journal', ['menu', '--config', config, '--journal', journalPath, '--format', 'openai'], ok);
  add('prompt', ['prompt', '--config', config], ok);
  add('run over a snapshot (--index)', ['run', '--config', snapConfig, '--index', snap, '--calls', calls], ok);
  add('prompt over a snapshot', ['prompt', '--config', snapConfig, '--index', snap], ok);
  add('run over a snapshot, skills in a catalog file', ['run', '--config', snapFileConfig, '--index', snap, '--calls',
    calls], ok);
  add('menu over a snapshot, tools in a catalog file', ['menu', '--config', snapToolsConfig, '--index', snap],
    { expectStatus: 1 });
}

// ---- snapshots ------------------------------------------------------------------

function addSnapshotCases() {
  const OPTIONS = '{"stopwords":["please","the"],"weights":{"params":2}}';
  // Snapshots the native CLI wrote: both CLIs load them.
  const nativeTsi = path.join(tmp, 'native.tsi');
  const nativeOptsTsi = path.join(tmp, 'native-options.tsi');
  for (const [file, extra] of [[nativeTsi, []], [nativeOptsTsi, ['--options', OPTIONS]]]) {
    const made = run(NATIVE, ['build', '--catalog', CATALOG, ...extra, '-o', file], {});
    if (made.status !== 0 || !existsSync(file)) fail(`native build failed: ${made.stderr.toString().trim()}`);
  }
  const blob = readFileSync(nativeTsi);
  const broken = (name, bytes) => {
    const file = path.join(tmp, `snapshot-${name}.tsi`);
    writeFileSync(file, bytes);
    return file;
  };
  const flipped = Buffer.from(blob);
  flipped[blob.length >> 1] ^= 0x5a;
  const magic = Buffer.from(blob);
  magic[0] = 0x58;
  const version = Buffer.from(blob);
  version[8] = 8; // a future format
  const old = Buffer.from(blob);
  old[8] = 6; // the format before it (no stored postings)
  const corrupt = {
    'flipped byte': broken('flipped', flipped),
    'truncated (100 bytes)': broken('truncated', blob.subarray(0, 100)),
    'truncated (checksum cut)': broken('truncated-end', blob.subarray(0, blob.length - 1)),
    'wrong magic': broken('magic', magic),
    'format version 8': broken('version', version),
    'format version 6': broken('version-6', old),
    empty: broken('empty', Buffer.alloc(0)),
    'a JSON catalog': CATALOG,
    'missing file': path.join(tmp, 'no-such.tsi'),
    'a folder': tmp,
  };

  const add = (name, args, opts) => cases.push({ name, args, compareStderr: true, ...opts });
  const ok = { expectStatus: 0 };
  // build: the written .tsi files are compared byte for byte
  add('build -o', ['build', '--catalog', CATALOG, '-o', JOURNAL_OUT], ok);
  add('build --options --output', ['build', '--options', OPTIONS, '--catalog', CATALOG, '--output', JOURNAL_OUT], ok);
  add('build --options lenient', ['build', '--catalog', CATALOG, '--options', '{"ids":"lenient"}', '-o', JOURNAL_OUT], ok);
  const tiny = path.join(tmp, 'tiny-catalog.json');
  writeFileSync(tiny, '{"tools":[{"id":"x:1","name":"only","description":"Straße 翻译 🚀","inputSchema":' +
    '{"type":"object","properties":{"n":{"type":"number","minimum":0.25}}}}],"annotations":{"x:1":{"tags":["t"]}}}');
  add('build (tiny catalog, odd text and numbers)', ['build', '--catalog', tiny, '-o', JOURNAL_OUT], ok);
  add('build: catalog error', ['build', '--catalog', path.join(tmp, 'dup.json'), '-o', JOURNAL_OUT], { expectStatus: 1 });
  add('build: bad options', ['build', '--catalog', CATALOG, '--options', '{"weights":{"name":-1}}', '-o', JOURNAL_OUT],
    { expectStatus: 1 });
  add('build: missing catalog file', ['build', '--catalog', path.join(tmp, 'no-such.json'), '-o', JOURNAL_OUT],
    { expectStatus: 1 });
  add('build: unwritable output', ['build', '--catalog', CATALOG, '-o', tmp], { expectStatus: 1 });
  add('build: missing -o', ['build', '--catalog', CATALOG], { expectStatus: 2 });
  add('build: missing --catalog', ['build', '-o', JOURNAL_OUT], { expectStatus: 2 });
  add('build: --index is no catalog', ['build', '--index', nativeTsi, '-o', JOURNAL_OUT], { expectStatus: 2 });
  add('build: -o without a value', ['build', '--catalog', CATALOG, '-o'], { expectStatus: 2 });

  // --index: the same answers as from the catalog
  const q = (text) => text.split(' ').filter(Boolean);
  for (const text of ['create a github issue', 'list database tables', '翻译文本', 'the of and a an', 'zzqx',
    'refund a payment', 'HTTPServer createPullRequest', 'kubernetes pods logs']) {
    add(`search --index --explain ${JSON.stringify(text)}`,
      ['search', '--index', nativeTsi, '--explain', '--limit', '7', ...q(text)], ok);
  }
  add('search --index (no options)', ['search', '--index', nativeTsi, 'send', 'a', 'message'], ok);
  add('search --index (options snapshot)', ['search', '--index', nativeOptsTsi, '--explain', 'the', 'list', 'of',
    'open', 'issues', 'please'], ok);
  add('rank --index --k 10', ['rank', '--index', nativeTsi, '--queries', path.join(tmp, 'catalog.jsonl'), '--k', '10'], ok);
  add('rank --index --strict-ids (ignored)', ['rank', '--index', nativeOptsTsi, '--queries',
    path.join(tmp, 'catalog.jsonl'), '--k', '3', '--strict-ids'], ok);
  add('info --index', ['info', '--index', nativeTsi], ok);
  add('info --index (options snapshot)', ['info', '--index', nativeOptsTsi], ok);
  add('docs --index', ['docs', '--index', nativeTsi], ok);
  add('verify --index', ['verify', '--index', nativeTsi], ok);
  add('verify --index (options snapshot)', ['verify', '--index', nativeOptsTsi], ok);
  add('verify --catalog (a built index verifies trivially)', ['verify', '--catalog', CATALOG], ok);
  add('verify --index: flipped byte', ['verify', '--index', corrupt['flipped byte']], { expectStatus: 1 });
  add('info --index beats --catalog and --options', ['info', '--catalog', path.join(tmp, 'no-such.json'), '--index',
    nativeTsi, '--options', '{"stopwords":[]}'], ok);

  // bad snapshots: a typed error, exit 1
  for (const [name, file] of Object.entries(corrupt)) {
    add(`search --index: ${name}`, ['search', '--index', file, 'issue'], { expectStatus: 1 });
  }
  add('rank --index: corrupt', ['rank', '--index', corrupt['flipped byte'], '--queries', path.join(tmp, 'catalog.jsonl'),
    '--k', '3'], { expectStatus: 1 });
  add('rank --index: no --queries', ['rank', '--index', nativeTsi, '--k', '3'], { expectStatus: 2 });
  add('search --index without a value', ['search', '--index'], { expectStatus: 2 });
  add('info without --catalog or --index', ['info'], { expectStatus: 2 });
  add('search --limit 0 --index', ['search', '--index', nativeTsi, '--limit', '0', 'x'], { expectStatus: 2 });
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
// issue 21: an invisible character in a lenient id is refused, with its code point and byte
const invisibleCatalog = path.join(tmp, 'invisible-id.json');
writeFileSync(invisibleCatalog, '[{"id":"weather__forecast","name":"f"},{"id":"weather\\u200d__forecast","name":"g"}]');
cases.push({ name: 'rank: an invisible character in a lenient id', mustSucceed: false, compareStderr: true,
  args: ['rank', '--catalog', invisibleCatalog, '--queries', badJsonl, '--k', '3'] });

// ---- static-embedding model (issue 25) ------------------------------------------

// The project's generated test model (scripts/gen-static-model.mjs), F32 and
// F16: `embed` over generated queries and the odd strings, whose vectors are
// printed with %.9g (a float's exact bits), and the loader's error paths.
function addStaticModelCases() {
  const gen = (dir, extra) => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/gen-static-model.mjs'), '--out', dir,
      '--catalog', CATALOG, ...extra], { encoding: 'utf8' });
    if (r.status !== 0) fail(`gen-static-model: ${r.stderr}`);
  };
  const f32 = path.join(tmp, 'static-f32');
  const f16 = path.join(tmp, 'static-f16');
  gen(f32, []);
  gen(f16, ['--dtype', 'f16', '--dim', '48', '--words', '800']);
  const texts = [...queries.slice(0, 40), ...ODD.filter((s) => s.trim() && !s.includes('\u0000'))];
  texts.forEach((q, i) => cases.push({ name: `embed ${JSON.stringify(q.slice(0, 30))}`, mustSucceed: true,
    args: ['embed', '--model', i % 3 === 2 ? f16 : f32, q] }));
  cases.push({ name: 'embed: no known token (the zero vector)', args: ['embed', '--model', f32, '☃', '☂'], mustSucceed: true });
  cases.push({ name: 'embed --safetensors --tokenizer', mustSucceed: true, args: ['embed', '--safetensors',
    path.join(f16, 'model.safetensors'), '--tokenizer', path.join(f16, 'tokenizer.json'), 'refund', 'a', 'payment'] });
  const bad = path.join(tmp, 'static-bad');
  mkdirSync(bad, { recursive: true });
  const st = readFileSync(path.join(f32, 'model.safetensors'));
  writeFileSync(path.join(bad, 'model.safetensors'), st.subarray(0, st.length - 4));
  writeFileSync(path.join(bad, 'tokenizer.json'), readFileSync(path.join(f32, 'tokenizer.json')));
  writeFileSync(path.join(bad, 'bpe.json'), '{"model":{"type":"BPE","vocab":{}}}');
  const err = (name, args, status = 1) => cases.push({ name, args, expectStatus: status, compareStderr: true });
  err('embed: a truncated safetensors file', ['embed', '--model', bad, 'hello']);
  err('embed: a BPE tokenizer', ['embed', '--safetensors', path.join(f32, 'model.safetensors'), '--tokenizer',
    path.join(bad, 'bpe.json'), 'hello']);
  err('embed: a tokenizer whose ids pass the matrix', ['embed', '--safetensors', path.join(f16, 'model.safetensors'),
    '--tokenizer', path.join(f32, 'tokenizer.json'), 'hello']);
  err('embed: a missing model folder', ['embed', '--model', path.join(tmp, 'no-such-model'), 'hello']);
  err('embed: no model', ['embed', 'hello'], 2);
  // search and build with the model: the tools' vectors and the query's, fused (docs/semantic.md)
  queries.slice(0, 12).forEach((q, i) => cases.push({ name: `search --model ${JSON.stringify(q.slice(0, 30))}`, mustSucceed: true,
    compareStderr: true, args: ['search', '--catalog', CATALOG, '--model', i % 2 ? f16 : f32, ...(i % 3 ? [] : ['--explain']), q] }));
  cases.push({ name: 'search --model: no known token (lexical)', mustSucceed: true, args: ['search', '--catalog', CATALOG, '--model', f32, '☃ ☂'] });
  // the written .tsi files (with the model's vectors) are compared byte for byte
  cases.push({ name: 'build --model', expectStatus: 0, compareStderr: true, args: ['build', '--catalog', CATALOG, '--model', f32, '-o', JOURNAL_OUT] });
  err('search --model --vector: one or the other', ['search', '--catalog', CATALOG, '--model', f32, '--vector', path.join(f32, 'tokenizer.json'), 'x'], 2);
  err('search --model: a truncated model', ['search', '--catalog', CATALOG, '--model', bad, 'refund']);
  err('embed: an unknown option', ['embed', '--model', f32, '--nope', 'hello'], 2);
  // an evaluation with the model (the tools and every query embedded): JSON and text report
  cases.push({ name: 'eval --model --json', args: ['eval', '--corpus', 'corpus', '--model', f32, '--json'] });
  cases.push({ name: 'eval --model (text)', args: ['eval', '--corpus', 'corpus', '--model', f16, '--fusion', '{"weight":4}'] });
  err('eval --model: a truncated model', ['eval', '--corpus', 'corpus', '--model', bad]);
  err('eval --model --vectors: one or the other', ['eval', '--corpus', 'corpus', '--model', f32, '--vectors', 'x'], 2);
  // a session embedding its tools and every query with the model: outputs and journal byte for byte
  const F = 'tests/fixtures/session';
  cases.push({ name: 'session run --model', expectStatus: 0, compareStderr: true,
    args: ['session', 'run', '--config', `${F}/config.json`, '--calls', `${F}/calls.jsonl`, '--model', f32, '--journal-out', JOURNAL_OUT] });
  err('session run --model: a truncated model', ['session', 'run', '--config', `${F}/config.json`, '--calls', `${F}/calls.jsonl`, '--model', bad]);
  err('session run --model: a missing model folder', ['session', 'run', '--config', `${F}/config.json`, '--calls', `${F}/calls.jsonl`, '--model', path.join(tmp, 'no-such-model')]);
  // issue 34: model files bounded before they are read (typed io/limit errors
  // naming the file, from stat), and the layout the reference library requires
  const tok = path.join(f32, 'tokenizer.json');
  const folder = (name, stBytes, size) => {
    const d = path.join(tmp, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'tokenizer.json'), readFileSync(tok));
    if (stBytes) writeFileSync(path.join(d, 'model.safetensors'), stBytes);
    if (size) truncateSync(path.join(d, 'model.safetensors'), size); // sparse: a hole, no memory
    return d;
  };
  const withHeader = (extra) => { // the f32 file with more header entries, same data
    const hlen = Number(st.readBigUInt64LE(0));
    const header = { ...JSON.parse(st.subarray(8, 8 + hlen).toString('utf8')), ...extra };
    const h = Buffer.from(JSON.stringify(header));
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(h.length));
    return Buffer.concat([len, h, st.subarray(8 + hlen)]);
  };
  const sparseDir = folder('static-sparse', st, 1.2e9);
  err('embed: --safetensors /dev/zero (not a regular file)', ['embed', '--safetensors', '/dev/zero', '--tokenizer', tok, 'hello']);
  err('embed: a 1.2 GB sparse safetensors file (over the bound, by its size)', ['embed', '--model', sparseDir, 'hello']);
  err('search --model: a 1.2 GB sparse safetensors file', ['search', '--catalog', CATALOG, '--model', sparseDir, 'refund']);
  err('session run --model: a 1.2 GB sparse safetensors file', ['session', 'run', '--config', `${F}/config.json`, '--calls', `${F}/calls.jsonl`, '--model', sparseDir]);
  const dirDir = folder('static-dir');
  mkdirSync(path.join(dirDir, 'model.safetensors'));
  err('embed: model.safetensors is a directory', ['embed', '--model', dirDir, 'hello']);
  const tokOver = folder('static-tok-over', st);
  truncateSync(path.join(tokOver, 'tokenizer.json'), 256 * 2 ** 20 + 1);
  err('embed: a sparse tokenizer.json over its bound', ['embed', '--model', tokOver, 'hello']);
  err('embed: trailing bytes after the last tensor', ['embed', '--model', folder('static-trailing', Buffer.concat([st, Buffer.alloc(16)])), 'hello']);
  err('embed: overlapping tensors', ['embed', '--model', folder('static-overlap', withHeader({ x: { dtype: 'U8', shape: [8], data_offsets: [0, 8] } })), 'hello']);
}

// ---- the real model (issue 35, part 2) ----------------------------------------------

// The GloVe model `npm run model` builds (scripts/model-glove.mjs) into
// build/models/glove, or env TOOLSIFT_GLOVE_DIR: `--model glove` in both CLIs
// (js/model-dir.js, cli/model_load.c) over embed, search, build, eval on a
// small labelled set (every 7th corpus query, no-match ones included) and a
// session run; and the sentence-transformers folder layout. Never built
// here (that fetches an npm package): skipped, saying so, when absent.
function addGloveCases() {
  const dir = process.env.TOOLSIFT_GLOVE_DIR ? path.resolve(process.env.TOOLSIFT_GLOVE_DIR) : path.join(ROOT, 'build/models/glove');
  if (!['model.safetensors', 'tokenizer.json'].every((f) => existsSync(path.join(dir, f)))) {
    console.log(`SKIP: parity: the real-model cases (--model glove): ${path.relative(ROOT, dir) || dir} is not built (npm run model)`);
    return;
  }
  // both CLIs look in the same folder, wherever the native binary is
  const env = { TOOLSIFT_GLOVE_DIR: dir };
  const add = (name, args, extra = {}) => cases.push({ name: `glove: ${name}`, args, env, mustSucceed: true, ...extra });
  const texts = [...queries.slice(0, 24), ...ODD.filter((q) => q.trim() && !q.includes('\u0000')).slice(0, 12),
    'createIssue list_files getWeatherForecast', 'give the customer their money back'];
  texts.forEach((q) => add(`embed ${JSON.stringify(q.slice(0, 30))}`, ['embed', '--model', 'glove', q]));
  queries.slice(24, 40).forEach((q, i) => add(`search ${JSON.stringify(q.slice(0, 30))}`,
    ['search', '--catalog', CATALOG, '--model', 'glove', ...(i % 4 ? [] : ['--explain']), q], { compareStderr: true }));
  add('search: words the model alone knows', ['search', '--catalog', CATALOG, '--model', 'glove', 'give the customer their money back']);
  add('build (the snapshot with its vectors)', ['build', '--catalog', CATALOG, '--model', 'glove', '-o', JOURNAL_OUT], { compareStderr: true });
  const small = path.join(tmp, 'glove-queries.jsonl');
  writeFileSync(small, readFileSync(path.join(ROOT, 'corpus/queries.jsonl'), 'utf8').split('\n').filter((l, i) => l.trim() && i % 7 === 0).join('\n') + '\n');
  add('eval --loop --json (a small labelled set)', ['eval', '--catalog', CATALOG, '--queries', small, '--model', 'glove', '--loop', '--json']);
  add('eval (text, a lowered fusion floor)', ['eval', '--catalog', CATALOG, '--queries', small, '--model', 'glove', '--fusion', '{"margin":-0.5}']);
  add('calibrate (labelled queries, text)', ['calibrate', '--model', 'glove', '--catalog', CATALOG, '--queries', small]);
  add('calibrate (the catalog alone, --json)', ['calibrate', '--model', 'glove', '--catalog', CATALOG, '--json']);
  const F = 'tests/fixtures/session';
  add('session run', ['session', 'run', '--config', `${F}/config.json`, '--calls', `${F}/calls.jsonl`, '--model', 'glove', '--journal-out', JOURNAL_OUT],
    { compareStderr: true });
  // the same files in sentence-transformers' layout: modules.json, 0_StaticEmbedding/
  const st = path.join(tmp, 'glove-st');
  mkdirSync(path.join(st, '0_StaticEmbedding'), { recursive: true });
  writeFileSync(path.join(st, 'modules.json'), '[{"idx":0,"name":"0","path":"0_StaticEmbedding","type":"sentence_transformers.models.StaticEmbedding"}]');
  for (const f of ['model.safetensors', 'tokenizer.json']) writeFileSync(path.join(st, '0_StaticEmbedding', f), readFileSync(path.join(dir, f)));
  add('embed (a sentence-transformers folder)', ['embed', '--model', st, 'refund', 'a', 'payment']);
  add('search (a sentence-transformers folder)', ['search', '--catalog', CATALOG, '--model', st, '--limit', '5', 'refund a payment']);
  cases.push({ name: 'glove: not built', args: ['embed', '--model', 'glove', 'x'], env: { TOOLSIFT_GLOVE_DIR: path.join(tmp, 'no-glove') },
    expectStatus: 1, compareStderr: true });
  cases.push({ name: 'model (no subcommand): usage', args: ['model'], expectStatus: 2, compareStderr: true });
  cases.push({ name: 'calibrate: no --catalog', args: ['calibrate', '--model', 'glove'], expectStatus: 2, compareStderr: true });
  cases.push({ name: 'calibrate: unknown option', args: ['calibrate', '--model', 'glove', '--catalog', CATALOG, '--x', '1'], expectStatus: 2, compareStderr: true });
  const badConfig = path.join(tmp, 'glove-bad-config');
  mkdirSync(badConfig, { recursive: true });
  for (const f of ['model.safetensors', 'tokenizer.json']) writeFileSync(path.join(badConfig, f), readFileSync(path.join(dir, f)));
  writeFileSync(path.join(badConfig, 'config.json'), '{"toolsift":{"fusion":{"margin":"low"}}}');
  cases.push({ name: 'glove: a malformed config.json', args: ['embed', '--model', badConfig, 'x'], expectStatus: 1, compareStderr: true });
}

// ---- learning (issue 32) ---------------------------------------------------------

// Journals of the fixture's runs, written here by the native `session run
// --client` (tests/fixtures/learn/README.md); learning over them, over
// labelled examples, with each rule flag and the journal key; -o and its
// mode; --diff; the errors. Then --annotations on the index commands and
// eval, eval --learn, and sessions with --client and --annotations.
function addLearnCases() {
  const F = 'tests/fixtures/learn';
  const catalog = `${F}/catalog.json`;
  const config = `${F}/config.json`;
  const examples = `${F}/examples.jsonl`;
  const queries = `${F}/queries.jsonl`;
  for (const f of [catalog, config, examples, queries]) if (!existsSync(path.join(ROOT, f))) fail(`${f} is missing`);
  const L = path.join(tmp, 'learn');
  mkdirSync(L, { recursive: true });
  const native = (args, what, env = {}) => {
    const r = run(NATIVE, args, env);
    if (r.status !== 0) fail(`native ${what} failed: ${r.stderr.toString().trim()}`);
    return r;
  };
  const keyFile = path.join(L, 'key.hex');
  writeFileSync(keyFile, '5c'.repeat(32) + '\n');
  const otherKey = path.join(L, 'other-key.hex');
  writeFileSync(otherKey, 'a1'.repeat(16));
  // Runs: [file name, client, calls file], the names in an order where
  // bytewise (strcmp) and locale order differ.
  const runs = [
    ['B-alice-rain.jsonl', 'alice', 'rain'],
    ['a-alice-both.jsonl', 'alice', 'both'],
    ['_bob-rain.jsonl', 'bob', 'rain'],
    ['bob-ping.jsonl', 'bob', 'ping'],
    ['Carol-both.jsonl', 'carol', 'both'],
    ['carol-against.jsonl', 'carol', 'against'],
    ['dave-ping.jsonl', 'dave', 'ping'],
    ['\u00e9ve-rain.jsonl', '\u00e8ve \u2014 caf\u00e9', 'rain'],
  ];
  const dir = path.join(L, 'journals');
  mkdirSync(path.join(dir, 'nested'), { recursive: true });
  for (const [name, client, calls] of runs) {
    native(['session', 'run', '--config', config, '--calls', `${F}/calls-${calls}.jsonl`, '--client', client,
      '--journal-out', path.join(dir, name)], `session run (${name})`);
  }
  // Neither read: not *.jsonl, or not in the folder itself.
  writeFileSync(path.join(dir, 'notes.txt'), 'not a journal\n');
  writeFileSync(path.join(dir, 'nested', 'deeper.jsonl'), 'not json\n');
  writeFileSync(path.join(dir, 'journal.jsonl.bak'), 'not json\n');
  // The same runs keyed, and one run of one client repeated (one client's
  // weight is capped by maxPerClient).
  const keyed = path.join(L, 'keyed');
  mkdirSync(keyed, { recursive: true });
  for (const [name, client, calls] of runs.slice(0, 5)) {
    native(['session', 'run', '--config', config, '--calls', `${F}/calls-${calls}.jsonl`, '--client', client,
      '--journal-key-file', keyFile, '--journal-out', path.join(keyed, name)], `keyed session run (${name})`);
  }
  const oneClient = path.join(L, 'one-client');
  mkdirSync(oneClient, { recursive: true });
  for (let i = 0; i < 6; i++) {
    native(['session', 'run', '--config', config, '--calls', `${F}/calls-rain.jsonl`, '--client', 'mallory',
      '--journal-out', path.join(oneClient, `run-${i}.jsonl`)], 'session run (one client)');
  }
  // Broken journals, each a copy of a good one.
  const good = readFileSync(path.join(dir, 'B-alice-rain.jsonl'), 'utf8');
  const lines = good.trimEnd().split('\n');
  const broken = (name, text) => {
    const file = path.join(L, name);
    writeFileSync(file, text);
    return file;
  };
  const malformed = broken('malformed.jsonl', `${lines[0]}\n${lines[1]}\n{"id":"x","source":\n`);
  const unknownSource = broken('unknown-source.jsonl',
    `${lines[0]}\n{"id":"learn-fixture#turn:0:tool:0:note","source":"agent-note","value":{}}\n`);
  const notRecord = broken('not-a-record.jsonl', `${lines[0]}\n[1,2,3]\n`);
  const badCall = broken('bad-call.jsonl',
    `${lines[0]}\n{"id":"learn-fixture#turn:x:call","source":"agent-tool-call","value":{"tool":"mail__send_email"}}\n`);
  if (!lines[1].includes('will it rain tomorrow')) fail('the fixture journal\'s first search is not the rain request');
  const tampered = broken('tampered.jsonl',
    [lines[0], lines[1].replace('will it rain tomorrow', 'will it snow tomorrow'), ...lines.slice(2)].join('\n') + '\n');
  const unchained = broken('unchained.jsonl', lines.slice(1).join('\n') + '\n');
  const empty = broken('empty.jsonl', '');
  const crlf = broken('crlf.jsonl', lines.join('\r\n') + '\r\n\r\n');
  // A folder whose journals fail: the first in strcmp order is the one
  // reported ('Z' < 'a' < 'é' bytewise).
  const order = path.join(L, 'order');
  mkdirSync(order, { recursive: true });
  writeFileSync(path.join(order, 'a-bad.jsonl'), readFileSync(unknownSource));
  writeFileSync(path.join(order, 'Z-bad.jsonl'), readFileSync(malformed));
  writeFileSync(path.join(order, '\u00e9-bad.jsonl'), 'not json\n');
  // A folder with a folder named like a journal: read as a file, which fails.
  const withDir = path.join(L, 'with-dir');
  mkdirSync(path.join(withDir, 'b.jsonl'), { recursive: true });
  writeFileSync(path.join(withDir, 'a.jsonl'), good);
  const emptyDir = path.join(L, 'empty-dir');
  mkdirSync(emptyDir, { recursive: true });
  // Examples: a bad line names its file and line.
  const exUnknown = broken('examples-unknown.jsonl',
    '{"query":"rain tomorrow","relevance":{"weather__get_forecast":3}}\n\n' +
    '{"query":"ping the team","relevance":{"chat__post_message":3,"chat__nope":1}}\n');
  const exMalformed = broken('examples-malformed.jsonl', '{"query":"rain tomorrow","relevance":{"weather__get_forecast":3}\n');
  const exShape = broken('examples-shape.jsonl', '{"query":"rain","relevant":{"weather__get_forecast":"high"}}\n');
  const exNoQuery = broken('examples-no-query.jsonl', '{"relevance":{"weather__get_forecast":1}}\n');
  // Two vocabularies for --diff, and the host's own.
  const learnedA = path.join(L, 'learned-a.json');
  const learnedB = path.join(L, 'learned-b.json');
  native(['learn', '--catalog', catalog, '--journals', dir, '-o', learnedA], 'learn');
  native(['learn', '--catalog', catalog, '--journals', dir, '--examples', examples, '--min-sessions', '2',
    '-o', learnedB], 'learn');
  const hostOwn = broken('host-vocabulary.json', JSON.stringify({
    annotations: {
      weather__get_forecast: { aliases: ['rain tomorrow'], tags: ['umbrella'] },
      maps__get_directions: { tags: ['route'] },
      nope__tool: { tags: ['ghost'] },
    },
  }));
  const badVocabulary = broken('bad-vocabulary.json', '{"annotations":{"weather__get_forecast":{"tags":["rain"]}},');
  const wrongVocabulary = broken('wrong-vocabulary.json', '{"annotations":{"weather__get_forecast":{"tags":"rain"}}}');
  const nulVocabulary = broken('nul-vocabulary.json',
    Buffer.concat([readFileSync(learnedA), Buffer.from([0]), Buffer.from(' trailing')]));

  const add = (name, args, opts) => cases.push({ name, args, compareStderr: true, ...opts });
  const ok = { expectStatus: 0 };
  const err1 = { expectStatus: 1 };
  const usage = { expectStatus: 2 };
  const L0 = ['learn', '--catalog', catalog];

  // learning over journals and examples
  add('learn --journals DIR', [...L0, '--journals', dir], ok);
  add('learn --journals FILE --journals FILE', [...L0, '--journals', path.join(dir, 'bob-ping.jsonl'),
    '--journals', path.join(dir, 'B-alice-rain.jsonl')], ok);
  add('learn --journals DIR --journals FILE (a journal twice)', [...L0, '--journals', dir, '--journals',
    path.join(dir, 'dave-ping.jsonl')], ok);
  add('learn --examples', [...L0, '--examples', examples], ok);
  add('learn --examples --journals DIR --examples', [...L0, '--examples', examples, '--journals', dir,
    '--examples', examples], ok);
  add('learn --journals (an empty folder)', [...L0, '--journals', emptyDir], ok);
  add('learn --journals (an empty journal)', [...L0, '--journals', empty], ok);
  add('learn --journals (CRLF lines, blank lines)', [...L0, '--journals', crlf], ok);
  add('learn: one client repeating a request teaches nothing', [...L0, '--journals', oneClient], ok);
  // each rule flag, and --options
  add('learn --min-sessions 2', [...L0, '--journals', dir, '--min-sessions', '2'], ok);
  add('learn --min-clients 1', [...L0, '--journals', oneClient, '--min-clients', '1'], ok);
  add('learn --max-per-client 1', [...L0, '--journals', dir, '--max-per-client', '1'], ok);
  add('learn --min-share 0.9', [...L0, '--journals', dir, '--examples', examples, '--min-share', '0.9'], ok);
  add('learn --unverified accept (verified journals)', [...L0, '--journals', dir, '--unverified', 'accept'], ok);
  add('learn with every flag and --options', [...L0, '--journals', dir, '--options', ' { "index" : {"stopwords":[]} } ',
    '--min-sessions', '1', '--min-clients', '1', '--max-per-client', '2', '--min-share', '0.25', '--unverified', 'skip'], ok);
  add('learn --options {} (empty object)', [...L0, '--journals', dir, '--options', '{}', '--min-sessions', '2'], ok);
  add('learn --options with minSessions', [...L0, '--journals', dir, '--options', '{"minSessions":2,"minClients":1}'], ok);
  add('learn: --options and a flag give one key twice', [...L0, '--journals', dir, '--options', '{"minSessions":2}',
    '--min-sessions', '4'], err1);
  add('learn --options: not an object', [...L0, '--journals', dir, '--options', '[1]', '--min-sessions', '2'], err1);
  add('learn --options: malformed', [...L0, '--journals', dir, '--options', '{"minShare":', '--min-clients', '1'], err1);
  add('learn --options: index annotations refused', [...L0, '--journals', dir, '--options',
    '{"index":{"annotations":{}}}'], err1);
  // an empty --options reads as {}: the flags are added to it (--min-sessions 0 is refused)
  add('learn --options "" (empty text: {} with the flags)', [...L0, '--journals', dir,
    '--options', '', '--min-sessions', '0', '--journal-key-file', keyFile], err1);
  add('learn --options " " and a flag', [...L0, '--journals', dir, '--options', ' ', '--min-sessions', '2'], ok);
  add('learn --options: an unknown key', [...L0, '--journals', dir, '--options', '{"minSession":2}'], err1);
  add('learn --min-sessions 0', [...L0, '--journals', dir, '--min-sessions', '0'], err1);
  add('learn --min-sessions x (verbatim: not JSON)', [...L0, '--journals', dir, '--min-sessions', 'x'], err1);
  add('learn --min-share 2', [...L0, '--journals', dir, '--min-share', '2'], err1);
  add('learn --unverified maybe', [...L0, '--journals', dir, '--unverified', 'maybe'], err1);
  add('learn --unverified (a long value, cut at 20 bytes)', [...L0, '--journals', dir, '--unverified',
    'skip-skip-skip-skip-skip-skip'], err1);
  add('learn --unverified with a quote', [...L0, '--journals', dir, '--unverified', 'sk"ip'], err1);
  // the journal key
  add('learn --journal-key-file (keyed journals)', [...L0, '--journals', keyed, '--journal-key-file', keyFile,
    '--min-sessions', '2'], ok);
  cases.push({ name: 'learn: env TOOLSIFT_JOURNAL_KEY (keyed journals)', args: [...L0, '--journals', keyed,
    '--min-sessions', '2'], compareStderr: true, expectStatus: 0, env: { TOOLSIFT_JOURNAL_KEY: '5c'.repeat(32) } });
  cases.push({ name: 'learn: --journal-key-file wins over the env', args: [...L0, '--journals', keyed,
    '--journal-key-file', keyFile], compareStderr: true, expectStatus: 0, env: { TOOLSIFT_JOURNAL_KEY: 'zz' } });
  // issue 34: an empty key is not "no key" (it was, and an unkeyed journal verified)
  cases.push({ name: 'learn: env TOOLSIFT_JOURNAL_KEY empty (an error, not no key)', args: [...L0, '--journals', dir],
    compareStderr: true, expectStatus: 1, env: { TOOLSIFT_JOURNAL_KEY: '' } });
  cases.push({ name: 'learn: env TOOLSIFT_JOURNAL_KEY not hex', args: [...L0, '--journals', dir],
    compareStderr: true, expectStatus: 1, env: { TOOLSIFT_JOURNAL_KEY: 'not "hex"\\' } });
  add('learn: keyed journals without the key (refused)', [...L0, '--journals', keyed], err1);
  add('learn: keyed journals without the key, --unverified skip', [...L0, '--journals', keyed, '--unverified', 'skip'], ok);
  add('learn: keyed journals with another key', [...L0, '--journals', keyed, '--journal-key-file', otherKey], err1);
  add('learn: unkeyed journals with a key (refused)', [...L0, '--journals', dir, '--journal-key-file', keyFile], err1);
  add('learn: unkeyed journals with a key, --unverified accept', [...L0, '--journals', dir, '--journal-key-file',
    keyFile, '--unverified', 'accept'], ok);
  const longKey = broken('long-key.hex', '5c'.repeat(85) + '\r\n \n');
  const quoteKey = broken('quote-key.hex', '"' + '5c'.repeat(31) + '\\\t');
  add('learn: a key file over 159 bytes (cut)', [...L0, '--journals', keyed, '--journal-key-file', longKey], err1);
  add('learn: a key file with a quote, a backslash and a tab', [...L0, '--journals', keyed, '--journal-key-file',
    quoteKey], err1);
  add('session run: a key file over 159 bytes (cut)', ['session', 'run', '--config', config, '--calls',
    `${F}/calls-rain.jsonl`, '--journal-key-file', longKey, '--client', 'kim'], err1);
  add('learn: a missing key file', [...L0, '--journals', dir, '--journal-key-file', path.join(L, 'no-such.hex')], err1);
  // -o: the files compared, each of mode 0600
  add('learn -o (mode 0600)', [...L0, '--journals', dir, '-o', JOURNAL_OUT], { ...ok, outputMode: 0o600 });
  add('learn --output over an existing 0644 file (truncated, chmod 0600)', [...L0, '--examples', examples,
    '--journals', dir, '--output', JOURNAL_OUT], { ...ok, outputMode: 0o600, outputExists: true });
  add('learn -o: an unwritable path (a folder)', [...L0, '--journals', dir, '-o', L], err1);
  add('learn -o: a missing folder', [...L0, '--journals', dir, '-o', path.join(L, 'no-such', 'learned.json')], err1);
  add('learn -o: nothing written after an error', [...L0, '--journals', malformed, '-o', JOURNAL_OUT], err1);
  // journal errors
  add('learn: a malformed journal line', [...L0, '--journals', malformed], err1);
  add('learn: an unknown record source', [...L0, '--journals', unknownSource], err1);
  add('learn: a line that is not a record', [...L0, '--journals', notRecord], err1);
  add('learn: a call record with a bad id', [...L0, '--journals', badCall], err1);
  add('learn: a tampered journal (refused)', [...L0, '--journals', dir, '--journals', tampered], err1);
  add('learn: a tampered journal, --unverified skip', [...L0, '--journals', tampered, '--journals', dir,
    '--unverified', 'skip'], ok);
  add('learn: a tampered journal, --unverified accept', [...L0, '--journals', tampered, '--journals', dir,
    '--unverified', 'accept'], ok);
  add('learn: an unchained journal (refused)', [...L0, '--journals', unchained], err1);
  add('learn: an unchained journal, --unverified skip', [...L0, '--journals', unchained, '--unverified', 'skip'], ok);
  add('learn: a folder of bad journals (the first in strcmp order)', [...L0, '--journals', order], err1);
  add('learn: a folder holding a folder named *.jsonl', [...L0, '--journals', withDir], err1);
  add('learn: a folder given with a trailing slash', [...L0, '--journals', `${order}/`], err1);
  add('learn: a folder given with a trailing slash (read)', [...L0, '--journals', `${dir}/`, '--min-sessions', '2'], ok);
  add('learn: a missing journal', [...L0, '--journals', path.join(L, 'no-such.jsonl')], err1);
  add('learn: a missing journal after a folder', [...L0, '--journals', dir, '--journals', path.join(L, 'nope')], err1);
  // examples errors
  add('learn: an examples line naming no tool', [...L0, '--examples', exUnknown], err1);
  add('learn: a malformed examples line', [...L0, '--examples', examples, '--examples', exMalformed], err1);
  add('learn: an examples grade that is no number', [...L0, '--examples', exShape], err1);
  add('learn: an examples line without a query', [...L0, '--examples', exNoQuery], err1);
  add('learn: a missing examples file', [...L0, '--examples', path.join(L, 'no-such-examples.jsonl')], err1);
  add('learn: a journal error before an examples error', [...L0, '--examples', exUnknown, '--journals', malformed], err1);
  // the catalog and usage
  add('learn: a missing catalog file', ['learn', '--catalog', path.join(L, 'no-such-catalog.json'), '--journals', dir], err1);
  add('learn: a catalog with duplicate ids', ['learn', '--catalog', path.join(tmp, 'dup.json'), '--examples', examples], err1);
  add('learn: no --catalog', ['learn', '--journals', dir], usage);
  add('learn: no inputs', [...L0], usage);
  add('learn: no arguments', ['learn'], usage);
  add('learn: an unknown option', [...L0, '--journals', dir, '--bogus', 'x'], usage);
  add('learn: a stray word', [...L0, 'stray', '--journals', dir], usage);
  add('learn: an option without a value', [...L0, '--journals'], usage);
  add('learn: --diff after other options', [...L0, '--diff', learnedA, learnedB], usage);
  add('learn --help: the usage on stdout', ['learn', '--help'], ok);
  add('learn: 257 --journals', ['learn', '--catalog', catalog, ...Array.from({ length: 257 }, () => ['--journals', empty]).flat()],
    usage);
  add('learn: 256 --examples', ['learn', '--catalog', catalog, ...Array.from({ length: 256 }, () => ['--examples', examples]).flat()],
    ok);
  // --diff
  add('learn --diff (learned, learned)', ['learn', '--diff', learnedA, learnedB], ok);
  add('learn --diff (reversed)', ['learn', '--diff', learnedB, learnedA], ok);
  add('learn --diff (the same file)', ['learn', '--diff', learnedA, learnedA], ok);
  add('learn --diff (host vocabulary, learned)', ['learn', '--diff', hostOwn, learnedB], ok);
  add('learn --diff: a malformed file', ['learn', '--diff', learnedA, badVocabulary], err1);
  add('learn --diff: a wrong shape', ['learn', '--diff', wrongVocabulary, learnedA], err1);
  add('learn --diff: missing files (the first reported)', ['learn', '--diff', path.join(L, 'no-a.json'),
    path.join(L, 'no-b.json')], err1);
  add('learn --diff: one file', ['learn', '--diff', learnedA], usage);
  add('learn --diff: three files', ['learn', '--diff', learnedA, learnedB, hostOwn], usage);

  // --annotations on the index commands: the option text the core reads is
  // the same bytes (its errors quote byte positions)
  const A = ['--annotations', learnedB];
  add('search --annotations (learned words)', ['search', '--catalog', catalog, ...A, 'will', 'it', 'rain', 'tomorrow'], ok);
  add('search --annotations --explain --limit', ['search', '--catalog', catalog, ...A, '--explain', '--limit', '3',
    'ping', 'my', 'team'], ok);
  add('search --annotations --options', ['search', '--options', ' {"stopwords":[] } ', '--catalog', catalog, ...A,
    'the', 'money', 'back'], ok);
  add('search --annotations --options {} (empty)', ['search', '--options', '{ }', '--catalog', catalog, ...A, 'jot'], ok);
  add('search --annotations --options "" (empty text: not an object, kept as it is)', ['search', '--options', '',
    '--catalog', catalog, ...A, 'rain', 'tomorrow'], ok);
  add('search --annotations: a host vocabulary naming no tool', ['search', '--catalog', catalog, '--annotations',
    hostOwn, 'route'], ok);
  add('info --annotations (the vocabulary digest)', ['info', '--catalog', catalog, ...A], ok);
  add('info --annotations (host vocabulary)', ['info', '--catalog', catalog, '--annotations', hostOwn], ok);
  add('docs --annotations', ['docs', '--catalog', catalog, ...A], ok);
  add('texts --annotations', ['texts', '--catalog', catalog, ...A], ok);
  add('verify --catalog --annotations', ['verify', '--catalog', catalog, ...A], ok);
  add('rank --annotations (lenient by default)', ['rank', '--catalog', catalog, ...A, '--queries', queries, '--k', '3'], ok);
  add('rank --annotations --strict-ids', ['rank', '--catalog', catalog, ...A, '--queries', queries, '--k', '2',
    '--strict-ids'], ok);
  add('build --annotations -o', ['build', '--catalog', catalog, ...A, '-o', JOURNAL_OUT], ok);
  const learnedTsi = path.join(L, 'learned.tsi');
  native(['build', '--catalog', catalog, ...A, '-o', learnedTsi], 'build --annotations');
  add('search --index (built with --annotations)', ['search', '--index', learnedTsi, 'rain', 'tomorrow'], ok);
  add('info --index (built with --annotations)', ['info', '--index', learnedTsi], ok);
  add('search --index --annotations (usage, exit 1)', ['search', '--index', learnedTsi, ...A, 'rain'], err1);
  add('info --index --annotations: a missing snapshot (usage first)', ['info', '--index', path.join(L, 'no.tsi'), ...A], err1);
  add('search --annotations: a missing file', ['search', '--catalog', catalog, '--annotations',
    path.join(L, 'no-such.json'), 'rain'], err1);
  add('search --annotations: missing file and catalog (the vocabulary reported)', ['search', '--catalog',
    path.join(L, 'no-cat.json'), '--annotations', path.join(L, 'no-such.json'), 'rain'], err1);
  add('search --annotations: a malformed vocabulary (byte position)', ['search', '--catalog', catalog, '--annotations',
    badVocabulary, 'rain'], err1);
  add('search --annotations --options: a malformed vocabulary', ['search', '--catalog', catalog, '--options',
    '{"ids":"strict"}', '--annotations', badVocabulary, 'rain'], err1);
  add('info --annotations: a wrong shape', ['info', '--catalog', catalog, '--annotations', wrongVocabulary], err1);
  add('info --annotations: a NUL byte in the file', ['info', '--catalog', catalog, '--annotations', nulVocabulary], err1);
  add('info --annotations --options: not an object', ['info', '--catalog', catalog, '--options', '[]', ...A], err1);
  add('info --annotations --options: annotations twice', ['info', '--catalog', catalog, '--options',
    '{"annotations":{}}', ...A], err1);
  add('build --annotations: a malformed vocabulary', ['build', '--catalog', catalog, '--annotations', badVocabulary,
    '-o', JOURNAL_OUT], err1);
  add('build --annotations: no --catalog', ['build', ...A, '-o', JOURNAL_OUT], usage);
  add('info --annotations: no --catalog', ['info', ...A], usage);
  add('--annotations without a value', ['search', '--catalog', catalog, '--annotations'], usage);

  // eval --annotations, eval --learn
  const E = ['eval', '--catalog', catalog, '--queries', queries];
  const gates = broken('learn-gates.json', '{"overall":{"ndcg10":0.1}}');
  add('eval --annotations --json', [...E, ...A, '--json'], ok);
  add('eval --annotations (report)', [...E, '--annotations', hostOwn], ok);
  add('eval --learn --json (5 folds)', [...E, '--learn', '--json'], ok);
  add('eval --learn (report)', [...E, '--learn'], ok);
  add('eval --learn --folds 3 --noise 0.2 --json', [...E, '--learn', '--folds', '3', '--noise', '0.2', '--json'], ok);
  add('eval --folds 2 (learning without --learn)', [...E, '--folds', '2', '--json'], ok);
  add('eval --noise 0.5 (learning, default folds)', [...E, '--noise', '0.5', '--json'], ok);
  add('eval --learn --loop --gates --options', [...E, '--learn', '--loop', '--gates', gates, '--options',
    '{"ids":"strict"}', '--json'], ok);
  add('eval --learn --annotations (refused)', [...E, '--learn', ...A], err1);
  add('eval --annotations and index annotations (refused)', [...E, ...A, '--options', '{"annotations":{}}'], err1);
  add('eval --learn --folds x (verbatim: not JSON)', [...E, '--learn', '--folds', 'x'], err1);
  add('eval --learn --folds 99', [...E, '--learn', '--folds', '99'], err1);
  add('eval --learn --noise 2', [...E, '--noise', '2'], err1);
  add('eval --annotations: a missing file', [...E, '--annotations', path.join(L, 'no-such.json')], err1);
  add('eval --annotations: a malformed vocabulary', [...E, '--annotations', badVocabulary, '--options', '{}'], err1);
  add('eval --annotations --gates: both missing', [...E, '--gates', path.join(L, 'no-gates.json'), '--annotations',
    path.join(L, 'no-such.json')], err1);

  // sessions with --client and --annotations: outputs and journals byte for byte
  const S = ['session', 'run', '--config', config, '--calls', `${F}/calls-both.jsonl`];
  const learnedJournal = path.join(L, 'learned-run.jsonl');
  native([...S, '--client', 'alice', ...A, '--journal-out', learnedJournal], 'session run --annotations');
  add('session run --client --annotations --journal-out', [...S, '--client', 'alice', ...A, '--journal-out', JOURNAL_OUT], ok);
  add('session run --annotations (learned words load the tools)', [...S, '--annotations', learnedA], ok);
  add('session run --client (quote and backslash escaped)', [...S, '--client', 'a"b\\c', '--journal-out', JOURNAL_OUT], ok);
  add('session run --client (UTF-8)', [...S, '--client', '\u00e8ve \u2014 caf\u00e9', '--journal-out', JOURNAL_OUT], ok);
  add('session run --client --journal-key-file --divergence', [...S, '--journal-key-file', keyFile, '--client', 'bob',
    '--divergence', 'warn', ...A, '--journal-out', JOURNAL_OUT], ok);
  cases.push({ name: 'session run --client, env TOOLSIFT_JOURNAL_KEY', args: [...S, '--client', 'carol', '--journal-out',
    JOURNAL_OUT], compareStderr: true, expectStatus: 0, env: { TOOLSIFT_JOURNAL_KEY: '5c'.repeat(32) } });
  add('session replay --annotations (the same vocabulary)', ['session', 'replay', '--config', config, '--calls',
    `${F}/calls-both.jsonl`, '--journal', learnedJournal, '--client', 'alice', ...A], ok);
  add('session replay without the vocabulary (refused)', ['session', 'replay', '--config', config, '--calls',
    `${F}/calls-both.jsonl`, '--journal', learnedJournal, '--client', 'alice'], err1);
  add('session replay under another vocabulary, warn', ['session', 'replay', '--config', config, '--calls',
    `${F}/calls-both.jsonl`, '--journal', learnedJournal, '--annotations', learnedA, '--divergence', 'warn'], ok);
  add('session menu --annotations --journal', ['session', 'menu', '--config', config, '--journal', learnedJournal, ...A,
    '--format', 'openai'], ok);
  add('session verify --annotations', ['session', 'verify', '--config', config, '--journal', learnedJournal, ...A], ok);
  add('session run --client: a tab (byte position)', [...S, '--client', 'a\tb'], err1);
  add('session run --client: empty', [...S, '--client', ''], err1);
  add('session run --client: 65 bytes', [...S, '--client', 'x'.repeat(65)], err1);
  add('session run --client: 300 bytes (cut at 196)', [...S, '--client', 'y'.repeat(300)], err1);
  add('session run --client: quotes past the cut', [...S, '--client', '"'.repeat(120)], err1);
  add('session run --client: cut inside a character', [...S, '--client', '\u00e9'.repeat(120)], err1);
  add('session run --annotations: a malformed vocabulary', [...S, '--annotations', badVocabulary], err1);
  add('session run --annotations --client --divergence: a malformed vocabulary', [...S, '--client', 'bob',
    '--divergence', 'off', '--annotations', badVocabulary], err1);
  add('session run --annotations: a NUL byte in the file', [...S, '--annotations', nulVocabulary, '--client', 'z'], err1);
  add('session run --annotations: a wrong shape', [...S, '--annotations', wrongVocabulary], err1);
  add('session run: missing calls, key and vocabulary files (each reported)', ['session', 'run', '--config', config,
    '--calls', path.join(L, 'no-calls.jsonl'), '--journal-key-file', path.join(L, 'no-key'), '--annotations',
    path.join(L, 'no-vocabulary.json')], err1);
  add('session run --client without a value', [...S, '--client'], usage);
}

addSessionCases();
addSkillCases();
addSnapshotCases();
addStaticModelCases();
addGloveCases();
addLearnCases();

// Object.prototype names are query words; --json, --corpus and --gates are
// options of every command (for eval) and change nothing elsewhere.
cases.push({ name: 'search: query words constructor toString __proto__',
  args: ['search', '--catalog', CATALOG, 'issue', 'constructor', 'toString', '__proto__', 'hasOwnProperty'],
  mustSucceed: true });
cases.push({ name: 'search --json --corpus --gates (ignored)',
  args: ['search', '--json', '--catalog', CATALOG, '--corpus', 'x', '--gates', 'y', 'create', 'issue'],
  mustSucceed: true });
// Issue 34, crowding: the corpus with 1,000 un-vouched look-alikes of one
// server named after a request (step_crowd.c: they leave the search's universe).
{
  const corpus = JSON.parse(readFileSync(CATALOG, 'utf8'));
  for (let i = 0; i < 1000; i++) {
    const id = `spam__create_github_issue_${String(i).padStart(4, '0')}`;
    corpus.tools.push({ id, name: id, origin: 'remote',
      inputSchema: { type: 'object', properties: { create: {}, issue: {}, github: {} } } });
  }
  const flood = path.join(tmp, 'flood.json');
  writeFileSync(flood, JSON.stringify(corpus));
  cases.push({ name: 'search: a flood of 1,000 un-vouched look-alikes (crowding)',
    args: ['search', '--catalog', flood, '--explain', 'create an issue on github'], mustSucceed: true });
  cases.push({ name: 'eval --loop: the corpus with the flood', args: ['eval', '--catalog', flood, '--queries',
    'corpus/queries.jsonl', '--loop'], mustSucceed: true });
}
cases.push({ name: '--help', args: ['--help'], expectStatus: 0, compareStderr: true });
cases.push({ name: 'usage: no command', args: [], expectStatus: 2, compareStderr: true });

if (existsSync(ALL)) {
  addCatalogCases('all.json', ALL, { perTool: 2, maxTools: 200, seed: 2, ks: [10], lenient: true });
} else {
  console.log('SKIP: parity: the 2,032-tool cases over ../shared/catalogs/all.json (not found)');
}

let differences = 0;
let compared = 0;
// A case may name a file the command writes (JOURNAL_OUT in its args): each
// run writes its own copy, and the copies must be byte-identical too.
let outputs = 0;
function withOutput(c) {
  const file = path.join(tmp, `out-${++outputs}.jsonl`);
  if (c.outputExists) {
    writeFileSync(file, 'stale '.repeat(4000));
    chmodSync(file, 0o644);
  }
  return { file, args: c.args.map((a) => (a === JOURNAL_OUT ? file : a)) };
}
// A message naming the file a run wrote (build's "wrote FILE: …") names
// each run's own copy: compared with the path as one placeholder.
const atOut = (buf, file) => Buffer.from(buf.toString('utf8').replaceAll(file, '@out@'));
const modeOf = (file) => (existsSync(file) ? statSync(file).mode & 0o777 : null);
const octal = (m) => (m === null ? 'no file' : `0${m.toString(8)}`);
const readOrNull = (file) => (existsSync(file) ? readFileSync(file) : null);

for (const c of cases) {
  const n = withOutput(c);
  const native = run(NATIVE, n.args, c.env ?? {}, c.cwd);
  if (c.mustSucceed && native.status !== 0) {
    console.log(`parity: native failed on ${c.name}: ${native.stderr.toString().trim()}`);
    differences++;
    continue;
  }
  if (c.expectStatus !== undefined && native.status !== c.expectStatus) {
    console.log(`parity: native exit ${native.status} on ${c.name}, expected ${c.expectStatus}: ` +
      native.stderr.toString().trim());
    differences++;
    continue;
  }
  const nativeOut = readOrNull(n.file);
  if (c.outputMode !== undefined && modeOf(n.file) !== c.outputMode) {
    console.log(`parity: native wrote ${octal(modeOf(n.file))} on ${c.name}, expected ${octal(c.outputMode)}`);
    differences++;
    continue;
  }
  for (const m of modules) {
    const w = withOutput(c);
    const wasm = run(process.execPath, [CLI, ...w.args], { ...c.env, TOOLSIFT_WASM: m }, c.cwd);
    compared++;
    const label = `${c.name} [${path.basename(m)}]`;
    const wasmOut = readOrNull(w.file);
    if (native.status !== wasm.status) {
      console.log(`parity: DIFF ${label}: exit ${native.status} native vs ${wasm.status} wasm`);
      console.log(`  native stderr: ${native.stderr.toString().trim()}`);
      console.log(`  wasm stderr:   ${wasm.stderr.toString().trim()}`);
      differences++;
    } else if (!native.stdout.equals(cutTrailer(wasm.stdout))) {
      console.log(`parity: DIFF ${label}: stdout ${firstDifference(native.stdout, wasm.stdout)}`);
      differences++;
    } else if (c.compareStderr && !atOut(native.stderr, n.file).equals(atOut(cutTrailer(wasm.stderr), w.file))) {
      console.log(`parity: DIFF ${label}: stderr ${firstDifference(atOut(native.stderr, n.file), atOut(wasm.stderr, w.file))}`);
      differences++;
    } else if (nativeOut === null ? wasmOut !== null : !wasmOut?.equals(nativeOut)) {
      const show = (b) => b ?? Buffer.from('<not written>');
      console.log(`parity: DIFF ${label}: written file ${firstDifference(show(nativeOut), show(wasmOut))}`);
      differences++;
    } else if (c.outputMode !== undefined && modeOf(w.file) !== c.outputMode) {
      console.log(`parity: DIFF ${label}: the wasm CLI wrote ${octal(modeOf(w.file))}, expected ${octal(c.outputMode)}`);
      differences++;
    }
  }
}

const summary = `${cases.length} cases x ${modules.length} module(s) = ${compared} comparisons`;
if (differences) fail(`${differences} difference(s) in ${summary}`);
console.log(`parity: OK: ${summary}, native and wasm byte-identical`);
