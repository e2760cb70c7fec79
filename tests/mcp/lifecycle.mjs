// lifecycle.mjs — does the gateway leave nothing running when it ends?
// Shared by tests/mcp/lifecycle.test.mjs (the bin run directly, under a
// shell wrapper, under `npm exec` in the checkout) and the `install` stage
// (tests/install: under `npx toolsift-mcp` from the packed package).
//
// One case: start the gateway (the outermost process: node, sh or npm) in
// front of a real stdio upstream — the catalog fixture started by a shell
// that first leaves a helper (`sleep`) in the background, as servers that
// start helpers do — drive it with the SDK's Client over the outermost
// process's pipes (list, search, call), record every descendant of the
// outermost process by walking /proc (pid and start time, so a reused pid is
// not mistaken for a survivor), end it one way, and poll until none of them
// is alive. No time is asserted: the deadline is generous and the case
// fails only if a recorded process is still alive when it passes. Whatever
// it started and is still alive at the end is killed (SIGKILL, by pid).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { FIXTURE, writeConfig } from './helpers.mjs';

/** How a case ends the gateway (`input`: the stream the client writes to). */
export const ENDS = {
  // what an MCP client does to its server: SIGTERM to the process it started
  SIGTERM: (child) => process.kill(child.pid, 'SIGTERM'),
  // Ctrl-C in a terminal: SIGINT to the foreground process group (the
  // outermost process leads one of its own here)
  SIGINT: (child) => process.kill(-child.pid, 'SIGINT'),
  // the client goes away: the gateway's stdin closes
  'stdin closed': (child, input) => input.end(),
};

/**
 * The outermost process dies at once and the gateway's stdin stays open (a
 * wrapper killed with SIGKILL whose pipe the client still holds): only the
 * gateway's watch on its parent can end it. For wrappers whose gateway reads
 * the client from fd 3 (`input: 3` in lifecycleCase): Node closes a child's
 * stdin when the child exits, and so would end the gateway's stdin itself.
 */
export const PARENT_KILLED = { 'its parent killed (stdin left open)': (child) => process.kill(child.pid, 'SIGKILL') };

/** Can this machine run the cases? null, or why not. */
export function unsupported() {
  if (process.platform !== 'linux' || !existsSync('/proc/self/stat')) return 'the lifecycle cases walk /proc (Linux only)';
  return null;
}

/** A gateway configuration (in `dir`) with one stdio upstream that leaves a helper process behind it. */
export function lifecycleConfig(dir) {
  return writeConfig(dir, {
    mcpServers: {
      cat: {
        command: 'sh',
        // $0 and $1: node and the fixture, without quoting them into the script
        args: ['-c', 'sleep 3600 & exec "$0" "$1" --products slack', process.execPath, FIXTURE],
        trusted: true,
      },
    },
  }, 'lifecycle.json');
}

// /proc/PID/stat: { state, ppid, start } (start: clock ticks after boot), or null.
function stat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: f[0], ppid: Number(f[1]), start: f[19] };
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '?';
  }
}

/** Every descendant of `root` (and root itself): [{ pid, start, cmd }]. */
export function descendants(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (!s) continue;
    if (!children.has(s.ppid)) children.set(s.ppid, []);
    children.get(s.ppid).push(Number(name));
  }
  const out = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift();
    const s = stat(pid);
    if (!s) continue;
    out.push({ pid, start: s.start, cmd: cmdline(pid) });
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Is the process recorded as `p` still running (not gone, not a zombie, not another process with its pid)? */
export function alive(p) {
  const s = stat(p.pid);
  return s !== null && s.start === p.start && s.state !== 'Z' && s.state !== 'X';
}

// The SDK Client's side of a process the test started itself (the SDK's
// StdioClientTransport would start, and end, the process on its own terms).
class PipeTransport {
  constructor(child, input) {
    this.child = child;
    this.input = input;
    this.buffer = new ReadBuffer();
  }

  async start() {
    this.child.stdout.on('data', (chunk) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
    this.child.once('exit', () => this.onclose?.());
  }

  async send(message) {
    this.input.write(serializeMessage(message));
  }

  async close() {} // the case ends the process its own way
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Start the gateway (`command` `args`, in `cwd` with `env`), use it, end it
 * with ENDS[`end`] (or PARENT_KILLED[`end`]), and assert that no process it
 * started survives. `input`: 0 (the client writes to the outermost
 * process's stdin) or 3 (to an extra pipe on its fd 3). `t`: the node:test
 * context (for cleanup). `deadlineMs`: how long the processes have to go
 * (generous: this is no timing test).
 */
export async function lifecycleCase(t, { command, args, cwd, env, end, input: fd = 0, deadlineMs = 60_000 }) {
  const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe', ...(fd === 3 ? ['pipe'] : [])], detached: true });
  const input = child.stdio[fd];
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d.toString('utf8')));
  let recorded = [];
  t.after(() => {
    input.destroy();
    for (const p of recorded) {
      if (!alive(p)) continue;
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const client = new Client({ name: 'toolsift-lifecycle-test', version: '1.0.0' });
  try {
    await client.connect(new PipeTransport(child, input));
    const before = (await client.listTools()).tools.map((x) => x.name);
    assert.deepEqual(before, ['search_tools']);
    const found = JSON.parse((await client.callTool({ name: 'search_tools', arguments: { query: 'send a message to a slack channel' } })).content[0].text);
    assert.equal(found.tools[0].name, 'cat__slack__send_message', JSON.stringify(found));
    const called = await client.callTool({ name: 'cat__slack__send_message', arguments: { channel: 'ops', text: 'deploy done' } });
    assert.notEqual(called.isError, true, JSON.stringify(called));
  } catch (e) {
    e.message += `\ngateway stderr:\n${stderr}`;
    throw e;
  }

  recorded = descendants(child.pid);
  const cmds = recorded.map((p) => `${p.pid} ${p.cmd}`).join('\n');
  // the tree the case is about: the gateway, its upstream, the upstream's helper
  assert.ok(recorded.some((p) => p.cmd.includes('toolsift-mcp') || p.cmd.includes('js/mcp/cli.js')), `no gateway among\n${cmds}`);
  assert.ok(recorded.some((p) => p.cmd.includes('catalog-server.mjs')), `no upstream among\n${cmds}`);
  assert.ok(recorded.some((p) => p.cmd === 'sleep 3600'), `no upstream helper among\n${cmds}`);

  (ENDS[end] ?? PARENT_KILLED[end])(child, input);
  const until = Date.now() + deadlineMs;
  let left = recorded.filter(alive);
  while (left.length > 0 && Date.now() < until) {
    await sleep(100);
    left = recorded.filter(alive);
  }
  assert.deepEqual(left.map((p) => `${p.pid} ${p.cmd}`), [],
    `still running ${deadlineMs} ms after ${end}, of\n${cmds}\ngateway stderr:\n${stderr}`);
  return { recorded, stderr };
}
