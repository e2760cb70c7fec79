// toolsift.js — the ESM binding over the toolsift WebAssembly module.
//
// Owns: loading the module (Module, bytes, URL or the package's default
// file), moving UTF-8 buffers across the ABI of wasm/abi.c, wrapping index
// handles (free() plus a FinalizationRegistry backstop) and turning error JSON
// into ToolsiftError. No ranking or analysis lives here: everything the core
// can own, the core owns, so every host gets the same bytes.
//
// Works unchanged in Node, Deno, Bun, browsers and Cloudflare workerd (which
// must be handed an already compiled WebAssembly.Module).

const STATUS_NAMES = [
  'ok', 'arg', 'json', 'utf8', 'config', 'limit', 'nomem', 'snapshot', 'state', 'ranker',
  'diverged', 'tampered', 'model',
];
const STATUS_NOMEM = 6;
const STATUS_STATE = 8;
const STATUS_ARG = 1;
const STATUS_CONFIG = 4;
const STATUS_SNAPSHOT = 7;
const STATUS_RANKER = 9;

const encoder = new TextEncoder();
// ignoreBOM keeps output bytes exactly as the core wrote them.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** An error reported by the core (or by this binding before calling it). */
export class ToolsiftError extends Error {
  constructor(code, message, status) {
    super(message);
    this.name = 'ToolsiftError';
    this.code = code;
    this.status = status;
  }
}

function statusCode(status) {
  return STATUS_NAMES[status] ?? 'unknown';
}

const isNode = () => typeof globalThis.process?.versions?.node === 'string';

// Resolved lazily: a static `import 'node:fs'` would break browsers and
// workerd, and a variable specifier keeps bundlers from trying to resolve it.
async function nodeFs() {
  const spec = 'node:fs/promises';
  return import(spec);
}

// Where load() looks without a source: the packaged module (dist/, copied
// there by `npm pack`'s prepack script; bundlers see this literal
// `new URL(…, import.meta.url)` and emit the file), then the build output of
// a source checkout (a variable, so bundlers leave it alone).
const BUILD_WASM = '../build/wasm/toolsift.wasm';

// env TOOLSIFT_WASM in Node and Bun; in Deno only when env access is already
// granted (reading it otherwise would prompt on a terminal or throw).
function envWasm() {
  try {
    const deno = globalThis.Deno;
    if (deno) {
      const perm = deno.permissions?.querySync?.({ name: 'env', variable: 'TOOLSIFT_WASM' });
      return perm?.state === 'granted' ? deno.env.get('TOOLSIFT_WASM') : undefined;
    }
    return isNode() ? globalThis.process.env?.TOOLSIFT_WASM : undefined;
  } catch {
    return undefined; /* no env access: use the default */
  }
}

function defaultSources() {
  const env = envWasm();
  if (env) return [env];
  return [new URL('../dist/toolsift.wasm', import.meta.url), new URL(BUILD_WASM, import.meta.url)];
}

// The first default location that loads; all their errors when none does.
async function compileDefault() {
  const sources = defaultSources();
  if (sources.length === 1) return compileFrom(sources[0]);
  const errors = [];
  for (const source of sources) {
    try {
      return await compileFrom(source);
    } catch (e) {
      errors.push(`${source}: ${e?.message ?? e}`);
    }
  }
  throw new Error(`no toolsift.wasm found (${errors.join('; ')})`);
}

// A string source is a URL when it carries a scheme ("file:", "https:", …);
// in Node a plain string is a file path (so TOOLSIFT_WASM=build/x.wasm works),
// elsewhere it is resolved against the page's location.
function toUrlOrPath(source) {
  if (source instanceof URL) return source;
  if (/^[A-Za-z][A-Za-z0-9+.-]+:/.test(source)) return new URL(source);
  if (isNode()) return { path: source };
  const base = globalThis.location?.href;
  return base ? new URL(source, base) : new URL(source);
}

async function compileFrom(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.compile(source);
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    return WebAssembly.compile(await source.arrayBuffer());
  }
  if (typeof source === 'string' || source instanceof URL) {
    const where = toUrlOrPath(source);
    if (!(where instanceof URL) || (where.protocol === 'file:' && isNode())) {
      const fs = await nodeFs();
      const bytes = await fs.readFile(where instanceof URL ? where : where.path);
      return WebAssembly.compile(bytes);
    }
    const res = await fetch(where);
    if (!res.ok) throw new Error(`HTTP ${res.status} for ${where.href}`);
    // compileStreaming needs the application/wasm content type; bytes always work.
    return WebAssembly.compile(await res.arrayBuffer());
  }
  throw new TypeError('wasm source must be a WebAssembly.Module, bytes, a URL or a string');
}

// The clang wasm32-wasi build imports nothing. The Emscripten standalone
// build imports a few `env` functions (emscripten_notify_memory_growth):
// they are notifications, so no-ops are correct. Any other function import
// gets a stub that reports ENOSYS (52) — nothing in the core does I/O, so a
// stray WASI import is dead code. Non-function imports cannot be faked.
function importsFor(module) {
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') {
      throw new ToolsiftError(
        'load',
        `unsupported wasm import ${imp.module}.${imp.name} (${imp.kind})`,
        -1,
      );
    }
    const ns = (imports[imp.module] ??= {});
    ns[imp.name] = imp.module === 'env' ? () => {} : () => 52;
  }
  return imports;
}

/**
 * Load the toolsift module. `source` may be a WebAssembly.Module, an
 * ArrayBuffer/typed array of bytes, a Response, a URL or URL string, a file
 * path (Node), or undefined for the package's dist/toolsift.wasm (then, in a
 * source checkout, build/wasm/toolsift.wasm; env TOOLSIFT_WASM overrides
 * both in Node).
 */
export async function load(source) {
  const module = await (source === undefined ? compileDefault() : compileFrom(source));
  const instance = await WebAssembly.instantiate(module, importsFor(module));
  const ex = instance.exports;
  // A WASI/Emscripten reactor runs its constructors in _initialize, once.
  if (typeof ex._initialize === 'function') ex._initialize();
  else if (typeof ex.__wasm_call_ctors === 'function') ex.__wasm_call_ctors();
  return new Toolsift(ex);
}

// "annotations" given as text or bytes (a vocabulary file as it was read)
// goes in verbatim: the core's strict reader reads it, and its digest is of
// what the file says, not of what JSON.parse kept (docs/learning.md).
function optionsJson(pairs) {
  const parts = [];
  for (const [k, v] of pairs) {
    if (v === undefined) continue;
    const raw = k === 'annotations' && (typeof v === 'string' || isBytes(v));
    parts.push(`${JSON.stringify(k)}:${raw ? (typeof v === 'string' ? v : decoder.decode(asBytes(v))) : JSON.stringify(v)}`);
  }
  return parts.length ? `{${parts.join(',')}}` : null;
}

// Options of any call: a string is raw JSON passed verbatim; an object
// passes exactly the keys it has (undefined values dropped); null/undefined
// passes none.
function encodeOptions(options) {
  if (options === undefined || options === null) return null;
  if (typeof options === 'string') return encoder.encode(options);
  if (options instanceof Uint8Array) return options; /* raw JSON bytes, verbatim */
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new ToolsiftError('arg', 'options must be an object or a JSON string', STATUS_ARG);
  }
  const json = optionsJson(Object.entries(options));
  return json === null ? null : encoder.encode(json);
}

/** A vector as the core reads it: base64 of float32 little-endian. */
export function vectorBase64(vector) {
  const f = vector instanceof Float32Array ? vector : Float32Array.from(vector);
  const b = new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
  let bin = '';
  for (let i = 0; i < b.length; i++) bin += String.fromCharCode(b[i]);
  return btoa(bin);
}

