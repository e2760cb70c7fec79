/* test_trust.c — the trust policy (SPEC S2) as a hand-written table: one row
 * per class, every field the policy decides. */
#include <stdlib.h>

#include "harness.h"
#include "toolsift.h"

/* Every tool carries the same kinds of text, each in its own word, so the
 * table shows exactly which text reached which field. */
#define TOOL(ID, EXTRA)                                                             \
  "{\"id\":\"" ID "\",\"name\":\"" ID "\",\"description\":\"descword\","           \
  "\"tags\":[\"tagword\"],\"aliases\":[\"nickword\"],"                              \
  "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"propword\":{\"type\":"    \
  "\"string\",\"description\":\"schemadescword\"}}}" EXTRA "}"

#define ANN(ID) "\"" ID "\":{\"tags\":[\"hosttag\"],\"aliases\":[\"hostnick\"]}"

static const char CATALOG[] =
    "{\"tools\":["
    TOOL("local_tool", "") ","
    TOOL("remote_tool", ",\"origin\":\"remote\"") ","
    TOOL("vouched_tool", ",\"origin\":\"remote\",\"trusted\":true") ","
    TOOL("a2a_tool", ",\"origin\":\"a2a\"") ","
    TOOL("tainted_tool", ",\"tainted\":true")
    "],\"annotations\":{" ANN("local_tool") "," ANN("remote_tool") "," ANN("vouched_tool") ","
    ANN("a2a_tool") "," ANN("tainted_tool") "}}";

static const char EXPECTED_DOCS[] =
    "{\"tools\":["
    /* first-party: everything */
    "{\"id\":\"local_tool\",\"trust\":\"first-party\",\"fields\":{"
    "\"name\":[\"local\",\"tool\"],\"aliases\":[\"nickword\",\"hostnick\"],"
    "\"tags\":[\"tagword\",\"hosttag\"],\"description\":[\"descword\"],"
    "\"params\":[\"propword\"],\"param_docs\":[\"schemadescword\"]}},"
    /* remote, un-vouched: name, property names, host annotations only */
    "{\"id\":\"remote_tool\",\"trust\":\"remote\",\"fields\":{"
    "\"name\":[\"remot\",\"tool\"],\"aliases\":[\"hostnick\"],\"tags\":[\"hosttag\"],"
    "\"description\":[],\"params\":[\"propword\"],\"param_docs\":[]}},"
    /* remote, vouched: own labels as description-level text */
    "{\"id\":\"vouched_tool\",\"trust\":\"vouched\",\"fields\":{"
    "\"name\":[\"vouch\",\"tool\"],\"aliases\":[\"hostnick\"],\"tags\":[\"hosttag\"],"
    "\"description\":[\"descword\",\"nickword\",\"tagword\"],"
    "\"params\":[\"propword\"],\"param_docs\":[\"schemadescword\"]}},"
    /* a2a is remote too */
    "{\"id\":\"a2a_tool\",\"trust\":\"remote\",\"fields\":{"
    "\"name\":[\"a2a\",\"tool\"],\"aliases\":[\"hostnick\"],\"tags\":[\"hosttag\"],"
    "\"description\":[],\"params\":[\"propword\"],\"param_docs\":[]}},"
    /* tainted (a local tool): labels as its class, never the description or
       schema descriptions */
    "{\"id\":\"tainted_tool\",\"trust\":\"tainted\",\"fields\":{"
    "\"name\":[\"taint\",\"tool\"],\"aliases\":[\"nickword\",\"hostnick\"],"
    "\"tags\":[\"tagword\",\"hosttag\"],\"description\":[],"
    "\"params\":[\"propword\"],\"param_docs\":[]}}"
    "]}";

static tsift_index *build(const char *json) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, strlen(json), NULL, 0, &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n", err.message);
    return NULL;
  }
  return ix;
}

static void test_table(void) {
  tsift_index *ix = build(CATALOG);
  CHECK(ix != NULL);
  if (!ix) return;
  char *docs = NULL;
  size_t len = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_documents_json(ix, &docs, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(docs, EXPECTED_DOCS);
  tsift_free(docs);
  tsift_index_free(ix);
}

static void test_results_fence_remote_text(void) {
  tsift_index *ix = build(CATALOG);
  if (!ix) return;
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  /* "propword" reaches every tool; results must withhold remote/tainted text
   * and mark the page tainted. */
  CHECK_EQ_INT(tsift_index_search_json(ix, "propword", 8, "{\"limit\":5}", 11, &out, &len, &err),
               TSIFT_OK);
  CHECK_CONTAINS(out, "{\"id\":\"remote_tool\",\"name\":\"remote_tool\",\"description\":\"Third-party "
                      "tool; description withheld\",\"trust\":\"remote\"");
  CHECK_CONTAINS(out, "{\"id\":\"tainted_tool\",\"name\":\"tainted_tool\",\"description\":\"Third-party "
                      "tool; description withheld\",\"trust\":\"tainted\"");
  CHECK_CONTAINS(out, "{\"id\":\"vouched_tool\",\"name\":\"vouched_tool\",\"description\":\"descword\"");
  CHECK_CONTAINS(out, "\"tainted\":true");
  tsift_free(out);
  /* A page with only first-party tools is not marked. */
  CHECK_EQ_INT(tsift_index_search_json(ix, "local tool", 10, NULL, 0, &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"hits\":[{\"id\":\"local_tool\"");
  tsift_free(out);
  CHECK_EQ_INT(tsift_index_search_json(ix, "descword", 8, NULL, 0, &out, &len, &err), TSIFT_OK);
  CHECK(strstr(out, "\"tainted\":true") == NULL);
  CHECK(strstr(out, "remote_tool") == NULL); /* its description was never indexed */
  tsift_free(out);
  tsift_index_free(ix);
}

static void test_labels_normalised(void) {
  /* NFKC, case fold, whitespace collapse, de-duplication, 16 per tool. */
  const char *cat =
      "[{\"name\":\"t\",\"tags\":[\"  Data   Base \",\"data base\",\"\xEF\xBC\xA4\xEF\xBC\xA2\","
      "\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\",\"m\",\"n\",\"o\",\"p\"]}]";
  tsift_index *ix = build(cat);
  CHECK(ix != NULL);
  if (!ix) return;
  char *docs = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_index_documents_json(ix, &docs, &len, &err);
  /* 16 distinct labels kept: "data base" (twice -> once), "db", a..n */
  CHECK_CONTAINS(docs, "\"tags\":[\"data\",\"base\",\"db\",\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\","
                       "\"h\",\"i\",\"j\",\"k\",\"l\",\"m\",\"n\"]");
  tsift_free(docs);
  tsift_index_free(ix);
}

int main(void) {
  test_table();
  test_results_fence_remote_text();
  test_labels_normalised();
  return harness_finish("test_trust");
}
