// changes.test.mjs — the universe moving under a running client session:
// an upstream's tools/list_changed (a new generation, a new journal segment),
// an upstream that dies and is restarted, one that fails for good, one
// removed from the configuration (SIGHUP), upstreams that never connect or
// list bad tools — and the journal of all that replayed into the same menus.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURE, connectStdio, journals, names, readLines, replay, search, tempDir, text, until, writeConfig } from './helpers.mjs';

test('list_changed, restart, failure and removal of upstreams under one client session', async (t) => {
  const dir = tempDir(t);
  const state = path.join(dir, 'state.json');
  writeFileSync(state, '{}');
  const badState = path.join(dir, 'bad.json');
  writeFileSync(badState, JSON.stringify({ extra: [
    { name: 'bad name', description: 'spaces are not allowed', inputSchema: { type: 'object' } },
    { name: 'string_schema', description: 'not an object schema', inputSchema: { type: 'string' } },
    { name: 'good_tool', description: 'A perfectly good tool.', inputSchema: { type: 'object', properties: {} } },
  ] }));
  const journalDir = path.join(dir, 'journals');
  const servers = {
    catalog: { command: process.execPath, args: [FIXTURE, '--products', 'github,stripe', '--state', state], trusted: true,
      restart: { maxAttempts: 3, backoffMs: 100 } },
    flaky: { command: process.execPath, args: [FIXTURE, '--products', 'weather'], trusted: true, namespace: 'wx',
      restart: { maxAttempts: 0 } },
    broken: { command: path.join(dir, 'no-such-command'), restart: { maxAttempts: 0 } },
    badtools: { command: process.execPath, args: [FIXTURE, '--products', 'none', '--state', badState] },
    removable: { command: process.execPath, args: [FIXTURE, '--products', 'zendesk'], trusted: true },
    slow: { command: process.execPath, args: [FIXTURE, '--products', 'none'], callTimeoutMs: 300 },
  };
  const configFile = writeConfig(dir, { mcpServers: servers, search: { maxPerSearch: 2 }, journal: { dir: journalDir } });
  const { client, stderr, pid } = await connectStdio(configFile);
  t.after(() => client.close());
  const seen = [];
  const searchAndSee = async (q, limit) => {
    const r = await search(client, q, limit);
    seen.push(await names(client));
    return r;
  };
  const call = (name, args = {}) => client.callTool({ name, arguments: args });

  await t.test('bad upstreams do not stop the gateway; bad tools are dropped by name', async () => {
    assert.match(stderr(), /\[broken\] cannot connect/);
    assert.match(stderr(), /\[broken\] failed: gave up/);
    // a name a model cannot call by is kept, under the core's safe name (ids.test.mjs calls one)
    assert.match(stderr(), /tool "bad name" is offered to models as "badtools__bad_name_[0-9a-f]{8}"/);
    assert.match(stderr(), /tool "string_schema" skipped: its inputSchema is not a JSON Schema of type "object"/);
    const r = await searchAndSee('good_tool', 1);
    assert.deepEqual(r.tools.map((h) => h.name), ['badtools__good_tool']);
  });

  let firstPid;
  await t.test('load tools from every server', async () => {
    const a = await searchAndSee('refund a stripe charge', 1);
    assert.deepEqual(a.tools.map((h) => h.name), ['catalog__stripe__create_refund']);
    const b = await searchAndSee('create a github issue', 1);
    assert.deepEqual(b.tools.map((h) => h.name), ['catalog__github__create_issue']);
    const c = await searchAndSee('re-read the state file and announce the new tool list', 1);
    assert.deepEqual(c.tools.map((h) => h.name), ['catalog__fixture_reload']);
    const d = await searchAndSee('exit the upstream process right after answering', 2);
    assert.deepEqual(d.tools.map((h) => h.name).sort(), ['catalog__fixture_exit', 'removable__fixture_exit']);
    const e = await searchAndSee('current weather for a city', 1);
    assert.equal(e.tools.length, 1);
    assert.match(e.tools[0].name, /^wx__weather__/);
    const f = await searchAndSee('zendesk ticket', 1);
    assert.match(f.tools[0].name, /^removable__zendesk__/);
    firstPid = JSON.parse(text(await call('catalog__github__create_issue', { title: 't' }))).pid;
  });

  await t.test('a forwarded call past callTimeoutMs is an error naming the server', async () => {
    const r = await searchAndSee('slow__fixture_sleep', 1); // an id ranks its tool first
    assert.deepEqual(r.tools.map((h) => h.name), ['slow__fixture_sleep']);
    const quick = await call('slow__fixture_sleep', { ms: 0 });
    assert.equal(text(quick), 'slept');
    const late = await call('slow__fixture_sleep', { ms: 3000 });
    assert.equal(late.isError, true);
    assert.match(text(late), /The call to "slow__fixture_sleep" failed at its server "slow": .*timed out/i);
  });

  await t.test('an upstream list_changed re-indexes: a new generation and a new segment', async () => {
    writeFileSync(state, JSON.stringify({ drop: ['stripe__'], extra: [{ name: 'zz_forecast',
      description: 'Forecast tomorrow\'s rainfall for a harbour.', inputSchema: { type: 'object', properties: { harbour: { type: 'string' } } } }] }));
    const fingerprint0 = /generation 0 \(start\): \d+ tools, fingerprint (\w+)/.exec(stderr())[1];
    const r = await call('catalog__fixture_reload');
    assert.match(text(r), /reloaded/);
    await until(() => /generation 1 \(server "catalog" changed its tools\)/.test(stderr()), 10000, 'generation 1');
    const fingerprint1 = /generation 1 .*fingerprint (\w+)/.exec(stderr())[1];
    assert.notEqual(fingerprint1, fingerprint0);
    const waiting = client.nextListChanged();
    const s = await searchAndSee('rainfall in a harbour', 1);
    await waiting;
    assert.deepEqual(s.tools.map((h) => h.name), ['catalog__zz_forecast']);
    // The dropped tool stays listed (the menu is append-only) but says why it cannot run.
    assert.ok(seen.at(-1).includes('catalog__stripe__create_refund'));
    const gone = await call('catalog__stripe__create_refund', { charge: 'ch_1' });
    assert.equal(gone.isError, true);
    assert.match(text(gone), /was loaded earlier in this session, but no connected server offers it any more/);
    // Loaded tools that still exist were carried into the new segment.
    assert.equal(JSON.parse(text(await call('catalog__github__create_issue', { title: 'u' }))).tool, 'github__create_issue');
  });

  await t.test('an upstream that dies is restarted; its tools stay, no new generation', async () => {
    await call('catalog__fixture_exit');
    await until(() => /\[catalog\] ready: \d+ tools \(restart 1\)/.test(stderr()), 15000, 'the restart');
    const out = JSON.parse(text(await call('catalog__github__create_issue', { title: 'after restart' })));
    assert.notEqual(out.pid, firstPid, 'a new upstream process answered');
    assert.doesNotMatch(stderr(), /generation 2/);
  });

  await t.test('an upstream that fails for good: its tools leave the universe', async () => {
    const wxTool = seen.at(-1).find((n) => n.startsWith('wx__'));
    // flaky has restart.maxAttempts 0; kill it through its own exit tool
    // after loading it.
    const e = await searchAndSee('exit the upstream process right after answering', 1);
    assert.deepEqual(e.tools.map((h) => h.name), ['wx__fixture_exit']);
    await call('wx__fixture_exit');
    await until(() => /\[flaky\] failed: gave up/.test(stderr()) && /generation 2/.test(stderr()), 10000, 'flaky to fail');
    const r = await call(wxTool, {});
    assert.equal(r.isError, true);
    assert.match(text(r), /no connected server offers it any more/);
    const s = await searchAndSee('current weather for a city', 2);
    assert.ok(!s.tools.some((h) => h.name.startsWith('wx__')), JSON.stringify(s));
  });

  await t.test('a server removed from the configuration (SIGHUP): its tools leave', async () => {
    const zd = seen.at(-1).find((n) => n.startsWith('removable__zendesk__'));
    const { removable, ...rest } = servers;
    writeConfig(dir, { mcpServers: rest, search: { maxPerSearch: 2 }, journal: { dir: journalDir } });
    process.kill(pid(), 'SIGHUP');
    await until(() => /configuration reloaded/.test(stderr()) && /generation 3/.test(stderr()), 10000, 'the reload');
    assert.match(stderr(), /\[removable\] removed from the configuration/);
    const r = await call(zd, {});
    assert.equal(r.isError, true);
    assert.match(text(r), /no connected server offers it any more/);
    const s = await searchAndSee('zendesk ticket', 2);
    assert.ok(!s.tools.some((h) => h.name.startsWith('removable__')), JSON.stringify(s));
  });

  await t.test('the journal has one segment per generation seen and replays into the same menus', async () => {
    const finalTools = (await client.listTools()).tools;
    const [file] = journals(journalDir);
    const lines = readLines(file);
    const segments = lines.filter((l) => l.source === 'toolsift-mcp-segment');
    assert.deepEqual(segments.map((s) => s.value.generation), [0, 1, 2, 3]);
    // caps carry over: the later segments have what is left of maxSearches (25)
    const searchesBefore = (k) => lines.slice(0, lines.indexOf(segments[k])).filter((l) => l.source === 'agent-tool-search').length;
    for (const k of [1, 2, 3]) assert.equal(segments[k].value.config.search.maxSearches, 25 - searchesBefore(k));
    const r = await replay(file);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.steps.filter((s) => s.decision).map((s) => s.menu), seen);
    assert.deepEqual(r.tools, finalTools);
  });
});
