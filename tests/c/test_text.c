/* test_text.c — every analyser rule of SPEC S3, through the public API. */
#include <stdlib.h>

#include "harness.h"
#include "largest_alloc.h"
#include "text.h"
#include "toolsift.h"

/* Tokens of a document field as a JSON array. */
static char *field(const char *text) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  if (tsift_analyze_field_json(text, strlen(text), &out, &len, &err) != TSIFT_OK) return NULL;
  return out;
}

static void check_field(const char *text, const char *expected) {
  char *got = field(text);
  CHECK_EQ_STR(got, expected);
  tsift_free(got);
}

/* Full query analysis JSON. */
static char *query(const char *text, size_t len, const char *options) {
  char *out = NULL;
  size_t n = 0;
  tsift_error err;
  if (tsift_analyze_query_json(text, len, options, options ? strlen(options) : 0, &out, &n, &err))
    return NULL;
  return out;
}

static void test_normalisation(void) {
  check_field("\xEF\xAC\x81le", "[\"file\"]");               /* ﬁle: NFKC ligature */
  check_field("Stra\xC3\x9F" "e", "[\"strass\"]");           /* Straße: full case fold, then -e */
  check_field("\xEF\xBC\xA1\xEF\xBD\x82\xEF\xBD\x83", "[\"abc\"]"); /* fullwidth Ａｂｃ */
  check_field("CAF\xC3\x89 cafe\xCC\x81", "[\"caf\xC3\xA9\",\"caf\xC3\xA9\"]"); /* composed */
}

static void test_splits(void) {
  check_field("createPullRequest", "[\"creat\",\"pull\",\"request\"]");
  check_field("HTTPServer", "[\"http\",\"server\"]");
  check_field("parseJSONResponse", "[\"pars\",\"json\",\"respons\"]");
  check_field("github__create_issue", "[\"github\",\"creat\",\"issu\"]");
  check_field("ns:name", "[\"ns\",\"name\"]");
  check_field("ns.name", "[\"ns\",\"name\"]");
  check_field("list-open-tickets", "[\"list\",\"open\",\"ticket\"]");
  check_field("snake_case_words", "[\"snak\",\"case\",\"word\"]");
  check_field("v2Api s3", "[\"v2\",\"api\",\"s3\"]");
  check_field("  \t\n ", "[]");
}

static void test_cjk(void) {
  /* 翻译文本 -> 翻译 译文 文本; a single CJK character stays a unigram. */
  check_field("\xE7\xBF\xBB\xE8\xAF\x91\xE6\x96\x87\xE6\x9C\xAC",
              "[\"\xE7\xBF\xBB\xE8\xAF\x91\",\"\xE8\xAF\x91\xE6\x96\x87\",\"\xE6\x96\x87\xE6\x9C\xAC\"]");
  check_field("\xE6\x96\x87", "[\"\xE6\x96\x87\"]");
  /* Latin next to Han splits into a word and bigrams: PDF文本 */
  check_field("PDF\xE6\x96\x87\xE6\x9C\xAC", "[\"pdf\",\"\xE6\x96\x87\xE6\x9C\xAC\"]");
  /* Japanese kana: ファイル -> ファ ァイ イル */
  check_field("\xE3\x83\x95\xE3\x82\xA1\xE3\x82\xA4\xE3\x83\xAB",
              "[\"\xE3\x83\x95\xE3\x82\xA1\",\"\xE3\x82\xA1\xE3\x82\xA4\",\"\xE3\x82\xA4\xE3\x83\xAB\"]");
}

static void test_plurals(void) {
  check_field("issues", "[\"issu\"]"); /* issue, then -e (see test_suffixes) */
  check_field("address", "[\"address\"]");
  check_field("addresses", "[\"address\"]");
  check_field("policies", "[\"policy\"]");
  check_field("branches boxes", "[\"branch\",\"box\"]");
  check_field("status analysis", "[\"status\",\"analysis\"]");
  check_field("bus gas its", "[\"bus\",\"gas\",\"its\"]"); /* three bytes or fewer: kept */
  check_field("tools", "[\"tool\"]");
  check_field("ties", "[\"tie\"]"); /* -ies needs more than four bytes */
}

