// Compiled with tsc --noEmit (tests/integrations/types.test.mjs): the
// adapters' .d.ts resolve through the package's own exports and fit the
// SDKs' types, as a user's code would use them.
import { load } from 'toolsift';
import { createToolSearch as aiSdk } from 'toolsift/ai-sdk';
import { createToolSearch as openaiSearch, type OpenAIAllowedCall } from 'toolsift/openai';
import { createToolSearch as anthropicSearch } from 'toolsift/anthropic';
import { loadStaticModelDir, readModelDir, type ModelPaths } from 'toolsift/model-dir';
import { generateText, isStepCount, tool, type LanguageModel } from 'ai';
import { z } from 'zod';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';

declare const model: LanguageModel;

export async function aiSdkUsage(): Promise<string> {
  const toolsift = await load();
  const ts = await aiSdk({
    toolsift,
    tools: {
      reply: tool({ description: 'Reply', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text }),
      get_weather: tool({ description: 'Weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city }) }),
    },
    agentTools: ['reply'],
    search: { maxPerSearch: 3, auto: { maxTools: 20 } },
    preSearch: true,
  });
  const pre: string[] = ts.preSearch('what is the weather in Oslo');
  const mode: 'all' | 'search' = ts.mode;
  const r = await generateText({ model, tools: ts.tools, prepareStep: ts.prepareStep, repairToolCall: ts.repairToolCall, stopWhen: isStepCount(5), prompt: 'hi' });
  const names: string[] = ts.activeTools();
  return r.text + names.join() + pre.join() + mode + ts.session.journalJSONL();
}

export async function openaiUsage(client: OpenAI): Promise<void> {
  const toolsift = await load();
  const ts = openaiSearch({
    toolsift,
    tools: [
      { type: 'function', name: 'reply', parameters: { type: 'object' }, strict: false },
      { type: 'namespace', name: 'crm', description: 'CRM', tools: [{ type: 'function', name: 'get_customer', parameters: { type: 'object' } }] },
    ],
    agentTools: ['reply'],
  });
  const input: ResponseInputItem[] = [{ role: 'user', content: 'hi' }];
  if (ts.mode === 'search') ts.preSearch('hi');
  const response = await client.responses.create({ model: 'gpt-5.4', input, tools: ts.tools() });
  input.push(...(response.output as ResponseInputItem[]));
  const back = await ts.handle(response.output, { execute: async (call: OpenAIAllowedCall) => ({ id: call.id }) });
  input.push(...back);
}

export async function anthropicUsage(client: Anthropic): Promise<void> {
  const toolsift = await load();
  const ts = anthropicSearch({
    toolsift,
    tools: [{ name: 'reply', input_schema: { type: 'object' } }, { name: 'get_weather', input_schema: { type: 'object' } }],
    agentTools: ['reply'],
  });
  const messages: MessageParam[] = [{ role: 'user', content: 'hi' }];
  const loaded: string[] = ts.preSearch('hi');
  if (loaded.length && ts.mode === 'all') throw new Error('unreachable');
  const message = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages, tools: ts.tools() });
  messages.push({ role: 'assistant', content: message.content });
  const back = await ts.handle(message, { execute: ({ name }) => name });
  if (back) messages.push(back);
}

// Learning a catalog's vocabulary (toolsift.d.ts: Learner, createLearner,
// learnDiff, the annotations and client options, Session#callFailed).
export async function learningUsage(): Promise<string> {
  const toolsift = await load();
  const catalog = { tools: [{ id: 'weather__get_forecast', name: 'get_forecast', description: 'Weather forecast' }] };
  const session = toolsift.createSession({ catalog }, { client: 'team-a' });
  session.call(0, 0, 'search_tools', { query: 'weather forecast' });
  session.call(1, 0, 'weather__get_forecast', {});
  session.callFailed(1, 0, 'weather__get_forecast');
  const learner = toolsift.createLearner(catalog, { minSessions: 2, minClients: 1, unverified: 'skip', journalKey: undefined });
  learner.addJournal('run-1', session.journalJSONL());
  learner.addExamples('examples.jsonl', new TextEncoder().encode('{"query":"rain tomorrow","relevance":{"weather__get_forecast":3}}'));
  const learned = learner.finish();
  const text: string = learner.finishJSON();
  learner.free();
  const freed: boolean = learner.freed;
  const evidence = learned.evidence['weather__get_forecast']?.['rain']?.share ?? 0;
  const diff = toolsift.learnDiff({ annotations: { weather__get_forecast: { tags: ['umbrella'] } } }, learned);
  const index = toolsift.createIndex(catalog, { annotations: text, ids: 'strict' });
  const digest: string | undefined = index.info().vocabulary?.digest;
  const replay = toolsift.createSession({ catalog }, { annotations: learned, client: 'team-b', divergence: 'warn' });
  const calls = replay.journal().filter((r) => r.source === 'agent-tool-call-failed').length;
  return `${freed}${evidence}${diff.toolsChanged}${digest}${calls}${toolsift.learnDiffJSON(text, text)}`;
}

// A static model by name or folder (toolsift/model-dir) as the adapters' options.model.
export async function modelDirUsage(): Promise<string> {
  const toolsift = await load();
  const model = loadStaticModelDir(toolsift, 'glove');
  const files: ModelPaths = readModelDir('./potion-base-8M');
  const config: Uint8Array | null = readModelDir('glove').bytes.config;
  const ts = await aiSdk({ toolsift, tools: {}, model, minSimilarity: 0.2 });
  ts.session.free();
  model.free();
  return `${files.layout} ${config?.length ?? 0}`;
}
