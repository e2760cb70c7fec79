// learn.test.mjs — a catalog that learns its users' words, through the
// gateway: call records in its journals (allowed calls, failed ones), the
// HTTP principal as the journal's client, search.annotations (a vocabulary
// file, re-read on SIGHUP, recorded in the segment lines so --replay needs
// nothing else), and `toolsift-mcp learn` end to end: sessions of two tokens
// ask for a tool in words it lacks → learn → a gateway restarted with the
// learned file finds and loads it; one token alone teaches nothing; a
// tampered journal is refused, named, unless --unverified skip.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { load } from '../../js/toolsift.js';
import { readConfig } from '../../js/mcp/config.js';
import { Gateway } from '../../js/mcp/gateway.js';
import { serveHttp } from '../../js/mcp/http.js';
import {
  CLI, FIXTURE, connectHttp, connectStdio, journals, names, readLines, replay, search, startHttpGateway, tempDir, text, until,
  writeConfig,
} from './helpers.mjs';

const toolsift = await load();
const TOKENS = [{ name: 'alice', token: 'alice-token-0123456789abcdef' }, { name: 'bob', token: 'bob-token-0123456789abcdefgh' }];
const KEY = '5e'.repeat(32);
// A request in words no tool of the catalog has ("give", "kudos"), and one in
// the words of the tool that serves it.
const ASK = 'give kudos to that post';
const FIND = 'add a reaction to a message';
const TOOL = 'cat__slack__add_reaction';

/** Run the bin: { status, stdout, stderr }. */
function run(args, env = {}) {
  return new Promise((resolve) => {
    // env: each key set, or removed when its value is undefined
    const merged = { ...process.env, ...env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete merged[k];
    const p = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: merged });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const catalogServer = (extra = {}) => ({ command: process.execPath, args: [FIXTURE, '--products', 'slack,github'], ...extra });

test('call records: every allowed call is in the journal, a failed one (isError, a timeout) as call-failed; --replay replays them', async (t) => {
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  const config = writeConfig(dir, {
    mcpServers: { cat: catalogServer({ trusted: true, callTimeoutMs: 1000 }) },
    search: { maxPerSearch: 2 },
    journal: { dir: journalDir },
  });
  const { client } = await connectStdio(config);
  t.after(() => client.close());
  await search(client, 'send a slack message', 1); // turn 0
  const ok = await client.callTool({ name: 'cat__slack__send_message', arguments: { channel: '#ops', text: 'hi' } }); // turn 1
  assert.equal(ok.isError, undefined, text(ok));
  const failed = await client.callTool({ name: 'cat__slack__send_message', arguments: { fixture_fail: true } }); // turn 2
  assert.equal(failed.isError, true);
  assert.match(text(failed), /failed as asked/, 'the upstream\'s own error result goes to the client as it is');
  const refused = await client.callTool({ name: 'cat__github__create_issue', arguments: {} }); // turn 3: not loaded
  assert.match(text(refused), /not loaded in this session/);
  await search(client, 'select:cat__fixture_sleep'); // turn 4
  const slow = await client.callTool({ name: 'cat__fixture_sleep', arguments: { ms: 30000 } }); // turn 5: times out
  assert.equal(slow.isError, true);
  assert.match(text(slow), /failed at its server "cat"/);
  const listed = (await client.listTools()).tools;
  const [file] = journals(journalDir);
  const lines = readLines(file);
  const records = lines.filter((l) => l.source.startsWith('agent-tool-call')).map((l) => [l.id, l.source, l.value.tool]);
  assert.deepEqual(records, [
    ['mcp#turn:1:tool:0:call', 'agent-tool-call', 'cat__slack__send_message'],
    ['mcp#turn:2:tool:0:call', 'agent-tool-call', 'cat__slack__send_message'],
    ['mcp#turn:2:tool:0:call', 'agent-tool-call-failed', 'cat__slack__send_message'],
    ['mcp#turn:5:tool:0:call', 'agent-tool-call', 'cat__fixture_sleep'],
    ['mcp#turn:5:tool:0:call', 'agent-tool-call-failed', 'cat__fixture_sleep'],
  ], 'a refused call records nothing');
  // every line is chained: the calls sit in the segment's chain between the decisions
  assert.ok(lines.slice(1).every((l) => /^[0-9a-f]{64}$/.test(l.chain)));
  // stdio: no principal, so no client in the chain header
  assert.equal(lines[1].source, 'toolsift-journal');
  assert.equal(lines[1].value.client, undefined);
  const r = await replay(file);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.tools, listed);
  // the replay makes the same calls through the same gate, in the same order
  assert.deepEqual(r.steps.filter((s) => s.call).map((s) => [s.call, s.failed ? 'agent-tool-call-failed' : 'agent-tool-call', s.tool]),
    records);
});

/** A gateway in this process over HTTP (tokens alice and bob) from a configuration file. */
async function httpGateway(t, configFile, { journalKey = null } = {}) {
  const config = readConfig(configFile);
  config.journalKey = journalKey;
  const logs = [];
  const gateway = new Gateway(config, { toolsift, log: (l) => logs.push(l) });
  await gateway.start();
  const server = await serveHttp(gateway, { port: 0, tokens: TOKENS });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
    await gateway.close();
  };
  t.after(stop);
  return { gateway, url: server.url, logs, stop };
}

