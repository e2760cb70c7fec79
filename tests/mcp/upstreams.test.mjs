// upstreams.test.mjs — isolation per upstream (issue 34): tools toolsift's
// strict reader refuses are skipped one by one, however many, with a warning
// naming the server, the tool and the reason; a server whose whole list is
// refused is unavailable and leaves the catalog (and the search tool's
// overview), the others keep working — at start and on every list_changed.
// And what the log shows of upstream text: names cut at 128 characters, an
// upstream's stderr lines at 512, control characters escaped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { load } from '../../js/toolsift.js';
import { checkConfig } from '../../js/mcp/config.js';
import { buildUniverse } from '../../js/mcp/catalog.js';
import { ClientSession } from '../../js/mcp/session.js';
import { shown, shownText } from '../../js/mcp/errors.js';
import { FIXTURE, connectHttp, connectStdio, journals, names, replay, search, startHttpGateway, tempDir, text, until, writeConfig } from './helpers.mjs';

const toolsift = await load();

const tool = (name, description = 'A fine tool.') => ({ name, description, inputSchema: { type: 'object', properties: {} } });
// n tools whose descriptions carry a NUL character (JSON "\u0000"): the core's strict reader refuses each
const nulTools = (n, prefix = 'nul') => Array.from({ length: n }, (_, i) => tool(`${prefix}_${i}`, `evil\u0000tool ${i}`));

