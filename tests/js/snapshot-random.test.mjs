// Compact snapshots (format 4) over big random catalogs (bench/lib/synth.mjs,
// several seeds and sizes, plus hand-made tools with titles, labels,
// annotations, Unicode, long words and odd schemas): a loaded snapshot
// answers byte for byte as the index built from the catalog — searches with
// explain, index facts, search documents, session pages and menus (whose
// schemas are decoded from the snapshot's text code) — and its own snapshot
// is the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../js/toolsift.js';
import { rng, synthCatalog, synthQueries } from '../../bench/lib/synth.mjs';

const ts = await load(process.env.TOOLSIFT_WASM);

// Tools the generator never makes: every optional string and label list,
// non-ASCII text, tokens longer than the text code's 255 bytes, schemas with
// numbers as written, escapes and nesting.
function oddTools(seed, count) {
  const rand = rng(seed);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const words = ['Straße', 'größe', '翻译', 'テスト', 'données', 'naïve', '🚀', 'x'.repeat(300), 'a\tb', 'quote"d',
    'back\\slash', 'emoji🙂text', 'ünïcödé', 'ЖурналЗаписей', 'snake_case_word', 'camelCaseWord'];
  const tools = [];
  for (let i = 0; i < count; i++) {
    const text = () => Array.from({ length: 1 + Math.floor(rand() * 12) }, () => pick(words)).join(rand() < 0.8 ? ' ' : '  ');
    const t = { id: `odd${seed}__tool_${i}`, name: rand() < 0.5 ? `odd${seed}__tool_${i}` : `Odd tool ${i}` };
    if (rand() < 0.5) t.title = text();
    if (rand() < 0.9) t.description = rand() < 0.1 ? '' : text();
    if (rand() < 0.4) t.tags = [pick(words).slice(0, 40), 'tag' + i];
    if (rand() < 0.3) t.aliases = ['alias' + i];
    if (rand() < 0.7) {
      t.inputSchema = { type: 'object', properties: { [pick(words).slice(0, 50)]: { type: 'number', default: 1.50, minimum: -0, description: text() },
        nested: { type: 'object', properties: { deep: { type: 'array', items: { enum: [text(), null, true, 1e21] } } } } } };
    }
    tools.push(t);
  }
  return tools;
}

function sameAnswers(tools, queries, options) {
  const built = ts.createIndex({ tools }, options);
  const snapshot = built.snapshot();
  const loaded = ts.indexFromSnapshot(snapshot);
  try {
    for (const q of queries) {
      for (const opts of [{ limit: 10, explain: true }, { limit: 50 }]) {
        assert.equal(loaded.searchJSON(q, opts), built.searchJSON(q, opts), `query ${JSON.stringify(q)}`);
      }
    }
    assert.equal(loaded.infoJSON(), built.infoJSON());
    assert.equal(loaded.documentsJSON(), built.documentsJSON());
    assert.deepEqual(loaded.snapshot(), snapshot);
  } finally {
    built.free();
    loaded.free();
  }
  return snapshot;
}

test('random synthetic catalogs: loaded snapshots answer as the catalog', () => {
  for (const [size, seed] of [[3000, 1], [5000, 77], [1200, 20261201]]) {
    const cat = synthCatalog(size, seed);
    const queries = synthQueries(cat, 120, seed);
    sameAnswers(cat.tools, queries);
  }
});

test('odd tools (every optional field, Unicode, long tokens, schema values) round-trip', () => {
  const tools = [...oddTools(3, 400), ...synthCatalog(800, 5).tools];
  const queries = ['Straße', 'größe', '翻译', 'テスト', 'données naive', 'rocket 🚀', 'tool 7', 'odd tool', 'tag12',
    'alias3', 'snake case word', 'camel case', 'x'.repeat(300), 'quote back slash', 'журнал'];
  sameAnswers(tools, queries);
  sameAnswers(tools, queries, { ids: 'lenient', stopwords: ['tool'], weights: { params: 2.5 } });
});

test('a session over a random catalog snapshot: pages and menus with decoded schemas', () => {
  const cat = synthCatalog(2000, 9);
  const tools = [...cat.tools, ...oddTools(4, 50)];
  const index = ts.createIndex({ tools });
  const snapshot = index.snapshot();
  index.free();
  const search = { maxPerSearch: 8, maxLoaded: 64 };
  const a = ts.createSession({ loop: 'r', catalog: { tools }, search });
  const b = ts.createSession({ loop: 'r', search }, { snapshot });
  try {
    synthQueries(cat, 12, 3).concat(['odd tool straße']).forEach((query, turn) => {
      assert.equal(b.callJSON(turn, 0, 'search_tools', { query }), a.callJSON(turn, 0, 'search_tools', { query }));
    });
    for (const format of ['mcp', 'openai', 'anthropic']) assert.equal(b.menuJSON(format), a.menuJSON(format));
    assert.ok(b.menu('mcp').tools.length > 8); // search_tools and the loaded tools, with their schemas
  } finally {
    a.free();
    b.free();
  }
});

test('indexFromSnapshotStream: chunks or a ReadableStream into linear memory; a wrong length is a snapshot error', async () => {
  const built = ts.createIndex({ tools: synthCatalog(1500, 2).tools });
  const snap = built.snapshot();
  async function* chunks(n, extra = 0) {
    for (let i = 0; i < snap.length; i += n) yield snap.subarray(i, Math.min(i + n, snap.length));
    if (extra) yield new Uint8Array(extra);
  }
  const want = built.searchJSON('create a customer invoice', { limit: 20, explain: true });
  for (const stream of [chunks(1000), chunks(1 << 20), new Blob([snap]).stream()]) {
    const ix = await ts.indexFromSnapshotStream(stream, snap.length);
    assert.equal(ix.searchJSON('create a customer invoice', { limit: 20, explain: true }), want);
    ix.free();
  }
  const code = async (p) => p.then(() => 'no error', (e) => e.code);
  const before = ts.memory.buffer.byteLength;
  for (let i = 0; i < 5; i++) {
    assert.equal(await code(ts.indexFromSnapshotStream(chunks(4096), snap.length + 1)), 'snapshot'); // ends early
    assert.equal(await code(ts.indexFromSnapshotStream(chunks(4096, 3), snap.length)), 'snapshot'); // too long
    const cut = snap.slice(0, snap.length - 1);
    assert.equal(await code(ts.indexFromSnapshotStream([cut].values(), cut.length)), 'arg'); // not async iterable
  }
  assert.equal(await code(ts.indexFromSnapshotStream(chunks(4096), -1)), 'arg');
  assert.equal(ts.memory.buffer.byteLength, before); // the failed loads freed their buffers
  built.free();
});