/**
 * One client session: asks in words the tool lacks (a miss), then in its
 * own words (loaded), calls it, and ends.
 */
async function askThenFind(url, token) {
  const { client, transport } = await connectHttp(url, token);
  const miss = await search(client, ASK);
  assert.ok(!miss.tools.some((h) => h.name === TOOL && h.loaded), JSON.stringify(miss));
  const found = await search(client, FIND);
  assert.ok(found.tools.some((h) => h.name === TOOL && h.loaded), JSON.stringify(found));
  const r = await client.callTool({ name: TOOL, arguments: { channel: '#general', timestamp: '1700000000.1', name: 'tada' } });
  assert.notEqual(r.isError, true, text(r));
  await transport.terminateSession();
  await client.close();
}

const token = (name) => TOKENS.find((x) => x.name === name).token;

test('toolsift-mcp learn: two tokens teach a tool their words; a gateway with the learned file finds and loads it', async (t) => {
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  const config = writeConfig(dir, { mcpServers: { cat: catalogServer() }, journal: { dir: journalDir } });
  const keyFile = path.join(dir, 'journal.key');
  writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
  const gw = await httpGateway(t, config, { journalKey: KEY });
  for (const name of ['alice', 'bob', 'alice', 'bob']) await askThenFind(gw.url, token(name));
  await gw.stop();
  const files = journals(journalDir);
  assert.equal(files.length, 4);
  const clients = files.map((f) => {
    const lines = readLines(f);
    // the token's name is the segment's principal and the chain header's client
    assert.equal(lines[1].value.client, lines[0].value.principal);
    assert.equal(lines[1].value.mac, 'hmac-sha256');
    return lines[1].value.client;
  });
  assert.deepEqual(clients.sort(), ['alice', 'alice', 'bob', 'bob']);

  await t.test('keyed journals without their key are refused, the file named', async () => {
    const r = await run(['learn', '--config', config, '-o', path.join(dir, 'nokey.json')], { TOOLSIFT_JOURNAL_KEY: undefined });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /toolsift-mcp: learn: journal .*journals\/[^ ]+\.jsonl: its chain cannot be verified/);
    assert.throws(() => statSync(path.join(dir, 'nokey.json')), /ENOENT/, 'nothing written');
  });

  await t.test('a key source that holds no key is an error naming it, never "no key" (issue 34)', async () => {
    const blank = path.join(dir, 'blank.hex');
    writeFileSync(blank, '  \n', { mode: 0o600 });
    const nul = path.join(dir, 'nul.hex');
    writeFileSync(nul, `${'ab'.repeat(32)}\0${'cd'.repeat(8)}`, { mode: 0o600 });
    const cases = [
      [[], { TOOLSIFT_JOURNAL_KEY: '' }, /TOOLSIFT_JOURNAL_KEY: expected 32 to 128 lowercase hex digits .*; it is empty \(0 bytes\)/],
      [[], { TOOLSIFT_JOURNAL_KEY: ' '.repeat(64) }, /TOOLSIFT_JOURNAL_KEY: .*it holds white space/],
      [['--journal-key-file', blank], {}, /--journal-key-file .*blank\.hex: .*it holds white space \(2 bytes\)/],
      [['--journal-key-file', nul], {}, /--journal-key-file .*nul\.hex: .*it holds a NUL byte \(81 bytes\)/],
    ];
    for (const [flags, env, re] of cases) {
      const out = path.join(dir, 'badkey.json');
      const r = await run(['learn', '--config', config, ...flags, '-o', out], env);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, re);
      assert.throws(() => statSync(out), /ENOENT/, 'nothing written');
    }
  });

  const learned = path.join(dir, 'learned.json');
  await t.test('learn writes a private file and says counts only', async () => {
    const r = await run(['learn', '--config', config, '--journal-key-file', keyFile, '-o', learned]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(statSync(learned).mode & 0o777, 0o600);
    assert.match(r.stderr, /learn: \d+ labels for 1 tool from 4 journal\(s\) \(0 skipped as unverifiable\): 4 session\(s\), 2 client\(s\), 0 example\(s\); written to .*learned\.json \(mode 0600\)/);
    const doc = JSON.parse(readFileSync(learned, 'utf8'));
    assert.deepEqual(Object.keys(doc.annotations), [TOOL]);
    assert.deepEqual([doc.learned.sessions, doc.learned.clients], [4, 2]);
    const words = [...doc.annotations[TOOL].tags, ...(doc.annotations[TOOL].aliases ?? [])];
    assert.ok(words.some((w) => /^kudo/.test(w)), JSON.stringify(doc.annotations));
    // never request text, nor a learned word, nor the key in the log
    for (const w of [...words, 'give', 'kudos', KEY]) assert.ok(!r.stderr.includes(w), `the log shows "${w}": ${r.stderr}`);
  });

  await t.test('a gateway restarted with search.annotations finds and loads the tool; its journal replays', async () => {
    const journal2 = path.join(dir, 'journals2');
    const config2 = writeConfig(dir, { mcpServers: { cat: catalogServer() }, search: { annotations: 'learned.json' },
      journal: { dir: journal2 } }, 'gateway2.json');
    const { client } = await connectStdio(config2);
    const r = await search(client, ASK);
    const hit = r.tools.find((h) => h.name === TOOL);
    assert.deepEqual([hit?.loaded, hit?.match], [true, 'strong'], JSON.stringify(r));
    assert.ok((await names(client)).includes(TOOL));
    const call = await client.callTool({ name: TOOL, arguments: { channel: '#general', timestamp: '1', name: 'tada' } });
    assert.notEqual(call.isError, true);
    const listed = (await client.listTools()).tools;
    await client.close();
    const [file] = journals(journal2);
    const [segment, header] = readLines(file);
    assert.equal(segment.value.vocabulary, readFileSync(learned, 'utf8'), 'the segment records the vocabulary as the file has it');
    assert.match(segment.value.vocabularyKey, /^[0-9a-f]{64}$/);
    assert.match(header.value.vocabulary, /^[0-9a-f]{64}$/, 'the chain header binds the vocabulary\'s digest');
    const rp = await replay(file);
    assert.equal(rp.status, 0, rp.stderr);
    assert.deepEqual(rp.tools, listed);
  });

  await t.test('learn --diff: what the learned file would change', async () => {
    const empty = path.join(dir, 'empty.json');
    writeFileSync(empty, '{"annotations": {}}\n');
    const r = await run(['learn', '--diff', empty, learned]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(JSON.stringify(JSON.parse(r.stdout)).includes(TOOL), r.stdout);
  });

  await t.test('a tampered journal makes learn fail, naming the file, unless --unverified skip', async () => {
    const copies = path.join(dir, 'copies');
    mkdirSync(copies);
    for (const f of files) copyFileSync(f, path.join(copies, path.basename(f)));
    const victim = path.join(copies, path.basename(files[0]));
    const edited = readFileSync(victim, 'utf8').replace('"query":"give kudos', '"query":"give praise');
    assert.notEqual(edited, readFileSync(victim, 'utf8'));
    writeFileSync(victim, edited);
    const args = ['learn', '--config', config, '--journals', copies, '--journal-key-file', keyFile, '-o', path.join(dir, 'x.json')];
    const r = await run(args);
    assert.equal(r.status, 1, r.stderr);
    assert.ok(r.stderr.includes(`journal ${victim}: line 3: chain broken`), r.stderr);
    assert.match(r.stderr, /refused as evidence \(--unverified skip or accept to learn without it\)/);
    const s = await run([...args, '--unverified', 'skip']);
    assert.equal(s.status, 0, s.stderr);
    assert.match(s.stderr, /from 4 journal\(s\) \(1 skipped as unverifiable\): 3 session\(s\), 2 client\(s\)/);
  });

  await t.test('one token asking in many sessions teaches nothing', async (tt) => {
    const journal3 = path.join(dir, 'journals3');
    const config3 = writeConfig(dir, { mcpServers: { cat: catalogServer() }, journal: { dir: journal3 } }, 'gateway3.json');
    const one = await httpGateway(tt, config3);
    for (let i = 0; i < 6; i++) await askThenFind(one.url, token('alice'));
    await one.stop();
    const r = await run(['learn', '--config', config3]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).annotations, {});
    assert.match(r.stderr, /learn: 0 labels for 0 tools from 6 journal\(s\) \(0 skipped as unverifiable\): 6 session\(s\), 1 client\(s\)/);
  });
});

