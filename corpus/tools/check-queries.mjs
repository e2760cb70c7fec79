// Check corpus/queries.jsonl against corpus/catalog.json.
//   node check-queries.mjs [--catalog ../catalog.json] [--queries ../queries.jsonl] [--review N] [--fields]
// Validates ids, grades, classes and query ids, prints counts per class, and (with --review N)
// lists for every query the top-N tools of a naive word-overlap search, marking each as judged
// (grade) or not, so that an obviously relevant but unjudged tool stands out.  --fields reports,
// for parameter_only and nested_schema queries, in which part of the grade-3 tool the query's
// words occur (name, description, top-level property names, nested schema).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (k, d) => { const j = argv.indexOf(k); return j >= 0 ? argv[j + 1] : d; };
const catalogPath = opt('--catalog', path.join(here, '..', 'catalog.json'));
const queriesPath = opt('--queries', path.join(here, '..', 'queries.jsonl'));
const review = Number(opt('--review', 0));
const fieldsReport = argv.includes('--fields');

const CLASSES = ['exact_name', 'namespaced_id', 'paraphrase', 'task_sentence', 'parameter_only', 'nested_schema', 'product_scoped', 'ambiguous', 'hard_negative', 'no_match', 'multilingual', 'morphology', 'typo'];
const MIN_PER_CLASS = 20, MIN_QUERIES = 400;

// ---------- catalog: one record per tool with its text split by part ----------
const doc = JSON.parse(fs.readFileSync(catalogPath, 'utf8'));
const tools = new Map();
for (const t of doc.tools) {
  const f = t.type === 'function' && t.function ? t.function : t;
  const id = t.id ?? f.name;
  const schema = f.parameters ?? t.input_schema ?? t.inputSchema ?? {};
  const top = [], nested = [];
  (function walk(sc, depth) {
    if (!sc || typeof sc !== 'object') return;
    if (sc.description && depth > 0) (depth === 1 ? top : nested).push(sc.description);
    for (const [k, v] of Object.entries(sc.properties || {})) { (depth === 0 ? top : nested).push(k); walk(v, depth + 1); }
    if (sc.items) walk(sc.items, Math.max(depth, 1));
    for (const k of ['anyOf', 'oneOf', 'allOf']) (sc[k] || []).forEach((v) => walk(v, Math.max(depth, 1)));
    if (sc.additionalProperties && typeof sc.additionalProperties === 'object') walk(sc.additionalProperties, depth + 1);
  })(schema, 0);
  const ann = doc.annotations?.[id] || {};
  const labels = [...(t.tags || []), ...(t.aliases || []), ...(ann.tags || []), ...(ann.aliases || [])];
  const title = t.title || t.annotations?.title || '';
  tools.set(id, { id, name: id + ' ' + title, desc: f.description || '', top: top.join(' '), nested: nested.join(' '), labels: labels.join(' ') });
}

// ---------- naive analysis (deliberately simpler than the engine's) ----------
const STOP = new Set('a an the and or but of to in on at for from by with into onto over as is are was were be been it its this that these those my our your their me us i we you he she they them his her do does did can could should would will shall may might please some any all there here what which than then so'.split(' '));
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/u;
function terms(text) {
  const out = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').normalize('NFKC').toLowerCase();
  for (const w of spaced.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    if (!w) continue;
    if (CJK.test(w)) { const cs = [...w]; if (cs.length === 1) out.push(w); for (let k = 0; k + 1 < cs.length; k++) out.push(cs[k] + cs[k + 1]); continue; }
    let x = w;
    if (x.length > 3 && x.endsWith('ies')) x = x.slice(0, -3) + 'y';
    else if (x.length > 3 && x.endsWith('s') && !x.endsWith('ss')) x = x.slice(0, -1);
    out.push(x);
  }
  return out;
}
const parts = ['name', 'desc', 'top', 'nested', 'labels'];
const tsets = new Map();
const df = new Map();
for (const t of tools.values()) {
  const per = {}; const all = new Set();
  for (const p of parts) { per[p] = new Set(terms(t[p])); per[p].forEach((x) => all.add(x)); }
  tsets.set(t.id, { per, all });
  for (const x of all) df.set(x, (df.get(x) || 0) + 1);
}
const N = tools.size;
const idf = (x) => Math.log(1 + (N - (df.get(x) || 0) + 0.5) / ((df.get(x) || 0) + 0.5));
function qterms(query) { const ts = [...new Set(terms(query))]; const kept = ts.filter((x) => !STOP.has(x)); return kept.length ? kept : ts; }
function naive(query, k) {
  const qs = qterms(query);
  const scored = [];
  for (const [id, { per, all }] of tsets) {
    let sc = 0;
    for (const x of qs) if (all.has(x)) sc += idf(x) * (per.name.has(x) ? 2 : 1);
    if (sc > 0) scored.push([id, sc]);
  }
  scored.sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1));
  return scored.slice(0, k);
}

