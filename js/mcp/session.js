// session.js — one MCP client session of the gateway: its menu, its toolsift
// sessions (one per catalog generation it has seen) and its journal.
//
// Owns: the (turn, call) numbering of MCP requests, the rule for a catalog
// that changes under a running session (segments), the composite menu the
// client lists, the decision for every tools/call (answer a meta-tool, forward
// to an upstream, or refuse with a message that says why), and the journal
// lines. It never talks MCP or touches an upstream itself, so --replay runs
// the very same code over a recorded journal.
//
// Numbering: the n-th tools/call or toolsift/preSearch request a client
// session sends (0-based, in the order the gateway receives them, whatever
// the tool) is turn n, call 0. Decision ids are therefore
// "<loop>#turn:<n>:tool:0:search" (or ":skill"; "<loop>#turn:<n>:pre-search"
// for a pre-search), and a call to a catalog tool is recorded as
// "<loop>#turn:<n>:tool:0:call".
//
// Calls: a call to any tool other than a meta-tool goes through the
// segment's toolsift session (its gate), which answers whether the tool is on
// the menu and records an allowed call of a catalog tool in its journal
// (agent-tool-call); a call the upstream answered with an error, or that
// failed on the way, is reported to the same session (agent-tool-call-failed)
// — what learning reads (docs/mcp-gateway.md, "Learning a vocabulary from
// the journals"). Journal lines are written after every call, not only after
// decisions.
//
// Segments: a toolsift session's catalog is fixed when it is made. When the
// gateway's universe has moved to a new generation, the client session's
// next tools/call first starts a new segment: a new toolsift session over the
// new catalog whose configuration carries the run so far — every catalog
// tool already on the menu is `alwaysLoaded` (if it still exists), active
// skills are `selected`, and maxLoaded / maxSearches / maxMenuChars are what
// is left of the caps. The journal gets a segment line (with that
// configuration, so a replay needs nothing else) and the decisions go on with
// the same numbering. The menu the client sees stays append-only: a tool
// whose server has gone stays listed, and a call to it is an error that
// says so.

import { randomBytes } from 'node:crypto';
import { namespaced, universeKey } from './catalog.js';

export const SEGMENT_SOURCE = 'toolsift-mcp-segment';
const ZERO_DIGEST = '0'.repeat(64);
const DEFAULT_CAPS = { maxPerSearch: 5, maxLoaded: 20, maxSearches: 25 };

/** The tool result the model sees for a refusal or a failed forward. */
export const errorResult = (text) => ({ isError: true, content: [{ type: 'text', text }] });

// What every segment over one catalog shares, made once per catalog object
// (a generation's: every session of the generation starts its segment from
// the same universe.catalog) and held by reference, never copied per
// session: the catalog's JSON text as the segment line holds it (with the
// whole configuration it is most of the line: hundreds of KB for a catalog
// of a few hundred tools, which an idle session's journal keeps in memory
// until its first record — journal.js), the vocabulary's, and the
// catalog's behaviour hints. Gone with the catalog.
const shared = new WeakMap(); // catalog → { json, hints, vocabulary, vocabularyJSON }

function sharedOf(catalog) {
  let s = shared.get(catalog);
  if (!s) {
    s = { json: null, hints: null, vocabulary: null, vocabularyJSON: null };
    shared.set(catalog, s);
  }
  return s;
}

// The upstream's behaviour hints travel in the catalog (toolsift reads only
// a title there), so a replay lists exactly what the client saw.
function hintsOf(catalog) {
  const hints = new Map();
  for (const t of catalog?.tools ?? []) {
    if (t?.annotations && Object.keys(t.annotations).some((k) => k.endsWith('Hint'))) {
      const h = {};
      for (const [k, v] of Object.entries(t.annotations)) if (k.endsWith('Hint') && typeof v === 'boolean') h[k] = v;
      hints.set(t.id, h);
    }
  }
  return hints;
}

// Stand-ins for the shared texts while the rest of a segment line is
// serialized (random: no recorded string can spell them).
const MARK = randomBytes(12).toString('hex');
const CATALOG_MARK = `toolsift-shared-catalog-${MARK}`;
const VOCABULARY_MARK = `toolsift-shared-vocabulary-${MARK}`;

/**
 * A segment line, as pieces whose concatenation is exactly
 * JSON.stringify(record) (JSON.stringify writes a value's text the same
 * wherever it sits): the catalog's and the vocabulary's text are the
 * generation's shared strings, the rest (the segment's own fields: number,
 * turn, principal, carried caps, fingerprints) is this session's.
 */
