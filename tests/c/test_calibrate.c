/* test_calibrate.c — a model's calibrated fusion parameters
 * (tsift_static_model_configure: config.json's "toolsift" member) and
 * tsift_calibrate_json (core/src/eval/eval_calibrate.c) on a small model built
 * here: a configured model evaluates exactly as the same eval "fusion"
 * option, a malformed config.json is a typed error naming the key and
 * leaves the model as it was, the calibration's table and proposal hold
 * together, the catalog-only mode makes its queries from descriptions, and
 * an allocation failure at any point is TSIFT_E_NOMEM with nothing leaked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "harness.h"
#include "model/static_model.h"
#include "toolsift.h"

#include "fail_alloc.h"

#define DIM 4
/* Words of three concepts share a direction; the rest are spread apart. */
static const char *VOCAB[] = {"[PAD]", "[UNK]", "refund", "money", "payment", "reimburse", "ticket", "issue",
                              "bug", "deploy", "release", "ship", "list", "the", "a", "file", "customer",
                              "send", "mail", "message", "filler", "task", "number", "do"};
#define NTOK (sizeof VOCAB / sizeof *VOCAB)

static float row_of(size_t t, size_t c) {
  static const int concept[NTOK] = {-1, -1, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, -1, -1, -1, 1, 0, 3, 3, 3, -1, -1, -1, -1};
  if (concept[t] >= 0) return c == (size_t)concept[t] ? 1.0f : 0.05f * (float)((t + c) % 3);
  return 0.1f * (float)((t * 7 + c * 3) % 5) - 0.2f;
}

static uint8_t *model_file(size_t *len) {
  char header[256];
  size_t data = NTOK * DIM * 4;
  int h = snprintf(header, sizeof header, "{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[%zu,%d],\"data_offsets\":[0,%zu]}}",
                   (size_t)NTOK, DIM, data);
  uint8_t *f = calloc(1, 8 + (size_t)h + data);
  for (int i = 0; i < 8; i++) f[i] = (uint8_t)((uint64_t)h >> (8 * i));
  memcpy(f + 8, header, (size_t)h);
  for (size_t t = 0; t < NTOK; t++)
    for (size_t c = 0; c < DIM; c++) {
      float v = row_of(t, c);
      memcpy(f + 8 + (size_t)h + (t * DIM + c) * 4, &v, 4);
    }
  *len = 8 + (size_t)h + data;
  return f;
}

static char *tokenizer(void) {
  char *s = malloc(4096);
  int n = snprintf(s, 4096,
                   "{\"version\":\"1.0\",\"added_tokens\":[],\"normalizer\":{\"type\":\"BertNormalizer\"},"
                   "\"pre_tokenizer\":{\"type\":\"BertPreTokenizer\"},\"model\":{\"type\":\"WordPiece\","
                   "\"unk_token\":\"[UNK]\",\"vocab\":{");
  for (size_t i = 0; i < NTOK; i++) n += snprintf(s + n, 4096 - (size_t)n, "%s\"%s\":%zu", i ? "," : "", VOCAB[i], i);
  snprintf(s + n, 4096 - (size_t)n, "}}}");
  return s;
}

static tsift_static_model *load_model(void) {
  size_t len;
  uint8_t *st = model_file(&len);
  char *tok = tokenizer();
  tsift_static_model *m = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_static_model_load(st, len, tok, strlen(tok), &m, &err), TSIFT_OK);
  free(st);
  free(tok);
  return m;
}

/* 40 tools: four that the concepts serve, fillers, each described. */
static char *catalog(void) {
  static const char *named[][2] = {{"refund_payment", "Reimburse the customer"},
                                   {"file_ticket", "File a bug"},
                                   {"ship_release", "Deploy the release"},
                                   {"send_mail", "Send a message"}};
  char *s = malloc(8192);
  int n = snprintf(s, 8192, "{\"tools\":[");
  for (int i = 0; i < 4; i++)
    n += snprintf(s + n, 8192 - (size_t)n, "%s{\"name\":\"%s\",\"description\":\"%s\"}", i ? "," : "", named[i][0],
                  named[i][1]);
  for (int i = 0; i < 36; i++)
    n += snprintf(s + n, 8192 - (size_t)n, ",{\"name\":\"filler_%d\",\"description\":\"Do filler task number %d\"}", i, i);
  snprintf(s + n, 8192 - (size_t)n, "]}");
  return s;
}

