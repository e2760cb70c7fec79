// toolsift/ai-sdk — deferred tool loading for the Vercel AI SDK (`ai` ≥ 7).
//
// The host keeps its ToolSet. createToolSearch() indexes it in a toolsift
// session and returns:
//   tools           the host's tools (execute gated by the session) plus a
//                   `search_tools` tool answered by the session
//   prepareStep     sets activeTools (and toolOrder) from the session's menu
//                   before every step, so tools a search loaded are callable
//                   on the next step and the tool list only ever grows
//   repairToolCall  turns a call to a tool that is not active into the
//                   session's refusal, a message the model can act on
//   preSearch(text) the host's pre-search of the user's message before the
//                   model's next step: its strong hits are active at once
// Turns are counted across generateText/streamText calls, so one adapter
// follows a whole conversation; its journal replays it with no ranking.
//
// Auto mode (search.auto): when the tools fit the budget the session puts
// every one on the menu and has no search tool (mode 'all'); the search tool
// is then left out of `tools` and prepareStep activates every tool.
//
// Pre-search: a step-0 prepareStep sees the messages, so with
// `preSearch: true` the adapter pre-searches the conversation's last message
// when it is the user's, before the model's first step of each
// generateText/streamText call. The host can instead call preSearch(text)
// itself. Loaded tools join activeTools like searched ones: the tool list
// grows before the model's first step rather than after a search_tools
// round trip, so the prompt prefix changes once for each pre-search that
// loads something (as it does after each search that loads something).

import {
  checkOptions, fail, importPeer, menuNames, openSession, parseArgs, preSearcher, refusalText, SEARCH_ARGUMENTS,
  searchDescription, searchToolName, ToolsiftIntegrationError,
} from './common.js';

export { ToolsiftIntegrationError } from './common.js';

// `ai` is an optional peer dependency of toolsift: without it, importing
// this module says what to install instead of Node's bare "Cannot find
// package 'ai'" (tests/front-door/newcomer.test.mjs).
const { asSchema, jsonSchema, NoSuchToolError } = await importPeer(
  () => import('ai'),
  /Cannot find (package|module) ['"]ai['"]/,
  () => new ToolsiftIntegrationError(
    "toolsift/ai-sdk needs the Vercel AI SDK ('ai'), an optional peer dependency of toolsift: npm install ai@^7",
  ),
);

const W = 'toolsift/ai-sdk';

const SEARCH_SCHEMA = {
  type: 'object',
  properties: { ...SEARCH_ARGUMENTS },
  required: ['query'],
  additionalProperties: false,
};

async function describe(name, tool) {
  if (tool === null || typeof tool !== 'object') fail(W, `tools.${name} is not a tool`);
  const description = typeof tool.description === 'string' ? tool.description : '';
  let inputSchema = { type: 'object' };
  if (tool.inputSchema !== undefined) {
    try {
      inputSchema = await asSchema(tool.inputSchema).jsonSchema;
    } catch (e) {
      fail(W, `tools.${name}: its inputSchema has no JSON Schema (${e?.message ?? e})`);
    }
  }
  return { id: name, tool: { name, description, inputSchema } };
}

/**
 * The text of the user's latest message: the conversation's last message
 * when it is the user's (string content, or its text parts), else null. A
 * conversation that ends otherwise (a tool result, an approval) brings no
 * new words from the user, and searching an old message again would load
 * the next best tools of a universe its first search already took from.
 */
function lastUserText(messages) {
  const last = Array.isArray(messages) ? messages.at(-1) : null;
  if (last?.role !== 'user') return null;
  if (typeof last.content === 'string') return last.content;
  if (!Array.isArray(last.content)) return null;
  const parts = last.content.filter((p) => p?.type === 'text' && typeof p.text === 'string').map((p) => p.text);
  return parts.length ? parts.join('\n') : null;
}

/**
 * @param {import('./ai-sdk.d.ts').AISDKToolSearchOptions} options
 * @returns {Promise<import('./ai-sdk.d.ts').AISDKToolSearch>}
 */
export async function createToolSearch(options) {
  checkOptions(W, options, ['description', 'preSearch']);
  const hostTools = options.tools;
  if (hostTools === null || typeof hostTools !== 'object') fail(W, 'options.tools must be an AI SDK ToolSet');
  const searchName = options.search?.toolName ?? 'search_tools';
  if (Object.hasOwn(hostTools, searchName)) {
    fail(W, `tools.${searchName}: the search tool's name is taken; set search.toolName to another name`);
  }
  const entries = [];
  for (const [name, tool] of Object.entries(hostTools)) entries.push(await describe(name, tool));
  const { session, config, turn: firstTurn, mode } = openSession(W, options, entries);

  // `turn` is the turn of the step under way; prepareStep advances it for
  // every step after the first, so the next step's turn is turn + 1 once a
  // step has run.
  let turn = firstTurn;
  let started = false;
  let callIndex = 0;
  const call = (tool, args) => session.call(turn, callIndex++, tool, args);
  const nextStepTurn = () => (started ? turn + 1 : turn);
  const pre = preSearcher(W, session, mode);

  // In mode 'all' there is no search tool on the menu: none is offered.
  const tools = {};
  if (mode === 'search') {
    tools[searchName] = {
      description: options.description ?? searchDescription(session, searchName),
      inputSchema: jsonSchema(SEARCH_SCHEMA),
      execute: async (input) => call(searchToolName(config), input ?? {}).result,
    };
  }
  for (const [name, hostTool] of Object.entries(hostTools)) {
    // The session decides what is deferred: the SDK's own deferLoading would
    // hide a tool the session loaded (only the SDK's toolSearch discovers it).
    const { deferLoading: _unused, ...tool } = hostTool;
    if (typeof tool.execute !== 'function') {
      tools[name] = tool; // no execute: the host runs it; prepareStep still keeps it inactive until loaded
      continue;
    }
    tools[name] = {
      ...tool,
      execute: async (input, executeOptions) => {
        const out = call(name, input ?? {});
        if (out.result.allowed !== true) throw new ToolsiftIntegrationError(refusalText(out.result));
        return tool.execute(input, executeOptions);
      },
    };
  }

  const activeTools = () => menuNames(session);

  return {
    session,
    tools,
    activeTools,
    get turn() {
      return turn;
    },
    get mode() {
      return mode;
    },
    // The host's pre-search, before it asks the model: counted at the turn
    // the model's next step is handled at.
    preSearch: (text) => pre.preSearch(nextStepTurn(), text),
    prepareStep: ({ stepNumber, messages } = {}) => {
      if (started) turn += 1;
      started = true;
      callIndex = 0;
      // preSearch: true — the user's latest message, before the model's
      // first step of this call (unless the host pre-searched this turn)
      if (options.preSearch === true && stepNumber === 0 && !pre.done(turn)) {
        const text = lastUserText(messages);
        if (text !== null && text.trim() !== '') pre.preSearch(turn, text);
      }
      const names = activeTools();
      return { activeTools: names, toolOrder: names };
    },
    repairToolCall: async ({ toolCall, error }) => {
      if (!NoSuchToolError.isInstance(error)) return null;
      const out = call(toolCall.toolName, parseArgs(toolCall.input));
      if (out.result.allowed === true) return null; // on the menu: not ours to repair
      throw new ToolsiftIntegrationError(refusalText(out.result));
    },
  };
}
