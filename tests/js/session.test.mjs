// The Session API of the binding (SPEC S6, S7, S9) against the module named by
// env TOOLSIFT_WASM (default build/wasm/toolsift.wasm): menu order and growth,
// caps, refusals, namespaces, exact replay, divergence, configuration errors,
// journal forms, argument checks and freeing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

import { load, Session, ToolsiftError } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const ts = await load(WASM);
const CORPUS = JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8'));

const CATALOG = {
  tools: [
    {
      id: 'gh__create_issue',
      name: 'create_issue',
      description: 'Open a new issue in a repository',
      inputSchema: { type: 'object', properties: { title: { type: 'string', description: 'Issue title' } } },
    },
    { id: 'gh__list_issues', name: 'list_issues', description: 'List issues of a repository' },
    { id: 'gh__close_issue', name: 'close_issue', description: 'Close an issue' },
    { id: 'jira__create_issue', name: 'create_issue', description: 'Create a Jira issue' },
    { id: 'jira__search', name: 'search', description: 'Search Jira issues with JQL' },
    { id: 'slack__send', name: 'send', description: 'Send a Slack message to a channel' },
    { id: 'mail__send', name: 'send', description: 'Send an email message' },
    { id: 'evil__issue', name: 'issue_helper', description: 'issue issue', tainted: true },
    { id: 'remote__issue_sync', name: 'issue_sync', description: 'secret text', origin: 'remote' },
  ],
};

const AGENT = [{ name: 'reply', description: 'Reply to the user' }];

function config(search = {}, extra = {}) {
  return { loop: 't', tools: AGENT, catalog: CATALOG, search, ...extra };
}

// Run fn with a session that is always freed.
function withSession(cfg, fn, opts) {
  const s = ts.createSession(cfg, opts);
  try {
    return fn(s);
  } finally {
    s.free();
  }
}

