// model.test.mjs — the playground's page-free logic (playground/lib/model.mjs)
// in Node against the wasm module: input errors that say what and where,
// the replay judge, replaying the example journals (their call records and
// the vocabulary they ran under), the views of a learned vocabulary
// (playground/lib/vocabulary.mjs), the examples being exactly what
// make-examples.mjs records with the current binding, the first view's
// example requests (each still gets the outcome it is offered for: strong,
// partial, miss) and what a new session answers to them, and the hover help
// (every definition quoted from docs/glossary.md) and counted nouns;
// pre-search decisions (their ids, journals holding them, the calls rebuilt,
// replayed identical with the binding's page, a tampered one narrowed) and
// auto mode (a mode all journal header, the replayed menu without
// search_tools, the header problem when replayed without auto mode).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../js/toolsift.js';
import * as M from '../../playground/lib/model.mjs';
import * as Bar from '../../playground/lib/score-bar.mjs';
import * as W from '../../playground/lib/replay-words.mjs';
import * as V from '../../playground/lib/vocabulary.mjs';
import * as G from '../../playground/lib/glossary.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = process.env.TOOLSIFT_WASM || path.join(ROOT, 'build/wasm/toolsift.wasm');
const toolsift = await load(WASM);
const bundled = JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8'));
// An example as the page reads it: the recording, its journal's chain
// header apart (`header`) and `journal` the records after it (decisions and
// call records, in the journal's order).
const example = (f) => {
  const parsed = M.readJournal(readFileSync(path.join(ROOT, 'playground/examples', f), 'utf8'));
  assert.equal(parsed.kind, 'recording', f);
  return { ...parsed.recording, header: parsed.header, journal: parsed.records };
};
/** The search and skill decisions of an example's journal (its call records left out), by source. */
const decisions = (rec) => rec.journal.filter((d) => d.source === 'agent-tool-search' || d.source === 'agent-skill-activation');
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
  assert.equal(jsonl.records.length, 1);
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
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, header: rec.header, journal: rec.journal, trustOf });
  assert.deepEqual(M.summarize(r.verdicts), { identical: decisions(rec).length, narrowed: 0, diverged: 0 });
  assert.equal(r.metrics.rankerCalls, 0, 'replay never ranks');
  assert.equal(r.fingerprint, rec.fingerprint, 'the bundled catalog and configuration are the recorded ones');
  const loaded = decisions(rec).flatMap((d) => d.value.loaded);
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
    const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls, header: rec.header, journal: rec.journal, trustOf });
    const v = r.verdicts.find((x) => x.id === rec.tampered.decision);
    assert.equal(v.verdict, 'narrowed', calls ? 'with calls' : 'calls rebuilt from the journal');
    assert.ok(v.dropped.some((d) => d.id === 'admin__grant_root' && d.reason === 'unknown'));
    assert.equal(M.summarize(r.verdicts).identical, decisions(rec).length - 1);
    assert.deepEqual(r.verdicts.find((x) => x.id === rec.tampered.decision).replayed, M.withoutChain(clean.journal.find((d) => d.id === rec.tampered.decision)),
      'replay narrows the tampered decision back to what was recorded');
  }
});

test('malformed record fields are read as nothing: narrowed, with the session\'s warning', () => {
  const rec = example('support-desk.json');
  const journal = structuredClone(rec.journal);
  // The journal's places of the first, third and fourth decisions (call records between them).
  const at = journal.flatMap((d, k) => (M.isCallRecord(d) ? [] : [k]));
  journal[at[0]].value.results = 'zendesk__create_ticket';
  delete journal[at[2]].value.loaded;
  journal[at[3]].value.ranker = 'other';
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, header: rec.header, journal, trustOf });
  const [v0, , v2, v3] = r.verdicts;
  assert.equal(v0.verdict, 'narrowed');
  assert.deepEqual(v0.dropped[0], { field: 'results', id: '"zendesk__create_ticket"', reason: 'value.results is not an array' });
  assert.equal(v2.verdict, 'narrowed');
  assert.equal(v2.dropped[0].field, 'loaded');
  // The replay keeps the recorded ranker kind (the record's results are
  // what that ranker chose), so an edited kind is served as recorded.
  assert.equal(v3.verdict, 'identical');
  assert.equal(v3.replayed.value.ranker, 'other');
});

test('a decision the journal lacks and one never asked for are diverged', () => {
  const rec = example('support-desk.json');
  const journal = rec.journal.slice(1); // the first search has no record any more
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls.slice(0, 3), header: rec.header, journal, trustOf });
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
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, header: rec.header, journal, trustOf });
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
  for (const d of decisions(rec)) {
    assert.equal(M.rerankVerdict(d, live.get(d.id)), d.id === rec.tampered.decision ? 'differs' : 'same', d.id);
  }
  assert.equal(M.rerankVerdict(rec.journal[0], undefined), 'none');
});

