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
 * Load the module. Without `source`: the package's build/wasm/toolsift.wasm,
 * or (Node) the path in env TOOLSIFT_WASM. Cloudflare Workers must pass a
 * WebAssembly.Module.
 */
export function load(source?: WasmSource): Promise<Toolsift>;

export type Trust = 'first-party' | 'remote' | 'vouched' | 'tainted';

export interface TermExplain {
  term: string;
  score: number;
  /** Contribution of each field (name, aliases, tags, description, schema…). */
  fields: Record<string, number>;
}

export interface Hit {
  id: string;
  name: string;
  description: string;
  trust: Trust;
  score: number;
  /** Present when the query equals the tool's full name or id (SPEC S4). */
  exact?: boolean;
  /** Present with `explain: true`. */
  explain?: { terms: TermExplain[] };
}

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
}

export interface SearchResult {
  query: string;
  /** The ranker version, e.g. "bm25f-1". */
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
}

export interface AnalyzerOptions {
  /** undefined/null = built-in English list, [] = none. */
  stopwords?: string[] | null;
}

export type FieldName = 'name' | 'aliases' | 'tags' | 'description' | 'params' | 'param_docs';

/** Index build options (only the keys given are passed to the core). */
export interface IndexOptions extends AnalyzerOptions {
  /** 'strict' (default): ids must match ^[A-Za-z0-9_.:-]{1,128}$; 'lenient': any 1..1024 bytes without control characters. */
  ids?: 'strict' | 'lenient';
  /** Field weights, any subset, each 0..100. */
  weights?: Partial<Record<FieldName, number>>;
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
  /** Analyse text as a query. */
  analyze(text: string, options?: AnalyzerOptions | string): Analysis;
  /** The core's analysis JSON, byte-exact. */
  analyzeJSON(text: string, options?: AnalyzerOptions | string): string;
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
  documents(): DocumentsResult;
  documentsJSON(): string;
  /** Release the index (idempotent). Any later call throws code 'state'. */
  free(): void;
  readonly freed: boolean;
}
