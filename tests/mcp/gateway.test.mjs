// gateway.test.mjs — toolsift-mcp over stdio, driven by the official SDK
// client, in front of real upstreams from npm (server-everything,
// server-filesystem, server-memory) and the in-repo catalog upstream (421
// tools): list → search → list_changed → forwarded call → result, the
// not-loaded and unknown-tool errors, the trust policy, and the journal
// replayed by `toolsift-mcp --replay` into the menus the client saw. Then
// the confident loop through the gateway: graded hits (strong ones load,
// partial ones are listed), select:, a miss, and their journal.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  EVERYTHING, FILESYSTEM, FIXTURE, MEMORY, connectStdio, coreSearchDescription, journals, names, readLines, replay,
  search, searchRaw, tempDir, text, writeConfig,
} from './helpers.mjs';

test('stdio gateway in front of everything, filesystem, memory and the catalog upstream', async (t) => {
  const dir = tempDir(t);
  const data = path.join(dir, 'data');
  mkdirSync(data);
  writeFileSync(path.join(data, 'notes.txt'), 'hello from the filesystem upstream\n');
  const trustState = path.join(dir, 'trust-state.json');
  writeFileSync(trustState, JSON.stringify({ extra: [{ name: 'zz_morph_x', description: 'Transmogrify a quokka into a wombat.',
    inputSchema: { type: 'object', properties: { creature: { type: 'string', description: 'Which marsupial.' } } } }] }));
  const journalDir = path.join(dir, 'journals');
  const config = writeConfig(dir, {
    mcpServers: {
      catalog: { command: process.execPath, args: [FIXTURE], trusted: true,
        annotations: { github__create_issue: { tags: ['bug tracker'], aliases: ['file a ticket'] } } },
      everything: { command: process.execPath, args: [EVERYTHING] },
      fs: { command: process.execPath, args: [FILESYSTEM, data], trusted: true },
      memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
        alwaysLoaded: ['read_graph'] },
      vouched: { command: process.execPath, args: [FIXTURE, '--products', 'none', '--state', trustState], trusted: true },
      unvouched: { command: process.execPath, args: [FIXTURE, '--products', 'none', '--state', trustState] },
    },
    search: { maxPerSearch: 3 },
    journal: { dir: journalDir },
  });
  const { client, stderr } = await connectStdio(config);
  t.after(() => client.close());
  const seen = []; // the tool names the client listed after each search

  await t.test('lists search_tools and the always-loaded tool only', async () => {
    assert.deepEqual(await names(client), ['search_tools', 'memory__read_graph']);
    // search_tools is the core's meta-tool, with the overview of this catalog
    const [meta] = (await client.listTools()).tools;
    assert.ok(meta.description.startsWith(`${await coreSearchDescription()}\n\n`), meta.description);
    assert.match(meta.description, /\n\nThe catalog has \d+ tools in 6 groups: catalog \(421\): /);
    assert.match(stderr(), /\[catalog\] ready: 421 tools/);
    assert.equal(client.getServerCapabilities().tools.listChanged, true);
    assert.match(client.getInstructions(), /search_tools/);
  });

  await t.test('a search loads matches, sends list_changed, and returns their schemas', async () => {
    const before = client.listChangedCount();
    const waiting = client.nextListChanged();
    const r = await search(client, 'create a github issue');
    await waiting;
    assert.equal(client.listChangedCount(), before + 1);
    assert.ok(r.tools.length > 0 && r.tools.length <= 3, JSON.stringify(r));
    assert.ok(r.tools.every((h) => h.loaded === true && h.inputSchema?.type === 'object'));
    assert.ok(r.tools.some((h) => h.name === 'catalog__github__create_issue'), JSON.stringify(r.tools.map((h) => h.name)));
    const listed = await names(client);
    seen.push(listed);
    for (const h of r.tools) assert.ok(listed.includes(h.name));
    assert.equal(r.tainted, undefined, 'a trusted server\'s hits are not tainted');
  });

  await t.test('host annotations are indexed (alias "file a ticket")', async () => {
    // Already loaded tools are never returned again, so ask in a fresh turn
    // for something only the alias says: nothing left to load but no error.
    const r = await search(client, 'file a ticket');
    assert.ok(!r.tools.some((h) => h.name === 'catalog__github__create_issue'));
    seen.push(await names(client));
  });

  await t.test('a loaded tool is forwarded to its upstream and the result comes back', async () => {
    const r = await client.callTool({ name: 'catalog__github__create_issue', arguments: { owner: 'acme', repo: 'api', title: 'Crash' } });
    assert.equal(r.isError, undefined);
    const echo = JSON.parse(text(r));
    assert.equal(echo.tool, 'github__create_issue', 'the upstream got its own name, not the namespaced one');
    assert.deepEqual(echo.arguments, { owner: 'acme', repo: 'api', title: 'Crash' });
  });

  await t.test('a call to a tool that is not loaded is an error telling the model to search', async () => {
    const r = await client.callTool({ name: 'catalog__slack__send_message', arguments: { channel: '#x', text: 'y' } });
    assert.equal(r.isError, true);
    assert.match(text(r), /"catalog__slack__send_message" is not loaded.*Call search_tools first/);
    const u = await client.callTool({ name: 'nope__nothing', arguments: {} });
    assert.equal(u.isError, true);
    assert.match(text(u), /no tool named "nope__nothing".*search_tools/);
    assert.deepEqual(await names(client), seen.at(-1), 'refusals change nothing');
  });

  await t.test('server-everything: search, load, call', async () => {
    const r = await search(client, 'echo');
    assert.ok(r.tools.some((h) => h.name === 'everything__echo'), JSON.stringify(r));
    assert.equal(r.tainted, true, 'hits from an unvouched server are marked tainted');
    seen.push(await names(client));
    const out = await client.callTool({ name: 'everything__echo', arguments: { message: 'hi there' } });
    assert.match(text(out), /hi there/);
  });

  await t.test('server-filesystem: search, load, call inside the allowed directory', async () => {
    const r = await search(client, 'list the files in a directory', 2);
    assert.ok(r.tools.some((h) => h.name === 'fs__list_directory'), JSON.stringify(r.tools.map((h) => h.name)));
    seen.push(await names(client));
    const out = await client.callTool({ name: 'fs__list_directory', arguments: { path: data } });
    assert.match(text(out), /notes\.txt/);
  });

  await t.test('server-memory: an always-loaded tool and a searched one, loaded with select:', async () => {
    // server-memory is un-vouched, so its tools are indexed by name only:
    // "knowledge graph" is no word of memory__create_entities' name, and it
    // is listed as a partial match, not loaded. The client loads it by name.
    const before = await names(client);
    const r = await search(client, 'create entities in the knowledge graph memory', 2);
    const hit = r.tools.find((h) => h.name === 'memory__create_entities');
    assert.ok(hit, JSON.stringify(r.tools.map((h) => h.name)));
    assert.deepEqual([hit.loaded, hit.match, hit.inputSchema], [false, 'partial', undefined], JSON.stringify(hit));
    assert.match(r.note, /select:<name>/);
    const listed = await names(client);
    seen.push(listed);
    assert.ok(!listed.includes('memory__create_entities'), 'a partial hit is listed in the result, not loaded');
    assert.deepEqual(listed, [...before, ...r.tools.filter((h) => h.loaded).map((h) => h.name)]);
    const waiting = client.nextListChanged();
    const s = await search(client, 'select:memory__create_entities');
    await waiting;
    assert.deepEqual(s.tools.map((h) => [h.name, h.loaded, h.match]), [['memory__create_entities', true, 'selected']]);
    assert.equal(s.tools[0].inputSchema?.type, 'object', 'a selected tool comes with its schema');
    assert.equal(s.tainted, true, 'select: keeps the trust policy: an un-vouched tool\'s page is tainted');
    const after = await names(client);
    seen.push(after);
    assert.deepEqual(after, [...listed, 'memory__create_entities']);
    const made = await client.callTool({ name: 'memory__create_entities', arguments: {
      entities: [{ name: 'toolsift', entityType: 'project', observations: ['gateway test'] }] } });
    assert.notEqual(made.isError, true, text(made));
    const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} });
    assert.match(text(graph), /gateway test/);
  });

  await t.test('trust: only a trusted server\'s descriptions are searchable and shown', async () => {
    const r = await search(client, 'transmogrify a quokka');
    assert.deepEqual(r.tools.map((h) => h.name), ['vouched__zz_morph_x'], JSON.stringify(r));
    seen.push(await names(client));
    const listed = (await client.listTools()).tools;
    const byName = new Map(listed.map((x) => [x.name, x]));
    assert.equal(byName.get('vouched__zz_morph_x').description, 'Transmogrify a quokka into a wombat.');
    assert.equal(byName.get('everything__echo').description, 'Third-party tool; description withheld');
    assert.equal(byName.get('memory__read_graph').description, 'Third-party tool; description withheld');
    // the unvouched copy is found by its name, its description still withheld
    const u = await search(client, 'zz_morph_x', 1);
    assert.deepEqual(u.tools.map((h) => [h.name, h.description]),
      [['unvouched__zz_morph_x', 'Third-party tool; description withheld']]);
    assert.equal(u.tainted, true);
    seen.push(await names(client));
    const schema = (await client.listTools()).tools.find((x) => x.name === 'unvouched__zz_morph_x').inputSchema;
    assert.deepEqual(schema, { type: 'object', properties: { creature: { type: 'string' } } }, 'schema text stripped');
    // the start says, per server, whether its descriptions are vouched for and what that means
    const trustLines = stderr().split('\n').filter((l) => / trusted: (true|false) — /.test(l));
    assert.deepEqual(trustLines.map((l) => /\[(\w+)\] trusted: (\w+)/.exec(l).slice(1).join(' ')).sort(),
      ['catalog true', 'everything false', 'fs true', 'memory false', 'unvouched false', 'vouched true']);
    assert.ok(trustLines.includes('toolsift-mcp: [vouched] trusted: true — its tools\' descriptions are searched and shown ' +
      'to the model: you vouch that this text carries no instructions to it'), trustLines.join('\n'));
    assert.ok(trustLines.includes('toolsift-mcp: [unvouched] trusted: false — its tools\' descriptions are withheld from ' +
      'the model and not searched (names, schema property names and annotations are); "trusted": true in its entry vouches for them'),
    trustLines.join('\n'));
  });

  await t.test('the journal replays into the same menus, with zero ranking', async () => {
    const finalTools = (await client.listTools()).tools;
    const [file, ...others] = journals(journalDir);
    assert.equal(others.length, 0, 'one journal file per client session');
    const lines = readLines(file);
    assert.equal(lines[0].source, 'toolsift-mcp-segment');
    const decisions = lines.filter((l) => l.source === 'agent-tool-search');
    assert.equal(decisions.length, seen.length);
    // (turn, call) numbering: the n-th tools/call of the session is turn n
    assert.deepEqual(decisions.map((d) => d.id),
      ['mcp#turn:0:tool:0:search', 'mcp#turn:1:tool:0:search', 'mcp#turn:5:tool:0:search',
        'mcp#turn:7:tool:0:search', 'mcp#turn:9:tool:0:search', 'mcp#turn:10:tool:0:search',
        'mcp#turn:13:tool:0:search', 'mcp#turn:14:tool:0:search']);
    // graded pages record their grades; the select: is its own ranker
    const memory = decisions[4].value;
    assert.equal(memory.grades[memory.results.indexOf('memory__create_entities')], 'partial');
    assert.ok(!memory.loaded.includes('memory__create_entities'));
    assert.deepEqual([decisions[5].value.ranker, decisions[5].value.results, decisions[5].value.loaded, decisions[5].value.grades],
      ['select', ['memory__create_entities'], ['memory__create_entities'], ['selected']]);
    const r = await replay(file);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const steps = r.steps.filter((s) => s.decision);
    assert.deepEqual(steps.map((s) => s.menu), seen);
    assert.deepEqual(steps.map((s) => [s.ranker, s.results, s.grades, s.loaded]),
      decisions.map((d) => [d.value.ranker, d.value.results, d.value.grades, d.value.loaded]));
    assert.deepEqual(r.tools, finalTools);
  });
});

