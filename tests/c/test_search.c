/* test_search.c — the public search front ends (search.c): the explain
 * output byte for byte; search options, the index build options (index.c)
 * and argument checks; rank batches (a bad line names its line, ids echoed,
 * a \u0000 escape in a query is a space); status names; names in results
 * cut at 128 characters (B10). */
#include <stdlib.h>

#include "harness.h"
#include "hazard.h"
#include "index_helpers.h"
#include "toolsift.h"

static void test_explain(void) {
  tsift_index *ix = build("[{\"name\":\"alpha\"},{\"name\":\"alpha_beta\"},{\"name\":\"gamma\"}]");
  if (!ix) return;
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  const char *opts = "{\"limit\":1,\"explain\":true}";
  CHECK_EQ_INT(tsift_index_search_json(ix, "beta zeta the", 13, opts, strlen(opts), &out, &len, &err),
               TSIFT_OK);
  CHECK_EQ_STR(out,
               "{\"query\":\"beta zeta the\",\"ranker\":\"bm25f-6\",\"terms\":[\"beta\"],\"hits\":[{\"id\":"
               "\"alpha_beta\",\"name\":\"alpha_beta\",\"description\":\"\",\"trust\":\"first-party\","
               "\"score\":1.392145,\"match\":\"partial\",\"matched\":[\"beta\"],\"explain\":{\"terms\":"
               "[{\"term\":\"beta\",\"score\":1.392145,\"fields\":{\"name\":1.392145}}],\"grade\":"
               "{\"coverage\":0.485427,\"relative\":1.000000}}}],\"unmatched\":[\"zeta\"],\"analysis\":"
               "{\"tokens\":[\"beta\",\"zeta\",\"the\"],\"stopwords\":[\"the\"],\"terms\":[\"beta\",\"zeta\"],"
               "\"evidence\":{\"beta\":0.980829,\"zeta\":1.039721}}}");
  /* The grade, by hand: N = 3 tools, "beta" in one (df 1): idf = ln(1 + 2.5/1.5)
   * = 0.980829; "zeta" in none: half the idf of a term in no tool (rank.h),
   * 0.5 x ln(1 + 3.5/0.5) = 1.039721; coverage 0.980829 / 2.020550 = 0.485427,
   * under the 0.5 a strong hit needs (no proximity pair): partial. */
  tsift_free(out);
  tsift_index_free(ix);
}