test('search.annotations: a vocabulary changes what a search finds; SIGHUP re-reads it; a bad file is named and the old one kept', async (t) => {
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  const vocab = path.join(dir, 'words.json');
  writeFileSync(vocab, '{"annotations": {}}\n');
  const config = writeConfig(dir, { mcpServers: { cat: catalogServer() }, search: { annotations: 'words.json' }, journal: { dir: journalDir } });
  const gw = await startHttpGateway(config);
  t.after(() => gw.stop());
  const { client, transport } = await connectHttp(gw.url, gw.token);
  t.after(() => client.close());
  const before = await search(client, ASK);
  assert.ok(!before.tools.some((h) => h.name === TOOL), JSON.stringify(before));
  // the host's own vocabulary: the tool gets the users' words
  writeFileSync(vocab, JSON.stringify({ annotations: { [TOOL]: { tags: ['kudos'], aliases: ['give kudos'] } } }));
  const reloads = (gw.stderr().match(/configuration reloaded/g) ?? []).length;
  gw.proc.kill('SIGHUP');
  await until(() => (gw.stderr().match(/configuration reloaded/g) ?? []).length > reloads, 20000, 'the reload');
  assert.match(gw.stderr(), /generation 1 \(configuration reloaded\)/, 'a new vocabulary is a new generation');
  const after = await search(client, ASK);
  const hit = after.tools.find((h) => h.name === TOOL);
  assert.deepEqual([hit?.loaded, hit?.match], [true, 'strong'], JSON.stringify(after));
  // a malformed file: logged with its name, the running vocabulary kept
  for (const bad of ['{"annotations": {"cat__slack__send_message": {"tags": [1]}}}', '{"annotations": ', '']) {
    writeFileSync(vocab, bad);
    const n = (gw.stderr().match(/configuration not reloaded/g) ?? []).length;
    gw.proc.kill('SIGHUP');
    await until(() => (gw.stderr().match(/configuration not reloaded/g) ?? []).length > n, 20000, 'the refused reload');
    assert.ok(gw.stderr().split('\n').some((l) => l.includes('configuration not reloaded: search.annotations') && l.includes(vocab)), gw.stderr());
  }
  const other = await connectHttp(gw.url, gw.token);
  const again = await search(other.client, ASK);
  assert.ok(again.tools.some((h) => h.name === TOOL && h.loaded), 'a new session still searches with the last good vocabulary');
  await other.transport.terminateSession();
  await other.client.close();
  const listed = (await client.listTools()).tools;
  await transport.terminateSession();
  // the journal: one segment per vocabulary, each replayed from its segment line
  const file = journals(journalDir).find((f) => readLines(f).filter((l) => l.source === 'toolsift-mcp-segment').length === 2);
  assert.ok(file, 'the first session has two segments');
  const segments = readLines(file).filter((l) => l.source === 'toolsift-mcp-segment');
  assert.deepEqual(segments.map((s) => s.value.vocabulary), ['{"annotations": {}}\n',
    JSON.stringify({ annotations: { [TOOL]: { tags: ['kudos'], aliases: ['give kudos'] } } })]);
  const r = await replay(file);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.tools, listed);
  assert.ok(r.steps.find((s) => s.decision && s.loaded.includes(TOOL)), 'the replayed search under the new vocabulary loads it');
});

