// Types of the toolsift ESM binding (js/toolsift.js).

/** Short error codes: the core's status names plus 'load' (module could not be loaded). */
export type ToolsiftErrorCode =
  | 'arg'
  | 'json'
  | 'utf8'
  | 'config'
  | 'limit'
  | 'nomem'
  | 'snapshot'
  | 'state'
  | 'ranker'
  | 'diverged'
  | 'tampered'
  | 'model'
  | 'load'
  | 'unknown';

/** An error from the core (or raised by the binding before calling it). */
export class ToolsiftError extends Error {
  readonly name: 'ToolsiftError';
  /** Short stable code, e.g. 'json', 'config', 'arg', 'state'. */
  readonly code: ToolsiftErrorCode | string;
  /** The core's numeric status (-1 for binding-only errors such as 'load'). */
  readonly status: number;
  constructor(code: string, message: string, status: number);
}

/** Where the wasm module comes from. A plain string is a URL if it has a scheme, else (Node) a file path. */
export type WasmSource =
  | WebAssembly.Module
  | ArrayBuffer
  | ArrayBufferView
  | Response
  | URL
  | string;

/**
 * Load the module. Without `source`: the package's dist/toolsift.wasm (in a
 * source checkout, build/wasm/toolsift.wasm), or (Node) the path in env
 * TOOLSIFT_WASM. Cloudflare Workers must pass a
 * WebAssembly.Module. Edge deployments that only search and run sessions
 * can load `toolsift/toolsift-serving.wasm` instead (Toolsift#serving).
 */
export function load(source?: WasmSource): Promise<Toolsift>;

export type Trust = 'first-party' | 'remote' | 'vouched' | 'tainted';

export interface TermExplain {
  term: string;
  score: number;
  /** Contribution of each field (name, aliases, tags, description, schema…). */
  fields: Record<string, number>;
  /** The foreign word or synonym through which the term matched (vocabulary expansions). */
  via?: string;
}

/** Proximity: two consecutive query terms the tool has close together in one field. */
export interface PairExplain {
  terms: [string, string];
  score: number;
}

export interface Hit {
  id: string;
  name: string;
  description: string;
  trust: Trust;
  score: number;
  /** Present when the query equals the tool's full name or id (SPEC S4). */
  exact?: boolean;
  /** How sure the ranker is that this is the tool asked for (docs/sessions.md). */
  match: MatchGrade;
  /** The query words this hit matches (surface forms, in query order). */
  matched: string[];
  /** Present with `explain: true`. */
  explain?: {
    terms: TermExplain[];
    /** Present when the hit has a proximity pair; terms and pairs add up to the score. */
    pairs?: PairExplain[];
    /** Why the hit got its grade. */
    grade: {
      /** The share of the query's evidence (idf of its content words) the hit matches. */
      coverage: number;
      /** Its score / the best hit's. */
      relative: number;
      /** Present when two consecutive query words stand close together in its text. */
      phrase?: true;
    };
  };
}

/** strong: loaded by a session; partial: listed only. */
export type MatchGrade = 'strong' | 'partial';

export interface Analysis {
  /** Every token of the query. */
  tokens: string[];
  /** Tokens dropped as stopwords. */
  stopwords: string[];
  /** The final, de-duplicated query terms (at most 16). */
  terms: string[];
}

/** Present on a search result with `explain` (its terms are the result's `terms`). */
export interface SearchAnalysis {
  tokens: string[];
  stopwords: string[];
  terms?: string[];
  /** [term, English term] pairs from the vocabulary table. */
  expansions?: [string, string][];
  /** [query word, dictionary word] typo corrections the ranker used. */
  corrections?: [string, string][];
  /** What each content word weighs in the grades' coverage. */
  evidence: Record<string, number>;
}

export interface SearchResult {
  query: string;
  /** The ranker version, e.g. "bm25f-4". */
  ranker: string;
  terms: string[];
  hits: Hit[];
  /** Query terms that matched no tool. */
  unmatched: string[];
  /** True when a hit names a remote un-vouched tool: fence the result as data. */
  tainted?: boolean;
  analysis?: SearchAnalysis;
}

export interface SearchOptions {
  /** 1..1000, default 10. */
  limit?: number;
  explain?: boolean;
  /** The query's vector (the index's dimension), fused with BM25F (docs/relevance.md, "Semantic search"). */
  vector?: number[] | Float32Array | string | null;
  /** -1..1: no hit below this similarity is strong (needs `vector`). */
  minSimilarity?: number;
}

/** A host's embedding function: the text to embed -> its vector (sync or async). */
export type EmbedFunction = (
  text: string,
) => number[] | Float32Array | string | null | Promise<number[] | Float32Array | string | null>;

export interface EmbedIndexOptions extends IndexOptions {
  /** Embeds each tool's text (Index#embedTexts) at build, and queries in Index#searchAsync. */
  embed: EmbedFunction;
  /** The model id recorded in results, decisions and snapshots (1..64 printable ASCII), default "host". */
  model?: string;
}

