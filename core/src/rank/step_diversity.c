/* step_diversity.c — the diversity rule (rank.h): when it applies and the lazy
 * greedy pick over every candidate (the discounts are step_score.c's). */
#include "rank/rank_internal.h"

#include "base/alloc.h"

int tsift_diversity_applies(const rank_ctx *c) {
  size_t used = 0;
  for (size_t i = 0; i < c->nt; i++) used += c->fate[i] == TSIFT_TERM_USED;
  return used >= TSIFT_DIVERSIFY_MIN_TERMS &&
         tsift_sentence_count(c->q->text, c->q->text_len) >= TSIFT_DIVERSIFY_MIN_SENTENCES;
}

/*
 * Lazily: a candidate's value only falls as hits are picked, so the best
 * stale value bounds every other; a candidate re-scored now that still beats
 * the best stale value of the rest is the true next pick. The picks do not
 * depend on k (a longer page extends a shorter one) and their scores never
 * rise. Re-scoring is tsift_score_doc, which sums as the accumulator
 * does, so with nothing covered a value equals the BM25F score bit for bit.
 */
tsift_status tsift_diversity_pick(const rank_ctx *c, tsift_scored *cand, size_t nc, size_t k,
                                  tsift_scored *out, size_t *nout, tsift_error *err) {
  const tsift_index *ix = c->ix;
  uint32_t *covered = tsift_calloc_array(c->nt + 1, sizeof *covered);
  uint8_t *hit_terms = tsift_calloc_array(c->nt + 1, 1);
  long *term_post = tsift_calloc_array(c->nt + 1, sizeof *term_post);
  if (!covered || !hit_terms || !term_post) {
    TSIFT_FREE_ALL(covered, hit_terms, term_post);
    return tsift_nomem(err, "searching");
  }
  for (size_t i = nc / 2; i-- > 0;) tsift_heap_sift_down(ix, cand, nc, i, TOPK_ROOT_BEST); /* heapify */
  size_t nh = 0;
  while (nh < k && nc > 0) {
    tsift_scored h = cand[0];
    cand[0] = cand[--nc];
    tsift_heap_sift_down(ix, cand, nc, 0, TOPK_ROOT_BEST);
    h.score = tsift_score_doc(c, h.doc, covered, term_post, hit_terms, NULL, NULL, NULL, NULL);
    if (nc > 0 && !tsift_hit_better(ix, &h, &cand[0])) { /* stale: back in line */
      cand[nc] = h;
      tsift_heap_sift_up(ix, cand, nc++, TOPK_ROOT_BEST);
      continue;
    }
    out[nh++] = h;
    for (size_t i = 0; i < c->nt; i++) covered[i] += hit_terms[i];
  }
  *nout = nh;
  TSIFT_FREE_ALL(covered, hit_terms, term_post);
  return TSIFT_OK;
}
