/* step_score.c — what one document scores under a ranking's members and pairs,
 * optionally under the diversity rule's discounts (a term's contribution
 * halved once per earlier hit that matched it): the diversity pick re-scores
 * candidates with it and the breakdown of every hit is written by it, so a
 * hit's parts are what its score was summed from. */
#include <string.h>

#include "rank/rank_internal.h"

int tsift_member_scores(const rank_ctx *c, const tsift_member *mb) {
  return c->fate[mb->owner] == TSIFT_TERM_USED && mb->df && mb->weight > 0.0;
}

/* The factor of a term's contribution after `covered` earlier hits matched it. */
static double tsift_diversity_factor(uint32_t covered) {
  double f = 1.0; /* powers of two: exact, the same everywhere */
  if (covered > TSIFT_DIVERSIFY_MAX_HALVINGS) covered = TSIFT_DIVERSIFY_MAX_HALVINGS;
  while (covered--) f *= 0.5;
  return f;
}

/* What a pair adds to a hit that has it: its bonus, halved as often as the
 * more covered of its two terms (covered NULL: not diversified). */
static double tsift_pair_score(const tsift_qpair *p, const uint32_t *covered) {
  if (!covered) return p->bonus;
  uint32_t c = covered[p->a] > covered[p->b] ? covered[p->a] : covered[p->b];
  return p->bonus * tsift_diversity_factor(c);
}

double tsift_score_doc(const rank_ctx *c, uint32_t d, const uint32_t *covered, long *term_post,
                            uint8_t *hit_terms, tsift_term_part *terms, tsift_pair_part *pairs,
                            size_t *nterms, size_t *npairs) {
  const tsift_query *q = c->q;
  size_t nt = c->nt, nterm_parts = 0, npair_parts = 0;
  if (hit_terms) memset(hit_terms, 0, nt);
  for (size_t i = 0; i < nt; i++) term_post[i] = -1;
  double v = 0.0;
  for (size_t m = 0; m < c->nm; m++) {
    const tsift_member *mb = &c->members[m];
    if (!tsift_member_scores(c, mb)) continue;
    long p = tsift_find_posting(c->ix, (uint32_t)mb->id, d);
    if (m < nt) term_post[m] = p; /* the term's own posting, for its pairs */
    if (p < 0) continue;
    double parts[TSIFT_FIELD_COUNT];
    double tfn = tsift_posting_tfn(c->ix, c->stats, &c->ix->post[p], terms ? parts : NULL);
    if (tfn <= 0.0) continue;
    size_t i = mb->owner;
    double sat = tsift_saturate(mb->idf, tfn);
    double factor = covered ? tsift_diversity_factor(covered[i]) : 1.0;
    double score = mb->weight * sat * factor;
    v += score;
    if (hit_terms) hit_terms[i] = 1;
    if (terms) {
      /* Each field's share of the term's score: the same weights, the soft
       * factor and the discount being powers of two applied after the share */
      tsift_term_part *tp = &terms[nterm_parts++];
      tp->member = (uint32_t)m;
      tp->score = score;
      for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
        double share = sat * parts[f] / tfn;
        if (q->term_soft[i]) share *= TSIFT_SOFT_WEIGHT;
        tp->fields[f] = mb->mweight * (share * factor);
      }
    }
  }
  for (size_t k = 0; k < c->npairs; k++) {
    const tsift_qpair *p = &c->pairs[k];
    long pa = term_post[p->a], pb = term_post[p->b];
    if (pa < 0 || pb < 0) continue;
    unsigned both = tsift_pair_fields(&c->ix->post[pa], &c->ix->post[pb]);
    if (!both || !tsift_pair_near_in(c->ix, d, p, both)) continue;
    double score = tsift_pair_score(p, covered);
    v += score;
    if (pairs) {
      pairs[npair_parts].pair = (uint32_t)k;
      pairs[npair_parts].score = score;
      npair_parts++;
    }
  }
  if (nterms) *nterms = nterm_parts;
  if (npairs) *npairs = npair_parts;
  return v;
}

int tsift_doc_exact(const tsift_index *ix, uint32_t d, const long *qseq, size_t nq) {
  return nq > 0 && tsift_doc_seq_is(ix, d, qseq, nq);
}

int tsift_has_required(const rank_ctx *c, uint32_t d) {
  for (size_t i = 0; i < c->nt; i++) {
    if (!c->q->term_required[i]) continue;
    int found = 0;
    for (size_t m = 0; m < c->nm && !found; m++) {
      const tsift_member *mb = &c->members[m];
      found = mb->owner == i && mb->kind != TSIFT_MEMBER_CORRECTION && mb->id >= 0 &&
              tsift_find_posting(c->ix, (uint32_t)mb->id, d) >= 0;
    }
    if (!found) return 0;
  }
  return 1;
}
