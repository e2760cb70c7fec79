// Learning a catalog's vocabulary (docs/learning.md) through the binding,
// against the module named by env TOOLSIFT_WASM: sessions of several
// clients record their searches and calls (Session#callFailed for a call
// that failed), a Learner reads their journals and labelled examples, and
// an index with the learned vocabulary as its "annotations" finds tools by
// the words their users asked for. Expected labels and counts are worked out
// by hand from the rule's defaults (minSessions 3, minClients 2,
// maxPerClient 3, minShare 0.1, minExamples 1); digests are recomputed here with sha256.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, Learner, ToolsiftError } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const ts = await load(WASM);

// Ten tools with strict ids (tests/fixtures/learn/catalog.json): none has
// "rain", "tomorrow", "ping" or "team" in its text.
const CATALOG_TEXT = readFileSync(path.join(ROOT, 'tests/fixtures/learn/catalog.json'), 'utf8');
const CATALOG = JSON.parse(CATALOG_TEXT);
const WEATHER = 'weather__get_forecast';
const CHAT = 'chat__post_message';
const CONFIG = {
  loop: 'learn-test',
  tools: [{ name: 'reply', description: 'Send the final answer to the user.' }],
  catalog: CATALOG,
  search: { maxPerSearch: 3 },
};

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const sorted = (list) => [...(list ?? [])].sort();

// One run: each step a turn of its own (call 0). Steps: ['search', query],
// ['call', tool], ['failed', tool] (the tool is called, then the host
// reports the call failed). Returns the journal's JSON Lines.
function runSession(client, steps) {
  const s = ts.createSession(CONFIG, { client });
  try {
    steps.forEach(([kind, what], turn) => {
      if (kind === 'search') s.call(turn, 0, 'search_tools', { query: what });
      else {
        const out = s.call(turn, 0, what, {});
        assert.equal(out.result?.error, undefined, `the session allowed the call to ${what}`);
        if (kind === 'failed') s.callFailed(turn, 0, what);
      }
    });
    return s.journalJSONL();
  } finally {
    s.free();
  }
}

// A user asks for rain in words the weather tool lacks; the model's first
// search finds nothing, a second one in the tool's words loads it, and the
// model calls it. The city changes per run, so only rain and tomorrow recur.
const rainRun = (client, city, called = 'call') =>
  runSession(client, [
    ['search', `will it rain tomorrow in ${city}`],
    ['search', 'weather forecast'],
    [called, WEATHER],
  ]);

function learn(journals, options, examples = []) {
  const l = ts.createLearner(CATALOG_TEXT, options);
  try {
    journals.forEach((j, i) => l.addJournal(`run-${i}.jsonl`, j));
    examples.forEach((e, i) => l.addExamples(`examples-${i}.jsonl`, e));
    return l.finishJSON();
  } finally {
    l.free();
  }
}