static void test_suffixes(void) {
  /* create, creates, created, creating meet (docs/relevance.md) */
  check_field("create creates created creating", "[\"creat\",\"creat\",\"creat\",\"creat\"]");
  check_field("listing lists listed", "[\"list\",\"list\",\"list\"]");
  check_field("running stopped called", "[\"run\",\"stop\",\"call\"]"); /* undoubling, not l */
  check_field("need speed used", "[\"need\",\"speed\",\"used\"]");     /* -eed and short -ed stay */
  check_field("thing string", "[\"thing\",\"str\"]");                 /* -ing needs over 5 bytes */
  check_field("file case", "[\"file\",\"case\"]");                     /* -e needs over 4 bytes */
  check_field("caf\xC3\xA9", "[\"caf\xC3\xA9\"]");                     /* only ASCII endings */
}

static void test_token_cap(void) {
  /* 40 letters -> cut at 32 bytes */
  check_field("abcdefghijabcdefghijabcdefghijabcdefghij",
              "[\"abcdefghijabcdefghijabcdefghijab\"]");
  /* a cut never splits a UTF-8 sequence: 31 'a' + 'é' (2 bytes) -> 31 bytes kept */
  check_field("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xC3\xA9", "[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"]");
}

static void test_query_rules(void) {
  /* Stopwords are analysed like queries, so "this" and "does" really match. */
  char *q = query("does this tool create issues", strlen("does this tool create issues"), NULL);
  CHECK_EQ_STR(q, "{\"query\":\"does this tool create issues\",\"tokens\":[\"doe\",\"this\",\"tool\","
                  "\"creat\",\"issu\"],\"stopwords\":[\"doe\",\"this\"],\"terms\":[\"tool\","
                  "\"creat\",\"issu\"]}");
  tsift_free(q);
  /* All stopwords: the unfiltered terms are kept. */
  q = query("the this does", 13, NULL);
  CHECK_EQ_STR(q, "{\"query\":\"the this does\",\"tokens\":[\"the\",\"this\",\"doe\"],\"stopwords\":[],"
                  "\"terms\":[\"the\",\"this\",\"doe\"]}");
  tsift_free(q);
  /* Stopwords configurable: [] disables, a custom list is analysed too. */
  q = query("the issues", 10, "{\"stopwords\":[]}");
  CHECK_CONTAINS(q, "\"terms\":[\"the\",\"issu\"]");
  tsift_free(q);
  q = query("the issues", 10, "{\"stopwords\":[\"Issues\"]}");
  CHECK_CONTAINS(q, "\"stopwords\":[\"issu\"],\"terms\":[\"the\"]");
  tsift_free(q);
  /* Duplicates removed, first occurrence kept. */
  q = query("Issue issues ISSUE create", 25, NULL);
  CHECK_CONTAINS(q, "\"terms\":[\"issu\",\"creat\"]");
  tsift_free(q);
  /* Invalid UTF-8 in a query is replaced, never an error. */
  q = query("bad\xFF" "byte", 8, NULL);
  CHECK_EQ_STR(q, "{\"query\":\"bad\xEF\xBF\xBD" "byte\",\"tokens\":[\"bad\",\"byte\"],\"stopwords\":[],"
                  "\"terms\":[\"bad\",\"byte\"]}");
  tsift_free(q);
}

static void test_query_cut(void) {
  /* 512-byte cut before analysis: 100 words "w000 " .. (5 bytes each) -> the
   * first 102 full words and a cut one; the word starting at byte 510 is "w102"
   * cut to "w1". */
  char text[600];
  size_t n = 0;
  for (int i = 0; i < 110; i++) n += (size_t)sprintf(text + n, "w%03d ", i);
  char *q = query(text, n, "{\"stopwords\":[]}");
  CHECK(q != NULL);
  CHECK_CONTAINS(q, "\"w101\",\"w1\"]");
  CHECK(strstr(q, "w103") == NULL);
  tsift_free(q);
}

