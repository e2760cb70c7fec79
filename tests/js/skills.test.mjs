// Skills through the binding (SPEC S8) against the module named by env
// TOOLSIFT_WASM: activation, the skill index, discovery, JS skill rankers in
// the two-phase loop (interleaving and hand-over), replay after the catalog
// changed, and the same bytes as the native CLI for the skills fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, ToolsiftError } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const NATIVE = path.join(ROOT, 'build/native/toolsift');
const ts = await load(WASM);

const FIXTURE = path.join(ROOT, 'tests/fixtures/skills');
const CATALOG = JSON.parse(readFileSync(path.join(FIXTURE, 'catalog.json'), 'utf8'));
const FIXTURE_CONFIG = JSON.parse(readFileSync(path.join(FIXTURE, 'config.json'), 'utf8'));
const AGENT = [{ name: 'reply', description: 'Send the final answer to the user.' }];

function config(skills, catalog = CATALOG, search = { maxPerSearch: 4 }) {
  return { loop: 'js', tools: AGENT, catalog, search, ...(skills === undefined ? {} : { skills }) };
}

const names = (s) => s.menu('anthropic').map((t) => t.name);

test('activation: instructions, tools appended after the agent and selected skills, recorded with digest and sizes', () => {
  const s = ts.createSession(config({ selected: ['tool-bundle'], maxInstructionBytes: 256 }));
  assert.deepEqual(names(s), ['search_tools', 'activate_skill', 'reply', 'filesystem__read_file', 'filesystem__write_file']);
  const raw = s.callJSON(0, 0, 'activate_skill', { name: 'refund-policy' });
  const out = JSON.parse(raw);
  const skill = CATALOG.skills.find((k) => k.id === 'refund-policy');
  assert.deepEqual(out.result, { skill: 'refund-policy', instructions: skill.instructions, tools: skill.tools });
  assert.equal(out.decision.id, 'js#turn:0:tool:0:skill');
  assert.equal(out.decision.source, 'agent-skill-activation');
  // bytes: the instructions as a JSON string body; resultBytes: the result as written.
  assert.equal(out.decision.value.bytes, JSON.stringify(skill.instructions).length - 2);
  const resultText = raw.slice(raw.indexOf('"result":') + 9, raw.indexOf(',"decision":'));
  assert.equal(out.decision.value.resultBytes, Buffer.byteLength(resultText));
  assert.equal(out.resultBytes, out.decision.value.resultBytes);
  assert.match(out.decision.value.digest, /^[0-9a-f]{64}$/);
  assert.deepEqual(names(s).slice(5), ['stripe__list_charges', 'stripe__create_refund']);
  // Typed refusals record nothing.
  const before = s.journalJSONL();
  assert.equal(s.call(1, 0, 'activate_skill', { name: 'nope' }).result.error, 'unknown_skill');
  assert.equal(s.call(1, 1, 'activate_skill', {}).result.error, 'invalid_input');
  assert.equal(s.call(1, 2, 'activate_skill', { name: 'refund-policy' }).decision, null); // re-delivery
  assert.equal(s.journalJSONL(), before);
  // Tainted and oversized: refused, recorded with the verdict.
  const tainted = s.call(2, 0, 'activate_skill', { name: 'poisoned-helper' });
  assert.equal(tainted.result.verdict, 'tainted');
  assert.deepEqual(tainted.decision.value, { skill: 'poisoned-helper', verdict: 'tainted' });
  assert.equal(s.call(2, 1, 'activate_skill', { name: 'long-handbook' }).result.verdict, 'oversized');
  assert.equal(s.metrics().activations, 1);
  assert.equal(s.metrics().activeSkills, 2);
  s.free();
});

test('skills off: no activate_skill, no new keys, the skill index is empty', () => {
  const { skills, ...toolsOnly } = CATALOG;
  const a = ts.createSession(config(undefined));
  const b = ts.createSession(config(undefined, toolsOnly));
  for (const x of [a, b]) {
    x.call(0, 0, 'search_tools', { query: 'refund a charge' });
    x.call(0, 1, 'activate_skill', { name: 'refund-policy' });
  }
  assert.equal(a.journalJSONL(), b.journalJSONL());
  assert.equal(a.menuJSON(), b.menuJSON());
  assert.equal(a.metricsJSON(), b.metricsJSON());
  assert.equal(a.skillIndex(), '');
  assert.equal(a.call(1, 0, 'activate_skill', { name: 'refund-policy' }).result.error, 'not_on_menu');
  a.free();
  b.free();
});

