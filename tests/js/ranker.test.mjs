// Host rankers in sessions (docs/sessions.md "Host rankers") through the JS
// binding, against the module named by env TOOLSIFT_WASM: the binding drives
// the core's two-phase protocol ({"call","rank":{kind,query,want}} then
// tsift_wasm_session_ranked) with a synchronous JS function. A hostile or
// broken ranker can narrow results but never widen them; over-asking and
// widening rounds; failures are search_unavailable; replay never calls it.
// Mirrors tests/c/test_session_ranker.c where it applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, ToolsiftError } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const ts = await load(WASM);

// The configuration of tests/c/test_session_ranker.c: the universe is a__one, a__two,
// a__three and a__bad (tainted); b__denied is outside the namespaces and
// a__four is on the menu from the start.
const CONFIG = {
  loop: 'r',
  tools: [{ name: 'reply' }],
  catalog: [
    { id: 'a__one', name: 'one' },
    { id: 'a__two', name: 'two' },
    { id: 'a__three', name: 'three' },
    { id: 'a__four', name: 'four' },
    { id: 'b__denied', name: 'denied' },
    { id: 'a__bad', name: 'bad', tainted: true },
  ],
  search: { namespaces: ['a__'], maxPerSearch: 2, alwaysLoaded: ['a__four'] },
};
const UNIVERSE = new Set(['a__one', 'a__two', 'a__three', 'a__bad']);

// A scripted ranker as in the C test: answers script[round] (later rounds
// repeat the last scripted answer), counts calls and records want and query.
function scripted(answers, kind = 'scripted-1') {
  const r = {
    kind,
    calls: 0,
    wants: [],
    queries: [],
    rank(query, want) {
      r.queries.push(query);
      r.wants.push(want);
      const round = r.calls++;
      const a = answers[Math.min(round, answers.length - 1)];
      return typeof a === 'function' ? a(query, want) : a;
    },
  };
  return r;
}

function withSession(ranker, fn, opts = {}, config = CONFIG) {
  const s = ts.createSession(config, { ranker, ...opts });
  try {
    return fn(s);
  } finally {
    s.free();
  }
}

const search = (s, turn, query = 'anything', extra = {}) => s.call(turn, 0, 'search_tools', { query, ...extra });

