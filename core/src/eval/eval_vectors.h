/* eval_vectors.h — the vectors of an evaluation (`toolsift eval --vectors
 * FILE`, docs/relevance.md "Measuring a model"): JSON Lines, one vector a
 * line,
 *   {"kind": "model", "id": "<model id>"}                  (optional, first)
 *   {"kind": "tool",  "id": "<tool id>",   "vector": [...] | "b64": "..."}
 *   {"kind": "query", "id": <the query's id>, "vector": [...] | "b64": "..."}
 * ("set" and other keys are ignored; "b64" is float32 little-endian). Every
 * tool of the catalog needs one, all of one dimension; a query without one
 * is ranked lexically. Or a static model's (`eval --model DIR`). Internal
 * to the core. */
#ifndef TSIFT_EVAL_VECTORS_H
#define TSIFT_EVAL_VECTORS_H

#include "cJSON.h"
#include "index/index.h"
#include "rank/vector_rank.h"

typedef struct eval_vectors eval_vectors;

/* Read text[0..len) into ix's vectors and the query vectors (*out). */
tsift_status tsift_eval_vectors_read(tsift_index *ix, const char *text, size_t len, eval_vectors **out,
                                     tsift_error *err);
/* Measure other fusion parameters (eval option "fusion": {"margin": m,
 * "weight": w, "strong": s, "agree": a, "minSimilarity": f}) for every
 * query vector. */
/* The fusion parameters in use (*p): the model's calibrated ones, else the defaults. */
void tsift_eval_vectors_params(const eval_vectors *v, tsift_fusion_params *p);
void tsift_eval_vectors_tune(eval_vectors *v, const tsift_fusion_params *fusion, double min_similarity);
/* The vectors of a static model (tsift_eval_model_json): ix's tools
 * embedded with it now, each query's text when it is asked for. The
 * model is borrowed. */
tsift_status tsift_eval_vectors_from_model(tsift_index *ix, const tsift_static_model *model, eval_vectors **out,
                                           tsift_error *err);
/* The vector of the query whose "id" is qid (with a model: of its text),
 * into *out, or NULL (no vector: the query is ranked lexically). A model's
 * vector lives until the next call. */
tsift_status tsift_eval_vectors_query(const tsift_index *ix, eval_vectors *v, const cJSON *qid, const char *text,
                                      const tsift_qvec **out, tsift_error *err);
/* Queries that had a vector so far (counted by tsift_eval_vectors_query). */
size_t tsift_eval_vectors_used(const eval_vectors *v);
void tsift_eval_vectors_free(eval_vectors *v);

#endif
