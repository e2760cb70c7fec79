/* bench_model.c — search with a real static model against BM25F in the same
 * run (issue 35: fused p50 at 10k tools ≤ 2× BM25F natively). One index of
 * the catalog, the tools embedded with the model (tsift_index_embed_static),
 * then every query searched through tsift_index_search_json with limit 10:
 * lexically (BM25F); and fused as a host does it — the query embedded
 * (tsift_static_model_vector_json), then searched with that vector. The
 * fused time is both; "embed" and "vecsearch" are its two parts, timed
 * apart on the same query, so where the time goes shows without a profiler.
 * Prints one JSON object: the latency distributions (ms), the p50 ratio
 * fused / BM25F and the setup costs. bench/model-speed.mjs runs it.
 * Usage: bench_model CATALOG.json QUERIES.txt MODEL.safetensors TOKENIZER.json [ROUNDS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_io.h"
#include "bench_stats.h"
#include "toolsift.h"

static int die(const char *what, const tsift_error *err) {
  fprintf(stderr, "bench_model: %s: %s\n", what, err ? err->message : "cannot read the inputs");
  return 1;
}

/* {"limit":10,"vector":V} for the query vector JSON V (malloc'd). */
static char *vector_options(const char *v, size_t vlen) {
  char *o = malloc(vlen + 32);
  if (o) {
    memcpy(o, "{\"limit\":10,\"vector\":", 21);
    memcpy(o + 21, v, vlen);
    strcpy(o + 21 + vlen, "}");
  }
  return o;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: bench_model CATALOG.json QUERIES.txt MODEL.safetensors TOKENIZER.json [ROUNDS]\n");
    return 2;
  }
  int rounds = argc > 5 ? atoi(argv[5]) : 1;
  size_t clen = 0, qlen = 0, slen = 0, klen = 0;
  char *cat = slurp(argv[1], &clen), *qs = slurp(argv[2], &qlen);
  char *st = slurp(argv[3], &slen), *tok = slurp(argv[4], &klen);
  if (!cat || !qs || !st || !tok) return die("inputs", NULL);
  tsift_error err;
  tsift_static_model *model = NULL;
  tsift_index *ix = NULL;
  double t0 = now_ms();
  if (tsift_static_model_load((const unsigned char *)st, slen, tok, klen, &model, &err)) return die("model", &err);
  double t1 = now_ms();
  if (tsift_index_build(cat, clen, "{\"ids\":\"lenient\"}", 17, &ix, &err)) return die("index", &err);
  double t2 = now_ms();
  size_t without = 0;
  if (tsift_index_embed_static(ix, model, &without, &err)) return die("embed_static", &err);
  double t3 = now_ms();

  size_t nq = 0;
  for (size_t i = 0; i < qlen; i++) nq += qs[i] == '\n';
  size_t cap = nq * (size_t)(rounds > 0 ? rounds : 1) + 1, m = 0, nulls = 0;
  double *lex = malloc(cap * sizeof *lex), *fused = malloc(cap * sizeof *fused);
  double *emb = malloc(cap * sizeof *emb), *vs = malloc(cap * sizeof *vs);
  for (int r = 0; r < rounds; r++) {
    char *line = qs;
    for (size_t k = 0; k < nq; k++) {
      char *end = strchr(line, '\n');
      size_t len = (size_t)(end - line);
      char *out = NULL, *vec = NULL, *opts = NULL;
      size_t olen = 0, vlen = 0;
      double a = now_ms();
      if (tsift_index_search_json(ix, line, len, "{\"limit\":10}", 12, &out, &olen, &err)) return die("search", &err);
      double b = now_ms();
      tsift_free(out);
      /* fused, as a host runs it: embed the query, then search with its vector */
      double c = now_ms();
      if (tsift_static_model_vector_json(model, line, len, &vec, &vlen, &err)) return die("vector", &err);
      double d = now_ms();
      opts = vector_options(vec, vlen);
      if (!opts || tsift_index_search_json(ix, line, len, opts, strlen(opts), &out, &olen, &err)) return die("fused", &err);
      double e = now_ms();
      nulls += vlen == 4 && memcmp(vec, "null", 4) == 0;
      tsift_free(out);
      tsift_free(vec);
      free(opts);
      lex[m] = b - a;
      emb[m] = d - c;
      vs[m] = e - d;
      fused[m] = e - c;
      m++;
      line = end + 1;
    }
  }
  double *sl = malloc(m * sizeof *sl), *sf = malloc(m * sizeof *sf);
  memcpy(sl, lex, m * sizeof *sl);
  memcpy(sf, fused, m * sizeof *sf);
  qsort(sl, m, sizeof *sl, cmp_double);
  qsort(sf, m, sizeof *sf, cmp_double);
  printf("{\"tools\":%zu,\"model\":\"%s\",\"dim\":%u,\"withoutVector\":%zu,\"nullQueries\":%zu,", tsift_index_size(ix),
         tsift_static_model_id(model), (unsigned)tsift_static_model_dim(model), without, nulls);
  printf("\"setupMs\":{\"modelLoad\":%.3f,\"indexBuild\":%.3f,\"embedTools\":%.3f},", t1 - t0, t2 - t1, t3 - t2);
  print_dist("bm25f", lex, m);
  printf(",");
  print_dist("fused", fused, m);
  printf(",");
  print_dist("embed", emb, m);
  printf(",");
  print_dist("vecsearch", vs, m);
  printf(",\"p50Ratio\":%.3f}\n", pct(sf, m, 50) / pct(sl, m, 50));
  tsift_index_free(ix);
  tsift_static_model_free(model);
  free(cat), free(qs), free(st), free(tok), free(lex), free(fused), free(emb), free(vs), free(sl), free(sf);
  return 0;
}