function throwsCode(fn, code, message) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof ToolsiftError, `expected a ToolsiftError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

// Nothing outside the universe, nothing that was on the menu, no duplicates,
// at most a page; the decision says the same as the page.
function checkPage(out, menuBefore, page = 2) {
  assert.equal(out.rank, undefined, 'a ranking request leaked out of call()');
  if (out.result.error) {
    // An answer the core cannot read at all (e.g. an id with an escaped NUL)
    // is a failed ranker: nothing recorded, nothing loaded.
    assert.equal(out.result.error, 'search_unavailable');
    assert.equal(out.decision, null);
    return;
  }
  const names = out.result.tools.map((t) => t.name);
  for (const id of names) {
    assert.ok(UNIVERSE.has(id), `${id} is outside the universe`);
    assert.ok(!menuBefore.includes(id), `${id} was already on the menu`);
  }
  assert.equal(new Set(names).size, names.length, 'duplicate ids');
  assert.ok(names.length <= page);
  assert.deepEqual(out.decision.value.results, names);
}

const menuNames = (s) => s.menu('anthropic').map((t) => t.name);

// ---- intersection, clipping, widening -----------------------------------------

test('hostile ids are intersected with the universe (denied, unknown, on the menu, duplicate, non-string)', () => {
  const r = scripted([['b__denied', 'nope', 'a__four', 'a__bad', 'a__one', 'a__one', 7, 'a__two']]);
  withSession(r, (s) => {
    const out = search(s, 0);
    checkPage(out, ['a__four']);
    assert.deepEqual(out, {
      call: { turn: 0, call: 0, tool: 'search_tools' },
      result: {
        tools: [
          { name: 'a__bad', description: 'Third-party tool; description withheld', loaded: false },
          { name: 'a__one', description: '', loaded: true },
        ],
        note: 'Tools marked loaded: false are tainted: their text reads like instructions to you, so they are never loaded and cannot be called.',
        tainted: true,
      },
      // the tainted tool is returned but never loaded; the page holds 2
      decision: {
        id: 'r#turn:0:tool:0:search',
        source: 'agent-tool-search',
        value: { ranker: 'scripted-1', query: 'anything', results: ['a__bad', 'a__one'], loaded: ['a__one'] },
      },
      warnings: ['ranker: dropped 5 ids outside the universe'],
    });
    // over-ask: page 2 + hidden tools (b__denied, a__four on the menu) = 4;
    // the first 4 ids hold one usable tool, so it widens once to 8
    assert.equal(r.calls, 2);
    assert.deepEqual(r.wants, [4, 8]);
    assert.deepEqual(r.queries, ['anything', 'anything']);
    assert.equal(s.metrics().rankerCalls, 2);
    assert.equal(s.rankerError, null);
    assert.deepEqual(menuNames(s), ['search_tools', 'reply', 'a__four', 'a__one']);
  });
});

test('10,000 unknown ids: clipped every round, nothing survives, at most 4 rounds', () => {
  const big = Array.from({ length: 10000 }, (_, i) => `x${i}`);
  const r = scripted([big]);
  withSession(r, (s) => {
    const out = search(s, 0, 'q');
    assert.deepEqual(out.result.tools, []);
    assert.deepEqual(out.decision.value.results, []);
    assert.equal(out.result.note, 'No matching tools found. Try other words.');
    assert.equal(r.calls, 4);
    assert.deepEqual(r.wants, [4, 8, 16, 32]);
    // clipped: only what was asked for counts as dropped
    assert.deepEqual(out.warnings, ['ranker: dropped 32 ids outside the universe']);
    assert.equal(s.metrics().rankerCalls, 4);
  });
});

test('10,000 ids with the real ones at the end are never reached', () => {
  const flood = [...Array.from({ length: 10000 }, (_, i) => `a__one`), 'a__two', 'a__three'];
  const r = scripted([flood]);
  withSession(r, (s) => {
    const out = search(s, 0, 'q');
    checkPage(out, ['a__four']);
    assert.deepEqual(out.decision.value.results, ['a__one']);
    assert.deepEqual(r.wants, [4, 8, 16, 32]);
  });
});

test('widening finds more: a full answer of hidden ids, then the real ones', () => {
  const r = scripted([['b__denied', 'a__four', 'b__denied', 'a__four'], ['a__three', 'a__two']]);
  withSession(r, (s) => {
    const out = search(s, 0, 'q');
    assert.equal(r.calls, 2);
    assert.deepEqual(r.wants, [4, 8]);
    assert.deepEqual(out.decision.value.results, ['a__three', 'a__two']);
    checkPage(out, ['a__four']);
  });
});

test('an answer longer than want is clipped: ids past it only count after widening', () => {
  // The same answer every round, whatever want is: round 1 sees 4 unknown ids
  // (a full answer, empty page), round 2 sees all six.
  const r = scripted([['n1', 'n2', 'n3', 'n4', 'a__one', 'a__two']]);
  withSession(r, (s) => {
    const out = search(s, 0, 'q');
    assert.deepEqual(r.wants, [4, 8]);
    assert.deepEqual(out.decision.value.results, ['a__one', 'a__two']);
    assert.deepEqual(out.warnings, ['ranker: dropped 4 ids outside the universe']);
  });
});

test('a short answer is not widened; a full page is not widened', () => {
  const short = scripted([['a__one']]);
  withSession(short, (s) => {
    assert.deepEqual(search(s, 0).decision.value.results, ['a__one']);
    assert.deepEqual(short.wants, [4]);
  });
  const full = scripted([['a__two', 'a__one', 'nope', 'nope2']]);
  withSession(full, (s) => {
    assert.deepEqual(search(s, 0).decision.value.results, ['a__two', 'a__one']);
    assert.deepEqual(full.wants, [4]);
  });
});

test('duplicates and non-strings are dropped and counted', () => {
  const sym = Symbol('s');
  const answer = ['a__one', 'a__one', null, 1.5, { id: 'a__two' }, ['a__two'], true, undefined, sym, () => 'a__two', 'a__two'];
  const r = scripted([answer]);
  const cfg = { ...CONFIG, search: { ...CONFIG.search, maxPerSearch: 5 } };
  withSession(r, (s) => {
    const out = search(s, 0, 'q');
    // page 5 + 2 hidden = 7: round 1 sees the first 7 entries (one tool, a
    // full answer), round 2 (want 14) all 11, a__two included; the duplicate
    // and the 8 non-strings (undefined, a symbol, a function: null) are dropped
    assert.deepEqual(r.wants, [7, 14]);
    assert.deepEqual(out.decision.value.results, ['a__one', 'a__two']);
    assert.deepEqual(out.warnings, ['ranker: dropped 9 ids outside the universe']);
  }, {}, cfg);
});

test('tools loaded by an earlier search are hidden: want grows, they never come back', () => {
  const r = scripted([['a__one', 'a__two'], ['a__one', 'a__two', 'a__three', 'a__one']]);
  withSession(r, (s) => {
    const first = search(s, 0, 'first');
    checkPage(first, ['a__four']);
    assert.deepEqual(first.decision.value.loaded, ['a__one', 'a__two']);
    const before = menuNames(s);
    const second = search(s, 1, 'second');
    checkPage(second, before);
    assert.deepEqual(second.decision.value.results, ['a__three']);
    // page 2 + hidden (b__denied, a__four, a__one, a__two) = 6; the answer of
    // 4 is not full, so no widening
    assert.deepEqual(r.wants, [4, 6]);
    assert.equal(second.warnings[0], 'ranker: dropped 3 ids outside the universe');
  });
});

test('want: the limit argument narrows the page; the hidden count is added; 1000 at most', () => {
  const r = scripted([[]]);
  withSession(r, (s) => {
    search(s, 0, 'q', { limit: 1 });
    assert.deepEqual(r.wants, [3]);
  });
  // 5 tools in the namespace, 1195 outside it: want = 5 + 1195, capped at 1000;
  // a full answer at the cap is not widened.
  const big = {
    catalog: [
      ...Array.from({ length: 5 }, (_, i) => ({ id: `in__t${i}`, name: `t${i}` })),
      ...Array.from({ length: 1195 }, (_, i) => ({ id: `out__t${i}`, name: `t${i}` })),
    ],
    search: { namespaces: ['in__'], maxPerSearch: 5 },
  };
  const capped = scripted([(q, want) => Array.from({ length: want }, (_, i) => `out__t${i}`)]);
  withSession(capped, (s) => {
    const out = s.call(0, 0, 'search_tools', { query: 'q' });
    assert.deepEqual(out.result.tools, []);
    assert.deepEqual(capped.wants, [1000]);
  }, {}, big);
  // 295 hidden: want 300, then doubling up to the cap: 300, 600, 1000.
  const mid = {
    catalog: [
      ...Array.from({ length: 5 }, (_, i) => ({ id: `in__t${i}`, name: `t${i}` })),
      ...Array.from({ length: 295 }, (_, i) => ({ id: `out__t${i}`, name: `t${i}` })),
    ],
    search: { namespaces: ['in__'], maxPerSearch: 5 },
  };
  const doubling = scripted([(q, want) => Array.from({ length: want }, (_, i) => `out__t${i % 295}`)]);
  withSession(doubling, (s) => {
    const out = s.call(0, 0, 'search_tools', { query: 'q' });
    assert.deepEqual(out.result.tools, []);
    assert.deepEqual(doubling.wants, [300, 600, 1000]);
  }, {}, mid);
});

test('the ranker gets the query as sent, and its kind is the decision\'s ranker', () => {
  const query = 'Straße 🚀 "quoted" \\ 翻译';
  const r = scripted([['a__three']], 'my-embedder/v2 ✓');
  withSession(r, (s) => {
    const out = search(s, 0, query);
    assert.deepEqual(r.queries, [query]);
    assert.equal(out.decision.value.ranker, 'my-embedder/v2 ✓');
    assert.equal(out.decision.value.query, query);
    assert.equal(s.journal()[1].value.ranker, 'my-embedder/v2 ✓');
    // callJSON is the final output, byte for byte what call() parsed
    const raw = s.callJSON(1, 0, 'search_tools', { query });
    assert.ok(!raw.includes('"rank":'));
    assert.equal(JSON.parse(raw).decision.value.ranker, 'my-embedder/v2 ✓');
  });
});

test('a randomised hostile ranker never widens the universe', () => {
  let seed = 7;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const pool = ['a__one', 'a__two', 'a__three', 'a__four', 'a__bad', 'b__denied', 'nope', '', 'A__ONE', 'a__one ',
    'reply', 'search_tools', 'a__', 7, null, {}, [], 'a__one\u0000x', '\u00e9', 'x'.repeat(2000)];
  for (let run = 0; run < 60; run++) {
    const r = scripted([(q, want) => Array.from({ length: Math.floor(rand() * want * 2) }, () => pool[Math.floor(rand() * pool.length)])]);
    withSession(r, (s) => {
      for (let turn = 0; turn < 4; turn++) {
        const before = menuNames(s);
        const out = search(s, turn, `q${turn}`);
        checkPage(out, before);
        for (const id of menuNames(s)) assert.ok(UNIVERSE.has(id) || before.includes(id), `${id} reached the menu`);
      }
      assert.ok(r.calls <= 16);
    });
  }
});

// ---- failing rankers -------------------------------------------------------

// Each of these is a failed ranker: search_unavailable, nothing recorded.
const FAILURES = {
  throws: () => {
    throw new Error('model offline');
  },
  'throws a non-Error': () => {
    throw 'just a string';
  },
  'returns a string': () => 'a__one',
  'returns JSON text': () => '["a__one"]',
  'returns an object': () => ({ ids: ['a__one'] }),
  'returns a number': () => 42,
  'returns null': () => null,
  'returns undefined': () => undefined,
  'returns a Set': () => new Set(['a__one']),
  'returns a typed array': () => new Uint8Array([1, 2]),
  'returns a Promise (async function)': async () => ['a__one'],
  'returns a rejected Promise': async () => {
    throw new Error('async failure');
  },
  'returns a thenable': () => ({ then(ok) { ok(['a__one']); } }),
  'returns an object whose then getter throws': () => ({
    get then() {
      throw new Error('then');
    },
  }),
  'returns a revoked Proxy': () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    return proxy;
  },
  'returns an array with a BigInt': () => ['a__one', 10n],
  'returns a cyclic array': () => {
    const a = ['a__one'];
    a.push(a);
    return a;
  },
  'returns an array whose toJSON throws': () => {
    const a = ['a__one'];
    a.toJSON = () => {
      throw new Error('toJSON');
    };
    return a;
  },
};

for (const [name, answer] of Object.entries(FAILURES)) {
  test(`a failed ranker (${name}) is search_unavailable and records nothing`, async () => {
    let fail = false;
    const r = scripted([(q, want) => (fail ? answer(q, want) : ['a__one'])]);
    withSession(r, (s) => {
      search(s, 0, 'first'); // one good search first: the journal must stay as it was
      const journal = s.journalJSONL();
      const menu = s.menuJSON();
      const metrics = s.metrics();
      assert.equal(s.rankerError, null);
      fail = true;
      const out = search(s, 1, 'second');
      assert.deepEqual(out, {
        call: { turn: 1, call: 0, tool: 'search_tools' },
        result: { error: 'search_unavailable', message: 'the search is unavailable right now' },
        decision: null,
      });
      assert.equal(s.journalJSONL(), journal);
      assert.equal(s.menuJSON(), menu);
      assert.equal(s.metrics().searches, metrics.searches);
      assert.equal(s.metrics().refusals, metrics.refusals + 1);
      assert.equal(r.calls, 2, 'a failed round is not retried');
      assert.notEqual(s.rankerError, null);
      if (name.startsWith('returns a') && !/BigInt|cyclic|toJSON|getter|revoked/.test(name)) {
        assert.ok(s.rankerError instanceof ToolsiftError);
        assert.equal(s.rankerError.code, 'ranker');
        if (name.includes('Promise') || name.includes('thenable')) assert.match(s.rankerError.message, /Promise/);
      }
      // the session stays usable
      fail = false;
      const again = search(s, 2, 'third');
      assert.deepEqual(again.decision.value.results, []); // a__one is on the menu now
      assert.equal(s.rankerError, null);
      assert.equal(s.journal().length, 3); // the chain's header, then two decisions
    });
    // Give a rejected Promise the chance to surface as an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
}

test('a ranker that fails in a widening round fails the whole search', () => {
  const r = scripted([['nope', 'nope', 'nope', 'nope'], () => {
    throw new Error('second round');
  }]);
  withSession(r, (s) => {
    const out = search(s, 0, 'q');
    assert.equal(out.result.error, 'search_unavailable');
    assert.deepEqual(r.wants, [4, 8]);
    assert.equal(s.journalJSONL(), '');
    assert.equal(s.rankerError.message, 'second round');
  });
});

test('calls that are not searches, refusals and exhausted searches never call the ranker', () => {
  const r = scripted([['a__one']]);
  const cfg = { ...CONFIG, search: { ...CONFIG.search, maxSearches: 1 } };
  withSession(r, (s) => {
    assert.deepEqual(s.call(0, 0, 'reply', {}).result, { allowed: true });
    assert.equal(s.call(0, 1, 'a__two', {}).result.error, 'not_on_menu');
    assert.equal(s.call(0, 2, 'search_tools', { query: '  ' }).result.error, 'invalid_input');
    assert.equal(s.call(0, 3, 'search_tools', '{bad').result.error, 'invalid_input');
    assert.equal(s.call(0, 4, 'search_tools', { query: 'x', limit: 0 }).result.error, 'invalid_input');
    assert.equal(r.calls, 0);
    search(s, 1, 'q');
    assert.equal(r.calls, 1);
    assert.equal(search(s, 2, 'q').result.error, 'search_limit_reached');
    assert.equal(r.calls, 1);
  }, {}, cfg);
});

// ---- replay ----------------------------------------------------------------

test('replay of a host-ranked journal calls the ranker zero times and gives identical outputs', () => {
  const calls = [
    [0, 0, 'search_tools', { query: 'first' }],
    [0, 1, 'a__one', {}],
    [1, 0, 'search_tools', { query: 'second' }],
    [2, 0, 'search_tools', { query: 'third', limit: 1 }],
  ];
  const live = scripted([['a__one', 'a__two'], ['a__three'], ['a__bad']]);
  let journal;
  const recorded = withSession(live, (s) => {
    const outs = calls.map((c) => s.callJSON(...c));
    journal = s.journalJSONL();
    return outs;
  });
  assert.equal(live.calls, 3);
  const [header, ...records] = journal.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(header.source, 'toolsift-journal'); // the hash chain's header
  // the call to a__one is recorded beside the decisions (a call record)
  assert.deepEqual(records.map((r) => r.source), ['agent-tool-search', 'agent-tool-call', 'agent-tool-search', 'agent-tool-search']);
  const decisions = records.filter((r) => r.source === 'agent-tool-search');
  assert.equal(decisions.length, 3);
  for (const d of decisions) assert.equal(d.value.ranker, 'scripted-1');

  for (const form of [journal, JSON.parse(`[${journal.trimEnd().split('\n').join(',')}]`)]) {
    const again = scripted([() => assert.fail('the ranker was called during replay')]);
    withSession(again, (s) => {
      assert.deepEqual(calls.map((c) => s.callJSON(...c)), recorded);
      assert.deepEqual(s.finish(), { unasked: [] });
      assert.equal(s.metrics().replayed, 3);
      assert.equal(s.metrics().rankerCalls, 0);
      assert.equal(s.journalJSONL(), journal);
    }, { journal: form });
    assert.equal(again.calls, 0);
  }
  // With ids dropped live, the replay differs only by the live-only
  // "ranker: dropped" warnings (they are not part of the decision).
  const hostile = scripted([['nope', 'a__one', 'a__one', 'a__two'], ['b__denied', 'a__three', 7], ['a__bad']]);
  let hostileJournal;
  const hostileOutputs = withSession(hostile, (s) => {
    const outs = calls.map((c) => s.call(...c));
    hostileJournal = s.journalJSONL();
    return outs;
  });
  assert.deepEqual(hostileOutputs.map((o) => o.warnings?.length ?? 0), [1, 0, 1, 0]);
  const quiet = scripted([() => assert.fail('the ranker was called during replay')]);
  withSession(quiet, (s) => {
    const replayed = calls.map((c) => s.call(...c));
    for (const o of hostileOutputs) delete o.warnings;
    assert.deepEqual(replayed, hostileOutputs);
  }, { journal: hostileJournal });
  assert.equal(quiet.calls, 0);

  // A search the journal does not hold: 'fail' throws without asking the
  // ranker; 'warn' ranks it live, with the divergence warning.
  const strict = scripted([['a__three']]);
  withSession(strict, (s) => {
    throwsCode(() => search(s, 9, 'new'), 'diverged');
    assert.equal(strict.calls, 0);
  }, { journal });
  const warn = scripted([['a__three']]);
  withSession(warn, (s) => {
    const out = search(s, 9, 'new');
    assert.equal(warn.calls, 1);
    assert.deepEqual(out.decision.value.results, ['a__three']);
    assert.match(out.warnings[0], /^replay: the journal has no decision "r#turn:9:tool:0:search" here; ranked live/);
  }, { journal, divergence: 'warn' });
});

// ---- options and misuse --------------------------------------------------------

test('ranker option: shape and kind are checked; null means BM25F', () => {
  for (const bad of [42, 'bm25', () => [], { kind: 'k' }, { rank: () => [] }, { kind: 7, rank: () => [] },
    { kind: 'k', rank: [] }]) {
    throwsCode(() => ts.createSession(CONFIG, { ranker: bad }), 'arg', /ranker must be/);
  }
  throwsCode(() => ts.createSession(CONFIG, { ranker: { kind: '', rank: () => [] } }), 'arg', /1 to 64 bytes/);
  throwsCode(() => ts.createSession(CONFIG, { ranker: { kind: 'k'.repeat(65), rank: () => [] } }), 'arg', /1 to 64 bytes/);
  throwsCode(() => ts.createSession(CONFIG, { ranker: { kind: 'é'.repeat(33), rank: () => [] } }), 'arg', /1 to 64 bytes/);
  throwsCode(() => ts.createSession(CONFIG, { ranker: { kind: 'a\nb', rank: () => [] } }), 'arg', /control characters/);
  throwsCode(() => ts.createSession(CONFIG, { ranker: { kind: 'a\u0000b', rank: () => [] } }), 'arg', /control characters/);
  // 64 bytes is fine
  withSession({ kind: 'k'.repeat(64), rank: () => ['a__one'] }, (s) => {
    assert.equal(search(s, 0).decision.value.ranker, 'k'.repeat(64));
  });
  for (const none of [null, undefined]) {
    withSession(none, (s) => assert.equal(search(s, 0, 'one').decision.value.ranker, 'bm25f-6'));
  }
  // A configuration error comes first, whatever the ranker.
  throwsCode(() => ts.createSession({ catalog: 7 }, { ranker: { kind: 'k', rank: () => [] } }), 'config');
});

test('re-entrant rankers: a call from inside is refused; freeing the session inside is a state error', () => {
  let seen;
  const s = ts.createSession(CONFIG, {
    ranker: {
      kind: 'nested',
      rank() {
        try {
          s.call(5, 5, 'search_tools', { query: 'inner' });
        } catch (e) {
          seen = e;
        }
        s.menu(); // reading is fine while a ranking is pending
        return ['a__one'];
      },
    },
  });
  try {
    const out = search(s, 0);
    assert.equal(seen?.code, 'state');
    assert.deepEqual(out.decision.value.results, ['a__one']);
  } finally {
    s.free();
  }
  const doomed = ts.createSession(CONFIG, {
    ranker: {
      kind: 'freer',
      rank() {
        doomed.free();
        return ['a__one'];
      },
    },
  });
  throwsCode(() => search(doomed, 0), 'state', /freed/);
  assert.equal(doomed.freed, true);
  doomed.free();
});

test('the session is never left waiting for a ranking, whatever completing it threw', () => {
  // A lone surrogate (JSON.stringify writes it as \ud800) makes the core's
  // tsift_session_ranked fail with 'nomem' (see the core issue below); the
  // binding ends the pending search, so the session goes on.
  let answer = ['\ud800'];
  withSession({ kind: 'k', rank: () => answer }, (s) => {
    try {
      const out = search(s, 0, 'q');
      assert.ok(out.result.error === 'search_unavailable' || !out.decision.value.results.includes('\ud800'));
    } catch (e) {
      assert.ok(e instanceof ToolsiftError, String(e));
    }
    answer = ['a__one'];
    assert.deepEqual(search(s, 1, 'q').decision.value.results, ['a__one']);
  });
});

// ---- known core issues (reported, not worked around) -----------------------------------------

test('a ranker id with an escaped lone surrogate is a failed ranking or a dropped id, not out of memory', () => {
  withSession({ kind: 'k', rank: () => ['\ud800', 'a__one'] }, (s) => {
    const out = search(s, 0, 'q');
    assert.ok(out.result.error === 'search_unavailable' || out.decision.value.results.join() === 'a__one');
  });
});

test('a ranker answer with an escaped NUL in an id is a failed ranker, never the id before the NUL', () => {
  withSession({ kind: 'k', rank: () => ['a__one\u0000x'] }, (s) => {
    const r = search(s, 0, 'q');
    assert.equal(r.result.error, 'search_unavailable');
    assert.equal(r.decision, null);
    assert.ok(!menuNames(s).includes('a__one'));
  });
});

test('ranked sessions do not grow memory over many searches and failures', () => {
  const mem = () => ts.memory.buffer.byteLength;
  const pinned = [];
  const start = mem();
  while (mem() === start && pinned.length < 10000) pinned.push(ts.createSession(CONFIG));
  const big = Array.from({ length: 2000 }, (_, i) => (i % 3 ? `x${i}` : 'a__one'));
  // By query: a flood (widened once), a good answer, a throw, garbage.
  const answers = {
    q0: (want) => (want === 4 ? big : ['a__two', 'a__three']),
    q1: () => ['a__one', 'b__denied'],
    q2: () => {
      throw new Error('x');
    },
    q3: () => 'garbage',
  };
  const r = { kind: 'mem-1', rank: (query, want) => answers[query](want) };
  const cycle = (i) => {
    const s = ts.createSession(CONFIG, { ranker: r });
    for (let turn = 0; turn < 4; turn++) search(s, turn, `q${turn}`);
    const journal = s.journalJSONL();
    s.free();
    const replay = ts.createSession(CONFIG, { ranker: r, journal });
    search(replay, 0, 'q0');
    search(replay, 1, 'q1');
    replay.finish();
    replay.free();
    // the session made before set_ranker failed must be freed
    throwsCode(() => ts.createSession(CONFIG, { ranker: { kind: '', rank: () => [] } }), 'arg', /1 to 64 bytes/);
    return i;
  };
  try {
    for (let i = 0; i < 20; i++) cycle(i);
    const baseline = mem();
    for (let i = 0; i < 300; i++) cycle(i);
    assert.ok(mem() - baseline <= 65536, `memory grew from ${baseline} to ${mem()}`);
  } finally {
    for (const p of pinned) p.free();
  }
});
