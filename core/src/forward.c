/* forward.c — the forward index (index.h): each tool's search document as
 * varint term ranks, as snapshots store it, so that a loaded index reads it
 * in place and a built one holds the same 1.4 bytes a token instead of a
 * 4-byte id (issue 23). Ranks: the term ids by token count (fields and
 * name/id sequences), most first, ties by id, so common terms cost a byte.
 * The build encodes its documents here; readers decode one doc's field at a
 * time (proximity, the fingerprint, search documents, the postings). */
#include <string.h>

#include "alloc.h"
#include "index.h"
#include "json_out.h"
#include "textpack.h"

/* The term ids by rank: most tokens (fields and sequences) first, ties by
 * id. NULL when out of memory. */
static uint32_t *term_ranks(const tsift_index *ix, const uint32_t *field_terms, size_t nf) {
  size_t nt = ix->nterms, ns = ix->seq_off[2 * ix->n];
  uint32_t *count = tsift_calloc_array(nt + 1, sizeof *count);
  uint32_t *by_rank = tsift_calloc_array(nt + 1, sizeof *by_rank);
  uint32_t *start = NULL;
  uint32_t max = 0;
  if (count && by_rank) {
    for (size_t i = 0; i < nf; i++) count[field_terms[i]]++;
    for (size_t i = 0; i < ns; i++) count[ix->seq_terms[i]]++;
    for (size_t t = 0; t < nt; t++) max = count[t] > max ? count[t] : max;
    start = tsift_calloc_array((size_t)max + 2, sizeof *start);
  }
  if (!start) {
    tsift_free(count);
    tsift_free(by_rank);
    return NULL;
  }
  /* A counting sort by descending count (stable: ties stay in id order). */
  for (size_t t = 0; t < nt; t++) start[max - count[t] + 1]++;
  for (size_t k = 1; k < (size_t)max + 2; k++) start[k] += start[k - 1];
  for (size_t t = 0; t < nt; t++) by_rank[start[max - count[t]]++] = (uint32_t)t;
  tsift_free(count);
  tsift_free(start);
  return by_rank;
}

int tsift_forward_rank_of(tsift_index *ix) {
  ix->rank_of = tsift_calloc_array(ix->nterms + 1, sizeof *ix->rank_of);
  if (!ix->rank_of) return -1;
  for (size_t r = 0; r < ix->nterms; r++) ix->rank_of[ix->by_rank[r]] = (uint32_t)r;
  return 0;
}

int tsift_forward_encode(tsift_index *ix, const uint32_t *field_off, const uint32_t *field_terms) {
  size_t nf = ix->n * TSIFT_FIELD_COUNT;
  ix->by_rank = term_ranks(ix, field_terms, field_off[nf]);
  const uint32_t *rank_of = ix->by_rank && !tsift_forward_rank_of(ix) ? ix->rank_of : NULL;
  ix->field_lens = tsift_calloc_array(nf + 1, 1);
  ix->tok_at = tsift_calloc_array(ix->n + 1, sizeof *ix->tok_at);
  tsift_buf code;
  tsift_buf_init(&code);
  if (rank_of && ix->field_lens && ix->tok_at) {
    for (size_t i = 0; i < nf; i++) /* analysis caps every field (docs.h) */
      ix->field_lens[i] = (uint8_t)(field_off[i + 1] - field_off[i]);
    for (size_t d = 0; d < ix->n && !code.failed; d++) {
      ix->tok_at[d] = (uint32_t)code.len;
      for (uint32_t i = field_off[d * TSIFT_FIELD_COUNT]; i < field_off[(d + 1) * TSIFT_FIELD_COUNT]; i++)
        tsift_put_varint(&code, rank_of[field_terms[i]]);
    }
    ix->tok_at[ix->n] = (uint32_t)code.len;
    for (int i = 0; i < TSIFT_FORWARD_PAD; i++) tsift_buf_putc(&code, 0);
  }
  size_t len;
  if (!rank_of || !ix->field_lens || !ix->tok_at || code.failed || !(ix->tok_own = (unsigned char *)tsift_buf_take(&code, &len))) {
    tsift_buf_free(&code);
    return -1;
  }
  /* The buffer's doubling given back (a failure is still out of memory). */
  unsigned char *fit = tsift_realloc_bytes(ix->tok_own, len ? len : 1);
  if (!fit) return -1;
  ix->tok_bytes = ix->tok_own = fit;
  return 0;
}

size_t tsift_field_tokens(const tsift_index *ix, uint32_t d, int f, uint32_t *out) {
  const uint8_t *lens = ix->field_lens + (size_t)d * TSIFT_FIELD_COUNT;
  size_t before = 0;
  for (int g = 0; g < f; g++) before += lens[g];
  const unsigned char *p = tsift_forward_skip(ix->tok_bytes + ix->tok_at[d], before);
  for (size_t i = 0; i < lens[f]; i++) out[i] = ix->by_rank[tsift_forward_next(&p)];
  return lens[f];
}
