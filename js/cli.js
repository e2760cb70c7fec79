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
  search --catalog FILE [--limit N] [--explain] QUERY...   rank tools for a query (JSON)
  build --catalog FILE -o INDEX.tsi                         write an index snapshot
        (search, rank, info and docs take --index INDEX.tsi instead of --catalog)
  rank --catalog FILE --queries QUERIES.jsonl --k K         one line per query: {"id","hits"}
       [--strict-ids]   (rank accepts any unique id unless --strict-ids)

  --options JSON   index build options, verbatim (stopwords, ids, weights);
                   replaces rank's default {"ids":"lenient"}
  analyze QUERY...                                          show how a query is analysed
  eval --corpus DIR | --catalog FILE --queries Q.jsonl [--gates G.json] [--options JSON] [--loop] [--json]
                                                            relevance vs plain BM25; exit 1 on a failed gate
  info --catalog FILE                                       index facts and fingerprint
  verify --index INDEX.tsi                                  re-derive a snapshot's fingerprint, then print info
  docs --catalog FILE                                       search documents per tool
  session run --config CONFIG.json --calls CALLS.jsonl [--journal-out J.jsonl]
  session replay --config CONFIG.json --calls CALLS.jsonl --journal J.jsonl
                 [--divergence fail|warn|off]
  session menu --config CONFIG.json [--journal J.jsonl] [--format mcp|openai|anthropic]
  session prompt --config CONFIG.json        (the skill index for the system prompt)
  (session commands take --index SNAPSHOT to search a prebuilt index; the
   config then has no catalog, or only {"skills": [...]})

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

// ---- cJSON 1.7.15, as the native session command uses it ------------------
//
// `toolsift session` parses its configuration, catalog and calls lines with
// cJSON (lenient: trailing data after a value, raw control characters in
// strings, duplicate keys with the first one winning, strings cut at an
// escaped NUL) and re-serialises them with cJSON_PrintUnformatted before the
// core sees them. This is a byte-level port of exactly that parser and
// printer, so the wasm CLI hands the core the same bytes as cli/session_cmd.c.
// Nodes: { t: 'null'|'false'|'true'|'number'|'string'|'array'|'object',
//          v: number | Uint8Array (a C string: no NUL), c: [children], k: key }.

const CJSON_NESTING_LIMIT = 1000;

function cjsonParse(bytes) {
  const p = { b: bytes, n: bytes.length, off: 0, depth: 0 };
  if (p.n === 0) return null;
  if (p.n > 4 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) p.off = 3;
  cjSkip(p);
  const item = {};
  return cjValue(item, p) ? item : null;
}

function cjSkip(p) {
  if (p.off >= p.n) return;
  while (p.off < p.n && p.b[p.off] <= 32) p.off++;
  if (p.off === p.n) p.off--;
}

function cjWord(p, word) {
  if (p.off + word.length > p.n) return false;
  for (let i = 0; i < word.length; i++) if (p.b[p.off + i] !== word.charCodeAt(i)) return false;
  return true;
}

function cjValue(item, p) {
  if (cjWord(p, 'null')) {
    item.t = 'null';
    p.off += 4;
    return true;
  }
  if (cjWord(p, 'false')) {
    item.t = 'false';
    p.off += 5;
    return true;
  }
  if (cjWord(p, 'true')) {
    item.t = 'true';
    p.off += 4;
    return true;
  }
  if (p.off >= p.n) return false;
  const c = p.b[p.off];
  if (c === 0x22) return cjString(item, p);
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return cjNumber(item, p);
  if (c === 0x5b) return cjArray(item, p);
  if (c === 0x7b) return cjObject(item, p);
  return false;
}

// The number's characters (at most 63), then strtod's longest valid prefix.
function cjNumber(item, p) {
  let s = '';
  for (let i = 0; i < 63 && p.off + i < p.n; i++) {
    const c = p.b[p.off + i];
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45 || c === 0x2e) {
      s += String.fromCharCode(c);
    } else break;
  }
  const m = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(s);
  if (!m) return false;
  item.t = 'number';
  item.v = Number(m[0]);
  p.off += m[0].length;
  return true;
}

