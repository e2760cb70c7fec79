/* hash.c — growing and filling the one hash table of strings (hash.h). */
#include "base/hash.h"

#include "base/alloc.h"

void tsift_hash_add(tsift_hash *t, uint32_t h, uint32_t id) {
  size_t mask = t->nslots - 1, i = h & mask;
  while (t->slots[i]) i = (i + 1) & mask;
  t->slots[i] = id + 1;
}

static uint32_t fnv1a(const char *s, size_t n) { return tsift_fnv1a(s, n); }

int tsift_hash_room(tsift_hash *t, size_t count, size_t have, size_t first, tsift_hash_key key, const void *owner) {
  return tsift_hash_room_by(t, count, have, first, key, owner, fnv1a);
}

int tsift_hash_room_by(tsift_hash *t, size_t count, size_t have, size_t first, tsift_hash_key key, const void *owner,
                       tsift_hash_fn hash) {
  if (count * 2 <= t->nslots) return 0;
  size_t nslots = t->nslots ? t->nslots : first;
  while (count * 2 > nslots) nslots *= 2;
  tsift_hash grown = {tsift_calloc_array(nslots, sizeof *grown.slots), nslots};
  if (!grown.slots) return -1;
  for (size_t id = 0; id < have; id++) {
    size_t len;
    const char *k = key(owner, (uint32_t)id, &len);
    tsift_hash_add(&grown, hash(k, len), (uint32_t)id);
  }
  tsift_free(t->slots);
  *t = grown;
  return 0;
}

void tsift_hash_free(tsift_hash *t) {
  tsift_free(t->slots);
  t->slots = NULL;
  t->nslots = 0;
}
