// learn.js — `toolsift-mcp learn`: the vocabulary a gateway's users taught
// it, learned from its journals (and labelled examples) by toolsift's
// learner, for search.annotations; `toolsift-mcp learn --diff OLD NEW`: what
// a new vocabulary would change.
//
// Owns: the command's flags, where its inputs come from (journals: the
// configuration's journal.dir unless --journals says otherwise; the catalog:
// what the gateway searches — the configured servers' tools under the
// gateway's ids, fetched the way the gateway does at start and then
// disconnected — unless --catalog gives one; the journal key as the gateway
// reads it), the learned file (written private: it holds words of users'
// requests) and the one-line summary, which says counts only: no request
// text, no learned word, no key is ever logged.
//
// The rule (how many sessions and clients a word needs) and the reading of
// each journal (its chain verified, segment lines passed over, a tampered or
// unverifiable one refused unless --unverified says otherwise) are the
// core's (createLearner).

import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

import { readJournalKey } from './auth.js';
import { readConfig } from './config.js';
import { GatewayConfigError } from './errors.js';
import { VERSION } from './version.js';

export const LEARN_USAGE = `usage: toolsift-mcp learn --config FILE [--journals DIR|FILE]... [--examples FILE]... [--catalog FILE]
                          [-o LEARNED.json] [--min-sessions N] [--min-clients N] [--max-per-client N]
                          [--min-share X] [--unverified refuse|skip|accept] [--journal-key-file KEY]
       toolsift-mcp learn --diff OLD.json NEW.json`;

// The learner's options by flag (the core checks the values' ranges; its
// message names the option, which is mapped back to the flag).
const NUMBER_FLAGS = {
  '--min-sessions': { key: 'minSessions', re: /^\d+$/, what: 'a whole number' },
  '--min-clients': { key: 'minClients', re: /^\d+$/, what: 'a whole number' },
  '--max-per-client': { key: 'maxPerClient', re: /^\d+$/, what: 'a whole number' },
  '--min-share': { key: 'minShare', re: /^(\d+(\.\d*)?|\.\d+)$/, what: 'a number from 0 to 1' },
};
const UNVERIFIED = ['refuse', 'skip', 'accept'];

/** The flags of `toolsift-mcp learn` (argv after "learn"). Throws GatewayConfigError. */
export function parseLearnArgs(argv) {
  const a = { journals: [], examples: [], options: {} };
  if (argv[0] === '--diff') {
    if (argv.length !== 3) throw new GatewayConfigError(`learn --diff takes OLD.json NEW.json\n${LEARN_USAGE}`);
    return { diff: [argv[1], argv[2]] };
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new GatewayConfigError(`learn: ${arg} needs a value\n${LEARN_USAGE}`);
      return argv[++i];
    };
    if (arg === '--config') a.config = value();
    else if (arg === '--journals') a.journals.push(value());
    else if (arg === '--examples') a.examples.push(value());
    else if (arg === '--catalog') a.catalog = value();
    else if (arg === '-o' || arg === '--output') a.output = value();
    else if (arg === '--journal-key-file') a.journalKeyFile = value();
    else if (arg === '--unverified') {
      const v = value();
      if (!UNVERIFIED.includes(v)) throw new GatewayConfigError(`learn: --unverified: expected refuse, skip or accept, got ${JSON.stringify(v)}`);
      a.options.unverified = v;
    } else if (NUMBER_FLAGS[arg]) {
      const { key, re, what } = NUMBER_FLAGS[arg];
      const v = value();
      if (!re.test(v)) throw new GatewayConfigError(`learn: ${arg}: expected ${what}, got ${JSON.stringify(v)}`);
      a.options[key] = Number(v);
    } else if (arg === '--help' || arg === '-h') a.help = true;
    else throw new GatewayConfigError(`learn: unknown argument ${JSON.stringify(arg)}\n${LEARN_USAGE}`);
  }
  if (!a.help && !a.config) throw new GatewayConfigError(`learn: --config is required (the gateway's configuration: its servers, journal.dir and search.stopwords)\n${LEARN_USAGE}`);
  return a;
}

/**
 * The journal files of --journals (or journal.dir): a file as it is, a
 * folder's *.jsonl files in name order (not its subfolders), as the native
 * `toolsift learn` reads them.
 */
export function journalFiles(paths) {
  const files = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      throw new GatewayConfigError(`learn: journals ${p}: ${e.message}`);
    }
    if (!st.isDirectory()) {
      files.push(p);
      continue;
    }
    const names = readdirSync(p, { withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith('.jsonl'))
      .map((d) => d.name)
      .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    for (const n of names) files.push(path.join(p, n));
  }
  return files;
}

/**
 * Write `text` to `file`, readable by its owner only (0600): a new file
 * beside it (O_EXCL, never through an existing name or link) renamed over
 * it, so a gateway that re-reads it on SIGHUP never sees half a file.
 */
export function writePrivateFile(file, text) {
  const tmp = path.join(path.dirname(path.resolve(file)), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd = null;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, file);
  } catch (e) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* not made */
    }
    throw new GatewayConfigError(`learn: cannot write ${file}: ${e.message}`);
  }
}

/**
 * The catalog the gateway searches: every configured server started as the
 * gateway starts it, its tools under the gateway's ids (catalog.js), then
 * every connection closed. A server that does not come up is an error (its
 * tools would be missing, and the words learned for them lost).
 */
