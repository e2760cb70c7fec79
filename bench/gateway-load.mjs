// gateway-load.mjs — a bounded load test of toolsift-mcp over streamable HTTP
// on loopback (not part of npm test; numbers in docs/reliability.md).
//
//   node bench/gateway-load.mjs [--clients 50] [--searches 20] [--seconds 20]
//
// Starts the real bin (--http 0, a bearer token from a 0600 file, the
// in-repo catalog upstream with its 418 tools, a journal folder), then:
//   burst      N clients (the SDK's StreamableHTTPClientTransport with an
//              Authorization header) connect at once and each sends M
//              search_tools calls;
//   sustained  for S seconds the N clients loop: open a session, a select:
//              and one forwarded call, M searches, close it (so sessions, journals and
//              segments churn, not only searches).
// Reports p50/p99 of the search and initialize latencies, errors, and the
// gateway process's RSS (VmRSS from /proc) before, after the burst and after
// the sustained phase.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const CLIENTS = arg('clients', 50);
const SEARCHES = arg('searches', 20);
const SECONDS = arg('seconds', 20);
const QUERIES = ['send a slack message', 'create a github issue', 'refund a stripe charge', 'create a jira issue',
  'list my calendar events', 'upload a file to the drive', 'search the email inbox', 'merge a pull request',
  'post to a channel', 'close a ticket'];

const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-load-'));
const token = randomBytes(24).toString('base64url');
const tokenFile = path.join(dir, 'token');
writeFileSync(tokenFile, `load ${token}\n`, { mode: 0o600 });
const configFile = path.join(dir, 'gateway.json');
writeFileSync(configFile, JSON.stringify({
  mcpServers: { cat: { command: process.execPath, args: [path.join(ROOT, 'tests/mcp/fixtures/catalog-server.mjs')], trusted: true } },
  search: { maxPerSearch: 3, maxSearches: 200 },
  journal: { dir: path.join(dir, 'journals') },
  http: { maxSessions: CLIENTS + 8 },
}));

const gw = spawn(process.execPath, [path.join(ROOT, 'js/mcp/cli.js'), '--config', configFile, '--http', '0', '--token-file', tokenFile],
  { stdio: ['ignore', 'ignore', 'pipe'] });
let log = '';
const url = await new Promise((resolve, reject) => {
  gw.stderr.on('data', (d) => {
    log += d;
    const m = /listening (\S+)/.exec(log);
    if (m) resolve(m[1]);
  });
  gw.once('exit', (c) => reject(new Error(`gateway exited ${c}:\n${log}`)));
});
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${gw.pid}/status`, 'utf8'))[1]) / 1024;

const lat = { search: [], init: [] };
let errors = 0;
const errorKinds = new Map();
const fail = (e) => {
  errors++;
  const k = String(e?.message ?? e).slice(0, 80);
  errorKinds.set(k, (errorKinds.get(k) ?? 0) + 1);
};

async function open() {
  const client = new Client({ name: 'load', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const t0 = performance.now();
  await client.connect(transport);
  lat.init.push(performance.now() - t0);
  return { client, transport };
}

async function searches(client, n, offset) {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    try {
      const r = await client.callTool({ name: 'search_tools', arguments: { query: QUERIES[(offset + i) % QUERIES.length] } });
      lat.search.push(performance.now() - t0);
      if (r.isError) fail(new Error(`search isError: ${r.content?.[0]?.text}`));
    } catch (e) {
      fail(e);
    }
  }
}

async function close({ client, transport }) {
  try {
    await transport.terminateSession();
  } catch (e) {
    fail(e);
  }
  await client.close().catch(() => {});
}

const pct = (a, p) => {
  if (a.length === 0) return NaN;
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const summary = (name, a) => `${name}: n=${a.length} p50=${pct(a, 50).toFixed(1)} ms p99=${pct(a, 99).toFixed(1)} ms`;

const rss0 = rss();
// burst: CLIENTS sessions at once, SEARCHES searches each
let t0 = performance.now();
const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => open().catch((e) => (fail(e), null))));
await Promise.all(sessions.map((s, i) => s && searches(s.client, SEARCHES, i)));
const burstMs = performance.now() - t0;
const burstSearch = [...lat.search];
await Promise.all(sessions.map((s) => s && close(s)));
const rss1 = rss();

// sustained: each client loops open → searches → a forwarded call → close
lat.search.length = 0;
lat.init.length = 0;
let cycles = 0;
let calls = 0;
const end = Date.now() + SECONDS * 1000;
t0 = performance.now();
await Promise.all(Array.from({ length: CLIENTS }, async (_, i) => {
  while (Date.now() < end) {
    let s;
    try {
      s = await open();
    } catch (e) {
      fail(e);
      continue;
    }
    try {
      // first, while the session has room to load (maxLoaded)
      await s.client.callTool({ name: 'search_tools', arguments: { query: 'select:cat__slack__send_message' } });
      const r = await s.client.callTool({ name: 'cat__slack__send_message', arguments: { channel: '#load', text: 'hi' } });
      if (r.isError) fail(new Error(`call isError: ${r.content?.[0]?.text}`));
      calls++;
    } catch (e) {
      fail(e);
    }
    await searches(s.client, SEARCHES, i + cycles);
    await close(s);
    cycles++;
  }
}));
const sustainedMs = performance.now() - t0;
const rss2 = rss();
const files = readdirSync(path.join(dir, 'journals')).length;

console.log(`toolsift-mcp load test, loopback, ${CLIENTS} clients (node ${process.version})`);
console.log(`burst: ${CLIENTS} sessions × ${SEARCHES} searches in ${(burstMs / 1000).toFixed(1)} s`);
console.log(`  ${summary('search', burstSearch)}`);
console.log(`sustained: ${SECONDS} s, ${cycles} session cycles (open, select + forwarded call, ${SEARCHES} searches, close), ` +
  `${lat.search.length} searches (${(lat.search.length / (sustainedMs / 1000)).toFixed(0)}/s), ${calls} forwarded calls`);
console.log(`  ${summary('search', lat.search)}`);
console.log(`  ${summary('initialize', lat.init)}`);
console.log(`errors: ${errors}${errors ? ` ${JSON.stringify(Object.fromEntries(errorKinds))}` : ''}`);
console.log(`gateway RSS: ${rss0.toFixed(1)} MB at start, ${rss1.toFixed(1)} MB after the burst, ${rss2.toFixed(1)} MB after the sustained phase`);
console.log(`journal files: ${files} (one per session)`);

await new Promise((r) => {
  gw.once('exit', r);
  gw.kill('SIGTERM');
});
rmSync(dir, { recursive: true, force: true });
process.exitCode = errors ? 1 : 0;
