/* test_static_model_added.c — tokenizer.json's added_tokens
 * (static_model_added.c): matched in the text before pre-tokenising, the
 * raw ones then the normalized ones, leftmost-longest, with single_word,
 * lstrip and rstrip; ids outside model.vocab (model2vec 0.8's multi-word
 * entries) as the library assigns them; WordPiece and Unigram; every
 * malformed entry with its typed error; an allocation failure at every
 * point of load + embed.
 *
 * The expected tokens below came from the Hugging Face `tokenizers` library
 * itself (0.22.2, through the npm package @anush008/tokenizers 0.6.0,
 * encode(text, add_special_tokens=false), ids mapped back with
 * id_to_token) over these same tokenizer.json files; they were not produced
 * by the code under test. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "harness.h"
#include "model/static_model.h"
#include "toolsift.h"

#include "fail_alloc.h"

#define U "\xE2\x96\x81" /* ▁, Metaspace's replacement */
#define DIM 4
#define ROWS 27

/* WordPiece (BertNormalizer, BertPreTokenizer): [CLS] special and raw;
 * "New York" as model2vec 0.8 writes a multi-word entry (normalized,
 * lstrip, rstrip) and outside model.vocab, as are "york city" (overlapping
 * it), "<x>" (raw, lstrip) and "C++"; "file" single_word, in the vocabulary. */
static const char WP[] =
    "{\"version\":\"1.0\",\"added_tokens\":[{\"id\":1,\"content\":\"[CLS]\",\"single_word\":false,\"lstrip"
    "\":false,\"rstrip\":false,\"normalized\":false,\"special\":true},{\"id\":23,\"content\":\"New York\","
    "\"single_word\":false,\"lstrip\":true,\"rstrip\":true,\"normalized\":true,\"special\":false},{\"id\":"
    "24,\"content\":\"york city\",\"single_word\":false,\"lstrip\":false,\"rstrip\":false,\"normalized\":t"
    "rue,\"special\":false},{\"id\":8,\"content\":\"file\",\"single_word\":true,\"lstrip\":false,\"rstrip\""
    ":false,\"normalized\":true,\"special\":false},{\"id\":25,\"content\":\"<x>\",\"single_word\":false,\""
    "lstrip\":true,\"rstrip\":false,\"normalized\":false,\"special\":false},{\"id\":26,\"content\":\"C++\""
    ",\"single_word\":false,\"lstrip\":false,\"rstrip\":false,\"normalized\":true,\"special\":false}],\"no"
    "rmalizer\":{\"type\":\"BertNormalizer\",\"clean_text\":true,\"handle_chinese_chars\":true,\"strip_acc"
    "ents\":null,\"lowercase\":true},\"pre_tokenizer\":{\"type\":\"BertPreTokenizer\"},\"model\":{\"type\""
    ":\"WordPiece\",\"unk_token\":\"[UNK]\",\"continuing_subword_prefix\":\"##\",\"max_input_chars_per_wor"
    "d\":100,\"vocab\":{\"[UNK]\":0,\"[CLS]\":1,\"new\":2,\"york\":3,\"city\":4,\"the\":5,\"in\":6,\"##s\""
    ":7,\"file\":8,\"list\":9,\"!\":10,\"c\":11,\"+\":12,\"code\":13,\"pro\":14,\"##file\":15,\"<\":16,\">"
    "\":17,\"x\":18,\"a\":19,\"b\":20,\"i\":21,\"live\":22}}}";

