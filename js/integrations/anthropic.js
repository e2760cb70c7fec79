// toolsift/anthropic — deferred tools on the Anthropic Messages API with a
// custom tool-search tool answered by a toolsift session.
//
// The host keeps its Messages `tools` list. createToolSearch() indexes it
// and gives:
//   tools()   the request's tools: the search tool and the agent's own (and
//             alwaysLoaded and pre-searched) tools as they are, every other
//             tool with defer_loading: true (the model sees none of them
//             until a search references it)
//   handle()  one assistant message → the user message of tool_result
//             blocks to send back: a search answers `tool_reference` blocks
//             for the tools it loaded; any other tool_use is gated by the
//             session and either dispatched to the host or refused
//   preSearch(text)  the host's pre-search of the user's message before it
//             sends the request: the strong hits are loaded at once
// Tools the model's searches load arrive as references in the conversation:
// the tools array does not change for them, so the prompt prefix stays
// cacheable.
//
// Auto mode (search.auto): when the tools fit the budget the session puts
// every one on the menu (mode 'all'); tools() then sends every tool without
// defer_loading and no search tool.
//
// Pre-search: the adapter sees the assistant's messages, never the user's,
// so the host calls preSearch(text) itself before each request that carries
// a new user message (there is no preSearch option). A pre-searched tool has
// no search tool_use to answer with a tool_reference, so tools() sends it
// loaded (without defer_loading) from then on: the tools array, and with it
// the prompt prefix, changes once for each pre-search that loads something.
// That is the trade-off: the model can call the tool in its first response
// instead of after a search round trip.

import { SEARCH_ARGUMENTS, checkOptions, fail, loadedIds, openConversation, refusalText } from './common.js';

export { ToolsiftIntegrationError } from './common.js';

const W = 'toolsift/anthropic';


/** The input schema of the search tool. */
export const SEARCH_INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: { ...SEARCH_ARGUMENTS },
  required: ['query'],
});

// toolsift/ai-sdk takes `preSearch: true`; here it could not do anything.
const PRE_SEARCH_REFUSED = 'this adapter never sees the user\'s messages (handle() takes the assistant\'s message); '
  + 'call ts.preSearch(text) with the user\'s message before the request instead';

const isCustom = (t) => t?.type === undefined || t?.type === null || t?.type === 'custom';

/**
 * @param {import('./anthropic.d.ts').AnthropicToolSearchOptions} options
 * @returns {import('./anthropic.d.ts').AnthropicToolSearch}
 */
export function createToolSearch(options) {
  checkOptions(W, options, ['description'], { preSearch: PRE_SEARCH_REFUSED });
  if (!Array.isArray(options.tools)) fail(W, 'options.tools must be the Messages API tools array');
  const hostTools = options.tools;
  const entries = [];
  hostTools.forEach((t, i) => {
    if (!isCustom(t)) return; // server tools (web search, code execution, …) pass through, not searched
    if (typeof t.name !== 'string' || !t.name) fail(W, `tools[${i}]: a tool needs a name`);
    entries.push({ id: t.name, tool: { name: t.name, description: t.description ?? '', input_schema: t.input_schema ?? { type: 'object' } } });
  });
  // The conversation's turn (an assistant message is one) and the names
  // sent loaded; the model's searches load tools as tool_reference blocks.
  const c = openConversation(W, options, entries);
  const { session, mode, searchName, sentLoaded } = c;

  const searchTool = mode === 'all' ? null : {
    name: searchName,
    description: c.description(),
    input_schema: SEARCH_INPUT_SCHEMA,
  };

  function tools() {
    const out = searchTool ? [searchTool] : [];
    for (const t of hostTools) {
      if (!isCustom(t)) out.push(t);
      else if (sentLoaded.has(t.name)) {
        const { defer_loading: _unused, ...rest } = t;
        out.push(rest);
      } else if (mode === 'search') out.push({ ...t, defer_loading: true });
      // mode 'all': a tool off the menu (outside search.namespaces) can
      // never be loaded without a search tool, so it is not sent
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
        const out = session.call(c.turn, callIndex++, searchName, args);
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
      const out = session.call(c.turn, callIndex++, block.name, args);
      if (out.result.allowed !== true) {
        results.push({ type: 'tool_result', tool_use_id: block.id, content: refusalText(out.result), is_error: true });
        continue;
      }
      if (typeof execute !== 'function') fail(W, `handle(): ${block.name} is allowed but no execute function was given`);
      const value = await execute({ name: block.name, input: args, block });
      results.push({ type: 'tool_result', tool_use_id: block.id, content: typeof value === 'string' ? value : JSON.stringify(value ?? null) });
    }
    c.turn += 1;
    return results.length ? { role: 'user', content: results } : null;
  }

  return c.api(tools, handle);
}
