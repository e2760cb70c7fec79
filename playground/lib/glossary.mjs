// glossary.mjs — the page's hover help and counted words. Every hover text
// of a project term is quoted from docs/glossary.md (markdown left out:
// no **, backticks or link targets), never reworded: a test
// (tests/playground/model.test.mjs) checks each quote against the glossary,
// so a definition changed there fails until it is changed here too. No DOM:
// tested in Node.

const TRUST_CLASS = "trust class — what of a tool's own text reaches the index";
const STRONG_PARTIAL = "a hit's match grade: strong when the query's own evidence supports it (its rare words, most of them matched, "
  + 'a score near the best); partial otherwise. Under load: "strong" (the default) only strong hits are loaded; partial ones are listed with loaded: false';

/**
 * Per term the glossary's words for it: one quote, or several (each a
 * quote of its own) read one after the other. `hover(term)` puts the term
 * before them.
 */
export const GLOSSARY = {
  catalog: 'the tools a search ranks',
  'trust class': "what of a tool's own text reaches the index",
  'first-party': ['first-party (local: everything)', TRUST_CLASS],
  vouched: ['vouched (remote or A2A, marked trusted: true by the host: its text is indexed and shown)', TRUST_CLASS],
  remote: ['remote (un-vouched third party: name and property names only; its description is withheld from the index and from results)', TRUST_CLASS],
  tainted: ['tainted (tainted: true: shown fenced, never indexed text, never loaded)', TRUST_CLASS],
  'search document': 'the fields the trust policy built for one tool (name, aliases, tags, description, params, param_docs)',
  ranker: 'the scoring rule, versioned (bm25f-6); a journal and a snapshot record the version they were made with.',
  fingerprint: 'a sha256 of what an index was built from (catalog and options)',
  session: 'one agent run: it answers search_tools, keeps the menu, gates calls, records decisions',
  menu: "the tools the model can call in a session: the agent's own tools, always-loaded ones, then what searches loaded. "
    + 'Append-only, so the prompt prefix stays cacheable; bounded by maxLoaded and maxMenuChars.',
  'agent tools': "the host's own tools (reply, …): always on the menu, never searched.",
  universe: "what one search may return: the catalog tools inside the session's namespaces, minus those already on the menu",
  strong: STRONG_PARTIAL,
  partial: STRONG_PARTIAL,
  loaded: [
    'Under load: "strong" (the default) only strong hits are loaded',
    "menu — the tools the model can call in a session: the agent's own tools, always-loaded ones, then what searches loaded",
  ],
  listed: ['partial ones are listed with loaded: false', 'select: — the query select:name1,name2 loads listed tools by name, no ranking'],
  'select:': 'the query select:name1,name2 loads listed tools by name, no ranking (a bare create_entities finds the one …__create_entities); '
    + '+word makes a word required in every result.',
  'auto mode': 'search.auto: a session whose universe fits 30 tools and 24,000 characters of specs (the defaults) lists every tool from the start '
    + 'and has no search_tools (mode all); otherwise it searches (mode search). Decided once per session',
  // The page's "mode: search": what a session does, then the mode it is in.
  'mode: search': [
    'session — one agent run: it answers search_tools, keeps the menu, gates calls, records decisions',
    'auto mode — search.auto: a session whose universe fits 30 tools and 24,000 characters of specs (the defaults) lists every tool from the start '
      + 'and has no search_tools (mode all); otherwise it searches (mode search)',
  ],
  'pre-search': "the host's search of the user's message before the model's turn: its strong hits (at most preSearchLimit, 2) join the menu, "
    + 'recorded as a decision of the host',
  decision: 'what one search or activation answered (results, loaded, grades), recorded as one journal line.',
  journal: "a session's decisions as JSON Lines, opened by a header binding them to the catalog fingerprint, the ranker and the session's configuration.",
  chain: 'the digest each journal line carries: HMAC-SHA-256 (keyed, or with the empty key) of the previous digest and the line, '
    + 'so an edit, a dropped or reordered line is detected',
  replay: 'rerunning a session from its journal with zero ranking: same results, same menu.',
  identical: 'rerunning a session from its journal with zero ranking: same results, same menu.',
  narrowed: 'narrowed (replay dropped ids the live authority would not allow — unknown, outside the universe, already on the menu — '
    + 'so a tampered journal can only shrink the menu, never widen it)',
  diverged: 'diverged (the catalog or configuration no longer gives what was recorded; --divergence fail|warn|off)',
  skill: "a bundle of instructions and tools in the catalog's skills; activate_skill delivers the instructions and appends the tools",
  'catalog overview': "a bounded summary of the catalog's products and vocabulary at the end of the search_tools description.",
  'call record': 'a journal line for an allowed call to a catalog tool (agent-tool-call, and agent-tool-call-failed when the host reports it failed): '
    + 'not a decision; replay passes over it',
  client: "who a session served (session option client; the gateway's token name), in the journal header: learning counts evidence per client.",
  vocabulary: 'host labels learned from runs and examples (toolsift learn) or written by the host, given as the index option annotations; '
    + 'its digest is in the fingerprint and every journal header',
  'learned label': 'a label a vocabulary gave a tool: a phrase (alias) or a word (tag) its users asked with; explain.learned lists those a hit matched.',
};

/** The glossary's quotes for `term` (an array, empty when it has none). */
export function quotes(term) {
  const q = GLOSSARY[term];
  return q === undefined ? [] : Array.isArray(q) ? q : [q];
}

/**
 * The hover text of a project term: "term — the glossary's words." (its
 * quotes one after the other, each ended with a full stop; a quote that
 * starts with the term is not preceded by it again); the term alone when
 * the glossary has none.
 */
export function hover(term) {
  const q = quotes(term).map((x) => x.replace(/[;,.:\s]+$/, ''));
  if (!q.length) return term;
  const text = `${q.join('. ')}.`;
  return text.startsWith(`${term} `) ? text : `${term} — ${text}`;
}

/**
 * A count with its noun: "1 tool", "2 tools", "0 tools"; `many` for a
 * plural that is not the noun plus "s" ("1 query", "2 queries").
 */
export function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}