test('the 70-tool "\\u0000" upstream beside a good server: skipped by name at start and after list_changed; search keeps working in every session', async (t) => {
  const dir = tempDir(t);
  const state = (name, value) => {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };
  const flip = state('flip', {});
  const fixture = (products, stateFile, extra = {}) => ({ command: process.execPath,
    args: [FIXTURE, '--products', products, ...(stateFile ? ['--state', stateFile] : [])], ...extra });
  const config = writeConfig(dir, {
    mcpServers: {
      good: fixture('slack,github', null, { trusted: true }),
      // 70 refused tools and the fixture's 3 control tools
      bad: fixture('none', state('bad', { extra: nulTools(70) })),
      // 70 refused tools and nothing else: its whole list is refused
      allbad: fixture('none', state('allbad', { drop: ['fixture_'], extra: nulTools(70) })),
      // starts sound; its list turns bad by list_changed
      flip: fixture('none', flip),
    },
    journal: { dir: path.join(dir, 'journals') },
  });
  const gw = await startHttpGateway(config);
  t.after(() => gw.stop());
  const a = await connectHttp(gw.url, gw.token); // a session opened before the lists change
  t.after(() => a.client.close());
  const log = () => gw.stderr();

  await t.test('at start: the gateway serves; every refused tool is skipped, named with its server and reason', async () => {
    assert.doesNotMatch(log(), /config: a \\u0000/, 'no error blames the configuration');
    assert.match(log(), /warning: server "bad": tool "nul_0" skipped: toolsift refused it \(in its "description"\): a \\u0000 escape \(NUL character\) is not allowed in a string/);
    // ten one by one, the other 60 on one line that counts them, gives the reason and names the first
    for (let i = 0; i < 10; i++) assert.match(log(), new RegExp(`server "bad": tool "nul_${i}" skipped`));
    assert.match(log(), /warning: server "bad": 60 more tools skipped \(70 in all\): 60 × toolsift refused it \(in its "description"\): a \\u0000 escape .* — "nul_10", "nul_11", .*, and 40 more/);
    assert.match(log(), /warning: server "allbad" is unavailable: none of the 70 tool\(s\) it lists can be indexed/);
    assert.doesNotMatch(log(), /server "(good|bad|flip)" is unavailable/);
    // the search tool's overview is the core's, of the catalog: no group for
    // the unavailable server, and the bad one's three sound tools only
    const [meta] = (await a.client.listTools()).tools;
    assert.match(meta.description, /The catalog has \d+ tools in 3 groups: /);
    assert.match(meta.description, /bad \(3\)/);
    assert.match(meta.description, /flip \(3\)/);
    assert.doesNotMatch(meta.description, /allbad|nul_/);
    const r = await search(a.client, 'send a slack message', 1);
    assert.deepEqual(r.tools.map((h) => h.name), ['good__slack__send_message']);
  });

  await t.test('by list_changed: 70 refused tools arrive; skipped by name, search goes on', async () => {
    await search(a.client, 'select:flip__fixture_reload');
    writeFileSync(flip, JSON.stringify({ extra: nulTools(70, 'late') }));
    assert.match(text(await a.client.callTool({ name: 'flip__fixture_reload', arguments: {} })), /reloaded: 73 tools/);
    await until(() => /server "flip": 60 more tools skipped \(70 in all\)/.test(log()), 15000, 'the relisted tools judged');
    assert.match(log(), /\[flip\] tools\/list_changed: 73 tools/);
    assert.match(log(), /warning: server "flip": tool "late_0" skipped: toolsift refused it \(in its "description"\)/);
    const r = await search(a.client, 'create a github issue', 1);
    assert.deepEqual(r.tools.map((h) => h.name), ['good__github__create_issue']);
  });

  await t.test('by list_changed: a whole list refused makes its server unavailable; both sessions keep searching', async () => {
    const generations = (log().match(/generation \d+ /g) ?? []).length;
    writeFileSync(flip, JSON.stringify({ drop: ['fixture_'], extra: nulTools(70, 'late') }));
    await a.client.callTool({ name: 'flip__fixture_reload', arguments: {} });
    await until(() => /server "flip" is unavailable/.test(log()) && (log().match(/generation \d+ /g) ?? []).length > generations,
      15000, 'flip unavailable, a new generation');
    // the session opened before: a new segment over the good server's tools
    const r = await search(a.client, 'list the channels in slack', 1);
    assert.equal(r.tools.length, 1, JSON.stringify(r));
    assert.match(r.tools[0].name, /^good__slack__/);
    const gone = await a.client.callTool({ name: 'flip__fixture_reload', arguments: {} });
    assert.equal(gone.isError, true);
    assert.match(text(gone), /no connected server offers it any more/);
    // a session opened after: its overview has no flip group
    const b = await connectHttp(gw.url, gw.token);
    t.after(() => b.client.close());
    const [meta] = (await b.client.listTools()).tools;
    assert.match(meta.description, /The catalog has \d+ tools in 2 groups: /);
    assert.doesNotMatch(meta.description, /flip|allbad/);
    const rb = await search(b.client, 'send a slack message', 1);
    assert.deepEqual(rb.tools.map((h) => h.name), ['good__slack__send_message']);
    assert.deepEqual(await names(b.client), ['search_tools', 'good__slack__send_message']);
  });

  await t.test('the journals replay into the menus the clients were listed', async () => {
    const listed = (await a.client.listTools()).tools;
    await a.transport.terminateSession();
    const files = journals(path.join(dir, 'journals'));
    assert.equal(files.length, 2);
    const replays = await Promise.all(files.map(replay));
    for (const r of replays) assert.equal(r.status, 0, r.stderr);
    assert.ok(replays.some((r) => JSON.stringify(r.tools) === JSON.stringify(listed)));
  });
});

