// One id rule over every real catalog in ../shared/catalogs (docs/usage.md,
// "Tool ids"): each indexes without options and backs a session; every
// menu name is one a model can call by, no two look alike (equal after
// NFKC and case folding), and a tool with a space in its id is found,
// loaded and called under its safe name. Skips when ../shared is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load } from '../../js/toolsift.js';
import { reportSkip } from '../skip.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const CATALOGS = path.resolve(ROOT, '../shared/catalogs');
const ts = await load(WASM);

const MODEL_FACING = /^[A-Za-z0-9_.:-]{1,128}$/;
const SAFE = /^[A-Za-z0-9_-]{1,55}_[0-9a-f]{8}$/;
const fold = (s) => s.normalize('NFKC').toLowerCase();

// A catalog file's tools, as the shared catalogs hold them (an array, or {tools}).
const toolsOf = (file) => {
  const j = JSON.parse(readFileSync(file, 'utf8'));
  return Array.isArray(j) ? j : j.tools;
};

test('every catalog in ../shared/catalogs indexes without options, under one id rule', (t) => {
  if (!existsSync(CATALOGS)) {
    reportSkip('ids over real catalogs: ../shared/catalogs is not present');
    t.skip('../shared/catalogs is not present');
    return;
  }
  const files = readdirSync(CATALOGS).filter((f) => f.endsWith('.json') && !f.startsWith('_')).sort();
  assert.ok(files.length > 10, `only ${files.length} catalogs`);
  let renamedTotal = 0;
  for (const f of files) {
    const tools = toolsOf(path.join(CATALOGS, f));
    const index = ts.createIndex({ tools });
    const info = index.info();
    index.free();
    assert.equal(info.tools, tools.length, f);
    const renamed = info.menuNames ?? {};
    renamedTotal += Object.keys(renamed).length;
    const seen = new Map();
    for (const tool of tools) {
      const id = tool.id ?? tool.name;
      const name = renamed[id] ?? id;
      if (renamed[id]) assert.match(name, SAFE, `${f}: ${id}`);
      else assert.match(name, MODEL_FACING, `${f}: ${id} kept an id a model cannot call by`);
      const key = fold(name);
      assert.ok(!seen.has(key), `${f}: "${name}" looks like "${seen.get(key)}"`);
      seen.set(key, name);
    }
    // a session over it starts (its menu holds only search_tools)
    const s = ts.createSession({ loop: 'ids', catalog: { tools } });
    assert.deepEqual(s.menu('openai').map((m) => m.function?.name ?? m.name), ['search_tools'], f);
    s.free();
  }
  // all.json and docker-vectra-ai-rux.json each have two ids with spaces
  assert.equal(renamedTotal, 4);
});

test('all.json: a tool with a space in its id is found, loaded and called by its safe name', (t) => {
  const file = path.join(CATALOGS, 'all.json');
  if (!existsSync(file)) {
    reportSkip('ids over all.json: ../shared/catalogs/all.json is not present');
    t.skip('../shared/catalogs/all.json is not present');
    return;
  }
  const catalog = toolsOf(file);
  const index = ts.createIndex({ tools: catalog });
  const safe = index.info().menuNames['docker-vectra-ai-rux__Summarize Detection'];
  index.free();
  assert.match(safe, /^docker-vectra-ai-rux__Summarize_Detection_[0-9a-f]{8}$/);
  const s = ts.createSession({ loop: 'ids', catalog: { tools: catalog }, search: { maxPerSearch: 5 } });
  const out = s.call(0, 0, 'search_tools', { query: `select:${safe}` });
  assert.deepEqual(out.result.tools.map((h) => [h.name, h.loaded]), [[safe, true]]);
  assert.equal(s.call(1, 0, safe, {}).result.allowed, true);
  assert.ok(s.journalJSONL().includes(`"tool":"${safe}"`));
  s.free();
});
