/* test_vectors.c — vectors in the index (vectors.c), similarity and fusion
 * (vector_rank.c, fusion.c), explain's semantic part, the grade, snapshots
 * with vectors, sessions with a query vector (the recorded ranker kind, a
 * replay without vectors), the host's texts and callbacks, and allocation
 * failures on the way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/checksum.h"
#include "fail_alloc.h"
#include "harness.h"
#include "index/index.h"
#include "toolsift.h"
#include "rank/vector_rank.h"
#include "index/vectors.h"

#define NT 60
#define DIM 64

/* A fixed pseudo-random stream (LCG), in [-1, 1). */
static unsigned long g_seed;
static double next_unit(void) {
  g_seed = g_seed * 6364136223846793005ul + 1442695040888963407ul;
  return (double)(g_seed >> 11) / 4503599627370496.0 - 1.0;
}

static float g_vec[NT][DIM];

static void make_vectors(unsigned long seed) {
  g_seed = seed;
  for (int t = 0; t < NT; t++)
    for (int i = 0; i < DIM; i++) g_vec[t][i] = (float)next_unit();
}

/* NT tools "tool_<t>" ("Handle the <word> records"), with embeddings when asked. */
static char *catalog(int with_embeddings, int remote_last) {
  static const char *words[] = {"invoice", "ticket", "pager", "repository", "refund", "calendar"};
  size_t cap = (size_t)NT * (DIM * 16 + 200), len = 0;
  char *s = malloc(cap);
  len += (size_t)sprintf(s + len, "{\"tools\":[");
  for (int t = 0; t < NT; t++) {
    len += (size_t)sprintf(s + len, "%s{\"name\":\"tool_%d\",\"description\":\"Handle the %s records\"", t ? "," : "",
                           t, words[t % 6]);
    if (remote_last && t == NT - 1) len += (size_t)sprintf(s + len, ",\"origin\":\"remote\"");
    if (with_embeddings && !(remote_last && t == NT - 1)) {
      len += (size_t)sprintf(s + len, ",\"embedding\":[");
      for (int i = 0; i < DIM; i++) len += (size_t)sprintf(s + len, "%s%.6f", i ? "," : "", g_vec[t][i]);
      len += (size_t)sprintf(s + len, "]");
    }
    len += (size_t)sprintf(s + len, "}");
  }
  sprintf(s + len, "]}");
  return s;
}

/* Search options {"limit":L,"explain":E,"vector":[v]} (v NULL: none). */
static char *options(int limit, int explain, const float *v) {
  char *s = malloc(DIM * 16 + 100);
  size_t len = (size_t)sprintf(s, "{\"limit\":%d,\"explain\":%s", limit, explain ? "true" : "false");
  if (v) {
    len += (size_t)sprintf(s + len, ",\"vector\":[");
    for (int i = 0; i < DIM; i++) len += (size_t)sprintf(s + len, "%s%.6f", i ? "," : "", v[i]);
    len += (size_t)sprintf(s + len, "]");
  }
  sprintf(s + len, "}");
  return s;
}

static tsift_index *build(const char *cat, const char *opts, tsift_error *err) {
  tsift_index *ix = NULL;
  tsift_index_build(cat, strlen(cat), opts, opts ? strlen(opts) : 0, &ix, err);
  return ix;
}

static char *search(const tsift_index *ix, const char *q, const char *opts, tsift_status *st) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  *st = tsift_index_search_json(ix, q, strlen(q), opts, opts ? strlen(opts) : 0, &out, &len, &err);
  if (*st) fprintf(stderr, "search: %s\n", err.message);
  return out;
}

/* ---- quantisation ----------------------------------------------------- */