static const char QUERIES[] =
    "{\"id\":1,\"query\":\"money back\",\"relevance\":{\"refund_payment\":3}}\n"
    "{\"id\":2,\"query\":\"an issue to report\",\"relevance\":{\"file_ticket\":3}}\n"
    "{\"id\":3,\"query\":\"ship it\",\"relevance\":{\"ship_release\":3}}\n"
    "{\"id\":4,\"query\":\"mail the customer\",\"relevance\":{\"send_mail\":3}}\n"
    "{\"id\":5,\"query\":\"the weather\",\"relevance\":{}}\n";

static char *eval_with(const char *cat, const tsift_static_model *m, const char *opts) {
  char *out = NULL;
  size_t len;
  tsift_error err;
  CHECK_EQ_INT(tsift_eval_model_json(cat, strlen(cat), QUERIES, strlen(QUERIES), m, opts, strlen(opts), &out, &len, &err),
               TSIFT_OK);
  return out;
}

static void test_configure(void) {
  tsift_static_model *a = load_model(), *b = load_model();
  char *cat = catalog();
  tsift_error err;
  const char *config = "{\"model_type\":\"model2vec\",\"toolsift\":{\"fusion\":{\"margin\":-2,\"weight\":3,\"agree\":null}}}";
  CHECK_EQ_INT(tsift_static_model_configure(a, config, strlen(config), &err), TSIFT_OK);
  char *x = eval_with(cat, a, "{\"loop\":true}");
  char *y = eval_with(cat, b, "{\"loop\":true,\"fusion\":{\"margin\":-2,\"weight\":3}}");
  CHECK(x && y && strcmp(x, y) == 0);
  tsift_free(x);
  tsift_free(y);
  /* malformed: typed, named, and the model keeps its parameters */
  const char *bad[][2] = {{"{\"toolsift\":{\"fusion\":{\"weight\":-1}}}", "toolsift.fusion.weight must be a number from 0 to 100"},
                          {"{\"toolsift\":{\"fusion\":{\"strong\":\"x\"}}}", "toolsift.fusion.strong must be"},
                          {"{\"toolsift\":[]}", "\"toolsift\" must be an object"},
                          {"7", "expected a JSON object"},
                          {"{", "config.json"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    CHECK_EQ_INT(tsift_static_model_configure(a, bad[i][0], strlen(bad[i][0]), &err), TSIFT_E_MODEL);
    CHECK_CONTAINS(err.message, bad[i][1]);
  }
  CHECK(tsift_static_model_fusion(a) && tsift_static_model_fusion(a)->margin == -2.0);
  CHECK(tsift_static_model_fusion(b) == NULL); /* never configured: the defaults */
  CHECK_EQ_INT(tsift_static_model_configure(b, "{}", 2, &err), TSIFT_OK);
  CHECK(tsift_static_model_fusion(b) == NULL); /* no "toolsift" member: nothing set */
  free(cat);
  tsift_static_model_free(a);
  tsift_static_model_free(b);
}

static double num(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static void test_calibrate(void) {
  tsift_static_model *m = load_model();
  char *cat = catalog(), *out = NULL;
  size_t len;
  tsift_error err;
  CHECK_EQ_INT(tsift_calibrate_json(cat, strlen(cat), QUERIES, strlen(QUERIES), m, 0, &out, &len, &err), TSIFT_OK);
  cJSON *c = cJSON_Parse(out);
  CHECK(c != NULL);
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(c, "rows");
  CHECK(cJSON_GetArraySize(rows) >= 24);
  CHECK_EQ_INT((int)num(c, "queries"), 5);
  CHECK_EQ_INT((int)num(c, "noMatchQueries"), 1);
  /* a row is the evaluation at its parameters */
  const cJSON *r = cJSON_GetArrayItem(rows, 10), *f = cJSON_GetObjectItemCaseSensitive(r, "fusion");
  char opts[160];
  snprintf(opts, sizeof opts, "{\"loop\":true,\"worst\":0,\"fusion\":{\"margin\":%g,\"weight\":%g}}", num(f, "margin"),
           num(f, "weight"));
  char *e = eval_with(cat, m, opts);
  cJSON *ej = cJSON_Parse(e);
  CHECK(num(cJSON_GetObjectItemCaseSensitive(ej, "toolsift"), "ndcg10") == num(r, "ndcg10"));
  cJSON_Delete(ej);
  tsift_free(e);
  /* the proposal, when there is one, is a row that keeps the floors */
  const cJSON *config = cJSON_GetObjectItemCaseSensitive(c, "config");
  if (!cJSON_IsNull(config)) {
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(config, "toolsift"), "fusion");
    int found = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
      const cJSON *rf = cJSON_GetObjectItemCaseSensitive(row, "fusion");
      if (num(rf, "margin") == num(p, "margin") && num(rf, "weight") == num(p, "weight"))
        found |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "meets"));
    }
    CHECK(found);
  }
  cJSON_Delete(c);
  tsift_free(out);
  /* text, and the catalog judging itself */
  CHECK_EQ_INT(tsift_calibrate_json(cat, strlen(cat), NULL, 0, m, 1, &out, &len, &err), TSIFT_OK);
  CHECK(strncmp(out, "calibrate static-", 17) == 0);
  CHECK_CONTAINS(out, "40 queries (made from the catalog's descriptions, 0 no-match)");
  tsift_free(out);
  CHECK_EQ_INT(tsift_calibrate_json("{\"tools\":[{\"name\":\"a\"}]}", 24, NULL, 0, m, 0, &out, &len, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "no queries");
  CHECK_EQ_INT(tsift_calibrate_json(cat, strlen(cat), NULL, 0, NULL, 0, &out, &len, &err), TSIFT_E_ARG);
  free(cat);
  tsift_static_model_free(m);
}

