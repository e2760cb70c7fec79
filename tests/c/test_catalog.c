/* test_catalog.c — reading a catalog (catalog.c, SPEC S1/S12): every error
 * class with its message, the MCP, OpenAI (nested and flat), Anthropic and
 * native shapes, MCP tools/list results and bare arrays, and labels
 * normalised, de-duplicated and bounded. Hostile JSON at every entry point
 * (nesting, invalid UTF-8, NUL, duplicate keys, numbers): test_json_input.c. */
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

#define EXPECT_ERROR(json, code, fragment)                         \
  do {                                                             \
    tsift_error e_;                                                \
    CHECK_EQ_INT(build_err(json, strlen(json), NULL, &e_), code);  \
    CHECK_EQ_INT(e_.status, code);                                 \
    CHECK_CONTAINS(e_.message, fragment);                          \
  } while (0)

static void test_catalog_errors(void) {
  EXPECT_ERROR("{\"tools\":[{\"name\":\"a\"},]}", TSIFT_E_JSON, "malformed JSON at byte 23 (line 1, column 24)");
  EXPECT_ERROR("{\"tools\":[\n  {\"name\": }]}", TSIFT_E_JSON, "line 2");
  EXPECT_ERROR("", TSIFT_E_JSON, "empty input");
  EXPECT_ERROR("[] []", TSIFT_E_JSON, "malformed JSON at byte 3");
  EXPECT_ERROR("[{\"name\":\"a\tb\"}]", TSIFT_E_JSON, "malformed JSON at byte 11"); /* raw tab in a string */
  EXPECT_ERROR("[{\"name\":\"a\x01" "b\"}]", TSIFT_E_JSON, "control character 0x01 at byte 11");
  {
    tsift_error e;
    const char nul_in_string[] = "[{\"name\":\"a\0b\"}]"; /* a raw NUL byte inside a string */
    CHECK_EQ_INT(build_err(nul_in_string, sizeof nul_in_string - 1, NULL, &e), TSIFT_E_JSON);
    CHECK_CONTAINS(e.message, "control character 0x00 at byte 11");
  }
  EXPECT_ERROR("[\x01]", TSIFT_E_JSON, "control character 0x01 at byte 1");
  EXPECT_ERROR("[{\"name\":\"caf\xC3\"}]", TSIFT_E_UTF8, "invalid UTF-8 at byte 13 (line 1, column 14)");
  EXPECT_ERROR("[{\"name\":\"\xED\xA0\x80\"}]", TSIFT_E_UTF8, "invalid UTF-8"); /* surrogate */
  EXPECT_ERROR("[{\"name\":\"\xC0\xAF\"}]", TSIFT_E_UTF8, "invalid UTF-8");     /* overlong */
  /* A lone surrogate escape is refused as one (not out of memory); a \u0000 escape
   * would silently cut the string, so it is refused; an escaped backslash
   * before u0000 and a surrogate pair are fine. */
  EXPECT_ERROR("[{\"name\":\"a\",\"description\":\"x \\ud800 y\"}]", TSIFT_E_JSON,
               "catalog: a lone surrogate escape at byte 30 (line 1, column 31)");
  EXPECT_ERROR("[{\"name\":\"a\\udc00\"}]", TSIFT_E_JSON, "a lone surrogate escape at byte 11 (line 1, column 12)");
  EXPECT_ERROR("[{\"name\":\"a\\u0000b\"}]", TSIFT_E_JSON, "a \\u0000 escape (NUL character) at byte 11 (line 1, column 12)");
  {
    tsift_error e;
    const char *ok = "[{\"name\":\"a\",\"description\":\"\\\\u0000 \\ud83d\\ude00\"}]";
    CHECK_EQ_INT(build_err(ok, strlen(ok), NULL, &e), TSIFT_OK);
  }
  EXPECT_ERROR("[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"a\"}]", TSIFT_E_CONFIG,
               "tools[2] (\"a\"): duplicate id (first used by tools[0])");
  EXPECT_ERROR("[{\"id\":\"x\",\"name\":\"a\"},{\"name\":\"x\"}]", TSIFT_E_CONFIG,
               "tools[1] (\"x\"): duplicate id");
  /* ids that are not model-facing index (they get a safe name, test_ids.c)
   * unless the options ask for strict ids */
  {
    tsift_error e;
    CHECK_EQ_INT(build_err("[{\"name\":\"has space\"}]", 22, "{\"ids\":\"strict\"}", &e), TSIFT_E_CONFIG);
    CHECK_CONTAINS(e.message, "tools[0] (\"has space\"): invalid id");
    CHECK_EQ_INT(build_err("[{\"name\":\"has space\"}]", 22, NULL, &e), TSIFT_OK);
  }
  EXPECT_ERROR("[{\"description\":\"no name\"}]", TSIFT_E_CONFIG, "tools[0]: missing \"name\"");
  EXPECT_ERROR("[{\"name\":\"\"}]", TSIFT_E_CONFIG, "field \"name\": must not be empty");
  EXPECT_ERROR("[{\"name\":42}]", TSIFT_E_CONFIG, "tools[0]: field \"name\": expected a string, got a number");
  EXPECT_ERROR("[{\"name\":\"t\",\"description\":7}]", TSIFT_E_CONFIG,
               "tools[0] (\"t\"): field \"description\": expected a string, got a number");
  EXPECT_ERROR("[{\"name\":\"t\",\"tags\":\"x\"}]", TSIFT_E_CONFIG,
               "tools[0] (\"t\"): field \"tags\": expected an array of strings, got a string");
  EXPECT_ERROR("[{\"name\":\"t\",\"aliases\":[\"ok\",3]}]", TSIFT_E_CONFIG,
               "field \"aliases[1]\": expected a string, got a number");
  EXPECT_ERROR("[{\"name\":\"t\",\"inputSchema\":[]}]", TSIFT_E_CONFIG,
               "field \"inputSchema\": expected an object, got an array");
  EXPECT_ERROR("[{\"name\":\"t\",\"origin\":\"mars\"}]", TSIFT_E_CONFIG, "field \"origin\"");
  EXPECT_ERROR("[{\"name\":\"t\",\"trusted\":\"yes\"}]", TSIFT_E_CONFIG,
               "field \"trusted\": expected a boolean, got a string");
  EXPECT_ERROR("[{\"type\":\"function\",\"function\":7}]", TSIFT_E_CONFIG,
               "field \"function\": expected an object");
  EXPECT_ERROR("[\"tool\"]", TSIFT_E_CONFIG, "tools[0]: expected an object, got a string");
  EXPECT_ERROR("{\"tools\":{}}", TSIFT_E_CONFIG, "field \"tools\": expected an array, got an object");
  EXPECT_ERROR("{\"things\":[]}", TSIFT_E_CONFIG, "expected an array of tools");
  EXPECT_ERROR("42", TSIFT_E_CONFIG, "got a number");
  EXPECT_ERROR("{\"tools\":[{\"name\":\"t\"}],\"annotations\":{\"u\":{}}}", TSIFT_E_CONFIG,
               "annotations[\"u\"]: no tool has this id");
  EXPECT_ERROR("{\"tools\":[{\"name\":\"t\"}],\"annotations\":{\"t\":{\"tags\":5}}}", TSIFT_E_CONFIG,
               "annotations[\"t\"]: field \"tags\"");
  EXPECT_ERROR("{\"tools\":[],\"skills\":{}}", TSIFT_E_CONFIG, "field \"skills\": expected an array");
}

