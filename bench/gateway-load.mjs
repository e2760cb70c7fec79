// gateway-load.mjs — a bounded load test of toolsift-mcp over streamable HTTP
// on loopback (not part of npm test; numbers in docs/reliability.md).
//
//   node bench/gateway-load.mjs [--clients 50] [--searches 20] [--seconds 20]
//        [--abuse] [--abuse-cycles 4] [--abuse-growers 4] [--abuse-searches 200]
//        [--abuse-fill] [--max-files N] [--max-total-mb N] [--per-token N]
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
// the sustained phase (and its maximum, sampled), and the journal folder's
// bytes and files (sampled every 250 ms: the maximum, and at the end) against
// journal.maxFiles / maxTotalBytes (--max-files, --max-total-mb; the
// defaults, 10,000 files and 1 GiB, unless --abuse).
//
// --abuse: during the sustained phase an insider with a valid token of its
// own ("abuse") runs in parallel with the valid clients, and the journal
// caps are small (200 files, 20 MB, whenFull "rotate") so that they are hit:
//   cycles     --abuse-cycles loops (so many in flight) of a bare initialize
//              POST and a DELETE, as fast as the gateway answers (sessions
//              that record nothing: no journal file);
//   growers    --abuse-growers sessions at a time, each sending
//              --abuse-searches search_tools calls (search.maxSearches is
//              200) to grow its journal, then closed and opened again.
// http.maxSessions is CLIENTS + cycles + growers + 8, so the abuser's
// sessions alone do not starve the valid clients. --abuse-fill adds a third
// abuser that opens idle sessions and holds them, taking every free slot up
// to http.maxSessions (its initializes then get 503, retried every 50 ms):
// what valid clients see when an insider takes the session slots. A valid
// client whose initialize is refused waits 100 ms before the next.
// --per-token N sets http.maxSessionsPerToken to N and http.maxSessions to
// twice N (two tokens: the valid clients' and the abuser's), so each token
// has a share the other cannot take.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
const flag = (name) => process.argv.includes(`--${name}`);
const CLIENTS = arg('clients', 50);
const SEARCHES = arg('searches', 20);
const SECONDS = arg('seconds', 20);
const ABUSE_FILL = flag('abuse-fill');
const ABUSE = flag('abuse') || ABUSE_FILL;
const ABUSE_CYCLES = ABUSE ? arg('abuse-cycles', 4) : 0;
const ABUSE_GROWERS = ABUSE ? arg('abuse-growers', 4) : 0;
const ABUSE_SEARCHES = arg('abuse-searches', 200);
const MAX_FILES = arg('max-files', ABUSE ? 200 : 10000);
const MAX_TOTAL_BYTES = Math.round(arg('max-total-mb', ABUSE ? 20 : 1024) * 1024 * 1024);
const PER_TOKEN = arg('per-token', 0);
const MAX_SESSIONS = PER_TOKEN ? 2 * PER_TOKEN : CLIENTS + ABUSE_CYCLES + ABUSE_GROWERS + 8;
const QUERIES = ['send a slack message', 'create a github issue', 'refund a stripe charge', 'create a jira issue',
  'list my calendar events', 'upload a file to the drive', 'search the email inbox', 'merge a pull request',
  'post to a channel', 'close a ticket'];

