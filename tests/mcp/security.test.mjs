// security.test.mjs — who gets into the HTTP gateway, and what a request that
// is refused leaves behind (nothing): bearer tokens (401, WWW-Authenticate),
// Origin (403, CORS preflight), validate-first (no session, no journal file
// for any refused request; 2,000 of them keep the RSS flat), sessions bound
// to their token, the limits with their typed errors (http.maxSessions,
// journal.maxBytes), private journals (0700 / 0600, no session id in a
// name), perSession upstreams, and the start-up rules of --http.
//
// Most tests run the gateway in this process (Gateway + serveHttp: the
// session count and the RSS are read directly); the CLI rules spawn the bin.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { load } from '../../js/toolsift.js';
import { checkConfig } from '../../js/mcp/config.js';
import { Gateway } from '../../js/mcp/gateway.js';
import { serveHttp } from '../../js/mcp/http.js';
import { CLI, FIXTURE, MEMORY, connectHttp, journals, makeClient, names, readLines, replay, search, startHttpGateway, tempDir, text, until, writeConfig } from './helpers.mjs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const toolsift = await load();
const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdefgh';
const TOKENS = [{ name: 'alice', token: ALICE }, { name: 'bob', token: BOB }];
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const auth = (token) => ({ authorization: `Bearer ${token}` });

/** A gateway in this process over the catalog fixture; `http` options go to serveHttp. */
async function inProcess(t, { raw = {}, http = {}, products = 'slack,jira', preDir } = {}) {
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  preDir?.(journalDir);
  const config = checkConfig({
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', products], trusted: true } },
    search: { maxPerSearch: 2 },
    journal: { dir: journalDir },
    ...raw,
  }, dir);
  const logs = [];
  const gateway = new Gateway(config, { toolsift, log: (l) => logs.push(l) });
  await gateway.start();
  const server = await serveHttp(gateway, { port: 0, tokens: TOKENS, ...http });
  t.after(async () => {
    await server.close();
    await gateway.close();
  });
  return { dir, gateway, server, url: server.url, journalDir, logs, files: () => readdirSync(journalDir) };
}

