// learner.js — Learner: a learner of a catalog's vocabulary (a handle of
// the module), fed journals and labelled examples (docs/learning.md).

import { ToolsiftError, STATUS_ARG } from './error.js';
import { encoder, decoder, isBytes, textOrBytes } from './bytes.js';
import { Handle } from './handle.js';

/**
 * A learner of a catalog's vocabulary (docs/learning.md), from
 * Toolsift#createLearner: feed it journals and labelled examples in any
 * order, then finishJSON() gives the learned vocabulary (the index option
 * `annotations`). Free it with free(); a finalizer frees it if you forget.
 */
export class Learner extends Handle {
  constructor(ts, ex, handle) {
    super(ts, ex, handle, 'tsift_wasm_learner_free', 'learner');
  }

  #add(fn, name, text) {
    const h = this._live();
    if (typeof name !== 'string') throw new ToolsiftError('arg', 'learner: name must be a string', STATUS_ARG);
    if (typeof text !== 'string' && !isBytes(text)) {
      throw new ToolsiftError('arg', 'learner: the journal or examples must be text or bytes', STATUS_ARG);
    }
    const n = encoder.encode(`${name.replaceAll('\0', ' ')}\0`); // the export reads a C string
    const t = textOrBytes(text);
    const ex = this._exports();
    this._owner()._call([n, t], ([np, tp], out) => ex[fn](h, np, tp, t.length, out));
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
    const h = this._live();
    const ex = this._exports();
    return decoder.decode(this._owner()._call([], (_, out) => ex.tsift_wasm_learner_finish(h, out)));
  }

  /** finishJSON, parsed. */
  finish() {
    return JSON.parse(this.finishJSON());
  }
}
