// Memory growth failure inside the wasm module (issue 8, docs/reliability.md
// "wasm: memory growth failure"), against the module named by env
// TOOLSIFT_WASM (default build/wasm/toolsift.wasm).
//
// The rule: when linear memory cannot grow, every call of the binding throws a
// ToolsiftError with code 'nomem' (status 6) — from the core, or from the
// binding when it cannot even copy an input in — and the instance stays
// usable: the failed call left nothing behind, so retried once memory is
// available it gives the same bytes as a run that never failed, and so does
// everything after it.
//
// How: the module under test is the shipped module byte for byte except for
// the maximum its memory section declares (capMemory below), so memory.grow
// really fails inside the module's own allocator — as on a host that gives a
// module less memory. No test-only export, no other build. A "ballast" of
// live indexes fills the capped memory by steps, so the failure moves through
// every step of a workload that touches each part of the ABI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, Toolsift, ToolsiftError } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const BYTES = await readFile(WASM);
const PAGE = 65536;

// ---- the module with a smaller declared maximum --------------------------------

function readLeb(b, pos) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = b[pos.p++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return value;
}

function leb(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

// The module's bytes with its one defined memory's maximum set to
// min + extraPages (the minimum and everything else unchanged), plus the
// minimum it declares. Throws if the module does not have exactly that shape.
function capMemory(bytes, extraPages) {
  const b = Uint8Array.from(bytes);
  assert.deepEqual([...b.subarray(0, 8)], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0], 'not a wasm module');
  const pos = { p: 8 };
  while (pos.p < b.length) {
    const sectionStart = pos.p;
    const id = b[pos.p++];
    const size = readLeb(b, pos);
    const bodyStart = pos.p;
    if (id === 5) {
      assert.equal(readLeb(b, pos), 1, 'expected exactly one memory');
      const flags = b[pos.p++];
      assert.ok(flags === 0 || flags === 1, `memory limits flags ${flags}`);
      const min = readLeb(b, pos);
      if (flags & 1) readLeb(b, pos);
      assert.equal(pos.p, bodyStart + size, 'memory section has trailing bytes');
      const body = [1, 1, ...leb(min), ...leb(min + extraPages)];
      const section = [5, ...leb(body.length), ...body];
      const out = new Uint8Array(b.length - (pos.p - sectionStart) + section.length);
      out.set(b.subarray(0, sectionStart), 0);
      out.set(section, sectionStart);
      out.set(b.subarray(pos.p), sectionStart + section.length);
      return { bytes: out, min };
    }
    pos.p = bodyStart + size;
  }
  throw new Error(`${WASM}: no memory section (an imported memory cannot be capped this way)`);
}

function isNomem(e) {
  return e instanceof ToolsiftError && e.code === 'nomem' && e.status === 6;
}

// ---- inputs ------------------------------------------------------------------------

// A deterministic catalog of n tools with schemas, tags and some remote ones.
const WORDS = ['issue', 'repo', 'mail', 'send', 'calendar', 'event', 'file', 'upload', 'weather', 'city',
  'invoice', 'payment', 'ticket', 'comment', 'user', 'search', 'list', 'delete', 'create', 'update'];
function catalog(n, prefix = 'ns') {
  const tools = [];
  for (let i = 0; i < n; i++) {
    const w = (k) => WORDS[(i * 7 + k * 3) % WORDS.length];
    tools.push({
      id: `${prefix}__${w(0)}_${w(1)}_${i}`,
      name: `${w(0)}_${w(1)}_${i}`,
      description: `${w(2)} the ${w(3)} of a ${w(4)} and ${w(5)} it ${i}`,
      tags: [w(6), w(7)],
      ...(i % 5 === 0 ? { origin: 'remote' } : {}),
      inputSchema: {
        type: 'object',
        properties: { [w(8)]: { type: 'string', description: `the ${w(9)}` }, limit: { type: 'integer' } },
      },
    });
  }
  return tools;
}

