#!/usr/bin/env node
// cli.js — the `toolsift-mcp` command.
//
//   toolsift-mcp --config gateway.json              serve over stdio
//   toolsift-mcp --config gateway.json --http [PORT] serve over streamable HTTP on 127.0.0.1
//   toolsift-mcp --config gateway.json --stdio --http both at once
//
// --http needs a bearer token (http.tokens, --token-file FILE, or
// --generate-token FILE) or an explicit --no-auth (docs/mcp-gateway.md
// "Security"); that is checked before any upstream starts.
//   toolsift-mcp --replay JOURNAL.jsonl             print the session's menus, step by step
//   toolsift-mcp learn --config gateway.json [...]  learn a vocabulary from the journals (learn.js)
//   toolsift-mcp learn --diff OLD NEW               what a new vocabulary would change
//
// Journals are hash-chained by the core; --journal-key-file FILE (or env
// TOOLSIFT_JOURNAL_KEY: 32–128 lowercase hex digits) keys the chain, when
// serving and when replaying (docs/mcp-gateway.md "Journals and replay").
//
// stdout belongs to the stdio transport: every diagnostic goes to stderr.
// SIGHUP re-reads the configuration (servers removed from it are closed and
// their tools leave the catalog); SIGINT/SIGTERM close everything: client
// sessions, then each stdio upstream's process group (upstream.js); a second
// SIGINT/SIGTERM kills the groups and exits at once. Serving over stdio, the
// gateway also exits when its stdin closes or its parent process dies (a
// client that was killed, or a wrapper — `sh -c`, npx — that died of a
// signal it did not pass on). Over HTTP alone it runs until signalled, or
// until its parent dies when npm started it (npx, npm exec, npm run).

import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { load } from '../toolsift.js';
import { readConfig, GatewayConfigError } from './config.js';
import { TokenSet, authSettings, generateTokenFile, readJournalKey, readTokenFile } from './auth.js';
import { replayJournal, JournalError } from './replay.js';
import { LEARN_USAGE, runLearn } from './learn.js';

import { VERSION } from './version.js';
// The SDK loads only to serve (loadServing): --replay and --version do without it.

const USAGE = `usage: toolsift-mcp --config FILE [--stdio] [--http [PORT]] [--journal-dir DIR]
                    [--token-file FILE | --generate-token FILE | --no-auth] [--journal-key-file FILE]
       toolsift-mcp --replay JOURNAL [--journal-key-file FILE]
${LEARN_USAGE.replace(/^usage: /, '       ')}
       toolsift-mcp --version`;


const log = (line) => process.stderr.write(`toolsift-mcp: ${line}\n`);

// The MCP SDK (and zod, which it uses) are optional peer dependencies of
// toolsift, so that browser and edge users of the search engine do not
// install a web server stack: only serving needs them.
const SDK_PEERS = '@modelcontextprotocol/sdk@^1.32.2 zod@^4.6.7';
async function loadServing() {
  try {
    const { Gateway } = await import('./gateway.js');
    const { serveHttp } = await import('./http.js');
    const { signalUpstreamGroups } = await import('./upstream.js');
    return { Gateway, serveHttp, signalUpstreamGroups };
  } catch (e) {
    if (e?.code === 'ERR_MODULE_NOT_FOUND' && /@modelcontextprotocol\/sdk|'zod'/.test(e.message)) {
      throw new GatewayConfigError(`serving needs the MCP SDK, an optional peer dependency: npm install ${SDK_PEERS}`);
    }
    throw e;
  }
}

function parseArgs(argv) {
  const a = { stdio: false, http: null, noAuth: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new GatewayConfigError(`${arg} needs a value\n${USAGE}`);
      return argv[++i];
    };
    if (arg === '--config') a.config = value();
    else if (arg === '--replay') a.replay = value();
    else if (arg === '--journal-dir') a.journalDir = value();
    else if (arg === '--stdio') a.stdio = true;
    else if (arg === '--token-file') a.tokenFile = value();
    else if (arg === '--journal-key-file') a.journalKeyFile = value();
    else if (arg === '--generate-token') a.generateToken = value();
    else if (arg === '--no-auth') a.noAuth = true;
    else if (arg === '--http') {
      a.http = 'config';
      if (/^\d+$/.test(argv[i + 1] ?? '')) a.http = Number(argv[++i]);
    } else if (arg === '--version') a.version = true;
    else if (arg === '--help' || arg === '-h') a.help = true;
    else throw new GatewayConfigError(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
  }
  return a;
}

// The HTTP tokens: the configuration's, a token file's, a generated one.
// Checked here, before any upstream starts: no token and no --no-auth is an
// error (authSettings says which flags).
function httpTokens(args, config) {
  const tokens = new TokenSet(config.http.tokens);
  if (args.tokenFile) readTokenFile(args.tokenFile, tokens);
  if (args.generateToken) {
    authSettings({ tokens: new TokenSet(), noAuth: args.noAuth, generating: true });
    tokens.add('generated', generateTokenFile(args.generateToken));
    // The file (mode 0600) holds the token for clients to read; the token
    // itself is never logged.
    const file = resolvePath(args.generateToken);
    log(`generated a bearer token in ${file} (mode 0600): clients send "Authorization: Bearer $(cat ${file})"`);
  }
  authSettings({ tokens, noAuth: args.noAuth });
  return tokens;
}