// Search options with a numeric "vector" as base64 (exact float32, and a
// fraction of the JSON text of the numbers).
function withVectorText(options) {
  if (!options || typeof options !== 'object' || isBytes(options) || options.vector === undefined) return options;
  const v = options.vector;
  if (typeof v === 'string' || v === null) return options;
  return { ...options, vector: vectorBase64(v) };
}

function asBytes(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return encoder.encode(value);
}

// Frees index and session handles whose objects were dropped without free().
// `release` names the export that frees the handle.
const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(({ ex, handle, release }) => {
        try {
          ex[release](handle);
        } catch {
          /* the instance is gone: nothing left to free */
        }
      })
    : null;

/** One instance of the module. Cheap to keep; make indexes with createIndex. */
export class Toolsift {
  #ex;

  constructor(exports) {
    this.#ex = exports;
    const ptr = exports.tsift_wasm_version();
    const mem = new Uint8Array(exports.memory.buffer);
    let end = ptr;
    while (end < mem.length && mem[end] !== 0) end++;
    /** The core's version string, e.g. "0.1.0". */
    this.version = decoder.decode(mem.subarray(ptr, end));
  }

  /** The module's linear memory (for diagnostics; views of it go stale after any call). */
  get memory() {
    return this.#ex.memory;
  }

