/* test_static_model_tensors.c — the per-token tensors of model2vec 0.7–0.8
 * ("weights": one scale per token id; "mapping": token id -> row of a
 * matrix with fewer rows than the vocabulary, as vocabulary quantisation
 * writes them) and sentence-transformers' StaticEmbedding pooling
 * (TSIFT_STATIC_SENTENCE_TRANSFORMERS): the vectors against a pooling
 * computed here from the arrays themselves, in the order model2vec's
 * StaticModel._encode_batch applies it (drop [UNK], map, weight, mean,
 * normalise) and StaticEmbedding's (every token); every malformed tensor
 * with its typed error; the vocabulary bound; an allocation failure at every
 * point. The files are built here byte by byte in the shapes the published
 * fixtures have (model2vec-rs tests/fixtures/test-model-vocab-quantized:
 * "weights" F64 [vocab], "embeddings" F32 [clusters, dim], "mapping" I32
 * [vocab], in that data order). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "harness.h"
#include "model/static_model.h"
#include "toolsift.h"

#include "fail_alloc.h"

#define DIM 3
#define ROWS 4 /* clusters: fewer rows than tokens */
static const char *VOCAB[] = {"[PAD]", "[UNK]", "hello", "world", "fork", "repo", "##s", "new"};
#define NTOK 8
static const int32_t MAP[NTOK] = {0, 3, 1, 2, 1, 3, 0, 2};
static const double WEIGHT[NTOK] = {0.5, 2, 1.25, -0.75, 3, 0.125, 1.5, 0.875};
static const float EMB[ROWS][DIM] = {{1, 0.5f, -2}, {0.25f, 3, 1}, {-1.5f, 2, 0.75f}, {4, -1, 0.5f}};

typedef struct blob {
  uint8_t *b;
  size_t n;
} blob;

static void put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A safetensors file: the header as given, the data after it. */
static blob st_file(const char *header, const uint8_t *data, size_t data_len) {
  size_t h = strlen(header);
  blob f = {calloc(1, 8 + h + data_len + 1), 8 + h + data_len};
  put_le(f.b, h, 8);
  memcpy(f.b + 8, header, h);
  if (data_len) memcpy(f.b + 8 + h, data, data_len);
  return f;
}

/* The model's tensors: weights (wdtype F64/F32/"" for none, `nw` entries),
 * the matrix under `emb_name`, mapping (mdtype I32/I64/"" for none, `nm`
 * entries). Values past the arrays repeat them. */
static blob model_file(const char *wdtype, size_t nw, const char *emb_name, const char *mdtype, size_t nm) {
  size_t wsize = strcmp(wdtype, "F64") == 0 ? 8 : 4, msize = strcmp(mdtype, "I64") == 0 ? 8 : 4;
  size_t wbytes = wdtype[0] ? nw * wsize : 0, ebytes = ROWS * DIM * 4, mbytes = mdtype[0] ? nm * msize : 0;
  uint8_t *data = calloc(1, wbytes + ebytes + mbytes + 1);
  for (size_t i = 0; wdtype[0] && i < nw; i++) {
    double w = WEIGHT[i % NTOK];
    uint64_t u;
    if (wsize == 8) memcpy(&u, &w, 8);
    else {
      float f = (float)w;
      uint32_t u32;
      memcpy(&u32, &f, 4);
      u = u32;
    }
    put_le(data + i * wsize, u, (int)wsize);
  }
  for (size_t r = 0; r < ROWS; r++)
    for (size_t c = 0; c < DIM; c++) {
      uint32_t u;
      memcpy(&u, &EMB[r][c], 4);
      put_le(data + wbytes + (r * DIM + c) * 4, u, 4);
    }
  for (size_t i = 0; mdtype[0] && i < nm; i++) put_le(data + wbytes + ebytes + i * msize, (uint64_t)(int64_t)MAP[i % NTOK], (int)msize);
  char header[512] = "{", part[200];
  if (wdtype[0]) {
    snprintf(part, sizeof part, "\"weights\":{\"dtype\":\"%s\",\"shape\":[%zu],\"data_offsets\":[0,%zu]},", wdtype, nw, wbytes);
    strcat(header, part);
  }
  snprintf(part, sizeof part, "\"%s\":{\"dtype\":\"F32\",\"shape\":[%d,%d],\"data_offsets\":[%zu,%zu]}", emb_name, ROWS, DIM,
           wbytes, wbytes + ebytes);
  strcat(header, part);
  if (mdtype[0]) {
    snprintf(part, sizeof part, ",\"mapping\":{\"dtype\":\"%s\",\"shape\":[%zu],\"data_offsets\":[%zu,%zu]}", mdtype, nm,
             wbytes + ebytes, wbytes + ebytes + mbytes);
    strcat(header, part);
  }
  strcat(header, "}");
  blob f = st_file(header, data, wbytes + ebytes + mbytes);
  free(data);
  return f;
}

