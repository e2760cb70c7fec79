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
  'diverged',
];
const STATUS_NOMEM = 6;
const STATUS_STATE = 8;
const STATUS_ARG = 1;

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

function defaultSource() {
  let env;
  try {
    env = isNode() ? globalThis.process.env?.TOOLSIFT_WASM : undefined;
  } catch {
    /* Deno without --allow-env throws on env access: use the default */
  }
  if (env) return env;
  return new URL('../build/wasm/toolsift.wasm', import.meta.url);
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
 * path (Node), or undefined for the package's build/wasm/toolsift.wasm
 * (env TOOLSIFT_WASM overrides that default in Node).
 */
export async function load(source) {
  const module = await compileFrom(source === undefined ? defaultSource() : source);
  const instance = await WebAssembly.instantiate(module, importsFor(module));
  const ex = instance.exports;
  // A WASI/Emscripten reactor runs its constructors in _initialize, once.
  if (typeof ex._initialize === 'function') ex._initialize();
  else if (typeof ex.__wasm_call_ctors === 'function') ex.__wasm_call_ctors();
  return new Toolsift(ex);
}

function optionsJson(pairs) {
  const obj = {};
  let any = false;
  for (const [k, v] of pairs) {
    if (v !== undefined) {
      obj[k] = v;
      any = true;
    }
  }
  return any ? JSON.stringify(obj) : null;
}

// Options of any call: a string is raw JSON passed verbatim; an object
// passes exactly the keys it has (undefined values dropped); null/undefined
// passes none.
function encodeOptions(options) {
  if (options === undefined || options === null) return null;
  if (typeof options === 'string') return encoder.encode(options);
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new ToolsiftError('arg', 'options must be an object or a JSON string', STATUS_ARG);
  }
  const json = optionsJson(Object.entries(options));
  return json === null ? null : encoder.encode(json);
}

function asBytes(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return encoder.encode(value);
}

// Frees index handles whose Index objects were dropped without free().
const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(({ ex, handle }) => {
        try {
          ex.tsift_wasm_index_free(handle);
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
   * or with `handleResult` the handle in slot 0. A nonzero status throws the
   * core's error as a ToolsiftError. Every buffer is freed on every path.
   */
  _call(inputs, call, { handleResult = false } = {}) {
    const ex = this.#ex;
    const ptrs = [];
    let out = 0;
    try {
      for (const bytes of inputs) ptrs.push(bytes === null ? 0 : this._put(bytes));
      out = ex.tsift_wasm_alloc(8);
      if (!out) throw new ToolsiftError('nomem', 'cannot allocate 8 bytes', STATUS_NOMEM);
      new Uint8Array(ex.memory.buffer, out, 8).fill(0);
      const status = call(ptrs, out) >>> 0;
      const view = new DataView(ex.memory.buffer);
      const a = view.getUint32(out, true);
      const b = view.getUint32(out + 4, true);
      if (status === 0 && handleResult) return a;
      let bytes = null;
      if (a) {
        bytes = new Uint8Array(ex.memory.buffer, a, b).slice();
        ex.tsift_wasm_free(a);
      }
      if (status !== 0) throw errorFrom(status, bytes);
      return bytes ?? new Uint8Array(0);
    } finally {
      for (const p of ptrs) if (p) ex.tsift_wasm_free(p);
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

  /** Analyse `text` as a query: { tokens, stopwords, terms }. */
  analyze(text, opts = {}) {
    return JSON.parse(this.analyzeJSON(text, opts));
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
    registry?.register(this, { ex, handle }, this.#token);
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
    const o = encodeOptions(options);
    const bytes = this.#ts._call([q, o], ([qp, op], out) =>
      this.#ex.tsift_wasm_index_search(h, qp, q.length, op, o ? o.length : 0, out),
    );
    return decoder.decode(bytes);
  }

  /** Search and parse: { query, terms, hits, unmatched, tainted?, analysis? }. */
  search(query, options) {
    return JSON.parse(this.searchJSON(query, options));
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