export async function fetchCatalog(toolsift, config, log) {
  let Upstream;
  let buildUniverse;
  try {
    ({ Upstream } = await import('./upstream.js'));
    ({ buildUniverse } = await import('./catalog.js'));
  } catch (e) {
    if (e?.code === 'ERR_MODULE_NOT_FOUND' && /@modelcontextprotocol\/sdk|'zod'/.test(e.message)) {
      throw new GatewayConfigError('learn: fetching the catalog from the servers needs the MCP SDK, an optional peer dependency: npm install @modelcontextprotocol/sdk@^1.32.2 zod@^4.6.7 (or give --catalog FILE)');
    }
    throw e;
  }
  const ups = new Map();
  try {
    await Promise.all(config.servers.map(async (server) => {
      // a failed first connection is not retried here: reported below
      const up = new Upstream({ ...server, restart: { ...server.restart, maxAttempts: 0 } }, { version: VERSION, log, onTools: () => {} });
      ups.set(server.key, up);
      await up.start();
    }));
    const down = [...ups.values()].filter((u) => u.state !== 'ready');
    if (down.length) {
      throw new GatewayConfigError(`learn: ${down.map((u) => `server "${u.key}" did not start (${u.lastError ?? u.state})`).join('; ')}: the catalog would lack its tools; fix or disable it in the configuration, or give --catalog FILE`);
    }
    // the catalog alone: no vocabulary (learning reads the catalog without
    // one), no skills, no model
    const u = buildUniverse(toolsift, { ...config, vocabulary: null, skills: null }, ups, null);
    for (const w of u.warnings) log(`warning: ${w}`);
    return { tools: u.catalog.tools, annotations: u.catalog.annotations };
  } finally {
    await Promise.all([...ups.values()].map((u) => u.close()));
  }
}

function readInput(file, what) {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new GatewayConfigError(`learn: ${what} ${file}: ${e.message}`);
  }
}

// A learner option the core refused, named by its flag.
function byFlag(e) {
  const m = /learn options: (\w+)/.exec(e?.message ?? '');
  const flag = m && Object.entries(NUMBER_FLAGS).find(([, f]) => f.key === m[1])?.[0];
  if (flag) return new GatewayConfigError(`learn: ${flag}: ${e.message}`);
  if (m && m[1] === 'journalKey') return new GatewayConfigError(`learn: the journal key (--journal-key-file or TOOLSIFT_JOURNAL_KEY): ${e.message}`);
  return e;
}

/**
 * Run `toolsift-mcp learn` with `argv` (after "learn"). `out(text)`: stdout;
 * `log(line)`: stderr. Returns the exit status (0); throws
 * GatewayConfigError for bad flags or inputs, a ToolsiftError when the
 * learner refuses a journal (its message names the file).
 */
export async function runLearn(toolsift, argv, { log, out, env = process.env }) {
  const args = parseLearnArgs(argv);
  if (args.help) {
    out(`${LEARN_USAGE}\n`);
    return 0;
  }
  if (args.diff) {
    const [a, b] = args.diff;
    const diff = toolsift.learnDiffJSON(readInput(a, '--diff'), readInput(b, '--diff'));
    out(`${diff}\n`);
    return 0;
  }
  const config = readConfig(args.config);
  const journals = args.journals.length ? args.journals : config.journalDir ? [config.journalDir] : [];
  if (journals.length === 0 && args.examples.length === 0) {
    throw new GatewayConfigError(`learn: no journals: the configuration has no journal.dir; give --journals DIR|FILE or --examples FILE\n${LEARN_USAGE}`);
  }
  const files = journalFiles(journals);
  const key = readJournalKey(toolsift, args.journalKeyFile, env);
  const catalog = args.catalog ? readInput(args.catalog, '--catalog') : await fetchCatalog(toolsift, config, log);
  const options = { ...args.options };
  if (key) options.journalKey = key;
  // the gateway's analysis of requests: its stopwords, if it sets them
  if (config.search.stopwords !== undefined) options.index = { stopwords: config.search.stopwords };
  let learner;
  try {
    learner = toolsift.createLearner(catalog, options);
  } catch (e) {
    throw byFlag(e);
  }
  let learned;
  try {
    for (const file of files) learner.addJournal(file, readInput(file, 'journal'));
    for (const file of args.examples) learner.addExamples(file, readInput(file, '--examples'));
    learned = learner.finishJSON();
  } finally {
    learner.free();
  }
  const doc = JSON.parse(learned);
  const tools = Object.keys(doc.annotations ?? {}).length;
  const labels = Object.values(doc.annotations ?? {}).reduce((n, a) => n + (a.tags?.length ?? 0) + (a.aliases?.length ?? 0), 0);
  if (args.output) writePrivateFile(args.output, `${learned}\n`);
  else out(`${learned}\n`);
  const p = doc.learned ?? {};
  log(`learn: ${labels} label${labels === 1 ? '' : 's'} for ${tools} tool${tools === 1 ? '' : 's'} from ${p.journals ?? 0} journal(s) (${p.skipped ?? 0} skipped as unverifiable): ${p.sessions ?? 0} session(s), ${p.clients ?? 0} client(s), ${p.examples ?? 0} example(s)${args.output ? `; written to ${args.output} (mode 0600)` : ''}`);
  return 0;
}
