/* test_query.c — query analysis (query.c, SPEC S3), through the public
 * API: stopwords analysed like queries (configurable), duplicates, invalid
 * UTF-8 replaced, the 512-byte cut (before invalid bytes are replaced, and
 * without copying a huge query whole), surface forms in results, and the
 * sentence count the diversity rule reads. The analyser's rules for fields:
 * test_text.c; the tool vocabulary's expansions: test_vocab.c. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "largest_alloc.h"
#include "text/text.h"
#include "toolsift.h"

/* Full query analysis JSON. */
static char *query(const char *text, size_t len, const char *options) {
  char *out = NULL;
  size_t n = 0;
  tsift_error err;
  if (tsift_analyze_query_json(text, len, options, options ? strlen(options) : 0, &out, &n, &err))
    return NULL;
  return out;
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

static void test_surface_forms(void) {
  /* Suffix folding makes creating meet create; results show what was typed
   * (case- and plural-folded), analysis shows the stems. */
  tsift_index *ix = build("[{\"name\":\"create_file\"}]");
  if (!ix) return;
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  const char *opts = "{\"explain\":true}";
  CHECK_EQ_INT(tsift_index_search_json(ix, "Creating FILES nowhere", 22, opts, strlen(opts), &out, &len, &err),
               TSIFT_OK);
  CHECK_CONTAINS(out, "\"terms\":[\"creating\",\"file\"]");
  CHECK_CONTAINS(out, "{\"term\":\"creating\",");
  CHECK_CONTAINS(out, "\"unmatched\":[\"nowhere\"]");
  CHECK_CONTAINS(out, "\"analysis\":{\"tokens\":[\"creat\",\"file\",\"nowher\"]");
  tsift_free(out);
  tsift_index_free(ix);
}

int main(void) {
  test_sentences();
  test_query_rules();
  test_query_cut();
  test_invalid_query_cut();
  test_surface_forms();
  return harness_finish("test_query");
}