/* Every allocation of a calibration and of a configure failing in turn. */
static void test_alloc_failures(void) {
  char *cat = catalog();
  const char *config = "{\"toolsift\":{\"fusion\":{\"margin\":-1}}}";
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  g_armed = 0;
  tsift_static_model *m = load_model();
  long base = g_live;
  g_armed = 1;
  /* how many allocations one catalog-only calibration makes */
  g_allocs = 0;
  g_fail_at = -1;
  char *out = NULL;
  size_t len;
  tsift_error err;
  CHECK_EQ_INT(tsift_calibrate_json(cat, strlen(cat), NULL, 0, m, 0, &out, &len, &err), TSIFT_OK);
  tsift_free(out);
  long total = g_allocs, stride = total / 120 + 1, failed = 0;
  for (long at = 1; at <= total; at += stride) {
    g_allocs = 0;
    g_fail_at = at;
    out = NULL;
    tsift_status st = tsift_calibrate_json(cat, strlen(cat), NULL, 0, m, at % 2, &out, &len, &err);
    CHECK(st == TSIFT_OK || st == TSIFT_E_NOMEM);
    failed += st == TSIFT_E_NOMEM;
    tsift_free(out);
    CHECK_EQ_INT((int)(g_live - base), 0);
  }
  CHECK(failed > 0);
  for (long at = 1; at <= 40; at++) {
    g_allocs = 0;
    g_fail_at = at;
    tsift_status st = tsift_static_model_configure(m, config, strlen(config), &err);
    CHECK(st == TSIFT_OK || st == TSIFT_E_NOMEM);
    CHECK_EQ_INT((int)(g_live - base), 0);
  }
  g_fail_at = -1;
  tsift_static_model_free(m);
  tsift_set_allocator(NULL, NULL, NULL);
  free(cat);
}

int main(void) {
  test_configure();
  test_calibrate();
  test_alloc_failures();
  return harness_finish("calibrate");
}
