// session.test.mjs — the gateway's pieces without processes: configuration
// errors, the universe built from upstream tool lists, (turn, call)
// numbering, segments carrying the menu and the caps across generations, and
// replay of edited journals (a damaged catalog is refused; an edited decision
// can only narrow).

import { test } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { load } from '../../js/toolsift.js';
import { checkConfig, readConfig, GatewayConfigError } from '../../js/mcp/config.js';
import { buildUniverse } from '../../js/mcp/catalog.js';
import { ClientSession } from '../../js/mcp/session.js';
import { replayJournal, JournalError } from '../../js/mcp/replay.js';
import { loadGatewayModel } from '../../js/mcp/model.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const toolsift = await load();

const tool = (name, description, props = {}) => ({ name, description, inputSchema: { type: 'object', properties: props } });
const TOOLS = {
  mail: [tool('send_email', 'Send an email to a recipient', { to: { type: 'string' } }),
    tool('list_inbox', 'List the messages in the inbox'), tool('delete_email', 'Delete an email message')],
  chat: [tool('post_message', 'Post a chat message to a channel'), tool('list_channels', 'List the chat channels')],
};

function universeOf(config, lists, generation = 0) {
  const ups = new Map(Object.entries(lists).map(([k, tools]) => [k, { tools }]));
  return { ...buildUniverse(toolsift, config, ups), generation };
}

const baseConfig = (search = {}) => checkConfig({
  mcpServers: { mail: { command: 'x', trusted: true }, chat: { command: 'y', trusted: true } },
  search,
});

test('configuration errors name the key', () => {
  const bad = [
    [{ mcpServers: {}, serach: {} }, /config: unknown key "serach"/],
    [{ mcpServers: { a: {} } }, /mcpServers\.a\.command: a stdio server needs a command/],
    [{ mcpServers: { a: { url: 'ftp://x' } } }, /mcpServers\.a\.url: expected an http\(s\) URL/],
    [{ mcpServers: { a: { command: 'x', namespace: 'n' }, b: { command: 'y', namespace: 'n' } } }, /mcpServers\.b\.namespace: "n" is also the namespace of server "a"/],
    [{ mcpServers: { a: { command: 'x', namespace: 'a__b' } } }, /mcpServers\.a\.namespace: .*without "__"/],
    [{ mcpServers: { a: { command: 'x', trusted: 'yes' } } }, /mcpServers\.a\.trusted: expected true or false/],
    [{ mcpServers: { a: { command: 'x', restart: { tries: 1 } } } }, /mcpServers\.a\.restart: unknown key "tries"/],
    [{ mcpServers: { a: { command: 'x', annotations: { t: { labels: [] } } } } }, /mcpServers\.a\.annotations\.t: unknown key "labels"/],
    [{ mcpServers: {}, search: { alwaysLoaded: [''] } }, /search\.alwaysLoaded: not a tool id/],
    [{ mcpServers: { a: { command: 'x', perSession: 1 } } }, /mcpServers\.a\.perSession: expected true or false/],
    [{ mcpServers: {}, http: { tokens: [{ name: 'ci', token: 'short' }] } }, /http\.tokens\[0\]\.token: a token is at least 16 printable ASCII/],
    [{ mcpServers: {}, http: { tokens: [{ name: 'ci', token: 'x'.repeat(16) }, { name: 'ci', token: 'y'.repeat(16) }] } }, /http\.tokens\[1\]\.name: "ci" is the name of another token/],
    [{ mcpServers: {}, http: { tokens: [{ token: 'x'.repeat(16) }] } }, /http\.tokens\[0\]\.name: expected 1-64 characters/],
    [{ mcpServers: {}, http: { tokens: 'secret' } }, /http\.tokens: expected an array of \{ name, token \}/],
    [{ mcpServers: {}, http: { allowedOrigins: ['*'] } }, /http\.allowedOrigins\[0\]: expected an origin like/],
    [{ mcpServers: {}, http: { allowedOrigins: ['null'] } }, /http\.allowedOrigins\[0\]/],
    [{ mcpServers: {}, http: { allowedOrigins: ['https://app.example/path'] } }, /http\.allowedOrigins\[0\]/],
    [{ mcpServers: {}, http: { maxSessions: 0 } }, /http\.maxSessions: expected an integer from 1/],
    [{ mcpServers: {}, journal: { maxBytes: -1 } }, /journal\.maxBytes: expected an integer from 0/],
  ];
  for (const [raw, re] of bad) assert.throws(() => checkConfig(raw), (e) => e instanceof GatewayConfigError && re.test(e.message), JSON.stringify(raw));
  const ok = checkConfig({ mcpServers: { h: { url: 'http://127.0.0.1:9/mcp' }, s: { command: 'c', disabled: true } } });
  assert.equal(ok.servers.length, 1);
  assert.equal(ok.servers[0].type, 'http');
  assert.equal(ok.servers[0].perSession, false);
  assert.deepEqual([ok.http.maxSessions, ok.journalMaxBytes, ok.http.tokens, ok.http.allowedOrigins], [64, 64 * 1024 * 1024, [], []]);
  const origins = checkConfig({ mcpServers: {}, http: { allowedOrigins: ['https://App.example:443/', 'http://localhost:5173'] } });
  assert.deepEqual(origins.http.allowedOrigins, ['https://app.example', 'http://localhost:5173']);
});

