// Check corpus/mcp/queries.jsonl.
//   node check.mjs [--queries queries.jsonl] [--catalog ../../../shared/catalogs/all.json] [--show]
// Always: the file parses, keys are id/query/class/relevance, ids are unique and mNNNN, query texts
// are unique, classes are known, grades are integers 1..3, no_match queries are empty, and every
// non-empty judgment outside ambiguous/hard_negative has a grade 3.  When the catalog exists, every
// graded id must be one of its tool ids; when it is absent that check is skipped (with a note).
// --show prints every query with its graded tools and the first words of their descriptions, for
// reading the judgments against the catalog.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (k, d) => { const j = argv.indexOf(k); return j >= 0 ? argv[j + 1] : d; };
const queriesPath = opt('--queries', path.join(here, 'queries.jsonl'));
const catalogPath = opt('--catalog', path.join(here, '..', '..', '..', 'shared', 'catalogs', 'all.json'));
const show = argv.includes('--show');

const CLASSES = ['task', 'paraphrase', 'product_scoped', 'ambiguous', 'hard_negative', 'no_match', 'typo'];
const MAY_LACK_3 = new Set(['ambiguous', 'hard_negative']);

let tools = null;
if (fs.existsSync(catalogPath)) {
  const doc = JSON.parse(fs.readFileSync(catalogPath, 'utf8'));
  const list = Array.isArray(doc) ? doc : doc.tools;
  tools = new Map(list.map((t) => [t.id ?? t.name, t]));
} else {
  console.log(`note: ${catalogPath} not found; graded ids are not checked against the catalog`);
}

const errs = [];
const qs = [];
const seen = new Set(), seenText = new Set();
const lines = fs.readFileSync(queriesPath, 'utf8').split('\n').filter((l) => l.trim());
for (const [n, line] of lines.entries()) {
  let q;
  try { q = JSON.parse(line); } catch { errs.push(`line ${n + 1}: bad JSON`); continue; }
  const keys = Object.keys(q).sort().join(',');
  if (keys !== 'class,id,query,relevance') errs.push(`${q.id ?? 'line ' + (n + 1)}: keys ${keys}`);
  if (typeof q.id !== 'string' || !/^m\d{4}$/.test(q.id)) errs.push(`line ${n + 1}: bad id ${q.id}`);
  if (seen.has(q.id)) errs.push(`${q.id}: duplicate id`); seen.add(q.id);
  if (typeof q.query !== 'string' || !q.query.trim()) errs.push(`${q.id}: empty query`);
  const norm = String(q.query).trim().toLowerCase();
  if (seenText.has(norm)) errs.push(`${q.id}: duplicate query text "${q.query}"`); seenText.add(norm);
  if (!CLASSES.includes(q.class)) errs.push(`${q.id}: unknown class ${q.class}`);
  if (!q.relevance || typeof q.relevance !== 'object' || Array.isArray(q.relevance)) { errs.push(`${q.id}: relevance not an object`); continue; }
  for (const [id, g] of Object.entries(q.relevance)) {
    if (tools && !tools.has(id)) errs.push(`${q.id}: unknown tool ${id}`);
    if (!Number.isInteger(g) || g < 1 || g > 3) errs.push(`${q.id}: grade ${g} for ${id}`);
  }
  const grades = Object.values(q.relevance);
  if (q.class === 'no_match' && grades.length) errs.push(`${q.id}: no_match query with judgments`);
  if (grades.length && !grades.includes(3) && !MAY_LACK_3.has(q.class)) errs.push(`${q.id}: no grade-3 tool`);
  qs.push(q);
}

const by = Object.fromEntries(CLASSES.map((c) => [c, { queries: 0, empty: 0, judgments: 0, g3: 0, g2: 0, g1: 0 }]));
const judged = new Set(), servers = new Set();
for (const q of qs) {
  const c = by[q.class]; if (!c) continue;
  c.queries++; if (!Object.keys(q.relevance).length) c.empty++;
  for (const [id, g] of Object.entries(q.relevance)) { c.judgments++; c['g' + g]++; judged.add(id); servers.add(id.split('__')[0]); }
}
const tot = { queries: qs.length, empty: 0, judgments: 0, g3: 0, g2: 0, g1: 0 };
for (const c of CLASSES) for (const k of Object.keys(tot)) if (k !== 'queries') tot[k] += by[c][k];
console.log('class            queries  empty  judgments   g3   g2   g1');
for (const c of [...CLASSES, 'total']) {
  const x = c === 'total' ? tot : by[c];
  console.log(`${c.padEnd(16)} ${String(x.queries).padStart(7)} ${String(x.empty).padStart(6)} ${String(x.judgments).padStart(10)} ${String(x.g3).padStart(4)} ${String(x.g2).padStart(4)} ${String(x.g1).padStart(4)}`);
}
console.log(`distinct tools judged: ${judged.size}${tools ? ' of ' + tools.size : ''}; servers: ${servers.size}`);

if (show) {
  for (const q of qs) {
    console.log(`\n${q.id} ${q.class} | ${q.query}`);
    for (const [id, g] of Object.entries(q.relevance).sort((a, b) => b[1] - a[1])) {
      const d = tools?.get(id)?.description?.replace(/\s+/g, ' ').slice(0, 90) ?? '';
      console.log(`  [${g}] ${id}  ${d}`);
    }
  }
}

if (errs.length) { console.error('ERRORS\n  ' + errs.join('\n  ')); process.exit(1); }
console.log('OK');