export function segmentLinePieces(record) {
  const value = record.value;
  const catalog = value?.config?.catalog;
  if (catalog === null || typeof catalog !== 'object') return [JSON.stringify(record)];
  const s = sharedOf(catalog);
  s.json ??= JSON.stringify(catalog);
  const parts = [{ mark: JSON.stringify(CATALOG_MARK), text: s.json }];
  const stand = { ...value, config: { ...value.config, catalog: CATALOG_MARK } }; // same keys, same order
  if (typeof value.vocabulary === 'string') {
    if (s.vocabulary !== value.vocabulary) {
      s.vocabulary = value.vocabulary;
      s.vocabularyJSON = JSON.stringify(value.vocabulary);
    }
    parts.push({ mark: JSON.stringify(VOCABULARY_MARK), text: s.vocabularyJSON });
    stand.vocabulary = VOCABULARY_MARK;
  }
  const own = JSON.stringify({ ...record, value: stand });
  for (const p of parts) {
    p.at = own.indexOf(p.mark);
    if (p.at < 0 || own.indexOf(p.mark, p.at + 1) >= 0) return [JSON.stringify(record)]; // (cannot happen)
  }
  parts.sort((a, b) => a.at - b.at);
  const pieces = [];
  let from = 0;
  for (const p of parts) {
    pieces.push(own.slice(from, p.at), p.text);
    from = p.at + p.mark.length;
  }
  pieces.push(own.slice(from));
  return pieces;
}

function decisionTurn(id) {
  const m = /#turn:(\d+):tool:(\d+):(search|skill|call)$/.exec(id ?? '');
  if (m) return { turn: Number(m[1]), call: Number(m[2]), kind: m[3] };
  const p = /#turn:(\d+):pre-search$/.exec(id ?? '');
  return p ? { turn: Number(p[1]), call: 0, kind: 'pre-search' } : null;
}

export class ClientSession {
  /**
   * `toolsift`: a loaded module. `config`: the checked gateway
   * configuration. `write(line, kind)`: appends one journal line (no
   * newline; `kind`: 'segment' for a segment line, 'header' for a
   * segment's chain header, 'record' for a decision or a call record), or
   * null for no journal. `pieces`: `write` takes a segment line as the
   * array of its pieces (segmentLinePieces: the generation's catalog text
   * is shared, not copied — the gateway's JournalFile keeps an idle
   * session's line so); without it every line is a string. `principal`:
   * who opened the session (a token name, never the token), recorded in its segment lines and given to every
   * segment's toolsift session as its `client` (the journal header's
   * "client": learning counts evidence per client), or null. `full()`: true
   * while the journal cannot take more (journal.maxBytes, or the journal
   * folder's caps: journal.js); a call record is then left out, and that
   * ends the journal (see _journalNew). `chain`: follow the journal's chain head even
   * without `write` (a replay does).
   */
  constructor(toolsift, config, write = null, { principal = null, full = () => false, chain = write !== null, pieces = false } = {}) {
    this.toolsift = toolsift;
    this.writesPieces = pieces;
    this.principal = principal;
    this.full = full;
    this.tracksJournal = chain;
    this.journalEnded = false; // a line was left out (journal full): nothing more is written
    this.config = config;
    this.write = write;
    this.turns = 0; // tools/call requests numbered so far
    this.segments = []; // { session, key, generation, journalChars, startTurn, hints, fingerprint }
    // The journal's hash chain runs across segments: each segment's toolsift
    // journal continues the last digest of the one before (its header's
    // parent; 64 zeros for the first), so a segment cannot be dropped,
    // moved or edited unseen. `journalKey` (the host's, never recorded) keys it.
    this.chainHead = ZERO_DIGEST;
    this.journalKey = config.journalKey ?? null;
    this.menu = new Map(); // name → { spec, id (catalog id or null), gone: string|null }
    this.activeSkills = [];
    this.searchToolName = config.search.toolName ?? 'search_tools';
    this.skillToolName = config.skills ? (config.skills.settings.toolName ?? 'activate_skill') : null;
    this.used = { searches: 0, loaded: 0, menuChars: 0 };
    this.warnings = []; // replay: what did not match the record
    this.refusedKey = null;
  }

  get segment() {
    return this.segments[this.segments.length - 1] ?? null;
  }

  /** The next request's turn number. */
  nextTurn() {
    return this.turns++;
  }

  // ---- segments ----

