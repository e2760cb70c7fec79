/* bench_stats.h — the native benchmark drivers' timing summary
 * (bench_native.c, fts5_bench.c): nearest-rank percentiles, as
 * bench/lib/metrics.mjs computes them, printed as one JSON member. */
#ifndef TSIFT_BENCH_STATS_H
#define TSIFT_BENCH_STATS_H

#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of a sorted array (as bench/lib/metrics.mjs). */
static double pct(const double *s, size_t n, double p) {
  if (!n) return 0;
  double r = p / 100.0 * (double)n;
  size_t i = (size_t)r;
  if ((double)i < r) i++;
  if (i > 0) i--;
  if (i >= n) i = n - 1;
  return s[i];
}

static void print_dist(const char *name, double *xs, size_t n) {
  qsort(xs, n, sizeof *xs, cmp_double);
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += xs[i];
  printf("\"%s\":{\"n\":%zu,\"mean\":%.6f,\"p50\":%.6f,\"p95\":%.6f,\"p99\":%.6f}", name, n, n ? sum / (double)n : 0,
         pct(xs, n, 50), pct(xs, n, 95), pct(xs, n, 99));
}

#endif
