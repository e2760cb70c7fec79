/* strtab.c — byte strings interned to dense ids (strtab.h). */
#include "base/strtab.h"

#include <string.h>

#include "base/alloc.h"

/* An id's bytes, for the table (hash.h). */
static const char *key(const void *owner, uint32_t id, size_t *len) {
  const tsift_strtab *t = owner;
  *len = t->len[id];
  return t->pool + t->off[id];
}

void tsift_strtab_free(tsift_strtab *t) {
  TSIFT_FREE_ALL(t->pool, t->off, t->len);
  tsift_hash_free(&t->hash);
  memset(t, 0, sizeof *t);
}

int tsift_strtab_reserve(tsift_strtab *t, size_t n) {
  return tsift_hash_room(&t->hash, t->n + n, t->n, TSIFT_STRTAB_FIRST_SLOTS, key, t);
}

uint32_t tsift_strtab_intern(tsift_strtab *t, const char *s, size_t n) {
  uint32_t h = tsift_fnv1a(s, n);
  long found = tsift_hash_find(&t->hash, h, s, n, key, t);
  if (found >= 0) return (uint32_t)found;
  if (tsift_hash_room(&t->hash, t->n + 1, t->n, TSIFT_STRTAB_FIRST_SLOTS, key, t)) return UINT32_MAX;
  if (t->n == t->cap) {
    size_t cap = t->cap;
    if (tsift_grow((void **)&t->off, &cap, t->n + 1, sizeof *t->off)) return UINT32_MAX;
    cap = t->cap;
    if (tsift_grow((void **)&t->len, &cap, t->n + 1, sizeof *t->len)) return UINT32_MAX;
    t->cap = cap;
  }
  if (t->pool_len + n + 1 > t->pool_cap && tsift_grow((void **)&t->pool, &t->pool_cap, t->pool_len + n + 1, 1))
    return UINT32_MAX;
  memcpy(t->pool + t->pool_len, s, n);
  t->pool[t->pool_len + n] = 0;
  t->off[t->n] = (uint32_t)t->pool_len;
  t->len[t->n] = (uint32_t)n;
  t->pool_len += n + 1;
  tsift_hash_add(&t->hash, h, (uint32_t)t->n);
  return (uint32_t)t->n++;
}
