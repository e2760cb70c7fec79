// upstream.js — one upstream MCP server, as the gateway's client.
//
// Owns: connecting (stdio command or streamable-HTTP URL) with the official
// SDK client, listing its tools (all pages), following its
// notifications/tools/list_changed, restarting it when it dies, and
// forwarding calls with a timeout. A bad upstream never throws out of here:
// failures become a state ('connecting' | 'ready' | 'restarting' | 'failed' |
// 'closed'), a log line and, for calls, an Error whose message names the
// server.
//
// A stdio server's process (on POSIX) leads a process group of its own
// (GroupStdioTransport): `npx -y some-server` is npm, a shell and node, and
// a server may start helpers of its own; ending only the process the
// gateway started would leave the rest running. Closing it ends its stdin,
// then signals the whole group (SIGTERM, then SIGKILL); when the server's
// own process exits, whatever it left in its group is ended the same way.

import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { LOG_TEXT_CHARS, shownText } from './errors.js';

// tools/list read loosely: the SDK's own schema rejects the whole page for
// one malformed tool; the gateway drops that tool alone (catalog.js).
const LooseListResult = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

const MAX_PAGES = 100;

// How long a stdio server has to exit after its stdin closes, and its group
// after SIGTERM, before the next step (SIGTERM, SIGKILL).
const GRACE_MS = 2000;
const POSIX = process.platform !== 'win32';

// The process groups of stdio servers started and not yet ended (pgid = the
// server's pid), so that the gateway can end them all when it must exit at
// once (signalUpstreamGroups).
const liveGroups = new Set();
// pgid → the promise of its ending (endGroup), so it is ended once.
const endingGroups = new Map();

