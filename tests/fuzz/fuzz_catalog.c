/* fuzz_catalog.c — catalog parse + index build + searches.
 *
 * Input: the catalog JSON. The build options are picked from the input's
 * length (default; lenient ids; no stopwords + a confidence floor + custom
 * weights), so one corpus covers all three. When the build succeeds: two
 * searches (one with explain), a typed search that must agree with the JSON
 * one, index facts, search documents, and a snapshot round trip that must
 * give byte-identical search output. */
#include "fuzz_common.h"

static const char *const OPTIONS[] = {
    NULL,
    "{\"ids\":\"lenient\"}",
    "{\"stopwords\":[],\"minCoverage\":0.5,\"weights\":{\"name\":5,\"params\":0}}",
};

static const char *const QUERIES[] = {"create issue", "send a message to the channel",
                                      "\xE6\x96\x87\xE6\x9C\xAC list", "x"};

static char *search(const tsift_index *ix, const char *q, const char *opts) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_index_search_json(ix, q, strlen(q), opts, opts ? strlen(opts) : 0, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  FUZZ_ASSERT(st == TSIFT_OK); /* a query is never an error */
  return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *json = fuzz_input(data, size);
  const char *opts = OPTIONS[size % 3];
  tsift_index *ix = (tsift_index *)0x1;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_index_build(json, size, opts, opts ? strlen(opts) : 0, &ix, &err);
  fuzz_check_status(st, &err);
  if (st != TSIFT_OK) {
    FUZZ_ASSERT(ix == NULL);
    FUZZ_ASSERT(st == TSIFT_E_JSON || st == TSIFT_E_UTF8 || st == TSIFT_E_CONFIG || st == TSIFT_E_LIMIT);
    free(json);
    return 0;
  }
  FUZZ_ASSERT(ix != NULL);
  size_t ntools = tsift_index_size(ix);

  const char *q = QUERIES[size % 4];
  char *a = search(ix, q, "{\"explain\":true,\"limit\":50}");
  char *b = search(ix, QUERIES[(size + 1) % 4], NULL);

  /* The typed search returns the same ids as the JSON search. */
  tsift_hit hits[50];
  size_t n = 0;
  fuzz_err_init(&err);
  st = tsift_index_search(ix, q, strlen(q), 50, hits, &n, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(n <= 50 && n <= ntools);
  if (a) {
    const char *p = a;
    for (size_t i = 0; i < n; i++) {
      FUZZ_ASSERT(hits[i].tool < ntools);
      p = strstr(p, "{\"id\":");
      FUZZ_ASSERT(p != NULL);
      p += 6;
    }
    FUZZ_ASSERT(strstr(p, "{\"id\":") == NULL);
  }

  char *out = NULL;
  size_t len = 0;
  fuzz_err_init(&err);
  st = tsift_index_info_json(ix, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  tsift_free(out);
  out = NULL;
  fuzz_err_init(&err);
  st = tsift_index_documents_json(ix, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  tsift_free(out);

  /* Snapshot round trip: the loaded index answers byte for byte the same. */
  char *snap = NULL;
  size_t snap_len = 0;
  fuzz_err_init(&err);
  st = tsift_index_snapshot(ix, &snap, &snap_len, &err);
  fuzz_check_status(st, &err);
  if (st == TSIFT_OK) {
    tsift_index *back = NULL;
    fuzz_err_init(&err);
    st = tsift_index_from_snapshot(snap, snap_len, &back, &err);
    fuzz_check_status(st, &err);
    if (st != TSIFT_OK) fprintf(stderr, "snapshot of a built index does not load: %s\n", err.message);
    FUZZ_ASSERT(st == TSIFT_OK);
    if (back) {
      FUZZ_ASSERT(tsift_index_size(back) == ntools);
      char *a2 = search(back, q, "{\"explain\":true,\"limit\":50}");
      if (a && a2) FUZZ_ASSERT(strcmp(a, a2) == 0);
      tsift_free(a2);
      tsift_index_free(back);
    }
    tsift_free(snap);
  }
  tsift_free(a);
  tsift_free(b);
  tsift_index_free(ix);
  free(json);
  return 0;
}