/* A WordPiece tokenizer.json over VOCAB (BERT normalizer and pre-tokenizer). */
static char *tokenizer(void) {
  char *s = malloc(2048);
  int n = snprintf(s, 2048,
                   "{\"version\":\"1.0\",\"added_tokens\":[],\"normalizer\":{\"type\":\"BertNormalizer\"},"
                   "\"pre_tokenizer\":{\"type\":\"BertPreTokenizer\"},\"model\":{\"type\":\"WordPiece\","
                   "\"unk_token\":\"[UNK]\",\"vocab\":{");
  for (int i = 0; i < NTOK; i++) n += snprintf(s + n, 2048 - (size_t)n, "%s\"%s\":%d", i ? "," : "", VOCAB[i], i);
  snprintf(s + n, 2048 - (size_t)n, "}}}");
  return s;
}

static tsift_static_model *load(blob f, const char *tok, unsigned flags, tsift_error *err) {
  tsift_static_model *m = NULL;
  tsift_static_model_load_flags(f.b, f.n, tok, strlen(tok), flags, &m, err);
  if (!m) fprintf(stderr, "load: %s\n", err->message);
  return m;
}

/* The reference pooling of token ids (in order, [UNK] included) computed
 * from the arrays: model2vec (drop = 1: [UNK] out; map and weigh when
 * asked) or StaticEmbedding (drop = 0, no map, no weights); the unit vector
 * of the mean. */
static void reference(const int *ids, size_t n, int drop, int map, int weigh, double *out, size_t *pooled) {
  double sum[DIM] = {0}, sq = 0;
  *pooled = 0;
  for (size_t k = 0; k < n; k++) {
    if (drop && ids[k] == 1) continue;
    int r = map ? MAP[ids[k]] : ids[k];
    double w = weigh ? WEIGHT[ids[k]] : 1;
    for (int c = 0; c < DIM; c++) sum[c] += (double)EMB[r][c] * w;
    ++*pooled;
  }
  for (int c = 0; c < DIM; c++) sq += sum[c] / (double)*pooled * (sum[c] / (double)*pooled);
  for (int c = 0; c < DIM; c++) out[c] = sum[c] / (double)*pooled / sqrt(sq);
}

static void check_vector(tsift_static_model *m, const char *text, const int *ids, size_t n, int drop, int map, int weigh) {
  float got[DIM];
  double want[DIM];
  size_t pooled = 99, want_pooled = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_static_model_embed(m, text, strlen(text), got, &pooled, &err), TSIFT_OK);
  reference(ids, n, drop, map, weigh, want, &want_pooled);
  CHECK_EQ_INT(pooled, want_pooled);
  for (int c = 0; c < DIM; c++) CHECK_NEAR(got[c], want[c], 1e-6);
}

static void test_vectors(void) {
  char *tok = tokenizer();
  /* "hello zzz forks world": hello [UNK] fork ##s world */
  static const int IDS[] = {2, 1, 4, 6, 3};
  static const struct {
    const char *w, *m;
    int map, weigh;
  } FORMS[] = {{"F64", "I32", 1, 1}, {"F32", "I64", 1, 1}, {"", "I32", 1, 0}};
  for (size_t i = 0; i < 3; i++) {
    blob f = model_file(FORMS[i].w, NTOK, "embeddings", FORMS[i].m, NTOK);
    tsift_error err;
    tsift_static_model *m = load(f, tok, 0, &err);
    CHECK(m != NULL);
    if (m) {
      check_vector(m, "hello zzz forks world", IDS, 5, 1, FORMS[i].map, FORMS[i].weigh);
      check_vector(m, "new repo", (const int[]){7, 5}, 2, 1, FORMS[i].map, FORMS[i].weigh);
      tsift_static_model_free(m);
    }
    free(f.b);
  }
  /* weights alone, over a matrix with a row per token: row i is
   * EMB[MAP[i]], so the reference with the mapping applies */
  {
    uint8_t data[NTOK * 8 + NTOK * DIM * 4];
    for (int i = 0; i < NTOK; i++) {
      uint64_t u;
      memcpy(&u, &WEIGHT[i], 8);
      put_le(data + i * 8, u, 8);
      for (int c = 0; c < DIM; c++) {
        uint32_t v;
        memcpy(&v, &EMB[MAP[i]][c], 4); /* row i = EMB[MAP[i]]: the same vectors as with the mapping */
        put_le(data + NTOK * 8 + (i * DIM + c) * 4, v, 4);
      }
    }
    char header[256];
    snprintf(header, sizeof header,
             "{\"weights\":{\"dtype\":\"F64\",\"shape\":[%d],\"data_offsets\":[0,%d]},\"embeddings\":{\"dtype\":\"F32\","
             "\"shape\":[%d,%d],\"data_offsets\":[%d,%d]}}",
             NTOK, NTOK * 8, NTOK, DIM, NTOK * 8, (int)sizeof data);
    blob f = st_file(header, data, sizeof data);
    tsift_error err;
    tsift_static_model *m = load(f, tok, 0, &err);
    CHECK(m != NULL);
    if (m) check_vector(m, "hello zzz forks world", IDS, 5, 1, 1, 1);
    tsift_static_model_free(m);
    free(f.b);
  }
  free(tok);
}

