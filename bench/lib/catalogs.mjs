// catalogs.mjs — the catalogs and query sets of the benchmark.
import { existsSync, readFileSync } from 'node:fs';
import { synthCatalog, synthQueries } from './synth.mjs';

export const ROOT = new URL('../../', import.meta.url);
export const SHARED = new URL('../shared/', ROOT); // ../shared relative to the repository
export const REAL = new URL('catalogs/all.json', SHARED);
// The public sets: ../shared/datasets, else datasets/ as `npm run datasets` writes it.
export const DATASETS = existsSync(new URL('datasets/', SHARED)) || !existsSync(new URL('datasets/', ROOT))
  ? new URL('datasets/', SHARED)
  : new URL('datasets/', ROOT);

const jsonl = (text) => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** Queries for the real catalog: our corpus and the dev sets' query texts, interleaved, deduplicated. */
function realQueries(count) {
  const lists = [jsonl(readFileSync(new URL('corpus/queries.jsonl', ROOT), 'utf8')).map((q) => q.query)];
  for (const set of ['toollens', 'metatool', 'sealtools']) {
    const f = new URL(`${set}/queries_dev.jsonl`, DATASETS);
    if (existsSync(f)) lists.push(jsonl(readFileSync(f, 'utf8')).map((q) => q.query));
  }
  const out = [];
  const seen = new Set();
  for (let i = 0; out.length < count && lists.some((l) => i < l.length); i++)
    for (const l of lists) if (i < l.length && !seen.has(l[i]) && out.length < count) {
      seen.add(l[i]);
      out.push(l[i]);
    }
  return out;
}

/**
 * A catalog by key: "real" (../shared/catalogs/all.json; null when absent)
 * or "synth-N". Returns { key, label, tools, text, catalog, queries }.
 */
export function loadCatalog(key, nqueries = 2000) {
  if (key === 'real') {
    if (!existsSync(REAL)) return null;
    const text = readFileSync(REAL, 'utf8');
    const catalog = JSON.parse(text);
    const tools = Array.isArray(catalog) ? catalog.length : catalog.tools.length;
    return { key, label: `real (${tools.toLocaleString('en')} tools, all.json)`, tools, text, catalog, queries: realQueries(nqueries) };
  }
  const m = /^synth-(\d+)$/.exec(key);
  if (!m) throw new Error(`unknown catalog ${key}`);
  const n = Number(m[1]);
  const cat = synthCatalog(n);
  const catalog = { tools: cat.tools };
  return { key, label: `synthetic ${n >= 1000 ? `${n / 1000}k` : n}`, tools: n, text: JSON.stringify(catalog), catalog, queries: synthQueries(cat, nqueries) };
}

/**
 * Relevance sets: our corpus, then the public dev sets when ../shared is
 * present. Each: { name, text (catalog JSON for toolsift), catalog, queries }.
 */
export function relevanceSets() {
  const sets = [];
  const ctext = readFileSync(new URL('corpus/catalog.json', ROOT), 'utf8');
  sets.push({ name: 'corpus', text: ctext, catalog: JSON.parse(ctext), queries: jsonl(readFileSync(new URL('corpus/queries.jsonl', ROOT), 'utf8')) });
  for (const set of ['toollens', 'metatool', 'sealtools']) {
    const t = new URL(`${set}/tools.jsonl`, DATASETS);
    const q = new URL(`${set}/queries_dev.jsonl`, DATASETS);
    if (!existsSync(t) || !existsSync(q)) continue;
    const tools = jsonl(readFileSync(t, 'utf8'));
    sets.push({ name: set, text: JSON.stringify(tools), catalog: tools, queries: jsonl(readFileSync(q, 'utf8')), queriesText: readFileSync(q, 'utf8') });
  }
  return sets;
}
