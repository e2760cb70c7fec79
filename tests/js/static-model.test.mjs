// The static-embedding model through the binding (issue 25), against the
// module named by env TOOLSIFT_WASM: the generated test model loads, its
// vectors equal a mean computed here from the files themselves (read with
// DataView and JSON.parse, not through the core), unknown text is null,
// errors are typed, and the wasm CLI prints the binding's JSON.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, ToolsiftError } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const NATIVE = path.join(ROOT, 'build/native/toolsift');

let dir, ts, model, st, tok, rows, vocab, dim;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'toolsift-static-'));
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/gen-static-model.mjs'), '--out', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  st = readFileSync(path.join(dir, 'model.safetensors'));
  tok = readFileSync(path.join(dir, 'tokenizer.json'), 'utf8');
  // The files, read here: the header, then rows of little-endian float32s.
  const hlen = Number(st.readBigUInt64LE(0));
  const header = JSON.parse(st.subarray(8, 8 + hlen).toString('utf8'));
  const e = header.embeddings;
  dim = e.shape[1];
  const base = 8 + hlen + e.data_offsets[0];
  rows = (id) => Array.from({ length: dim }, (_, c) => st.readFloatLE(base + (id * dim + c) * 4));
  vocab = JSON.parse(tok).model.vocab;
  ts = await load(readFileSync(WASM));
  model = ts.loadStaticModel(st, tok);
});

after(() => {
  model?.free();
  rmSync(dir, { recursive: true, force: true });
});

// The unit vector of the sum of the rows of `tokens`, in doubles, as floats.
function expected(tokens) {
  const sum = new Array(dim).fill(0);
  for (const t of tokens) {
    assert.ok(t in vocab, `${t} is in the generated vocabulary`);
    rows(vocab[t]).forEach((x, c) => (sum[c] += x));
  }
  const norm = Math.sqrt(sum.reduce((a, x) => a + x * x, 0));
  return Float32Array.from(sum, (x) => x / norm);
}

test('the generated model: its dimension and its id', () => {
  assert.equal(model.dim, 64);
  assert.match(model.id, /^toolsift-test-[0-9a-f]{12}$/);
  const again = ts.loadStaticModel(new Uint8Array(st), Buffer.from(tok));
  assert.equal(again.id, model.id, 'the same files, the same id');
  again.free();
});

test('embed is the normalised mean of the tokens\' rows, bit for bit', () => {
  // Hand-written tokenisations (words of corpus/catalog.json, BERT rules):
  // lowercase, punctuation alone, an unknown word dropped as [UNK].
  const cases = [
    ['refund a payment', ['refund', 'a', 'payment']],
    ['Create an ISSUE, then close it!', ['create', 'an', 'issue', ',', 'then', 'close', 'it', '!']],
  ];
  for (const [text, tokens] of cases) {
    const got = model.embed(text);
    assert.ok(got instanceof Float32Array && got.length === 64);
    assert.deepEqual(Array.from(got), Array.from(expected(tokens)), text);
    const j = JSON.parse(model.embedJSON(text));
    assert.deepEqual(j.tokens, tokens);
    assert.equal(j.pooled, tokens.length);
    assert.deepEqual(Array.from(Float32Array.from(j.vector)), Array.from(got), 'the JSON numbers read back to the same floats');
  }
  // A word outside the vocabulary splits into single letters and ##letters.
  const j = JSON.parse(model.embedJSON('qqqz'));
  assert.deepEqual(j.tokens, ['q', '##q', '##q', '##z']);
});

test('a text with no known token is null (the zero vector), not an error', () => {
  assert.equal(model.embed(''), null);
  assert.equal(model.embed('   '), null);
  assert.equal(model.embed('\u00bf\u00a1'), null); // punctuation the vocabulary lacks: [UNK] [UNK]
  const j = JSON.parse(model.embedJSON('\u00bf\u00a1'));
  assert.deepEqual(j, { model: model.id, dim: 64, tokens: ['[UNK]', '[UNK]'], pooled: 0, vector: null });
});

