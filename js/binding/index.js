// index.js — Index: a built index (a handle of the module): search, rank,
// vectors, info, documents, snapshot. Made by Toolsift#createIndex or
// #indexFromSnapshot.

import { ToolsiftError, STATUS_ARG, STATUS_CONFIG } from './error.js';
import { encoder, decoder, encodeOptions, withVectorText, asBytes } from './bytes.js';
import { Handle } from './handle.js';
import { StaticModel } from './static-model.js';
import { Toolsift } from './module.js';

/** A built index. Free it with free(); a finalizer frees it if you forget. */
export class Index extends Handle {
  constructor(ts, ex, handle) {
    super(ts, ex, handle, 'tsift_wasm_index_free', 'index');
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
    const h = this._live();
    const q = encoder.encode(query);
    const o = encodeOptions(withVectorText(options));
    const bytes = this._owner()._call([q, o], ([qp, op], out) =>
      this._exports().tsift_wasm_index_search(h, qp, q.length, op, o ? o.length : 0, out),
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
    const h = this._live();
    return decoder.decode(this._owner()._call([], (_, out) => this._exports().tsift_wasm_index_embed_texts(h, out)));
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
    const h = this._live();
    if (!(model instanceof StaticModel)) throw new ToolsiftError('arg', 'embedStatic: model must be a StaticModel (loadStaticModel)', STATUS_ARG);
    if (model._owner() !== this._owner()) throw new ToolsiftError('arg', 'embedStatic: the model was loaded by another toolsift module (load one module for both)', STATUS_ARG);
    const m = model._handle();
    const ex = this._exports();
    const without = this._owner()._call([], (_, out) => ex.tsift_wasm_index_embed_static(h, m, out), { handleResult: true });
    this.embed = (query) => model.queryVector(query);
    return without;
  }

  setVectors(model, rows) {
    const h = this._live();
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
    this._owner()._call([m, bytes], ([mp, rp], out) =>
      this._exports().tsift_wasm_index_set_vectors(h, mp, m.length, dim, rp, rows.length, out),
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
    const h = this._live();
    const q = asBytes(queriesJsonl);
    const bytes = this._owner()._call([q], ([qp], out) =>
      this._exports().tsift_wasm_index_rank(h, qp, q.length, k, out),
    );
    return decoder.decode(bytes);
  }

  /** Raw JSON of info(). */
  infoJSON() {
    const h = this._live();
    return decoder.decode(this._owner()._call([], (_, out) => this._exports().tsift_wasm_index_info(h, out)));
  }

  /** { tools, terms, ranker, fingerprint, fields }. */
  info() {
    return JSON.parse(this.infoJSON());
  }

  /**
   * Re-derive the fingerprint and postings of an index loaded from a
   * snapshot and compare them with the ones the snapshot states (loading
   * trusts them once the checksum matches; the checksum catches corruption,
   * not a deliberate edit). Throws code 'snapshot' when they differ. Costs
   * about as much as a build's indexing step.
   */
  verify() {
    const h = this._live();
    this._owner()._call([], (_, out) => this._exports().tsift_wasm_index_verify(h, out));
  }

  /** Raw JSON of documents(). */
  documentsJSON() {
    const h = this._live();
    return decoder.decode(
      this._owner()._call([], (_, out) => this._exports().tsift_wasm_index_documents(h, out)),
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
    const h = this._live();
    return this._owner()._call([], (_, out) => this._exports().tsift_wasm_index_snapshot(h, out));
  }

  /** Index.fromSnapshot(toolsift, bytes) is toolsift.indexFromSnapshot(bytes). */
  static fromSnapshot(toolsift, bytes) {
    if (!(toolsift instanceof Toolsift)) {
      throw new ToolsiftError('arg', 'Index.fromSnapshot: the first argument must be a loaded Toolsift', STATUS_ARG);
    }
    return toolsift.indexFromSnapshot(bytes);
  }
}