test('buildUniverse: the core judges each tool once; 1,000 refused tools cost one line per server beyond ten', () => {
  const config = checkConfig({ mcpServers: {
    good: { command: 'x', trusted: true, annotations: { send_email: { tags: ['mail'], aliases: ['post\u0000a letter'] } } },
    bad: { command: 'y', maxTools: 2000 },
    allbad: { command: 'z', maxTools: 2000 },
  } });
  const ups = new Map([
    ['good', { tools: [tool('send_email', 'Send an email to a recipient'), tool('list_inbox', 'List the messages in the inbox')] }],
    ['bad', { tools: [...nulTools(1000), tool('fine_tool', 'Post a chat message')] }],
    ['allbad', { tools: nulTools(1000, 'x') }],
  ]);
  const u = buildUniverse(toolsift, config, ups);
  assert.deepEqual(u.catalog.tools.map((x) => x.id), ['good__send_email', 'good__list_inbox', 'bad__fine_tool']);
  assert.deepEqual([...u.unavailable.keys()], ['allbad']);
  const w = u.warnings.join('\n');
  // the host's annotation is the configuration's fault: named by its key, the tool kept without it
  assert.match(w, /mcpServers\.good\.annotations\."send_email": toolsift refused it \(in its "annotations"\): a \\u0000 escape .*; the tool is indexed without it/);
  assert.equal(u.catalog.annotations.good__send_email, undefined);
  assert.equal(u.warnings.filter((x) => x.startsWith('server "bad"')).length, 11);
  assert.equal(u.warnings.filter((x) => x.startsWith('server "allbad"')).length, 12); // and "is unavailable"
  assert.match(w, /server "bad": 990 more tools skipped \(1000 in all\)/);
  assert.ok(u.fingerprint && u.snapshot, 'a sound index, from which sessions start');
  const cs = new ClientSession(toolsift, config, null);
  cs.adopt({ ...u, generation: 0 }, 0);
  const r = cs.callMeta(cs.nextTurn(), 'search_tools', { query: 'send an email' });
  assert.equal(r.result.tools[0].name, 'good__send_email');
  cs.close();
});

test('buildUniverse: 1,000 tools without a name cost one line per server beyond ten, as other skipped tools do', () => {
  const config = checkConfig({ mcpServers: { mixed: { command: 'x', trusted: true, maxTools: 5000 }, nameless: { command: 'y', maxTools: 5000 } } });
  const nameless = (n) => Array.from({ length: n }, (_, i) => [null, 7, 'a string', [], {}, { name: 42 }, { description: 'no name' }][i % 7]);
  const ups = new Map([
    ['mixed', { tools: [...nameless(500), tool('send_email', 'Send an email to a recipient'), ...nameless(500), { name: 'no_schema' }] }],
    ['nameless', { tools: nameless(1000) }],
  ]);
  const u = buildUniverse(toolsift, config, ups);
  assert.deepEqual(u.catalog.tools.map((x) => x.id), ['mixed__send_email']);
  assert.deepEqual([...u.unavailable.keys()], ['nameless']);
  const mixed = u.warnings.filter((x) => x.startsWith('server "mixed"'));
  assert.equal(mixed.length, 11, mixed.join('\n'));
  assert.equal(mixed[0], 'server "mixed": a tool without a name was skipped (item 1 of its list)');
  assert.equal(mixed[9], 'server "mixed": a tool without a name was skipped (item 10 of its list)');
  assert.match(mixed[10], /^server "mixed": 991 more tools skipped \(1001 in all\): 990 × it has no name; 1 × its inputSchema is not a JSON Schema of type "object" — item 11 \(no name\), item 12 \(no name\), .*, and 971 more$/);
  const none = u.warnings.filter((x) => x.startsWith('server "nameless"'));
  assert.equal(none.length, 12, none.join('\n')); // ten, the rest, and "is unavailable"
  assert.match(none[10], /^server "nameless": 990 more tools skipped \(1000 in all\): 990 × it has no name — /);
  assert.match(none[11], /^server "nameless" is unavailable: none of the 1000 tool\(s\) it lists can be indexed/);
  assert.ok(u.warnings.length <= 24, `${u.warnings.length} warning lines`);
});

