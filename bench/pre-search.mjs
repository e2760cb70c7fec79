// pre-search.mjs — what pre-search loads per user message (issue 33): the
// loop table of Session#preSearch over the graded requests of the bundled
// corpus (corpus/queries.jsonl, 418 tools) and of the real MCP catalog
// (corpus/mcp/queries.jsonl over ../shared/catalogs/all.json, 2,032 tools;
// skipped when absent). One fresh session per message, as a first turn.
//
// Each request is measured as written and wrapped the way people write to
// an assistant ("Hi! Could you help me with this: <request> Thanks!"), to
// see what the chatter around a request costs.
//
// Columns: messages; loaded per message; precision (loaded tools that are
// relevant); primary loaded (answerable messages where a best-graded tool
// was loaded); junk per message (irrelevant tools loaded); clean misses
// (messages that should match nothing and loaded nothing).
//
// Run: node bench/pre-search.mjs   (docs/sessions.md, "Pre-search", has the table)
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../js/toolsift.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ts = await load(path.join(ROOT, 'build/wasm/toolsift.wasm'));
const readJsonl = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const WRAP = (q) => `Hi! Could you help me with this: ${q} Thanks!`;

function measure(name, catalog, queries, wrap) {
  const index = ts.createIndex(catalog);
  const snapshot = index.snapshot();
  const catalogId = new Map(Object.entries(index.info().menuNames ?? {}).map(([id, menu]) => [menu, id]));
  index.free();
  const rows = new Map();
  const row = (cls) => {
    if (!rows.has(cls)) rows.set(cls, { messages: 0, loaded: 0, relevant: 0, answerable: 0, primary: 0, empty: 0, clean: 0 });
    return rows.get(cls);
  };
  for (const q of queries) {
    const session = ts.createSession({ loop: 'pre', search: process.env.PRE_LIMIT ? { preSearchLimit: Number(process.env.PRE_LIMIT) } : {} }, { snapshot });
    const out = session.preSearch(0, wrap ? WRAP(q.query) : q.query);
    session.free();
    const loaded = out.result.tools.filter((t) => t.loaded).map((t) => catalogId.get(t.name) ?? t.name);
    const grades = Object.values(q.relevance);
    const top = grades.length ? Math.max(...grades) : 0;
    for (const r of [row('overall'), row(q.class)]) {
      r.messages++;
      r.loaded += loaded.length;
      r.relevant += loaded.filter((id) => (q.relevance[id] ?? 0) > 0).length;
      if (top > 0) {
        r.answerable++;
        if (loaded.some((id) => q.relevance[id] === top)) r.primary++;
      } else {
        r.empty++;
        if (loaded.length === 0) r.clean++;
      }
    }
  }
  const f = (x) => x.toFixed(3);
  console.log(`\n${name}${wrap ? ' (wrapped: "Hi! Could you help me with this: … Thanks!")' : ''}`);
  console.log('| class | messages | loaded/message | precision | primary loaded | junk/message | clean misses |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [cls, r] of rows) {
    console.log(`| ${cls} | ${r.messages} | ${f(r.loaded / r.messages)} | ${r.loaded ? f(r.relevant / r.loaded) : '–'} | ` +
      `${r.answerable ? f(r.primary / r.answerable) : '–'} | ${f((r.loaded - r.relevant) / r.messages)} | ` +
      `${r.empty ? f(r.clean / r.empty) : '–'} |`);
  }
}

const corpus = JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8'));
const corpusQueries = readJsonl(path.join(ROOT, 'corpus/queries.jsonl'));
for (const wrap of [false, true]) measure('corpus (418 tools, 557 requests)', corpus, corpusQueries, wrap);
const ALL = path.join(ROOT, '../shared/catalogs/all.json');
if (existsSync(ALL)) {
  const all = JSON.parse(readFileSync(ALL, 'utf8'));
  const mcpQueries = readJsonl(path.join(ROOT, 'corpus/mcp/queries.jsonl'));
  for (const wrap of [false, true]) measure('corpus/mcp (all.json, 2,032 tools, 223 requests)', { tools: Array.isArray(all) ? all : all.tools }, mcpQueries, wrap);
} else {
  console.log('SKIP: pre-search over corpus/mcp: ../shared/catalogs/all.json is not present');
}