static void test_quantize_rule(void) {
  const double x[2] = {3.0, 4.0};
  int8_t q[2];
  double s = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_vec_quantize(x, 2, q, &s, "v", &err), TSIFT_OK);
  /* unit: (0.6, 0.8); scale 0.8 / 127; 0.6 / s = 95.25 -> 95 */
  CHECK_EQ_INT(q[0], 95);
  CHECK_EQ_INT(q[1], 127);
  CHECK(s == (4.0 / 5.0) / 127.0);
  const double half[2] = {-1.0, 0.5 * 1.0 / 127.0 * 1.0000001}; /* a tiny second component rounds to 0 */
  CHECK_EQ_INT(tsift_vec_quantize(half, 2, q, &s, "v", &err), TSIFT_OK);
  CHECK_EQ_INT(q[0], -127);
  CHECK_EQ_INT(q[1], 1); /* 0.5000001 rounds away from zero */
  const double zero[3] = {0, 0, 0};
  CHECK_EQ_INT(tsift_vec_quantize(zero, 3, q, &s, "tools[0]", &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "zero vector");
  double nan[2] = {1.0, 0.0};
  nan[1] = nan[1] / nan[1];
  CHECK_EQ_INT(tsift_vec_quantize(nan, 2, q, &s, "tools[0]", &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "tools[0][1]: not a finite number");
}

/* ---- the catalog's embeddings: every bad one names its tool ------------ */

static void expect_build_error(const char *cat, tsift_status want, const char *needle) {
  tsift_error err;
  tsift_index *ix = build(cat, NULL, &err);
  CHECK(ix == NULL);
  CHECK_EQ_INT(err.status, want);
  CHECK_CONTAINS(err.message, needle);
  tsift_index_free(ix);
}

static void test_catalog_errors(void) {
  expect_build_error("[{\"name\":\"a\",\"embedding\":[1,0]},{\"name\":\"b\",\"embedding\":[1,0,0]}]", TSIFT_E_CONFIG,
                     "tools[1] (\"b\"): field \"embedding\": 3 components, but tools[0] has 2");
  expect_build_error("[{\"name\":\"a\",\"embedding\":[0,0]}]", TSIFT_E_CONFIG, "tools[0] (\"a\"): field \"embedding\": a zero vector");
  expect_build_error("[{\"name\":\"a\",\"embedding\":[]}]", TSIFT_E_CONFIG, "at least one component");
  expect_build_error("[{\"name\":\"a\",\"embedding\":[1,\"x\"]}]", TSIFT_E_CONFIG, "\"embedding\"[1]: expected a number");
  expect_build_error("[{\"name\":\"a\",\"embedding\":{}}]", TSIFT_E_CONFIG, "expected an array of numbers or a base64");
  expect_build_error("[{\"name\":\"a\",\"embedding\":\"AAA*\"}]", TSIFT_E_CONFIG, "expected base64 of float32");
  /* base64 of a NaN (0x7fc00000) and of 1.0f */
  expect_build_error("[{\"name\":\"a\",\"embedding\":\"AADAfwAAgD8=\"}]", TSIFT_E_CONFIG, "[0]: not a finite number");
  expect_build_error("[{\"name\":\"a\",\"embedding\":[1]},{\"name\":\"b\"}]", TSIFT_E_CONFIG,
                     "tools[1] (\"b\"): field \"embedding\": missing, but tools[0] has one");
  expect_build_error("[{\"name\":\"a\",\"embedding\":[1]},{\"name\":\"r\",\"origin\":\"remote\",\"embedding\":[1]}]",
                     TSIFT_E_CONFIG, "tools[1] (\"r\"): field \"embedding\": a remote tool's own embedding is not used");
  expect_build_error("[{\"name\":\"a\",\"tainted\":true,\"embedding\":[1]}]", TSIFT_E_CONFIG, "a tainted tool's own");
  /* more than 4096 components */
  size_t cap = 4200 * 2 + 64;
  char *big = malloc(cap);
  size_t n = (size_t)sprintf(big, "[{\"name\":\"a\",\"embedding\":[");
  for (int i = 0; i < 4097; i++) n += (size_t)sprintf(big + n, "%s1", i ? "," : "");
  sprintf(big + n, "]}]");
  expect_build_error(big, TSIFT_E_LIMIT, "more than 4096");
  free(big);
}

/* ---- search ----------------------------------------------------------- */

static void test_no_vector_is_unchanged(void) {
  make_vectors(7);
  char *plain = catalog(0, 1), *with = catalog(1, 1);
  tsift_error err;
  tsift_index *a = build(plain, NULL, &err), *b = build(with, NULL, &err);
  CHECK(a && b);
  if (a && b) {
    tsift_status st;
    const char *queries[] = {"handle the refund records", "tool_3", "pager", ""};
    for (int i = 0; i < 4; i++) {
      char *x = search(a, queries[i], "{\"limit\":20,\"explain\":true}", &st);
      char *y = search(b, queries[i], "{\"limit\":20,\"explain\":true}", &st);
      CHECK(x && y && strcmp(x, y) == 0);
      tsift_free(x);
      tsift_free(y);
    }
    char *ia = NULL, *ib = NULL;
    size_t la, lb;
    tsift_index_info_json(a, &ia, &la, &err);
    tsift_index_info_json(b, &ib, &lb, &err);
    CHECK_CONTAINS(ib, ",\"vectors\":{\"model\":\"catalog\",\"dim\":64}}");
    CHECK(strstr(ia, "vectors") == NULL);
    tsift_free(ia);
    tsift_free(ib);
  }
  tsift_index_free(a);
  tsift_index_free(b);
  free(plain);
  free(with);
}

static void test_fusion(void) {
  make_vectors(11);
  char *cat = catalog(1, 1);
  tsift_error err;
  tsift_index *ix = build(cat, "{\"model\":\"test-64\"}", &err);
  CHECK(ix != NULL);
  if (!ix) {
    free(cat);
    return;
  }
  tsift_status st;
  /* the query vector is tool_7's ("ticket"): a query that shares no word with it */
  char *o = options(5, 1, g_vec[7]);
  char *r = search(ix, "handle the refund records", o, &st);
  CHECK_CONTAINS(r, "\"ranker\":\"bm25f-6+vec:test-64\"");
  CHECK_CONTAINS(r, "\"hits\":[{\"id\":\"tool_7\"");
  CHECK_CONTAINS(r, "\"semantic\":{\"similarity\":");
  CHECK_CONTAINS(r, "\"rank\":1,");
  /* tool_7 matches only "handle" and "records", which every tool has: its
   * semantic part is weight x evidence, and it is what lifts it */
  const char *sem = strstr(r ? r : "", "\"evidence\":");
  const char *ssc = sem ? strstr(sem, "\"score\":") : NULL;
  CHECK(sem && ssc);
  if (sem && ssc) {
    double evidence = atof(sem + 11), part = atof(ssc + 8);
    CHECK_NEAR(part, 2.0 * evidence, 2e-6);
    CHECK(evidence > 1.0);
  }
  tsift_free(r);
  /* exact names stay first */
  r = search(ix, "tool_3", o, &st);
  CHECK_CONTAINS(r, "\"hits\":[{\"id\":\"tool_3\"");
  CHECK_CONTAINS(r, "\"exact\":true");
  tsift_free(r);
  free(o);
  /* a random query vector changes nothing but the ranker and explain */
  float rnd[DIM];
  g_seed = 99;
  for (int i = 0; i < DIM; i++) rnd[i] = (float)next_unit();
  char *ov = options(10, 0, rnd), *plain = NULL;
  r = search(ix, "handle the refund records", ov, &st);
  plain = search(ix, "handle the refund records", "{\"limit\":10}", &st);
  const char *h1 = strstr(r ? r : "", "\"hits\":"), *h2 = strstr(plain ? plain : "", "\"hits\":");
  CHECK(h1 && h2 && strcmp(h1, h2) == 0);
  if (h1 && h2 && strcmp(h1, h2)) fprintf(stderr, "random:\n%.3000s\nplain:\n%.3000s\n", h1, h2);
  tsift_free(r);
  tsift_free(plain);
  free(ov);
  /* query vector errors */
  r = search(ix, "x", "{\"vector\":[1,2]}", &st);
  CHECK_EQ_INT(st, TSIFT_E_ARG);
  CHECK(r == NULL);
  char *out = NULL;
  size_t len;
  CHECK_EQ_INT(tsift_index_search_json(ix, "x", 1, "{\"vector\":[1,2]}", 16, &out, &len, &err), TSIFT_E_ARG);
  CHECK_CONTAINS(err.message, "\"vector\": 2 components, but the index's vectors have 64");
  CHECK_EQ_INT(tsift_index_search_json(ix, "x", 1, "{\"minSimilarity\":0.5}", 21, &out, &len, &err), TSIFT_E_ARG);
  CHECK_CONTAINS(err.message, "needs a \"vector\"");
  tsift_index_free(ix);
  free(cat);
  /* an index without vectors refuses a query vector */
  tsift_index *plain_ix = build("[{\"name\":\"a\"}]", NULL, &err);
  CHECK_EQ_INT(tsift_index_search_json(plain_ix, "x", 1, "{\"vector\":[1]}", 14, &out, &len, &err), TSIFT_E_ARG);
  CHECK_CONTAINS(err.message, "the index has no vectors");
  tsift_index_free(plain_ix);
}

/* The grade: a close semantic hit is strong; with minSimilarity above every
 * hit's similarity nothing is. */
static void test_grade(void) {
  make_vectors(11);
  char *cat = catalog(1, 1);
  tsift_error err;
  tsift_index *ix = build(cat, NULL, &err);
  tsift_status st;
  char *o = options(3, 0, g_vec[7]);
  char *r = search(ix, "something unrelated entirely", o, &st);
  CHECK_CONTAINS(r, "\"hits\":[{\"id\":\"tool_7\"");
  CHECK_CONTAINS(r, "\"match\":\"strong\"");
  tsift_free(r);
  o[strlen(o) - 1] = 0;
  char with_floor[DIM * 16 + 160];
  snprintf(with_floor, sizeof with_floor, "%s,\"minSimilarity\":1}", o);
  r = search(ix, "handle the ticket records", with_floor, &st);
  CHECK(r && strstr(r, "\"match\":\"strong\"") == NULL);
  tsift_free(r);
  free(o);
  tsift_index_free(ix);
  free(cat);
}

/* ---- snapshots -------------------------------------------------------- */

static void test_snapshot_round_trip(void) {
  make_vectors(5);
  char *cat = catalog(1, 1);
  tsift_error err;
  tsift_index *ix = build(cat, "{\"model\":\"snap-64\"}", &err), *back = NULL;
  char *blob = NULL;
  size_t len = 0;
  CHECK_EQ_INT(tsift_index_snapshot(ix, &blob, &len, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_from_snapshot(blob, len, &back, &err), TSIFT_OK);
  if (back) {
    tsift_status st;
    char *o = options(10, 1, g_vec[2]);
    char *x = search(ix, "handle the pager records", o, &st), *y = search(back, "handle the pager records", o, &st);
    CHECK(x && y && strcmp(x, y) == 0);
    CHECK_CONTAINS(y, "bm25f-6+vec:snap-64");
    tsift_free(x);
    tsift_free(y);
    free(o);
    CHECK_EQ_INT(tsift_index_verify(back, &err), TSIFT_OK);
  }
  tsift_index_free(back);
  /* a component of -128 (quantisation never makes one) with a valid checksum */
  char *bad = malloc(len);
  memcpy(bad, blob, len);
  bad[len - 8 - 1] = (char)0x80;
  uint64_t sum = tsift_checksum64(bad, len - 8);
  for (int i = 0; i < 8; i++) bad[len - 8 + i] = (char)(sum >> (8 * i));
  back = NULL;
  CHECK_EQ_INT(tsift_index_from_snapshot(bad, len, &back, &err), TSIFT_E_SNAPSHOT);
  CHECK_CONTAINS(err.message, "bad vector for tool");
  /* a cut vectors section */
  memcpy(bad, blob, len);
  CHECK_EQ_INT(tsift_index_from_snapshot(bad, len - 9, &back, &err), TSIFT_E_SNAPSHOT);
  free(bad);
  tsift_free(blob);
  tsift_index_free(ix);
  free(cat);
}

/* ---- the host's vectors and texts ------------------------------------- */

static int embed_calls;
static int embed_by_name(void *user, const char *text, size_t len, uint32_t dim, float *out) {
  (void)user;
  embed_calls++;
  int t = atoi(text + 5); /* "tool_<t>…" */
  if (len < 6 || t < 0 || t >= NT) return 1;
  memcpy(out, g_vec[t], dim * sizeof *out);
  return 0;
}

static void test_host_vectors(void) {
  make_vectors(3);
  char *cat = catalog(0, 1);
  tsift_error err;
  tsift_index *ix = build(cat, NULL, &err);
  char *texts = NULL;
  size_t len;
  CHECK_EQ_INT(tsift_index_embed_texts_json(ix, &texts, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(texts, "{\"id\":\"tool_0\",\"trust\":\"first-party\",\"text\":\"tool_0\\nHandle the invoice records\"}");
  /* the remote tool's description does not reach the model */
  CHECK_CONTAINS(texts, "{\"id\":\"tool_59\",\"trust\":\"remote\",\"text\":\"tool_59\"}");
  tsift_free(texts);
  CHECK_EQ_INT(tsift_index_embed(ix, "host-64", 7, DIM, embed_by_name, NULL, &err), TSIFT_OK);
  CHECK_EQ_INT(embed_calls, NT);
  tsift_status st;
  char *o = options(1, 0, g_vec[4]);
  char *r = search(ix, "unrelated words here", o, &st);
  CHECK_CONTAINS(r, "\"ranker\":\"bm25f-6+vec:host-64\"");
  CHECK_CONTAINS(r, "\"hits\":[{\"id\":\"tool_4\"");
  tsift_free(r);
  free(o);
  float rows[NT][DIM];
  memcpy(rows, g_vec, sizeof rows);
  rows[9][0] = rows[9][0] / 0.0f;
  CHECK_EQ_INT(tsift_index_set_vectors(ix, "m", 1, DIM, &rows[0][0], NT, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "row 9 (tool \"tool_9\")");
  CHECK_EQ_INT(tsift_index_set_vectors(ix, "bad model", 9, DIM, &rows[0][0], NT, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_index_set_vectors(ix, "m", 1, DIM, &rows[0][0], NT - 1, &err), TSIFT_E_ARG);
  tsift_index_free(ix);
  free(cat);
}

/* ---- sessions: the recorded kind, a replay without vectors ------------- */

static char *session_config(const char *cat) {
  char *s = malloc(strlen(cat) + 200);
  sprintf(s, "{\"loop\":\"agent\",\"tools\":[],\"catalog\":%s,\"search\":{\"maxPerSearch\":3}}", cat);
  return s;
}

static void test_session(void) {
  make_vectors(13);
  char *with = catalog(1, 0), *plain = catalog(0, 0);
  char *cw = session_config(with), *cp = session_config(plain);
  tsift_session *s = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_new(cw, strlen(cw), NULL, 0, NULL, 0, &s, &err), TSIFT_OK);
  if (!s) return;
  CHECK_EQ_INT(tsift_session_set_query_vector(s, g_vec[5], DIM, -2.0, &err), TSIFT_OK);
  char *out = NULL, *journal = NULL;
  size_t len, jlen;
  const char *args = "{\"query\":\"nothing lexical here\"}";
  CHECK_EQ_INT(tsift_session_call(s, 0, 0, "search_tools", 12, args, strlen(args), &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"ranker\":\"bm25f-6+vec:catalog\"");
  CHECK_CONTAINS(out, "tool_5");
  char *live = out;
  /* the vector was for that search only */
  const char *args2 = "{\"query\":\"handle the calendar records\"}";
  CHECK_EQ_INT(tsift_session_call(s, 1, 0, "search_tools", 12, args2, strlen(args2), &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"ranker\":\"bm25f-6\"");
  tsift_free(out);
  CHECK_EQ_INT(tsift_session_journal_jsonl(s, &journal, &jlen, &err), TSIFT_OK);
  tsift_session_free(s);
  /* the wrong dimension */
  CHECK_EQ_INT(tsift_session_new(cw, strlen(cw), NULL, 0, NULL, 0, &s, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_set_query_vector(s, g_vec[5], 3, -2.0, &err), TSIFT_E_ARG);
  tsift_session_free(s);
  /* replay over the catalog without embeddings: neither vectors nor model */
  s = NULL;
  CHECK_EQ_INT(tsift_session_new(cp, strlen(cp), journal, jlen, NULL, 0, &s, &err), TSIFT_OK);
  if (s) {
    CHECK_EQ_INT(tsift_session_call(s, 0, 0, "search_tools", 12, args, strlen(args), &out, &len, &err), TSIFT_OK);
    const char *a = strstr(live, "\"result\":"), *b = strstr(out ? out : "", "\"result\":");
    CHECK(a && b && strncmp(a, b, (size_t)(strstr(a, ",\"decision\":") - a)) == 0);
    CHECK_CONTAINS(out, "tool_5");
    tsift_free(out);
    tsift_session_free(s);
  } else {
    fprintf(stderr, "replay: %s\n", err.message);
  }
  tsift_free(live);
  tsift_free(journal);
  free(with);
  free(plain);
  free(cw);
  free(cp);
}

/* ---- allocation failures ---------------------------------------------- */

static void test_alloc_failures(void) {
  make_vectors(17);
  char *cat = catalog(1, 1);
  char *o = options(5, 1, g_vec[7]);
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  int bad = 0, ok = 0;
  /* every allocation of the first few hundred, then every fifth (the index
   * build's are alike): a sweep of the whole path in seconds */
  for (g_fail_at = 1; g_fail_at < 100000 && !ok; g_fail_at += g_fail_at < 400 ? 1 : 5) {
    g_allocs = 0;
    long live = g_live;
    tsift_error err;
    tsift_index *ix = NULL, *back = NULL;
    char *out = NULL, *blob = NULL;
    size_t len = 0;
    tsift_status st = tsift_index_build(cat, strlen(cat), NULL, 0, &ix, &err);
    if (!st) st = tsift_index_search_json(ix, "handle the refund records", 25, o, strlen(o), &out, &len, &err);
    if (!st) st = tsift_index_snapshot(ix, &blob, &len, &err);
    if (!st) st = tsift_index_from_snapshot(blob, len, &back, &err);
    if (st && st != TSIFT_E_NOMEM) bad++;
    ok = st == TSIFT_OK;
    tsift_free(out);
    tsift_free(blob);
    tsift_index_free(ix);
    tsift_index_free(back);
    if (g_live != live) bad++;
  }
  tsift_set_allocator(NULL, NULL, NULL);
  CHECK(ok);
  CHECK_EQ_INT(bad, 0);
  free(o);
  free(cat);
}

/* The dot-product kernels (the machine's fastest, the portable loop) give
 * the int64 sum of the products, for dimensions around the kernels' step
 * widths (16, 32) and at the extremes of the component range. */
static void test_dot_kernels(void) {
  static const uint32_t dims[] = {1, 15, 16, 17, 31, 32, 33, 63, 256, 4096};
  int8_t *q = malloc(4096), *rows = malloc(7 * 4096);
  int32_t fast[7], plain[7];
  int bad = 0;
  for (size_t di = 0; di < sizeof dims / sizeof *dims; di++) {
    uint32_t dim = dims[di];
    for (int pattern = 0; pattern < 3; pattern++) {
      g_seed = 1000 + dim + (unsigned long)pattern;
      for (uint32_t i = 0; i < dim; i++) /* random; q at +-127 against rows at -+127 */
        q[i] = (int8_t)(pattern == 0 ? (int)(next_unit() * 127.0) : pattern == 1 ? 127 : (i & 1 ? -127 : 127));
      for (uint32_t i = 0; i < 7 * dim; i++)
        rows[i] = (int8_t)(pattern == 0 ? (int)(next_unit() * 127.0) : pattern == 1 ? -127 : (i & 1 ? -127 : 127));
      for (size_t nrows = 1; nrows <= 7; nrows += 2) {
        tsift_vec_dot_rows(q, rows, nrows, dim, fast);
        tsift_vec_dot_rows_plain(q, rows, nrows, dim, plain);
        for (size_t r = 0; r < nrows; r++) {
          long long want = 0;
          for (uint32_t i = 0; i < dim; i++) want += (long long)q[i] * rows[r * dim + i];
          if (fast[r] != want || plain[r] != want) bad++;
        }
      }
    }
  }
  CHECK_EQ_INT(bad, 0);
  free(q);
  free(rows);
}

int main(void) {
  test_dot_kernels();
  test_quantize_rule();
  test_catalog_errors();
  test_no_vector_is_unchanged();
  test_fusion();
  test_grade();
  test_snapshot_round_trip();
  test_host_vectors();
  test_session();
  test_alloc_failures();
  return harness_finish("test_vectors");
}