test('the universe: namespaced, remote, trusted per server, host annotations', () => {
  const config = checkConfig({ mcpServers: { mail: { command: 'x', trusted: true,
    annotations: { send_email: { tags: ['smtp'], aliases: ['write a letter'] } } }, chat: { command: 'y' } } });
  const u = universeOf(config, TOOLS);
  assert.deepEqual(u.catalog.tools.map((t) => t.id),
    ['mail__send_email', 'mail__list_inbox', 'mail__delete_email', 'chat__post_message', 'chat__list_channels']);
  assert.ok(u.catalog.tools.every((t) => t.origin === 'remote'));
  assert.deepEqual(u.catalog.tools.map((t) => t.trusted), [true, true, true, false, false]);
  assert.deepEqual(u.catalog.annotations['mail__send_email'], { tags: ['smtp'], aliases: ['write a letter'] });
  assert.deepEqual(u.routes.get('chat__post_message'), { server: 'chat', name: 'post_message' });
  const index = toolsift.createIndex(u.catalog);
  assert.deepEqual(index.search('write a letter', { limit: 1 }).hits.map((h) => h.id), ['mail__send_email']);
  assert.deepEqual(index.search('channel', { limit: 5 }).hits.map((h) => h.id), ['chat__list_channels'],
    'an unvouched description is not indexed; the name is');
  index.free();
  // the same lists give the same key; another list another key
  assert.equal(universeOf(config, TOOLS).key, u.key);
  assert.notEqual(universeOf(config, { mail: TOOLS.mail }).key, u.key);
});

test('numbering, segments and caps that carry over a new generation', () => {
  const config = baseConfig({ maxPerSearch: 2, maxLoaded: 3, maxSearches: 4 });
  const lines = [];
  const cs = new ClientSession(toolsift, config, (l) => lines.push(l));
  const u0 = universeOf(config, TOOLS, 0);
  assert.equal(cs.adopt(u0, 0), true);
  assert.equal(cs.adopt(u0, 0), false, 'same generation: nothing to do');
  let turn = cs.nextTurn();
  const r1 = cs.callMeta(turn, 'search_tools', { query: 'email' });
  assert.deepEqual(r1.result.tools.map((t) => t.name), ['mail__delete_email', 'mail__send_email']);
  assert.equal(r1.menuChanged, true);
  turn = cs.nextTurn();
  assert.deepEqual(cs.gate(turn, 'mail__send_email', {}, u0), { forward: 'mail__send_email' });
  turn = cs.nextTurn();
  assert.match(cs.gate(turn, 'chat__post_message', {}, u0).error, /not loaded in this session/);
  // generation 1: chat loses post_message, mail unchanged
  const u1 = universeOf(config, { mail: TOOLS.mail, chat: [TOOLS.chat[1]] }, 1);
  turn = cs.nextTurn();
  assert.equal(turn, 3);
  cs.adopt(u1, turn);
  const r2 = cs.callMeta(turn, 'search_tools', { query: 'list messages channels' });
  // maxLoaded 3 with 2 loaded: one more loads, the other is reported not loaded
  assert.deepEqual(r2.result.tools.map((t) => t.loaded), [true, false]);
  const seg = JSON.parse(lines.find((l) => l.includes('"segment":1')));
  assert.equal(seg.value.turn, 3);
  assert.equal(seg.value.config.search.maxLoaded, 1);
  assert.equal(seg.value.config.search.maxSearches, 3);
  assert.deepEqual(seg.value.config.search.alwaysLoaded, ['mail__delete_email', 'mail__send_email']);
  // each segment line is followed by its toolsift journal: the chain's
  // header, then the decisions and the allowed calls (written as they happen)
  assert.deepEqual(lines.map((l) => JSON.parse(l).id), ['mcp#segment:0', 'mcp#journal', 'mcp#turn:0:tool:0:search',
    'mcp#turn:1:tool:0:call', 'mcp#segment:1', 'mcp#journal', 'mcp#turn:3:tool:0:search']);
  assert.deepEqual(JSON.parse(lines[3]).value, { tool: 'mail__send_email' });
  // segment 1's header continues segment 0's last digest (the call record's)
  assert.equal(JSON.parse(lines[5]).value.parent, JSON.parse(lines[3]).chain);
  assert.equal(JSON.parse(lines[1]).value.parent, '0'.repeat(64));
  const listed = cs.listTools().map((t) => t.name);
  cs.close();
  // replay gives the same menu
  const r = replayJournal(toolsift, lines.join('\n') + '\n');
  assert.deepEqual(r.tools.map((t) => t.name), listed);
  assert.deepEqual(r.warnings, []);
});

