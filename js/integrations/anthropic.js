// toolsift/anthropic — deferred tools on the Anthropic Messages API with a
// custom tool-search tool answered by a toolsift session.
//
// The host keeps its Messages `tools` list. createToolSearch() indexes it
// and gives:
//   tools()   the request's tools: the search tool and the agent's own tools
//             as they are, every other tool with defer_loading: true (the
//             model sees none of them until a search references it)
//   handle()  one assistant message → the user message of tool_result
//             blocks to send back: a search answers `tool_reference` blocks
//             for the tools it loaded; any other tool_use is gated by the
//             session and either dispatched to the host or refused
// The tools array never changes and references land in the conversation,
// so the prompt prefix stays cacheable.

import {
  SEARCH_ARGUMENTS, searchDescription, checkOptions, fail, loadedIds, openSession, refusalText, searchToolName,
} from './common.js';

export { ToolsiftIntegrationError } from './common.js';

const W = 'toolsift/anthropic';


/** The input schema of the search tool. */
export const SEARCH_INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: { ...SEARCH_ARGUMENTS },
  required: ['query'],
});

const isCustom = (t) => t?.type === undefined || t?.type === null || t?.type === 'custom';

/**
 * @param {import('./anthropic.d.ts').AnthropicToolSearchOptions} options
 * @returns {import('./anthropic.d.ts').AnthropicToolSearch}
 */
export function createToolSearch(options) {
  checkOptions(W, options, ['description']);
  if (!Array.isArray(options.tools)) fail(W, 'options.tools must be the Messages API tools array');
  const hostTools = options.tools;
  const entries = [];
  hostTools.forEach((t, i) => {
    if (!isCustom(t)) return; // server tools (web search, code execution, …) pass through, not searched
    if (typeof t.name !== 'string' || !t.name) fail(W, `tools[${i}]: a tool needs a name`);
    entries.push({ id: t.name, tool: { name: t.name, description: t.description ?? '', input_schema: t.input_schema ?? { type: 'object' } } });
  });
  const { session, config, turn: firstTurn } = openSession(W, options, entries);
  const searchName = searchToolName(config);
  const upFront = new Set([...(options.agentTools ?? []), ...(options.search?.alwaysLoaded ?? [])]);
  let turn = firstTurn;

  const searchTool = {
    name: searchName,
    description: options.description ?? searchDescription(session),
    input_schema: SEARCH_INPUT_SCHEMA,
  };

  function tools() {
    const out = [searchTool];
    for (const t of hostTools) {
      if (!isCustom(t)) out.push(t);
      else if (upFront.has(t.name)) {
        const { defer_loading: _unused, ...rest } = t;
        out.push(rest);
      } else out.push({ ...t, defer_loading: true });
    }
    return out;
  }

  async function handle(message, { execute } = {}) {
    const content = message?.content;
    if (!Array.isArray(content)) fail(W, 'handle(message): message must be an assistant message with a content array');
    const results = [];
    let callIndex = 0;
    for (const block of content) {
      if (block?.type !== 'tool_use') continue;
      const args = block.input ?? {};
      if (block.name === searchName) {
        const out = session.call(turn, callIndex++, searchName, args);
        const ids = loadedIds(out.result);
        results.push(
          ids.length > 0
            ? { type: 'tool_result', tool_use_id: block.id, content: ids.map((id) => ({ type: 'tool_reference', tool_name: id })) }
            : {
                type: 'tool_result',
                tool_use_id: block.id,
                content: [{ type: 'text', text: refusalText(out.result) }],
                ...(typeof out.result.error === 'string' ? { is_error: true } : {}),
              },
        );
        continue;
      }
      const out = session.call(turn, callIndex++, block.name, args);
      if (out.result.allowed !== true) {
        results.push({ type: 'tool_result', tool_use_id: block.id, content: refusalText(out.result), is_error: true });
        continue;
      }
      if (typeof execute !== 'function') fail(W, `handle(): ${block.name} is allowed but no execute function was given`);
      const value = await execute({ name: block.name, input: args, block });
      results.push({ type: 'tool_result', tool_use_id: block.id, content: typeof value === 'string' ? value : JSON.stringify(value ?? null) });
    }
    turn += 1;
    return results.length ? { role: 'user', content: results } : null;
  }

  return {
    session,
    tools,
    handle,
    get turn() {
      return turn;
    },
  };
}
