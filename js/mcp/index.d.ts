// Types of `toolsift/mcp` (js/mcp/index.js): the toolsift-mcp gateway as a library.

import type { Toolsift, Session, SessionSearchConfig, SearchToolsResult } from '../toolsift.js';

/** The SDK's Server (@modelcontextprotocol/sdk/server/index.js), as far as a host needs it. */
export interface McpServerLike {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

export declare class GatewayConfigError extends Error {}
export declare class JournalError extends Error {}

/** A checked upstream server entry. */
export interface GatewayServer {
  key: string;
  type: 'stdio' | 'http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  trusted: boolean;
  disabled: boolean;
  namespace: string;
  annotations: Record<string, { tags: string[]; aliases: string[] }>;
  alwaysLoaded: string[];
  maxTools: number;
  callTimeoutMs: number;
  connectTimeoutMs: number;
  restart: { maxAttempts: number; backoffMs: number };
  /** One connection per client session for its calls (`{session}` in args/env/cwd/url/headers: the session's file id). */
  perSession: boolean;
}

/** A checked gateway configuration (docs/mcp-gateway.md). */
export interface GatewayConfig {
  servers: GatewayServer[];
  /**
   * Handed to every segment's toolsift session as it is (toolsift checks the
   * values): the caps, namespaces, stopwords, toolName and the confident
   * loop's load, strong, overview and overviewChars.
   */
  search: Omit<SessionSearchConfig, 'alwaysLoaded'>;
  alwaysLoaded: string[];
  includeSchemas: boolean;
  /** search.model ("glove", or the folder resolved) and search.minSimilarity (-2: off), or null (js/model-dir.js). */
  model: { dir: string; minSimilarity: number } | null;
  /**
   * search.annotations: the vocabulary file (resolved), its UTF-8 text as the
   * file has it, and the sha256 of that text; or null.
   */
  vocabulary: { file: string; text: string; key: string } | null;
  skills: { list: unknown[]; settings: Record<string, unknown> } | null;
  journalDir: string | null;
  /** journal.maxBytes: a session's journal limit (0: none); past it searches are refused (-32014). */
  journalMaxBytes: number;
  http: {
    port: number; path: string; idleTimeoutMs: number; maxSessions: number;
    /** Bearer tokens by name (the name is what logs and journals show). */
    tokens: { name: string; token: string }[];
    /** Normalised origins (scheme://host[:port]) a browser page may call from; none by default. */
    allowedOrigins: string[];
  };
  loop: string;
  name: string;
}

/** Check a raw configuration object; relative paths resolve against baseDir. Throws GatewayConfigError. */
export declare function checkConfig(raw: unknown, baseDir?: string): GatewayConfig;
/** Read and check a configuration file. Throws GatewayConfigError. */
export declare function readConfig(file: string): GatewayConfig;

export declare const VERSION: string;
export declare const SEGMENT_SOURCE: 'toolsift-mcp-segment';

export interface Universe {
  generation: number;
  /** The generation's identity: its catalogKey, with the vocabulary's key when there is one. */
  key: string;
  /** The sha256 of the catalog (what a segment line records as catalogKey). */
  catalogKey?: string;
  /** The vocabulary the generation's index was built with (search.annotations), or null. */
  vocabulary?: { file: string; text: string; key: string } | null;
  fingerprint: string | null;
  catalog: { tools: unknown[]; annotations: Record<string, unknown>; skills?: unknown[] };
  routes: Map<string, { server: string; name: string }>;
  warnings: string[];
}

export interface ClientSessionEntry {
  server: McpServerLike;
  session: ClientSession;
  /** A random id log lines call the session by (also the journal file's id); never a transport's session id. */
  label: string;
  journal: string | null;
  transport: string;
  /** Who opened it (a token name), or null. */
  principal: string | null;
  /** Create the journal file and write what waited (createClientSession's commit: false). */
  commit(): void;
}

export declare class Gateway {
  constructor(config: GatewayConfig, options: { toolsift: Toolsift; log?: (line: string) => void });
  readonly universe: Universe | null;
  readonly generation: number;
  /** Connect every upstream, then build generation 0. */
  start(): Promise<void>;
  /** Apply a new configuration (removed servers are closed, their tools leave). */
  reload(config: GatewayConfig): Promise<void>;
  /**
   * A new client session: connect `server` to an MCP server transport.
   * `commit: false` keeps its journal in memory until entry.commit() (the
   * transport accepted the session); default true.
   */
  createClientSession(transport?: string, options?: { principal?: string | null; commit?: boolean }): ClientSessionEntry;
  close(): Promise<void>;
}

/**
 * Serve a gateway over streamable HTTP on 127.0.0.1. Needs `tokens` (at
 * least one) or `noAuth: true`; throws GatewayConfigError otherwise.
 */
export declare function serveHttp(gateway: Gateway, options: {
  port: number; path?: string; idleTimeoutMs?: number; maxSessions?: number; allowedOrigins?: string[];
  tokens?: { name: string; token: string }[]; noAuth?: boolean;
}): Promise<{ url: string; sessions(): number; close(): Promise<void> }>;

export interface ReplayStep {
  segment?: number;
  generation?: number;
  decision?: string;
  /** A call record's id ("<loop>#turn:T:tool:C:call"), replayed through the same gate. */
  call?: string;
  /** The tool a call record names. */
  tool?: string;
  /** The call record is an agent-tool-call-failed. */
  failed?: boolean;
  turn: number;
  /** A search decision's ranker kind ('bm25f-…', 'select', a host ranker's). */
  ranker?: string;
  /** A search decision's results, re-admitted. */
  results?: string[];
  /** Per result, its grade, when the page was graded. */
  grades?: ('strong' | 'partial' | 'selected')[];
  loaded?: string[];
  menu: string[];
}

/**
 * Replay a journal's text: the menus step by step and the final tool list.
 * `journalKey`: the key of a keyed journal. Throws JournalError (or the
 * core's 'tampered' / 'diverged' ToolsiftError).
 */
export declare function replayJournal(toolsift: Toolsift, text: string, options?: { journalKey?: string | null }):
  { steps: ReplayStep[]; tools: unknown[]; warnings: string[] };
export declare function readJournal(text: string): {
  value: Record<string, unknown>; header: string | null;
  /** The segment's decisions. */
  decisions: string[];
  /** Its decisions and call records, in order. */
  lines: string[];
}[];

/** One client session's menu, segments and journal (no MCP, no upstreams). */
export declare class ClientSession {
  /**
   * `principal`: who opened the session (a token name): recorded in its
   * segment lines and the toolsift sessions' `client`. `full()`: true once
   * the journal holds journal.maxBytes (call records are then left out and
   * the file ends). `chain`: follow the chain head without `write`.
   */
  constructor(toolsift: Toolsift, config: GatewayConfig, write?: ((line: string) => void) | null,
    options?: { principal?: string | null; full?: () => boolean; chain?: boolean });
  readonly searchToolName: string;
  readonly skillToolName: string | null;
  readonly segment: { session: Session; key: string; generation: number; startTurn: number } | null;
  nextTurn(): number;
  adopt(universe: Universe, turn: number): boolean;
  isMeta(name: string): boolean;
  /**
   * A search_tools or activate_skill call: the core's output, the result the
   * client gets (the core's, with inputSchema per loaded hit when
   * includeSchemas), and whether the listed menu changed.
   */
  callMeta(turn: number, name: string, args?: unknown): {
    output: any;
    result: (SearchToolsResult & { tools: (SearchToolsResult['tools'][number] & { inputSchema?: unknown })[] }) | Record<string, any>;
    menuChanged: boolean;
  };
  /** Gate a call to any other tool; an allowed call of a catalog tool is recorded (agent-tool-call) and written. */
  gate(turn: number, name: string, args: unknown, universe: Universe): { forward: string } | { error: string };
  /**
   * The call gate() allowed on `turn` failed at its upstream: recorded
   * (agent-tool-call-failed). False when its segment has ended since.
   */
  callFailed(turn: number, name: string): boolean;
  listTools(): { name: string; description?: string; inputSchema: unknown; annotations?: Record<string, boolean> }[];
  close(): void;
}
