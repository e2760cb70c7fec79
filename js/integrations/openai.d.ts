// toolsift/openai — the OpenAI Responses API's client-executed tool search.
// The wire types come from `openai` when it is installed. It is an optional
// peer dependency (the adapter imports nothing from it at run time), so
// without it these names are `any` instead of an error under
// skipLibCheck: false — tests/front-door/types.test.mjs compiles both ways.
// @ts-ignore TS2307 when openai is not installed
import type { FunctionTool, NamespaceTool, ResponseFunctionToolCall, ResponseInputItem, ResponseOutputItem, ResponseToolSearchOutputItemParam, Tool, ToolSearchTool } from 'openai/resources/responses/responses';
import type { AdapterBase, AdapterSessionOptions } from './common.js';

export { ToolsiftIntegrationError } from './common.js';

/** The parameters schema of the client-executed tool_search tool. */
export const SEARCH_PARAMETERS: Readonly<Record<string, unknown>>;

export interface OpenAIToolSearchOptions extends AdapterSessionOptions {
  /**
   * The host's Responses tools. Functions and namespace members are indexed
   * (a member's catalog id is `<namespace>__<name>`, also the id to use in
   * agentTools and search.alwaysLoaded); other tool types pass through.
   */
  tools: Tool[];
  /** The tool_search tool's description for the model. */
  description?: string;
}

/** A function call the session allowed, for the host to run. */
export interface OpenAIAllowedCall {
  /** The catalog id: `name`, or `<namespace>__<name>`. */
  id: string;
  name: string;
  namespace: string | null;
  /** The parsed arguments. */
  arguments: unknown;
  item: ResponseFunctionToolCall;
}

export interface OpenAIToolSearch extends AdapterBase {
  /**
   * The request's tools: the client-executed tool_search tool, the agent's
   * own, alwaysLoaded and pre-searched tools, other tool types as given; with
   * listDeferred, every other searchable function too, with defer_loading:
   * true (inside its namespace for members). The same on every request
   * except after a preSearch() that loaded something (its tools are sent
   * loaded). In mode 'all': every function without defer_loading and no
   * tool_search tool (listDeferred changes nothing).
   */
  tools(options?: { listDeferred?: boolean }): Array<ToolSearchTool | FunctionTool | NamespaceTool | Tool>;
  /**
   * One response's output items (one turn) → the input items to append:
   * a tool_search_output per client tool_search_call (the loaded tools'
   * definitions, namespace members grouped in their namespace) and a
   * function_call_output per function_call (execute's result, or the
   * session's refusal for a tool not loaded). [] when there is nothing to answer.
   */
  handle(
    output: ResponseOutputItem[] | ResponseInputItem[],
    options?: { execute?: (call: OpenAIAllowedCall) => unknown | Promise<unknown> },
  ): Promise<Array<ResponseToolSearchOutputItemParam | ResponseInputItem.FunctionCallOutput>>;
  /** The catalog id of a function (`name`) or a namespace member (`<namespace>__<name>`). */
  idOf(name: string, namespace?: string | null): string;
}

export function createToolSearch(options: OpenAIToolSearchOptions): OpenAIToolSearch;
