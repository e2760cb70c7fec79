/* fusion.c — similarity fused with BM25F by the evidence rule (fusion.h):
 * the lexical top k, plus every tool whose similarity stands above the
 * floor of the query's distribution, each scored BM25F + weight x evidence;
 * the best k replace the lexical ones. Computed once here; explain and the
 * grade read r->sem. */
#include "rank/fusion.h"

#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/mathx.h"

double tsift_fusion_floor(size_t n, double margin) {
  if (n < 2) return 1e300;
  return __builtin_sqrt(2.0 * tsift_ln((double)n)) + margin;
}

double tsift_fusion_evidence(double sim, const tsift_vec_dist *dist, double floor) {
  if (!(dist->sd > 0.0)) return 0.0;
  double z = (sim - dist->mean) / dist->sd;
  return z > floor ? z - floor : 0.0;
}

/* Insert h into the best-first list top[0..*n) of at most k (step_topk.c's order). */
static void keep_best(const tsift_index *ix, tsift_scored *top, size_t *n, size_t k, tsift_scored h) {
  if (*n == k && !tsift_hit_better(ix, &h, &top[k - 1])) return;
  size_t at = *n < k ? (*n)++ : k - 1;
  while (at > 0 && tsift_hit_better(ix, &h, &top[at - 1])) {
    top[at] = top[at - 1];
    at--;
  }
  top[at] = h;
}

/* The semantic part of doc d. */
static void sem_part(const rank_ctx *c, const tsift_qvec *qv, const double *sim, const tsift_vec_dist *dist,
                     double floor, uint32_t d, int with_rank, tsift_sem_part *sp) {
  const tsift_index *ix = c->ix;
  memset(sp, 0, sizeof *sp);
  sp->close = 1;
  if (!tsift_vec_counts(ix, c->stats->allowed, d)) return;
  sp->similarity = sim[d];
  sp->z = dist->sd > 0.0 ? (sim[d] - dist->mean) / dist->sd : 0.0;
  sp->evidence = tsift_fusion_evidence(sim[d], dist, floor);
  sp->score = qv->fusion.weight * sp->evidence;
  sp->has = 1;
  if (with_rank) sp->rank = tsift_vec_rank_of(ix, c->stats->allowed, sim, d);
  sp->close = !(sim[d] < qv->min_similarity);
  /* (as z - floor, the evidence's own sum: with the defaults exactly the
   * old rule, evidence >= 1) */
  sp->alone = sp->z - floor >= qv->fusion.strong - qv->fusion.margin;
  sp->agrees = sp->z >= qv->fusion.agree;
}

/* 1 when doc d is one of the lexical hits (at most k of them). */
static int lexical_hit(const tsift_ranking *r, uint32_t d) {
  for (size_t h = 0; h < r->nhits; h++)
    if (r->hits[h].doc == d) return 1;
  return 0;
}

/* The candidates: the lexical hits, then the tools with evidence that are
 * not among them, each with its fused score, the best k into top. Per doc
 * of the catalog only a comparison with `below`, a similarity under which
 * no evidence is possible (the floor's similarity, less a relative slack so
 * rounding cannot drop a doc the exact rule keeps); the exact evidence is
 * computed for the few above it. Nothing proportional to the catalog is
 * allocated or zeroed per query. */
static tsift_status gather(const rank_ctx *c, const tsift_qvec *qv, const double *sim, const tsift_vec_dist *dist, double floor,
                           size_t k, const long *qseq, size_t nq, const tsift_ranking *r, tsift_scored *top,
                           size_t *ntop, tsift_error *err) {
  const tsift_index *ix = c->ix;
  long *term_post = tsift_calloc_array(c->nt + 1, sizeof *term_post);
  if (!term_post) return tsift_nomem(err, "fusing similarity");
  *ntop = 0;
  for (size_t h = 0; h < r->nhits; h++) {
    tsift_scored s = r->hits[h];
    if (tsift_vec_counts(ix, c->stats->allowed, s.doc))
      s.score += qv->fusion.weight * tsift_fusion_evidence(sim[s.doc], dist, floor);
    keep_best(ix, top, ntop, k, s);
  }
  double edge = dist->mean + floor * dist->sd;
  double below = edge - 1e-9 * (__builtin_fabs(edge) + __builtin_fabs(dist->mean) + 1.0);
  /* (no doc can pass when even the best similarity is below: the usual
   * case, so the pass over the catalog is skipped) */
  for (uint32_t d = 0; d < ix->n && dist->sd > 0.0 && dist->max > below; d++) {
    if (!(sim[d] > below) || !tsift_vec_counts(ix, c->stats->allowed, d)) continue;
    double e = tsift_fusion_evidence(sim[d], dist, floor);
    if (!(e > 0.0) || lexical_hit(r, d) || (c->required && !tsift_has_required(c, d))) continue;
    tsift_scored s = {d, 0, 0.0};
    s.score = tsift_score_doc(c, d, NULL, term_post, NULL, NULL, NULL, NULL, NULL) + qv->fusion.weight * e;
    if (qseq) s.exact = (uint8_t)tsift_doc_exact(ix, d, qseq, nq);
    keep_best(ix, top, ntop, k, s);
  }
  tsift_free(term_post);
  return TSIFT_OK;
}

tsift_status tsift_fuse(const rank_ctx *c, const tsift_qvec *qv, size_t k, const long *qseq, size_t nq,
                        int with_rank, tsift_ranking *r, tsift_error *err) {
  const tsift_index *ix = c->ix;
  /* every entry is written by tsift_vec_similarities: not zeroed */
  double *sim = ix->n + 1 <= SIZE_MAX / sizeof *sim ? tsift_alloc_bytes((ix->n + 1) * sizeof *sim) : NULL;
  tsift_scored *top = tsift_calloc_array(k + 1, sizeof *top);
  r->sem = tsift_calloc_array(k + 1, sizeof *r->sem);
  if (!sim || !top || !r->sem) {
    tsift_free(sim);
    tsift_free(top);
    return tsift_nomem(err, "fusing similarity");
  }
  tsift_vec_dist dist;
  tsift_vec_similarities(ix, qv, c->stats->allowed, sim, &dist);
  double floor = r->sem_floor = tsift_fusion_floor(dist.count, qv->fusion.margin);
  size_t ntop = 0;
  tsift_status st = k ? gather(c, qv, sim, &dist, floor, k, qseq, nq, r, top, &ntop, err) : TSIFT_OK;
  if (!st) {
    memcpy(r->hits, top, ntop * sizeof *top);
    r->nhits = ntop;
    for (size_t h = 0; h < ntop; h++) sem_part(c, qv, sim, &dist, floor, top[h].doc, with_rank, &r->sem[h]);
  }
  tsift_free(sim);
  tsift_free(top);
  return st;
}
