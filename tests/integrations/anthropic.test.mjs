// toolsift/anthropic with the official @anthropic-ai/sdk client against a
// local server that plays recorded Messages API responses
// (fixtures/anthropic-messages.json). The requests are the wire format under test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { load } from '../../js/toolsift.js';
import { createToolSearch, SEARCH_INPUT_SCHEMA } from '../../js/integrations/anthropic.js';
import { replayServer } from './replay-server.mjs';

const toolsift = await load();
const recorded = JSON.parse(readFileSync(new URL('./fixtures/anthropic-messages.json', import.meta.url), 'utf8'));

const obj = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const str = { type: 'string' };

const hostTools = [
  { name: 'reply', description: 'Send the final answer to the user.', input_schema: obj({ text: str }) },
  { name: 'get_weather_forecast', description: 'Get the weather forecast for a city for the next days.', input_schema: obj({ city: str, days: { type: 'integer' } }) },
  { name: 'get_air_quality', description: 'Get the air quality index of a city.', input_schema: obj({ city: str }) },
  { name: 'book_flight', description: 'Book a flight between two airports.', input_schema: obj({ to: str }) },
  { name: 'convert_currency', description: 'Convert an amount between currencies.', input_schema: obj({ amount: { type: 'number' }, from: str, to: str }) },
  { type: 'web_search_20250305', name: 'web_search', max_uses: 2 },
];

async function conversation(ts, server) {
  const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  const executed = [];
  const execute = async ({ name, input }) => {
    executed.push([name, input]);
    return { forecast: 'rain tomorrow' };
  };
  const messages = [{ role: 'user', content: 'Will it rain in Bangalore tomorrow?' }];
  for (let i = 0; i < 3; i++) {
    const message = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages, tools: ts.tools() });
    messages.push({ role: 'assistant', content: message.content });
    const back = await ts.handle(message, { execute });
    if (back === null) return { message, executed };
    messages.push(back);
  }
  throw new Error('conversation did not end');
}

test('anthropic: search → tool_reference blocks → the loaded tool is called; a tool never loaded is refused', async () => {
  const server = await replayServer(recorded);
  try {
    const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { maxPerSearch: 5 } });
    const { message, executed } = await conversation(ts, server);
    assert.equal(message.content[0].text, 'Rain is expected in Bangalore tomorrow.');
    assert.equal(server.requests.length, 3);

    // Every request: the same tools — the search tool, the agent's tool as
    // given, the rest deferred, server tools untouched.
    const expectedTools = [
      { name: 'search_tools', description: ts.tools()[0].description, input_schema: SEARCH_INPUT_SCHEMA },
      hostTools[0],
      { ...hostTools[1], defer_loading: true },
      { ...hostTools[2], defer_loading: true },
      { ...hostTools[3], defer_loading: true },
      { ...hostTools[4], defer_loading: true },
      hostTools[5],
    ];
    for (const r of server.requests) {
      assert.equal(r.method, 'POST');
      assert.equal(r.path, '/v1/messages');
      assert.deepEqual(r.body.tools, expectedTools);
    }

    // Request 2 answers the search with tool_reference blocks for the loaded tools.
    const loaded = ts.session.journal()[1].value.loaded; // [0]: the chain's header
    assert.ok(loaded.includes('get_weather_forecast'));
    assert.ok(!loaded.includes('book_flight'));
    const answer = server.requests[1].body.messages[2];
    assert.deepEqual(answer, {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: loaded.map((id) => ({ type: 'tool_reference', tool_name: id })) }],
    });

    // Request 3: the loaded tool ran; the never-loaded one was refused with the session's message.
    assert.deepEqual(executed, [['get_weather_forecast', { city: 'Bangalore', days: 2 }]]);
    assert.deepEqual(server.requests[2].body.messages[4], {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_02', content: '{"forecast":"rain tomorrow"}' },
        { type: 'tool_result', tool_use_id: 'toolu_03', content: 'not_on_menu (book_flight): this tool is not on the menu; search for it first', is_error: true },
      ],
    });
    assert.equal(ts.session.metrics().rankerCalls, 1);

    // Replay from the journal: the same requests, zero ranker calls.
    const again = await replayServer(recorded);
    try {
      const replay = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { maxPerSearch: 5 }, journal: ts.session.journal() });
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

