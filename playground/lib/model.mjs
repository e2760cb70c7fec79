// model.mjs — the playground's logic without the DOM: reading catalogs and
// journals (with errors that say what is wrong and where), rebuilding a
// recorded run's timeline by replaying it through a session, and judging
// every recorded decision against its replay (identical / narrowed /
// diverged), the host's pre-searches among the calls and a session's mode
// (auto mode's "all" or "search"). Runs in the browser and in Node
// (tests/playground/model.test.mjs).

export const RECORDING_FORMAT = 'toolsift-recording-1';

/** An input the page cannot use; `what` names the input (catalog, journal, …). */
export class InputError extends Error {
  constructor(what, message) {
    super(`${what}: ${message}`);
    this.name = 'InputError';
    this.what = what;
  }
}

/** "line L, column C" of a character offset in text. */
function lineCol(text, offset) {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      col = 1;
    } else col++;
  }
  return `line ${line}, column ${col}`;
}

/**
 * The offset of the first JSON syntax error in text (engines word their
 * JSON.parse errors differently, and not all give a position), or -1.
 */
export function jsonErrorOffset(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = () => {
    throw i;
  };
  const lit = (word) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '"') return void i++;
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail();
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail();
      } else if (c < ' ') fail();
      else i++;
    }
    fail();
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail();
    i += m[0].length;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    } else if (c === '"') string();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else if (c === '-' || (c >= '0' && c <= '9')) number();
    else fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : -1;
  } catch (at) {
    if (typeof at !== 'number') throw at;
    return at;
  }
}

