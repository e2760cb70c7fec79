/* step_proximity.c — the proximity bonus (rank.h): which consecutive query terms
 * pair, which documents have a pair close together in one field, and what a
 * pair is worth. Uses the index's per-field token sequences (the forward
 * index, decoded field by field for the docs asked about). */
#include "rank/rank_internal.h"

void tsift_proximity_pairs(rank_ctx *c) {
  const tsift_query *q = c->q;
  size_t prev = c->nt;
  c->npairs = 0;
  for (size_t i = 0; i < c->nt; i++) {
    if (c->fate[i] != TSIFT_TERM_USED) continue;
    const tsift_member *mb = &c->members[i]; /* the term itself, not an expansion */
    if (!mb->df) { /* scored through an expansion only: breaks the chain */
      prev = c->nt;
      continue;
    }
    if (prev < c->nt) {
      const tsift_member *pm = &c->members[prev];
      double idf_a = tsift_term_idf(c->stats, pm->df), idf_b = tsift_term_idf(c->stats, mb->df);
      double wa = q->term_soft[prev] ? TSIFT_SOFT_WEIGHT : 1.0;
      double wb = q->term_soft[i] ? TSIFT_SOFT_WEIGHT : 1.0;
      tsift_qpair *p = &c->pairs[c->npairs++];
      p->a = (uint32_t)prev;
      p->b = (uint32_t)i;
      p->ta = (uint32_t)pm->id;
      p->tb = (uint32_t)mb->id;
      p->ra = c->ix->rank_of[p->ta];
      p->rb = c->ix->rank_of[p->tb];
      p->bonus = TSIFT_PROXIMITY_WEIGHT * (idf_a < idf_b ? idf_a : idf_b) * (wa < wb ? wa : wb);
    }
    prev = i;
  }
}

/* One pass over each field's ranks: at each place of the pair's first term,
 * its second looked for in the TSIFT_PROXIMITY_WINDOW tokens after it (a
 * first term among them starts the window again). */
int tsift_pair_near_in(const tsift_index *ix, uint32_t d, const tsift_qpair *p, unsigned fields) {
  const uint8_t *lens = ix->field_lens + (size_t)d * TSIFT_FIELD_COUNT;
  const unsigned char *at = ix->tok_bytes + ix->tok_at[d];
  const uint32_t ra = p->ra, rb = p->rb;
  for (int f = 0; f < TSIFT_FIELD_COUNT && fields >> f; f++) {
    uint32_t n = lens[f];
    if (!(fields >> f & 1u)) {
      at = tsift_forward_skip(at, n);
      continue;
    }
    for (uint32_t i = 0; i < n;) {
      uint32_t r = tsift_forward_next(&at);
      i++;
      while (r == ra) {
        uint32_t end = i + TSIFT_PROXIMITY_WINDOW < n ? i + TSIFT_PROXIMITY_WINDOW : n;
        r = UINT32_MAX;
        while (i < end && r != ra) {
          r = tsift_forward_next(&at);
          i++;
          if (r == rb) return 1;
        }
      }
    }
  }
  return 0;
}

unsigned tsift_pair_fields(const tsift_posting *a, const tsift_posting *b) {
  unsigned both = 0;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
    if (tsift_posting_tf(a, f) && tsift_posting_tf(b, f)) both |= 1u << f;
  return both;
}

/* The docs with both terms: each doc of the shorter posting list looked up
 * in the longer one (both sorted by doc). Bounded work per doc: each pair
 * walks a field once and looks TSIFT_PROXIMITY_WINDOW tokens past each
 * occurrence of its first term, which is the first term of no other pair
 * (the pairs chain distinct terms): at most (15 + 3) x the field's length,
 * and tool_text.c caps field lengths. Only docs already scored (acc > 0) gain. */
void tsift_proximity_accumulate(rank_ctx *c) {
  const tsift_index *ix = c->ix;
  for (size_t k = 0; k < c->npairs; k++) {
    const tsift_qpair *p = &c->pairs[k];
    uint32_t sa = ix->post_off[p->ta], ea = ix->post_off[p->ta + 1];
    uint32_t sb = ix->post_off[p->tb], eb = ix->post_off[p->tb + 1];
    int a_short = ea - sa <= eb - sb;
    uint32_t i = a_short ? sa : sb, ie = a_short ? ea : eb; /* the shorter list */
    uint32_t j = a_short ? sb : sa, je = a_short ? eb : ea;
    for (; i < ie && j < je; i++) {
      uint32_t d = tsift_posting_doc(&ix->post[i]);
      j = tsift_posting_gallop(ix->post, j, je, d);
      if (j == je || tsift_posting_doc(&ix->post[j]) != d) continue;
      unsigned both = tsift_pair_fields(&ix->post[i], &ix->post[j]); /* the fields to scan */
      if (both && (!c->stats->allowed || c->stats->allowed[d]) && c->acc[d] > 0.0 &&
          tsift_pair_near_in(ix, d, p, both))
        c->acc[d] += p->bonus;
    }
  }
}
