/* vectors.c — the tools' embedding vectors (vectors.h): read from JSON or
 * given by the host, checked, quantised to int8 with a per-vector scale and
 * kept in the index. */
#include "index/vectors.h"

#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/tool_text.h"
#include "base/fmt.h"
#include "index/index.h"
#include "json/json_read.h"

int tsift_model_id_valid(const char *s, size_t n) {
  if (!s || n < 1 || n > TSIFT_VEC_MODEL_MAX) return 0;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e) return 0;
  return 1;
}

/* ---- reading ---------------------------------------------------------- */

static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

long tsift_b64_decode(const char *s, size_t n, unsigned char *out) {
  while (n && s[n - 1] == '=') n--;
  if (n % 4 == 1) return -1;
  unsigned long acc = 0;
  unsigned bits = 0;
  long len = 0;
  for (size_t i = 0; i < n; i++) {
    int v = b64_value((unsigned char)s[i]);
    if (v < 0) return -1;
    acc = ((acc << 6) | (unsigned)v) & 0xFFFFFFul;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[len++] = (unsigned char)(acc >> bits);
    }
  }
  return len;
}

static double f32_le(const unsigned char *p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &u, sizeof f);
  return (double)f;
}

static tsift_status read_b64(const char *s, const char *where, double **x, uint32_t *dim, tsift_error *err) {
  size_t n = strlen(s);
  if (n > (size_t)TSIFT_VEC_MAX_DIM * 4 / 3 * 4 + 8)
    return tsift_fail(err, TSIFT_E_LIMIT, "%s: more than %d components", where, TSIFT_VEC_MAX_DIM);
  unsigned char *bytes = tsift_alloc_bytes(n / 4 * 3 + 4);
  if (!bytes) return tsift_nomem(err, "reading a vector");
  long len = tsift_b64_decode(s, n, bytes);
  if (len < 0 || len % 4) {
    tsift_free(bytes);
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected base64 of float32 little-endian (4 bytes a component)",
                      where);
  }
  *dim = (uint32_t)(len / 4);
  *x = *dim ? tsift_calloc_array(*dim, sizeof **x) : NULL;
  if (*dim && !*x) {
    tsift_free(bytes);
    return tsift_nomem(err, "reading a vector");
  }
  for (uint32_t i = 0; i < *dim; i++) (*x)[i] = f32_le(bytes + 4 * i);
  tsift_free(bytes);
  return TSIFT_OK;
}

tsift_status tsift_vec_read_json(const cJSON *v, const char *where, double **x, uint32_t *dim, tsift_error *err) {
  *x = NULL;
  *dim = 0;
  tsift_status st = TSIFT_OK;
  if (cJSON_IsString(v)) {
    st = read_b64(v->valuestring, where, x, dim, err);
  } else if (cJSON_IsArray(v)) {
    int n = cJSON_GetArraySize(v);
    if (n > TSIFT_VEC_MAX_DIM)
      return tsift_fail(err, TSIFT_E_LIMIT, "%s: %d components, more than %d", where, n, TSIFT_VEC_MAX_DIM);
    *dim = (uint32_t)n;
    if (n && !(*x = tsift_calloc_array((size_t)n, sizeof **x))) return tsift_nomem(err, "reading a vector");
    const cJSON *c;
    uint32_t i = 0;
    cJSON_ArrayForEach(c, v) {
      if (!cJSON_IsNumber(c)) {
        tsift_free(*x);
        *x = NULL;
        return tsift_fail(err, TSIFT_E_CONFIG, "%s[%u]: expected a number, got %s", where, i,
                          tsift_json_type_name(c));
      }
      (*x)[i++] = c->valuedouble;
    }
  } else {
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected an array of numbers or a base64 string, got %s", where,
                      tsift_json_type_name(v));
  }
  if (!st && *dim == 0) st = tsift_fail(err, TSIFT_E_CONFIG, "%s: a vector needs at least one component", where);
  if (!st && *dim > TSIFT_VEC_MAX_DIM)
    st = tsift_fail(err, TSIFT_E_LIMIT, "%s: %u components, more than %d", where, *dim, TSIFT_VEC_MAX_DIM);
  if (st) {
    tsift_free(*x);
    *x = NULL;
  }
  return st;
}

