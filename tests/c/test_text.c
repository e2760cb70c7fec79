/* test_text.c — every analyser rule of SPEC S3 for a field (text.c),
 * through the public API: normalisation, splits, CJK bigrams, plural and
 * suffix folding, the token cap. Query analysis (stopwords, the cut,
 * sentences): test_query.c; label normalisation: test_catalog.c. */
#include <stdlib.h>

#include "harness.h"
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

int main(void) {
  test_normalisation();
  test_splits();
  test_cjk();
  test_plurals();
  test_suffixes();
  test_token_cap();
  return harness_finish("test_text");
}