static void test_shapes(void) {
  /* MCP, OpenAI (nested and flat), Anthropic and native shapes in one catalog. */
  const char *cat =
      "{\"tools\":["
      "{\"name\":\"mcp_tool\",\"description\":\"zebra\",\"inputSchema\":{\"properties\":{\"mcparg\":{}}},"
      "\"annotations\":{\"title\":\"Striped Horse\"}},"
      "{\"type\":\"function\",\"function\":{\"name\":\"oa_tool\",\"description\":\"yak\","
      "\"parameters\":{\"properties\":{\"oaarg\":{}}}}},"
      "{\"type\":\"function\",\"name\":\"oa_flat\",\"description\":\"walrus\",\"parameters\":{}},"
      "{\"name\":\"an_tool\",\"description\":\"vole\",\"input_schema\":{\"properties\":{\"anarg\":{}}}},"
      "{\"id\":\"native.tool\",\"name\":\"nt\",\"title\":\"Unicorn\",\"parameters\":{\"properties\":{\"ntarg\":{}}}}"
      "]}";
  tsift_index *ix = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_build(cat, strlen(cat), NULL, 0, &ix, &err), TSIFT_OK);
  if (!ix) return;
  CHECK_EQ_INT(tsift_index_size(ix), 5);
  const char *queries[][2] = {{"striped horse", "mcp_tool"}, {"mcparg", "mcp_tool"},
                              {"yak", "oa_tool"},           {"oaarg", "oa_tool"},
                              {"walrus", "oa_flat"},        {"anarg", "an_tool"},
                              {"vole", "an_tool"},          {"unicorn", "native.tool"},
                              {"ntarg", "native.tool"}};
  for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
    tsift_hit h[2];
    size_t n = 0;
    tsift_index_search(ix, queries[i][0], strlen(queries[i][0]), 2, h, &n, &err);
    CHECK_EQ_INT(n, 1);
    if (n) CHECK_EQ_STR(h[0].id, queries[i][1]);
  }
  tsift_index_free(ix);
  /* An MCP tools/list result and a bare array are catalogs too. */
  const char *list = "{\"tools\":[{\"name\":\"a\",\"inputSchema\":{}}],\"nextCursor\":null}";
  CHECK_EQ_INT(build_err(list, strlen(list), NULL, &err), TSIFT_OK);
  CHECK_EQ_INT(build_err("[]", 2, NULL, &err), TSIFT_OK);
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
  test_catalog_errors();
  test_shapes();
  test_labels_normalised();
  return harness_finish("test_catalog");
}