  /** The toolsift configuration of a new segment over `universe`. */
  segmentConfig(universe) {
    const cfg = this.config;
    const routes = universe.routes;
    const caps = { ...DEFAULT_CAPS, ...cfg.search };
    const skillTools = new Set();
    const selected = [];
    if (cfg.skills) {
      const known = new Set((universe.catalog.skills ?? []).map((s) => s?.id ?? s?.name));
      for (const id of [...(cfg.skills.settings.selected ?? []), ...this.activeSkills]) {
        if (known.has(id) && !selected.includes(id)) selected.push(id);
      }
      for (const s of universe.catalog.skills ?? []) {
        if (selected.includes(s?.id ?? s?.name)) for (const t of s.tools ?? []) skillTools.add(t);
      }
    }
    const always = [];
    const add = (id) => {
      if (routes.has(id) && !always.includes(id) && !skillTools.has(id)) always.push(id);
    };
    for (const [, entry] of this.menu) if (entry.id) add(entry.id);
    for (const id of cfg.alwaysLoaded) add(id);
    for (const s of cfg.servers) for (const name of s.alwaysLoaded) add(namespaced(s.namespace, name));
    const search = { ...cfg.search, alwaysLoaded: always };
    const used = this._usedSoFar();
    search.maxLoaded = Math.max(0, caps.maxLoaded - used.loaded);
    search.maxSearches = Math.max(0, caps.maxSearches - used.searches);
    if (typeof caps.maxMenuChars === 'number') search.maxMenuChars = Math.max(1, caps.maxMenuChars - used.menuChars);
    const out = { loop: cfg.loop, tools: [], catalog: universe.catalog, search };
    if (cfg.skills) out.skills = { ...cfg.skills.settings, selected };
    return out;
  }

  /**
   * Start the first segment, or a new one when `universe` is another
   * generation than the current segment's. `turn` is the request that
   * triggers it. Returns true when the listed menu changed.
   */
  adopt(universe, turn) {
    if (this.segment && this.segment.key === universe.key) return false;
    // A generation toolsift refused for this session (rare: the carried
    // settings do not fit it) is not retried on every call: the session
    // goes on in its current segment.
    if (this.refusedKey === universe.key && this.segment) return false;
    const config = this.segmentConfig(universe);
    const value = {
      segment: this.segments.length, turn, generation: universe.generation, catalogKey: universe.catalogKey ?? universe.key,
      fingerprint: universe.fingerprint, config,
    };
    // The vocabulary (search.annotations) the generation's index was built
    // with, as the file said it: a replay builds the same index from the
    // segment line alone.
    if (universe.vocabulary) {
      value.vocabulary = universe.vocabulary.text;
      value.vocabularyKey = universe.vocabulary.key;
    }
    if (this.principal !== null) value.principal = this.principal;
    try {
      return this.startSegment(value, null, universe.snapshot ?? null, universe.embedder ?? null);
    } catch (e) {
      this.refusedKey = universe.key;
      throw e;
    }
  }

  // Searches, loads and menu characters of the closed segments and the
  // current one.
  _usedSoFar() {
    const seg = this.segment;
    if (!seg || seg.session.freed) return { ...this.used };
    const m = seg.session.metrics();
    return { searches: this.used.searches + m.searches, loaded: this.used.loaded + m.loaded,
      menuChars: this.used.menuChars + m.menuChars };
  }

