/* test_static_model.c — the static-embedding model (issue 25): tokenisation
 * against hand-written expectations, the pooled vector against a mean
 * computed here from the rows, every dtype, every class of malformed file
 * with its typed error, and an allocation failure at every point of load +
 * embed. The models are built here byte by byte (no generator involved), so
 * the expectations do not come from the code under test. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/alloc.h"
#include "harness.h"
#include "model/static_model.h"
#include "toolsift.h"

#include "fail_alloc.h"

#define DIM 4
/* The vocabulary of the hand-made model, id = position. */
static const char *VOCAB[] = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "un",  "##aff", "##able",
                              "fork",  "repo",  "##s",   ",",     "!",     "\xE4\xB8\xAD" /* 中 */,
                              "\xE6\x96\x87" /* 文 */, "cafe", "a", "##a"};
#define ROWS (sizeof VOCAB / sizeof VOCAB[0])

/* Row i: small exact values ([PAD] is zero). */
static double row_value(size_t i, size_t c) {
  if (i == 0) return 0;
  static const double pattern[DIM] = {1, 0.5, -1, 2};
  return pattern[c] * (double)((i % 5) + 1) + (double)(c == (i % DIM)) * (double)i;
}

/* ---- building files ------------------------------------------------------ */

typedef struct blob {
  uint8_t *b;
  size_t n;
} blob;

/* 8-byte length + header + data. */
static blob st_file(const char *header, const void *data, size_t data_len) {
  size_t h = strlen(header);
  blob f = {malloc(8 + h + data_len + 1), 8 + h + data_len};
  for (int i = 0; i < 8; i++) f.b[i] = (uint8_t)((uint64_t)h >> (8 * i));
  memcpy(f.b + 8, header, h);
  if (data_len) memcpy(f.b + 8 + h, data, data_len);
  return f;
}

static void put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* An exact IEEE half of a value that has one (normal or zero), bit by bit. */
static uint16_t half_of(double v) {
  if (v == 0) return 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  double a = v < 0 ? -v : v;
  int e = 0;
  while (a >= 2) a /= 2, e++;
  while (a < 1) a *= 2, e--;
  return (uint16_t)(sign | ((e + 15) << 10) | (uint16_t)((a - 1) * 1024));
}

/* The model's matrix in one dtype. */
static blob matrix(const char *dtype) {
  size_t size = strcmp(dtype, "F64") == 0 ? 8 : strcmp(dtype, "F32") == 0 ? 4 : strcmp(dtype, "I8") == 0 ? 1 : 2;
  size_t bytes = ROWS * DIM * size;
  uint8_t *data = calloc(1, bytes);
  for (size_t i = 0; i < ROWS; i++)
    for (size_t c = 0; c < DIM; c++) {
      double v = row_value(i, c);
      uint8_t *p = data + (i * DIM + c) * size;
      if (size == 8) {
        uint64_t u;
        memcpy(&u, &v, 8);
        put_le(p, u, 8);
      } else if (size == 4 || strcmp(dtype, "BF16") == 0) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        if (size == 4) put_le(p, u, 4);
        else put_le(p, u >> 16, 2); /* these values have no bits below bf16's */
      } else if (size == 2) {
        put_le(p, half_of(v), 2);
      } else {
        p[0] = (uint8_t)(int8_t)(v * 2); /* I8: twice the value, same direction */
      }
    }
  char header[256];
  snprintf(header, sizeof header,
           "{\"__metadata__\":{\"format\":\"pt\"},\"embeddings\":{\"dtype\":\"%s\",\"shape\":[%zu,%d],"
           "\"data_offsets\":[0,%zu]}}  ",
           dtype, ROWS, DIM, bytes);
  blob f = st_file(header, data, bytes);
  free(data);
  return f;
}

/* tokenizer.json with the given normalizer, pre_tokenizer and extra model keys. */
static char *tokenizer(const char *normalizer, const char *pretok, const char *model_extra) {
  size_t cap = 4096;
  char *s = malloc(cap);
  int n = snprintf(s, cap,
                   "{\"version\":\"1.0\",\"added_tokens\":[],\"normalizer\":%s,\"pre_tokenizer\":%s,"
                   "\"model\":{\"type\":\"WordPiece\",\"unk_token\":\"[UNK]\",\"continuing_subword_prefix\":\"##\","
                   "\"max_input_chars_per_word\":100%s,\"vocab\":{",
                   normalizer, pretok, model_extra);
  for (size_t i = 0; i < ROWS; i++) {
    const char *t = VOCAB[i];
    n += snprintf(s + n, cap - (size_t)n, "%s\"%s%s\":%zu", i ? "," : "", strcmp(t, "\"") == 0 ? "\\" : "", t, i);
  }
  snprintf(s + n, cap - (size_t)n, "}}}");
  return s;
}