/** JSON.parse with an error naming the input and the place. */
export function parseJSON(text, what) {
  if (typeof text !== 'string' || text.trim() === '') throw new InputError(what, 'empty input');
  try {
    return JSON.parse(text);
  } catch (e) {
    let at = -1;
    try {
      at = jsonErrorOffset(text);
    } catch {
      /* too deep to scan: no position */
    }
    const where = at >= 0 ? ` at ${lineCol(text, at)}` : '';
    throw new InputError(what, `not valid JSON${where} (${e.message})`);
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The catalog shape of one tool, for the explorer: MCP, OpenAI, Anthropic or native. */
export function toolShape(tool) {
  if (!isObject(tool)) return 'invalid';
  if (tool.type === 'function' && isObject(tool.function)) return 'OpenAI';
  if ('input_schema' in tool) return 'Anthropic';
  if ('inputSchema' in tool) return 'MCP';
  return 'native';
}

/** The tools array of a catalog value ({"tools": […]}, e.g. an MCP tools/list result, or a bare array). */
export function catalogTools(catalog) {
  if (Array.isArray(catalog)) return catalog;
  if (isObject(catalog) && Array.isArray(catalog.tools)) return catalog.tools;
  return null;
}

/**
 * Read catalog text: JSON with a tools array (any accepted shape). The core
 * validates the tools themselves (its errors name the tool and the field);
 * this only names what is wrong before that.
 */
export function readCatalog(text) {
  const value = parseJSON(text, 'catalog');
  if (catalogTools(value) === null) {
    const rpc = isObject(value) && isObject(value.result) && Array.isArray(value.result.tools);
    throw new InputError(
      'catalog',
      rpc
        ? 'this is a JSON-RPC response: paste its "result" (the tools/list result {"tools": [...]})'
        : 'expected {"tools": [...]} (e.g. an MCP tools/list result) or a bare array of tools; ' +
        `got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? `an object with keys ${Object.keys(value ?? {}).slice(0, 5).join(', ') || '(none)'}` : typeof value}`,
    );
  }
  return value;
}

/** The namespace of a tool id: the part before "__", ".", "/" or ":" (else "(no namespace)"). */
export function namespaceOf(id) {
  const m = /^(.+?)(__|\.|\/|:)/.exec(id);
  return m ? m[1] : '(no namespace)';
}

const DECISION_ID = /^(.+)#turn:(\d+):tool:(\d+):([a-z]+)$/;
/** A pre-search's id: the host's, before the turn's calls, so it names no tool call (docs/sessions.md, "Pre-search"). */
const PRE_SEARCH_ID = /^(.+)#turn:(\d+):pre-search$/;

/**
 * { loop, turn, call, kind } of a decision id, or null. A pre-search
 * ("<loop>#turn:T:pre-search") has kind 'pre-search' and call null: it is
 * the host's search of the user's message before the model's turn T, not
 * one of the model's tool calls.
 */
export function parseDecisionId(id) {
  if (typeof id !== 'string') return null;
  const m = DECISION_ID.exec(id);
  if (m) return { loop: m[1], turn: Number(m[2]), call: Number(m[3]), kind: m[4] };
  const p = PRE_SEARCH_ID.exec(id);
  return p ? { loop: p[1], turn: Number(p[2]), call: null, kind: 'pre-search' } : null;
}

/** The source of a pre-search decision (tsift_session_pre_search): the host's, not the model's. */
export const PRE_SEARCH_SOURCE = 'host-pre-search';

/**
 * Whether a call of a run is a pre-search: { turn, preSearch: text } (the
 * shape of a calls file's pre-search line), not a model's tool call
 * { turn, call, tool, args }.
 */
export const isPreSearch = (c) => isObject(c) && typeof c.preSearch === 'string';

/** The source of a chained journal's header record (core/src/session/journal_chain.c). */
export const JOURNAL_HEADER_SOURCE = 'toolsift-journal';

/** Whether a journal record is a chain header (the core tells it by its source, as here). */
export const isJournalHeader = (r) => isObject(r) && r.source === JOURNAL_HEADER_SOURCE;

/**
 * The sources of a journal's call records (core/include/toolsift.h,
 * tsift_session_call and tsift_session_call_failed): an allowed call to a
 * catalog tool, and the host's report that it failed. Call records are not
 * decisions: replay passes over them and writes them again from the calls
 * it makes, and learning reads them (docs/learning.md). Both have the id
 * "<loop>#turn:T:tool:C:call".
 */
export const CALL_SOURCE = 'agent-tool-call';
export const CALL_FAILED_SOURCE = 'agent-tool-call-failed';

/** Whether a journal record is a call record (by its source, as the core tells it). */
export const isCallRecord = (r) => isObject(r) && (r.source === CALL_SOURCE || r.source === CALL_FAILED_SOURCE);

function checkHeader(h, where) {
  if (typeof h.id !== 'string' || !h.id.endsWith('#journal')) {
    throw new InputError('journal', `${where}: the journal header has no id "<loop>#journal"`);
  }
  if (!isObject(h.value)) throw new InputError('journal', `${where}: the journal header has no object "value"`);
}

function checkDecision(d, where) {
  if (!isObject(d)) throw new InputError('journal', `${where}: a decision must be an object {id, source, value}`);
  if (isJournalHeader(d)) {
    throw new InputError('journal', `${where}: a journal header (source "${JOURNAL_HEADER_SOURCE}") can only be the first record`);
  }
  if (typeof d.id !== 'string') throw new InputError('journal', `${where}: the decision has no string "id"`);
  if (!parseDecisionId(d.id)) {
    throw new InputError('journal', `${where}: id ${JSON.stringify(d.id).slice(0, 80)} is not <loop>#turn:<i>:tool:<j>:<kind> or <loop>#turn:<i>:pre-search`);
  }
  if (typeof d.source !== 'string') throw new InputError('journal', `${where}: decision ${d.id} has no string "source"`);
  if (!isObject(d.value)) throw new InputError('journal', `${where}: decision ${d.id} has no object "value"`);
}

/**
 * A journal's lines as { header, records }: a chained journal starts with
 * its header (the core writes it first); `header` is null for a journal
 * written before journals were chained. `records` are the lines after it in
 * the journal's order — decisions and call records (isCallRecord)
 * interleaved as the session wrote them: the chain runs through both, and
 * the core numbers a chain problem by this position (verify()'s "at").
 * `where(i)` names line i in errors.
 */
export function splitJournal(lines, where = (i) => `record ${i + 1}`) {
  if (!Array.isArray(lines)) throw new InputError('journal', 'expected an array of records');
  const header = isJournalHeader(lines[0]) ? lines[0] : null;
  if (header) checkHeader(header, where(0));
  const records = header ? lines.slice(1) : lines.slice();
  records.forEach((d, i) => checkDecision(d, where(i + (header ? 1 : 0))));
  return { header, records };
}

/** The lines to give a session (or write out): the header first, then the records. */
export const journalRecords = (header, records) => (header ? [header, ...records] : [...records]);

/** A journal as JSON Lines, one record a line (what --journal-out writes and the learner reads). */
export const journalJSONL = (lines) => lines.map((d) => `${JSON.stringify(d)}\n`).join('');

/** The decisions of a journal's records (call records left out). */
export const decisionsOf = (records) => records.filter((r) => !isCallRecord(r));

function checkCall(c, where) {
  if (!isObject(c)) throw new InputError('recording', `${where}: a call must be an object {turn, call, tool, args} or a pre-search {turn, preSearch}`);
  if ('preSearch' in c) {
    if (!Number.isInteger(c.turn) || c.turn < 0) throw new InputError('recording', `${where}: "turn" must be a non-negative integer`);
    if (typeof c.preSearch !== 'string') throw new InputError('recording', `${where}: "preSearch" must be the user's message (a string)`);
    return;
  }
  for (const k of ['turn', 'call']) {
    if (!Number.isInteger(c[k]) || c[k] < 0) throw new InputError('recording', `${where}: "${k}" must be a non-negative integer`);
  }
  if (typeof c.tool !== 'string' || !c.tool) throw new InputError('recording', `${where}: "tool" must be a non-empty string`);
}

/**
 * Read a journal: a recording (the playground's format: config, calls and
 * journal), a JSON array of records, or JSON Lines (the CLI's
 * --journal-out). A chained journal's first record is its header: it is
 * kept apart from the records after it (splitJournal). Returns { kind:
 * 'recording', recording, header, records } or { kind: 'journal', header,
 * records } (header null for an unchained journal).
 */
export function readJournal(text) {
  if (typeof text !== 'string' || text.trim() === '') throw new InputError('journal', 'empty input');
  const trimmed = text.trim();
  let value;
  let jsonl = false;
  try {
    value = JSON.parse(trimmed);
  } catch {
    jsonl = true;
  }
  if (jsonl) {
    const records = [];
    const lineOf = [];
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      let d;
      try {
        d = JSON.parse(line);
      } catch (e) {
        let at = -1;
        try {
          at = jsonErrorOffset(line);
        } catch {
          /* too deep to scan */
        }
        throw new InputError('journal', `line ${i + 1} is not valid JSON${at >= 0 ? ` at column ${at + 1}` : ''} (${e.message})`);
      }
      records.push(d);
      lineOf.push(i + 1);
    });
    return { kind: 'journal', ...splitJournal(records, (k) => `line ${lineOf[k]}`) };
  }
  if (Array.isArray(value)) return { kind: 'journal', ...splitJournal(value, (i) => `record ${i + 1}`) };
  if (isObject(value) && 'journal' in value) {
    const recording = checkRecording(value);
    return { kind: 'recording', recording, ...splitJournal(recording.journal, (i) => `journal[${i}]`) };
  }
  if (isObject(value) && 'id' in value && 'value' in value) {
    return { kind: 'journal', ...splitJournal([value], () => 'line 1') };
  }
  throw new InputError(
    'journal',
    'expected JSON Lines of decisions, a JSON array of decisions, or a recording {config, calls, journal}',
  );
}

function checkRecording(r) {
  if (r.format !== undefined && r.format !== RECORDING_FORMAT) {
    throw new InputError('recording', `unknown format ${JSON.stringify(r.format)} (this page reads ${RECORDING_FORMAT})`);
  }
  if (!Array.isArray(r.journal)) throw new InputError('recording', '"journal" must be an array of records');
  if (r.calls !== undefined && !Array.isArray(r.calls)) throw new InputError('recording', '"calls" must be an array');
  (r.calls ?? []).forEach((c, i) => checkCall(c, `calls[${i}]`));
  if (r.config !== undefined && !isObject(r.config)) throw new InputError('recording', '"config" must be an object');
  if (r.catalog !== undefined && r.catalog !== 'bundled' && catalogTools(r.catalog) === null) {
    throw new InputError('recording', '"catalog" must be "bundled" or a catalog {"tools": [...]}');
  }
  if (r.skills !== undefined && !Array.isArray(r.skills)) throw new InputError('recording', '"skills" must be an array');
  // The learned vocabulary the run was recorded under (the session option
  // "annotations"); the core reads it strictly when the run is replayed.
  if (r.annotations !== undefined && !isObject(r.annotations)) {
    throw new InputError('recording', '"annotations" must be a vocabulary object {"annotations": {…}, …}');
  }
  return r;
}

