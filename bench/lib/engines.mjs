// engines.mjs — one adapter per engine, all with the same shape:
//
//   build(input)        -> state   input: { text, catalog, mask }  (timed as "build")
//   search(state, q, k) -> ids     top-k tool ids, best first        (timed as "query")
//   serialize(state)    -> string | Uint8Array                       (the persisted index)
//   load(blob)          -> state                                     (timed as "load")
//   free(state)
//
// toolsift builds from the catalog JSON text (its C core parses it, walks the
// schemas and applies the trust policy inside the timed build). Each peer gets
// the parsed catalog and turns it into six plain-text fields (catalogDocs)
// inside its timed build, splitting identifiers; queries get the same
// splitting inside the timed search. Every peer is asked for the top k with
// OR semantics over the query words (natural-language queries), the
// toolsift field boosts, English stopwords and stemming where the engine has
// them. `config` documents each choice; docs/performance.md repeats them.
import { readFileSync } from 'node:fs';
import { BOOSTS, FIELDS, STOPWORDS, catalogDocs, splitIdent, words } from './fields.mjs';

const NODE_MODULES = new URL('../../node_modules/', import.meta.url);
const version = (pkg) => JSON.parse(readFileSync(new URL(`${pkg}/package.json`, NODE_MODULES), 'utf8')).version;

// Porter2 stemmer and stopword-free tokens for the engines without their own.
let stem = null;
async function stemmer() {
  if (!stem) stem = (await import('wink-nlp-utils')).default.string.stem;
  return stem;
}
function analyzer(st) {
  return (text) => {
    const out = [];
    for (const w of words(text)) if (!STOPWORDS.has(w)) out.push(st(w));
    return out;
  };
}

export async function toolsiftEngine(wasm) {
  const { load } = await import('../../js/toolsift.js');
  const ts = await load(wasm);
  return {
    name: 'toolsift',
    version: JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
    config: 'defaults (BM25F k1/b per field, weights name 3, aliases 2, tags 2, description 1, params 1.5, param_docs 1; built-in stopwords, plural fold, camelCase/snake_case splitting); ids "lenient"; search via Index#search (JSON across the wasm boundary, JSON.parse in JS)',
    ts,
    build: (input) => ts.createIndex(input.text, { ids: 'lenient' }),
    search: (ix, q, k) => ix.search(q, { limit: k }).hits.map((h) => h.id),
    serialize: (ix) => ix.snapshot(),
    load: (blob) => ts.indexFromSnapshot(blob),
    free: (ix) => ix.free(),
    memory: () => ts.memory.buffer.byteLength,
    bundle: `export { load } from ${JSON.stringify(new URL('../../js/toolsift.js', import.meta.url).pathname)};`,
  };
}

export async function minisearchEngine() {
  const MiniSearch = (await import('minisearch')).default;
  const st = await stemmer();
  const options = {
    idField: 'id',
    fields: FIELDS,
    tokenize: (text) => words(text),
    processTerm: (t) => (STOPWORDS.has(t) ? null : st(t)),
    searchOptions: { boost: BOOSTS, combineWith: 'OR', prefix: false, fuzzy: false },
  };
  return {
    name: 'minisearch',
    version: version('minisearch'),
    config: 'fields = the six toolsift fields, boost = the toolsift weights, combineWith OR, no prefix or fuzzy matching (measured on corpus / MetaTool: prefix 0.788 / 0.547 and fuzzy 0.2 0.793 / 0.549 vs 0.791 / 0.561 without); tokenize = identifier split + lowercase; processTerm = stopwords out + Porter2 stem (wink-nlp-utils); serialised with JSON.stringify, loaded with MiniSearch.loadJSON',
    build: (input) => {
      const ms = new MiniSearch(options);
      ms.addAll(catalogDocs(input.catalog, input.mask));
      return ms;
    },
    search: (ms, q, k) => ms.search(q).slice(0, k).map((r) => r.id),
    serialize: (ms) => JSON.stringify(ms),
    load: (blob) => MiniSearch.loadJSON(blob, options),
    free: () => {},
    bundle: `export { default } from 'minisearch';`,
  };
}

export async function oramaEngine() {
  const { create, insertMultiple, search, save, load } = await import('@orama/orama');
  const schema = Object.fromEntries(FIELDS.map((f) => [f, 'string']));
  const make = () =>
    create({ schema, components: { tokenizer: { stemming: true, language: 'english', stopWords: [...STOPWORDS] } } });
  const run = (db, q, k) => {
    const r = search(db, { term: splitIdent(q), properties: FIELDS, boost: BOOSTS, limit: k, threshold: 1 });
    if (typeof r?.then === 'function') throw new Error('orama search went async');
    return r.hits.map((h) => h.document.id);
  };
  return {
    name: 'orama',
    version: version('@orama/orama'),
    config: 'schema = the six fields as string, boost = the toolsift weights, threshold 1 (OR), tokenizer with its English stemmer and our stopword list; identifier split before indexing and on the query; serialised with save() + JSON.stringify, loaded with load() into a fresh create()',
    build: (input) => {
      const db = make();
      const docs = catalogDocs(input.catalog, input.mask);
      const r = insertMultiple(db, docs, docs.length + 1);
      if (typeof r?.then === 'function') throw new Error('orama insert went async');
      return db;
    },
    search: run,
    serialize: (db) => JSON.stringify(save(db)),
    load: (blob) => {
      const db = make();
      load(db, JSON.parse(blob));
      return db;
    },
    free: () => {},
    bundle: `export { create, insertMultiple, search, save, load } from '@orama/orama';`,
  };
}

