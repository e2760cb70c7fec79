/* eval_vectors.h — the vectors of an evaluation (`toolsift eval --vectors
 * FILE`, docs/relevance.md "Measuring a model"): JSON Lines, one vector a
 * line,
 *   {"kind": "model", "id": "<model id>"}                  (optional, first)
 *   {"kind": "tool",  "id": "<tool id>",   "vector": [...] | "b64": "..."}
 *   {"kind": "query", "id": <the query's id>, "vector": [...] | "b64": "..."}
 * ("set" and other keys are ignored; "b64" is float32 little-endian). Every
 * tool of the catalog needs one, all of one dimension; a query without one
 * is ranked lexically. Internal to the core. */
#ifndef TSIFT_EVAL_VECTORS_H
#define TSIFT_EVAL_VECTORS_H

#include "cJSON.h"
#include "index.h"
#include "vector_rank.h"

typedef struct eval_vectors eval_vectors;

/* Read text[0..len) into ix's vectors and the query vectors (*out). */
tsift_status tsift_eval_vectors_read(tsift_index *ix, const char *text, size_t len, eval_vectors **out,
                                     tsift_error *err);
/* Measure other fusion parameters (eval option "fusion": {"margin": m,
 * "weight": w, "minSimilarity": f}) for every query vector. */
void tsift_eval_vectors_tune(eval_vectors *v, double margin, double weight, double min_similarity);
/* The vector of the query whose "id" is qid, or NULL. */
const tsift_qvec *tsift_eval_vectors_query(eval_vectors *v, const cJSON *qid);
/* Queries that had a vector so far (counted by tsift_eval_vectors_query). */
size_t tsift_eval_vectors_used(const eval_vectors *v);
void tsift_eval_vectors_free(eval_vectors *v);

#endif