/**
 * The example the page opens when the link names none: the entry of
 * examples/index.json marked `"default": true` (the clean run: a first look
 * shows a run as it was recorded, not one edited to fail its check), else
 * the first listed; null when there is none.
 */
export function defaultExample(examples) {
  const list = Array.isArray(examples) ? examples.filter((e) => isObject(e) && typeof e.file === 'string' && e.file) : [];
  return list.find((e) => e.default === true) ?? list[0] ?? null;
}

/** Meta-tool names of a session configuration. */
export function metaTools(config) {
  return {
    search: config?.search?.toolName ?? 'search_tools',
    skill: (isObject(config?.skills) && config.skills.toolName) || 'activate_skill',
  };
}

// ---- auto mode and pre-search (docs/sessions.md) ----------------------------

/**
 * The words the page shows for a session's mode (metrics().mode): "all"
 * when auto mode put every tool on the menu from the start and
 * search_tools is not on it, else "search".
 */
export const MODE_WORDS = {
  search: 'mode: search',
  all: 'every tool on the menu (auto mode)',
};

/** Whether a session configuration turns auto mode on (search.auto true or {maxTools, maxChars}). */
export const autoConfigured = (config) => config?.search?.auto === true || isObject(config?.search?.auto);

/**
 * A session's mode for display: { mode ('all' | 'search': the core's
 * metrics().mode; metrics without it are a session's from before auto
 * mode: search), recorded (the mode the journal header records: 'all' when
 * its value has "mode": "all", 'search' for a header without it; null
 * without a header), differs (recorded and live differ: the core reports
 * the header problem), auto (the configuration asked for auto mode: when
 * it did and the mode is search, the universe did not fit its budget) }.
 */
export function modeView(metrics, header = null, config = null) {
  const mode = metrics?.mode === 'all' ? 'all' : 'search';
  const recorded = isObject(header) ? (header.value?.mode === 'all' ? 'all' : 'search') : null;
  return { mode, recorded, differs: recorded !== null && recorded !== mode, auto: autoConfigured(config) };
}

/**
 * The live form's configuration with its "auto mode" box: ticked, search.auto
 * is true unless the configuration already turns it on (its own
 * {maxTools, maxChars} kept); unticked, the configuration as written.
 */
export function withAutoMode(config, on) {
  if (!on || autoConfigured(config)) return config;
  const search = isObject(config?.search) ? config.search : {};
  return { ...config, search: { ...search, auto: true } };
}

/**
 * The turn a live pre-search of the user's next message goes to: the
 * form's model turn when the run has nothing at that turn yet, else the
 * turn after the last one used (the user speaks before the model's next
 * reply; the core refuses a pre-search after its turn's calls).
 */
export function nextPreSearchTurn(calls, turn) {
  const turns = (calls ?? []).map((c) => c.turn);
  return turns.includes(turn) ? Math.max(turn, ...turns) + 1 : turn;
}

/**
 * The calls a journal records, for a journal without its calls file: each
 * search decision becomes a search call with its query, each pre-search a
 * pre-search { turn, preSearch } of its recorded text, each skill
 * activation an activation call with its skill, and each call record
 * (agent-tool-call) a call to its catalog tool, at the turn and call index
 * of the record's id. A call record does not keep the call's arguments:
 * the rebuilt call has none (the session only checks that the tool is on
 * the menu). A failure report (agent-tool-call-failed) is not a call
 * (failureReports). Unknown kinds are skipped (listed in `skipped`).
 */
export function callsFromJournal(records, config) {
  const names = metaTools(config);
  const calls = [];
  const skipped = [];
  for (const d of records) {
    const p = parseDecisionId(d.id);
    if (d.source === CALL_FAILED_SOURCE) continue;
    if (d.source === CALL_SOURCE && p?.kind === 'call' && typeof d.value?.tool === 'string') {
      calls.push({ turn: p.turn, call: p.call, tool: d.value.tool, args: {} });
    } else if (p?.kind === 'search') {
      calls.push({ turn: p.turn, call: p.call, tool: names.search, args: { query: String(d.value?.query ?? '') } });
    } else if (p?.kind === 'pre-search') {
      calls.push({ turn: p.turn, preSearch: String(d.value?.query ?? '') });
    } else if (p?.kind === 'skill') {
      calls.push({ turn: p.turn, call: p.call, tool: names.skill, args: { name: String(d.value?.skill ?? '') } });
    } else skipped.push(d.id);
  }
  return { calls, skipped };
}

/**
 * The calls a journal says the host reported failed (agent-tool-call-failed
 * records): [{ turn, call, tool }]. Replaying a run reports them again
 * after the same calls (Session#callFailed), as the host did, so the
 * replayed journal holds them too.
 */
export function failureReports(records) {
  const out = [];
  for (const d of records ?? []) {
    const p = d?.source === CALL_FAILED_SOURCE ? parseDecisionId(d.id) : null;
    if (p && typeof d.value?.tool === 'string') out.push({ turn: p.turn, call: p.call, tool: d.value.tool });
  }
  return out;
}

/** Menu entry names of a session's MCP menu. */
function menuNames(session) {
  return session.menu('mcp').tools.map((t) => t.name);
}

/**
 * Run `calls` through `session`, one step per call: the output (or the
 * error thrown), the menu after it and the metrics. `failed` lists the
 * calls the host reported failed (failureReports): each is reported again
 * right after its call. `start` is the menu at the start.
 */
export function runSteps(session, calls, failed = []) {
  const start = startOf(session);
  const steps = [];
  for (const c of calls) {
    const s = step(session, c);
    if (failed.some((f) => f.turn === c.turn && f.call === c.call && f.tool === c.tool)) reportFailed(session, s);
    steps.push(s);
  }
  return { start, steps };
}