// One raw request (node:http, so Host and Origin are what the test says).
function raw(url, { method = 'POST', headers = {}, body, agent } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method, headers, agent }, (res) => {
      let data = '';
      res.on('data', (d) => (data += d));
      res.on('end', () => {
        let json = null;
        try {
          json = JSON.parse(data);
        } catch {
          /* an SSE answer */
        }
        resolve({ status: res.statusCode, headers: res.headers, body: data, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('authentication: no token or a wrong one is 401 with WWW-Authenticate: Bearer; the SDK client with its token works', async (t) => {
  const gw = await inProcess(t);
  const none = await raw(gw.url, { headers: JSON_HEADERS, body: INIT });
  assert.equal(none.status, 401);
  assert.match(none.headers['www-authenticate'], /^Bearer realm="toolsift-mcp"$/);
  assert.equal(none.json.error.code, -32010);
  assert.match(none.json.error.message, /send Authorization: Bearer <token>/);
  for (const header of [`Bearer ${ALICE}x`, `Bearer ${ALICE.slice(0, -1)}`, `Basic ${Buffer.from(`a:${ALICE}`).toString('base64')}`, 'Bearer', ALICE]) {
    const wrong = await raw(gw.url, { headers: { ...JSON_HEADERS, authorization: header }, body: INIT });
    assert.equal(wrong.status, 401, header);
    assert.match(wrong.headers['www-authenticate'], /^Bearer realm="toolsift-mcp", error="invalid_token"$/);
    assert.equal(wrong.json.error.code, -32010);
  }
  // the scheme is case-insensitive (RFC 6750)
  const lower = await raw(gw.url, { headers: { ...JSON_HEADERS, authorization: `bearer ${BOB}` }, body: INIT });
  assert.equal(lower.status, 200);
  // an MCP client written to the spec, with its header, works unchanged
  const { client } = await connectHttp(gw.url, ALICE);
  t.after(() => client.close());
  const r = await search(client, 'send a slack message', 1);
  assert.deepEqual(r.tools.map((h) => h.name), ['cat__slack__send_message']);
  assert.deepEqual(await names(client), ['search_tools', 'cat__slack__send_message']);
  await assert.rejects(connectHttp(gw.url), /401|unauthorized/i);
  await assert.rejects(connectHttp(gw.url, 'not-the-token-at-all-0000'), /401|unauthorized/i);
  assert.ok(!gw.logs.join('\n').includes(ALICE), 'no token in the log');
});

test('Origin: a foreign or null Origin is 403 before anything; an allowed one gets CORS headers; preflight', async (t) => {
  const gw = await inProcess(t, { http: { allowedOrigins: ['http://app.example'] } });
  for (const origin of ['http://evil.example', 'null', 'http://app.example.evil.example', 'https://app.example']) {
    const r = await raw(gw.url, { headers: { ...JSON_HEADERS, ...auth(ALICE), origin }, body: INIT });
    assert.equal(r.status, 403, origin);
    assert.equal(r.json.error.code, -32011);
    assert.match(r.json.error.message, /not in http\.allowedOrigins/);
    assert.equal(r.headers['access-control-allow-origin'], undefined);
  }
  const ok = await raw(gw.url, { headers: { ...JSON_HEADERS, ...auth(ALICE), origin: 'http://app.example' }, body: INIT });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers['access-control-allow-origin'], 'http://app.example');
  assert.match(ok.headers['access-control-expose-headers'], /mcp-session-id/);
  assert.match(ok.headers['mcp-session-id'], /^[0-9a-f-]{36}$/);
  const pre = await raw(gw.url, { method: 'OPTIONS', headers: { origin: 'http://app.example', 'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type, mcp-session-id' } });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers['access-control-allow-origin'], 'http://app.example');
  for (const h of ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) {
    assert.ok(pre.headers['access-control-allow-headers'].split(/,\s*/).includes(h), h);
  }
  assert.match(pre.headers['access-control-allow-methods'], /POST/);
  for (const origin of ['http://evil.example', 'null']) {
    const refused = await raw(gw.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    assert.equal(refused.status, 403, origin);
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
  }
  // the default allowlist is empty: any Origin at all is refused
  const strict = await inProcess(t);
  const r = await raw(strict.url, { headers: { ...JSON_HEADERS, ...auth(ALICE), origin: 'http://app.example' }, body: INIT });
  assert.equal(r.status, 403);
});

// Requests the gateway must refuse without making anything.
const REJECTED = [
  ['a cross-origin simple POST (text/plain, no token)', { headers: { 'content-type': 'text/plain', origin: 'http://evil.example' }, body: INIT }, 403],
  ['a simple POST (text/plain) with a token', { headers: { 'content-type': 'text/plain', accept: '*/*', ...auth(ALICE) }, body: INIT }, 406],
  ['text/plain with the right Accept', { headers: { ...JSON_HEADERS, 'content-type': 'text/plain', ...auth(ALICE) }, body: INIT }, 415],
  ['a bad Accept', { headers: { ...JSON_HEADERS, accept: 'application/json', ...auth(ALICE) }, body: INIT }, 406],
  ['no token', { headers: JSON_HEADERS, body: INIT }, 401],
  ['a wrong token', { headers: { ...JSON_HEADERS, ...auth('x'.repeat(32)) }, body: INIT }, 401],
  ['a foreign Origin', { headers: { ...JSON_HEADERS, ...auth(ALICE), origin: 'http://evil.example' }, body: INIT }, 403],
  ['Origin: null', { headers: { ...JSON_HEADERS, ...auth(ALICE), origin: 'null' }, body: INIT }, 403],
  ['a body that is not JSON', { headers: { ...JSON_HEADERS, ...auth(ALICE) }, body: '{"jsonrpc":' }, 400],
  ['not an initialize', { headers: { ...JSON_HEADERS, ...auth(ALICE) }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }, 400],
  ['an initialize in a batch', { headers: { ...JSON_HEADERS, ...auth(ALICE) }, body: `[${INIT}]` }, 400],
  ['a GET without session', { method: 'GET', headers: { accept: 'text/event-stream', ...auth(ALICE) } }, 400],
  ['a PUT', { method: 'PUT', headers: { ...JSON_HEADERS, ...auth(ALICE) }, body: INIT }, 405],
  ['an unknown session', { headers: { ...JSON_HEADERS, ...auth(ALICE), 'mcp-session-id': 'b2f0c7a4-0000-4000-8000-000000000000' }, body: INIT }, 404],
];

test('a refused request makes nothing: no client session, no journal file', async (t) => {
  const gw = await inProcess(t);
  for (const [what, opts, status] of REJECTED) {
    const r = await raw(gw.url, opts);
    assert.equal(r.status, status, `${what}: ${r.body}`);
    assert.equal(typeof r.json?.error?.code, 'number', what);
  }
  assert.equal(gw.server.sessions(), 0);
  assert.equal(gw.gateway.sessions.size, 0, 'no client session was built');
  assert.deepEqual(gw.files(), [], 'no journal file was written');
  // and a valid one does make one; its file comes with its first record
  // (a session that records nothing leaves none: journal.js)
  const ok = await raw(gw.url, { headers: { ...JSON_HEADERS, ...auth(ALICE) }, body: INIT });
  assert.equal(ok.status, 200);
  assert.equal(gw.server.sessions(), 1);
  assert.deepEqual(gw.files(), []);
});

test('2,000 refused requests keep the gateway\'s RSS flat and leave no file', async (t) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const gw = await inProcess(t);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  t.after(() => agent.destroy());
  const kinds = [REJECTED[0], REJECTED[1], REJECTED[5], REJECTED[6]]; // simple POST, text/plain, bad token, bad origin
  const burst = async (n) => {
    let next = 0;
    const worker = async () => {
      while (next < n) {
        const [, opts, status] = kinds[next++ % kinds.length];
        const r = await raw(gw.url, { ...opts, agent });
        assert.equal(r.status, status);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  };
  await burst(1000); // warm-up: code paths compiled, sockets open, allocator settled
  gc();
  // Two measured bursts: a leak grows the memory in both, while the process
  // (V8 handing back or keeping pages, the allocator taking a new arena) can
  // step up once in either — one 8.7 MB step was seen on a loaded machine —
  // so the smaller of the two growths is the one compared.
  const measure = async () => {
    const m0 = process.memoryUsage();
    const started = Date.now();
    await burst(2000);
    gc();
    const m1 = process.memoryUsage();
    return { m0, m1, ms: Date.now() - started };
  };
  const runs = [await measure(), await measure()];
  const mb = (n) => (n / 1048576).toFixed(1);
  // What a leak shows in: the live heap (JS objects kept) and the RSS
  // (everything else: wasm memory, buffers, sockets). RSS minus V8's
  // heapTotal is no measure of the second: V8 grows its young generation
  // under load, and a leak of 8 KiB buffers per request was hidden by it.
  const heap = Math.min(...runs.map(({ m0, m1 }) => m1.heapUsed - m0.heapUsed));
  const rss = Math.min(...runs.map(({ m0, m1 }) => m1.rss - m0.rss));
  for (const { m0, m1, ms } of runs)
    t.diagnostic(`2,000 refused requests in ${ms} ms: RSS ${mb(m0.rss)} → ${mb(m1.rss)} MB ` +
      `(live heap ${mb(m0.heapUsed)} → ${mb(m1.heapUsed)} MB; outside the V8 heap ${mb(m0.rss - m0.heapTotal)} → ${mb(m1.rss - m1.heapTotal)} MB)`);
  assert.ok(heap < 2 * 1048576, `the live heap grew ${mb(heap)} MB over each of two bursts of 2,000 refused requests`);
  assert.ok(rss < 8 * 1048576, `the RSS grew ${mb(rss)} MB over each of two bursts of 2,000 refused requests`);
  assert.equal(gw.gateway.sessions.size, 0);
  assert.deepEqual(gw.files(), []);
});

test('a session belongs to its token; two clients cannot touch each other\'s menu', async (t) => {
  const gw = await inProcess(t);
  const a = await connectHttp(gw.url, ALICE);
  const b = await connectHttp(gw.url, BOB);
  t.after(() => a.client.close());
  t.after(() => b.client.close());
  await search(a.client, 'send a slack message', 1);
  assert.deepEqual(await names(a.client), ['search_tools', 'cat__slack__send_message']);
  assert.deepEqual(await names(b.client), ['search_tools']);
  const refused = await b.client.callTool({ name: 'cat__slack__send_message', arguments: {} });
  assert.match(text(refused), /not loaded in this session/);
  // bob's token naming alice's session: the same 404 as an unknown id
  const list = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
  const headers = { ...JSON_HEADERS, 'mcp-session-id': a.transport.sessionId, 'mcp-protocol-version': '2025-06-18' };
  const stolen = await raw(gw.url, { headers: { ...headers, ...auth(BOB) }, body: list });
  assert.equal(stolen.status, 404);
  assert.equal(stolen.json.error.code, -32001);
  const own = await raw(gw.url, { headers: { ...headers, ...auth(ALICE) }, body: list });
  assert.equal(own.status, 200);
  assert.match(own.body, /cat__slack__send_message/);
  // who opened a session is recorded by token name (never the token)
  await search(b.client, 'create a jira issue', 1); // (a session's file comes with its first record)
  const principals = journals(gw.journalDir).map((f) => readLines(f)[0].value.principal).sort();
  assert.deepEqual(principals, ['alice', 'bob']);
  assert.match(gw.logs.join('\n'), /http: session [0-9a-f]{16} opened \(token "alice"\)/);
  for (const f of journals(gw.journalDir)) {
    const body = readFileSync(f, 'utf8');
    assert.ok(!body.includes(ALICE) && !body.includes(BOB) && !body.includes(a.transport.sessionId));
  }
  assert.ok(!gw.logs.join('\n').includes(a.transport.sessionId), 'no session id in the log');
});

test('http.maxSessions: one more initialize is 503 with -32012 and a log line; a closed session makes room', async (t) => {
  const gw = await inProcess(t, { http: { maxSessions: 2 } });
  const a = await connectHttp(gw.url, ALICE);
  const b = await connectHttp(gw.url, BOB);
  t.after(() => b.client.close());
  const full = await raw(gw.url, { headers: { ...JSON_HEADERS, ...auth(ALICE) }, body: INIT });
  assert.equal(full.status, 503);
  assert.equal(full.json.error.code, -32012);
  assert.match(full.json.error.message, /too many sessions: http\.maxSessions \(2\)/);
  assert.match(gw.logs.join('\n'), /initialize refused: http\.maxSessions \(2\) sessions are open/);
  assert.equal(gw.gateway.sessions.size, 2, 'the refused initialize made no session');
  assert.deepEqual(gw.files(), [], 'nor a journal (and the two open ones recorded nothing yet)');
  await a.transport.terminateSession();
  await a.client.close();
  const c = await connectHttp(gw.url, ALICE);
  t.after(() => c.client.close());
  assert.deepEqual(await names(c.client), ['search_tools']);
});

test('http.maxSessionsPerToken: one token cannot take every slot; the others still open sessions (issue 34, --abuse-fill)', async (t) => {
  const gw = await inProcess(t, { http: { maxSessions: 4, maxSessionsPerToken: 2 } });
  const a1 = await connectHttp(gw.url, ALICE);
  const a2 = await connectHttp(gw.url, ALICE);
  t.after(() => Promise.all([a1.client.close(), a2.client.close()]));
  const third = await raw(gw.url, { headers: { ...JSON_HEADERS, ...auth(ALICE) }, body: INIT });
  assert.equal(third.status, 503);
  assert.equal(third.json.error.code, -32012);
  assert.match(third.json.error.message, /too many sessions for this token: http\.maxSessionsPerToken \(2\)/);
  assert.match(gw.logs.join('\n'), /initialize refused: http\.maxSessionsPerToken \(2\) sessions of one token are open/);
  assert.equal(gw.gateway.sessions.size, 2, 'the refused initialize made no session');
  // bob's share is his own
  const b1 = await connectHttp(gw.url, BOB);
  const b2 = await connectHttp(gw.url, BOB);
  t.after(() => Promise.all([b1.client.close(), b2.client.close()]));
  assert.deepEqual(await names(b2.client), ['search_tools']);
  // a closed session gives its token room again
  await a1.transport.terminateSession();
  const a3 = await connectHttp(gw.url, ALICE);
  t.after(() => a3.client.close());
  assert.deepEqual(await names(a3.client), ['search_tools']);
});

test('http.maxSessionsPerToken is checked: at most http.maxSessions, by default all of it', () => {
  const base = { mcpServers: {} };
  assert.equal(checkConfig({ ...base, http: { maxSessions: 10 } }).http.maxSessionsPerToken, 10);
  assert.throws(() => checkConfig({ ...base, http: { maxSessions: 10, maxSessionsPerToken: 11 } }),
    /http\.maxSessionsPerToken: expected an integer from 1 to 10/);
});

test('journal.maxBytes: a search past the limit is refused with -32014; loaded tools still answer, unrecorded; the journal replays', async (t) => {
  const gw = await inProcess(t);
  // the size of a session's first lines (its segment line and chain header), from a first session
  const probe = await connectHttp(gw.url, ALICE);
  const segmentBytes = [...gw.gateway.sessions][0].journalFile.bytes;
  await probe.transport.terminateSession();
  await probe.client.close();
  gw.gateway.config.journalMaxBytes = segmentBytes + 1; // room for one decision
  const { client, transport } = await connectHttp(gw.url, ALICE);
  t.after(() => client.close());
  await search(client, 'send a slack message', 1);
  const err = await client.callTool({ name: 'search_tools', arguments: { query: 'create a jira issue' } }).then(() => null, (e) => e);
  assert.ok(err, 'the second search was refused');
  assert.equal(err.code, -32014);
  assert.match(err.message, /journal full: .*journal\.maxBytes \(\d+ bytes\)/);
  assert.match(gw.logs.join('\n'), /session [0-9a-f]{16}: journal full \(\d+ of journal\.maxBytes \d+ bytes\): search_tools refused/);
  const sent = await client.callTool({ name: 'cat__slack__send_message', arguments: { channel: '#ops', text: 'hi' } });
  assert.equal(sent.isError, undefined);
  const listed = await names(client);
  await transport.terminateSession();
  const file = journals(gw.journalDir).find((f) => readLines(f).some((l) => l.source === 'agent-tool-search'));
  // the call went on, but its record was left out: the file ends at the limit, still a valid chain
  assert.deepEqual(readLines(file).map((l) => l.source), ['toolsift-mcp-segment', 'toolsift-journal', 'agent-tool-search']);
  const r = await replay(file);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.tools.map((x) => x.name), listed);
});

test('journals are private: folder 0700 (an existing 0755 one narrowed), files 0600, named by a random id', async (t) => {
  const gw = await inProcess(t, { preDir: (dir) => {
    mkdirSync(dir);
    chmodSync(dir, 0o755);
  } });
  assert.equal(statSync(gw.journalDir).mode & 0o777, 0o700);
  assert.match(gw.logs.join('\n'), /journal folder .* was mode 755: now 700/);
  const { client, transport } = await connectHttp(gw.url, ALICE);
  t.after(() => client.close());
  await search(client, 'send a slack message', 1);
  const [file] = journals(gw.journalDir);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.match(path.basename(file), /^\d{4}-\d\d-\d\dT[\d-]+Z-http-[0-9a-f]{16}\.jsonl$/);
  assert.ok(!file.includes(transport.sessionId));
  // a folder made by the gateway itself is 0700 too
  const fresh = await inProcess(t, { raw: { journal: { dir: 'a/b/journals' } } });
  assert.equal(statSync(path.join(fresh.dir, 'a/b/journals')).mode & 0o777, 0o700);
});

test('perSession: each client session has its own server-memory; a shared server stays shared', async (t) => {
  const dir = tempDir(t);
  const gw = await inProcess(t, { raw: { mcpServers: {
    mem: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(dir, 'mem-{session}.jsonl') }, perSession: true },
    shared: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(dir, 'shared.jsonl') } },
  }, search: { maxPerSearch: 4 } } });
  const a = await connectHttp(gw.url, ALICE);
  const b = await connectHttp(gw.url, BOB);
  t.after(() => b.client.close());
  const tools = 'mem__create_entities,mem__read_graph,shared__create_entities,shared__read_graph';
  for (const c of [a, b]) await search(c.client, `select:${tools}`);
  const entity = (name) => ({ entities: [{ name, entityType: 'note', observations: ['private to one session'] }] });
  assert.equal((await a.client.callTool({ name: 'mem__create_entities', arguments: entity('alice-secret') })).isError, undefined);
  await a.client.callTool({ name: 'shared__create_entities', arguments: entity('for-everyone') });
  const graph = async (c, server) => text(await c.client.callTool({ name: `${server}__read_graph`, arguments: {} }));
  assert.match(await graph(a, 'mem'), /alice-secret/);
  assert.doesNotMatch(await graph(b, 'mem'), /alice-secret/, 'another session\'s memory is not visible');
  assert.match(await graph(b, 'shared'), /for-everyone/, 'a server without perSession is shared (the default)');
  // alice's own process ends with her session
  const entry = [...gw.gateway.sessions].find((e) => e.principal === 'alice');
  const pid = (await entry.upstreams.get('mem'))._client.transport.pid;
  assert.ok(Number.isInteger(pid));
  await a.transport.terminateSession();
  await a.client.close();
  await until(() => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }, 10000, 'the session\'s memory server to exit');
  assert.match(await graph(b, 'shared'), /for-everyone/);
});

