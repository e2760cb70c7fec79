/* eval_vectors.c — an evaluation's vectors (eval_vectors.h): from a file,
 * the model line and the tools' vectors into the index (first pass), the
 * queries' vectors by their id (second pass, once the dimension is known);
 * from a static model, the tools embedded at once and each query's text
 * embedded when it is evaluated. */
#include "eval/eval_vectors.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "rank/fusion.h"
#include "catalog/catalog.h"
#include "base/fmt.h"
#include "json/jsonl.h"
#include "model/static_model.h"
#include "index/vectors.h"
#include "json/json_read.h"

typedef struct query_vec {
  char *id; /* the query's "id", as compact JSON */
  tsift_qvec qv;
} query_vec;

struct eval_vectors {
  query_vec *q;
  size_t n, cap, used;
  /* a static model instead of a file: the last query's vector, and the
   * fusion parameters every one gets */
  const tsift_static_model *model;
  tsift_qvec scratch;
  tsift_fusion_params fusion;
  double min_similarity;
};

void tsift_eval_vectors_free(eval_vectors *v) {
  if (!v) return;
  for (size_t i = 0; i < v->n; i++) {
    cJSON_free(v->q[i].id);
    tsift_qvec_free(&v->q[i].qv);
  }
  tsift_qvec_free(&v->scratch);
  tsift_free(v->q);
  tsift_free(v);
}

static int query_cmp(const void *a, const void *b) {
  return strcmp(((const query_vec *)a)->id, ((const query_vec *)b)->id);
}

/* The doc with this id among the docs sorted by id, or -1. */
static long find_doc(const tsift_index *ix, const uint32_t *by_id, const char *id) {
  size_t lo = 0, hi = ix->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(ix->catalog.tools[by_id[mid]].id, id);
    if (!c) return (long)by_id[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* A line's kind ("model", "tool" or "query") and its vector member. */
static tsift_status line_kind(const cJSON *o, const char *where, const char **kind, const cJSON **vec,
                              tsift_error *err) {
  const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "kind");
  *kind = cJSON_IsString(k) ? k->valuestring : "";
  *vec = cJSON_GetObjectItemCaseSensitive(o, "vector");
  if (!*vec) *vec = cJSON_GetObjectItemCaseSensitive(o, "b64");
  if (!cJSON_IsObject(o) || (strcmp(*kind, "model") && strcmp(*kind, "tool") && strcmp(*kind, "query")))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected {\"kind\": \"model\" | \"tool\" | \"query\", …}", where);
  if (strcmp(*kind, "model") && !*vec)
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected \"vector\" (an array) or \"b64\"", where);
  return TSIFT_OK;
}

/* One tool line: its vector into the index (the first fixes the dimension). */
static tsift_status tool_line(tsift_index *ix, const uint32_t *by_id, const cJSON *o, const cJSON *vec,
                              const char *model, const char *where, tsift_error *err) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
  long d = cJSON_IsString(id) ? find_doc(ix, by_id, id->valuestring) : -1;
  if (d < 0) return tsift_fail(err, TSIFT_E_CONFIG, "%s: \"id\" names no tool of the catalog", where);
  double *x = NULL;
  uint32_t dim = 0;
  tsift_status st = tsift_vec_read_json(vec, where, &x, &dim, err);
  if (!st && !ix->vec_dim) st = tsift_vectors_alloc(ix, model, strlen(model), dim, err);
  if (!st && dim != ix->vec_dim)
    st = tsift_fail(err, TSIFT_E_CONFIG, "%s: %u components, the first tool had %u", where, dim, ix->vec_dim);
  if (!st && ix->vec_scale[d] > 0.0) st = tsift_fail(err, TSIFT_E_CONFIG, "%s: a second vector for the tool", where);
  if (!st) st = tsift_vec_quantize(x, dim, ix->vec_q + (size_t)d * dim, &ix->vec_scale[d], where, err);
  tsift_free(x);
  return st;
}

