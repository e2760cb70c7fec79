// common.js — what the three SDK adapters share: a session over the host's
// own tool list, the turn/call counter that names each model tool call for
// the session (SPEC S7: decisions advance in (turn, call)), resuming a
// conversation from its journal, and refusal text for the model.
//
// The session does the work (ranking, caps, the append-only menu, the
// journal, replay); an adapter only translates one SDK's wire shapes.

const DECISION_ID = /#turn:(\d+):tool:(\d+):/;

/** Error thrown for a misuse of an adapter (a bad option, an unknown tool). */
/** What every adapter's search tool says of itself, and its two arguments. */
/**
 * The search meta-tool's description: the core's (how to search, select:,
 * +word, the load policy and the catalog overview), fixed for the session.
 */
export function searchDescription(session) {
  return session.menu('mcp').tools[0].description;
}
export const SEARCH_ARGUMENTS = Object.freeze({
  query: Object.freeze({ type: 'string', description: 'What the tool should do, in a few words.' }),
  limit: Object.freeze({ type: 'integer', minimum: 1, description: 'At most this many tools.' }),
});

export class ToolsiftIntegrationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ToolsiftIntegrationError';
  }
}

export function fail(where, message) {
  throw new ToolsiftIntegrationError(`${where}: ${message}`);
}

const SESSION_KEYS = new Set([
  'toolsift', 'tools', 'agentTools', 'search', 'loop', 'annotations', 'journal', 'divergence', 'journalKey',
  'resume', 'ranker', 'model', 'minSimilarity',
]);

/**
 * Check the options every adapter takes (plus its own `extra` keys): an
 * unknown key is an error, so a typo does not silently change behaviour.
 */
export function checkOptions(where, options, extra = []) {
  if (options === null || typeof options !== 'object') fail(where, 'options must be an object');
  for (const k of Object.keys(options)) {
    if (!SESSION_KEYS.has(k) && !extra.includes(k)) fail(where, `unknown option "${k}"`);
  }
  const ts = options.toolsift;
  if (!ts || typeof ts.createSession !== 'function') {
    fail(where, 'options.toolsift must be the object load() resolves to (import { load } from "toolsift")');
  }
  if (options.agentTools != null && !Array.isArray(options.agentTools)) {
    fail(where, 'options.agentTools must be an array of tool names');
  }
  if (options.resume && options.journal == null) fail(where, 'options.resume needs options.journal');
  if (options.model != null && typeof options.model?.embed !== 'function') {
    fail(where, 'options.model must be a StaticModel (toolsift.loadStaticModel)');
  }
  if (options.minSimilarity != null && options.model == null) fail(where, 'options.minSimilarity is a setting of options.model');
}

/**
 * Build the session from the host's tools, already turned into catalog
 * tools (`entries`: [{ id, tool }], tool in any toolsift catalog shape).
 * Tools named in options.agentTools become the agent's own tools (always on
 * the menu, never searched); the rest is the searchable catalog.
 */
export function openSession(where, options, entries) {
  const agentNames = new Set(options.agentTools ?? []);
  const seen = new Set();
  for (const { id } of entries) {
    if (seen.has(id)) fail(where, `tool "${id}" is given twice`);
    seen.add(id);
  }
  for (const name of agentNames) {
    if (!seen.has(name)) fail(where, `agentTools: no tool "${name}" among the tools given`);
  }
  const agent = entries.filter((e) => agentNames.has(e.id)).map((e) => e.tool);
  const catalog = entries.filter((e) => !agentNames.has(e.id)).map((e) => e.tool);
  const config = {
    loop: options.loop ?? 'agent',
    tools: agent,
    catalog: options.annotations ? { tools: catalog, annotations: options.annotations } : { tools: catalog },
    search: options.search ?? {},
  };
  const resume = Boolean(options.resume);
  const sessionOptions = {};
  if (options.journal != null) sessionOptions.journal = options.journal;
  if (options.ranker != null) sessionOptions.ranker = options.ranker;
  if (options.journalKey != null) sessionOptions.journalKey = options.journalKey;
  sessionOptions.divergence = options.divergence ?? (resume ? 'off' : 'fail');
  const session = options.toolsift.createSession(config, sessionOptions);
  // a static model: the session's tools embedded, each search's query too (in the core)
  if (options.model != null) {
    try {
      session.setEmbedder(options.model, options.minSimilarity ?? -2);
    } catch (e) {
      session.free();
      throw e;
    }
  }
  let turn = 0;
  if (resume) {
    // The recorded run's menu, without its calls; the conversation goes on
    // after the last recorded turn, and later searches rank live.
    session.applyJournal();
    turn = nextTurn(session.journal());
  }
  return { session, config, turn };
}

/** The first turn after every decision of `journal` (0 for none). */
export function nextTurn(journal) {
  let next = 0;
  for (const d of journal) {
    const m = DECISION_ID.exec(d?.id ?? '');
    if (m) next = Math.max(next, Number(m[1]) + 1);
  }
  return next;
}

/** The search meta-tool's name in this session. */
export function searchToolName(config) {
  return config.search?.toolName ?? 'search_tools';
}

/** The names on the session's menu, in menu order. */
export function menuNames(session) {
  return session.menu('mcp').tools.map((t) => t.name);
}

/** The ids a search call loaded (in page order), [] for a refusal. */
export function loadedIds(result) {
  return Array.isArray(result?.tools) ? result.tools.filter((t) => t.loaded).map((t) => t.name) : [];
}

/** A refusal (or a page that loaded nothing) as one line the model can act on. */
export function refusalText(result) {
  if (result && typeof result.error === 'string') {
    const tool = result.tool ? ` (${result.tool})` : '';
    return `${result.error}${tool}: ${result.message ?? ''}`.trim();
  }
  if (result && Array.isArray(result.tools)) {
    const names = result.tools.map((t) => `${t.name}${t.loaded ? '' : ' (not loaded)'}`);
    const parts = [];
    if (names.length) parts.push(`found: ${names.join(', ')}`);
    if (result.note) parts.push(result.note);
    if (Array.isArray(result.vocabulary) && result.vocabulary.length) parts.push(`vocabulary: ${result.vocabulary.join(', ')}`);
    return parts.join('. ') || 'no tools matched';
  }
  return 'no result';
}

/** Parse JSON arguments from a wire string; unparseable text is passed as a JSON string (refused as invalid_input). */
export function parseArgs(text) {
  if (typeof text !== 'string') return text ?? {};
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return JSON.stringify(text); // a JSON string, not an object: the session answers invalid_input
  }
}