/**
 * Report step `s`'s call as failed (Session#callFailed: the journal gets an
 * agent-tool-call-failed record). Sets s.failed, or s.failedError with the
 * core's refusal (it refuses a call it did not allow).
 */
export function reportFailed(session, s) {
  try {
    session.callFailed(s.call.turn, s.call.call, s.call.tool);
    s.failed = true;
  } catch (e) {
    s.failedError = { code: e?.code ?? 'error', message: String(e?.message ?? e) };
  }
  return s;
}

/** The menu at the start of a run: names, the MCP specs (what the model reads) and the metrics. */
export function startOf(session) {
  const specs = session.menu('mcp').tools;
  return { menu: specs.map((t) => t.name), specs, metrics: session.metrics() };
}

/**
 * The search meta-tool's description split for display: the session's
 * instructions, then (after the first blank line) the catalog overview the
 * core appended (search.overview), or '' when there is none.
 */
export function metaToolText(specs, config) {
  const spec = (specs ?? []).find((t) => t.name === metaTools(config).search);
  if (!spec) return null;
  const text = String(spec.description ?? '');
  const cut = text.indexOf('\n\n');
  return { name: spec.name, description: text, instructions: cut < 0 ? text : text.slice(0, cut), overview: cut < 0 ? '' : text.slice(cut + 2) };
}

/**
 * One call through a session: { call, output | error, menu, added,
 * metrics, metricsBefore }. A pre-search ({ turn, preSearch }) goes to
 * Session#preSearch: its output is { call: { turn, preSearch: true },
 * result (a search page), decision }.
 */
export function step(session, c) {
  const menuBefore = menuNames(session);
  const metricsBefore = session.metrics();
  let output = null;
  let error = null;
  try {
    output = send(session, c);
  } catch (e) {
    error = { code: e?.code ?? 'error', message: String(e?.message ?? e) };
  }
  const menu = menuNames(session);
  const seen = new Set(menuBefore);
  return { call: c, output, error, menu, added: menu.filter((n) => !seen.has(n)), metrics: session.metrics(), metricsBefore };
}

/** A call of a run through a session: a pre-search to Session#preSearch, a tool call to Session#call. */
function send(session, c) {
  return isPreSearch(c) ? session.preSearch(c.turn, c.preSearch) : session.call(c.turn, c.call, c.tool, c.args ?? {});
}

const WARN_DROPPED = /^replay: dropped "((?:[^"\\]|\\.)*)": (.+)$/;
const WARN_LIVE = /ranked live/;