static const char UNI[] =
    "{\"version\":\"1.0\",\"added_tokens\":[{\"id\":0,\"content\":\"<unk>\",\"single_word\":false,\"lstrip"
    "\":false,\"rstrip\":false,\"normalized\":false,\"special\":true},{\"id\":18,\"content\":\"New York\","
    "\"single_word\":false,\"lstrip\":true,\"rstrip\":true,\"normalized\":true,\"special\":false},{\"id\":"
    "19,\"content\":\"<x>\",\"single_word\":false,\"lstrip\":false,\"rstrip\":true,\"normalized\":false,\""
    "special\":false},{\"id\":20,\"content\":\"file\",\"single_word\":true,\"lstrip\":false,\"rstrip\":fal"
    "se,\"normalized\":true,\"special\":false}],\"normalizer\":{\"type\":\"Sequence\",\"normalizers\":[{\""
    "type\":\"NFKC\"},{\"type\":\"Lowercase\"},{\"type\":\"Replace\",\"pattern\":{\"Regex\":\"\\\\s+\"},\""
    "content\":\" \"},{\"type\":\"Strip\",\"strip_left\":true,\"strip_right\":true}]},\"pre_tokenizer\":{\""
    "type\":\"Metaspace\",\"replacement\":\"" U "\",\"prepend_scheme\":\"always\",\"split\":false},\"model"
    "\":{\"type\":\"Unigram\",\"unk_id\":0,\"byte_fallback\":false,\"vocab\":[[\"<unk>\",0],[\"" U "\",-2]"
    ",[\"" U "new\",-4],[\"" U "york\",-4.5],[\"" U "city\",-4],[\"" U "the\",-3],[\"" U "file\",-4],[\"s\""
    ",-5],[\"" U "list\",-4],[\"!\",-3],[\"x\",-5],[\"a\",-6],[\"b\",-6],[\"<\",-6],[\">\",-6],[\"" U "i\""
    ",-5],[\"" U "live\",-5],[\"" U "in\",-5]]}}";


typedef struct blob {
  uint8_t *b;
  size_t n;
} blob;

/* A safetensors file: ROWS × DIM F32. */
static blob matrix(size_t rows) {
  char header[160];
  int h = snprintf(header, sizeof header,
                   "{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[%zu,%d],\"data_offsets\":[0,%zu]}}", rows, DIM,
                   rows * DIM * 4);
  blob f = {calloc(1, 8 + (size_t)h + rows * DIM * 4), 8 + (size_t)h + rows * DIM * 4};
  f.b[0] = (uint8_t)h;
  memcpy(f.b + 8, header, (size_t)h);
  for (size_t i = 0; i < rows * DIM; i++) {
    float v = (float)((i * 7) % 11) - 4.5f;
    memcpy(f.b + 8 + h + i * 4, &v, 4);
  }
  return f;
}

static tsift_static_model *load(blob st, const char *tok, tsift_error *err) {
  tsift_static_model *m = NULL;
  tsift_static_model_load(st.b, st.n, tok, strlen(tok), &m, err);
  return m;
}

/* The "tokens" array of the embedding JSON of text. */
static void check_tokens(tsift_static_model *m, const char *text, const char *expected) {
  char *out = NULL;
  size_t n = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_static_model_embed_json(m, text, strlen(text), &out, &n, &err), TSIFT_OK);
  const char *a = out ? strstr(out, "\"tokens\":") : NULL;
  const char *b = a ? strstr(a, "],\"pooled\"") : NULL;
  char got[1024] = "(none)";
  if (a && b && (size_t)(b - a) < sizeof got - 2) {
    memcpy(got, a + 9, (size_t)(b - a) - 8);
    got[b - a - 8] = 0;
  }
  if (strcmp(got, expected) != 0) fprintf(stderr, "text \"%s\":\n", text);
  CHECK_EQ_STR(got, expected);
  tsift_free(out);
}

#define T(text, expected) check_tokens(m, text, expected)

