// Loading the module every way the binding supports, against the module named
// by env TOOLSIFT_WASM (default build/wasm/toolsift.wasm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

import { load, ToolsiftError } from '../../js/toolsift.js';
import { wasmExports } from '../../scripts/wasm-exports.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const PKG = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));

const CATALOG = [
  { name: 'create_issue', description: 'Create a new issue in a repository' },
  { name: 'get_forecast', description: 'Get the weather forecast for a city' },
];

// The same small check after every way of loading: the instance works.
function checkWorks(ts) {
  assert.equal(ts.version, PKG.version);
  const index = ts.createIndex(CATALOG);
  try {
    assert.equal(index.search('weather forecast').hits[0].id, 'get_forecast');
  } finally {
    index.free();
  }
}

test('load from a file path string', async () => {
  checkWorks(await load(WASM));
});

test('load from a file: URL object and a file: URL string', async () => {
  const url = pathToFileURL(WASM);
  checkWorks(await load(url));
  checkWorks(await load(url.href));
});

test('load from bytes (Uint8Array, Buffer, ArrayBuffer)', async () => {
  const buf = await readFile(WASM);
  checkWorks(await load(buf));
  checkWorks(await load(new Uint8Array(buf)));
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  checkWorks(await load(ab));
});

test('load from a compiled WebAssembly.Module (Cloudflare Workers style)', async () => {
  const module = await WebAssembly.compile(await readFile(WASM));
  checkWorks(await load(module));
  // The same Module instantiates again: two independent instances.
  const a = await load(module);
  const b = await load(module);
  assert.notEqual(a.memory, b.memory);
  checkWorks(a);
  checkWorks(b);
});

test('load from an http URL (fetch)', async (t) => {
  const bytes = await readFile(WASM);
  const server = createServer((req, res) => {
    if (req.url === '/toolsift.wasm') {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(bytes);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address();
  checkWorks(await load(`http://127.0.0.1:${port}/toolsift.wasm`));
  checkWorks(await load(new URL(`http://127.0.0.1:${port}/toolsift.wasm`)));
  await assert.rejects(load(`http://127.0.0.1:${port}/missing.wasm`), /404/);
});

test('load() without a source uses TOOLSIFT_WASM or the package default', () => {
  // In a child process so the environment is exactly what we say.
  const script = `import { load } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'js/toolsift.js')).href)};
    const ts = await load();
    const ix = ts.createIndex([{ name: 'send_email', description: 'Send an email' }]);
    process.stdout.write(ix.search('email').hits[0].id);`;
  const run = (env) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      cwd: ROOT,
    });
  const viaEnv = run({ TOOLSIFT_WASM: WASM });
  assert.equal(viaEnv.status, 0, viaEnv.stderr);
  assert.equal(viaEnv.stdout, 'send_email');
  const missing = run({ TOOLSIFT_WASM: path.join(ROOT, 'build/wasm/does-not-exist.wasm') });
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /does-not-exist\.wasm/);
});

test('bad sources are rejected', async () => {
  await assert.rejects(load(42), TypeError);
  await assert.rejects(load(new Uint8Array([1, 2, 3])), WebAssembly.CompileError);
});

test('the module imports nothing but env functions (none for the clang build)', async () => {
  const module = await WebAssembly.compile(await readFile(WASM));
  const imports = WebAssembly.Module.imports(module);
  for (const imp of imports) {
    assert.equal(imp.module, 'env', `unexpected import ${imp.module}.${imp.name}`);
    assert.equal(imp.kind, 'function', `unexpected import kind ${imp.kind}`);
  }
  if (!path.basename(WASM).includes('emcc')) assert.deepEqual(imports, []);
  const exports = WebAssembly.Module.exports(module).map((e) => e.name);
  // The export table (wasm/exports.def) is the one list: every name in it,
  // and no other tsift_wasm_* function.
  const listed = wasmExports().map((e) => e.name);
  assert.ok(listed.length > 50, 'the export table reads');
  for (const name of ['memory', ...listed]) assert.ok(exports.includes(name), `missing export ${name}`);
  for (const name of exports) {
    if (name.startsWith('tsift_wasm_')) assert.ok(listed.includes(name), `${name} is not in wasm/exports.def`);
  }
});

test('ToolsiftError is an Error with code and status', () => {
  const e = new ToolsiftError('config', 'duplicate id', 4);
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'ToolsiftError');
  assert.equal(e.code, 'config');
  assert.equal(e.status, 4);
  assert.equal(e.message, 'duplicate id');
});
