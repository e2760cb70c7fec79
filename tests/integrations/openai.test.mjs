// toolsift/openai with the official `openai` client against a local server
// that plays recorded Responses API responses (fixtures/openai-responses.json).
// The requests the client sends are the wire format under test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { load } from '../../js/toolsift.js';
import { createToolSearch, SEARCH_PARAMETERS } from '../../js/integrations/openai.js';
import { replayServer } from './replay-server.mjs';

const toolsift = await load();
const recorded = JSON.parse(readFileSync(new URL('./fixtures/openai-responses.json', import.meta.url), 'utf8'));

const obj = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });
const str = { type: 'string' };

// The host's Responses tools: its own reply function, a namespace and top-level functions.
const hostTools = [
  { type: 'function', name: 'reply', description: 'Send the final answer to the user.', parameters: obj({ text: str }), strict: true },
  {
    type: 'namespace', name: 'crm', description: 'CRM tools for customer lookup and order management.',
    tools: [
      { type: 'function', name: 'list_open_orders', description: 'List open orders for a customer ID.', parameters: obj({ customer_id: str }) },
      { type: 'function', name: 'get_customer', description: 'Look up a customer by ID: name, email, tier.', parameters: obj({ customer_id: str }) },
      { type: 'function', name: 'update_customer_email', description: 'Change the email address on a customer record.', parameters: obj({ customer_id: str, email: str }) },
    ],
  },
  { type: 'function', name: 'issue_refund', description: 'Refund a paid order to the original payment method.', parameters: obj({ order_id: str }), strict: true },
  { type: 'function', name: 'create_ticket', description: 'Open a support ticket for a customer.', parameters: obj({ subject: str }), strict: true },
];

async function conversation(ts, server) {
  const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const executed = [];
  const execute = async (call) => {
    executed.push([call.id, call.namespace, call.name, call.arguments]);
    return { orders: ['O-7'] };
  };
  const input = [{ role: 'user', content: 'What orders does customer C-42 have open?' }];
  const sent = [];
  for (let i = 0; i < 3; i++) {
    const response = await client.responses.create({ model: 'gpt-5.4', input, tools: ts.tools() });
    input.push(...response.output);
    const back = await ts.handle(response.output, { execute });
    sent.push(back);
    input.push(...back);
    if (back.length === 0) return { response, executed, sent };
  }
  throw new Error('conversation did not end');
}

test('openai: tool_search_call → tool_search_output with namespaced definitions → the loaded tool is called; a tool never loaded is refused', async () => {
  const server = await replayServer(recorded);
  try {
    // The recorded model calls both tools the search finds; with load: 'all'
    // both are loaded whatever their grade (the protocol is what is tested here;
    // the graded loop has its own tests).
    const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { maxPerSearch: 5, load: 'all' } });
    const { response, executed, sent } = await conversation(ts, server);
    assert.equal(response.output_text, 'C-42 has one open order, O-7.');
    assert.equal(server.requests.length, 3);

    // Every request: POST /v1/responses with the same tools (the prefix stays cacheable):
    // the client-executed tool_search tool and the agent's own function.
    for (const r of server.requests) {
      assert.equal(r.method, 'POST');
      assert.equal(r.path, '/v1/responses');
      assert.deepEqual(r.body.tools, [
        { type: 'tool_search', execution: 'client', description: ts.tools()[0].description, parameters: SEARCH_PARAMETERS },
        hostTools[0],
      ]);
    }

    // Request 2 carries the model's tool_search_call back, then our tool_search_output:
    // the loaded namespace members inside their namespace, as the host defined them.
    const input2 = server.requests[1].body.input;
    assert.deepEqual(input2[1], recorded[0].output[0]);
    const output = input2[2];
    assert.equal(output.type, 'tool_search_output');
    assert.equal(output.call_id, 'call_search_01');
    assert.equal(output.execution, 'client');
    assert.equal(output.status, 'completed');
    const loaded = ts.session.journal()[1].value.loaded; // [0]: the chain's header
    assert.deepEqual([...loaded].sort(), ['crm__get_customer', 'crm__list_open_orders']);
    const member = (id) => hostTools[1].tools.find((m) => `crm__${m.name}` === id);
    assert.deepEqual(output.tools, [{ ...hostTools[1], tools: loaded.map(member) }]);

    // Request 3: the loaded tool ran (dispatched by namespace + name); the never-loaded one was refused.
    assert.deepEqual(executed, [['crm__list_open_orders', 'crm', 'list_open_orders', { customer_id: 'C-42' }]]);
    const input3 = server.requests[2].body.input;
    const outputs = input3.filter((it) => it.type === 'function_call_output');
    assert.deepEqual(outputs, [
      { type: 'function_call_output', call_id: 'call_fn_01', output: '{"orders":["O-7"]}' },
      { type: 'function_call_output', call_id: 'call_fn_02', output: 'not_on_menu (issue_refund): this tool is not on the menu; search for it first' },
    ]);
    assert.deepEqual(sent.at(-1), []);

    const journal = ts.session.journal();
    assert.deepEqual(journal.map((d) => d.id), ['agent#journal', 'agent#turn:0:tool:0:search', 'agent#turn:1:tool:0:call']);
    assert.equal(ts.session.metrics().rankerCalls, 1);
    assert.equal(ts.session.metrics().refusals, 1);

    // Replay from the journal: the same requests byte for byte, zero ranker calls.
    const again = await replayServer(recorded);
    try {
      const replay = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { maxPerSearch: 5, load: 'all' }, journal: ts.session.journalJSONL() });
      await conversation(replay, again);
      assert.deepEqual(again.requests.map((r) => r.body), server.requests.map((r) => r.body));
      assert.equal(replay.session.metrics().rankerCalls, 0);
      assert.equal(replay.session.metrics().replayed, 1);
      assert.deepEqual(replay.session.finish(), { unasked: [] });
      replay.session.free();
    } finally {
      await again.close();
    }
    ts.session.free();
  } finally {
    await server.close();
  }
});

