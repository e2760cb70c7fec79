// session.js — Session: one agent run (a handle of the module): the menu,
// the search meta-tool, the journal; and the host rankers it asks (their
// shape checked by Toolsift#createSession, asked here while a call runs).

import { ToolsiftError, STATUS_ARG, STATUS_RANKER } from './error.js';
import { encoder, decoder, asBytes, isBytes, textOrBytes } from './bytes.js';
import { Handle } from './handle.js';
import { StaticModel } from './static-model.js';

const U32_MAX = 0xffffffff;
const MENU_FORMAT_MESSAGE = 'menu: format must be "mcp", "openai" or "anthropic"';

function checkU32(value, what) {
  if (!Number.isInteger(value) || value < 0 || value > U32_MAX) {
    throw new ToolsiftError('arg', `session call: ${what} must be an integer from 0 to ${U32_MAX}`, STATUS_ARG);
  }
}

const rankerArg = (what) => `createSession: ${what} must be { kind: string, rank(query, want) => string[] }`;

// A host ranker's shape, checked before the session is made. The kind's
// length and characters are the core's to check (1..64 bytes of UTF-8, no
// control characters); only a NUL is caught here, because the export reads
// the kind as a C string and would cut it there.
// Returns the kind (read once), or null for no ranker.
export function checkRanker(ranker, what = 'ranker') {
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
export class Session extends Handle {
  #ranker; // { ranker, kind } or null
  #skillRanker; // { ranker, kind } or null
  #rankerError = null;
  #cancelPending = false; // a failed ranking still to be ended (out of memory)
  #embedder = null; // the StaticModel of setEmbedder, kept alive while in use

  constructor(ts, ex, handle, ranker = null, skillRanker = null) {
    super(ts, ex, handle, 'tsift_wasm_session_free', 'session');
    this.#ranker = ranker;
    this.#skillRanker = skillRanker;
  }

  /**
   * Why the host ranker failed in the last call (what it threw, or a
   * ToolsiftError with code 'ranker' for an answer that is not an array),
   * or null. The call itself answers search_unavailable.
   */
  get rankerError() {
    return this.#rankerError;
  }

  #run(inputs, call, options) {
    const h = this._live();
    if (this.#cancelPending) this.#endPendingSearch();
    return this._owner()._call(inputs, (ptrs, out) => call(h, ptrs, out), options);
  }

  // The core's output bytes of one call (the CLI writes these as they are).
  _callBytes(turn, callIndex, tool, args) {
    this._live();
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
      this._exports().tsift_wasm_session_call(h, turn, callIndex, tp, t.length, ap, a.length, out),
    );
    return this.#answerRankings(bytes);
  }

  // Every call of a calls file (JSON Lines of {"turn","call","tool","args"}),
  // each line read by the core (tsift_session_call_next): per non-blank line
  // { bytes } (the call's output) or { error } (a ToolsiftError whose message
  // names the line; code 'config' for a line that is not a call). For the CLI.
  _callLines(calls) {
    this._live();
    if (!isBytes(calls)) throw new ToolsiftError('arg', 'session calls: must be bytes', STATUS_ARG);
    const c = asBytes(calls);
    const ts = this._owner();
    const ex = this._exports();
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
          this._exports().tsift_wasm_session_ranked(h, ip, ids ? ids.length : 0, out),
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
    if (this.freed) return;
    this.#cancelPending = true;
    try {
      this.#endPendingSearch();
    } catch {
      /* still out of memory: #run tries again before the next call */
    }
  }

  #endPendingSearch() {
    const h = this._live();
    try {
      this._owner()._call([null], (_, out) => this._exports().tsift_wasm_session_ranked(h, 0, 0, out));
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
      this._exports().tsift_wasm_session_set_query_vector(h, vp, f ? f.length : 0, minSimilarity, out),
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
    if (model && model._owner() !== this._owner()) {
      throw new ToolsiftError('arg', 'setEmbedder: the model was loaded by another toolsift module (load one module for both)', STATUS_ARG);
    }
    const m = model ? model._handle() : 0;
    this.#run([], (h, _, out) => this._exports().tsift_wasm_session_set_embedder(h, m, minSimilarity, out));
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
    this._live();
    checkU32(turn, 'turn');
    checkU32(callIndex, 'call index');
    if (typeof tool !== 'string') throw new ToolsiftError('arg', 'callFailed: tool must be a string', STATUS_ARG);
    const t = encoder.encode(tool);
    this.#run([t], (h, [tp], out) => this._exports().tsift_wasm_session_call_failed(h, turn, callIndex, tp, t.length, out));
  }

  /**
   * Pre-search (docs/sessions.md): before the model's turn `turn`, search
   * `text` (the user's latest message) and load its strong hits onto the
   * menu, recorded as a decision of the host ("host-pre-search") and served
   * from the journal on replay. Raw JSON of preSearch().
   */
  preSearchJSON(turn, text) {
    this._live();
    checkU32(turn, 'turn');
    if (typeof text !== 'string') throw new ToolsiftError('arg', 'preSearch: text must be a string', STATUS_ARG);
    const t = encoder.encode(text);
    return decoder.decode(this.#run([t], (h, [tp], out) => this._exports().tsift_wasm_session_pre_search(h, turn, tp, t.length, out)));
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
    this._live();
    if (typeof format !== 'string' || format.includes('\0')) {
      throw new ToolsiftError('arg', MENU_FORMAT_MESSAGE, STATUS_ARG);
    }
    const f = encoder.encode(`${format}\0`); // the export reads a C string
    return this.#run([f], (h, [fp], out) => this._exports().tsift_wasm_session_menu(h, fp, out));
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
    return this.#run([], (h, _, out) => this._exports().tsift_wasm_session_journal(h, out));
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
    return this.#run([], (h, _, out) => this._exports().tsift_wasm_session_verify(h, out));
  }

  /** Raw JSON of metrics(). */
  metricsJSON() {
    return decoder.decode(this.#run([], (h, _, out) => this._exports().tsift_wasm_session_metrics(h, out)));
  }

  /**
   * The session's contribution to the system prompt (SPEC S8): the skill
   * index (one line per skill not selected up front, bounded, with a
   * "(+N more …)" marker) or, in 'search' discovery, one fixed line. Empty
   * when skills are off.
   */
  skillIndex() {
    return decoder.decode(this.#run([], (h, _, out) => this._exports().tsift_wasm_session_skill_index(h, out)));
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
    this.#run([], (h, _, out) => this._exports().tsift_wasm_session_apply_journal(h, out));
  }

  /** Raw JSON of finish(). */
  finishJSON() {
    return decoder.decode(this.#run([], (h, _, out) => this._exports().tsift_wasm_session_finish(h, out)));
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
    super.free();
    this.#embedder?._unuse(this);
    this.#embedder = null;
  }
}