#define BERT "{\"type\":\"BertNormalizer\",\"clean_text\":true,\"handle_chinese_chars\":true,\"strip_accents\":null,\"lowercase\":true}"
#define BERT_PRE "{\"type\":\"BertPreTokenizer\"}"

static tsift_static_model *load(blob st, const char *tok, tsift_error *err) {
  tsift_static_model *m = NULL;
  tsift_static_model_load(st.b, st.n, tok, strlen(tok), &m, err);
  return m;
}

/* The "tokens" array of the embedding JSON of text. */
static void check_tokens(tsift_static_model *m, const char *text, size_t len, const char *expected) {
  char *out = NULL;
  size_t n = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_static_model_embed_json(m, text, len, &out, &n, &err), TSIFT_OK);
  const char *a = out ? strstr(out, "\"tokens\":") : NULL;
  const char *b = a ? strstr(a, "],\"pooled\"") : NULL;
  char got[1024] = "(none)";
  if (a && b && (size_t)(b - a) < sizeof got - 2) {
    memcpy(got, a + 9, (size_t)(b - a) - 8);
    got[b - a - 8] = 0;
  }
  if (strcmp(got, expected) != 0) fprintf(stderr, "text \"%.*s\":\n", (int)len, text);
  CHECK_EQ_STR(got, expected);
  tsift_free(out);
}

static void test_tokenisation(void) {
  blob st = matrix("F32");
  char *tok = tokenizer(BERT, BERT_PRE, "");
  tsift_error err;
  tsift_static_model *m = load(st, tok, &err);
  CHECK(m != NULL);
  if (!m) fprintf(stderr, "load: %s\n", err.message);
  if (m) {
#define T(text, expected) check_tokens(m, text, sizeof text - 1, expected)
    T("Hello, World!", "[\"hello\",\",\",\"world\",\"!\"]");
    T("unaffable", "[\"un\",\"##aff\",\"##able\"]");           /* greedy longest match */
    T("repos FORK", "[\"repo\",\"##s\",\"fork\"]");             /* lowercase */
    T("Caf\xC3\xA9", "[\"cafe\"]");                             /* é: NFD, the mark dropped */
    T("Cafe\xCC\x81", "[\"cafe\"]");                            /* a combining acute, dropped */
    T("unx", "[\"[UNK]\"]");                                    /* no full split: the word is [UNK] */
    T("\xE4\xB8\xAD\xE6\x96\x87", "[\"\xE4\xB8\xAD\",\"\xE6\x96\x87\"]"); /* CJK ideographs split */
    T("hel\x7Flo", "[\"hello\"]");                              /* a control character removed */
    T("fork\xC2\xA0repo\trepo\nhello", "[\"fork\",\"repo\",\"repo\",\"hello\"]"); /* NBSP, tab, newline */
    T("hello\xC2\xA1world", "[\"hello\",\"[UNK]\",\"world\"]"); /* ¡ (Po) is punctuation alone */
    T("hello\xFFworld", "[\"[UNK]\"]");                          /* a bad byte is U+FFFD, dropped: helloworld */
    T("aaa", "[\"a\",\"##a\",\"##a\"]");
    /* as the tokenizers library (checked against it, docs/semantic.md): its
     * CJK Extension E starts at U+2B920, so U+2B906 stays inside the word;
     * an unassigned code point (U+0378) is not dropped by clean_text */
    T("a\xF0\xAB\xA4\x86" "a", "[\"[UNK]\"]");
    T("a\xF0\xAB\xA4\xA0" "a", "[\"a\",\"[UNK]\",\"a\"]");
    T("a\xCD\xB8", "[\"[UNK]\"]");
    T("  ", "[]");
    T("", "[]");
    /* a word over max_input_chars_per_word (100) is one [UNK]; 100 is split */
    char w[102];
    memset(w, 'a', sizeof w);
    check_tokens(m, w, 101, "[\"[UNK]\"]");
    char exp[1024] = "[\"a\"";
    for (int i = 1; i < 100; i++) strcat(exp, ",\"##a\"");
    strcat(exp, "]");
    check_tokens(m, w, 100, exp);
    /* the text is read up to 65536 bytes: "hello" ends there, " world" is past it */
    char *far = malloc(65536 + 6);
    memset(far, ' ', 65531);
    memcpy(far + 65531, "hello world", 11);
    check_tokens(m, far, 65542, "[\"hello\"]");
    free(far);
#undef T
  }
  tsift_static_model_free(m);
  free(tok);
  /* Without strip_accents and lowercase: é stays, case stays. */
  tok = tokenizer("{\"type\":\"BertNormalizer\",\"lowercase\":false,\"strip_accents\":false}", BERT_PRE, "");
  m = load(st, tok, &err);
  CHECK(m != NULL);
  if (m) {
    check_tokens(m, "Hello hello caf\xC3\xA9", 17, "[\"[UNK]\",\"hello\",\"[UNK]\"]");
    tsift_static_model_free(m);
  }
  free(tok);
  /* WhitespaceSplit: punctuation stays inside the word; normalizer null: case stays. */
  tok = tokenizer("null", "{\"type\":\"WhitespaceSplit\"}", "");
  m = load(st, tok, &err);
  CHECK(m != NULL);
  if (m) {
    check_tokens(m, "hello, world", 12, "[\"[UNK]\",\"world\"]");
    tsift_static_model_free(m);
  }
  free(tok);
  /* Lowercase alone: accents stay. */
  tok = tokenizer("{\"type\":\"Lowercase\"}", BERT_PRE, "");
  m = load(st, tok, &err);
  CHECK(m != NULL);
  if (m) {
    check_tokens(m, "HELLO Caf\xC3\xA9", 11, "[\"hello\",\"[UNK]\"]");
    tsift_static_model_free(m);
  }
  free(tok);
  free(st.b);
}