test('openai: listDeferred marks every searchable function defer_loading, never the agent\'s own', () => {
  const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'] });
  const tools = ts.tools({ listDeferred: true });
  assert.equal(tools[0].type, 'tool_search');
  assert.deepEqual(tools[1], hostTools[0]);
  assert.deepEqual(tools[2].tools.map((m) => [m.name, m.defer_loading]), [['list_open_orders', true], ['get_customer', true], ['update_customer_email', true]]);
  assert.equal(tools[2].defer_loading, undefined, 'defer_loading goes on the functions, not the namespace');
  assert.deepEqual(tools.slice(3).map((t) => [t.name, t.defer_loading]), [['issue_refund', true], ['create_ticket', true]]);
  ts.session.free();
});

test('openai: a refused search answers an empty tool_search_output; errors name what is wrong', async () => {
  const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { maxSearches: 0 } });
  const items = await ts.handle([{ type: 'tool_search_call', call_id: 'c1', execution: 'client', arguments: { query: 'refund' } }]);
  assert.deepEqual(items, [{ type: 'tool_search_output', call_id: 'c1', execution: 'client', status: 'completed', tools: [] }]);
  assert.throws(() => createToolSearch({ toolsift, tools: {} }), /toolsift\/openai: options.tools must be the Responses API tools array/);
  assert.throws(() => createToolSearch({ toolsift, tools: [{ type: 'namespace', name: 'x', tools: [{ type: 'custom', name: 'y' }] }] }), /namespace x\)\.tools\[0\]: only named functions/);
  const ok = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'] });
  await assert.rejects(ok.handle([{ type: 'function_call', call_id: 'c', name: 'reply', arguments: '{}' }]), /reply is allowed but no execute function/);
  ts.session.free();
  ok.session.free();
});

// ---- auto mode and pre-search ----------------------------------------------

// Two recorded responses: the model calls crm.list_open_orders and
// issue_refund, then answers.
const callThenAnswer = () => [recorded[1], recorded[2]];
const question = 'What orders does customer C-42 have open?';

async function run(ts, server, { preSearch = false } = {}) {
  const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const executed = [];
  const execute = async (call) => {
    executed.push(call.id);
    return { orders: ['O-7'] };
  };
  const loaded = preSearch ? ts.preSearch(question) : null;
  const input = [{ role: 'user', content: question }];
  const outputs = [];
  for (let i = 0; i < 2; i++) {
    const response = await client.responses.create({ model: 'gpt-5.4', input, tools: ts.tools() });
    input.push(...response.output);
    const back = await ts.handle(response.output, { execute });
    outputs.push(...back.filter((it) => it.type === 'function_call_output').map((it) => it.output));
    input.push(...back);
  }
  return { loaded, executed, outputs };
}