/* O2: a query with invalid UTF-8 is cut before its bad bytes are replaced
 * (each becomes the 3-byte U+FFFD), with the same result as replacing first
 * and cutting after, and without copying a huge query whole. */
static void test_invalid_query_cut(void) {
  static const char *const PIECES[] = {"a", "bc ", "\xc3\xa9", "\xe7\xbf\xbb", "\xf0\x9f\x9a\x80", "\xff",
                                       "\xc3", "\xe7\xbf", "\xf0\x9f\x9a", "\x80", " "};
  unsigned seed = 12345;
  int same = 0, cases = 0;
  char text[700];
  for (int round = 0; round < 3000; round++) {
    size_t n = 0, want = 480 + (size_t)(round % 90);
    while (n < want) {
      seed = seed * 1103515245u + 12345u;
      const char *piece = PIECES[(seed >> 16) % (sizeof PIECES / sizeof *PIECES)];
      size_t k = strlen(piece);
      memcpy(text + n, piece, k);
      n += k;
    }
    size_t fixed_len = 0;
    char *fixed = tsift_utf8_sanitize(text, n, &fixed_len); /* replace first, the analyser cuts */
    char *a = query(text, n, "{\"stopwords\":[]}");
    char *b = fixed ? query(fixed, fixed_len, "{\"stopwords\":[]}") : NULL;
    cases++;
    if (a && b && strcmp(a, b) == 0) same++;
    tsift_free(a);
    tsift_free(b);
    tsift_free(fixed);
  }
  CHECK_EQ_INT(same, cases);

  size_t big = 4u << 20;
  char *bad = malloc(big);
  memset(bad, 0xff, big);
  tsift_set_allocator(largest_malloc, largest_realloc, free);
  g_largest = 0;
  char *q = query(bad, big, NULL);
  tsift_set_allocator(NULL, NULL, NULL);
  CHECK(q != NULL);
  CHECK(g_largest < 64 * 1024); /* was 12 MiB: the whole query replaced */
  printf("a 4 MiB invalid query: largest allocation %zu bytes\n", g_largest);
  free(q);
  free(bad);
}

/* Sentences for the ranker's diversity rule (text.h). */
static void test_sentences(void) {
  static const struct {
    const char *text;
    size_t count;
  } cases[] = {
      {"", 0},
      {"   ", 0},
      {"find flights", 1},
      {"find flights.", 1},
      {"find flights. Book a hotel", 2},
      {"find flights.Book a hotel", 1},      /* no space after the stop */
      {"version 1.2 of the app; then ship", 2}, /* 1.2: no space */
      {"a... b", 2},
      {"a ! ? b", 2},                        /* a piece without a letter does not count */
      {"!!! ??? ;;;", 0},
      {"First, do this.\nThen that!\tFinally?", 3},
      {"\xE7\xBF\xBB\xE8\xAF\x91\xE3\x80\x82\xE6\x96\x87\xE6\x9C\xAC", 2}, /* 翻译。文本 */
      {"\xE7\xBF\xBB\xEF\xBC\x9F\xE6\x96\x87\xEF\xBC\x81", 2},             /* 翻？文！ */
      {"\xE3\x80\x82\xE3\x80\x82", 0},                                          /* 。。 */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t got = tsift_sentence_count(cases[i].text, strlen(cases[i].text));
    if (got != cases[i].count) fprintf(stderr, "sentences of \"%s\": %zu\n", cases[i].text, got);
    CHECK_EQ_INT(got, cases[i].count);
  }
}

int main(void) {
  test_sentences();
  test_normalisation();
  test_splits();
  test_cjk();
  test_plurals();
  test_suffixes();
  test_token_cap();
  test_query_rules();
  test_query_cut();
  test_invalid_query_cut();
  return harness_finish("test_text");
}