function cjHex4(b, i) {
  let h = 0;
  for (let k = 0; k < 4; k++) {
    const c = b[i + k];
    if (c >= 0x30 && c <= 0x39) h += c - 0x30;
    else if (c >= 0x41 && c <= 0x46) h += 10 + c - 0x41;
    else if (c >= 0x61 && c <= 0x66) h += 10 + c - 0x61;
    else return 0;
    if (k < 3) h <<= 4;
  }
  return h;
}

function cjString(item, p) {
  const b = p.b;
  if (b[p.off] !== 0x22) return false;
  let end = p.off + 1;
  while (end < p.n && b[end] !== 0x22) {
    if (b[end] === 0x5c) {
      if (end + 1 >= p.n) return false;
      end++;
    }
    end++;
  }
  if (end >= p.n || b[end] !== 0x22) return false;
  let out;
  let o = 0;
  let i = p.off + 1;
  const backslash = b.indexOf(0x5c, i);
  if (backslash < 0 || backslash >= end) {
    out = b.subarray(i, end); // no escapes: the bytes as they are
    o = out.length;
    i = end;
  } else {
    out = new Uint8Array(end - p.off);
  }
  while (i < end) {
    if (b[i] !== 0x5c) {
      out[o++] = b[i++];
      continue;
    }
    let len = 2;
    const e = b[i + 1];
    if (e === 0x62) out[o++] = 0x08;
    else if (e === 0x66) out[o++] = 0x0c;
    else if (e === 0x6e) out[o++] = 0x0a;
    else if (e === 0x72) out[o++] = 0x0d;
    else if (e === 0x74) out[o++] = 0x09;
    else if (e === 0x22 || e === 0x5c || e === 0x2f) out[o++] = e;
    else if (e === 0x75) {
      // \uXXXX, or a surrogate pair \uXXXX\uXXXX, as UTF-8
      if (end - i < 6) return false;
      const first = cjHex4(b, i + 2);
      if (first >= 0xdc00 && first <= 0xdfff) return false;
      let cp = first;
      len = 6;
      if (first >= 0xd800 && first <= 0xdbff) {
        const s2 = i + 6;
        len = 12;
        if (end - s2 < 6 || b[s2] !== 0x5c || b[s2 + 1] !== 0x75) return false;
        const second = cjHex4(b, s2 + 2);
        if (second < 0xdc00 || second > 0xdfff) return false;
        cp = 0x10000 + (((first & 0x3ff) << 10) | (second & 0x3ff));
      }
      if (cp < 0x80) out[o++] = cp;
      else if (cp < 0x800) {
        out[o++] = 0xc0 | (cp >> 6);
        out[o++] = 0x80 | (cp & 0x3f);
      } else if (cp < 0x10000) {
        out[o++] = 0xe0 | (cp >> 12);
        out[o++] = 0x80 | ((cp >> 6) & 0x3f);
        out[o++] = 0x80 | (cp & 0x3f);
      } else {
        out[o++] = 0xf0 | (cp >> 18);
        out[o++] = 0x80 | ((cp >> 12) & 0x3f);
        out[o++] = 0x80 | ((cp >> 6) & 0x3f);
        out[o++] = 0x80 | (cp & 0x3f);
      }
    } else return false;
    i += len;
  }
  // valuestring is a C string: an escaped NUL ends it.
  const nul = out.subarray(0, o).indexOf(0);
  item.t = 'string';
  item.v = out.subarray(0, nul < 0 ? o : nul);
  p.off = end + 1;
  return true;
}

function cjArray(item, p) {
  if (p.depth >= CJSON_NESTING_LIMIT) return false;
  p.depth++;
  if (p.b[p.off] !== 0x5b) return false;
  p.off++;
  cjSkip(p);
  const children = [];
  if (!(p.off < p.n && p.b[p.off] === 0x5d)) {
    if (p.off >= p.n) return false;
    p.off--;
    do {
      const child = {};
      p.off++;
      cjSkip(p);
      if (!cjValue(child, p)) return false;
      children.push(child);
      cjSkip(p);
    } while (p.off < p.n && p.b[p.off] === 0x2c);
    if (p.off >= p.n || p.b[p.off] !== 0x5d) return false;
  }
  p.depth--;
  item.t = 'array';
  item.c = children;
  p.off++;
  return true;
}