test('the graded example: a miss, strong and partial hits, select: with an unknown name — replays identical', () => {
  const rec = example('graded.json');
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, header: rec.header, journal: rec.journal, trustOf });
  assert.deepEqual(M.summarize(r.verdicts), { identical: decisions(rec).length, narrowed: 0, diverged: 0 });
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
  const run = (journal) => M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, header: rec.header, journal, trustOf });
  const k = rec.journal.findIndex((d) => d.value.query === 'send an sms reminder');
  const partial = rec.journal[k].value.grades.indexOf('partial');
  assert.ok(partial > 0);
  // The verdict of the record at journal place k (verdicts are the decisions').
  const verdictAt = (r) => r.verdicts.find((v) => v.index === k);
  const edit = (fn) => {
    const j = structuredClone(rec.journal);
    fn(j[k].value);
    return verdictAt(run(j));
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
  const rv = verdictAt(raised);
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

// ---- the journal's hash chain ------------------------------------------------

const jsonl = (records) => records.map((d) => `${JSON.stringify(d)}\n`).join('');

test('readJournal keeps a chained journal\'s header apart from its decisions', () => {
  const raw = JSON.parse(readFileSync(path.join(ROOT, 'playground/examples/support-desk.json'), 'utf8')).journal;
  assert.equal(raw[0].source, M.JOURNAL_HEADER_SOURCE, 'the recording stores the journal as the session wrote it: header first');
  assert.equal(raw[0].id, 'support#journal');
  for (const [what, text] of [['JSON Lines', jsonl(raw)], ['a JSON array', JSON.stringify(raw)]]) {
    const parsed = M.readJournal(text);
    assert.equal(parsed.kind, 'journal', what);
    assert.deepEqual(parsed.header, raw[0], what);
    assert.deepEqual(parsed.records, raw.slice(1), `${what}: the records, numbered without the header`);
  }
  const rec = M.readJournal(readFileSync(path.join(ROOT, 'playground/examples/support-desk.json'), 'utf8'));
  assert.deepEqual(rec.header, raw[0]);
  assert.deepEqual(rec.records.map((d) => d.id), raw.slice(1).map((d) => d.id));
  // A journal written before journals were chained has no header.
  const old = M.readJournal(jsonl(raw.slice(1).map(M.withoutChain)));
  assert.equal(old.header, null);
  assert.equal(old.records.length, raw.length - 1);
  // A header anywhere but first, or a header without its id: said so.
  assert.throws(() => M.readJournal(jsonl([raw[1], raw[0]])), /journal: line 2: a journal header \(source "toolsift-journal"\) can only be the first record/);
  assert.throws(() => M.readJournal(JSON.stringify([{ ...raw[0], id: 'support' }, raw[1]])), /journal: record 1: the journal header has no id "<loop>#journal"/);
  assert.deepEqual(M.journalRecords(rec.header, rec.records), raw);
  assert.deepEqual(M.journalRecords(null, rec.records), raw.slice(1));
});

test('replay passes the header back: the core verifies the chain (intact, broken at N, header problems, no chain)', () => {
  const clean = example('support-desk.json');
  const run = (journal, extra = {}) => M.replayRun(toolsift, {
    config: { ...clean.config, catalog: bundled }, calls: clean.calls, header: clean.header, journal, trustOf, ...extra,
  });
  const intact = run(clean.journal);
  assert.deepEqual(
    { verified: intact.chain.verified, chained: intact.chain.chained, first: intact.chain.first, header: intact.chain.header, broken: intact.chain.broken },
    { verified: true, chained: true, first: null, header: [], broken: [] },
  );
  assert.equal(intact.chain.decisions, decisions(clean).length, 'the core counts decisions, not the header or the call records');
  assert.ok(intact.verdicts.every((v) => v.chain === null && v.verdict === 'identical'), 'a recorded decision with its chain digest is identical to its replay');

  // Without its header the chained decisions cannot be verified: the header is what replayRun passes back.
  const headless = run(clean.journal, { header: null });
  assert.equal(headless.chain.verified, false);
  assert.match(headless.chain.header[0], /chained but the header line is missing/);

  // An edit of record k (a decision, with any of the page's Tamper presets,
  // or a call record) breaks the chain at k + 1: the core numbers records,
  // call records included (the core's text names each one a call record).
  for (let k = 0; k < clean.journal.length; k++) {
    const journal = structuredClone(clean.journal);
    const call = M.isCallRecord(journal[k]);
    if (call) journal[k].value.tool = 'github__create_pull_request';
    else {
      journal[k].value.loaded = [...journal[k].value.results];
      journal[k].value.results.push('forged__tool');
    }
    const r = run(journal);
    assert.equal(r.chain.first, k + 1, `record ${k + 1}`);
    assert.deepEqual(r.chain.broken.map((p) => p.at), [k + 1], 'a break is reported where it is, not after it');
    const kind = clean.journal[k].source === 'agent-tool-call' ? 'call record' : 'decision';
    assert.match(r.chain.broken[0].problem, new RegExp(`^journal ${kind} ${k + 1} \\("${clean.journal[k].id}"\\): chain broken`));
    // Only the edited record carries the problem: its verdict, or its call record's view.
    const marked = [...r.verdicts, ...r.callRecords].filter((v) => v.chain !== null).map((v) => v.index);
    assert.deepEqual(marked, [k], `only record ${k + 1} carries the problem`);
    assert.equal([...r.verdicts, ...r.callRecords].find((v) => v.index === k).chain, r.chain.broken[0].problem, 'the core\'s text, as it is');
    if (call) {
      // Replay passes over a call record and writes the call it makes: the edited tool is not written again.
      const c = r.callRecords.find((x) => x.index === k);
      assert.equal(c.same, false);
      assert.equal(r.verdicts.every((v) => v.verdict === 'identical'), true, 'an edited call record changes no decision');
    }
  }

  // The tampered example: broken at its edited decision.
  const tampered = example('tampered.json');
  const t = M.replayRun(toolsift, { config: { ...tampered.config, catalog: bundled }, calls: tampered.calls, header: tampered.header, journal: tampered.journal, trustOf });
  const at = tampered.journal.findIndex((d) => d.id === tampered.tampered.decision) + 1;
  assert.equal(t.chain.first, at);
  assert.equal(t.chain.broken.length, 1);
  assert.match(t.verdicts.find((v) => v.index === at - 1).chain, /chain broken/);

  // Replayed against another configuration: the header says so, the chain still holds.
  const other = M.replayRun(toolsift, {
    config: { ...clean.config, search: { ...clean.config.search, maxLoaded: 6 }, catalog: bundled },
    calls: clean.calls, header: clean.header, journal: clean.journal, trustOf,
  });
  assert.equal(other.chain.first, null);
  assert.equal(other.chain.header.length, 1);
  assert.match(other.chain.header[0], /^journal header: recorded under another session configuration/);

  // A journal from before chains: replays, with the core's warning.
  const old = run(clean.journal.map(M.withoutChain), { header: null });
  assert.equal(old.chain.chained, false);
  assert.match(old.chain.unchained, /^the journal has no hash chain \(written before toolsift chained journals\)/);
  assert.ok(old.verdicts.every((v) => v.verdict === 'identical'));

  assert.throws(() => run(M.journalRecords(clean.header, clean.journal)), /journal: run\.journal\[0\] is the journal header: pass it as run\.header/);
});

// ---- the first view (issue 24) ------------------------------------------------

test('the default example is the clean run, chosen by index.json\'s "default" flag, not by order', () => {
  const index = JSON.parse(readFileSync(path.join(ROOT, 'playground/examples/index.json'), 'utf8'));
  const def = M.defaultExample(index.examples);
  assert.equal(def.file, 'support-desk.json');
  assert.equal(index.examples.filter((e) => e.default === true).length, 1, 'exactly one example is the default');
  assert.equal(example(def.file).tampered, undefined, 'the default example is not a tampered one');
  // The flag wins over the order; without one, the first listed.
  const shuffled = [{ file: 'tampered.json' }, { file: 'b.json', default: true }];
  assert.equal(M.defaultExample(shuffled).file, 'b.json');
  assert.equal(M.defaultExample([{ file: 'a.json' }, { file: 'b.json' }]).file, 'a.json');
  assert.equal(M.defaultExample([]), null);
  assert.equal(M.defaultExample(undefined), null);
  assert.equal(M.defaultExample([null, { title: 'no file' }, { file: 'c.json' }]).file, 'c.json');
});

// ---- the first view, plain words (issue 33) ---------------------------------------

test('the first view\'s example requests still get the outcome each is offered for, with the binding', () => {
  assert.deepEqual(M.FIRST_EXAMPLES.map((ex) => ex.outcome), ['strong', 'partial', 'miss'], 'one example per outcome');
  for (const ex of M.FIRST_EXAMPLES) assert.ok(M.OUTCOME_WORDS[ex.outcome], ex.outcome);
  const ix = toolsift.createIndex(bundled);
  const snapshot = ix.snapshot();
  try {
    for (const ex of M.FIRST_EXAMPLES) {
      // What the Search tab does with it: the index's search with explain, and a new session's answer (limit 10, the tab's default).
      const r = ix.search(ex.query, { limit: 10, explain: true });
      const p = M.sessionPreview(toolsift, snapshot, ex.query, { limit: 10 });
      const why = `${ex.query}: ${r.hits.map((x) => `${x.id} ${x.match}`).join(', ') || 'no hit'}`;
      assert.equal(M.searchOutcome(r), ex.outcome, why);
      assert.equal(p.refusal, null, why);
      assert.deepEqual(p.page.tools.map((t) => t.name), r.hits.map((x) => x.id), `${why}: the session's page is the search's hits`);
      assert.deepEqual(p.page.tools.map((t) => t.match), r.hits.map((x) => x.match), `${why}: with the same grades`);
      if (ex.outcome === 'strong') {
        assert.equal(p.page.tools[0].loaded, true, `${why}: a session loads the best hit`);
        assert.ok(p.page.listed >= 1, `${why}: and lists others, not loaded (the example shows both)`);
        assert.deepEqual(r.unmatched, [], `${why}: every word matched`);
      } else if (ex.outcome === 'partial') {
        assert.ok(r.hits.every((x) => x.match === 'partial'), `${why}: no hit is strong`);
        assert.equal(p.page.loaded, 0, `${why}: a session loads nothing`);
        assert.ok(p.page.listed >= 1, `${why}: it lists the partial hits`);
        assert.ok(p.page.vocabulary.length > 0, `${why}: and offers the catalog's words near the request`);
        assert.ok(r.unmatched.length > 0 && p.page.note, `${why}: a word matched nothing, and the note says what to do`);
      } else {
        assert.equal(r.hits.length, 0, why);
        assert.ok(r.unmatched.length > 0, `${why}: the words that matched nothing`);
        assert.deepEqual(p.page.unmatched, r.unmatched, `${why}: the session names them too`);
        assert.match(p.page.note, /Words that matched nothing/);
        assert.match(p.overview, /^The catalog has \d+ tools in \d+ groups: /, `${why}: the catalog's vocabulary, as the model reads it`);
      }
    }
  } finally {
    ix.free();
  }
});

test('the session preview: the core\'s page, its refusal, the page size capped at maxPerSearch\'s ceiling', () => {
  const ix = toolsift.createIndex(bundled);
  const snapshot = ix.snapshot();
  try {
    const big = M.sessionPreview(toolsift, snapshot, 'send a message', { limit: 200 });
    assert.equal(big.size, M.MAX_PER_SEARCH);
    assert.ok(big.page.tools.length <= M.MAX_PER_SEARCH);
    const refused = M.sessionPreview(toolsift, snapshot, '+the', { limit: 10 });
    assert.equal(refused.page, null);
    assert.equal(refused.refusal.error, 'invalid_input');
    assert.match(refused.refusal.message, /\+word/);
    // A tainted tool graded strong is listed, never loaded: the core's flag, not the page's.
    const tainted = M.sessionPreview(toolsift, snapshot, 'apply a notion template', { limit: 5 });
    const t = tainted.page.tools.find((x) => x.name === 'notion__apply_template');
    assert.equal(trustOf('notion__apply_template'), 'tainted');
    assert.deepEqual([t.match, t.loaded], ['strong', false]);
    assert.equal(tainted.page.tainted, true);
  } finally {
    ix.free();
  }
  assert.equal(M.searchOutcome({ hits: [] }), 'miss');
  assert.equal(M.searchOutcome({ hits: [{ match: 'partial' }, { match: 'strong' }] }), 'partial', 'the best hit\'s grade');
  assert.equal(M.searchOutcome(null), 'miss');
});

/** docs/glossary.md as plain text: link targets, ** and backticks left out, white space collapsed. */
const glossaryText = readFileSync(path.join(ROOT, 'docs/glossary.md'), 'utf8')
  .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*/g, '').replace(/`/g, '').replace(/\s+/g, ' ');

test('hover help: every definition is quoted from docs/glossary.md, never reworded', () => {
  for (const term of Object.keys(G.GLOSSARY)) {
    const quotes = G.quotes(term);
    assert.ok(quotes.length >= 1, term);
    for (const q of quotes) assert.ok(glossaryText.includes(q), `${term}: "${q}" is not in docs/glossary.md`);
    const text = G.hover(term);
    assert.ok(text.startsWith(term), `${term}: the hover names the term first: ${text}`);
    for (const q of quotes) assert.ok(text.includes(q.replace(/[;,.:\s]+$/, '')), `${term}: the hover holds the quote`);
  }
  // The terms the page shows, each with the glossary's words.
  for (const term of ['strong', 'partial', 'listed', 'loaded', 'tainted', 'vouched', 'remote', 'first-party', 'identical', 'narrowed', 'diverged',
    'call record', 'client', 'vocabulary', 'learned label', 'menu', 'catalog overview', 'select:', 'decision', 'chain', 'ranker', 'fingerprint', 'search document',
    'auto mode', 'mode: search', 'pre-search']) {
    assert.notEqual(G.hover(term), term, `${term} has hover help`);
  }
  assert.equal(G.hover('strong'), `strong — ${G.GLOSSARY.strong}.`);
  assert.match(G.hover('tainted'), /^tainted \(tainted: true: shown fenced, never indexed text, never loaded\)\. trust class — /);
  assert.equal(G.hover('no such term'), 'no such term');
});

test('counts: one tool, two tools, no "1 tools"', () => {
  assert.equal(G.count(1, 'tool'), '1 tool');
  assert.equal(G.count(0, 'tool'), '0 tools');
  assert.equal(G.count(2, 'tool'), '2 tools');
  assert.equal(G.count(1, 'query', 'queries'), '1 query');
  assert.equal(G.count(3, 'query', 'queries'), '3 queries');
  assert.equal(W.plainReason('the live loading plan: over maxMenuChars (1)'), 'loading it would make the menu longer than maxMenuChars (1 character)');
  assert.equal(W.plainReason('the live loading plan: over maxMenuChars (900)'), 'loading it would make the menu longer than maxMenuChars (900 characters)');
});

test('score bar: the legend lists every segment the bar draws, proximity included', () => {
  const ix = toolsift.createIndex(bundled);
  const info = ix.info();
  const segments = Bar.barSegments(info);
  assert.deepEqual(segments, [...Object.keys(info.fields), Bar.PROXIMITY], 'the index\'s fields in its order, then proximity');
  const r = ix.search('create a pull request', { limit: 10, explain: true });
  ix.free();
  const bars = r.hits.map((hit) => Bar.scoreBar(hit.explain, segments));
  assert.ok(bars.some((b) => b.some((s) => s.key === Bar.PROXIMITY)), 'a pair of query words close together draws a proximity segment');
  const legend = Bar.legendKeys(segments, bars);
  for (const bar of bars) for (const { key } of bar) assert.ok(legend.includes(key), `the legend lists ${key}`);
  r.hits.forEach((hit, i) => {
    // The segments add up to the hit's score, in the list's order.
    const total = bars[i].reduce((a, s) => a + s.score, 0);
    assert.ok(Math.abs(total - hit.score) < 1e-3 * Math.max(1, hit.score), `${hit.id}: segments ${total} vs score ${hit.score}`);
    const order = bars[i].map((s) => segments.indexOf(s.key));
    assert.deepEqual(order, [...order].sort((a, b) => a - b), `${hit.id}: drawn in the list's order`);
  });
  // A key the list lacks is drawn and then listed, never silently dropped.
  const odd = Bar.scoreBar({ terms: [{ fields: { name: 1, future: 2 } }], pairs: [{ score: 0.5 }] }, segments);
  assert.deepEqual(odd.map((s) => s.key), ['name', Bar.PROXIMITY, 'future']);
  assert.deepEqual(Bar.legendKeys(segments, [odd]), [...segments, 'future']);
  assert.equal(Bar.segmentLabel(Bar.PROXIMITY, info), 'proximity (query words close together)');
  assert.equal(Bar.segmentLabel('name', info), `name (${info.fields.name.weight})`);
  assert.equal(Bar.segmentColor('param_docs'), 'var(--f-param_docs, var(--f-other))');
});