test('search.annotations at start: a missing or malformed file exits 2 naming it', async (t) => {
  const dir = tempDir(t);
  const cases = [
    ['missing.json', null, /search\.annotations .*missing\.json: cannot read it/],
    ['notjson.json', '{"annotations": {', /search\.annotations .*notjson\.json: not JSON/],
    ['shape.json', '{"tags": []}', /search\.annotations .*shape\.json: expected a vocabulary/],
    ['labels.json', '{"annotations": {"anything": {"tags": "kudos"}}}', /search\.annotations .*labels\.json: annotations\["anything"\]\.tags: expected an array of strings/],
    ['dup.json', '{"annotations": {}, "annotations": {}}', /search\.annotations .*dup\.json: .*duplicate key "annotations"/],
  ];
  for (const [name, body, re] of cases) {
    if (body !== null) writeFileSync(path.join(dir, name), body);
    const config = writeConfig(dir, { mcpServers: { cat: catalogServer() }, search: { annotations: name } }, `${name}.gateway.json`);
    const r = await run(['--config', config, '--http', '0', '--no-auth']);
    assert.equal(r.status, 2, `${name}: ${r.stderr}`);
    assert.match(r.stderr, re, name);
    assert.doesNotMatch(r.stderr, /listening|ready/, 'nothing was started');
  }
});