function cjObject(item, p) {
  if (p.depth >= CJSON_NESTING_LIMIT) return false;
  p.depth++;
  if (p.off >= p.n || p.b[p.off] !== 0x7b) return false;
  p.off++;
  cjSkip(p);
  const children = [];
  if (!(p.off < p.n && p.b[p.off] === 0x7d)) {
    if (p.off >= p.n) return false;
    p.off--;
    do {
      const child = {};
      p.off++;
      cjSkip(p);
      if (p.off >= p.n || !cjString(child, p)) return false;
      cjSkip(p);
      child.k = child.v;
      child.v = undefined;
      if (p.off >= p.n || p.b[p.off] !== 0x3a) return false;
      p.off++;
      cjSkip(p);
      if (!cjValue(child, p)) return false;
      children.push(child);
      cjSkip(p);
    } while (p.off < p.n && p.b[p.off] === 0x2c);
    if (p.off >= p.n || p.b[p.off] !== 0x7d) return false;
  }
  p.depth--;
  item.t = 'object';
  item.c = children;
  p.off++;
  return true;
}

function bytesEqualAscii(bytes, text) {
  if (bytes.length !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[i] !== text.charCodeAt(i)) return false;
  return true;
}

// cJSON_GetObjectItemCaseSensitive: the first member with that key (arrays
// and scalars have none).
function cjGet(node, key) {
  if (!node || node.t !== 'object') return null;
  return node.c.find((child) => bytesEqualAscii(child.k, key)) ?? null;
}

// The exact decimal expansion of a finite x > 0: value = D * 10^-k.
function exactDecimal(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e = -1074;
  if (biased !== 0) {
    mant |= 1n << 52n;
    e = biased - 1075;
  }
  if (e >= 0) return { D: mant << BigInt(e), k: 0 };
  return { D: mant * 5n ** BigInt(-e), k: -e };
}

// printf("%1.<P>g", x) as glibc prints it: exact value, ties to even.
function formatG(x, P) {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const sign = x < 0 ? '-' : '';
  const { D, k } = exactDecimal(Math.abs(x));
  let ds = D.toString();
  let X = ds.length - 1 - k;
  if (ds.length > P) {
    const keep = ds.slice(0, P);
    const rest = ds.slice(P);
    const first = rest.charCodeAt(0) - 48;
    const up =
      first > 5 ||
      (first === 5 && (/[1-9]/.test(rest.slice(1)) || (keep.charCodeAt(P - 1) - 48) % 2 === 1));
    ds = (BigInt(keep) + (up ? 1n : 0n)).toString();
    if (ds.length > P) {
      ds = ds.slice(0, P);
      X += 1;
    }
  } else {
    ds = ds.padEnd(P, '0');
  }
  const trim = (frac) => frac.replace(/0+$/, '');
  if (X < -4 || X >= P) {
    const frac = trim(ds.slice(1));
    const ax = Math.abs(X);
    return `${sign}${ds[0]}${frac ? `.${frac}` : ''}e${X < 0 ? '-' : '+'}${ax < 10 ? `0${ax}` : ax}`;
  }
  const int = X >= 0 ? ds.slice(0, X + 1) : '0';
  const frac = trim(X >= 0 ? ds.slice(X + 1) : '0'.repeat(-X - 1) + ds);
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

function cjNumberText(d) {
  if (!Number.isFinite(d)) return 'null';
  const short = formatG(d, 15);
  const back = Number(short);
  const max = Math.max(Math.abs(back), Math.abs(d));
  return Math.abs(back - d) <= max * Number.EPSILON ? short : formatG(d, 17);
}

// A growable byte buffer.
class ByteWriter {
  constructor() {
    this.buf = new Uint8Array(1024);
    this.len = 0;
  }

  room(n) {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.buf.subarray(0, this.len));
    this.buf = bigger;
  }

  push(...bytes) {
    this.room(bytes.length);
    for (const c of bytes) this.buf[this.len++] = c;
  }

  bytes(src) {
    this.room(src.length);
    this.buf.set(src, this.len);
    this.len += src.length;
  }

  result() {
    return this.buf.slice(0, this.len);
  }
}

