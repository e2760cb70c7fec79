// model.test.mjs — the playground's page-free logic (playground/lib/model.mjs)
// in Node against the wasm module: input errors that say what and where,
// the replay judge, replaying the example journals, and the examples being
// exactly what make-examples.mjs records with the current binding.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../js/toolsift.js';
import * as M from '../../playground/lib/model.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = process.env.TOOLSIFT_WASM || path.join(ROOT, 'build/wasm/toolsift.wasm');
const toolsift = await load(WASM);
const bundled = JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8'));
const example = (f) => JSON.parse(readFileSync(path.join(ROOT, 'playground/examples', f), 'utf8'));
const trustOf = (() => {
  const ix = toolsift.createIndex(bundled);
  const map = new Map(ix.documents().tools.map((t) => [t.id, t.trust]));
  ix.free();
  return (id) => map.get(id);
})();

test('JSON errors name the input and the line and column', () => {
  assert.throws(() => M.parseJSON('{"a": [1,\n 2,, 3]}', 'catalog'), /^InputError: catalog: not valid JSON at line 2, column 4/);
  assert.throws(() => M.parseJSON('  ', 'catalog'), /catalog: empty input/);
  for (const [text, at] of [['{"a":1}x', 7], ['[1,2', 4], ['{"a":"\\q"}', 6], ['[-]', 1], ['{"a" 1}', 5], ['tru', 0]]) {
    assert.equal(M.jsonErrorOffset(text), at, text);
  }
  for (const ok of ['{}', '[]', '"x"', '-0.5e+3', '{"a":[true,false,null,{"b":"\\u00e9"}]}']) {
    assert.equal(M.jsonErrorOffset(ok), -1, ok);
  }
});

