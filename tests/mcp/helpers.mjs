// helpers.mjs — shared by the gateway tests: start `toolsift-mcp` (the real
// bin) with a configuration, connect the official SDK client to it over stdio
// or streamable HTTP, and wait for notifications/tools/list_changed.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { load } from '../../js/toolsift.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = path.join(ROOT, 'js/mcp/cli.js');
export const FIXTURE = path.join(ROOT, 'tests/mcp/fixtures/catalog-server.mjs');
const NM = path.join(ROOT, 'node_modules/@modelcontextprotocol');
export const EVERYTHING = path.join(NM, 'server-everything/dist/index.js');
export const FILESYSTEM = path.join(NM, 'server-filesystem/dist/index.js');
export const MEMORY = path.join(NM, 'server-memory/dist/index.js');

export function tempDir(t) {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-mcp-'));
  t?.after?.(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function writeConfig(dir, config, name = 'gateway.json') {
  const file = path.join(dir, name);
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** An SDK client that counts list_changed notifications and can wait for the next. */
export function makeClient() {
  const client = new Client({ name: 'toolsift-mcp-test', version: '1.0.0' });
  let count = 0;
  let waiters = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve(count);
  });
  client.listChangedCount = () => count;
  client.nextListChanged = (ms = 10000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no tools/list_changed within ' + ms + ' ms')), ms);
      waiters.push((n) => {
        clearTimeout(timer);
        resolve(n);
      });
    });
  return client;
}

/** Start the gateway bin over stdio with `configFile`; returns { client, stderr() }. */
export async function connectStdio(configFile, extraArgs = []) {
  const client = makeClient();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--config', configFile, ...extraArgs],
    stderr: 'pipe',
    env: { ...process.env },
  });
  let log = '';
  transport.stderr.on('data', (d) => {
    log += d.toString('utf8');
  });
  await client.connect(transport);
  return { client, transport, stderr: () => log, pid: () => transport.pid };
}

/**
 * Start the gateway bin with --http 0; resolves { url, token, proc,
 * stderr(), stop() } once it listens. Unless `extraArgs` choose the
 * authentication, a token file (mode 0600) next to the configuration holds
 * a fresh token, which `token` is.
 */
export function startHttpGateway(configFile, extraArgs = []) {
  let token = null;
  if (!extraArgs.some((a) => a === '--no-auth' || a === '--token-file' || a === '--generate-token')) {
    token = randomBytes(24).toString('base64url');
    const file = path.join(path.dirname(configFile), `token-${randomBytes(4).toString('hex')}`);
    writeFileSync(file, `test ${token}\n`, { mode: 0o600 });
    extraArgs = [...extraArgs, '--token-file', file];
  }
  const proc = spawn(process.execPath, [CLI, '--config', configFile, '--http', '0', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not listen:\n${log}`)), 30000);
    proc.stderr.on('data', (d) => {
      log += d.toString('utf8');
      const m = /listening (http:\/\/\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1], token, proc, stderr: () => log,
          stop: () => new Promise((r) => {
            proc.once('exit', r);
            proc.kill('SIGTERM');
          }),
        });
      }
    });
    proc.once('exit', (code) => reject(new Error(`gateway exited ${code}:\n${log}`)));
  });
}

/** An SDK client over streamable HTTP; `token`: sent as Authorization: Bearer (a gateway from startHttpGateway: its .token). */
export async function connectHttp(url, token = null) {
  const client = makeClient();
  const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit });
  await client.connect(transport);
  return { client, transport };
}

export const names = async (client) => (await client.listTools()).tools.map((t) => t.name);
export const text = (result) => result.content.map((c) => c.text ?? '').join('');
/** A search_tools call's raw MCP result (content, structuredContent, isError). */
export const searchRaw = (client, query, limit) =>
  client.callTool({ name: 'search_tools', arguments: limit ? { query, limit } : { query } });
export const search = async (client, query, limit) => JSON.parse(text(await searchRaw(client, query, limit)));

/**
 * The core's own search meta-tool description, without a catalog overview
 * (`search` settings as in a gateway configuration): what the gateway's
 * search_tools description must start with.
 */
export async function coreSearchDescription(search = {}) {
  const toolsift = await load();
  const session = toolsift.createSession({ tools: [], catalog: { tools: [] }, search: { ...search, overview: false } });
  try {
    return session.menu('mcp').tools[0].description;
  } finally {
    session.free();
  }
}

/** The one journal file in `dir` (there must be exactly `count`). */
export function journals(dir) {
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => path.join(dir, f));
}
export const readLines = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** Run `toolsift-mcp --replay FILE`: { status, steps, tools, stderr }. */
export function replay(file) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, '--replay', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (status) => {
      const lines = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const last = lines.pop();
      resolve({ status, steps: lines, tools: last?.tools, stderr: err });
    });
  });
}

/** Poll `fn` until it returns truthy (bounded). */
export async function until(fn, ms = 10000, what = 'condition') {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