// ---------- validation ----------
const errs = [];
const lines = fs.readFileSync(queriesPath, 'utf8').split('\n').filter((l) => l.trim());
const qs = [];
const seen = new Set(), seenText = new Set();
for (const [n, line] of lines.entries()) {
  let q;
  try { q = JSON.parse(line); } catch (e) { errs.push(`line ${n + 1}: bad JSON`); continue; }
  const keys = Object.keys(q).sort().join(',');
  if (keys !== 'class,id,query,relevance') errs.push(`${q.id ?? 'line ' + (n + 1)}: keys ${keys}`);
  if (typeof q.id !== 'string' || !/^q\d{4}$/.test(q.id)) errs.push(`line ${n + 1}: bad id ${q.id}`);
  if (seen.has(q.id)) errs.push(`${q.id}: duplicate id`); seen.add(q.id);
  if (typeof q.query !== 'string' || !q.query.trim()) errs.push(`${q.id}: empty query`);
  if (seenText.has(q.query)) errs.push(`${q.id}: duplicate query text "${q.query}"`); seenText.add(q.query);
  if (!CLASSES.includes(q.class)) errs.push(`${q.id}: unknown class ${q.class}`);
  if (!q.relevance || typeof q.relevance !== 'object' || Array.isArray(q.relevance)) { errs.push(`${q.id}: relevance not an object`); continue; }
  for (const [id, g] of Object.entries(q.relevance)) {
    if (!tools.has(id)) errs.push(`${q.id}: unknown tool ${id}`);
    if (!Number.isInteger(g) || g < 1 || g > 3) errs.push(`${q.id}: grade ${g} for ${id}`);
  }
  const grades = Object.values(q.relevance);
  if (q.class === 'no_match' && grades.length) errs.push(`${q.id}: no_match query with judgments`);
  if (grades.length && !grades.includes(3)) {
    if (q.class !== 'hard_negative' && q.class !== 'ambiguous') errs.push(`${q.id}: no grade-3 tool`);
  }
  qs.push(q);
}

// ---------- counts ----------
const byClass = Object.fromEntries(CLASSES.map((c) => [c, { queries: 0, empty: 0, judgments: 0, g3: 0, g2: 0, g1: 0 }]));
const judgedTools = new Set();
for (const q of qs) {
  const c = byClass[q.class]; if (!c) continue;
  c.queries++; if (!Object.keys(q.relevance).length) c.empty++;
  for (const [id, g] of Object.entries(q.relevance)) { c.judgments++; c['g' + g]++; judgedTools.add(id); }
}
for (const c of CLASSES) if (byClass[c].queries < MIN_PER_CLASS) errs.push(`class ${c}: only ${byClass[c].queries} queries`);
if (qs.length < MIN_QUERIES) errs.push(`only ${qs.length} queries`);
const tot = { queries: qs.length, empty: 0, judgments: 0, g3: 0, g2: 0, g1: 0 };
for (const c of CLASSES) for (const k of Object.keys(tot)) if (k !== 'queries') tot[k] += byClass[c][k];
console.log('class            queries  empty  judgments   g3   g2   g1');
for (const c of [...CLASSES, 'total']) {
  const r = c === 'total' ? tot : byClass[c];
  console.log(`${c.padEnd(16)} ${String(r.queries).padStart(7)} ${String(r.empty).padStart(6)} ${String(r.judgments).padStart(10)} ${String(r.g3).padStart(4)} ${String(r.g2).padStart(4)} ${String(r.g1).padStart(4)}`);
}
const langs = { german: /[äöüß]|\b(der|die|das|den|des|ein|eine|für|mit)\b/i, japanese: /[\u3040-\u30ff]/, chinese: /[\u4e00-\u9fff]/, korean: /[\uac00-\ud7af]/ };
const ml = qs.filter((q) => q.class === 'multilingual');
const langCounts = {};
for (const q of ml) for (const [l, re] of Object.entries(langs)) if (re.test(q.query) && !(l === 'chinese' && langs.japanese.test(q.query))) langCounts[l] = (langCounts[l] || 0) + 1;
console.log('multilingual (detected):', JSON.stringify(langCounts));
console.log(`tools judged relevant at least once: ${judgedTools.size} of ${tools.size}`);

// ---------- review: naive top-N with judgments ----------
if (review > 0) {
  let unjudgedTop = 0;
  for (const q of qs) {
    const top = naive(q.query, review);
    const marks = top.map(([id, sc]) => `${q.relevance[id] ? '[' + q.relevance[id] + ']' : '[ ]'} ${id} ${sc.toFixed(1)}`);
    const missing = Object.keys(q.relevance).filter((id) => !top.some(([t]) => t === id));
    unjudgedTop += top.filter(([id]) => !q.relevance[id]).length;
    console.log(`\n${q.id} ${q.class} | ${q.query}\n  ${marks.join('\n  ')}${missing.length ? '\n  judged, not in naive top: ' + missing.map((id) => id + '=' + q.relevance[id]).join(' ') : ''}`);
  }
  console.log(`\nunjudged tools in naive top-${review}: ${unjudgedTop}`);
}

// ---------- where do the query words hit the primary tool? ----------
if (fieldsReport) {
  for (const q of qs.filter((q) => q.class === 'parameter_only' || q.class === 'nested_schema')) {
    const qsT = qterms(q.query);
    for (const id of Object.keys(q.relevance).filter((id) => q.relevance[id] === 3)) {
      const { per } = tsets.get(id);
      const hit = {}; for (const p of parts) hit[p] = qsT.filter((x) => per[p].has(x));
      const onlySchema = qsT.filter((x) => (per.top.has(x) || per.nested.has(x)) && !per.name.has(x) && !per.desc.has(x) && !per.labels.has(x));
      const onlyNested = qsT.filter((x) => per.nested.has(x) && !per.name.has(x) && !per.desc.has(x) && !per.labels.has(x) && !per.top.has(x));
      const flag = q.class === 'parameter_only' ? (onlySchema.length ? 'ok' : 'WEAK') : (onlyNested.length ? 'ok' : 'WEAK');
      console.log(`${flag.padEnd(4)} ${q.id} ${q.class} ${id} | ${q.query} | name:${hit.name} desc:${hit.desc} top:${hit.top} nested:${hit.nested} | schema-only:${onlySchema} nested-only:${onlyNested}`);
    }
  }
}

if (errs.length) { console.error('ERRORS\n  ' + errs.join('\n  ')); process.exit(1); }
console.log('OK');
