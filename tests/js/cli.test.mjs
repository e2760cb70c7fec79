// The wasm CLI (js/cli.js) against the module named by env TOOLSIFT_WASM:
// output bytes equal the binding's raw JSON, exit codes, usage and errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
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
  assert.deepEqual(JSON.parse(a.stdout).terms, ['create', 'pull', 'request', 'http', 'server']);
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
  // Build options pass verbatim; a strict catalog id rule is the core's.
  const spaced = path.join(dir, 'spaced.json');
  await writeFile(spaced, '[{"id":"has space","name":"spaced_tool","description":"odd id"}]');
  const strict = cli(['info', '--catalog', spaced]);
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /^toolsift: config: .*has space/);
  const lenient = cli(['info', '--catalog', spaced, '--options', '{"ids":"lenient"}']);
  assert.equal(lenient.status, 0, lenient.stderr);
  assert.equal(JSON.parse(lenient.stdout).tools, 1);
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

test('usage: --help exit 0 on stdout; usage errors exit 2 on stderr', () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const help = cli(args);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^usage: toolsift/);
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
