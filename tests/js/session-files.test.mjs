// The binding's private entries for the CLI (js/cli.js): the catalog file a
// configuration names, a session over that file's bytes, a calls file read
// line by line by the core — against the module named by env TOOLSIFT_WASM.
// The CLI's own output is compared with the native CLI by tests/parity; this
// checks the entries say what the public API says, and free what they take.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { load, ToolsiftError } from '../../js/toolsift.js';

const ts = await load();
const bytes = (s) => Buffer.from(s, 'utf8');

const CATALOG = {
  tools: [
    { id: 'gh__create_issue', name: 'create_issue', description: 'Open a new issue in a repository' },
    { id: 'slack__send', name: 'send', description: 'Send a Slack message to a channel' },
    { id: 'mail__send', name: 'send', description: 'Send an email message' },
  ],
};
const config = (catalog) => ({ loop: 'files', tools: [{ name: 'reply', description: 'Reply' }], catalog });

test('the catalog file a configuration names, or null', () => {
  assert.equal(ts._sessionConfigCatalog(bytes(JSON.stringify(config('cats/c\u00e9.json')))), 'cats/c\u00e9.json');
  assert.equal(ts._sessionConfigCatalog(bytes('{"catalog":""}')), '');
  assert.equal(ts._sessionConfigCatalog(bytes(JSON.stringify(config(CATALOG)))), null);
  assert.equal(ts._sessionConfigCatalog(bytes('{}')), null);
  assert.throws(() => ts._sessionConfigCatalog(bytes('{"catalog":"a","catalog":"b"}')),
    (e) => e instanceof ToolsiftError && e.code === 'json' &&
      e.message === 'config: duplicate key "catalog" in an object');
  assert.throws(() => ts._sessionConfigCatalog(bytes('{"catalog":"a"} x')), { code: 'json' });
});

test('a session over a catalog file is the session with the catalog inline', () => {
  const inline = ts.createSession(config(CATALOG));
  const file = ts._openSession(bytes(JSON.stringify(config('c.json'))), bytes(JSON.stringify(CATALOG)));
  try {
    const args = '{"query":"send a message","limit":2}';
    assert.equal(Buffer.from(file._callBytes(0, 0, 'search_tools', args)).toString(),
      Buffer.from(inline._callBytes(0, 0, 'search_tools', args)).toString());
    assert.equal(file.menuJSON('openai'), inline.menuJSON('openai'));
    assert.equal(file.journalJSONL(), inline.journalJSONL());
    assert.equal(file.fingerprint, inline.fingerprint);
  } finally {
    inline.free();
    file.free();
  }
  const cfg = bytes(JSON.stringify(config('c.json')));
  assert.throws(() => ts._openSession(cfg, bytes('{"tools": [')), (e) => e.code === 'json' &&
    e.message === 'catalog file c.json: malformed JSON at byte 11 (line 1, column 12)');
  assert.throws(() => ts._openSession(cfg, new Uint8Array(0)), { code: 'json', message: 'catalog file c.json: empty input' });
  assert.throws(() => ts._openSession(cfg, '[]'), { code: 'arg' });
  assert.throws(() => ts._openSession(bytes(JSON.stringify(config(CATALOG))), bytes('[]')), { code: 'arg' });
});

test('a calls file: the core reads each line; refused lines name their number', () => {
  const s = ts.createSession(config(CATALOG));
  const twin = ts.createSession(config(CATALOG));
  try {
    const calls = [
      '{"turn":0,"call":0,"tool":"search_tools","args":{"query":"create issue"}}',
      '',
      '{"args":{ "query" : "send" },"turn":1,"call":0,"tool":"search_tools"}',
      'not json',
      '{"turn":1,"call":1,"tool":"reply"}',
    ].join('\n');
    const got = s._callLines(bytes(calls));
    assert.equal(got.length, 4);
    assert.deepEqual(Buffer.from(got[0].bytes), Buffer.from(twin._callBytes(0, 0, 'search_tools', '{"query":"create issue"}')));
    assert.deepEqual(Buffer.from(got[1].bytes), Buffer.from(twin._callBytes(1, 0, 'search_tools', '{ "query" : "send" }')));
    assert.equal(got[2].error.code, 'config');
    assert.equal(got[2].error.message, 'calls line 4: not a call: malformed JSON at byte 0 (line 1, column 1)');
    assert.deepEqual(Buffer.from(got[3].bytes), Buffer.from(twin._callBytes(1, 1, 'reply')));
    assert.deepEqual(s._callLines(new Uint8Array(0)), []);
    assert.throws(() => s._callLines('{}'), { code: 'arg' });
  } finally {
    s.free();
    twin.free();
  }
});

test('the entries free what they take: linear memory stays put over many runs', () => {
  const cfg = bytes(JSON.stringify(config('c.json')));
  const cat = bytes(JSON.stringify(CATALOG));
  // 70 kB of blank line: a calls buffer left behind would grow memory by pages.
  const calls = bytes(`{"turn":0,"call":0,"tool":"search_tools","args":{"query":"issue"}}\nnot json\n${' '.repeat(70000)}\n`);
  const cycle = () => {
    ts._sessionConfigCatalog(cfg);
    const s = ts._openSession(cfg, cat);
    s._callLines(calls);
    s.free();
    assert.throws(() => ts._openSession(cfg, bytes('[')), { code: 'json' });
  };
  for (let i = 0; i < 50; i++) cycle(); // warm-up: the allocator settles
  const size = ts.memory.buffer.byteLength;
  for (let i = 0; i < 500; i++) cycle();
  assert.equal(ts.memory.buffer.byteLength, size);
});
