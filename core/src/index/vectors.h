/* vectors.h — the tools' embedding vectors in an index (docs/relevance.md,
 * "Semantic search"): reading them (a JSON array of numbers or a base64
 * string of float32 little-endian), checking them, and storing them
 * quantised. Similarity is vector_rank.h's, fusion with BM25F fusion.h's.
 * Internal to the core.
 *
 * Quantisation, exact and the same on every platform (IEEE double, no
 * fast-math; sqrt is correctly rounded everywhere):
 *   1. every component finite, sum of squares (in component order) > 0 and
 *      finite, else an error naming the tool;
 *   2. u_i = x_i / sqrt(sum of squares)             (unit L2 length)
 *   3. s = max |u_i| / 127                           (the vector's scale)
 *   4. q_i = round(u_i / s), halves away from zero, in [-127, 127].
 * The index keeps q (int8, dim per tool) and s (a double per tool; 0 = the
 * tool has no vector). The cosine of two vectors is then approximated by
 * dot(q_a, q_b) x s_a x s_b, the dot product summed in int32 (exact). */
#ifndef TSIFT_VECTORS_H
#define TSIFT_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "toolsift.h"

struct cJSON;
struct tsift_index;

#define TSIFT_VEC_MAX_DIM 4096
#define TSIFT_VEC_MODEL_MAX 64
/* The model id of vectors a catalog carries when the build options name none. */
#define TSIFT_VEC_CATALOG_MODEL "catalog"

/* 1 when s[0..n) is a model id: 1..64 printable ASCII characters (0x21..0x7e). */
int tsift_model_id_valid(const char *s, size_t n);

/* Read a vector from JSON v (an array of numbers, or a base64 string of
 * float32 little-endian) into *x (dim doubles, caller frees with tsift_free)
 * and *dim. Errors name `where`. */
tsift_status tsift_vec_read_json(const struct cJSON *v, const char *where, double **x, uint32_t *dim,
                                 tsift_error *err);
/* Quantise x[0..dim) by the rule above into q[0..dim) and *scale. A vector
 * that cannot be one (NaN, an infinity, all zeros) is TSIFT_E_CONFIG naming
 * `where`. */
tsift_status tsift_vec_quantize(const double *x, uint32_t dim, int8_t *q, double *scale, const char *where,
                                tsift_error *err);
/* The catalog's "embedding" members into ix's vectors under `model` (NULL:
 * TSIFT_VEC_CATALOG_MODEL): every tool whose trust lets its own text be
 * indexed (first-party, vouched) has one of the same dimension, or none
 * has; an un-vouched (remote) or tainted tool's own embedding is an error
 * (its description is not indexed, so a vector of it must not be either).
 * Nothing happens when no tool has one. */
tsift_status tsift_vectors_from_catalog(struct tsift_index *ix, const char *model, tsift_error *err);
/* Replace ix's vectors with rows (n x dim floats, tool order) under model. */
tsift_status tsift_vectors_set(struct tsift_index *ix, const char *model, size_t model_len, uint32_t dim,
                               const float *rows, size_t nrows, tsift_error *err);
void tsift_vectors_free(struct tsift_index *ix);
/* Room for dim-component vectors of every tool of ix (none yet: scales 0)
 * under model, replacing any it had. */
tsift_status tsift_vectors_alloc(struct tsift_index *ix, const char *model, size_t model_len, uint32_t dim,
                                 tsift_error *err);
/* The ranker kind of a search with a query vector: "bm25f-N+vec:<model>". */
#define TSIFT_RANKER_KIND_MAX 96
void tsift_vec_ranker_kind(const struct tsift_index *ix, char out[TSIFT_RANKER_KIND_MAX]);

/* Decode base64 s[0..n) (standard alphabet, '=' padding optional) into
 * out (room for n / 4 * 3 + 3 bytes); returns the bytes or -1. Also the
 * static model's Precompiled charsmap (static_model_uni.c). */
long tsift_b64_decode(const char *s, size_t n, unsigned char *out);

#endif