test('explain table: one fixed column order for every hit', () => {
  const ix = toolsift.createIndex(bundled);
  const info = ix.info();
  ix.free();
  const cols = Bar.termColumns(Bar.barSegments(info));
  assert.deepEqual(cols, Object.keys(info.fields), 'the index\'s fields, in index.info() order, proximity not a column');
  assert.deepEqual(cols, ['name', 'aliases', 'tags', 'description', 'params', 'param_docs'], 'as docs/playground.md lists them');
});

test('replay wording: plain reasons, a meaning per verdict, neutral zero counts', () => {
  for (const v of W.VERDICTS) assert.match(W.verdictMeaning(v), /^[A-Z].+\.$/, `${v} has a one-line meaning`);
  assert.deepEqual(W.VERDICTS, Object.keys(M.summarize([])), 'every verdict the judge counts has a meaning');
  assert.equal(W.droppedSentence({ field: 'results', id: 'admin__grant_root', reason: 'unknown' }),
    'admin__grant_root was taken out of the results: no tool in the catalog has this id.');
  assert.equal(W.droppedSentence({ field: 'loaded', id: 'x', reason: 'dropped from results' }),
    'x was taken out of the loaded tools: replay took it out of the results, so it cannot be loaded.');
  assert.match(W.plainReason('the live loading plan: maxLoaded (20) is full'), /as many tools as maxLoaded allows \(20\)/);
  assert.match(W.plainReason('unknown', 'skills'), /no skill/);
  assert.equal(W.plainReason('something new'), 'something new', 'an unknown reason is kept as it is');
  assert.equal(W.plainWarning('replay: dropped "forged__tool": unknown'), 'Replay left out forged__tool: no tool in the catalog has this id.');
  assert.equal(W.plainWarning('replay: something else'), 'replay: something else');
  const finding = W.rerankFinding(['results', 'loaded'], 'narrowed');
  assert.match(finding, /differs from this in the results and the loaded tools/);
  assert.doesNotMatch(finding, /Replay accepts/, 'a narrowed record was not accepted as it is');
  assert.match(W.rerankFinding(['grades'], 'identical'), /in the grades: .* Replay accepts an edit that names only tools this session is allowed to load/);
  assert.doesNotMatch(finding, /\?/, 'a finding, not a question');
  // The words the view used to show are gone.
  const shown = [W.droppedSentence({ field: 'results', id: 'f', reason: 'unknown' }), finding, W.RERANK_SAME, ...Object.values(W.VERDICT_MEANINGS)].join(' ');
  assert.doesNotMatch(shown, /from results: unknown|forged but authorised|ranked live now/i);
  assert.equal(W.countBadgeClass('diverged', 0), 'verdict count-zero', '"0 diverged" is neutral');
  assert.equal(W.countBadgeClass('identical', 0), 'verdict count-zero');
  assert.equal(W.countBadgeClass('diverged', 2), 'verdict v-diverged');
  assert.equal(W.countBadgeClass('narrowed', 1), 'verdict v-narrowed');
});