test('the chain runs across segments: a segment dropped or moved is refused; a keyed journal needs its key', () => {
  const key = 'a5'.repeat(32);
  for (const journalKey of [null, key]) {
    const config = { ...baseConfig({ maxPerSearch: 2, maxLoaded: 3, maxSearches: 4 }), journalKey };
    const lines = [];
    const cs = new ClientSession(toolsift, config, (l) => lines.push(l));
    cs.adopt(universeOf(config, TOOLS, 0), 0);
    cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'email' });
    const t = cs.nextTurn();
    cs.adopt(universeOf(config, { mail: TOOLS.mail, chat: [TOOLS.chat[1]] }, 1), t);
    cs.callMeta(t, 'search_tools', { query: 'list messages channels' });
    cs.close();
    assert.equal(JSON.parse(lines[1]).value.mac, journalKey ? 'hmac-sha256' : 'none');
    const opts = { journalKey };
    assert.deepEqual(replayJournal(toolsift, lines.join('\n'), opts).warnings, []);
    // segment 1 alone (segment 0 dropped): its header's parent is not the start
    assert.throws(() => replayJournal(toolsift, lines.slice(3).join('\n'), opts),
      (e) => e.code === 'tampered' && /does not continue the journal before it/.test(e.message));
    if (journalKey) {
      assert.throws(() => replayJournal(toolsift, lines.join('\n')),
        (e) => e.code === 'tampered' && /the journal is keyed/.test(e.message));
      assert.throws(() => replayJournal(toolsift, lines.join('\n'), { journalKey: '5a'.repeat(32) }),
        (e) => e.code === 'tampered' && /written with another key/.test(e.message));
    }
  }
});