/* The unit vector of the sum of rows `ids`, computed here. */
static void expected_vector(const size_t *ids, size_t n, double scale, float *out) {
  double sum[DIM] = {0}, sq = 0;
  for (size_t k = 0; k < n; k++)
    for (size_t c = 0; c < DIM; c++) sum[c] += row_value(ids[k], c) * scale;
  for (size_t c = 0; c < DIM; c++) sq += sum[c] * sum[c];
  for (size_t c = 0; c < DIM; c++) out[c] = (float)(sum[c] / sqrt(sq));
}

static void check_embedding(tsift_static_model *m, const char *text, const size_t *ids, size_t n, double scale) {
  float got[DIM], want[DIM];
  size_t pooled = 99;
  tsift_error err;
  CHECK_EQ_INT(tsift_static_model_embed(m, text, strlen(text), got, &pooled, &err), TSIFT_OK);
  CHECK_EQ_INT(pooled, n);
  expected_vector(ids, n, scale, want);
  double norm = 0;
  for (size_t c = 0; c < DIM; c++) {
    CHECK_NEAR(got[c], want[c], 1e-6);
    norm += (double)got[c] * got[c];
  }
  CHECK_NEAR(norm, 1.0, 1e-6);
}

static void test_embedding(void) {
  const char *dtypes[] = {"F32", "F16", "BF16", "F64", "I8"};
  char *tok = tokenizer(BERT, BERT_PRE, "");
  float first[DIM] = {0};
  for (size_t d = 0; d < 5; d++) {
    blob st = matrix(dtypes[d]);
    tsift_error err;
    tsift_static_model *m = load(st, tok, &err);
    CHECK(m != NULL);
    if (!m) {
      fprintf(stderr, "%s: %s\n", dtypes[d], err.message);
      free(st.b);
      continue;
    }
    CHECK_EQ_INT(tsift_static_model_dim(m), DIM);
    const size_t hw[] = {4, 5}, hello[] = {4}, fork3[] = {9, 10, 11, 9};
    double scale = strcmp(dtypes[d], "I8") == 0 ? 2 : 1;
    check_embedding(m, "hello world", hw, 2, scale);
    check_embedding(m, "hello zzz", hello, 1, scale);          /* [UNK] is not pooled */
    check_embedding(m, "fork repos fork", fork3, 4, scale);
    /* No known token: the zero vector, pooled 0. */
    float v[DIM] = {1, 1, 1, 1};
    size_t pooled = 7;
    CHECK_EQ_INT(tsift_static_model_embed(m, "zzz qqq", 7, v, &pooled, &err), TSIFT_OK);
    CHECK_EQ_INT(pooled, 0);
    CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0);
    /* At most 512 tokens pooled. */
    char *many = malloc(600 * 6 + 1);
    for (int i = 0; i < 600; i++) memcpy(many + i * 6, "hello ", 6);
    many[3600] = 0;
    CHECK_EQ_INT(tsift_static_model_embed(m, many, 3600, v, &pooled, &err), TSIFT_OK);
    CHECK_EQ_INT(pooled, 512);
    free(many);
    /* Every dtype gives the same bytes (the values are exact in each). */
    float hwv[DIM];
    tsift_static_model_embed(m, "hello world", 11, hwv, NULL, &err);
    if (d == 0) memcpy(first, hwv, sizeof first);
    else CHECK(memcmp(first, hwv, sizeof first) == 0);
    /* The id: static-<12 hex> (no __metadata__ name here). */
    const char *id = tsift_static_model_id(m);
    CHECK(strncmp(id, "static-", 7) == 0 && strlen(id) == 19);
    char *out = NULL;
    size_t n = 0;
    CHECK_EQ_INT(tsift_static_model_embed_json(m, "zzz", 3, &out, &n, &err), TSIFT_OK);
    CHECK_CONTAINS(out, "\"pooled\":0,\"vector\":null}");
    tsift_free(out);
    tsift_static_model_free(m);
    free(st.b);
  }
  free(tok);
}

