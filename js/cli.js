#!/usr/bin/env node
// cli.js — the `toolsift` command over the WebAssembly module.
//
// The same command line as the native CLI (cli/main.c), the same order of
// checks and the same stdout bytes: tests/parity/parity.mjs compares the two.
// Files are read as bytes and handed to the core untouched, so the core alone
// decides about encodings. Keep this file in step with cli/main.c.

import { readFile, writeFile } from 'node:fs/promises';
import { load, ToolsiftError } from './toolsift.js';

const USAGE = `usage: toolsift <command> [options]

commands:
  search --catalog FILE [--limit N] [--explain] [--vector FILE | --model DIR] QUERY...
                                                            rank tools for a query (JSON); --vector:
                                                            the query's vector (JSON array or base64);
                                                            --model: a static model embeds tools and query
  build --catalog FILE -o INDEX.tsi [--model DIR]           write an index snapshot (--model: with
                                                            a static model's vectors of the tools)
        (search, rank, info and docs take --index INDEX.tsi instead of --catalog)
  rank --catalog FILE --queries QUERIES.jsonl --k K         one line per query: {"id","hits"}
       [--strict-ids]   (rank accepts any unique id unless --strict-ids)

  --options JSON   index build options, verbatim (stopwords, ids, weights);
                   replaces rank's default {"ids":"lenient"}
  analyze QUERY...                                          show how a query is analysed
  eval --corpus DIR | --catalog FILE --queries Q.jsonl [--gates G.json] [--options JSON] [--loop] [--json]
                                                            relevance vs plain BM25; exit 1 on a failed gate
       [--vectors V.jsonl | --model DIR] [--fusion JSON]    with a model's vectors, or a static model
                                                            embedding tools and queries (docs/relevance.md)
  info --catalog FILE                                       index facts and fingerprint
  verify --index INDEX.tsi                                  re-derive a snapshot's fingerprint, then print info
  docs --catalog FILE                                       search documents per tool
  texts --catalog FILE                                      the text to embed per tool (trust policy)
  embed --model DIR | --safetensors F --tokenizer F TEXT... a static-embedding model's vector (JSON)
  session run --config CONFIG.json --calls CALLS.jsonl [--journal-out J.jsonl]
  session replay --config CONFIG.json --calls CALLS.jsonl --journal J.jsonl
                 [--divergence fail|warn|off]
  session menu --config CONFIG.json [--journal J.jsonl] [--format mcp|openai|anthropic]
  session prompt --config CONFIG.json        (the skill index for the system prompt)
  session verify --config CONFIG.json --journal J.jsonl   (the journal's hash chain; exit 1 unless it verifies)
  (session run and replay take --model DIR: a static model embeds the tools
   and every live search's query;
   session commands take --index SNAPSHOT to search a prebuilt index; the
   config then has no catalog, or only {"skills": [...]}; and
   --journal-key-file KEY, else env TOOLSIFT_JOURNAL_KEY: the hex HMAC key of the journal's chain)

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
  '--index': 'index',
  '--corpus': 'corpus',
  '--gates': 'gates',
  '--vector': 'vector',
  '--vectors': 'vectors',
  '--fusion': 'fusion',
  '--model': 'model',
  '-o': 'output',
  '--output': 'output',
};

// Options are accepted for every command, as natively; other words (a bare
// `--` included) are the query, joined by single spaces.
function parseArgs(argv) {
  const a = { explain: false, strictIds: false, json: false, loop: false, words: [] };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (Object.hasOwn(VALUE_OPTIONS, s)) {
      if (i + 1 >= argv.length) {
        process.stderr.write(`toolsift: ${s} needs a value\n`);
        return null;
      }
      a[VALUE_OPTIONS[s]] = argv[++i];
    } else if (s === '--loop') {
      a.loop = true;
    } else if (s === '--json') {
      a.json = true;
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

// One module for the whole run: an index and a model must share it (their
// handles are addresses in one module's memory).
let loaded = null;
async function loadModule() {
  try {
    loaded ??= load();
    return await loaded;
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

// ---- toolsift session run | replay | menu | prompt (cli/session_cmd.c) ------

const SESSION_USAGE = 'usage: toolsift session run|replay|menu|prompt|verify --config CONFIG.json [options]\n';
const SESSION_OPTIONS = {
  '--config': 'config',
  '--calls': 'calls',
  '--journal': 'journal',
  '--journal-out': 'journalOut',
  '--divergence': 'divergence',
  '--format': 'format',
  '--index': 'index',
  '--journal-key-file': 'keyFile',
  '--model': 'model',
};

const text = (s) => Buffer.from(s, 'utf8');

// cli_read_file: the whole file, or null after "toolsift: io: cannot read …".
async function readOrReport(file) {
  try {
    return await readFile(file);
  } catch (e) {
    const why = e.code === 'EISDIR' ? '' : `: ${ERRNO_TEXT[e.code] ?? e.message}`;
    process.stderr.write(`toolsift: io: cannot read ${file}${why}\n`);
    return null;
  }
}

// load_config: the configuration's bytes and, when it names one, its catalog
// file's (relative to the configuration's folder), or null after a message.
// The core reads the configuration; this only resolves and reads the file.
async function loadSessionConfig(ts, file) {
  const config = await readOrReport(file);
  if (!config) return null;
  let name;
  try {
    name = ts._sessionConfigCatalog(config);
  } catch (e) {
    sessionError(e, file);
    return null;
  }
  if (name === null) return { config, catalog: null };
  const slash = file.lastIndexOf('/');
  const catalog = await readOrReport(name.startsWith('/') || slash < 0 ? name : file.slice(0, slash + 1) + name);
  return catalog ? { config, catalog } : null;
}

const NEWLINE = Buffer.from('\n');

// run_calls: every line of CALLS through the session (the core reads each
// line); 0 when all went through.
function runCalls(session, calls, stdout) {
  let rc = 0;
  for (const { bytes, error } of session._callLines(calls)) {
    if (bytes) {
      stdout.push(bytes, NEWLINE);
      continue;
    }
    // A line that is not a call is printed without a code, as it always was.
    const what = error.code === 'config' ? error.message : `${error.code}: ${error.message}`;
    process.stderr.write(`toolsift: ${what}\n`);
    rc = 1;
  }
  return rc;
}

// An error of opening the session names the configuration's file for its
// own errors ("config: …"), as session_cmd.c's report does.
function sessionError(e, config) {
  if (!(e instanceof ToolsiftError)) throw e;
  const m = config !== undefined && e.message.startsWith('config: ')
    ? `config file ${config}: ${e.message.slice(8)}` : e.message;
  process.stderr.write(`toolsift: ${e.code}: ${m}\n`);
  return 1;
}

// cli_session: returns the exit status.
async function session(argv) {
  if (argv.length < 2) {
    process.stderr.write(SESSION_USAGE);
    return 2;
  }
  const sub = argv[1];
  const o = { format: 'mcp' };
  for (let i = 2; i < argv.length; i++) {
    const key = Object.hasOwn(SESSION_OPTIONS, argv[i]) ? SESSION_OPTIONS[argv[i]] : null;
    if (!key || i + 1 >= argv.length) {
      process.stderr.write(`toolsift: session: unexpected argument ${argv[i]}\n`);
      return 2;
    }
    o[key] = argv[++i];
  }
  const isRun = sub === 'run';
  const isReplay = sub === 'replay';
  const isMenu = sub === 'menu';
  const isPrompt = sub === 'prompt';
  const isVerify = sub === 'verify';
  if (!isRun && !isReplay && !isMenu && !isPrompt && !isVerify) {
    process.stderr.write(`toolsift: session: unknown subcommand ${sub} (run, replay, menu, prompt, verify)\n`);
    return 2;
  }
  if (o.config === undefined || ((isRun || isReplay) && o.calls === undefined) ||
      ((isReplay || isVerify) && o.journal === undefined)) {
    process.stderr.write(
      'toolsift: session: run needs --config and --calls; replay also --journal; menu needs --config; ' +
        'verify --config and --journal\n',
    );
    return 2;
  }
  if (isVerify) o.divergence = 'off'; // every problem reported, none fatal
  if (o.divergence !== undefined && !['fail', 'warn', 'off'].includes(o.divergence)) {
    process.stderr.write('toolsift: session: --divergence must be fail, warn or off\n');
    return 2;
  }
  const ts = await loadModule();
  const cfg = await loadSessionConfig(ts, o.config);
  if (!cfg) return 1;
  // Both files are read (and both failures reported) before either is checked.
  const jtext = o.journal !== undefined ? await readOrReport(o.journal) : null;
  const ctext = o.calls !== undefined ? await readOrReport(o.calls) : null;
  const snap = o.index !== undefined ? await readOrReport(o.index) : null;
  if ((o.journal !== undefined && !jtext) || (o.calls !== undefined && !ctext) ||
      (o.index !== undefined && !snap)) return 1;
  // The journal key: --journal-key-file, else env TOOLSIFT_JOURNAL_KEY (hex; the core checks it).
  let journalKey = process.env.TOOLSIFT_JOURNAL_KEY;
  if (o.keyFile !== undefined) {
    const k = await readOrReport(o.keyFile);
    if (!k) return 1;
    journalKey = k.toString('latin1').replace(/[\n\r ]+$/, '');
  }

  let s;
  try {
    s = ts._openSession(cfg.config, cfg.catalog, {
      journal: jtext ?? undefined,
      divergence: o.divergence ?? (journalKey !== undefined ? 'fail' : undefined),
      journalKey,
      snapshot: snap ?? undefined,
    });
  } catch (e) {
    return sessionError(e, o.config);
  }
  // --model: the session embeds its tools and every query with the model
  let model = null;
  try {
    if (o.model !== undefined) {
      model = await openModel(o.model);
      call(() => s.setEmbedder(model));
    }
  } catch (e) {
    s.free();
    model?.free();
    throw e;
  }
  const stdout = [];
  let rc = 0;
  try {
    if (isVerify) {
      const v = s._verifyBytes();
      stdout.push(v, NEWLINE);
      rc = Buffer.from(v).toString('latin1').startsWith('{"verified":true') ? 0 : 1;
    }
    if (ctext) rc = runCalls(s, ctext, stdout);
    else if (isMenu && jtext) {
      try {
        s.applyJournal();
      } catch (e) {
        rc = sessionError(e);
      }
    }
    if (isPrompt) {
      try {
        stdout.push(Buffer.from(s.skillIndex(), 'utf8'));
      } catch (e) {
        rc = sessionError(e);
      }
    }
    if (isMenu) {
      try {
        stdout.push(s._menuBytes(o.format), NEWLINE);
      } catch (e) {
        rc = sessionError(e);
      }
    }
    if (isReplay || (isMenu && jtext)) {
      try {
        const out = s.finishJSON();
        if (out !== '{"unasked":[]}') process.stderr.write(`toolsift: warning: ${out}\n`);
      } catch (e) {
        rc = sessionError(e);
      }
    }
    // The journal is written even when a call failed: nothing accepted is lost.
    if (o.journalOut !== undefined) {
      let journal = null;
      try {
        journal = s._journalBytes();
      } catch (e) {
        if (!(e instanceof ToolsiftError)) throw e;
        rc = 1;
      }
      if (journal) {
        try {
          await writeFile(o.journalOut, journal);
        } catch {
          process.stderr.write(`toolsift: io: cannot write ${o.journalOut}\n`);
          rc |= 1;
        }
      }
    }
  } finally {
    s.free();
    model?.free();
    if (stdout.length) process.stdout.write(Buffer.concat(stdout));
  }
  return rc;
}

// open_index: a snapshot (--index wins; build options do not apply to it),
// else an index built from the catalog file.
async function openIndex(catalogFile, snapshotFile, options) {
  if (snapshotFile !== undefined) {
    const bytes = await readBytes(snapshotFile);
    const ts = await loadModule();
    return call(() => ts.indexFromSnapshot(bytes));
  }
  if (catalogFile === undefined) throw usageError('--catalog FILE (or --index SNAPSHOT) is required');
  const catalog = await readBytes(catalogFile);
  const ts = await loadModule();
  return call(() => ts.createIndex(catalog, options));
}

// cli_build: catalog -> snapshot file (nothing on stdout).
// cli_eval: a corpus folder (catalog.json, queries.jsonl, gates.json if it
// exists) or files; the options text is assembled exactly as cli/main.c does.
async function evaluate(a) {
  if (a.model !== undefined && a.vectors !== undefined) throw usageError('eval takes --vectors FILE or --model DIR, not both');
  let { catalog, queries, gates } = a;
  if (a.corpus !== undefined) {
    catalog = `${a.corpus}/catalog.json`;
    queries = `${a.corpus}/queries.jsonl`;
    if (gates === undefined) {
      try {
        await readFile(`${a.corpus}/gates.json`);
        gates = `${a.corpus}/gates.json`;
      } catch {
        /* no gates */
      }
    }
  }
  if (catalog === undefined || queries === undefined) {
    throw usageError('eval needs --corpus DIR, or --catalog FILE and --queries FILE');
  }
  const c = await readOrReport(catalog);
  const q = c ? await readOrReport(queries) : null;
  const g = q && gates !== undefined ? await readOrReport(gates) : null;
  if (!c || !q || (gates !== undefined && !g)) return 1;
  const parts = [];
  if (a.options !== undefined) parts.push(text('"index":'), text(a.options));
  if (a.options !== undefined && g) parts.push(text(','));
  if (g) parts.push(text('"gates":'), g);
  if (a.loop && parts.length) parts.push(text(','));
  if (a.loop) parts.push(text('"loop":true'));
  if (a.fusion !== undefined) parts.push(text(parts.length ? ',"fusion":' : '"fusion":'), text(a.fusion));
  const v = q && a.vectors !== undefined ? await readOrReport(a.vectors) : null;
  if (a.vectors !== undefined && !v) return 1;
  const opts = Buffer.concat([text('{'), ...parts, text('}')]);
  const ts = await loadModule();
  // --model: the static model embeds the tools and every query (cli/main.c's eval_json)
  const out = a.model !== undefined
    ? await withModel(a.model, (m) => call(() => ts.evalJSON(c, q, opts, m)))
    : call(() => ts.evalJSON(c, q, opts, v));
  const passed = out.includes('"passed":true}');
  if (a.json) process.stdout.write(out + '\n');
  else process.stdout.write(call(() => ts.evalReport(out, a.corpus ?? queries)));
  return passed ? 0 : 1;
}

async function build(a) {
  if (a.catalog === undefined || a.output === undefined) {
    throw usageError('build needs --catalog FILE and -o INDEX.tsi');
  }
  const index = await openIndex(a.catalog, undefined, a.options);
  try {
    if (a.model !== undefined) await withModel(a.model, (m) => embedIndex(index, m));
    const blob = call(() => index.snapshot());
    try {
      await writeFile(a.output, blob);
    } catch {
      process.stderr.write(`toolsift: io: cannot write ${a.output}\n`);
      throw new Exit(1);
    }
  } finally {
    index.free();
  }
}

// A static model from DIR (model.safetensors, tokenizer.json) or the two
// files (either overrides DIR's), loaded into the run's module: fn(model),
// then freed. build/search --model and embed share it, as cli_load_model.
async function withModel(dir, fn, st, tok) {
  const model = await openModel(dir, st, tok);
  try {
    return fn(model);
  } finally {
    model.free();
  }
}

// The model itself (the caller frees it): cli_load_model.
async function openModel(dir, st = `${dir}/model.safetensors`, tok = `${dir}/tokenizer.json`) {
  const stBytes = await readBytes(st);
  const tokBytes = await readBytes(tok);
  const ts = await loadModule();
  return call(() => ts.loadStaticModel(stBytes, tokBytes));
}

// The tools' vectors from the model, with cli/embed_cmd.c's note.
function embedIndex(index, model) {
  const without = call(() => index.embedStatic(model));
  if (without) process.stderr.write(`toolsift: note: ${without} tool(s) have no token the model knows: no vector (BM25F only)\n`);
}

// embed: a static-embedding model's JSON for a text, as cli/embed_cmd.c.
async function embed(argv) {
  let dir, st, tok;
  const words = [];
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    const key = { '--model': 'dir', '--safetensors': 'st', '--tokenizer': 'tok' }[s];
    if (key) {
      if (i + 1 >= argv.length) {
        process.stderr.write(`toolsift: ${s} needs a value\n`);
        throw new Exit(2);
      }
      const v = argv[++i];
      if (key === 'dir') dir = v;
      else if (key === 'st') st = v;
      else tok = v;
    } else if (s.startsWith('--') && s.length > 2) {
      process.stderr.write(`toolsift: unknown option ${s}\n`);
      throw new Exit(2);
    } else words.push(s);
  }
  if (dir === undefined && (st === undefined || tok === undefined)) {
    process.stderr.write('toolsift: embed needs --model DIR (model.safetensors, tokenizer.json) or --safetensors F --tokenizer F\n');
    throw new Exit(2);
  }
  await withModel(dir, (model) => process.stdout.write(call(() => model.embedJSON(words.join(' '))) + '\n'),
    st ?? `${dir}/model.safetensors`, tok ?? `${dir}/tokenizer.json`);
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
  if (cmd === 'session') {
    process.exitCode = await session(argv);
    return;
  }
  if (cmd === 'embed') {
    await embed(argv.slice(1));
    return;
  }
  const a = parseArgs(argv.slice(1));
  if (!a) throw usageError(null);

  if (cmd === 'analyze') {
    const ts = await loadModule();
    process.stdout.write(call(() => ts.analyzeJSON(a.query)) + '\n');
    return;
  }
  if (cmd === 'eval') {
    process.exitCode = await evaluate(a);
    return;
  }
  if (cmd === 'build') {
    await build(a);
    return;
  }
  if (!['search', 'rank', 'info', 'docs', 'verify', 'texts'].includes(cmd)) {
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
  const index = await openIndex(a.catalog, a.index, options);
  try {
    let out;
    if (cmd === 'search') {
      // Built as text, like the native snprintf, so the key order is fixed.
      let opts;
      if (a.limit !== undefined && a.explain) opts = `{"limit":${limit},"explain":true}`;
      else if (a.limit !== undefined) opts = `{"limit":${limit}}`;
      else if (a.explain) opts = '{"explain":true}';
      if (a.model !== undefined && a.vector !== undefined) throw usageError('search takes --vector FILE or --model DIR, not both');
      if (a.model !== undefined) {
        // the tools' vectors and the query's, from the model (the core's JSON, verbatim)
        const v = await withModel(a.model, (m) => {
          embedIndex(index, m);
          return call(() => JSON.stringify(m.queryVector(a.query)));
        });
        const head = opts ? opts.slice(0, -1) + ',' : '{';
        opts = head + '"vector":' + v + '}';
      }
      if (a.vector !== undefined) {
        // the file's bytes are the "vector" value, verbatim (the core checks them)
        const v = await readOrReport(a.vector);
        if (!v) throw new Exit(1);
        const head = opts ? opts.slice(0, -1) + ',' : '{';
        opts = Buffer.concat([text(head + '"vector":'), v, text('}')]);
      }
      out = call(() => index.searchJSON(a.query, opts)) + '\n';
    } else if (cmd === 'rank') {
      const queries = await readBytes(a.queries);
      out = call(() => index.rank(queries, Number(k > 100000n ? 100000n : k)));
    } else if (cmd === 'info') {
      out = call(() => index.infoJSON()) + '\n';
    } else if (cmd === 'verify') {
      out = call(() => {
        index.verify();
        return index.infoJSON();
      }) + '\n';
    } else if (cmd === 'texts') {
      out = call(() => index.embedTextsJSON()) + '\n';
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