  /**
   * Start a segment from its journal value (live: just made; replay: read
   * back). `journal`: the recorded decisions to serve (replay) or null.
   * `snapshot`: the generation's index (live), so the session skips
   * re-analysing the catalog; the journal still records the catalog, and
   * a replay builds the same index from it (same fingerprint). `embedder`:
   * the generation's static model (live, with a snapshot) — the decisions
   * record its ranker kind and a replay needs neither it nor vectors.
   * `value.principal` is the session's client (the chain header records it);
   * `value.vocabulary` the vocabulary text (a snapshot holds it already).
   */
  startSegment(value, journal, snapshot = null, embedder = null) {
    let session; // made before the current one is closed: a refusal leaves it running
    const chain = {
      journalParent: this.chainHead,
      ...(this.journalKey ? { journalKey: this.journalKey } : {}),
      ...(typeof value.principal === 'string' ? { client: value.principal } : {}),
    };
    if (snapshot) {
      const { catalog, search, ...rest } = value.config;
      const { stopwords, ...searchRest } = search;
      const cfg = { ...rest, search: searchRest, ...(catalog.skills ? { catalog: { skills: catalog.skills } } : {}) };
      session = this.toolsift.createSession(cfg, { snapshot, ...chain });
      // the generation's model embeds each query (its vectors are in the snapshot)
      try {
        if (embedder) session.setEmbedder(embedder, this.config.model?.minSimilarity ?? -2);
      } catch (e) {
        session.free();
        throw e;
      }
    } else {
      const vocabulary = typeof value.vocabulary === 'string' ? { annotations: value.vocabulary } : {};
      session = this.toolsift.createSession(value.config,
        journal === null ? { ...chain, ...vocabulary } : { journal, divergence: 'fail', ...chain, ...vocabulary });
    }
    // The session fingerprint (index + configuration) is recorded live; a
    // replay compares it (replay.js).
    if (journal === null) value.sessionFingerprint = session.fingerprint;
    this._closeSegment();
    const catalog = value.config.catalog;
    const hints = catalog !== null && typeof catalog === 'object' ? (sharedOf(catalog).hints ??= hintsOf(catalog)) : new Map();
    this.segments.push({ session, key: universeKey(value.catalogKey, value.vocabularyKey), generation: value.generation,
      journalChars: 0, startTurn: value.turn, hints, fingerprint: session.fingerprint });
    if (this.write) {
      // in pieces: the catalog's text is the generation's, not a copy
      const pieces = segmentLinePieces({ id: `${this.config.loop}#segment:${value.segment}`, source: SEGMENT_SOURCE, value });
      this.write(this.writesPieces ? pieces : pieces.join(''), 'segment');
    }
    this._journalNew({ header: true }); // the segment's chain header
    return this._syncMenu(true);
  }

  _closeSegment() {
    const seg = this.segment;
    if (!seg || seg.session.freed) return;
    const m = seg.session.metrics();
    this.used.searches += m.searches;
    this.used.loaded += m.loaded;
    this.used.menuChars += m.menuChars;
    seg.session.free();
  }

  // Merge the toolsift menu into the composite menu (append-only). A new
  // segment also marks tools it no longer has as gone and refreshes specs.
  _syncMenu(newSegment) {
    const seg = this.segment;
    const tools = seg.session.menu('mcp').tools;
    const hints = seg.hints;
    let changed = false;
    const present = new Set();
    for (const spec of tools) {
      present.add(spec.name);
      const meta = spec.name === this.searchToolName || spec.name === this.skillToolName;
      const prev = this.menu.get(spec.name);
      if (!prev) {
        this.menu.set(spec.name, { spec, id: meta ? null : spec.name, gone: null, hints: hints.get(spec.name) ?? null });
        changed = true;
      } else if (JSON.stringify(prev.spec) !== JSON.stringify(spec) || prev.gone ||
                 JSON.stringify(prev.hints) !== JSON.stringify(hints.get(spec.name) ?? null)) {
        prev.spec = spec;
        prev.gone = null;
        prev.hints = hints.get(spec.name) ?? null;
        changed = true;
      }
    }
    if (newSegment) {
      for (const [name, entry] of this.menu) {
        if (!present.has(name) && !entry.gone) {
          entry.gone = `generation ${seg.generation}`;
          changed = true;
        }
      }
    }
    return changed;
  }

  // Write the lines the segment's toolsift journal gained since the last
  // time (its chain header, decisions, call records) and follow the chain's
  // head. `call`: they are call records. The journal limit: a decision is
  // never made once the journal is full (the gateway refuses it first), but
  // calls go on; their records are written while the journal is under
  // journal.maxBytes, and the first one left out ends the file — nothing is
  // written after it, so the file stays a valid chain (a prefix of the
  // session's record, which replays).
  _journalNew({ call = false, header = false } = {}) {
    if (!this.tracksJournal || this.journalEnded) return;
    const seg = this.segment;
    const text = seg.session.journalJSONL(); // append-only: only its tail is new
    const fresh = text.slice(seg.journalChars).split('\n').filter((l) => l !== '');
    seg.journalChars = text.length;
    if (fresh.length === 0) return;
    if (call && this.full()) {
      this.journalEnded = true;
      return;
    }
    for (const line of fresh) this.write?.(line, header ? 'header' : 'record');
    this.chainHead = JSON.parse(fresh[fresh.length - 1]).chain;
  }

  /** The toolsift journal of the current segment, as recorded so far (replay compares it). */
  segmentJournalLines() {
    return this.segment.session.journalJSONL().split('\n').filter((l) => l !== '');
  }

  // ---- calls ----

  isMeta(name) {
    return name === this.searchToolName || (this.skillToolName !== null && name === this.skillToolName);
  }