static void test_identity(void) {
  char *tok = tokenizer(BERT, BERT_PRE, "");
  blob a = matrix("F32"), b = matrix("F16");
  tsift_error err;
  tsift_static_model *ma = load(a, tok, &err), *ma2 = load(a, tok, &err), *mb = load(b, tok, &err);
  CHECK(ma && ma2 && mb);
  if (ma && ma2 && mb) {
    CHECK_EQ_STR(tsift_static_model_id(ma), tsift_static_model_id(ma2)); /* deterministic */
    CHECK(strcmp(tsift_static_model_id(ma), tsift_static_model_id(mb)) != 0); /* another file, another id */
  }
  tsift_static_model_free(ma);
  tsift_static_model_free(ma2);
  tsift_static_model_free(mb);
  /* A __metadata__ name names the model. */
  float data[2 * 2] = {1, 0, 0, 1};
  blob n = st_file("{\"__metadata__\":{\"name\":\"potion-base-8m\"},\"emb\":{\"dtype\":\"F32\",\"shape\":[2,2],"
                   "\"data_offsets\":[0,16]}}",
                   data, 16);
  const char *small = "{\"normalizer\":null,\"pre_tokenizer\":null,\"model\":{\"type\":\"WordPiece\",\"unk_token\":\"[UNK]\","
                      "\"vocab\":{\"[UNK]\":0,\"x\":1}}}";
  tsift_static_model *m = load(n, small, &err);
  CHECK(m != NULL); /* also: the only 2-D tensor under another name is the matrix */
  if (m) {
    CHECK(strncmp(tsift_static_model_id(m), "potion-base-8m-", 15) == 0 && strlen(tsift_static_model_id(m)) == 27);
    float v[2];
    size_t pooled = 0;
    /* pre_tokenizer null: the whole text is one word. */
    CHECK_EQ_INT(tsift_static_model_embed(m, "x", 1, v, &pooled, &err), TSIFT_OK);
    CHECK(pooled == 1 && v[0] == 0 && v[1] == 1);
    CHECK_EQ_INT(tsift_static_model_embed(m, "x x", 3, v, &pooled, &err), TSIFT_OK);
    CHECK_EQ_INT(pooled, 0);
  }
  tsift_static_model_free(m);
  free(n.b);
  free(a.b);
  free(b.b);
  free(tok);
}

/* ---- malformed files ------------------------------------------------------- */

static void expect_st(blob f, tsift_status status, const char *needle) {
  char *tok = tokenizer(BERT, BERT_PRE, "");
  tsift_error err;
  tsift_static_model *m = (tsift_static_model *)1;
  tsift_status st = tsift_static_model_load(f.b, f.n, tok, strlen(tok), &m, &err);
  if (st != status) fprintf(stderr, "expected %s for \"%s\", got %s: %s\n", tsift_status_name(status), needle,
                            tsift_status_name(st), err.message);
  CHECK_EQ_INT(st, status);
  CHECK_EQ_INT(err.status, status);
  CHECK(m == NULL);
  CHECK_CONTAINS(err.message, needle);
  free(tok);
  free(f.b);
}

/* A header over the model's data (ROWS × DIM F32). */
static void expect_header(const char *header, tsift_status status, const char *needle) {
  blob m = matrix("F32");
  size_t data = ROWS * DIM * 4;
  blob f = st_file(header, m.b + m.n - data, data);
  free(m.b);
  expect_st(f, status, needle);
}

