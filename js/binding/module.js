// module.js — Toolsift: one instance of the module. Runs every ABI call
// (_call: buffers into linear memory, the output out, every buffer freed,
// a nonzero status thrown as the core's error) and makes the handle
// objects: indexes, sessions, learners, static models.

import { ToolsiftError, errorFrom, STATUS_ARG, STATUS_NOMEM, STATUS_SNAPSHOT, STATUS_STATE } from './error.js';
import { encoder, decoder, optionsJson, encodeOptions, asBytes, isBytes, textOrBytes, jsonBytes, cString } from './bytes.js';
import { Index } from './index.js';
import { Session, checkRanker } from './session.js';
import { StaticModel } from './static-model.js';
import { Learner } from './learner.js';

// A journal key as the core reads it (lowercase hex): bytes are encoded,
// text is passed through for the core to check.
function keyHex(key) {
  if (key === undefined || key === null || typeof key === 'string') return key ?? undefined;
  if (!isBytes(key)) throw new ToolsiftError('arg', 'createSession: journalKey must be bytes or hex text', STATUS_ARG);
  let hex = '';
  for (const b of asBytes(key)) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** One instance of the module. Cheap to keep; make indexes with createIndex. */
export class Toolsift {
  #ex;

  constructor(exports) {
    this.#ex = exports;
    /** The core's version string, e.g. "0.1.0". */
    this.version = cString(exports, exports.tsift_wasm_version());
    /**
     * True for the serving module (toolsift-serving.wasm): everything but
     * evaluation, calibration and learning, which throw (wasm/exports.def).
     */
    this.serving = typeof exports.tsift_wasm_eval !== 'function';
  }

  // The exports of the full module only: the serving module leaves them out.
  #fullOnly(method) {
    if (this.serving) {
      throw new ToolsiftError(
        'state',
        `${method}: this is the serving module (toolsift-serving.wasm), without evaluation, calibration ` +
          'and learning; load the full module (toolsift.wasm) for them',
        STATUS_STATE,
      );
    }
    return this.#ex;
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
    return this.#made(Index, 'tsift_wasm_index_new', jsonBytes(catalog), encodeOptions(options));
  }

  // A handle object (Index, Learner) from an export that takes a catalog's
  // bytes and options JSON: fn(catalog, length, options, length, out).
  #made(Class, fn, bytes, o) {
    const ex = this.#ex;
    const handle = this._call(
      [bytes, o],
      ([cp, op], out) => ex[fn](cp, bytes.length, op, o ? o.length : 0, out),
      { handleResult: true },
    );
    return new Class(this, ex, handle);
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
    const cfg = jsonBytes(config);
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
    this.#fullOnly('createLearner');
    const bytes = jsonBytes(catalog);
    const o = encodeOptions(
      options && typeof options === 'object' && !isBytes(options) && options.journalKey !== undefined
        ? { ...options, journalKey: keyHex(options.journalKey) }
        : options,
    );
    return this.#made(Learner, 'tsift_wasm_learner_new', bytes, o);
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
    const ex = this.#fullOnly('learnDiffJSON');
    const a = enc(previous);
    const b = enc(next);
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
    const ex = this.#fullOnly('evalJSON');
    const c = asBytes(catalog);
    const q = asBytes(queries);
    const o = encodeOptions(options);
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
    const ex = this.#fullOnly('evalReport');
    const j = encoder.encode(evalJson);
    const t = encoder.encode(`${title}\0`);
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
    const ex = this.#fullOnly('calibrate');
    if (!(model instanceof StaticModel) || model._owner() !== this) {
      throw new ToolsiftError('arg', 'calibrate: model must be a StaticModel loaded by this module', STATUS_ARG);
    }
    const c = asBytes(catalog);
    const q = queries === undefined || queries === null ? new Uint8Array(0) : asBytes(queries);
    const m = model._handle();
    return decoder.decode(this._call([c, q], ([cp, qp], out) =>
      ex.tsift_wasm_calibrate(cp, c.length, qp, q.length, m, text ? 1 : 0, out)));
  }
}