static void test_tokenisation(void) {
  blob st = matrix(ROWS);
  tsift_error err;
  tsift_static_model *m = load(st, WP, &err);
  CHECK(m != NULL);
  if (m) {
    T("I live in New York city", "[\"i\",\"live\",\"in\",\"New York\",\"city\"]");
    T("new york", "[\"New York\"]");
    T("NEW  YORK!", "[\"new\",\"york\",\"!\"]");
    T("newyork files", "[\"[UNK]\",\"file\",\"##s\"]");
    T("file list", "[\"file\",\"list\"]");
    T("profile", "[\"pro\",\"##file\"]");
    T("[CLS] the [cls]", "[\"[CLS]\",\"the\",\"[UNK]\",\"[UNK]\",\"[UNK]\"]");
    T("a<x>b", "[\"a\",\"<x>\",\"b\"]");
    T("a <x> b", "[\"a\",\"<x>\",\"b\"]");
    T("C++ code", "[\"C++\",\"code\"]");
    T("York City new york city", "[\"york city\",\"New York\",\"city\"]");
    T("  new york  ", "[\"New York\"]");
    T("the file!", "[\"the\",\"file\",\"!\"]");
    T("x<x>  new york", "[\"x\",\"<x>\",\"New York\"]");
  }
  tsift_static_model_free(m);
  m = load(st, UNI, &err);
  CHECK(m != NULL);
  if (m) {
    T("I live in New York city", "[\"" U "i\",\"" U "live\",\"" U "in\",\"New York\",\"" U "city\"]");
    T("new york", "[\"New York\"]");
    T("NEW  YORK!", "[\"New York\",\"" U "\",\"!\"]");
    T("newyork files", "[\"" U "new\",\"<unk>\",\"" U "file\",\"s\"]");
    T("file list", "[\"file\",\"" U "list\"]");
    T("profile", "[\"" U "\",\"<unk>\"]");
    T("[CLS] the [cls]", "[\"" U "\",\"<unk>\",\"s\",\"<unk>\",\"" U "the\",\"" U "\",\"<unk>\",\"s\",\"<unk>\"]");
    T("a<x>b", "[\"" U "\",\"a\",\"<x>\",\"" U "\",\"b\"]");
    T("a <x> b", "[\"" U "\",\"a\",\"<x>\",\"" U "\",\"b\"]");
    T("C++ code", "[\"" U "\",\"<unk>\",\"" U "\",\"<unk>\"]");
    T("York City new york city", "[\"" U "york\",\"" U "city\",\"New York\",\"" U "city\"]");
    T("  new york  ", "[\"New York\"]");
    T("the file!", "[\"" U "the\",\"" U "\",\"file\",\"" U "\",\"!\"]");
    T("x<x>  new york", "[\"" U "\",\"x\",\"<x>\",\"New York\"]");

  }
  tsift_static_model_free(m);
  free(st.b);
}

/* WP with its added_tokens replaced by `added` (one static buffer). */
static const char *with_added(const char *base, const char *added) {
  static char buf[8192];
  const char *a = strstr(base, "\"added_tokens\":"), *z = strstr(base, "],\"normalizer\"");
  snprintf(buf, sizeof buf, "%.*s\"added_tokens\":%s%s", (int)(a - base), base, added, z + 1);
  return buf;
}

static void expect(const char *tok, size_t rows, tsift_status status, const char *needle) {
  blob st = matrix(rows);
  tsift_error err;
  tsift_static_model *m = load(st, tok, &err);
  CHECK(m == NULL);
  CHECK_EQ_INT(err.status, status);
  if (!strstr(err.message, needle)) fprintf(stderr, "expected \"%s\" in \"%s\"\n", needle, err.message);
  CHECK(strstr(err.message, needle) != NULL);
  tsift_static_model_free(m);
  free(st.b);
}

#define SHAPE "{\"id\", \"content\" (1 to 1024 bytes), boolean options}"

