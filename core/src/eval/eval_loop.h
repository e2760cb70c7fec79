/* eval_loop.h — the loop evaluation (eval_loop.c): what one search loads. */
#ifndef TSIFT_EVAL_LOOP_H
#define TSIFT_EVAL_LOOP_H

#include "cJSON.h"
#include "index/index.h"
#include "json/json_out.h"

typedef struct eval_loop eval_loop;

/* Over ix (borrowed; it must outlive the evaluation), with `opts` the eval
 * option "loop": true, or the "search" settings of a session configuration
 * (maxPerSearch, load, strong, …). */
tsift_status tsift_eval_loop_new(tsift_index *ix, const cJSON *opts, eval_loop **out, tsift_error *err);
/* One graded query (relevance {} = nothing fits) of class cls. */
/* qv: the query's vector (vector_rank.h), or NULL. */
struct tsift_qvec;
tsift_status tsift_eval_loop_query(eval_loop *l, const char *query, const struct tsift_qvec *qv, const cJSON *rel,
                                   const char *cls, tsift_error *err);
/* The index the next queries search (borrowed), e.g. a fold's learned one. */
void tsift_eval_loop_set_index(eval_loop *l, tsift_index *ix);
/* The session configuration of the configured load policy. */
const char *tsift_eval_loop_config(const eval_loop *l);
/* {"policies": [...], "overall": [per policy], "classes": {class: [per policy]}} */
void tsift_eval_loop_write(const eval_loop *l, tsift_buf *b);
/* Check the "loop" gates against the configured policy; failures appended
 * to fails, each starting with `prefix`. */
tsift_status tsift_eval_loop_gates(const eval_loop *l, const cJSON *gates, const char *prefix, tsift_buf *fails,
                                   size_t *nfail, tsift_error *err);
void tsift_eval_loop_free(eval_loop *l);

#endif
