// toolsift/ai-sdk against the real `ai` package: generateText driven by the
// SDK's own MockLanguageModelV4 with scripted tool calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateText, isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../js/toolsift.js';
import { createToolSearch } from '../../js/integrations/ai-sdk.js';
import { loadStaticModelDir } from '../../js/model-dir.js';

const toolsift = await load();

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const toolCalls = (...calls) => ({
  content: calls.map(([id, name, input]) => ({
    type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input),
  })),
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});
const text = (t) => ({ content: [{ type: 'text', text: t }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });

// The host's own ToolSet; executions are logged.
function hostTools(log) {
  const run = (name) => async (input) => {
    log.push([name, input]);
    return { ok: true, tool: name };
  };
  return {
    reply: tool({ description: 'Send the final answer to the user.', inputSchema: z.object({ text: z.string() }), execute: run('reply') }),
    slack_send_message: tool({
      description: 'Send a message to a Slack channel as the bot user.',
      inputSchema: z.object({ channel: z.string(), text: z.string() }),
      execute: run('slack_send_message'),
    }),
    // deferLoading is the SDK's own flag: the session's menu decides instead.
    slack_list_channels: tool({ description: 'List the Slack channels of the workspace.', inputSchema: z.object({}), execute: run('slack_list_channels'), deferLoading: true }),
    stripe_create_refund: tool({
      description: 'Refund a Stripe payment fully or partially.',
      inputSchema: z.object({ charge: z.string(), amount: z.number().optional() }),
      execute: run('stripe_create_refund'),
    }),
    stripe_list_charges: tool({ description: 'List recent Stripe charges of a customer.', inputSchema: z.object({ customer: z.string() }), execute: run('stripe_list_charges') }),
    github_create_issue: tool({
      description: 'Open an issue in a GitHub repository.',
      inputSchema: z.object({ repo: z.string(), title: z.string() }),
      execute: run('github_create_issue'),
    }),
    calendar_create_event: tool({ description: 'Create a calendar event with attendees.', inputSchema: z.object({ title: z.string() }), execute: run('calendar_create_event') }),
  };
}

// Conversation, part 1: search → call a loaded tool (and one never loaded) → answer.
const script1 = () => [
  toolCalls(['c1', 'search_tools', { query: 'send a slack message', limit: 2 }]),
  toolCalls(['c2', 'slack_send_message', { channel: '#ops', text: 'deploy done' }], ['c3', 'stripe_create_refund', { charge: 'ch_1' }]),
  text('Posted to #ops.'),
];
// Part 2, the user goes on: search again, call, answer.
const script2 = () => [
  toolCalls(['d1', 'search_tools', { query: 'refund a stripe payment', limit: 1 }]),
  toolCalls(['d2', 'stripe_create_refund', { charge: 'ch_1', amount: 5 }]),
  text('Refunded.'),
];

const toolNames = (model) => model.doGenerateCalls.map((c) => (c.tools ?? []).map((t) => t.name));

async function conversation(ts) {
  const m1 = new MockLanguageModelV4({ doGenerate: script1() });
  const r1 = await generateText({
    model: m1, tools: ts.tools, prepareStep: ts.prepareStep, repairToolCall: ts.repairToolCall,
    stopWhen: isStepCount(5), prompt: 'Tell #ops the deploy is done.',
  });
  const m2 = new MockLanguageModelV4({ doGenerate: script2() });
  const r2 = await generateText({
    model: m2, tools: ts.tools, prepareStep: ts.prepareStep, repairToolCall: ts.repairToolCall,
    stopWhen: isStepCount(5),
    messages: [{ role: 'user', content: 'Tell #ops the deploy is done.' }, ...r1.response.messages, { role: 'user', content: 'Now refund ch_1 by 5.' }],
  });
  return { r1, r2, lists: [...toolNames(m1), ...toolNames(m2)] };
}

test('ai-sdk: search → loaded → called; a tool never loaded is refused; replay ranks nothing', async () => {
  const log = [];
  const ts = await createToolSearch({ toolsift, tools: hostTools(log), agentTools: ['reply'], search: { maxPerSearch: 3 } });
  const { r1, r2, lists } = await conversation(ts);

  // Step 0 sees only the meta-tool and the agent's tools; searched tools join on the next step.
  assert.deepEqual(lists[0], ['search_tools', 'reply']);
  // "send a slack message": send_message matches every word (strong, loaded);
  // list_channels only "slack" (partial: listed, not loaded).
  assert.deepEqual(lists[1], ['search_tools', 'reply', 'slack_send_message']);
  // Append-only: every step's list starts with the previous one.
  for (let i = 1; i < lists.length; i++) assert.deepEqual(lists[i].slice(0, lists[i - 1].length), lists[i - 1]);
  assert.deepEqual(lists.at(-1), ['search_tools', 'reply', 'slack_send_message', 'stripe_create_refund']);

  // The loaded tool ran with the model's arguments; the never-loaded one did not run.
  assert.deepEqual(log, [['slack_send_message', { channel: '#ops', text: 'deploy done' }], ['stripe_create_refund', { charge: 'ch_1', amount: 5 }]]);
  const step1 = r1.steps[1].content;
  const ok = step1.find((p) => p.type === 'tool-result' && p.toolName === 'slack_send_message');
  assert.deepEqual(ok.output, { ok: true, tool: 'slack_send_message' });
  const refused = step1.find((p) => p.type === 'tool-error' && p.toolName === 'stripe_create_refund');
  assert.ok(refused, 'the call to a tool never loaded is a tool error');
  assert.match(String(refused.error), /not_on_menu \(stripe_create_refund\): this tool is not on the menu; search for it first/);
  assert.equal(r1.text, 'Posted to #ops.');
  assert.equal(r2.text, 'Refunded.');

  const search = r1.steps[0].content.find((p) => p.type === 'tool-result');
  assert.deepEqual(search.output.tools.map((t) => [t.name, t.loaded, t.match]),
    [['slack_send_message', true, 'strong'], ['slack_list_channels', false, 'partial']]);

  const journal = ts.session.journal();
  // the hash chain's header, then the decisions and a call record for each
  // allowed call to a catalog tool (the refused one records nothing)
  assert.deepEqual(journal.map((d) => d.id), ['agent#journal', 'agent#turn:0:tool:0:search', 'agent#turn:1:tool:1:call',
    'agent#turn:3:tool:0:search', 'agent#turn:4:tool:0:call']);
  const m = ts.session.metrics();
  assert.equal(m.searches, 2);
  assert.equal(m.rankerCalls, 2);
  assert.equal(m.refusals, 1);

  // Replay: the same conversation from its journal, zero ranker calls, the same tool lists.
  const log2 = [];
  const replay = await createToolSearch({ toolsift, tools: hostTools(log2), agentTools: ['reply'], search: { maxPerSearch: 3 }, journal: ts.session.journalJSONL() });
  const again = await conversation(replay);
  assert.deepEqual(again.lists, lists);
  assert.deepEqual(log2, log);
  const rm = replay.session.metrics();
  assert.equal(rm.rankerCalls, 0);
  assert.equal(rm.replayed, 2);
  assert.deepEqual(replay.session.finish(), { unasked: [] });
  assert.equal(replay.session.journalJSONL(), ts.session.journalJSONL());
  ts.session.free();
  replay.session.free();
});

test('ai-sdk: a resumed conversation gets its menu back from the journal and goes on live', async () => {
  const first = await createToolSearch({ toolsift, tools: hostTools([]), agentTools: ['reply'], search: { maxPerSearch: 3 } });
  await conversation(first);
  const menu = first.activeTools();
  const resumed = await createToolSearch({
    toolsift, tools: hostTools([]), agentTools: ['reply'], search: { maxPerSearch: 3 }, journal: first.session.journal(), resume: true,
  });
  assert.deepEqual(resumed.activeTools(), menu);
  assert.equal(resumed.session.metrics().rankerCalls, 0);
  const model = new MockLanguageModelV4({
    doGenerate: [toolCalls(['e1', 'search_tools', { query: 'open a github issue' }]), toolCalls(['e2', 'github_create_issue', { repo: 'a/b', title: 'x' }]), text('Opened.')],
  });
  const r = await generateText({ model, tools: resumed.tools, prepareStep: resumed.prepareStep, repairToolCall: resumed.repairToolCall, stopWhen: isStepCount(5), prompt: 'Open an issue.' });
  assert.equal(r.text, 'Opened.');
  assert.ok(toolNames(model)[1].includes('github_create_issue'));
  assert.deepEqual(toolNames(model)[1].slice(0, menu.length), menu);
  // resumed: the recorded decisions applied (their calls are not made again), then the live search and call
  assert.deepEqual(resumed.session.journal().map((d) => d.id), ['agent#journal', 'agent#turn:0:tool:0:search',
    'agent#turn:3:tool:0:search', 'agent#turn:4:tool:0:search', 'agent#turn:5:tool:0:call']);
  assert.equal(resumed.session.metrics().rankerCalls, 1);
  first.session.free();
  resumed.session.free();
});

test('ai-sdk: options are checked and errors name what is wrong', async () => {
  await assert.rejects(createToolSearch({ toolsift, tools: hostTools([]), agentTool: ['reply'] }), /toolsift\/ai-sdk: unknown option "agentTool"/);
  await assert.rejects(createToolSearch({ toolsift, tools: hostTools([]), agentTools: ['nope'] }), /agentTools: no tool "nope"/);
  await assert.rejects(createToolSearch({ tools: hostTools([]) }), /options.toolsift must be/);
  await assert.rejects(
    createToolSearch({ toolsift, tools: { ...hostTools([]), search_tools: tool({ description: 'x', inputSchema: z.object({}) }) } }),
    /tools.search_tools: the search tool's name is taken/,
  );
});

test('ai-sdk: streamText takes the same prepareStep and repairToolCall', async () => {
  const { streamText, simulateReadableStream } = await import('ai');
  const stream = (...parts) => ({ stream: simulateReadableStream({ chunks: parts, initialDelayInMs: null, chunkDelayInMs: null }) });
  const finish = (reason) => ({ type: 'finish', finishReason: { unified: reason, raw: reason }, usage });
  const call = (id, name, input) => ({ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) });
  const model = new MockLanguageModelV4({
    doStream: [
      stream(call('s1', 'search_tools', { query: 'open a github issue', limit: 1 }), finish('tool-calls')),
      stream(call('s2', 'github_create_issue', { repo: 'a/b', title: 'flaky test' }), call('s3', 'calendar_create_event', { title: 'x' }), finish('tool-calls')),
      stream({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Opened.' }, { type: 'text-end', id: 't' }, finish('stop')),
    ],
  });
  const log = [];
  const ts = await createToolSearch({ toolsift, tools: hostTools(log), agentTools: ['reply'] });
  const result = streamText({ model, tools: ts.tools, prepareStep: ts.prepareStep, repairToolCall: ts.repairToolCall, stopWhen: isStepCount(5), prompt: 'File it.' });
  assert.equal(await result.text, 'Opened.');
  const lists = model.doStreamCalls.map((c) => (c.tools ?? []).map((t) => t.name));
  assert.deepEqual(lists[0], ['search_tools', 'reply']);
  assert.deepEqual(lists[1], ['search_tools', 'reply', 'github_create_issue']);
  assert.deepEqual(log, [['github_create_issue', { repo: 'a/b', title: 'flaky test' }]]);
  const steps = await result.steps;
  const refused = steps[1].content.find((p) => p.type === 'tool-error');
  assert.match(String(refused.error), /not_on_menu \(calendar_create_event\)/);
  ts.session.free();
});

test('ai-sdk: options.model embeds the tools and every query (the decisions record the vector ranker)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-adapter-model-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const gen = spawnSync(process.execPath, [fileURLToPath(new URL('../../scripts/gen-static-model.mjs', import.meta.url)), '--out', dir, '--dim', '16']);
  assert.equal(gen.status, 0, String(gen.stderr));
  const model = toolsift.loadStaticModel(readFileSync(path.join(dir, 'model.safetensors')), readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'));
  const ts = await createToolSearch({ toolsift, tools: hostTools([]), agentTools: ['reply'], model });
  await conversation(ts);
  const searches = ts.session.journal().filter((d) => d.source === 'agent-tool-search');
  assert.equal(searches.length, 2);
  for (const d of searches) assert.equal(d.value.ranker, `bm25f-6+vec:${model.id}`);
  ts.session.free();
  model.free();
  await assert.rejects(createToolSearch({ toolsift, tools: hostTools([]), model: {} }), /options.model must be a StaticModel/);
  await assert.rejects(createToolSearch({ toolsift, tools: hostTools([]), minSimilarity: 0.3 }), /options.minSimilarity is a setting of options.model/);
});

// The real model (GloVe, `npm run model`), by name through the one folder
// rule (js/model-dir.js): the adapter embeds with it, the decisions record
// its ranker kind, and the conversation loads and calls what it did
// lexically. Skipped when the model is not built (this test fetches nothing).
test('ai-sdk: options.model with the real model (loadStaticModelDir(toolsift, "glove"))', async (t) => {
  let model;
  try {
    model = loadStaticModelDir(toolsift, 'glove');
  } catch (e) {
    if (e.code === 'io' && /not built/.test(e.message)) return t.skip(`${e.message} (build/models/glove, or env TOOLSIFT_GLOVE_DIR)`);
    throw e;
  }
  t.after(() => model.free());
  assert.match(model.id, /^glove-6b-98d-40k-i8-[0-9a-f]{12}$/);
  const log = [];
  const ts = await createToolSearch({ toolsift, tools: hostTools(log), agentTools: ['reply'], search: { maxPerSearch: 3 }, model });
  const { lists } = await conversation(ts);
  const searches = ts.session.journal().filter((d) => d.source === 'agent-tool-search');
  assert.equal(searches.length, 2);
  for (const d of searches) assert.equal(d.value.ranker, `bm25f-6+vec:${model.id}`);
  assert.deepEqual(lists.at(-1), ['search_tools', 'reply', 'slack_send_message', 'stripe_create_refund']);
  assert.deepEqual(log, [['slack_send_message', { channel: '#ops', text: 'deploy done' }], ['stripe_create_refund', { charge: 'ch_1', amount: 5 }]]);
  ts.session.free();
});

// ---- auto mode and pre-search ----------------------------------------------

const generate = (ts, model, prompt) => generateText({
  model, tools: ts.tools, prepareStep: ts.prepareStep, repairToolCall: ts.repairToolCall, stopWhen: isStepCount(5),
  ...(typeof prompt === 'string' ? { prompt } : { messages: prompt }),
});

test('ai-sdk: auto mode — a tool set within budget is all active with no search tool; over budget keeps search_tools', async () => {
  const log = [];
  const ts = await createToolSearch({ toolsift, tools: hostTools(log), agentTools: ['reply'], search: { auto: true } });
  const every = Object.keys(hostTools([]));
  assert.equal(ts.mode, 'all');
  assert.equal(ts.session.metrics().mode, 'all');
  assert.deepEqual(ts.activeTools(), every, 'the menu is every tool, the agent\'s first');
  assert.equal(Object.hasOwn(ts.tools, 'search_tools'), false, 'no search tool is offered in mode all');
  // The model sees every tool from step 0 and calls one directly; a call to
  // search_tools (not on the menu) is refused as an unknown tool.
  const model = new MockLanguageModelV4({
    doGenerate: [
      toolCalls(['a1', 'stripe_create_refund', { charge: 'ch_1' }], ['a2', 'search_tools', { query: 'refund' }]),
      text('Refunded.'),
    ],
  });
  const r = await generate(ts, model, 'Refund ch_1.');
  assert.equal(r.text, 'Refunded.');
  for (const list of toolNames(model)) assert.deepEqual(list, every);
  assert.deepEqual(log, [['stripe_create_refund', { charge: 'ch_1' }]]);
  const refused = r.steps[0].content.find((p) => p.type === 'tool-error' && p.toolName === 'search_tools');
  assert.match(String(refused.error), /not_on_menu \(search_tools\)/);
  assert.equal(ts.session.metrics().searches, 0);
  // a pre-search has nothing to do: every tool is on the menu
  assert.deepEqual(ts.preSearch('Refund the Stripe payment.'), []);
  assert.equal(ts.session.metrics().preSearches, 0);
  ts.session.free();

  // Six catalog tools over a budget of three: the session searches.
  const over = await createToolSearch({ toolsift, tools: hostTools([]), agentTools: ['reply'], search: { auto: { maxTools: 3 } } });
  assert.equal(over.mode, 'search');
  assert.ok(Object.hasOwn(over.tools, 'search_tools'));
  assert.match(over.tools.search_tools.description, /search/i);
  assert.deepEqual(over.prepareStep().activeTools, ['search_tools', 'reply']);
  over.session.free();
});

test('ai-sdk: preSearch(text) loads the strong hit before step 0; the call is allowed; replay serves it', async () => {
  const prompt = 'Refund the Stripe payment ch_1 by 5 dollars, please.';
  const script = () => [toolCalls(['p1', 'stripe_create_refund', { charge: 'ch_1', amount: 5 }]), text('Refunded.')];
  async function run(ts) {
    const loaded = ts.preSearch(prompt);
    const model = new MockLanguageModelV4({ doGenerate: script() });
    const r = await generate(ts, model, prompt);
    // Part 2: the user goes on; this pre-search counts at the turn of the next step.
    const turnBefore = ts.turn;
    const loaded2 = ts.preSearch('Open a GitHub issue in the repository a/b.');
    const model2 = new MockLanguageModelV4({ doGenerate: [toolCalls(['p2', 'github_create_issue', { repo: 'a/b', title: 't' }]), text('Opened.')] });
    const r2 = await generate(ts, model2, [{ role: 'user', content: prompt }, ...r.response.messages, { role: 'user', content: 'Open a GitHub issue in the repository a/b.' }]);
    return { loaded, loaded2, turnBefore, r, r2, lists: [...toolNames(model), ...toolNames(model2)] };
  }
  const log = [];
  const ts = await createToolSearch({ toolsift, tools: hostTools(log), agentTools: ['reply'] });
  const live = await run(ts);
  assert.deepEqual(live.loaded, ['stripe_create_refund']);
  assert.deepEqual(live.loaded2, ['github_create_issue']);
  // The pre-searched tool is active at step 0: no search_tools round trip.
  assert.deepEqual(live.lists[0], ['search_tools', 'reply', 'stripe_create_refund']);
  assert.deepEqual(live.lists[2], ['search_tools', 'reply', 'stripe_create_refund', 'github_create_issue']);
  assert.deepEqual(log, [['stripe_create_refund', { charge: 'ch_1', amount: 5 }], ['github_create_issue', { repo: 'a/b', title: 't' }]]);
  assert.equal(live.r.text, 'Refunded.');
  assert.equal(live.r2.text, 'Opened.');
  // Steps 0 and 1 were turns 0 and 1, so the second pre-search is turn 2's,
  // before the calls of the step it preceded.
  assert.equal(live.turnBefore, 1);
  assert.deepEqual(ts.session.journal().map((d) => d.id), ['agent#journal', 'agent#turn:0:pre-search', 'agent#turn:0:tool:0:call',
    'agent#turn:2:pre-search', 'agent#turn:2:tool:0:call']);
  const m = ts.session.metrics();
  assert.equal(m.preSearches, 2);
  assert.equal(m.searches, 0, 'a pre-search is not the model\'s search');

  // Replay: the same calls from the journal, nothing ranked.
  const log2 = [];
  const replay = await createToolSearch({ toolsift, tools: hostTools(log2), agentTools: ['reply'], journal: ts.session.journal() });
  const again = await run(replay);
  assert.deepEqual([again.loaded, again.loaded2], [live.loaded, live.loaded2]);
  assert.deepEqual(again.lists, live.lists);
  assert.deepEqual(log2, log);
  assert.equal(replay.session.metrics().rankerCalls, 0);
  assert.equal(replay.session.metrics().replayed, 2);
  assert.deepEqual(replay.session.finish(), { unasked: [] });
  ts.session.free();
  replay.session.free();
});

test('ai-sdk: preSearch: true pre-searches the user\'s last message at step 0', async () => {
  const prompt = 'Refund the Stripe payment ch_1 by 5 dollars, please.';
  const script = () => [toolCalls(['q1', 'stripe_create_refund', { charge: 'ch_1', amount: 5 }]), text('Refunded.')];
  const log = [];
  const ts = await createToolSearch({ toolsift, tools: hostTools(log), agentTools: ['reply'], preSearch: true });
  const model = new MockLanguageModelV4({ doGenerate: script() });
  const r = await generate(ts, model, prompt);
  assert.equal(r.text, 'Refunded.');
  // step 0's activeTools already hold the strong hit, and the model's call to it ran
  assert.deepEqual(toolNames(model)[0], ['search_tools', 'reply', 'stripe_create_refund']);
  assert.deepEqual(log, [['stripe_create_refund', { charge: 'ch_1', amount: 5 }]]);
  const pre = ts.session.journal()[1];
  assert.equal(pre.id, 'agent#turn:0:pre-search');
  assert.equal(pre.source, 'host-pre-search');
  assert.equal(pre.value.query, prompt);

  // Text parts of the last message are searched too; a conversation that
  // does not end with the user's message brings no new words: no pre-search.
  const model2 = new MockLanguageModelV4({ doGenerate: [text('Sure.')] });
  await generate(ts, model2, [
    { role: 'user', content: prompt }, ...r.response.messages,
    { role: 'user', content: [{ type: 'text', text: 'Also open a GitHub issue' }, { type: 'text', text: 'in the repository a/b.' }] },
  ]);
  assert.ok(toolNames(model2)[0].includes('github_create_issue'));
  assert.equal(ts.session.journal().at(-1).value.query, 'Also open a GitHub issue\nin the repository a/b.');
  const model3 = new MockLanguageModelV4({ doGenerate: [text('Done.')] });
  const before = ts.session.metrics().preSearches;
  await generate(ts, model3, [{ role: 'user', content: prompt }, ...r.response.messages]);
  assert.equal(ts.session.metrics().preSearches, before);

  // The host's own preSearch() for the turn takes the place of the automatic one.
  const host = await createToolSearch({ toolsift, tools: hostTools([]), agentTools: ['reply'], preSearch: true });
  assert.deepEqual(host.preSearch('Send a message to the Slack channel #ops.'), ['slack_send_message']);
  const model4 = new MockLanguageModelV4({ doGenerate: [text('ok')] });
  await generate(host, model4, prompt);
  assert.deepEqual(toolNames(model4)[0], ['search_tools', 'reply', 'slack_send_message']);
  assert.equal(host.session.metrics().preSearches, 1);

  // Replay of the automatic pre-search: the same step 0, nothing ranked.
  const replay = await createToolSearch({ toolsift, tools: hostTools([]), agentTools: ['reply'], preSearch: true, journal: ts.session.journalJSONL() });
  const again = new MockLanguageModelV4({ doGenerate: script() });
  await generate(replay, again, prompt);
  assert.deepEqual(toolNames(again)[0], toolNames(model)[0]);
  assert.equal(replay.session.metrics().rankerCalls, 0);
  ts.session.free();
  host.session.free();
  replay.session.free();
});

test('ai-sdk: preSearch misuse is an error that names the rule', async () => {
  await assert.rejects(createToolSearch({ toolsift, tools: hostTools([]), preSearch: 'yes' }), /toolsift\/ai-sdk: options.preSearch must be true or false/);
  await assert.rejects(
    createToolSearch({ toolsift, tools: hostTools([]), preSearch: true, ranker: { kind: 'host-1', rank: () => [] } }),
    /options.preSearch needs the built-in ranker/,
  );
  const ts = await createToolSearch({ toolsift, tools: hostTools([]), agentTools: ['reply'] });
  assert.throws(() => ts.preSearch(42), /preSearch\(text\): text must be a string/);
  ts.preSearch('Refund a Stripe payment.');
  assert.throws(() => ts.preSearch('Send a Slack message.'), /toolsift\/ai-sdk: preSearch\(\): turn 0 was pre-searched already/);
  ts.session.free();
});
