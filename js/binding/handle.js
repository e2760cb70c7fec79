// handle.js — the one base of every object that owns a handle of the wasm
// module (Index, Session, StaticModel, Learner): the module it came from,
// the FinalizationRegistry backstop, the "has been freed" state error, and
// free(). Subclasses reach it through _live(), _owner() and _exports().

import { ToolsiftError, STATUS_STATE } from './error.js';

// Frees handles whose objects were dropped without free().
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

export class Handle {
  #ts;
  #ex;
  #handle;
  #token = {};
  #release;
  #what;

  // `release`: the export that frees the handle; `what`: the object's name
  // in the error of a call after free() ("index has been freed").
  constructor(ts, ex, handle, release, what) {
    this.#ts = ts;
    this.#ex = ex;
    this.#handle = handle;
    this.#release = release;
    this.#what = what;
    registry?.register(this, { ex, handle, release }, this.#token);
  }

  /** @internal the handle, or a 'state' error once freed */
  _live() {
    if (!this.#handle) throw new ToolsiftError('state', `${this.#what} has been freed`, STATUS_STATE);
    return this.#handle;
  }

  /** @internal the Toolsift (module instance) this object belongs to */
  _owner() {
    return this.#ts;
  }

  /** @internal the module's exports */
  _exports() {
    return this.#ex;
  }

  /** Release the handle. Safe to call more than once. */
  free() {
    if (!this.#handle) return;
    const h = this.#handle;
    this.#handle = 0;
    registry?.unregister(this.#token);
    this.#ex[this.#release](h);
  }

  /** True once free() has run. */
  get freed() {
    return !this.#handle;
  }
}
