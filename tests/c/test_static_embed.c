/* test_static_embed.c — a static-embedding model as an index's embedder
 * (static_embed.c, docs/semantic.md): the tools' vectors from the model,
 * a tool whose text has no known token left without one, the query's vector
 * as the search option reads it (base64 float32 LE, or null), a request that
 * shares no word with its tool found by meaning, the model as a session's
 * query embedder (recorded, replayed without it), and an allocation failure
 * at every point. The model is built here byte by byte, and the expected
 * query vector is the normalised sum of its rows, computed here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "harness.h"
#include "session/session_internal.h"
#include "toolsift.h"

#include "fail_alloc.h"

#define DIM 4
/* Tokens and their rows: refund and reimbursement mean the same here. */
static const char *VOCAB[] = {"[UNK]", "refund", "reimbursement", "money", "back", "weather", "forecast",
                              "send", "message", "channel", "filler", "tool"};
static const float ROWS[][DIM] = {{0, 0, 0, 0},     {1, 0, 0, 0.1f},  {1, 0, 0, 0.1f},   {0.9f, 0.2f, 0, 0},
                                  {0.8f, 0, 0.3f, 0}, {0, 1, 0, 0},     {0, 0.9f, 0.1f, 0}, {0, 0, 1, 0},
                                  {0, 0.1f, 0.9f, 0}, {0, 0.2f, 0.8f, 0.1f}, {0.1f, 0.4f, 0.4f, 0}, {0.1f, 0.4f, 0.3f, 0.1f}};
#define NTOK (sizeof VOCAB / sizeof VOCAB[0])

static uint8_t *safetensors(size_t *len) {
  char header[200];
  size_t data = NTOK * DIM * 4;
  int h = snprintf(header, sizeof header,
                   "{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[%zu,%d],\"data_offsets\":[0,%zu]}}", NTOK, DIM,
                   data);
  uint8_t *b = malloc(8 + (size_t)h + data);
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)((uint64_t)h >> (8 * i));
  memcpy(b + 8, header, (size_t)h);
  for (size_t i = 0; i < NTOK * DIM; i++) {
    uint32_t u;
    memcpy(&u, &ROWS[i / DIM][i % DIM], 4);
    for (int k = 0; k < 4; k++) b[8 + h + i * 4 + (size_t)k] = (uint8_t)(u >> (8 * k));
  }
  *len = 8 + (size_t)h + data;
  return b;
}

static char *tokenizer(void) {
  char *s = malloc(2048);
  int n = sprintf(s, "{\"normalizer\":{\"type\":\"BertNormalizer\",\"lowercase\":true},\"pre_tokenizer\":"
                     "{\"type\":\"BertPreTokenizer\"},\"model\":{\"type\":\"WordPiece\",\"unk_token\":\"[UNK]\","
                     "\"continuing_subword_prefix\":\"##\",\"max_input_chars_per_word\":100,\"vocab\":{");
  for (size_t i = 0; i < NTOK; i++) n += sprintf(s + n, "%s\"%s\":%zu", i ? "," : "", VOCAB[i], i);
  strcpy(s + n, "}}}");
  return s;
}

/* 40 tools: the refund, one whose text the model knows nothing of, and
 * fillers about weather and messages (a distribution for the z-scores). */
