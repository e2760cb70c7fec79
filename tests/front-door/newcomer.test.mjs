// A newcomer's first five minutes: clone the repository (the committed HEAD
// of this checkout) into an empty temporary folder — no ../shared beside it,
// no node_modules — and run the README front page's examples as they are
// written: the JavaScript one, the C one, the command lines (as written, via
// `npx toolsift` in the clone, and by `node js/cli.js` and the native CLI,
// byte for byte) and the first SDK example, which must load and call
// slack__send_message. Nothing is rebuilt: the built artifacts of this
// checkout are pointed at by env vars (TOOLSIFT_WASM, TOOLSIFT_NATIVE,
// TOOLSIFT_CORE_LIB; CC for the C compiler). Importing toolsift/ai-sdk and
// toolsift/mcp in the clone, where their optional peers are not installed,
// must say which package to install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportSkip } from '../skip.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(process.env.TOOLSIFT_WASM ?? path.join(ROOT, 'build/wasm/toolsift.wasm'));
const NATIVE = path.resolve(process.env.TOOLSIFT_NATIVE ?? path.join(ROOT, 'build/native/toolsift'));
const CORE_LIB = path.resolve(process.env.TOOLSIFT_CORE_LIB ?? path.join(ROOT, 'build/native/libtoolsift_core.a'));
const CC = process.env.CC ?? 'cc';

const TMP = mkdtempSync(path.join(os.tmpdir(), 'toolsift-newcomer-'));
const CLONE = path.join(TMP, 'toolsift');
process.on('exit', () => rmSync(TMP, { recursive: true, force: true }));

// The environment a newcomer has: none of our test variables, no API keys.
const env = { PATH: process.env.PATH, HOME: process.env.HOME, TOOLSIFT_WASM: WASM };

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: CLONE, env, encoding: 'utf8', timeout: 120_000, ...options });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? String(r.error ?? '') };
}

function ok(cmd, args, options) {
  const r = run(cmd, args, options);
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The fenced block after <!-- example:NAME --> in the clone's README. */
function example(name) {
  const readme = readFileSync(path.join(CLONE, 'README.md'), 'utf8');
  const m = new RegExp(`<!-- example:${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  assert.ok(m, `README.md has no example:${name} block`);
  return m[1];
}

test('clone: HEAD into an empty folder, without ../shared or node_modules', () => {
  for (const f of [WASM, NATIVE]) assert.ok(existsSync(f), `${f} was not built (run scripts/build.sh)`);
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, CLONE], { stdio: 'pipe' });
  assert.equal(existsSync(path.join(TMP, 'shared')), false);
  assert.equal(existsSync(path.join(CLONE, 'node_modules')), false);
  const head = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  assert.equal(execFileSync('git', ['-C', CLONE, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim(), head);
});

test('README: the JavaScript example prints create_issue strong, then list_repos partial', () => {
  writeFileSync(path.join(CLONE, 'readme-example.mjs'), example('js'));
  const out = ok(process.execPath, ['readme-example.mjs']);
  assert.deepEqual(out.trim().split('\n'), ['create_issue strong', 'list_repos partial']);
});

test('README: the C example compiles against the built core and ranks create_issue first', (t) => {
  if (spawnSync(CC, ['--version'], { encoding: 'utf8' }).status !== 0) {
    reportSkip(`front page C example: no C compiler (${CC})`);
    t.skip('no C compiler');
    return;
  }
  assert.ok(existsSync(CORE_LIB), `${CORE_LIB} was not built`);
  writeFileSync(path.join(CLONE, 'example.c'), example('c'));
  ok(CC, ['-std=c11', '-Wall', '-Werror', '-Icore/include', 'example.c', CORE_LIB, '-lm', '-o', 'example']);
  const out = ok(path.join(CLONE, 'example'), []);
  assert.match(out, /^create_issue \d+\.\d{3}\n/);
});

test('README: the command lines print the same bytes as written (npx toolsift), from node js/cli.js and from the native CLI', () => {
  const lines = example('cli').split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
  assert.ok(lines.length >= 3);
  const outputs = [];
  // npx in the clone runs the checkout's own bin (offline: nothing is fetched)
  const npxEnv = { ...env, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
  for (const line of lines) {
    const [npx, bin, ...args] = line.split(/\s+/);
    assert.deepEqual([npx, bin], ['npx', 'toolsift'], line);
    const native = ok(NATIVE, args);
    const wasm = ok(process.execPath, ['js/cli.js', ...args]);
    assert.equal(wasm, native, `${line}: the wasm CLI's output differs from the native one`);
    assert.equal(ok('npx', [bin, ...args], { env: npxEnv }), native, `${line}: as written, in the clone`);
    outputs.push(native);
  }
  const first = JSON.parse(outputs[0]);
  assert.equal(first.hits[0].id, 'github__create_pull_request');
  // search --index of the snapshot the build line wrote = search --catalog
  const again = lines.findIndex((l) => l.includes('--index'));
  assert.ok(again > 0);
  assert.equal(outputs[again], outputs[0]);
});

test('the optional peers: importing toolsift/ai-sdk or toolsift/mcp without them names the package to install', () => {
  const aiSdk = run(process.execPath, ['--input-type=module', '-e', "await import('toolsift/ai-sdk')"]);
  assert.notEqual(aiSdk.status, 0);
  assert.match(aiSdk.stderr, /toolsift\/ai-sdk needs the Vercel AI SDK \('ai'\).*npm install ai@\^7/);
  const mcp = run(process.execPath, ['--input-type=module', '-e', "await import('toolsift/mcp')"]);
  assert.notEqual(mcp.status, 0);
  assert.match(mcp.stderr, /toolsift\/mcp needs the MCP SDK.*npm install @modelcontextprotocol\/sdk@\^1\.32\.2 zod@\^4\.6\.7/);
  // the engine itself needs neither
  ok(process.execPath, ['--input-type=module', '-e', "const { load } = await import('toolsift'); await load();"]);
});

// The SDK example needs `ai`: its installed package tree is copied (not
// linked) from this checkout's node_modules, as `npm install ai` would lay it out.
function installFromCheckout(name, seen = new Set()) {
  if (seen.has(name)) return;
  seen.add(name);
  const from = path.join(ROOT, 'node_modules', name);
  assert.ok(existsSync(from), `node_modules/${name} is missing in the checkout (npm ci)`);
  cpSync(from, path.join(CLONE, 'node_modules', name), { recursive: true, dereference: true });
  const pkg = JSON.parse(readFileSync(path.join(from, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })) {
    if (existsSync(path.join(ROOT, 'node_modules', dep))) installFromCheckout(dep, seen);
  }
}

test('README: the first SDK example loads and calls slack__send_message', () => {
  const line = example('sdk').split('\n')[0].replace(/\s+#.*$/, '').trim();
  const [bin, ...args] = line.split(/\s+/);
  assert.equal(bin, 'node');
  installFromCheckout('ai');
  const out = ok(process.execPath, args);
  const search = out.split('\n').find((l) => l.startsWith('{"id":"agent#turn:0:tool:0:search"'));
  assert.ok(search, out);
  assert.equal(JSON.parse(search).value.loaded[0], 'slack__send_message');
  assert.match(out, /^step 1: call slack__send_message /m);
  assert.match(out, /^answer: Done /m);
});
