// offline.mjs — scripted stand-ins for the OpenAI and Anthropic APIs on
// 127.0.0.1, so the examples run without a key. Each plays a model that
// searches with the user's words, calls the first tool the search loaded
// (with placeholder arguments), then answers. When a search loads nothing but
// lists near matches, it does what the result's note says: loads the first
// one with select:<name>. When the request already sends a tool loaded
// besides reply (a pre-search's, --pre-search), it calls that one without
// searching. The official clients talk to it over HTTP exactly as they
// would to the real API.
import { createServer } from 'node:http';
import { placeholderArgs } from './catalog.mjs';

async function serve(answer) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(body)));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

const text = (content) => (typeof content === 'string' ? content : content.map((c) => c.text ?? '').join(' '));

// The first function of a tools list (a namespace's first member), with its
// namespace: loaded ones only when `loadedOnly` (no defer_loading), never reply.
function firstFunction(tools = [], loadedOnly = false) {
  const ok = (f) => f?.type === 'function' && f.name !== 'reply' && !(loadedOnly && f.defer_loading);
  for (const t of tools) {
    if (ok(t)) return { fn: t, namespace: null };
    const member = t?.type === 'namespace' ? t.tools.find(ok) : null;
    if (member) return { fn: member, namespace: t.name };
  }
  return null;
}

/** A Responses API stand-in: tool_search_call (unless a tool is sent loaded) → function_call → message. */
export function offlineOpenAI() {
  let n = 0;
  return serve(({ input = [], tools = [] }) => {
    n += 1;
    const base = { id: `resp_${n}`, object: 'response', created_at: 0, status: 'completed', model: 'offline', error: null, incomplete_details: null, tools: [], parallel_tool_calls: true };
    const searched = input.filter((i) => i.type === 'tool_search_output').at(-1);
    const answered = input.filter((i) => i.type === 'function_call_output').at(-1);
    const ready = firstFunction(tools, true);
    if (!searched && !ready) {
      const query = text(input.find((i) => i.role === 'user')?.content ?? '');
      return { ...base, output: [{ type: 'tool_search_call', id: 'tsc_1', call_id: 'call_search', execution: 'client', status: 'completed', arguments: { query } }] };
    }
    const pick = searched ? firstFunction(searched.tools) : ready;
    if (!answered && pick) {
      const call = { type: 'function_call', id: 'fc_1', call_id: 'call_fn', name: pick.fn.name, arguments: JSON.stringify(placeholderArgs(pick.fn.parameters)), status: 'completed' };
      return { ...base, output: [pick.namespace ? { ...call, namespace: pick.namespace } : call] };
    }
    const said = answered ? `The tool answered ${answered.output}.` : 'No tool matched.';
    return { ...base, output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: said, annotations: [] }] }] };
  });
}

/** A Messages API stand-in: tool_use of the search tool (unless a tool is sent loaded) → tool_use of a referenced tool → text. */
export function offlineAnthropic() {
  let n = 0;
  return serve(({ messages = [], tools = [] }) => {
    n += 1;
    const base = { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'offline', stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } };
    const results = messages.flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result');
    const refs = results.flatMap((r) => (Array.isArray(r.content) ? r.content : [])).filter((b) => b.type === 'tool_reference');
    const called = results.some((r) => r.tool_use_id === 'toolu_call');
    const ready = tools.find((t) => (t.type == null || t.type === 'custom') && !t.defer_loading && t.name !== 'search_tools' && t.name !== 'reply');
    if (results.length === 0 && ready) {
      return { ...base, content: [{ type: 'tool_use', id: 'toolu_call', name: ready.name, input: placeholderArgs(ready.input_schema) }], stop_reason: 'tool_use' };
    }
    if (results.length === 0) {
      return { ...base, content: [{ type: 'tool_use', id: 'toolu_search', name: 'search_tools', input: { query: text(messages[0].content) } }], stop_reason: 'tool_use' };
    }
    // Nothing loaded, near matches listed ("found: a (not loaded), …"): select the first.
    const listed = results.length === 1 && refs.length === 0 && /^found: ([^ ,]+) \(not loaded\)/.exec(text(results[0].content));
    if (listed) {
      return { ...base, content: [{ type: 'tool_use', id: 'toolu_select', name: 'search_tools', input: { query: `select:${listed[1]}` } }], stop_reason: 'tool_use' };
    }
    if (refs.length > 0 && !called) {
      const def = tools.find((t) => t.name === refs[0].tool_name);
      return { ...base, content: [{ type: 'tool_use', id: 'toolu_call', name: def.name, input: placeholderArgs(def.input_schema) }], stop_reason: 'tool_use' };
    }
    const last = results.at(-1);
    const said = called ? `The tool answered ${typeof last.content === 'string' ? last.content : JSON.stringify(last.content)}.` : 'No tool matched.';
    return { ...base, content: [{ type: 'text', text: said }], stop_reason: 'end_turn' };
  });
}