test('replay: a damaged catalog is refused, an edited decision or segment breaks the chain', () => {
  const config = baseConfig();
  const lines = [];
  const cs = new ClientSession(toolsift, config, (l) => lines.push(l));
  cs.adopt(universeOf(config, TOOLS), 0);
  cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'send an email' });
  cs.close();
  const honest = replayJournal(toolsift, lines.join('\n'));
  const [segLine, header, decision] = lines;
  // a widened catalog in the segment line no longer matches its key
  const seg = JSON.parse(segLine);
  seg.value.config.catalog.tools.push({ id: 'evil__tool', name: 'tool', description: 'x' });
  assert.throws(() => replayJournal(toolsift, [JSON.stringify(seg), header, decision].join('\n')),
    (e) => e instanceof JournalError && /does not match its catalogKey/.test(e.message));
  // an edited decision breaks the segment's hash chain: refused, named
  for (const edit of [(v) => v.results.push('evil__tool'), (v) => (v.loaded = [...v.results])]) {
    const d = JSON.parse(decision);
    edit(d.value);
    assert.throws(() => replayJournal(toolsift, [segLine, header, JSON.stringify(d)].join('\n')),
      (e) => e.code === 'tampered' && /^journal decision 1 \("mcp#turn:0:tool:0:search"\): chain broken/.test(e.message));
  }
  assert.ok(honest.tools.length >= 2, JSON.stringify(honest.tools.map((t) => t.name)));
  // without its header, a chained segment is refused too
  assert.throws(() => replayJournal(toolsift, [segLine, decision].join('\n')),
    (e) => e.code === 'tampered' && /header line is missing/.test(e.message));
  // the recorded session fingerprint is checked: a mismatch is an error
  const other = JSON.parse(lines[0]);
  assert.match(other.value.sessionFingerprint, /^[0-9a-f]{64}$/);
  other.value.sessionFingerprint = '0'.repeat(64);
  assert.throws(() => replayJournal(toolsift, [JSON.stringify(other), header, decision].join('\n')),
    (e) => e instanceof JournalError && /segment 0: its configuration does not match the recorded session fingerprint \(recorded 0{64}/.test(e.message));
  delete other.value.sessionFingerprint;
  assert.throws(() => replayJournal(toolsift, [JSON.stringify(other), header, decision].join('\n')),
    (e) => e instanceof JournalError && /segment 0: no sessionFingerprint/.test(e.message));
  // an edited segment configuration (alwaysLoaded, a cap, a tool's trust
  // with its catalogKey recomputed) is reported as such, not replayed
  const rekey = (v) => {
    v.catalogKey = createHash('sha256').update(JSON.stringify(v.config.catalog)).digest('hex');
    return v;
  };
  const edits = {
    alwaysLoaded: (v) => v.config.search.alwaysLoaded.push('mail__delete_email'),
    caps: (v) => (v.config.search.maxLoaded = 19),
    trust: (v) => (v.config.catalog.tools.find((t) => t.id === 'mail__delete_email').trusted = false),
  };
  for (const [what, edit] of Object.entries(edits)) {
    const seg = JSON.parse(lines[0]);
    edit(seg.value);
    rekey(seg.value);
    // the segment's chain header binds the session fingerprint: the core refuses it first
    assert.throws(() => replayJournal(toolsift, [JSON.stringify(seg), header, decision].join('\n')),
      (e) => e.code === 'tampered' && /recorded (over catalog|under another session configuration)/.test(e.message), what);
  }
  assert.throws(() => replayJournal(toolsift, `${lines[0]}\n{"id":"x","source":"other","value":{}}`), /unknown record source "other"/);
  assert.throws(() => replayJournal(toolsift, decision), /a decision before any segment line/);
  assert.throws(() => replayJournal(toolsift, header), /a chain header that does not follow a segment line/);
});

test('skills: activate_skill appends the skill\'s tools, survives a new generation, replays', () => {
  const config = checkConfig({
    mcpServers: { mail: { command: 'x', trusted: true }, chat: { command: 'y', trusted: true } },
    skills: { skills: [{ id: 'triage', description: 'Triage the inbox and tell the team.', tags: ['ops'],
      tools: ['mail__list_inbox', 'chat__post_message'], instructions: 'List the inbox, then post a summary.' }] },
  });
  const lines = [];
  const cs = new ClientSession(toolsift, config, (l) => lines.push(l));
  cs.adopt(universeOf(config, TOOLS, 0), 0);
  assert.deepEqual(cs.listTools().map((t) => t.name), ['search_tools', 'activate_skill']);
  assert.match(cs.segment.session.skillIndex(), /- triage: Triage the inbox/);
  const turn = cs.nextTurn();
  assert.equal(cs.isMeta('activate_skill'), true);
  const r = cs.callMeta(turn, 'activate_skill', { name: 'triage' });
  assert.equal(r.result.instructions, 'List the inbox, then post a summary.');
  assert.equal(r.menuChanged, true);
  assert.deepEqual(cs.listTools().map((t) => t.name), ['search_tools', 'activate_skill', 'mail__list_inbox', 'chat__post_message']);
  // a new generation without chat: the skill stays active (selected), its
  // remaining tool carried, the chat tool listed but gone
  const u1 = universeOf(config, { mail: TOOLS.mail }, 1);
  const t2 = cs.nextTurn();
  cs.adopt(u1, t2);
  const seg = JSON.parse(lines.findLast((l) => l.includes('"source":"toolsift-mcp-segment"')));
  assert.deepEqual(seg.value.config.skills.selected, ['triage']);
  assert.match(cs.gate(t2, 'chat__post_message', {}, u1).error, /no connected server offers it any more/);
  assert.deepEqual(cs.gate(cs.nextTurn(), 'mail__list_inbox', {}, u1), { forward: 'mail__list_inbox' });
  const listed = cs.listTools();
  cs.close();
  const replayed = replayJournal(toolsift, lines.join('\n'));
  assert.deepEqual(replayed.tools, listed);
});

