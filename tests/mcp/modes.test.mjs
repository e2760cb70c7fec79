// modes.test.mjs — auto mode and pre-search through the gateway, with the
// SDK's Client over stdio: a small universe under search.auto lists every
// tool and no search_tools (the log says which mode); a large one keeps
// searching; toolsift/preSearch (search.preSearch) loads a user message's
// strong hit, announces the new list and replays from the journal.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE, connectStdio, journals, names, replay, tempDir, text, writeConfig } from './helpers.mjs';

const server = (products) => ({ command: process.execPath, args: [FIXTURE, '--products', products], trusted: true });
const preSearch = (client, text) => client.request({ method: 'toolsift/preSearch', params: { text } }, ResultSchema);

test('search.auto: a small universe is listed whole, with no search tool', async (t) => {
  const dir = tempDir(t);
  const configFile = writeConfig(dir, { mcpServers: { wx: server('weather') }, search: { auto: true },
    journal: { dir: `${dir}/journals` } });
  const { client, stderr } = await connectStdio(configFile);
  t.after(() => client.close());
  const listed = await names(client);
  assert.ok(!listed.includes('search_tools'), listed.join(' '));
  assert.equal(listed.filter((n) => n.startsWith('wx__weather__')).length, 3);
  assert.match(stderr(), /mode all \(every tool listed, no search_tools: search\.auto\)/);
  // a listed tool is called directly; search_tools is no tool here
  const name = listed.find((n) => n.startsWith('wx__weather__'));
  const out = await client.callTool({ name, arguments: {} });
  assert.equal(JSON.parse(text(out)).tool, name.slice('wx__'.length));
  const refused = await client.callTool({ name: 'search_tools', arguments: { query: 'weather' } });
  assert.equal(refused.isError, true);
  await client.close();
  const [file] = journals(`${dir}/journals`);
  const r = await replay(file);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.tools.map((x) => x.name).sort(), [...listed].sort());
});

test('search.auto over budget: the session searches', async (t) => {
  const dir = tempDir(t);
  const configFile = writeConfig(dir, { mcpServers: { cat: server('github,stripe') }, search: { auto: { maxTools: 5 } } });
  const { client, stderr } = await connectStdio(configFile);
  t.after(() => client.close());
  assert.deepEqual(await names(client), ['search_tools']);
  assert.match(stderr(), /mode search/);
});

test('toolsift/preSearch loads the strong hit of a user message and replays', async (t) => {
  const dir = tempDir(t);
  const configFile = writeConfig(dir, { mcpServers: { cat: server('github,stripe,slack') },
    search: { preSearch: true, maxPerSearch: 3 }, journal: { dir: `${dir}/journals` } });
  const { client } = await connectStdio(configFile);
  t.after(() => client.close());
  const before = client.listChangedCount();
  const r = await preSearch(client, 'Please refund that Stripe payment.');
  assert.equal(r.mode, 'search', JSON.stringify(r));
  assert.deepEqual(r.loaded, ['cat__stripe__create_refund']);
  assert.ok(r.result.tools.every((h) => !h.loaded || h.match === 'strong'));
  assert.ok(client.listChangedCount() > before);
  assert.ok((await names(client)).includes('cat__stripe__create_refund'));
  const out = await client.callTool({ name: 'cat__stripe__create_refund', arguments: { charge: 'ch_1' } });
  assert.equal(JSON.parse(text(out)).tool, 'stripe__create_refund');
  // two in a row (a user message the model answered without tools) are fine
  const again = await preSearch(client, 'thanks, that was all');
  assert.deepEqual(again.loaded, []);
  await assert.rejects(client.request({ method: 'toolsift/preSearch', params: {} }, ResultSchema), /params\.text must be a string/);
  await client.close();
  const [file] = journals(`${dir}/journals`);
  const rep = await replay(file);
  assert.equal(rep.status, 0, rep.stderr);
  const pre = rep.steps.filter((s) => s.preSearch);
  assert.equal(pre.length, 2);
  assert.deepEqual(pre[0].loaded, ['cat__stripe__create_refund']);
  assert.ok(rep.tools.some((x) => x.name === 'cat__stripe__create_refund'));
});

test('without search.preSearch the method does not exist', async (t) => {
  const dir = tempDir(t);
  const configFile = writeConfig(dir, { mcpServers: { cat: server('stripe') } });
  const { client } = await connectStdio(configFile);
  t.after(() => client.close());
  await assert.rejects(preSearch(client, 'refund a charge'), /Method not found/);
});
