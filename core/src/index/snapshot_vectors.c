/* snapshot_vectors.c — the vectors section of a snapshot (snapshot_vectors.h):
 * written as the index holds them, read back with every value checked, so a
 * crafted blob with a valid checksum cannot give a vector quantisation could
 * not have made. */
#include "index/snapshot_vectors.h"

#include <stdint.h>
#include <string.h>

#include "base/alloc.h"

void tsift_snapshot_vectors_write(const tsift_index *ix, tsift_buf *b) {
  if (!ix->vec_dim) return;
  size_t bytes = ix->n * (8 + (size_t)ix->vec_dim);
  if (bytes > 0xFFFFFFFFu) { /* a section count is a u32: too big to write */
    b->failed = 1;
    return;
  }
  unsigned char len[4] = {(unsigned char)bytes, (unsigned char)(bytes >> 8), (unsigned char)(bytes >> 16),
                          (unsigned char)(bytes >> 24)};
  tsift_buf_append(b, (const char *)len, 4);
  for (size_t d = 0; d < ix->n; d++) {
    uint64_t u;
    memcpy(&u, &ix->vec_scale[d], sizeof u);
    unsigned char x[8];
    for (int i = 0; i < 8; i++) x[i] = (unsigned char)(u >> (8 * i));
    tsift_buf_append(b, (const char *)x, 8);
  }
  tsift_buf_append(b, (const char *)ix->vec_q, ix->n * ix->vec_dim);
}

/* One stored vector: its scale and components as quantisation leaves them. */
static int vector_valid(double scale, const int8_t *q, uint32_t dim) {
  if (scale == 0.0) {
    for (uint32_t i = 0; i < dim; i++)
      if (q[i]) return 0;
    return 1;
  }
  if (!(scale > 0.0 && scale <= 1.0 / 127.0)) return 0;
  int top = 0;
  for (uint32_t i = 0; i < dim; i++) {
    int a = q[i] < 0 ? -q[i] : q[i];
    if (a > 127) return 0;
    if (a > top) top = a;
  }
  return top == 127;
}

tsift_status tsift_snapshot_vectors_read(tsift_index *ix, const unsigned char *p, size_t n, tsift_error *err) {
  uint32_t dim = ix->vec_dim;
  if (!dim || ix->n > n || n != ix->n * (8 + (size_t)dim))
    return tsift_fail(err, TSIFT_E_SNAPSHOT, "bad vectors section");
  ix->vec_scale = tsift_calloc_array(ix->n + 1, sizeof *ix->vec_scale);
  if (!ix->vec_scale) return tsift_nomem(err, "loading a snapshot");
  /* the rows stay in the blob (no copy of the largest section): the loader
   * moves them next to its kept part (snapshot.c) */
  ix->vec_q = (int8_t *)(uintptr_t)(p + 8 * ix->n);
  ix->vec_q_in_blob = 1;
  for (size_t d = 0; d < ix->n; d++) {
    uint64_t u = 0;
    for (int i = 7; i >= 0; i--) u = u << 8 | p[8 * d + (size_t)i];
    memcpy(&ix->vec_scale[d], &u, sizeof u);
    if (!vector_valid(ix->vec_scale[d], ix->vec_q + d * dim, dim))
      return tsift_fail(err, TSIFT_E_SNAPSHOT, "bad vector for tool %zu", d);
  }
  return TSIFT_OK;
}
