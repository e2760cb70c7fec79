// The serving module (build/wasm/toolsift-serving.wasm, issue 37): the
// export table without its full-module-only lines, the same answers as the
// full module named by env TOOLSIFT_WASM (default build/wasm/toolsift.wasm)
// byte for byte, and a clear error from each thing it leaves out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, ToolsiftError } from '../../js/toolsift.js';
import { wasmExports } from '../../scripts/wasm-exports.mjs';
import { runScenario } from '../runtimes/scenario.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVING = path.join(ROOT, 'build/wasm/toolsift-serving.wasm');
const FULL = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const read = (f) => readFileSync(path.join(ROOT, f), 'utf8');

const serving = await load(SERVING);
const full = await load(FULL);

test('the serving module exports the table without its full-only lines, and no other', () => {
  const all = wasmExports();
  const fullOnly = all.filter((e) => e.fullOnly).map((e) => e.name);
  // what the table marks full-only: evaluation, calibration, learning
  for (const name of ['tsift_wasm_eval', 'tsift_wasm_eval_report', 'tsift_wasm_calibrate',
    'tsift_wasm_learner_new', 'tsift_wasm_learner_free', 'tsift_wasm_learn_diff']) {
    assert.ok(fullOnly.includes(name), `${name} is marked full-only`);
  }
  assert.ok(!fullOnly.includes('tsift_wasm_index_search') && !fullOnly.includes('tsift_wasm_session_call'));
  const exported = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(SERVING)))
    .map((e) => e.name).filter((n) => n.startsWith('tsift_wasm_')).sort();
  const wanted = wasmExports(undefined, { serving: true }).map((e) => e.name).sort();
  assert.deepEqual(exported, wanted);
  assert.equal(wanted.length, all.length - fullOnly.length);
});

test('Toolsift#serving tells the modules apart', () => {
  assert.equal(serving.serving, true);
  assert.equal(full.serving, false);
  assert.equal(serving.version, full.version);
});

test('the runtime scenario (search with explain, sessions, journals, snapshots) is byte-identical', async () => {
  const inputs = {
    catalog: read('corpus/catalog.json'),
    sessionConfig: read('tests/runtimes/fixtures/session.json'),
    calls: read('tests/runtimes/fixtures/calls.jsonl'),
  };
  const a = await runScenario(serving, inputs);
  const b = await runScenario(full, inputs);
  assert.ok(a.length > 10_000, 'the scenario produced its document');
  assert.equal(a, b);
});

test('a snapshot written by either module loads in the other with the same answers', () => {
  const catalog = read('corpus/catalog.json');
  const built = full.createIndex(catalog);
  const snap = built.snapshot();
  const loaded = serving.indexFromSnapshot(snap);
  try {
    assert.deepEqual(loaded.snapshot(), snap);
    for (const q of ['create a pull request', 'weather forecast for berlin', 'refund a payment']) {
      assert.equal(loaded.searchJSON(q, { limit: 10, explain: true }), built.searchJSON(q, { limit: 10, explain: true }));
    }
  } finally {
    built.free();
    loaded.free();
  }
});

test('evaluation, calibration and learning throw a ToolsiftError naming the full module', () => {
  const catalog = read('corpus/catalog.json');
  const calls = {
    evalJSON: () => serving.evalJSON(catalog, '{"query":"x","relevant":{"a":1}}\n'),
    evalReport: () => serving.evalReport('{}'),
    calibrate: () => serving.calibrate(catalog, null, null),
    createLearner: () => serving.createLearner(catalog),
    learnDiffJSON: () => serving.learnDiffJSON('{}', '{}'),
    learnDiff: () => serving.learnDiff('{}', '{}'),
  };
  for (const [method, call] of Object.entries(calls)) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof ToolsiftError, method);
      assert.equal(e.code, 'state', method);
      assert.match(e.message, new RegExp(`^${method === 'learnDiff' ? 'learnDiffJSON' : method}: this is the serving module`));
      assert.match(e.message, /load the full module \(toolsift\.wasm\)/);
      return true;
    });
  }
  // the full module does them: its own error is about the input
  const v = '{"annotations":{}}';
  assert.equal(full.learnDiffJSON(v, v), '{"tools":[],"toolsChanged":0,"added":0,"removed":0}');
});
