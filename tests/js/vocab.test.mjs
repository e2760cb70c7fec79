// The cross-lingual vocabulary (core/src/text/vocab.c) through the binding, against
// the module named by env TOOLSIFT_WASM: the generated table matches its
// source (core/src/text/vocab.txt, analysed by this module), and a German,
// Japanese or Chinese query finds the English tool.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const ts = await load(WASM);

test('core/src/text/vocab_table.h is what scripts/gen-vocab.mjs makes of vocab.txt', () => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/gen-vocab.mjs'), '--check'], {
    encoding: 'utf8',
    env: { ...process.env, TOOLSIFT_WASM: WASM },
  });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});

test('foreign queries reach English tools through the table', () => {
  const ix = ts.createIndex({
    tools: [
      { name: 'files__delete_file', description: 'Delete a file from the drive' },
      { name: 'mail__send', description: 'Send an email message' },
      { name: 'calendar__list_events', description: 'List upcoming events' },
    ],
  });
  try {
    for (const [q, id, scored] of [
      ['Datei löschen', 'files__delete_file', ['datei', 'löschen']],
      ['ファイルを削除', 'files__delete_file', ['ファ', '削除']],
      ['删除文件', 'files__delete_file', ['删除', '文件']],
      ['enviar un correo', 'mail__send', ['enviar', 'correo']],
      ['lister les événements', 'calendar__list_events', ['lister', 'événement']],
    ]) {
      const r = ix.search(q, { explain: true });
      assert.equal(r.hits[0]?.id, id, q);
      assert.ok(r.hits[0].explain.terms.some((t) => t.via), q);
      for (const t of scored) {
        assert.ok(r.terms.includes(t), `${q}: ${t} scored`);
        assert.ok(!r.unmatched.includes(t), `${q}: ${t} not unmatched`);
      }
    }
    const en = ix.search('delete file', { explain: true });
    assert.ok(!JSON.stringify(en).includes('"via"'));
  } finally {
    ix.free();
  }
});
