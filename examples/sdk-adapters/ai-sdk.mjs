#!/usr/bin/env node
// ai-sdk.mjs — toolsift/ai-sdk with generateText over 399 tools (the corpus's
// 418 less the un-vouched third-party and tainted ones: catalog.mjs): the model
// starts with search_tools and reply only; what it finds becomes callable
// on its next step.
//   node ai-sdk.mjs [--pre-search] ["what the user asks"]
// With AI_GATEWAY_API_KEY set it asks a real model (MODEL, default
// openai/gpt-5.4, through the AI SDK gateway); without, a scripted model
// from 'ai/test' plays the loop offline. --pre-search sets the adapter's
// preSearch option: the request's strong hits are active from step 0, so
// the model can call one without searching first.
import { generateText, isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { load } from 'toolsift';
import { createToolSearch } from 'toolsift/ai-sdk';
import { corpusAnnotations, corpusTools, placeholderArgs } from './catalog.mjs';

const args = process.argv.slice(2);
const preSearch = args.includes('--pre-search');
const prompt = args.find((a) => !a.startsWith('--')) ?? 'Send "deploy done" to the #ops Slack channel.';
const toolsift = await load();

// The host's ToolSet: every corpus tool (a stub execute) plus the agent's reply.
const tools = {
  reply: tool({ description: 'Send the final answer to the user.', inputSchema: jsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }), execute: async ({ text }) => text }),
};
for (const t of corpusTools()) {
  tools[t.id] = tool({ description: t.description, inputSchema: jsonSchema(t.schema), execute: async (input) => ({ ok: true, tool: t.id, input }) });
}

const ts = await createToolSearch({ toolsift, tools, agentTools: ['reply'], annotations: corpusAnnotations(), search: { maxPerSearch: 3 }, preSearch });

const model = process.env.AI_GATEWAY_API_KEY ? (process.env.MODEL ?? 'openai/gpt-5.4') : offlineModel();
const result = await generateText({
  model,
  tools: ts.tools,
  prepareStep: ts.prepareStep,
  repairToolCall: ts.repairToolCall,
  stopWhen: isStepCount(6),
  prompt,
});

for (const [i, step] of result.steps.entries()) {
  for (const part of step.content) {
    if (part.type === 'tool-call') console.log(`step ${i}: call ${part.toolName} ${JSON.stringify(part.input)}`);
    if (part.type === 'tool-result') console.log(`step ${i}: result ${JSON.stringify(part.output).slice(0, 160)}`);
    if (part.type === 'tool-error') console.log(`step ${i}: refused ${part.error}`);
  }
}
console.log(`answer: ${result.text}`);
console.log(`menu: ${ts.activeTools().join(', ')}`);
console.log(`journal:\n${ts.session.journalJSONL().trim()}`);

// A scripted stand-in for a model: call the first tool it has besides
// search_tools and reply (it sees only the tools prepareStep made active),
// else search with the prompt first; then answer.
function offlineModel() {
  const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
  const call = (name, input) => ({ content: [{ type: 'tool-call', toolCallId: `call_${name}`, toolName: name, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] });
  let searched = false;
  let called = false;
  return new MockLanguageModelV4({
    doGenerate: async ({ tools: visible = [] }) => {
      const found = visible.find((t) => t.name !== 'search_tools' && t.name !== 'reply');
      if (!called && found) {
        called = true;
        return call(found.name, placeholderArgs(found.inputSchema));
      }
      if (!called && !searched) {
        searched = true;
        return call('search_tools', { query: prompt });
      }
      return { content: [{ type: 'text', text: `Done (the model saw ${visible.length} of ${Object.keys(tools).length + 1} tools).` }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}
