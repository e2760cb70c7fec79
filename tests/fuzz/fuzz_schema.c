/* fuzz_schema.c — the schema walk (SPEC S5): a catalog whose tools carry a
 * fuzzed inputSchema.
 *
 * Input: the schema JSON text. It is spliced into a catalog twice: once on a
 * first-party tool (property names and nested descriptions are indexed) and
 * once on a remote tool (property names only), and once more as an OpenAI
 * "parameters" object. A schema that is a valid JSON object (no \u0000
 * escape, valid UTF-8) must build (or hit the nesting limit, or repeat a
 * key); then the search documents, a search with explain and the index
 * facts must work. */
#include "fuzz_common.h"

static const char HEAD[] = "{\"tools\":[{\"name\":\"first\",\"description\":\"first-party tool\",\"inputSchema\":";
static const char MID[] = "},{\"name\":\"remote\",\"origin\":\"remote\",\"inputSchema\":";
static const char MID2[] = "},{\"type\":\"function\",\"function\":{\"name\":\"oa\",\"parameters\":";
static const char TAIL[] = "}}]}";

static int valid_object(const char *s, size_t n) {
  size_t pos;
  if (!tsift_utf8_valid(s, n, NULL) || tsift_json_find_nul_escape(s, n) >= 0) return 0;
  if (tsift_json_check(s, n, &pos) != TSIFT_JSON_VALID) return 0;
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
  return i < n && s[i] == '{';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t total = sizeof HEAD - 1 + size + sizeof MID - 1 + size + sizeof MID2 - 1 + size + sizeof TAIL - 1;
  char *cat = malloc(total + 1); /* + 1: see fuzz_input (bug B1) */
  if (!cat) return 0;
  size_t o = 0;
#define PUT(p, n) (memcpy(cat + o, (p), (n)), o += (n))
  PUT(HEAD, sizeof HEAD - 1);
  PUT(data, size);
  PUT(MID, sizeof MID - 1);
  PUT(data, size);
  PUT(MID2, sizeof MID2 - 1);
  PUT(data, size);
  PUT(TAIL, sizeof TAIL - 1);
#undef PUT
  cat[total] = 0;
  if (!fuzz_pad_inputs()) { /* an exact-size copy */
    char *exact = malloc(total);
    if (!exact) abort();
    memcpy(exact, cat, total);
    free(cat);
    cat = exact;
  }
  tsift_index *ix = (tsift_index *)0x1;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_index_build(cat, total, NULL, 0, &ix, &err);
  fuzz_check_status(st, &err);
  if (valid_object((const char *)data, size)) {
    if (st != TSIFT_OK && st != TSIFT_E_LIMIT)
      fprintf(stderr, "a valid object schema was refused: %s\n", err.message);
    FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_LIMIT ||
                (st == TSIFT_E_JSON && strstr(err.message, "duplicate key") != NULL));
  }
  FUZZ_ASSERT(st != TSIFT_E_NOMEM);
  if (st != TSIFT_OK) {
    FUZZ_ASSERT(ix == NULL);
    free(cat);
    return 0;
  }
  FUZZ_ASSERT(tsift_index_size(ix) == 3);
  char *out = NULL;
  size_t len = 0;
  fuzz_err_init(&err);
  st = tsift_index_documents_json(ix, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  tsift_free(out);
  out = NULL;
  fuzz_err_init(&err);
  st = tsift_index_search_json(ix, "query title name id", 19, "{\"explain\":true}", 16, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  FUZZ_ASSERT(st == TSIFT_OK);
  tsift_free(out);
  out = NULL;
  fuzz_err_init(&err);
  st = tsift_index_info_json(ix, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  tsift_free(out);
  tsift_index_free(ix);
  free(cat);
  return 0;
}
