/* step_typo.c — typo tolerance (rank.h): the dictionary words near a query word
 * the dictionary lacks. A scan of the dictionary with a length filter and a
 * bounded edit distance (optimal string alignment: insertions, deletions,
 * substitutions and swaps of neighbours, each one edit), run only for
 * words no tool has at all — a misspelled word, or a word of a need the
 * catalog does not serve. Only the dictionary words with the query word's
 * first letter and a length within reach are read (index.h, by_letter).
 * Byte-wise over ASCII words: a typo in another
 * script is left alone rather than "corrected" by bytes. The first letter
 * must agree: typing slips rarely hit it, and a correctly spelled word the
 * catalog lacks ("light", "night", "black") otherwise finds neighbours one
 * letter away at the front ("flight", "right", "slack") — measured in
 * docs/relevance.md. */
#include "rank/rank_internal.h"

#include <string.h>

static int ascii_word(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80 || !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return 0;
  }
  return 1;
}

/* The set of bytes of s[0..n) as bits, by their low six bits (the letters
 * a-z get one bit each; a digit shares one with a letter, which only lets
 * more words through). One edit changes the set by at most two bytes (a
 * substitution drops one and adds one), so sets further apart than 2k rule
 * a word out before the distance table is filled. */
static uint64_t byte_set(const char *s, size_t n) {
  uint64_t m = 0;
  for (size_t i = 0; i < n; i++) m |= (uint64_t)1 << ((unsigned char)s[i] & 63);
  return m;
}

/* The edit distance of a[0..na) and b[0..nb) when it is at most k, else
 * k + 1. Rows of the optimal-string-alignment table; a row whose smallest
 * entry passes k ends the scan. Words are at most TSIFT_TOKEN_MAX_BYTES. */
static unsigned edit_distance(const char *a, size_t na, const char *b, size_t nb, unsigned k) {
  unsigned rows[3][TSIFT_TOKEN_MAX_BYTES + 2];
  unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= nb; j++) prev[j] = (unsigned)j;
  for (size_t i = 1; i <= na; i++) {
    cur[0] = (unsigned)i;
    unsigned low = cur[0];
    for (size_t j = 1; j <= nb; j++) {
      unsigned cost = a[i - 1] != b[j - 1];
      unsigned v = prev[j] + 1;                                  /* deletion */
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;                /* insertion */
      if (prev[j - 1] + cost < v) v = prev[j - 1] + cost;        /* substitution */
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < v)
        v = prev2[j - 2] + 1;                                    /* swap of neighbours */
      cur[j] = v;
      if (v < low) low = v;
    }
    if (low > k) return k + 1;
    unsigned *t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[nb] <= k ? prev[nb] : k + 1;
}

/* c is a better correction than d. */
static int closer(const tsift_typo *c, const tsift_typo *d, const tsift_index *ix) {
  if (c->distance != d->distance) return c->distance < d->distance;
  if (c->df != d->df) return c->df > d->df;
  size_t lc = ix->term_len[c->id], ld = ix->term_len[d->id];
  int cmp = memcmp(ix->term_bytes + ix->term_off[c->id], ix->term_bytes + ix->term_off[d->id], lc < ld ? lc : ld);
  return cmp < 0 || (cmp == 0 && lc < ld);
}

size_t tsift_typo_corrections(const rank_ctx *c, const char *s, size_t n, tsift_typo *out) {
  if (n < TSIFT_TYPO_MIN_BYTES || n > TSIFT_TOKEN_MAX_BYTES || !ascii_word(s, n)) return 0;
  const tsift_index *ix = c->ix;
  unsigned k = n >= TSIFT_TYPO_TWO_EDITS_BYTES ? 2 : 1;
  size_t nout = 0;
  const uint64_t mine = byte_set(s, n);
  /* the terms with the same first letter, of a length within reach */
  for (uint32_t at = ix->letter_off[(unsigned char)s[0]]; at < ix->letter_off[(unsigned char)s[0] + 1]; at++) {
    uint32_t t = ix->by_letter[at];
    size_t len = ix->term_len[t];
    if (len + k < n || len > n + k) continue;
    const char *w = ix->term_bytes + ix->term_off[t];
    if ((unsigned)__builtin_popcountll(mine ^ byte_set(w, len)) > 2 * k) continue;
    unsigned dist = edit_distance(s, n, w, len, k);
    if (dist > k || dist == 0) continue;
    if (tsift_stopwords_has(&ix->stopwords, w, len) || !ascii_word(w, len)) continue;
    tsift_typo cand = {t, dist, tsift_term_df(ix, c->stats, t)};
    if (!cand.df) continue; /* no tool of the universe has it */
    /* keep the best TSIFT_TYPO_MAX_CORRECTIONS, best first (insertion) */
    size_t pos = nout;
    while (pos > 0 && closer(&cand, &out[pos - 1], ix)) pos--;
    if (pos >= TSIFT_TYPO_MAX_CORRECTIONS) continue;
    size_t last = nout < TSIFT_TYPO_MAX_CORRECTIONS ? nout : TSIFT_TYPO_MAX_CORRECTIONS - 1;
    memmove(&out[pos + 1], &out[pos], (last - pos) * sizeof *out);
    out[pos] = cand;
    if (nout < TSIFT_TYPO_MAX_CORRECTIONS) nout++;
  }
  return nout;
}
