/* test_static_model_unigram.c — the Unigram tokenizer of the static model
 * (static_model_uni.c): Metaspace, the Sequence normalizers, Precompiled,
 * byte_fallback, a missing unk_id; every malformed form with its typed
 * error; an allocation failure at every point of load + embed.
 *
 * The expected tokens below came from the Hugging Face `tokenizers` library
 * itself (0.22.2, through the npm package @anush008/tokenizers 0.6.0,
 * encode(text, add_special_tokens=false), ids mapped to their pieces) over
 * these same tokenizer.json files; they were not produced by the code under
 * test. Where toolsift differs on purpose the case says so. */
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
#define ROWS 33

/* 33 pieces with log-probabilities; id = position. */
static const char VOCAB[] =
    "[[\"<unk>\",0],[\"\\u2581\",-2],[\"\\u2581hello\",-3],[\"\\u2581world\",-3.5],[\"hel\",-4],[\"lo\",-4],[\"\\u2581"
    "he\",-4.5],[\"l\",-5],[\"o\",-5],[\"h\",-5],[\"e\",-5],[\"w\",-5],[\"r\",-5],[\"d\",-5],[\"\\u2581w\",-4.5],[\"or\","
    "-4.2],[\"ld\",-4.2],[\"!\",-3],[\"\\u2581new\\u2581york\",-6],[\"\\u2581new\",-4],[\"\\u2581york\",-4.5],[\"n\","
    "-5.5],[\"y\",-5.5],[\"k\",-5.5],[\"\\u2581caf\",-4],[\"\\u00e9\",-4.5],[\"\\\"\",-3],[\"<0x51>\",-9],[\"<0x71>\",-"
    "9],[\"a\",-6],[\"b\",-6],[\"ab\",-12],[\"\\u2581a\",-6]]";

/* A charsmap built for the check (sentencepiece's double array): U+FF28 →
 * "H", U+3000 → " ", U+0001 → "", "e" U+0301 → "é", "q" U+0300 → "Q". */
static const char CHARSMAP[] =
    "uAMAAAAIAAAAAACAAgAAgAEdAAAEAACABQAAgAgAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABlmAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAABxxAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgRUCAIAMAgCA"
    "AQIAgBUCAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAACooQIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAALzwAgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADM"
    "MAMAzDQDAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAOOAAwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAO+wAwBIACAAAMOpAFEA";

#define NORM                                                                                                     \
  "{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"NFKC\"},{\"type\":\"Replace\",\"pattern\":{\"String\":\"``\"}," \
  "\"content\":\"\\\"\"},{\"type\":\"Lowercase\"},{\"type\":\"Strip\",\"strip_left\":true,\"strip_right\":true}]}"
#define MS(scheme, split) \
  "{\"type\":\"Metaspace\",\"replacement\":\"\\u2581\",\"prepend_scheme\":\"" scheme "\",\"split\":" split "}"

/* ---- building files ------------------------------------------------------ */

typedef struct blob {
  uint8_t *b;
  size_t n;
} blob;

static double row_value(size_t i, size_t c) { return (double)((i * 7 + c * 3) % 11) - 5 + (c == i % DIM); }

/* A safetensors file: ROWS × DIM F32. */
static blob matrix(void) {
  char header[160];
  int h = snprintf(header, sizeof header,
                   "{\"embeddings\":{\"dtype\":\"F32\",\"shape\":[%d,%d],\"data_offsets\":[0,%d]}}", ROWS, DIM,
                   ROWS * DIM * 4);
  blob f = {calloc(1, 8 + (size_t)h + ROWS * DIM * 4), 8 + (size_t)h + ROWS * DIM * 4};
  f.b[0] = (uint8_t)h;
  memcpy(f.b + 8, header, (size_t)h);
  for (size_t i = 0; i < ROWS; i++)
    for (size_t c = 0; c < DIM; c++) {
      float v = (float)row_value(i, c);
      memcpy(f.b + 8 + h + (i * DIM + c) * 4, &v, 4); /* little-endian hosts only, as the other tests */
    }
  return f;
}