static void test_options_and_args(void) {
  tsift_error err;
  const char *cat = "[{\"name\":\"a b\"}]";
  CHECK_EQ_INT(build_err(cat, strlen(cat), "{\"ids\":\"lenient\"}", &err), TSIFT_OK);
  CHECK_EQ_INT(build_err(cat, strlen(cat), "{\"ids\":\"loose\"}", &err), TSIFT_E_CONFIG);
  CHECK_EQ_INT(build_err("[]", 2, "{\"colour\":1}", &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "options: unknown key \"colour\"");
  CHECK_EQ_INT(build_err("[]", 2, "{\"stopwords\":[1]}", &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "stopwords[0]: expected a string");
  CHECK_EQ_INT(build_err("[]", 2, "{\"weights\":{\"nmae\":1}}", &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "unknown field \"nmae\"");
  CHECK_EQ_INT(build_err("[]", 2, "{\"weights\":{\"name\":-1}}", &err), TSIFT_E_CONFIG);

  tsift_index *ix = NULL;
  CHECK_EQ_INT(tsift_index_build("[{\"name\":\"t\"}]", 14, NULL, 0, &ix, &err), TSIFT_OK);
  char *out = NULL;
  size_t len = 0;
  CHECK_EQ_INT(tsift_index_search_json(ix, "t", 1, "{\"limit\":0}", 11, &out, &len, &err), TSIFT_E_ARG);
  CHECK_CONTAINS(err.message, "\"limit\" must be an integer from 1 to 1000");
  CHECK_EQ_INT(tsift_index_search_json(ix, "t", 1, "{\"limit\":2.5}", 13, &out, &len, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_index_search_json(ix, "t", 1, "{\"explain\":1}", 13, &out, &len, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_index_search_json(ix, "t", 1, "{\"limt\":1}", 10, &out, &len, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_index_search_json(ix, "t", 1, "{", 1, &out, &len, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_index_search_json(NULL, "t", 1, NULL, 0, &out, &len, &err), TSIFT_E_ARG);
  CHECK(out == NULL);
  /* A huge query is cut, never an error. */
  size_t big = 1 << 20;
  char *q = malloc(big);
  memset(q, 'x', big);
  CHECK_EQ_INT(tsift_index_search_json(ix, q, big, NULL, 0, &out, &len, &err), TSIFT_OK);
  tsift_free(out);
  free(q);
  /* rank: a bad line names its line. */
  const char *jsonl = "{\"id\":1,\"query\":\"t\"}\n\n{\"id\":2,\"query\":5}\n";
  CHECK_EQ_INT(tsift_index_rank_jsonl(ix, jsonl, strlen(jsonl), 5, &out, &len, &err), TSIFT_E_ARG);
  CHECK_CONTAINS(err.message, "queries line 3: field \"query\": expected a string");
  jsonl = "{\"id\":1,\"query\":\"t\"}\n{\"id\":\"q2\",\"query\":\"none\"}\n{\"id\":[1],\"query\":\"T\"}";
  CHECK_EQ_INT(tsift_index_rank_jsonl(ix, jsonl, strlen(jsonl), 5, &out, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(out, "{\"id\":1,\"hits\":[\"t\"]}\n{\"id\":\"q2\",\"hits\":[]}\n{\"id\":[1],\"hits\":[\"t\"]}\n");
  tsift_free(out);
  /* A query is never an error: a \u0000 escape in it reads as a space. */
  jsonl = "{\"id\":1,\"query\":\"zz\\u0000t\"}\n";
  CHECK_EQ_INT(tsift_index_rank_jsonl(ix, jsonl, strlen(jsonl), 5, &out, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(out, "{\"id\":1,\"hits\":[\"t\"]}\n");
  tsift_free(out);
  tsift_index_free(ix);
  CHECK_EQ_STR(tsift_status_name(TSIFT_E_NOMEM), "nomem");
  CHECK_EQ_STR(tsift_strerror(TSIFT_E_CONFIG), "configuration error");
}

/* B10: a search result echoed a tool's name whole (a short id can carry a
 * name of any length). Names are now cut like descriptions: at most 128
 * characters (not bytes), then "…"; a name of 128 characters is unchanged. */
static void test_result_name_bound(void) {
  printf("names in search results\n");
  static const struct {
    const char *unit; /* one character */
    size_t chars;
    int cut;
  } cases[] = {{"a", 127, 0}, {"a", 128, 0}, {"a", 129, 1}, {"a", 100000, 1},
               {"\xC3\xA9", 128, 0}, {"\xC3\xA9", 129, 1}, {"\xF0\x9F\x94\xA7", 128, 0},
               {"\xF0\x9F\x94\xA7", 300, 1}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    size_t ul = strlen(cases[c].unit);
    sb cat = {0}, want = {0};
    /* a remote tool, so the long name is the only text of it that reaches
     * results; the query matches a host tag */
    sb_puts(&cat, "{\"tools\":[{\"id\":\"zz\",\"origin\":\"remote\",\"name\":\"");
    sb_rep(&cat, cases[c].unit, cases[c].chars);
    sb_puts(&cat, "\"}],\"annotations\":{\"zz\":{\"tags\":[\"findme\"]}}}");
    sb_puts(&want, "\"name\":\"");
    sb_rep(&want, cases[c].unit, cases[c].cut ? 128 : cases[c].chars);
    if (cases[c].cut) sb_puts(&want, "\xE2\x80\xA6");
    sb_puts(&want, "\",\"description\":");
    tsift_index *ix = build_ok(cat.p, cat.n, NULL);
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    CHECK(ix != NULL);
    if (ix) {
      CHECK_EQ_INT(tsift_index_search_json(ix, "findme", 6, NULL, 0, &out, &len, &err), TSIFT_OK);
      CHECK_CONTAINS(out, want.p);
      CHECK(out && len < 256 + 4 * 129);
      if (!out || !strstr(out, want.p)) fprintf(stderr, "  case %zu (%zu x %zu bytes)\n", c, cases[c].chars, ul);
    }
    tsift_free(out);
    tsift_index_free(ix);
    sb_free(&cat);
    sb_free(&want);
  }
}

int main(void) {
  test_explain();
  test_options_and_args();
  test_result_name_bound();
  return harness_finish("test_search");
}
