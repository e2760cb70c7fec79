/* strtab.c — byte strings interned to dense ids (strtab.h). */
#include "base/strtab.h"

#include <string.h>

#include "base/alloc.h"

static uint32_t hash_bytes(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

void tsift_strtab_free(tsift_strtab *t) {
  tsift_free(t->pool);
  tsift_free(t->off);
  tsift_free(t->len);
  tsift_free(t->slots);
  memset(t, 0, sizeof *t);
}

static int rehash(tsift_strtab *t, size_t nslots) {
  uint32_t *slots = tsift_calloc_array(nslots, sizeof *slots);
  if (!slots) return -1;
  for (size_t i = 0; i < t->n; i++) {
    size_t at = hash_bytes(t->pool + t->off[i], t->len[i]) & (nslots - 1);
    while (slots[at]) at = (at + 1) & (nslots - 1);
    slots[at] = (uint32_t)i + 1;
  }
  tsift_free(t->slots);
  t->slots = slots;
  t->nslots = nslots;
  return 0;
}

int tsift_strtab_reserve(tsift_strtab *t, size_t n) {
  size_t nslots = t->nslots ? t->nslots : 1024;
  while ((t->n + n) * 2 > nslots) nslots *= 2;
  return nslots == t->nslots ? 0 : rehash(t, nslots);
}

uint32_t tsift_strtab_intern(tsift_strtab *t, const char *s, size_t n) {
  if ((t->n + 1) * 2 > t->nslots && rehash(t, t->nslots ? t->nslots * 2 : 1024)) return UINT32_MAX;
  size_t at = hash_bytes(s, n) & (t->nslots - 1);
  for (; t->slots[at]; at = (at + 1) & (t->nslots - 1)) {
    uint32_t e = t->slots[at] - 1;
    if (t->len[e] == n && memcmp(t->pool + t->off[e], s, n) == 0) return e;
  }
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
  t->slots[at] = (uint32_t)t->n + 1;
  return (uint32_t)t->n++;
}
