// repeated-tools.mjs — the catalog the vector benchmarks search
// (vector-speed.mjs, model-speed.mjs): the development sets' tools
// (../shared/datasets, as rank-speed.mjs takes them) and the corpus,
// repeated under prefixed ids up to n tools; and the query texts of the
// corpus and the development sets. Without ../shared/datasets, the corpus
// alone (repeated), saying so.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHARED = path.resolve(ROOT, '../shared/datasets');

const jsonl = (file) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** { tools, texts }: n tools, and every query text (newlines made spaces); `who` names the benchmark in a SKIP line. */
export function repeatedTools(n, who) {
  const base = [];
  const texts = jsonl(path.join(ROOT, 'corpus/queries.jsonl')).map((q) => q.query);
  if (existsSync(SHARED)) {
    for (const set of ['sealtools', 'toollens', 'metatool']) {
      for (const t of jsonl(path.join(SHARED, set, 'tools.jsonl')))
        base.push({ id: `${set}__${t.id}`, name: t.name, description: t.description, parameters: t.parameters });
      texts.push(...jsonl(path.join(SHARED, set, 'queries_dev.jsonl')).map((q) => q.query));
    }
  } else {
    console.log(`SKIP: ${who}: ../shared/datasets not present; the corpus catalog only`);
  }
  base.push(...JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8')).tools);
  const tools = [];
  for (let copy = 0; tools.length < n; copy++)
    for (const t of base) {
      if (tools.length >= n) break;
      const id = t.id ?? t.name ?? t.function?.name ?? t.toolSpec?.name; // the catalog's forms (SPEC S1)
      tools.push({ ...t, id: copy ? `c${copy}_${id}` : id });
    }
  return { tools, texts: texts.map((q) => q.replace(/\n/g, ' ')) };
}
