// component.test.mjs — the WebAssembly component (wasm/toolsift.wit,
// wasm/component.c), transpiled with jco and driven from Node, against the
// native CLI (byte for byte) and the JS binding over the plain module.
//
//   node --test tests/component/component.test.mjs
// Needs build/component/toolsift.component.wasm and build/native/toolsift
// (scripts/build.sh). Env: TOOLSIFT_NATIVE (the native CLI).
// Writes build/component/{scenario.component,scenario.native}.json.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { nativeReference } from '../runtimes/native.mjs';
import { inlineCatalog, parseCalls, runScenario } from '../runtimes/scenario.mjs';
import { adapt, errorLine } from './adapter.mjs';
import { COMPONENT, ROOT, transpileComponent } from './transpile.mjs';

const NATIVE = path.resolve(ROOT, process.env.TOOLSIFT_NATIVE || 'build/native/toolsift');
const OUT = path.join(ROOT, 'build/component');
const CATALOG_FILE = path.join(ROOT, 'corpus/catalog.json');
const CONFIG_FILE = path.join(ROOT, 'tests/runtimes/fixtures/session.json');
const CALLS_FILE = path.join(ROOT, 'tests/runtimes/fixtures/calls.jsonl');
const catalog = readFileSync(CATALOG_FILE, 'utf8');
const sessionConfig = readFileSync(CONFIG_FILE, 'utf8');
const callsText = readFileSync(CALLS_FILE, 'utf8');
const calls = parseCalls(callsText);
const config = inlineCatalog(sessionConfig, catalog);

let engine; // import-time instantiation (the usual jco output)
let transpiled;
let tmp;

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'toolsift-component-'));
  transpiled = await transpileComponent(path.join(OUT, 'js'));
  ({ engine } = await import(pathToFileURL(path.join(OUT, 'js/toolsift.js')).href));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Run the native CLI: { status, stdout, stderr } (never throws on a non-zero exit). */
