/* fts5_bench.c — SQLite FTS5 as a native peer of toolsift (issue 23): the
 * same tools and queries as bench_native.c, through the system's libsqlite3.
 *
 *   fts5_bench DOCS.tsv MATCH.txt DB_PATH [BUILD_RUNS [LIMIT [RANKED_OUT]]]
 *
 * DOCS.tsv: one tool a line, six tab-separated fields (name, aliases, tags,
 * description, params, param_docs), already extracted from the catalog,
 * identifier-split and stopword-filtered by bench/lib/fts5.mjs: FTS5 gets
 * pre-tokenised text, toolsift parses the catalog JSON and walks the schemas
 * inside its own timed build. Row i (0-based) of DOCS.tsv is rowid i + 1.
 * MATCH.txt: one FTS5 MATCH expression a line (bench/lib/fts5.mjs: every
 * query word a quoted string, joined with OR); an empty line is a query with
 * no words (no results, not timed).
 *
 * Build (timed, BUILD_RUNS times): open an in-memory database, CREATE
 * VIRTUAL TABLE … USING fts5(… tokenize='porter unicode61 remove_diacritics
 * 2'), every row inserted with one prepared statement in one transaction,
 * then the 'optimize' command (one b-tree segment, the read-mostly layout).
 * The last build is written to DB_PATH with VACUUM INTO (not timed); its
 * size is the index size. Query: one prepared statement, ranked by bm25()
 * with toolsift's field weights (3, 2, 2, 1, 1.5, 1), ties by rowid, LIMIT.
 * Load (BUILD_RUNS times): open DB_PATH read-only, prepare, answer the first
 * query (FTS5 reads its pages lazily, so open alone says little).
 * RANKED_OUT (optional): the top rowids of every query, one line each.
 * Prints one JSON object on stdout. */
#define _POSIX_C_SOURCE 199309L
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_io.h"
#include "bench_stats.h"

/* Split text into lines in place (keeps empty lines). */
static char **lines_of(char *text, size_t len, size_t *count) {
  size_t cap = 1024, n = 0;
  char **out = malloc(cap * sizeof *out);
  for (size_t pos = 0; out && pos < len;) {
    size_t end = pos;
    while (end < len && text[end] != '\n') end++;
    text[end] = '\0';
    if (n == cap) {
      char **nb = realloc(out, (cap *= 2) * sizeof *out);
      if (!nb) {
        free(out);
        return NULL;
      }
      out = nb;
    }
    out[n++] = text + pos;
    pos = end + 1;
  }
  *count = n;
  return out;
}


static void die(sqlite3 *db, const char *what) {
  fprintf(stderr, "fts5_bench: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
  exit(1);
}

static const char *CREATE =
    "CREATE VIRTUAL TABLE t USING fts5(name, aliases, tags, description, params, param_docs,"
    " tokenize='porter unicode61 remove_diacritics 2')";
static const char *QUERY =
    "SELECT rowid FROM t WHERE t MATCH ?1 ORDER BY bm25(t, 3.0, 2.0, 2.0, 1.0, 1.5, 1.0), rowid LIMIT ?2";

__attribute__((noinline)) static sqlite3 *build(char **docs, size_t ndocs) {
  sqlite3 *db = NULL;
  sqlite3_stmt *ins = NULL;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) die(db, "open");
  if (sqlite3_exec(db, CREATE, NULL, NULL, NULL) != SQLITE_OK) die(db, "create");
  if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) die(db, "begin");
  if (sqlite3_prepare_v2(db, "INSERT INTO t(rowid, name, aliases, tags, description, params, param_docs)"
                             " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &ins, NULL) != SQLITE_OK)
    die(db, "prepare insert");
  for (size_t i = 0; i < ndocs; i++) {
    const char *p = docs[i];
    sqlite3_bind_int64(ins, 1, (sqlite3_int64)i + 1);
    for (int f = 0; f < 6; f++) {
      const char *end = strchr(p, '\t');
      int n = end ? (int)(end - p) : (int)strlen(p);
      sqlite3_bind_text(ins, f + 2, p, n, SQLITE_STATIC);
      p = end ? end + 1 : p + n;
    }
    if (sqlite3_step(ins) != SQLITE_DONE) die(db, "insert");
    sqlite3_reset(ins);
  }
  sqlite3_finalize(ins);
  if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) die(db, "commit");
  if (sqlite3_exec(db, "INSERT INTO t(t) VALUES('optimize')", NULL, NULL, NULL) != SQLITE_OK) die(db, "optimize");
  return db;
}

