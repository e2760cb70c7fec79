/* eval_learn.h — learning measured by k-fold simulation (eval_learn.c,
 * docs/learning.md "How it is measured"): each graded query's run is
 * simulated through a real session (simulate.h), every fold's vocabulary is
 * learned from the journals of the other folds, and each query is then
 * ranked by the index of its own fold's vocabulary. */
#ifndef TSIFT_EVAL_LEARN_H
#define TSIFT_EVAL_LEARN_H

#include "cJSON.h"
#include "index/index.h"
#include "json/json_out.h"
#include "rank/rank.h"

typedef struct eval_learn eval_learn;

/* The eval option "learn": true, or {"folds": 2-20 (5), "noise": 0-1 (0),
 * "from": "runs" | "examples",
 * and the learner's rule options (minSessions, minClients, maxPerClient,
 * minShare)}. `catalog` and `index_opts` build the fold indexes as the
 * evaluated one (`base`, borrowed) was built; `session_config` is the
 * simulated agent's session configuration; `queries` the graded queries. */
tsift_status tsift_eval_learn_new(const char *catalog, size_t catalog_len, const cJSON *index_opts, tsift_index *base,
                                  const char *queries, size_t queries_len, const cJSON *learn_opts,
                                  const char *session_config, eval_learn **out, tsift_error *err);
/* The index (and its statistics) that ranks graded query q (its line
 * number in the queries): its fold's, learned without it. */
tsift_index *tsift_eval_learn_index(const eval_learn *el, const cJSON *q, size_t line_no, const tsift_stats **stats);
/* {"folds", "from", "noise", "sessions", "noisySessions", "abusiveSessions", "labels": [per fold]} */
void tsift_eval_learn_write(const eval_learn *el, tsift_buf *b);
void tsift_eval_learn_free(eval_learn *el);

#endif
