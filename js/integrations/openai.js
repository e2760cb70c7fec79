// toolsift/openai — the OpenAI Responses API's client-executed tool search.
//
// The host keeps its Responses `tools` list (functions and namespaces).
// createToolSearch() indexes it in a toolsift session and gives:
//   tools()   the request's tools: a `tool_search` tool with
//             execution "client", the agent's own (and alwaysLoaded and
//             pre-searched) tools, and (listDeferred) every other function
//             with defer_loading: true
//   handle()  one response's output items → the input items to send back:
//             a `tool_search_call` becomes a session search answered by a
//             `tool_search_output` carrying the loaded tools' definitions
//             (a namespace member stays inside its namespace); a
//             `function_call` is gated by the session and either dispatched
//             to the host or answered with the session's refusal
//   preSearch(text)  the host's pre-search of the user's message before it
//             sends the request: the strong hits are loaded at once
// Tools the model's searches load arrive as tool_search_output items at the
// end of the conversation: the tools array does not change for them, so the
// prompt prefix stays cacheable.
//
// Auto mode (search.auto): when the tools fit the budget the session puts
// every one on the menu (mode 'all'); tools() then sends every function
// without defer_loading and no tool_search tool.
//
// Pre-search: the adapter sees a response's output, never the user's
// message, so the host calls preSearch(text) itself before each request that
// carries a new user message (there is no preSearch option). A pre-searched
// tool has no tool_search_call to answer, so tools() sends it loaded (without
// defer_loading) from then on: the tools array, and with it the prompt
// prefix, changes once for each pre-search that loads something. That is the
// trade-off: the model can call the tool in its first response instead of
// after a tool_search round trip.

import { SEARCH_ARGUMENTS, checkOptions, fail, loadedIds, openConversation, parseArgs, refusalText } from './common.js';

export { ToolsiftIntegrationError } from './common.js';

const W = 'toolsift/openai';
const SEP = '__';


/** The parameters of the client-executed tool_search tool. */
export const SEARCH_PARAMETERS = Object.freeze({
  type: 'object',
  properties: { ...SEARCH_ARGUMENTS },
  required: ['query'],
  additionalProperties: false,
});

// toolsift/ai-sdk takes `preSearch: true`; here it could not do anything.
const PRE_SEARCH_REFUSED = 'this adapter never sees the user\'s messages (handle() takes the model\'s output); '
  + 'call ts.preSearch(text) with the user\'s message before the request instead';

function withoutDefer(fn) {
  const { defer_loading: _unused, ...rest } = fn;
  return rest;
}

/**
 * @param {import('./openai.d.ts').OpenAIToolSearchOptions} options
 * @returns {import('./openai.d.ts').OpenAIToolSearch}
 */
