// The runnable examples under examples/sdk-adapters run offline (no API
// key: a scripted model) and go search → loaded → called → answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../../examples/sdk-adapters/', import.meta.url));
const env = { ...process.env };
for (const k of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'AI_GATEWAY_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'MODEL']) delete env[k];

function run(file, ...args) {
  const r = spawnSync(process.execPath, [file, ...args], { cwd: DIR, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${file} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

// The decision ids of the journal an example prints after "journal:".
const journalIds = (out) => out.split('\n').filter((l) => l.startsWith('{"id":')).map((l) => JSON.parse(l).id);

// The first example of the README: its search must load slack__send_message
// (the request is to send a message now, not schedule one) and the model
// must call it.
test('examples/sdk-adapters/ai-sdk.mjs runs offline, loads and calls slack__send_message', () => {
  const out = run('ai-sdk.mjs');
  assert.match(out, /^step 0: call search_tools /m);
  const search = out.split('\n').find((l) => l.startsWith('{"id":"agent#turn:0:tool:0:search"'));
  assert.ok(search, out);
  const { value } = JSON.parse(search);
  assert.equal(value.loaded[0], 'slack__send_message', `loaded ${JSON.stringify(value.loaded)}`);
  assert.match(out, /^step 1: call slack__send_message /m);
  assert.match(out, /^step 1: result \{"ok":true,"tool":"slack__send_message"/m);
  assert.match(out, /^answer: Done \(the model saw 5 of \d+ tools\)\.$/m);
  checkSample('ai-sdk.mjs', out);
});

// The README's sample output is a real run: each line of the block is the
// run's line, or its first characters followed by "…".
function checkSample(file, out) {
  const readme = readFileSync(new URL('README.md', `file://${DIR}`), 'utf8');
  const block = new RegExp(`<!-- sample-output:${file.replace('.', '\\.')} -->\n\`\`\`\n([\\s\\S]*?)\n\`\`\``).exec(readme);
  assert.ok(block, `README.md has no sample-output block for ${file}`);
  const want = block[1].split('\n');
  const got = out.trimEnd().split('\n');
  assert.equal(want.length, got.length, `README sample of ${file}: ${want.length} lines, the run printed ${got.length}`);
  want.forEach((line, i) => {
    if (line.endsWith('…')) assert.ok(got[i].startsWith(line.slice(0, -1)), `README sample line ${i + 1} of ${file}:\n  ${line}\nrun:\n  ${got[i]}`);
    else assert.equal(line, got[i], `README sample line ${i + 1} of ${file}`);
  });
}

test('examples/sdk-adapters/openai.mjs runs offline', () => {
  const out = run('openai.mjs');
  assert.match(out, /^loaded \["github\.create_issue"\]$/m); // only the strong hit
  assert.match(out, /^call github\.create_issue /m);
  assert.match(out, /^answer: The tool answered \{"ok":true,"tool":"github__create_issue"/m);
});

test('examples/sdk-adapters/anthropic.mjs runs offline', () => {
  const out = run('anthropic.mjs');
  assert.match(out, /^result \[\{"type":"tool_reference","tool_name":"stripe__create_refund"\}/m);
  assert.match(out, /^call stripe__create_refund /m);
  assert.match(out, /^text: The tool answered /m);
});

// --pre-search: the user's message is searched before the model's first
// step, so the model calls the tool without searching (the stand-ins call a
// tool the request sends loaded).
test('examples/sdk-adapters: --pre-search loads the tool before the model answers, which calls it without searching', () => {
  const ai = run('ai-sdk.mjs', '--pre-search');
  assert.match(ai, /^step 0: call slack__send_message /m);
  assert.doesNotMatch(ai, /call search_tools/);
  assert.deepEqual(journalIds(ai), ['agent#journal', 'agent#turn:0:pre-search', 'agent#turn:0:tool:0:call']);

  const oa = run('openai.mjs', '--pre-search');
  assert.match(oa, /^pre-searched \["github__create_issue"\]$/m);
  assert.match(oa, /^call github\.create_issue /m);
  assert.doesNotMatch(oa, /^search /m);
  assert.deepEqual(journalIds(oa), ['agent#journal', 'agent#turn:0:pre-search', 'agent#turn:0:tool:0:call']);

  const an = run('anthropic.mjs', '--pre-search');
  assert.match(an, /^pre-searched \["stripe__create_refund"\]$/m);
  assert.match(an, /^call stripe__create_refund /m);
  assert.doesNotMatch(an, /call search_tools/);
  assert.deepEqual(journalIds(an), ['agent#journal', 'agent#turn:0:pre-search', 'agent#turn:0:tool:0:call']);
});

