/* bench_vectors.c — vector scoring against BM25F in the same run (issue 25):
 * one index of the given catalog, a random unit vector per tool (dim
 * components, from a fixed LCG), then every query searched twice through
 * tsift_index_search_json with limit 10: lexically (BM25F), and fused with a
 * random query vector (base64 float32 in the options: every tool's int8
 * dot product, the distribution, the evidence rule). Prints one JSON
 * object with both latency distributions (ms) and the ratio of the p50s.
 * Usage: bench_vectors CATALOG.json QUERIES.txt DIM [ROUNDS] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_stats.h"
#include "bench_io.h"
#include "toolsift.h"

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  if (s) s[n] = 0;
  *len = (size_t)n;
  return s;
}

static unsigned long long g_seed = 42;
static float next_float(void) {
  g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((double)(g_seed >> 11) / 4503599627370496.0 - 1.0);
}

static void base64(const unsigned char *b, size_t n, char *out) {
  static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)b[i] << 16 | (i + 1 < n ? (unsigned)b[i + 1] << 8 : 0) | (i + 2 < n ? b[i + 2] : 0);
    out[o++] = a[v >> 18 & 63];
    out[o++] = a[v >> 12 & 63];
    out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
    out[o++] = i + 2 < n ? a[v & 63] : '=';
  }
  out[o] = 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_vectors CATALOG.json QUERIES.txt DIM [ROUNDS]\n");
    return 2;
  }
  uint32_t dim = (uint32_t)atoi(argv[3]);
  int rounds = argc > 4 ? atoi(argv[4]) : 1;
  size_t clen = 0, qlen = 0;
  char *cat = read_file(argv[1], &clen), *qs = read_file(argv[2], &qlen);
  tsift_index *ix = NULL;
  tsift_error err;
  if (!cat || !qs || tsift_index_build(cat, clen, "{\"ids\":\"lenient\"}", 17, &ix, &err)) {
    fprintf(stderr, "bench_vectors: %s\n", cat && qs ? err.message : "cannot read the inputs");
    return 1;
  }
  size_t n = tsift_index_size(ix);
  float *rows = malloc(n * dim * sizeof *rows);
  for (size_t i = 0; i < n * dim; i++) rows[i] = next_float();
  if (tsift_index_set_vectors(ix, "bench-random", 12, dim, rows, n, &err)) {
    fprintf(stderr, "bench_vectors: %s\n", err.message);
    return 1;
  }
  size_t nq = 0;
  for (size_t i = 0; i < qlen; i++) nq += qs[i] == '\n';
  double *lex = malloc((nq * (size_t)rounds + 1) * sizeof *lex), *vec = malloc((nq * (size_t)rounds + 1) * sizeof *vec);
  float *qv = malloc(dim * sizeof *qv);
  char *b64 = malloc(dim * 16 / 3 + 16), *vopts = malloc(dim * 16 / 3 + 80); /* base64 of dim x 4 bytes */
  size_t m = 0;
  for (int r = 0; r < rounds; r++) {
    char *line = qs;
    for (size_t k = 0; k < nq; k++) {
      char *end = strchr(line, '\n');
      size_t len = (size_t)(end - line);
      for (uint32_t i = 0; i < dim; i++) qv[i] = next_float();
      base64((const unsigned char *)qv, dim * 4, b64);
      snprintf(vopts, dim * 16 / 3 + 80, "{\"limit\":10,\"vector\":\"%s\"}", b64);
      char *out = NULL;
      size_t olen = 0;
      double t0 = now_ms();
      tsift_index_search_json(ix, line, len, "{\"limit\":10}", 12, &out, &olen, &err);
      double t1 = now_ms();
      tsift_free(out);
      double t2 = now_ms();
      tsift_index_search_json(ix, line, len, vopts, strlen(vopts), &out, &olen, &err);
      double t3 = now_ms();
      tsift_free(out);
      lex[m] = t1 - t0;
      vec[m] = t3 - t2;
      m++;
      line = end + 1;
    }
  }
  double *sl = malloc(m * sizeof *sl), *sv = malloc(m * sizeof *sv);
  memcpy(sl, lex, m * sizeof *sl);
  memcpy(sv, vec, m * sizeof *sv);
  qsort(sl, m, sizeof *sl, cmp_double);
  qsort(sv, m, sizeof *sv, cmp_double);
  printf("{\"tools\":%zu,\"dim\":%u,", n, dim);
  print_dist("bm25f", lex, m);
  printf(",");
  print_dist("fused", vec, m);
  printf(",\"p50Ratio\":%.3f}\n", pct(sv, m, 50) / pct(sl, m, 50));
  tsift_index_free(ix);
  return 0;
}
