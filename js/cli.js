#!/usr/bin/env node
// cli.js — the `toolsift` command over the WebAssembly module.
//
// The same command line as the native CLI (cli/main.c), the same order of
// checks and the same stdout bytes: tests/parity/parity.mjs compares the two.
// Files are read as bytes and handed to the core untouched, so the core alone
// decides about encodings. Keep this file in step with cli/main.c.

import { readFile } from 'node:fs/promises';
import { load, ToolsiftError } from './toolsift.js';

const USAGE = `usage: toolsift <command> [options]

commands:
  search --catalog FILE [--limit N] [--explain] QUERY...   rank tools for a query (JSON)
  rank --catalog FILE --queries QUERIES.jsonl --k K         one line per query: {"id","hits"}
       [--strict-ids]   (rank accepts any unique id unless --strict-ids)

  --options JSON   index build options, verbatim (stopwords, ids, weights);
                   replaces rank's default {"ids":"lenient"}
  analyze QUERY...                                          show how a query is analysed
  info --catalog FILE                                       index facts and fingerprint
  docs --catalog FILE                                       search documents per tool

The wasm CLI loads build/wasm/toolsift.wasm, or the module at env TOOLSIFT_WASM.
`;

// Thrown to end the run with an exit code after its message was written.
class Exit extends Error {
  constructor(code) {
    super(`exit ${code}`);
    this.exitCode = code;
  }
}

function usageError(message) {
  if (message) process.stderr.write(`toolsift: ${message}\n`);
  process.stderr.write(USAGE);
  return new Exit(2);
}

function report(err) {
  process.stderr.write(`toolsift: ${err.code}: ${err.message}\n`);
  return new Exit(1);
}

const VALUE_OPTIONS = {
  '--catalog': 'catalog',
  '--queries': 'queries',
  '--limit': 'limit',
  '--k': 'k',
  '--options': 'options',
};

// Options are accepted for every command, as natively; other words (a bare
// `--` included) are the query, joined by single spaces.
function parseArgs(argv) {
  const a = { explain: false, strictIds: false, words: [] };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (s in VALUE_OPTIONS) {
      if (i + 1 >= argv.length) {
        process.stderr.write(`toolsift: ${s} needs a value\n`);
        return null;
      }
      a[VALUE_OPTIONS[s]] = argv[++i];
    } else if (s === '--explain') {
      a.explain = true;
    } else if (s === '--strict-ids') {
      a.strictIds = true;
    } else if (s.startsWith('--') && s.length > 2) {
      process.stderr.write(`toolsift: unknown option ${s}\n`);
      return null;
    } else {
      a.words.push(s);
    }
  }
  a.query = a.words.join(' ');
  return a;
}

// strtol(s, &end, 10) with "all consumed and >= 1", as the native CLI does:
// a positive count as a decimal string (clamped like strtol), or null.
const LONG_MAX = (1n << 63n) - 1n;
function parseCount(s) {
  if (s === undefined || s === '') return null;
  const m = /^[ \t\n\v\f\r]*([+-]?[0-9]+)$/.exec(s);
  if (!m) return null;
  let v = BigInt(m[1]);
  if (v > LONG_MAX) v = LONG_MAX;
  return v < 1n ? null : v;
}

// strerror() wording, so messages match the native CLI.
const ERRNO_TEXT = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  ENOTDIR: 'Not a directory',
  EMFILE: 'Too many open files',
  ENFILE: 'Too many open files in system',
  ENOMEM: 'Cannot allocate memory',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EIO: 'Input/output error',
};

async function readBytes(file) {
  try {
    return await readFile(file);
  } catch (e) {
    // fopen() of a directory succeeds and the read fails: no errno text then.
    if (e.code === 'EISDIR') process.stderr.write(`toolsift: io: cannot read ${file}\n`);
    else process.stderr.write(`toolsift: io: cannot read ${file}: ${ERRNO_TEXT[e.code] ?? e.message}\n`);
    throw new Exit(1);
  }
}

async function loadModule() {
  try {
    return await load();
  } catch (e) {
    const where = process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm';
    throw report(new ToolsiftError('load', `cannot load ${where}: ${e.message}`, -1));
  }
}

function call(fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ToolsiftError) throw report(e);
    throw e;
  }
}

async function run(argv) {
  if (argv.length < 1) throw usageError(null);
  const cmd = argv[0];
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (cmd === '--version') {
    process.stdout.write(`${(await loadModule()).version}\n`);
    return;
  }
  const a = parseArgs(argv.slice(1));
  if (!a) throw usageError(null);

  if (cmd === 'analyze') {
    const ts = await loadModule();
    process.stdout.write(call(() => ts.analyzeJSON(a.query)) + '\n');
    return;
  }
  if (!['search', 'rank', 'info', 'docs'].includes(cmd)) {
    process.stderr.write(`toolsift: unknown command ${cmd}\n`);
    throw usageError(null);
  }
  const limit = a.limit !== undefined ? parseCount(a.limit) : 0n;
  const k = parseCount(a.k);
  if (cmd === 'search' && limit === null) throw usageError('--limit must be a positive integer');
  if (cmd === 'rank' && (a.queries === undefined || k === null)) {
    throw usageError('rank needs --queries FILE and --k K (a positive integer)');
  }
  // rank is the outside-evaluation contract: any unique id is a key there.
  let options = a.options;
  if (options === undefined && cmd === 'rank' && !a.strictIds) options = '{"ids":"lenient"}';
  if (a.catalog === undefined) throw usageError('--catalog FILE is required');

  const catalog = await readBytes(a.catalog);
  const ts = await loadModule();
  const index = call(() => ts.createIndex(catalog, options));
  try {
    let out;
    if (cmd === 'search') {
      // Built as text, like the native snprintf, so the key order is fixed.
      let opts;
      if (a.limit !== undefined && a.explain) opts = `{"limit":${limit},"explain":true}`;
      else if (a.limit !== undefined) opts = `{"limit":${limit}}`;
      else if (a.explain) opts = '{"explain":true}';
      out = call(() => index.searchJSON(a.query, opts)) + '\n';
    } else if (cmd === 'rank') {
      const queries = await readBytes(a.queries);
      out = call(() => index.rank(queries, Number(k > 100000n ? 100000n : k)));
    } else if (cmd === 'info') {
      out = call(() => index.infoJSON()) + '\n';
    } else {
      out = call(() => index.documentsJSON()) + '\n';
    }
    process.stdout.write(out);
  } finally {
    index.free();
  }
}

try {
  await run(process.argv.slice(2));
} catch (e) {
  if (e instanceof Exit) process.exitCode = e.exitCode;
  else {
    process.stderr.write(`toolsift: internal: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  }
}
