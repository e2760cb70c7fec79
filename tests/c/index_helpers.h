/* index_helpers.h — an index from a catalog and searches over it, for the
 * ranking, catalog and search tests: build (NULL on failure, message on
 * stderr), build with options, build returning its status (a failed build
 * must hand out NULL), typed search and JSON search. */
#ifndef TSIFT_INDEX_HELPERS_H
#define TSIFT_INDEX_HELPERS_H

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "toolsift.h"

static inline tsift_index *build(const char *json) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, strlen(json), NULL, 0, &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n", err.message);
    return NULL;
  }
  return ix;
}

static inline size_t search(tsift_index *ix, const char *q, tsift_hit *hits, size_t cap) {
  size_t n = 0;
  tsift_error err;
  if (tsift_index_search(ix, q, strlen(q), cap, hits, &n, &err) != TSIFT_OK) return 0;
  return n;
}

static inline tsift_index *build_opts(const char *json, const char *opts) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, strlen(json), opts, strlen(opts), &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n", err.message);
    return NULL;
  }
  return ix;
}

static inline char *search_json(tsift_index *ix, const char *q) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  if (tsift_index_search_json(ix, q, strlen(q), NULL, 0, &out, &len, &err) != TSIFT_OK) return NULL;
  return out;
}

static inline tsift_status build_err(const char *json, size_t len, const char *opts, tsift_error *err) {
  tsift_index *ix = (tsift_index *)0x1;
  tsift_status st = tsift_index_build(json, len, opts, opts ? strlen(opts) : 0, &ix, err);
  if (st != TSIFT_OK) CHECK(ix == NULL); /* nothing half-built handed out */
  tsift_index_free(st == TSIFT_OK ? ix : NULL);
  return st;
}

#endif