const CATALOG = catalog(240);
const QUERIES = ['create issue', 'send mail to user', 'weather in a city', 'upload file', 'invoice payment',
  'delete comment ticket'];
const RANK_BATCH = QUERIES.map((q, i) => JSON.stringify({ id: i, query: q })).join('\n') + '\n';
const CONFIG = {
  loop: 'mem',
  tools: [{ name: 'reply', description: 'Reply to the user' }],
  catalog: CATALOG,
  search: { maxPerSearch: 4, maxLoaded: 12 },
};
// The CLI's path (js/cli.js): the configuration names a catalog file, whose
// bytes the session is opened over, and a calls file read line by line.
const FILE_CONFIG = Buffer.from(JSON.stringify({ ...CONFIG, catalog: 'catalog.json' }));
const CATALOG_FILE = Buffer.from(JSON.stringify({ tools: CATALOG }));
const CALLS_FILE = Buffer.from(QUERIES.map((q, i) =>
  JSON.stringify({ turn: i, call: 0, tool: 'search_tools', args: { query: q } })).join('\n') + '\nnot a call\n');
// One step, so a failed run can be run again as it is: a fresh session, a
// NOMEM on any line thrown (the CLI reports it and goes on).
function sessionFromFiles(ts) {
  const name = ts._sessionConfigCatalog(FILE_CONFIG);
  const s = ts._openSession(FILE_CONFIG, CATALOG_FILE);
  try {
    const lines = s._callLines(CALLS_FILE);
    const nomem = lines.find((l) => l.error && l.error.code === 'nomem');
    if (nomem) throw nomem.error;
    const text = lines.map((l) => (l.bytes ? Buffer.from(l.bytes).toString() : l.error.message));
    return [name, ...text, s.journalJSONL()].join('\n');
  } finally {
    s.free();
  }
}
// A deterministic host ranker: ids whose name holds the query's first word.
const rankerFor = () => ({
  kind: 'mem-1',
  rank(query, want) {
    const first = query.split(/\s+/)[0];
    return CATALOG.map((t) => t.id).filter((id) => id.includes(first)).slice(0, want);
  },
});
const hex = (u8) => Buffer.from(u8).toString('hex');

// The workload: steps run in order over a shared state; each returns the
// bytes (as a string) it produced. A step is one call of the binding (or
// calls that only read), so a step that failed can be run again as it is.
// It touches index build, search, rank batches, info, documents, snapshot
// write and load, sessions with the built-in and a host ranker, journals,
// replay, finish, the CLI's session from files and eval.
const STEPS = [
  ['createIndex', (ts, st) => { st.index = ts.createIndex(CATALOG); return 'created'; }],
  ['info', (ts, st) => st.index.infoJSON()],
  ['search', (ts, st) => QUERIES.map((q) => st.index.searchJSON(q, { limit: 8 })).join('\n')],
  ['search explain', (ts, st) => st.index.searchJSON('create a new issue in the repo', { limit: 3, explain: true })],
  ['rank', (ts, st) => st.index.rank(RANK_BATCH, 5)],
  ['documents', (ts, st) => st.index.documentsJSON()],
  ['snapshot', (ts, st) => { st.snap = st.index.snapshot(); return hex(st.snap); }],
  ['indexFromSnapshot', (ts, st) => { st.loaded = ts.indexFromSnapshot(st.snap); return 'created'; }],
  ['search the loaded index', (ts, st) => st.loaded.searchJSON('send mail')],
  ['createSession', (ts, st) => { st.session = ts.createSession(CONFIG); return 'created'; }],
  ['menu', (ts, st) => st.session.menuJSON('openai')],
  ...QUERIES.map((q, i) => [`session call ${i}`, (ts, st) => st.session.callJSON(i, 0, 'search_tools', { query: q })]),
  ['menu + journal', (ts, st) => {
    st.journal = st.session.journalJSONL();
    return st.session.menuJSON('anthropic') + st.journal + st.session.metricsJSON();
  }],
  ['ranker session', (ts, st) => { st.ranked = ts.createSession(CONFIG, { ranker: rankerFor() }); return 'created'; }],
  ...[0, 1, 2].map((i) => [`ranker call ${i}`,
    (ts, st) => st.ranked.callJSON(i, 0, 'search_tools', { query: QUERIES[i] })]),
  ['replay session', (ts, st) => { st.replay = ts.createSession(CONFIG, { journal: st.journal }); return 'created'; }],
  ...QUERIES.map((q, i) => [`replay call ${i}`, (ts, st) => st.replay.callJSON(i, 0, 'search_tools', { query: q })]),
  ['finish', (ts, st) => st.replay.finishJSON()],
  ['session from files (the CLI)', (ts) => sessionFromFiles(ts)],
  ['eval', (ts) => ts.evalJSON(JSON.stringify(CATALOG.slice(0, 60)),
    '{"id":"q1","query":"create issue","relevance":{"ns__create_issue_0":3}}\n')],
];

