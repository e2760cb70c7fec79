// check.mjs — the runtime matrix's check of this example (tests/runtimes/run.mjs):
// copy the example into a project that has the packed toolsift installed,
// run build.mjs there, serve config.capnp with workerd on a free 127.0.0.1
// port, and compare its search answers (GET and POST) and /info with the
// native CLI's `search --index` / `info --index` on the same snapshot; the
// snapshot must also be byte-identical to the native `toolsift build -o`.
// Returns the number of requests compared; throws on any difference.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const QUERIES = [
  ['open a pull request', 3],
  ['refund a payment', 5],
  ['Kubernetes Pods auflisten', 2],
  ['Slack メッセージを検索', 5],
  ['xyzzy plugh', 5],
];

export async function checkEdgeWorker({ root, native, packageDir, tmp, withWorkerd, fetchWithRetry }) {
  // A project whose node_modules has the packed package: the example inside it.
  const proj = path.resolve(packageDir, '../..');
  const dir = path.join(proj, 'edge-worker');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(HERE)) {
    if (f !== 'dist' && f !== 'node_modules') cpSync(path.join(HERE, f), path.join(dir, f), { recursive: true });
  }
  const catalog = path.join(root, 'corpus/catalog.json');
  execFileSync(process.execPath, ['build.mjs', '--catalog', catalog], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

  const snap = path.join(dir, 'dist/index.tsi');
  const nativeSnap = path.join(tmp, 'edge-native.tsi');
  execFileSync(native, ['build', '--catalog', catalog, '-o', nativeSnap]);
  if (!readFileSync(snap).equals(readFileSync(nativeSnap))) {
    throw new Error('the example\'s dist/index.tsi differs from the native `toolsift build -o`');
  }
  const nativeOut = (args) => execFileSync(native, args, { encoding: 'utf8' }).replace(/\n$/, '');

  const config = readFileSync(path.join(dir, 'config.capnp'), 'utf8').replace('address = "127.0.0.1:8787"', 'address = "127.0.0.1:@PORT@"');
  return withWorkerd(dir, config, async (base, alive) => {
    let n = 0;
    const expect = (what, got, want) => {
      n++;
      if (got !== want) throw new Error(`${what}: worker answered\n  ${got.slice(0, 300)}\nnative:\n  ${want.slice(0, 300)}`);
    };
    const tool = JSON.parse(await fetchWithRetry(`${base}/`, { alive }));
    if (tool.name !== 'search_tools') throw new Error(`GET / answered ${JSON.stringify(tool)}`);
    expect('/info', await fetchWithRetry(`${base}/info`, { alive }), nativeOut(['info', '--index', snap]));
    for (const [query, limit] of QUERIES) {
      const want = nativeOut(['search', '--index', snap, '--limit', String(limit), query]);
      const q = new URLSearchParams({ query, limit: String(limit) });
      expect(`GET ${query}`, await fetchWithRetry(`${base}/search_tools?${q}`, { alive }), want);
      const res = await fetch(`${base}/search_tools`, {
        method: 'POST',
        body: JSON.stringify({ query, limit }),
        signal: AbortSignal.timeout(30_000),
      });
      expect(`POST ${query}`, await res.text(), want);
    }
    const bad = await fetch(`${base}/search_tools?limit=3`, { signal: AbortSignal.timeout(30_000) });
    if (bad.status !== 400) throw new Error(`a search without a query answered ${bad.status}`);
    return n;
  });
}
