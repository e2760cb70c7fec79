/* fuzz_query.c — query analysis + search over a fixed small catalog.
 *
 * Input: the query bytes (any bytes: a query is never an error). Each input
 * goes through the JSON search (explain on, and the limit picked from the
 * length), the typed search (must agree with the JSON search), the query
 * and field analysers, and batch ranking with the input as JSON Lines. The
 * same query twice gives the same bytes (no hidden state). */
#include "fuzz_common.h"

static const char CATALOG[] =
    "{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"createIssue\",\"title\":\"Create Issue\","
    "\"description\":\"Open a new issue in a GitHub repository\",\"tags\":[\"Bug\",\"tracker\"],"
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\","
    "\"description\":\"Issue title\"},\"labels\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}},"
    "{\"id\":\"gh__list_repos\",\"name\":\"list_repos\",\"aliases\":[\"repositories\"],"
    "\"description\":\"List the repositories of a user\"},"
    "{\"type\":\"function\",\"function\":{\"name\":\"send_email\",\"description\":\"Send an e-mail "
    "message \xE2\x80\x94 to: cc: bcc:\",\"parameters\":{\"properties\":{\"to\":{},\"subject\":{}}}}},"
    "{\"name\":\"slack_post\",\"description\":\"Post a Slack message to a channel\",\"origin\":\"remote\"},"
    "{\"name\":\"translate\",\"description\":\"\xE7\xBF\xBB\xE8\xAF\x91\xE6\x96\x87\xE6\x9C\xAC "
    "\xE3\x83\x86\xE3\x82\xAD\xE3\x82\xB9\xE3\x83\x88\xE3\x82\x92\xE7\xBF\xBB\xE8\xA8\xB3 "
    "\xC3\x9C\x62\x65rsetzung Stra\xC3\x9F\x65\"},"
    "{\"name\":\"HTTPServerStatus\",\"description\":\"Check HTTP server status codes (v2, s3, utf8)\","
    "\"tainted\":true},"
    "{\"name\":\"db.query\",\"input_schema\":{\"properties\":{\"sql\":{\"description\":\"SQL text\"}}},"
    "\"description\":\"Run a read-only SQL query against the database\",\"trusted\":true,"
    "\"origin\":\"remote\"}"
    "],\"annotations\":{\"slack_post\":{\"tags\":[\"chat\"],\"aliases\":[\"message\"]}}}";

static tsift_index *g_index;

static tsift_index *fixed_index(void) {
  if (!g_index) {
    tsift_error err;
    if (tsift_index_build(CATALOG, sizeof CATALOG - 1, NULL, 0, &g_index, &err) != TSIFT_OK) {
      fprintf(stderr, "fuzz_query: the fixed catalog does not build: %s\n", err.message);
      abort();
    }
  }
  return g_index;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const tsift_index *ix = fixed_index();
  char *q = fuzz_input(data, size);
  static const char *const OPTS[] = {"{\"explain\":true}", "{\"explain\":true,\"limit\":1}",
                                     "{\"limit\":1000,\"explain\":false}"};
  const char *opts = OPTS[size % 3];
  tsift_error err;
  char *out = NULL, *again = NULL;
  size_t len = 0, len2 = 0;

  fuzz_err_init(&err);
  tsift_status st = tsift_index_search_json(ix, q, size, opts, strlen(opts), &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  FUZZ_ASSERT(st == TSIFT_OK); /* never an error (no allocator failures here) */
  fuzz_err_init(&err);
  st = tsift_index_search_json(ix, q, size, opts, strlen(opts), &again, &len2, &err);
  FUZZ_ASSERT(st == TSIFT_OK && len2 == len && memcmp(out, again, len) == 0);
  tsift_free(again);

  tsift_hit hits[1000];
  size_t n = 0;
  size_t cap = size % 3 == 1 ? 1 : size % 3 == 0 ? 10 : 1000;
  fuzz_err_init(&err);
  st = tsift_index_search(ix, q, size, cap, hits, &n, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK && n <= cap && n <= tsift_index_size(ix));
  {
    const char *p = out;
    for (size_t i = 0; i < n; i++) {
      char pat[80];
      snprintf(pat, sizeof pat, "{\"id\":\"%s\"", hits[i].id);
      p = strstr(p, pat);
      FUZZ_ASSERT(p != NULL); /* same ids, same order */
      p++;
      FUZZ_ASSERT(hits[i].score >= 0.0);
    }
  }
  tsift_free(out);

  out = NULL;
  fuzz_err_init(&err);
  const char *aopts = size % 2 ? "{\"stopwords\":[\"issue\",\"the\"]}" : NULL;
  st = tsift_analyze_query_json(q, size, aopts, aopts ? strlen(aopts) : 0, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  FUZZ_ASSERT(st == TSIFT_OK);
  tsift_free(out);

  out = NULL;
  fuzz_err_init(&err);
  st = tsift_analyze_field_json(q, size, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_UTF8); /* a field may refuse invalid UTF-8 */
  FUZZ_ASSERT(st == TSIFT_OK || !tsift_utf8_valid(q, size, NULL));
  tsift_free(out);

  out = NULL;
  fuzz_err_init(&err);
  st = tsift_index_rank_jsonl(ix, q, size, (unsigned)(size % 7) + 1, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 1);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_ARG || st == TSIFT_E_JSON || st == TSIFT_E_LIMIT);
  tsift_free(out);
  free(q);
  return 0;
}