test('hostile tool lists: lone surrogates, odd types, deep schemas, bad names never sink the catalog', () => {
  const config = checkConfig({ mcpServers: { a: { command: 'x', trusted: true, maxTools: 5 } } });
  let deep = { type: 'object' };
  for (let i = 0; i < 5000; i++) deep = { type: 'object', properties: { a: deep } };
  const tools = [
    tool('ok', 'fine'),
    { name: 'surrogates', description: 'bad \ud800 text', inputSchema: { type: 'object', properties: { ['k\udc00']: { type: 'string' } } } },
    { name: 'odd_types', description: 7, title: 7, inputSchema: { type: 'object', properties: { a: { type: 'string', description: 5 } } } },
    { name: 'very_deep', description: 'x', inputSchema: deep },
    { name: 'no schema', description: 'x' },
    { name: 'array_schema', inputSchema: [] },
    null,
    tool('ok', 'listed twice'),
    tool('seventh', 'past maxTools'),
    tool('eighth', 'past maxTools'),
  ];
  const u = universeOf(config, { a: tools });
  assert.deepEqual(u.catalog.tools.map((t) => t.id), ['a__ok', 'a__surrogates', 'a__odd_types', 'a__very_deep', 'a__seventh']);
  assert.equal(u.catalog.tools[1].description, 'bad \ufffd text');
  const w = u.warnings.join('\n');
  assert.match(w, /tool "no schema" skipped: its inputSchema is not a JSON Schema/);
  assert.match(w, /tool "array_schema" skipped/);
  assert.match(w, /a tool without a name was skipped/);
  assert.match(w, /tool "ok" skipped: listed twice/);
  assert.match(w, /tools past maxTools \(5\) skipped, from "eighth" on/);
  const cs = new ClientSession(toolsift, config, null);
  cs.adopt(u, 0);
  const r = cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'bad text' });
  assert.deepEqual(r.result.tools.map((t) => t.name), ['a__surrogates']);
  cs.close();
});

test('a generation toolsift refuses for a session leaves it running in its segment', () => {
  const config = checkConfig({
    mcpServers: { mail: { command: 'x', trusted: true }, chat: { command: 'y', trusted: true } },
    search: { maxSearches: 1 },
    skills: { skills: [{ id: 'triage', description: 'Triage the inbox.', tools: ['mail__list_inbox'] }], discovery: 'search' },
  });
  const cs = new ClientSession(toolsift, config, null);
  const u0 = universeOf(config, TOOLS, 0);
  cs.adopt(u0, 0);
  cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'send an email' });
  // the search budget is spent: a new segment would have maxSearches 0,
  // which toolsift refuses with skills discovery through search
  const u1 = universeOf(config, { mail: TOOLS.mail }, 1);
  assert.throws(() => cs.adopt(u1, cs.nextTurn()), /maxSearches/);
  assert.equal(cs.adopt(u1, cs.nextTurn()), false, 'not retried on every call');
  assert.equal(cs.segment.generation, 0);
  assert.ok(!cs.segment.session.freed);
  assert.deepEqual(cs.gate(cs.nextTurn(), 'mail__send_email', {}, u0), { forward: 'mail__send_email' });
  cs.close();
});

