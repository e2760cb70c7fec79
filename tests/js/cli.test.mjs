// The wasm CLI (js/cli.js) against the module named by env TOOLSIFT_WASM:
// output bytes equal the binding's raw JSON, exit codes, usage and errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const CLI = path.join(ROOT, 'js/cli.js');

const CATALOG = {
  tools: [
    { id: 'github__create_issue', name: 'create_issue', description: 'Create a new issue in a GitHub repository' },
    { id: 'weather.get_forecast', name: 'get_forecast', description: 'Get the weather forecast for a city' },
    { id: 'send_email', name: 'send_email', description: 'Send an email message to a recipient' },
  ],
};

let dir;
let catalogPath;
let ts;
let index;

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'toolsift-cli-'));
  catalogPath = path.join(dir, 'catalog.json');
  await writeFile(catalogPath, JSON.stringify(CATALOG));
  ts = await load(WASM);
  index = ts.createIndex(CATALOG);
});

after(async () => {
  index?.free();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function cli(args, env = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, TOOLSIFT_WASM: WASM, ...env },
    encoding: 'utf8',
    cwd: ROOT,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('search prints the core JSON plus a newline', () => {
  const r = cli(['search', '--catalog', catalogPath, 'create', 'an', 'issue']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, index.searchJSON('create an issue') + '\n');
  assert.equal(JSON.parse(r.stdout).hits[0].id, 'github__create_issue');
});

test('search options: --limit, --explain, in any order', () => {
  const both = cli(['search', 'weather', '--explain', '--catalog', catalogPath, '--limit', '1', 'forecast']);
  assert.equal(both.status, 0, both.stderr);
  assert.equal(both.stdout, index.searchJSON('weather forecast', { limit: 1, explain: true }) + '\n');
  const parsed = JSON.parse(both.stdout);
  assert.equal(parsed.hits.length, 1);
  assert.equal(parsed.hits[0].id, 'weather.get_forecast');
  assert.ok(Array.isArray(parsed.hits[0].explain.terms));

  const limitOnly = cli(['search', '--catalog', catalogPath, '--limit', '2', 'send']);
  assert.equal(limitOnly.stdout, index.searchJSON('send', { limit: 2 }) + '\n');
  const explainOnly = cli(['search', '--catalog', catalogPath, '--explain', 'send']);
  assert.equal(explainOnly.stdout, index.searchJSON('send', { explain: true }) + '\n');
  // As natively, a bare `--` is a query word, not an end of options.
  const dashes = cli(['search', '--catalog', catalogPath, '--', 'send', '--explain']);
  assert.equal(dashes.status, 0, dashes.stderr);
  assert.equal(dashes.stdout, index.searchJSON('-- send', { explain: true }) + '\n');
  // No query words: the empty query, which matches nothing.
  const empty = cli(['search', '--catalog', catalogPath]);
  assert.equal(empty.status, 0, empty.stderr);
  assert.deepEqual(JSON.parse(empty.stdout).hits, []);
});

test('rank writes the core rank output as-is', async () => {
  const queries = '{"id":"a","query":"email"}\n{"id":2,"query":"github issue"}\n';
  const qPath = path.join(dir, 'queries.jsonl');
  await writeFile(qPath, queries);
  const r = cli(['rank', '--k', '2', '--queries', qPath, '--catalog', catalogPath]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, index.rank(queries, 2));
  assert.equal(r.stdout.split('\n')[0], '{"id":"a","hits":["send_email"]}');
});

test('analyze, info, docs', () => {
  const a = cli(['analyze', 'createPullRequest', 'for', 'the', 'HTTPServer']);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, ts.analyzeJSON('createPullRequest for the HTTPServer') + '\n');
  assert.deepEqual(JSON.parse(a.stdout).terms, ['creat', 'pull', 'request', 'http', 'server']);
  const info = cli(['info', '--catalog', catalogPath]);
  assert.equal(info.stdout, index.infoJSON() + '\n');
  assert.equal(JSON.parse(info.stdout).tools, 3);
  const docs = cli(['docs', '--catalog', catalogPath]);
  assert.equal(docs.stdout, index.documentsJSON() + '\n');
  assert.equal(JSON.parse(docs.stdout).tools.length, 3);
});

test('core errors: "toolsift: <code>: <message>", exit 1', async () => {
  const bad = path.join(dir, 'bad.json');
  await writeFile(bad, '[{"name":"a"},{"name":"a"}]');
  const r = cli(['search', '--catalog', bad, 'a']);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^toolsift: config: .*\ba\b/);
  const broken = path.join(dir, 'broken.json');
  await writeFile(broken, '{"tools": [');
  const j = cli(['info', '--catalog', broken]);
  assert.equal(j.status, 1);
  assert.match(j.stderr, /^toolsift: json: /);
  const rank = cli(['rank', '--catalog', catalogPath, '--queries', broken, '--k', '3']);
  assert.equal(rank.status, 1);
  assert.match(rank.stderr, /^toolsift: json: /);
  // Build options pass verbatim; the id rule is the core's: any id indexes
  // (a safe menu name), strict ids refuse one a model cannot call by.
  const spaced = path.join(dir, 'spaced.json');
  await writeFile(spaced, '[{"id":"has space","name":"spaced_tool","description":"odd id"}]');
  const strict = cli(['info', '--catalog', spaced, '--options', '{"ids":"strict"}']);
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /^toolsift: config: .*has space/);
  const lenient = cli(['info', '--catalog', spaced]);
  assert.equal(lenient.status, 0, lenient.stderr);
  assert.equal(JSON.parse(lenient.stdout).tools, 1);
  assert.match(JSON.parse(lenient.stdout).menuNames['has space'], /^has_space_[0-9a-f]{8}$/);
  // rank is lenient about ids unless --strict-ids.
  const okQueries = path.join(dir, 'ok.jsonl');
  await writeFile(okQueries, '{"id":1,"query":"odd"}\n');
  const ranked = cli(['rank', '--catalog', spaced, '--queries', okQueries, '--k', '3']);
  assert.equal(ranked.status, 0, ranked.stderr);
  assert.equal(ranked.stdout, '{"id":1,"hits":["has space"]}\n');
  const strictRank = cli(['rank', '--catalog', spaced, '--queries', okQueries, '--k', '3', '--strict-ids']);
  assert.equal(strictRank.status, 1);
  assert.match(strictRank.stderr, /^toolsift: config: /);
});

