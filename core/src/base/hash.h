/* hash.h — the core's one hash table of strings, and its hashes.
 *
 * FNV-1a (32-bit) over bytes, whose values some files hold; the term
 * dictionary's table, which no file holds, hashes with tsift_word_hash
 * (eight bytes a step) and is grown with tsift_hash_room_by. The table
 * maps byte strings to the ids their owner gave them (0, 1, 2… in the
 * order added): open addressing over a power of two of slots, each holding
 * id + 1 (0 = empty), linear probing, kept at most half full by its users. It stores no strings: the owner
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

/* A hash of s[0..n) eight bytes a step (FNV-1a goes one), for a table that
 * only lives in memory: the term dictionary, which hashes every token of a
 * build. Its values are never stored, so it may change; tsift_fnv1a's are
 * (text packs, salts). Words are loaded with memcpy (any alignment), the
 * last one overlapping the one before, never past s[n - 1]; each step
 * multiplies (low bits into high) and folds the high half down (high bits
 * into the low ones the table's index takes). */
static inline uint32_t tsift_word_hash(const char *s, size_t n) {
  const uint64_t k = 0x9E3779B97F4A7C15u;
  uint64_t h = n * k, w = 0;
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&w, s + i, 8);
      h = (h ^ w) * k;
      h ^= h >> 32;
    }
    memcpy(&w, s + n - 8, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    w = (uint64_t)a << 32 | b;
  } else if (n) {
    w = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[n / 2] << 8 | (unsigned char)s[n - 1];
  }
  h = (h ^ w) * k;
  h ^= h >> 32;
  return (uint32_t)((h * k) >> 32);
}

/* A hash function of the table's keys: tsift_fnv1a unless the owner says. */
typedef uint32_t (*tsift_hash_fn)(const char *s, size_t n);

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
/* The same for a table whose ids are added under hash(key) instead. */
int tsift_hash_room_by(tsift_hash *t, size_t count, size_t have, size_t first, tsift_hash_key key, const void *owner,
                       tsift_hash_fn hash);
void tsift_hash_free(tsift_hash *t);

#endif