function throwsCode(fn, code, message) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof ToolsiftError, `expected a ToolsiftError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

const names = (s) => s.menu('anthropic').map((t) => t.name);
const search = (s, turn, call, query, extra = {}) => s.call(turn, call, 'search_tools', { query, ...extra });
const ids = (result) => result.tools.map((t) => t.name);

// ---- menu ---------------------------------------------------------------------

test('menu order: meta-tool, agent tools, alwaysLoaded, then searched tools in load order', () => {
  withSession(config({ alwaysLoaded: ['mail__send'], maxPerSearch: 2 }), (s) => {
    assert.deepEqual(names(s), ['search_tools', 'reply', 'mail__send']);
    const r = search(s, 0, 0, 'create issue');
    assert.deepEqual(r.call, { turn: 0, call: 0, tool: 'search_tools' });
    // Both match both words in their names: strong, loaded; the shorter Jira
    // document scores higher.
    const graded = { loaded: true, match: 'strong', matched: ['create', 'issue'] };
    assert.deepEqual(r.result.tools, [
      { name: 'jira__create_issue', description: 'Create a Jira issue', ...graded },
      { name: 'gh__create_issue', description: 'Open a new issue in a repository', ...graded },
    ]);
    assert.deepEqual(r.decision, {
      id: 't#turn:0:tool:0:search',
      source: 'agent-tool-search',
      value: {
        ranker: 'bm25f-6',
        query: 'create issue',
        results: ['jira__create_issue', 'gh__create_issue'],
        loaded: ['jira__create_issue', 'gh__create_issue'],
        grades: ['strong', 'strong'],
        matched: [['create', 'issue'], ['create', 'issue']],
        unmatched: [],
      },
    });
    const before = s.menu('anthropic');
    assert.deepEqual(names(s), ['search_tools', 'reply', 'mail__send', 'jira__create_issue', 'gh__create_issue']);
    // A tool on the menu is never returned again; the menu only grows, and
    // what was there keeps its place and its bytes (a cacheable prefix).
    const again = search(s, 1, 0, 'create issue');
    assert.ok(!ids(again.result).includes('gh__create_issue'));
    assert.ok(!ids(again.result).includes('jira__create_issue'));
    const after = s.menu('anthropic');
    assert.ok(after.length >= before.length);
    assert.deepEqual(after.slice(0, before.length), before);
    // Dispatch gate: on the menu → allowed.
    for (const tool of ['reply', 'mail__send', 'gh__create_issue']) {
      assert.deepEqual(s.call(1, 1, tool, {}), {
        call: { turn: 1, call: 1, tool },
        result: { allowed: true },
        decision: null,
      });
    }
  });
});

test('menu shapes: MCP, OpenAI and Anthropic, with the search tool spec', () => {
  withSession(config({ alwaysLoaded: ['gh__create_issue'], maxPerSearch: 4 }), (s) => {
    const mcp = s.menu();
    assert.deepEqual(s.menu('mcp'), mcp);
    assert.equal(s.menuJSON(), JSON.stringify(mcp));
    assert.deepEqual(mcp.tools.map((t) => t.name), ['search_tools', 'reply', 'gh__create_issue']);
    const meta = mcp.tools[0];
    assert.match(meta.description, /^Search the tool catalog/);
    assert.deepEqual(meta.inputSchema.required, ['query']);
    assert.equal(meta.inputSchema.properties.limit.maximum, 4); // = maxPerSearch
    assert.deepEqual(mcp.tools[2], {
      name: 'gh__create_issue',
      description: 'Open a new issue in a repository',
      inputSchema: { type: 'object', properties: { title: { type: 'string', description: 'Issue title' } } },
    });
    const openai = s.menu('openai');
    assert.deepEqual(openai[2], {
      type: 'function',
      function: { name: 'gh__create_issue', description: mcp.tools[2].description, parameters: mcp.tools[2].inputSchema },
    });
    const anthropic = s.menu('anthropic');
    assert.deepEqual(anthropic[1], { name: 'reply', description: 'Reply to the user', input_schema: mcp.tools[1].inputSchema });
    throwsCode(() => s.menu('xml'), 'arg', /format must be "mcp", "openai" or "anthropic"/);
    throwsCode(() => s.menu('mcp\0'), 'arg');
    throwsCode(() => s.menuJSON(7), 'arg');
  });
});

test('trust: tainted hits never load, un-vouched text is withheld and the page is marked', () => {
  withSession(config({ maxPerSearch: 5 }), (s) => {
    const r = search(s, 0, 0, 'issue sync helper');
    const byName = Object.fromEntries(r.result.tools.map((t) => [t.name, t]));
    assert.equal(byName.evil__issue.loaded, false);
    assert.equal(byName.evil__issue.description, 'Third-party tool; description withheld');
    assert.equal(byName.remote__issue_sync.loaded, true);
    assert.equal(byName.remote__issue_sync.description, 'Third-party tool; description withheld');
    assert.equal(r.result.tainted, true);
    assert.ok(!r.decision.value.loaded.includes('evil__issue'));
    assert.ok(!names(s).includes('evil__issue'));
    const spec = s.menu().tools.find((t) => t.name === 'remote__issue_sync');
    assert.equal(spec.description, 'Third-party tool; description withheld');
    assert.deepEqual(s.call(0, 1, 'evil__issue', {}).result.error, 'not_on_menu');
  });
  throwsCode(() => ts.createSession(config({ alwaysLoaded: ['evil__issue'] })), 'config', /tainted/);
});

// ---- caps -----------------------------------------------------------------------

test('maxPerSearch bounds the page; limit narrows it further', () => {
  withSession(config({ maxPerSearch: 2 }), (s) => {
    assert.equal(search(s, 0, 0, 'issue', { limit: 10 }).result.tools.length, 2);
    assert.equal(search(s, 0, 1, 'send message', { limit: 1 }).result.tools.length, 1);
  });
  withSession(config({ maxPerSearch: 3 }), (s) => {
    const r = search(s, 0, 0, 'issue');
    assert.equal(r.result.tools.length, 3);
    assert.equal(r.decision.value.results.length, 3);
  });
  // Default 5.
  withSession(config(), (s) => assert.equal(search(s, 0, 0, 'issue repository jira slack email send').result.tools.length, 5));
});

test('maxLoaded: hits beyond it are reported loaded:false with a note and stay off the menu', () => {
  // load: "all" loads every hit the caps allow, so only the cap decides here
  withSession(config({ maxLoaded: 1, maxPerSearch: 3, load: 'all' }), (s) => {
    const r = search(s, 0, 0, 'create issue');
    assert.deepEqual(r.result.tools.map((t) => t.loaded), [true, false, false]);
    assert.equal(r.result.note, 'Tools marked loaded: false did not fit the menu and cannot be called.');
    assert.deepEqual(r.decision.value.loaded, [r.result.tools[0].name]);
    assert.deepEqual(names(s), ['search_tools', 'reply', r.result.tools[0].name]);
    // The cap is for the run: a later search loads nothing either.
    const later = search(s, 1, 0, 'send message');
    assert.ok(later.result.tools.length > 0);
    assert.ok(later.result.tools.every((t) => t.loaded === false));
    assert.deepEqual(later.decision.value.loaded, []);
    assert.equal(s.call(1, 1, later.result.tools[0].name, {}).result.error, 'not_on_menu');
    assert.equal(s.metrics().loaded, 1);
  });
  // maxLoaded 0: searching still works, nothing ever loads; alwaysLoaded does not count.
  withSession(config({ maxLoaded: 0, alwaysLoaded: ['mail__send'] }), (s) => {
    const r = search(s, 0, 0, 'issue');
    assert.ok(r.result.tools.length > 0 && r.result.tools.every((t) => !t.loaded));
    assert.deepEqual(names(s), ['search_tools', 'reply', 'mail__send']);
  });
});

test('maxSearches: search_limit_reached after the cap, recording nothing', () => {
  withSession(config({ maxSearches: 2 }), (s) => {
    search(s, 0, 0, 'issue');
    search(s, 0, 1, 'send');
    const journal = s.journalJSONL();
    const menu = s.menuJSON();
    const r = search(s, 0, 2, 'jira');
    assert.deepEqual(r, {
      call: { turn: 0, call: 2, tool: 'search_tools' },
      result: { error: 'search_limit_reached', message: 'no searches left in this run' },
      decision: null,
    });
    assert.equal(s.journalJSONL(), journal);
    assert.equal(s.menuJSON(), menu);
    const m = s.metrics();
    assert.equal(m.searches, 2);
    assert.equal(m.refusals, 1);
    assert.equal(m.rankerCalls, 2);
  });
  withSession(config({ maxSearches: 0 }), (s) => assert.equal(search(s, 0, 0, 'issue').result.error, 'search_limit_reached'));
});

test('maxMenuChars: a hit whose spec does not fit the budget is loaded:false', () => {
  withSession(config({ maxMenuChars: 150, maxPerSearch: 4 }), (s) => {
    const r = search(s, 0, 0, 'send email message');
    assert.equal(r.result.tools[0].name, 'mail__send');
    assert.equal(r.result.tools[0].loaded, true);
    assert.ok(r.result.tools.slice(1).every((t) => t.loaded === false), JSON.stringify(r.result.tools));
    const m = s.metrics();
    assert.ok(m.menuChars > 0 && m.menuChars <= 150, `menuChars ${m.menuChars}`);
    assert.equal(m.loaded, 1);
    assert.deepEqual(names(s), ['search_tools', 'reply', 'mail__send']);
  });
  // A budget too small for any spec loads nothing.
  withSession(config({ maxMenuChars: 1 }), (s) => {
    const r = search(s, 0, 0, 'issue');
    assert.ok(r.result.tools.length > 0 && r.result.tools.every((t) => !t.loaded));
    assert.equal(s.metrics().menuChars, 0);
  });
});

// ---- refusals ---------------------------------------------------------------------

test('refusals are typed results that record nothing and change nothing', () => {
  withSession(config({ maxPerSearch: 2 }), (s) => {
    search(s, 0, 0, 'create issue');
    const journal = s.journalJSONL();
    const menu = s.menuJSON();
    const searches = s.metrics().searches;
    const QUERY = 'query must be a non-empty string';
    const LIMIT = 'limit must be a positive integer';
    const NOT_OBJECT = 'arguments must be a JSON object (valid JSON in UTF-8)';
    const cases = [
      [{}, QUERY],
      [{ query: '' }, QUERY],
      [{ query: ' \t\n ' }, QUERY],
      [{ query: 42 }, QUERY],
      [{ query: null }, QUERY],
      [{ query: ['issue'] }, QUERY],
      [{ query: 'issue', limit: 0 }, LIMIT],
      [{ query: 'issue', limit: -1 }, LIMIT],
      [{ query: 'issue', limit: 1.5 }, LIMIT],
      [{ query: 'issue', limit: '2' }, LIMIT],
      ['[]', QUERY],
      ['"issue"', QUERY],
      ['null', QUERY],
      ['{"query":', NOT_OBJECT],
      ['', NOT_OBJECT],
      ['{"query":"issue"} trailing', NOT_OBJECT],
      [JSON.stringify({ query: 'issue', pad: 'x'.repeat(70000) }), 'arguments are too large'],
    ];
    let refusals = 0;
    for (const [args, message] of cases) {
      const r = s.call(1, 0, 'search_tools', args);
      assert.deepEqual(r.result, { error: 'invalid_input', message }, `args ${String(JSON.stringify(args)).slice(0, 60)}`);
      assert.equal(r.decision, null);
      refusals++;
    }
    // not_on_menu: the name is echoed, cut at 64 bytes.
    const r = s.call(1, 1, 'stripe__create_refund', { amount: 5 });
    assert.deepEqual(r.result, {
      error: 'not_on_menu',
      message: 'this tool is not on the menu; search for it first',
      tool: 'stripe__create_refund',
    });
    const long = 'x'.repeat(100);
    assert.equal(s.call(1, 2, long, {}).result.tool, 'x'.repeat(64));
    assert.equal(s.call(1, 3, 'jira__search', {}).result.error, 'not_on_menu'); // in the catalog, not loaded
    assert.equal(s.call(1, 4, '', {}).result.error, 'not_on_menu');
    refusals += 4;
    assert.equal(s.journalJSONL(), journal);
    assert.equal(s.menuJSON(), menu);
    const m = s.metrics();
    assert.equal(m.searches, searches);
    assert.equal(m.refusals, refusals);
  });
});

test('no hit: an accepted search with a note, recorded with empty results', () => {
  withSession(config(), (s) => {
    const r = search(s, 0, 0, 'xylophone quantum');
    // the words that matched nothing are named, so the model can rephrase
    assert.deepEqual(r.result, {
      tools: [],
      unmatched: ['xylophone', 'quantum'],
      note: 'No matching tools found. Words that matched nothing: xylophone, quantum. Try other words.',
    });
    assert.deepEqual(r.decision.value.results, []);
    assert.deepEqual(r.decision.value.loaded, []);
    assert.equal(s.metrics().noMatch, 1);
  });
});

test('the recorded query is whole, so a long one replays byte-identically', () => {
  const q = `issue ${'é'.repeat(300)}`;
  withSession(config(), (s) => {
    const r = search(s, 0, 0, q);
    assert.equal(r.decision.value.query, q);
    assert.equal(s.journal()[1].value.query, q); // [0]: the chain's header
  });
  // A cut record could end inside a +word ("+the" is refused) or drop the
  // words the recorded grades matched; the whole query re-reads as asked.
  const cfg = {
    loop: 't',
    tools: AGENT,
    catalog: {
      tools: [
        { id: 'notes__therapy_notes', name: 'therapy_notes', description: 'Write therapy session notes' },
        { id: 'chat__send_message', name: 'send_message', description: 'Send a chat message' },
      ],
    },
  };
  const long = `${'x'.repeat(189)} notes +therapy`;
  const live = withSession(cfg, (s) => {
    const r = search(s, 0, 0, long);
    assert.deepEqual(r.decision.value.loaded, ['notes__therapy_notes']);
    return { journal: s.journalJSONL(), menu: s.menuJSON(), value: r.decision.value };
  });
  withSession(
    cfg,
    (s) => {
      const r = search(s, 0, 0, live.value.query);
      assert.deepEqual(r.decision.value, live.value);
      assert.deepEqual(r.warnings ?? [], []);
      assert.equal(s.journalJSONL(), live.journal);
      assert.equal(s.menuJSON(), live.menu);
      assert.deepEqual(s.finish(), { unasked: [] });
    },
    { journal: live.journal, divergence: 'fail' },
  );
});

// ---- namespaces --------------------------------------------------------------------

test('namespaces narrow the universe to id prefixes', () => {
  withSession(config({ namespaces: ['gh__'], maxPerSearch: 10 }), (s) => {
    const r = search(s, 0, 0, 'issue jira search slack create');
    assert.deepEqual(ids(r.result).sort(), ['gh__close_issue', 'gh__create_issue', 'gh__list_issues']);
    assert.equal(s.call(0, 1, 'jira__search', {}).result.error, 'not_on_menu');
    assert.deepEqual(search(s, 0, 2, 'jira').result.tools, []);
  });
  withSession(config({ namespaces: ['jira__', 'mail__'], maxPerSearch: 10 }), (s) => {
    const r = search(s, 0, 0, 'issue send email jira');
    assert.deepEqual(ids(r.result).sort(), ['jira__create_issue', 'jira__search', 'mail__send']);
  });
  // A denied tool changes no score: the same order with and without it.
  const extra = { id: 'zz__issue_issue', name: 'issue_issue', description: 'issue issue issue create' };
  const withDenied = { ...CATALOG, tools: [...CATALOG.tools, extra] };
  const run = (catalog) =>
    withSession({ loop: 't', catalog, search: { namespaces: ['gh__', 'jira__'], maxPerSearch: 10 } }, (s) =>
      s.callJSON(0, 0, 'search_tools', { query: 'create issue' }),
    );
  assert.equal(run(withDenied), run(CATALOG));
  throwsCode(() => ts.createSession(config({ namespaces: ['gh__', ''] })), 'config', /search\.namespaces\[1\]/);
  throwsCode(() => ts.createSession(config({ namespaces: 'gh__' })), 'config', /search\.namespaces/);
});

// ---- replay --------------------------------------------------------------------------

const CORPUS_CONFIG = {
  loop: 'agent',
  tools: AGENT,
  catalog: CORPUS,
  search: { alwaysLoaded: ['filesystem__read_file'], maxPerSearch: 3, maxLoaded: 6 },
};

const CORPUS_CALLS = [
  [0, 0, 'search_tools', { query: 'send a slack message' }],
  [0, 1, 'search_tools', { query: 'Kubernetes Pods auflisten', limit: 2 }],
  [1, 0, 'slack__send_message', { channel: '#ops', text: 'deploy done' }],
  [1, 1, 'stripe__create_refund', {}],
  [1, 2, 'search_tools', { query: '' }],
  [2, 0, 'search_tools', { query: '翻译文本 translate text' }],
  [2, 1, 'search_tools', { query: 'refund a stripe payment', limit: 3 }],
  [3, 0, 'search_tools', { query: 'xylophone' }],
  [3, 1, 'reply', { text: 'ok' }],
  [3, 2, 'search_tools', { query: 'merge a pull request' }],
];

function liveRun() {
  return withSession(CORPUS_CONFIG, (s) => ({
    outputs: CORPUS_CALLS.map((c) => s.callJSON(...c)),
    journal: s.journalJSONL(),
    menus: ['mcp', 'openai', 'anthropic'].map((f) => s.menuJSON(f)),
    metrics: s.metrics(),
  }));
}

test('exact replay: byte-identical outputs and menus with zero ranker calls', () => {
  const live = liveRun();
  assert.equal(live.metrics.searches, 6);
  assert.equal(live.metrics.rankerCalls, 6);
  assert.equal(live.metrics.replayed, 0);
  const records = live.journal.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(records[0].source, 'toolsift-journal'); // the hash chain's header
  // Decisions, and a call record for each allowed call to a catalog tool.
  const decisions = records.slice(1).filter((r) => r.source !== 'agent-tool-call');
  assert.ok(records.some((r) => r.source === 'agent-tool-call'));
  assert.equal(decisions.length, 6);
  assert.deepEqual(decisions.map((d) => d.id), [
    'agent#turn:0:tool:0:search',
    'agent#turn:0:tool:1:search',
    'agent#turn:2:tool:0:search',
    'agent#turn:2:tool:1:search',
    'agent#turn:3:tool:0:search',
    'agent#turn:3:tool:2:search',
  ]);
  // The live run's searches really loaded something and hit maxLoaded.
  const loaded = decisions.flatMap((d) => d.value.loaded);
  assert.equal(loaded.length, 6);
  assert.ok(decisions.some((d) => d.value.results.length > d.value.loaded.length));

  for (const journal of [live.journal, records, JSON.stringify(records), new TextEncoder().encode(live.journal)]) {
    withSession(
      CORPUS_CONFIG,
      (s) => {
        const outputs = CORPUS_CALLS.map((c) => s.callJSON(...c));
        assert.deepEqual(outputs, live.outputs);
        assert.deepEqual(['mcp', 'openai', 'anthropic'].map((f) => s.menuJSON(f)), live.menus);
        assert.equal(s.journalJSONL(), live.journal);
        const m = s.metrics();
        assert.equal(m.rankerCalls, 0);
        assert.equal(m.replayed, 6);
        assert.equal(m.searches, 6);
        assert.equal(m.fingerprint, live.metrics.fingerprint);
        assert.deepEqual(s.finish(), { unasked: [] });
      },
      { journal },
    );
  }
});

test('applyJournal rebuilds the recorded menu without the calls', () => {
  const live = liveRun();
  withSession(
    CORPUS_CONFIG,
    (s) => {
      s.applyJournal();
      assert.deepEqual(['mcp', 'openai', 'anthropic'].map((f) => s.menuJSON(f)), live.menus);
      // The decisions again; the calls (and their records) are not made, so
      // the chain runs over other lines.
      const decisions = (j) => j.trimEnd().split('\n').map((l) => JSON.parse(l))
        .filter((r) => r.source === 'agent-tool-search').map(({ chain, ...r }) => r);
      assert.deepEqual(decisions(s.journalJSONL()), decisions(live.journal));
      assert.equal(s.metrics().rankerCalls, 0);
      assert.equal(s.metrics().replayed, 6);
      assert.deepEqual(s.finish(), { unasked: [] });
    },
    { journal: live.journal },
  );
  // Without a journal there is nothing to apply.
  withSession(CORPUS_CONFIG, (s) => {
    const menu = s.menuJSON();
    s.applyJournal();
    assert.equal(s.menuJSON(), menu);
    assert.deepEqual(s.finish(), { unasked: [] });
  });
});

test('a tampered record can only narrow: forged, hidden and duplicate ids are dropped with warnings', () => {
  const live = withSession(config({ maxPerSearch: 3 }), (s) => {
    search(s, 0, 0, 'create issue');
    return { journal: s.journal(), menu: names(s) };
  });
  // The chain sees every edit below: in "fail" mode the journal is refused
  // before anything is served; "warn" serves it and the narrowing rules hold.
  const forged = structuredClone(live.journal);
  const v = forged[1].value;
  v.results = ['not__a_tool', v.results[0], v.results[0], 'evil__issue', 42, ...v.results.slice(1)];
  v.loaded = [...v.loaded, 'not__a_tool', 'evil__issue'];
  withSession(
    config({ maxPerSearch: 3 }),
    (s) => {
      const r = search(s, 0, 0, 'create issue');
      assert.ok(r.warnings.includes('replay: dropped "not__a_tool": unknown'), JSON.stringify(r.warnings));
      assert.match(r.warnings[0], /^replay: journal decision 1 \("t#turn:0:tool:0:search"\): chain broken/);
      assert.ok(r.warnings.includes(`replay: dropped "${live.journal[1].value.results[0]}": a duplicate`));
      assert.ok(r.warnings.includes('replay: dropped a result that is not a string'));
      assert.ok(!r.decision.value.loaded.includes('evil__issue'));
      for (const n of names(s)) assert.ok(live.menu.includes(n), `${n} is beyond the live menu`);
      assert.equal(s.metrics().rankerCalls, 0);
    },
    { journal: forged, divergence: 'warn' },
  );
  throwsCode(() => ts.createSession(config({ maxPerSearch: 3 }), { journal: forged }), 'tampered',
    /^journal decision 1 \("t#turn:0:tool:0:search"\): chain broken/);
  // A record without arrays loads nothing.
  const broken = structuredClone(live.journal);
  broken[1].value = { results: 'gh__create_issue', loaded: null };
  withSession(
    config({ maxPerSearch: 3 }),
    (s) => {
      const r = search(s, 0, 0, 'create issue');
      assert.deepEqual(r.result.tools, []);
      assert.deepEqual(r.warnings.slice(1), ['replay: value.results is not an array', 'replay: value.loaded is not an array']);
      assert.deepEqual(names(s), ['search_tools', 'reply']);
    },
    { journal: broken, divergence: 'warn' },
  );
});

// ---- divergence ----------------------------------------------------------------------

test('divergence "fail": a decision the journal lacks is an error; the session stays usable', () => {
  const journal = withSession(config(), (s) => {
    search(s, 0, 0, 'create issue');
    search(s, 1, 0, 'send message');
    return s.journalJSONL();
  });
  withSession(
    config(),
    (s) => {
      throwsCode(() => search(s, 0, 5, 'create issue'), 'diverged',
        /^replay: the journal has no decision "t#turn:0:tool:5:search" at position 1$/);
      assert.equal(s.journalJSONL(), '');
      // The expected call still replays after the error.
      assert.ok(search(s, 0, 0, 'create issue').decision);
      throwsCode(() => s.finish(), 'diverged', /^replay: 1 journal decision\(s\) never asked for, first "t#turn:1:tool:0:search"$/);
      assert.ok(search(s, 1, 0, 'send message').decision);
      assert.deepEqual(s.finish(), { unasked: [] });
      assert.equal(s.metrics().rankerCalls, 0);
    },
    { journal },
  );
  // fail is the default; it can be named.
  withSession(config(), (s) => throwsCode(() => search(s, 9, 9, 'x'), 'diverged'), { journal, divergence: 'fail' });
});

test('divergence "warn": ranked live with a warning; unasked decisions are listed', () => {
  const journal = withSession(config(), (s) => {
    search(s, 0, 0, 'create issue');
    search(s, 1, 0, 'send message');
    return s.journalJSONL();
  });
  withSession(
    config(),
    (s) => {
      const r = search(s, 0, 7, 'jira');
      assert.deepEqual(r.warnings, ['replay: the journal has no decision "t#turn:0:tool:7:search" here; ranked live']);
      assert.equal(r.decision.id, 't#turn:0:tool:7:search');
      assert.ok(r.result.tools.length > 0);
      assert.equal(s.metrics().rankerCalls, 1);
      assert.deepEqual(s.finish(), { unasked: ['t#turn:0:tool:0:search', 't#turn:1:tool:0:search'] });
    },
    { journal, divergence: 'warn' },
  );
});

test('divergence "off": ranked live silently; finish still lists what was never asked', () => {
  const journal = withSession(config(), (s) => {
    search(s, 0, 0, 'create issue');
    return s.journalJSONL();
  });
  withSession(
    config(),
    (s) => {
      const r = search(s, 3, 3, 'jira');
      assert.equal(r.warnings, undefined);
      assert.equal(s.metrics().rankerCalls, 1);
      assert.deepEqual(s.finish(), { unasked: ['t#turn:0:tool:0:search'] });
    },
    { journal, divergence: 'off' },
  );
  throwsCode(() => ts.createSession(config(), { journal, divergence: 'sometimes' }), 'config', /divergence/);
  throwsCode(() => ts.createSession(config(), { divergence: 1 }), 'config', /divergence/);
});

// ---- journal forms -----------------------------------------------------------------------

test('a journal as an array, a JSON array text and JSON Lines replay the same', () => {
  const live = withSession(config(), (s) => {
    const outs = [search(s, 0, 0, 'create issue'), search(s, 0, 1, 'send message')].map((r) => JSON.stringify(r));
    return { outs, journal: s.journal(), jsonl: s.journalJSONL() };
  });
  assert.equal(live.jsonl, live.journal.map((d) => JSON.stringify(d) + '\n').join(''));
  const forms = [live.journal, JSON.stringify(live.journal), live.jsonl, `\n${live.jsonl.replace(/\n/g, '\r\n\n')}  \n`];
  for (const journal of forms) {
    withSession(
      config(),
      (s) => {
        const outs = [search(s, 0, 0, 'create issue'), search(s, 0, 1, 'send message')].map((r) => JSON.stringify(r));
        assert.deepEqual(outs, live.outs);
        assert.equal(s.metrics().replayed, 2);
      },
      { journal },
    );
  }
  // An empty journal ('' or []) replays a run that made no decision.
  for (const journal of ['', [], '[]', '\n']) {
    withSession(config(), (s) => {
      throwsCode(() => search(s, 0, 0, 'issue'), 'diverged');
      assert.deepEqual(s.finish(), { unasked: [] });
    }, { journal });
  }
  // null / undefined: no journal, a live run.
  for (const journal of [null, undefined]) {
    withSession(config(), (s) => assert.equal(search(s, 0, 0, 'issue').warnings, undefined), { journal });
  }
});

test('journal errors name the line or decision', () => {
  throwsCode(() => ts.createSession(config(), { journal: '{"id":"t#turn:0:tool:0:search"}\n{"id":\n' }), 'json', /journal line 2/);
  throwsCode(() => ts.createSession(config(), { journal: [{ source: 'x' }] }), 'config', /journal decision 1: field "id": expected a string/);
  throwsCode(() => ts.createSession(config(), { journal: '[1]' }), 'config', /journal decision 1: expected an object/);
  throwsCode(() => ts.createSession(config(), { journal: '{"a":1}' }), 'config', /journal decision 1/);
  throwsCode(() => ts.createSession(config(), { journal: 42 }), 'arg', /journal/);
  throwsCode(() => ts.createSession(config(), { journal: { id: 'x' } }), 'arg', /journal/);
});

// ---- configuration ---------------------------------------------------------------------

test('configuration errors are loud and name the cause', () => {
  const cases = [
    [config({ maxPerSearch: 0 }), /^config: search\.maxPerSearch: expected an integer from 1 to 50, got an out-of-range number$/],
    [config({ maxPerSearch: 51 }), /search\.maxPerSearch: expected an integer from 1 to 50/],
    [config({ maxPerSearch: 2.5 }), /search\.maxPerSearch/],
    [config({ maxPerSearch: '3' }), /search\.maxPerSearch: expected an integer from 1 to 50, got a string/],
    [config({ maxLoaded: 201 }), /search\.maxLoaded: expected an integer from 0 to 200/],
    [config({ maxSearches: -1 }), /search\.maxSearches: expected an integer from 0 to 200/],
    [config({ maxMenuChars: 0 }), /search\.maxMenuChars: expected an integer from 1 to 10000000/],
    [config({ toolName: 'reply' }), /search\.toolName "reply" collides with a tool of the same name/],
    [config({ toolName: 'mail__send' }), /search\.toolName "mail__send" collides/],
    [config({ toolName: 'has space' }), /search\.toolName: expected a string matching/],
    [config({ alwaysLoaded: ['nope'] }), /search\.alwaysLoaded\[0\]: no catalog tool "nope"/],
    [config({ alwaysLoaded: ['mail__send', 'mail__send'] }), /search\.alwaysLoaded\[1\]: "mail__send" is listed twice/],
    [config({ bogus: 1 }), /config: search: unknown key "bogus"/],
    [config({}, { extra: true }), /config: unknown key "extra"/],
    [config({}, { loop: 'bad loop' }), /config: loop: expected a string matching/],
    [config({}, { tools: [{ name: 'mail__send' }] }), /tools\[0\] \("mail__send"\) collides with a catalog tool/],
    [config({}, { tools: [{ name: 'a' }, { name: 'a' }] }), /config: agent tools: .*\ba\b/],
    [config({}, { tools: {} }), /config: tools: expected an array, got an object/],
    [config({}, { catalog: 'catalog.json' }), /config: catalog: a path must be resolved by the host/],
    [config({}, { catalog: [{ name: 'x' }, { name: 'x' }] }), /^config: catalog: /],
    [{ loop: 't' }, /config: missing "catalog"/],
    [[], /config: expected an object/],
  ];
  for (const [cfg, message] of cases) throwsCode(() => ts.createSession(cfg), 'config', message);
  throwsCode(() => ts.createSession('{"catalog":'), 'json', /^config: malformed JSON/);
  throwsCode(() => ts.createSession(''), 'json', /^config: empty input$/);
  throwsCode(() => ts.createSession(undefined), 'json', /^config: empty input$/);
  throwsCode(() => ts.createSession(new Uint8Array([0x7b, 0xff, 0x7d])), 'utf8', /^config: invalid UTF-8/);
  // The same configuration as text and as an object.
  const a = withSession(JSON.stringify(config()), (s) => s.metrics().fingerprint);
  const b = withSession(config(), (s) => s.metrics().fingerprint);
  assert.equal(a, b);
  assert.match(a, /^[0-9a-f]{64}$/);
  // Defaults and ceilings are accepted.
  withSession(config({ maxPerSearch: 50, maxLoaded: 200, maxSearches: 200, maxMenuChars: null, stopwords: null }), (s) =>
    assert.equal(s.menu().tools[0].inputSchema.properties.limit.maximum, 50));
});

test('a custom meta-tool name and loop id shape the menu and decision ids', () => {
  withSession(config({ toolName: 'find_tools' }, { loop: 'run-7' }), (s) => {
    assert.equal(s.menu().tools[0].name, 'find_tools');
    assert.equal(s.call(0, 0, 'search_tools', { query: 'issue' }).result.error, 'not_on_menu');
    const r = s.call(2, 3, 'find_tools', { query: 'issue' });
    assert.equal(r.decision.id, 'run-7#turn:2:tool:3:search');
  });
});

test('metrics count without query text; the fingerprint follows the configuration', () => {
  withSession(config({ maxSearches: 2 }), (s) => {
    search(s, 0, 0, 'secretword create issue');
    search(s, 0, 1, 'xylophone');
    search(s, 0, 2, 'three');
    s.call(0, 3, 'nope', {});
    const json = s.metricsJSON();
    assert.ok(!json.includes('secretword'));
    const m = JSON.parse(json);
    assert.deepEqual(Object.keys(m), [
      'searches', 'refusals', 'hits', 'noMatch', 'loaded', 'rankerCalls', 'replayed', 'preSearches', 'mode', 'menu',
      'menuChars', 'fingerprint',
    ]);
    assert.equal(m.mode, 'search');
    assert.equal(m.preSearches, 0);
    assert.equal(m.searches, 2);
    assert.equal(m.refusals, 2);
    assert.equal(m.noMatch, 1);
    assert.equal(m.rankerCalls, 2);
    assert.equal(m.menu, 2 + m.loaded);
    assert.equal(s.fingerprint, m.fingerprint);
  });
  const fp = (search) => withSession(config(search), (s) => s.fingerprint);
  assert.equal(fp({}), fp({ maxPerSearch: 5 }));
  assert.notEqual(fp({}), fp({ maxPerSearch: 4 }));
  assert.notEqual(fp({}), fp({ namespaces: ['gh__'] }));
});

// ---- arguments, freeing ------------------------------------------------------------------

test('call arguments: objects, JSON text, bytes; bad turn/call/tool are arg errors', () => {
  const forms = [{ query: 'create issue' }, '{"query":"create issue"}', new TextEncoder().encode(' {"query" : "create issue"} ')];
  const outs = forms.map((args) => withSession(config(), (s) => s.callJSON(0, 0, 'search_tools', args)));
  assert.equal(outs[1], outs[0]);
  assert.equal(outs[2], outs[0]);
  assert.equal(JSON.parse(outs[0]).result.tools[0].name, 'jira__create_issue');
  withSession(config(), (s) => {
    assert.equal(
      s.callJSON(4294967295, 4294967295, 'reply', new TextEncoder().encode('{}')),
      '{"call":{"turn":4294967295,"call":4294967295,"tool":"reply"},"result":{"allowed":true},"decision":null}',
    );
    assert.deepEqual(s.call(1, 0, 'reply').result, { allowed: true }); // args default to {}
    for (const bad of [-1, 1.5, 2 ** 32, NaN, '1', null]) {
      throwsCode(() => s.call(bad, 0, 'reply', {}), 'arg', /turn must be an integer from 0 to 4294967295/);
      throwsCode(() => s.call(0, bad, 'reply', {}), 'arg', /call index must be an integer/);
    }
    throwsCode(() => s.call(0, 0, 42, {}), 'arg', /tool must be a string/);
    throwsCode(() => s.call(0, 0, 'search_tools', () => 1), 'arg', /args/);
    throwsCode(() => s.call(0, 0, 'search_tools', { n: 1n }), 'arg', /args/);
  });
});

test('free() is idempotent; a freed session throws code "state"', () => {
  const s = ts.createSession(config());
  assert.ok(s instanceof Session);
  assert.equal(s.freed, false);
  s.free();
  s.free();
  assert.equal(s.freed, true);
  for (const fn of [
    () => s.call(0, 0, 'search_tools', { query: 'x' }),
    () => s.callJSON(0, 0, 'reply', {}),
    () => s.call(-1, 0, 'reply', {}), // the state error comes first
    () => s.menu(),
    () => s.menuJSON('openai'),
    () => s.journal(),
    () => s.journalJSONL(),
    () => s.metrics(),
    () => s.fingerprint,
    () => s.applyJournal(),
    () => s.finish(),
  ]) {
    throwsCode(fn, 'state', /^session has been freed$/);
  }
});

// ---- memory --------------------------------------------------------------------------------

test('session cycles and error paths do not grow memory unboundedly', () => {
  const mem = () => ts.memory.buffer.byteLength;
  const pinned = [];
  const start = mem();
  while (mem() === start && pinned.length < 10000) pinned.push(ts.createSession(config()));
  const cfg = JSON.stringify(config({ maxPerSearch: 3, maxLoaded: 2 }));
  const journal = withSession(cfg, (s) => {
    search(s, 0, 0, 'create issue');
    return s.journalJSONL();
  });
  const cycle = () => {
    const s = ts.createSession(cfg);
    search(s, 0, 0, 'create issue');
    search(s, 0, 1, 'send');
    s.call(0, 2, 'search_tools', '{bad');
    s.call(0, 3, 'nope', {});
    s.menuJSON('openai');
    s.journal();
    s.metrics();
    s.finish();
    s.free();
    const r = ts.createSession(cfg, { journal, divergence: 'fail' });
    search(r, 0, 0, 'create issue');
    // a divergence: its buffers must be freed too
    throwsCode(() => search(r, 5, 5, 'x'), 'diverged');
    r.free();
    for (const [bad, code] of [['{', 'json'], ['{"catalog":[],"search":{"maxPerSearch":0}}', 'config']]) {
      throwsCode(() => ts.createSession(bad), code);
    }
  };
  try {
    for (let i = 0; i < 20; i++) cycle();
    const baseline = mem();
    for (let i = 0; i < 300; i++) cycle();
    assert.ok(mem() - baseline <= 65536, `memory grew from ${baseline} to ${mem()}`);
  } finally {
    for (const p of pinned) p.free();
  }
});

test('the FinalizationRegistry frees sessions that were never freed', () => {
  const script = `
    import { load } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'js/toolsift.js')).href)};
    const ts = await load(${JSON.stringify(WASM)});
    const mem = () => ts.memory.buffer.byteLength;
    const cfg = JSON.stringify({ catalog: Array.from({ length: 10 }, (_, i) => ({ name: 't_' + i, description: 'some words '.repeat(20) })) });
    const pinned = [];
    const start = mem();
    while (mem() === start && pinned.length < 10000) pinned.push(ts.createSession(cfg));
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const round = async () => {
      for (let i = 0; i < 100; i++) ts.createSession(cfg).call(0, 0, 'search_tools', { query: 'words' });
      globalThis.gc();
      await tick();
      await tick();
    };
    for (let r = 0; r < 5; r++) await round();
    const base = mem();
    for (let r = 0; r < 20; r++) await round();
    process.stdout.write(String(mem() - base));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout) <= 65536, `memory grew by ${r.stdout} bytes`);
});