test('malformed files are typed errors', () => {
  const code = (fn) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof ToolsiftError);
      return `${e.code}: ${e.message}`;
    }
    return 'no error';
  };
  assert.match(code(() => ts.loadStaticModel(st.subarray(0, 7), tok)), /^model: safetensors: 7 bytes, shorter than/);
  assert.match(code(() => ts.loadStaticModel(st.subarray(0, st.length - 1), tok)), /^model: safetensors: tensor "embeddings": data_offsets end at/);
  assert.match(code(() => ts.loadStaticModel(st, tok.slice(0, 20))), /^json: tokenizer\.json: malformed JSON at byte 20/);
  assert.match(code(() => ts.loadStaticModel(st, tok.replace('"WordPiece","unk_token"', '"BPE","unk_token"'))),
    /^model: tokenizer\.json: model type "BPE" is not supported/);
  assert.match(code(() => ts.loadStaticModel(st, tok.replace('"BertPreTokenizer"', '"Metaspace"'))),
    /^model: tokenizer\.json: pre_tokenizer type "Metaspace" is not supported/);
  assert.match(code(() => ts.loadStaticModel('not bytes', tok)), /^arg: /);
  assert.match(code(() => model.embed(5)), /^arg: embed: text must be a string/);
  const m = ts.loadStaticModel(st, tok);
  m.free();
  m.free();
  assert.match(code(() => m.embed('x')), /^state: static model has been freed/);
});

test('the wasm CLI prints the binding\'s JSON; the native CLI the same bytes', () => {
  const text = 'Refund the payment and fork the repo';
  const want = `${model.embedJSON(text)}\n`;
  const env = { ...process.env, TOOLSIFT_WASM: WASM };
  const js = spawnSync(process.execPath, [path.join(ROOT, 'js/cli.js'), 'embed', '--model', dir, ...text.split(' ')], { env, encoding: 'utf8' });
  assert.equal(js.status, 0, js.stderr);
  assert.equal(js.stdout, want);
  const native = spawnSync(NATIVE, ['embed', '--model', dir, ...text.split(' ')], { encoding: 'utf8' });
  if (native.error) {
    console.log('SKIP: the native CLI is not built');
    return;
  }
  assert.equal(native.stdout, want);
  // Errors: the same line from both.
  const bad = path.join(dir, 'bad.json');
  writeFileSync(bad, '{"model":{"type":"BPE"}}');
  const args = ['embed', '--safetensors', path.join(dir, 'model.safetensors'), '--tokenizer', bad, 'x'];
  const e1 = spawnSync(process.execPath, [path.join(ROOT, 'js/cli.js'), ...args], { env, encoding: 'utf8' });
  const e2 = spawnSync(NATIVE, args, { encoding: 'utf8' });
  assert.equal(e1.status, 1);
  assert.equal(e1.stderr, 'toolsift: model: tokenizer.json: model type "BPE" is not supported (WordPiece or Unigram)\n');
  assert.equal(e2.stderr, e1.stderr);
});

// ---- the model as an index's embedder (static_embed.c) ----------------------

const catalog = readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8');

test('createIndex with the model: the tools embedded in the core, queries with queryVector', async () => {
  const index = ts.createIndex(catalog, { model });
  try {
    assert.equal(index.info().vectors.model, model.id);
    assert.equal(index.info().vectors.dim, model.dim);
    // the query vector is the model's own vector of the text, as base64 float32 LE
    const q = 'refund a payment';
    const b64 = model.queryVector(q);
    const bytes = Buffer.from(b64, 'base64');
    const decoded = Float32Array.from({ length: model.dim }, (_, i) => bytes.readFloatLE(i * 4));
    assert.deepEqual(decoded, model.embed(q));
    assert.deepEqual(decoded, expected(['refund', 'a', 'payment'].filter((t) => t in vocab)));
    const fused = index.search(q, { vector: b64, explain: true });
    assert.equal(fused.ranker, `bm25f-6+vec:${model.id}`);
    assert.ok(fused.hits.every((h) => h.explain.semantic), 'explain has the semantic part');
    assert.deepEqual(await index.searchAsync(q, { explain: true }), fused, 'searchAsync embeds with the same model');
    // no token the model knows: null, and the search is the lexical one
    assert.equal(model.queryVector('☃ ☂'), null);
    assert.equal(index.searchJSON('☃ ☂ refund', { vector: null }), ts.createIndex(catalog).searchJSON('☃ ☂ refund'));
  } finally {
    index.free();
  }
});