export async function flexsearchEngine() {
  const { Document } = await import('flexsearch');
  const st = await stemmer();
  const encode = analyzer(st);
  const make = () =>
    new Document({
      document: { id: 'id', index: FIELDS.map((field) => ({ field, tokenize: 'strict', encode })) },
      cache: false,
    });
  // Field boosts: search each field for the top candidates (suggest = OR over
  // words), then combine the field rank lists with the boosts, rank-weighted.
  const search = (doc, q, k) => {
    const scores = new Map();
    const res = doc.search(splitIdent(q), { limit: 50, suggest: true });
    for (const r of res) {
      const w = BOOSTS[r.field] ?? 1;
      r.result.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + w / (i + 1)));
    }
    return [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k).map((x) => x[0]);
  };
  return {
    name: 'flexsearch',
    version: version('flexsearch'),
    config: 'Document index over the six fields, tokenize "strict", encode = identifier split + lowercase + stopwords out + Porter2 stem; search with suggest (OR), top 50 per field, fields merged by boost/rank (FlexSearch has no BM25 score to add); serialised with export(), loaded with import()',
    build: (input) => {
      const doc = make();
      for (const d of catalogDocs(input.catalog, input.mask)) doc.add(d);
      return doc;
    },
    search,
    serialize: (doc) => {
      const parts = {};
      doc.export((key, data) => {
        parts[key] = data;
      });
      return JSON.stringify(parts);
    },
    load: (blob) => {
      const doc = make();
      for (const [key, data] of Object.entries(JSON.parse(blob))) doc.import(key, data);
      return doc;
    },
    free: () => {},
    bundle: `export { Document } from 'flexsearch';`,
  };
}

export async function lunrEngine() {
  const lunr = (await import('lunr')).default;
  return {
    name: 'lunr',
    version: version('lunr'),
    config: 'fields with boost = the toolsift weights, ref id, its default pipeline (trimmer, stopword filter, Porter stemmer); identifier split before indexing and on the query; the query built term by term (every word optional, so OR) instead of the query-string parser, which throws on ":" "~" "^"; serialised with JSON.stringify, loaded with lunr.Index.load',
    build: (input) => {
      const docs = catalogDocs(input.catalog, input.mask);
      return lunr(function () {
        this.ref('id');
        for (const f of FIELDS) this.field(f, { boost: BOOSTS[f] });
        for (const d of docs) this.add(d);
      });
    },
    search: (idx, q, k) => {
      const toks = lunr.tokenizer(splitIdent(q).toLowerCase());
      return idx
        .query((query) => {
          for (const t of toks) query.term(t.toString(), { presence: lunr.Query.presence.OPTIONAL });
        })
        .slice(0, k)
        .map((r) => r.ref);
    },
    serialize: (idx) => JSON.stringify(idx),
    load: (blob) => lunr.Index.load(JSON.parse(blob)),
    free: () => {},
    bundle: `export { default } from 'lunr';`,
  };
}

export async function winkEngine() {
  const bm25 = (await import('wink-bm25-text-search')).default;
  const nlp = (await import('wink-nlp-utils')).default;
  const prep = [
    (s) => splitIdent(s),
    nlp.string.lowerCase,
    nlp.string.tokenize0,
    nlp.tokens.removeWords,
    nlp.tokens.stem,
  ];
  const weights = Object.fromEntries(FIELDS.map((f) => [f, BOOSTS[f]]));
  return {
    name: 'wink-bm25',
    version: version('wink-bm25-text-search'),
    config: 'fldWeights = the toolsift weights, bm25Params k1 1.2 b 0.75, prep tasks = identifier split, lowerCase, tokenize0, removeWords (its stopwords), stem (Porter2); serialised with exportJSON, loaded with importJSON + the same prep tasks',
    build: (input) => {
      const e = bm25();
      e.defineConfig({ fldWeights: weights, bm25Params: { k1: 1.2, b: 0.75, k: 1 } });
      e.definePrepTasks(prep);
      const docs = catalogDocs(input.catalog, input.mask);
      docs.forEach((d, i) => e.addDoc(d, i));
      e.consolidate();
      e.ids = docs.map((d) => d.id);
      return e;
    },
    search: (e, q, k) => e.search(q, k).map(([i]) => e.ids[i]),
    serialize: (e) => JSON.stringify({ engine: e.exportJSON(), ids: e.ids }),
    load: (blob) => {
      const { engine, ids } = JSON.parse(blob);
      const e = bm25();
      e.importJSON(engine);
      e.definePrepTasks(prep);
      e.ids = ids;
      return e;
    },
    free: () => {},
    bundle: `export { default } from 'wink-bm25-text-search';`,
  };
}

