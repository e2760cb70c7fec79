// install.test.mjs — the `last-metre` stage (issue 33): what
// the README's first lines tell a new user to type, done for real. `npm
// pack` in this checkout (prepack copies build/wasm/toolsift.wasm into dist/),
// an empty project in a temporary folder, the README's install line run
// there **offline** (the tarball, and the gateway's peers from the npm cache
// that `npm ci` in the checkout filled: when they are not in it, the gateway
// parts SKIP with npm's reason instead of failing). From that project: the
// README's JavaScript example, its command lines through `npx toolsift`
// (byte for byte what the native CLI prints), an adapter by subpath,
// examples/mcp/client-config.json started from another folder as an MCP
// client starts it (the SDK's Client over stdio: list, search, call), the
// README's `--http --generate-token` line with the header it gives, and the
// lifecycle cases under `npx toolsift-mcp` (tests/mcp/lifecycle.mjs); then
// the rest of the issue's walk-through from that project: the real catalog
// all.json indexed without options, auto mode on a 12-tool catalog and off
// on the corpus, a pre-search that replays, and the installed gateway in
// front of server-memory (select: by a bare name; auto mode). Every process
// it starts is ended, and checked gone by pid.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FIXTURE, writeConfig } from '../mcp/helpers.mjs';
import { ENDS, alive, descendants, lifecycleCase, lifecycleConfig, unsupported } from '../mcp/lifecycle.mjs';
import { reportSkip } from '../skip.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NATIVE = path.resolve(ROOT, process.env.TOOLSIFT_NATIVE || 'build/native/toolsift');
const TMP = mkdtempSync(path.join(tmpdir(), 'toolsift-install-'));
const PROJECT = path.join(TMP, 'my-project');
test.after(() => rmSync(TMP, { recursive: true, force: true }));

// A user's environment, with npm kept off the network: the tarball and the
// npm cache only. (npm_config_cache passes through when CI moved the cache.)
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;

function run(cmd, args, cwd, options = {}) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20, ...options });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? String(r.error ?? '') };
}

function ok(cmd, args, cwd, options) {
  const r = run(cmd, args, cwd, options);
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} (in ${cwd}) failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The fenced block after <!-- example:NAME --> in the README. */
function example(name) {
  const m = new RegExp(`<!-- example:${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(README);
  assert.ok(m, `README.md has no example:${name} block`);
  return m[1];
}

/** A block's command lines, comments cut, as argument lists. */
const commands = (block) => block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean).map((l) => l.split(/\s+/));

let tarball; // the packed file
let peersMissing = null; // why the gateway cannot be installed offline, or null

test('npm pack in the checkout writes the tarball the README installs', () => {
  assert.ok(existsSync(path.join(ROOT, 'build/wasm/toolsift.wasm')), 'build/wasm/toolsift.wasm was not built (scripts/build.sh)');
  const [pack, install] = commands(example('install'));
  assert.deepEqual(pack, ['npm', 'run', 'build', '&&', 'npm', 'pack']);
  const dest = path.join(TMP, 'pack');
  mkdirSync(dest);
  const [info] = JSON.parse(ok('npm', ['pack', '--json', '--pack-destination', dest], ROOT));
  tarball = path.join(dest, info.filename);
  assert.equal(install[2], `/path/to/${info.filename}`, 'the README installs the file npm pack writes');
  assert.equal(existsSync(path.join(ROOT, 'dist')), false, 'postpack removed dist/');
});

test('the README install line, offline, in an empty project', () => {
  assert.ok(tarball, 'npm pack did not run');
  mkdirSync(PROJECT);
  ok('npm', ['init', '-y'], PROJECT);
  const [, install] = commands(example('install'));
  const args = install.slice(1).map((a) => (a.startsWith('/path/to/') ? tarball : a));
  const r = run('npm', args, PROJECT);
  if (r.status !== 0) {
    // Only a cache without the peers is a skip; anything else is a failure.
    const why = /ENOTCACHED|only-if-cached/.test(r.stderr) && r.stderr.split('\n').find((l) => /npm error (?!code)/.test(l));
    assert.ok(why, `npm ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    peersMissing = `the gateway's peers (@modelcontextprotocol/sdk, zod) are not in the npm cache (npm ci in the checkout fills it): ${why.trim()}`;
    reportSkip(peersMissing);
    ok('npm', ['install', tarball], PROJECT); // the library and the CLI need nothing else
  }
  const pkg = path.join(PROJECT, 'node_modules/toolsift');
  assert.deepEqual(readFileSync(path.join(pkg, 'dist/toolsift.wasm')), readFileSync(path.join(ROOT, 'build/wasm/toolsift.wasm')));
  for (const bin of ['toolsift', 'toolsift-mcp']) assert.ok(existsSync(path.join(PROJECT, 'node_modules/.bin', bin)), bin);
  if (!peersMissing) assert.ok(existsSync(path.join(PROJECT, 'node_modules/@modelcontextprotocol/sdk/package.json')));
});