test('catalog and journal shapes: clear errors', () => {
  assert.throws(() => M.readCatalog('{"tool": []}'), /catalog: expected \{"tools": \[\.\.\.\]\}.*keys tool/);
  assert.throws(() => M.readCatalog('42'), /got number/);
  assert.equal(M.catalogTools(M.readCatalog('{"tools": [], "nextCursor": "x"}')).length, 0, 'an MCP tools/list result');
  assert.throws(() => M.readCatalog('{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}'), /JSON-RPC response: paste its "result"/);
  assert.throws(() => M.readJournal('{"id":"a#turn:0:tool:0:search","source":"s","value":{}}\n{"id":7}'), /journal: line 2: the decision has no string "id"/);
  assert.throws(() => M.readJournal('{"id":"nope","source":"s","value":{}}\n'), /line 1: id "nope" is not <loop>#turn/);
  assert.throws(() => M.readJournal('{"id":"a#turn:0:tool:0:search","source":"s","value":{}}\n{oops'), /journal: line 2 is not valid JSON at column 2/);
  assert.throws(() => M.readJournal('{"journal": {}}'), /recording: "journal" must be an array/);
  assert.throws(() => M.readJournal('{"format": "x", "journal": []}'), /recording: unknown format "x"/);
  assert.throws(() => M.readJournal('{"journal": [], "calls": [{"turn": -1, "call": 0, "tool": "t"}]}'), /calls\[0\]: "turn" must be a non-negative integer/);
  assert.throws(() => M.readJournal('{"x": 1}'), /expected JSON Lines of decisions/);
  const jsonl = M.readJournal('{"id":"a#turn:0:tool:0:search","source":"s","value":{}}\n\n');
  assert.equal(jsonl.kind, 'journal');
  assert.equal(jsonl.decisions.length, 1);
  assert.deepEqual(M.parseDecisionId('my.loop#turn:3:tool:12:skill'), { loop: 'my.loop', turn: 3, call: 12, kind: 'skill' });
});

test('calls rebuilt from a bare journal: searches and skill activations', () => {
  const { calls, skipped } = M.callsFromJournal([
    { id: 'a#turn:0:tool:1:search', source: 'agent-tool-search', value: { query: 'q' } },
    { id: 'a#turn:1:tool:0:skill', source: 'agent-skill-activation', value: { skill: 'deploy', digest: 'x', bytes: 1, resultBytes: 2 } },
    { id: 'a#turn:2:tool:0:other', source: 'x', value: {} },
  ], { search: { toolName: 'find' } });
  assert.deepEqual(calls, [
    { turn: 0, call: 1, tool: 'find', args: { query: 'q' } },
    { turn: 1, call: 0, tool: 'activate_skill', args: { name: 'deploy' } },
  ]);
  assert.deepEqual(skipped, ['a#turn:2:tool:0:other']);
});

test('judge: identical, narrowed with reasons, diverged', () => {
  const rec = { id: 'a#turn:0:tool:0:search', source: 'agent-tool-search', value: { ranker: 'r', query: 'q', results: ['x', 'y', 'f'], loaded: ['x', 'y', 'f'] } };
  assert.deepEqual(M.judge(rec, structuredClone(rec)), { verdict: 'identical' });
  const narrowed = M.judge(rec, { ...rec, value: { ...rec.value, results: ['x', 'y'], loaded: ['x'] } }, {
    warnings: ['replay: dropped "f": unknown'], caps: { maxLoaded: 1 }, metricsBefore: { loaded: 0 },
  });
  assert.equal(narrowed.verdict, 'narrowed');
  assert.deepEqual(narrowed.dropped, [
    { field: 'results', id: 'f', reason: 'unknown' },
    { field: 'loaded', id: 'y', reason: 'the live loading plan: maxLoaded (1) is full' },
    { field: 'loaded', id: 'f', reason: 'unknown' },
  ]);
  assert.equal(M.judge(rec, { ...rec, value: { ...rec.value, results: ['x', 'y', 'f', 'z'] } }).verdict, 'diverged', 'a grown array');
  assert.equal(M.judge(rec, { ...rec, value: { ...rec.value, results: ['y', 'x', 'f'] } }).verdict, 'diverged', 'a reordered array');
  assert.equal(M.judge(rec, { ...rec, value: { ...rec.value, query: 'other' } }).verdict, 'diverged', 'a changed query');
  assert.match(M.judge(rec, null, { why: 'never asked' }).why, /never asked/);
  const skill = { id: 'a#turn:1:tool:0:skill', source: 'agent-skill-activation', value: { skill: 's', digest: 'd1', bytes: 3, resultBytes: 9 } };
  assert.equal(M.judge(skill, { ...skill, value: { ...skill.value, digest: 'd2' } }).verdict, 'diverged');
});

test('the clean example replays identical, with the recorded menu', () => {
  const rec = example('support-desk.json');
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, journal: rec.journal, trustOf });
  assert.deepEqual(M.summarize(r.verdicts), { identical: rec.journal.length, narrowed: 0, diverged: 0 });
  assert.equal(r.metrics.rankerCalls, 0, 'replay never ranks');
  assert.equal(r.fingerprint, rec.fingerprint, 'the bundled catalog and configuration are the recorded ones');
  const loaded = rec.journal.flatMap((d) => d.value.loaded);
  assert.deepEqual(r.menu.map((t) => t.name).slice(-loaded.length), loaded, 'the menu ends with every loaded id, in order');
  assert.equal(r.steps.length, rec.calls.length);
  assert.ok(r.steps.some((s) => s.output?.result?.error === 'not_on_menu'));
});

test('the tampered example: only the documented decision is narrowed', () => {
  const rec = example('tampered.json');
  const clean = example('support-desk.json');
  assert.deepEqual(
    rec.journal.filter((d, i) => JSON.stringify(d) !== JSON.stringify(clean.journal[i])).map((d) => d.id),
    [rec.tampered.decision],
    'the tampered journal differs from the clean one in the documented decision only',
  );
  for (const calls of [rec.calls, undefined]) {
    const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls, journal: rec.journal, trustOf });
    const v = r.verdicts.find((x) => x.id === rec.tampered.decision);
    assert.equal(v.verdict, 'narrowed', calls ? 'with calls' : 'calls rebuilt from the journal');
    assert.ok(v.dropped.some((d) => d.id === 'admin__grant_root' && d.reason === 'unknown'));
    assert.equal(M.summarize(r.verdicts).identical, rec.journal.length - 1);
    assert.deepEqual(r.verdicts.find((x) => x.id === rec.tampered.decision).replayed, clean.journal.find((d) => d.id === rec.tampered.decision),
      'replay narrows the tampered decision back to what was recorded');
  }
});