/* sentence-transformers' StaticEmbedding: "embedding.weight", the mean of
 * every token's row, [UNK] included, no 512 cap; another id. */
static void test_sentence_transformers(void) {
  char *tok = tokenizer();
  uint8_t data[NTOK * DIM * 4];
  for (int i = 0; i < NTOK; i++)
    for (int c = 0; c < DIM; c++) {
      uint32_t v;
      memcpy(&v, &EMB[MAP[i]][c], 4);
      put_le(data + (i * DIM + c) * 4, v, 4);
    }
  char header[160];
  snprintf(header, sizeof header, "{\"embedding.weight\":{\"dtype\":\"F32\",\"shape\":[%d,%d],\"data_offsets\":[0,%d]}}", NTOK,
           DIM, (int)sizeof data);
  blob f = st_file(header, data, sizeof data);
  tsift_error err;
  tsift_static_model *st = load(f, tok, TSIFT_STATIC_SENTENCE_TRANSFORMERS, &err), *m2v = load(f, tok, 0, &err);
  CHECK(st && m2v);
  if (st && m2v) {
    static const int IDS[] = {2, 1, 4, 6, 3};
    check_vector(st, "hello zzz forks world", IDS, 5, 0, 1, 0);  /* [UNK]'s row averaged in */
    check_vector(m2v, "hello zzz forks world", IDS, 5, 1, 1, 0); /* model2vec: [UNK] dropped */
    CHECK(strcmp(tsift_static_model_id(st), tsift_static_model_id(m2v)) != 0);
    CHECK_EQ_INT(strlen(tsift_static_model_id(st)), strlen(tsift_static_model_id(m2v)));
    /* only [UNK]: a vector for StaticEmbedding, none for model2vec */
    float v[DIM];
    size_t pooled = 0;
    CHECK_EQ_INT(tsift_static_model_embed(st, "zzz", 3, v, &pooled, &err), TSIFT_OK);
    CHECK_EQ_INT(pooled, 1);
    CHECK_EQ_INT(tsift_static_model_embed(m2v, "zzz", 3, v, &pooled, &err), TSIFT_OK);
    CHECK_EQ_INT(pooled, 0);
    /* 600 tokens: all pooled by StaticEmbedding, 512 by model2vec */
    char *many = malloc(600 * 6 + 1);
    for (int i = 0; i < 600; i++) memcpy(many + i * 6, "hello ", 6);
    CHECK_EQ_INT(tsift_static_model_embed(st, many, 3600, v, &pooled, &err), TSIFT_OK);
    CHECK_EQ_INT(pooled, 600);
    CHECK_EQ_INT(tsift_static_model_embed(m2v, many, 3600, v, &pooled, &err), TSIFT_OK);
    CHECK_EQ_INT(pooled, 512);
    free(many);
  }
  tsift_static_model_free(st);
  tsift_static_model_free(m2v);
  free(f.b);
  /* a model2vec file with per-token tensors: StaticEmbedding reads neither */
  f = model_file("F64", NTOK, "embeddings", "I32", NTOK);
  tsift_static_model *m = (tsift_static_model *)1;
  CHECK_EQ_INT(tsift_static_model_load_flags(f.b, f.n, tok, strlen(tok), TSIFT_STATIC_SENTENCE_TRANSFORMERS, &m, &err),
               TSIFT_E_MODEL);
  CHECK(m == NULL);
  CHECK_CONTAINS(err.message, "safetensors: tensor \"weights\": sentence-transformers' StaticEmbedding reads no per-token tensor");
  free(f.b);
  free(tok);
}