/** The text a host embeds for one tool, under the trust policy. */
export interface EmbedText {
  id: string;
  trust: 'first-party' | 'remote' | 'vouched' | 'tainted';
  text: string;
}

/** base64 of float32 little-endian: the form the core reads most cheaply. */
export function vectorBase64(vector: number[] | Float32Array): string;

export interface AnalyzerOptions {
  /** undefined/null = built-in English list, [] = none. */
  stopwords?: string[] | null;
}

export type FieldName = 'name' | 'aliases' | 'tags' | 'description' | 'params' | 'param_docs';

/** Index build options (only the keys given are passed to the core). */
export interface IndexOptions extends AnalyzerOptions {
  /**
   * 'lenient' (default): any unique id of 1..1024 bytes without control, invisible, bidi-control or fullwidth
   * characters; one a model cannot call by (not ^[A-Za-z0-9_.:-]{1,128}$, or a look-alike of an earlier id: equal
   * after NFKC and case folding) gets a safe name on the menu, listed in info().menuNames (docs/usage.md, "Tool
   * ids"). 'strict': every id must be its own menu name (such an id, or two look-alikes, is an error).
   */
  ids?: 'strict' | 'lenient';
  /** Field weights, any subset, each 0..100. */
  weights?: Partial<Record<FieldName, number>>;
  /**
   * A vocabulary as the catalog's annotations (docs/learning.md): a learned
   * file (Learner#finishJSON, `toolsift learn`) or the host's own
   * {"annotations": {"<tool id>": {"aliases", "tags"}}}. Text or bytes (a
   * file as it was read) are spliced into the options verbatim, so the
   * vocabulary's digest (IndexInfo.vocabulary) is of what the file says; an
   * object is JSON.stringify'd. Merged after the catalog's own annotations
   * within the label bounds; ids no tool has are skipped and counted.
   */
  annotations?: string | Uint8Array | ArrayBuffer | Vocabulary;
}

/** Labels of one tool in a vocabulary (each list optional). */
export interface VocabularyLabels {
  aliases?: string[];
  tags?: string[];
}

/** A vocabulary as the index option `annotations` takes it: a learned one, or the host's own. */
export type Vocabulary = LearnedVocabulary | { annotations: Record<string, VocabularyLabels> };

/** The evidence behind one learned label (docs/learning.md, "The rule"). */
export interface LabelEvidence {
  /** Sessions (journals) whose runs taught it, each client counting for at most maxPerClient. */
  sessions: number;
  /** Distinct clients among those sessions (journals that name none are one anonymous client). */
  clients: number;
  /** Labelled examples that taught it (one is enough: examples need no sessions or clients). */
  examples: number;
  /** Sessions where a search with it loaded the tool and the run never called the tool. */
  against: number;
  /** Of the word's uses (the sessions and examples that taught it to any tool), the share that taught it to this one. */
  share: number;
}

/** What a Learner writes (Learner#finish, `toolsift learn`): the shape the index option `annotations` takes. */
export interface LearnedVocabulary {
  /** Provenance: the catalog's fingerprint, the rule, and what was read. */
  learned: {
    version: number;
    /** The fingerprint of the catalog learned over. */
    catalog: string;
    rule: { minSessions: number; minClients: number; maxPerClient: number; minShare: number };
    /** Journals read (the skipped ones included). */
    journals: number;
    /** Journals left out with unverified: 'skip'. */
    skipped: number;
    /** Journals whose runs were evidence. */
    sessions: number;
    clients: number;
    examples: number;
  };
  /** The learned labels per tool id: phrases as aliases, words as tags. */
  annotations: Record<string, VocabularyLabels>;
  /** Per tool id and label, the evidence that passed the rule. */
  evidence: Record<string, Record<string, LabelEvidence>>;
}

/** Toolsift#createLearner options (only the keys given are passed; defaults in docs/learning.md). */
export interface LearnerOptions {
  /** Index build options for the catalog (no `annotations`: the catalog's own count as its text). */
  index?: Omit<IndexOptions, 'annotations'>;
  /** Sessions a label learned from journals needs (default 3). */
  minSessions?: number;
  /** Distinct clients among them (default 2). */
  minClients?: number;
  /** The sessions one client counts for at most, per label (default 3). */
  maxPerClient?: number;
  /** The LabelEvidence.share a label needs, 0..1 (default 0.1). */
  minShare?: number;
  /**
   * A journal whose hash chain is broken or cannot be verified (unchained,
   * or keyed without the key here): 'refuse' (default: addJournal throws
   * 'tampered'), 'skip' (left out, counted in learned.skipped) or 'accept'.
   */
  unverified?: 'refuse' | 'skip' | 'accept';
  /** The HMAC key the journals were written with (16–64 bytes, or 32–128 lowercase hex digits). */
  journalKey?: Uint8Array | string;
}

/** One label a new vocabulary adds or removes, with its evidence from the file that has it (when it has any). */
export interface VocabularyDiffLabel extends Partial<LabelEvidence> {
  label: string;
  list: 'aliases' | 'tags';
}

