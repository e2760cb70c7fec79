/* bm25f.c — the BM25F formula (SPEC S4): universe statistics, df, idf, the
 * per-posting term frequency and saturation. Sums run in field order and
 * the logarithm is mathx.c's, so scores are bit-identical everywhere. */
#include "index/bm25f.h"

#include <string.h>

#include "base/alloc.h"
#include "base/mathx.h"

/* n and the averages from the integers. */
static void average(tsift_stats *st) {
  st->n = (double)st->docs;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
    st->avg_len[f] = st->have[f] ? (double)st->sum[f] / (double)st->have[f] : 0.0;
}

void tsift_stats_fit(const tsift_index *ix, const uint8_t *allowed, tsift_stats *st) {
  st->allowed = allowed;
  memset(st->sum, 0, sizeof st->sum);
  memset(st->have, 0, sizeof st->have); /* documents with the field non-empty */
  st->docs = 0;
  if (!allowed) {
    st->docs = ix->n;
    memcpy(st->sum, ix->field_len_sum, sizeof st->sum);
    memcpy(st->have, ix->field_docs, sizeof st->have);
  } else {
    for (uint32_t d = 0; d < ix->n; d++) {
      if (!allowed[d]) continue;
      st->docs++;
      for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
        size_t len = tsift_field_len(ix, d, f);
        st->sum[f] += len;
        st->have[f] += len > 0;
      }
    }
  }
  average(st);
}

void tsift_stats_drop(const tsift_index *ix, tsift_stats *st, uint32_t d) {
  st->docs--;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    size_t len = tsift_field_len(ix, d, f);
    st->sum[f] -= len;
    st->have[f] -= len > 0;
  }
  average(st);
}

uint32_t tsift_term_df(const tsift_index *ix, const tsift_stats *stats, uint32_t t) {
  uint32_t a = ix->post_off[t], b = ix->post_off[t + 1];
  if (!stats->allowed) return b - a;
  uint32_t df = 0;
  for (uint32_t i = a; i < b; i++) df += stats->allowed[tsift_posting_doc(&ix->post[i])] ? 1 : 0;
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
                    TSIFT_BM25_B * (double)tsift_field_len(ix, tsift_posting_doc(p), f) / stats->avg_len[f];
      part = ix->weights[f] * (double)tf / norm;
    }
    if (parts) parts[f] = part;
    tfn += part;
  }
  return tfn;
}

/* The length normalisation of tsift_posting_tfn for tf = 1, written as it
 * is there (weights[f] x tf / norm), so that nw x tf is the same part for
 * tf = 1 and, doubling being exact, for tf = 2. */
static double norm_weight(double w, size_t len, double avg) {
  double norm = 1.0 - TSIFT_BM25_B + TSIFT_BM25_B * (double)len / avg;
  return w * (double)1u / norm;
}

int tsift_scoring_fits(const tsift_index *ix, const tsift_stats *stats) {
  return ix->len_norm_w && memcmp(stats->avg_len, ix->scoring_avg_len, sizeof stats->avg_len) == 0;
}

int tsift_scoring_derive(tsift_index *ix) {
  tsift_stats st;
  tsift_stats_fit(ix, NULL, &st);
  memcpy(ix->scoring_avg_len, st.avg_len, sizeof st.avg_len);
  ix->len_norm_w = tsift_calloc_array(TSIFT_FIELD_COUNT * TSIFT_NORM_ROW, sizeof *ix->len_norm_w);
  ix->term_max_tfn = tsift_calloc_array(ix->nterms + 1, sizeof *ix->term_max_tfn);
  if (!ix->len_norm_w || !ix->term_max_tfn) {
    tsift_free(ix->len_norm_w);
    tsift_free(ix->term_max_tfn);
    ix->len_norm_w = ix->term_max_tfn = NULL;
    return -1;
  }
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
    for (size_t len = 0; len < TSIFT_NORM_ROW; len++)
      ix->len_norm_w[f * TSIFT_NORM_ROW + len] =
          st.avg_len[f] > 0.0 ? norm_weight(ix->weights[f], len, st.avg_len[f]) : 0.0;
  /* the largest tfns: each the first time a query asks (tsift_term_max_tfn) */
  for (size_t t = 0; t < ix->nterms; t++) ix->term_max_tfn[t] = -1.0;
  return 0;
}

double tsift_term_max_tfn_fill(const tsift_index *ix, uint32_t t) {
  double mx = 0.0;
  for (uint32_t p = ix->post_off[t]; p < ix->post_off[t + 1]; p++) {
    double tfn = tsift_posting_tfn_table(ix, &ix->post[p]);
    if (tfn > mx) mx = tfn;
  }
  ix->term_max_tfn[t] = mx;
  return mx;
}

uint32_t tsift_posting_gallop(const tsift_posting *post, uint32_t lo, uint32_t hi, uint32_t doc) {
  uint32_t step = 1, prev = lo, key = tsift_posting_key(doc);
  while (lo < hi && post[lo].bits < key) {
    prev = lo + 1;
    lo = hi - lo > step ? lo + step : hi;
    step *= 2;
  }
  /* post[prev - 1].doc < doc <= post[lo].doc (or lo == hi): binary search between */
  while (prev < lo) {
    uint32_t mid = prev + (lo - prev) / 2;
    if (post[mid].bits < key) prev = mid + 1;
    else lo = mid;
  }
  return lo;
}

long tsift_find_posting(const tsift_index *ix, uint32_t t, uint32_t doc) {
  uint32_t lo = ix->post_off[t], hi = ix->post_off[t + 1], key = tsift_posting_key(doc);
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (ix->post[mid].bits < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < ix->post_off[t + 1] && tsift_posting_doc(&ix->post[lo]) == doc ? (long)lo : -1;
}