/* One query; returns the number of rows; rowids go to `ids` when not NULL. */
static size_t run_query(sqlite3 *db, sqlite3_stmt *q, const char *match, int limit, sqlite3_int64 *ids) {
  size_t n = 0;
  sqlite3_bind_text(q, 1, match, -1, SQLITE_STATIC);
  sqlite3_bind_int(q, 2, limit);
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    if (ids) ids[n] = sqlite3_column_int64(q, 0);
    n++;
  }
  if (rc != SQLITE_DONE) die(db, match);
  sqlite3_reset(q);
  return n;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: fts5_bench DOCS.tsv MATCH.txt DB_PATH [BUILD_RUNS [LIMIT [RANKED_OUT]]]\n");
    return 2;
  }
  const char *dbpath = argv[3];
  int runs = argc > 4 ? atoi(argv[4]) : 5;
  int limit = argc > 5 ? atoi(argv[5]) : 10;
  const char *ranked_out = argc > 6 ? argv[6] : NULL;
  if (runs < 1) runs = 1;
  if (limit < 1 || limit > 1000) limit = 10;
  size_t dlen = 0, mlen = 0, ndocs = 0, nq = 0;
  char *dtext = slurp(argv[1], &dlen);
  char *mtext = slurp(argv[2], &mlen);
  if (!dtext || !mtext) {
    fprintf(stderr, "fts5_bench: cannot read %s\n", !dtext ? argv[1] : argv[2]);
    return 1;
  }
  char **docs = lines_of(dtext, dlen, &ndocs);
  char **match = lines_of(mtext, mlen, &nq);
  if (!docs || !match) die(NULL, "lines");

  sqlite3 *db = NULL;
  double *builds = malloc((size_t)runs * sizeof *builds);
  for (int r = 0; r < runs; r++) {
    if (db) sqlite3_close(db);
    double t0 = now_ms();
    db = build(docs, ndocs);
    builds[r] = now_ms() - t0;
  }

  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(db, QUERY, -1, &q, NULL) != SQLITE_OK) die(db, "prepare query");
  double *lat = malloc((nq ? nq : 1) * sizeof *lat);
  sqlite3_int64 *ids = malloc((size_t)limit * sizeof *ids);
  size_t timed = 0, total_hits = 0;
  for (size_t i = 0; i < nq; i++)
    if (match[i][0]) run_query(db, q, match[i], limit, NULL); /* warm-up */
  for (size_t i = 0; i < nq; i++) {
    if (!match[i][0]) continue;
    double t0 = now_ms();
    total_hits += run_query(db, q, match[i], limit, NULL);
    lat[timed++] = now_ms() - t0;
  }
  if (ranked_out) {
    FILE *f = fopen(ranked_out, "w");
    if (!f) die(NULL, ranked_out);
    for (size_t i = 0; i < nq; i++) {
      size_t n = match[i][0] ? run_query(db, q, match[i], limit, ids) : 0;
      for (size_t j = 0; j < n; j++) fprintf(f, "%s%lld", j ? " " : "", (long long)ids[j]);
      fputc('\n', f);
    }
    fclose(f);
  }
  sqlite3_finalize(q);

  /* size of the built index, and the file the load step opens */
  sqlite3_int64 pages = 0, page_size = 0;
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT (SELECT page_count FROM pragma_page_count), (SELECT page_size FROM pragma_page_size)",
                         -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
    die(db, "page_count");
  pages = sqlite3_column_int64(st, 0);
  page_size = sqlite3_column_int64(st, 1);
  sqlite3_finalize(st);
  remove(dbpath);
  if (sqlite3_prepare_v2(db, "VACUUM INTO ?1", -1, &st, NULL) != SQLITE_OK) die(db, "prepare vacuum");
  sqlite3_bind_text(st, 1, dbpath, -1, SQLITE_STATIC);
  if (sqlite3_step(st) != SQLITE_DONE) die(db, "vacuum into");
  sqlite3_finalize(st);
  sqlite3_close(db);
  size_t flen = 0;
  char *file = slurp(dbpath, &flen);
  free(file);

  const char *first = NULL;
  for (size_t i = 0; i < nq && !first; i++)
    if (match[i][0]) first = match[i];
  double *loads = malloc((size_t)runs * sizeof *loads);
  for (int r = 0; r < runs; r++) {
    sqlite3 *ldb = NULL;
    sqlite3_stmt *lq = NULL;
    double t0 = now_ms();
    if (sqlite3_open_v2(dbpath, &ldb, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) die(ldb, "open db file");
    if (sqlite3_prepare_v2(ldb, QUERY, -1, &lq, NULL) != SQLITE_OK) die(ldb, "prepare query (load)");
    if (first) run_query(ldb, lq, first, limit, NULL);
    loads[r] = now_ms() - t0;
    sqlite3_finalize(lq);
    sqlite3_close(ldb);
  }

  printf("{\"sqlite\":\"%s\",\"tools\":%zu,\"queries\":%zu,\"limit\":%d,\"hits\":%zu,", sqlite3_libversion(), ndocs,
         timed, limit, total_hits);
  print_dist("build_ms", builds, (size_t)runs);
  printf(",");
  print_dist("search_ms", lat, timed);
  printf(",\"page_count\":%lld,\"page_size\":%lld,\"db_bytes\":%lld,\"file_bytes\":%zu,", (long long)pages,
         (long long)page_size, (long long)(pages * page_size), flen);
  print_dist("load_ms", loads, (size_t)runs);
  printf("}\n");
  free(builds);
  free(lat);
  free(loads);
  free(ids);
  free(docs);
  free(match);
  free(dtext);
  free(mtext);
  return 0;
}
