/* dict.c — the index's term dictionary: term bytes, an open-addressing hash
 * table over term ids (hash.h), lookup, interning and the terms by first
 * letter. It calls nothing above it: the index builder (index.c) and the
 * snapshot loader (snapshot.c) derive the ranker's tables themselves. */
#include <string.h>

#include "base/alloc.h"
#include "index/index.h"

/* A term's bytes, for the table (hash.h). */
static const char *term_key(const void *owner, uint32_t t, size_t *len) {
  const tsift_index *ix = owner;
  *len = ix->term_len[t];
  return ix->term_bytes + ix->term_off[t];
}

/* The dictionary's hash, the same at a build, a snapshot load (tsift_dict_hash)
 * and a query: tsift_word_hash, whose values no file holds. */
static uint32_t term_hash(const char *s, size_t n) { return tsift_word_hash(s, n); }

long tsift_term_lookup(const tsift_index *ix, const char *s, size_t n) {
  return tsift_hash_find(&ix->term_hash, term_hash(s, n), s, n, term_key, ix);
}

int tsift_dict_hash(tsift_index *ix) {
  return tsift_hash_room_by(&ix->term_hash, ix->nterms + 1, ix->nterms, TSIFT_DICT_FIRST_SLOTS, term_key, ix,
                            term_hash);
}

long tsift_dict_intern(tsift_index *ix, const char *s, size_t n) {
  uint32_t h = term_hash(s, n);
  long found = tsift_hash_find(&ix->term_hash, h, s, n, term_key, ix);
  if (found >= 0) return found;
  if (tsift_dict_hash(ix)) return -1;
  if (ix->nterms == ix->terms_cap) {
    size_t c1 = ix->terms_cap, c2 = ix->terms_cap;
    if (tsift_grow((void **)&ix->term_off, &c1, ix->nterms + 1, sizeof *ix->term_off)) return -1;
    if (tsift_grow((void **)&ix->term_len, &c2, ix->nterms + 1, sizeof *ix->term_len)) return -1;
    ix->terms_cap = c1 < c2 ? c1 : c2;
  }
  if (tsift_grow((void **)&ix->term_bytes, &ix->term_bytes_cap, ix->term_bytes_len + n + 1, 1))
    return -1;
  memcpy(ix->term_bytes + ix->term_bytes_len, s, n);
  ix->term_bytes[ix->term_bytes_len + n] = 0;
  size_t t = ix->nterms++;
  ix->term_off[t] = (uint32_t)ix->term_bytes_len;
  ix->term_len[t] = (uint8_t)n;
  ix->term_bytes_len += n + 1;
  tsift_hash_add(&ix->term_hash, h, (uint32_t)t);
  return (long)t;
}

static unsigned first_byte(const tsift_index *ix, size_t t) {
  return ix->term_len[t] ? (unsigned char)ix->term_bytes[ix->term_off[t]] : 0;
}

int tsift_dict_letters(tsift_index *ix) {
  /* a counting sort on the first byte, stable: by id within a letter */
  uint32_t *order = tsift_calloc_array(ix->nterms + 1, sizeof *order);
  if (!order) return -1;
  uint32_t *off = ix->letter_off;
  memset(off, 0, sizeof ix->letter_off);
  for (size_t t = 0; t < ix->nterms; t++) off[first_byte(ix, t) + 1]++;
  for (size_t c = 0; c < 256; c++) off[c + 1] += off[c];
  uint32_t next[256];
  memcpy(next, off, sizeof next);
  for (size_t t = 0; t < ix->nterms; t++) order[next[first_byte(ix, t)]++] = (uint32_t)t;
  tsift_free(ix->by_letter);
  ix->by_letter = order;
  return 0;
}