test('learn: bad flags and inputs exit 2 and name them; --catalog needs no server', async (t) => {
  const dir = tempDir(t);
  const catalog = path.join(dir, 'catalog.json');
  writeFileSync(catalog, JSON.stringify({ tools: [{ id: 'cat__slack__add_reaction', name: 'add_reaction', description: 'React to a message with an emoji.' }] }));
  const journalDir = path.join(dir, 'journals');
  mkdirSync(journalDir);
  const config = writeConfig(dir, { mcpServers: { cat: { command: path.join(dir, 'no-such-server') } }, journal: { dir: journalDir } });
  const bare = writeConfig(dir, { mcpServers: {} }, 'bare.json');
  const cases = [
    [['learn'], /learn: --config is required/],
    [['learn', '--config', config, '--catalog', catalog, '--min-sessions', 'three'], /learn: --min-sessions: expected a whole number, got "three"/],
    [['learn', '--config', config, '--catalog', catalog, '--min-sessions', '0'], /learn: --min-sessions: learn options: minSessions: expected an integer from 1/],
    [['learn', '--config', config, '--catalog', catalog, '--min-share', '2'], /learn: --min-share: learn options: minShare: expected a number from 0 to 1/],
    [['learn', '--config', config, '--catalog', catalog, '--unverified', 'maybe'], /learn: --unverified: expected refuse, skip or accept/],
    [['learn', '--config', config, '--catalog', catalog, '--journals', path.join(dir, 'nope')], /learn: journals .*nope: ENOENT/],
    [['learn', '--config', bare, '--catalog', catalog], /learn: no journals: the configuration has no journal\.dir/],
    [['learn', '--config', config, '--catalog', path.join(dir, 'nope.json')], /learn: --catalog .*nope\.json: ENOENT/],
    [['learn', '--config', config], /learn: server "cat" did not start .*: the catalog would lack its tools/],
    [['learn', '--diff', catalog], /learn --diff takes OLD\.json NEW\.json/],
    [['learn', '--config', config, '--catalog', catalog, '--frob'], /learn: unknown argument "--frob"/],
  ];
  for (const [args, re] of cases) {
    const r = await run(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re, args.join(' '));
    assert.equal(r.stdout, '');
  }
  // an empty journal folder and a catalog file: an empty vocabulary, no server started
  const r = await run(['learn', '--config', config, '--catalog', catalog]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).annotations, {});
  assert.doesNotMatch(r.stderr, /no-such-server/);
});
