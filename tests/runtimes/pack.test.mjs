// pack.test.mjs — the npm package as a consumer gets it: `npm pack`, install
// the tarball into an empty project (cache first), then use it there by name.
// Run by the `runtimes` stage of scripts/test.sh (node --test).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installInto, pack } from './pack.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NATIVE = path.resolve(ROOT, process.env.TOOLSIFT_NATIVE || 'build/native/toolsift');
const DENO = path.join(ROOT, 'node_modules/.bin/deno');
const tmp = mkdtempSync(path.join(tmpdir(), 'toolsift-pack-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

let packed;
let proj;

test('npm pack ships the binding, its types, the CLI, the SDK adapters, the MCP gateway and the two .wasm modules as files', () => {
  packed = pack(ROOT, path.join(tmp, 'pack'));
  assert.deepEqual(
    [...packed.files].sort(),
    [
      'LICENSE', 'README.md', 'dist/toolsift-serving.wasm', 'dist/toolsift.wasm',
      'js/binding/bytes.js', 'js/binding/error.js', 'js/binding/handle.js', 'js/binding/index.js',
      'js/binding/learner.js', 'js/binding/load.js', 'js/binding/module.js', 'js/binding/session.js',
      'js/binding/static-model.js', 'js/cli.js', 'js/integrations/ai-sdk.d.ts', 'js/integrations/ai-sdk.js',
      'js/integrations/anthropic.d.ts', 'js/integrations/anthropic.js', 'js/integrations/common.d.ts',
      'js/integrations/common.js', 'js/integrations/openai.d.ts', 'js/integrations/openai.js',
      'js/mcp/auth.js', 'js/mcp/catalog.js', 'js/mcp/cli.js', 'js/mcp/config.js',
      'js/mcp/errors.js', 'js/mcp/gateway.js', 'js/mcp/http.js', 'js/mcp/index.d.ts',
      'js/mcp/index.js', 'js/mcp/journal.js', 'js/mcp/learn.js', 'js/mcp/model.js', 'js/mcp/replay.js', 'js/mcp/session.js',
      'js/mcp/upstream.js', 'js/mcp/version.js', 'js/model-dir.d.ts', 'js/model-dir.js', 'js/toolsift.d.ts',
      'js/toolsift.js', 'package.json',
    ],
  );
  // two modules since issue 37 (the full one and the serving one): ~446 KB
  assert.ok(packed.size < 500_000, `tarball is ${packed.size} bytes`);
  // postpack removed the staging copy: a checkout loads build/wasm again.
  assert.equal(existsSync(path.join(ROOT, 'dist')), false);
  // The wasm is a file, never inlined: the binding has no base64 blob.
  for (const file of [...packed.files].filter((f) => f.startsWith('js/binding/') || f === 'js/toolsift.js')) {
    assert.doesNotMatch(readFileSync(path.join(ROOT, file), 'utf8'), /[A-Za-z0-9+/]{2000}/, file);
  }
});

test('installs into an empty project (npm cache first)', () => {
  proj = installInto(packed.tarball, path.join(tmp, 'project'));
  const pkg = path.join(proj, 'node_modules/toolsift');
  for (const f of ['toolsift.wasm', 'toolsift-serving.wasm']) {
    assert.deepEqual(readFileSync(path.join(pkg, 'dist', f)), readFileSync(path.join(ROOT, 'build/wasm', f)), f);
  }
  assert.equal(existsSync(path.join(pkg, 'build')), false);
});

test('Node ESM: import by name, default module location, search', () => {
  writeFileSync(
    path.join(proj, 'search.mjs'),
    `import { readFileSync } from 'node:fs';
import { load, ToolsiftError } from 'toolsift';
const toolsift = await load();
const index = toolsift.createIndex(readFileSync(process.argv[2]));
process.stdout.write(index.searchJSON('open a pull request', { limit: 3 }) + '\\n');
index.free();
console.error(typeof ToolsiftError, toolsift.version);
`,
  );
  const catalog = path.join(ROOT, 'corpus/catalog.json');
  const r = spawnSync(process.execPath, ['search.mjs', catalog], { cwd: proj, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trim(), `function ${execFileSync(NATIVE, ['--version'], { encoding: 'utf8' }).trim()}`);
  const native = execFileSync(NATIVE, ['search', '--catalog', path.join(ROOT, 'corpus/catalog.json'),
    '--limit', '3', 'open a pull request'], { encoding: 'utf8' });
  assert.equal(r.stdout, native);
});

test('the toolsift.wasm and toolsift-serving.wasm exports resolve to the packaged files, and the serving one loads', () => {
  for (const f of ['toolsift.wasm', 'toolsift-serving.wasm']) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e',
      `console.log(import.meta.resolve('toolsift/${f}'))`], { cwd: proj, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.trim().endsWith(`/node_modules/toolsift/dist/${f}`), r.stdout);
  }
  const r = spawnSync(process.execPath, ['--input-type=module', '-e',
    "import { load } from 'toolsift'; const ts = await load(new URL(import.meta.resolve('toolsift/toolsift-serving.wasm')));" +
    "const ix = ts.createIndex([{ name: 'get_forecast', description: 'weather forecast' }]);" +
    "console.log(ts.serving, ix.search('weather').hits[0].id)"], { cwd: proj, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'true get_forecast\n');
});

test('the package bin (the wasm CLI) prints what the native CLI prints', () => {
  const catalog = path.join(ROOT, 'corpus/catalog.json');
  const args = ['search', '--catalog', catalog, '--limit', '2', '--explain', 'refund a payment'];
  const r = spawnSync(path.join(proj, 'node_modules/.bin/toolsift'), args, { cwd: proj, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, execFileSync(NATIVE, args, { encoding: 'utf8' }));
});

test('the toolsift-mcp bin and the toolsift/mcp export work from the installed package', () => {
  // The MCP SDK is an optional peer: a plain install leaves it (and its web
  // server stack) out; the bin still answers --version and says what serving needs.
  assert.equal(existsSync(path.join(proj, 'node_modules/@modelcontextprotocol/sdk')), false);
  assert.equal(existsSync(path.join(proj, 'node_modules/express')), false);
  const binPath = path.join(proj, 'node_modules/.bin/toolsift-mcp');
  let bin = spawnSync(binPath, ['--version'], { cwd: proj, encoding: 'utf8' });
  assert.equal(bin.status, 0, bin.stderr);
  assert.match(bin.stdout, /^toolsift-mcp \d+\.\d+\.\d+\n$/);
  writeFileSync(path.join(proj, 'gateway.json'), '{"mcpServers":{}}');
  const noSdk = spawnSync(binPath, ['--config', 'gateway.json'], { cwd: proj, encoding: 'utf8' });
  assert.equal(noSdk.status, 2, noSdk.stderr);
  assert.match(noSdk.stderr, /serving needs the MCP SDK, an optional peer dependency: npm install @modelcontextprotocol\/sdk@\^1\.32\.2 zod@\^4\.6\.7/);
  // With the peers installed (the versions this repository pins and tests).
  const pins = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies;
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock',
    `@modelcontextprotocol/sdk@${pins['@modelcontextprotocol/sdk']}`, `zod@${pins.zod}`], { cwd: proj, stdio: 'pipe' });
  bin = spawnSync(binPath, ['--version'], { cwd: proj, encoding: 'utf8' });
  assert.equal(bin.status, 0, bin.stderr);
  const bad = spawnSync(path.join(proj, 'node_modules/.bin/toolsift-mcp'), ['--config', 'missing.json'], { cwd: proj, encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /cannot read the configuration missing\.json/);
  const lib = spawnSync(process.execPath, ['--input-type=module', '-e',
    "import { Gateway, checkConfig } from 'toolsift/mcp'; console.log(typeof Gateway, checkConfig({ mcpServers: {} }).loop)"],
  { cwd: proj, encoding: 'utf8' });
  assert.equal(lib.status, 0, lib.stderr);
  assert.equal(lib.stdout, 'function mcp\n');
});

test('types: a TypeScript consumer type-checks against the package (deno check)', { skip: !existsSync(DENO) && 'npm ci installs deno' }, () => {
  writeFileSync(
    path.join(proj, 'typed.ts'),
    `import { load, type Toolsift, ToolsiftError } from 'toolsift';
import { checkConfig, type GatewayConfig } from 'toolsift/mcp';
const gatewayConfig: GatewayConfig = checkConfig({ mcpServers: {} });
console.log(gatewayConfig.loop);
const toolsift: Toolsift = await load();
const index = toolsift.createIndex({ tools: [{ name: 'x', description: 'y' }] });
const hits: number = index.search('y', { limit: 1 }).hits.length;
const e: ToolsiftError | null = null;
console.log(hits, e);
`,
  );
  writeFileSync(
    path.join(proj, 'wrong.ts'),
    `import { load } from 'toolsift';
const toolsift = await load();
const n: number = toolsift.version;
console.log(n);
`,
  );
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
  const ok = spawnSync(DENO, ['check', 'typed.ts'], { cwd: proj, encoding: 'utf8', env });
  assert.equal(ok.status, 0, ok.stderr);
  const bad = spawnSync(DENO, ['check', 'wrong.ts'], { cwd: proj, encoding: 'utf8', env });
  assert.notEqual(bad.status, 0, 'a type error was not caught: the types are not in use');
  assert.match(bad.stderr, /not assignable to type 'number'/);
});

test('the SDK adapters resolve by subpath; openai and anthropic need no SDK at run time, ai-sdk names its missing peer', () => {
  writeFileSync(
    path.join(proj, 'adapters.mjs'),
    `import { load } from 'toolsift';
import { createToolSearch as openai } from 'toolsift/openai';
import { createToolSearch as anthropic } from 'toolsift/anthropic';
const toolsift = await load();
const o = openai({ toolsift, tools: [{ type: 'function', name: 'get_weather', description: 'Weather forecast for a city', parameters: { type: 'object' } }] });
const a = anthropic({ toolsift, tools: [{ name: 'get_weather', description: 'Weather forecast for a city', input_schema: { type: 'object' } }] });
const out = await o.handle([{ type: 'tool_search_call', call_id: 'c', execution: 'client', arguments: { query: 'weather' } }]);
const msg = await a.handle({ content: [{ type: 'tool_use', id: 't', name: 'search_tools', input: { query: 'weather' } }] });
console.log(JSON.stringify([out[0].tools.map((t) => t.name), msg.content[0].content]));
try { await import('toolsift/ai-sdk'); console.log('ai-sdk loaded'); } catch (e) { console.log(e.code, /'ai'/.test(e.message), /npm install ai@\\^7/.test(e.message)); }
`,
  );
  const r = spawnSync(process.execPath, ['adapters.mjs'], { cwd: proj, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    '[["get_weather"],[{"type":"tool_reference","tool_name":"get_weather"}]]',
    'ERR_MODULE_NOT_FOUND true true',
  ]);
});

test('a bundler (esbuild) resolves `toolsift` through the exports map; the bundle runs with the .wasm passed in', async (t) => {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (e) {
    return t.skip(`esbuild is not installed: ${e.message}`);
  }
  writeFileSync(
    path.join(proj, 'bundle-entry.mjs'),
    `import { readFileSync } from 'node:fs';
import { load } from 'toolsift';
const toolsift = await load(readFileSync(process.argv[2]));
const index = toolsift.createIndex(readFileSync(process.argv[3]));
process.stdout.write(index.searchJSON('open a pull request', { limit: 3 }) + '\\n');
`,
  );
  const out = path.join(proj, 'bundle.mjs');
  await esbuild.build({
    entryPoints: [path.join(proj, 'bundle-entry.mjs')], absWorkingDir: proj, bundle: true,
    platform: 'node', format: 'esm', outfile: out, logLevel: 'silent',
  });
  const bundle = readFileSync(out, 'utf8');
  assert.doesNotMatch(bundle, /from ['"]toolsift['"]/, 'the import was bundled, not left external');
  assert.doesNotMatch(bundle, /[A-Za-z0-9+/]{2000}/, 'no inlined wasm');
  const r = spawnSync(process.execPath, [out, path.join(proj, 'node_modules/toolsift/dist/toolsift.wasm'),
    path.join(ROOT, 'corpus/catalog.json')], { cwd: tmp, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  const native = execFileSync(NATIVE, ['search', '--catalog', path.join(ROOT, 'corpus/catalog.json'),
    '--limit', '3', 'open a pull request'], { encoding: 'utf8' });
  assert.equal(r.stdout, native);
});