/** Toolsift#learnDiff: what a new vocabulary would change against the previous one, tools in id order. */
export interface VocabularyDiff {
  tools: { id: string; added?: VocabularyDiffLabel[]; removed?: VocabularyDiffLabel[] }[];
  toolsChanged: number;
  added: number;
  removed: number;
}

export interface IndexInfo {
  version: string;
  ranker: string;
  tools: number;
  terms: number;
  /** Number of tools per trust class. */
  trust: Record<Trust, number>;
  fields: Record<FieldName | string, { weight: number; avgLength: number }>;
  /** Size of the stopword list in use. */
  stopwords: number;
  /** sha256 hex over the canonical search documents and configuration. */
  fingerprint: string;
  /** Only when some tool's id is not its menu name: catalog id → the safe name sessions show models (docs/usage.md, "Tool ids"). */
  menuNames?: Record<string, string>;
  /** With the index option `annotations`: the vocabulary's digest (of its canonical form) and how many of its ids no tool has. */
  vocabulary?: { digest: string; unknownTools: number };
}

export interface DocumentsResult {
  tools: { id: string; trust: Trust; fields: Record<string, string[]> }[];
}

/** A tool in any accepted shape (SPEC S1). */
export type CatalogTool =
  | { name: string; description?: string; inputSchema?: unknown; title?: string; annotations?: unknown; [k: string]: unknown }
  | { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }
  | { name: string; description?: string; input_schema?: unknown; [k: string]: unknown }
  | {
      id?: string;
      name: string;
      description?: string;
      tags?: string[];
      aliases?: string[];
      origin?: 'local' | 'remote' | 'a2a';
      trusted?: boolean;
      tainted?: boolean;
      [k: string]: unknown;
    };

export type Catalog =
  | CatalogTool[]
  | {
      tools: CatalogTool[];
      skills?: unknown[];
      annotations?: Record<string, { tags?: string[]; aliases?: string[] }>;
    };