static void test_bad_safetensors(void) {
  uint8_t four[4] = {1, 2, 3, 4};
  expect_st((blob){memcpy(malloc(4), four, 4), 4}, TSIFT_E_MODEL, "shorter than the 8-byte header length");
  blob f = matrix("F32");
  put_le(f.b, 1u << 20, 8);
  expect_st(f, TSIFT_E_MODEL, "header length 1048576 is past the end of the file");
  size_t big = (16u << 20) + 16;
  f = (blob){calloc(1, big + 8), big + 8};
  put_le(f.b, big, 8);
  f.b[8] = '{';
  expect_st(f, TSIFT_E_LIMIT, "over the 16777216-byte limit");
  expect_header("[1,2]", TSIFT_E_MODEL, "is not a JSON object");
  expect_header("{\"embeddings\":", TSIFT_E_JSON, "safetensors header: malformed JSON at byte");
  expect_header("{\"embeddings\":5}", TSIFT_E_MODEL, "tensor \"embeddings\": expected an object");
  expect_header("{\"embeddings\":{\"dtype\":\"F99\",\"shape\":[19,4],\"data_offsets\":[0,304]}}", TSIFT_E_MODEL,
                "tensor \"embeddings\": unknown dtype \"F99\"");
  expect_header("{\"embeddings\":{\"dtype\":\"I32\",\"shape\":[19,4],\"data_offsets\":[0,304]}}", TSIFT_E_MODEL,
                "dtype I32 is not supported");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":\"19x4\",\"data_offsets\":[0,304]}}", TSIFT_E_MODEL,
                "\"shape\" must be an array");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,-4],\"data_offsets\":[0,304]}}", TSIFT_E_MODEL,
                "\"shape\" must hold non-negative integers");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,4],\"data_offsets\":[0]}}", TSIFT_E_MODEL,
                "\"data_offsets\" must be [begin, end]");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,4],\"data_offsets\":[304,0]}}", TSIFT_E_MODEL,
                "data_offsets begin after they end");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,4],\"data_offsets\":[0,400]}}", TSIFT_E_MODEL,
                "data_offsets end at 400, past the 304 data bytes");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,3],\"data_offsets\":[0,304]}}", TSIFT_E_MODEL,
                "data_offsets span 304 bytes but shape × F32 is 57 elements");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[76],\"data_offsets\":[0,304]}}", TSIFT_E_MODEL,
                "tensor \"embeddings\" has 1 dimensions, expected 2");
  expect_header("{\"a\":{\"dtype\":\"F32\",\"shape\":[19,2],\"data_offsets\":[0,152]},"
                "\"b\":{\"dtype\":\"F32\",\"shape\":[19,2],\"data_offsets\":[152,304]}}",
                TSIFT_E_MODEL, "no tensor \"embeddings\" and 2 two-dimensional tensors");
  expect_st(st_file("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[0,4],\"data_offsets\":[0,0]}}", NULL, 0), TSIFT_E_MODEL,
            "is empty");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,4],\"data_offsets\":[0,304]},"
                "\"mapping\":{\"dtype\":\"I8\",\"shape\":[0],\"data_offsets\":[0,0]}}",
                TSIFT_E_MODEL, "safetensors: tensor \"mapping\": dtype I8 is not supported (I32, I64)");
  expect_header("{\"__metadata__\":{\"name\":5},\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,4],\"data_offsets\":[0,304]}}",
                TSIFT_E_MODEL, "\"__metadata__\" value \"name\" is not a string");
  expect_header("{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,4],\"data_offsets\":[0,304]},"
                "\"embeddings\":{\"dtype\":\"F32\",\"shape\":[19,4],\"data_offsets\":[0,304]}}",
                TSIFT_E_JSON, "duplicate key \"embeddings\"");
  /* limits: a dimension over 4096, more than 1,000,000 rows */
  uint8_t *zeros = calloc(1, 1000001);
  f = st_file("{\"embeddings\":{\"dtype\":\"I8\",\"shape\":[1,4097],\"data_offsets\":[0,4097]}}", zeros, 4097);
  expect_st(f, TSIFT_E_LIMIT, "dimension 4097 is over the limit of 4096");
  f = st_file("{\"embeddings\":{\"dtype\":\"I8\",\"shape\":[1000001,1],\"data_offsets\":[0,1000001]}}", zeros, 1000001);
  expect_st(f, TSIFT_E_LIMIT, "1000001 rows is over the limit of 1000000");
  free(zeros);
  /* a NaN and an infinity in the matrix */
  f = matrix("F32");
  put_le(f.b + f.n - 4 * (DIM * 2) + 4, 0x7FC00000u, 4); /* row 17, column 1 */
  expect_st(f, TSIFT_E_MODEL, "row 17, column 1 is NaN");
  f = matrix("F16");
  put_le(f.b + f.n - 2, 0x7C00u, 2); /* the last value: +inf */
  expect_st(f, TSIFT_E_MODEL, "row 18, column 3 is infinite");
}

/* The layout (issue 34): the tensors must tile the data as the reference
 * library requires — no overlap, no gap, no trailing bytes — whatever order
 * the header lists them in; and the whole file is bounded by its length
 * alone, before a byte past the first 8 is read. */
static void expect_layout(const char *header, size_t data_len, tsift_status status, const char *needle) {
  uint8_t *zeros = calloc(1, data_len + 1);
  expect_st(st_file(header, zeros, data_len), status, needle);
  free(zeros);
}

#define EMB(begin, end) "\"embeddings\":{\"dtype\":\"I8\",\"shape\":[19,4],\"data_offsets\":[" #begin "," #end "]}"