test('score bar: with a model, the semantic part is a segment, in the legend and out of the term columns', () => {
  // the project's generated test model (scripts/gen-static-model.mjs), written to a temporary folder
  const dir = path.join(ROOT, 'build/test-playground-model');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/gen-static-model.mjs'), '--out', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const model = toolsift.loadStaticModel(readFileSync(path.join(dir, 'model.safetensors')), readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'));
  const ix = toolsift.createIndex(bundled, { model });
  try {
    const info = ix.info();
    const segments = Bar.barSegments(info);
    assert.equal(segments.at(-1), Bar.SEMANTIC, 'semantic comes last');
    assert.ok(!Bar.termColumns(segments).includes(Bar.SEMANTIC));
    assert.ok(!Bar.barSegments(toolsift.createIndex(bundled).info()).includes(Bar.SEMANTIC), 'no vectors, no semantic segment');
    const q = 'restart the pod';
    const res = ix.search(q, { explain: true, vector: model.queryVector(q) });
    const lifted = res.hits.filter((h) => h.explain.semantic?.score > 0);
    assert.ok(lifted.length > 0, 'the model lifts some hit');
    for (const hit of lifted) {
      const bar = Bar.scoreBar(hit.explain, segments);
      const seg = bar.find((s) => s.key === Bar.SEMANTIC);
      assert.equal(seg.score, hit.explain.semantic.score, 'the segment is what the ranker reported');
      const total = bar.reduce((a, s) => a + s.score, 0);
      assert.ok(Math.abs(total - hit.score) < 1e-4 * Math.max(1, hit.score), `${hit.id}: the bar adds up to the score`);
    }
    assert.match(Bar.segmentLabel(Bar.SEMANTIC, info), new RegExp(`semantic \\(similarity, model ${model.id}\\)`));
  } finally {
    ix.free();
    model.free();
  }
});