test('the confident loop through the gateway: graded hits, select:, a miss, and their journal', async (t) => {
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  const config = writeConfig(dir, {
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', 'slack,discord,gmail'], trusted: true } },
    search: { maxPerSearch: 3 },
    journal: { dir: journalDir },
  });
  const { client } = await connectStdio(config);
  t.after(() => client.close());
  const seen = []; // the tool names listed after each decision
  // A search's answer as the client gets it: JSON text, and the same object
  // as structuredContent.
  const ask = async (query) => {
    const raw = await searchRaw(client, query);
    const r = JSON.parse(text(raw));
    assert.deepEqual(raw.structuredContent, r, 'structuredContent is the JSON text\'s object');
    return { raw, r };
  };
  // The list_changed count once every notification sent before the last
  // answer has arrived (a tools/list round trip after it).
  const settled = async () => {
    const listed = await names(client);
    return { listed, count: client.listChangedCount() };
  };

  await t.test('search_tools carries the core\'s description with this catalog\'s overview', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((x) => x.name), ['search_tools']);
    // the fixed part is the core's (not a string of the gateway's), then the
    // overview of the 20 tools and 3 control tools this session searches
    const core = await coreSearchDescription();
    assert.ok(tools[0].description.startsWith(core), tools[0].description);
    assert.match(tools[0].description.slice(core.length), /^\n\nThe catalog has 23 tools in 1 group: cat \(23\): \w+/);
    assert.match(tools[0].description, /select:name1,name2/);
  });

  let partial;
  await t.test('a graded search: strong hits load, partial ones are listed unloaded; the list grows by the strong ones', async () => {
    const before = await settled();
    const waiting = client.nextListChanged();
    const { raw, r } = await ask('reply in a slack thread');
    await waiting;
    assert.notEqual(raw.isError, true);
    const strong = r.tools.filter((h) => h.match === 'strong');
    partial = r.tools.filter((h) => h.match === 'partial');
    assert.ok(strong.length >= 1 && partial.length >= 1, JSON.stringify(r));
    for (const h of r.tools) {
      assert.equal(h.loaded, h.match === 'strong', `${h.name}: only a strong hit loads`);
      assert.equal(h.inputSchema?.type, h.loaded ? 'object' : undefined, `${h.name}: a schema for loaded hits only`);
      assert.ok(Array.isArray(h.matched) && h.matched.length > 0, `${h.name}: the words it matched`);
    }
    assert.ok(strong.some((h) => h.name === 'cat__slack__get_thread_replies'), JSON.stringify(strong));
    assert.match(r.note, /loaded: false matched only part of the request; load one with select:<name>/);
    const after = await settled();
    assert.equal(after.count, before.count + 1, 'one list_changed');
    assert.deepEqual(after.listed, [...before.listed, ...strong.map((h) => h.name)], 'the list grows by the strong hits only');
    seen.push(after.listed);
  });

  await t.test('select: loads a listed tool by name; it can then be called', async () => {
    const before = await settled();
    const name = partial[0].name;
    const refused = await client.callTool({ name, arguments: {} });
    assert.equal(refused.isError, true, 'a partial hit is not callable');
    assert.match(text(refused), new RegExp(`not loaded in this session\\. Call search_tools first, with the query select:${name} `));
    const waiting = client.nextListChanged();
    const { r } = await ask(`select:${name}`);
    await waiting;
    assert.deepEqual(r.tools.map((h) => [h.name, h.loaded, h.match]), [[name, true, 'selected']]);
    assert.equal(r.tools[0].inputSchema?.type, 'object');
    const after = await settled();
    assert.equal(after.count, before.count + 1);
    assert.deepEqual(after.listed, [...before.listed, name]);
    seen.push(after.listed);
    const out = await client.callTool({ name, arguments: {} });
    assert.equal(JSON.parse(text(out)).tool, name.slice('cat__'.length), 'forwarded to its upstream');
  });

  let already; // a tool the graded search loaded
  await t.test('select: of an unknown name (or one already loaded) loads nothing and sends no list_changed', async () => {
    const before = await settled();
    already = before.listed[1];
    const loaded = already;
    const { raw, r } = await ask(`select:cat__nope__x,${loaded}`);
    assert.notEqual(raw.isError, true);
    assert.deepEqual(r.tools, []);
    assert.deepEqual(r.unknown, ['cat__nope__x']);
    assert.match(r.note, /No tool is named cat__nope__x\./);
    assert.match(r.note, new RegExp(`Already among your tools: ${loaded}\\.`));
    const after = await settled();
    assert.deepEqual(after, before, 'no list_changed, the same list');
    seen.push(after.listed);
    const unknown = await client.callTool({ name: 'cat__nope__x', arguments: {} });
    assert.equal(unknown.isError, true, 'an unknown name stays unknown');
  });

  await t.test('a miss loads nothing, says why and offers the catalog\'s words', async () => {
    const before = await settled();
    const { r } = await ask('ban a user from the server');
    assert.ok(r.tools.length > 0 && r.tools.every((h) => h.loaded === false && h.match === 'partial'), JSON.stringify(r));
    assert.deepEqual(r.unmatched, ['ban']);
    assert.ok(Array.isArray(r.vocabulary) && r.vocabulary.length > 0, JSON.stringify(r));
    assert.match(r.note, /^No tool matches this request well, so none was loaded\. Words that matched nothing: ban\./);
    seen.push((await settled()).listed);
    const { r: none } = await ask('xyzzy plugh');
    assert.deepEqual(none.tools, []);
    assert.deepEqual(none.unmatched, ['xyzzy', 'plugh']);
    assert.match(none.note, /^No matching tools found\./);
    const after = await settled();
    seen.push(after.listed);
    assert.deepEqual(after, before, 'no list_changed, the same list');
  });

  await t.test('bad select: input is a tool error; nothing is recorded', async () => {
    const raw = await searchRaw(client, 'select: , ,');
    assert.equal(raw.isError, true);
    assert.equal(raw.structuredContent.error, 'invalid_input');
    assert.match(text(raw), /name at least one tool/);
  });

  await t.test('the journal records the grades and replays into the same menus', async () => {
    const finalTools = (await client.listTools()).tools;
    const [file] = journals(journalDir);
    const decisions = readLines(file).filter((l) => l.source === 'agent-tool-search').map((d) => d.value);
    assert.deepEqual(decisions.map((d) => d.query),
      ['reply in a slack thread', `select:${partial[0].name}`, `select:cat__nope__x,${already}`,
        'ban a user from the server', 'xyzzy plugh'], 'the refused select: is not recorded');
    assert.ok(decisions[0].grades.includes('strong') && decisions[0].grades.includes('partial'));
    assert.deepEqual(decisions[0].loaded, decisions[0].results.filter((_, i) => decisions[0].grades[i] === 'strong'));
    assert.deepEqual([decisions[1].ranker, decisions[1].grades], ['select', ['selected']]);
    assert.deepEqual([decisions[2].ranker, decisions[2].results, decisions[2].unknown, decisions[2].onMenu],
      ['select', [], ['cat__nope__x'], [already]]);
    assert.deepEqual(decisions[3].loaded, []);
    assert.deepEqual(decisions[3].unmatched, ['ban']);
    const r = await replay(file);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const steps = r.steps.filter((s) => s.decision);
    assert.deepEqual(steps.map((s) => s.menu), seen);
    assert.deepEqual(steps.map((s) => s.grades), decisions.map((d) => d.grades));
    assert.deepEqual(r.tools, finalTools);
  });
});