test('--http needs a token or --no-auth; --token-file must be private; --generate-token writes one (0600)', async (t) => {
  const dir = tempDir(t);
  const config = writeConfig(dir, { mcpServers: {} });
  const run = (args) => spawnSync(process.execPath, [CLI, '--config', config, ...args], { encoding: 'utf8', timeout: 30000, input: '' });
  const none = run(['--http', '0']);
  assert.equal(none.status, 2);
  assert.match(none.stderr, /--http needs a bearer token: set http\.tokens .*--token-file FILE or --generate-token FILE, or pass --no-auth/);
  assert.doesNotMatch(none.stderr, /listening/);
  const open = path.join(dir, 'open-token');
  writeFileSync(open, `ci ${'z'.repeat(24)}\n`, { mode: 0o644 });
  chmodSync(open, 0o644);
  assert.match(run(['--http', '0', '--token-file', open]).stderr, /other users can read or write it \(mode 644\): chmod 600/);
  const file = path.join(dir, 'token');
  writeFileSync(file, `ci ${'z'.repeat(24)}\n`, { mode: 0o600 });
  assert.match(run(['--http', '0', '--token-file', file, '--no-auth']).stderr, /--no-auth and tokens .* exclude each other/);
  assert.match(run(['--token-file', file]).stderr, /settings of --http, which is not given/);
  const short = path.join(dir, 'short');
  writeFileSync(short, 'tooshort\n', { mode: 0o600 });
  assert.match(run(['--http', '0', '--token-file', short]).stderr, /short:1: a token is at least 16/);

  // --no-auth: served, said in the log, and a client without a header connects
  const noAuth = await startHttpGateway(config, ['--no-auth']);
  t.after(() => noAuth.stop());
  assert.match(noAuth.stderr(), /warning: --no-auth: any process on this machine can use this gateway/);
  const plain = await connectHttp(noAuth.url);
  t.after(() => plain.client.close());
  assert.deepEqual(await names(plain.client), ['search_tools']);

  // --generate-token: a fresh token in a 0600 file that holds the token and a
  // newline only; the log names the file and never shows the token
  const generated = path.join(dir, 'generated-token');
  writeFileSync(generated, 'an old token that must stop working\n', { mode: 0o644 });
  const gen = await startHttpGateway(config, ['--generate-token', generated]);
  t.after(() => gen.stop());
  assert.equal(statSync(generated).mode & 0o777, 0o600);
  const content = readFileSync(generated, 'utf8');
  assert.match(content, /^[A-Za-z0-9_-]{43}\n$/);
  const token = content.slice(0, -1);
  assert.ok(!gen.stderr().includes(token), 'the token is not in the log');
  assert.ok(gen.stderr().includes(`generated a bearer token in ${generated} (mode 0600)`), gen.stderr());
  // the header exactly as the README writes it, made by a shell
  const header = spawnSync('sh', ['-c', `printf '%s' "Bearer $(cat ${generated})"`], { encoding: 'utf8' }).stdout;
  assert.equal(header, `Bearer ${token}`);
  await assert.rejects(connectHttp(gen.url), /401|unauthorized/i);
  const client = makeClient();
  const transport = new StreamableHTTPClientTransport(new URL(gen.url), { requestInit: { headers: { Authorization: header } } });
  await client.connect(transport);
  t.after(() => client.close());
  assert.deepEqual(await names(client), ['search_tools']);
  assert.ok(!gen.stderr().includes(token), 'the token is not in the log after a session');
  // the file is a valid --token-file too
  const again = await startHttpGateway(config, ['--token-file', generated]);
  t.after(() => again.stop());
  const viaFile = await connectHttp(again.url, token);
  t.after(() => viaFile.client.close());
  assert.deepEqual(await names(viaFile.client), ['search_tools']);
});