test('openai: auto mode — a tool set within budget is sent whole, no tool_search; over budget keeps it', async () => {
  const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { auto: true } });
  assert.equal(ts.mode, 'all');
  assert.equal(ts.session.metrics().mode, 'all');
  // every function and namespace member as the host gave it: none deferred, no tool_search
  assert.deepEqual(ts.tools(), hostTools);
  assert.deepEqual(ts.tools({ listDeferred: true }), hostTools);
  const server = await replayServer(callThenAnswer());
  try {
    const { executed, outputs } = await run(ts, server);
    for (const r of server.requests) assert.deepEqual(r.body.tools, hostTools);
    // both calls are on the menu from the start
    assert.deepEqual(executed, ['crm__list_open_orders', 'issue_refund']);
    assert.deepEqual(outputs, ['{"orders":["O-7"]}', '{"orders":["O-7"]}']);
  } finally {
    await server.close();
  }
  // a tool_search_call (none was offered) is refused: an empty output
  const items = await ts.handle([{ type: 'tool_search_call', call_id: 's', execution: 'client', arguments: { query: 'refund' } }]);
  assert.deepEqual(items[0].tools, []);
  assert.equal(ts.session.metrics().searches, 0);
  assert.deepEqual(ts.preSearch(question), [], 'nothing to pre-search in mode all');
  ts.session.free();

  // Five searchable functions over a budget of three: the session searches.
  const over = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { auto: { maxTools: 3 } } });
  assert.equal(over.mode, 'search');
  assert.deepEqual(over.tools().map((t) => t.type), ['tool_search', 'function']);
  assert.match(over.tools()[0].description, /search/i);
  over.session.free();
});

test('openai: preSearch(text) sends the strong hit loaded; the model\'s call to it is allowed; replay serves it', async () => {
  const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'] });
  const before = ts.tools();
  const server = await replayServer(callThenAnswer());
  let live;
  try {
    live = await run(ts, server, { preSearch: true });
  } finally {
    await server.close();
  }
  assert.deepEqual(live.loaded, ['crm__list_open_orders']);
  // The tools changed once: the pre-searched member is sent in its namespace, without defer_loading.
  const after = [...before, { ...hostTools[1], tools: [hostTools[1].tools[0]] }];
  for (const r of server.requests) assert.deepEqual(r.body.tools, after);
  // listDeferred: the loaded member first in its namespace, the others deferred
  assert.deepEqual(ts.tools({ listDeferred: true })[2].tools.map((m) => [m.name, m.defer_loading]),
    [['list_open_orders', undefined], ['get_customer', true], ['update_customer_email', true]]);
  // the pre-searched tool ran; issue_refund (never loaded) was refused
  assert.deepEqual(live.executed, ['crm__list_open_orders']);
  assert.match(live.outputs[1], /^not_on_menu \(issue_refund\)/);
  assert.deepEqual(ts.session.journal().map((d) => d.id), ['agent#journal', 'agent#turn:0:pre-search', 'agent#turn:0:tool:0:call']);
  assert.equal(ts.session.metrics().preSearches, 1);

  // Replay from the journal: the same requests, nothing ranked.
  const again = await replayServer(callThenAnswer());
  try {
    const replay = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], journal: ts.session.journalJSONL() });
    const r = await run(replay, again, { preSearch: true });
    assert.deepEqual(r, live);
    assert.deepEqual(again.requests.map((q) => q.body), server.requests.map((q) => q.body));
    assert.equal(replay.session.metrics().rankerCalls, 0);
    assert.equal(replay.session.metrics().replayed, 1);
    assert.deepEqual(replay.session.finish(), { unasked: [] });
    replay.session.free();
  } finally {
    await again.close();
  }
  ts.session.free();
});

test('openai: preSearch is the host\'s call — the option is refused with the reason; one pre-search per turn', () => {
  assert.throws(() => createToolSearch({ toolsift, tools: hostTools, preSearch: true }),
    /toolsift\/openai: options.preSearch: this adapter never sees the user's messages .*call ts.preSearch\(text\)/);
  const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'] });
  assert.equal(ts.mode, 'search');
  ts.preSearch(question);
  assert.throws(() => ts.preSearch(question), /toolsift\/openai: preSearch\(\): turn 0 was pre-searched already/);
  ts.session.free();
});
