/* dict.c — the index's term dictionary: term bytes, an open-addressing hash
 * table over term ids + 1 (FNV-1a), lookup, interning and the terms by first
 * letter. It calls nothing above it: the index builder (index.c) and the
 * snapshot loader (snapshot.c) derive the ranker's tables themselves. */
#include <string.h>

#include "base/alloc.h"
#include "index/index.h"

static uint32_t hash_bytes(const char *s, size_t n) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

long tsift_term_lookup(const tsift_index *ix, const char *s, size_t n) {
  if (!ix->nslots) return -1;
  size_t mask = ix->nslots - 1;
  for (size_t i = hash_bytes(s, n) & mask;; i = (i + 1) & mask) {
    uint32_t v = ix->slots[i];
    if (!v) return -1;
    uint32_t t = v - 1;
    if (ix->term_len[t] == n && memcmp(ix->term_bytes + ix->term_off[t], s, n) == 0) return t;
  }
}

int tsift_index_rehash(tsift_index *ix, size_t nslots) {
  uint32_t *slots = tsift_calloc_array(nslots, sizeof *slots);
  if (!slots) return -1;
  for (size_t t = 0; t < ix->nterms; t++) {
    size_t i = hash_bytes(ix->term_bytes + ix->term_off[t], ix->term_len[t]) & (nslots - 1);
    while (slots[i]) i = (i + 1) & (nslots - 1);
    slots[i] = (uint32_t)t + 1;
  }
  tsift_free(ix->slots);
  ix->slots = slots;
  ix->nslots = nslots;
  return 0;
}

long tsift_dict_intern(tsift_index *ix, const char *s, size_t n) {
  long found = tsift_term_lookup(ix, s, n);
  if (found >= 0) return found;
  if ((ix->nterms + 1) * 2 > ix->nslots && tsift_index_rehash(ix, ix->nslots ? ix->nslots * 2 : 1024)) return -1;
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
  size_t i = hash_bytes(s, n) & (ix->nslots - 1);
  while (ix->slots[i]) i = (i + 1) & (ix->nslots - 1);
  ix->slots[i] = (uint32_t)t + 1;
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
