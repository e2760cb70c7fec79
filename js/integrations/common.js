// common.js — what the three SDK adapters share: a session over the host's
// own tool list, the turn/call counter that names each model tool call for
// the session (SPEC S7: decisions advance in (turn, call)), resuming a
// conversation from its journal, pre-search, and refusal text for the model;
// and the import of an optional peer (the SDK), which the gateway's entry
// (js/mcp/index.js) shares.
//
// The session does the work (ranking, caps, the append-only menu, the
// journal, replay, auto mode, pre-search); an adapter only translates one
// SDK's wire shapes.

// A decision's id names its turn: "<loop>#turn:T:tool:C:<kind>" for what a
// model call recorded, "<loop>#turn:T:pre-search" for the host's pre-search.
const DECISION_ID = /#turn:(\d+):(?:tool:\d+:|pre-search$)/;

/**
 * The search meta-tool's description: the core's (how to search, select:,
 * +word, the load policy and the catalog overview), fixed for the session.
 * null in mode 'all' (search.auto put every tool on the menu and there is no
 * search tool), so it is looked up by name, never by position.
 */
export function searchDescription(session, name) {
  return session.menu('mcp').tools.find((t) => t.name === name)?.description ?? null;
}
/** What every adapter's search tool takes: its two arguments. */
export const SEARCH_ARGUMENTS = Object.freeze({
  query: Object.freeze({ type: 'string', description: 'What the tool should do, in a few words.' }),
  limit: Object.freeze({ type: 'integer', minimum: 1, description: 'At most this many tools.' }),
});

/** A misuse of an adapter (a bad option, an unknown tool); the message names what is wrong. */
export class ToolsiftIntegrationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ToolsiftIntegrationError';
  }
}

export function fail(where, message) {
  throw new ToolsiftIntegrationError(`${where}: ${message}`);
}

/**
 * Import an optional peer dependency of toolsift (`load`, the import): when
 * it is not installed (its error's message matches `missing`), throw
 * `missingError()`, which says what to install, instead of Node's bare
 * "Cannot find package", with the code a host that checks it expects and
 * the import's error as its cause (tests/front-door/newcomer.test.mjs).
 * toolsift/ai-sdk and toolsift/mcp (the gateway) guard their peers with it.
 */
export async function importPeer(load, missing, missingError) {
  try {
    return await load();
  } catch (e) {
    if (!missing.test(String(e?.message))) throw e;
    const error = missingError();
    error.code = e.code ?? 'ERR_MODULE_NOT_FOUND';
    error.cause = e;
    throw error;
  }
}

const SESSION_KEYS = new Set([
  'toolsift', 'tools', 'agentTools', 'search', 'loop', 'annotations', 'journal', 'divergence', 'journalKey',
  'resume', 'ranker', 'model', 'minSimilarity',
]);

/**
 * Check the options every adapter takes (plus its own `extra` keys): an
 * unknown key is an error, so a typo does not silently change behaviour.
 * `refused` maps an option another adapter takes to why this one cannot
 * (an option that would do nothing here is an error with that reason, not
 * silently ignored).
 */