  // Copy bytes into a fresh linear-memory buffer; the caller frees it.
  _put(bytes) {
    const ptr = this.#ex.tsift_wasm_alloc(bytes.length);
    if (!ptr) throw new ToolsiftError('nomem', `cannot allocate ${bytes.length} bytes`, STATUS_NOMEM);
    // Re-read memory.buffer: the allocation may have grown it.
    new Uint8Array(this.#ex.memory.buffer, ptr, bytes.length).set(bytes);
    return ptr;
  }

  /**
   * Run one ABI call. `inputs` are byte arrays copied into linear memory (or
   * null for "absent": ptr 0, len 0); `call(ptrs, out)` invokes the export
   * with the 8-byte out area. Returns the output bytes (copied out and freed),
   * or with `handleResult` the handle in slot 0, or with `nullable` null
   * when the export wrote no buffer. A nonzero status throws the
   * core's error as a ToolsiftError. Every buffer is freed on every path,
   * except input number `taken` once the export has been called: that export
   * takes the buffer over (it keeps it or frees it itself).
   */
  _call(inputs, call, { handleResult = false, nullable = false, taken = -1 } = {}) {
    const ex = this.#ex;
    const ptrs = [];
    let out = 0;
    let called = false; // once called, input `taken` belongs to the module
    try {
      for (const bytes of inputs) ptrs.push(bytes === null ? 0 : this._put(bytes));
      out = ex.tsift_wasm_alloc(8);
      if (!out) throw new ToolsiftError('nomem', 'cannot allocate 8 bytes', STATUS_NOMEM);
      new Uint8Array(ex.memory.buffer, out, 8).fill(0);
      called = true;
      const status = call(ptrs, out) >>> 0;
      const view = new DataView(ex.memory.buffer);
      const a = view.getUint32(out, true);
      const b = view.getUint32(out + 4, true);
      if (status === 0 && handleResult) return a;
      if (status === 0 && nullable && !a) return null;
      let bytes = null;
      if (a) {
        bytes = new Uint8Array(ex.memory.buffer, a, b).slice();
        ex.tsift_wasm_free(a);
      }
      if (status !== 0) throw errorFrom(status, bytes);
      return bytes ?? new Uint8Array(0);
    } finally {
      ptrs.forEach((p, i) => p && !(called && i === taken) && ex.tsift_wasm_free(p));
      if (out) ex.tsift_wasm_free(out);
    }
  }

  /**
   * Build an index from a catalog (SPEC S1). `catalog` may be JSON text, the
   * raw bytes of JSON text (passed through untouched, so invalid UTF-8 is the
   * core's 'utf8' error), or a value that is JSON.stringify'd.
   * `options` (see tsift_index_build): { stopwords, ids, weights } — only
   * the keys given are passed — or a raw JSON string passed verbatim.
   * stopwords: undefined/null = built-in list, [] = none, or a word list.
   */
  createIndex(catalog, options) {
    if (options && typeof options === 'object' && !isBytes(options) && typeof options.embed === 'function') {
      return this.#createEmbedded(catalog, options);
    }
    if (options && typeof options === 'object' && !isBytes(options) && options.model instanceof StaticModel) {
      // createIndex(catalog, { model: staticModel, ...build options }): the
      // tools' vectors from the model, in the core (synchronous).
      const { model, ...rest } = options;
      const index = this.createIndex(catalog, rest);
      try {
        index.embedStatic(model);
      } catch (e) {
        index.free();
        throw e;
      }
      return index;
    }
    const bytes =
      typeof catalog === 'string' || catalog instanceof ArrayBuffer || ArrayBuffer.isView(catalog)
        ? asBytes(catalog)
        : asBytes(JSON.stringify(catalog) ?? '');
    const o = encodeOptions(options);
    const ex = this.#ex;
    const handle = this._call(
      [bytes, o],
      ([cp, op], out) => ex.tsift_wasm_index_new(cp, bytes.length, op, o ? o.length : 0, out),
      { handleResult: true },
    );
    return new Index(this, ex, handle);
  }

  /**
   * Start a session (one agent run, SPEC S7). `config` is the session
   * configuration: an object (JSON.stringify'd), JSON text, or raw JSON bytes
   * passed through untouched. Its `catalog` must be a catalog object or array:
   * a catalog path is resolved only by the CLIs.
   * `journal`: recorded decisions to replay — JSON text (an array or JSON
   * Lines), raw bytes, or an array of decision objects. An empty journal is a
   * replay of a run that made no decision. `divergence`: 'fail' (default),
   * 'warn' or 'off'. `journalKey`: the HMAC key (16–64 bytes: a Uint8Array
   * or lowercase hex) that keys the journal's hash chain, for the journal
   * this session writes and the one it replays; `journalParent`: the last
   * chain digest (hex) of the journal this one continues (docs/reliability.md).
   * `ranker`: a host ranker { kind, rank(query, want) } that replaces BM25F
   * for live searches (see Session#call). It must be synchronous: a rank()
   * that throws, returns anything but an array, or returns a Promise is a
   * failed ranker, and the search is refused with search_unavailable.
   * `skillRanker`: the same for skills, when the configuration's
   * skills.discovery is 'search' or 'both' (SPEC S8).
   */
  createSession(config, options = {}) {
    return this._openSession(config, null, options);
  }

  // The catalog file a session configuration names (its "catalog" string),
  // as the core's strict JSON reader reads the configuration, or null. For
  // the CLI, which reads the file and hands it to _openSession.
  _sessionConfigCatalog(config) {
    const cfg = asBytes(config);
    const ex = this.#ex;
    const name = this._call([cfg], ([cp], out) => ex.tsift_wasm_session_config_catalog(cp, cfg.length, out), {
      nullable: true,
    });
    return name === null ? null : decoder.decode(name);
  }

  // createSession, with `catalog` the bytes of the catalog file the
  // configuration names ("catalog": "file"), or null (tsift_session_open).
  // `_optionsText` (the CLI's): the options JSON bytes as cli/session_cmd.c
  // composes them, handed to the core verbatim instead of the keys above
  // (its errors quote byte positions in that text), or null for none.
  _openSession(config, catalog, { journal, divergence, journalKey, journalParent, client, annotations, ranker, skillRanker, snapshot, _optionsText } = {}) {
    if (catalog !== null && !isBytes(catalog)) {
      throw new ToolsiftError('arg', 'createSession: a catalog file must be bytes', STATUS_ARG);
    }
    const kind = checkRanker(ranker);
    const skillKind = checkRanker(skillRanker, 'skillRanker');
    const cfg =
      typeof config === 'string' || config instanceof ArrayBuffer || ArrayBuffer.isView(config)
        ? asBytes(config)
        : asBytes(JSON.stringify(config) ?? '');
    let j = null;
    if (journal !== undefined && journal !== null) {
      if (Array.isArray(journal)) j = encoder.encode(JSON.stringify(journal));
      else if (typeof journal === 'string' || journal instanceof ArrayBuffer || ArrayBuffer.isView(journal)) {
        j = asBytes(journal);
      } else {
        throw new ToolsiftError(
          'arg',
          'createSession: journal must be JSON text, bytes or an array of decisions',
          STATUS_ARG,
        );
      }
      // The ABI reads a zero-length journal as "no journal"; the C API reads
      // an empty (non-NULL) journal as an empty record. Keep the C meaning.
      if (j.length === 0) j = encoder.encode('[]');
    }
    let o;
    if (_optionsText !== undefined) o = _optionsText === null ? null : asBytes(_optionsText);
    else {
      const options = { divergence, journalKey: keyHex(journalKey), journalParent, client, annotations };
      const json = optionsJson(Object.entries(options));
      o = json === null ? null : encoder.encode(json);
    }
    const ex = this.#ex;
    let handle;
    const hasSnapshot = snapshot !== undefined && snapshot !== null;
    if (hasSnapshot && !isBytes(snapshot)) {
      throw new ToolsiftError('arg', 'createSession: snapshot must be bytes (a Uint8Array or ArrayBuffer)', STATUS_ARG);
    }
    // One entry point (tsift_session_open): the catalog file's bytes and the
    // snapshot are each absent (ptr 0) when not given.
    const cat = catalog !== null ? asBytes(catalog) : null;
    const snap = hasSnapshot ? asBytes(snapshot) : null;
    handle = this._call(
      [cfg, cat, snap, j, o],
      ([cp, kp, sp, jp, op], out) =>
        ex.tsift_wasm_session_open(cp, cfg.length, kp, cat ? cat.length : 0, sp, snap ? snap.length : 0, jp,
          j ? j.length : 0, op, o ? o.length : 0, out),
      { handleResult: true },
    );
    const session = new Session(
      this,
      ex,
      handle,
      kind === null ? null : { ranker, kind },
      skillKind === null ? null : { ranker: skillRanker, kind: skillKind },
    );
    // Set before any search: the core refuses a ranker after the first one.
    const setters = [
      [kind, 'tsift_wasm_session_set_ranker'],
      [skillKind, 'tsift_wasm_session_set_skill_ranker'],
    ];
    for (const [k, fn] of setters) {
      if (k === null) continue;
      const kb = encoder.encode(`${k}\0`); // the export reads a C string
      try {
        this._call([kb], ([kp], out) => ex[fn](handle, kp, out));
      } catch (e) {
        session.free();
        throw e;
      }
    }
    return session;
  }

  /**
   * A learner of the catalog's vocabulary (docs/learning.md): `catalog` as
   * for createIndex (without a learned vocabulary: its own annotations count
   * as its text), `options` { index, minSessions, minClients, maxPerClient,
   * minShare, unverified: 'refuse' | 'skip' | 'accept', journalKey } or JSON
   * text. Returns a Learner.
   */
  createLearner(catalog, options) {
    const bytes =
      typeof catalog === 'string' || catalog instanceof ArrayBuffer || ArrayBuffer.isView(catalog)
        ? asBytes(catalog)
        : asBytes(JSON.stringify(catalog) ?? '');
    const o = encodeOptions(
      options && typeof options === 'object' && !isBytes(options) && options.journalKey !== undefined
        ? { ...options, journalKey: keyHex(options.journalKey) }
        : options,
    );
    const ex = this.#ex;
    const handle = this._call(
      [bytes, o],
      ([cp, op], out) => ex.tsift_wasm_learner_new(cp, bytes.length, op, o ? o.length : 0, out),
      { handleResult: true },
    );
    return new Learner(this, ex, handle);
  }

  /**
   * The core's one reader of a journal key (a key file's text, an
   * environment variable): throws ToolsiftError 'config' naming `where` and
   * what is wrong when it is not 32 to 128 lowercase hex digits — empty,
   * white space, a NUL byte included. A host that was given a key source
   * checks it here, so an empty one is an error, not "no key".
   */
  checkJournalKey(text, where = 'journal key') {
    if (typeof where !== 'string' || where.includes('\0')) throw new ToolsiftError('arg', 'checkJournalKey: where must be a string', STATUS_ARG);
    const t = typeof text === 'string' ? encoder.encode(text) : textOrBytes(text);
    const w = encoder.encode(`${where}\0`);
    this._call([t, w], ([tp, wp], out) => this.#ex.tsift_wasm_journal_key_check(tp, t.length, wp, out));
  }

  /**
   * What vocabulary `next` would change against `previous` (each JSON text,
   * bytes or an object), for review: the core's JSON as text.
   */
  learnDiffJSON(previous, next) {
    const enc = (v) => (typeof v === 'string' || isBytes(v) ? textOrBytes(v) : encoder.encode(JSON.stringify(v)));
    const a = enc(previous);
    const b = enc(next);
    const ex = this.#ex;
    return decoder.decode(
      this._call([a, b], ([ap, bp], out) => ex.tsift_wasm_learn_diff(ap, a.length, bp, b.length, out)),
    );
  }

  /** learnDiffJSON, parsed. */
  learnDiff(previous, next) {
    return JSON.parse(this.learnDiffJSON(previous, next));
  }

  /**
   * Load an index from a snapshot (SPEC S11) made by Index#snapshot() or by
   * `toolsift build`: bytes (Uint8Array, Buffer, ArrayBuffer or another
   * view), no re-analysis. A snapshot of another format, ranker, analyser or
   * Unicode version, or a truncated or corrupted one, throws code 'snapshot'.
   */
  indexFromSnapshot(bytes) {
    if (!isBytes(bytes)) {
      throw new ToolsiftError('arg', 'indexFromSnapshot: the snapshot must be bytes (a Uint8Array or ArrayBuffer)', STATUS_ARG);
    }
    const b = asBytes(bytes);
    const ex = this.#ex;
    // The module takes the copied snapshot over (no second copy inside).
    const handle = this._call(
      [b],
      ([bp], out) => ex.tsift_wasm_index_from_snapshot_take(bp, b.length, out),
      { handleResult: true, taken: 0 },
    );
    return new Index(this, ex, handle);
  }

  /**
   * indexFromSnapshot over a stream of `length` bytes (a ReadableStream, e.g.
   * a fetch Response's body, or an async iterable of Uint8Array chunks),
   * written straight into linear memory chunk by chunk: the snapshot is never
   * whole in JavaScript memory, which keeps a big catalog inside an edge
   * isolate's memory limit (examples/edge-worker). A stream longer or shorter
   * than `length` throws code 'snapshot'.
   */
  async indexFromSnapshotStream(stream, length) {
    if (!Number.isSafeInteger(length) || length < 0 || length > 0xffffffff) {
      throw new ToolsiftError('arg', 'indexFromSnapshotStream: length must be a byte count', STATUS_ARG);
    }
    const ex = this.#ex;
    const ptr = ex.tsift_wasm_alloc(length);
    if (!ptr) throw new ToolsiftError('nomem', `cannot allocate ${length} bytes`, STATUS_NOMEM);
    let at = 0;
    try {
      const reader = typeof stream?.getReader === 'function' ? stream.getReader() : null;
      const iter = reader ? null : stream?.[Symbol.asyncIterator]?.();
      if (!reader && !iter) throw new ToolsiftError('arg', 'indexFromSnapshotStream: expected a ReadableStream or an async iterable', STATUS_ARG);
      for (;;) {
        const { done, value } = reader ? await reader.read() : await iter.next();
        if (done) break;
        const chunk = asBytes(value);
        if (chunk.length > length - at) {
          reader?.cancel().catch(() => {});
          throw new ToolsiftError('snapshot', `snapshot: the stream is longer than ${length} bytes`, STATUS_SNAPSHOT);
        }
        new Uint8Array(ex.memory.buffer, ptr + at, chunk.length).set(chunk); // re-read: memory may have grown
        at += chunk.length;
      }
      if (at !== length) throw new ToolsiftError('snapshot', `snapshot: the stream ended after ${at} of ${length} bytes`, STATUS_SNAPSHOT);
    } catch (e) {
      ex.tsift_wasm_free(ptr);
      throw e;
    }
    let taken = false; // once called, the module owns the bytes (keeps or frees them)
    try {
      const handle = this._call([], (_, out) => {
        taken = true;
        return ex.tsift_wasm_index_from_snapshot_take(ptr, length, out);
      }, { handleResult: true });
      return new Index(this, ex, handle);
    } finally {
      if (!taken) ex.tsift_wasm_free(ptr);
    }
  }

  /** Analyse `text` as a query: { tokens, stopwords, terms }. */
  analyze(text, opts = {}) {
    return JSON.parse(this.analyzeJSON(text, opts));
  }

  // createIndex(catalog, { embed, model, ...build options }): the index, then
  // each tool's text (Index#embedTexts, the trust policy's) through embed
  // (sync or async, text -> numbers), then the vectors under `model`
  // (default "host"). Resolves to the index; embed stays its query embedder.
  async #createEmbedded(catalog, options) {
    const { embed, model = 'host', ...rest } = options;
    const index = this.createIndex(catalog, rest);
    try {
      const texts = index.embedTexts();
      const rows = [];
      for (const t of texts) rows.push(await embed(t.text));
      index.setVectors(model, rows);
      index.embed = embed;
      return index;
    } catch (e) {
      index.free();
      throw e;
    }
  }

  /**
   * Relevance evaluation JSON (SPEC S10): catalog (JSON or JSON Lines of
   * tools) and graded queries (JSON Lines), each a string or bytes; options
   * an object or JSON text ({index, worst, gates}); vectors (optional) the
   * JSON Lines of a model's vectors (docs/relevance.md, "Measuring a model"),
   * or a StaticModel that embeds the tools and every query.
   */
  evalJSON(catalog, queries, options, vectors) {
    const c = asBytes(catalog);
    const q = asBytes(queries);
    const o = encodeOptions(options);
    const ex = this.#ex;
    if (vectors instanceof StaticModel) {
      if (vectors._owner() !== this) {
        throw new ToolsiftError('arg', 'evalJSON: the model was loaded by another toolsift module (load one module for both)', STATUS_ARG);
      }
      const m = vectors._handle();
      return decoder.decode(this._call([c, q, o], ([cp, qp, op], out) =>
        ex.tsift_wasm_eval_model(cp, c.length, qp, q.length, m, op, o ? o.length : 0, out)));
    }
    const v = vectors === undefined || vectors === null ? null : asBytes(vectors);
    const bytes = this._call([c, q, o, v], ([cp, qp, op, vp], out) =>
      v
        ? ex.tsift_wasm_eval_vectors(cp, c.length, qp, q.length, vp, v.length, op, o ? o.length : 0, out)
        : ex.tsift_wasm_eval(cp, c.length, qp, q.length, op, o ? o.length : 0, out),
    );
    return decoder.decode(bytes);
  }

  /** The text table of an evaluation JSON, headed by `title`. */
  evalReport(evalJson, title = 'eval') {
    const j = encoder.encode(evalJson);
    const t = encoder.encode(`${title}\0`);
    const ex = this.#ex;
    const bytes = this._call([j, t], ([jp, tp], out) => ex.tsift_wasm_eval_report(jp, j.length, tp, out));
    return decoder.decode(bytes);
  }

  /** The core's analysis JSON, byte-exact. */
  analyzeJSON(text, options) {
    if (typeof text !== 'string') {
      throw new ToolsiftError('arg', 'analyze: text must be a string', STATUS_ARG);
    }
    const t = encoder.encode(text);
    const o = encodeOptions(options);
    const ex = this.#ex;
    const bytes = this._call([t, o], ([tp, op], out) =>
      ex.tsift_wasm_analyze(tp, t.length, op, o ? o.length : 0, out),
    );
    return decoder.decode(bytes);
  }

  /**
   * Load a model2vec-style static embedding (docs/semantic.md): the bytes of
   * its model.safetensors and its tokenizer.json (text or bytes). Returns a
   * StaticModel { id, dim, embed(text), embedJSON(text), free() }. A
   * malformed file throws the core's 'model' error (or 'json', 'limit').
   */
  loadStaticModel(safetensors, tokenizer, config, { sentenceTransformers = false } = {}) {
    if (!isBytes(safetensors)) {
      throw new ToolsiftError('arg', 'loadStaticModel: safetensors must be bytes (a Uint8Array or ArrayBuffer)', STATUS_ARG);
    }
    if (typeof tokenizer !== 'string' && !isBytes(tokenizer)) {
      throw new ToolsiftError('arg', 'loadStaticModel: tokenizer must be tokenizer.json text or bytes', STATUS_ARG);
    }
    const st = asBytes(safetensors);
    const tok = textOrBytes(tokenizer);
    const ex = this.#ex;
    const handle = this._call(
      [st, tok],
      ([sp, tp], out) => ex.tsift_wasm_static_model_load_take(sp, st.length, tp, tok.length, sentenceTransformers ? 1 : 0, out),
      { handleResult: true, taken: 0 }, // the model keeps the file's buffer: one copy of the matrix
    );
    const model = new StaticModel(this, ex, handle);
    if (config !== undefined && config !== null) {
      // config.json's calibrated fusion parameters (tsift_static_model_configure)
      try {
        if (typeof config !== 'string' && !isBytes(config)) {
          throw new ToolsiftError('arg', 'loadStaticModel: config must be config.json text or bytes', STATUS_ARG);
        }
        const c = textOrBytes(config);
        this._call([c], ([cp], out) => ex.tsift_wasm_static_model_configure(handle, cp, c.length, out), { nullable: true });
      } catch (e) {
        model.free();
        throw e;
      }
    }
    return model;
  }

  /**
   * Fusion parameters proposed for a StaticModel on a catalog
   * (docs/semantic.md, "Calibrating a model"): the table it chose from as
   * text (`text: true`) or JSON. queries: graded JSON Lines, or null to
   * judge by the catalog's own descriptions.
   */
  calibrate(catalog, queries, model, { text = false } = {}) {
    if (!(model instanceof StaticModel) || model._owner() !== this) {
      throw new ToolsiftError('arg', 'calibrate: model must be a StaticModel loaded by this module', STATUS_ARG);
    }
    const c = asBytes(catalog);
    const q = queries === undefined || queries === null ? new Uint8Array(0) : asBytes(queries);
    const m = model._handle();
    const ex = this.#ex;
    return decoder.decode(this._call([c, q], ([cp, qp], out) =>
      ex.tsift_wasm_calibrate(cp, c.length, qp, q.length, m, text ? 1 : 0, out)));
  }
}

function errorFrom(status, bytes) {
  if (bytes && bytes.length) {
    try {
      const e = JSON.parse(decoder.decode(bytes));
      return new ToolsiftError(e.code ?? statusCode(status), e.message ?? '', e.status ?? status);
    } catch {
      /* fall through to a generic message */
    }
  }
  const code = statusCode(status);
  return new ToolsiftError(code, `toolsift call failed (${code})`, status);
}

/** A built index. Free it with free(); a finalizer frees it if you forget. */
export class Index {
  #ts;
  #ex;
  #handle;
  #token = {};