function freeState(st) {
  for (const k of ['index', 'loaded', 'session', 'ranked', 'replay']) st[k]?.free();
}

async function reference() {
  const ts = await load(BYTES);
  const st = {};
  const out = STEPS.map(([, fn]) => fn(ts, st));
  freeState(st);
  return out;
}

// ---- tests -------------------------------------------------------------------------

test('capMemory keeps the module valid and only lowers the maximum', async () => {
  const { bytes, min } = capMemory(BYTES, 3);
  const ts = await load(bytes);
  assert.equal(ts.memory.buffer.byteLength, min * PAGE);
  assert.equal(ts.memory.grow(3), min, 'the host may grow up to the new maximum');
  assert.throws(() => ts.memory.grow(1), RangeError, 'and no further');
});

test('an input the capped memory cannot hold is NOMEM from the binding; the instance stays usable', async () => {
  const ref = await reference();
  const { bytes } = capMemory(BYTES, 64); // 4 MiB above the initial memory
  const ts = await load(bytes);
  const huge = 'x'.repeat((await load(BYTES)).memory.buffer.byteLength + 64 * PAGE);
  for (let i = 0; i < 3; i++) {
    assert.throws(() => ts.createIndex(huge), (e) => isNomem(e) && /cannot allocate \d+ bytes/.test(e.message));
    assert.throws(() => ts.analyze(huge), isNomem);
  }
  const st = {};
  assert.deepEqual(STEPS.map(([, fn]) => fn(ts, st)), ref);
  freeState(st);
});

