/* snapshot_vectors.h — the vectors section of an index snapshot (format 5 on,
 * snapshot.c): after the varint stream, when the header's model id is not
 * empty, u32 byte count + per tool a u64 scale (IEEE bits; 0 = no vector),
 * then per tool dim int8 components. Internal to the core. */
#ifndef TSIFT_SNAPSHOT_VECTORS_H
#define TSIFT_SNAPSHOT_VECTORS_H

#include "index/index.h"
#include "json/json_out.h"

/* Append ix's vectors section (nothing when it has no vectors). */
void tsift_snapshot_vectors_write(const tsift_index *ix, tsift_buf *b);
/* Read the section p[0..n) into ix (ix->n, ix->vec_dim and ix->vec_model
 * set from the header): every scale 0 or a unit vector's (in
 * (0, 1/127]), every component in [-127, 127], the largest of a vector
 * with a scale exactly 127 in magnitude, as quantising leaves them; else
 * TSIFT_E_SNAPSHOT. */
tsift_status tsift_snapshot_vectors_read(tsift_index *ix, const unsigned char *p, size_t n, tsift_error *err);

#endif