/** Stable JSON (sorted keys) for comparing decisions. */
export function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * A journal decision without its `chain` digest: the decision a session's
 * output carries (the digest is the journal's, and the core verifies it).
 */
export function withoutChain(d) {
  if (!isObject(d) || !('chain' in d)) return d;
  const { chain: _, ...rest } = d;
  return rest;
}

/**
 * Judge one recorded decision against its replay (the recorded one without
 * its chain digest: whether the chain holds is the core's verdict, in
 * replayRun's `chain`).
 *   identical  the replayed decision is the recorded one
 *   narrowed   every array of the replayed value is a subset of the recorded
 *              one and everything else is equal: `dropped` lists each id
 *              left out ({ field, id, reason })
 *   diverged   anything else (not asked, ranked live, a field changed or grew)
 * `ctx` = { warnings, trustOf(id), caps, metricsBefore }.
 */
export function judge(recorded, replayed, ctx = {}) {
  if (!replayed) return { verdict: 'diverged', why: ctx.why ?? 'the replay did not serve this decision' };
  if (canonical(withoutChain(recorded)) === canonical(replayed)) return { verdict: 'identical' };
  if (recorded.id !== replayed.id || recorded.source !== replayed.source) {
    return { verdict: 'diverged', why: `replay made another decision here: ${replayed.id} (${replayed.source})` };
  }
  const rv = isObject(recorded.value) ? recorded.value : {};
  const pv = isObject(replayed.value) ? replayed.value : {};
  const reasons = new Map();
  for (const w of ctx.warnings ?? []) {
    const m = WARN_DROPPED.exec(w);
    if (m) reasons.set(JSON.parse(`"${m[1]}"`), m[2]);
  }
  const dropped = [];
  const changed = [];
  for (const key of new Set([...Object.keys(rv), ...Object.keys(pv)])) {
    const a = rv[key];
    const b = pv[key];
    if (canonical(a) === canonical(b)) continue;
    if (PER_RESULT.has(key) && Array.isArray(b) && Array.isArray(pv.results)) {
      judgePerResult(key, rv, pv, ctx.warnings ?? [], dropped, changed);
      continue;
    }
    const unread = b === undefined && a !== undefined ? unreadPage(key, rv) : null;
    if (unread) {
      dropped.push({ field: key, id: '(all)', reason: unread });
      continue;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const keep = new Set(b.map(canonical));
      const had = new Set(a.map(canonical));
      const grew = b.filter((x) => !had.has(canonical(x)));
      if (grew.length) {
        changed.push(`${key} gained ${grew.map((x) => JSON.stringify(x)).join(', ')}`);
        continue;
      }
      const order = a.filter((x) => keep.has(canonical(x)));
      if (canonical(order) !== canonical(b)) {
        changed.push(`${key} reordered`);
        continue;
      }
      for (const x of a) {
        if (keep.has(canonical(x))) continue;
        dropped.push({ field: key, id: typeof x === 'string' ? x : canonical(x), reason: dropReason(key, x, pv, reasons, ctx) });
      }
    } else if (Array.isArray(b) && b.length === 0 && !Array.isArray(a)) {
      // A malformed record field is read as nothing: narrower, never wider.
      const warned = (ctx.warnings ?? []).find((w) => w.includes(`value.${key} `));
      dropped.push({
        field: key,
        id: a === undefined ? '(missing)' : canonical(a).slice(0, 60),
        reason: warned ? warned.replace(/^replay: /, '') : a === undefined ? 'missing from the record: read as []' : 'not an array: read as []',
      });
    } else if (b === undefined && Array.isArray(a)) {
      changed.push(`${key} missing from the replay`);
    } else {
      changed.push(`${key}: ${canonical(a)?.slice(0, 60)} → ${canonical(b)?.slice(0, 60)}`);
    }
  }
  if (changed.length) return { verdict: 'diverged', why: changed.join('; '), dropped };
  return { verdict: 'narrowed', dropped };
}

const GRADES = ['strong', 'partial', 'selected'];
/** Fields with one entry per result (aligned with `results`), judged per result id. */
const PER_RESULT = new Set(['grades', 'matched']);
const GRADED_FIELDS = new Set(['grades', 'matched', 'unmatched']);
const SELECT_FIELDS = new Set(['unknown', 'onMenu']);

/** Why replay wrote no `key` for this record (it read the page as ungraded or empty), or null. */
function unreadPage(key, rv) {
  if (!GRADED_FIELDS.has(key) && !SELECT_FIELDS.has(key)) return null;
  if (!Array.isArray(rv.results)) return 'value.results is not an array: the page is read as nothing';
  if (GRADED_FIELDS.has(key) && !Array.isArray(rv.grades)) return 'the record has no grades array: replayed as an ungraded page';
  if (SELECT_FIELDS.has(key) && rv.ranker !== 'select') return 'the record is not a select: page (its ranker)';
  return null;
}

/** The entries of `sup` left out when `sub` is taken from it in order, or null when it is not. */
function leftOut(sub, sup) {
  const out = [];
  let k = 0;
  for (const x of sup) {
    if (k < sub.length && canonical(sub[k]) === canonical(x)) k++;
    else out.push(x);
  }
  return k === sub.length ? out : null;
}

/**
 * grades and matched, result by result: each result the replay kept is
 * found in the record by its id (a dropped result takes its entries with
 * it). A grade the core could not read becomes "partial" and matched words
 * that are not words of the query are dropped: narrower. Anything else is
 * a change.
 */
function judgePerResult(key, rv, pv, warnings, dropped, changed) {
  const a = rv[key];
  const b = pv[key];
  const at = new Map();
  (Array.isArray(rv.results) ? rv.results : []).forEach((id, i) => {
    if (!at.has(id)) at.set(id, i);
  });
  const warned = (text) => warnings.find((w) => w.includes(text))?.replace(/^replay: /, '');
  pv.results.forEach((id, j) => {
    const i = at.get(id);
    const ra = i === undefined || !Array.isArray(a) ? undefined : a[i];
    const pb = b[j];
    if (canonical(ra) === canonical(pb)) return;
    if (key === 'grades') {
      if (pb === 'partial' && !GRADES.includes(ra)) {
        dropped.push({ field: key, id, reason: `recorded grade ${ra === undefined ? '(missing)' : canonical(ra).slice(0, 40)} read as partial` });
      } else changed.push(`the grade of ${id}: ${canonical(ra)} → ${canonical(pb)}`);
      return;
    }
    const rest = Array.isArray(pb) ? leftOut(pb, Array.isArray(ra) ? ra : []) : null;
    if (rest === null) {
      changed.push(`the ${key} words of ${id}: ${canonical(ra)?.slice(0, 60)} → ${canonical(pb)?.slice(0, 60)}`);
      return;
    }
    if (!Array.isArray(ra)) dropped.push({ field: key, id, reason: 'not an array: read as no words' });
    for (const word of rest) {
      dropped.push({ field: key, id: `${id}: ${canonical(word).slice(0, 40)}`, reason: warned(`recorded ${key} word`) ?? 'dropped by replay' });
    }
  });
}

function dropReason(field, id, replayedValue, reasons, ctx) {
  if (typeof id !== 'string') return 'not a string';
  if (reasons.has(id)) return reasons.get(id);
  const word = (ctx.warnings ?? []).find((w) => w.includes(`recorded ${field} word`));
  if (word) return word.replace(/^replay: /, '');
  if (field === 'loaded') {
    if (Array.isArray(replayedValue.results) && !replayedValue.results.includes(id)) return 'dropped from results';
    const grade = Array.isArray(replayedValue.grades) ? replayedValue.grades[replayedValue.results.indexOf(id)] : undefined;
    if (grade === 'partial' && (ctx.caps?.load ?? 'strong') !== 'all') return 'a partial match: listed, not loaded (search.load "strong")';
    if (ctx.trustOf?.(id) === 'tainted') return 'tainted: never loaded';
    const cap = ctx.caps?.maxLoaded ?? 20;
    const loadedBefore = ctx.metricsBefore?.loaded;
    if (Array.isArray(replayedValue.loaded) && loadedBefore !== undefined && loadedBefore + replayedValue.loaded.length >= cap) {
      return `the live loading plan: maxLoaded (${cap}) is full`;
    }
    if (ctx.caps?.maxMenuChars) return `the live loading plan: over maxMenuChars (${ctx.caps.maxMenuChars})`;
    return 'the live loading plan did not load it';
  }
  return 'dropped by replay';
}

/**
 * Replay a run and judge it. `run` = { config (with catalog), calls?,
 * header, journal (its records: decisions and call records), annotations?
 * (the vocabulary to replay under: the session option, as text or an
 * object), trustOf? }. Without calls, the calls are rebuilt from the
 * journal; the failures it records are reported again after their calls.
 * Returns { steps, start, verdicts, callRecords, chain, diverged, unasked,
 * finishError, metrics, menu, fingerprint }: every journal decision gets
 * one verdict, in journal order (its `index` is its place in run.journal);
 * searches the journal lacks (ranked live) are verdicts too, with recorded
 * = null. Call records are not decisions: `callRecords` says, for each,
 * whether the replay wrote it again (callRecordView).
 */
export function replayRun(toolsift, run) {
  if (!Array.isArray(run.journal)) throw new InputError('journal', 'run.journal must be an array of records');
  const at = run.journal.findIndex(isJournalHeader);
  if (at >= 0) {
    throw new InputError('journal', `run.journal[${at}] is the journal header: pass it as run.header and the records as run.journal (splitJournal)`);
  }
  const rebuilt = run.calls ? { calls: run.calls, skipped: [] } : callsFromJournal(run.journal, run.config);
  // The header goes back with the records: the core verifies the chain
  // (and the header against the live catalog, configuration and
  // vocabulary) on open.
  const options = { journal: journalRecords(run.header, run.journal), divergence: 'warn', annotations: run.annotations ?? undefined };
  const session = toolsift.createSession(run.config, options);
  try {
    const verified = session.verify();
    const { start, steps } = runSteps(session, rebuilt.calls, failureReports(run.journal));
    let finish = null;
    let finishError = null;
    try {
      finish = session.finish();
    } catch (e) {
      finishError = String(e?.message ?? e);
    }
    const unasked = new Set(finish?.unasked ?? []);
    const served = new Map(); // journal index -> step index
    const extra = [];
    const used = new Set();
    steps.forEach((s, i) => {
      const d = s.output?.decision;
      if (!d) return;
      const live = (s.output.warnings ?? []).some((w) => WARN_LIVE.test(w));
      const k = run.journal.findIndex((r, j) => !used.has(j) && !isCallRecord(r) && r.id === d.id);
      if (live || k < 0) {
        extra.push(i);
        return;
      }
      used.add(k);
      served.set(k, i);
    });
    const caps = { ...(run.config.search ?? {}) };
    const chain = chainView(verified, steps);
    // The core numbers chain problems by record (call records included).
    const problemAt = (k) => chain.broken.find((p) => p.at === k + 1)?.problem ?? null;
    const verdicts = [];
    run.journal.forEach((recorded, k) => {
      if (isCallRecord(recorded)) return;
      const i = served.get(k);
      const s = i === undefined ? null : steps[i];
      const why = unasked.has(recorded.id)
        ? 'never asked for by the replayed run'
        : rebuilt.skipped.includes(recorded.id)
          ? 'a decision kind this page cannot replay'
          : 'the replayed run did not ask for it at this point';
      const v = judge(recorded, s?.output?.decision ?? null, {
        warnings: s?.output?.warnings,
        trustOf: run.trustOf,
        caps,
        metricsBefore: s?.metricsBefore,
        why,
      });
      verdicts.push({
        index: k, id: recorded.id, recorded, replayed: s?.output?.decision ?? null, step: i ?? null, ...v,
        chain: problemAt(k),
      });
    });
    for (const i of extra) {
      const d = steps[i].output.decision;
      verdicts.push({
        index: null, id: d.id, recorded: null, replayed: d, step: i, verdict: 'diverged',
        why: 'the journal has no decision here: ranked live',
      });
    }
    steps.forEach((s, i) => {
      s.verdict = verdicts.find((v) => v.step === i) ?? null;
    });
    // A decision the replay did not serve is shown at the call of its turn
    // and call index (e.g. an activation this build refuses).
    for (const v of verdicts) {
      if (v.step !== null || !v.recorded) continue;
      const p = parseDecisionId(v.id);
      const at = (c) => (p.kind === 'pre-search' ? isPreSearch(c) : !isPreSearch(c) && c.call === p.call);
      const i = steps.findIndex((s) => !s.verdict && p && s.call.turn === p.turn && at(s.call));
      if (i >= 0) {
        steps[i].verdict = v;
        v.at = i;
      }
    }
    const callRecords = callRecordView(run.journal, splitJournal(session.journal()).records, steps, problemAt);
    for (const c of callRecords) if (c.step !== null) (steps[c.step].callRecords ??= []).push(c);
    return {
      start, steps, verdicts, callRecords, chain, unasked: [...unasked], finishError,
      diverged: chain.header.length ? divergence(toolsift, run.config, options) : null,
      metrics: session.metrics(), menu: session.menu('mcp').tools, fingerprint: session.fingerprint,
    };
  } finally {
    session.free();
  }
}

/**
 * The journal's call records against the ones the replay wrote (replay
 * passes over the recorded ones and records the calls it makes again):
 * per recorded call record { index (its place in the journal), id, source,
 * tool, failed (a failure report), recorded, replayed (the replay's record
 * with the same id and source, or null), same (equal but for the chain
 * digest: the replay's chain starts from its own header), step (the step
 * of its call, or null), chain (the core's chain problem at it, or null) }.
 */
export function callRecordView(recordedRecords, replayedRecords, steps = [], problemAt = () => null) {
  const out = [];
  recordedRecords.forEach((recorded, k) => {
    if (!isCallRecord(recorded)) return;
    const replayed = replayedRecords.find((r) => r.id === recorded.id && r.source === recorded.source) ?? null;
    const p = parseDecisionId(recorded.id);
    const i = p ? steps.findIndex((s) => s.call.turn === p.turn && s.call.call === p.call) : -1;
    out.push({
      index: k, id: recorded.id, source: recorded.source, tool: typeof recorded.value?.tool === 'string' ? recorded.value.tool : null,
      failed: recorded.source === CALL_FAILED_SOURCE, recorded, replayed,
      same: replayed !== null && canonical(withoutChain(recorded)) === canonical(withoutChain(replayed)),
      step: i >= 0 ? i : null, chain: problemAt(k),
    });
  });
  return out;
}

/**
 * The core's verdict on a replay under another vocabulary: replay opened
 * with divergence "fail" refuses a journal recorded under another learned
 * vocabulary with the error code "diverged" (journal_chain.c), and that
 * error's message is returned; null when the core raises no such error (a
 * header problem of another kind: another catalog or configuration, which
 * the chain view lists). The page replays in "warn" mode, so this second
 * open is how it learns which of the header's problems the core counts as
 * a divergence rather than guessing from their text.
 */
export function divergence(toolsift, config, options) {
  let session = null;
  try {
    session = toolsift.createSession(config, { ...options, divergence: 'fail' });
    return null;
  } catch (e) {
    return e?.code === 'diverged' ? String(e.message) : null;
  } finally {
    session?.free();
  }
}

const WARN_UNCHAINED = /^replay: (the journal has no hash chain.*)$/;

/**
 * The core's verdict on the journal's hash chain (session.verify()), for
 * display: { verified, chained, keyed, decisions, header: [problem] (the
 * journal as a whole: its header against the live catalog, configuration,
 * vocabulary and key), broken: [{ at, problem }] (record `at`, 1-based, in
 * journal order: the core counts call records too, and its text calls
 * every record a "decision"), first: the first broken record's position or
 * null, unchained:
 * the core's warning for a journal without a chain, or null }. Nothing is
 * recomputed: the problems are the core's text.
 */
export function chainView(verified, steps = []) {
  const problems = Array.isArray(verified?.problems) ? verified.problems : [];
  const broken = problems.filter((p) => p.at > 0);
  let unchained = null;
  if (verified && !verified.chained) {
    for (const s of steps) {
      const m = (s.output?.warnings ?? []).map((w) => WARN_UNCHAINED.exec(w)).find(Boolean);
      if (m) {
        unchained = m[1];
        break;
      }
    }
    unchained ??= 'the journal has no hash chain: edits to it cannot be detected';
  }
  return {
    verified: verified?.verified === true,
    chained: verified?.chained === true,
    keyed: verified?.keyed === true,
    decisions: verified?.decisions ?? 0,
    header: problems.filter((p) => p.at === 0).map((p) => p.problem),
    broken,
    first: broken.length ? broken[0].at : null,
    unchained,
  };
}

/**
 * Rank the recorded calls again, live (no journal): per decision id the
 * decision the ranker makes now. A recorded search whose results differ from
 * it holds an id the ranker did not pick (a forged id the live universe
 * authorises is admitted by replay — SPEC S9 — and only shows up here), or
 * the catalog or ranker changed since.
 */
export function rerankRun(toolsift, run) {
  const calls = run.calls ?? callsFromJournal(run.journal, run.config).calls;
  // Ranked under the vocabulary the replay uses: the one the run is judged by.
  const session = toolsift.createSession(run.config, { annotations: run.annotations ?? undefined });
  try {
    const live = new Map();
    for (const c of calls) {
      let out = null;
      try {
        out = send(session, c);
      } catch {
        continue;
      }
      if (out?.decision) live.set(out.decision.id, out.decision);
    }
    return live;
  } finally {
    session.free();
  }
}

/** The value fields in which a recorded decision and the live one differ (results, grades, loaded, …). */
export function rerankDiff(recorded, live) {
  const a = isObject(recorded?.value) ? recorded.value : {};
  const b = isObject(live?.value) ? live.value : {};
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => canonical(a[k]) !== canonical(b[k]));
}

