/* forward.c — the forward index (index.h): each tool's search document as
 * varint term ranks, as snapshots store it, so that a loaded index reads it
 * in place and a built one holds the same 1.4 bytes a token instead of a
 * 4-byte id (issue 23); the name/id sequences of exact matching alike.
 * Ranks: the term ids by token count (fields and sequences), most first,
 * ties by id, so common terms cost a byte. The build encodes its documents
 * here; readers decode one doc's field or sequence at a time (proximity,
 * exact matches, the fingerprint, search documents, the postings). */
#include <string.h>

#include "base/alloc.h"
#include "index/index.h"
#include "json/json_out.h"
#include "text/textpack.h"

/* The term ids by rank: most tokens (fields and sequences) first, ties by
 * id. NULL when out of memory. */
static uint32_t *term_ranks(const tsift_index *ix, const tsift_doc_ids *docs) {
  size_t nt = ix->nterms, nf = docs->field_off[ix->n * TSIFT_FIELD_COUNT], ns = docs->seq_off[2 * ix->n];
  uint32_t *count = tsift_calloc_array(nt + 1, sizeof *count);
  uint32_t *by_rank = tsift_calloc_array(nt + 1, sizeof *by_rank);
  uint32_t *start = NULL;
  uint32_t max = 0;
  if (count && by_rank) {
    for (size_t i = 0; i < nf; i++) count[docs->field_terms[i]]++;
    for (size_t i = 0; i < ns; i++) count[docs->seq_terms[i]]++;
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

/* The buffer's doubling given back (a failure is still out of memory), with
 * TSIFT_FORWARD_PAD bytes after the code for tsift_forward_skip. */
static unsigned char *take_code(tsift_buf *code) {
  for (int i = 0; i < TSIFT_FORWARD_PAD; i++) tsift_buf_putc(code, 0);
  size_t len;
  unsigned char *p = (unsigned char *)tsift_buf_take(code, &len), *fit = p ? tsift_realloc_bytes(p, len) : NULL;
  if (!fit) tsift_free(p);
  return fit;
}

/* ids[from .. to) as ranks; ids is NULL when no tool has a term, so it is
 * indexed, never offset (NULL + 0 is undefined behaviour). */
static void put_ranks(tsift_buf *b, const uint32_t *rank_of, const uint32_t *ids, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) tsift_put_varint(b, rank_of[ids[i]]);
}

/* Doc d's sequences as snapshots store them (index.h). */
static void put_sequences(tsift_buf *b, const uint32_t *rank_of, const tsift_doc_ids *docs, size_t d) {
  const uint32_t *off = docs->seq_off + 2 * d, *seq = docs->seq_terms;
  size_t nn = off[1] - off[0], ni = off[2] - off[1];
  tsift_put_varint(b, (uint32_t)nn);
  put_ranks(b, rank_of, seq, off[0], off[1]);
  if (ni == nn && (nn == 0 || memcmp(seq + off[0], seq + off[1], nn * sizeof *seq) == 0)) {
    tsift_put_varint(b, 0);
    return;
  }
  tsift_put_varint(b, (uint32_t)ni + 1);
  put_ranks(b, rank_of, seq, off[1], off[2]);
}

int tsift_forward_encode(tsift_index *ix, const tsift_doc_ids *docs) {
  size_t nf = ix->n * TSIFT_FIELD_COUNT;
  const uint32_t *field_off = docs->field_off;
  ix->by_rank = term_ranks(ix, docs);
  const uint32_t *rank_of = ix->by_rank && !tsift_forward_rank_of(ix) ? ix->rank_of : NULL;
  ix->field_lens = tsift_calloc_array(nf + 1, 1);
  ix->tok_at = tsift_calloc_array(ix->n + 1, sizeof *ix->tok_at);
  ix->seq_at = tsift_calloc_array(ix->n + 1, sizeof *ix->seq_at);
  if (!rank_of || !ix->field_lens || !ix->tok_at || !ix->seq_at) return -1;
  tsift_buf tok, seq;
  tsift_buf_init(&tok);
  tsift_buf_init(&seq);
  for (size_t i = 0; i < nf; i++) /* analysis caps every field (tool_text.h) */
    ix->field_lens[i] = (uint8_t)(field_off[i + 1] - field_off[i]);
  for (size_t d = 0; d < ix->n && !tok.failed && !seq.failed; d++) {
    ix->tok_at[d] = (uint32_t)tok.len;
    uint32_t a = field_off[d * TSIFT_FIELD_COUNT];
    put_ranks(&tok, rank_of, docs->field_terms, a, field_off[(d + 1) * TSIFT_FIELD_COUNT]);
    ix->seq_at[d] = (uint32_t)seq.len;
    put_sequences(&seq, rank_of, docs, d);
  }
  ix->tok_at[ix->n] = (uint32_t)tok.len;
  ix->seq_at[ix->n] = (uint32_t)seq.len;
  ix->tok_bytes = ix->tok_own = take_code(&tok);
  ix->seq_bytes = ix->seq_own = take_code(&seq);
  return ix->tok_own && ix->seq_own ? 0 : -1;
}

/* The start of sequence e and its count: an id sequence coded as the
 * name's is the name's. */
static const unsigned char *seq_entry(const tsift_index *ix, uint32_t e, uint32_t *count) {
  const unsigned char *p = ix->seq_bytes + ix->seq_at[e / 2];
  uint32_t nn = tsift_forward_next(&p);
  *count = nn;
  if (!(e & 1)) return p;
  const unsigned char *name = p;
  p = tsift_forward_skip(p, nn);
  uint32_t ni = tsift_forward_next(&p);
  if (ni == 0) return name;
  *count = ni - 1;
  return p;
}

size_t tsift_seq_tokens(const tsift_index *ix, uint32_t e, uint32_t *out) {
  uint32_t n;
  const unsigned char *p = seq_entry(ix, e, &n);
  for (uint32_t i = 0; i < n; i++) out[i] = ix->by_rank[tsift_forward_next(&p)];
  return n;
}

/* 1 when the n ranks at p are the ids q[0..n). */
static int ids_are(const tsift_index *ix, const unsigned char *p, const long *q, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((long)ix->by_rank[tsift_forward_next(&p)] != q[i]) return 0;
  return 1;
}

int tsift_seq_is(const tsift_index *ix, uint32_t e, const long *q, size_t nq) {
  uint32_t n;
  const unsigned char *p = seq_entry(ix, e, &n);
  return n == nq && ids_are(ix, p, q, nq);
}

int tsift_doc_seq_is(const tsift_index *ix, uint32_t d, const long *q, size_t nq) {
  const unsigned char *p = ix->seq_bytes + ix->seq_at[d];
  uint32_t nn = tsift_forward_next(&p);
  if (nn == nq && ids_are(ix, p, q, nq)) return 1;
  p = tsift_forward_skip(p, nn);
  uint32_t ni = tsift_forward_next(&p); /* 0: the name's, compared already */
  return ni == nq + 1 && ids_are(ix, p, q, nq);
}

size_t tsift_field_tokens(const tsift_index *ix, uint32_t d, int f, uint32_t *out) {
  const uint8_t *lens = ix->field_lens + (size_t)d * TSIFT_FIELD_COUNT;
  size_t before = 0;
  for (int g = 0; g < f; g++) before += lens[g];
  const unsigned char *p = tsift_forward_skip(ix->tok_bytes + ix->tok_at[d], before);
  for (size_t i = 0; i < lens[f]; i++) out[i] = ix->by_rank[tsift_forward_next(&p)];
  return lens[f];
}