/* ---- quantising ------------------------------------------------------- */

static long round_half_away(double v) { return v >= 0.0 ? (long)(v + 0.5) : -(long)(-v + 0.5); }

tsift_status tsift_vec_quantize(const double *x, uint32_t dim, int8_t *q, double *scale, const char *where,
                                tsift_error *err) {
  double sum = 0.0;
  for (uint32_t i = 0; i < dim; i++) {
    if (!(x[i] - x[i] == 0.0)) /* NaN or an infinity */
      return tsift_fail(err, TSIFT_E_CONFIG, "%s[%u]: not a finite number", where, i);
    sum += x[i] * x[i];
  }
  if (!(sum > 0.0) || !(sum - sum == 0.0))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: %s vector has no direction", where,
                      sum > 0.0 ? "an overflowing" : "a zero");
  double norm = __builtin_sqrt(sum), top = 0.0;
  for (uint32_t i = 0; i < dim; i++) {
    double u = x[i] / norm, a = u < 0.0 ? -u : u;
    if (a > top) top = a;
  }
  double s = top / 127.0;
  for (uint32_t i = 0; i < dim; i++) {
    long v = round_half_away((x[i] / norm) / s);
    q[i] = (int8_t)(v > 127 ? 127 : v < -127 ? -127 : v);
  }
  *scale = s;
  return TSIFT_OK;
}

/* ---- the index's vectors ---------------------------------------------- */

void tsift_vectors_free(tsift_index *ix) {
  if (!ix->vec_q_in_blob) tsift_free(ix->vec_q);
  ix->vec_q_in_blob = 0;
  tsift_free(ix->vec_scale);
  ix->vec_q = NULL;
  ix->vec_scale = NULL;
  ix->vec_dim = 0;
  ix->vec_model[0] = 0;
}

tsift_status tsift_vectors_alloc(tsift_index *ix, const char *model, size_t model_len, uint32_t dim,
                                  tsift_error *err) {
  if (!tsift_model_id_valid(model, model_len))
    return tsift_fail(err, TSIFT_E_ARG, "vectors: the model id must be 1 to %d printable ASCII characters",
                      TSIFT_VEC_MODEL_MAX);
  if (dim < 1 || dim > TSIFT_VEC_MAX_DIM)
    return tsift_fail(err, TSIFT_E_LIMIT, "vectors: dimension %u, expected 1 to %d", dim, TSIFT_VEC_MAX_DIM);
  tsift_vectors_free(ix);
  ix->vec_q = tsift_calloc_array(ix->n * dim + 1, 1);
  ix->vec_scale = tsift_calloc_array(ix->n + 1, sizeof *ix->vec_scale);
  if (!ix->vec_q || !ix->vec_scale) {
    tsift_vectors_free(ix);
    return tsift_nomem(err, "storing vectors");
  }
  ix->vec_dim = dim;
  memcpy(ix->vec_model, model, model_len);
  ix->vec_model[model_len] = 0;
  return TSIFT_OK;
}

/* Tool d's own "embedding" in the catalog's tree, or NULL. */
static const cJSON *embedding(const tsift_index *ix, size_t d) {
  return ix->catalog.embeddings ? ix->catalog.embeddings[d] : NULL;
}

static void tool_where(char *buf, size_t cap, const tsift_index *ix, size_t d) {
  tsift_snprintf(buf, cap, "tools[%zu] (\"%.60s\"): field \"embedding\"", d, ix->catalog.tools[d].id);
}