static char *catalog(void) {
  char *s = malloc(8192);
  int n = sprintf(s, "[{\"id\":\"stripe__refund\",\"name\":\"refund\",\"description\":\"Refund money back.\"},"
                     "{\"id\":\"zz__qq\",\"name\":\"qq\",\"description\":\"Zzz qqq.\"}");
  static const char *topics[] = {"weather forecast", "send message", "channel message", "weather channel"};
  for (int i = 0; i < 38; i++)
    n += sprintf(s + n, ",{\"id\":\"filler__tool%d\",\"name\":\"tool%d\",\"description\":\"filler %s\"}", i, i,
                 topics[i % 4]);
  strcpy(s + n, "]");
  return s;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The JSON string the search option takes for floats v[0..DIM), written here. */
static void expected_b64(const float *v, char *out) {
  uint8_t le[DIM * 4];
  for (int i = 0; i < DIM; i++) {
    uint32_t u;
    memcpy(&u, &v[i], 4);
    for (int k = 0; k < 4; k++) le[i * 4 + k] = (uint8_t)(u >> (8 * k));
  }
  char *p = out;
  *p++ = '"';
  for (int i = 0; i < DIM * 4; i += 3) {
    uint32_t x = (uint32_t)le[i] << 16 | (i + 1 < DIM * 4 ? (uint32_t)le[i + 1] << 8 : 0) |
                 (i + 2 < DIM * 4 ? le[i + 2] : 0);
    *p++ = B64[x >> 18 & 63];
    *p++ = B64[x >> 12 & 63];
    *p++ = i + 1 < DIM * 4 ? B64[x >> 6 & 63] : '=';
    *p++ = i + 2 < DIM * 4 ? B64[x & 63] : '=';
  }
  *p++ = '"';
  *p = 0;
}

/* The model's two files and the catalog, as the tests use them. */
typedef struct fixture {
  uint8_t *st;
  size_t slen;
  char *tok, *cat;
} fixture;

static fixture make_fixture(void) {
  fixture f;
  f.st = safetensors(&f.slen);
  f.tok = tokenizer();
  f.cat = catalog();
  return f;
}

static void free_fixture(fixture *f) {
  free(f->st);
  free(f->tok);
  free(f->cat);
}

static void test_embedder(void) {
  fixture f = make_fixture();
  tsift_error err;
  tsift_static_model *m = NULL;
  tsift_index *ix = NULL;
  CHECK_EQ_INT(tsift_static_model_load(f.st, f.slen, f.tok, strlen(f.tok), &m, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_build(f.cat, strlen(f.cat), NULL, 0, &ix, &err), TSIFT_OK);
  size_t without = 99;
  CHECK_EQ_INT(tsift_index_embed_static(ix, m, &without, &err), TSIFT_OK);
  CHECK_EQ_INT(without, 1); /* zz__qq: "qq", "zzz qqq" are unknown */

  char *out = NULL, want[64];
  size_t len = 0;
  CHECK_EQ_INT(tsift_index_info_json(ix, &out, &len, &err), TSIFT_OK);
  char vec[120];
  snprintf(vec, sizeof vec, "\"vectors\":{\"model\":\"%s\",\"dim\":%d}", tsift_static_model_id(m), DIM);
  CHECK_CONTAINS(out, vec);
  tsift_free(out);

  /* "money back": the sum of the two rows, divided by its length. */
  double sum[DIM], norm = 0;
  for (int i = 0; i < DIM; i++) sum[i] = (double)ROWS[3][i] + (double)ROWS[4][i], norm += sum[i] * sum[i];
  float unit[DIM];
  for (int i = 0; i < DIM; i++) unit[i] = (float)(sum[i] / sqrt(norm));
  expected_b64(unit, want);
  CHECK_EQ_INT(tsift_static_model_vector_json(m, "Money back", 10, &out, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(out, want);
  tsift_free(out);
  CHECK_EQ_INT(tsift_static_model_vector_json(m, "qqq zzz", 7, &out, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(out, "null");
  tsift_free(out);

  /* "reimbursement" is in no tool's text: lexically nothing, by meaning the refund. */
  CHECK_EQ_INT(tsift_index_search_json(ix, "reimbursement", 13, NULL, 0, &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"hits\":[]");
  tsift_free(out);
  CHECK_EQ_INT(tsift_static_model_vector_json(m, "reimbursement", 13, &out, &len, &err), TSIFT_OK);
  char opts[200];
  snprintf(opts, sizeof opts, "{\"limit\":3,\"vector\":%s}", out);
  tsift_free(out);
  CHECK_EQ_INT(tsift_index_search_json(ix, "reimbursement", 13, opts, strlen(opts), &out, &len, &err), TSIFT_OK);
  char kind[120];
  snprintf(kind, sizeof kind, "\"ranker\":\"bm25f-6+vec:%s\"", tsift_static_model_id(m));
  CHECK_CONTAINS(out, kind);
  CHECK_CONTAINS(out, "\"hits\":[{\"id\":\"stripe__refund\"");
  tsift_free(out);
  /* a null vector is the lexical search, byte for byte */
  char *plain = NULL;
  CHECK_EQ_INT(tsift_index_search_json(ix, "refund", 6, NULL, 0, &plain, &len, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_search_json(ix, "refund", 6, "{\"vector\":null}", 15, &out, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(out, plain);
  tsift_free(out);
  tsift_free(plain);

  CHECK_EQ_INT(tsift_index_embed_static(NULL, m, NULL, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_static_model_vector_json(NULL, "x", 1, &out, &len, &err), TSIFT_E_ARG);
  tsift_index_free(ix);
  tsift_static_model_free(m);
  free_fixture(&f);
}

/* The model as a session's query embedder: a session over a snapshot of
 * the embedded index finds the refund for "reimbursement" and records the
 * ranker kind; a host vector wins over the embedder; a query the model
 * knows nothing of is lexical; the journal replays over the plain catalog
 * with neither model nor vectors; a session over its own catalog is
 * embedded by the model; a model that did not make the index's vectors, or
 * a borrowed index without vectors, is refused. */
static void test_session_embedder(void) {
  fixture f = make_fixture();
  tsift_error err;
  tsift_static_model *m = NULL;
  tsift_index *ix = NULL;
  char *snap = NULL, *out = NULL, *journal = NULL, kind[120];
  size_t slen = 0, len = 0, jlen = 0;
  CHECK_EQ_INT(tsift_static_model_load(f.st, f.slen, f.tok, strlen(f.tok), &m, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_build(f.cat, strlen(f.cat), NULL, 0, &ix, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_embed_static(ix, m, NULL, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_snapshot(ix, &snap, &slen, &err), TSIFT_OK);
  snprintf(kind, sizeof kind, "\"ranker\":\"bm25f-6+vec:%s\"", tsift_static_model_id(m));
  const char *cfg = "{\"search\":{\"maxPerSearch\":3}}";
  tsift_session *s = NULL;
  CHECK_EQ_INT(tsift_session_new_from_snapshot(cfg, strlen(cfg), snap, slen, NULL, 0, NULL, 0, &s, &err), TSIFT_OK);
  if (!s) {
    fprintf(stderr, "session: %s\n", err.message);
    return;
  }
  CHECK_EQ_INT(tsift_session_set_embedder(s, m, -2.0, &err), TSIFT_OK);
  const char *a1 = "{\"query\":\"reimbursement\"}";
  CHECK_EQ_INT(tsift_session_call(s, 0, 0, "search_tools", 12, a1, strlen(a1), &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, kind);
  CHECK_CONTAINS(out, "stripe__refund");
  char *live = out;
  /* the model knows no token of it: the lexical ranker, its own kind */
  const char *a2 = "{\"query\":\"zzz qqq\"}";
  CHECK_EQ_INT(tsift_session_call(s, 1, 0, "search_tools", 12, a2, strlen(a2), &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"ranker\":\"bm25f-6\"");
  tsift_free(out);
  /* a host vector wins: the weather direction finds no refund */
  const float weather[DIM] = {0, 1, 0, 0};
  CHECK_EQ_INT(tsift_session_set_query_vector(s, weather, DIM, -2.0, &err), TSIFT_OK);
  const char *a3 = "{\"query\":\"reimbursement please\"}";
  CHECK_EQ_INT(tsift_session_call(s, 2, 0, "search_tools", 12, a3, strlen(a3), &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, kind);
  CHECK(strstr(out, "stripe__refund") == NULL);
  tsift_free(out);
  CHECK_EQ_INT(tsift_session_journal_jsonl(s, &journal, &jlen, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_set_embedder(s, m, 1.5, &err), TSIFT_E_ARG); /* minSimilarity out of range */
  CHECK_EQ_INT(tsift_session_set_embedder(s, NULL, -2.0, &err), TSIFT_OK);
  tsift_session_free(s);

  /* replay over the catalog itself: no vectors, no model, the same result */
  char cfgc[9000];
  snprintf(cfgc, sizeof cfgc, "{\"catalog\":{\"tools\":%s},\"search\":{\"maxPerSearch\":3}}", f.cat);
  s = NULL;
  CHECK_EQ_INT(tsift_session_new(cfgc, strlen(cfgc), journal, jlen, NULL, 0, &s, &err), TSIFT_OK);
  if (s) {
    CHECK_EQ_INT(tsift_session_call(s, 0, 0, "search_tools", 12, a1, strlen(a1), &out, &len, &err), TSIFT_OK);
    const char *x = strstr(live, "\"result\":"), *y = strstr(out ? out : "", "\"result\":");
    CHECK(x && y && strncmp(x, y, (size_t)(strstr(x, ",\"decision\":") - x)) == 0);
    tsift_free(out);
    tsift_session_free(s);
  } else {
    fprintf(stderr, "replay: %s\n", err.message);
  }
  /* a session over its own catalog (no vectors yet) is embedded by the
   * model: the same page as over the snapshot */
  s = NULL;
  CHECK_EQ_INT(tsift_session_new(cfgc, strlen(cfgc), NULL, 0, NULL, 0, &s, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_set_embedder(s, m, -2.0, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_call(s, 0, 0, "search_tools", 12, a1, strlen(a1), &out, &len, &err), TSIFT_OK);
  {
    const char *x = strstr(live, "\"result\":"), *y = strstr(out ? out : "", "\"result\":");
    CHECK(x && y && strncmp(x, y, (size_t)(strstr(x, ",\"decision\":") - x)) == 0);
  }
  tsift_free(out);
  tsift_session_free(s);
  /* a borrowed index without vectors is the caller's to embed: refused */
  tsift_index *bare = NULL;
  CHECK_EQ_INT(tsift_index_build(f.cat, strlen(f.cat), NULL, 0, &bare, &err), TSIFT_OK);
  s = NULL;
  CHECK_EQ_INT(tsift_session_over_index(cfg, strlen(cfg), bare, NULL, 0, &s, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_set_embedder(s, m, -2.0, &err), TSIFT_E_ARG);
  CHECK_CONTAINS(err.message, "no vectors");
  tsift_session_free(s);
  tsift_index_free(bare);
  /* vectors under another model id */
  tsift_index *other = NULL;
  CHECK_EQ_INT(tsift_index_build(f.cat, strlen(f.cat), NULL, 0, &other, &err), TSIFT_OK);
  float *rows = calloc(40 * DIM, sizeof *rows);
  for (int i = 0; i < 40; i++) rows[i * DIM + i % DIM] = 1;
  CHECK_EQ_INT(tsift_index_set_vectors(other, "someone-else", 12, DIM, rows, 40, &err), TSIFT_OK);
  char *osnap = NULL;
  size_t olen = 0;
  CHECK_EQ_INT(tsift_index_snapshot(other, &osnap, &olen, &err), TSIFT_OK);
  s = NULL;
  CHECK_EQ_INT(tsift_session_new_from_snapshot(cfg, strlen(cfg), osnap, olen, NULL, 0, NULL, 0, &s, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_set_embedder(s, m, -2.0, &err), TSIFT_E_ARG);
  CHECK_CONTAINS(err.message, "someone-else");
  tsift_session_free(s);
  tsift_free(osnap);
  free(rows);
  tsift_index_free(other);
  tsift_free(live);
  tsift_free(journal);
  tsift_free(snap);
  tsift_index_free(ix);
  tsift_static_model_free(m);
  free_fixture(&f);
}

/* Every allocation of the embedder and the query vector fails once: a NOMEM
 * error, no leak, and the index left without vectors (not half-built). */
static void test_alloc_failures(void) {
  fixture f = make_fixture();
  tsift_error err;
  tsift_static_model *m = NULL;
  tsift_index *ix = NULL;
  /* everything through the counting allocator (setup unarmed), so the
   * index's vectors of the last round are freed by the allocator they came from */
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  g_armed = 0;
  tsift_static_model_load(f.st, f.slen, f.tok, strlen(f.tok), &m, &err);
  tsift_index_build(f.cat, strlen(f.cat), NULL, 0, &ix, &err);
  char *plain = NULL, *out = NULL;
  size_t len = 0;
  tsift_index_search_json(ix, "money back", 10, NULL, 0, &plain, &len, &err);
  g_armed = 1;
  int swept = 0, nomem = 1, leaks = 0, half = 0;
  for (g_fail_at = 1;; g_fail_at++) {
    g_allocs = 0;
    long live = g_live;
    tsift_status s = tsift_index_embed_static(ix, m, NULL, &err);
    if (s == TSIFT_OK) s = tsift_static_model_vector_json(m, "money back", 10, &out, &len, &err);
    tsift_free(out);
    out = NULL;
    if (s != TSIFT_OK) { /* the index must search as it did without vectors */
      char *again = NULL;
      g_armed = 0;
      tsift_index_search_json(ix, "money back", 10, NULL, 0, &again, &len, &err);
      if (!again || strcmp(again, plain) != 0) half++;
      tsift_free(again);
      g_armed = 1;
    }
    if (g_allocs < g_fail_at) break;
    swept++;
    if (s != TSIFT_E_NOMEM) nomem = 0;
    if (g_live > live + 2) leaks++; /* the index keeps its vectors (q, scales) on success only */
  }
  g_armed = 0;
  tsift_free(plain);
  tsift_index_free(ix);
  tsift_static_model_free(m);
  tsift_set_allocator(NULL, NULL, NULL);
  g_armed = 1;
  printf("static embed: allocation failure injected at %d points\n", swept);
  CHECK(swept >= 3);
  CHECK(nomem);
  CHECK_EQ_INT(leaks, 0);
  CHECK_EQ_INT(half, 0);
  free_fixture(&f);
}

int main(void) {
  test_embedder();
  test_session_embedder();
  test_alloc_failures();
  return harness_finish("test_static_embed");
}