test('the skill index: id order, bounded, nameable ids only; one line in search mode', () => {
  const s = ts.createSession(config({ maxIndex: 2 }));
  assert.equal(
    s.skillIndex(),
    '- incident-triage: Triage a production incident: open an issue and tell the on-call channel. [ops]\n' +
      '- long-handbook: The whole support handbook, far over the instruction limit.\n' +
      '(+3 more …)\n',
  );
  s.free();
  const q = ts.createSession(config({ discovery: 'search' }));
  assert.equal(q.skillIndex(), 'Skills are available: find them with search_tools and activate one with activate_skill.\n');
  q.free();
  assert.throws(
    () => ts.createSession(config({ maxIndexBytes: 20 })),
    (e) => e instanceof ToolsiftError && e.code === 'config' && /maxIndexBytes/.test(e.message),
  );
});

test('discovery: a skills array beside the tools; search never activates', () => {
  const s = ts.createSession(config({ discovery: 'both' }));
  const out = s.call(0, 0, 'search_tools', { query: 'customer refund request policy' });
  assert.ok(out.result.skills.some((k) => k.name === 'refund-policy'));
  assert.ok(out.result.tools.length + out.result.skills.length <= 4);
  // tools keep their shape (with the grade of a built-in ranking); skills have no loaded flag
  for (const t of out.result.tools) assert.deepEqual(Object.keys(t), ['name', 'description', 'loaded', 'match', 'matched']);
  for (const k of out.result.skills) assert.deepEqual(Object.keys(k), ['name', 'description']);
  assert.deepEqual(out.decision.value.skills, out.result.skills.map((k) => k.name));
  assert.equal(s.metrics().activeSkills, 0);
  s.free();
});

test('JS rankers: pages interleave t1 s1 t2 s2, a kind that runs out hands its share over', () => {
  const run = (toolIds, skillIds, page) => {
    const asked = [];
    const s = ts.createSession(config({ discovery: 'search' }, CATALOG, { maxPerSearch: page }), {
      ranker: { kind: 'tools-js', rank: (q, want) => (asked.push(['tools', want]), toolIds) },
      skillRanker: { kind: 'skills-js', rank: (q, want) => (asked.push(['skills', want]), skillIds) },
    });
    const out = s.call(0, 0, 'search_tools', { query: 'anything' });
    s.free();
    return { tools: out.result.tools.map((t) => t.name), skills: out.result.skills.map((k) => k.name), out, asked };
  };
  let r = run(['github__create_issue', 'github__list_issues', 'slack__send_message'], ['release-notes', 'incident-triage'], 4);
  assert.deepEqual(r.tools, ['github__create_issue', 'github__list_issues']);
  assert.deepEqual(r.skills, ['release-notes', 'incident-triage']);
  assert.equal(r.out.decision.value.skillRanker, 'skills-js');
  assert.deepEqual(r.asked.map((a) => a[0]), ['tools', 'skills']);
  r = run(['github__create_issue', 'github__list_issues', 'slack__send_message'], [], 3);
  assert.deepEqual(r.tools, ['github__create_issue', 'github__list_issues', 'slack__send_message']);
  r = run([], ['release-notes', 'poisoned-helper', 'ghost', 'refund-policy'], 3);
  assert.deepEqual(r.skills, ['release-notes', 'refund-policy']); // tainted and unknown ids dropped
  // A skill ranker that throws: the search is refused, nothing recorded.
  const s = ts.createSession(config({ discovery: 'both' }), {
    skillRanker: { kind: 'boom', rank: () => { throw new Error('down'); } },
  });
  assert.equal(s.call(0, 0, 'search_tools', { query: 'refund' }).result.error, 'search_unavailable');
  assert.equal(s.journalJSONL(), '');
  assert.equal(s.rankerError.message, 'down');
  s.free();
  assert.throws(() => ts.createSession(config({}), { skillRanker: { kind: 'x' } }), /skillRanker must be/);
  assert.throws(
    () => ts.createSession(config({ discovery: 'index' }), { skillRanker: { kind: 'x', rank: () => [] } }),
    (e) => e.code === 'state',
  );
});

