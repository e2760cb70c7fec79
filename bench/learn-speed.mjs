// learn-speed.mjs — `toolsift learn` over many journals of a 2,000-tool
// catalog (issue 32: 10,000 journals in at most 10 s natively), native CLI
// beside the wasm CLI (node js/cli.js); the learned files must be
// byte-identical. Not part of npm test.
//
// The journals are real: one session per journal over the real MCP catalog
// (../shared/catalogs/all.json, the tools with model-facing ids), made
// through the binding from an index snapshot, as the gateway makes them:
// the agent searches a graded request of corpus/mcp/queries.jsonl, loads
// its best tool with select: when the search did not, and calls it; 500
// clients take turns. They are written once to build/bench-data/learn-N/
// and reused.
//
// Run: node bench/learn-speed.mjs [journals] [repeats]   (default 10000 3)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { load } from '../js/toolsift.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const N = Number(process.argv[2] ?? 10000);
const REPEATS = Number(process.argv[3] ?? 3);
const NATIVE = process.env.TOOLSIFT_NATIVE ?? path.join(ROOT, 'build/native/toolsift');
const CATALOG = path.join(ROOT, '../shared/catalogs/all.json');
if (!existsSync(CATALOG)) {
  console.log('SKIP: learn-speed: ../shared/catalogs/all.json is not present');
  process.exit(0);
}

const STRICT = /^[A-Za-z0-9_.:-]{1,128}$/;
const all = JSON.parse(readFileSync(CATALOG, 'utf8'));
const tools = (Array.isArray(all) ? all : all.tools).filter((t) => STRICT.test(t.id ?? t.name));
const ids = new Set(tools.map((t) => t.id ?? t.name));
const queries = readFileSync(path.join(ROOT, 'corpus/mcp/queries.jsonl'), 'utf8')
  .split('\n').filter(Boolean).map((l) => JSON.parse(l))
  .filter((q) => Object.keys(q.relevance).some((id) => ids.has(id)));

const DIR = path.join(ROOT, `build/bench-data/learn-${N}`);
const JOURNALS = path.join(DIR, 'journals');
const CAT = path.join(DIR, 'catalog.json');
mkdirSync(JOURNALS, { recursive: true });
writeFileSync(CAT, JSON.stringify({ tools }));

const ts = await load();
if (readdirSync(JOURNALS).length !== N) {
  const t0 = performance.now();
  const index = ts.createIndex({ tools });
  const snapshot = index.snapshot();
  index.free();
  for (let i = 0; i < N; i++) {
    const q = queries[i % queries.length];
    const grades = Object.entries(q.relevance).filter(([id]) => ids.has(id));
    const best = grades.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    const s = ts.createSession({ loop: 'b', search: { overview: false } }, { snapshot, client: `user-${i % 500}` });
    const out = s.call(0, 0, 'search_tools', { query: q.query });
    const hit = out.result.tools?.find((t) => t.name === best);
    if (!hit?.loaded) s.call(1, 0, 'search_tools', { query: `select:${best}` });
    s.call(2, 0, best, {});
    writeFileSync(path.join(JOURNALS, `${String(i).padStart(6, '0')}.jsonl`), s.journalJSONL());
    s.free();
  }
  console.log(`wrote ${N} journals in ${((performance.now() - t0) / 1000).toFixed(1)} s to ${JOURNALS}`);
}
let bytes = 0;
for (const f of readdirSync(JOURNALS)) bytes += readFileSync(path.join(JOURNALS, f)).length;

function run(cmd, args) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'buffer', maxBuffer: 1 << 30 });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return { s, out: r.stdout };
}
const args = ['learn', '--catalog', CAT, '--journals', JOURNALS];
const native = [], wasm = [];
let nativeOut, wasmOut;
for (let r = 0; r < REPEATS; r++) {
  const a = run(NATIVE, args);
  const b = run(process.execPath, [path.join(ROOT, 'js/cli.js'), ...args]);
  native.push(a.s);
  wasm.push(b.s);
  nativeOut = a.out;
  wasmOut = b.out;
}
const same = Buffer.compare(nativeOut, wasmOut) === 0;
const learned = JSON.parse(nativeOut.toString('utf8'));
const labels = Object.values(learned.annotations).reduce((n, e) => n + (e.aliases?.length ?? 0) + (e.tags?.length ?? 0), 0);
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(`${N} journals (${(bytes / 1e6).toFixed(1)} MB) of ${tools.length} tools: ` +
  `native ${med(native).toFixed(2)} s, wasm CLI ${med(wasm).toFixed(2)} s (median of ${REPEATS}); ` +
  `${labels} labels for ${Object.keys(learned.annotations).length} tools; ` +
  `${learned.learned.sessions} sessions, ${learned.learned.clients} clients; native = wasm: ${same ? 'yes' : 'NO'}`);
if (!same) process.exit(1);