// ---- call records, and runs under a learned vocabulary (issue 32) ------------

const REFUND = 'stripe__create_refund';
const BILLING = ['billing-web.json', 'billing-mobile.json', 'billing-api.json'];
/** An example's journal as the learner reads it: JSON Lines, the header first. */
const billingJSONL = (f) => M.journalJSONL(M.journalRecords(example(f).header, example(f).journal));
/** A learned vocabulary (the core's text) from the three billing runs, by the real learner. */
function learnBilling(options) {
  const learner = toolsift.createLearner(bundled, options);
  try {
    for (const f of BILLING) learner.addJournal(f, billingJSONL(f));
    return learner.finishJSON();
  } finally {
    learner.free();
  }
}

test('call records: kept in order among the decisions, rebuilt as calls, a failure reported again on replay', () => {
  const rec = example('billing-mobile.json');
  // The session wrote: two searches, the paypal call and its failure report, the stripe call.
  assert.deepEqual(rec.journal.map((d) => d.source),
    ['agent-tool-search', 'agent-tool-search', M.CALL_SOURCE, M.CALL_FAILED_SOURCE, M.CALL_SOURCE]);
  assert.deepEqual(rec.journal.map(M.isCallRecord), [false, false, true, true, true]);
  assert.equal(M.decisionsOf(rec.journal).length, 2);
  // A bare journal: each call record is a call to its tool (no arguments are recorded);
  // the failure report is not a call of its own.
  const { calls, skipped } = M.callsFromJournal(rec.journal, rec.config);
  assert.deepEqual(calls.map((c) => [c.turn, c.call, c.tool]), [
    [0, 0, 'search_tools'], [0, 1, 'search_tools'], [0, 2, 'paypal__refund_capture'], [0, 3, REFUND],
  ]);
  assert.deepEqual(calls[2].args, {});
  assert.deepEqual(skipped, []);
  assert.deepEqual(M.failureReports(rec.journal), [{ turn: 0, call: 2, tool: 'paypal__refund_capture' }]);

  for (const withCalls of [true, false]) {
    const r = M.replayRun(toolsift, {
      config: { ...rec.config, catalog: bundled }, calls: withCalls ? rec.calls : undefined, header: rec.header, journal: rec.journal, trustOf,
    });
    const what = withCalls ? 'with the recording\'s calls' : 'calls rebuilt from the journal';
    assert.deepEqual(M.summarize(r.verdicts), { identical: 2, narrowed: 0, diverged: 0 }, what);
    assert.equal(r.verdicts.length, 2, `${what}: call records get no verdict`);
    assert.equal(r.chain.verified, true, what);
    // Each call record is written again by the replay (the failure reported again after its call).
    assert.deepEqual(r.callRecords.map((c) => [c.index, c.source, c.tool, c.same]), [
      [2, M.CALL_SOURCE, 'paypal__refund_capture', true],
      [3, M.CALL_FAILED_SOURCE, 'paypal__refund_capture', true],
      [4, M.CALL_SOURCE, REFUND, true],
    ], what);
    const paypal = r.steps.find((s) => s.call.tool === 'paypal__refund_capture');
    assert.equal(paypal.failed, true, `${what}: the failure is reported again`);
    assert.deepEqual(paypal.callRecords.map((c) => c.source), [M.CALL_SOURCE, M.CALL_FAILED_SOURCE], `${what}: shown at its call`);
  }
});

test('a run under a learned vocabulary replays under it; under none the core reports the divergence', () => {
  const rec = example('billing-learned.json');
  assert.ok(rec.annotations, 'the recording carries the vocabulary it ran under');
  const recorded = rec.header.value.vocabulary;
  assert.match(recorded, /^[0-9a-f]{64}$/, 'the journal header records the vocabulary\'s digest');
  const ix = toolsift.createIndex(bundled, { annotations: rec.annotations });
  assert.equal(ix.info().vocabulary.digest, recorded, 'the header\'s digest is the vocabulary\'s');
  ix.free();
  const run = (annotations) => M.replayRun(toolsift, {
    config: { ...rec.config, catalog: bundled }, calls: rec.calls, header: rec.header, journal: rec.journal, trustOf, annotations,
  });
  const same = run(rec.annotations);
  assert.equal(same.chain.verified, true);
  assert.equal(same.diverged, null);
  assert.deepEqual(M.summarize(same.verdicts), { identical: 1, narrowed: 0, diverged: 0 });
  // Ranked again under the same vocabulary, the search is the recorded one.
  const live = M.rerankRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, journal: rec.journal, annotations: rec.annotations });
  assert.equal(M.rerankVerdict(rec.journal[0], live.get(rec.journal[0].id)), 'same');

  const none = run(null);
  assert.match(none.diverged, new RegExp(`recorded under vocabulary ${recorded.slice(0, 12)}…, the live index has no vocabulary`));
  assert.deepEqual(none.chain.header, [none.diverged], 'the same problem, as the chain view lists it');
  assert.deepEqual(M.summarize(none.verdicts), { identical: 1, narrowed: 0, diverged: 0 }, 'each search is still answered from its record');
  // A header problem that is not a vocabulary's is no divergence.
  const other = M.replayRun(toolsift, {
    config: { ...rec.config, search: { ...rec.config.search, maxLoaded: 5 }, catalog: bundled },
    calls: rec.calls, header: rec.header, journal: rec.journal, trustOf, annotations: rec.annotations,
  });
  assert.equal(other.chain.header.length, 1);
  assert.equal(other.diverged, null);
});

