// static-model.js — StaticModel: a static-embedding model (a handle of the
// module): embed text in the core, the query vectors of fused searches.

import { ToolsiftError, STATUS_ARG, STATUS_STATE } from './error.js';
import { encoder, decoder, cString } from './bytes.js';
import { Handle } from './handle.js';

/**
 * A static-embedding model (tsift_static_model). embed(text) is a
 * Float32Array of `dim` components with norm 1, or null when the text has
 * no token the model knows (the zero vector: "no vector", never a match).
 * Free it with free(); a finalizer frees it if you forget.
 */
export class StaticModel extends Handle {
  #users = new Set(); // live sessions whose embedder this is

  constructor(ts, ex, handle) {
    super(ts, ex, handle, 'tsift_wasm_static_model_free', 'static model');
    /** The embedding dimension. */
    this.dim = ex.tsift_wasm_static_model_dim(handle);
    /** The model's identity, for a ranker kind "bm25f-N+vec:<id>". */
    this.id = cString(ex, ex.tsift_wasm_static_model_id(handle));
  }

  #text(text, what) {
    if (typeof text !== 'string') throw new ToolsiftError('arg', `${what}: text must be a string`, STATUS_ARG);
    return encoder.encode(text);
  }

  /** The text's unit vector (Float32Array), or null for the zero vector. */
  embed(text) {
    const h = this._live();
    const t = this.#text(text, 'embed');
    const ex = this._exports();
    const bytes = this._owner()._call([t], ([tp], out) => ex.tsift_wasm_static_model_embed(h, tp, t.length, out), {
      nullable: true,
    });
    if (bytes === null) return null;
    return new Float32Array(bytes.buffer, bytes.byteOffset, this.dim).slice();
  }

  /** The text's vector as the search option "vector" takes it: a base64
   * string of float32s, or null when the model knows no token of it (the
   * search is then the lexical one). index.search(q, { vector: m.queryVector(q) }). */
  queryVector(text) {
    const h = this._live();
    const t = this.#text(text, 'queryVector');
    const ex = this._exports();
    return JSON.parse(decoder.decode(this._owner()._call([t], ([tp], out) => ex.tsift_wasm_static_model_vector_json(h, tp, t.length, out))));
  }

  /** @internal the model's handle, for Index#embedStatic (its module: _owner()). */
  _handle() {
    return this._live();
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
    const h = this._live();
    const t = this.#text(text, 'embedJSON');
    const ex = this._exports();
    return decoder.decode(this._owner()._call([t], ([tp], out) => ex.tsift_wasm_static_model_embed_json(h, tp, t.length, out)));
  }

  /** Release the model. Safe to call more than once. Refused (code
   * 'state') while a live session embeds its queries with it. */
  free() {
    if (!this.freed && this.#users.size) {
      throw new ToolsiftError('state', `static model: the embedder of ${this.#users.size} live session(s); free them or setEmbedder(null) first`, STATUS_STATE);
    }
    super.free();
  }
}
