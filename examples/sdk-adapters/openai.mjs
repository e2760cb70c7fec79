#!/usr/bin/env node
// openai.mjs — toolsift/openai with the Responses API's client-executed
// tool search over 399 tools (catalog.mjs) grouped in namespaces (one per product): the
// model gets tool_search and reply; a tool_search_call is answered by a
// toolsift session with the loaded functions' definitions.
//   node openai.mjs [--pre-search] ["what the user asks"]
// With OPENAI_API_KEY set it asks a real model (MODEL, default gpt-5.4);
// without, a scripted stand-in on 127.0.0.1 plays the model (offline.mjs).
// --pre-search: the host pre-searches the user's message before the first
// request (ts.preSearch); its strong hits are sent loaded, so the model can
// call one without searching first.
import OpenAI from 'openai';
import { load } from 'toolsift';
import { createToolSearch } from 'toolsift/openai';
import { corpusAnnotations, corpusTools } from './catalog.mjs';
import { offlineOpenAI } from './offline.mjs';

const args = process.argv.slice(2);
const preSearch = args.includes('--pre-search');
const prompt = args.find((a) => !a.startsWith('--')) ?? 'Open a GitHub issue about the flaky login test.';
const toolsift = await load();

// The host's Responses tools: its reply function and one namespace per product.
const namespaces = new Map();
for (const t of corpusTools()) {
  if (!namespaces.has(t.product)) namespaces.set(t.product, { type: 'namespace', name: t.product, description: `${t.product} tools`, tools: [] });
  namespaces.get(t.product).tools.push({ type: 'function', name: t.name, description: t.description, parameters: t.schema });
}
const hostTools = [
  { type: 'function', name: 'reply', description: 'Send the final answer to the user.', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, strict: false },
  ...namespaces.values(),
];

const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], annotations: corpusAnnotations(), search: { maxPerSearch: 3 } });
// Before each request with a new user message (here, the only one).
if (preSearch) console.log(`pre-searched ${JSON.stringify(ts.preSearch(prompt))}`);

const offline = process.env.OPENAI_API_KEY ? null : await offlineOpenAI();
const client = offline ? new OpenAI({ apiKey: 'offline', baseURL: `${offline.url}/v1` }) : new OpenAI();
const model = process.env.MODEL ?? 'gpt-5.4';

// Your tools' implementations, by catalog id (namespace__name).
const execute = async ({ id, arguments: args }) => ({ ok: true, tool: id, args });

const input = [{ role: 'user', content: prompt }];
try {
  for (let turn = 0; turn < 6; turn++) {
    const response = await client.responses.create({ model, input, tools: ts.tools() });
    input.push(...response.output);
    for (const item of response.output) {
      if (item.type === 'tool_search_call') console.log(`search ${JSON.stringify(item.arguments)}`);
      if (item.type === 'function_call') console.log(`call ${item.namespace ? `${item.namespace}.` : ''}${item.name} ${item.arguments}`);
    }
    const back = await ts.handle(response.output, { execute });
    for (const item of back) {
      if (item.type === 'tool_search_output') console.log(`loaded ${JSON.stringify(item.tools.flatMap((t) => (t.type === 'namespace' ? t.tools.map((f) => `${t.name}.${f.name}`) : [t.name])))}`);
      if (item.type === 'function_call_output') console.log(`output ${item.output}`);
    }
    if (back.length === 0) {
      console.log(`answer: ${response.output_text}`);
      break;
    }
    input.push(...back);
  }
} finally {
  await offline?.close();
}
console.log(`journal:\n${ts.session.journalJSONL().trim()}`);
