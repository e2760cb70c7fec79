/* bm25f.h — the BM25F formula (SPEC S4) over the index's postings: the
 * statistics of a universe, document frequency, idf, the weighted
 * length-normalised term frequency of a posting and its saturation.
 * Internal to the core. */
#ifndef TSIFT_BM25F_H
#define TSIFT_BM25F_H

#include <stddef.h>
#include <stdint.h>

#include "index/index.h"

#define TSIFT_BM25_K1 1.2
#define TSIFT_BM25_B 0.75

/* Statistics of the authorised universe (SPEC S6). allowed == NULL: all.
 * avg_len[f] is the average length of field f over the documents of the
 * universe that have the field (at least one token), as Lucene's BM25 does:
 * an empty field has no length to normalise against (docs/relevance.md). */
typedef struct tsift_stats {
  const uint8_t *allowed;
  double n;
  double avg_len[TSIFT_FIELD_COUNT];
  /* the integers they come from: documents, and per field the token sum and
   * the documents that have it */
  uint64_t docs, sum[TSIFT_FIELD_COUNT], have[TSIFT_FIELD_COUNT];
} tsift_stats;

void tsift_stats_fit(const tsift_index *ix, const uint8_t *allowed, tsift_stats *st);
/* st without doc d, which it counts (the crowding rule's cut, rank.c): the
 * same numbers, bit for bit, as tsift_stats_fit over a mask without d. The
 * caller points st->allowed at that mask. */
void tsift_stats_drop(const tsift_index *ix, tsift_stats *st, uint32_t d);

/* Number of allowed documents containing term t. */
uint32_t tsift_term_df(const tsift_index *ix, const tsift_stats *stats, uint32_t t);
/* ln(1 + (N - df + 0.5) / (df + 0.5)) over the universe. */
double tsift_term_idf(const tsift_stats *stats, uint32_t df);
/* Weighted, length-normalised term frequency of one posting, summed in field
 * order; per-field parts go to `parts` when given. */
double tsift_posting_tfn(const tsift_index *ix, const tsift_stats *stats, const tsift_posting *p,
                         double *parts);
/* tsift_posting_tfn under the whole catalog's statistics, from the derived
 * ix->len_norm_w (index.h) at the doc's field lengths: the same parts summed
 * in the same order, so the same bits. Only when tsift_scoring_fits(ix, stats). */
static inline double tsift_posting_tfn_table(const tsift_index *ix, const tsift_posting *p) {
  const uint8_t *len = ix->field_lens + (size_t)tsift_posting_doc(p) * TSIFT_FIELD_COUNT;
  double tfn = 0.0;
  /* Only the fields that have the term (most postings have one or two of
   * the six), ascending as before, so the same sum. */
  for (unsigned tfs = tsift_posting_tfs(p); tfs;) {
    unsigned f = (unsigned)__builtin_ctz(tfs) >> 1;
    tfn += ix->len_norm_w[f * TSIFT_NORM_ROW + len[f]] * (double)((tfs >> (2 * f)) & 3u);
    tfs &= ~(3u << (2 * f));
  }
  return tfn;
}
/* 1 when stats has the average field lengths ix->len_norm_w is for. */
int tsift_scoring_fits(const tsift_index *ix, const tsift_stats *stats);
/* Derive ix->scoring_avg_len and len_norm_w, and make room for
 * term_max_tfn (index.h), every entry unknown; -1 when out of memory (the
 * arrays are NULL then). */
int tsift_scoring_derive(tsift_index *ix);
/* The largest tfn of term t's postings under the whole catalog's
 * statistics (tsift_posting_tfn_table). Computed the first time a query
 * needs it and kept in ix->term_max_tfn (-1: not yet), so that neither a
 * build nor a snapshot load walks every posting for terms no query asks
 * about (issue 37: the largest part of a load after the postings). The
 * same value whenever it is computed. An index is not shared between
 * threads (toolsift.h), so the write needs no lock. */
double tsift_term_max_tfn_fill(const tsift_index *ix, uint32_t t);
static inline double tsift_term_max_tfn(const tsift_index *ix, uint32_t t) {
  double m = ix->term_max_tfn[t];
  return m >= 0.0 ? m : tsift_term_max_tfn_fill(ix, t);
}
/* First position in [lo, hi) of a term's postings whose doc is >= doc, by
 * galloping from lo (O(log distance)). */
uint32_t tsift_posting_gallop(const tsift_posting *post, uint32_t lo, uint32_t hi, uint32_t doc);
/* idf x tfn (k1 + 1) / (k1 + tfn). Inline: the pruned ranker calls it per
 * posting. */
static inline double tsift_saturate(double idf, double tfn) {
  return idf * (tfn * (TSIFT_BM25_K1 + 1.0)) / (TSIFT_BM25_K1 + tfn);
}
/* Position of doc's posting in term t's list, or -1 (postings are sorted by doc). */
long tsift_find_posting(const tsift_index *ix, uint32_t t, uint32_t doc);

#endif