test('anthropic: a search that loads nothing or is refused answers text, refusals flagged is_error', async () => {
  const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { maxSearches: 1 } });
  const none = await ts.handle({ content: [{ type: 'tool_use', id: 't1', name: 'search_tools', input: { query: 'zzzz qqqq' } }] });
  assert.equal(none.content[0].is_error, undefined);
  assert.equal(none.content[0].content[0].type, 'text');
  const refused = await ts.handle({ content: [{ type: 'tool_use', id: 't2', name: 'search_tools', input: { query: 'weather' } }] });
  assert.equal(refused.content[0].is_error, true);
  assert.match(refused.content[0].content[0].text, /^search_limit_reached: /);
  assert.equal(await ts.handle({ content: [{ type: 'text', text: 'done' }] }), null);
  assert.throws(() => createToolSearch({ toolsift, tools: hostTools, agentTools: 'reply' }), /toolsift\/anthropic: options.agentTools must be an array/);
  assert.throws(() => createToolSearch({ toolsift, tools: [...hostTools, hostTools[1]] }), /tool "get_weather_forecast" is given twice/);
  ts.session.free();
});

test('anthropic: resume from the journal keeps the loaded tools callable and continues live', async () => {
  const first = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'] });
  await first.handle({ content: [{ type: 'tool_use', id: 't1', name: 'search_tools', input: { query: 'weather forecast' } }] });
  const resumed = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], journal: first.session.journalJSONL(), resume: true });
  assert.equal(resumed.turn, 1);
  const back = await resumed.handle(
    { content: [{ type: 'tool_use', id: 't2', name: 'get_weather_forecast', input: { city: 'Oslo' } }] },
    { execute: () => 'sunny' },
  );
  assert.deepEqual(back.content, [{ type: 'tool_result', tool_use_id: 't2', content: 'sunny' }]);
  assert.equal(resumed.session.metrics().rankerCalls, 0);
  first.session.free();
  resumed.session.free();
});

// ---- auto mode and pre-search ----------------------------------------------

// Two recorded responses: the model calls get_weather_forecast and
// book_flight, then answers.
const callThenAnswer = () => [recorded[1], recorded[2]];
const question = 'Will it rain in Bangalore tomorrow? Check the weather forecast.';

async function run(ts, server, { preSearch = false } = {}) {
  const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  const executed = [];
  const execute = async ({ name }) => {
    executed.push(name);
    return { forecast: 'rain tomorrow' };
  };
  const loaded = preSearch ? ts.preSearch(question) : null;
  const messages = [{ role: 'user', content: question }];
  const results = [];
  for (let i = 0; i < 2; i++) {
    const message = await client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages, tools: ts.tools() });
    messages.push({ role: 'assistant', content: message.content });
    const back = await ts.handle(message, { execute });
    if (back === null) break;
    results.push(...back.content);
    messages.push(back);
  }
  return { loaded, executed, results };
}

test('anthropic: auto mode — a tool set within budget is sent whole, no search tool; over budget keeps it', async () => {
  const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { auto: true } });
  assert.equal(ts.mode, 'all');
  assert.equal(ts.session.metrics().mode, 'all');
  // every tool as the host gave it: none deferred, no search tool
  assert.deepEqual(ts.tools(), hostTools);
  const server = await replayServer(callThenAnswer());
  try {
    const { executed, results } = await run(ts, server);
    for (const r of server.requests) assert.deepEqual(r.body.tools, hostTools);
    assert.deepEqual(executed, ['get_weather_forecast', 'book_flight'], 'both on the menu from the start');
    assert.equal(results.some((r) => r.is_error), false);
  } finally {
    await server.close();
  }
  // a search call (no search tool was offered) is refused as an unknown tool
  const refused = await ts.handle({ content: [{ type: 'tool_use', id: 't9', name: 'search_tools', input: { query: 'weather' } }] });
  assert.equal(refused.content[0].is_error, true);
  assert.match(refused.content[0].content[0].text, /^not_on_menu \(search_tools\)/);
  assert.deepEqual(ts.preSearch(question), [], 'nothing to pre-search in mode all');
  ts.session.free();

  // Four searchable tools over a budget of three: the session searches.
  const over = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], search: { auto: { maxTools: 3 } } });
  assert.equal(over.mode, 'search');
  assert.equal(over.tools()[0].name, 'search_tools');
  assert.match(over.tools()[0].description, /search/i);
  assert.deepEqual(over.tools().filter((t) => t.defer_loading).map((t) => t.name), ['get_weather_forecast', 'get_air_quality', 'book_flight', 'convert_currency']);
  over.session.free();
});

