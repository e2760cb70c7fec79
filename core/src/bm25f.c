/* bm25f.c — the BM25F formula (SPEC S4): universe statistics, df, idf, the
 * per-posting term frequency and saturation. Sums run in field order and
 * the logarithm is mathx.c's, so scores are bit-identical everywhere. */
#include "bm25f.h"

#include <string.h>

#include "mathx.h"

void tsift_stats_fit(const tsift_index *ix, const uint8_t *allowed, tsift_stats *st) {
  st->allowed = allowed;
  uint64_t sums[TSIFT_FIELD_COUNT] = {0};
  uint64_t have[TSIFT_FIELD_COUNT] = {0}; /* documents with the field non-empty */
  uint64_t n = 0;
  if (!allowed) {
    n = ix->n;
    memcpy(sums, ix->field_len_sum, sizeof sums);
    memcpy(have, ix->field_docs, sizeof have);
  } else {
    for (uint32_t d = 0; d < ix->n; d++) {
      if (!allowed[d]) continue;
      n++;
      for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
        size_t len = tsift_field_len(ix, d, f);
        sums[f] += len;
        have[f] += len > 0;
      }
    }
  }
  st->n = (double)n;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
    st->avg_len[f] = have[f] ? (double)sums[f] / (double)have[f] : 0.0;
}

uint32_t tsift_term_df(const tsift_index *ix, const tsift_stats *stats, uint32_t t) {
  uint32_t a = ix->post_off[t], b = ix->post_off[t + 1];
  if (!stats->allowed) return b - a;
  uint32_t df = 0;
  for (uint32_t i = a; i < b; i++) df += stats->allowed[ix->post[i].doc] ? 1 : 0;
  return df;
}

double tsift_term_idf(const tsift_stats *stats, uint32_t df) {
  return tsift_ln(1.0 + (stats->n - (double)df + 0.5) / ((double)df + 0.5));
}

double tsift_posting_tfn(const tsift_index *ix, const tsift_stats *stats, const tsift_posting *p,
                         double *parts) {
  double tfn = 0.0;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    double part = 0.0;
    unsigned tf = tsift_posting_tf(p, f);
    if (tf && stats->avg_len[f] > 0.0) {
      double norm = 1.0 - TSIFT_BM25_B +
                    TSIFT_BM25_B * (double)tsift_field_len(ix, p->doc, f) / stats->avg_len[f];
      part = ix->weights[f] * (double)tf / norm;
    }
    if (parts) parts[f] = part;
    tfn += part;
  }
  return tfn;
}

double tsift_saturate(double idf, double tfn) {
  return idf * (tfn * (TSIFT_BM25_K1 + 1.0)) / (TSIFT_BM25_K1 + tfn);
}

long tsift_find_posting(const tsift_index *ix, uint32_t t, uint32_t doc) {
  uint32_t lo = ix->post_off[t], hi = ix->post_off[t + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (ix->post[mid].doc < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo < ix->post_off[t + 1] && ix->post[lo].doc == doc ? (long)lo : -1;
}