test('malformed record fields are read as nothing: narrowed, with the session\'s warning', () => {
  const rec = example('support-desk.json');
  const journal = structuredClone(rec.journal);
  journal[0].value.results = 'zendesk__create_ticket';
  delete journal[2].value.loaded;
  journal[3].value.ranker = 'other';
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, journal, trustOf });
  const [v0, , v2, v3] = r.verdicts;
  assert.equal(v0.verdict, 'narrowed');
  assert.deepEqual(v0.dropped[0], { field: 'results', id: '"zendesk__create_ticket"', reason: 'value.results is not an array' });
  assert.equal(v2.verdict, 'narrowed');
  assert.equal(v2.dropped[0].field, 'loaded');
  // The replay keeps the recorded ranker kind (the record's results are
  // what that ranker chose), so an edited kind is served as recorded.
  assert.equal(v3.verdict, 'identical');
  assert.equal(r.verdicts[3].replayed.value.ranker, 'other');
});

test('a decision the journal lacks and one never asked for are diverged', () => {
  const rec = example('support-desk.json');
  const journal = rec.journal.slice(1); // the first search has no record any more
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls.slice(0, 3), journal, trustOf });
  const extra = r.verdicts.find((v) => v.recorded === null);
  assert.equal(extra.verdict, 'diverged');
  assert.match(extra.why, /ranked live/);
  const unasked = r.verdicts.filter((v) => v.recorded && v.step === null);
  assert.ok(unasked.length >= 1 && unasked.every((v) => v.verdict === 'diverged'));
});

test('a skill activation the session does not serve: diverged, shown at its call', () => {
  // A synthetic record (not session output): with no skills configured,
  // activate_skill is not on the menu, so replay cannot serve it.
  const rec = example('support-desk.json');
  const skill = {
    id: 'support#turn:0:tool:1:skill', source: 'agent-skill-activation',
    value: { skill: 'incident-response', digest: 'ab'.repeat(32), bytes: 120, resultBytes: 300 },
  };
  const journal = [rec.journal[0], skill];
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, journal, trustOf });
  assert.deepEqual(r.steps.map((s) => s.call.tool), ['search_tools', 'activate_skill']);
  assert.equal(r.steps[1].output.result.error, 'not_on_menu');
  const v = r.verdicts.find((x) => x.id === skill.id);
  assert.equal(v.verdict, 'diverged');
  assert.equal(v.at, 1, 'attached to the call at its turn and call index');
  assert.equal(r.steps[1].verdict, v);
  assert.equal(r.verdicts[0].verdict, 'identical');
});

test('authority check after an edit, and the live re-ranking', () => {
  const trust = { a: 'first-party', b: 'tainted', 'ns__c': 'first-party' };
  const check = M.authorityCheck({
    before: ['search_tools', 'a'], after: ['search_tools', 'a', 'ns__c', 'b', 'zz'],
    config: { search: { namespaces: ['ns__'], maxLoaded: 2 } }, trustOf: (id) => trust[id],
    metrics: { loaded: 3, searches: 1, menuChars: 0 },
  });
  assert.deepEqual(check.added, ['ns__c', 'b', 'zz']);
  assert.deepEqual(check.violations, [
    'b is tainted', 'b is outside the namespaces', 'zz is not in the catalog', 'zz is outside the namespaces', 'loaded 3 > maxLoaded 2',
  ]);
  assert.deepEqual(M.authorityCheck({ before: ['x', 'y'], after: ['x'], config: {}, trustOf: () => 'first-party' }),
    { added: [], removed: ['y'], violations: [] });

  const rec = example('tampered.json');
  const live = M.rerankRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, journal: rec.journal });
  for (const d of rec.journal) {
    assert.equal(M.rerankVerdict(d, live.get(d.id)), d.id === rec.tampered.decision ? 'differs' : 'same', d.id);
  }
  assert.equal(M.rerankVerdict(rec.journal[0], undefined), 'none');
});