static void test_layout(void) {
  /* overlapping tensors, the reference's InvalidOffset */
  expect_layout("{" EMB(0, 76) ",\"x\":{\"dtype\":\"I8\",\"shape\":[8],\"data_offsets\":[68,76]}}", 76, TSIFT_E_MODEL,
                "safetensors: tensors \"embeddings\" (bytes 0..76) and \"x\" (bytes 68..76) overlap");
  expect_layout("{\"x\":{\"dtype\":\"I8\",\"shape\":[76],\"data_offsets\":[0,76]}," EMB(0, 76) "}", 76, TSIFT_E_MODEL,
                "tensors \"x\" (bytes 0..76) and \"embeddings\" (bytes 0..76) overlap");
  expect_layout("{" EMB(0, 76) ",\"z\":{\"dtype\":\"I8\",\"shape\":[0],\"data_offsets\":[10,10]}}", 76, TSIFT_E_MODEL,
                "tensors \"embeddings\" (bytes 0..76) and \"z\" (bytes 10..10) overlap");
  /* gaps: before the first tensor, between two */
  expect_layout("{" EMB(8, 84) "}", 84, TSIFT_E_MODEL,
                "safetensors: data bytes 0..8 are in no tensor (the first, \"embeddings\", begins at 8)");
  expect_layout("{\"a\":{\"dtype\":\"I8\",\"shape\":[8],\"data_offsets\":[0,8]}," EMB(16, 92) "}", 92, TSIFT_E_MODEL,
                "safetensors: data bytes 8..16 are in no tensor (between \"a\" and \"embeddings\")");
  /* trailing bytes (the sparse-file repro, small): 128 bytes of tensor, then zeros */
  expect_layout("{" EMB(0, 76) "}", 76 + 1000, TSIFT_E_MODEL,
                "safetensors: data bytes 76..1076 are in no tensor (1000 bytes after the last, \"embeddings\")");
  expect_layout("{\"__metadata__\":{}}", 4, TSIFT_E_MODEL, "safetensors: data bytes 0..4 are in no tensor (the header names none)");
  expect_layout("{}", 0, TSIFT_E_MODEL, "no tensor \"embeddings\" and 0 two-dimensional tensors");
  /* fine: the header's order is not the data's, empty tensors where others begin and end */
  char *tok = tokenizer(BERT, BERT_PRE, "");
  const char *headers[] = {
      "{\"b\":{\"dtype\":\"I8\",\"shape\":[4],\"data_offsets\":[76,80]}," EMB(0, 76) "}",
      "{\"e0\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}," EMB(0, 76)
      ",\"e1\":{\"dtype\":\"I8\",\"shape\":[2,0],\"data_offsets\":[76,76]},\"b\":{\"dtype\":\"I8\",\"shape\":[4],\"data_offsets\":[76,80]},"
      "\"e2\":{\"dtype\":\"I8\",\"shape\":[0],\"data_offsets\":[80,80]}}",
  };
  uint8_t data[80];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i % 7 + 1);
  for (size_t h = 0; h < sizeof headers / sizeof headers[0]; h++) {
    blob f = st_file(headers[h], data, sizeof data);
    tsift_error err;
    tsift_static_model *m = load(f, tok, &err);
    if (!m) fprintf(stderr, "layout %zu: %s\n", h, err.message);
    CHECK(m != NULL);
    tsift_static_model_free(m);
    free(f.b);
  }
  free(tok);
  /* the whole file's bound, by its length alone: a mapping of that many
   * bytes that is never touched past its 8-byte length (zero: no header) */
  size_t max = TSIFT_STATIC_MAX_FILE;
  CHECK_EQ_INT(max, 8u + (16u << 20) + (1024u << 20));
  uint8_t *big = mmap(NULL, max + 1, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  CHECK(big != MAP_FAILED);
  if (big != MAP_FAILED) {
    tsift_error err;
    tsift_static_model *m = NULL;
    CHECK_EQ_INT(tsift_static_model_load(big, max + 1, "{}", 2, &m, &err), TSIFT_E_LIMIT);
    CHECK_CONTAINS(err.message, "safetensors: 1090519049 bytes, over the 1090519048-byte limit of a model file");
    CHECK_EQ_INT(tsift_static_model_load(big, max, "{}", 2, &m, &err), TSIFT_E_MODEL); /* at the bound: read on */
    CHECK_CONTAINS(err.message, "is not a JSON object");
    munmap(big, max + 1);
  }
}

static void expect_tok(const char *tok, tsift_status status, const char *needle) {
  blob st = matrix("F32");
  tsift_error err;
  tsift_static_model *m = (tsift_static_model *)1;
  tsift_status s = tsift_static_model_load(st.b, st.n, tok, strlen(tok), &m, &err);
  if (s != status) fprintf(stderr, "expected %s for \"%s\", got %s: %s\n", tsift_status_name(status), needle,
                           tsift_status_name(s), err.message);
  CHECK_EQ_INT(s, status);
  CHECK(m == NULL);
  CHECK_CONTAINS(err.message, needle);
  free(st.b);
}