test('buildUniverse: what the core refuses only together — a server refused as a whole leaves; servers refused together keep the old generation', () => {
  // A core that refuses the catalog when two poisoned tools are in it
  // together (each alone is fine): what no per-tool check can catch.
  const picky = { createIndex(catalog, options) {
    const json = typeof catalog === 'string' ? catalog : JSON.stringify(catalog);
    if (json.includes('poison_a') && json.includes('poison_b')) throw new Error('catalog: the poisons meet');
    return toolsift.createIndex(catalog, options);
  } };
  const config = checkConfig({ mcpServers: { good: { command: 'x', trusted: true }, pair: { command: 'y' }, p: { command: 'z' }, q: { command: 'w' } } });
  const good = tool('send_email', 'Send an email');
  const one = buildUniverse(picky, config, new Map([['good', { tools: [good] }], ['pair', { tools: [tool('poison_a'), tool('poison_b')] }]]));
  assert.deepEqual(one.catalog.tools.map((x) => x.id), ['good__send_email']);
  assert.match(one.unavailable.get('pair'), /toolsift refused its tool list as a whole: catalog: the poisons meet/);
  assert.match(one.warnings.join('\n'), /server "pair" is unavailable: toolsift refused its tool list as a whole/);
  assert.throws(() => buildUniverse(picky, config, new Map([['good', { tools: [good] }], ['p', { tools: [tool('poison_a')] }], ['q', { tools: [tool('poison_b')] }]])),
    /toolsift refused the tools of servers "good", "p", "q" together \(each server's alone is accepted\): catalog: the poisons meet/);
});

test('the log shows upstream text cut: a 10,000-character tool name at 128 characters, a 100,000-character stderr line at 512', async (t) => {
  const dir = tempDir(t);
  const long = 'x'.repeat(10000);
  const stateFile = path.join(dir, 'long.json');
  writeFileSync(stateFile, JSON.stringify({ extra: [
    tool(long, 'ten thousand characters: more than an id may have (the core refuses it)'),
    { name: `y${long}`, inputSchema: { type: 'string' } },
    tool('w'.repeat(200), 'two hundred characters: served under a safe name'),
    tool('z\nforged log line', 'a newline in a name'),
  ] }));
  const noisy = "process.stderr.write('E'.repeat(100000) + '\\nafter the long line\\n\\u001b[31mred\\n'); setInterval(() => {}, 1e6)";
  const config = writeConfig(dir, { mcpServers: {
    long: { command: process.execPath, args: [FIXTURE, '--products', 'none', '--state', stateFile] },
    noisy: { command: process.execPath, args: ['-e', noisy], connectTimeoutMs: 1500, restart: { maxAttempts: 0 } },
  } });
  const { client, stderr } = await connectStdio(config);
  t.after(() => client.close());
  await until(() => /\[noisy\] failed: gave up/.test(stderr()), 15000, 'the noisy server to fail');
  const lines = stderr().split('\n');
  const longest = Math.max(...lines.map((l) => l.length));
  assert.ok(longest < 1000, `the longest log line has ${longest} characters`);
  const x128 = `"${'x'.repeat(128)}…"`;
  assert.ok(lines.some((l) => l.includes(`server "long": tool ${x128} skipped: toolsift refused it`)), 'the refused name, cut');
  assert.ok(lines.some((l) => l.includes(`server "long": tool "y${'x'.repeat(127)}…" skipped: its inputSchema is not`)));
  assert.ok(lines.some((l) => l.includes(`server "long": tool "${'w'.repeat(128)}…" is offered to models as "long__w`)), 'a safe-named tool, cut');
  assert.ok(lines.some((l) => l.includes('server "long": tool "z\\u000aforged log line" skipped: toolsift refused it')));
  assert.ok(!lines.some((l) => l.startsWith('forged log line')), 'a newline in a name forges no line');
  assert.ok(lines.some((l) => l === `toolsift-mcp: [noisy] ${'E'.repeat(512)}…`), 'the stderr line cut at 512');
  assert.ok(lines.includes('toolsift-mcp: [noisy] after the long line'), 'the next line is kept');
  assert.ok(lines.includes('toolsift-mcp: [noisy] \\u001b[31mred'), 'control characters escaped');
  assert.match(stderr(), /generation 0 \(start\): 4 tools/, 'the three control tools and the safe-named one');
});

test('shown and shownText: cut on code points, controls and bidi escaped', () => {
  assert.equal(shown('a'.repeat(128)), `"${'a'.repeat(128)}"`);
  assert.equal(shown('a'.repeat(129)), `"${'a'.repeat(128)}…"`);
  assert.equal(shown('😀'.repeat(200)), `"${'😀'.repeat(128)}…"`, 'a surrogate pair is never split');
  assert.equal(shown('a\nb"c\u202ed'), '"a\\u000ab\\"c\\u202ed"');
  assert.equal(shownText(`${'e'.repeat(600)}`).length, 513);
  assert.equal(shownText('tab\tkept, \u0007 bell escaped'), 'tab\tkept, \\u0007 bell escaped');
});
