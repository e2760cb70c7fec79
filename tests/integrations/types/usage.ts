// Compiled with tsc --noEmit (tests/integrations/types.test.mjs): the
// adapters' .d.ts resolve through the package's own exports and fit the
// SDKs' types, as a user's code would use them.
import { load } from 'toolsift';
import { createToolSearch as aiSdk } from 'toolsift/ai-sdk';
import { createToolSearch as openaiSearch, type OpenAIAllowedCall } from 'toolsift/openai';
import { createToolSearch as anthropicSearch } from 'toolsift/anthropic';
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
    search: { maxPerSearch: 3 },
  });
  const r = await generateText({ model, tools: ts.tools, prepareStep: ts.prepareStep, repairToolCall: ts.repairToolCall, stopWhen: isStepCount(5), prompt: 'hi' });
  const names: string[] = ts.activeTools();
  return r.text + names.join() + ts.session.journalJSONL();
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
  const message = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages, tools: ts.tools() });
  messages.push({ role: 'assistant', content: message.content });
  const back = await ts.handle(message, { execute: ({ name }) => name });
  if (back) messages.push(back);
}
