// toolsift/openai — the OpenAI Responses API's client-executed tool search.
//
// The host keeps its Responses `tools` list (functions and namespaces).
// createToolSearch() indexes it in a toolsift session and gives:
//   tools()   the request's tools: a `tool_search` tool with
//             execution "client", the agent's own tools, and (listDeferred)
//             every other function with defer_loading: true
//   handle()  one response's output items → the input items to send back:
//             a `tool_search_call` becomes a session search answered by a
//             `tool_search_output` carrying the loaded tools' definitions
//             (a namespace member stays inside its namespace); a
//             `function_call` is gated by the session and either dispatched
//             to the host or answered with the session's refusal
// The tools array never changes, and loaded tools arrive as output items at
// the end of the conversation, so the prompt prefix stays cacheable.

import {
  SEARCH_ARGUMENTS, searchDescription, checkOptions, fail, loadedIds, openSession, parseArgs, refusalText, searchToolName,
} from './common.js';

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

function withoutDefer(fn) {
  const { defer_loading: _unused, ...rest } = fn;
  return rest;
}

/**
 * @param {import('./openai.d.ts').OpenAIToolSearchOptions} options
 * @returns {import('./openai.d.ts').OpenAIToolSearch}
 */
export function createToolSearch(options) {
  checkOptions(W, options, ['description']);
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
  const { session, config, turn: firstTurn } = openSession(W, options, entries);
  const searchName = searchToolName(config);
  const upFront = new Set([...(options.agentTools ?? []), ...(options.search?.alwaysLoaded ?? [])]);
  let turn = firstTurn;

  const searchTool = {
    type: 'tool_search',
    execution: 'client',
    description: options.description ?? searchDescription(session),
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
    const out = [searchTool];
    for (const t of hostTools) {
      if (t?.type === 'function') {
        if (upFront.has(t.name)) out.push(withoutDefer(t));
        else if (listDeferred) out.push({ ...t, defer_loading: true });
      } else if (t?.type === 'namespace') {
        const now = t.tools.filter((m) => upFront.has(`${t.name}${SEP}${m.name}`)).map(withoutDefer);
        const later = listDeferred
          ? t.tools.filter((m) => !upFront.has(`${t.name}${SEP}${m.name}`)).map((m) => ({ ...m, defer_loading: true }))
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
        const out = session.call(turn, callIndex++, searchName, parseArgs(item.arguments));
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
        const out = session.call(turn, callIndex++, id, args);
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
    turn += 1;
    return items;
  }

  return {
    session,
    tools,
    handle,
    get turn() {
      return turn;
    },
    /** The catalog id of a namespace member or a top-level function. */
    idOf: (name, namespace) => (namespace ? `${namespace}${SEP}${name}` : name),
  };
}
