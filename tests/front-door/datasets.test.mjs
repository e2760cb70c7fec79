// datasets.test.mjs — `npm run datasets` against a mirror served over
// 127.0.0.1: the real fetch, digest, convert and write path with no network.
//
// The mirror holds small files written for this test in each set's upstream
// shape (tests/front-door/datasets/mirror/<set>/), placed at <repo>/<commit>/<path> as
// the pinned sources name them; the expected outputs (tests/front-door/datasets/expected)
// were written by hand from those inputs. With ../shared present, a second
// mirror is rebuilt from ../shared's Seal-Tools and ToolLens files in their
// upstream shapes, and the output must be ../shared's files byte for byte.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Obj, dump, obj, parse } from '../../scripts/datasets/pyjson.mjs';

const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'datasets');
const ROOT = path.resolve(HERE, '../../..');
const SCRIPT = path.join(ROOT, 'scripts/datasets.mjs');
const SOURCES = JSON.parse(readFileSync(path.join(ROOT, 'scripts/datasets/sources.json'), 'utf8'));
const SHARED = path.resolve(ROOT, '../shared/datasets');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolsift-datasets-'));
const sha = (p) => createHash('sha256').update(readFileSync(p)).digest('hex');

let server;
let base;

/** Serve a folder read-only on 127.0.0.1; returns the base URL. */
function serve(root) {
  return new Promise((resolve) => {
    server = createServer((req, res) => {
      const p = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
      if (!p.startsWith(root + path.sep) || !existsSync(p)) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(p));
    });
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

/** Place `files` ({set: {upstream path: local file}}) in a mirror folder and write a sources file pinning their digests. */
function stage(name, files, { pin = true } = {}) {
  const mirror = path.join(tmp, name, 'mirror');
  const sources = structuredClone(SOURCES);
  for (const [set, map] of Object.entries(files)) {
    const s = sources.sets[set];
    for (const f of s.files) {
      const local = map[f.path];
      assert.ok(local, `${set}: no mirror file for ${f.path}`);
      const dest = path.join(mirror, s.repo, s.commit, f.path);
      mkdirSync(path.dirname(dest), { recursive: true });
      cpSync(local, dest);
      f.sha256 = pin ? sha(local) : null;
    }
  }
  const sourcesPath = path.join(tmp, name, 'sources.json');
  writeFileSync(sourcesPath, JSON.stringify(sources));
  return { mirror, sourcesPath };
}

// Asynchronous: the mirror is served by this process, so a synchronous child would wait for it forever.
function run(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', timeout: 60_000 }, (e, stdout, stderr) =>
      resolve({ status: e ? (e.code ?? 1) : 0, out: stdout + stderr }));
  });
}

const FIXTURE = {
  sealtools: { 'Seal-Tools_Dataset/tool.jsonl': 'sealtools/tool.jsonl', 'Seal-Tools_Dataset/dev.jsonl': 'sealtools/dev.jsonl' },
  toollens: { 'datasets/ToolLens/corpus.jsonl': 'toollens/corpus.jsonl', 'datasets/ToolLens/queries.jsonl': 'toollens/queries.jsonl', 'datasets/ToolLens/qrels/train.tsv': 'toollens/train.tsv' },
  metatool: { 'dataset/plugin_info.json': 'metatool/plugin_info.json', 'dataset/plugin_des.json': 'metatool/plugin_des.json' },
};
const fixtureFiles = Object.fromEntries(Object.entries(FIXTURE).map(([set, m]) =>
  [set, Object.fromEntries(Object.entries(m).map(([p, f]) => [p, path.join(HERE, 'mirror', f)]))]));

let origin;
let fixture;
const mirrorUrl = (name) => `${origin}/${name}/mirror`;
before(async () => {
  origin = await serve(tmp);
  fixture = stage('fixture', fixtureFiles);
});
after(() => server.close());

test('every set is fetched over loopback, verified and converted into the eval layout', async () => {
  const out = path.join(tmp, 'out-all');
  const r = await run(['--mirror', mirrorUrl('fixture'), '--sources', fixture.sourcesPath, '--out', out]);
  assert.equal(r.status, 0, r.out);
  for (const set of ['sealtools', 'toollens', 'metatool']) {
    for (const f of readdirSync(path.join(HERE, 'expected', set)))
      assert.equal(readFileSync(path.join(out, set, f), 'utf8'), readFileSync(path.join(HERE, 'expected', set, f), 'utf8'), `${set}/${f}`);
    const note = readFileSync(path.join(out, set, 'SOURCE.md'), 'utf8');
    assert.ok(note.includes(`Licence: ${SOURCES.sets[set].licence}.`), `${set}: SOURCE.md names the licence`);
    assert.ok(note.includes(SOURCES.sets[set].commit), `${set}: SOURCE.md names the commit`);
  }
  assert.match(r.out, /sealtools: Seal-Tools — fairyshine\/Seal-Tools @ ce753ecd60ed, licence Apache-2\.0/);
  assert.match(r.out, /toollens: 3 tools, 2 queries/);
  assert.equal(existsSync(path.join(out, 'metatool', 'queries_dev.jsonl')), false, 'MetaTool: tools only');
});