// The sweep: before each step of the workload, fill the capped memory to the
// last byte — live "ballast" indexes (large, then middle-sized, then
// one-tool ones), then raw tsift_wasm_alloc buffers from 64 KiB down to 8
// bytes — so the step cannot allocate; it must throw NOMEM. Then free
// ballast one piece at a time (smallest first) and run the step again after
// each: every attempt either throws NOMEM or gives the reference bytes, and
// once it succeeds, the step and everything after it match a run that never
// failed. The free bytes of the empty instance are measured before and
// after: a leak on any failure path would lower them. (This found B12: a host-ranked search whose ranking failed
// for lack of memory stayed pending, and the session answered every later
// call with a 'state' error.)
test('memory growth failure at every step is NOMEM, changes nothing, and the instance stays usable', async () => {
  const ref = await reference();
  // Cap: what the workload grew the memory to, plus 2 MiB.
  const probe = await load(BYTES);
  const before = probe.memory.buffer.byteLength / PAGE;
  {
    const st = {};
    STEPS.forEach(([, fn]) => fn(probe, st));
    freeState(st);
  }
  const grown = probe.memory.buffer.byteLength / PAGE - before;
  const { bytes } = capMemory(BYTES, grown + 32);
  // Instantiated here rather than by load(), to keep the exports: the last
  // bytes are filled with raw tsift_wasm_alloc buffers (the ABI's own
  // allocator export). Function imports (Emscripten's memory growth
  // notification) are no-ops, as in load().
  const module = await WebAssembly.compile(bytes);
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) (imports[imp.module] ??= {})[imp.name] = () => 0;
  const { exports: ex } = await WebAssembly.instantiate(module, imports);
  if (typeof ex._initialize === 'function') ex._initialize();
  const ts = new Toolsift(ex);

  const SIZES = [JSON.stringify(catalog(400, 'big')), JSON.stringify(catalog(20, 'mid')),
    JSON.stringify([{ name: 'b' }])];
  // Fill memory: as many indexes of each size as fit, largest first, then
  // raw buffers of 64 KiB down to 8 bytes until not even 8 bytes fit.
  const fill = () => {
    const held = SIZES.map(() => []);
    SIZES.forEach((json, i) => {
      try {
        for (;;) held[i].push(ts.createIndex(json));
      } catch (e) {
        assert.ok(isNomem(e), `ballast: ${e}`);
      }
    });
    const raw = [];
    for (let size = 65536; size >= 8; size /= 2) {
      for (let p; (p = ex.tsift_wasm_alloc(size)) !== 0;) raw.push({ free: () => ex.tsift_wasm_free(p) });
    }
    held.push(raw);
    return held;
  };
  const release = (held) => {
    for (let i = held.length - 1; i >= 0; i--) {
      if (held[i].length) {
        held[i].pop().free();
        return true;
      }
    }
    return false;
  };
  const count = (held) => held.map((h) => h.length);
  // The bytes the allocator hands out in raw buffers (4 MiB down to 8 bytes)
  // when nothing else is allocated. Freed chunks coalesce, so a leak of any
  // size on any path shows as fewer bytes.
  const freeBytes = () => {
    const ptrs = [];
    let total = 0;
    for (let size = 1 << 22; size >= 8; size /= 2) {
      for (let p; (p = ex.tsift_wasm_alloc(size)) !== 0;) {
        ptrs.push(p);
        total += size;
      }
    }
    for (const p of ptrs) ex.tsift_wasm_free(p);
    return total;
  };
  const freeAll = (held) => held.forEach((h) => h.forEach((ix) => ix.free()));

  const cap0 = fill();
  const capacity0 = count(cap0);
  freeAll(cap0);
  const free0 = freeBytes();
  assert.ok(capacity0[0] >= 2, `only ${capacity0} ballast indexes fit`);

  const failedAt = {};
  let failures = 0;
  const st = {};
  STEPS.forEach(([name, fn], k) => {
    const held = fill();
    let failed = 0;
    for (;;) {
      let got;
      try {
        got = fn(ts, st);
      } catch (e) {
        assert.ok(isNomem(e), `step ${name}: expected NOMEM, got ${e?.stack ?? e}`);
        failed++;
        assert.ok(release(held), `step ${name}: NOMEM with all ballast freed`);
        continue;
      }
      assert.equal(got, ref[k], `step ${name} (after ${failed} NOMEM): output differs`);
      break;
    }
    failedAt[name] = failed;
    failures += failed;
    freeAll(held);
  });
  freeState(st);
  const cap1 = fill();
  const capacity1 = count(cap1);
  freeAll(cap1);
  const free1 = freeBytes();
  console.log(`wasm memory sweep (${path.basename(WASM)}): cap +${grown + 32} pages; ballast ` +
    `[400-tool, 20-tool, 1-tool indexes, raw buffers] that fit: ${capacity0} before, ${capacity1} after; ` +
    `free bytes before ${free0}, after ${free1}; ` +
    `NOMEM failures before each step succeeded: ${JSON.stringify(failedAt)}`);
  // Every step allocates, so with memory full every step failed at least once.
  for (const [name] of STEPS) assert.ok(failedAt[name] > 0, `step ${name} never failed`);
  // Nothing leaked: every byte is free again.
  assert.equal(free1, free0, `${free0 - free1} bytes fewer free after the sweep: memory leaked`);
});