static void expect(blob f, const char *tok, tsift_status status, const char *needle) {
  tsift_error err;
  tsift_static_model *m = (tsift_static_model *)1;
  tsift_status s = tsift_static_model_load(f.b, f.n, tok, strlen(tok), &m, &err);
  if (s != status || !strstr(err.message, needle))
    fprintf(stderr, "expected %s \"%s\", got %s: %s\n", tsift_status_name(status), needle, tsift_status_name(s), err.message);
  CHECK_EQ_INT(s, status);
  CHECK(m == NULL);
  CHECK_CONTAINS(err.message, needle);
  free(f.b);
}

static void test_malformed(void) {
  char *tok = tokenizer();
  expect(model_file("I32", NTOK, "embeddings", "I32", NTOK), tok, TSIFT_E_MODEL,
         "safetensors: tensor \"weights\": dtype I32 is not supported (F32, F16, BF16, F64)");
  expect(model_file("F64", NTOK, "embeddings", "F32", NTOK), tok, TSIFT_E_MODEL,
         "safetensors: tensor \"mapping\": dtype F32 is not supported (I32, I64)");
  expect(model_file("F64", NTOK - 1, "embeddings", "I32", NTOK), tok, TSIFT_E_MODEL,
         "safetensors: tensor \"weights\" has 7 entries, but tokenizer.json has 8 token ids");
  expect(model_file("F64", NTOK, "embeddings", "I32", NTOK + 1), tok, TSIFT_E_MODEL,
         "safetensors: tensor \"mapping\" has 9 entries, but tokenizer.json has 8 token ids");
  /* a token id past the mapping: the id is checked against it */
  expect(model_file("F64", NTOK - 1, "embeddings", "I32", NTOK - 1), tok, TSIFT_E_MODEL,
         "tokenizer.json: model.vocab \"new\": the id must be an integer from 0 to 6");
  /* two dimensions */
  blob f;
  {
    uint8_t zero[64 + ROWS * DIM * 4 + 32] = {0};
    f = st_file("{\"weights\":{\"dtype\":\"F64\",\"shape\":[2,4],\"data_offsets\":[0,64]},\"embeddings\":{\"dtype\":\"F32\","
                "\"shape\":[4,3],\"data_offsets\":[64,112]},\"mapping\":{\"dtype\":\"I32\",\"shape\":[8],\"data_offsets\":[112,144]}}",
                zero, sizeof zero);
    expect(f, tok, TSIFT_E_MODEL, "safetensors: tensor \"weights\" has 2 dimensions, expected 1 ([vocab])");
  }
  /* a mapping entry past the rows, and a negative one */
  f = model_file("F64", NTOK, "embeddings", "I32", NTOK);
  put_le(f.b + f.n - 4 * 3, ROWS, 4); /* entry 5 */
  expect(f, tok, TSIFT_E_MODEL, "safetensors: tensor \"mapping\": entry 5 is 4, not a row of \"embeddings\" (0 to 3)");
  f = model_file("F64", NTOK, "embeddings", "I64", NTOK);
  put_le(f.b + f.n - 8, (uint64_t)-7, 8); /* entry 7 */
  expect(f, tok, TSIFT_E_MODEL, "safetensors: tensor \"mapping\": entry 7 is -7, not a row");
  f = model_file("F64", NTOK, "embeddings", "I32", NTOK);
  put_le(f.b + f.n - 4, 0x80000000u, 4);
  expect(f, tok, TSIFT_E_MODEL, "entry 7 is -2147483648, not a row");
  /* a NaN weight, an infinite one */
  size_t hlen = 0;
  f = model_file("F64", NTOK, "embeddings", "I32", NTOK);
  for (int i = 7; i >= 0; i--) hlen = (hlen << 8) | f.b[i];
  put_le(f.b + 8 + hlen + 8 * 2, 0x7FF8000000000000ull, 8);
  expect(f, tok, TSIFT_E_MODEL, "safetensors: tensor \"weights\": entry 2 is NaN");
  f = model_file("F32", NTOK, "embeddings", "I32", NTOK);
  for (int i = 7; i >= 0; i--) hlen = (hlen << 8) | f.b[i];
  put_le(f.b + 8 + hlen + 4 * 6, 0xFF800000u, 4);
  expect(f, tok, TSIFT_E_MODEL, "safetensors: tensor \"weights\": entry 6 is infinite");
  /* a weight so large that value x weight could overflow a pooled sum (a
   * fuzzer's find: 1e252 x 4 pooled, squared, was infinite) */
  f = model_file("F64", NTOK, "embeddings", "I32", NTOK);
  for (int i = 7; i >= 0; i--) hlen = (hlen << 8) | f.b[i];
  {
    double huge = 1e100;
    uint64_t u;
    memcpy(&u, &huge, 8);
    put_le(f.b + 8 + hlen + 8 * 3, u, 8);
  }
  expect(f, tok, TSIFT_E_LIMIT, "safetensors: a value (up to 4) times its weight (up to 1e+100) is over 1e+100");
  /* the vocabulary bound: a per-token tensor of 1,000,001 entries */
  f = model_file("F32", TSIFT_STATIC_MAX_VOCAB + 1, "embeddings", "I32", NTOK);
  expect(f, tok, TSIFT_E_LIMIT, "safetensors: tensor \"weights\": 1000001 entries is over the limit of 1000000 tokens");
  free(tok);
  /* and tokenizer.json's model.vocab of 1,000,001 tokens, WordPiece and Unigram */
  size_t cap = 16 * (TSIFT_STATIC_MAX_VOCAB + 1) + 256;
  char *big = malloc(cap);
  size_t n = (size_t)snprintf(big, cap, "{\"model\":{\"type\":\"WordPiece\",\"unk_token\":\"t0\",\"vocab\":{");
  for (size_t i = 0; i <= TSIFT_STATIC_MAX_VOCAB; i++) n += (size_t)snprintf(big + n, cap - n, "%s\"t%zu\":0", i ? "," : "", i);
  snprintf(big + n, cap - n, "}}}");
  expect(model_file("F64", NTOK, "embeddings", "I32", NTOK), big, TSIFT_E_LIMIT,
         "tokenizer.json: model.vocab: 1000001 tokens is over the limit of 1000000");
  n = (size_t)snprintf(big, cap, "{\"model\":{\"type\":\"Unigram\",\"vocab\":[");
  for (size_t i = 0; i <= TSIFT_STATIC_MAX_VOCAB; i++) n += (size_t)snprintf(big + n, cap - n, "%s0", i ? "," : "");
  snprintf(big + n, cap - n, "]}}");
  expect(model_file("F64", NTOK, "embeddings", "I32", NTOK), big, TSIFT_E_LIMIT,
         "tokenizer.json: model.vocab: 1000001 tokens is over the limit of 1000000");
  free(big);
}