test('missing files: io error, exit 1', () => {
  const missing = path.join(dir, 'nope.json');
  const r = cli(['info', '--catalog', missing]);
  assert.equal(r.status, 1);
  assert.equal(r.stderr, `toolsift: io: cannot read ${missing}: No such file or directory\n`);
  const q = cli(['rank', '--catalog', catalogPath, '--queries', missing, '--k', '3']);
  assert.equal(q.status, 1);
  assert.equal(q.stderr, `toolsift: io: cannot read ${missing}: No such file or directory\n`);
});

test('a module that cannot be loaded is an error, exit 1', () => {
  const r = cli(['analyze', 'x'], { TOOLSIFT_WASM: path.join(dir, 'nope.wasm') });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^toolsift: load: .*nope\.wasm/);
});

test('build writes the snapshot; search, rank, info and docs take --index', async () => {
  const tsi = path.join(dir, 'index.tsi');
  const b = cli(['build', '--catalog', catalogPath, '-o', tsi]);
  assert.equal(b.status, 0, b.stderr);
  assert.equal(b.stdout, '');
  const blob = await readFile(tsi);
  // it says what it wrote: the file, the tools, the bytes
  assert.equal(b.stderr, `toolsift: wrote ${tsi}: 3 tools, ${blob.length} bytes\n`);
  const catalogBytes = await readFile(catalogPath);
  const fresh = ts.createIndex(catalogBytes);
  try {
    assert.ok(blob.equals(Buffer.from(fresh.snapshot())));
  } finally {
    fresh.free();
  }
  // --output is -o; options are passed verbatim
  const tsi2 = path.join(dir, 'index2.tsi');
  const b2 = cli(['build', '--options', '{"stopwords":[]}', '--output', tsi2, '--catalog', catalogPath]);
  assert.equal(b2.status, 0, b2.stderr);
  const withOptions = ts.createIndex(catalogBytes, '{"stopwords":[]}');
  try {
    assert.ok((await readFile(tsi2)).equals(Buffer.from(withOptions.snapshot())));
  } finally {
    withOptions.free();
  }

  const search = cli(['search', '--index', tsi, '--explain', '--limit', '2', 'create', 'an', 'issue']);
  assert.equal(search.status, 0, search.stderr);
  assert.equal(search.stdout, index.searchJSON('create an issue', { limit: 2, explain: true }) + '\n');
  assert.equal(cli(['info', '--index', tsi]).stdout, index.infoJSON() + '\n');
  assert.equal(cli(['docs', '--index', tsi]).stdout, index.documentsJSON() + '\n');
  const queries = '{"id":"a","query":"email"}\n{"id":2,"query":"github issue"}\n';
  const qPath = path.join(dir, 'index-queries.jsonl');
  await writeFile(qPath, queries);
  assert.equal(cli(['rank', '--index', tsi, '--queries', qPath, '--k', '2']).stdout, index.rank(queries, 2));
  // --index wins over --catalog, and build options do not apply to a snapshot
  const both = cli(['info', '--catalog', path.join(dir, 'no-such.json'), '--index', tsi, '--options', '{"stopwords":[]}']);
  assert.equal(both.status, 0, both.stderr);
  assert.equal(both.stdout, index.infoJSON() + '\n');
});