/* tokenizer.json: normalizer, pre_tokenizer, then the model's keys before
 * "vocab" (unk_id and the rest). */
static char *tokenizer(const char *normalizer, const char *pretok, const char *model_keys) {
  size_t cap = strlen(normalizer) + strlen(pretok) + strlen(model_keys) + sizeof VOCAB + 256;
  char *s = malloc(cap);
  snprintf(s, cap,
           "{\"version\":\"1.0\",\"added_tokens\":[],\"normalizer\":%s,\"pre_tokenizer\":%s,"
           "\"model\":{\"type\":\"Unigram\",%s\"vocab\":%s}}",
           normalizer, pretok, model_keys, VOCAB);
  return s;
}

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

/* Load tokenizer(normalizer, pretok, keys) or report why not. */
static tsift_static_model *model(blob st, const char *normalizer, const char *pretok, const char *keys) {
  char *tok = tokenizer(normalizer, pretok, keys);
  tsift_error err;
  tsift_static_model *m = load(st, tok, &err);
  if (!m) fprintf(stderr, "load: %s\n", err.message);
  CHECK(m != NULL);
  free(tok);
  return m;
}

#define T(text, expected) check_tokens(m, text, sizeof text - 1, expected)

static void test_tokenisation(void) {
  blob st = matrix();
  /* NFKC, Replace, Lowercase, Strip; Metaspace always, split */
  tsift_static_model *m = model(st, NORM, MS("always", "true"), "\"unk_id\":0,\"byte_fallback\":false,");
  if (m) {
    T("Hello World!", "[\"" U "hello\",\"" U "world\",\"!\"]");
    T("hello  world", "[\"" U "hello\",\"" U "\",\"" U "world\"]"); /* each ▁ starts a piece */
    T(" new york ", "[\"" U "new\",\"" U "york\"]");
    T("HELLO", "[\"" U "hello\"]");
    T("Caf\xC3\xA9", "[\"" U "caf\",\"\xC3\xA9\"]");
    T("Cafe\xCC\x81", "[\"" U "caf\",\"\xC3\xA9\"]"); /* NFKC composes é */
    T("\xEF\xBC\xA8\xEF\xBC\xA5\xEF\xBC\xAC\xEF\xBC\xAC\xEF\xBC\xAF", "[\"" U "hello\"]"); /* fullwidth HELLO */
    T("xyz", "[\"" U "\",\"<unk>\",\"y\",\"<unk>\"]"); /* unknown characters score min − 10 */
    T("qqq", "[\"" U "\",\"<unk>\"]");                  /* a run of unknowns is one token */
    T("``hello``", "[\"" U "\",\"\\\"\",\"hel\",\"lo\",\"\\\"\"]");
    T("ab", "[\"" U "a\",\"b\"]"); /* Viterbi: -6 + -6 beats ▁ + ab (-2 + -12) */
    T("", "[]");
    T("   ", "[]");
    T("hellohello", "[\"" U "hello\",\"hel\",\"lo\"]");
    T(U "hello", "[\"" U "hello\"]"); /* already starts with ▁: nothing prepended */
    /* pooling: the unk piece is pooled like any other — model2vec drops the
     * model's unk_token, and a Unigram model names none (its Python
     * binding has no unk_token: StaticModel.unk_token_id is None) */
    float v[DIM];
    size_t pooled = 0;
    tsift_error err;
    CHECK_EQ_INT(tsift_static_model_embed(m, "xyz", 3, v, &pooled, &err), TSIFT_OK);
    CHECK_EQ_INT(pooled, 4); /* ▁, <unk>, y, <unk> */
    tsift_static_model_free(m);
  }
  m = model(st, NORM, MS("always", "false"), "\"unk_id\":0,");
  if (m) {
    T("new york", "[\"" U "new" U "york\"]"); /* split false: a multi-word piece */
    T("hello world", "[\"" U "hello\",\"" U "world\"]");
    tsift_static_model_free(m);
  }
  m = model(st, NORM, MS("never", "true"), "\"unk_id\":0,");
  if (m) {
    T("hello world", "[\"hel\",\"lo\",\"" U "world\"]");
    T("world", "[\"w\",\"or\",\"ld\"]");
    tsift_static_model_free(m);
  }
  m = model(st, NORM, MS("first", "true"), "\"unk_id\":0,");
  if (m) {
    T("  hello", "[\"hel\",\"lo\"]"); /* Strip moved the text's start: "first" prepends nothing */
    T("hello", "[\"" U "hello\"]");
    tsift_static_model_free(m);
  }
  m = model(st, "null", "null", "\"unk_id\":0,");
  if (m) {
    T("hello world", "[\"hel\",\"lo\",\"<unk>\",\"w\",\"or\",\"ld\"]");
    T("Hello", "[\"<unk>\",\"e\",\"l\",\"lo\"]");
    tsift_static_model_free(m);
  }
  m = model(st, "null", MS("always", "true"), "\"unk_id\":0,\"byte_fallback\":true,");
  if (m) {
    T("qQx", "[\"" U "\",\"<unk>\"]"); /* no <0x78>: the run falls back to unk */
    T("hello q", "[\"" U "hello\",\"" U "\",\"<0x71>\"]");
    tsift_static_model_free(m);
  }
  m = model(st, "null", MS("always", "true"), "\"unk_id\":null,");
  if (m) {
    T("hello", "[\"" U "hello\"]");
    /* toolsift's rule, not the library's (which fails the encode): with no
     * unk_id an unknown run is dropped */
    T("hexlo", "[\"" U "he\",\"lo\"]");
    tsift_static_model_free(m);
  }
  char *pre = malloc(sizeof CHARSMAP + 256);
  snprintf(pre, sizeof CHARSMAP + 256,
           "{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"Precompiled\",\"precompiled_charsmap\":\"%s\"},"
           "{\"type\":\"Replace\",\"pattern\":{\"Regex\":\" {2,}\"},\"content\":\" \"}]}",
           CHARSMAP);
  m = model(st, pre, MS("always", "true"), "\"unk_id\":0,");
  if (m) {
    T("\xEF\xBC\xA8" "ello\x01 \xE3\x80\x80 world", "[\"" U "\",\"<unk>\",\"e\",\"l\",\"lo\",\"" U "world\"]");
    T("Cafe\xCC\x81", "[\"" U "\",\"<unk>\",\"a\",\"<unk>\",\"\xC3\xA9\"]"); /* the cluster e + U+0301 mapped whole */
    T("q\xCC\x80", "[\"" U "\",\"<unk>\"]");
    tsift_static_model_free(m);
  }
  free(pre);
  m = model(st,
            "{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"Replace\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"content\":\" \"},"
            "{\"type\":\"BertNormalizer\",\"clean_text\":true,\"handle_chinese_chars\":true,\"strip_accents\":null,"
            "\"lowercase\":true}]}",
            MS("always", "true"), "\"unk_id\":0,");
  if (m) {
    T("HELLO\xC2\xA0\xE2\x80\x83 W\xC3\xB6rld", "[\"" U "hello\",\"" U "world\"]");
    T("caf\xC3\xA9", "[\"" U "caf\",\"e\"]");
    tsift_static_model_free(m);
  }
  /* "first" follows the library's alignment: a Replace at the start keeps
   * it (the replacement is aligned to "!"), Strip and clean_text move it */
  m = model(st,
            "{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"Replace\",\"pattern\":{\"String\":\"!\"},\"content\":"
            "\" ! \"},{\"type\":\"Strip\",\"strip_left\":true,\"strip_right\":true}]}",
            MS("first", "true"), "\"unk_id\":0,");
  if (m) {
    T("!hello", "[\"" U "\",\"!\",\"" U "hello\"]");
    T("  hello", "[\"hel\",\"lo\"]");
    T("!", "[\"" U "\",\"!\"]");
    tsift_static_model_free(m);
  }
  m = model(st, "{\"type\":\"BertNormalizer\"}", MS("first", "true"), "\"unk_id\":0,");
  if (m) {
    T("\x01hello", "[\"hel\",\"lo\"]");
    T("hello", "[\"" U "hello\"]");
    tsift_static_model_free(m);
  }
  {
    /* Scores read as the library reads them (serde_json: the digits as an
     * integer, converted, then one division by a power of ten): "ff" + "f"
     * and "f" + "ff" tie exactly in correctly rounded doubles, and the
     * library's bits make "ff" "f" win. */
    char *tie = strdup(
        "{\"normalizer\":null,\"pre_tokenizer\":" MS("always", "true") ",\"model\":{\"type\":\"Unigram\",\"unk_id\":0,"
        "\"vocab\":[[\"<unk>\",0],[\"\\u2581u\",-7.163353879746283],[\"+\",-13.085327216027597],"
        "[\"ff\",-9.321738623766239],[\"f\",-7.569884370490914],[\"d\",-6.696765810481967]]}}");
    tsift_error err;
    m = load(st, tie, &err);
    CHECK(m != NULL);
    if (m) {
      T("u+fffd", "[\"" U "u\",\"+\",\"ff\",\"f\",\"d\"]");
      tsift_static_model_free(m);
    }
    free(tie);
  }
  /* Older files: add_prefix_space true, no prepend_scheme; a Sequence of one Metaspace. */
  m = model(st, "null", "{\"type\":\"Metaspace\",\"replacement\":\"\\u2581\",\"add_prefix_space\":true}", "\"unk_id\":0,");
  if (m) {
    T("hello world", "[\"" U "hello\",\"" U "world\"]");
    tsift_static_model_free(m);
  }
  m = model(st, "null", "{\"type\":\"Sequence\",\"pretokenizers\":[" MS("never", "true") "]}", "\"unk_id\":0,");
  if (m) {
    T("hello world", "[\"hel\",\"lo\",\"" U "world\"]");
    tsift_static_model_free(m);
  }
  free(st.b);
}