static void test_alloc_failures(void) {
  blob f = model_file("F64", NTOK, "embeddings", "I32", NTOK);
  char *tok = tokenizer();
  const char *text = "hello zzz forks world new";
  char *clean = NULL;
  {
    tsift_error err;
    tsift_static_model *m = load(f, tok, 0, &err);
    size_t n = 0;
    tsift_static_model_embed_json(m, text, strlen(text), &clean, &n, &err);
    tsift_static_model_free(m);
  }
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  int swept = 0, nomem_ok = 1, leaks = 0, differs = 0;
  for (g_fail_at = 1;; g_fail_at++) {
    g_allocs = 0;
    g_live = 0;
    tsift_error err;
    tsift_static_model *m = NULL;
    char *out = NULL;
    size_t n = 0;
    tsift_status s = tsift_static_model_load(f.b, f.n, tok, strlen(tok), &m, &err);
    if (s == TSIFT_OK) s = tsift_static_model_embed_json(m, text, strlen(text), &out, &n, &err);
    if (s == TSIFT_OK && (!out || strcmp(out, clean) != 0)) differs++;
    tsift_free(out);
    tsift_static_model_free(m);
    if (g_live != 0) leaks++;
    if (g_allocs < g_fail_at) break;
    swept++;
    if (s != TSIFT_E_NOMEM || err.status != TSIFT_E_NOMEM) nomem_ok = 0;
  }
  tsift_set_allocator(NULL, NULL, NULL);
  printf("static model tensors: allocation failure injected at %d points\n", swept);
  CHECK(swept > 10);
  CHECK(nomem_ok);
  CHECK_EQ_INT(leaks, 0);
  CHECK_EQ_INT(differs, 0);
  tsift_free(clean);
  free(tok);
  free(f.b);
}

int main(void) {
  test_vectors();
  test_sentence_transformers();
  test_malformed();
  test_alloc_failures();
  return harness_finish("static_model_tensors");
}