test('a file whose digest differs is refused by name, and the set already there is kept', async () => {
  const out = path.join(tmp, 'out-tamper');
  assert.equal((await run(['--mirror', mirrorUrl('fixture'), '--sources', fixture.sourcesPath, '--out', out, '--set', 'sealtools'])).status, 0);
  const kept = readFileSync(path.join(out, 'sealtools', 'queries_dev.jsonl'), 'utf8');
  const bad = stage('tampered', { sealtools: fixtureFiles.sealtools });
  const dest = path.join(bad.mirror, 'fairyshine/Seal-Tools', SOURCES.sets.sealtools.commit, 'Seal-Tools_Dataset/dev.jsonl');
  writeFileSync(dest, readFileSync(dest, 'utf8').replace('Brest tomorrow', 'Brest today'));
  const r = await run(['--mirror', mirrorUrl('tampered'), '--sources', bad.sourcesPath, '--out', out, '--set', 'sealtools']);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /sealtools: Seal-Tools_Dataset\/dev\.jsonl: sha256 [0-9a-f]{64}, expected [0-9a-f]{64}/);
  assert.match(r.out, /sealtools not written/);
  assert.equal(readFileSync(path.join(out, 'sealtools', 'queries_dev.jsonl'), 'utf8'), kept);
});

test('an unpinned file needs --record once; the recorded digest guards every later run', async () => {
  const out = path.join(tmp, 'out-record');
  const open = stage('unpinned', { metatool: fixtureFiles.metatool }, { pin: false });
  const args = ['--mirror', mirrorUrl('unpinned'), '--sources', open.sourcesPath, '--out', out, '--set', 'metatool'];
  const first = await run(args);
  assert.equal(first.status, 1);
  assert.match(first.out, /metatool: dataset\/plugin_info\.json: no digest pinned \(sha256 [0-9a-f]{64}\); check the source and re-run with --record/);
  assert.equal(existsSync(path.join(out, 'metatool')), false, 'nothing written');
  assert.equal((await run([...args, '--record'])).status, 0);
  const lock = JSON.parse(readFileSync(path.join(out, 'SOURCES.lock.json'), 'utf8'));
  assert.equal(lock[`HowieHwong/MetaTool@${SOURCES.sets.metatool.commit}:dataset/plugin_des.json`], sha(fixtureFiles.metatool['dataset/plugin_des.json']));
  assert.equal((await run(args)).status, 0, 'verified against the lock');
  const dest = path.join(open.mirror, 'HowieHwong/MetaTool', SOURCES.sets.metatool.commit, 'dataset/plugin_des.json');
  writeFileSync(dest, '{"ferry": "changed upstream"}');
  const changed = await run(args);
  assert.equal(changed.status, 1);
  assert.match(changed.out, /plugin_des\.json: sha256 [0-9a-f]{64}, expected/);
});

test('a missing file and an unreachable mirror are errors naming the URL', async () => {
  const out = path.join(tmp, 'out-missing');
  const r = await run(['--mirror', `${origin}/nowhere`, '--sources', fixture.sourcesPath, '--out', out, '--set', 'toollens']);
  assert.equal(r.status, 1);
  assert.match(r.out, /\/nowhere\/quchangle1\/COLT\/[0-9a-f]{40}\/datasets\/ToolLens\/corpus\.jsonl: HTTP 404/);
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p)); // a port nothing listens on any more
    });
  });
  const closed = await run(['--mirror', `http://127.0.0.1:${port}`, '--sources', fixture.sourcesPath, '--out', out, '--set', 'toollens']);
  assert.equal(closed.status, 1);
  assert.match(closed.out, new RegExp(`http://127\\.0\\.0\\.1:${port}/.*corpus\\.jsonl: .*ECONNREFUSED`));
  assert.match((await run(['--set', 'toolret'])).out, /unknown set toolret/);
});

