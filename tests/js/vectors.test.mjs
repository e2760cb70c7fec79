// Semantic search through the JS binding (docs/relevance.md, "Semantic
// search"), against the module named by env TOOLSIFT_WASM: createIndex with
// an async embed function, query vectors in every form giving the same
// bytes, a search without a vector unchanged, sessions recording the ranker
// kind and replaying without vectors, snapshots with vectors, and the fusion
// rule's two requirements on every evaluation set present: a random model
// lowers no set's nDCG@10 by more than 0.01, an oracle lifts every set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, vectorBase64, ToolsiftError } from '../../js/toolsift.js';
import { syntheticVectors } from '../../scripts/synthetic-vectors.mjs';
import { reportSkip } from '../skip.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const ts = await load(WASM);

// A toy embedding: a fixed direction per concept word, so "money back" and
// "refund" share one though they share no word.
const CONCEPTS = [
  ['refund', 'money', 'reimburse'],
  ['pager', 'oncall', 'alert', 'duty'],
  ['fork', 'copy', 'repository', 'clone'],
  ['email', 'mail', 'message'],
];
function embed(text) {
  const v = new Float32Array(32).fill(0.01);
  for (const w of text.toLowerCase().split(/[^a-z]+/)) {
    CONCEPTS.forEach((words, c) => {
      if (words.includes(w)) v[c] += 1;
    });
  }
  return v;
}

// 40 filler tools so a z-score can stand out (docs/relevance.md: the floor grows with the universe).
function catalog() {
  const tools = [
    { name: 'refund_payment', description: 'Reimburse a charge to the customer' },
    { name: 'page_oncall', description: 'Alert the engineer on duty' },
    { name: 'fork_repo', description: 'Clone a repository into your account' },
    { name: 'send_email', description: 'Send a mail message' },
    { name: 'remote_x', description: 'refund refund refund', origin: 'remote' },
  ];
  for (let i = 0; i < 40; i++) tools.push({ name: `filler_${i}`, description: `Do filler task number ${i}` });
  return { tools };
}

test('createIndex with an async embed: texts under the trust policy, fused search', async () => {
  const seen = [];
  const index = await ts.createIndex(catalog(), {
    model: 'toy-32',
    embed: async (t) => {
      seen.push(t);
      return embed(t);
    },
  });
  try {
    assert.equal(seen.length, 45);
    assert.equal(seen[4], 'remote_x'); // an un-vouched tool's description is not embedded
    const r = await index.searchAsync('money back please', { explain: true, limit: 3 });
    assert.equal(r.ranker, 'bm25f-6+vec:toy-32');
    assert.equal(r.hits[0].id, 'refund_payment');
    assert.equal(r.hits[0].explain.semantic.rank, 1);
    assert.ok(r.hits[0].explain.semantic.evidence > 0);
    // the same vector as numbers, a Float32Array and base64: the same bytes
    const v = embed('money back please');
    const a = index.searchJSON('money back please', { vector: v });
    assert.equal(index.searchJSON('money back please', { vector: Array.from(v) }), a);
    assert.equal(index.searchJSON('money back please', { vector: vectorBase64(v) }), a);
    assert.equal(index.searchJSON('money back please', `{"vector":"${vectorBase64(v)}"}`), a);
  } finally {
    index.free();
  }
});