const throwsCode = (fn, code, message) =>
  assert.throws(fn, (e) => {
    assert.ok(e instanceof ToolsiftError, `a ToolsiftError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });

// Four runs: alice twice, bob, carol (4 sessions, 3 clients).
const JOURNALS = [rainRun('alice', 'Lyon'), rainRun('bob', 'Oslo'), rainRun('carol', 'Rome'), rainRun('alice', 'Paris')];
const LEARNED_TEXT = learn(JOURNALS);
const LEARNED = JSON.parse(LEARNED_TEXT);

test('the fixture: the weather tool lacks the words its users ask in, so a plain index finds nothing', () => {
  const weather = CATALOG.tools.find((t) => t.id === WEATHER);
  for (const word of ['rain', 'tomorrow']) assert.ok(!JSON.stringify(weather).toLowerCase().includes(word));
  const ix = ts.createIndex(CATALOG_TEXT);
  try {
    assert.deepEqual(ix.search('will it rain tomorrow').hits, []);
    assert.equal(ix.search('weather forecast').hits[0].id, WEATHER);
  } finally {
    ix.free();
  }
});

test('sessions record their client and calls in the journal', () => {
  const records = JOURNALS[0].trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.equal(records[0].source, 'toolsift-journal');
  assert.equal(records[0].value.client, 'alice');
  assert.deepEqual(records.map((r) => r.source),
    ['toolsift-journal', 'agent-tool-search', 'agent-tool-search', 'agent-tool-call']);
  assert.equal(records[3].id, 'learn-test#turn:2:tool:0:call');
  assert.deepEqual(records[3].value, { tool: WEATHER });
  assert.deepEqual(records[2].value.loaded, [WEATHER]);
  assert.deepEqual(records[1].value.results, []);
});

test('runs of several clients teach a tool the words its users asked for', () => {
  assert.deepEqual(Object.keys(LEARNED.annotations), [WEATHER]);
  assert.deepEqual(sorted(LEARNED.annotations[WEATHER].tags), ['rain', 'tomorrow']);
  assert.deepEqual(LEARNED.annotations[WEATHER].aliases, ['rain tomorrow']);
  // Every run taught each label; alice's two runs count twice (under maxPerClient 3).
  for (const label of ['rain', 'tomorrow', 'rain tomorrow']) {
    assert.deepEqual(LEARNED.evidence[WEATHER][label], { sessions: 4, clients: 3, examples: 0, against: 0, share: 1 });
  }
  const { learned } = LEARNED;
  assert.deepEqual([learned.journals, learned.skipped, learned.sessions, learned.clients, learned.examples], [4, 0, 4, 3, 0]);
  assert.deepEqual(learned.rule, { minSessions: 3, minClients: 2, maxPerClient: 3, minShare: 0.1, minExamples: 1 });
  // The catalog's fingerprint, as an index over it reports it.
  const ix = ts.createIndex(CATALOG_TEXT);
  try {
    assert.equal(learned.catalog, ix.info().fingerprint);
  } finally {
    ix.free();
  }
});

test('a call the host reported failed does not count', () => {
  const failed = rainRun('carol', 'Rome', 'failed');
  const records = failed.trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(records.slice(-2).map((r) => [r.source, r.value.tool]),
    [['agent-tool-call', WEATHER], ['agent-tool-call-failed', WEATHER]]);
  // Three runs of three clients, one failed: two sessions, under minSessions 3.
  const without = JSON.parse(learn([JOURNALS[0], JOURNALS[1], failed]));
  assert.deepEqual(without.annotations, {});
  assert.equal(without.learned.sessions, 3);
  // The same three runs with the call going through: three sessions, learned.
  const withCall = JSON.parse(learn([JOURNALS[0], JOURNALS[1], JOURNALS[2]]));
  assert.deepEqual(sorted(withCall.annotations[WEATHER]?.tags), ['rain', 'tomorrow']);
  assert.equal(withCall.evidence[WEATHER].rain.sessions, 3);
  // Reporting the same call again records nothing; a call the session never allowed is refused.
  const s = ts.createSession(CONFIG, { client: 'dave' });
  try {
    s.call(0, 0, 'search_tools', { query: 'weather forecast' });
    s.call(1, 0, WEATHER, {});
    s.callFailed(1, 0, WEATHER);
    const n = s.journal().length;
    s.callFailed(1, 0, WEATHER);
    assert.equal(s.journal().length, n);
    throwsCode(() => s.callFailed(7, 0, WEATHER), 'arg');
  } finally {
    s.free();
  }
});

test('the same evidence in another order gives the same bytes', () => {
  const examples = [
    '{"query":"ping the team","relevance":{"chat__post_message":3}}\n',
    '{"query":"do I need an umbrella tomorrow","relevance":{"weather__get_forecast":2,"maps__get_directions":1}}\n',
  ];
  const forward = learn(JOURNALS, undefined, examples);
  const reversed = learn([...JOURNALS].reverse(), undefined, [...examples].reverse());
  assert.equal(reversed, forward);
  // Interleaved: examples before journals.
  const l = ts.createLearner(CATALOG_TEXT);
  try {
    l.addExamples('b', examples[1]);
    l.addJournal('x', JOURNALS[2]);
    l.addJournal('y', JOURNALS[0]);
    l.addExamples('a', examples[0]);
    l.addJournal('z', JOURNALS[3]);
    l.addJournal('w', JOURNALS[1]);
    assert.equal(l.finishJSON(), forward);
  } finally {
    l.free();
  }
  // One example is enough: it teaches its request's words to the tool of its top grade only.
  const parsed = JSON.parse(forward);
  assert.deepEqual(sorted(parsed.annotations[CHAT].tags), ['ping', 'team']);
  assert.ok(parsed.annotations[WEATHER].tags.includes('umbrella'));
  assert.equal(parsed.annotations.maps__get_directions, undefined);
  assert.equal(parsed.evidence[WEATHER].tomorrow.examples, 1);
  assert.equal(parsed.learned.examples, 2);
});

test('one client repeating a request in many sessions teaches nothing', () => {
  const mallory = Array.from({ length: 6 }, () => rainRun('mallory', 'Lyon'));
  const learned = JSON.parse(learn(mallory));
  assert.deepEqual(learned.annotations, {});
  assert.deepEqual(learned.evidence, {});
  assert.equal(learned.learned.sessions, 6);
  assert.equal(learned.learned.clients, 1);
  // With one client allowed, its six sessions count for three (maxPerClient).
  const one = JSON.parse(learn(mallory, { minClients: 1 }));
  assert.deepEqual(one.evidence[WEATHER].rain, { sessions: 3, clients: 1, examples: 0, against: 0, share: 1 });
  // And the same words from two more clients are not enough without mallory's weight…
  const two = JSON.parse(learn([rainRun('x', 'Nice'), rainRun('y', 'Metz')]));
  assert.deepEqual(two.annotations, {});
  // …but with mallory's (capped) sessions the rule is met by three clients.
  const all = JSON.parse(learn([...mallory, rainRun('x', 'Nice'), rainRun('y', 'Metz')]));
  assert.deepEqual(all.evidence[WEATHER].rain, { sessions: 5, clients: 3, examples: 0, against: 0, share: 1 });
});

test('a journal with an edited line is refused (tampered), or skipped and counted', () => {
  const lines = JOURNALS[1].trimEnd().split('\n');
  assert.ok(lines[1].includes('will it rain tomorrow'));
  lines[1] = lines[1].replace('will it rain tomorrow', 'will it snow tomorrow');
  const edited = lines.join('\n') + '\n';
  const l = ts.createLearner(CATALOG_TEXT);
  try {
    throwsCode(() => l.addJournal('edited.jsonl', edited), 'tampered', /journal edited\.jsonl: line 2: chain broken/);
    // Nothing of it was added: the three other runs alone.
    for (const j of [JOURNALS[0], JOURNALS[2], JOURNALS[3]]) l.addJournal('ok', j);
    const out = l.finish();
    assert.equal(out.learned.sessions, 3);
    assert.equal(out.evidence[WEATHER].rain.clients, 2);
    assert.equal(out.annotations[WEATHER].tags.includes('snow'), false);
  } finally {
    l.free();
  }
  const skipped = JSON.parse(learn([edited, JOURNALS[0], JOURNALS[2], JOURNALS[3]], { unverified: 'skip' }));
  assert.equal(skipped.learned.skipped, 1);
  assert.equal(skipped.learned.journals, 4);
  assert.equal(skipped.learned.sessions, 3);
  assert.equal(skipped.evidence[WEATHER].snow, undefined);
  // Accepted, its words count like any run's.
  const accepted = JSON.parse(learn([edited, JOURNALS[0], JOURNALS[2], JOURNALS[3]], { unverified: 'accept' }));
  assert.equal(accepted.learned.skipped, 0);
  assert.equal(accepted.learned.sessions, 4);
  assert.equal(accepted.evidence[WEATHER].rain.sessions, 3);
  assert.equal(accepted.evidence[WEATHER].tomorrow.sessions, 4);
});

test('an examples line naming a tool the catalog lacks throws config naming the file and line', () => {
  const l = ts.createLearner(CATALOG_TEXT);
  try {
    const text = '{"query":"ping the team","relevance":{"chat__post_message":3}}\n\n' +
      '{"query":"rain tomorrow","relevance":{"weather__get_forecast":3,"weather__nope":1}}\n';
    throwsCode(() => l.addExamples('mine.jsonl', text), 'config',
      /^examples mine\.jsonl line 3: relevance: no tool "weather__nope" in the catalog$/);
    // A file is taken whole or not at all: the good line before the bad one
    // is not added either.
    const out = l.finish();
    assert.equal(out.learned.examples, 0);
    assert.equal(out.annotations[CHAT], undefined);
    assert.equal(out.annotations[WEATHER], undefined);
    throwsCode(() => l.addExamples('bad.jsonl', '{"query":"x","relevance":{"chat__post_message":3}'), 'json',
      /^examples bad\.jsonl line 1: /);
  } finally {
    l.free();
  }
});

test('an index with the learned vocabulary finds the tool by the learned words; info shows its digest', () => {
  const plain = ts.createIndex(CATALOG_TEXT);
  const ix = ts.createIndex(CATALOG_TEXT, { annotations: LEARNED_TEXT });
  try {
    const hits = ix.search('will it rain tomorrow').hits;
    assert.equal(hits[0].id, WEATHER);
    assert.deepEqual(hits[0].matched, ['rain', 'tomorrow']);
    assert.deepEqual(plain.search('will it rain tomorrow').hits, []);
    const info = ix.info();
    assert.match(info.vocabulary.digest, /^[0-9a-f]{64}$/);
    assert.equal(info.vocabulary.unknownTools, 0);
    assert.equal(plain.info().vocabulary, undefined);
    assert.notEqual(info.fingerprint, plain.info().fingerprint);
    // The digest is of the vocabulary's canonical form: reformatting the file changes nothing.
    const pretty = ts.createIndex(CATALOG_TEXT, { annotations: JSON.stringify(LEARNED, null, 2) });
    try {
      assert.equal(pretty.info().vocabulary.digest, info.vocabulary.digest);
    } finally {
      pretty.free();
    }
    // A session with the vocabulary records its digest in the journal header.
    const s = ts.createSession(CONFIG, { annotations: LEARNED_TEXT, client: 'erin' });
    try {
      assert.equal(s.call(0, 0, 'search_tools', { query: 'will it rain tomorrow' }).result.tools[0].name, WEATHER);
      const header = s.journal()[0];
      assert.equal(header.value.vocabulary, info.vocabulary.digest);
      assert.equal(header.value.client, 'erin');
    } finally {
      s.free();
    }
  } finally {
    ix.free();
    plain.free();
  }
  // The host's own vocabulary (ASCII, whitespace, an id no tool has): its
  // digest is the sha256 of the compact JSON in document order.
  const host = '{ "annotations" : {\n  "maps__get_directions": { "tags": ["route"], "aliases": ["how do I drive"] },\n' +
    '  "nope__tool": { "tags": ["ghost"] } } }\n';
  const hix = ts.createIndex(CATALOG_TEXT, { annotations: host });
  const oix = ts.createIndex(CATALOG_TEXT, { annotations: JSON.parse(host) });
  try {
    assert.deepEqual(hix.info().vocabulary, { digest: sha256(JSON.stringify(JSON.parse(host))), unknownTools: 1 });
    assert.equal(oix.info().vocabulary.digest, hix.info().vocabulary.digest);
    assert.equal(hix.search('route').hits[0].id, 'maps__get_directions');
  } finally {
    hix.free();
    oix.free();
  }
  // A vocabulary the core cannot read is the index's config error.
  throwsCode(() => ts.createIndex(CATALOG_TEXT, { annotations: `{"annotations":{"${WEATHER}":{"tags":"rain"}}}` }), 'config',
    /annotations\["weather__get_forecast"\]/);
  throwsCode(() => ts.createIndex(CATALOG_TEXT, { annotations: '{"annotations":{"x":' }), 'json');
});

test('learnDiff: what a new vocabulary adds and removes, with the evidence of the file that has each label', () => {
  const previous = { annotations: { [WEATHER]: { tags: ['umbrella', 'Rain'] }, [CHAT]: { aliases: ['ping team'] } } };
  const diff = ts.learnDiff(previous, LEARNED_TEXT);
  const evidence = { sessions: 4, clients: 3, examples: 0, against: 0, share: 1 };
  assert.deepEqual(diff, {
    tools: [
      { id: CHAT, removed: [{ label: 'ping team', list: 'aliases' }] },
      {
        id: WEATHER,
        added: [{ label: 'rain tomorrow', list: 'aliases', ...evidence }, { label: 'tomorrow', list: 'tags', ...evidence }],
        removed: [{ label: 'umbrella', list: 'tags' }],
      },
    ],
    toolsChanged: 2,
    added: 2,
    removed: 2,
  });
  assert.deepEqual(JSON.parse(ts.learnDiffJSON(previous, LEARNED_TEXT)), diff);
  assert.deepEqual(ts.learnDiff(LEARNED_TEXT, new TextEncoder().encode(LEARNED_TEXT)),
    { tools: [], toolsChanged: 0, added: 0, removed: 0 });
  throwsCode(() => ts.learnDiff('{"annotations":', LEARNED_TEXT), 'json', /the old vocabulary/);
});

test('a Learner is freed once; afterwards it throws state', () => {
  const l = ts.createLearner(CATALOG);
  assert.ok(l instanceof Learner);
  assert.equal(l.freed, false);
  l.free();
  assert.equal(l.freed, true);
  l.free();
  throwsCode(() => l.addJournal('j', JOURNALS[0]), 'state');
  throwsCode(() => l.addExamples('e', ''), 'state');
  throwsCode(() => l.finishJSON(), 'state');
});

test('createLearner with a bad option throws config (json for malformed text)', () => {
  throwsCode(() => ts.createLearner(CATALOG, { minSessions: 0 }), 'config', /minSessions/);
  throwsCode(() => ts.createLearner(CATALOG, { minShare: 1.5 }), 'config', /minShare/);
  throwsCode(() => ts.createLearner(CATALOG, { unverified: 'maybe' }), 'config', /unverified/);
  throwsCode(() => ts.createLearner(CATALOG, { minSession: 3 }), 'config', /unknown key "minSession"/);
  throwsCode(() => ts.createLearner(CATALOG, { index: { annotations: {} } }), 'config', /annotations/);
  throwsCode(() => ts.createLearner(CATALOG, { journalKey: 'not hex' }), 'config', /journalKey/);
  throwsCode(() => ts.createLearner(CATALOG, '{"minShare":'), 'json');
  throwsCode(() => ts.createSession(CONFIG, { client: '' }), 'config', /client/);
  // A good one, as text, is read like the object.
  const a = ts.createLearner(CATALOG, '{"minSessions":2,"minClients":1}');
  const b = ts.createLearner(CATALOG, { minSessions: 2, minClients: 1 });
  try {
    for (const l of [a, b]) l.addJournal('j', JOURNALS[0]);
    assert.equal(a.finishJSON(), b.finishJSON());
    assert.deepEqual(a.finish().learned.rule, { minSessions: 2, minClients: 1, maxPerClient: 3, minShare: 0.1, minExamples: 1 });
  } finally {
    a.free();
    b.free();
  }
});

test('a keyed journal needs the key to be evidence', () => {
  const key = 'ab'.repeat(32);
  const s = ts.createSession(CONFIG, { client: 'kim', journalKey: key });
  let journal;
  try {
    s.call(0, 0, 'search_tools', { query: 'will it rain tomorrow' });
    s.call(1, 0, 'search_tools', { query: 'weather forecast' });
    s.call(2, 0, WEATHER, {});
    journal = s.journalJSONL();
  } finally {
    s.free();
  }
  const without = ts.createLearner(CATALOG);
  const withKey = ts.createLearner(CATALOG, { journalKey: key });
  const withBytes = ts.createLearner(CATALOG, { journalKey: new Uint8Array(32).fill(0xab) });
  try {
    throwsCode(() => without.addJournal('keyed', journal), 'tampered', /cannot be verified/);
    withKey.addJournal('keyed', journal);
    withBytes.addJournal('keyed', journal);
    assert.equal(withKey.finish().learned.sessions, 1);
    assert.equal(withBytes.finishJSON(), withKey.finishJSON());
    // An unkeyed journal is no evidence for a learner that expects keys.
    throwsCode(() => withKey.addJournal('unkeyed', JOURNALS[0]), 'tampered');
  } finally {
    without.free();
    withKey.free();
    withBytes.free();
  }
});
