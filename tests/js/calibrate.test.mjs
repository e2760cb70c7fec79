// Calibration of a static model (docs/semantic.md, "Calibrating a model")
// through the JS binding, against the module named by env TOOLSIFT_WASM:
// a config.json's parameters act exactly as the same eval "fusion" option
// does, a malformed one is a typed 'model' error naming the key, and
// ts.calibrate's table holds the numbers the evaluation computes at each
// row's parameters, with the proposal the documented rule picks. The model
// is the project's generated one (scripts/gen-static-model.mjs) on the
// corpus: no download.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, ToolsiftError } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ts = await load(path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm'));
const dir = mkdtempSync(path.join(tmpdir(), 'tsift-calibrate-'));
const gen = spawnSync(process.execPath, [path.join(ROOT, 'scripts/gen-static-model.mjs'), '--out', dir], { encoding: 'utf8' });
assert.equal(gen.status, 0, gen.stderr);
const st = readFileSync(path.join(dir, 'model.safetensors'));
const tok = readFileSync(path.join(dir, 'tokenizer.json'));
rmSync(dir, { recursive: true, force: true });
const catalog = readFileSync(path.join(ROOT, 'corpus/catalog.json'));
// every 5th corpus query: a quick but real set (judged and no-match ones)
const queries = readFileSync(path.join(ROOT, 'corpus/queries.jsonl'), 'utf8').split('\n').filter((l, i) => l.trim() && i % 5 === 0).join('\n');

const ndcgOf = (json) => JSON.parse(json).toolsift.ndcg10;

test("a config.json's fusion parameters are the eval option's, byte for byte", () => {
  const fusion = { margin: -2, weight: 3, strong: 1, agree: 0.25 };
  const configured = ts.loadStaticModel(st, tok, JSON.stringify({ model_type: 'model2vec', toolsift: { fusion } }));
  const plain = ts.loadStaticModel(st, tok);
  try {
    assert.equal(configured.id, plain.id); // the vectors are the same: the id does not move
    const a = ts.evalJSON(catalog, queries, { loop: true }, configured);
    const b = ts.evalJSON(catalog, queries, { loop: true, fusion }, plain);
    assert.equal(a, b);
    assert.notEqual(a, ts.evalJSON(catalog, queries, { loop: true }, plain)); // and they do change the answer
    // the eval option still overrides a configured key, key by key
    assert.equal(ts.evalJSON(catalog, queries, { fusion: { margin: 0.5 } }, configured),
      ts.evalJSON(catalog, queries, { fusion: { ...fusion, margin: 0.5 } }, plain));
    // a config.json without "toolsift" (model2vec's own) changes nothing
    const theirs = ts.loadStaticModel(st, tok, '{"model_type":"model2vec","normalize":true}');
    assert.equal(ts.evalJSON(catalog, queries, {}, theirs), ts.evalJSON(catalog, queries, {}, plain));
    theirs.free();
  } finally {
    configured.free();
    plain.free();
  }
});

test('a malformed config.json is a model error naming the key', () => {
  const cases = [
    ['{"toolsift":{"fusion":{"margin":-11}}}', /toolsift\.fusion\.margin must be a number from -10 to 10/],
    ['{"toolsift":{"fusion":{"weight":"2"}}}', /toolsift\.fusion\.weight must be a number from 0 to 100/],
    ['{"toolsift":{"fusion":{"agree":true}}}', /toolsift\.fusion\.agree must be a number from -10 to 10, or null/],
    ['{"toolsift":{"fusion":[]}}', /toolsift\.fusion must be an object/],
    ['{"toolsift":7}', /"toolsift" must be an object/],
    ['[1]', /expected a JSON object/],
    ['{"toolsift":', /config\.json/],
  ];
  for (const [text, re] of cases) {
    assert.throws(() => ts.loadStaticModel(st, tok, text), (e) => e instanceof ToolsiftError && e.code === 'model' && re.test(e.message), text);
  }
  // agree null is "off"
  ts.loadStaticModel(st, tok, '{"toolsift":{"fusion":{"agree":null}}}').free();
});

test('calibrate: each row is the evaluation at its parameters, and the proposal follows the rule', () => {
  const model = ts.loadStaticModel(st, tok);
  try {
    const c = JSON.parse(ts.calibrate(catalog, queries, model));
    assert.equal(c.model, model.id);
    assert.equal(c.from, 'queries');
    assert.ok(c.rows.length >= 24);
    const lexical = JSON.parse(ts.evalJSON(catalog, queries, { loop: true, worst: 0 }));
    assert.equal(c.lexical.ndcg10, lexical.toolsift.ndcg10);
    for (const r of [c.rows[0], c.rows[7], c.rows[23], c.rows[c.rows.length - 1]]) {
      const f = { margin: r.fusion.margin, weight: r.fusion.weight };
      if (r.fusion.agree !== null) f.agree = r.fusion.agree;
      const e = JSON.parse(ts.evalJSON(catalog, queries, { loop: true, worst: 0, fusion: f }, model));
      assert.equal(r.ndcg10, e.toolsift.ndcg10);
      assert.equal(r.precision, e.loop.overall[1].precision);
    }
    // the rule, checked from the table: the grid's best nDCG@10 among rows that keep the floors
    const l = c.lexical;
    const keeps = (r) => r.ndcg10 >= l.ndcg10 && r.primaryShown >= l.primaryShown && r.precision >= l.precision - 0.03 &&
      r.primaryLoaded >= l.primaryLoaded - 0.01 && r.noMatchClean >= l.noMatchClean - 0.03;
    const grid = c.rows.slice(0, 24);
    for (const r of grid) assert.equal(r.meets, keeps(r), JSON.stringify(r));
    const best = grid.filter(keeps).reduce((a, r) => (!a || r.ndcg10 > a.ndcg10 ? r : a), null);
    if (!best || best.ndcg10 < l.ndcg10 + 0.005) assert.equal(c.config, null);
    else {
      assert.equal(c.config.toolsift.fusion.margin, best.fusion.margin);
      assert.equal(c.config.toolsift.fusion.weight, best.fusion.weight);
    }
    // the text table is the same calibration
    const text = ts.calibrate(catalog, queries, model, { text: true });
    assert.match(text, /^calibrate .*: \d+ queries \(labelled, \d+ no-match\)\n/);
    assert.equal(text.split('\n').filter((s) => /^ {2}[ *-] margin/.test(s)).length, c.rows.length);
  } finally {
    model.free();
  }
});

test('calibrate without queries: the catalog judges itself', () => {
  const model = ts.loadStaticModel(st, tok);
  try {
    const c = JSON.parse(ts.calibrate(catalog, null, model));
    assert.equal(c.from, 'catalog');
    assert.ok(c.queries > 50 && c.queries <= 300, `${c.queries}`);
    assert.equal(c.noMatchQueries, 0);
    assert.throws(() => ts.calibrate('{"tools":[{"name":"a"}]}', null, model), (e) => e.code === 'config' && /no queries/.test(e.message));
    assert.throws(() => ts.calibrate('{"tools":[', null, model), (e) => e.code === 'json');
  } finally {
    model.free();
  }
});