test('without a vector a search is what it was, byte for byte', async () => {
  const plain = ts.createIndex(catalog());
  const index = await ts.createIndex(catalog(), { embed });
  try {
    for (const q of ['money back', 'refund_payment', 'alert the engineer', ''])
      assert.equal(index.searchJSON(q, { explain: true }), plain.searchJSON(q, { explain: true }));
    assert.throws(() => plain.search('x', { vector: [1, 2] }), (e) => e instanceof ToolsiftError && e.code === 'arg');
    assert.throws(() => index.search('x', { vector: [1, 2] }), /2 components, but the index's vectors have 32/);
  } finally {
    plain.free();
    index.free();
  }
});

test('a failing embed rejects and frees the index; bad rows are typed errors', async () => {
  await assert.rejects(ts.createIndex(catalog(), { embed: () => { throw new Error('model down'); } }), /model down/);
  const index = ts.createIndex(catalog());
  try {
    const rows = index.embedTexts().map((t) => embed(t.text));
    rows[3] = new Float32Array(32); // a zero vector
    assert.throws(() => index.setVectors('m', rows), (e) => e.code === 'config' && /tool "send_email"/.test(e.message));
    assert.throws(() => index.setVectors('has space', rows.map(() => embed('x'))), (e) => e.code === 'arg');
  } finally {
    index.free();
  }
});

test('sessions record bm25f-N+vec:<model>; a replay needs no vectors', async () => {
  const cat = catalog();
  const withVecs = { ...cat, tools: cat.tools.map((t) => (t.origin ? t : { ...t, embedding: Array.from(embed(`${t.name}\n${t.description}`)) })) };
  const config = (c) => JSON.stringify({ loop: 'agent', tools: [], catalog: c });
  const live = ts.createSession(config(withVecs));
  live.setQueryVector(embed('money back'));
  const first = live.call(0, 0, 'search_tools', { query: 'money back' });
  assert.equal(first.decision.value.ranker, 'bm25f-6+vec:catalog');
  const journal = live.journalJSONL();
  live.free();
  const replay = ts.createSession(config(cat), { journal });
  const again = replay.call(0, 0, 'search_tools', { query: 'money back' });
  assert.deepEqual(again.result, first.result);
  replay.free();
});

test('snapshots carry the vectors', async () => {
  const index = await ts.createIndex(catalog(), { embed, model: 'toy-32' });
  const back = ts.indexFromSnapshot(index.snapshot());
  try {
    const v = embed('copy my repository');
    assert.equal(back.searchJSON('copy my repo', { vector: v, explain: true }), index.searchJSON('copy my repo', { vector: v, explain: true }));
    assert.match(back.infoJSON(), /"vectors":\{"model":"toy-32","dim":32\}/);
  } finally {
    index.free();
    back.free();
  }
});

// ---- the fusion rule on the evaluation sets ---------------------------------

const SHARED = path.resolve(ROOT, '../shared');
const SETS = [
  ['corpus', path.join(ROOT, 'corpus/catalog.json'), path.join(ROOT, 'corpus/queries.jsonl')],
  ['toollens', `${SHARED}/datasets/toollens/tools.jsonl`, `${SHARED}/datasets/toollens/queries_dev.jsonl`],
  ['metatool', `${SHARED}/datasets/metatool/tools.jsonl`, `${SHARED}/datasets/metatool/queries_dev.jsonl`],
  ['sealtools', `${SHARED}/datasets/sealtools/tools.jsonl`, `${SHARED}/datasets/sealtools/queries_dev.jsonl`],
  ['mcp', `${SHARED}/catalogs/all.json`, path.join(ROOT, 'corpus/mcp/queries.jsonl')],
];

function toolIds(file, catalogText) {
  const text = file.endsWith('.jsonl') ? `[${catalogText.split('\n').filter((l) => l.trim()).join(',')}]` : catalogText;
  const index = ts.createIndex(text, { ids: 'lenient' });
  try {
    return index.documents().tools.map((t) => t.id);
  } finally {
    index.free();
  }
}

const ndcg = (json) => JSON.parse(json).toolsift.ndcg10;

for (const [name, catalogFile, queriesFile] of SETS) {
  test(`fusion on ${name}: random lowers nDCG@10 by at most 0.01, an oracle lifts it`, (t) => {
    if (!existsSync(catalogFile) || !existsSync(queriesFile)) {
      reportSkip(`vectors: ${name} (${path.relative(ROOT, catalogFile)} not present)`);
      t.skip('set not present');
      return;
    }
    const catalogText = readFileSync(catalogFile, 'utf8');
    const queries = readFileSync(queriesFile, 'utf8');
    const ids = toolIds(catalogFile, catalogText);
    const base = ndcg(ts.evalJSON(catalogText, queries, { worst: 0 }));
    const random = ndcg(ts.evalJSON(catalogText, queries, { worst: 0 }, syntheticVectors({ ids, queries, kind: 'random' })));
    const oracle = ndcg(ts.evalJSON(catalogText, queries, { worst: 0 }, syntheticVectors({ ids, queries, kind: 'oracle' })));
    t.diagnostic(`${name}: nDCG@10 baseline ${base.toFixed(4)}, random ${random.toFixed(4)}, oracle ${oracle.toFixed(4)}`);
    assert.ok(random >= base - 0.01, `random ${random} vs ${base}`);
    assert.ok(oracle > base + 0.01, `oracle ${oracle} vs ${base}`);
  });
}