  constructor(ts, ex, handle) {
    this.#ts = ts;
    this.#ex = ex;
    this.#handle = handle;
    registry?.register(this, { ex, handle, release: 'tsift_wasm_index_free' }, this.#token);
  }

  #live() {
    if (!this.#handle) throw new ToolsiftError('state', 'index has been freed', STATUS_STATE);
    return this.#handle;
  }

  /**
   * The raw search JSON of the core, byte-for-byte as the CLI prints it.
   * `options`: { limit, explain } (only the keys given are passed), or raw
   * options JSON text passed verbatim.
   */
  searchJSON(query, options) {
    if (typeof query !== 'string') {
      throw new ToolsiftError('arg', 'search: query must be a string', STATUS_ARG);
    }
    const h = this.#live();
    const q = encoder.encode(query);
    const o = encodeOptions(withVectorText(options));
    const bytes = this.#ts._call([q, o], ([qp, op], out) =>
      this.#ex.tsift_wasm_index_search(h, qp, q.length, op, o ? o.length : 0, out),
    );
    return decoder.decode(bytes);
  }

  /** Search and parse: { query, terms, hits, unmatched, tainted?, analysis? }.
   * options.vector: the query's vector (numbers, a Float32Array or base64
   * float32), fused with BM25F (docs/relevance.md, "Semantic search"). */
  search(query, options) {
    return JSON.parse(this.searchJSON(query, options));
  }

