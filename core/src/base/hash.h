/* hash.h — the core's one hash table of strings, and its hash.
 *
 * FNV-1a (32-bit) over bytes. The table maps byte strings to the ids their
 * owner gave them (0, 1, 2… in the order added): open addressing over a
 * power of two of slots, each holding id + 1 (0 = empty), linear probing,
 * kept at most half full by its users. It stores no strings: the owner
 * keeps them wherever suits it and says an id's bytes through a
 * tsift_hash_key function, so the term dictionary (dict.c), the text
 * dictionary (textpack.c), interned strings (strtab.c), a static model's
 * vocabularies (static_model_chars.c) and the BM25 baseline (baseline.c)
 * share the one implementation. hash.c: resizing and inserting. */
#ifndef TSIFT_HASH_H
#define TSIFT_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TSIFT_FNV_BASIS 2166136261u
/* One byte of FNV-1a. */
static inline uint32_t tsift_fnv_step(uint32_t h, unsigned char b) { return (h ^ b) * 16777619u; }
/* FNV-1a continued from h over s[0..n) (keys of several parts). */
static inline uint32_t tsift_fnv_more(uint32_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) h = tsift_fnv_step(h, (unsigned char)s[i]);
  return h;
}
/* FNV-1a of s[0..n). */
static inline uint32_t tsift_fnv1a(const char *s, size_t n) { return tsift_fnv_more(TSIFT_FNV_BASIS, s, n); }

typedef struct tsift_hash {
  uint32_t *slots; /* id + 1, or 0 for an empty slot */
  size_t nslots;   /* 0 (empty, nothing allocated) or a power of two */
} tsift_hash;

/* The bytes of id (*len of them), from the table's owner. */
typedef const char *(*tsift_hash_key)(const void *owner, uint32_t id, size_t *len);

/* The id of s[0..n), whose hash is h, or -1. */
static inline long tsift_hash_find(const tsift_hash *t, uint32_t h, const char *s, size_t n, tsift_hash_key key,
                                   const void *owner) {
  if (!t->nslots) return -1;
  size_t mask = t->nslots - 1, i = h & mask;
  for (; t->slots[i]; i = (i + 1) & mask) {
    uint32_t id = t->slots[i] - 1;
    size_t len;
    const char *k = key(owner, id, &len);
    if (len == n && memcmp(k, s, n) == 0) return (long)id;
  }
  return -1;
}

/* Add id under hash h, which the caller knows is absent, in the first empty
 * slot from h (the table has room: tsift_hash_room). */
void tsift_hash_add(tsift_hash *t, uint32_t h, uint32_t id);
/* Room for `count` ids in all at most half full: when count * 2 exceeds the
 * slots, grow to `first` slots when empty, else double until it fits, and
 * add ids 0..have-1 again in order; -1 when out of memory (the table is as
 * it was). `first` is a power of two. */
int tsift_hash_room(tsift_hash *t, size_t count, size_t have, size_t first, tsift_hash_key key, const void *owner);
void tsift_hash_free(tsift_hash *t);

#endif
