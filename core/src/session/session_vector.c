/* session_vector.c — a session's query vector: the host gives the vector of
 * the next search_tools query (tsift_session_set_query_vector; the loop
 * evaluation copies one in) or a static model embeds each query
 * (tsift_session_set_embedder), the built-in ranker fuses it (fusion.h),
 * and the search drops it. A replayed decision needs none. */
#include <string.h>

#include "base/alloc.h"
#include "session/session_internal.h"
#include "rank/vector_rank.h"

void tsift_session_drop_qvec(tsift_session *s) {
  tsift_qvec_free(s->qvec);
  tsift_free(s->qvec);
  s->qvec = NULL;
  s->vec_kind[0] = 0;
}

tsift_status tsift_session_use_qvec(tsift_session *s, const tsift_qvec *qv, tsift_error *err) {
  tsift_session_drop_qvec(s);
  if (!qv) return TSIFT_OK;
  tsift_qvec *copy = tsift_calloc_array(1, sizeof *copy);
  int8_t *q = tsift_calloc_array(qv->dim + 1, 1);
  if (!copy || !q) {
    tsift_free(copy);
    tsift_free(q);
    return tsift_nomem(err, "keeping the query vector");
  }
  *copy = *qv;
  memcpy(q, qv->q, qv->dim);
  copy->q = q;
  s->qvec = copy;
  return TSIFT_OK;
}

tsift_status tsift_session_set_query_vector(tsift_session *s, const float *vec, uint32_t dim,
                                            double min_similarity, tsift_error *err) {
  if (!s) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_set_query_vector: session is NULL");
  if (!vec || !dim) return tsift_session_use_qvec(s, NULL, err);
  if (!(min_similarity >= -2.0 && min_similarity <= 1.0))
    return tsift_fail(err, TSIFT_E_ARG, "query vector: minSimilarity must be from -1 to 1 (or below -1: off)");
  if (dim > 4096) return tsift_fail(err, TSIFT_E_LIMIT, "query vector: %u components, more than 4096", dim);
  double *x = tsift_calloc_array(dim, sizeof *x);
  if (!x) return tsift_nomem(err, "reading the query vector");
  for (uint32_t i = 0; i < dim; i++) x[i] = (double)vec[i];
  tsift_qvec qv;
  tsift_status st = tsift_qvec_from_doubles(s->index, x, dim, &qv, err);
  tsift_free(x);
  if (st) return st;
  qv.min_similarity = min_similarity;
  st = tsift_session_use_qvec(s, &qv, err);
  tsift_qvec_free(&qv);
  return st;
}

tsift_status tsift_session_set_embedder(tsift_session *s, const tsift_static_model *model, double min_similarity,
                                        tsift_error *err) {
  if (!s) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_set_embedder: session is NULL");
  if (!model) {
    s->embedder = NULL;
    return TSIFT_OK;
  }
  if (!(min_similarity >= -2.0 && min_similarity <= 1.0))
    return tsift_fail(err, TSIFT_E_ARG, "embedder: minSimilarity must be from -1 to 1 (or below -1: off)");
  const tsift_index *ix = s->index;
  const char *id = tsift_static_model_id(model);
  /* the session's own index without vectors (built from its catalog): the
   * model embeds its tools now; a borrowed one is the caller's to embed */
  if (!ix->vec_dim && !s->index_borrowed) {
    tsift_status st = tsift_index_embed_static(s->index, model, NULL, err);
    if (st) return st;
  }
  if (!ix->vec_dim)
    return tsift_fail(err, TSIFT_E_ARG, "embedder: the index has no vectors (embed the catalog with model %s first)", id);
  if (ix->vec_dim != tsift_static_model_dim(model) || strcmp(ix->vec_model, id) != 0)
    return tsift_fail(err, TSIFT_E_ARG, "embedder: the index's vectors are %s's (%u dimensions), not model %s's (%u)",
                      ix->vec_model, ix->vec_dim, id, (unsigned)tsift_static_model_dim(model));
  s->embedder = model;
  s->embedder_min_similarity = min_similarity;
  return TSIFT_OK;
}

tsift_status tsift_session_embed_query(tsift_session *s, const char *q, size_t len, tsift_error *err) {
  if (s->qvec || !s->embedder) return TSIFT_OK;
  tsift_qvec qv;
  int known;
  tsift_status st = tsift_qvec_from_model(s->index, s->embedder, q, len, &qv, &known, err);
  /* no token the model knows: no vector, the search stays lexical */
  if (!st && known) {
    qv.min_similarity = s->embedder_min_similarity;
    st = tsift_session_use_qvec(s, &qv, err);
  }
  tsift_qvec_free(&qv);
  return st;
}