static tsift_status query_line(const tsift_index *ix, eval_vectors *v, const cJSON *o, const cJSON *vec,
                               const char *where, tsift_error *err) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
  if (!id) return tsift_fail(err, TSIFT_E_CONFIG, "%s: a query line needs the query's \"id\"", where);
  if (tsift_grow((void **)&v->q, &v->cap, v->n + 1, sizeof *v->q)) return tsift_nomem(err, "reading vectors");
  query_vec *qe = &v->q[v->n];
  memset(qe, 0, sizeof *qe);
  double *x = NULL;
  uint32_t dim = 0;
  tsift_status st = tsift_vec_read_json(vec, where, &x, &dim, err);
  if (!st && dim != ix->vec_dim)
    st = tsift_fail(err, TSIFT_E_CONFIG, "%s: %u components, the tools have %u", where, dim, ix->vec_dim);
  if (!st) st = tsift_qvec_from_doubles(ix, x, dim, &qe->qv, err);
  tsift_free(x);
  if (!st && !(qe->id = cJSON_PrintUnformatted(id))) st = tsift_nomem(err, "reading vectors");
  if (st) {
    tsift_qvec_free(&qe->qv);
    return st;
  }
  v->n++;
  return TSIFT_OK;
}

/* One pass over the lines: pass 0 reads the model and the tools, pass 1 the queries. */
static tsift_status read_pass(tsift_index *ix, const uint32_t *by_id, eval_vectors *v, const char *text, size_t len,
                              int pass, char model[TSIFT_VEC_MODEL_MAX + 1], tsift_error *err) {
  tsift_jsonl lines;
  tsift_jsonl_init(&lines, text, len);
  const char *line;
  size_t n;
  tsift_status st = TSIFT_OK;
  while (!st && tsift_jsonl_next(&lines, &line, &n)) {
    char where[48];
    tsift_snprintf(where, sizeof where, "vectors line %zu", lines.line);
    cJSON *o = NULL;
    const char *kind;
    const cJSON *vec;
    st = tsift_json_parse(line, n, where, &o, err);
    if (!st) st = line_kind(o, where, &kind, &vec, err);
    if (!st && pass == 0 && !strcmp(kind, "model")) {
      const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
      if (!cJSON_IsString(id) || !tsift_model_id_valid(id->valuestring, strlen(id->valuestring)) || ix->vec_dim)
        st = tsift_fail(err, TSIFT_E_CONFIG, "%s: the model line comes first, with an \"id\" of 1 to 64 "
                        "printable ASCII characters", where);
      else strcpy(model, id->valuestring);
    }
    if (!st && pass == 0 && !strcmp(kind, "tool")) st = tool_line(ix, by_id, o, vec, model, where, err);
    if (!st && pass == 1 && !strcmp(kind, "query")) st = query_line(ix, v, o, vec, where, err);
    cJSON_Delete(o);
  }
  return st;
}

/* Every tool has a vector; query ids are unique. */
static tsift_status check_complete(const tsift_index *ix, eval_vectors *v, tsift_error *err) {
  if (!ix->vec_dim) return tsift_fail(err, TSIFT_E_CONFIG, "vectors: no tool line");
  for (size_t d = 0; d < ix->n; d++)
    if (!(ix->vec_scale[d] > 0.0))
      return tsift_fail(err, TSIFT_E_CONFIG, "vectors: no vector for tool \"%.60s\"", ix->catalog.tools[d].id);
  qsort(v->q, v->n, sizeof *v->q, query_cmp);
  for (size_t i = 1; i < v->n; i++)
    if (!strcmp(v->q[i].id, v->q[i - 1].id))
      return tsift_fail(err, TSIFT_E_CONFIG, "vectors: two vectors for query %.60s", v->q[i].id);
  return TSIFT_OK;
}

