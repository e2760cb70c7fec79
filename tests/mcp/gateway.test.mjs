// gateway.test.mjs — toolsift-mcp over stdio, driven by the official SDK
// client, in front of real upstreams from npm (server-everything,
// server-filesystem, server-memory) and the in-repo catalog upstream (421
// tools): list → search → list_changed → forwarded call → result, the
// not-loaded and unknown-tool errors, the trust policy, and the journal
// replayed by `toolsift-mcp --replay` into the menus the client saw.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  EVERYTHING, FILESYSTEM, FIXTURE, MEMORY, connectStdio, journals, names, readLines, replay, search, tempDir,
  text, writeConfig,
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

  await t.test('server-memory: an always-loaded tool and a searched one', async () => {
    const r = await search(client, 'create entities in the knowledge graph memory', 2);
    assert.ok(r.tools.some((h) => h.name === 'memory__create_entities'), JSON.stringify(r.tools.map((h) => h.name)));
    seen.push(await names(client));
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
        'mcp#turn:7:tool:0:search', 'mcp#turn:9:tool:0:search', 'mcp#turn:12:tool:0:search',
        'mcp#turn:13:tool:0:search']);
    const r = await replay(file);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(r.steps.filter((s) => s.decision).map((s) => s.menu), seen);
    assert.deepEqual(r.tools, finalTools);
  });
});
