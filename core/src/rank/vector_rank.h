/* vector_rank.h — a query vector against the index's vectors (vectors.h):
 * integer dot products, the similarity distribution over a universe, and
 * the exact top k by similarity (brute force). Fusion with BM25F is
 * fusion.h's. Internal to the core. */
#ifndef TSIFT_VECTOR_RANK_H
#define TSIFT_VECTOR_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "model/fusion_params.h"
#include "index/index.h"

struct cJSON;

/* A query vector, quantised like the tools' (vectors.h). */
typedef struct tsift_qvec {
  uint32_t dim;
  int8_t *q;
  double scale;
  /* The grade's floor (step_grade.c): a hit whose similarity is below it is
   * never strong. Off (below -1, the default) unless the host sets it. */
  double min_similarity;
  tsift_fusion_params fusion;
} tsift_qvec;

#define TSIFT_VEC_MIN_SIMILARITY_OFF (-2.0)

/* The query vector of JSON v (vectors.h's forms) for index ix: its
 * dimension must be the index's (TSIFT_E_ARG when the index has no vectors
 * or another dimension). Free with tsift_qvec_free. */
tsift_status tsift_qvec_from_json(const tsift_index *ix, const struct cJSON *v, tsift_qvec *out, tsift_error *err);
/* The same from dim doubles. */
tsift_status tsift_qvec_from_doubles(const tsift_index *ix, const double *x, uint32_t dim, tsift_qvec *out,
                                     tsift_error *err);
/* The query vector of text[0..len) from static model m for index ix (the
 * index's dimension): *known 0 and *out empty when the model knows no
 * token of it (no vector: that search is lexical). The one place a
 * model's query vector is made (sessions, evaluations). */
tsift_status tsift_qvec_from_model(const tsift_index *ix, const tsift_static_model *m, const char *text, size_t len,
                                   tsift_qvec *out, int *known, tsift_error *err);
void tsift_qvec_free(tsift_qvec *qv);

/* The similarity distribution of a query over a universe. */
typedef struct tsift_vec_dist {
  size_t count; /* docs of the universe with a vector */
  double mean, sd;
  double max; /* the highest similarity among them (-1e300: none) */
} tsift_vec_dist;

/* The int32 dot products of q with nrows rows of dim components (each in
 * [-127, 127]) into out: tsift_vec_dot_rows with the fastest kernel this
 * machine has (wasm SIMD, AVX2), tsift_vec_dot_rows_plain the portable
 * loop. Integer sums, so both give the same numbers (test_vectors.c). */
void tsift_vec_dot_rows(const int8_t *q, const int8_t *rows, size_t nrows, uint32_t dim, int32_t *out);
void tsift_vec_dot_rows_plain(const int8_t *q, const int8_t *rows, size_t nrows, uint32_t dim, int32_t *out);

/* Similarity of the query to doc d (0 when d has no vector): the int32 dot
 * product of the int8 components times both scales. */
double tsift_vec_similarity(const tsift_index *ix, const tsift_qvec *qv, uint32_t d);
/* The similarity of every doc into sim (ix->n; 0 for docs outside the
 * universe `allowed` (NULL: all) or without a vector) and their mean and
 * standard deviation over the docs of the universe that have one, summed
 * in doc order. */
void tsift_vec_similarities(const tsift_index *ix, const tsift_qvec *qv, const uint8_t *allowed, double *sim,
                            tsift_vec_dist *dist);
/* 1 when doc d is in the universe and has a vector. */
int tsift_vec_counts(const tsift_index *ix, const uint8_t *allowed, uint32_t d);
/* The 1-based rank of doc d in the universe by similarity (higher first,
 * then tool order). */
uint32_t tsift_vec_rank_of(const tsift_index *ix, const uint8_t *allowed, const double *sim, uint32_t d);
/* The exact top k of the universe by similarity (higher first, then tool
 * order) into out (room for k); returns how many. Brute force: n dot
 * products and a bounded insertion, O(n x dim + n x k). */
size_t tsift_vec_topk(const tsift_index *ix, const uint8_t *allowed, const double *sim, size_t k, uint32_t *out);

#endif