export function checkOptions(where, options, extra = [], refused = {}) {
  if (options === null || typeof options !== 'object') fail(where, 'options must be an object');
  for (const k of Object.keys(options)) {
    if (Object.hasOwn(refused, k)) fail(where, `options.${k}: ${refused[k]}`);
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
  if (options.preSearch != null) {
    if (typeof options.preSearch !== 'boolean') fail(where, 'options.preSearch must be true or false');
    // the core grades only its own ranker's hits, and a pre-search loads strong hits only
    if (options.preSearch && options.ranker != null) {
      fail(where, 'options.preSearch needs the built-in ranker: a host ranker\'s pages are not graded, and a pre-search loads only strong hits');
    }
  }
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
  // Decided once when the session was created (search.auto): 'all' puts
  // every tool on the menu and offers no search tool.
  const mode = session.mode;
  // What the menu holds before any search: the agent's tools, alwaysLoaded,
  // and in mode 'all' every tool (the two lists by the host's names too).
  const upFront = new Set([...menuNames(session), ...agentNames, ...(config.search.alwaysLoaded ?? [])]);
  let turn = 0;
  if (resume) {
    // The recorded run's menu, without its calls; the conversation goes on
    // after the last recorded turn, and later searches rank live.
    session.applyJournal();
    turn = nextTurn(session.journal());
  }
  return { session, config, turn, mode, upFront };
}

/**
 * What the two adapters whose host hands each model response to handle()
 * (toolsift/openai, toolsift/anthropic) keep across a conversation, and
 * their public object: one home for the session, the search tool's name,
 * the names sent loaded, the turn and the pre-search that adds to them.
 *
 * `turn` is the turn the next model response is handled at (the adapter's
 * handle() advances it), so it is also the turn a pre-search comes before.
 * `sentLoaded` holds the names sent loaded (without defer_loading): what the
 * menu held from the start (the agent's tools, alwaysLoaded; every tool in
 * mode 'all') and what pre-searches loaded, a resumed run's included. Tools
 * the model's own searches load are not added: the adapter answers them in
 * the conversation (a tool_reference, a tool_search_output), so the tools
 * array, and with it the prompt prefix, stays the same for them.
 */
export function openConversation(where, options, entries) {
  const { session, config, turn, mode, upFront } = openSession(where, options, entries);
  const searchName = searchToolName(config);
  const pre = preSearcher(where, session, mode);
  const c = {
    session,
    mode,
    searchName,
    sentLoaded: new Set([...upFront, ...preSearchedIds(session)]),
    turn,
    /** The search tool's description: the host's, else the core's. */
    description: () => options.description ?? searchDescription(session, searchName),
    preSearch(text) {
      const ids = pre.preSearch(c.turn, text);
      for (const id of ids) c.sentLoaded.add(id);
      return ids;
    },
    /** The adapter's public object (AdapterBase and the adapter's own `extra`). */
    api: (tools, handle, extra = {}) => ({
      session,
      tools,
      handle,
      preSearch: c.preSearch,
      get turn() {
        return c.turn;
      },
      get mode() {
        return mode;
      },
      ...extra,
    }),
  };
  return c;
}

/** The decision source of the host's pre-search (the core's name). */
export const PRE_SEARCH_SOURCE = 'host-pre-search';

/**
 * The ids the journal's pre-searches loaded that are on the menu now (a
 * resumed session: its pre-searched tools are still sent loaded).
 */
export function preSearchedIds(session) {
  const onMenu = new Set(menuNames(session));
  const ids = [];
  for (const d of session.journal()) {
    if (d?.source !== PRE_SEARCH_SOURCE || !Array.isArray(d.value?.loaded)) continue;
    for (const id of d.value.loaded) if (onMenu.has(id)) ids.push(id);
  }
  return ids;
}

/**
 * The host's pre-search, one per turn: before the model's turn `turn`, the
 * session searches `text` (the user's message) and loads its strong hits
 * (Session#preSearch). `preSearch(turn, text)` answers the ids it loaded;
 * in mode 'all' it does nothing and answers [] (every tool is on the menu
 * already, and the core refuses a pre-search there). `done(turn)` says
 * whether that turn was pre-searched (a second pre-search of a turn is an
 * error: the core orders one before the turn's calls).
 */
export function preSearcher(where, session, mode) {
  let last = -1;
  return {
    done: (turn) => last === turn,
    preSearch(turn, text) {
      if (typeof text !== 'string') fail(where, 'preSearch(text): text must be a string (the user\'s message)');
      if (mode === 'all') return [];
      if (last === turn) {
        fail(where, `preSearch(): turn ${turn} was pre-searched already (one pre-search per user message, before the model answers it)`);
      }
      const ids = loadedIds(session.preSearch(turn, text).result);
      last = turn;
      return ids;
    },
  };
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
