/* query_profile.c — the typed query path alone, for profiles and p50s of
 * the ranker (docs/performance.md, "Exact pruning and precomputed scoring"):
 * the catalog is built, snapshotted and loaded back (queries run on the
 * loaded index, as a host serves them), then the first QUERIES lines are
 * searched with tsift_index_search, k = LIMIT.
 *
 *   query_profile CATALOG.json|SNAPSHOT.tsi QUERIES.txt [COUNT [LIMIT [ROUNDS]]]
 *
 * Prints the queries run, the hits returned (summed) and a checksum of the
 * hits' docs and score bits (to compare two builds' answers), and the p50
 * and p90 over ROUNDS rounds (each query's median time; with the
 * environment variable QUERY_PROFILE_EACH set, each query's on stderr). Under callgrind
 * collect only the searches: --toggle-collect=tsift_index_search. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_io.h"
#include "toolsift.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: query_profile CATALOG.json QUERIES.txt [COUNT [LIMIT [ROUNDS]]]\n");
    return 2;
  }
  size_t count = argc > 3 ? (size_t)atol(argv[3]) : 1000;
  size_t limit = argc > 4 ? (size_t)atol(argv[4]) : 10;
  int rounds = argc > 5 ? atoi(argv[5]) : 1;
  if (limit < 1 || limit > 1000) limit = 10;
  if (rounds < 1) rounds = 1;
  size_t clen = 0, qlen = 0;
  char *cat = slurp(argv[1], &clen), *qs = slurp(argv[2], &qlen);
  if (!cat || !qs) {
    fprintf(stderr, "query_profile: cannot read %s\n", !cat ? argv[1] : argv[2]);
    return 1;
  }
  char **q = malloc((count + 1) * sizeof *q);
  size_t *ql = malloc((count + 1) * sizeof *ql), nq = 0;
  for (size_t pos = 0; pos < qlen && nq < count;) {
    size_t end = pos;
    while (end < qlen && qs[end] != '\n') end++;
    if (end > pos) {
      q[nq] = qs + pos;
      ql[nq++] = end - pos;
    }
    pos = end + 1;
  }
  const char *opts = "{\"ids\":\"lenient\"}";
  tsift_error err;
  tsift_index *built = NULL, *ix = NULL;
  char *snap = NULL;
  size_t snap_len = 0;
  /* CATALOG may be a snapshot (.tsi) already: no build (a 100k build
   * under callgrind takes minutes); QUERY_PROFILE_SAVE=FILE writes the
   * snapshot of a built catalog there for the next run. */
  size_t nl = strlen(argv[1]);
  int is_snap = nl > 4 && strcmp(argv[1] + nl - 4, ".tsi") == 0;
  if ((!is_snap && (tsift_index_build(cat, clen, opts, strlen(opts), &built, &err) != TSIFT_OK ||
                    tsift_index_snapshot(built, &snap, &snap_len, &err) != TSIFT_OK)) ||
      tsift_index_from_snapshot(is_snap ? cat : snap, is_snap ? clen : snap_len, &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "query_profile: %s: %s\n", tsift_status_name(err.status), err.message);
    return 1;
  }
  const char *save = getenv("QUERY_PROFILE_SAVE");
  if (save && snap) {
    FILE *f = fopen(save, "wb");
    if (!f || fwrite(snap, 1, snap_len, f) != snap_len || fclose(f)) fprintf(stderr, "query_profile: cannot write %s\n", save);
  }
  tsift_index_free(built);
  tsift_free(snap);
  free(cat);
  tsift_hit *hits = malloc(limit * sizeof *hits);
  double *t = malloc((size_t)rounds * nq * sizeof *t), *med = malloc(nq * sizeof *med);
  size_t nhits = 0;
  uint64_t sum = 1469598103934665603u;
  for (int r = 0; r < rounds; r++)
    for (size_t i = 0; i < nq; i++) {
      size_t n = 0;
      double t0 = (now_ms() * 1e3);
      if (tsift_index_search(ix, q[i], ql[i], limit, hits, &n, &err) != TSIFT_OK) {
        fprintf(stderr, "query_profile: search: %s\n", err.message);
        return 1;
      }
      t[(size_t)r * nq + i] = (now_ms() * 1e3) - t0;
      if (r) continue;
      nhits += n;
      for (size_t h = 0; h < n; h++) {
        uint64_t bits;
        memcpy(&bits, &hits[h].score, sizeof bits);
        sum = (sum ^ hits[h].tool) * 1099511628211u;
        sum = (sum ^ bits) * 1099511628211u;
      }
    }
  for (size_t i = 0; i < nq; i++) {
    double *col = malloc((size_t)rounds * sizeof *col);
    for (int r = 0; r < rounds; r++) col[r] = t[(size_t)r * nq + i];
    qsort(col, (size_t)rounds, sizeof *col, cmp_double);
    med[i] = col[rounds / 2];
    if (getenv("QUERY_PROFILE_EACH")) fprintf(stderr, "%zu\t%.2f\t%.*s\n", i, med[i], (int)ql[i], q[i]);
    free(col);
  }
  qsort(med, nq, sizeof *med, cmp_double);
  printf("{\"tools\":%zu,\"queries\":%zu,\"limit\":%zu,\"hits\":%zu,\"checksum\":\"%016llx\",\"p50_us\":%.2f,\"p90_us\":%.2f}\n",
         tsift_index_size(ix), nq, limit, nhits, (unsigned long long)sum, med[nq / 2], med[nq * 9 / 10]);
  tsift_index_free(ix);
  free(hits);
  free(t);
  free(med);
  free(q);
  free(ql);
  free(qs);
  return 0;
}
