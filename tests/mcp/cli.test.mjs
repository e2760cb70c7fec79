// cli.test.mjs — the toolsift-mcp command's own errors: every one exits with
// status 2 and a message that names what is wrong, before serving anything.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, FIXTURE, tempDir, writeConfig } from './helpers.mjs';

const run = (args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000, input: '' });

test('configuration and journal errors exit 2 and name the cause', (t) => {
  const dir = tempDir(t);
  const cases = [
    [['--config', path.join(dir, 'missing.json')], /cannot read the configuration .*missing\.json/],
    [['--config', writeConfig(dir, { mcpServers: {}, journl: {} }, 'typo.json')], /config: unknown key "journl"/],
    [['--config', writeConfig(dir, { mcpServers: { a: { command: 'x', args: 'y' } } }, 'args.json')], /mcpServers\.a\.args: expected an array of strings/],
    [['--frobnicate'], /unknown argument "--frobnicate"/],
    [['--config'], /--config needs a value/],
    [['--replay', path.join(dir, 'none.jsonl')], /cannot read .*none\.jsonl/],
  ];
  writeFileSync(path.join(dir, 'plain.jsonl'), '{"id":"agent#turn:0:tool:0:search","source":"agent-tool-search","value":{}}\n');
  cases.push([['--replay', path.join(dir, 'plain.jsonl')], /line 1: a decision before any segment line/]);
  writeFileSync(path.join(dir, 'empty.jsonl'), '');
  cases.push([['--replay', path.join(dir, 'empty.jsonl')], /no segment line: this is not a toolsift-mcp journal/]);
  // a journal key others may read is no secret: refused, as a token file is
  writeFileSync(path.join(dir, 'key.hex'), 'ab'.repeat(32), { mode: 0o644 });
  cases.push([['--replay', path.join(dir, 'empty.jsonl'), '--journal-key-file', path.join(dir, 'key.hex')],
    /--journal-key-file .*key\.hex: other users can read or write it \(mode 644\)/]);
  // a key source that holds no key fails closed (issue 34): never "no key"
  writeFileSync(path.join(dir, 'blank.hex'), '\n', { mode: 0o600 });
  cases.push([['--replay', path.join(dir, 'empty.jsonl'), '--journal-key-file', path.join(dir, 'blank.hex')],
    /--journal-key-file .*blank\.hex: expected 32 to 128 lowercase hex digits .*; it is empty \(0 bytes\)/]);
  writeFileSync(path.join(dir, 'short.hex'), 'ab'.repeat(8), { mode: 0o600 });
  cases.push([['--config', writeConfig(dir, { mcpServers: {} }, 'none.json'), '--journal-key-file', path.join(dir, 'short.hex')],
    /--journal-key-file .*short\.hex: .*it has the wrong length \(16 bytes\)/]);
  cases.push([['--replay', path.join(dir, 'empty.jsonl')], /TOOLSIFT_JOURNAL_KEY: .*it is empty \(0 bytes\)/, { TOOLSIFT_JOURNAL_KEY: '' }]);
  for (const [args, re, env] of cases) {
    const r = env ? spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000, input: '', env: { ...process.env, ...env } })
      : run(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re, args.join(' '));
    assert.equal(r.stdout, '');
  }
});

test('session settings toolsift refuses fail the start, not the first client', (t) => {
  const dir = tempDir(t);
  const config = writeConfig(dir, {
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', 'slack'] } },
    search: { maxPerSearch: 99, alwaysLoaded: ['cat__nope'] },
  });
  const r = run(['--config', config, '--http', '0', '--no-auth']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /warning: alwaysLoaded "cat__nope" is not offered by any connected server now/);
  assert.match(r.stderr, /config: search\.maxPerSearch: expected an integer from 1 to 50/);
  assert.doesNotMatch(r.stderr, /listening/);
  // the loop's keys are passed through to toolsift, which names a bad one
  const loop = writeConfig(dir, {
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', 'slack'] } },
    search: { load: 'some' },
  }, 'loop.json');
  const l = run(['--config', loop, '--http', '0', '--no-auth']);
  assert.equal(l.status, 2, l.stderr);
  assert.match(l.stderr, /search\.load/);
  assert.doesNotMatch(l.stderr, /listening/);
});