test('the graded example: a miss, strong and partial hits, select: with an unknown name — replays identical', () => {
  const rec = example('graded.json');
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, journal: rec.journal, trustOf });
  assert.deepEqual(M.summarize(r.verdicts), { identical: rec.journal.length, narrowed: 0, diverged: 0 });
  assert.equal(r.metrics.rankerCalls, 0);
  assert.equal(rec.journal[0].value.ranker, 'bm25f-6', 'recorded by the graded ranker');
  const pages = r.steps.map((s) => ({ tool: s.call.tool, page: M.pageView(s.output?.result, s.output?.decision, s.verdict?.recorded) }));
  const miss = pages[0].page;
  assert.equal(miss.loaded, 0, 'a miss loads nothing');
  assert.ok(miss.tools.length > 0 && miss.tools.every((t) => t.match === 'partial' && !t.loaded && t.matched.includes('send')));
  assert.ok(miss.unmatched.includes('fax'));
  assert.ok(miss.vocabulary.includes('sms'), `the vocabulary offers the catalog's words: ${miss.vocabulary}`);
  assert.match(miss.note, /none was loaded/);
  const sms = pages[1].page;
  assert.ok(sms.loaded >= 1 && sms.listed >= 1, 'strong hits loaded, partial ones listed');
  for (const t of sms.tools) assert.equal(t.loaded, t.match === 'strong', `${t.name}: loaded follows the grade`);
  assert.equal(sms.grades.strong, sms.loaded);
  assert.equal(r.steps[4].output.result.error, 'not_on_menu', 'a listed partial hit cannot be called');
  const select = pages[5].page;
  assert.equal(select.select, true);
  assert.equal(select.ranker, 'select');
  assert.deepEqual(select.tools.map((t) => [t.name, t.match, t.loaded]), [['outlook__create_calendar_event', 'selected', true]]);
  assert.deepEqual(select.unknown, ['calendar__book_appointment']);
  assert.deepEqual(r.steps[5].added, ['outlook__create_calendar_event'], 'select: adds the tool to the menu');
  assert.equal(r.steps[6].output.result.allowed, true);
  assert.equal(M.pageView({ error: 'not_on_menu' }), null, 'a refusal is not a page');
});

test('judging graded records: per result, narrowed and never wider; a raised grade is the core\'s to admit', () => {
  const rec = example('graded.json');
  const run = (journal) => M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, journal, trustOf });
  const k = rec.journal.findIndex((d) => d.value.query === 'send an sms reminder');
  const partial = rec.journal[k].value.grades.indexOf('partial');
  assert.ok(partial > 0);
  const edit = (fn) => {
    const j = structuredClone(rec.journal);
    fn(j[k].value);
    return run(j).verdicts[k];
  };
  // A dropped result takes its grade and matched words with it: narrowed, not "reordered".
  let v = edit((val) => {
    val.results[0] = 'nope__x';
  });
  assert.equal(v.verdict, 'narrowed', v.why);
  assert.deepEqual(v.dropped.filter((d) => d.field === 'results'), [{ field: 'results', id: 'nope__x', reason: 'unknown' }]);
  // A grade the core cannot read is read as partial.
  v = edit((val) => {
    val.grades[0] = 'certain';
  });
  assert.equal(v.verdict, 'narrowed', v.why);
  assert.deepEqual(v.dropped.find((d) => d.field === 'grades'), { field: 'grades', id: rec.journal[k].value.results[0], reason: 'recorded grade "certain" read as partial' });
  assert.ok(v.dropped.some((d) => d.field === 'loaded' && d.id === rec.journal[k].value.results[0]), 'and a partial hit does not load');
  // Matched words that are not words of the query are dropped.
  v = edit((val) => {
    val.matched[partial] = ['password', ...val.matched[partial]];
  });
  assert.equal(v.verdict, 'narrowed', v.why);
  assert.match(v.dropped[0].id, /: "password"$/);
  assert.match(v.dropped[0].reason, /not a word of its query/);
  // Widening loaded over a partial hit: the live loading plan leaves it out.
  v = edit((val) => {
    val.loaded = [...val.results];
  });
  assert.equal(v.verdict, 'narrowed');
  assert.ok(v.dropped.every((d) => d.field === 'loaded' && /partial match/.test(d.reason)), JSON.stringify(v.dropped));
  // Raising a grade (partial -> strong, claimed loaded): an authorised record
  // is served as it is (SPEC S9) — identical, inside the live authority — and
  // only the live re-ranking tells it is not what the ranker chose.
  const j = structuredClone(rec.journal);
  j[k].value.grades[partial] = 'strong';
  j[k].value.loaded.push(j[k].value.results[partial]);
  const raised = run(j);
  const rv = raised.verdicts[k];
  assert.ok(['identical', 'narrowed'].includes(rv.verdict), rv.verdict);
  const clean = run(rec.journal);
  const check = M.authorityCheck({ before: clean.menu.map((t) => t.name), after: raised.menu.map((t) => t.name), config: rec.config, trustOf, metrics: raised.metrics });
  assert.deepEqual(check.violations, []);
  const live = M.rerankRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, journal: j });
  assert.deepEqual(M.rerankDiff(j[k], live.get(j[k].id)), ['loaded', 'grades']);
  assert.equal(M.rerankVerdict(rec.journal[k], live.get(j[k].id)), 'same');
});