test('the same snapshot as the native build --model', () => {
  const file = path.join(dir, 'native.tsi');
  const r = spawnSync(NATIVE, ['build', '--catalog', path.join(ROOT, 'corpus/catalog.json'), '--model', dir, '-o', file]);
  if (r.error) return; // no native build in this run: parity covers it
  assert.equal(r.status, 0, String(r.stderr));
  const index = ts.createIndex(catalog, { model });
  try {
    assert.deepEqual(Buffer.from(index.snapshot()), readFileSync(file));
  } finally {
    index.free();
  }
});

test('a model from another module is refused by name', async () => {
  const other = await load(readFileSync(WASM));
  const foreign = other.loadStaticModel(st, tok);
  const index = ts.createIndex(catalog);
  try {
    assert.throws(() => index.embedStatic(foreign), (e) => e instanceof ToolsiftError && e.code === 'arg' && /another toolsift module/.test(e.message));
    assert.throws(() => index.embedStatic({}), (e) => e.code === 'arg' && /StaticModel/.test(e.message));
    assert.equal(index.info().vectors, undefined, 'nothing half-built');
  } finally {
    index.free();
    foreign.free();
  }
});

test('a session embeds its queries with the model (setEmbedder); the model stays alive while used', () => {
  const index = ts.createIndex(catalog, { model });
  const snapshot = index.snapshot();
  index.free();
  const config = { search: { maxPerSearch: 3 } };
  const s = ts.createSession(config, { snapshot });
  const host = ts.createSession(config, { snapshot });
  try {
    s.setEmbedder(model);
    const q = { query: 'give a customer their money back' };
    const out = s.call(0, 0, 'search_tools', q);
    assert.equal(out.decision.value.ranker, `bm25f-6+vec:${model.id}`);
    // the same search with the model's vector given by the host: the same page
    host.setQueryVector(model.embed(q.query));
    assert.deepEqual(host.call(0, 0, 'search_tools', q).result, out.result);
    assert.throws(() => model.free(), (e) => e instanceof ToolsiftError && e.code === 'state' && /live session/.test(e.message));
    assert.equal(model.freed, false);
    assert.throws(() => s.setEmbedder({}), (e) => e.code === 'arg' && /StaticModel/.test(e.message));
    // a session over its own catalog is embedded by the model: the same page
    const plain = ts.createSession({ ...config, catalog: JSON.parse(catalog) });
    try {
      plain.setEmbedder(model);
      assert.deepEqual(plain.call(0, 0, 'search_tools', q).result, out.result);
    } finally {
      plain.free();
    }
    // the journal replays over the plain catalog, without the model
    const replay = ts.createSession({ ...config, catalog: JSON.parse(catalog) }, { journal: s.journalJSONL() });
    try {
      assert.deepEqual(replay.call(0, 0, 'search_tools', q).result, out.result);
    } finally {
      replay.free();
    }
  } finally {
    s.free();
    host.free();
  }
  // no session uses it now: free() would work (the after() hook frees it)
});

test('evalJSON with the model equals evalJSON with a vectors file of the same model\'s vectors', () => {
  const queries = readFileSync(path.join(ROOT, 'corpus/queries.jsonl'), 'utf8');
  const index = ts.createIndex(catalog, { ids: 'lenient' });
  const b64 = (v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  const lines = [JSON.stringify({ kind: 'model', id: model.id })];
  try {
    for (const t of index.embedTexts()) lines.push(JSON.stringify({ kind: 'tool', id: t.id, b64: b64(model.embed(t.text)) }));
  } finally {
    index.free();
  }
  let withVector = 0;
  for (const line of queries.split('\n').filter(Boolean)) {
    const q = JSON.parse(line);
    const v = model.embed(q.query);
    if (v) {
      lines.push(JSON.stringify({ kind: 'query', id: q.id, b64: b64(v) }));
      withVector++;
    }
  }
  const fromFile = ts.evalJSON(catalog, queries, {}, lines.join('\n') + '\n');
  const fromModel = ts.evalJSON(catalog, queries, {}, model);
  assert.equal(fromModel, fromFile);
  assert.match(fromModel, new RegExp(`"ranker":"bm25f-6\\+vec:${model.id}"`));
  assert.ok(withVector > 400, `${withVector} queries with a vector`);
  const other = ts.loadStaticModel(st, tok);
  other.free();
  assert.throws(() => ts.evalJSON(catalog, queries, {}, other), (e) => e.code === 'state');
});