const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-load-'));
const token = randomBytes(24).toString('base64url');
const abuseToken = randomBytes(24).toString('base64url');
const tokenFile = path.join(dir, 'token');
writeFileSync(tokenFile, `load ${token}\nabuse ${abuseToken}\n`, { mode: 0o600 });
const journalDir = path.join(dir, 'journals');
const configFile = path.join(dir, 'gateway.json');
writeFileSync(configFile, JSON.stringify({
  mcpServers: { cat: { command: process.execPath, args: [path.join(ROOT, 'tests/mcp/fixtures/catalog-server.mjs')], trusted: true } },
  search: { maxPerSearch: 3, maxSearches: 200 },
  journal: { dir: journalDir, maxFiles: MAX_FILES, maxTotalBytes: MAX_TOTAL_BYTES, whenFull: 'rotate' },
  http: { maxSessions: MAX_SESSIONS, ...(PER_TOKEN ? { maxSessionsPerToken: PER_TOKEN } : {}) },
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
// An error's kind: a refusal's JSON-RPC code and message start, else the message's.
const kindOf = (e) => {
  const m = String(e?.message ?? e);
  const c = /"code":(-?\d+),"message":"([^"]{0,60})/.exec(m);
  return c ? `refused ${c[1]}: ${c[2]}` : m.replace(/^(MCP error -?\d+: )\1/, '$1').slice(0, 80);
};
const fail = (e) => {
  errors++;
  const k = kindOf(e);
  errorKinds.set(k, (errorKinds.get(k) ?? 0) + 1);
};

async function open(bearer = token, times = lat.init) {
  const client = new Client({ name: 'load', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } });
  const t0 = performance.now();
  await client.connect(transport);
  times?.push(performance.now() - t0);
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

// The journal folder (every file in it is a journal), the gateway's RSS and
// the load average, sampled while the test runs.
const disk = { maxBytes: 0, maxFiles: 0, samples: 0 };
function folder() {
  let bytes = 0;
  let files = 0;
  let names = [];
  try {
    names = readdirSync(journalDir);
  } catch {
    /* not made yet */
  }
  for (const n of names) {
    try {
      bytes += statSync(path.join(journalDir, n)).size;
      files++;
    } catch {
      /* rotated away meanwhile */
    }
  }
  return { bytes, files };
}
let rssMax = 0;
const load = [];
const sampleDisk = () => {
  const f = folder();
  disk.maxBytes = Math.max(disk.maxBytes, f.bytes);
  disk.maxFiles = Math.max(disk.maxFiles, f.files);
  disk.samples++;
  rssMax = Math.max(rssMax, rss());
};
const sampleLoad = () => load.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
sampleDisk();
sampleLoad();
const diskTimer = setInterval(sampleDisk, 250);
const loadTimer = setInterval(sampleLoad, 3000);

// The abuser: a valid token of its own, in parallel with the sustained phase.
const abuse = { cycles: 0, status: new Map(), sessions: 0, searches: 0, held: 0, heldMax: 0, fill503: 0, errors: new Map() };
const abuseNote = (map, k) => map.set(k, (map.get(k) ?? 0) + 1);
const abuseFail = (e) => abuseNote(abuse.errors, kindOf(e));
const INIT_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'abuse', version: '1' } } });
// A bare initialize POST: the session id, or null (the status is counted).
async function rawInit(counts) {
  const r = await fetch(url, { method: 'POST', body: INIT_BODY, headers: { Authorization: `Bearer ${abuseToken}`,
    'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
  await r.text();
  abuseNote(counts, r.status);
  return r.status === 200 ? r.headers.get('mcp-session-id') : null;
}
const rawDelete = (id) => fetch(url, { method: 'DELETE', headers: { Authorization: `Bearer ${abuseToken}`, 'mcp-session-id': id } })
  .then((r) => r.text());
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function abuser(end) {
  const loops = [];
  for (let i = 0; i < ABUSE_CYCLES; i++) {
    loops.push((async () => {
      while (Date.now() < end) {
        try {
          const id = await rawInit(abuse.status);
          if (id) await rawDelete(id);
          else await sleep(10); // 503: the gateway is full (--abuse-fill); try again at once, nearly
          abuse.cycles++;
        } catch (e) {
          abuseFail(e);
        }
      }
    })());
  }
  for (let i = 0; i < ABUSE_GROWERS; i++) {
    loops.push((async () => {
      while (Date.now() < end) {
        let s;
        try {
          s = await open(abuseToken, null);
          abuse.sessions++;
        } catch (e) {
          abuseFail(e);
          await sleep(50);
          continue;
        }
        for (let j = 0; j < ABUSE_SEARCHES && Date.now() < end; j++) {
          try {
            const r = await s.client.callTool({ name: 'search_tools', arguments: { query: `${QUERIES[(i + j) % QUERIES.length]} ${j}` } });
            if (r.isError) {
              abuseFail(new Error(`search isError: ${r.content?.[0]?.text}`));
              break;
            }
            abuse.searches++;
          } catch (e) {
            abuseFail(e);
            break;
          }
        }
        await s.transport.terminateSession().catch(abuseFail);
        await s.client.close().catch(() => {});
      }
    })());
  }
  if (ABUSE_FILL) {
    loops.push((async () => {
      const held = [];
      const fill = new Map();
      while (Date.now() < end) {
        try {
          const id = await rawInit(fill);
          if (id) {
            held.push(id);
            abuse.heldMax = Math.max(abuse.heldMax, held.length);
          } else {
            abuse.fill503++;
            await sleep(50);
          }
        } catch (e) {
          abuseFail(e);
          await sleep(50);
        }
      }
      abuse.held = held.length;
      await Promise.all(held.map((id) => rawDelete(id).catch(abuseFail)));
    })());
  }
  return Promise.all(loops);
}

// sustained: each client loops open → searches → a forwarded call → close
lat.search.length = 0;
lat.init.length = 0;
let cycles = 0;
let calls = 0;
const end = Date.now() + SECONDS * 1000;
t0 = performance.now();
const abusing = ABUSE ? abuser(end) : null;
await Promise.all(Array.from({ length: CLIENTS }, async (_, i) => {
  while (Date.now() < end) {
    let s;
    try {
      s = await open();
    } catch (e) {
      fail(e);
      await sleep(100); // refused (a 503 says Retry-After): not a hot loop
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
await abusing;
const abuseMs = performance.now() - t0;
const rss2 = rss();
sampleDisk();
clearInterval(diskTimer);
clearInterval(loadTimer);
sampleLoad();
const atEnd = folder();

const MB = (b) => (b / (1024 * 1024)).toFixed(1);
const counts = (m) => JSON.stringify(Object.fromEntries(m));
console.log(`toolsift-mcp load test, loopback, ${CLIENTS} clients${ABUSE ? ' + an abusive client' : ''} (node ${process.version})`);
console.log(`burst: ${CLIENTS} sessions × ${SEARCHES} searches in ${(burstMs / 1000).toFixed(1)} s`);
console.log(`  ${summary('search', burstSearch)}`);
console.log(`sustained: ${SECONDS} s, ${cycles} session cycles (open, select + forwarded call, ${SEARCHES} searches, close), ` +
  `${lat.search.length} searches (${(lat.search.length / (sustainedMs / 1000)).toFixed(0)}/s), ${calls} forwarded calls`);
console.log(`  ${summary('search', lat.search)}`);
console.log(`  ${summary('initialize', lat.init)}`);
console.log(`errors: ${errors}${errors ? ` ${JSON.stringify(Object.fromEntries(errorKinds))}` : ''}`);
if (ABUSE) {
  const s = abuseMs / 1000;
  console.log(`abuser (its own token): ${ABUSE_CYCLES} initialize+DELETE loops: ${abuse.cycles} cycles (${(abuse.cycles / s).toFixed(0)}/s), ` +
    `initialize status ${counts(abuse.status)}`);
  console.log(`  ${ABUSE_GROWERS} growing sessions at a time: ${abuse.sessions} sessions, ${abuse.searches} searches (${(abuse.searches / s).toFixed(0)}/s), ` +
    `up to ${ABUSE_SEARCHES} a session`);
  if (ABUSE_FILL) console.log(`  fill: held up to ${abuse.heldMax} idle sessions (${abuse.held} at the end), ${abuse.fill503} initializes refused 503`);
  console.log(`  abuser errors: ${[...abuse.errors.values()].reduce((a, b) => a + b, 0)}${abuse.errors.size ? ` ${counts(abuse.errors)}` : ''}`);
}
console.log(`gateway RSS: ${rss0.toFixed(1)} MB at start, ${rss1.toFixed(1)} MB after the burst, ${rss2.toFixed(1)} MB after the sustained phase ` +
  `(max ${rssMax.toFixed(1)} MB sampled during it)`);
console.log(`journal folder (caps: journal.maxFiles ${MAX_FILES}, maxTotalBytes ${MB(MAX_TOTAL_BYTES)} MB, whenFull "rotate"): ` +
  `max ${MB(disk.maxBytes)} MB and ${disk.maxFiles} files during the sustained phase (${disk.samples} samples, every 250 ms), ` +
  `${MB(atEnd.bytes)} MB and ${atEnd.files} files at its end` +
  `${disk.maxBytes > MAX_TOTAL_BYTES ? ` — OVER maxTotalBytes by ${disk.maxBytes - MAX_TOTAL_BYTES} bytes` : ''}` +
  `${disk.maxFiles > MAX_FILES ? ` — OVER maxFiles by ${disk.maxFiles - MAX_FILES}` : ''}`);
console.log(`load average (1 min, every 3 s): ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)}`);

await new Promise((r) => {
  gw.once('exit', r);
  gw.kill('SIGTERM');
});
// What the gateway said about its caps (its log; repeated lines are counted, once per 10 s).
const logged = (re) => log.split('\n').reduce((n, l) => {
  if (!re.test(l)) return n;
  const more = /: (\d+) more like this/.exec(l);
  return n + (more ? Number(more[1]) : 1);
}, 0);
console.log(`gateway log: ${logged(/deleted the oldest closed journal/)} journals deleted by rotation, ` +
  `${logged(/initialize refused: journal storage full/)} initializes refused for a full journal folder, ` +
  `${logged(/initialize refused: http.maxSessions \(/)} for http.maxSessions, ${logged(/initialize refused: http.maxSessionsPerToken/)} for http.maxSessionsPerToken, ${logged(/: journal full \(.*refused$/)} decisions refused for a full journal`);
rmSync(dir, { recursive: true, force: true });
process.exitCode = errors ? 1 : 0;
