// fts5.mjs — SQLite FTS5 as a peer (issue 23): the text it indexes, the
// MATCH expressions it is asked, and the one SQL schema and query both FTS5
// rows use (natively: bench/native/fts5_bench.c; in wasm: the sqlite-fts5
// adapter in engines.mjs, @sqlite.org/sqlite-wasm).
//
// FTS5 gets pre-extracted, pre-tokenised text: the six toolsift fields of
// catalogDocs (fields.mjs: schema walk, identifier splitting) lowercased with
// the shared English stopwords taken out, one space between words. toolsift
// parses the catalog JSON and walks the schemas inside its own timed build;
// the FTS5 build times only what SQLite does with that text.
//
// Tokeniser: 'porter unicode61 remove_diacritics 2' (FTS5's Porter stemmer
// over its Unicode 6.1 word splitter with diacritics folded); FTS5 has no
// stopword list of its own, hence the filtering above (queries too). Ranking:
// bm25() with toolsift's field weights, ties by rowid. Queries: every word a
// double-quoted FTS5 string (inner quotes doubled), joined with OR, so no
// user text is ever parsed as FTS5 query syntax (NEAR, AND, column filters,
// `*`, `^`, `:`, parentheses) and no query raises a syntax error.
//
// The persisted index and its load (fts5Pack / fts5Unpack / fts5Open /
// fts5Search) live here too, with no Node API, so that the sqlite-fts5
// adapter and the workerd cold-start Worker (bench/cold-start/) run the same
// code.
import { BOOSTS, FIELDS, STOPWORDS, catalogDocs, words } from './fields.mjs';

export const TOKENIZE = 'porter unicode61 remove_diacritics 2';
export const CREATE_SQL = `CREATE VIRTUAL TABLE t USING fts5(${FIELDS.join(', ')}, tokenize='${TOKENIZE}')`;
export const WEIGHTS = FIELDS.map((f) => BOOSTS[f]);
export const QUERY_SQL = `SELECT rowid FROM t WHERE t MATCH ?1 ORDER BY bm25(t, ${WEIGHTS.map((w) => w.toFixed(1)).join(', ')}), rowid LIMIT ?2`;
export const INSERT_SQL = `INSERT INTO t(rowid, ${FIELDS.join(', ')}) VALUES (?1, ${FIELDS.map((_, i) => `?${i + 2}`).join(', ')})`;

const clean = (s) => words(s).filter((w) => !STOPWORDS.has(w)).join(' ');

/** The FTS5 rows of a catalog: { ids: [id…], rows: [[six field strings]…] } (rowid = index + 1). */
export function fts5Rows(catalog, mask) {
  const docs = catalogDocs(catalog, mask);
  return { ids: docs.map((d) => d.id), rows: docs.map((d) => FIELDS.map((f) => clean(d[f]))) };
}

/** DOCS.tsv for the native driver: six tab-separated fields a line. */
export function fts5Tsv(rows) {
  return rows.map((r) => r.join('\t')).join('\n') + '\n';
}

/** A query as an FTS5 MATCH expression ("a" OR "b" …); '' when no word is left. */
export function fts5Match(query) {
  const seen = new Set();
  const terms = [];
  for (const w of words(query)) {
    if (STOPWORDS.has(w) || seen.has(w)) continue;
    seen.add(w);
    terms.push(`"${w.replace(/"/g, '""')}"`);
  }
  return terms.join(' OR ');
}

/**
 * The native FTS5 driver (build/native/bench/native/fts5_bench) on one
 * catalog: writes DIR/NAME.fts5.tsv, NAME.fts5.match.txt and NAME.fts5.db;
 * returns its JSON (build_ms, search_ms, db_bytes, load_ms …) with `ranked`
 * (ids per query, when asked) or { error }.
 */
export function nativeFts5(bin, dir, name, { catalog, mask, queries, runs = 5, k = 10, ranked = false, spawnSync, writeFileSync, readFileSync, timeout }) {
  const { ids, rows } = fts5Rows(catalog, mask);
  const p = (ext) => new URL(`${name}.fts5.${ext}`, dir).pathname;
  writeFileSync(p('tsv'), fts5Tsv(rows));
  writeFileSync(p('match.txt'), queries.map(fts5Match).join('\n') + '\n');
  const args = [p('tsv'), p('match.txt'), p('db'), String(runs), String(k)];
  if (ranked) args.push(p('ranked.txt'));
  const r = spawnSync(bin, args, { encoding: 'utf8', timeout, maxBuffer: 1 << 20 });
  if (r.status !== 0) return { error: (r.stderr || String(r.error)).trim().split('\n').pop() };
  const out = JSON.parse(r.stdout);
  if (ranked) {
    const lines = readFileSync(p('ranked.txt'), 'utf8').split('\n');
    out.ranked = queries.map((_, i) => (lines[i] ? lines[i].split(' ').map((x) => ids[Number(x) - 1]) : []));
  }
  return out;
}

/**
 * The persisted FTS5 index: the byte length of the ids JSON (u32 little-endian),
 * the ids JSON (rowid i + 1 is ids[i]), then the database image
 * (sqlite3_js_db_export). The ids travel with the image because a search
 * answers tool ids, as toolsift's snapshot does.
 */
export function fts5Pack(ids, image) {
  const idsText = new TextEncoder().encode(JSON.stringify(ids));
  const out = new Uint8Array(4 + idsText.length + image.length);
  new DataView(out.buffer).setUint32(0, idsText.length, true);
  out.set(idsText, 4);
  out.set(image, 4 + idsText.length);
  return out;
}

/** fts5Pack's bytes back: { ids, image } (image is a view into blob). */
export function fts5Unpack(blob) {
  const n = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(0, true);
  return { ids: JSON.parse(new TextDecoder().decode(blob.subarray(4, 4 + n))), image: blob.subarray(4 + n) };
}

/**
 * Open a database image in @sqlite.org/sqlite-wasm (`sqlite3`, the
 * initialised namespace) read-only in memory, the query prepared: the state
 * fts5Search reads. sqlite3_deserialize takes a copy in wasm memory and frees
 * it on close; FTS5 then reads its pages lazily, so the first query is part
 * of a load.
 */
export function fts5Open(sqlite3, image, ids) {
  const { capi, wasm, oo1 } = sqlite3;
  const db = new oo1.DB(':memory:');
  const p = wasm.allocFromTypedArray(image);
  const rc = capi.sqlite3_deserialize(db.pointer, 'main', p, image.length, image.length, capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_READONLY);
  if (rc) {
    db.close();
    throw new Error(`sqlite3_deserialize: ${capi.sqlite3_js_rc_str?.(rc) ?? rc}`);
  }
  return { db, ids, q: db.prepare(QUERY_SQL) };
}

/** The top-k tool ids of a query over an fts5Open (or built) state, best first. */
export function fts5Search(s, query, k) {
  const m = fts5Match(query);
  if (!m) return [];
  const out = [];
  s.q.bind([m, k]);
  while (s.q.step()) out.push(s.ids[s.q.getInt(0) - 1]);
  s.q.reset();
  return out;
}

/** Close an fts5Open (or built) state. */
export function fts5Close(s) {
  s.q.finalize();
  s.db.close();
}
