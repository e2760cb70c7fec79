// The ranker's diversity rule (docs/relevance.md, index.h) against a plain
// re-implementation: for a request of two sentences with 13+ scored terms the
// engine picks hits lazily (core/src/index/index.c); here the same greedy pick is
// computed the slow way from the explain contributions of the one-sentence
// form of the query (same terms, BM25F order), and the two must agree.
// Proximity pairs (index.h) are part of a hit's value; the random worlds
// below have many, so the test also checks how the rule discounts them.
// Runs against the module named by env TOOLSIFT_WASM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const ts = await load(WASM);

const WORDS = ('amber basalt cobalt dune ember fjord glacier harbor island jungle kelp lagoon ' +
  'meadow nectar orchid prairie quartz reef savanna tundra upland valley willow yarrow').split(' ');

function rng(seed) {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

// Greedy by hand: each next hit maximises the sum of its terms'
// contributions, each halved once per earlier pick that matched the term,
// and of its proximity pairs' bonuses, each halved as its more covered term.
function greedy(hits) {
  const pool = hits.map((h) => ({ id: h.id, terms: h.explain.terms, pairs: h.explain.pairs ?? [] }));
  const covered = new Map();
  const out = [];
  const halve = (n) => 0.5 ** Math.min(n, 32);
  while (pool.length) {
    const value = (h) =>
      h.terms.reduce((s, t) => s + t.score * halve(covered.get(t.term) ?? 0), 0) +
      h.pairs.reduce((s, p) => s + p.score * halve(Math.max(...p.terms.map((t) => covered.get(t) ?? 0))), 0);
    const vals = pool.map(value);
    let best = 0;
    for (let i = 1; i < pool.length; i++)
      if (vals[i] > vals[best] || (vals[i] === vals[best] && pool[i].id < pool[best].id)) best = i;
    const sorted = [...vals].sort((a, b) => b - a);
    const gap = sorted.length > 1 ? sorted[0] - sorted[1] : Infinity;
    const [h] = pool.splice(best, 1);
    out.push({ id: h.id, score: vals[best], gap });
    for (const t of h.terms) covered.set(t.term, (covered.get(t.term) ?? 0) + 1);
  }
  return out;
}

test('a long request of two sentences: the engine picks as the greedy rule says', () => {
  let compared = 0;
  let paired = 0; // compared hits that have a proximity pair
  for (let world = 0; world < 60; world++) {
    const r = rng(1000 + world);
    const pick = () => WORDS[Math.floor(r() * WORDS.length)];
    const tools = [];
    for (let t = 0; t < 30; t++) {
      const n = 1 + Math.floor(r() * 4);
      const name = Array.from({ length: n }, pick).join('_') + `_t${t}`;
      const description = Array.from({ length: 3 + Math.floor(r() * 8) }, pick).join(' ');
      tools.push({ name, description });
    }
    const words = [...WORDS].sort(() => r() - 0.5).slice(0, 13 + Math.floor(r() * 4));
    const cut = 3 + Math.floor(r() * (words.length - 6));
    const one = words.join(' ');
    const two = `${words.slice(0, cut).join(' ')}. ${words.slice(cut).join(' ')}.`;
    const ix = ts.createIndex({ tools });
    try {
      const plain = ix.search(one, { limit: 1000, explain: true });
      const diverse = ix.search(two, { limit: 1000, explain: true });
      assert.deepEqual(diverse.terms, plain.terms);
      assert.ok(plain.terms.length >= 13, `world ${world}: ${plain.terms.length} terms`);
      assert.equal(diverse.hits.length, plain.hits.length);
      const want = greedy(plain.hits);
      for (let i = 0; i < want.length; i++) {
        // contributions are printed to 6 decimals: stop at a near tie
        if (want[i].gap < 1e-4) break;
        assert.equal(diverse.hits[i].id, want[i].id, `world ${world}, rank ${i}`);
        assert.ok(Math.abs(diverse.hits[i].score - want[i].score) < 1e-4, `world ${world}, rank ${i} score`);
        const { terms, pairs = [] } = diverse.hits[i].explain;
        const sum = [...terms, ...pairs].reduce((s, t) => s + t.score, 0);
        assert.ok(Math.abs(sum - diverse.hits[i].score) < 1e-4, `world ${world}, rank ${i}: explain adds up`);
        if (pairs.length) paired++;
        compared++;
      }
      for (let i = 1; i < diverse.hits.length; i++)
        assert.ok(diverse.hits[i].score <= diverse.hits[i - 1].score, `world ${world}: scores never rise`);
    } finally {
      ix.free();
    }
  }
  assert.ok(compared > 600, `only ${compared} ranks compared`);
  assert.ok(paired > 100, `only ${paired} compared hits have a pair`);
  console.log(`# ${compared} ranks compared, ${paired} of them with proximity pairs`);
});