const HEX = '0123456789abcdef';
const needsEscape = (c) => c < 32 || c === 0x22 || c === 0x5c;

function cjPrintString(bytes, out) {
  out.push(0x22);
  if (!bytes.some(needsEscape)) {
    out.bytes(bytes);
    out.push(0x22);
    return;
  }
  for (const c of bytes) {
    if (!needsEscape(c)) out.push(c);
    else if (c === 0x22 || c === 0x5c) out.push(0x5c, c);
    else if (c === 0x08) out.push(0x5c, 0x62);
    else if (c === 0x0c) out.push(0x5c, 0x66);
    else if (c === 0x0a) out.push(0x5c, 0x6e);
    else if (c === 0x0d) out.push(0x5c, 0x72);
    else if (c === 0x09) out.push(0x5c, 0x74);
    else out.push(0x5c, 0x75, 0x30, 0x30, HEX.charCodeAt(c >> 4), HEX.charCodeAt(c & 15));
  }
  out.push(0x22);
}

function cjPrintAscii(text, out) {
  out.room(text.length);
  for (let i = 0; i < text.length; i++) out.buf[out.len++] = text.charCodeAt(i);
}

function cjPrintValue(node, out) {
  switch (node.t) {
    case 'null':
    case 'false':
    case 'true':
      cjPrintAscii(node.t, out);
      break;
    case 'number':
      cjPrintAscii(cjNumberText(node.v), out);
      break;
    case 'string':
      cjPrintString(node.v, out);
      break;
    case 'array':
      out.push(0x5b);
      node.c.forEach((child, i) => {
        if (i) out.push(0x2c);
        cjPrintValue(child, out);
      });
      out.push(0x5d);
      break;
    default:
      out.push(0x7b);
      node.c.forEach((child, i) => {
        if (i) out.push(0x2c);
        cjPrintString(child.k, out);
        out.push(0x3a);
        cjPrintValue(child, out);
      });
      out.push(0x7d);
  }
}

// cJSON_PrintUnformatted.
function cjsonPrint(node) {
  const out = new ByteWriter();
  cjPrintValue(node, out);
  return out.result();
}

// ---- toolsift session run | replay | menu | prompt (cli/session_cmd.c) ------

const SESSION_USAGE = 'usage: toolsift session run|replay|menu|prompt --config CONFIG.json [options]\n';
const SESSION_OPTIONS = {
  '--config': 'config',
  '--calls': 'calls',
  '--journal': 'journal',
  '--journal-out': 'journalOut',
  '--divergence': 'divergence',
  '--format': 'format',
  '--index': 'index',
};

const text = (s) => Buffer.from(s, 'utf8');

// cli_read_file: the whole file, or null after "toolsift: io: cannot read …".
// `file` may be bytes (a catalog path taken from the configuration).
async function readOrReport(file) {
  try {
    return await readFile(typeof file === 'string' ? file : Buffer.from(file));
  } catch (e) {
    const name = typeof file === 'string' ? text(file) : Buffer.from(file);
    const why = e.code === 'EISDIR' ? '' : `: ${ERRNO_TEXT[e.code] ?? e.message}`;
    process.stderr.write(Buffer.concat([text('toolsift: io: cannot read '), name, text(`${why}\n`)]));
    return null;
  }
}

// load_config: the configuration bytes with "catalog": "path" replaced by the
// catalog file's JSON (re-serialised as cJSON does), or null after a message.
async function loadSessionConfig(file) {
  const cfgText = await readOrReport(file);
  if (!cfgText) return null;
  const cfg = cjsonParse(cfgText);
  const catalog = cjGet(cfg, 'catalog');
  if (!catalog || catalog.t !== 'string') return cfgText; // the core reports any problem
  const rel = catalog.v;
  const pathBytes = text(file);
  const slash = pathBytes.lastIndexOf(0x2f);
  const dir = rel[0] === 0x2f || slash < 0 ? 0 : slash + 1;
  const catPath = Buffer.concat([pathBytes.subarray(0, dir), rel]);
  const catText = await readOrReport(catPath);
  if (!catText) return null;
  const cat = cjsonParse(catText);
  if (!cat) {
    process.stderr.write(
      Buffer.concat([text('toolsift: json: catalog file '), Buffer.from(rel), text(' is not valid JSON\n')]),
    );
    return null;
  }
  cat.k = catalog.k;
  cfg.c[cfg.c.indexOf(catalog)] = cat;
  return cjsonPrint(cfg);
}

