/* strtab.h — a table of byte strings interned to dense ids (0, 1, 2… in
 * the order first seen): one pool of NUL-terminated copies and the core's
 * hash table over them (hash.h). Learning interns its words and clients
 * with it (strtab.c). */
#ifndef TSIFT_STRTAB_H
#define TSIFT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"

#define TSIFT_STRTAB_FIRST_SLOTS 1024

typedef struct tsift_strtab {
  char *pool; /* the strings, each NUL-terminated, one after the other */
  size_t pool_len, pool_cap;
  uint32_t *off, *len; /* per id: where in the pool, how many bytes */
  size_t n, cap;
  tsift_hash hash;
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
