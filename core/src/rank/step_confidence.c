/* step_confidence.c — the optional confidence rule (index option "minCoverage",
 * docs/relevance.md), applied by tsift_rank to the best hit only. */
#include "rank/rank_internal.h"

/*
 * Content terms are the query terms that do not look like argument values.
 * The hit is confident when it matches two or more scored content terms, or
 * one in its name, aliases or tags; otherwise it must match at least `floor`
 * of the idf-weighted evidence E / (E + U), where E is the idf of the
 * content terms it matches and U the idf (of a term in no document) of each
 * content term the universe does not have at all: an unknown word is a need
 * nothing here serves ("order a large pepperoni pizza": `order` matches,
 * `pepperoni` and `pizza` are unknown).
 */
int tsift_confident(const rank_ctx *c, uint32_t d, double floor) {
  const tsift_query *q = c->q;
  size_t matched = 0;
  double e = 0.0, u = 0.0;
  for (size_t i = 0; i < c->nt; i++) {
    if (q->term_weak[i]) continue;
    if (c->fate[i] == TSIFT_TERM_UNMATCHED) {
      u += tsift_term_idf(c->stats, 0);
      continue;
    }
    if (c->fate[i] != TSIFT_TERM_USED) continue;
    int found = 0; /* the term or one of its expansions (vocab.h) */
    for (size_t m = 0; m < c->nm; m++) {
      const tsift_member *mb = &c->members[m];
      long p = mb->owner != i || mb->id < 0 ? -1 : tsift_find_posting(c->ix, (uint32_t)mb->id, d);
      if (p < 0) continue;
      const tsift_posting *post = &c->ix->post[p];
      if (tsift_posting_tf(post, TSIFT_FIELD_NAME) || tsift_posting_tf(post, TSIFT_FIELD_ALIASES) ||
          tsift_posting_tf(post, TSIFT_FIELD_TAGS))
        return 1;
      found = 1;
    }
    if (!found) continue;
    if (++matched >= 2) return 1;
    e += tsift_term_idf(c->stats, c->gdf[i]);
  }
  return e >= floor * (e + u);
}
