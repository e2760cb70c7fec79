// limits.test.mjs — what one client with a token can make the gateway spend
// (issue 34): journal storage (a session that records nothing leaves no
// file; the folder's caps journal.maxFiles / maxTotalBytes, rotated or
// refused: the 2,400-cycle repro), the log (a refusal repeated by a client
// is one line per interval with a count — an injected clock, so nothing here
// depends on time), and sockets (a client that trickles its headers or its
// body is answered 408 and cut off after http.headersTimeoutMs /
// requestTimeoutMs, not Node's 60 s / 300 s).
//
// The gateway runs in this process (Gateway + serveHttp), as in
// security.test.mjs; the stdio case spawns the bin.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { load } from '../../js/toolsift.js';
import { checkConfig } from '../../js/mcp/config.js';
import { Gateway } from '../../js/mcp/gateway.js';
import { serveHttp } from '../../js/mcp/http.js';
import { SEGMENT_SOURCE, segmentLinePieces } from '../../js/mcp/session.js';
import { FIXTURE, connectHttp, connectStdio, journals, readLines, replay, search, searchRaw, tempDir, text, writeConfig } from './helpers.mjs';

const toolsift = await load();
const TOKEN = 'alice-token-0123456789abcdef';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` };

// A clock the test moves: QuietLog's windows and their summaries follow it,
// not the time the machine takes.
function fakeClock() {
  const clock = { t: 0, timers: [], now: () => clock.t, schedule: (fn) => clock.timers.push(fn) };
  clock.fire = () => {
    const due = clock.timers;
    clock.timers = [];
    for (const fn of due) fn();
  };
  return clock;
}

/** A gateway in this process over the catalog fixture's slack tools; `raw`: configuration keys; `http`: serveHttp options. */
async function inProcess(t, { raw = {}, http = {} } = {}) {
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  const base = {
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', 'slack'], trusted: true } },
    search: { maxPerSearch: 2 },
    ...raw,
    journal: { dir: journalDir, ...raw.journal },
  };
  const config = checkConfig(base, dir);
  const logs = [];
  const clock = fakeClock();
  const gateway = new Gateway(config, { toolsift, log: (l) => logs.push(l), clock });
  await gateway.start();
  const server = await serveHttp(gateway, { port: 0, tokens: [{ name: 'alice', token: TOKEN }], ...http });
  t.after(async () => {
    await server.close();
    await gateway.close();
  });
  // what is on disk: the journal files and their bytes
  const disk = () => {
    let names = [];
    try {
      names = readdirSync(journalDir).filter((f) => f.endsWith('.jsonl'));
    } catch {
      /* no folder yet */
    }
    return { files: names.length, bytes: names.reduce((n, f) => n + statSync(path.join(journalDir, f)).size, 0), names };
  };
  const reload = (journal) => gateway.reload(checkConfig({ ...base, journal: { dir: journalDir, ...journal } }, dir));
  return { dir, gateway, server, url: server.url, journalDir, logs, clock, disk, reload };
}

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

// One abusive cycle, as the repro: initialize, (a search,) DELETE.
async function cycle(url, agent, { searchFor = null } = {}) {
  const init = await raw(url, { headers: HEADERS, body: INIT, agent });
  if (init.status !== 200) return init;
  const h = { ...HEADERS, 'mcp-session-id': init.headers['mcp-session-id'], 'mcp-protocol-version': '2025-06-18' };
  await raw(url, { headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), agent });
  let answer = null;
  if (searchFor) {
    answer = await raw(url, { headers: h, agent, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call',
      params: { name: 'search_tools', arguments: { query: searchFor } } }) });
  }
  const del = await raw(url, { method: 'DELETE', headers: h, agent });
  assert.equal(del.status, 200);
  return { status: 200, answer };
}

const SLACK_QUERIES = ['send a slack message', 'list slack channels', 'add a reaction emoji to a slack message', 'reply in a slack thread'];

test('journal storage: the 2,400-cycle repro leaves no file; sessions that search stay under the caps, the oldest closed journals rotated; a valid client keeps working', async (t) => {
  const gw = await inProcess(t, { raw: { journal: { maxFiles: 10 } } });
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  t.after(() => agent.destroy());
  const valid = await connectHttp(gw.url, TOKEN);
  t.after(() => valid.client.close());
  let validSearches = 0;
  // a search answered (a tool it loaded once is not found again: the answer is still a page)
  const validSearch = async () => {
    const r = await searchRaw(valid.client, SLACK_QUERIES[validSearches++ % SLACK_QUERIES.length], 1);
    assert.notEqual(r.isError, true, text(r));
    assert.ok(Array.isArray(r.structuredContent.tools), text(r));
  };

  await t.test('2,400 initialize + DELETE cycles (four at a time): 2,400 sessions, no journal file', async () => {
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < 2400) {
        next++;
        assert.equal((await cycle(gw.url, agent)).status, 200);
        if (next % 600 === 0) await validSearch();
      }
    }));
    // the valid client's journal is the only file: it recorded searches
    assert.deepEqual(gw.disk().files, 1);
    assert.equal(gw.gateway.sessions.size, 1);
    assert.equal(gw.logs.filter((l) => /session [0-9a-f]{16} opened/.test(l)).length, 2401);
  });

  await t.test('sessions that search: never more than journal.maxFiles (10) files, the open one never deleted', async () => {
    const mine = gw.disk().names[0];
    for (let i = 0; i < 60; i++) {
      const r = await cycle(gw.url, agent, { searchFor: SLACK_QUERIES[i % SLACK_QUERIES.length] });
      assert.match(r.answer.body, /slack__/);
      const d = gw.disk();
      assert.ok(d.files <= 10, `${d.files} files after cycle ${i}`);
      assert.ok(d.names.includes(mine), 'the valid client\'s open journal is kept');
      if (i % 20 === 0) await validSearch();
    }
    assert.equal(gw.disk().files, 10);
    assert.equal(gw.gateway.journals.files, 10, 'the store counts what is on disk');
    assert.equal(gw.gateway.journals.bytes, gw.disk().bytes);
    // deletions are logged once per interval, with a count
    assert.equal(gw.logs.filter((l) => /deleted the oldest closed journal/.test(l)).length, 1);
    gw.clock.fire();
    assert.match(gw.logs.at(-1), /^\d+ more like this in \d+ s \(one line per 10 s\); the last: journal folder at its caps .*deleted the oldest closed journal/);
  });

  await t.test('journal.maxTotalBytes (SIGHUP: re-read and re-counted): the bytes stay under it', async () => {
    const cap = 5 * Math.max(...gw.disk().names.map((f) => statSync(path.join(gw.journalDir, f)).size));
    await gw.reload({ maxFiles: 0, maxTotalBytes: cap });
    assert.ok(gw.disk().bytes <= cap, 'the reload applied the new cap at once');
    for (let i = 0; i < 30; i++) {
      await cycle(gw.url, agent, { searchFor: SLACK_QUERIES[i % SLACK_QUERIES.length] });
      const d = gw.disk();
      assert.ok(d.bytes <= cap, `${d.bytes} bytes (cap ${cap}) after cycle ${i}`);
    }
    await validSearch();
    assert.ok(gw.disk().files >= 3, 'the cap is in bytes now: several journals fit');
  });

  await t.test('the valid client\'s journal is whole and replays into its menu', async () => {
    const listed = (await valid.client.listTools()).tools;
    const file = journals(gw.journalDir).find((f) => readLines(f).filter((l) => l.source === 'agent-tool-search').length === validSearches);
    assert.ok(file, 'the valid client\'s journal');
    const r = await replay(file);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.tools, listed);
    // private, as every file the gateway writes
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(gw.journalDir).mode & 0o777, 0o700);
  });
});

test('journal.whenFull "refuse": a new session is 503 with -32015, a session without a file cannot decide (-32014); moving journals away and SIGHUP reopen', async (t) => {
  const gw = await inProcess(t, { raw: { journal: { maxFiles: 3, whenFull: 'refuse' } } });
  const early = await connectHttp(gw.url, TOKEN); // opened while there was room; no file yet
  t.after(() => early.client.close());
  for (let i = 0; i < 3; i++) {
    const c = await connectHttp(gw.url, TOKEN);
    await search(c.client, SLACK_QUERIES[i], 1);
    await c.transport.terminateSession();
    await c.client.close();
  }
  assert.equal(gw.disk().files, 3);
  for (let i = 0; i < 50; i++) {
    const r = await raw(gw.url, { headers: HEADERS, body: INIT });
    assert.equal(r.status, 503);
    assert.equal(r.headers['retry-after'], '30');
    assert.equal(r.json.error.code, -32015);
    assert.match(r.json.error.message, /^journal storage full: the journal folder holds 3 journal files, and journal\.maxFiles is 3; a session whose decisions cannot be recorded is not opened — the operator must move journals away/);
  }
  assert.equal(gw.logs.filter((l) => /initialize refused: journal storage full/.test(l)).length, 1, 'one line for 50 refusals');
  gw.clock.fire();
  assert.match(gw.logs.at(-1), /^49 more like this in 0 s .*initialize refused: journal storage full/);
  const refused = await early.client.callTool({ name: 'search_tools', arguments: { query: 'send a slack message' } }).then(() => null, (e) => e);
  assert.equal(refused?.code, -32014);
  assert.match(refused.message, /journal full: the journal folder holds 3 journal files, and journal\.maxFiles is 3, and a decision that is not recorded cannot be audited; search_tools is refused while the journal folder is full/);
  assert.equal(gw.disk().files, 3, 'nothing was deleted');
  // the operator moves one away and sends SIGHUP (a reload): the folder is counted again
  unlinkSync(path.join(gw.journalDir, gw.disk().names[0]));
  await gw.reload({ maxFiles: 3, whenFull: 'refuse' });
  const r = await search(early.client, 'send a slack message', 1);
  assert.deepEqual(r.tools.map((h) => h.name), ['cat__slack__send_message']);
  assert.equal(gw.disk().files, 3);
  assert.equal((await raw(gw.url, { headers: HEADERS, body: INIT })).status, 503);
  // journal.maxTotalBytes: an open journal decides while the folder is under it
  const cap = gw.disk().bytes + 1;
  await gw.reload({ maxFiles: 0, maxTotalBytes: cap, whenFull: 'refuse' });
  await search(early.client, 'list slack channels', 1); // admitted under the cap: its line passes it
  const over = await early.client.callTool({ name: 'search_tools', arguments: { query: 'add a reaction' } }).then(() => null, (e) => e);
  assert.equal(over?.code, -32014);
  assert.match(over.message, /journal full: the journals in the folder hold \d+ bytes, and journal\.maxTotalBytes is \d+/);
  assert.equal(over.data?.limit, 'journal.maxTotalBytes');
  // the loaded tools still answer; the journal is a valid chain and replays
  const listed = (await early.client.listTools()).tools;
  assert.equal(JSON.parse(text(await early.client.callTool({ name: 'cat__slack__send_message', arguments: {} }))).tool, 'slack__send_message');
  await early.transport.terminateSession();
  const file = journals(gw.journalDir).find((f) => readLines(f).filter((l) => l.source === 'agent-tool-search').length === 2);
  const rep = await replay(file);
  assert.equal(rep.status, 0, rep.stderr);
  assert.deepEqual(rep.tools, listed);
});

test('stdio: a session that records nothing leaves no file; a call record makes one, whole', async (t) => {
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  const config = writeConfig(dir, {
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', 'slack'], trusted: true, alwaysLoaded: ['slack__send_message'] } },
    journal: { dir: journalDir },
  });
  const quiet = await connectStdio(config);
  assert.ok((await quiet.client.listTools()).tools.length === 2);
  await quiet.client.close();
  assert.match(quiet.stderr(), /journal .*-stdio-[0-9a-f]{16}\.jsonl \(written from the session's first decision or call record\)/);
  assert.deepEqual(journals(journalDir), []);
  const busy = await connectStdio(config);
  await busy.client.callTool({ name: 'cat__slack__send_message', arguments: { text: 'hi' } });
  const listed = (await busy.client.listTools()).tools;
  await busy.client.close();
  const [file] = journals(journalDir);
  assert.deepEqual(readLines(file).map((l) => l.source), ['toolsift-mcp-segment', 'toolsift-journal', 'agent-tool-call']);
  const r = await replay(file);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.tools, listed);
});

test('segmentLinePieces: the pieces of a segment line are JSON.stringify of its record, byte for byte', () => {
  const catalog = { tools: [{ id: 'a__x', name: 'x', description: 'caf\u00e9 \u2028 "toolsift-shared-catalog-" \ud83d\ude00', inputSchema: { type: 'object' } }], annotations: {} };
  const value = (extra) => ({ segment: 0, turn: 0, generation: 3, catalogKey: 'k', fingerprint: 'f',
    config: { loop: 'agent', tools: [], catalog, search: { maxPerSearch: 2, alwaysLoaded: ['toolsift-shared-vocabulary-'] } }, ...extra, sessionFingerprint: 's' });
  const records = [
    { id: 'agent#segment:0', source: SEGMENT_SOURCE, value: value({}) },
    { id: 'agent#segment:1', source: SEGMENT_SOURCE, value: value({ vocabulary: '{"annotations": {"a__x": {"tags": ["\u00e9t\u00e9"]}}}\n', vocabularyKey: 'v', principal: 'alice' }) },
    { id: 'agent#segment:2', source: SEGMENT_SOURCE, value: { segment: 2, config: { loop: 'agent' } } }, // no catalog: one piece
  ];
  for (const record of records) {
    const pieces = segmentLinePieces(record);
    assert.equal(pieces.join(''), JSON.stringify(record));
    assert.equal(pieces.length, record.value.config.catalog ? (record.value.vocabulary ? 5 : 3) : 1);
  }
  // the catalog's text is made once per catalog object: the same piece for every session of a generation
  assert.equal(segmentLinePieces(records[0])[1], JSON.stringify(catalog));
});

test('idle sessions share their generation\'s segment text: 40 open sessions hold no copy of the 418-tool catalog each; the line written later is the same, and replays', async (t) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const dir = tempDir(t);
  const journalDir = path.join(dir, 'journals');
  writeFileSync(path.join(dir, 'words.json'), JSON.stringify({ annotations: { cat__slack__send_message: { tags: ['kudos'], aliases: ['give kudos'] } } }));
  const config = checkConfig({
    mcpServers: { cat: { command: process.execPath, args: [FIXTURE], trusted: true } },
    search: { maxPerSearch: 2, annotations: 'words.json' },
    journal: { dir: journalDir },
  }, dir);
  const gateway = new Gateway(config, { toolsift, log: () => {} });
  await gateway.start();
  const server = await serveHttp(gateway, { port: 0, tokens: [{ name: 'alice', token: TOKEN }] });
  t.after(async () => {
    await server.close();
    await gateway.close();
  });
  const catalogChars = JSON.stringify(gateway.universe.catalog).length;
  assert.ok(gateway.universe.catalog.tools.length > 400 && catalogChars > 200000, `${catalogChars} characters`);
  // sessions as the transport makes them, never sent a request: each keeps its segment line and chain header pending
  const open = [];
  const openSessions = (n) => {
    for (let i = 0; i < n; i++) open.push(gateway.createClientSession('http', { principal: 'alice' }));
  };
  t.after(() => {
    for (const e of open) {
      gateway.sessions.delete(e);
      e.session.close();
      e.journalFile.close();
    }
  });
  openSessions(4); // warm-up: code compiled, the generation's shared text made
  gc();
  const h0 = process.memoryUsage().heapUsed;
  openSessions(40);
  gc();
  const perSession = (process.memoryUsage().heapUsed - h0) / 40;
  // a copy of the line costs a byte per character of the catalog at least (two when it is not Latin-1):
  // 574 KB a session when each kept its own, about 32 KB when they share it
  assert.ok(perSession < catalogChars / 2, `${Math.round(perSession / 1024)} KB a session; the catalog is ${catalogChars} characters`);
  assert.deepEqual(readdirSync(journalDir), [], 'idle sessions write no file');
  const pending = open.at(-1).journalFile.bytes;
  assert.ok(pending > catalogChars, 'the pending bytes count the whole line');

  // a client that searches: its file starts with the line exactly as JSON.stringify wrote it, counted to the byte
  const { client } = await connectHttp(server.url, TOKEN);
  t.after(() => client.close());
  const entry = [...gateway.sessions].at(-1);
  assert.equal(entry.journalFile.created, false);
  assert.equal(entry.journalFile.bytes, pending);
  assert.deepEqual((await search(client, 'give kudos', 1)).tools.map((h) => h.name), ['cat__slack__send_message']);
  const file = entry.journal;
  const [first] = readFileSync(file, 'utf8').split('\n');
  assert.equal(JSON.stringify(JSON.parse(first)), first);
  assert.equal(JSON.stringify(JSON.parse(first).value.config.catalog), JSON.stringify(gateway.universe.catalog));
  assert.equal(JSON.parse(first).value.vocabulary, config.vocabulary.text);
  assert.equal(statSync(file).size, entry.journalFile.bytes);
  assert.equal(statSync(file).size, entry.journalFile.written);
  const listed = (await client.listTools()).tools;
  const r = await replay(file);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.tools, listed);
});

test('a journal cap the open sessions could fill is warned about at start', async (t) => {
  // the slack fixture's catalog is a few KB: 64 sessions × it against 64 KB
  const small = await inProcess(t, { raw: { journal: { maxTotalBytes: 64 * 1024 } } });
  assert.match(small.logs.join('\n'), /warning: journal\.maxTotalBytes \(65536\) is under twice http\.maxSessions \(64\) × a session's first journal line \(about \d+ bytes, the catalog\)/);
  const roomy = await inProcess(t);
  assert.doesNotMatch(roomy.logs.join('\n'), /is under twice http\.maxSessions/);
});

test('http.maxSessions refusals: one log line per interval with a count, whatever the client sends', async (t) => {
  const gw = await inProcess(t, { http: { maxSessions: 1 } });
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  t.after(() => agent.destroy());
  assert.equal((await raw(gw.url, { headers: HEADERS, body: INIT, agent })).status, 200);
  const refusals = () => gw.logs.filter((l) => /initialize refused: http\.maxSessions/.test(l));
  for (let i = 0; i < 1000; i++) {
    const r = await raw(gw.url, { headers: HEADERS, body: INIT, agent });
    assert.equal(r.status, 503);
    assert.equal(r.json.error.code, -32012);
  }
  assert.equal(refusals().length, 1, '1,000 refusals, one line');
  gw.clock.fire(); // the window's end
  assert.equal(gw.logs.at(-1), '999 more like this in 0 s (one line per 10 s); the last: http: initialize refused: http.maxSessions (1) sessions are open');
  gw.clock.t += 10000; // a new window: its first refusal is written again
  await raw(gw.url, { headers: HEADERS, body: INIT, agent });
  await raw(gw.url, { headers: HEADERS, body: INIT, agent });
  assert.equal(refusals().length, 3);
  await gw.server.close();
  await gw.gateway.close(); // flushes what is pending
  assert.equal(gw.logs.at(-1), '1 more like this in 0 s (one line per 10 s); the last: http: initialize refused: http.maxSessions (1) sessions are open');
});

// A socket that sends `first` and then nothing: resolves with what the
// gateway answered once it closed the socket (never closed: the test times out).
function trickle(url, first) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const socket = connect(Number(u.port), u.hostname, () => socket.write(first));
    let got = '';
    socket.on('data', (d) => (got += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
  });
}

test('slow clients: headers or a body trickled past http.headersTimeoutMs / requestTimeoutMs get 408 and lose the socket; the defaults are 10 s and 30 s', async (t) => {
  const defaults = checkConfig({ mcpServers: {} }).http;
  assert.deepEqual([defaults.headersTimeoutMs, defaults.requestTimeoutMs], [10000, 30000]);
  assert.throws(() => checkConfig({ mcpServers: {}, http: { headersTimeoutMs: 40000 } }), /http\.headersTimeoutMs: is 40000, more than http\.requestTimeoutMs \(30000\)/);
  const plain = await inProcess(t);
  assert.deepEqual([plain.server.httpServer.headersTimeout, plain.server.httpServer.requestTimeout], [10000, 30000],
    'serveHttp\'s defaults, not Node\'s 60 s and 300 s');
  const gw = await inProcess(t, { http: { headersTimeoutMs: 200, requestTimeoutMs: 400 } });
  const [headers, body] = await Promise.all([
    trickle(gw.url, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
    trickle(gw.url, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
      'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":'),
  ]);
  assert.match(headers, /^HTTP\/1\.1 408 Request Timeout/);
  assert.match(body, /^HTTP\/1\.1 408 Request Timeout/);
  assert.equal(gw.gateway.sessions.size, 0, 'nothing was made for them');
  // a client that sends its request in time is served
  const { client } = await connectHttp(gw.url, TOKEN);
  t.after(() => client.close());
  assert.deepEqual((await search(client, 'send a slack message', 1)).tools.map((h) => h.name), ['cat__slack__send_message']);
});