test('the loop\'s search keys (load, strong, overview, overviewChars) reach every segment\'s session', () => {
  const lists = { ...TOOLS, chat: [...TOOLS.chat, tool('send_sms', 'Send a text message to a phone')] };
  const run = (search) => {
    const config = baseConfig({ maxPerSearch: 5, ...search });
    const lines = [];
    const cs = new ClientSession(toolsift, config, (l) => lines.push(l));
    cs.adopt(universeOf(config, lists), 0);
    const description = cs.listTools()[0].description;
    const r = cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'send an email to my landlord' });
    const listed = cs.listTools();
    // a new generation carries them too
    const u1 = universeOf(config, { mail: TOOLS.mail, chat: lists.chat.slice(1) }, 1);
    cs.adopt(u1, cs.nextTurn());
    const description1 = cs.listTools()[0].description;
    const segments = lines.filter((l) => l.includes('"toolsift-mcp-segment"')).map((l) => JSON.parse(l).value.config.search);
    const final = cs.listTools();
    cs.close();
    return { config, description, description1, result: r.result, menuChanged: r.menuChanged, listed, segments, lines, final };
  };
  const dflt = run({});
  const loaded = (x) => x.result.tools.filter((h) => h.loaded).map((h) => h.name);
  const partial = dflt.result.tools.filter((h) => h.match === 'partial');
  assert.ok(partial.length > 0 && partial.every((h) => !h.loaded), JSON.stringify(dflt.result));
  assert.deepEqual(loaded(dflt), ['mail__send_email']);
  assert.match(dflt.description, /\n\nThe catalog has 6 tools in 2 groups: /);
  assert.doesNotMatch(dflt.description1, /6 tools/, 'the overview follows the new generation');
  assert.match(dflt.description1, /\n\nThe catalog has 5 tools in 2 groups: /);
  // load: "all" — every hit the caps allow loads, partial ones too
  const all = run({ load: 'all' });
  assert.deepEqual(all.config.search.load, 'all');
  assert.deepEqual(loaded(all), all.result.tools.map((h) => h.name));
  assert.ok(all.result.tools.some((h) => h.match === 'partial'));
  // strong: a rule that wants every word matched ("landlord" is in no tool)
  const strict = run({ strong: { coverage: 1, pairCoverage: 1, relative: 1 } });
  assert.deepEqual(loaded(strict), []);
  assert.equal(strict.menuChanged, false);
  assert.match(strict.result.note, /^No tool matches this request well/);
  // overview: off, the host's own text, a budget
  const off = run({ overview: false });
  assert.doesNotMatch(off.description, /The catalog has/);
  const own = run({ overview: 'Mail and chat tools.' });
  assert.ok(own.description.endsWith('\n\nMail and chat tools.'), own.description);
  assert.ok(own.description1.endsWith('\n\nMail and chat tools.'));
  const short = run({ overviewChars: 100 });
  const overviewOf = (d) => d.slice(d.indexOf('\n\nThe catalog has') + 2);
  assert.ok(overviewOf(dflt.description).length > 100, 'the default overview is longer than the budget below');
  assert.ok(overviewOf(short.description).length <= 100, short.description);
  assert.match(overviewOf(short.description), /and 1 more group\.$/);
  for (const x of [all, strict, off, own, short]) {
    for (const seg of x.segments) {
      for (const k of ['load', 'strong', 'overview', 'overviewChars']) assert.deepEqual(seg[k], x.config.search[k], k);
    }
    // each segment's recorded configuration replays into the same menu
    const r = replayJournal(toolsift, x.lines.join('\n'));
    assert.deepEqual(r.tools, x.final);
    assert.deepEqual(r.warnings, []);
  }
  // bad values are toolsift's to refuse, naming the key (the gateway's start
  // makes a session first, so they fail the start)
  for (const [search, re] of [[{ load: 'some' }, /search\.load/], [{ strong: { cover: 0.5 } }, /unknown key "cover"/],
    [{ overview: 3 }, /search\.overview/], [{ overviewChars: 5 }, /search\.overviewChars/]]) {
    const config = baseConfig(search);
    const cs = new ClientSession(toolsift, config, null);
    assert.throws(() => cs.adopt(universeOf(config, TOOLS), 0), re, JSON.stringify(search));
    cs.close();
  }
  // the example configuration is a valid one and names the loop's keys
  const example = readConfig(fileURLToPath(new URL('../../examples/mcp/gateway.json', import.meta.url)));
  assert.deepEqual(Object.keys(example.search).filter((k) => ['load', 'overview', 'overviewChars'].includes(k)),
    ['load', 'overview', 'overviewChars']);
});