test('the bins answer from the project: npx toolsift --version, npx toolsift-mcp --version', () => {
  const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  assert.equal(ok('npx', ['toolsift', '--version'], PROJECT), `${version}\n`);
  assert.equal(ok('npx', ['toolsift-mcp', '--version'], PROJECT), `toolsift-mcp ${version}\n`);
});

test('the README JavaScript example runs in the project', () => {
  writeFileSync(path.join(PROJECT, 'readme-example.mjs'), example('js'));
  const out = ok(process.execPath, ['readme-example.mjs'], PROJECT);
  assert.deepEqual(out.trim().split('\n'), ['create_issue strong', 'list_repos partial']);
});

test('the README command lines through npx toolsift print what the native CLI prints', () => {
  const lines = commands(example('cli'));
  assert.ok(lines.length >= 3);
  // the catalog they name, beside the project and beside the reference run
  const reference = path.join(TMP, 'reference');
  for (const dir of [PROJECT, reference]) {
    mkdirSync(path.join(dir, 'corpus'), { recursive: true });
    cpSync(path.join(ROOT, 'corpus/catalog.json'), path.join(dir, 'corpus/catalog.json'));
  }
  const native = existsSync(NATIVE) ? [NATIVE] : [process.execPath, path.join(ROOT, 'js/cli.js')];
  for (const [npx, bin, ...args] of lines) {
    assert.deepEqual([npx, bin], ['npx', 'toolsift'], args.join(' '));
    const got = ok('npx', [bin, ...args], PROJECT);
    const want = ok(native[0], [...native.slice(1), ...args], reference);
    assert.equal(got, want, `npx toolsift ${args.join(' ')}`);
  }
  assert.equal(JSON.parse(ok('npx', ['toolsift', ...lines[0].slice(2)], PROJECT)).hits[0].id, 'github__create_pull_request');
});

test('an SDK adapter by subpath: toolsift/openai loads what a tool_search_call asks for', () => {
  writeFileSync(path.join(PROJECT, 'adapter.mjs'), `import { load } from 'toolsift';
import { createToolSearch } from 'toolsift/openai';
const ts = createToolSearch({ toolsift: await load(), tools: [
  { type: 'function', name: 'get_weather', description: 'Weather forecast for a city', parameters: { type: 'object' } },
  { type: 'function', name: 'send_email', description: 'Send an email to someone', parameters: { type: 'object' } },
] });
const [out] = await ts.handle([{ type: 'tool_search_call', call_id: 'c1', execution: 'client', arguments: { query: 'weather forecast' } }]);
console.log(out.type, out.tools.map((t) => t.name).join(','));
`);
  assert.equal(ok(process.execPath, ['adapter.mjs'], PROJECT), 'tool_search_output get_weather\n');
});

test('the README gateway configuration is one toolsift/mcp accepts, with fs vouched for', (t) => {
  if (gatewaySkip()) return t.skip(gatewaySkip());
  writeFileSync(path.join(PROJECT, 'gateway.json'), example('gateway'));
  const out = ok(process.execPath, ['--input-type=module', '-e', `import { readFileSync } from 'node:fs';
import { checkConfig } from 'toolsift/mcp';
const c = checkConfig(JSON.parse(readFileSync('gateway.json', 'utf8')));
console.log(JSON.stringify(c.servers.map((s) => [s.key, s.trusted])));`], PROJECT);
  assert.deepEqual(JSON.parse(out), [['fs', true], ['memory', false]]);
});