tsift_status tsift_eval_vectors_read(tsift_index *ix, const char *text, size_t len, eval_vectors **out,
                                     tsift_error *err) {
  *out = NULL;
  eval_vectors *v = tsift_calloc_array(1, sizeof *v);
  uint32_t *by_id = tsift_calloc_array(ix->n + 1, sizeof *by_id);
  uint32_t *tmp = tsift_calloc_array(ix->n + 1, sizeof *tmp);
  tsift_status st = v && by_id && tmp ? TSIFT_OK : tsift_nomem(err, "reading vectors");
  char model[TSIFT_VEC_MODEL_MAX + 1] = "eval";
  if (!st) {
    for (size_t d = 0; d < ix->n; d++) by_id[d] = (uint32_t)d;
    tsift_sort_docs_by_id(ix, by_id, tmp, ix->n);
    st = read_pass(ix, by_id, v, text, len, 0, model, err);
  }
  if (!st && ix->vec_dim) st = read_pass(ix, by_id, v, text, len, 1, model, err);
  if (!st) st = check_complete(ix, v, err);
  tsift_free(by_id);
  tsift_free(tmp);
  if (st) {
    tsift_eval_vectors_free(v);
    tsift_vectors_free(ix);
    return st;
  }
  *out = v;
  return TSIFT_OK;
}

tsift_status tsift_eval_vectors_from_model(tsift_index *ix, const tsift_static_model *model, eval_vectors **out,
                                           tsift_error *err) {
  *out = NULL;
  eval_vectors *v = tsift_calloc_array(1, sizeof *v);
  if (!v) return tsift_nomem(err, "embedding the catalog");
  tsift_status st = tsift_index_embed_static(ix, model, NULL, err);
  if (st) {
    tsift_free(v);
    return st;
  }
  v->model = model;
  const tsift_fusion_params *calibrated = tsift_static_model_fusion(model);
  if (calibrated) v->fusion = *calibrated;
  else tsift_fusion_defaults(&v->fusion);
  v->min_similarity = TSIFT_VEC_MIN_SIMILARITY_OFF;
  *out = v;
  return TSIFT_OK;
}

/* The model's vector of text into v->scratch (*out NULL when the model
 * knows no token of it: that query is lexical). */
static tsift_status embed_query(const tsift_index *ix, eval_vectors *v, const char *text, const tsift_qvec **out,
                                tsift_error *err) {
  tsift_qvec_free(&v->scratch);
  int known;
  tsift_status st = tsift_qvec_from_model(ix, v->model, text, strlen(text), &v->scratch, &known, err);
  if (st || !known) return st;
  v->scratch.fusion = v->fusion;
  v->scratch.min_similarity = v->min_similarity;
  v->used++;
  *out = &v->scratch;
  return TSIFT_OK;
}

tsift_status tsift_eval_vectors_query(const tsift_index *ix, eval_vectors *v, const cJSON *qid, const char *text,
                                      const tsift_qvec **out, tsift_error *err) {
  *out = NULL;
  if (!v) return TSIFT_OK;
  if (v->model) return embed_query(ix, v, text, out, err);
  if (!qid) return TSIFT_OK;
  char *id = cJSON_PrintUnformatted(qid);
  if (!id) return tsift_nomem(err, "looking up the query's vector");
  query_vec key = {id, {0}};
  const query_vec *hit = bsearch(&key, v->q, v->n, sizeof *v->q, query_cmp);
  cJSON_free(id);
  if (hit) v->used++;
  *out = hit ? &hit->qv : NULL;
  return TSIFT_OK;
}

size_t tsift_eval_vectors_used(const eval_vectors *v) { return v ? v->used : 0; }

void tsift_eval_vectors_params(const eval_vectors *v, tsift_fusion_params *p) {
  if (v->model) *p = v->fusion;
  else tsift_fusion_defaults(p);
}

void tsift_eval_vectors_tune(eval_vectors *v, const tsift_fusion_params *fusion, double min_similarity) {
  v->fusion = *fusion;
  v->min_similarity = min_similarity;
  for (size_t i = 0; i < v->n; i++) {
    v->q[i].qv.fusion = *fusion;
    v->q[i].qv.min_similarity = min_similarity;
  }
}