export class Toolsift {
  /** The core's version string. */
  readonly version: string;
  /**
   * True when this is the serving module (`toolsift/toolsift-serving.wasm`,
   * for edge deployments: about 21 KB gzip smaller): everything but
   * evaluation, calibration and learning (evalJSON, evalReport, calibrate,
   * createLearner, learnDiff/learnDiffJSON throw ToolsiftError 'state').
   */
  readonly serving: boolean;
  /** The module's linear memory, for diagnostics. It may grow during any call: never keep a view across calls. */
  readonly memory: WebAssembly.Memory;
  /**
   * Build an index. `catalog` is JSON text, raw JSON bytes (passed through
   * untouched: invalid UTF-8 is a 'utf8' error), or a value to JSON.stringify.
   * Throws ToolsiftError ('json', 'utf8', 'config', 'limit', 'nomem').
   */
  createIndex(
    catalog: string | Uint8Array | ArrayBuffer | Catalog,
    /** An options object, or raw options JSON text passed verbatim. */
    options?: IndexOptions | string,
  ): Index;
  /** With `embed`: the index with every tool's vector (embedded from Index#embedTexts), asynchronously. */
  createIndex(catalog: string | Uint8Array | ArrayBuffer | Catalog, options: EmbedIndexOptions): Promise<Index>;
  /** With a StaticModel: the tools' vectors from it, in the core (Index#embedStatic), synchronously. */
  createIndex(catalog: string | Uint8Array | ArrayBuffer | Catalog, options: IndexOptions & { model: StaticModel }): Index;
  /**
   * Start a session (one agent run, SPEC S7). `config` is the session
   * configuration object, its JSON text, or raw JSON bytes (passed through
   * untouched). Its `catalog` must be a catalog object or array: a catalog
   * path is resolved only by the CLIs. Throws ToolsiftError ('config', 'json',
   * 'utf8', 'limit', 'nomem', 'arg').
   */
  createSession(config: SessionConfig | string | Uint8Array | ArrayBuffer, options?: SessionOptions): Session;
  /**
   * A learner of the catalog's vocabulary (docs/learning.md). `catalog` as
   * for createIndex, without a learned vocabulary (its own annotations
   * count as its text); `options` an object or raw JSON text. Throws
   * ToolsiftError ('config', 'json', 'utf8', 'limit', 'nomem').
   */
  createLearner(catalog: string | Uint8Array | ArrayBuffer | Catalog, options?: LearnerOptions | string): Learner;
  /**
   * What vocabulary `next` would change against `previous` (each a learned
   * vocabulary or the host's own: JSON text, bytes or an object), for
   * review: the core's JSON, byte-exact. Throws 'json' or 'config' naming
   * "the old vocabulary" or "the new vocabulary".
   */
  learnDiffJSON(previous: string | Uint8Array | ArrayBuffer | Vocabulary, next: string | Uint8Array | ArrayBuffer | Vocabulary): string;
  /** learnDiffJSON, parsed. */
  learnDiff(previous: string | Uint8Array | ArrayBuffer | Vocabulary, next: string | Uint8Array | ArrayBuffer | Vocabulary): VocabularyDiff;
  /**
   * Load an index from a snapshot (SPEC S11) made by Index#snapshot() or by
   * the CLI's `toolsift build` (native or wasm: the bytes are the same),
   * without re-analysing the catalog. Results are byte-identical to an index
   * built from the catalog. A snapshot of another format, ranker, analyser
   * or Unicode version, a truncated or corrupted one, or a checksum mismatch
   * throws code 'snapshot'; anything but bytes throws code 'arg'.
   */
  indexFromSnapshot(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Index;
  /** indexFromSnapshot over a stream of `length` bytes (a ReadableStream such as a fetch body, or an async
   * iterable of chunks), copied chunk by chunk into the module's memory: never whole in JavaScript memory. */
  indexFromSnapshotStream(
    stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | ArrayBuffer | ArrayBufferView>,
    length: number,
  ): Promise<Index>;
  /** Analyse text as a query. */
  analyze(text: string, options?: AnalyzerOptions | string): Analysis;
  /** The core's analysis JSON, byte-exact. */
  analyzeJSON(text: string, options?: AnalyzerOptions | string): string;
  /** Load a model2vec-style static embedding: model.safetensors bytes and tokenizer.json (docs/semantic.md). */
  /** config: the model's config.json (its calibrated fusion parameters, docs/semantic.md);
   * sentenceTransformers: StaticEmbedding's pooling (files from a 0_StaticEmbedding/ folder). */
  loadStaticModel(safetensors: Uint8Array | ArrayBuffer, tokenizer: string | Uint8Array | ArrayBuffer,
    config?: string | Uint8Array | ArrayBuffer | null, options?: { sentenceTransformers?: boolean }): StaticModel;
  /** Fusion parameters proposed for a model on a catalog: JSON, or the table as text. queries null: the catalog judges itself. */
  calibrate(catalog: string | Uint8Array, queries: string | Uint8Array | null, model: StaticModel, options?: { text?: boolean }): string;
}

/**
 * A learner of a catalog's vocabulary, from Toolsift#createLearner: feed it
 * journals and labelled examples in any order (the result does not depend
 * on it), then finish(). Free it with free(); a finalizer frees it if you
 * forget.
 */
export class Learner {
  /**
   * One run's journal (JSON Lines, as Session#journalJSONL() or `toolsift
   * session run --journal-out` wrote it, or a gateway client session's
   * file); `name` names it in errors. Throws 'json' or 'config' naming the
   * journal and line (a malformed line, an unknown record source), or
   * 'tampered' for a broken or unverifiable chain unless the options say
   * unverified 'skip' or 'accept'. Nothing is added when it throws.
   */
  addJournal(name: string, jsonl: string | Uint8Array | ArrayBuffer): void;
  /**
   * Labelled examples: JSON Lines of {"query", "relevance" | "relevant":
   * {"<tool id>": grade}} (the eval format); each teaches its request's
   * words to the tools of its top grade. An id the catalog lacks throws
   * 'config' naming the file and line (the examples before it stay added).
   */
  addExamples(name: string, jsonl: string | Uint8Array | ArrayBuffer): void;
  /** The learned vocabulary, the core's JSON, byte-exact (what `toolsift learn` writes). */
  finishJSON(): string;
  /** finishJSON, parsed. */
  finish(): LearnedVocabulary;
  /** Release the learner (idempotent). Any later call throws code 'state'. */
  free(): void;
  readonly freed: boolean;
}

/** A static-embedding model loaded from a safetensors matrix and a WordPiece tokenizer.json. */
export class StaticModel {
  /** The model's identity ("static-<12 hex>" or "<metadata name>-<12 hex>"), for a ranker kind "bm25f-N+vec:<id>". */
  readonly id: string;
  /** The embedding dimension. */
  readonly dim: number;
  /** The text's unit vector, or null when no token of the text is known (the zero vector). */
  embed(text: string): Float32Array | null;
  /** The text's vector as the search option `vector` takes it (base64 float32), or null when no token is known. */
  queryVector(text: string): string | null;
  /** The core's JSON {"model","dim","tokens","pooled","vector"}, as `toolsift embed` prints it. */
  embedJSON(text: string): string;
  /** Release the model; safe to call more than once. */
  free(): void;
  readonly freed: boolean;
}

export class Index {
  /** Search and parse the core's JSON. A non-string query throws code 'arg'. */
  search(query: string, options?: SearchOptions | string): SearchResult;
  /** The core's search JSON, byte-exact. `options` may be raw JSON text, passed verbatim. */
  searchJSON(query: string, options?: SearchOptions | string): string;
  /** Batch ranking: one `{"id":…,"hits":[…]}\n` line per input line, in input order. */
  rank(queriesJsonl: string | Uint8Array | ArrayBuffer, k: number): string;
  info(): IndexInfo;
  infoJSON(): string;
  /** Re-derive a snapshot-loaded index's fingerprint and postings; throws code 'snapshot' when they do not match. */
  verify(): void;
  documents(): DocumentsResult;
  documentsJSON(): string;
  /** The embed function createIndex was given (used by searchAsync), if any. */
  embed?: EmbedFunction;
  /** search, with the query embedded by `embed` unless options.vector is given. */
  searchAsync(query: string, options?: SearchOptions): Promise<SearchResult>;
  /** The text a host embeds for each tool, in tool order. */
  embedTexts(): EmbedText[];
  embedTextsJSON(): string;
  /** Every tool's vector from a StaticModel (a tool with no known token gets none); returns how many got none. searchAsync then embeds queries with it. */
  embedStatic(model: StaticModel): number;
  /** One vector per tool (tool order) under `model`; a NaN, infinity or zero row throws code 'config'. */
  setVectors(model: string, rows: Array<number[] | Float32Array>): void;
  /**
   * The index as a versioned binary snapshot (SPEC S11: format, ranker,
   * analyser and Unicode versions, fingerprint, sha256 checksum), a fresh
   * copy. The same bytes as the native `toolsift build -o` for the same
   * catalog and options.
   */
  snapshot(): Uint8Array;
  /** The same as `toolsift.indexFromSnapshot(bytes)`. */
  static fromSnapshot(toolsift: Toolsift, bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Index;
  /** Release the index (idempotent). Any later call throws code 'state'. */
  free(): void;
  readonly freed: boolean;
}

// ---- sessions (SPEC S6, S7, S9) ----------------------------------------------

export interface SessionSearchConfig {
  /** The search meta-tool's name (default 'search_tools'); must not collide with any tool. */
  toolName?: string | null;
  /** Catalog ids on the menu from the start (after the agent's tools). */
  alwaysLoaded?: string[] | null;
  /** Id prefixes: the searchable universe is narrowed to ids starting with one of them. */
  namespaces?: string[] | null;
  /** Page size ceiling of one search: 1..50, default 5. */
  maxPerSearch?: number | null;
  /** Tools searches may load in the run: 0..200, default 20. */
  maxLoaded?: number | null;
  /** Searches in the run: 0..200, default 25. */
  maxSearches?: number | null;
  /** Budget on the characters of the searched tools' specs: 1..10,000,000, or null for none. */
  maxMenuChars?: number | null;
  /** Stopwords of the catalog index: null = built-in list, [] = none. */
  stopwords?: string[] | null;
  /**
   * Which hits a search loads: 'strong' (default) only those the grade rule is
   * sure of — partial hits are listed with loaded: false, for select: — or
   * 'all' (every hit the caps allow, the behaviour before match grades).
   */
  load?: 'strong' | 'all' | null;
  /** The grade rule's thresholds, each 0..1 (docs/sessions.md): defaults 0.5, 0.25, 0.75. */
  strong?: { coverage?: number | null; pairCoverage?: number | null; relative?: number | null } | null;
  /**
   * The catalog overview appended to the search meta-tool's description:
   * true (default: groups, counts, distinctive name words), false, or the
   * host's own text (at most 20,000 bytes).
   */
  overview?: boolean | string | null;
  /** The built overview's budget in characters: 100..20,000, default 1,500. */
  overviewChars?: number | null;
  /**
   * Auto mode (docs/sessions.md): when the universe's tools fit both budgets (defaults 30 tools and 24,000
   * characters of MCP specs), every tool is on the menu from the start and search_tools is not; decided once
   * when the session is created, recorded in the journal header. true = the defaults; false/null = off.
   */
  auto?: boolean | { maxTools?: number | null; maxChars?: number | null } | null;
  /** The most tools one pre-search lists (and so loads): 1..50, default 2, never more than maxPerSearch. */
  preSearchLimit?: number | null;
}

/** The session configuration (the same object as the C API and the CLI's config file). */
export interface SessionConfig {
  /** The loop id in decision ids, ^[A-Za-z0-9_.:-]{1,128}$ (default 'agent'). */
  loop?: string | null;
  /** The agent's own tools (any catalog shape): always on the menu. */
  tools?: CatalogTool[] | null;
  /** The searchable catalog (a path is only resolved by the CLIs). */
  catalog: Catalog;
  search?: SessionSearchConfig | null;
  /** Skills (SPEC S8): off unless present. Skills come from `catalog.skills`. */
  skills?: SessionSkillsConfig | null;
}

/** A skill of the catalog (`catalog.skills`). */
export interface CatalogSkill {
  /** Any non-empty text of at most 1024 bytes without control characters (`name` is read when `id` is absent). */
  id: string;
  description?: string | null;
  tags?: string[] | null;
  aliases?: string[] | null;
  /** Tool ids (catalog or agent tools) the skill adds to the menu when activated. */
  tools?: string[] | null;
  /** Delivered by activate_skill; absent = "" (a bundle of tools). */
  instructions?: string | null;
  /** Tainted instructions are never delivered (the refusal is recorded). */
  tainted?: boolean | null;
}

/** The `skills` section of a session configuration. */
export interface SessionSkillsConfig {
  /** Which catalog skills this session offers: 'registry' (all, default) or a list of ids. */
  catalog?: 'registry' | string[] | null;
  /** Active from turn 0; their tools join the menu after the agent's tools. */
  selected?: string[] | null;
  /** Active skills at once (selected included): 1..50, default 5. */
  maxActive?: number | null;
  /** Lines of the skill index: 1..500, default 50. */
  maxIndex?: number | null;
  /** Bytes of the skill index: 1..131072, default 8192. */
  maxIndexBytes?: number | null;
  /** Bytes of instructions one activation may deliver: 1..1048576, default 32768. */
  maxInstructionBytes?: number | null;
  /** How the model finds skills: the system-prompt index, search_tools, or both (default 'index'). */
  discovery?: 'index' | 'search' | 'both' | null;
  /** The activation meta-tool's name (default 'activate_skill'). */
  toolName?: string | null;
}

export type DivergenceMode = 'fail' | 'warn' | 'off';

export interface SessionOptions {
  /**
   * Recorded decisions to replay: JSON text (an array or JSON Lines), raw
   * bytes, or an array of decisions. An empty journal replays a run that made
   * no decision; null/undefined means a live run.
   */
  journal?: string | Uint8Array | ArrayBuffer | JournalRecord[] | null;
  /**
   * What a replay that departs from the journal does (default 'fail'). The
   * journal's hash chain is verified first: in 'fail' mode an edited journal
   * (a broken chain, a header that does not match this catalog and
   * configuration, another key) throws 'tampered'; in 'warn' mode each
   * problem is a warning on the output that serves the decision.
   */
  divergence?: DivergenceMode;
  /**
   * The HMAC-SHA-256 key of the journal's hash chain (16–64 bytes, or
   * 32–128 lowercase hex digits): the journal this session writes is keyed,
   * and the one it replays must have been written with the same key.
   */
  journalKey?: Uint8Array | string | null;
  /** The last chain digest (64 hex) of the journal this one continues; with it the header is written at once. */
  journalParent?: string | null;
  /**
   * A host ranker that replaces BM25F for live searches (set before the
   * first search; replayed searches never call it).
   */
  ranker?: HostRanker | null;
  /**
   * A host ranker for skills (discovery 'search' or 'both'), the same
   * contract over skill ids. With a host ranker on either side a page takes
   * tools and skills by rank position, tool first.
   */
  skillRanker?: HostRanker | null;
  /**
   * An index snapshot (from `index.snapshot()` or `toolsift build`) to search
   * instead of building from `config.catalog`; the config must then have no
   * `catalog` and no `search.stopwords`, and the snapshot strict ids.
   */
  snapshot?: Uint8Array | ArrayBuffer | null;
  /**
   * Who the run serves (1–64 bytes, no control characters), recorded in the
   * journal header: learning counts the distinct clients behind a label.
   */
  client?: string;
  /**
   * A vocabulary for the session's index, as the index option `annotations`
   * (text or bytes verbatim, an object JSON.stringify'd). Its digest is in
   * the journal header: replaying under another vocabulary is a divergence.
   */
  annotations?: string | Uint8Array | ArrayBuffer | Vocabulary;
}

/**
 * A host ranker (an embedding model, a reranker, rules…). Its answer is
 * clipped to `want`, stripped of non-strings and intersected with the
 * searchable universe: unknown, namespace-denied, on-menu and duplicate ids
 * are dropped (with a warning counting them), so it can narrow results but
 * never widen them.
 */
export interface HostRanker {
  /** Recorded in every decision as value.ranker: 1..64 bytes of UTF-8, no control characters (else createSession throws 'arg'). */
  kind: string;
  /**
   * Tool ids for `query`, best first. MUST be synchronous. `want` is the
   * page size plus the number of tools the session hides from it (outside
   * the namespaces or already on the menu), at most 1000. When the page
   * comes back short from a full answer (at least `want` ids), rank is
   * called again with twice the `want` (at most 4 calls per search, never
   * over 1000). If it throws, or returns anything but an array — a Promise
   * included (an async function is a failed ranker) — the search is refused
   * with `search_unavailable`, nothing is recorded, and Session#rankerError
   * tells why.
   */
  rank(query: string, want: number): unknown[];
}

/** One accepted search or skill activation (SPEC S9). */
export type Decision = SearchDecision | SkillDecision;

/** A journal's first line: what its hash chain is bound to. */
export interface JournalHeader {
  /** `<loop>#journal` */
  id: string;
  source: 'toolsift-journal';
  value: {
    version: 1;
    /** The built-in ranker's version. */
    ranker: string;
    /** The catalog's fingerprint. */
    catalog: string;
    /** The session's fingerprint (caps, alwaysLoaded, namespaces, loop options, tools, skills). */
    session: string;
    mac: 'none' | 'hmac-sha256';
    /** Names the key (not derived backwards), when keyed. */
    keyId?: string;
    /** The journal this one continues (its last chain digest). */
    parent?: string;
    /** The digest of the session's vocabulary (SessionOptions.annotations), when it has one. */
    vocabulary?: string;
    /** SessionOptions.client, when given. */
    client?: string;
  };
  chain: string;
}

/**
 * An allowed call to a catalog tool ('agent-tool-call'), or the host's
 * report that it failed ('agent-tool-call-failed', Session#callFailed).
 */
export interface CallRecord {
  /** `<loop>#turn:<i>:tool:<j>:call` */
  id: string;
  source: 'agent-tool-call' | 'agent-tool-call-failed';
  value: { tool: string };
}

/** A line of a journal: the header, or a decision or call record with its chain digest. */
export type JournalRecord = JournalHeader | ((Decision | CallRecord) & { chain?: string });

export interface JournalVerification {
  /** The journal is chained and every digest, the header and the key check out. */
  verified: boolean;
  chained: boolean;
  keyed: boolean;
  decisions: number;
  /** at 0: the journal as a whole; else the decision's 1-based position. */
  problems: { at: number; problem: string }[];
}

export interface SearchDecision {
  /** `<loop>#turn:<i>:tool:<j>:search` */
  id: string;
  source: 'agent-tool-search';
  value: {
    /** Ranker kind: 'bm25f-4', or the host ranker's kind. */
    ranker: string;
    /** The skill ranker's kind, when one is set. */
    skillRanker?: string;
    /** The query, whole. */
    query: string;
    /** Result ids in rank order. */
    results: string[];
    /** The results that were loaded onto the menu. */
    loaded: string[];
    /** Per result, its grade (built-in ranking or select:; absent for a host ranker's page). */
    grades?: ('strong' | 'partial' | 'selected')[];
    /** Per result, the query words it matched. */
    matched?: string[][];
    /** Query words that matched nothing. */
    unmatched?: string[];
    /** select: names no searchable tool has, and names already on the menu. */
    unknown?: string[];
    onMenu?: string[];
    /** Skill hits (only when skills.discovery is 'search' or 'both'). */
    skills?: string[];
  };
}

/** `<loop>#turn:<i>:tool:<j>:skill`: an accepted activation (digest, sizes) or a refused one (verdict). */
export interface SkillDecision {
  id: string;
  source: 'agent-skill-activation';
  value:
    | { skill: string; digest: string; bytes: number; resultBytes: number }
    | { skill: string; verdict: 'tainted' | 'oversized' };
}

export interface SearchToolsHit {
  /** The catalog id: the name the model calls it by. */
  name: string;
  /** One line, bounded; withheld for un-vouched and tainted tools. */
  description: string;
  /** False when it is a partial match (load: 'strong'), did not fit maxLoaded / maxMenuChars, or is tainted. */
  loaded: boolean;
  /** The hit's grade; 'selected' for a select: query. Absent on a host ranker's page. */
  match?: 'strong' | 'partial' | 'selected';
  /** The query words it matched (absent for selected hits). */
  matched?: string[];
}

/** The answer to an accepted search_tools call. */
export interface SearchToolsResult {
  tools: SearchToolsHit[];
  /** Skill hits, when skills.discovery is 'search' or 'both'. */
  skills?: { name: string; description: string }[];
  /** Query words that matched nothing. */
  unmatched?: string[];
  /** select: names no searchable tool has. */
  unknown?: string[];
  /** When nothing matched well: catalog words near the request (namespaces and name words of the listed hits). */
  vocabulary?: string[];
  /** Why listed tools are not loaded, or what to do after a miss. */
  note?: string;
  /** Present when a hit names a remote un-vouched or tainted tool: fence the page as data. */
  tainted?: true;
}

/** A refusal: a typed result that records nothing. */
export interface CallRefusal {
  /** search_unavailable: the host ranker failed. */
  error: 'invalid_input' | 'search_limit_reached' | 'not_on_menu' | 'search_unavailable' | string;
  message: string;
  /** not_on_menu: the called name, cut at 64 bytes. */
  tool?: string;
}

/** An activate_skill answer: the instructions and the tools added. */
export interface SkillActivationResult {
  skill: string;
  instructions: string;
  tools: string[];
}

/**
 * A skill refusal or pinning error: unknown_skill, skill_limit_reached,
 * instructions_refused (with verdict; recorded), instructions_changed /
 * instructions_unavailable (replay: the activation stands, tools listed).
 */
export interface SkillError {
  error: 'unknown_skill' | 'skill_limit_reached' | 'instructions_refused' | 'instructions_changed' | 'instructions_unavailable';
  message: string;
  skill?: string;
  verdict?: 'tainted' | 'oversized';
  tools?: string[];
}

/** The answer to a call of a tool on the menu (the host may dispatch it). */
export interface CallAllowed {
  allowed: true;
}

export interface CallOutput {
  call: { turn: number; call: number; tool: string };
  result: SearchToolsResult | SkillActivationResult | SkillError | CallRefusal | CallAllowed;
  /** The decision an accepted search or activation recorded, else null. */
  decision: Decision | null;
  /**
   * activate_skill only: the byte length of `result` — on replay the
   * recorded length, so a host that compacts by size does so at the same turn.
   */
  resultBytes?: number;
  /** Replay notes: dropped record entries, divergence in 'warn' mode. */
  warnings?: string[];
}

export type MenuFormat = 'mcp' | 'openai' | 'anthropic';

export interface McpToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}
export interface OpenAIToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
export interface AnthropicToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface SessionMetrics {
  searches: number;
  refusals: number;
  /** Hits over all searches. */
  hits: number;
  noMatch: number;
  /** Tools loaded by searches. */
  loaded: number;
  rankerCalls: number;
  /** Searches served from the journal. */
  replayed: number;
  /** Skill activations accepted (skills on only). */
  activations?: number;
  /** Active skills, selected ones included (skills on only). */
  activeSkills?: number;
  /** Pre-searches (the host's, before a turn; not counted in searches). */
  preSearches: number;
  /** 'all': every tool on the menu and no search tool (search.auto); 'search' otherwise. */
  mode: 'all' | 'search';
  /** Tools on the menu, the meta-tools included. */
  menu: number;
  /** Characters of the searched tools' specs (counted with maxMenuChars). */
  menuChars: number;
  /** sha256 hex of the catalog's search documents and the session configuration. */
  fingerprint: string;
}

export class Session {
  /**
   * Handle one model tool call: turn, call index within the turn (integers
   * 0..4294967295), the tool's name and its arguments (an object, or JSON
   * text / bytes passed verbatim; undefined = {}). search_tools calls are
   * answered with a page and a decision; other calls are checked against the
   * menu. With a host ranker, a live search calls ranker.rank() (maybe up
   * to 4 times) before call() returns. Throws 'diverged' (replay in 'fail'
   * mode), 'arg', 'state'.
   */
  call(turn: number, callIndex: number, tool: string, args?: unknown): CallOutput;
  /** The vector of the next search_tools query (null clears it); minSimilarity -1..1 (default off). */
  setQueryVector(vector: number[] | Float32Array | null, minSimilarity?: number): void;
  /** A static model as the query embedder: every built-in search embeds its
   * query with it (unless setQueryVector gave a vector); the index's vectors
   * must be the model's. null unsets it; while set the model cannot be freed. */
  setEmbedder(model: StaticModel | null, minSimilarity?: number): void;
  /** The core's output JSON of call(), byte-exact (the final output after any host ranking). */
  callJSON(turn: number, callIndex: number, tool: string, args?: unknown): string;
  /**
   * Report that an allowed call to catalog tool `tool` (at turn, callIndex)
   * failed (the tool answered an error): recorded in the journal as
   * 'agent-tool-call-failed', so learning does not take it for the tool the
   * model needed. Reporting the same call again records nothing. Throws
   * 'arg' when the session allowed no such call.
   */
  callFailed(turn: number, callIndex: number, tool: string): void;
  /**
   * Pre-search: before the model's turn `turn`, search `text` (the user's latest message, read as plain words)
   * and load its strong hits under the session's caps and trust, recorded as decision "<loop>#turn:T:pre-search"
   * (source "host-pre-search") and served from the journal on replay. Not counted against maxSearches. Throws
   * 'state' in mode 'all', with a host ranker, or while a ranking is pending; 'arg' when the turn does not come
   * before the turn's calls.
   */
  preSearch(turn: number, text: string): { call: { turn: number; preSearch: true }; result: SearchToolsResult; decision: unknown; warnings?: string[] };
  preSearchJSON(turn: number, text: string): string;
  /** metrics().mode */
  readonly mode: 'all' | 'search';
  /**
   * Why the host ranker failed during the last call: what rank() threw, or
   * a ToolsiftError with code 'ranker' for an answer that was not an array
   * (or a Promise). null when it did not fail.
   */
  readonly rankerError: unknown;
  /**
   * The session's system-prompt text (SPEC S8): the skill index, or one
   * line in 'search' discovery; '' when skills are off.
   */
  skillIndex(): string;
  /** The menu in a provider's shape (default 'mcp'). */
  menu(format?: 'mcp'): { tools: McpToolSpec[] };
  menu(format: 'openai'): OpenAIToolSpec[];
  menu(format: 'anthropic'): AnthropicToolSpec[];
  menu(format?: MenuFormat): { tools: McpToolSpec[] } | OpenAIToolSpec[] | AnthropicToolSpec[];
  /** The menu JSON, byte-exact. */
  menuJSON(format?: MenuFormat): string;
  /** The journal so far: its hash chain's header, then the decisions (each with its `chain` digest); [] when none. */
  journal(): JournalRecord[];
  /** The journal as JSON Lines ('' when none), as the CLI writes them. */
  journalJSONL(): string;
  /** How the replayed journal verifies (every problem in 'warn' and 'off' mode). */
  verify(): JournalVerification;
  metrics(): SessionMetrics;
  metricsJSON(): string;
  /** metrics().fingerprint */
  readonly fingerprint: string;
  /** Serve every remaining journal decision as the search it records (the recorded run's menu without its calls). */
  applyJournal(): void;
  /** End of a replayed run. Throws 'diverged' in 'fail' mode when decisions were never asked for. */
  finish(): { unasked: string[] };
  finishJSON(): string;
  /** Release the session (idempotent). Any later call throws code 'state'. */
  free(): void;
  readonly freed: boolean;
}