  /** search, with the query embedded by this.embed (createIndex's) unless
   * options.vector is given. */
  async searchAsync(query, options = {}) {
    const o = typeof options === 'object' && options !== null ? { ...options } : {};
    if (o.vector === undefined && typeof this.embed === 'function') o.vector = await this.embed(query);
    return this.search(query, o);
  }

  /** The text a host embeds for each tool under the trust policy:
   * [{ id, trust, text }] in tool order. */
  embedTexts() {
    return JSON.parse(this.embedTextsJSON()).tools;
  }

  /** Raw JSON of embedTexts(): {"tools":[{"id","trust","text"}]}. */
  embedTextsJSON() {
    const h = this.#live();
    return decoder.decode(this.#ts._call([], (_, out) => this.#ex.tsift_wasm_index_embed_texts(h, out)));
  }

  /** Give the index one vector per tool (rows: arrays of numbers or
   * Float32Arrays, tool order) under `model` (1..64 printable ASCII). */
  /**
   * The tools' vectors from a StaticModel (tsift_index_embed_static: each
   * tool's embedTexts() text; a tool with no token the model knows gets no
   * vector). Returns how many tools were left without one. Afterwards
   * searchAsync embeds its query with the same model.
   */
  embedStatic(model) {
    const h = this.#live();
    if (!(model instanceof StaticModel)) throw new ToolsiftError('arg', 'embedStatic: model must be a StaticModel (loadStaticModel)', STATUS_ARG);
    if (model._owner() !== this.#ts) throw new ToolsiftError('arg', 'embedStatic: the model was loaded by another toolsift module (load one module for both)', STATUS_ARG);
    const m = model._handle();
    const ex = this.#ex;
    const without = this.#ts._call([], (_, out) => ex.tsift_wasm_index_embed_static(h, m, out), { handleResult: true });
    this.embed = (query) => model.queryVector(query);
    return without;
  }

  setVectors(model, rows) {
    const h = this.#live();
    if (typeof model !== 'string') throw new ToolsiftError('arg', 'setVectors: model must be a string', STATUS_ARG);
    if (!Array.isArray(rows) || !rows.length) throw new ToolsiftError('arg', 'setVectors: rows must be a non-empty array', STATUS_ARG);
    const dim = rows[0].length >>> 0;
    const flat = new Float32Array(rows.length * dim);
    rows.forEach((r, i) => {
      if (!r || r.length !== dim) {
        throw new ToolsiftError('config', `setVectors: row ${i} has ${r?.length} components, row 0 has ${dim}`, STATUS_CONFIG);
      }
      flat.set(r, i * dim);
    });
    const m = encoder.encode(model);
    const bytes = new Uint8Array(flat.buffer);
    this.#ts._call([m, bytes], ([mp, rp], out) =>
      this.#ex.tsift_wasm_index_set_vectors(h, mp, m.length, dim, rp, rows.length, out),
    );
  }

  /**
   * Batch ranking: `queriesJsonl` (text or bytes) holds lines
   * {"id":…,"query":"…"}; returns one line {"id":…,"hits":[…]}\n per query.
   */
  rank(queriesJsonl, k) {
    if (typeof queriesJsonl !== 'string' && !ArrayBuffer.isView(queriesJsonl) &&
        !(queriesJsonl instanceof ArrayBuffer)) {
      throw new ToolsiftError('arg', 'rank: queries must be a string or bytes', STATUS_ARG);
    }
    if (!Number.isInteger(k) || k < 0 || k > 0xffffffff) {
      throw new ToolsiftError('arg', 'rank: k must be a non-negative integer', STATUS_ARG);
    }
    const h = this.#live();
    const q = asBytes(queriesJsonl);
    const bytes = this.#ts._call([q], ([qp], out) =>
      this.#ex.tsift_wasm_index_rank(h, qp, q.length, k, out),
    );
    return decoder.decode(bytes);
  }

