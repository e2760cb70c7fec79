// rank-speed.mjs — `toolsift rank` throughput: 20,000 queries against 5,000
// tools, native CLI and the wasm CLI (node js/cli.js), whose outputs must be
// byte-identical. Tools: the public development catalogs (Seal-Tools,
// ToolLens, MetaTool) and our corpus when ../shared is present, else the
// corpus catalog repeated under prefixed ids; queries: the matching query
// sets cycled to 20,000. The relevance issue asks for under a minute.
// Run: node bench/rank-speed.mjs [tools] [queries]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NTOOLS = Number(process.argv[2] ?? 5000);
const NQUERIES = Number(process.argv[3] ?? 20000);
const SHARED = path.resolve(ROOT, '../shared/datasets');

const jsonl = (file) =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const corpus = JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8')).tools;
const corpusQueries = jsonl(path.join(ROOT, 'corpus/queries.jsonl')).map((q) => q.query);

const tools = [];
const texts = [];
if (existsSync(SHARED)) {
  for (const set of ['sealtools', 'toollens', 'metatool']) {
    for (const t of jsonl(path.join(SHARED, set, 'tools.jsonl'))) {
      const tool = { id: `${set}__${t.id}`, name: t.name, description: t.description };
      if (t.parameters) tool.parameters = t.parameters;
      tools.push(tool);
    }
    texts.push(...jsonl(path.join(SHARED, set, 'queries_dev.jsonl')).map((q) => q.query));
  }
} else {
  console.log('bench: ../shared/datasets not present; using corpus/ only');
}
texts.push(...corpusQueries);
for (let copy = 0; tools.length < NTOOLS; copy++)
  for (const t of corpus) {
    if (tools.length >= NTOOLS) break;
    tools.push({ ...t, id: copy ? `c${copy}_${t.id}` : t.id });
  }
tools.length = NTOOLS;

const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-rank-'));
const catalogFile = path.join(dir, 'catalog.json');
const queriesFile = path.join(dir, 'queries.jsonl');
writeFileSync(catalogFile, JSON.stringify(tools));
writeFileSync(
  queriesFile,
  Array.from({ length: NQUERIES }, (_, i) => JSON.stringify({ id: String(i), query: texts[i % texts.length] })).join('\n') + '\n',
);

function run(label, cmd, args) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  const secs = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${label}: ${r.stderr}`);
  console.log(`${label.padEnd(28)} ${secs.toFixed(2)} s  (${NQUERIES} queries x ${NTOOLS} tools, k = 10)`);
  return r.stdout;
}

const rankArgs = ['rank', '--catalog', catalogFile, '--queries', queriesFile, '--k', '10'];
const outputs = [];
const native = path.join(ROOT, 'build/native/toolsift');
if (existsSync(native)) outputs.push(run('native CLI', native, rankArgs));
outputs.push(run('wasm CLI (node js/cli.js)', process.execPath, [path.join(ROOT, 'js/cli.js'), ...rankArgs]));
if (outputs.length === 2) console.log(outputs[0] === outputs[1] ? 'outputs byte-identical' : 'OUTPUTS DIFFER');
rmSync(dir, { recursive: true, force: true });