test('a file in a shape the converter does not know stops the set with its line', async () => {
  const out = path.join(tmp, 'out-shape');
  const dir = path.join(tmp, 'odd');
  mkdirSync(dir, { recursive: true });
  const odd = path.join(dir, 'corpus.jsonl');
  writeFileSync(odd, readFileSync(fixtureFiles.toollens['datasets/ToolLens/corpus.jsonl'], 'utf8').replace('category_name:Travel', 'category:Travel'));
  const staged = stage('odd-shape', { toollens: { ...fixtureFiles.toollens, 'datasets/ToolLens/corpus.jsonl': odd } });
  const r = await run(['--mirror', mirrorUrl('odd-shape'), '--sources', staged.sourcesPath, '--out', out, '--set', 'toollens']);
  assert.equal(r.status, 1);
  assert.match(r.out, /corpus\.jsonl:2: "text" is not "category_name:…/);
});

// ../shared's files in their upstream shapes: the conversion must give them back byte for byte.
// Read and written with pyjson, which keeps number texts (2500.0) and key order as ../shared has them.
const SEAL_BACK = { string: 'str', integer: 'int', number: 'float', boolean: 'bool', array: 'list', object: 'dict' };
const toSealUpstream = (t) => {
  const p = t.get('parameters');
  const parameters = new Obj((p?.get('properties')?.pairs ?? []).map(([k, v]) =>
    [k, obj(['type', SEAL_BACK[v.get('type')]], ['description', v.get('description')])]));
  return dump(obj(['api_name', t.get('id')], ['api_description', t.get('description')], ['field', t.get('meta').get('field')],
    ['parameters', parameters], ['required', p?.get('required')], ['responses', t.get('meta').get('responses')]), { ascii: false });
};
const toLensUpstream = (t) => {
  const p = t.get('parameters');
  const props = p?.get('properties');
  const all = props?.keys() ?? [];
  const req = p?.get('required') ?? [];
  const params = (names) => JSON.stringify(names.map((n) => ({ name: n, type: props.get(n).get('type') === 'number' ? 'NUMBER' : 'STRING', description: props.get(n).get('description') ?? '' })));
  const m = t.get('meta');
  const text = `category_name:${m.get('category')}, tool_name:${m.get('tool_name')}, api_name:${m.get('api_name')}, api_description:${t.get('description')}, required_params: ${params(req)}, optional_params: ${params(all.filter((n) => !req.includes(n)))}, return_schema: ${m.get('return_schema')}`;
  return JSON.stringify({ _id: t.get('id'), title: '', text, metadata: {} });
};

test('../shared rebuilt in the upstream shapes converts back to ../shared byte for byte', { skip: !existsSync(path.join(SHARED, 'sealtools')) && 'SKIP: ../shared/datasets not present' }, async () => {
  const dir = path.join(tmp, 'from-shared');
  mkdirSync(dir, { recursive: true });
  const read = (set, f) => readFileSync(path.join(SHARED, set, f), 'utf8').split('\n').filter(Boolean).map((l) => parse(l));
  const write = (f, rows) => {
    writeFileSync(path.join(dir, f), rows.join('\n') + '\n');
    return path.join(dir, f);
  };
  const staged = stage('from-shared', {
    sealtools: {
      'Seal-Tools_Dataset/tool.jsonl': write('tool.jsonl', read('sealtools', 'tools.jsonl').map(toSealUpstream)),
      'Seal-Tools_Dataset/dev.jsonl': write('dev.jsonl', read('sealtools', 'queries_dev.jsonl').map((q) =>
        JSON.stringify({ id: q.get('id'), query: q.get('query'), calling: q.get('relevant').keys().map((api) => ({ api, parameters: {} })) }))),
    },
    toollens: {
      'datasets/ToolLens/corpus.jsonl': write('corpus.jsonl', read('toollens', 'tools.jsonl').map(toLensUpstream)),
      'datasets/ToolLens/queries.jsonl': write('queries.jsonl', read('toollens', 'queries_dev.jsonl').map((q) => JSON.stringify({ _id: q.get('id'), text: q.get('query') }))),
      'datasets/ToolLens/qrels/train.tsv': write('train.tsv', ['query-id\tcorpus-id\tscore',
        ...read('toollens', 'queries_dev.jsonl').flatMap((q) => q.get('relevant').pairs.map(([t, g]) => `${q.get('id')}\t${t}\t${g.text}`))]),
    },
  });
  const out = path.join(tmp, 'out-shared');
  const r = await run(['--mirror', mirrorUrl('from-shared'), '--sources', staged.sourcesPath, '--out', out, '--set', 'sealtools', '--set', 'toollens']);
  assert.equal(r.status, 0, r.out);
  for (const [set, f] of [['sealtools', 'tools.jsonl'], ['sealtools', 'queries_dev.jsonl'], ['toollens', 'tools.jsonl'], ['toollens', 'queries_dev.jsonl']])
    assert.ok(readFileSync(path.join(out, set, f), 'utf8') === readFileSync(path.join(SHARED, set, f), 'utf8'), `${set}/${f} differs from ../shared`);
  assert.match(r.out, /tools\.jsonl: identical to \.\.\/shared; queries_dev\.jsonl: identical to \.\.\/shared/);
});