test('a learned vocabulary for review: read, per tool its labels with the file\'s evidence', () => {
  const text = learnBilling();
  const { value } = V.readVocabulary(text);
  const view = V.vocabularyView(value, (id) => id === REFUND);
  // Three runs, three clients, each used "chargeback" and "reverse" for the refund tool and nothing else got them.
  assert.deepEqual(
    { journals: view.learned.journals, sessions: view.learned.sessions, clients: view.learned.clients, examples: view.learned.examples },
    { journals: 3, sessions: 3, clients: 3, examples: 0 },
  );
  assert.deepEqual(view.learned.rule, { minSessions: 3, minClients: 2, maxPerClient: 3, minShare: 0.1, minExamples: 1 }, 'the core\'s default rule');
  assert.deepEqual(view.tools.map((t) => t.id), [REFUND]);
  assert.equal(view.tools[0].known, true);
  const full = { sessions: 3, clients: 3, examples: 0, against: 0, share: 1 };
  assert.deepEqual(view.tools[0].labels, [
    { label: 'chargeback', list: 'tags', evidence: full },
    { label: 'reverse', list: 'tags', evidence: full },
  ]);
  assert.deepEqual([view.toolCount, view.labelCount, view.empty], [1, 2, false]);
  assert.equal(V.nothingLearned(value), null);
  assert.equal(V.evidenceLine(full), '3 sessions · 3 clients · 0 examples · 0 against · share 100%');
  assert.equal(V.provenanceLine(view.learned), 'learned from 3 journals: 3 sessions from 3 clients, 0 host examples');
  // A host's own annotations: no provenance, no evidence.
  const own = V.vocabularyView({ annotations: { a: { aliases: ['x y'], tags: ['z'] } } });
  assert.equal(own.learned, null);
  assert.deepEqual(own.tools[0].labels, [{ label: 'x y', list: 'aliases', evidence: null }, { label: 'z', list: 'tags', evidence: null }]);
  assert.equal(V.provenanceLine(own.learned), null);

  assert.throws(() => V.readVocabulary('{"tools": []}'), /^InputError: vocabulary: expected a learned vocabulary .*got an object with keys tools/);
  assert.throws(() => V.readVocabulary('{"tools": [], "toolsChanged": 0, "added": 0}'), /a comparison of two vocabularies/);
  assert.throws(() => V.readVocabulary('{"annotations": {"a": []}}'), /annotations\["a"\] must be an object/);
  assert.throws(() => V.readVocabulary('{"annotations": '), /vocabulary: not valid JSON at line 1/);
  assert.equal(V.readVocabulary(text).text, text, 'the text is kept as read (the core gets it verbatim)');
});