/* ---- malformed files ------------------------------------------------------- */

static void expect(const char *normalizer, const char *pretok, const char *keys, tsift_status status, const char *needle) {
  blob st = matrix();
  char *tok = tokenizer(normalizer, pretok, keys);
  tsift_error err;
  tsift_static_model *m = (tsift_static_model *)1;
  tsift_status s = tsift_static_model_load(st.b, st.n, tok, strlen(tok), &m, &err);
  if (s != status) fprintf(stderr, "expected %s for \"%s\", got %s: %s\n", tsift_status_name(status), needle,
                           tsift_status_name(s), s ? err.message : "");
  CHECK_EQ_INT(s, status);
  CHECK(m == NULL);
  CHECK_CONTAINS(err.message, needle);
  free(tok);
  free(st.b);
}

static void expect_raw(const char *tok, tsift_status status, const char *needle) {
  blob st = matrix();
  tsift_error err;
  tsift_static_model *m = (tsift_static_model *)1;
  tsift_status s = tsift_static_model_load(st.b, st.n, tok, strlen(tok), &m, &err);
  if (s != status) fprintf(stderr, "expected %s for \"%s\", got %s: %s\n", tsift_status_name(status), needle,
                           tsift_status_name(s), s ? err.message : "");
  CHECK_EQ_INT(s, status);
  CHECK(m == NULL);
  CHECK_CONTAINS(err.message, needle);
  free(st.b);
}

