// The one rule turning a model's name or folder into its files
// (js/model-dir.js; cli/model_load.c natively): "glove" (env
// TOOLSIFT_GLOVE_DIR or build/models/glove, and the error when it is not
// built), a model2vec folder, a sentence-transformers folder
// (modules.json + 0_StaticEmbedding/), the optional config.json and its
// bound; loadStaticModelDir; the gateway's search.model "glove"; both CLIs
// printing the same bytes for each. The model is the generated test model
// (scripts/gen-static-model.mjs); against the module named by env
// TOOLSIFT_WASM, like the other tests/js files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, ToolsiftError } from '../../js/toolsift.js';
import { gloveDir, loadStaticModelDir, readModelDir, resolveModelDir } from '../../js/model-dir.js';
import { checkConfig, GatewayConfigError } from '../../js/mcp/config.js';
import { loadGatewayModel } from '../../js/mcp/model.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const NATIVE = path.join(ROOT, 'build/native/toolsift');
const CLI = path.join(ROOT, 'js/cli.js');

let dir, gen, ts;
const savedGlove = process.env.TOOLSIFT_GLOVE_DIR;

// A folder with the generated model's two files at `sub` (and `extra` files: name → bytes).
function folder(name, { sub = '', extra = {} } = {}) {
  const d = path.join(dir, name);
  mkdirSync(path.join(d, sub), { recursive: true });
  for (const f of ['model.safetensors', 'tokenizer.json']) copyFileSync(path.join(gen, f), path.join(d, sub, f));
  for (const [f, bytes] of Object.entries(extra)) writeFileSync(path.join(d, f), bytes);
  return d;
}

// The model id from the files alone (docs/semantic.md, "Identity"): sha256
// over each file preceded by its length as 8 little-endian bytes; the name
// is the generator's __metadata__ name.
// docs/semantic.md's model id: SHA-256 over each file preceded by its
// length, then "S" for StaticEmbedding's pooling (a 0_StaticEmbedding/ folder).
function idOf(d) {
  const h = createHash('sha256');
  for (const f of ['model.safetensors', 'tokenizer.json']) {
    const b = readFileSync(path.join(d, f));
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(b.length));
    h.update(len).update(b);
  }
  if (path.basename(d) === '0_StaticEmbedding') h.update('S');
  return h.digest('hex').slice(0, 12);
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'toolsift-model-dir-'));
  gen = path.join(dir, 'gen');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/gen-static-model.mjs'), '--out', gen, '--dim', '16'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  ts = await load(readFileSync(WASM));
});

after(() => {
  if (savedGlove === undefined) delete process.env.TOOLSIFT_GLOVE_DIR;
  else process.env.TOOLSIFT_GLOVE_DIR = savedGlove;
  rmSync(dir, { recursive: true, force: true });
});

const MODULES = '[{"idx":0,"name":"0","path":"0_StaticEmbedding","type":"sentence_transformers.models.StaticEmbedding"}]';

test('a model2vec folder: its two files, config.json when there (bytes) or null', () => {
  const d = folder('m2v');
  const r = readModelDir(d);
  assert.deepEqual({ ...r, bytes: undefined }, { dir: d, name: null, layout: 'model2vec', bytes: undefined,
    safetensors: path.join(d, 'model.safetensors'), tokenizer: path.join(d, 'tokenizer.json'), config: path.join(d, 'config.json') });
  assert.deepEqual(r.bytes.safetensors, readFileSync(path.join(gen, 'model.safetensors')));
  assert.deepEqual(r.bytes.tokenizer, readFileSync(path.join(gen, 'tokenizer.json')));
  assert.equal(r.bytes.config, null);
  const config = '{"model_type":"model2vec","normalize":true}';
  const withConfig = folder('m2v-config', { extra: { 'config.json': config } });
  assert.equal(Buffer.from(readModelDir(withConfig).bytes.config).toString('utf8'), config);
});

