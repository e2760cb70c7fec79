// Sessions over an index snapshot (SPEC S11): the same answers as a session
// over the catalog, and loud errors when the configuration fights the snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, ToolsiftError } from '../../js/toolsift.js';

const ts = await load(process.env.TOOLSIFT_WASM);
const catalog = JSON.parse(readFileSync(new URL('../../corpus/catalog.json', import.meta.url), 'utf8'));
const search = { maxPerSearch: 3, alwaysLoaded: ['github__create_issue'] };

test('a session over a snapshot answers exactly as one over the catalog', () => {
  const index = ts.createIndex(catalog);
  const snapshot = index.snapshot();
  index.free();
  const a = ts.createSession({ loop: 's', catalog, search });
  const b = ts.createSession({ loop: 's', search }, { snapshot });
  try {
    ['send a slack message', 'list database tables', 'refund a payment'].forEach((query, turn) => {
      assert.equal(b.callJSON(turn, 0, 'search_tools', { query }), a.callJSON(turn, 0, 'search_tools', { query }));
    });
    assert.equal(b.menuJSON('anthropic'), a.menuJSON('anthropic'));
    assert.equal(b.journalJSONL(), a.journalJSONL());
    assert.ok(b.journal().length === 4); // the chain's header, then three decisions
  } finally {
    a.free();
    b.free();
  }
});

test('the snapshot fixes the catalog and stopwords; a broken snapshot is a snapshot error', () => {
  const index = ts.createIndex(catalog);
  const snapshot = index.snapshot();
  index.free();
  const code = (fn) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof ToolsiftError);
      return e.code;
    }
    return 'no error';
  };
  assert.equal(code(() => ts.createSession({ catalog, search }, { snapshot })), 'config');
  assert.equal(code(() => ts.createSession({ search: { stopwords: [] } }, { snapshot })), 'config');
  assert.equal(code(() => ts.createSession({ search }, { snapshot: snapshot.subarray(0, 100) })), 'snapshot');
  assert.equal(code(() => ts.createSession({ search }, { snapshot: 'not bytes' })), 'arg');
});
