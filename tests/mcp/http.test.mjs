// http.test.mjs — toolsift-mcp over streamable HTTP on 127.0.0.1: two client
// sessions at once (separate menus, separate journals), list_changed on the
// HTTP stream, an upstream that is itself streamable HTTP, and the requests
// the listener refuses (foreign Host, no session, unknown session, not JSON).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { FIXTURE, connectHttp, journals, names, readLines, replay, search, startHttpGateway, tempDir, text, writeConfig } from './helpers.mjs';

function startHttpUpstream(port = 0) {
  const proc = spawn(process.execPath, [FIXTURE, '--products', 'slack,jira', '--http', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    proc.stderr.on('data', (d) => {
      log += d;
      const m = /listening (\S+)/.exec(log);
      if (m) resolve({ url: m[1], proc });
    });
    proc.once('exit', (c) => reject(new Error(`upstream exited ${c}: ${log}`)));
  });
}

function post(url, { host, headers = {}, body, token }) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: host ?? u.host,
        ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
    (res) => {
      let data = '';
      res.on('data', (d) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('streamable HTTP gateway: sessions, list_changed, an HTTP upstream, refusals', async (t) => {
  const dir = tempDir(t);
  const upstream = await startHttpUpstream();
  t.after(() => upstream.proc.kill());
  const journalDir = path.join(dir, 'journals');
  const config = writeConfig(dir, {
    mcpServers: { team: { url: upstream.url, trusted: true } },
    search: { maxPerSearch: 2 },
    journal: { dir: journalDir },
  });
  const gw = await startHttpGateway(config);
  t.after(() => gw.stop());
  assert.match(gw.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const a = await connectHttp(gw.url, gw.token);
  const b = await connectHttp(gw.url, gw.token);
  t.after(() => a.client.close());
  t.after(() => b.client.close());

  await t.test('each client session has its own menu', async () => {
    const waiting = a.client.nextListChanged();
    const r = await search(a.client, 'send a slack message', 1);
    await waiting;
    assert.deepEqual(r.tools.map((h) => h.name), ['team__slack__send_message']);
    assert.deepEqual(await names(a.client), ['search_tools', 'team__slack__send_message']);
    assert.deepEqual(await names(b.client), ['search_tools']);
    const out = await a.client.callTool({ name: 'team__slack__send_message', arguments: { channel: '#ops', text: 'hi' } });
    assert.equal(JSON.parse(text(out)).tool, 'slack__send_message');
    const refused = await b.client.callTool({ name: 'team__slack__send_message', arguments: {} });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /not loaded in this session/);
    const rb = await search(b.client, 'create a jira issue', 1);
    assert.match(rb.tools[0].name, /^team__jira__/);
  });

  await t.test('one journal per client session, each replaying to its own menu', async () => {
    await a.transport.terminateSession();
    const files = journals(journalDir);
    assert.equal(files.length, 2);
    // named by a random file id: the session ids (bearer secrets) are in no name
    assert.ok(files.every((f) => /-http-[0-9a-f]{16}\.jsonl$/.test(f)), files.join('\n'));
    assert.ok(files.every((f) => !f.includes(a.transport.sessionId) && !f.includes(b.transport.sessionId)));
    const menus = [];
    for (const f of files) {
      const r = await replay(f);
      assert.equal(r.status, 0, r.stderr);
      menus.push(r.tools.map((x) => x.name));
      assert.equal(readLines(f).filter((l) => l.source === 'agent-tool-search').length, 1);
    }
    assert.deepEqual(menus.map((m) => m[1].split('__')[1]).sort(), ['jira', 'slack']);
  });

  await t.test('refusals name what is wrong', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const foreign = await post(gw.url, { token: gw.token, host: 'evil.example:80', body: init });
    assert.equal(foreign.status, 403);
    assert.match(foreign.body, /loopback names only/);
    const noSession = await post(gw.url, { token: gw.token, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    assert.equal(noSession.status, 400);
    assert.match(noSession.body, /start a session with a POST initialize request/);
    const unknown = await post(gw.url, { token: gw.token, headers: { 'mcp-session-id': 'nope' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /unknown or closed session/);
    const garbage = await post(gw.url, { token: gw.token, body: '{not json' });
    assert.equal(garbage.status, 400);
    assert.match(garbage.body, /not JSON/);
    assert.equal(journals(journalDir).length, 2, 'a refused request starts no session');
  });
});

test('concurrent tools/call requests are numbered in arrival order', async (t) => {
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  const config = writeConfig(dir, {
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', 'github,slack,jira,stripe'], trusted: true } },
    search: { maxPerSearch: 1, toolName: 'find_tools' },
    journal: { dir: journalDir },
  });
  const gw = await startHttpGateway(config);
  t.after(() => gw.stop());
  const { client } = await connectHttp(gw.url, gw.token);
  t.after(() => client.close());
  assert.match(client.getInstructions(), /call find_tools with a few words/);
  const queries = ['create a github issue', 'send a slack message', 'create a jira issue', 'refund a stripe charge'];
  const results = await Promise.all(queries.map((query) => client.callTool({ name: 'find_tools', arguments: { query } })));
  assert.ok(results.every((r) => !r.isError));
  const [file] = journals(journalDir);
  const decisions = readLines(file).filter((l) => l.source === 'agent-tool-search');
  assert.deepEqual(decisions.map((d) => d.id), [0, 1, 2, 3].map((n) => `mcp#turn:${n}:tool:0:search`));
  assert.deepEqual(decisions.map((d) => d.value.query).sort(), [...queries].sort());
  const r = await replay(file);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.tools, (await client.listTools()).tools);
});

test('an HTTP upstream that goes away and comes back is reconnected', async (t) => {
  const dir = tempDir(t);
  let upstream = await startHttpUpstream();
  const port = new URL(upstream.url).port;
  t.after(() => upstream.proc.kill());
  const config = writeConfig(dir, {
    mcpServers: { team: { url: upstream.url, trusted: true, restart: { maxAttempts: 20, backoffMs: 100 } } },
  });
  const gw = await startHttpGateway(config);
  t.after(() => gw.stop());
  const { client } = await connectHttp(gw.url, gw.token);
  t.after(() => client.close());
  await search(client, 'send a slack message', 1);
  const first = JSON.parse(text(await client.callTool({ name: 'team__slack__send_message', arguments: {} }))).pid;
  await new Promise((r) => {
    upstream.proc.once('exit', r);
    upstream.proc.kill();
  });
  const down = await client.callTool({ name: 'team__slack__send_message', arguments: {} });
  assert.equal(down.isError, true);
  assert.match(text(down), /The call to "team__slack__send_message" failed at its server "team"/);
  upstream = await startHttpUpstream(port);
  let pid;
  const end = Date.now() + 15000;
  while (Date.now() < end) {
    const r = await client.callTool({ name: 'team__slack__send_message', arguments: {} });
    if (!r.isError) {
      pid = JSON.parse(text(r)).pid;
      break;
    }
    assert.match(text(r), /restarting|failed at its server/);
    await new Promise((r2) => setTimeout(r2, 200));
  }
  assert.ok(pid && pid !== first, `a new upstream answered (${pid} vs ${first})\n${gw.stderr()}`);
  assert.match(gw.stderr(), /\[team\] ready: \d+ tools \(restart 1\)/);
});

test('an idle HTTP client session is closed after http.idleTimeoutMs', async (t) => {
  const dir = tempDir(t);
  const config = writeConfig(dir, {
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', 'slack'], trusted: true } },
    http: { idleTimeoutMs: 300 },
  });
  const gw = await startHttpGateway(config);
  t.after(() => gw.stop());
  const { client, transport } = await connectHttp(gw.url, gw.token);
  t.after(() => client.close().catch(() => {}));
  assert.deepEqual(await names(client), ['search_tools']);
  const sid = transport.sessionId;
  await new Promise((r) => setTimeout(r, 1200));
  assert.match(gw.stderr(), /session [0-9a-f]{16} idle for 300 ms: closed/);
  assert.ok(!gw.stderr().includes(sid), 'the log never shows a session id');
  const gone = await post(gw.url, { token: gw.token, headers: { 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }) });
  assert.equal(gone.status, 404);
  assert.equal(JSON.parse(gone.body).error.code, -32013);
  assert.match(JSON.parse(gone.body).error.message, /session expired: .*http\.idleTimeoutMs \(300 ms\)/);
});