/** Signal a process group; false when it has no process left. */
function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (e) {
    return e.code !== 'ESRCH'; // EPERM: it exists (not ours to signal; nothing more to do)
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Resolves true when `promise` settles within `ms`, false otherwise.
const within = (promise, ms) => {
  let timer;
  return Promise.race([promise.then(() => true), new Promise((r) => { timer = setTimeout(() => r(false), ms); })])
    .finally(() => clearTimeout(timer));
};

async function untilGone(pgid, ms) {
  const end = Date.now() + ms;
  while (signalGroup(pgid, 0)) {
    if (Date.now() >= end) return false;
    await sleep(50);
  }
  return true;
}

/** End what is left of a process group: SIGTERM, then SIGKILL after GRACE_MS. Bounded; idempotent. */
function endGroup(pgid) {
  let ending = endingGroups.get(pgid);
  if (!ending) {
    ending = (async () => {
      if (signalGroup(pgid, 'SIGTERM') && !(await untilGone(pgid, GRACE_MS))) {
        signalGroup(pgid, 'SIGKILL');
        await untilGone(pgid, GRACE_MS);
      }
    })().finally(() => {
      liveGroups.delete(pgid);
      endingGroups.delete(pgid);
    });
    endingGroups.set(pgid, ending);
  }
  return ending;
}

/**
 * Send `signal` to the process group of every stdio upstream not yet ended
 * (synchronous: for a gateway that must exit now, say on a second SIGINT or
 * from an exit handler).
 */
export function signalUpstreamGroups(signal) {
  for (const pgid of liveGroups) signalGroup(pgid, signal);
}

/**
 * The SDK's StdioClientTransport, but the server leads a process group of
 * its own (detached: setsid) and closing ends that group, not one pid.
 * Same interface: start, send, close, stderr (a stream from construction
 * on), pid, onmessage / onerror / onclose.
 */
class GroupStdioTransport {
  constructor({ command, args = [], env, cwd }) {
    this._params = { command, args, env, cwd };
    this._readBuffer = new ReadBuffer();
    this._stderr = new PassThrough();
    this._process = undefined;
  }

  get stderr() {
    return this._stderr;
  }

  get pid() {
    return this._process?.pid ?? null;
  }

  start() {
    if (this._process) throw new Error('GroupStdioTransport already started');
    const { command, args, env, cwd } = this._params;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
      this._process = child;
      child.once('error', (e) => {
        reject(e);
        this.onerror?.(e);
      });
      child.once('spawn', () => {
        liveGroups.add(child.pid);
        resolve();
      });
      // The server's own process has ended: what it left in its group goes
      // too (its pipes would keep 'close' from ever coming).
      child.once('exit', () => {
        if (child.pid) endGroup(child.pid);
      });
      child.once('close', () => {
        if (this._process === child) this._process = undefined;
        this.onclose?.();
      });
      child.stdin.on('error', (e) => this.onerror?.(e));
      child.stdout.on('data', (chunk) => {
        try {
          this._readBuffer.append(chunk);
          for (;;) {
            let message;
            try {
              message = this._readBuffer.readMessage();
            } catch (e) {
              this.onerror?.(e);
              continue;
            }
            if (message === null) break;
            this.onmessage?.(message);
          }
        } catch (e) {
          this.onerror?.(e);
          this.close().catch(() => {});
        }
      });
      child.stdout.on('error', (e) => this.onerror?.(e));
      child.stderr.pipe(this._stderr);
    });
  }

  send(message) {
    return new Promise((resolve, reject) => {
      const stdin = this._process?.stdin;
      if (!stdin) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** End stdin; after GRACE_MS SIGTERM the group, after GRACE_MS more SIGKILL it; then end what is left of it. */
  async close() {
    const child = this._process;
    this._process = undefined;
    if (child?.pid) {
      const exited = child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((r) => child.once('exit', r));
      try {
        child.stdin.end();
      } catch {
        /* already closed */
      }
      if (!(await within(exited, GRACE_MS))) {
        signalGroup(child.pid, 'SIGTERM');
        if (!(await within(exited, GRACE_MS))) signalGroup(child.pid, 'SIGKILL');
      }
      await endGroup(child.pid);
    }
    this._readBuffer.clear();
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class Upstream {
  /**
   * `server`: a checked server entry (config.js). `onTools(upstream)` is
   * called whenever the tool list this upstream offers changes (including
   * to null: the server has failed for good or was closed). `log(line)`.
   */
  constructor(server, { onTools, log, version }) {
    this.server = server;
    this.key = server.key;
    this.state = 'connecting';
    this.tools = null; // the last listed tools, or null before the first list / after failing
    this.lastError = null;
    this.restarts = 0; // consecutive failed (re)connects
    this.connects = 0; // successful connects (1 = first start, 2+ = restarted)
    this._onTools = onTools;
    this._log = log;
    this._version = version;
    this._client = null;
    this._closing = false;
    this._timer = null;
    this._listSerial = 0;
  }

  /** Connect once (resolves when connected and listed, or when the attempt failed). */
  async start() {
    await this._connect();
  }

  _transport() {
    const s = this.server;
    if (s.type === 'stdio') {
      // (Windows has no process groups to signal: the SDK's transport there)
      const Transport = POSIX ? GroupStdioTransport : StdioClientTransport;
      const t = new Transport({
        command: s.command,
        args: s.args,
        env: { ...getDefaultEnvironment(), ...s.env },
        cwd: s.cwd,
        stderr: 'pipe',
      });
      // Upstream stderr goes to the gateway's log, line by line, named; a
      // line is cut at LOG_TEXT_CHARS (control characters escaped), and the
      // rest of a longer one is not kept waiting for its newline.
      let rest = '';
      let skipping = false; // the rest of a line already logged (cut) is dropped
      t.stderr?.on('data', (chunk) => {
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop();
        for (const line of lines) {
          if (skipping) skipping = false;
          else if (line.trim()) this._log(`[${this.key}] ${shownText(line)}`);
        }
        if (rest.length > LOG_TEXT_CHARS) {
          if (!skipping) this._log(`[${this.key}] ${shownText(rest)}`);
          skipping = true;
          rest = '';
        }
      });
      return t;
    }
    return new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } });
  }

  async _connect() {
    if (this._closing) return;
    const client = new Client({ name: 'toolsift-mcp', version: this._version }, { capabilities: {} });
    client.onerror = (e) => this._log(`[${this.key}] ${shownText(e?.message ?? e)}`);
    let transport;
    try {
      transport = this._transport();
      await withTimeout(client.connect(transport), this.server.connectTimeoutMs, `connecting to "${this.key}"`);
      // close() ran while connecting (a session that ended during its first
      // call): this connection must not outlive it.
      if (this._closing) {
        await client.close().catch(() => {});
        return;
      }
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (this._client === client) this._relist(client);
      });
      client.onclose = () => {
        if (this._client === client) this._lost('the connection closed');
      };
      this._client = client;
      const tools = await this._list(client);
      if (this._client !== client) return;
      this.state = 'ready';
      this.restarts = 0;
      this.connects += 1;
      this.lastError = null;
      this._log(`[${this.key}] ready: ${tools.length} tools${this.connects > 1 ? ` (restart ${this.connects - 1})` : ''}`);
      this._setTools(tools);
    } catch (e) {
      this.lastError = shownText(e?.message ?? String(e));
      this._log(`[${this.key}] ${this.state === 'connecting' ? 'cannot connect' : 'reconnecting failed'}: ${this.lastError}`);
      if (this._client === client) this._client = null;
      try {
        await client.close();
      } catch {
        /* already down */
      }
      this._scheduleRestart();
    }
  }

  async _list(client) {
    const tools = [];
    let cursor;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await withTimeout(
        client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LooseListResult),
        this.server.callTimeoutMs, `tools/list of "${this.key}"`);
      if (!Array.isArray(r?.tools)) throw new Error(`tools/list of "${this.key}" answered no tools array`);
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  // An upstream list_changed: list again. Serial numbers drop stale answers
  // when notifications overlap.
  async _relist(client) {
    const serial = ++this._listSerial;
    try {
      const tools = await this._list(client);
      if (serial !== this._listSerial || this._client !== client) return;
      this._log(`[${this.key}] tools/list_changed: ${tools.length} tools`);
      this._setTools(tools);
    } catch (e) {
      this._log(`[${this.key}] relisting after list_changed failed: ${shownText(e?.message ?? e)}`);
    }
  }

  _setTools(tools) {
    const before = JSON.stringify(this.tools);
    this.tools = tools;
    if (JSON.stringify(tools) !== before) this._onTools(this);
  }

  _lost(why) {
    if (this._closing) return;
    this._client = null;
    this.lastError = why;
    this._log(`[${this.key}] lost: ${shownText(why)}`);
    this._scheduleRestart();
  }

  // Tools stay in the searchable universe while the server restarts (a call
  // meanwhile is an error that says so); after restart.maxAttempts
  // consecutive failures the server has failed and its tools leave.
  _scheduleRestart() {
    if (this._closing || this._timer) return;
    const { maxAttempts, backoffMs } = this.server.restart;
    if (this.restarts >= maxAttempts) {
      this.state = 'failed';
      this._log(`[${this.key}] failed: gave up after ${this.restarts} restart attempt(s); its tools leave the catalog`);
      if (this.tools !== null) {
        this.tools = null;
        this._onTools(this);
      }
      return;
    }
    this.state = 'restarting';
    const delay = Math.min(backoffMs * 2 ** this.restarts, 30000);
    this.restarts += 1;
    this._timer = setTimeout(() => {
      this._timer = null;
      this._connect();
    }, delay);
    this._timer.unref?.();
  }

  /** Forward a tools/call. Throws an Error naming the server when it cannot. */
  async callTool(name, args) {
    const client = this._client;
    if (!client || this.state !== 'ready') {
      const why = this.state === 'restarting' ? 'is restarting' : this.state === 'failed' ? 'has failed' : `is ${this.state}`;
      throw new Error(`upstream server "${this.key}" ${why}${this.lastError ? ` (${this.lastError})` : ''}; try again later`);
    }
    try {
      return await client.callTool({ name, arguments: args }, undefined, { timeout: this.server.callTimeoutMs });
    } catch (e) {
      // An HTTP upstream that went away shows up as a failed fetch, not as a
      // closed transport: reconnect it the way a dead stdio server is.
      if (!(e instanceof McpError) && this.server.type === 'http' && this._client === client) {
        this._lost(`a call failed: ${e?.message ?? e}`);
      }
      throw e;
    }
  }

  /** Disconnect for good (the server was removed from the configuration, or the gateway stops). */
  async close() {
    this._closing = true;
    this.state = 'closed';
    if (this._timer) clearTimeout(this._timer);
    const client = this._client;
    this._client = null;
    this.tools = null;
    if (client) {
      try {
        await client.close();
      } catch {
        /* already down */
      }
    }
  }
}