test('replay after the skill text changed: instructions_changed, tools join, recorded size, no ranker call', () => {
  const live = ts.createSession(config({ discovery: 'both' }));
  const calls = [
    [0, 0, 'activate_skill', { name: 'release-notes' }],
    [1, 0, 'search_tools', { query: 'refund a charge' }],
    [2, 0, 'activate_skill', { name: 'release-notes' }],
  ];
  const outs = calls.map((c) => live.call(...c));
  const journal = live.journalJSONL();
  const changed = structuredClone(CATALOG);
  changed.skills.find((k) => k.id === 'release-notes').instructions = 'Something else entirely.';
  let rankerCalls = 0;
  // Another skill text is another session configuration: the journal's
  // header says so ("fail" mode refuses it; "warn" serves it, narrowed).
  const opts = { journal, ranker: { kind: 'bm25f-1', rank: () => (rankerCalls++, []) } };
  assert.throws(() => ts.createSession(config({ discovery: 'both' }, changed), opts),
    (e) => e.code === 'tampered' && /recorded under another session configuration/.test(e.message));
  const r = ts.createSession(config({ discovery: 'both' }, changed), { ...opts, divergence: 'warn' });
  const again = calls.map((c) => r.call(...c));
  assert.equal(again[0].result.error, 'instructions_changed');
  assert.equal(again[0].resultBytes, outs[0].resultBytes);
  assert.equal(again[0].warnings.length, 2);
  assert.match(again[0].warnings[0], /journal header: recorded under another session configuration/);
  assert.equal(again[2].result.error, 'instructions_changed');
  assert.equal(again[2].warnings, undefined); // one warning per skill per run
  assert.deepEqual(again[1].result, outs[1].result);
  assert.equal(rankerCalls, 0);
  // The decisions stand as recorded; the header and digests are the live session's.
  const unchained = (j) => j.trimEnd().split('\n').slice(1).map((l) => { const d = JSON.parse(l); delete d.chain; return d; });
  assert.deepEqual(unchained(r.journalJSONL()), unchained(journal));
  assert.deepEqual(names(r), names(live));
  live.free();
  r.free();
});

test('the skills fixture: the binding prints the native CLI bytes (run, replay, prompt)', (t) => {
  const native = spawnSync(NATIVE, ['session', 'run', '--config', path.join(FIXTURE, 'config.json'), '--calls',
    path.join(FIXTURE, 'calls.jsonl')]);
  if (native.error) return t.skip(`native CLI not built: ${native.error.message}`);
  assert.equal(native.status, 0, native.stderr.toString());
  const cfg = { ...FIXTURE_CONFIG, catalog: CATALOG };
  const s = ts.createSession(cfg);
  const lines = readFileSync(path.join(FIXTURE, 'calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const got = lines.map((c) => s.callJSON(c.turn, c.call, c.tool, c.args)).join('\n') + '\n';
  assert.equal(got, native.stdout.toString());
  const prompt = spawnSync(NATIVE, ['session', 'prompt', '--config', path.join(FIXTURE, 'config.json')]);
  assert.equal(s.skillIndex(), prompt.stdout.toString());
  const replay = ts.createSession(cfg, { journal: s.journalJSONL() });
  assert.equal(lines.map((c) => replay.callJSON(c.turn, c.call, c.tool, c.args)).join('\n') + '\n', got);
  replay.finish();
  s.free();
  replay.free();
});

test('CLI round trip: `session run` then `session replay` print identical lines (native and wasm CLIs)', (t) => {
  const os = spawnSync('mktemp', ['-d']);
  const dir = os.stdout.toString().trim();
  const j = path.join(dir, 'journal.jsonl');
  const cfg = path.join(FIXTURE, 'config.json');
  const calls = path.join(FIXTURE, 'calls.jsonl');
  for (const [cmd, pre] of [[NATIVE, []], [process.execPath, [path.join(ROOT, 'js/cli.js')]]]) {
    const env = { ...process.env, TOOLSIFT_WASM: WASM };
    const run = spawnSync(cmd, [...pre, 'session', 'run', '--config', cfg, '--calls', calls, '--journal-out', j], { env });
    if (run.error) return t.skip(`${cmd}: ${run.error.message}`);
    assert.equal(run.status, 0, run.stderr.toString());
    const replay = spawnSync(cmd, [...pre, 'session', 'replay', '--config', cfg, '--calls', calls, '--journal', j], { env });
    assert.equal(replay.status, 0, replay.stderr.toString());
    assert.equal(replay.stdout.toString(), run.stdout.toString());
    assert.equal(replay.stderr.toString(), '');
    assert.ok(run.stdout.toString().includes('"source":"agent-skill-activation"'));
  }
});