static void test_bad_added(void) {
  expect(with_added(WP, "{}"), ROWS, TSIFT_E_MODEL, "tokenizer.json: added_tokens must be an array");
  expect(with_added(WP, "[{\"id\":23,\"content\":\"a b\"},{\"id\":1}]"), ROWS, TSIFT_E_MODEL,
         "tokenizer.json: added_tokens[1] must be " SHAPE);
  expect(with_added(WP, "[7]"), ROWS, TSIFT_E_MODEL, "added_tokens[0] must be {");
  expect(with_added(WP, "[{\"id\":23,\"content\":\"\"}]"), ROWS, TSIFT_E_MODEL, "added_tokens[0] must be {");
  expect(with_added(WP, "[{\"id\":23,\"content\":\"a b\",\"lstrip\":1}]"), ROWS, TSIFT_E_MODEL, "added_tokens[0] must be {");
  expect(with_added(WP, "[{\"content\":\"a b\"}]"), ROWS, TSIFT_E_MODEL, "added_tokens[0] must be {");
  expect(with_added(WP, "[{\"id\":-1,\"content\":\"a b\"}]"), ROWS, TSIFT_E_MODEL, "added_tokens[0] must be {");
  expect(with_added(WP, "[{\"id\":23,\"content\":\"a b\"},{\"id\":23,\"content\":\"a b\"}]"), ROWS, TSIFT_E_MODEL,
         "tokenizer.json: added_tokens[1] \"a b\" is there twice");
  /* ids 23 and 24 fit 25 rows, the third does not */
  expect(with_added(WP, "[{\"id\":23,\"content\":\"a b\"},{\"id\":24,\"content\":\"c d\"},{\"id\":25,\"content\":\"e f\"}]"), 25,
         TSIFT_E_MODEL, "tokenizer.json: added_tokens[2] \"e f\" gets an id past the matrix's rows or of model.vocab");
  /* a vocabulary with a gap: the library's next id (its size) is a vocabulary token's */
  expect("{\"added_tokens\":[{\"id\":2,\"content\":\"a b\"}],\"model\":{\"type\":\"WordPiece\",\"unk_token\":\"[UNK]\","
         "\"vocab\":{\"[UNK]\":0,\"x\":2}}}",
         ROWS, TSIFT_E_MODEL, "tokenizer.json: added_tokens[0] \"a b\" gets an id past the matrix's rows or of model.vocab");
  /* normalised to nothing (Strip), and too long */
  expect(with_added(UNI, "[{\"id\":18,\"content\":\"  \"}]"), ROWS, TSIFT_E_MODEL,
         "tokenizer.json: added_tokens[0] \"  \" normalizes to nothing or over 1024 bytes");
  char *big = malloc(1100), *added = malloc(1200);
  memset(big, 'a', 1025);
  big[1025] = 0;
  snprintf(added, 1200, "[{\"id\":23,\"content\":\"%s\"}]", big);
  expect(with_added(WP, added), ROWS, TSIFT_E_MODEL, "added_tokens[0] must be {");
  free(big);
  free(added);
}

static void test_alloc_failures(void) {
  blob st = matrix(ROWS);
  const char *toks[2] = {WP, UNI};
  const char *text = "I live in New York city, a<x>b [CLS] file C++ profile  new york";
  for (int k = 0; k < 2; k++) {
    char *clean = NULL;
    {
      tsift_error err;
      tsift_static_model *m = load(st, toks[k], &err);
      CHECK(m != NULL);
      size_t n = 0;
      if (m) tsift_static_model_embed_json(m, text, strlen(text), &clean, &n, &err);
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
      tsift_status s = tsift_static_model_load(st.b, st.n, toks[k], strlen(toks[k]), &m, &err);
      if (s == TSIFT_OK) s = tsift_static_model_embed_json(m, text, strlen(text), &out, &n, &err);
      if (s == TSIFT_OK && (!out || !clean || strcmp(out, clean) != 0)) differs++;
      tsift_free(out);
      tsift_static_model_free(m);
      if (g_live != 0) leaks++;
      if (g_allocs < g_fail_at) break;
      swept++;
      if (s != TSIFT_E_NOMEM || err.status != TSIFT_E_NOMEM) nomem_ok = 0;
    }
    tsift_set_allocator(NULL, NULL, NULL);
    printf("static model (added_tokens, %s): allocation failure injected at %d points\n", k ? "Unigram" : "WordPiece", swept);
    CHECK(swept > 20);
    CHECK(nomem_ok);
    CHECK_EQ_INT(leaks, 0);
    CHECK_EQ_INT(differs, 0);
    tsift_free(clean);
  }
  free(st.b);
}

int main(void) {
  test_tokenisation();
  test_bad_added();
  test_alloc_failures();
  return harness_finish("static_model_added");
}