test('search.model: every generation embedded, each live query embedded, the journal replayed without the model', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-gw-model-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const tools = Object.entries(TOOLS).flatMap(([ns, list]) => list.map((x) => ({ name: `${ns}__${x.name}`, description: x.description })));
  writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify(tools));
  const gen = spawnSync(process.execPath, [path.join(ROOT, 'scripts/gen-static-model.mjs'), '--out', path.join(dir, 'm'), '--catalog', path.join(dir, 'catalog.json'), '--dim', '16']);
  assert.equal(gen.status, 0, String(gen.stderr));
  const raw = { mcpServers: { mail: { command: 'x', trusted: true }, chat: { command: 'y', trusted: true } }, search: { model: 'm', minSimilarity: -1 } };
  const config = checkConfig(raw, dir);
  assert.deepEqual(config.model, { dir: path.join(dir, 'm'), minSimilarity: -1 });
  const model = loadGatewayModel(toolsift, config.model);
  t.after(() => model.free());
  const ups = new Map(Object.entries(TOOLS).map(([k, list]) => [k, { tools: list }]));
  const universe = { ...buildUniverse(toolsift, config, ups, model), generation: 0 };
  assert.equal(universe.embedder, model);
  // the snapshot carries the model's vectors
  const ix = toolsift.indexFromSnapshot(universe.snapshot);
  assert.deepEqual(ix.info().vectors, { model: model.id, dim: 16 });
  ix.free();
  const lines = [];
  const cs = new ClientSession(toolsift, config, (l) => lines.push(l));
  cs.adopt(universe, 0);
  const live = cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'send an email' });
  assert.throws(() => model.free(), /live session/, 'the model outlives the sessions that embed with it');
  cs.close();
  const decision = lines.map((l) => JSON.parse(l)).find((r) => r.source === 'agent-tool-search');
  assert.equal(decision.value.ranker, `bm25f-6+vec:${model.id}`);
  // a replay needs neither the model nor vectors: the same tools
  const r = replayJournal(toolsift, lines.join('\n') + '\n');
  assert.deepEqual(r.warnings, []);
  assert.ok(JSON.stringify(live).includes('mail__send_email'), JSON.stringify(live));
  assert.ok(r.tools.some((x) => x.name === 'mail__send_email'), JSON.stringify(r.tools));
  // the settings' errors name the key; a missing file names the file
  assert.throws(() => checkConfig({ ...raw, search: { model: 3 } }, dir), /search\.model: expected "glove" or the directory/);
  assert.throws(() => checkConfig({ ...raw, search: { model: 'm', minSimilarity: 2 } }, dir), /search\.minSimilarity: expected a number from -1 to 1/);
  assert.throws(() => checkConfig({ ...raw, search: { minSimilarity: 0.2 } }, dir), /search\.minSimilarity: is a setting of search\.model/);
  assert.throws(() => loadGatewayModel(toolsift, { dir: path.join(dir, 'nope') }),
    (e) => e instanceof GatewayConfigError && /search\.model: cannot read .*nope\/model\.safetensors/.test(e.message));
  writeFileSync(path.join(dir, 'm', 'tokenizer.json'), '{"model":{}}');
  assert.throws(() => loadGatewayModel(toolsift, config.model), (e) => e instanceof GatewayConfigError && /search\.model: .*tokenizer/.test(e.message));
});

test('call records: written as calls happen, failures reported to the segment that allowed them, the journal limit ends the file', () => {
  const config = baseConfig({ maxPerSearch: 2 });
  const lines = [];
  let full = false;
  const cs = new ClientSession(toolsift, config, (l) => lines.push(l), { principal: 'ci', full: () => full });
  const u0 = universeOf(config, TOOLS, 0);
  cs.adopt(u0, 0);
  cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'send an email' });
  const t1 = cs.nextTurn();
  assert.deepEqual(cs.gate(t1, 'mail__send_email', {}, u0), { forward: 'mail__send_email' });
  assert.equal(JSON.parse(lines.at(-1)).id, 'mcp#turn:1:tool:0:call', 'written at once, not with the next decision');
  assert.equal(cs.callFailed(t1, 'mail__send_email'), true);
  assert.deepEqual([JSON.parse(lines.at(-1)).source, JSON.parse(lines.at(-1)).value], ['agent-tool-call-failed', { tool: 'mail__send_email' }]);
  assert.throws(() => cs.callFailed(t1, 'mail__delete_email'), /no call to a catalog tool of that name was allowed/);
  // the principal is the chain header's client
  assert.equal(JSON.parse(lines[1]).value.client, 'ci');
  assert.equal(JSON.parse(lines[0]).value.principal, 'ci');
  // a call in flight when the session moved to a new generation: its failure is not recorded
  const t2 = cs.nextTurn();
  cs.gate(t2, 'mail__send_email', {}, u0);
  const u1 = universeOf(config, { mail: TOOLS.mail }, 1);
  cs.adopt(u1, cs.nextTurn());
  const n = lines.length;
  assert.equal(cs.callFailed(t2, 'mail__send_email'), false);
  assert.equal(lines.length, n);
  // the journal is full: the next call goes on but its record is left out, and nothing after it is written
  const t4 = cs.nextTurn();
  assert.deepEqual(cs.gate(t4, 'mail__send_email', {}, u1), { forward: 'mail__send_email' });
  full = true;
  const t5 = cs.nextTurn();
  assert.deepEqual(cs.gate(t5, 'mail__send_email', {}, u1), { forward: 'mail__send_email' }, 'the call itself is allowed');
  assert.equal(cs.callFailed(t5, 'mail__send_email'), true);
  full = false; // even with room again (never, live: bytes only grow) the file stays a prefix
  cs.gate(cs.nextTurn(), 'mail__send_email', {}, u1);
  assert.deepEqual(lines.slice(n).map((l) => JSON.parse(l).id), ['mcp#turn:4:tool:0:call']);
  // the file's segment 1 is a prefix of the segment's chain (header, the call of turn 4)
  const core = cs.segmentJournalLines();
  const written = lines.slice(lines.findIndex((l) => l.includes('"mcp#segment:1"')) + 1);
  assert.deepEqual(core.map((l) => JSON.parse(l).source), ['toolsift-journal', 'agent-tool-call', 'agent-tool-call',
    'agent-tool-call-failed', 'agent-tool-call']);
  assert.deepEqual(written, core.slice(0, 2));
  const listed = cs.listTools();
  cs.close();
  const r = replayJournal(toolsift, lines.join('\n'));
  assert.deepEqual(r.tools, listed);
  assert.deepEqual(r.steps.filter((s) => s.call).map((s) => [s.call, s.failed ?? false]),
    [['mcp#turn:1:tool:0:call', false], ['mcp#turn:1:tool:0:call', true], ['mcp#turn:2:tool:0:call', false], ['mcp#turn:4:tool:0:call', false]]);
});