test('a sentence-transformers folder: the files of 0_StaticEmbedding/, beside modules.json', () => {
  const d = folder('st', { sub: '0_StaticEmbedding', extra: { 'modules.json': MODULES, '0_StaticEmbedding/config.json': '{}' } });
  const sub = path.join(d, '0_StaticEmbedding');
  const r = readModelDir(d);
  assert.equal(r.layout, 'sentence-transformers');
  assert.deepEqual([r.safetensors, r.tokenizer, r.config], ['model.safetensors', 'tokenizer.json', 'config.json'].map((f) => path.join(sub, f)));
  assert.equal(Buffer.from(r.bytes.config).toString('utf8'), '{}');
  const m = loadStaticModelDir(ts, d);
  assert.equal(m.id, `toolsift-test-${idOf(sub)}`);
  m.free();
  // without modules.json it is no sentence-transformers folder: the model2vec paths, and reading names the missing file
  const bare = folder('st-bare', { sub: '0_StaticEmbedding' });
  assert.equal(resolveModelDir(bare).layout, 'model2vec');
  assert.throws(() => readModelDir(bare), (e) => e instanceof ToolsiftError && e.code === 'io' && e.file === path.join(bare, 'model.safetensors'));
  // a model.safetensors at the root wins over 0_StaticEmbedding/
  const both = folder('st-root', { sub: '0_StaticEmbedding', extra: { 'modules.json': MODULES } });
  for (const f of ['model.safetensors', 'tokenizer.json']) copyFileSync(path.join(gen, f), path.join(both, f));
  assert.equal(resolveModelDir(both).layout, 'model2vec');
});

test('config.json within its bound: over 1 MiB a limit error, a directory an io error, both naming it', () => {
  const big = folder('config-big', { extra: { 'config.json': '{}' } });
  truncateSync(path.join(big, 'config.json'), 2 ** 20 + 1);
  assert.throws(() => readModelDir(big), (e) => e.code === 'limit'
    && e.message === `cannot read ${big}/config.json: 1048577 bytes, over the 1048576-byte limit of a config.json file`);
  const d = folder('config-dir');
  mkdirSync(path.join(d, 'config.json'));
  assert.throws(() => readModelDir(d), (e) => e.code === 'io' && e.message === `cannot read ${d}/config.json: not a regular file (a directory)`);
});

test('"glove": env TOOLSIFT_GLOVE_DIR, else build/models/glove; an io error when it is not built', () => {
  delete process.env.TOOLSIFT_GLOVE_DIR;
  assert.equal(gloveDir(), path.join(ROOT, 'build/models/glove'));
  const d = folder('glove-here');
  process.env.TOOLSIFT_GLOVE_DIR = d;
  try {
    const r = resolveModelDir('glove');
    assert.deepEqual([r.name, r.dir, r.safetensors], ['glove', d, path.join(d, 'model.safetensors')]);
    const m = loadStaticModelDir(ts, 'glove');
    assert.equal(m.id, `toolsift-test-${idOf(d)}`);
    m.free();
    process.env.TOOLSIFT_GLOVE_DIR = path.join(dir, 'no-such-folder');
    assert.throws(() => loadStaticModelDir(ts, 'glove'), (e) => e instanceof ToolsiftError && e.code === 'io'
      && e.message === 'model glove is not built: run npm run model in the checkout');
  } finally {
    delete process.env.TOOLSIFT_GLOVE_DIR;
  }
  assert.throws(() => resolveModelDir(''), (e) => e.code === 'arg');
  assert.throws(() => resolveModelDir(42), (e) => e.code === 'arg');
});