async function main() {
  if (process.argv[2] === 'learn') {
    const toolsift = await load();
    try {
      return await runLearn(toolsift, process.argv.slice(3), { log, out: (t) => process.stdout.write(t) });
    } catch (e) {
      // a journal the learner refused (tampered, unverifiable, malformed): its message names the file
      if (e?.name !== 'ToolsiftError') throw e;
      log(`learn: ${e.message.replace('(learn option unverified: "skip" or "accept")', '(--unverified skip or accept to learn without it)')}`);
      return 1;
    }
  }
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`toolsift-mcp ${VERSION}\n`);
    return 0;
  }
  const toolsift = await load();
  if (args.replay) {
    let text;
    try {
      text = readFileSync(args.replay, 'utf8');
    } catch (e) {
      throw new JournalError(`cannot read ${args.replay}: ${e.message}`);
    }
    const { steps, tools, warnings } = replayJournal(toolsift, text, { journalKey: readJournalKey(toolsift, args.journalKeyFile) });
    for (const w of warnings) log(`warning: ${w}`);
    let out = '';
    for (const step of steps) out += `${JSON.stringify(step)}\n`;
    out += `${JSON.stringify({ tools })}\n`;
    process.stdout.write(out);
    return 0;
  }
  if (!args.config) throw new GatewayConfigError(`--config is required to serve\n${USAGE}`);
  const config = readConfig(args.config);
  if (args.journalDir) config.journalDir = args.journalDir;
  config.journalKey = readJournalKey(toolsift, args.journalKeyFile);
  if (args.http === null && (args.tokenFile || args.generateToken || args.noAuth)) {
    throw new GatewayConfigError(`--token-file, --generate-token and --no-auth are settings of --http, which is not given\n${USAGE}`);
  }
  const tokens = args.http === null ? null : httpTokens(args, config);
  const { Gateway, serveHttp, signalUpstreamGroups } = await loadServing();
  // However the gateway exits (a crash included), no upstream group it
  // started is left behind: a last SIGTERM to those not yet ended.
  process.on('exit', () => signalUpstreamGroups('SIGTERM'));
  const gateway = new Gateway(config, { toolsift, log });
  const closers = [];
  let closing = false;
  async function shutdown(code, why) {
    if (closing) return;
    closing = true;
    log(`shutting down (${why})`);
    for (const close of closers) await close().catch(() => {});
    await gateway.close();
    process.exit(code);
  }
  // The first SIGINT/SIGTERM closes everything in order (also while the
  // upstreams are starting); a second one does not wait: the upstreams'
  // groups are killed and the gateway exits.
  const onSignal = (signal, code) => () => {
    if (!closing) return shutdown(code, signal);
    log(`${signal} again: killing the upstream servers and exiting now`);
    signalUpstreamGroups('SIGKILL');
    process.exit(code);
  };
  process.on('SIGINT', onSignal('SIGINT', 130));
  process.on('SIGTERM', onSignal('SIGTERM', 143));
  // A stray rejection from an upstream's transport must not end every other
  // session: log it (Node would exit on it by default).
  process.on('unhandledRejection', (e) => log(`unhandled rejection: ${e?.stack ?? e}`));
  await gateway.start();
  if (closing) return null; // a signal came while starting: shutdown() exits
  if (args.http !== null) {
    const port = args.http === 'config' ? config.http.port : args.http;
    const { path, idleTimeoutMs, maxSessions, maxSessionsPerToken, allowedOrigins, headersTimeoutMs, requestTimeoutMs } = config.http;
    const http = await serveHttp(gateway, { port, path, idleTimeoutMs, maxSessions, maxSessionsPerToken, allowedOrigins, headersTimeoutMs,
      requestTimeoutMs, tokens, noAuth: args.noAuth });
    closers.push(http.close);
    if (args.noAuth) log('warning: --no-auth: any process on this machine can use this gateway and call every tool it offers');
    log(`listening ${http.url}`);
  }
  if (args.stdio || args.http === null) {
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const entry = gateway.createClientSession('stdio');
    if (entry.journal) log(`journal ${entry.journal} (written from the session's first decision or call record)`);
    const transport = new StdioServerTransport();
    transport.onclose = () => shutdown(0, 'stdin closed');
    await entry.server.connect(transport);
    process.stdin.on('end', () => shutdown(0, 'stdin closed'));
  }
  // A parent that dies does not always close our stdin (a wrapper shell
  // killed by a signal leaves the pipe to its own parent): when we are
  // handed to another parent, the client is gone. Over HTTP alone the
  // parent is only who started the gateway, which may be detached from it
  // (nohup, setsid) — except under npm (npx, npm exec, npm run), which
  // passes SIGTERM to a shell that does not pass it on.
  if (args.stdio || args.http === null || process.env.npm_command) watchParent(shutdown);
  process.on('SIGHUP', async () => {
    try {
      const next = readConfig(args.config);
      if (args.journalDir) next.journalDir = args.journalDir;
      next.journalKey = config.journalKey; // not re-read: a running gateway keeps its key
      await gateway.reload(next);
      log('configuration reloaded');
    } catch (e) {
      log(`configuration not reloaded: ${e.message}`);
    }
  });
  return null; // keep serving
}

// Calls shutdown when this process gets another parent (its parent died);
// not when it was an orphan from the start.
function watchParent(shutdown) {
  const parent = process.ppid;
  if (parent <= 1) return;
  setInterval(() => {
    if (process.ppid !== parent) shutdown(0, `parent process ${parent} exited`);
  }, 500).unref();
}

main().then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (e) => {
    const known = e instanceof GatewayConfigError || e instanceof JournalError || e?.name === 'ToolsiftError';
    log(known ? e.message : e?.stack ?? String(e));
    process.exit(2);
  },
);
