// toolsift/openai and toolsift/anthropic import nothing from their SDK at run
// time, so their declarations must compile without it, under
// skipLibCheck: false: a temporary project with the package (copied) and no
// SDK, compiled by the pinned tsc. The adapters' own types still check
// (a wrong call is an error). With the SDKs: tests/integrations/types.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

const USAGE = `import { load } from 'toolsift';
import { createToolSearch as openai } from 'toolsift/openai';
import { createToolSearch as anthropic } from 'toolsift/anthropic';

const toolsift = await load();
const o = openai({ toolsift, tools: [{ type: 'function', name: 'reply', parameters: {}, strict: false }], agentTools: ['reply'] });
const a = anthropic({ toolsift, tools: [{ name: 'reply', input_schema: { type: 'object' } }], agentTools: ['reply'] });
const id: string = o.idOf('create_issue', 'github');
const back = await a.handle({ content: [] });
console.log(id, o.tools().length, a.tools().length, back === null, o.session.journalJSONL());
`;

function project(usage) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolsift-types-'));
  const pkg = path.join(dir, 'node_modules', 'toolsift');
  mkdirSync(pkg, { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
  cpSync(path.join(ROOT, 'js'), path.join(pkg, 'js'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(path.join(dir, 'usage.ts'), usage);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: [] },
    files: ['usage.ts'],
  }));
  return dir;
}

function tsc(dir) {
  const r = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('types: toolsift/openai and toolsift/anthropic compile without their SDKs (skipLibCheck: false)', () => {
  const r = tsc(project(USAGE));
  assert.equal(r.status, 0, r.out);
  assert.equal(r.out.trim(), '');
});

test("types: without the SDKs the adapters' own signatures still check", () => {
  const r = tsc(project(`${USAGE}o.idOf(42);\n`));
  assert.notEqual(r.status, 0);
  assert.match(r.out, /usage\.ts\(\d+,\d+\): error TS2345/);
  assert.doesNotMatch(r.out, /node_modules\/toolsift/);
});