const CALLS_LINE_MESSAGE =
  'expected {"turn": integer, "call": integer, "tool": string, "args": {…}}';

// run_calls: every line of CALLS through the session; 0 when all went through.
function runCalls(session, calls, stdout) {
  let rc = 0;
  let pos = 0;
  let lineNo = 0;
  while (pos < calls.length) {
    let end = calls.indexOf(0x0a, pos);
    if (end < 0) end = calls.length;
    lineNo++;
    const line = calls.subarray(pos, end);
    pos = end + 1;
    let blank = 0;
    while (blank < line.length && (line[blank] === 0x20 || line[blank] === 0x09 || line[blank] === 0x0d)) blank++;
    if (blank === line.length) continue;
    const c = cjsonParse(line);
    const turn = cjGet(c, 'turn');
    const call = cjGet(c, 'call');
    const tool = cjGet(c, 'tool');
    const args = cjGet(c, 'args');
    if (!c || c.t !== 'object' || turn?.t !== 'number' || call?.t !== 'number' || tool?.t !== 'string' ||
        turn.v < 0 || call.v < 0 || turn.v > 4294967295 || call.v > 4294967295) {
      process.stderr.write(`toolsift: calls line ${lineNo}: ${CALLS_LINE_MESSAGE}\n`);
      rc = 1;
      continue;
    }
    const argsText = args ? cjsonPrint(args) : text('{}');
    try {
      stdout.push(session._callBytes(Math.trunc(turn.v), Math.trunc(call.v), tool.v, argsText), NEWLINE);
    } catch (e) {
      if (!(e instanceof ToolsiftError)) throw e;
      process.stderr.write(`toolsift: ${e.code}: calls line ${lineNo}: ${e.message}\n`);
      rc = 1;
    }
  }
  return rc;
}

const NEWLINE = Buffer.from('\n');

function sessionError(e) {
  if (!(e instanceof ToolsiftError)) throw e;
  process.stderr.write(`toolsift: ${e.code}: ${e.message}\n`);
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
  if (!isRun && !isReplay && !isMenu && !isPrompt) {
    process.stderr.write(`toolsift: session: unknown subcommand ${sub} (run, replay, menu, prompt)\n`);
    return 2;
  }
  if (o.config === undefined || ((isRun || isReplay) && o.calls === undefined) ||
      (isReplay && o.journal === undefined)) {
    process.stderr.write(
      'toolsift: session: run needs --config and --calls; replay also --journal; menu needs --config\n',
    );
    return 2;
  }
  if (o.divergence !== undefined && !['fail', 'warn', 'off'].includes(o.divergence)) {
    process.stderr.write('toolsift: session: --divergence must be fail, warn or off\n');
    return 2;
  }
  const cfg = await loadSessionConfig(o.config);
  if (!cfg) return 1;
  // Both files are read (and both failures reported) before either is checked.
  const jtext = o.journal !== undefined ? await readOrReport(o.journal) : null;
  const ctext = o.calls !== undefined ? await readOrReport(o.calls) : null;
  const snap = o.index !== undefined ? await readOrReport(o.index) : null;
  if ((o.journal !== undefined && !jtext) || (o.calls !== undefined && !ctext) ||
      (o.index !== undefined && !snap)) return 1;

  const ts = await loadModule();
  let s;
  try {
    s = ts.createSession(cfg, { journal: jtext ?? undefined, divergence: o.divergence, snapshot: snap ?? undefined });
  } catch (e) {
    return sessionError(e);
  }
  const stdout = [];
  let rc = 0;
  try {
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
  const opts = Buffer.concat([text('{'), ...parts, text('}')]);
  const ts = await loadModule();
  const out = call(() => ts.evalJSON(c, q, opts));
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
  if (!['search', 'rank', 'info', 'docs', 'verify'].includes(cmd)) {
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