  /** Raw JSON of info(). */
  infoJSON() {
    const h = this.#live();
    return decoder.decode(this.#ts._call([], (_, out) => this.#ex.tsift_wasm_index_info(h, out)));
  }

  /** { tools, terms, ranker, fingerprint, fields }. */
  info() {
    return JSON.parse(this.infoJSON());
  }

  /**
   * Re-derive the fingerprint of an index loaded from a snapshot and compare
   * it with the one the snapshot states (loading trusts it once the checksum
   * matches; the checksum catches corruption, not a deliberate edit). Throws
   * code 'snapshot' when they differ. Costs about as much as the load.
   */
  verify() {
    const h = this.#live();
    this.#ts._call([], (_, out) => this.#ex.tsift_wasm_index_verify(h, out));
  }

  /** Raw JSON of documents(). */
  documentsJSON() {
    const h = this.#live();
    return decoder.decode(
      this.#ts._call([], (_, out) => this.#ex.tsift_wasm_index_documents(h, out)),
    );
  }

  /** The search document of every tool as the trust policy built it. */
  documents() {
    return JSON.parse(this.documentsJSON());
  }

  /**
   * The index as a versioned binary snapshot (SPEC S11): the same bytes as
   * the native `toolsift build` writes for the same catalog and options.
   * Load it with Toolsift#indexFromSnapshot (or Index.fromSnapshot).
   */
  snapshot() {
    const h = this.#live();
    return this.#ts._call([], (_, out) => this.#ex.tsift_wasm_index_snapshot(h, out));
  }

  /** Index.fromSnapshot(toolsift, bytes) is toolsift.indexFromSnapshot(bytes). */
  static fromSnapshot(toolsift, bytes) {
    if (!(toolsift instanceof Toolsift)) {
      throw new ToolsiftError('arg', 'Index.fromSnapshot: the first argument must be a loaded Toolsift', STATUS_ARG);
    }
    return toolsift.indexFromSnapshot(bytes);
  }

  /** Release the index. Safe to call more than once. */
  free() {
    if (!this.#handle) return;
    const h = this.#handle;
    this.#handle = 0;
    registry?.unregister(this.#token);
    this.#ex.tsift_wasm_index_free(h);
  }

  /** True once free() has run. */
  get freed() {
    return !this.#handle;
  }
}

const U32_MAX = 0xffffffff;
const MENU_FORMAT_MESSAGE = 'menu: format must be "mcp", "openai" or "anthropic"';

function checkU32(value, what) {
  if (!Number.isInteger(value) || value < 0 || value > U32_MAX) {
    throw new ToolsiftError('arg', `session call: ${what} must be an integer from 0 to ${U32_MAX}`, STATUS_ARG);
  }
}

// Tool names and arguments: text, or raw bytes passed through untouched.
function textOrBytes(value) {
  return typeof value === 'string' ? encoder.encode(value) : asBytes(value);
}

function isBytes(value) {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

const rankerArg = (what) => `createSession: ${what} must be { kind: string, rank(query, want) => string[] }`;

// A host ranker's shape, checked before the session is made. The kind's
// length and characters are the core's to check (1..64 bytes of UTF-8, no
// control characters); only a NUL is caught here, because the export reads
// the kind as a C string and would cut it there.
// Returns the kind (read once), or null for no ranker.
// A journal key as the core reads it (lowercase hex): bytes are encoded,
// text is passed through for the core to check.
function keyHex(key) {
  if (key === undefined || key === null || typeof key === 'string') return key ?? undefined;
  if (!isBytes(key)) throw new ToolsiftError('arg', 'createSession: journalKey must be bytes or hex text', STATUS_ARG);
  let hex = '';
  for (const b of asBytes(key)) hex += b.toString(16).padStart(2, '0');
  return hex;
}

function checkRanker(ranker, what = 'ranker') {
  if (ranker === undefined || ranker === null) return null;
  const kind = typeof ranker === 'object' ? ranker.kind : undefined;
  if (typeof kind !== 'string' || typeof ranker.rank !== 'function') {
    throw new ToolsiftError('arg', rankerArg(what), STATUS_ARG);
  }
  if (kind.includes('\0')) {
    throw new ToolsiftError('arg', `${what}: kind must not contain control characters`, STATUS_ARG);
  }
  return kind;
}

// Ask the host ranker: the JSON array text of its answer, or null when it
// failed (threw, or answered anything but an array — a Promise included).
// The core drops non-strings, clips the answer to `want` and intersects it
// with the universe, so nothing else is checked here.
// Nothing the ranker does may escape: an exception here would leave the
// core's search pending.
function askRanker(ranker, kind, query, want) {
  try {
    const answer = ranker.rank(query, want);
    if (Array.isArray(answer)) {
      // throws on a BigInt, a cycle, a throwing getter or toJSON
      return { ids: encoder.encode(JSON.stringify(answer)), error: null };
    }
    const promise = answer !== null && typeof answer?.then === 'function';
    // A rejected Promise nobody awaits would be an unhandled rejection.
    if (promise) Promise.resolve(answer).catch(() => {});
    const what = promise
      ? 'a Promise (rankers must be synchronous)'
      : answer === null
        ? 'null'
        : `a value of type ${typeof answer}`;
    return {
      ids: null,
      error: new ToolsiftError('ranker', `ranker "${kind}" answered ${what}, not an array of ids`, STATUS_RANKER),
    };
  } catch (e) {
    return { ids: null, error: e };
  }
}

/**
 * One agent run: the model-facing menu, the search meta-tool and the record
 * of decisions (SPEC S6, S7, S9). Made by Toolsift#createSession. Free it
 * with free(); a finalizer frees it if you forget.
 */
export class Session {
  #ts;
  #ex;
  #handle;
  #token = {};
  #ranker; // { ranker, kind } or null
  #skillRanker; // { ranker, kind } or null
  #rankerError = null;
  #cancelPending = false; // a failed ranking still to be ended (out of memory)
  #embedder = null; // the StaticModel of setEmbedder, kept alive while in use

  constructor(ts, ex, handle, ranker = null, skillRanker = null) {
    this.#ts = ts;
    this.#ex = ex;
    this.#handle = handle;
    this.#ranker = ranker;
    this.#skillRanker = skillRanker;
    registry?.register(this, { ex, handle, release: 'tsift_wasm_session_free' }, this.#token);
  }

  /**
   * Why the host ranker failed in the last call (what it threw, or a
   * ToolsiftError with code 'ranker' for an answer that is not an array),
   * or null. The call itself answers search_unavailable.
   */
  get rankerError() {
    return this.#rankerError;
  }

  #live() {
    if (!this.#handle) throw new ToolsiftError('state', 'session has been freed', STATUS_STATE);
    return this.#handle;
  }

  #run(inputs, call, options) {
    const h = this.#live();
    if (this.#cancelPending) this.#endPendingSearch();
    return this.#ts._call(inputs, (ptrs, out) => call(h, ptrs, out), options);
  }

  // The core's output bytes of one call (the CLI writes these as they are).
  _callBytes(turn, callIndex, tool, args) {
    this.#live();
    checkU32(turn, 'turn');
    checkU32(callIndex, 'call index');
    if (typeof tool !== 'string' && !isBytes(tool)) {
      throw new ToolsiftError('arg', 'session call: tool must be a string', STATUS_ARG);
    }
    let a;
    if (args === undefined) a = encoder.encode('{}');
    else if (typeof args === 'string' || isBytes(args)) a = textOrBytes(args);
    else {
      let text;
      try {
        text = JSON.stringify(args);
      } catch (e) {
        throw new ToolsiftError('arg', `session call: args: ${e.message}`, STATUS_ARG);
      }
      if (text === undefined) {
        throw new ToolsiftError('arg', 'session call: args must be an object or JSON text', STATUS_ARG);
      }
      a = encoder.encode(text);
    }
    const t = textOrBytes(tool);
    this.#rankerError = null;
    const bytes = this.#run([t, a], (h, [tp, ap], out) =>
      this.#ex.tsift_wasm_session_call(h, turn, callIndex, tp, t.length, ap, a.length, out),
    );
    return this.#answerRankings(bytes);
  }

  // Every call of a calls file (JSON Lines of {"turn","call","tool","args"}),
  // each line read by the core (tsift_session_call_next): per non-blank line
  // { bytes } (the call's output) or { error } (a ToolsiftError whose message
  // names the line; code 'config' for a line that is not a call). For the CLI.
  _callLines(calls) {
    this.#live();
    if (!isBytes(calls)) throw new ToolsiftError('arg', 'session calls: must be bytes', STATUS_ARG);
    const c = asBytes(calls);
    const ts = this.#ts;
    const ex = this.#ex;
    const results = [];
    let cp = 0;
    let cursor = 0;
    try {
      cp = ts._put(c);
      cursor = ts._put(new Uint8Array(8)); // (position, line): both 0 to start
      const position = () => new DataView(ex.memory.buffer).getUint32(cursor, true);
      for (;;) {
        const before = position();
        this.#rankerError = null;
        let bytes;
        try {
          bytes = this.#run([], (h, _, out) => ex.tsift_wasm_session_call_next(h, cp, c.length, cursor, out), {
            nullable: true,
          });
          if (bytes !== null) bytes = this.#answerRankings(bytes);
        } catch (e) {
          // A line the core read and refused; anything else (no line read) ends the run.
          if (!(e instanceof ToolsiftError) || position() === before) throw e;
          results.push({ error: e });
          continue;
        }
        if (bytes === null) break;
        results.push({ bytes });
      }
    } finally {
      if (cp) ex.tsift_wasm_free(cp);
      if (cursor) ex.tsift_wasm_free(cursor);
    }
    return results;
  }

  #answerRankings(output) {
    let bytes = output;
    // Two-phase host ranking: while the core answers a ranking request
    // {"call","rank":{"kind","query","want"[,"of":"skills"]}}, ask the JS
    // ranker (or skill ranker) and hand its answer back (a widening round
    // asks again, at most 4 rounds per kind).
    while (this.#ranker || this.#skillRanker) {
      const request = JSON.parse(decoder.decode(bytes)).rank;
      if (request === undefined) break;
      const r = request.of === 'skills' ? this.#skillRanker : this.#ranker;
      const { ids, error } = askRanker(r.ranker, r.kind, request.query, request.want);
      if (error !== null) this.#rankerError = error;
      // The ranker may have freed the session: #run then throws 'state'.
      try {
        bytes = this.#run([ids], (h, [ip], out) =>
          this.#ex.tsift_wasm_session_ranked(h, ip, ids ? ids.length : 0, out),
        );
      } catch (e) {
        this.#cancelRanking();
        throw e;
      }
    }
    return bytes;
  }

