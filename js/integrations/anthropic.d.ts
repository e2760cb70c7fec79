// toolsift/anthropic — deferred tools on the Anthropic Messages API with a custom search tool.
// The wire types come from `@anthropic-ai/sdk` when it is installed. It is an optional
// peer dependency (the adapter imports nothing from it at run time), so
// without it these names are `any` instead of an error under
// skipLibCheck: false — tests/front-door/types.test.mjs compiles both ways.
// @ts-ignore TS2307 when @anthropic-ai/sdk is not installed
import type { Message, MessageParam, ToolResultBlockParam, ToolUnion, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages/messages';
import type { AdapterBase, AdapterSessionOptions } from './common.js';

export { ToolsiftIntegrationError } from './common.js';

/** The input schema of the search tool. */
export const SEARCH_INPUT_SCHEMA: Readonly<Record<string, unknown>>;

export interface AnthropicToolSearchOptions extends AdapterSessionOptions {
  /** The host's Messages tools. Custom tools are indexed; server tools pass through untouched. */
  tools: ToolUnion[];
  /** The search tool's description for the model. */
  description?: string;
}

/** A tool call the session allowed, for the host to run. */
export interface AnthropicAllowedCall {
  name: string;
  input: unknown;
  block: ToolUseBlock;
}

export interface AnthropicToolSearch extends AdapterBase {
  /**
   * The request's tools: the search tool, the agent's own, alwaysLoaded and
   * pre-searched tools, every other custom tool with defer_loading: true,
   * server tools as given. The same on every request except after a
   * preSearch() that loaded something (its tools are sent loaded). In mode
   * 'all': every tool without defer_loading and no search tool.
   */
  tools(): ToolUnion[];
  /**
   * One assistant message (one turn) → the user message of tool_result
   * blocks to append, or null when it has no tool_use: a search answers
   * tool_reference blocks for the tools it loaded (text when none, is_error
   * for a refusal); a call to a tool not loaded answers the session's refusal
   * with is_error.
   */
  handle(
    message: Pick<Message, 'content'>,
    options?: { execute?: (call: AnthropicAllowedCall) => unknown | Promise<unknown> },
  ): Promise<(MessageParam & { role: 'user'; content: ToolResultBlockParam[] }) | null>;
}

export function createToolSearch(options: AnthropicToolSearchOptions): AnthropicToolSearch;
