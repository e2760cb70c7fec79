// Types shared by the toolsift SDK adapters (toolsift/ai-sdk, toolsift/openai, toolsift/anthropic).
import type { DivergenceMode, JournalRecord, HostRanker, Session, SessionSearchConfig, StaticModel, Toolsift } from '../toolsift.js';

/** A misuse of an adapter (an unknown option, a tool given twice, …); the message names what is wrong. */
export class ToolsiftIntegrationError extends Error {
  readonly name: 'ToolsiftIntegrationError';
}

/** The options every adapter takes besides the host's own tools. */
export interface AdapterSessionOptions {
  /** What `load()` from 'toolsift' resolved to. */
  toolsift: Toolsift;
  /** Names of the host's tools that are the agent's own: always on the menu, never deferred or searched. */
  agentTools?: string[];
  /** The session's search section: toolName, alwaysLoaded, namespaces (id prefixes), caps. */
  search?: SessionSearchConfig;
  /** The loop id in decision ids (default 'agent'). */
  loop?: string;
  /** Catalog annotations (extra tags and aliases per tool id) to improve search. */
  annotations?: Record<string, { tags?: string[]; aliases?: string[] }>;
  /**
   * A recorded journal. Without `resume`, the same conversation is replayed
   * from it: recorded searches are served, not ranked. With `resume`, the
   * recorded menu is rebuilt at once and the conversation goes on live after
   * the last recorded turn.
   */
  journal?: string | Uint8Array | JournalRecord[] | null;
  /** Replay divergence mode (default 'fail'; 'off' with `resume`). */
  divergence?: DivergenceMode;
  /** The HMAC key of the journal's hash chain (see SessionOptions.journalKey). */
  journalKey?: Uint8Array | string | null;
  /** Rebuild the recorded menu from `journal` and continue the conversation. */
  resume?: boolean;
  /** A host ranker instead of BM25F (see Session). */
  ranker?: HostRanker | null;
  /**
   * A static-embedding model (toolsift.loadStaticModel): the tools are
   * embedded with it and every search's query too, fused with BM25F
   * (Session#setEmbedder). The model must outlive the adapter's session.
   */
  model?: StaticModel | null;
  /** With `model`: the grade's similarity floor, -1..1 (default off). */
  minSimilarity?: number;
}

/** What every adapter exposes. */
export interface AdapterBase {
  /** The session: journal(), journalJSONL(), metrics(), menu(), finish(), free(). */
  readonly session: Session;
  /** The turn the next model response is counted as. */
  readonly turn: number;
  /**
   * 'all' when search.auto put every tool on the menu (the tools fit its
   * budget): every tool is sent loaded and there is no search tool;
   * 'search' otherwise. Decided once, when the adapter is created.
   */
  readonly mode: 'all' | 'search';
  /**
   * Pre-search: call with the user's latest message before asking the
   * model. The session searches it and loads only strong hits (the caps,
   * trust and journal of a search_tools call; not counted against
   * maxSearches; served from the journal on replay), counted before the
   * turn the model's next response is handled at. Returns the ids it
   * loaded; [] in mode 'all'. One per turn: a second before the model
   * answers throws ToolsiftIntegrationError. Throws the session's
   * ToolsiftError with a host ranker (code 'state': its pages are not graded).
   */
  preSearch(text: string): string[];
}
