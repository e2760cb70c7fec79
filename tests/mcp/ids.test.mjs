// ids.test.mjs — a real upstream tool whose name a model cannot call by
// (a space, as docker-vectra-ai-rux's "Summarize Detection") is offered under
// the core's safe name; select: by that name (or the bare tail a client
// shows) loads it, and a call reaches the upstream by its own name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURE, connectStdio, names, search, tempDir, text, writeConfig } from './helpers.mjs';

test('a tool named with a space is offered, loaded and called under its safe name', async (t) => {
  const dir = tempDir(t);
  const state = path.join(dir, 'state.json');
  writeFileSync(state, JSON.stringify({ extra: [
    { name: 'Summarize Detection', description: 'Summarize a threat detection by its id.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
  ] }));
  const configFile = writeConfig(dir, { mcpServers: {
    vectra: { command: process.execPath, args: [FIXTURE, '--products', 'none', '--state', state], trusted: true },
  } });
  const { client, stderr } = await connectStdio(configFile);
  t.after(() => client.close());
  const m = stderr().match(/tool "Summarize Detection" is offered to models as "(vectra__Summarize_Detection_[0-9a-f]{8})"/);
  assert.ok(m, stderr());
  const safe = m[1];
  const r = await search(client, 'summarize a threat detection', 1);
  assert.deepEqual(r.tools.map((h) => [h.name, h.loaded]), [[safe, true]]);
  assert.ok((await names(client)).includes(safe));
  const out = await client.callTool({ name: safe, arguments: { id: 'd1' } });
  assert.notEqual(out.isError, true, text(out));
  assert.deepEqual(JSON.parse(text(out)).tool, 'Summarize Detection'); // the upstream's own name
  assert.deepEqual(JSON.parse(text(out)).arguments, { id: 'd1' });
});
