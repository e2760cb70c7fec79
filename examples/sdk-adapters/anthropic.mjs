#!/usr/bin/env node
// anthropic.mjs — toolsift/anthropic on the Messages API over 399 tools (catalog.mjs):
// the model gets search_tools and reply, every other tool is sent with
// defer_loading: true, and a search answers tool_reference blocks.
//   node anthropic.mjs [--pre-search] ["what the user asks"]
// With ANTHROPIC_API_KEY set it asks a real model (MODEL, default
// claude-sonnet-5-5); without, a scripted stand-in on 127.0.0.1 plays the
// model (offline.mjs).
// --pre-search: the host pre-searches the user's message before the first
// request (ts.preSearch); its strong hits are sent loaded, so the model can
// call one without searching first.
import Anthropic from '@anthropic-ai/sdk';
import { load } from 'toolsift';
import { createToolSearch } from 'toolsift/anthropic';
import { corpusAnnotations, corpusTools } from './catalog.mjs';
import { offlineAnthropic } from './offline.mjs';

const args = process.argv.slice(2);
const preSearch = args.includes('--pre-search');
const prompt = args.find((a) => !a.startsWith('--')) ?? 'Refund the last Stripe charge of customer cus_42.';
const toolsift = await load();

const hostTools = [
  { name: 'reply', description: 'Send the final answer to the user.', input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  ...corpusTools().map((t) => ({ name: t.id, description: t.description, input_schema: t.schema })),
];

const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], annotations: corpusAnnotations(), search: { maxPerSearch: 3 } });
// Before each request with a new user message (here, the only one).
if (preSearch) console.log(`pre-searched ${JSON.stringify(ts.preSearch(prompt))}`);

const offline = process.env.ANTHROPIC_API_KEY ? null : await offlineAnthropic();
const client = offline ? new Anthropic({ apiKey: 'offline', baseURL: offline.url }) : new Anthropic();
const model = process.env.MODEL ?? 'claude-sonnet-5-5';

// Your tools' implementations, by name.
const execute = async ({ name, input }) => ({ ok: true, tool: name, input });

const messages = [{ role: 'user', content: prompt }];
try {
  for (let turn = 0; turn < 6; turn++) {
    const message = await client.messages.create({ model, max_tokens: 1024, messages, tools: ts.tools() });
    messages.push({ role: 'assistant', content: message.content });
    for (const block of message.content) {
      if (block.type === 'tool_use') console.log(`call ${block.name} ${JSON.stringify(block.input)}`);
      if (block.type === 'text') console.log(`text: ${block.text}`);
    }
    const back = await ts.handle(message, { execute });
    if (back === null) break;
    for (const r of back.content) console.log(`result ${JSON.stringify(r.content)}${r.is_error ? ' (error)' : ''}`);
    messages.push(back);
  }
} finally {
  await offline?.close();
}
console.log(`journal:\n${ts.session.journalJSONL().trim()}`);