test('the gateway: search.model "glove" is the name, "./glove" a folder beside the config', () => {
  const base = path.join(dir, 'gw');
  const c = (model) => checkConfig({ mcpServers: {}, search: { model } }, base).model.dir;
  assert.equal(c('glove'), 'glove');
  assert.equal(c('./glove'), path.join(base, 'glove'));
  process.env.TOOLSIFT_GLOVE_DIR = folder('gw-glove');
  try {
    const m = loadGatewayModel(ts, { dir: 'glove' });
    assert.equal(m.id, `toolsift-test-${idOf(process.env.TOOLSIFT_GLOVE_DIR)}`);
    m.free();
    process.env.TOOLSIFT_GLOVE_DIR = path.join(dir, 'no-such-folder');
    assert.throws(() => loadGatewayModel(ts, { dir: 'glove' }), (e) => e instanceof GatewayConfigError
      && e.message === 'search.model: model glove is not built: run npm run model in the checkout');
  } finally {
    delete process.env.TOOLSIFT_GLOVE_DIR;
  }
  const st = folder('gw-st', { sub: '0_StaticEmbedding', extra: { 'modules.json': MODULES } });
  const m = loadGatewayModel(ts, { dir: st });
  assert.equal(m.id, `toolsift-test-${idOf(path.join(st, '0_StaticEmbedding'))}`);
  m.free();
});

test('both CLIs resolve folders the same way: the same bytes, the same errors', (t) => {
  if (!existsSync(NATIVE)) return t.skip('no native CLI (build/native/toolsift)');
  const run = (cmd, args, env) => {
    const r = spawnSync(cmd[0], [...cmd.slice(1), ...args], { encoding: 'utf8', env: { ...process.env, TOOLSIFT_WASM: WASM, ...env } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const both = (args, env = {}) => {
    const n = run([NATIVE], args, env);
    assert.deepEqual(run([process.execPath, CLI], args, env), n, args.join(' '));
    return n;
  };
  const st = folder('cli-st', { sub: '0_StaticEmbedding', extra: { 'modules.json': MODULES } });
  const ok = both(['embed', '--model', st, 'refund', 'a', 'payment']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).model, `toolsift-test-${idOf(path.join(st, '0_StaticEmbedding'))}`);
  const search = both(['search', '--catalog', path.join(ROOT, 'corpus/catalog.json'), '--model', st, '--limit', '3', 'refund', 'a', 'payment']);
  assert.equal(search.status, 0, search.stderr);
  const big = folder('cli-config-big', { extra: { 'config.json': '{}' } });
  truncateSync(path.join(big, 'config.json'), 2 ** 20 + 1);
  assert.equal(both(['embed', '--model', big, 'x']).stderr,
    `toolsift: limit: cannot read ${big}/config.json: 1048577 bytes, over the 1048576-byte limit of a config.json file\n`);
  const bare = folder('cli-st-bare', { sub: '0_StaticEmbedding' });
  assert.equal(both(['embed', '--model', bare, 'x']).stderr, `toolsift: io: cannot read ${bare}/model.safetensors: No such file or directory\n`);
  const glove = both(['embed', '--model', 'glove', 'refund', 'a', 'payment'], { TOOLSIFT_GLOVE_DIR: st });
  assert.equal(glove.stdout, ok.stdout, 'glove through TOOLSIFT_GLOVE_DIR: a sentence-transformers folder too');
  const gone = both(['embed', '--model', 'glove', 'x'], { TOOLSIFT_GLOVE_DIR: path.join(dir, 'no-such-folder') });
  assert.deepEqual([gone.status, gone.stderr], [1, 'toolsift: io: model glove is not built: run npm run model in the checkout\n']);
});

test('model build: the JS CLI\'s; the native CLI says where it is, exit 2', (t) => {
  if (!existsSync(NATIVE)) return t.skip('no native CLI (build/native/toolsift)');
  const n = spawnSync(NATIVE, ['model', 'build'], { encoding: 'utf8' });
  assert.equal(n.status, 2);
  assert.match(n.stderr, /^toolsift: arg: model build is the JS CLI's .*npm run model.*node js\/cli\.js model build/);
  // the usage line of `model` alone is the JS CLI's
  const u = [NATIVE, process.execPath].map((c) => spawnSync(c, c === NATIVE ? ['model'] : [CLI, 'model'], { encoding: 'utf8' }));
  assert.deepEqual(u.map((r) => [r.status, r.stderr]), [[2, u[1].stderr], [2, u[1].stderr]]);
  assert.match(u[0].stderr, /^usage: toolsift model build /);
});