test('nothing learned: said with the file\'s own counts and rule; the learner\'s options from the form', () => {
  // One anonymous run: fewer sessions and clients than the default rule asks.
  const learner = toolsift.createLearner(bundled);
  learner.addJournal('support', billingJSONL('billing-web.json'));
  const value = learner.finish();
  learner.free();
  assert.deepEqual(value.annotations, {});
  const none = V.nothingLearned(value);
  assert.deepEqual({ sessions: none.sessions, clients: none.clients, minSessions: none.minSessions, minClients: none.minClients }, { sessions: 1, clients: 1, minSessions: 3, minClients: 2 });
  assert.match(none.text, /^Nothing learned\. A word becomes a tool's label when 3 or more sessions from 2 or more different clients used it/);
  assert.match(none.text, /The learner read 1 session from 1 client and 0 host examples\.$/);

  assert.deepEqual(V.learnerOptions({ minSessions: ' ', minClients: '1', maxPerClient: '', minShare: '0.5', unverified: 'skip' }),
    { minClients: 1, minShare: 0.5, unverified: 'skip' }, 'blank fields keep the core\'s defaults');
  assert.throws(() => V.learnerOptions({ minSessions: 'three' }), /^InputError: learning rule: minSessions must be a number/);
  // The same run with the rule lowered by those options teaches the words.
  const lowered = toolsift.createLearner(bundled, V.learnerOptions({ minSessions: '1', minClients: '1' }));
  lowered.addJournal('web', billingJSONL('billing-web.json'));
  const got = lowered.finish();
  lowered.free();
  assert.ok(V.toolLabels(got, REFUND).some((l) => l.label === 'chargeback' && l.evidence.sessions === 1 && l.evidence.clients === 1));
});

test('explain: a hit\'s learned labels with their evidence, looked up in the file as the core names them', () => {
  const text = learnBilling();
  const value = JSON.parse(text);
  const ix = toolsift.createIndex(bundled, { annotations: text });
  const plain = toolsift.createIndex(bundled);
  try {
    const q = 'reverse the chargeback';
    assert.notEqual(plain.search(q, { limit: 1 }).hits[0].id, REFUND, 'without the vocabulary the refund tool is not on top');
    const r = ix.search(q, { limit: 3, explain: true });
    assert.equal(r.hits[0].id, REFUND);
    const full = { sessions: 3, clients: 3, examples: 0, against: 0, share: 1 };
    assert.deepEqual(new Set(V.learnedLabels(r.hits[0], value).map((l) => JSON.stringify(l))), new Set([
      JSON.stringify({ label: 'chargeback', list: 'tags', evidence: full }),
      JSON.stringify({ label: 'reverse', list: 'tags', evidence: full }),
    ]));
    const other = r.hits.find((x) => x.id !== REFUND);
    assert.deepEqual(V.learnedLabels(other, value), [], 'a hit the vocabulary gave nothing has no learned label');
    assert.deepEqual(V.learnedLabels(ix.search('refund a payment', { limit: 1, explain: true }).hits[0], value), [],
      'matched by its own words only: no learned label');
  } finally {
    ix.free();
    plain.free();
  }
  // A label written otherwise than the core's normal form: the core names
  // it normalised, so the file's evidence is not found by it (said, not guessed).
  const host = { annotations: { [REFUND]: { tags: ['ChargeBack'] } }, evidence: { [REFUND]: { ChargeBack: { sessions: 9 } } } };
  const hx = toolsift.createIndex(bundled, { annotations: host });
  try {
    const hit = hx.search('chargeback', { limit: 1, explain: true }).hits[0];
    assert.equal(hit.id, REFUND);
    assert.deepEqual(V.learnedLabels(hit, host), [{ label: 'chargeback', list: null, evidence: null }]);
  } finally {
    hx.free();
  }
});

test('what a new vocabulary would change: the core\'s learnDiff, arranged', () => {
  const billing = learnBilling();
  const learner = toolsift.createLearner(bundled);
  learner.addExamples('host', '{"query": "dispute a card payment", "relevance": {"stripe__create_refund": 1}}\n');
  const examples = learner.finishJSON();
  learner.free();
  // A host example teaches at once (no sessions, no clients). Its labels are
  // not named here: the core writes an example's words in their analysed
  // form ("disput"), having recorded no surface for them.
  const taught = V.toolLabels(JSON.parse(examples), REFUND).filter((l) => l.list === 'tags');
  assert.ok(taught.length >= 1 && taught.every((l) => l.evidence.examples === 1 && l.evidence.sessions === 0), JSON.stringify(taught));

  const fromNone = V.diffView(toolsift.learnDiff(V.EMPTY_VOCABULARY, billing));
  assert.deepEqual([fromNone.toolsChanged, fromNone.added, fromNone.removed, fromNone.empty], [1, 2, 0, false]);
  assert.deepEqual(fromNone.tools[0].added.map((c) => [c.label, c.list, c.evidence.sessions, c.evidence.clients]),
    [['chargeback', 'tags', 3, 3], ['reverse', 'tags', 3, 3]]);

  const swap = V.diffView(toolsift.learnDiff(billing, examples));
  const t = swap.tools.find((x) => x.id === REFUND);
  assert.deepEqual(t.added.filter((c) => c.list === 'tags').map((c) => c.label), taught.map((l) => l.label), 'the example\'s tags are added');
  assert.ok(t.added.every((c) => c.evidence.examples === 1 && c.evidence.sessions === 0), 'with the new file\'s evidence');
  assert.deepEqual(t.removed.map((c) => [c.label, c.evidence.sessions]), [['chargeback', 3], ['reverse', 3]], 'dropped, with the old file\'s evidence');
  assert.equal(swap.removed, 2);

  const same = V.diffView(toolsift.learnDiff(billing, billing));
  assert.deepEqual([same.empty, same.added, same.removed], [true, 0, 0]);
});

// ---- pre-search and auto mode (docs/sessions.md) --------------------------------

test('a pre-search decision: its id, a journal holding one, the calls rebuilt from it', () => {
  assert.deepEqual(M.parseDecisionId('my.loop#turn:2:pre-search'), { loop: 'my.loop', turn: 2, call: null, kind: 'pre-search' });
  assert.deepEqual(M.parseDecisionId('a#turn:0:tool:1:search'), { loop: 'a', turn: 0, call: 1, kind: 'search' });
  for (const bad of ['a#turn:x:pre-search', 'a#turn:0:pre-search:1', '#turn:0:pre-search', 'a#turn:0:presearch']) {
    assert.equal(M.parseDecisionId(bad), null, bad);
  }
  const rec = example('pre-search.json');
  // The journal as --journal-out writes it (JSON Lines, the header first).
  const parsed = M.readJournal(M.journalJSONL(M.journalRecords(rec.header, rec.journal)));
  assert.equal(parsed.kind, 'journal');
  assert.equal(parsed.header.source, M.JOURNAL_HEADER_SOURCE);
  assert.equal(parsed.header.value.mode, undefined, 'a session in mode search writes no mode');
  const pre = parsed.records.filter((d) => d.source === M.PRE_SEARCH_SOURCE);
  assert.deepEqual(pre.map((d) => d.id), ['concierge#turn:0:pre-search', 'concierge#turn:2:pre-search']);
  for (const d of pre) {
    for (const k of ['ranker', 'query', 'results', 'loaded', 'grades', 'matched', 'unmatched']) assert.ok(k in d.value, `${d.id}: value.${k}`);
  }
  // Before the turn's calls.
  const ids = parsed.records.map((d) => d.id);
  assert.ok(ids.indexOf('concierge#turn:2:pre-search') < ids.indexOf('concierge#turn:2:tool:0:search'));
  // A bare journal: each pre-search is the host's pre-search of its recorded text, in the journal's order.
  const { calls, skipped } = M.callsFromJournal(parsed.records, rec.config);
  assert.deepEqual(skipped, []);
  assert.deepEqual(calls, [
    { turn: 0, preSearch: pre[0].value.query },
    { turn: 0, call: 0, tool: REFUND, args: {} },
    { turn: 2, preSearch: pre[1].value.query },
    { turn: 2, call: 0, tool: 'search_tools', args: { query: 'translate a document with deepl' } },
    { turn: 2, call: 1, tool: 'deepl__translate_document', args: {} },
  ]);
  assert.deepEqual(rec.calls.filter(M.isPreSearch), calls.filter(M.isPreSearch), 'the recording\'s pre-searches hold the user\'s messages the journal records');
  // A recording's calls: a pre-search is { turn, preSearch: text }.
  assert.throws(() => M.readJournal('{"journal": [], "calls": [{"turn": 0, "preSearch": 5}]}'), /calls\[0\]: "preSearch" must be the user's message/);
  assert.throws(() => M.readJournal('{"journal": [], "calls": [{"turn": -1, "preSearch": "x"}]}'), /calls\[0\]: "turn" must be a non-negative integer/);
  assert.equal(M.readJournal('{"journal": [], "calls": [{"turn": 1, "preSearch": "hi"}]}').recording.calls.length, 1);
});

test('a pre-search replays like a search: served from its record, identical, its page as the binding answers it', () => {
  const rec = example('pre-search.json');
  // What the binding answers to the first message, in this process.
  const live = toolsift.createSession({ ...rec.config, catalog: bundled });
  const first = live.preSearch(0, rec.calls[0].preSearch);
  live.free();
  assert.equal(first.decision.source, M.PRE_SEARCH_SOURCE);
  for (const withCalls of [true, false]) {
    const what = withCalls ? 'with the recording\'s calls' : 'calls rebuilt from the journal';
    const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: withCalls ? rec.calls : undefined, header: rec.header, journal: rec.journal, trustOf });
    assert.deepEqual(M.summarize(r.verdicts), { identical: M.decisionsOf(rec.journal).length, narrowed: 0, diverged: 0 }, what);
    assert.deepEqual(r.verdicts.filter((v) => M.parseDecisionId(v.id).kind === 'pre-search').map((v) => v.verdict), ['identical', 'identical'], what);
    assert.equal(r.chain.verified, true, what);
    assert.equal(r.metrics.rankerCalls, 0, `${what}: replay never ranks`);
    assert.equal(r.metrics.preSearches, 2, what);
    const s = r.steps[0];
    assert.ok(M.isPreSearch(s.call), `${what}: the first step is the pre-search`);
    assert.equal(s.verdict.verdict, 'identical');
    assert.deepEqual(s.output.decision, M.withoutChain(rec.journal[0]), what);
    const page = M.pageView(s.output.result, s.output.decision, s.verdict.recorded);
    assert.deepEqual(page.tools.map((t) => [t.name, t.match, t.loaded]), first.result.tools.map((t) => [t.name, t.match, t.loaded]), `${what}: the binding's page`);
    assert.deepEqual(s.added, first.decision.value.loaded, `${what}: its loaded tools join the menu`);
    assert.deepEqual(r.callRecords.map((c) => c.same), [true, true], what);
  }
  // Ranked again live, a pre-search is what the ranker picks now.
  const rerank = M.rerankRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, journal: rec.journal });
  assert.deepEqual(rerank.get('concierge#turn:0:pre-search'), first.decision);
});