test('anthropic: preSearch(text) sends the strong hit loaded; the model\'s call to it is allowed; replay serves it', async () => {
  const ts = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'] });
  const server = await replayServer(callThenAnswer());
  let live;
  try {
    live = await run(ts, server, { preSearch: true });
  } finally {
    await server.close();
  }
  assert.deepEqual(live.loaded, ['get_weather_forecast']);
  // The pre-searched tool is sent without defer_loading; the rest stay deferred.
  const expected = [
    { name: 'search_tools', description: ts.tools()[0].description, input_schema: SEARCH_INPUT_SCHEMA },
    hostTools[0],
    hostTools[1],
    { ...hostTools[2], defer_loading: true },
    { ...hostTools[3], defer_loading: true },
    { ...hostTools[4], defer_loading: true },
    hostTools[5],
  ];
  for (const r of server.requests) assert.deepEqual(r.body.tools, expected);
  // It ran at once, with no search round trip; book_flight (never loaded) was refused.
  assert.deepEqual(live.executed, ['get_weather_forecast']);
  assert.match(live.results[1].content, /^not_on_menu \(book_flight\)/);
  assert.deepEqual(ts.session.journal().map((d) => d.id), ['agent#journal', 'agent#turn:0:pre-search', 'agent#turn:0:tool:0:call']);

  // Replay from the journal: the same requests, nothing ranked.
  const again = await replayServer(callThenAnswer());
  try {
    const replay = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], journal: ts.session.journal() });
    assert.deepEqual(await run(replay, again, { preSearch: true }), live);
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

test('anthropic: a resumed run that ended on a pre-search goes on at the next turn, its tool still sent loaded', async () => {
  const first = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'] });
  assert.deepEqual(first.preSearch(question), ['get_weather_forecast']);
  // the journal holds only the pre-search ("agent#turn:0:pre-search")
  const resumed = createToolSearch({ toolsift, tools: hostTools, agentTools: ['reply'], journal: first.session.journalJSONL(), resume: true });
  assert.equal(resumed.turn, 1);
  assert.equal(resumed.tools().find((t) => t.name === 'get_weather_forecast').defer_loading, undefined);
  // the next user message pre-searches turn 1 (turn 0 has its pre-search)
  assert.deepEqual(resumed.preSearch('Convert 20 euros to dollars, the currency amount.'), ['convert_currency']);
  const back = await resumed.handle(
    { content: [{ type: 'tool_use', id: 't1', name: 'convert_currency', input: { amount: 20, from: 'EUR', to: 'USD' } }] },
    { execute: () => '21.6' },
  );
  assert.deepEqual(back.content, [{ type: 'tool_result', tool_use_id: 't1', content: '21.6' }]);
  assert.deepEqual(resumed.session.journal().map((d) => d.id).slice(-2), ['agent#turn:1:pre-search', 'agent#turn:1:tool:0:call']);
  first.session.free();
  resumed.session.free();
});

test('anthropic: preSearch is the host\'s call — the option is refused with the reason', () => {
  assert.throws(() => createToolSearch({ toolsift, tools: hostTools, preSearch: true }),
    /toolsift\/anthropic: options.preSearch: this adapter never sees the user's messages .*call ts.preSearch\(text\)/);
  assert.throws(() => createToolSearch({ toolsift, tools: hostTools, preSearch: false }), /options.preSearch: /);
});
