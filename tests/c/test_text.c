/* test_text.c — every analyser rule of SPEC S3 for a field (text.c),
 * through the public API: normalisation, splits, CJK bigrams, plural and
 * suffix folding, the token cap. Query analysis (stopwords, the cut,
 * sentences): test_query.c; label normalisation: test_catalog.c. */
#include <stdint.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "harness.h"
#include "text/text.h"
#include "toolsift.h"
#include "utf8proc.h"

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

/* utf8proc's own NFKC (+ case fold) of s[0..n): what the analysis did for
 * every non-ASCII text before tsift_inert_cps. */
static size_t utf8proc_nfkc(const char *s, size_t n, int fold, int32_t *out, size_t cap) {
  utf8proc_option_t opt = UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT | (fold ? UTF8PROC_CASEFOLD : 0);
  utf8proc_ssize_t got = utf8proc_decompose((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, out, (utf8proc_ssize_t)cap, opt);
  if (got < 0 || (size_t)got > cap) return (size_t)-1;
  utf8proc_ssize_t m = utf8proc_normalize_utf32(out, got, opt);
  return m < 0 ? (size_t)-1 : (size_t)m;
}

/* Whenever tsift_inert_cps says a text needs no normalisation, its
 * codepoints are exactly utf8proc's normal form: every codepoint alone (and
 * after 'e', which composes with many marks), then random texts from a pool
 * of inert and changing characters (combining marks, Hangul jamo and
 * syllables, compatibility forms, capitals). */
static void test_inert_texts(void) {
  static int32_t want[64];
  size_t inert = 0, checked = 0;
  for (int fold = 0; fold <= 1; fold++)
    for (int32_t cp = 1; cp < 0x110000; cp++) {
      if (cp >= 0xD800 && cp <= 0xDFFF) continue;
      char text[8] = "e";
      utf8proc_ssize_t k = utf8proc_encode_char(cp, (utf8proc_uint8_t *)text + 1);
      for (int with_e = 0; with_e <= 1; with_e++) {
        const char *t = with_e ? text : text + 1;
        size_t n = (size_t)k + (size_t)with_e;
        int32_t *got = NULL;
        size_t ngot = 0;
        int r = tsift_inert_cps(t, n, fold, &got, &ngot);
        CHECK(r >= 0);
        if (r == 1) {
          size_t m = utf8proc_nfkc(t, n, fold, want, 64);
          checked++;
          inert += with_e == 0;
          if (m != ngot || memcmp(want, got, m * sizeof *want) != 0) {
            CHECK(!"tsift_inert_cps disagrees with utf8proc");
            fprintf(stderr, "  U+%04X fold %d after e %d\n", (unsigned)cp, fold, with_e);
          }
        }
        tsift_free(got);
      }
    }
  CHECK(inert > 200000); /* most assigned characters are inert: CJK, symbols, emoji */
  static const int32_t pool[] = {'a', 'e', 'Z', ' ', 0x301, 0x323, 0x308, 0x2014, 0x201C, 0x2026, 0xA0,
                                 0x1100, 0x1161, 0x11A8, 0xAC00, 0x4E2D, 0x1F600, 0xE9, 0xFB01, 0xFF21,
                                 0x0B47, 0x0B3E, 0x0CC6, 0x0CD5, 0x3099, 0x304B, 0x212B, 0x5B57,
                                 0x0315, 0x0316, 0x05B0, 0x05B4, 0x0591}; /* marks that are no second, in any order */
  uint32_t rng = 12345;
  for (int round = 0; round < 20000; round++) {
    char text[200];
    size_t n = 0;
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    int len = 1 + (int)(rng % 12), fold = (rng >> 8) & 1;
    for (int i = 0; i < len; i++) {
      rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
      n += (size_t)utf8proc_encode_char(pool[rng % (sizeof pool / sizeof *pool)], (utf8proc_uint8_t *)text + n);
    }
    int32_t *got = NULL;
    size_t ngot = 0;
    if (tsift_inert_cps(text, n, fold, &got, &ngot) == 1) {
      size_t m = utf8proc_nfkc(text, n, fold, want, 64);
      checked++;
      CHECK(m == ngot && memcmp(want, got, m * sizeof *want) == 0);
    }
    tsift_free(got);
  }
  CHECK(checked > inert);
  /* not UTF-8: left to the full path, which reports it */
  int32_t *got = NULL;
  size_t ngot = 0;
  CHECK(tsift_inert_cps("ab\xC3", 3, 0, &got, &ngot) == 0 && got == NULL);
  CHECK(tsift_inert_cps("\xED\xA0\x80", 3, 0, &got, &ngot) == 0 && got == NULL);
}

int main(void) {
  test_inert_texts();
  test_normalisation();
  test_splits();
  test_cjk();
  test_plurals();
  test_suffixes();
  test_token_cap();
  return harness_finish("test_text");
}