test('a tampered pre-search narrows, and the core finds the chain broken there', () => {
  const rec = example('pre-search.json');
  const journal = structuredClone(rec.journal);
  const k = journal.findIndex((d) => d.id === 'concierge#turn:0:pre-search');
  journal[k].value.results.push('admin__grant_root');
  journal[k].value.loaded = [...journal[k].value.results];
  const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: rec.calls, header: rec.header, journal, trustOf });
  const v = r.verdicts.find((x) => x.id === journal[k].id);
  assert.equal(v.verdict, 'narrowed');
  assert.ok(v.dropped.some((d) => d.field === 'results' && d.id === 'admin__grant_root' && d.reason === 'unknown'), JSON.stringify(v.dropped));
  assert.ok(v.dropped.some((d) => d.field === 'loaded' && d.id === 'paypal__refund_capture'), 'a partial hit claimed loaded is not loaded');
  assert.deepEqual(v.replayed, M.withoutChain(rec.journal[k]), 'narrowed back to what was recorded');
  assert.equal(r.chain.first, k + 1);
});

test('mode all: the journal header says so; replayed, every tool is on the menu and search_tools is not', () => {
  const rec = example('auto-mode.json');
  assert.equal(rec.header.value.mode, 'all');
  const parsed = M.readJournal(M.journalJSONL(M.journalRecords(rec.header, rec.journal)));
  assert.equal(parsed.header.value.mode, 'all', 'the header of a mode all journal, read from JSON Lines');
  assert.deepEqual(M.modeView(null, parsed.header), { mode: 'search', recorded: 'all', differs: true, auto: false });
  assert.deepEqual(M.decisionsOf(parsed.records), [], 'nothing was searched: call records only');
  // The binding's own session over the same configuration.
  const live = toolsift.createSession({ ...rec.config, catalog: bundled });
  const menu = live.menu('mcp').tools.map((t) => t.name);
  const refusal = live.call(0, 0, 'search_tools', { query: 'refund a payment' }).result;
  assert.equal(live.mode, 'all');
  live.free();
  for (const withCalls of [true, false]) {
    const r = M.replayRun(toolsift, { config: { ...rec.config, catalog: bundled }, calls: withCalls ? rec.calls : undefined, header: rec.header, journal: rec.journal, trustOf });
    assert.deepEqual(M.modeView(r.metrics, rec.header, rec.config), { mode: 'all', recorded: 'all', differs: false, auto: true });
    assert.deepEqual(r.start.menu, menu);
    assert.ok(!r.start.menu.includes('search_tools'));
    assert.equal(M.metaToolText(r.start.specs, rec.config), null, 'no search meta-tool to describe');
    assert.equal(r.chain.verified, true);
    assert.deepEqual(r.callRecords.map((c) => [c.tool, c.same]), [[REFUND, true], ['stripe__create_customer', true]]);
    if (withCalls) assert.deepEqual(r.steps[0].output.result, refusal, 'search_tools is refused, as the binding refuses it');
  }
  // Replayed without auto mode, the live session searches: the core reports the header problem.
  const { auto: _, ...search } = rec.config.search;
  const off = M.replayRun(toolsift, { config: { ...rec.config, search, catalog: bundled }, calls: rec.calls, header: rec.header, journal: rec.journal, trustOf });
  assert.deepEqual(M.modeView(off.metrics, rec.header, { ...rec.config, search }), { mode: 'search', recorded: 'all', differs: true, auto: false });
  assert.ok(off.chain.header.length >= 1, 'a header problem');
  assert.ok(off.start.menu.includes('search_tools'));
});

test('auto mode from the live form, and the turn a live pre-search goes to', () => {
  const config = { tools: [], search: { maxPerSearch: 5 } };
  assert.equal(M.withAutoMode(config, false), config);
  assert.deepEqual(M.withAutoMode(config, true), { tools: [], search: { maxPerSearch: 5, auto: true } });
  assert.deepEqual(config.search, { maxPerSearch: 5 }, 'the configuration is not changed');
  assert.deepEqual(M.withAutoMode({ tools: [] }, true), { tools: [], search: { auto: true } });
  const own = { search: { auto: { maxTools: 3 } } };
  assert.equal(M.withAutoMode(own, true), own, 'its own budget kept');
  assert.equal(M.autoConfigured(own), true);
  assert.equal(M.autoConfigured({ search: { auto: false } }), false);
  assert.deepEqual(M.modeView({ mode: 'all' }), { mode: 'all', recorded: null, differs: false, auto: false });
  assert.equal(M.modeView({ mode: 'search' }, { id: 'a#journal', value: {} }).recorded, 'search');
  assert.equal(M.nextPreSearchTurn([], 0), 0);
  assert.equal(M.nextPreSearchTurn([{ turn: 0, call: 0, tool: 't' }], 0), 1);
  assert.equal(M.nextPreSearchTurn([{ turn: 0, preSearch: 'x' }], 0), 1);
  assert.equal(M.nextPreSearchTurn([{ turn: 0, call: 0, tool: 't' }, { turn: 3, call: 0, tool: 't' }], 0), 4);
  assert.equal(M.nextPreSearchTurn([{ turn: 0, call: 0, tool: 't' }], 2), 2);
  // The binding's session from such a configuration, over a catalog that fits.
  const small = { tools: bundled.tools.slice(0, 5) };
  const s = toolsift.createSession({ ...M.withAutoMode({ tools: [] }, true), catalog: small });
  assert.equal(M.modeView(s.metrics()).mode, s.mode);
  assert.equal(s.mode, 'all');
  s.free();
});