  // After an error completing a ranking (out of memory) the core keeps the
  // search pending for a retry; JS cannot retry, so end it as a failed
  // ranking (its refusal is dropped) and the session stays usable. Ending
  // it needs memory too: while that is still out of memory the search stays
  // pending, and the next call of this session ends it first (or throws
  // NOMEM again), so no call meets a stuck 'state' error.
  #cancelRanking() {
    if (!this.#handle) return;
    this.#cancelPending = true;
    try {
      this.#endPendingSearch();
    } catch {
      /* still out of memory: #run tries again before the next call */
    }
  }

  #endPendingSearch() {
    const h = this.#live();
    try {
      this.#ts._call([null], (_, out) => this.#ex.tsift_wasm_session_ranked(h, 0, 0, out));
    } catch (e) {
      if (e instanceof ToolsiftError && e.code === 'nomem') throw e; // still pending
      /* 'state': nothing was pending */
    }
    this.#cancelPending = false;
  }

  /**
   * Handle one model tool call: turn `turn`, call `callIndex` of that turn,
   * the tool's name and its arguments (an object, or JSON text passed
   * verbatim; undefined = {}). Returns the core's output JSON, byte-exact:
   * {"call":{…},"result":{…},"decision":{…}|null[,"warnings":[…]]}.
   * With a host ranker, a live search calls ranker.rank(query, want)
   * synchronously (over-asked: want = page + tools it cannot know are
   * hidden; when the page comes back short from a full answer it is asked
   * again for twice as many, at most 4 rounds and 1000 ids) before this
   * returns. Replayed searches never call it.
   */
  /** The vector of the next search_tools query (numbers or a Float32Array;
   * null clears it), fused with BM25F; minSimilarity (-1..1) is the grade's
   * floor. The decision records "bm25f-N+vec:<model>". */
  setQueryVector(vector, minSimilarity = -2) {
    const f = vector === null || vector === undefined ? null : Float32Array.from(vector);
    const bytes = f ? new Uint8Array(f.buffer) : null;
    this.#run([bytes], (h, [vp], out) =>
      this.#ex.tsift_wasm_session_set_query_vector(h, vp, f ? f.length : 0, minSimilarity, out),
    );
  }

  /** A StaticModel as the query embedder: every search_tools query the
   * built-in ranker answers is embedded with it (in the core) and fused,
   * unless setQueryVector gave one for that search. The index's vectors
   * must be the model's (createIndex(catalog, { model }) or its snapshot);
   * a session over its own catalog is embedded with the model here.
   * minSimilarity as for setQueryVector. null unsets it. While set, the
   * model cannot be freed. */
  setEmbedder(model, minSimilarity = -2) {
    if (model !== null && !(model instanceof StaticModel)) {
      throw new ToolsiftError('arg', 'setEmbedder: model must be a StaticModel (loadStaticModel) or null', STATUS_ARG);
    }
    if (model && model._owner() !== this.#ts) {
      throw new ToolsiftError('arg', 'setEmbedder: the model was loaded by another toolsift module (load one module for both)', STATUS_ARG);
    }
    const m = model ? model._handle() : 0;
    this.#run([], (h, _, out) => this.#ex.tsift_wasm_session_set_embedder(h, m, minSimilarity, out));
    this.#embedder?._unuse(this);
    this.#embedder = model;
    model?._use(this);
  }

  callJSON(turn, callIndex, tool, args) {
    return decoder.decode(this._callBytes(turn, callIndex, tool, args));
  }

  /**
   * Report that an allowed call to catalog tool `tool` (turn, callIndex)
   * failed (the tool answered an error): recorded in the journal, so that
   * learning does not take it for the tool the model needed.
   */
  callFailed(turn, callIndex, tool) {
    this.#live();
    checkU32(turn, 'turn');
    checkU32(callIndex, 'call index');
    if (typeof tool !== 'string') throw new ToolsiftError('arg', 'callFailed: tool must be a string', STATUS_ARG);
    const t = encoder.encode(tool);
    this.#run([t], (h, [tp], out) => this.#ex.tsift_wasm_session_call_failed(h, turn, callIndex, tp, t.length, out));
  }

  /**
   * Pre-search (docs/sessions.md): before the model's turn `turn`, search
   * `text` (the user's latest message) and load its strong hits onto the
   * menu, recorded as a decision of the host ("host-pre-search") and served
   * from the journal on replay. Raw JSON of preSearch().
   */
  preSearchJSON(turn, text) {
    this.#live();
    checkU32(turn, 'turn');
    if (typeof text !== 'string') throw new ToolsiftError('arg', 'preSearch: text must be a string', STATUS_ARG);
    const t = encoder.encode(text);
    return decoder.decode(this.#run([t], (h, [tp], out) => this.#ex.tsift_wasm_session_pre_search(h, turn, tp, t.length, out)));
  }

  /** preSearchJSON, parsed: { call: { turn, preSearch: true }, result, decision, warnings? }. */
  preSearch(turn, text) {
    return JSON.parse(this.preSearchJSON(turn, text));
  }

  /** "all" when every tool is on the menu and there is no search tool (search.auto), else "search". */
  get mode() {
    return this.metrics().mode;
  }

  /** callJSON, parsed: { call, result, decision, warnings? }. */
  call(turn, callIndex, tool, args) {
    return JSON.parse(this.callJSON(turn, callIndex, tool, args));
  }

  _menuBytes(format = 'mcp') {
    this.#live();
    if (typeof format !== 'string' || format.includes('\0')) {
      throw new ToolsiftError('arg', MENU_FORMAT_MESSAGE, STATUS_ARG);
    }
    const f = encoder.encode(`${format}\0`); // the export reads a C string
    return this.#run([f], (h, [fp], out) => this.#ex.tsift_wasm_session_menu(h, fp, out));
  }

  /** The menu JSON: 'mcp' ({"tools":[…]}), 'openai' or 'anthropic' (arrays). */
  menuJSON(format = 'mcp') {
    return decoder.decode(this._menuBytes(format));
  }

  /** menuJSON, parsed. */
  menu(format = 'mcp') {
    return JSON.parse(this.menuJSON(format));
  }

  _journalBytes() {
    return this.#run([], (h, _, out) => this.#ex.tsift_wasm_session_journal(h, out));
  }

  /** The decisions recorded so far as JSON Lines (empty when none). */
  journalJSONL() {
    return decoder.decode(this._journalBytes());
  }

  /** The decisions recorded so far. */
  journal() {
    return this.journalJSONL()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  }

  /**
   * How the journal this session replays verifies: { verified, chained,
   * keyed, decisions, problems: [{ at, problem }] } (at 0: the journal as a
   * whole). Open with divergence 'off' or 'warn' to read every problem;
   * 'fail' throws 'tampered' on the first.
   */
  verify() {
    return JSON.parse(decoder.decode(this._verifyBytes()));
  }

  // verify()'s JSON bytes, as the core wrote them (the CLI prints them).
  _verifyBytes() {
    return this.#run([], (h, _, out) => this.#ex.tsift_wasm_session_verify(h, out));
  }

  /** Raw JSON of metrics(). */
  metricsJSON() {
    return decoder.decode(this.#run([], (h, _, out) => this.#ex.tsift_wasm_session_metrics(h, out)));
  }

  /**
   * The session's contribution to the system prompt (SPEC S8): the skill
   * index (one line per skill not selected up front, bounded, with a
   * "(+N more …)" marker) or, in 'search' discovery, one fixed line. Empty
   * when skills are off.
   */
  skillIndex() {
    return decoder.decode(this.#run([], (h, _, out) => this.#ex.tsift_wasm_session_skill_index(h, out)));
  }

  /** Counters without query text: searches, refusals, hits, rankerCalls, replayed, … */
  metrics() {
    return JSON.parse(this.metricsJSON());
  }

  /** The session fingerprint (sha256 hex of the catalog's documents and the configuration). */
  get fingerprint() {
    return this.metrics().fingerprint;
  }

  /**
   * Serve every remaining journal decision as the search it records: the
   * menu a recorded run ended with, without its calls.
   */
  applyJournal() {
    this.#run([], (h, _, out) => this.#ex.tsift_wasm_session_apply_journal(h, out));
  }

  /** Raw JSON of finish(). */
  finishJSON() {
    return decoder.decode(this.#run([], (h, _, out) => this.#ex.tsift_wasm_session_finish(h, out)));
  }

  /**
   * End of a replayed run: { unasked: [ids of journal decisions never asked
   * for] }. Throws code 'diverged' when any are left in 'fail' mode.
   */
  finish() {
    return JSON.parse(this.finishJSON());
  }

  /** Release the session. Safe to call more than once. */
  free() {
    if (!this.#handle) return;
    const h = this.#handle;
    this.#handle = 0;
    registry?.unregister(this.#token);
    this.#ex.tsift_wasm_session_free(h);
    this.#embedder?._unuse(this);
    this.#embedder = null;
  }

  /** True once free() has run. */
  get freed() {
    return !this.#handle;
  }
}

/**
 * A static-embedding model (tsift_static_model). embed(text) is a
 * Float32Array of `dim` components with norm 1, or null when the text has
 * no token the model knows (the zero vector: "no vector", never a match).
 * Free it with free(); a finalizer frees it if you forget.
 */
export class StaticModel {
  #ts;
  #ex;
  #handle;
  #token = {};
  #users = new Set(); // live sessions whose embedder this is

  constructor(ts, ex, handle) {
    this.#ts = ts;
    this.#ex = ex;
    this.#handle = handle;
    registry?.register(this, { ex, handle, release: 'tsift_wasm_static_model_free' }, this.#token);
    /** The embedding dimension. */
    this.dim = ex.tsift_wasm_static_model_dim(handle);
    const ptr = ex.tsift_wasm_static_model_id(handle);
    const mem = new Uint8Array(ex.memory.buffer);
    let end = ptr;
    while (end < mem.length && mem[end] !== 0) end++;
    /** The model's identity, for a ranker kind "bm25f-N+vec:<id>". */
    this.id = decoder.decode(mem.subarray(ptr, end));
  }

  #live() {
    if (!this.#handle) throw new ToolsiftError('state', 'static model has been freed', STATUS_STATE);
    return this.#handle;
  }

  #text(text, what) {
    if (typeof text !== 'string') throw new ToolsiftError('arg', `${what}: text must be a string`, STATUS_ARG);
    return encoder.encode(text);
  }

  /** The text's unit vector (Float32Array), or null for the zero vector. */
  embed(text) {
    const h = this.#live();
    const t = this.#text(text, 'embed');
    const ex = this.#ex;
    const bytes = this.#ts._call([t], ([tp], out) => ex.tsift_wasm_static_model_embed(h, tp, t.length, out), {
      nullable: true,
    });
    if (bytes === null) return null;
    return new Float32Array(bytes.buffer, bytes.byteOffset, this.dim).slice();
  }

  /** The text's vector as the search option "vector" takes it: a base64
   * string of float32s, or null when the model knows no token of it (the
   * search is then the lexical one). index.search(q, { vector: m.queryVector(q) }). */
  queryVector(text) {
    const h = this.#live();
    const t = this.#text(text, 'queryVector');
    const ex = this.#ex;
    return JSON.parse(decoder.decode(this.#ts._call([t], ([tp], out) => ex.tsift_wasm_static_model_vector_json(h, tp, t.length, out))));
  }

  /** @internal the model's handle and module, for Index#embedStatic. */
  _handle() {
    return this.#live();
  }

  /** @internal */
  _owner() {
    return this.#ts;
  }

  /** @internal sessions that embed their queries with this model (Session#setEmbedder) */
  _use(session) {
    this.#users.add(session);
  }

  /** @internal */
  _unuse(session) {
    this.#users.delete(session);
  }

  /** The core's embedding JSON (model, dim, tokens, pooled, vector), byte-exact as the CLI prints it. */
  embedJSON(text) {
    const h = this.#live();
    const t = this.#text(text, 'embedJSON');
    const ex = this.#ex;
    return decoder.decode(this.#ts._call([t], ([tp], out) => ex.tsift_wasm_static_model_embed_json(h, tp, t.length, out)));
  }

  /** Release the model. Safe to call more than once. Refused (code
   * 'state') while a live session embeds its queries with it. */
  free() {
    if (!this.#handle) return;
    if (this.#users.size) {
      throw new ToolsiftError('state', `static model: the embedder of ${this.#users.size} live session(s); free them or setEmbedder(null) first`, STATUS_STATE);
    }
    const h = this.#handle;
    this.#handle = 0;
    registry?.unregister(this.#token);
    this.#ex.tsift_wasm_static_model_free(h);
  }

  /** True once free() has run. */
  get freed() {
    return !this.#handle;
  }
}

/**
 * A learner of a catalog's vocabulary (docs/learning.md), from
 * Toolsift#createLearner: feed it journals and labelled examples in any
 * order, then finishJSON() gives the learned vocabulary (the index option
 * `annotations`). Free it with free(); a finalizer frees it if you forget.
 */
export class Learner {
  #ts;
  #ex;
  #handle;
  #token = {};

  constructor(ts, ex, handle) {
    this.#ts = ts;
    this.#ex = ex;
    this.#handle = handle;
    registry?.register(this, { ex, handle, release: 'tsift_wasm_learner_free' }, this.#token);
  }

  #live() {
    if (!this.#handle) throw new ToolsiftError('state', 'learner has been freed', STATUS_STATE);
    return this.#handle;
  }

  #add(fn, name, text) {
    const h = this.#live();
    if (typeof name !== 'string') throw new ToolsiftError('arg', 'learner: name must be a string', STATUS_ARG);
    if (typeof text !== 'string' && !isBytes(text)) {
      throw new ToolsiftError('arg', 'learner: the journal or examples must be text or bytes', STATUS_ARG);
    }
    const n = encoder.encode(`${name.replaceAll('\0', ' ')}\0`); // the export reads a C string
    const t = textOrBytes(text);
    const ex = this.#ex;
    this.#ts._call([n, t], ([np, tp], out) => ex[fn](h, np, tp, t.length, out));
  }

  /** One journal (JSON Lines a run wrote); `name` names it in errors. */
  addJournal(name, jsonl) {
    this.#add('tsift_wasm_learner_add_journal', name, jsonl);
  }

  /** Labelled examples (JSON Lines {"query", "relevance"}). */
  addExamples(name, jsonl) {
    this.#add('tsift_wasm_learner_add_examples', name, jsonl);
  }

  /** The learned vocabulary, the core's JSON bytes as text. */
  finishJSON() {
    const h = this.#live();
    const ex = this.#ex;
    return decoder.decode(this.#ts._call([], (_, out) => ex.tsift_wasm_learner_finish(h, out)));
  }

  /** finishJSON, parsed. */
  finish() {
    return JSON.parse(this.finishJSON());
  }

  /** Release the learner. Safe to call more than once. */
  free() {
    if (!this.#handle) return;
    const h = this.#handle;
    this.#handle = 0;
    registry?.unregister(this.#token);
    this.#ex.tsift_wasm_learner_free(h);
  }

  /** True once free() has run. */
  get freed() {
    return !this.#handle;
  }
}
