// toolsift/ai-sdk — deferred tool loading for the Vercel AI SDK (`ai` >= 7).
import type { ModelMessage, ToolCallRepairFunction, ToolSet } from 'ai';
import type { AdapterBase, AdapterSessionOptions } from './common.js';

export { ToolsiftIntegrationError } from './common.js';

export interface AISDKToolSearchOptions<TOOLS extends ToolSet = ToolSet> extends AdapterSessionOptions {
  /** The host's ToolSet. Each tool's description and input schema are indexed; its execute is gated by the session. */
  tools: TOOLS;
  /** The search tool's description for the model. */
  description?: string;
  /**
   * Pre-search the user's latest message automatically: at step 0 of each
   * generateText/streamText call, when the conversation's last message is
   * the user's, prepareStep pre-searches its text (string content, or its
   * text parts) before the model's first step, so strong hits are active at
   * once. Skipped when the host already called preSearch() for that turn, and
   * in mode 'all'. Not with a host ranker (an error).
   */
  preSearch?: boolean;
}

export interface AISDKToolSearch<TOOLS extends ToolSet = ToolSet> extends AdapterBase {
  /**
   * The host's tools (execute gated: a tool not on the menu throws the
   * session's refusal) plus the search tool (none in mode 'all').
   */
  readonly tools: TOOLS & ToolSet;
  /**
   * Pass as generateText/streamText `prepareStep`: one call per step,
   * counted as one turn. With `preSearch: true`, step 0 pre-searches the
   * user's message from `messages`.
   */
  prepareStep: (options?: { stepNumber?: number; messages?: ModelMessage[] }) => {
    activeTools: Array<Extract<keyof TOOLS, string>>;
    toolOrder: Array<Extract<keyof TOOLS, string>>;
  };
  /** Pass as `repairToolCall`: a call to a tool that is not active becomes the session's refusal message. */
  repairToolCall: ToolCallRepairFunction<TOOLS & ToolSet>;
  /** The menu's tool names, in menu order (what prepareStep sets as activeTools). */
  activeTools(): string[];
}

/** Index the host's ToolSet in a session and return the tools, prepareStep and repairToolCall to pass to generateText. */
export function createToolSearch<TOOLS extends ToolSet>(options: AISDKToolSearchOptions<TOOLS>): Promise<AISDKToolSearch<TOOLS>>;