#define UNI(vocab, keys) "{\"model\":{\"type\":\"Unigram\"" keys ",\"vocab\":" vocab "}}"
#define MSA MS("always", "true")

static void test_bad_tokenizer(void) {
  /* the model */
  expect_raw(UNI("{\"a\":1}", ""), TSIFT_E_MODEL, "tokenizer.json: model.vocab must be an array of [piece, score], got an object");
  expect_raw(UNI("[]", ""), TSIFT_E_MODEL, "tokenizer.json: model.vocab is empty");
  expect_raw(UNI("[[\"a\",0],[\"b\"]]", ""), TSIFT_E_MODEL, "tokenizer.json: model.vocab[1] must be [piece, score]");
  expect_raw(UNI("[[\"a\",\"0\"]]", ""), TSIFT_E_MODEL, "tokenizer.json: model.vocab[0] must be [piece, score]");
  expect_raw(UNI("[[\"a\",0,1]]", ""), TSIFT_E_MODEL, "tokenizer.json: model.vocab[0] must be [piece, score]");
  expect_raw(UNI("[[\"a\",0],[\"\",-1]]", ""), TSIFT_E_MODEL, "tokenizer.json: model.vocab[1]: the piece is empty");
  expect_raw(UNI("[[\"a\",0],[\"b\",-1],[\"a\",-2]]", ""), TSIFT_E_MODEL, "tokenizer.json: model.vocab: \"a\" is both id 0 and id 2");
  expect_raw(UNI("[[\"a\",1e999]]", ""), TSIFT_E_MODEL, "tokenizer.json: model.vocab[0]: the score must be finite");
  expect_raw(UNI("[[\"a\",0]]", ",\"unk_id\":1"), TSIFT_E_MODEL,
             "tokenizer.json: model.unk_id must be null or an integer from 0 to 0 (model.vocab has 1 pieces)");
  expect_raw(UNI("[[\"a\",0]]", ",\"unk_id\":-1"), TSIFT_E_MODEL, "model.unk_id must be null or an integer");
  expect_raw(UNI("[[\"a\",0]]", ",\"byte_fallback\":\"yes\""), TSIFT_E_MODEL, "tokenizer.json: model.byte_fallback must be a boolean");
  {
    /* more pieces than the matrix has rows */
    char s[2048] = "{\"model\":{\"type\":\"Unigram\",\"vocab\":[";
    for (int i = 0; i <= ROWS; i++) snprintf(s + strlen(s), sizeof s - strlen(s), "%s[\"p%d\",-1]", i ? "," : "", i);
    strcat(s, "]}}");
    expect_raw(s, TSIFT_E_MODEL, "tokenizer.json: model.vocab has more than the matrix's 33 rows");
    /* a piece over 1024 bytes */
    char *big = malloc(1200);
    strcpy(big, "{\"model\":{\"type\":\"Unigram\",\"vocab\":[[\"");
    size_t at = strlen(big);
    memset(big + at, 'x', 1025);
    strcpy(big + at + 1025, "\",0]]}}");
    expect_raw(big, TSIFT_E_LIMIT, "tokenizer.json: model.vocab[0]: a piece of 1025 bytes, over the limit of 1024");
    free(big);
  }
  expect_raw("{\"model\":{\"type\":\"BPE\",\"vocab\":{}}}", TSIFT_E_MODEL, "model type \"BPE\" is not supported (WordPiece or Unigram)");
  /* normalizers */
  expect("{\"type\":\"Nmt\"}", MSA, "", TSIFT_E_MODEL,
         "tokenizer.json: normalizer type \"Nmt\" is not supported with a Unigram model (Sequence, Replace, Strip, NFC, "
         "NFKC, NFD, NFKD, Lowercase, BertNormalizer, Precompiled or null)");
  expect("{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"NFKC\"},{\"type\":\"Prepend\",\"prepend\":\"x\"}]}", MSA, "",
         TSIFT_E_MODEL, "normalizer type \"Prepend\" is not supported with a Unigram model");
  expect("{\"type\":\"Sequence\",\"normalizers\":{}}", MSA, "", TSIFT_E_MODEL,
         "tokenizer.json: normalizer Sequence: \"normalizers\" must be an array");
  expect("{\"type\":\"Sequence\",\"normalizers\":[null]}", MSA, "", TSIFT_E_MODEL, "tokenizer.json: normalizer: \"type\" must be a string");
  expect("{\"type\":\"Replace\",\"pattern\":{\"Regex\":\"[a-z]+\"},\"content\":\"x\"}", MSA, "", TSIFT_E_MODEL,
         "tokenizer.json: normalizer Replace: Regex \"[a-z]+\" is not supported (\\s+, \\s, \\s{2,}, \" +\", \" {2,}\" or a "
         "plain string)");
  expect("{\"type\":\"Replace\",\"pattern\":{\"String\":\"a\",\"Regex\":\"b\"},\"content\":\"x\"}", MSA, "", TSIFT_E_MODEL,
         "normalizer Replace: \"pattern\" must be {\"String\": string} or {\"Regex\": string}");
  expect("{\"type\":\"Replace\",\"pattern\":\"a\",\"content\":\"x\"}", MSA, "", TSIFT_E_MODEL, "normalizer Replace: \"pattern\" must be");
  expect("{\"type\":\"Replace\",\"pattern\":{\"String\":\"a\"}}", MSA, "", TSIFT_E_MODEL,
         "tokenizer.json: normalizer Replace: \"content\" must be a string");
  expect("{\"type\":\"Replace\",\"pattern\":{\"String\":\"\"},\"content\":\"x\"}", MSA, "", TSIFT_E_MODEL,
         "tokenizer.json: normalizer Replace: the pattern is empty");
  expect("{\"type\":\"Strip\",\"strip_left\":true}", MSA, "", TSIFT_E_MODEL,
         "tokenizer.json: normalizer Strip: strip_left and strip_right must be booleans");
  expect("{\"type\":\"BertNormalizer\",\"strip_accents\":1}", MSA, "", TSIFT_E_MODEL,
         "normalizer BertNormalizer: clean_text, handle_chinese_chars and lowercase must be booleans");
  expect("{\"type\":\"Precompiled\",\"precompiled_charsmap\":null}", MSA, "", TSIFT_E_MODEL,
         "tokenizer.json: normalizer Precompiled: \"precompiled_charsmap\" must be a string");
  expect("{\"type\":\"Precompiled\",\"precompiled_charsmap\":\"abc\"}", MSA, "", TSIFT_E_MODEL,
         "tokenizer.json: normalizer Precompiled: \"precompiled_charsmap\" is not base64 of a charsmap");
  expect("{\"type\":\"Precompiled\",\"precompiled_charsmap\":\"AAAAAAAA\"}", MSA, "", TSIFT_E_MODEL,
         "\"precompiled_charsmap\" is not base64 of a charsmap"); /* a trie of 0 bytes */
  expect("{\"type\":\"Precompiled\",\"precompiled_charsmap\":\"CAAAAAAAAAA=\"}", MSA, "", TSIFT_E_MODEL,
         "\"precompiled_charsmap\" is not base64 of a charsmap"); /* a trie longer than the data */
  expect("{\"type\":\"Precompiled\",\"precompiled_charsmap\":\"BAAAAAAAAAD/\"}", MSA, "", TSIFT_E_MODEL,
         "\"precompiled_charsmap\" is not base64 of a charsmap"); /* replacements not UTF-8 */
  expect("{\"type\":\"Precompiled\",\"precompiled_charsmap\":\"BAAA=AAAAAAA\"}", MSA, "", TSIFT_E_MODEL,
         "\"precompiled_charsmap\" is not base64 of a charsmap"); /* padding inside */
  {
    /* more than 256 steps; Sequences nested over 8 deep */
    char *many = malloc(300 * 20 + 64);
    strcpy(many, "{\"type\":\"Sequence\",\"normalizers\":[");
    for (int i = 0; i < 257; i++) strcat(many, i ? ",{\"type\":\"NFC\"}" : "{\"type\":\"NFC\"}");
    strcat(many, "]}");
    expect(many, MSA, "", TSIFT_E_LIMIT, "tokenizer.json: normalizer: more than 256 steps");
    strcpy(many, "");
    for (int i = 0; i < 10; i++) strcat(many, "{\"type\":\"Sequence\",\"normalizers\":[");
    for (int i = 0; i < 10; i++) strcat(many, "]}");
    expect(many, MSA, "", TSIFT_E_LIMIT, "tokenizer.json: normalizer: Sequences nested over 8 deep");
    free(many);
  }
  /* pre-tokenizers */
  expect("null", "{\"type\":\"WhitespaceSplit\"}", "", TSIFT_E_MODEL,
         "tokenizer.json: pre_tokenizer type \"WhitespaceSplit\" is not supported with a Unigram model (Metaspace, a "
         "Sequence of one Metaspace, or null)");
  expect("null", "{\"type\":\"Sequence\",\"pretokenizers\":[" MSA ",{\"type\":\"WhitespaceSplit\"}]}", "", TSIFT_E_MODEL,
         "tokenizer.json: pre_tokenizer Sequence: only a Sequence of one Metaspace is supported");
  expect("null", "{\"type\":\"Sequence\"}", "", TSIFT_E_MODEL, "pre_tokenizer Sequence: \"pretokenizers\" must be an array");
  expect("null", "{\"type\":\"Metaspace\"}", "", TSIFT_E_MODEL,
         "tokenizer.json: pre_tokenizer Metaspace: \"replacement\" must be a string");
  expect("null", "{\"type\":\"Metaspace\",\"replacement\":\"ab\"}", "", TSIFT_E_MODEL,
         "tokenizer.json: pre_tokenizer Metaspace: \"replacement\" must be one character");
  expect("null", "{\"type\":\"Metaspace\",\"replacement\":\"_\",\"prepend_scheme\":\"sometimes\"}", "", TSIFT_E_MODEL,
         "pre_tokenizer Metaspace: \"prepend_scheme\" must be \"always\", \"first\" or \"never\"");
  expect("null", "{\"type\":\"Metaspace\",\"replacement\":\"_\",\"add_prefix_space\":false}", "", TSIFT_E_MODEL,
         "pre_tokenizer Metaspace: \"add_prefix_space\" does not match \"prepend_scheme\"");
  expect("null", "{\"type\":\"Metaspace\",\"replacement\":\"_\",\"add_prefix_space\":false,\"prepend_scheme\":\"first\"}", "",
         TSIFT_E_MODEL, "\"add_prefix_space\" does not match \"prepend_scheme\"");
  expect("null", "{\"type\":\"Metaspace\",\"replacement\":\"_\",\"add_prefix_space\":1}", "", TSIFT_E_MODEL,
         "pre_tokenizer Metaspace: \"add_prefix_space\" must be a boolean");
  expect("null", "{\"type\":\"Metaspace\",\"replacement\":\"_\",\"split\":\"yes\"}", "", TSIFT_E_MODEL,
         "pre_tokenizer Metaspace: \"split\" must be a boolean");
  {
    /* fine: defaults always and split; a replacement other than ▁ */
    blob st = matrix();
    tsift_static_model *m = model(st, "null", "{\"type\":\"Metaspace\",\"replacement\":\"_\"}", "\"unk_id\":0,");
    if (m) {
      T("a b", "[\"<unk>\",\"a\",\"<unk>\",\"b\"]"); /* _a_b: "_" is no piece */
      tsift_static_model_free(m);
    }
    free(st.b);
  }
}