export function createToolSearch(options) {
  checkOptions(W, options, ['description'], { preSearch: PRE_SEARCH_REFUSED });
  if (!Array.isArray(options.tools)) fail(W, 'options.tools must be the Responses API tools array');
  const hostTools = options.tools;
  const byId = new Map(); // id -> { namespace, fn }
  const namespaces = new Map(); // name -> the namespace tool (without its tools)
  const entries = [];
  hostTools.forEach((t, i) => {
    if (t?.type === 'function') {
      if (typeof t.name !== 'string' || !t.name) fail(W, `tools[${i}]: a function needs a name`);
      byId.set(t.name, { namespace: null, fn: t });
      entries.push({ id: t.name, tool: { id: t.name, name: t.name, description: t.description ?? '', inputSchema: t.parameters ?? { type: 'object' } } });
    } else if (t?.type === 'namespace') {
      if (typeof t.name !== 'string' || !t.name) fail(W, `tools[${i}]: a namespace needs a name`);
      if (!Array.isArray(t.tools)) fail(W, `tools[${i}] (namespace ${t.name}): tools must be an array`);
      const { tools: members, ...head } = t;
      namespaces.set(t.name, head);
      members.forEach((m, k) => {
        if (m?.type !== 'function' || typeof m.name !== 'string' || !m.name) {
          fail(W, `tools[${i}] (namespace ${t.name}).tools[${k}]: only named functions can be searched`);
        }
        const id = `${t.name}${SEP}${m.name}`;
        byId.set(id, { namespace: t.name, fn: m });
        entries.push({
          id,
          tool: { id, name: m.name, description: m.description ?? '', tags: [t.name], inputSchema: m.parameters ?? { type: 'object' } },
        });
      });
    }
    // Other tool types (web_search, mcp, …) are passed through untouched and not searched.
  });
  // The conversation's turn (a response's output is one) and the ids sent
  // loaded; the model's searches load tools as tool_search_output items.
  const c = openConversation(W, options, entries);
  const { session, mode, searchName, sentLoaded } = c;

  const searchTool = mode === 'all' ? null : {
    type: 'tool_search',
    execution: 'client',
    description: c.description(),
    parameters: SEARCH_PARAMETERS,
  };

  // The definitions of loaded ids, namespace members grouped in their namespace.
  function definitions(ids) {
    const out = [];
    const groups = new Map();
    for (const id of ids) {
      const { namespace, fn } = byId.get(id);
      if (namespace === null) {
        out.push(withoutDefer(fn));
        continue;
      }
      let group = groups.get(namespace);
      if (!group) {
        group = { ...namespaces.get(namespace), tools: [] };
        groups.set(namespace, group);
        out.push(group);
      }
      group.tools.push(withoutDefer(fn));
    }
    return out;
  }

  function tools({ listDeferred = false } = {}) {
    // Mode 'all' has nothing deferred: a tool off its menu (outside
    // search.namespaces) can never be loaded, so it is not sent at all.
    const deferred = listDeferred && mode === 'search';
    const out = searchTool ? [searchTool] : [];
    for (const t of hostTools) {
      if (t?.type === 'function') {
        if (sentLoaded.has(t.name)) out.push(withoutDefer(t));
        else if (deferred) out.push({ ...t, defer_loading: true });
      } else if (t?.type === 'namespace') {
        const now = t.tools.filter((m) => sentLoaded.has(`${t.name}${SEP}${m.name}`)).map(withoutDefer);
        const later = deferred
          ? t.tools.filter((m) => !sentLoaded.has(`${t.name}${SEP}${m.name}`)).map((m) => ({ ...m, defer_loading: true }))
          : [];
        if (now.length || later.length) out.push({ ...t, tools: [...now, ...later] });
      } else {
        out.push(t);
      }
    }
    return out;
  }

  async function handle(output, { execute } = {}) {
    if (!Array.isArray(output)) fail(W, 'handle(output): output must be a response\'s output array');
    const items = [];
    let callIndex = 0;
    for (const item of output) {
      if (item?.type === 'tool_search_call') {
        if (item.execution === 'server') continue; // run by OpenAI: nothing to answer
        const out = session.call(c.turn, callIndex++, searchName, parseArgs(item.arguments));
        items.push({
          type: 'tool_search_output',
          call_id: item.call_id ?? null,
          execution: 'client',
          status: 'completed',
          tools: definitions(loadedIds(out.result)),
        });
      } else if (item?.type === 'function_call') {
        const id = item.namespace ? `${item.namespace}${SEP}${item.name}` : item.name;
        const args = parseArgs(item.arguments);
        const out = session.call(c.turn, callIndex++, id, args);
        let text;
        if (out.result.allowed === true) {
          if (typeof execute !== 'function') fail(W, `handle(): ${id} is allowed but no execute function was given`);
          const value = await execute({ id, name: item.name, namespace: item.namespace ?? null, arguments: args, item });
          text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
        } else {
          text = refusalText(out.result);
        }
        items.push({ type: 'function_call_output', call_id: item.call_id, output: text });
      }
    }
    c.turn += 1;
    return items;
  }

  return c.api(tools, handle, {
    /** The catalog id of a namespace member or a top-level function. */
    idOf: (name, namespace) => (namespace ? `${namespace}${SEP}${name}` : name),
  });
}