function native(args) {
  const r = spawnSync(NATIVE, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return r;
}
const lines = (s) => s.split('\n').filter((l) => l !== '');
const file = (name, text) => {
  const f = path.join(tmp, name);
  writeFileSync(f, text);
  return f;
};

/** The failure of fn() as the CLI would print it (or a note that it did not fail). */
function failure(fn, prefix = '') {
  try {
    fn();
  } catch (e) {
    return errorLine(e, prefix);
  }
  return '(no error)';
}

test('the component imports nothing and exports the WIT world', async () => {
  assert.deepEqual(transpiled.imports, [], 'the transpiled component needs no imports');
  const { componentWit } = await import('@bytecodealliance/jco');
  const wit = await componentWit(readFileSync(COMPONENT));
  assert.doesNotMatch(wit, /^\s*import\s/m);
  assert.match(wit, /export toolsift:toolsift\/engine@0\.1\.0;/);
  // Every function of wasm/toolsift.wit is in the component's type, as jco
  // declares it (componentWit prints only the root world; the interface's
  // functions show in the generated declarations, names in camelCase).
  const source = readFileSync(path.join(ROOT, 'wasm/toolsift.wit'), 'utf8');
  const names = [...source.matchAll(/^\s*([a-z][a-z0-9-]*): (?:static )?func\(/gm)].map((m) => m[1]);
  assert.ok(names.length >= 17, 'the WIT source lists the functions');
  const dts = new TextDecoder().decode(transpiled.files['interfaces/toolsift-toolsift-engine.d.ts']);
  for (const name of names) {
    const js = name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    assert.match(dts, new RegExp(`(^|\\s)(static )?${js}\\(`, 'm'), `${name} (${js}) in the component`);
  }
  for (const r of ['class Index', 'class Session', 'interface Error', "type ErrorCode = 'arg'"]) assert.ok(dts.includes(r), r);
  assert.equal((dts.match(/constructor\(/g) ?? []).length, 2, 'index and session constructors');
});

test('the runtime-matrix scenario through the component is byte-identical to the native CLI', async () => {
  const expected = nativeReference(ROOT, NATIVE);
  const actual = await runScenario(adapt(engine), { catalog, sessionConfig, calls: callsText });
  writeFileSync(path.join(OUT, 'scenario.native.json'), expected);
  writeFileSync(path.join(OUT, 'scenario.component.json'), actual);
  assert.ok(expected.length > 10000, 'the reference document has content');
  assert.equal(actual, expected, 'diff build/component/scenario.native.json build/component/scenario.component.json');
});

test('fingerprint() and a session over a snapshot agree with the native CLI', () => {
  const index = new engine.Index({ tag: 'catalog', val: { json: catalog } });
  try {
    const info = JSON.parse(native(['info', '--catalog', CATALOG_FILE]).stdout);
    assert.match(index.fingerprint(), /^[0-9a-f]{64}$/);
    assert.equal(index.fingerprint(), info.fingerprint);

    const snap = index.snapshot();
    const snapFile = file('corpus.tsi', snap);
    const noCatalog = JSON.parse(sessionConfig);
    delete noCatalog.catalog;
    const cfgFile = file('nocatalog.json', JSON.stringify(noCatalog));
    const run = native(['session', 'run', '--config', cfgFile, '--index', snapFile, '--calls', CALLS_FILE]);
    assert.equal(run.status, 0, run.stderr);
    const s = engine.Session.fromSnapshot(JSON.stringify(noCatalog), snap, undefined, 'fail');
    try {
      const got = calls.map((c) => s.call(c.turn, c.call, c.tool, JSON.stringify(c.args ?? {})));
      assert.deepEqual(got, lines(run.stdout));
      // The session's fingerprint (of its searchable universe) is the same
      // over the snapshot as over the catalog.
      const live = new engine.Session(config, undefined, 'fail');
      assert.match(JSON.parse(s.metrics()).fingerprint, /^[0-9a-f]{64}$/);
      try {
        for (const c of calls) live.call(c.turn, c.call, c.tool, JSON.stringify(c.args ?? {}));
        assert.equal(s.metrics(), live.metrics());
      } finally {
        live[Symbol.dispose]();
      }
    } finally {
      s[Symbol.dispose]();
    }
  } finally {
    index[Symbol.dispose]();
  }
});

// The native CLI names the configuration's file in its errors ("config file
// PATH: …"); the component, given the text, says "config: …".
const unfiled = (line) => line.replace(/^(toolsift: \w+: )config file [^:]*: /, '$1config: ');

test('errors come back as result errors, as the native CLI reports them', () => {
  const cases = [];
  // A catalog with a duplicate id (config), malformed JSON (json, with its position).
  for (const [name, text] of [
    ['dup.json', '{"tools":[{"name":"a"},{"name":"a"}]}'],
    ['syntax.json', '{"tools":[{"name":"a",}]}'],
  ]) {
    cases.push({
      what: name,
      native: ['info', '--catalog', file(name, text)],
      component: () => new engine.Index({ tag: 'catalog', val: { json: text } }),
    });
  }
  // Bad index options (arg/config), through --options.
  const opts = '{"ids":"sloppy"}';
  cases.push({
    what: 'index options',
    native: ['info', '--catalog', CATALOG_FILE, '--options', opts],
    component: () => new engine.Index({ tag: 'catalog', val: { json: catalog, options: opts } }),
  });
  // A search limit out of range (arg).
  const index = new engine.Index({ tag: 'catalog', val: { json: catalog } });
  cases.push({
    what: 'limit 5000',
    native: ['search', '--catalog', CATALOG_FILE, '--limit', '5000', 'create', 'a', 'pull', 'request'],
    component: () => index.search('create a pull request', { limit: 5000, explain: false }),
  });
  // A corrupted snapshot (snapshot: checksum mismatch) and a truncated one.
  const snap = index.snapshot();
  const flipped = Uint8Array.from(snap);
  flipped[flipped.length >> 1] ^= 1;
  const truncated = snap.subarray(0, 100);
  for (const [name, bytes] of [['flipped.tsi', flipped], ['truncated.tsi', truncated]]) {
    cases.push({
      what: name,
      native: ['info', '--index', file(name, bytes)],
      component: () => new engine.Index({ tag: 'snapshot', val: bytes }),
    });
  }
  // A bad session configuration (config).
  const badConfig = '{"loop":"x","catalog":{"tools":[]},"search":{"maxPerSearch":"five"}}';
  cases.push({
    what: 'session config',
    native: ['session', 'run', '--config', file('bad-config.json', badConfig), '--calls', CALLS_FILE],
    component: () => new engine.Session(badConfig, undefined, 'fail'),
  });

  try {
    for (const c of cases) {
      const r = native(c.native);
      assert.notEqual(r.status, 0, `${c.what}: the native CLI fails`);
      assert.equal(failure(c.component), unfiled(lines(r.stderr)[0]), c.what);
    }
  } finally {
    index[Symbol.dispose]();
  }
});

/**
 * Bytes as UTF-8 text where every byte that does not start a valid character
 * becomes "?" — the repair wasm/component.c applies to error messages, which
 * the core may cut inside a character.
 */
function repairUtf8(bytes) {
  const out = [];
  const fatal = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ch = null;
    if (n && i + n <= bytes.length) {
      try {
        ch = fatal.decode(bytes.subarray(i, i + n));
      } catch {
        ch = null;
      }
    }
    out.push(ch ?? '?');
    i += ch === null ? 1 : n;
  }
  return out.join('');
}

test('an error message the core cut inside a character comes back as valid UTF-8', () => {
  // The core quotes an unknown configuration key with "%.40s": 'k' and 30
  // two-byte characters are cut after the first byte of the 20th.
  const key = `k${'é'.repeat(30)}`;
  const bad = JSON.stringify({ loop: 'x', catalog: { tools: [] }, [key]: 1 });
  const r = spawnSync(NATIVE, ['session', 'run', '--config', file('cut-key.json', bad), '--calls', CALLS_FILE]);
  assert.notEqual(r.status, 0);
  const line = r.stderr.subarray(0, r.stderr.indexOf(0x0a));
  assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(line), 'the native message is cut mid-character');
  const got = failure(() => new engine.Session(bad, undefined, 'fail'));
  assert.equal(got, unfiled(repairUtf8(line)));
  assert.ok(got.includes(`k${'é'.repeat(19)}?`), got);
  assert.ok(!got.includes('\uFFFD'), 'repaired in the component, not replaced by the host');
});

test('a replay that diverges: every call and error as the native CLI prints them', () => {
  // Record the run, then replay it without its first call: later searches sit
  // at positions the journal does not have (diverged), each one an error the
  // session survives, and finish() reports the decisions never asked for.
  const rec = new engine.Session(config, undefined, 'fail');
  for (const c of calls) rec.call(c.turn, c.call, c.tool, JSON.stringify(c.args ?? {}));
  const journal = rec.journal();
  rec[Symbol.dispose]();
  const shortCalls = callsText.split('\n').slice(1).join('\n');
  const r = native(['session', 'replay', '--config', CONFIG_FILE, '--calls', file('short.jsonl', shortCalls),
    '--journal', file('journal.jsonl', journal), '--divergence', 'fail']);
  assert.notEqual(r.status, 0);

  const s = new engine.Session(config, journal, 'fail');
  const stdout = [];
  const stderr = [];
  parseCalls(shortCalls).forEach((c, i) => {
    try {
      stdout.push(s.call(c.turn, c.call, c.tool, JSON.stringify(c.args ?? {})));
    } catch (e) {
      stderr.push(errorLine(e, `calls line ${i + 1}: `));
    }
  });
  stderr.push(failure(() => s.finish()));
  s[Symbol.dispose]();
  assert.ok(stderr.filter((l) => l.startsWith('toolsift: diverged: ')).length >= 2, 'divergence errors');
  assert.deepEqual(stdout, lines(r.stdout));
  assert.deepEqual(stderr, lines(r.stderr));
});

test('a chained journal: verify, an edit refused as tampered, a keyed journal needs its key (as the native CLI)', () => {
  const key = '0123456789abcdef'.repeat(4);
  const journals = [undefined, key].map((k) => {
    const rec = new engine.Session(config, undefined, 'fail', k);
    for (const c of calls) rec.call(c.turn, c.call, c.tool, JSON.stringify(c.args ?? {}));
    const j = rec.journal();
    rec[Symbol.dispose]();
    return j;
  });
  assert.match(journals[0], /^\{"id":"[^"]*#journal","source":"toolsift-journal"/);
  const verify = (j, k) => {
    const s = new engine.Session(config, j, 'off', k);
    const v = s.verify();
    s[Symbol.dispose]();
    return v;
  };
  const [plainFile, keyFile] = [file('plain.jsonl', journals[0]), file('keyed.jsonl', journals[1])];
  const keyPath = file('key.hex', key);
  const cli = (args) => native(['session', 'verify', '--config', CONFIG_FILE, ...args]).stdout;
  assert.equal(verify(journals[0]), cli(['--journal', plainFile]).trimEnd());
  assert.equal(JSON.parse(verify(journals[0])).verified, true);
  assert.equal(verify(journals[1], key), cli(['--journal', keyFile, '--journal-key-file', keyPath]).trimEnd());
  assert.equal(JSON.parse(verify(journals[1], key)).verified, true);
  assert.match(verify(journals[1]), /the journal is keyed/);
  // One decision edited: refused in "fail" mode, named by position.
  const edited = journals[0].split('\n');
  const d = JSON.parse(edited[1]);
  d.value.loaded = [...d.value.results];
  edited[1] = JSON.stringify(d);
  assert.match(failure(() => new engine.Session(config, edited.join('\n'), 'fail')),
    /^toolsift: tampered: journal decision 1 \(".*"\): chain broken/);
  assert.match(failure(() => new engine.Session(config, undefined, 'fail', 'XYZ')), /journal-key: expected lowercase hex/);
});

test('two-phase host ranking gives what the JS binding gives with a ranker callback', async () => {
  const { load } = await import(pathToFileURL(path.join(ROOT, 'js/toolsift.js')).href);
  const toolsift = await load(readFileSync(path.join(ROOT, 'build/wasm/toolsift.wasm')));
  // A fixed host ranker: ids containing a word of the query, reverse order.
  const ids = JSON.parse(catalog).tools.map((t) => t.id ?? t.name ?? t.function?.name).filter((id) => typeof id === 'string');
  const rank = (query, want) => {
    const words = query.toLowerCase().split(/\s+/).filter((w) => w.length > 3);
    return ids.filter((id) => words.some((w) => id.toLowerCase().includes(w))).reverse().slice(0, want);
  };
  const viaBinding = toolsift.createSession(config, { ranker: { kind: 'host-test', rank } });
  const s = new engine.Session(config, undefined, 'fail');
  try {
    s.setRanker('host-test');
    let requests = 0;
    for (const c of calls) {
      const args = JSON.stringify(c.args ?? {});
      let out = s.call(c.turn, c.call, c.tool, args);
      for (let round = 0; JSON.parse(out).rank; round++) {
        assert.ok(round < 4, 'at most 4 ranking rounds');
        const { query, want, kind } = JSON.parse(out).rank;
        assert.equal(kind, 'host-test');
        requests++;
        out = s.ranked(JSON.stringify(rank(query, want)));
      }
      assert.equal(out, viaBinding.callJSON(c.turn, c.call, c.tool, args), `call ${c.turn}/${c.call}`);
    }
    assert.ok(requests >= 3, 'searches went to the host ranker');
    assert.equal(s.journal(), viaBinding.journalJSONL());
    assert.match(s.journal(), /"ranker":"host-test"/);
  } finally {
    s[Symbol.dispose]();
    viaBinding.free();
  }
});

test('creating and dropping thousands of index and session resources does not grow linear memory', async () => {
  // Instantiate a second copy whose core instances we can see, to read the
  // size of its linear memory.
  const dir = path.join(OUT, 'js-instantiate');
  await transpileComponent(dir, { instantiation: 'async' });
  const { instantiate } = await import(pathToFileURL(path.join(dir, 'toolsift.js')).href);
  const instances = [];
  const root = await instantiate(
    (name) => WebAssembly.compile(readFileSync(path.join(dir, name))),
    {},
    async (module, imports) => {
      const instance = await WebAssembly.instantiate(module, imports);
      instances.push(instance);
      return instance;
    },
  );
  const eng = root.engine;
  const memory = instances.map((i) => i.exports.memory).find((m) => m instanceof WebAssembly.Memory);
  assert.ok(memory, 'the core instance exports its memory');
  const size = () => memory.buffer.byteLength;

  const tools = JSON.parse(catalog).tools.slice(0, 12);
  const small = JSON.stringify({ tools });
  const cfg = JSON.stringify({ ...JSON.parse(sessionConfig), catalog: { tools }, search: { toolName: 'search_tools' } });
  const cycle = () => {
    const ix = new eng.Index({ tag: 'catalog', val: { json: small } });
    ix.search('send a message', { limit: 3, explain: true });
    const snap = ix.snapshot();
    const back = new eng.Index({ tag: 'snapshot', val: snap });
    const s = new eng.Session(cfg, undefined, 'fail');
    s.call(0, 0, 'search_tools', '{"query":"send a message"}');
    s.journal();
    back[Symbol.dispose]();
    s[Symbol.dispose]();
    ix[Symbol.dispose]();
    try {
      new eng.Index({ tag: 'snapshot', val: snap.subarray(0, 64) }); // an error: nothing to keep
    } catch (e) {
      assert.equal(e.payload.code, 'snapshot');
    }
  };

  for (let i = 0; i < 100; i++) cycle(); // warm up the allocator
  const warm = size();
  const N = 1000;
  for (let i = 0; i < N; i++) cycle();
  assert.equal(size(), warm, `${N} cycles (${3 * N} indexes, ${N} sessions) grew memory from ${warm} to ${size()} bytes`);

  // The control: the same objects kept alive do grow memory, so the check
  // above would see a destructor that frees nothing.
  const kept = [];
  for (let i = 0; i < 200; i++) {
    kept.push(new eng.Index({ tag: 'catalog', val: { json: small } }), new eng.Session(cfg, undefined, 'fail'));
  }
  const grown = size();
  assert.ok(grown > warm, `200 live indexes and sessions grow memory (${warm} → ${grown})`);
  for (const r of kept) r[Symbol.dispose]();
  for (let i = 0; i < 300; i++) cycle();
  assert.equal(size(), grown, 'freed resources are reused');
});

test('rank through the component prints what the native CLI prints', () => {
  const queries = file('queries.jsonl', [
    { id: 1, query: 'create a pull request' },
    { id: 'two', query: 'refund the last payment to a customer' },
    { id: 3, query: '翻译文本' },
    { id: 4, query: 'zzqx' },
    { id: 5, query: 'list database tables in postgres and mysql' },
  ].map((q) => JSON.stringify(q)).join('\n') + '\n');
  const want = native(['rank', '--catalog', CATALOG_FILE, '--queries', queries, '--k', '7']);
  assert.equal(want.status, 0, want.stderr);
  assert.equal(lines(want.stdout).length, 5);
  // `toolsift rank` reads the catalog with lenient ids (its default).
  const index = new engine.Index({ tag: 'catalog', val: { json: catalog, options: '{"ids":"lenient"}' } });
  try {
    assert.equal(index.rank(readFileSync(queries, 'utf8'), 7), want.stdout);
    const bad = file('bad.jsonl', '{"id":1,"query":5}\n');
    const nativeBad = native(['rank', '--catalog', CATALOG_FILE, '--queries', bad, '--k', '3']);
    assert.equal(nativeBad.status, 1);
    assert.equal(failure(() => index.rank('{"id":1,"query":5}\n', 3)), nativeBad.stderr.trim());
  } finally {
    index[Symbol.dispose]();
  }
});

test('skill-index and a two-phase skill ranker through the component match the native CLI and the JS binding', async () => {
  const fixture = path.join(ROOT, 'tests/fixtures/skills');
  const skillsConfig = inlineCatalog(readFileSync(path.join(fixture, 'config.json'), 'utf8'),
    readFileSync(path.join(fixture, 'catalog.json'), 'utf8'));
  const prompt = native(['session', 'prompt', '--config', path.join(fixture, 'config.json')]);
  assert.equal(prompt.status, 0, prompt.stderr);
  assert.ok(prompt.stdout.length > 50, 'the fixture has a skill index');
  const s = new engine.Session(skillsConfig, undefined, 'fail');
  try {
    assert.equal(s.skillIndex(), prompt.stdout);
  } finally {
    s[Symbol.dispose]();
  }

  // A fixed skill ranker: every skill id in reverse byte order, as many as asked.
  const { load } = await import(pathToFileURL(path.join(ROOT, 'js/toolsift.js')).href);
  const ts = await load(path.join(ROOT, 'build/wasm/toolsift.wasm'));
  const skillIds = JSON.parse(skillsConfig).catalog.skills.map((k) => k.id ?? k.name).sort().reverse();
  const rank = (query, want) => skillIds.slice(0, want);
  const viaBinding = ts.createSession(JSON.parse(skillsConfig), { skillRanker: { kind: 'skills-host', rank } });
  const viaComponent = new engine.Session(skillsConfig, undefined, 'fail');
  try {
    viaComponent.setSkillRanker('skills-host');
    const searches = [[0, 0, 'skill for a database migration'], [1, 0, 'release notes'], [2, 0, 'anything at all']];
    let requests = 0;
    for (const [turn, call, query] of searches) {
      const args = JSON.stringify({ query });
      const expected = viaBinding.callJSON(turn, call, 'search_tools', { query });
      let out = viaComponent.call(turn, call, 'search_tools', args);
      for (let round = 0; JSON.parse(out).rank; round++) {
        assert.ok(round < 6, 'a few ranking rounds at most');
        const { query: q, want, of } = JSON.parse(out).rank;
        if (of === 'skills') requests++;
        out = viaComponent.ranked(JSON.stringify(of === 'skills' ? rank(q, want) : null));
      }
      assert.equal(out, expected);
    }
    assert.ok(requests >= 1, 'the skill ranker was asked');
    assert.equal(viaComponent.journal(), viaBinding.journalJSONL());
  } finally {
    viaComponent[Symbol.dispose]();
    viaBinding.free();
  }
});

test('the component and the plain module: sizes (a record, not a gate)', () => {
  const row = (f) => {
    const b = readFileSync(path.join(ROOT, f));
    return `${f}: ${b.length} bytes raw, ${gzipSync(b, { level: 9 }).length} gzip`;
  };
  console.log([row('build/component/toolsift.component.wasm'), row('build/wasm/toolsift.wasm')].join('\n'));
});