#define MODEL(vocab, extra) \
  "{\"normalizer\":null,\"pre_tokenizer\":null,\"model\":{\"type\":\"WordPiece\",\"unk_token\":\"[UNK]\"" extra ",\"vocab\":" vocab "}}"

/* {"added_tokens": added, …the keys of tokenizer json…} (one static buffer). */
static const char *with_added(const char *added, const char *json) {
  static char buf[1024];
  snprintf(buf, sizeof buf, "{\"added_tokens\":%s,%s", added, json + 1);
  return buf;
}

static void test_bad_tokenizer(void) {
  expect_tok("{\"model\":", TSIFT_E_JSON, "tokenizer.json: malformed JSON at byte 9");
  expect_tok("[]", TSIFT_E_MODEL, "tokenizer.json: expected a JSON object");
  expect_tok("{\"model\":{\"type\":\"BPE\",\"vocab\":{}}}", TSIFT_E_MODEL, "model type \"BPE\" is not supported (WordPiece or Unigram)");
  expect_tok("{\"model\":{\"vocab\":{}}}", TSIFT_E_MODEL, "model type (missing) is not supported");
  expect_tok("{\"normalizer\":{\"type\":\"NFKC\"},\"model\":{}}", TSIFT_E_MODEL,
             "normalizer type \"NFKC\" is not supported (BertNormalizer, Lowercase or null)");
  expect_tok("{\"normalizer\":{\"type\":\"BertNormalizer\",\"lowercase\":\"yes\"},\"model\":{}}", TSIFT_E_MODEL,
             "BertNormalizer: clean_text, handle_chinese_chars and lowercase must be booleans");
  expect_tok("{\"pre_tokenizer\":{\"type\":\"Metaspace\"},\"model\":{}}", TSIFT_E_MODEL,
             "pre_tokenizer type \"Metaspace\" is not supported");
  expect_tok(MODEL("[]", ""), TSIFT_E_MODEL, "model.vocab must be an object {token: id}, got an array");
  expect_tok(MODEL("{}", ""), TSIFT_E_MODEL, "model.vocab is empty");
  expect_tok(MODEL("{\"[UNK]\":0,\"x\":19}", ""), TSIFT_E_MODEL,
             "model.vocab \"x\": the id must be an integer from 0 to 18 (the matrix has 19 rows)");
  expect_tok(MODEL("{\"[UNK]\":0,\"x\":1.5}", ""), TSIFT_E_MODEL, "model.vocab \"x\": the id must be an integer");
  expect_tok(MODEL("{\"[UNK]\":0,\"x\":3,\"y\":3}", ""), TSIFT_E_MODEL, "model.vocab: \"x\" and \"y\" both have id 3");
  expect_tok(MODEL("{\"[UNK]\":0,\"x\":3,\"x\":4}", ""), TSIFT_E_JSON, "duplicate key \"x\"");
  expect_tok(MODEL("{\"[UNK]\":0,\"\":3}", ""), TSIFT_E_MODEL, "model.vocab has an empty token");
  expect_tok("{\"model\":{\"type\":\"WordPiece\",\"unk_token\":\"<unk>\",\"vocab\":{\"[UNK]\":0}}}", TSIFT_E_MODEL,
             "model.unk_token \"<unk>\" is not in model.vocab");
  expect_tok("{\"model\":{\"type\":\"WordPiece\",\"vocab\":{\"[UNK]\":0}}}", TSIFT_E_MODEL, "model.unk_token must be a string");
  expect_tok(MODEL("{\"[UNK]\":0}", ",\"max_input_chars_per_word\":0"), TSIFT_E_MODEL,
             "model.max_input_chars_per_word must be an integer from 1 to 1000");
  expect_tok(MODEL("{\"[UNK]\":0}", ",\"continuing_subword_prefix\":7"), TSIFT_E_MODEL,
             "model.continuing_subword_prefix must be a string");
  expect_tok("{\"model\":\"WordPiece\"}", TSIFT_E_MODEL, "\"model\" must be an object");
  expect_tok("{\"model\":{\"type\":\"WordPiece\",\"vocab\":{\"\xFF\":0}}}", TSIFT_E_UTF8, "tokenizer.json: invalid UTF-8 at byte");
  /* added_tokens: malformed ones (the forms and their matching:
   * test_static_model_added.c) */
  char *ok = tokenizer(BERT, BERT_PRE, "");
  memcpy(strstr(ok, "\"added_tokens\":[]"), "\"added_tokens\":0 ", 17);
  expect_tok(ok, TSIFT_E_MODEL, "tokenizer.json: added_tokens must be an array");
  free(ok);
  expect_tok(with_added("[{\"id\":1,\"content\":\"[UNK]\"},{\"id\":5}]", MODEL("{\"[UNK]\":1}", "")), TSIFT_E_MODEL,
             "tokenizer.json: added_tokens[1] must be {\"id\", \"content\"");
  {
    blob st = matrix("F32");
    const char *tok = with_added("[{\"id\":1,\"content\":\"[UNK]\",\"special\":true},{\"id\":2,\"content\":\"[CLS]\"}]",
                                 MODEL("{\"[UNK]\":1,\"[CLS]\":2,\"x\":0}", ""));
    tsift_error e;
    tsift_static_model *m = load(st, tok, &e);
    CHECK(m != NULL);
    if (m) check_tokens(m, "x", 1, "[\"x\"]");
    tsift_static_model_free(m);
    free(st.b);
  }
  /* NULL arguments */
  tsift_error err;
  tsift_static_model *m = NULL;
  CHECK_EQ_INT(tsift_static_model_load(NULL, 5, "{}", 2, &m, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_static_model_load(NULL, 0, NULL, 0, NULL, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_static_model_embed(NULL, "x", 1, NULL, NULL, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_static_model_dim(NULL), 0);
}

/* ---- allocation failure at every point ------------------------------------- */

static void test_alloc_failures(void) {
  blob st = matrix("F16");
  char *tok = tokenizer(BERT, BERT_PRE, "");
  const char *text = "Hello, W\xC3\xB6rld! unaffable \xE4\xB8\xAD\xE6\x96\x87 zzz";
  char *clean = NULL;
  {
    tsift_error err;
    tsift_static_model *m = load(st, tok, &err);
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
    float v[DIM];
    tsift_status s = tsift_static_model_load(st.b, st.n, tok, strlen(tok), &m, &err);
    if (s == TSIFT_OK) s = tsift_static_model_embed(m, text, strlen(text), v, NULL, &err);
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
  printf("static model: allocation failure injected at %d points\n", swept);
  CHECK(swept > 20);
  CHECK(nomem_ok);
  CHECK_EQ_INT(leaks, 0);
  CHECK_EQ_INT(differs, 0);
  tsift_free(clean);
  free(tok);
  free(st.b);
}

/* The wasm host's load: the model takes the buffer over and reads it in
 * place; the same id and vectors as a copying load; a failed load (bad file,
 * or any allocation) frees the buffer. */
static void test_take(void) {
  blob st = matrix("F16");
  char *tok = tokenizer(BERT, BERT_PRE, "");
  tsift_error err;
  tsift_static_model *a = load(st, tok, &err), *b = NULL;
  uint8_t *copy = tsift_alloc_bytes(st.n);
  memcpy(copy, st.b, st.n);
  CHECK_EQ_INT(tsift_static_model_load_take(copy, st.n, tok, strlen(tok), &b, &err), TSIFT_OK);
  CHECK(a && b);
  if (a && b) {
    CHECK_EQ_STR(tsift_static_model_id(a), tsift_static_model_id(b));
    float va[DIM], vb[DIM];
    tsift_static_model_embed(a, "unaffable repos", 15, va, NULL, &err);
    tsift_static_model_embed(b, "unaffable repos", 15, vb, NULL, &err);
    CHECK(memcmp(va, vb, sizeof va) == 0);
  }
  tsift_static_model_free(a);
  tsift_static_model_free(b);
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  int swept = 0, nomem_ok = 1, leaks = 0;
  for (g_fail_at = 1;; g_fail_at++) {
    g_allocs = 0;
    g_live = 0;
    g_armed = 0;
    uint8_t *buf = tsift_alloc_bytes(st.n); /* the host's buffer, not counted as a failure point */
    memcpy(buf, st.b, st.n);
    g_armed = 1;
    tsift_static_model *m = NULL;
    tsift_status s = tsift_static_model_load_take(buf, st.n, tok, strlen(tok), &m, &err);
    tsift_static_model_free(m);
    if (g_live != 0) leaks++;
    if (g_allocs < g_fail_at) break;
    swept++;
    if (s != TSIFT_E_NOMEM) nomem_ok = 0;
  }
  /* a malformed file: the buffer is freed too */
  g_armed = 0;
  g_live = 0;
  uint8_t *bad = tsift_alloc_bytes(4);
  memset(bad, 0, 4);
  tsift_static_model *m = (tsift_static_model *)1;
  CHECK_EQ_INT(tsift_static_model_load_take(bad, 4, tok, strlen(tok), &m, &err), TSIFT_E_MODEL);
  CHECK(m == NULL);
  CHECK_EQ_INT(g_live, 0);
  g_armed = 1;
  tsift_set_allocator(NULL, NULL, NULL);
  CHECK(swept > 10);
  CHECK(nomem_ok);
  CHECK_EQ_INT(leaks, 0);
  free(tok);
  free(st.b);
}

int main(void) {
  test_tokenisation();
  test_embedding();
  test_identity();
  test_bad_safetensors();
  test_layout();
  test_bad_tokenizer();
  test_alloc_failures();
  test_take();
  return harness_finish("static_model");
}