// A gateway configuration in front of the in-repo catalog upstream.
function gatewayConfig(dir) {
  mkdirSync(dir, { recursive: true });
  return writeConfig(dir, { mcpServers: { cat: { command: process.execPath, args: [FIXTURE, '--products', 'slack'], trusted: true } } });
}

// Wait until every process in `recorded` is gone (generous deadline; no
// timing is asserted), then fail naming the ones left.
async function allGone(recorded, what, deadlineMs = 60_000) {
  const until = Date.now() + deadlineMs;
  let left = recorded.filter(alive);
  while (left.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = recorded.filter(alive);
  }
  assert.deepEqual(left.map((p) => `${p.pid} ${p.cmd}`), [], `still running after ${what}`);
}

function killLeft(recorded) {
  for (const p of recorded) {
    if (!alive(p)) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
}

const gatewaySkip = () => (peersMissing ? 'the gateway\'s peers are not in the npm cache (the SKIP line above says why)' : unsupported() ?? false);

test('examples/mcp/client-config.json, started from another folder as an MCP client does: list, search, call', async (t) => {
  if (gatewaySkip()) return t.skip(gatewaySkip());
  const config = gatewayConfig(path.join(TMP, 'client-config'));
  const { mcpServers } = JSON.parse(readFileSync(path.join(ROOT, 'examples/mcp/client-config.json'), 'utf8'));
  const entry = mcpServers.toolsift;
  const args = entry.args.map((a) => ({ '/absolute/path/to/your-project': PROJECT, '/absolute/path/to/gateway.json': config })[a] ?? a);
  assert.notDeepEqual(args, entry.args, 'client-config.json names the project and the configuration by placeholder paths');
  const elsewhere = path.join(TMP, 'client-cwd');
  mkdirSync(elsewhere);
  const transport = new StdioClientTransport({ command: entry.command, args, cwd: elsewhere, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'toolsift-install-test', version: '1.0.0' });
  let recorded = [];
  t.after(() => killLeft(recorded));
  try {
    await client.connect(transport);
  } catch (e) {
    e.message += `\n${entry.command} ${args.join(' ')}:\n${stderr}`;
    throw e;
  }
  recorded = descendants(transport.pid);
  assert.deepEqual((await client.listTools()).tools.map((x) => x.name), ['search_tools']);
  const found = JSON.parse((await client.callTool({ name: 'search_tools', arguments: { query: 'send a message to a slack channel' } })).content[0].text);
  assert.equal(found.tools[0].name, 'cat__slack__send_message', JSON.stringify(found));
  assert.equal(found.tools[0].loaded, true);
  assert.ok((await client.listTools()).tools.some((x) => x.name === 'cat__slack__send_message'));
  const called = await client.callTool({ name: 'cat__slack__send_message', arguments: { channel: 'ops', text: 'deploy done' } });
  assert.notEqual(called.isError, true, JSON.stringify(called));
  assert.match(JSON.stringify(called.content), /deploy done/);
  assert.match(stderr, /\[cat\] trusted: true — its tools' descriptions are searched and shown to the model/);
  await client.close();
  await allGone(recorded, 'the client closed');
});

test('the README --http --generate-token line from the installed bin: the token file gives the header', async (t) => {
  if (gatewaySkip()) return t.skip(gatewaySkip());
  const dir = path.join(TMP, 'http');
  const config = gatewayConfig(dir);
  // the README's lines: the command, and the header clients send
  const line = README.split('\n').find((l) => l.startsWith('npx toolsift-mcp') && l.includes('--generate-token')).split(/\s+/);
  assert.deepEqual([...line.slice(0, 3), ...line.slice(4, 7)], ['npx', 'toolsift-mcp', '--config', '--http', '8931', '--generate-token']);
  const readmeFile = line[7];
  const said = /"Authorization: Bearer \$\(cat ([^)]+)\)"/.exec(README);
  assert.ok(said, 'the README says which header a client sends');
  assert.equal(said[1], readmeFile, 'the header reads the file the command wrote');
  const tokenFile = path.join(dir, 'token');
  // the README's line with this configuration, any free port and this token file
  const args = [line[1], '--config', config, '--http', '0', '--generate-token', tokenFile];
  const proc = spawn('npx', args, { cwd: PROJECT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let recorded = [];
  t.after(() => {
    killLeft(recorded);
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  });
  const url = await new Promise((resolve, reject) => {
    proc.stderr.on('data', (d) => {
      stderr += d;
      const m = /listening (http:\/\/\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    proc.once('exit', (code) => reject(new Error(`npx ${args.join(' ')} exited ${code}:\n${stderr}`)));
  });
  recorded = descendants(proc.pid);
  assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
  const token = readFileSync(tokenFile, 'utf8');
  assert.match(token, /^[A-Za-z0-9_-]{43}\n$/);
  // the README's header, made by a shell with this token file
  const sent = execFileSync('sh', ['-c', `printf '%s' ${said[0].replace(readmeFile, `'${tokenFile}'`)}`], { encoding: 'utf8' });
  assert.ok(sent.startsWith('Authorization: '), sent);
  const header = sent.slice('Authorization: '.length);
  assert.equal(header, `Bearer ${token.trim()}`);
  const client = new Client({ name: 'toolsift-install-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: header } } }));
  assert.deepEqual((await client.listTools()).tools.map((x) => x.name), ['search_tools']);
  await client.close();
  assert.ok(!stderr.includes(token.trim()), 'the token is never logged');
  assert.ok(stderr.includes(tokenFile), 'the log names the token file');
  // npx passes SIGTERM to a shell that does not pass it on: the gateway
  // (whose parent then dies) ends anyway, and its upstream with it
  proc.kill('SIGTERM');
  await allGone(recorded, 'SIGTERM to npx');
});

for (const end of Object.keys(ENDS)) {
  test(`npx toolsift-mcp from the installed package, ended by ${end}: no process it started survives`, async (t) => {
    if (gatewaySkip()) return t.skip(gatewaySkip());
    const dir = path.join(TMP, `lifecycle-${end.replace(/\W/g, '')}`);
    mkdirSync(dir);
    await lifecycleCase(t, { command: 'npx', args: ['toolsift-mcp', '--config', lifecycleConfig(dir)], cwd: PROJECT, env, end });
  });
}

// ---- the rest of issue 33's walk-through, from the installed package ----

const ALL = path.join(ROOT, '../shared/catalogs/all.json');

test('walk-through: createIndex over the real catalog all.json, no options; a session calls a tool whose id has a space', (t) => {
  if (!existsSync(ALL)) {
    reportSkip('walk-through: all.json: ../shared/catalogs/all.json is not present');
    return t.skip('../shared/catalogs/all.json is not present');
  }
  writeFileSync(path.join(PROJECT, 'all.mjs'), `import { readFileSync } from 'node:fs';
import { load } from 'toolsift';
const toolsift = await load();
const tools = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const index = toolsift.createIndex({ tools });
const info = index.info();
const safe = info.menuNames['docker-vectra-ai-rux__Summarize Detection'];
const s = toolsift.createSession({ catalog: { tools }, search: { maxPerSearch: 3 } });
const found = s.call(0, 0, 'search_tools', { query: 'summarize a vectra detection' }).result.tools;
console.log(JSON.stringify({ tools: info.tools, safe, found: found.map((h) => [h.name, h.loaded]),
  called: s.call(1, 0, safe, {}).result.allowed }));`);
  const out = JSON.parse(ok(process.execPath, ['all.mjs', ALL], PROJECT));
  assert.equal(out.tools, 2032);
  assert.match(out.safe, /^docker-vectra-ai-rux__Summarize_Detection_[0-9a-f]{8}$/);
  assert.deepEqual(out.found[0], [out.safe, true]);
  assert.equal(out.called, true);
});

test('walk-through: auto mode on a 12-tool catalog lists every tool and no search tool; the bundled corpus searches', () => {
  writeFileSync(path.join(PROJECT, 'auto.mjs'), `import { readFileSync } from 'node:fs';
import { load } from 'toolsift';
const toolsift = await load();
const corpus = JSON.parse(readFileSync('corpus/catalog.json', 'utf8'));
const id = (t) => t.id ?? t.function?.name ?? t.name;
const twelve = corpus.tools.filter((t) => /^(weather|translate|web_search|fx|time|travel_agent)__/.test(id(t)));
const small = toolsift.createSession({ catalog: { tools: twelve }, search: { auto: true } });
const large = toolsift.createSession({ catalog: corpus, search: { auto: true } });
console.log(JSON.stringify({ n: twelve.length, small: [small.mode, small.menu('mcp').tools.map((x) => x.name)],
  large: [large.mode, large.menu('mcp').tools.map((x) => x.name)] }));`);
  const out = JSON.parse(ok(process.execPath, ['auto.mjs'], PROJECT));
  assert.equal(out.n, 12);
  assert.equal(out.small[0], 'all');
  assert.equal(out.small[1].length, 12);
  assert.ok(!out.small[1].includes('search_tools'));
  assert.deepEqual(out.large, ['search', ['search_tools']]);
});

test('walk-through: a pre-search loads the strong hit of a user message, and the journal replays it', () => {
  writeFileSync(path.join(PROJECT, 'pre.mjs'), `import { readFileSync } from 'node:fs';
import { load } from 'toolsift';
const toolsift = await load();
const config = { catalog: JSON.parse(readFileSync('corpus/catalog.json', 'utf8')) };
const live = toolsift.createSession(config);
const a = live.preSearchJSON(0, 'Please refund that Stripe payment.');
const journal = live.journalJSONL();
const again = toolsift.createSession(config, { journal });
const b = again.preSearchJSON(0, 'Please refund that Stripe payment.');
console.log(JSON.stringify({ loaded: JSON.parse(a).result.tools.filter((h) => h.loaded).map((h) => h.name),
  same: a === b, sameJournal: again.journalJSONL() === journal, replayed: again.metrics().replayed }));`);
  const out = JSON.parse(ok(process.execPath, ['pre.mjs'], PROJECT));
  assert.deepEqual(out.loaded, ['stripe__create_refund']);
  assert.deepEqual([out.same, out.sameJournal, out.replayed], [true, true, 1]);
});

test('walk-through: the installed gateway in front of server-memory — select: by the bare name a client shows, auto mode', async (t) => {
  if (gatewaySkip()) return t.skip(gatewaySkip());
  const memory = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
  if (!existsSync(memory)) return t.skip('@modelcontextprotocol/server-memory is not installed in the checkout');
  for (const auto of [false, true]) {
    const dir = path.join(TMP, `memory-${auto}`);
    mkdirSync(dir);
    const config = writeConfig(dir, { mcpServers: { memory: { command: process.execPath, args: [memory], trusted: true,
      env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } } }, ...(auto ? { search: { auto: true } } : {}) });
    const transport = new StdioClientTransport({ command: 'npx', args: ['toolsift-mcp', '--config', config], cwd: PROJECT, env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr.on('data', (d) => (stderr += d));
    const client = new Client({ name: 'toolsift-walkthrough', version: '1.0.0' });
    await client.connect(transport);
    const recorded = descendants(transport.pid);
    t.after(() => killLeft(recorded));
    const listed = (await client.listTools()).tools.map((x) => x.name);
    if (auto) {
      assert.ok(!listed.includes('search_tools'), listed.join(' '));
      assert.ok(listed.includes('memory__create_entities'));
      assert.match(stderr, /mode all/);
    } else {
      assert.deepEqual(listed, ['search_tools']);
      const r = JSON.parse((await client.callTool({ name: 'search_tools', arguments: { query: 'select:create_entities' } })).content[0].text);
      assert.deepEqual(r.tools.map((h) => [h.name, h.loaded]), [['memory__create_entities', true]]);
      assert.match(r.note, /Loaded by the full name: create_entities is memory__create_entities\./);
    }
    await client.close();
    await allGone(recorded, 'the client closed');
  }
});