/** 'same' | 'differs' | 'none': a recorded decision against the live re-ranking. */
export function rerankVerdict(recorded, live) {
  if (!live || !recorded) return 'none';
  return rerankDiff(recorded, live).length ? 'differs' : 'same';
}

/**
 * What replay guarantees after an edit of the journal (SPEC S6, S9): every
 * tool the edit added to the menu is inside the live authority (a catalog
 * tool, inside the namespaces, not tainted) and the caps hold. Returns
 * { added, removed, violations }: violations empty unless replay widened
 * beyond authority (a bug).
 */
export function authorityCheck({ before, after, config, trustOf, metrics }) {
  const had = new Set(before);
  const added = after.filter((n) => !had.has(n));
  const removed = before.filter((n) => !after.includes(n));
  const violations = [];
  const ns = config?.search?.namespaces;
  for (const id of added) {
    const trust = trustOf?.(id);
    if (trust === undefined) violations.push(`${id} is not in the catalog`);
    else if (trust === 'tainted') violations.push(`${id} is tainted`);
    if (Array.isArray(ns) && ns.length && !ns.some((p) => id.startsWith(p))) violations.push(`${id} is outside the namespaces`);
  }
  const s = config?.search ?? {};
  if (metrics) {
    if (metrics.loaded > (s.maxLoaded ?? 20)) violations.push(`loaded ${metrics.loaded} > maxLoaded ${s.maxLoaded ?? 20}`);
    if (metrics.searches > (s.maxSearches ?? 25)) violations.push(`searches ${metrics.searches} > maxSearches ${s.maxSearches ?? 25}`);
    if (s.maxMenuChars && metrics.menuChars > s.maxMenuChars) violations.push(`menu characters ${metrics.menuChars} > maxMenuChars ${s.maxMenuChars}`);
  }
  return { added, removed, violations };
}