test('the analysed query and the explain rows of a graded search', () => {
  const ix = toolsift.createIndex(bundled);
  try {
    const r = ix.search('send a slack mesage', { limit: 5, explain: true });
    const v = M.queryView(r);
    assert.deepEqual(v.tokens.find((t) => t.text === 'a'), { text: 'a', kind: 'stop' });
    const corrections = r.analysis.corrections;
    assert.ok(corrections.length >= 1, 'the core corrected the typo');
    assert.deepEqual(v.corrections, corrections);
    const typo = v.words.find((w) => w.word === corrections[0][0]);
    assert.equal(typo.correction, corrections[0][1]);
    assert.deepEqual(v.words.map((w) => w.word), Object.keys(r.analysis.evidence), 'one word per evidence entry, in order');
    assert.equal(v.maxEvidence, Math.max(...Object.values(r.analysis.evidence)));
    const counts = M.gradeCounts(r.hits);
    assert.ok(counts.strong >= 1 && counts.partial >= 1, JSON.stringify(counts));
    const rows = M.termRows(r.terms, r.hits[0].explain.terms, corrections);
    assert.ok(rows.some((row) => row.kind === 'typo' && row.term === corrections[0][0]), 'the corrected term is marked as a typo');
    const partialHit = r.hits.find((x) => x.match === 'partial');
    assert.ok(M.termRows(r.terms, partialHit.explain.terms, corrections).some((row) => row.entry === null), 'a partial hit misses a term');

    const miss = M.queryView(ix.search('send the xyzzy message', { explain: true }));
    assert.deepEqual(miss.words.find((w) => w.word === 'xyzzy'), { word: 'xyzzy', evidence: ix.search('send the xyzzy message', { explain: true }).analysis.evidence.xyzzy, unmatched: true, correction: null });
    assert.deepEqual(miss.tokens.find((t) => t.text === 'xyzzy'), { text: 'xyzzy', kind: 'unmatched' });
  } finally {
    ix.free();
  }
});

test('the search meta-tool\'s description with the catalog overview', () => {
  const open = (search) => {
    const s = toolsift.createSession({ catalog: bundled, search });
    try {
      return M.metaToolText(M.startOf(s).specs, { search });
    } finally {
      s.free();
    }
  };
  const meta = open({});
  assert.equal(meta.name, 'search_tools');
  assert.match(meta.instructions, /select:/);
  assert.match(meta.overview, /^The catalog has \d+ tools in \d+ groups: /);
  assert.equal(meta.description, `${meta.instructions}\n\n${meta.overview}`);
  assert.equal(open({ overview: false }).overview, '');
  assert.equal(open({ overview: 'Clinic tools: sms, calendar.', toolName: 'find' }).overview, 'Clinic tools: sms, calendar.');
  assert.equal(M.metaToolText([], {}), null);
});

test('hash encoding round-trips UTF-8', () => {
  const s = '{"q": "Straße 😀"}';
  assert.equal(M.fromBase64Url(M.toBase64Url(s), 'x'), s);
  assert.throws(() => M.fromBase64Url('!!!', 'catalog in the link'), /catalog in the link: the link carries data/);
});

test('the examples are what make-examples.mjs records with this binding', () => {
  assert.ok(existsSync(path.join(ROOT, 'playground/examples/index.json')));
  const r = spawnSync(process.execPath, [path.join(ROOT, 'playground/examples/make-examples.mjs'), '--check'], {
    encoding: 'utf8', env: { ...process.env, TOOLSIFT_WASM: WASM },
  });
  assert.equal(r.status, 0, `examples out of date: run node playground/examples/make-examples.mjs\n${r.stdout}${r.stderr}`);
});
