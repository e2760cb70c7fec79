/* test_tool_text.c — the schema walk (tool_text.c, SPEC S5) on hostile schemas, with
 * time bounds (ctest label `limits`, bounds.h): 490 nested property levels
 * stop at depth 8; 100k properties, anyOf branches and $defs keep 128
 * properties. The other half of tool_text.c, the trust policy, is tested in
 * test_trust.c. */
#include <stdlib.h>

#include "bounds.h"
#include "harness.h"
#include "hazard.h"
#include "toolsift.h"

static void test_schemas(void) {
  printf("deep and wide schemas\n");
  tsift_error err;
  tsift_status st;
  /* 490 schema levels (980 JSON levels): the walk stops at depth 8. */
  sb deep = {0};
  sb_puts(&deep, "[{\"name\":\"deep\",\"inputSchema\":");
  for (int i = 0; i < 490; i++) sb_printf(&deep, "{\"description\":\"level%d\",\"properties\":{\"p%d\":", i, i);
  sb_puts(&deep, "{}");
  for (int i = 0; i < 490; i++) sb_puts(&deep, "}}");
  sb_puts(&deep, "}]");
  tsift_index *ix = NULL;
  TIMED("schema: 490 nested property levels", 1,
        st = tsift_index_build(deep.p, deep.n, NULL, 0, &ix, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  if (ix) {
    char *docs = NULL;
    size_t len;
    tsift_index_documents_json(ix, &docs, &len, &err);
    CHECK_CONTAINS(docs, "\"p7\"");
    CHECK(docs && strstr(docs, "\"p8\"") == NULL); /* depth < 8 */
    CHECK(docs && strstr(docs, "\"level8\"") == NULL);
    tsift_free(docs);
    tsift_index_free(ix);
  }
  sb_free(&deep);

  /* 100k properties, 100k anyOf branches, 100k $defs, each with text. */
  sb wide = {0};
  sb_puts(&wide, "[{\"name\":\"wide\",\"inputSchema\":{\"properties\":{");
  for (int i = 0; i < 100000; i++) sb_printf(&wide, "%s\"prop%d\":{\"description\":\"about prop %d\"}", i ? "," : "", i, i);
  sb_puts(&wide, "},\"anyOf\":[");
  for (int i = 0; i < 100000; i++) sb_printf(&wide, "%s{\"description\":\"branch %d\"}", i ? "," : "", i);
  sb_puts(&wide, "],\"$defs\":{");
  for (int i = 0; i < 100000; i++) sb_printf(&wide, "%s\"d%d\":{\"properties\":{\"x%d\":{}}}", i ? "," : "", i, i);
  sb_puts(&wide, "}}}]");
  ix = NULL;
  TIMED("schema: 100k properties + 100k anyOf + 100k $defs (7 MB)", 3,
        st = tsift_index_build(wide.p, wide.n, NULL, 0, &ix, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  if (ix) {
    char *docs = NULL;
    size_t len;
    tsift_index_documents_json(ix, &docs, &len, &err);
    CHECK(docs && strstr(docs, "\"prop128\"") == NULL); /* 128 properties */
    CHECK(len < 20000);
    tsift_free(docs);
    tsift_index_free(ix);
  }
  sb_free(&wide);
}

int main(void) {
  bounds_init();
  double t0 = now();
  test_schemas();
  bounds_finish("test_docs", t0);
  return harness_finish("test_docs");
}