test('build and --index errors', async () => {
  const tsi = path.join(dir, 'err.tsi');
  assert.equal(cli(['build', '--catalog', catalogPath, '-o', tsi]).status, 0);
  const blob = await readFile(tsi);
  const corrupt = Buffer.from(blob);
  corrupt[corrupt.length >> 1] ^= 0x5a;
  const corruptPath = path.join(dir, 'corrupt.tsi');
  await writeFile(corruptPath, corrupt);
  const truncatedPath = path.join(dir, 'truncated.tsi');
  await writeFile(truncatedPath, blob.subarray(0, 100));
  for (const [file, message] of [[corruptPath, /checksum/], [truncatedPath, /./], [catalogPath, /magic/]]) {
    const r = cli(['search', '--index', file, 'issue']);
    assert.equal(r.status, 1, file);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^toolsift: snapshot: /);
    assert.match(r.stderr, message);
  }
  const missing = path.join(dir, 'missing.tsi');
  const m = cli(['info', '--index', missing]);
  assert.equal(m.status, 1);
  assert.equal(m.stderr, `toolsift: io: cannot read ${missing}: No such file or directory\n`);
  // a catalog error: nothing is written
  const bad = path.join(dir, 'dup.json');
  await writeFile(bad, '[{"name":"a"},{"name":"a"}]');
  const out = path.join(dir, 'never.tsi');
  const dup = cli(['build', '--catalog', bad, '-o', out]);
  assert.equal(dup.status, 1);
  assert.match(dup.stderr, /^toolsift: config: /);
  assert.equal(existsSync(out), false);
  // an unwritable output
  const w = cli(['build', '--catalog', catalogPath, '-o', dir]);
  assert.equal(w.status, 1);
  assert.equal(w.stderr, `toolsift: io: cannot write ${dir}\n`);
  // usage errors: exit 2
  for (const [args, message] of [
    [['build', '--catalog', catalogPath], 'build needs --catalog FILE and -o INDEX.tsi'],
    [['build', '-o', out], 'build needs --catalog FILE and -o INDEX.tsi'],
    [['build', '--index', tsi, '-o', out], 'build needs --catalog FILE and -o INDEX.tsi'],
    [['build', '--catalog', catalogPath, '-o'], '-o needs a value'],
    [['search', '--index'], '--index needs a value'],
    [['info'], '--catalog FILE (or --index SNAPSHOT) is required'],
  ]) {
    const r = cli(args);
    assert.equal(r.status, 2, JSON.stringify(args));
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.startsWith(`toolsift: ${message}\nusage: toolsift`), r.stderr);
  }
  assert.equal(existsSync(out), false);
});

test('query words that name Object.prototype members are query words', () => {
  for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const r = cli(['search', '--catalog', catalogPath, 'issue', word]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, index.searchJSON(`issue ${word}`) + '\n');
  }
});

test('usage: --help exit 0 on stdout; usage errors exit 2 on stderr', () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const help = cli(args);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^usage: toolsift/);
    assert.match(help.stdout, /\n  build --catalog FILE -o INDEX\.tsi \[--model DIR\] +write an index snapshot/);
    assert.match(help.stdout, /take --index INDEX\.tsi instead of --catalog/);
    assert.equal(help.stderr, '');
  }
  const version = cli(['--version']);
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout, `${ts.version}\n`);
  for (const args of [
    [],
    ['frobnicate'],
    ['search', 'x'], // no --catalog
    ['search', '--catalog'], // option without value
    ['search', '--catalog', 'c.json', '--limit', 'many', 'x'],
    ['search', '--catalog', 'c.json', '--limit', '0', 'x'],
    ['search', '--catalog', 'c.json', '--limit', '3x', 'x'],
    ['search', '--catalog', 'c.json', '--bogus', 'x'],
    ['search', '--help'], // options after the command are options, and this is none
    ['rank', '--catalog', 'c.json', '--k', '3'], // no --queries
    ['rank', '--catalog', 'c.json', '--queries', 'q.jsonl'], // no --k
    ['rank', '--catalog', 'c.json', '--queries', 'q.jsonl', '--k', '0'],
    ['info'],
  ]) {
    const r = cli(args);
    assert.equal(r.status, 2, `args ${JSON.stringify(args)}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /usage: toolsift/);
  }
});