/** Counts of verdicts: { identical, narrowed, diverged }. */
export function summarize(verdicts) {
  const out = { identical: 0, narrowed: 0, diverged: 0 };
  for (const v of verdicts) out[v.verdict]++;
  return out;
}

// ---- the graded loop, for display ----------------------------------------------

const strings = (v) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/**
 * A search_tools answer for the timeline, as the session gave it: each
 * listed tool with its loaded flag, grade (strong / partial / selected, or
 * null on an ungraded page) and matched words, and whether the record
 * claimed it loaded; the page's note, unmatched words, vocabulary and, for
 * select:, the unknown names and those already on the menu. `decision` is
 * the decision the call wrote (replayed or live), `recorded` the journal's
 * record when replaying. Nothing is computed but counts.
 */
export function pageView(result, decision, recorded) {
  if (!isObject(result) || !Array.isArray(result.tools)) return null;
  const value = isObject(decision?.value) ? decision.value : isObject(recorded?.value) ? recorded.value : {};
  const claimed = new Set(strings(recorded?.value?.loaded));
  const tools = result.tools.map((t) => ({
    name: String(t?.name ?? ''),
    description: String(t?.description ?? ''),
    loaded: t?.loaded === true,
    match: typeof t?.match === 'string' ? t.match : null,
    matched: strings(t?.matched),
    claimed: t?.loaded !== true && claimed.has(t?.name),
  }));
  const grades = {};
  for (const t of tools) if (t.match) grades[t.match] = (grades[t.match] ?? 0) + 1;
  return {
    select: value.ranker === 'select',
    ranker: typeof value.ranker === 'string' ? value.ranker : null,
    tools,
    loaded: tools.filter((t) => t.loaded).length,
    listed: tools.filter((t) => !t.loaded).length,
    grades,
    unmatched: strings(result.unmatched),
    vocabulary: strings(result.vocabulary),
    unknown: strings(result.unknown),
    onMenu: strings(value.onMenu),
    note: typeof result.note === 'string' ? result.note : '',
    tainted: result.tainted === true,
    skills: Array.isArray(result.skills)
      ? result.skills.map((sk) => (typeof sk === 'string' ? sk : String(sk?.name ?? sk?.id ?? JSON.stringify(sk)))) : [],
  };
}