export async function fuseEngine() {
  const Fuse = (await import('fuse.js')).default;
  const st = await stemmer();
  const tokenize = analyzer(st);
  const keys = FIELDS.map((f) => ({ name: f, weight: BOOSTS[f] }));
  const options = { keys, useTokenSearch: true, tokenMatch: 'any', tokenize, ignoreLocation: true, threshold: 0.4, includeScore: false };
  return {
    name: 'fuse.js',
    version: version('fuse.js'),
    maxTools: 500,
    config: 'keys = the six fields weighted as toolsift, useTokenSearch (TF-IDF token scoring) with tokenMatch "any", tokenize = identifier split + lowercase + stopwords out + Porter2 stem, ignoreLocation, threshold 0.4; serialised with the FuseIndex toJSON, loaded with Fuse.parseIndex; small lists only (≤ 500 tools: about 0.7 s per query at 1,000 tools on the bench machine)',
    build: (input) => {
      const docs = catalogDocs(input.catalog, input.mask);
      return new Fuse(docs, options, Fuse.createIndex(keys, docs, { tokenize }));
    },
    search: (f, q, k) => f.search(q, { limit: k }).map((r) => r.item.id),
    serialize: (f) => JSON.stringify({ index: f.getIndex().toJSON(), docs: f._docs }),
    load: (blob) => {
      const { index, docs } = JSON.parse(blob);
      return new Fuse(docs, options, Fuse.parseIndex(index, { tokenize }));
    },
    free: () => {},
    bundle: `export { default } from 'fuse.js';`,
  };
}

export async function fts5Engine() {
  const init = (await import('@sqlite.org/sqlite-wasm')).default;
  const { CREATE_SQL, INSERT_SQL, QUERY_SQL, TOKENIZE, fts5Close, fts5Open, fts5Pack, fts5Rows, fts5Search, fts5Unpack } = await import('./fts5.mjs');
  const sqlite3 = await init({ print: () => {}, printErr: () => {} });
  const { capi, oo1 } = sqlite3;
  if (!capi.sqlite3_compileoption_used('ENABLE_FTS5')) throw new Error('this sqlite-wasm build has no FTS5');
  return {
    name: 'sqlite-fts5',
    version: `${version('@sqlite.org/sqlite-wasm')} (SQLite ${sqlite3.version.libVersion}, wasm)`,
    config: `SQLite FTS5 in wasm (@sqlite.org/sqlite-wasm, in-memory database): fts5(the six fields, tokenize='${TOKENIZE}'), rows inserted with one prepared statement in one transaction, then 'optimize'; ranked by bm25() with the toolsift weights, ties by rowid; every query word a quoted FTS5 string joined with OR (no FTS5 syntax errors possible). It gets pre-extracted text (the fields of the others' catalogDocs, lowercased, stopwords out: bench/lib/fts5.mjs) built in JS inside the timed build; serialised with sqlite3_js_db_export (the database image, = page_count × page_size), loaded with sqlite3_deserialize + the first query (FTS5 reads pages lazily)`,
    build: (input) => {
      const { ids, rows } = fts5Rows(input.catalog, input.mask);
      const db = new oo1.DB(':memory:');
      db.exec(CREATE_SQL);
      db.exec('BEGIN');
      const ins = db.prepare(INSERT_SQL);
      for (let i = 0; i < rows.length; i++) {
        ins.bind([i + 1, ...rows[i]]);
        ins.step();
        ins.reset();
      }
      ins.finalize();
      db.exec('COMMIT');
      db.exec("INSERT INTO t(t) VALUES('optimize')");
      return { db, ids, q: db.prepare(QUERY_SQL) };
    },
    search: fts5Search,
    serialize: (s) => fts5Pack(s.ids, capi.sqlite3_js_db_export(s.db)),
    load: (blob) => {
      const { ids, image } = fts5Unpack(blob);
      const s = fts5Open(sqlite3, image, ids);
      fts5Search(s, 'search files', K_FIRST);
      return s;
    },
    free: fts5Close,
    wasmFile: new URL('@sqlite.org/sqlite-wasm/dist/sqlite3.wasm', NODE_MODULES),
    bundle: `export { default } from '@sqlite.org/sqlite-wasm';`,
  };
}
const K_FIRST = 10;

/** Not an engine: the Porter2 stemmer / prep tasks the peer configs above import (bundle size only). */
export const EXTRA_BUNDLES = { 'wink-nlp-utils (stemmer and prep tasks used by the minisearch, flexsearch, fuse.js and wink configs)': `export { default } from 'wink-nlp-utils';` };

export const PEERS = [minisearchEngine, oramaEngine, flexsearchEngine, lunrEngine, winkEngine, fuseEngine, fts5Engine];

/** Every engine that loads; `missing` collects the ones whose package is absent. */
export async function allEngines(wasm, missing = []) {
  const list = [await toolsiftEngine(wasm)];
  for (const make of PEERS) {
    try {
      list.push(await make());
    } catch (e) {
      missing.push({ engine: make.name.replace(/Engine$/, ''), error: String(e?.message ?? e).split('\n')[0] });
    }
  }
  return list;
}