/* ---- allocation failure at every point ------------------------------------- */

static void test_alloc_failures(void) {
  blob st = matrix();
  char *pre = malloc(sizeof CHARSMAP + 512);
  snprintf(pre, sizeof CHARSMAP + 512,
           "{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"Precompiled\",\"precompiled_charsmap\":\"%s\"},"
           "{\"type\":\"NFKC\"},{\"type\":\"Replace\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"content\":\" \"},"
           "{\"type\":\"Lowercase\"},{\"type\":\"Strip\",\"strip_left\":true,\"strip_right\":true}]}",
           CHARSMAP);
  char *tok = tokenizer(pre, MS("always", "true"), "\"unk_id\":0,\"byte_fallback\":true,");
  free(pre);
  const char *text = "Hello, W\xC3\xB6rld!  new york \xEF\xBC\xA8" "ello qqx Cafe\xCC\x81";
  char *clean = NULL;
  {
    tsift_error err;
    tsift_static_model *m = load(st, tok, &err);
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
    float v[DIM];
    tsift_status s = tsift_static_model_load(st.b, st.n, tok, strlen(tok), &m, &err);
    if (s == TSIFT_OK) s = tsift_static_model_embed(m, text, strlen(text), v, NULL, &err);
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
  printf("static model (Unigram): allocation failure injected at %d points\n", swept);
  CHECK(swept > 20);
  CHECK(nomem_ok);
  CHECK_EQ_INT(leaks, 0);
  CHECK_EQ_INT(differs, 0);
  tsift_free(clean);
  free(tok);
  free(st.b);
}

int main(void) {
  test_tokenisation();
  test_bad_tokenizer();
  test_alloc_failures();
  return harness_finish("static_model_unigram");
}