  /**
   * A call to search_tools or activate_skill on turn `turn`. Returns
   * { output (the core's parsed output), result (what the model gets as the
   * tool's text), menuChanged }.
   */
  callMeta(turn, name, args) {
    const seg = this.segment;
    const output = seg.session.call(turn, 0, name, args ?? {});
    if (output.decision) this._journalNew();
    if (name === this.skillToolName && output.decision && output.result && !output.result.error) {
      const skill = output.result.skill;
      if (typeof skill === 'string' && !this.activeSkills.includes(skill)) this.activeSkills.push(skill);
    }
    const menuChanged = this._syncMenu(false);
    const result = { ...output.result };
    if (this.config.includeSchemas && Array.isArray(result.tools)) {
      result.tools = result.tools.map((t) => {
        const entry = t && (t.loaded !== false) && this.menu.get(t.name);
        return entry ? { ...t, inputSchema: entry.spec.inputSchema } : t;
      });
    }
    return { output, result, menuChanged };
  }

  /**
   * The host's pre-search of `text` (a user message) on turn `turn`
   * (docs/mcp-gateway.md, "Pre-search"): the segment's session loads the
   * strong hits. Returns { output (the core's), menuChanged }.
   */
  preSearch(turn, text) {
    const output = this.segment.session.preSearch(turn, text);
    if (output.decision) this._journalNew();
    return { output, menuChanged: this._syncMenu(false) };
  }

  /** 'all' when the current segment has every tool on its menu and no search tool (search.auto), else 'search'. */
  get mode() {
    return this.segment.session.mode;
  }

  /**
   * Gate a call to any other tool on turn `turn`. Returns { forward: id }
   * when the tool is on the menu and its upstream should get it, or
   * { error: text } for the model.
   */
  gate(turn, name, args, universe) {
    const entry = this.menu.get(name);
    if (entry?.gone) {
      return { error: `The tool "${name}" was loaded earlier in this session, but no connected server offers it any more (its server was removed, failed for good or dropped the tool). It cannot be called now; call ${this.searchToolName} to find another tool.` };
    }
    const output = this.segment.session.call(turn, 0, name, args ?? {});
    if (output.result?.allowed === true) {
      this._journalNew({ call: true }); // the call record (a catalog tool's)
      return { forward: name };
    }
    if (universe.routes.has(name)) {
      return { error: `The tool "${name}" is not loaded in this session. Call ${this.searchToolName} first, with the query select:${name} to load it by name or with a few words describing what you want to do; then call the tools it loaded.` };
    }
    return { error: `There is no tool named "${name.slice(0, 128)}" in this session. Call ${this.searchToolName} with a few words describing what you want to do, to find and load the tools you need.` };
  }

  /**
   * Report that the call of catalog tool `name` that gate() allowed on turn
   * `turn` failed (the upstream answered isError, or the call threw, timed
   * out or found its server gone): the segment's session records it
   * (agent-tool-call-failed), so learning does not take the tool for the one
   * the request needed. Returns false when it cannot be recorded any more:
   * the session moved to a new segment (or closed) while the call was in
   * flight — that segment's chain is closed, and the call stays recorded as
   * made.
   */
  callFailed(turn, name) {
    const seg = this.segment;
    if (!seg || seg.session.freed || seg.startTurn > turn) return false;
    seg.session.callFailed(turn, 0, name);
    this._journalNew({ call: true });
    return true;
  }

  /**
   * Replay a call record of the journal (replay.js): the same gate on the
   * same menu, so the segment's journal records it again. `failed`: an
   * agent-tool-call-failed record. Returns false when the replayed session
   * does not allow the call (the record is not one the gateway could write).
   */
  replayCall(turn, call, name, failed) {
    const session = this.segment.session;
    if (failed) {
      try {
        session.callFailed(turn, call, name);
      } catch {
        return false;
      }
    } else if (session.call(turn, call, name, {}).result?.allowed !== true) {
      return false;
    }
    this._journalNew({ call: true });
    return true;
  }

  /**
   * The tools the client lists: the composite menu, MCP-shaped, in menu
   * order, with the upstream's behaviour hints (readOnlyHint, …) as
   * `annotations`.
   */
  listTools() {
    const tools = [];
    for (const [, entry] of this.menu) {
      tools.push(entry.hints ? { ...entry.spec, annotations: entry.hints } : entry.spec);
    }
    return tools;
  }

  /** End the session (frees toolsift memory). */
  close() {
    this._closeSegment();
    this.segments.length = 0;
  }
}

export { decisionTurn };
