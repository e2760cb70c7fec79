// The runnable examples under examples/sdk-adapters run offline (no API
// key: a scripted model) and go search → loaded → called → answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../../examples/sdk-adapters/', import.meta.url));
const env = { ...process.env };
for (const k of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'AI_GATEWAY_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'MODEL']) delete env[k];

function run(file) {
  const r = spawnSync(process.execPath, [file], { cwd: DIR, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${file} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test('examples/sdk-adapters/ai-sdk.mjs runs offline', () => {
  const out = run('ai-sdk.mjs');
  assert.match(out, /^step 0: call search_tools /m);
  assert.match(out, /^step 1: call slack__\w+ /m);
  assert.match(out, /^answer: Done \(the model saw 5 of \d+ tools\)\.$/m);
  assert.match(out, /"id":"agent#turn:0:tool:0:search"/);
});

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
