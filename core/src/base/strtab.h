/* strtab.h — a table of byte strings interned to dense ids (0, 1, 2… in
 * the order first seen): one pool of NUL-terminated copies and an
 * open-addressing hash over them (FNV-1a, linear probing, kept at most half
 * full). The one such table written for general use (strtab.c); learning
 * interns its words and clients with it. Older tables of the same shape
 * (dict.c, textpack.c, baseline.c, static_model_tok.c) are candidates to
 * move onto it (issue 36). */
#ifndef TSIFT_STRTAB_H
#define TSIFT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct tsift_strtab {
  char *pool; /* the strings, each NUL-terminated, one after the other */
  size_t pool_len, pool_cap;
  uint32_t *off, *len; /* per id: where in the pool, how many bytes */
  size_t n, cap;
  uint32_t *slots; /* id + 1, or 0 for an empty slot */
  size_t nslots;
} tsift_strtab;

/* The id of s[0..n), added when new; UINT32_MAX when out of memory (the
 * table is as it was). A zeroed table is an empty one. */
uint32_t tsift_strtab_intern(tsift_strtab *t, const char *s, size_t n);
/* Room for n more strings without growing the hash (it would rehash every
 * string each time it doubles); -1 when out of memory (unchanged). */
int tsift_strtab_reserve(tsift_strtab *t, size_t n);
void tsift_strtab_free(tsift_strtab *t);

static inline const char *tsift_strtab_text(const tsift_strtab *t, uint32_t id) { return t->pool + t->off[id]; }
static inline size_t tsift_strtab_len(const tsift_strtab *t, uint32_t id) { return t->len[id]; }

#endif