/**
 * The analysed query of an explained index search, for display: the
 * analyser's tokens (stopword / unmatched / term), and the query's words
 * with the evidence the core weighs each with (analysis.evidence, in its
 * order; an unmatched word without evidence last, with null), whether it
 * matched nothing, and its typo correction (analysis.corrections).
 */
export function queryView(result) {
  const a = isObject(result?.analysis) ? result.analysis : { tokens: strings(result?.terms), stopwords: [] };
  const stop = new Set(strings(a.stopwords));
  const unmatched = strings(result?.unmatched);
  const unmatchedSet = new Set(unmatched);
  const corrections = (Array.isArray(a.corrections) ? a.corrections : []).filter((c) => Array.isArray(c) && c.length === 2);
  const fixed = new Map(corrections.map(([w, to]) => [w, to]));
  const tokens = strings(a.tokens).map((t) => ({ text: t, kind: stop.has(t) ? 'stop' : unmatchedSet.has(t) ? 'unmatched' : 'term' }));
  const evidence = isObject(a.evidence) ? a.evidence : {};
  const words = Object.entries(evidence).map(([word, weight]) => ({
    word, evidence: weight, unmatched: unmatchedSet.has(word), correction: fixed.get(word) ?? null,
  }));
  for (const w of unmatched) if (!(w in evidence)) words.push({ word: w, evidence: null, unmatched: true, correction: fixed.get(w) ?? null });
  const maxEvidence = Math.max(0, ...words.map((w) => w.evidence ?? 0));
  return { tokens, words, corrections, unmatched, stopwords: strings(a.stopwords), maxEvidence };
}

/**
 * The explain table's rows of one hit: per query term, each way the hit
 * matched it (the term itself, or `via` a vocabulary word or a typo
 * correction), or one row with entry null when the hit does not match it.
 */
export function termRows(queryTerms, explainTerms, corrections = []) {
  const typo = new Set(corrections.map(([w, to]) => `${w}\u0000${to}`));
  const rows = [];
  for (const term of queryTerms) {
    const entries = (explainTerms ?? []).filter((t) => t.term === term);
    if (!entries.length) rows.push({ term, via: null, kind: null, entry: null });
    for (const e of entries) {
      const kind = e.via === undefined || e.via === null ? null : typo.has(`${term}\u0000${e.via}`) ? 'typo' : 'vocabulary';
      rows.push({ term, via: e.via ?? null, kind, entry: e });
    }
  }
  return rows;
}

/** How many hits have each grade: { strong, partial, … }. */
export function gradeCounts(hits) {
  const out = {};
  for (const h of hits ?? []) if (typeof h?.match === 'string') out[h.match] = (out[h.match] ?? 0) + 1;
  return out;
}

// ---- the first view: what a session would do with a request ------------------

/**
 * The example requests the Search tab offers on the bundled catalog, one per
 * outcome a new user should see: a best hit graded strong (a session loads
 * it), a best hit only partial (listed, not loaded) and a miss (no tool
 * matches any word). Chosen by running the core; tests/playground/
 * model.test.mjs checks with the binding that each still gets its outcome.
 */
export const FIRST_EXAMPLES = [
  { query: 'refund a payment to a customer', outcome: 'strong' },
  { query: 'translate this paragraph into German', outcome: 'partial' },
  { query: 'bake sourdough bread', outcome: 'miss' },
];

/** What each outcome means, in the words the page shows next to it. */
export const OUTCOME_WORDS = {
  strong: 'strong: a session loads it',
  partial: 'partial: listed, not loaded',
  miss: 'miss: no tool matches',
};

/**
 * The outcome of a search, as the core graded it: the best hit's `match`
 * ('strong' or 'partial'), or 'miss' when the search found no tool.
 */
export function searchOutcome(result) {
  const best = Array.isArray(result?.hits) ? result.hits[0] : undefined;
  if (!best) return 'miss';
  return typeof best.match === 'string' ? best.match : 'ungraded';
}

/** A session's page size ceiling (SessionSearchConfig.maxPerSearch: 1..50). */
export const MAX_PER_SEARCH = 50;

/**
 * What a new session would answer to `query` as the model's first
 * search_tools call: a session over the index `snapshot` (the Search tab's
 * index, with its vocabulary and vectors), the core's default caps and a
 * page of `limit` hits (at most MAX_PER_SEARCH); with `model`, its queries
 * embedded as the Search tab's are. Returns { size, page (pageView: each
 * hit's loaded flag, grade and matched words, the note, unmatched words,
 * vocabulary), refusal ({ error, message } when the session refused the
 * call, else null), overview (the catalog overview the model reads at the
 * end of the search meta-tool's description), warnings }. Nothing is
 * computed here: every field is the core's.
 */
export function sessionPreview(toolsift, snapshot, query, { limit = 10, model = null } = {}) {
  const size = Math.max(1, Math.min(MAX_PER_SEARCH, Math.trunc(limit) || 1));
  const config = { tools: [], search: { maxPerSearch: size } };
  const session = toolsift.createSession(config, { snapshot });
  try {
    if (model) session.setEmbedder(model);
    const out = session.call(0, 0, metaTools(config).search, { query, limit: size });
    const result = out?.result ?? {};
    const meta = metaToolText(session.menu('mcp').tools, config);
    return {
      size,
      page: result.error ? null : pageView(result, out.decision ?? null, null),
      refusal: result.error ? { error: String(result.error), message: String(result.message ?? '') } : null,
      overview: meta?.overview ?? '',
      warnings: Array.isArray(out?.warnings) ? out.warnings : [],
    };
  } finally {
    if (model) session.setEmbedder(null);
    session.free();
  }
}

// ---- URL hash state ------------------------------------------------------------

/** UTF-8 text to base64url. */
export function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url to UTF-8 text (throws InputError on garbage). */
export function fromBase64Url(s, what) {
  try {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(what, 'the link carries data that is not base64url UTF-8');
  }
}

/** Inputs up to this many characters go into the URL hash. */
export const HASH_LIMIT = 4000;