// ---- names with a NUL byte --------------------------------------------------------------------

test('a tool name with an embedded NUL is not the menu tool it starts with', () => {
  withSession(config({ alwaysLoaded: ['mail__send'] }), (s) => {
    const r = s.call(0, 0, 'mail__send\u0000evil', {});
    assert.equal(r.result.error, 'not_on_menu');
    assert.equal(r.decision, null);
    // Raw bytes, a NUL at the end, and the meta-tool's name with a tail: none is the tool.
    const bytes = new Uint8Array([...new TextEncoder().encode('mail__send'), 0, 0x78]);
    assert.equal(s.call(0, 1, bytes, {}).result.error, 'not_on_menu');
    assert.equal(s.call(0, 2, 'mail__send\u0000', {}).result.error, 'not_on_menu');
    const meta = s.call(0, 3, 'search_tools\u0000x', { query: 'send' });
    assert.equal(meta.result.error, 'not_on_menu');
    assert.equal(meta.decision, null);
    assert.equal(s.journalJSONL(), '');
    // The clean name still is.
    assert.deepEqual(s.call(0, 4, 'mail__send', {}).result, { allowed: true });
  });
});

// ---- known core issues (reported, not worked around) -----------------------------------------

test('a journal with an escaped NUL in an id is refused with a json error, never read as the id before the NUL', () => {
  const journal = [{
    id: 't#turn:0:tool:0:search',
    source: 'agent-tool-search',
    value: { ranker: 'bm25f-5', query: 'send', results: ['mail__send\u0000evil'], loaded: ['mail__send\u0000evil'] },
  }];
  assert.throws(() => ts.createSession(config(), { journal }), (e) => {
    assert.ok(e instanceof ToolsiftError);
    assert.equal(e.code, 'json');
    assert.match(e.message, /u0000 escape \(NUL character\)/);
    return true;
  });
});

test('search arguments with an escaped lone surrogate are invalid_input (or replaced), not out of memory', () => {
  withSession(config(), (s) => {
    const r = s.call(0, 0, 'search_tools', '{"query":"issue \\ud800"}');
    assert.ok(r.result.error === 'invalid_input' || Array.isArray(r.result.tools));
  });
});