test('replay: a segment\'s vocabulary and principal must be the ones its chain recorded', () => {
  const text = JSON.stringify({ annotations: { mail__send_email: { tags: ['landlord'], aliases: ['write a letter'] } } });
  const sha = (s) => createHash('sha256').update(s, 'utf8').digest('hex');
  const config = { ...baseConfig(), vocabulary: { file: 'words.json', text, key: sha(text) } };
  const u = universeOf(config, TOOLS);
  assert.equal(u.catalogKey, universeOf(baseConfig(), TOOLS).key, 'the catalog is the same');
  assert.notEqual(u.key, u.catalogKey, 'the generation is another');
  const lines = [];
  const cs = new ClientSession(toolsift, config, (l) => lines.push(l), { principal: 'ci' });
  cs.adopt(u, 0);
  const r = cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'write a letter to my landlord' });
  assert.deepEqual(r.result.tools.filter((h) => h.loaded).map((h) => h.name), ['mail__send_email']);
  cs.gate(cs.nextTurn(), 'mail__send_email', {}, u);
  const listed = cs.listTools();
  cs.close();
  assert.deepEqual(replayJournal(toolsift, lines.join('\n')).tools, listed);
  const edit = (f) => {
    const seg = JSON.parse(lines[0]);
    f(seg.value);
    return [JSON.stringify(seg), ...lines.slice(1)].join('\n');
  };
  // the principal is the header's client: another one is the core's header
  // problem; none (the segment line is not chained) continues the client
  // the chain header recorded, into the same journal
  assert.throws(() => replayJournal(toolsift, edit((v) => (v.principal = 'eve'))),
    (e) => e.code === 'tampered' && /recorded for client "ci", the live session's is "eve"/.test(e.message));
  assert.deepEqual(replayJournal(toolsift, edit((v) => delete v.principal)).tools, listed);
  const wider = JSON.stringify({ annotations: { mail__delete_email: { tags: ['landlord'] } } });
  assert.throws(() => replayJournal(toolsift, edit((v) => (v.vocabulary = wider))),
    (e) => e instanceof JournalError && /segment 0's vocabulary does not match its vocabularyKey/.test(e.message));
  // with its key recomputed, the core sees another vocabulary than the chain header's: diverged
  assert.throws(() => replayJournal(toolsift, edit((v) => Object.assign(v, { vocabulary: wider, vocabularyKey: sha(wider) }))),
    (e) => e.code === 'diverged' && /recorded under vocabulary [0-9a-f]{12}…, the live index has vocabulary/.test(e.message));
  assert.throws(() => replayJournal(toolsift, edit((v) => { delete v.vocabulary; delete v.vocabularyKey; })),
    (e) => e.code === 'diverged' && /the live index has no vocabulary/.test(e.message));
});
