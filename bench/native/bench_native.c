/* bench_native.c — the core called directly (no JSON on the query path):
 * build time, typed search latency (tsift_index_search), JSON search latency
 * (tsift_index_search_json, what the wasm binding calls) and snapshot load,
 * for the same catalog and queries as the JS benchmark (bench/run.mjs).
 *
 *   toolsift_bench CATALOG.json QUERIES.txt [BUILD_RUNS [LIMIT]]
 *
 * QUERIES.txt: one query per line. Prints one JSON object on stdout. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_io.h"
#include "toolsift.h"
#include "bench_stats.h"


int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: toolsift_bench CATALOG.json QUERIES.txt [BUILD_RUNS [LIMIT]]\n");
    return 2;
  }
  int runs = argc > 3 ? atoi(argv[3]) : 5;
  size_t limit = argc > 4 ? (size_t)atoi(argv[4]) : 10;
  if (runs < 1) runs = 1;
  if (limit < 1 || limit > 1000) limit = 10;
  size_t clen = 0, qlen = 0;
  char *cat = slurp(argv[1], &clen);
  char *qs = slurp(argv[2], &qlen);
  if (!cat || !qs) {
    fprintf(stderr, "toolsift_bench: cannot read %s\n", !cat ? argv[1] : argv[2]);
    return 1;
  }
  /* queries: split lines in place */
  size_t nq = 0, capq = 1024;
  char **q = malloc(capq * sizeof *q);
  size_t *ql = malloc(capq * sizeof *ql);
  for (size_t pos = 0; pos < qlen;) {
    size_t end = pos;
    while (end < qlen && qs[end] != '\n') end++;
    if (end > pos) {
      if (nq == capq) {
        capq *= 2;
        q = realloc(q, capq * sizeof *q);
        ql = realloc(ql, capq * sizeof *ql);
      }
      q[nq] = qs + pos;
      ql[nq++] = end - pos;
    }
    pos = end + 1;
  }
  const char *opts = "{\"ids\":\"lenient\"}";
  tsift_error err;
  tsift_index *ix = NULL;
  double *builds = malloc((size_t)runs * sizeof *builds);
  for (int r = 0; r < runs; r++) {
    if (ix) tsift_index_free(ix);
    ix = NULL;
    double t0 = now_ms();
    if (tsift_index_build(cat, clen, opts, strlen(opts), &ix, &err) != TSIFT_OK) {
      fprintf(stderr, "toolsift_bench: build: %s: %s\n", tsift_status_name(err.status), err.message);
      return 1;
    }
    builds[r] = now_ms() - t0;
  }
  tsift_hit *hits = malloc(limit * sizeof *hits);
  double *typed = malloc(nq * sizeof *typed), *json = malloc(nq * sizeof *json);
  size_t n = 0, total_hits = 0;
  char optj[48];
  snprintf(optj, sizeof optj, "{\"limit\":%zu}", limit);
  /* warm-up: every query once through both paths */
  for (size_t i = 0; i < nq; i++) {
    char *out = NULL;
    size_t out_len = 0;
    tsift_index_search(ix, q[i], ql[i], limit, hits, &n, &err);
    if (tsift_index_search_json(ix, q[i], ql[i], optj, strlen(optj), &out, &out_len, &err) == TSIFT_OK) tsift_free(out);
  }
  for (size_t i = 0; i < nq; i++) {
    double t0 = now_ms();
    if (tsift_index_search(ix, q[i], ql[i], limit, hits, &n, &err) != TSIFT_OK) {
      fprintf(stderr, "toolsift_bench: search: %s\n", err.message);
      return 1;
    }
    typed[i] = now_ms() - t0;
    total_hits += n;
  }
  for (size_t i = 0; i < nq; i++) {
    char *out = NULL;
    size_t out_len = 0;
    double t0 = now_ms();
    if (tsift_index_search_json(ix, q[i], ql[i], optj, strlen(optj), &out, &out_len, &err) != TSIFT_OK) {
      fprintf(stderr, "toolsift_bench: search_json: %s\n", err.message);
      return 1;
    }
    json[i] = now_ms() - t0;
    tsift_free(out);
  }
  char *snap = NULL;
  size_t snap_len = 0;
  if (tsift_index_snapshot(ix, &snap, &snap_len, &err) != TSIFT_OK) {
    fprintf(stderr, "toolsift_bench: snapshot: %s\n", err.message);
    return 1;
  }
  double *loads = malloc((size_t)runs * sizeof *loads);
  for (int r = 0; r < runs; r++) {
    tsift_index *lx = NULL;
    double t0 = now_ms();
    if (tsift_index_from_snapshot(snap, snap_len, &lx, &err) != TSIFT_OK) {
      fprintf(stderr, "toolsift_bench: load: %s\n", err.message);
      return 1;
    }
    loads[r] = now_ms() - t0;
    tsift_index_free(lx);
  }
  printf("{\"tools\":%zu,\"queries\":%zu,\"limit\":%zu,\"hits\":%zu,", tsift_index_size(ix), nq, limit, total_hits);
  print_dist("build_ms", builds, (size_t)runs);
  printf(",");
  print_dist("search_typed_ms", typed, nq);
  printf(",");
  print_dist("search_json_ms", json, nq);
  printf(",\"snapshot_bytes\":%zu,", snap_len);
  print_dist("snapshot_load_ms", loads, (size_t)runs);
  printf("}\n");
  tsift_free(snap);
  tsift_index_free(ix);
  free(builds);
  free(loads);
  free(hits);
  free(typed);
  free(json);
  free(q);
  free(ql);
  free(cat);
  free(qs);
  return 0;
}