/* The first tool that may carry an embedding and has none, or the first
 * un-vouched one that has one: -1 when the catalog is consistent. */
static tsift_status check_presence(const tsift_index *ix, size_t first, tsift_error *err) {
  char where[200];
  for (size_t d = 0; d < ix->n; d++) {
    const tsift_tool *t = &ix->catalog.tools[d];
    tool_where(where, sizeof where, ix, d);
    if (!tsift_description_visible(t) && embedding(ix, d))
      return tsift_fail(err, TSIFT_E_CONFIG,
                        "%s: a %s tool's own embedding is not used (its description is not indexed); embed "
                        "the text tsift_index_embed_texts_json gives instead",
                        where, tsift_trust_name(tsift_trust_of(t)));
    if (tsift_description_visible(t) && !embedding(ix, d))
      return tsift_fail(err, TSIFT_E_CONFIG, "%s: missing, but tools[%zu] has one (all or none of the "
                        "first-party and vouched tools carry one)", where, first);
  }
  return TSIFT_OK;
}

tsift_status tsift_vectors_from_catalog(tsift_index *ix, const char *model, tsift_error *err) {
  size_t first = ix->n;
  for (size_t d = 0; d < ix->n && first == ix->n; d++)
    if (embedding(ix, d)) first = d;
  if (first == ix->n) return TSIFT_OK;
  tsift_status st = check_presence(ix, first, err);
  char where[200];
  uint32_t dim = 0;
  for (size_t d = 0; d < ix->n && !st; d++) {
    if (!embedding(ix, d)) continue;
    tool_where(where, sizeof where, ix, d);
    double *x = NULL;
    uint32_t n = 0;
    st = tsift_vec_read_json(embedding(ix, d), where, &x, &n, err);
    if (!st && !ix->vec_dim) {
      const char *m = model ? model : TSIFT_VEC_CATALOG_MODEL;
      st = tsift_vectors_alloc(ix, m, strlen(m), n, err);
      dim = n;
    }
    if (!st && n != dim)
      st = tsift_fail(err, TSIFT_E_CONFIG, "%s: %u components, but tools[%zu] has %u", where, n, first, dim);
    if (!st) st = tsift_vec_quantize(x, dim, ix->vec_q + d * dim, &ix->vec_scale[d], where, err);
    tsift_free(x);
  }
  if (st) tsift_vectors_free(ix);
  return st;
}

tsift_status tsift_vectors_set(tsift_index *ix, const char *model, size_t model_len, uint32_t dim,
                               const float *rows, size_t nrows, tsift_error *err) {
  if (nrows != ix->n)
    return tsift_fail(err, TSIFT_E_ARG, "vectors: %zu rows for %zu tools", nrows, ix->n);
  if (ix->n && !rows) return tsift_fail(err, TSIFT_E_ARG, "vectors: rows is NULL");
  double *x = tsift_calloc_array(dim + 1, sizeof *x);
  if (!x) return tsift_nomem(err, "storing vectors");
  tsift_status st = tsift_vectors_alloc(ix, model, model_len, dim, err);
  char where[200];
  for (size_t d = 0; d < ix->n && !st; d++) {
    for (uint32_t i = 0; i < dim; i++) x[i] = (double)rows[d * dim + i];
    tsift_snprintf(where, sizeof where, "vectors: row %zu (tool \"%.60s\")", d, ix->catalog.tools[d].id);
    st = tsift_vec_quantize(x, dim, ix->vec_q + d * dim, &ix->vec_scale[d], where, err);
  }
  tsift_free(x);
  if (st) tsift_vectors_free(ix);
  return st;
}

void tsift_vec_ranker_kind(const tsift_index *ix, char out[TSIFT_RANKER_KIND_MAX]) {
  tsift_snprintf(out, TSIFT_RANKER_KIND_MAX, "%s+vec:%s", TSIFT_RANKER_VERSION, ix->vec_model);
}
