/* static_embed.c — a static-embedding model (static_model.c) as the
 * embedder of an index (docs/semantic.md, "Searching with a static model"):
 * every tool's text to embed (embed_text.c, the trust policy's) through the
 * model into the index's vectors, and a query's vector in the form the
 * search option "vector" reads. One implementation for every host: the CLIs'
 * `search --model`, the wasm ABI and the JS binding call these.
 *
 * Rule: a tool whose text has no token the model knows (its vector would be
 * the zero vector, which is no direction) gets no vector — it keeps its
 * BM25F score and takes no part in the similarity distribution, like a tool
 * of an index without vectors; the count is reported. A query with no known
 * token gives "vector": null, so its search is the lexical one, byte for
 * byte. */
#include <string.h>

#include "base/alloc.h"
#include "index/embed_text.h"
#include "base/fmt.h"
#include "index/index.h"
#include "json/json_out.h"
#include "index/vectors.h"

/* One tool's vector from the model into row d of ix's vectors; *known = 0
 * when the model knows none of its text's tokens (left without a vector). */
static tsift_status embed_tool(tsift_index *ix, const tsift_static_model *m, size_t d, float *row, double *x,
                               int *known, tsift_error *err) {
  const tsift_tool *t = &ix->catalog.tools[d];
  uint32_t dim = ix->vec_dim;
  tsift_buf text;
  tsift_buf_init(&text);
  tsift_status st = tsift_embed_text(t, &text, err);
  if (!st && text.failed) st = tsift_nomem(err, "embedding the tools");
  size_t pooled = 0;
  if (!st) st = tsift_static_model_embed(m, text.data ? text.data : "", text.len, row, &pooled, err);
  tsift_buf_free(&text);
  *known = pooled > 0;
  if (st || !*known) return st;
  for (uint32_t i = 0; i < dim; i++) x[i] = (double)row[i];
  char where[120];
  tsift_snprintf(where, sizeof where, "vectors: tool \"%.60s\"", t->id);
  return tsift_vec_quantize(x, dim, ix->vec_q + (size_t)d * dim, &ix->vec_scale[d], where, err);
}

tsift_status tsift_index_embed_static(tsift_index *ix, const tsift_static_model *m, size_t *without,
                                      tsift_error *err) {
  if (without) *without = 0;
  if (!ix || !m) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_embed_static: NULL argument");
  uint32_t dim = (uint32_t)tsift_static_model_dim(m);
  const char *id = tsift_static_model_id(m);
  tsift_status st = tsift_vectors_alloc(ix, id, strlen(id), dim, err);
  if (st) return st;
  float *row = tsift_calloc_array(dim, sizeof *row);
  double *x = tsift_calloc_array(dim, sizeof *x);
  if (!row || !x) st = tsift_nomem(err, "embedding the tools");
  size_t none = 0;
  for (size_t d = 0; d < ix->n && !st; d++) {
    int known = 0;
    st = embed_tool(ix, m, d, row, x, &known, err);
    none += !known;
  }
  tsift_free(row);
  tsift_free(x);
  if (st) {
    tsift_vectors_free(ix);
    return st;
  }
  if (without) *without = none;
  return TSIFT_OK;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* bytes[0..n) as a base64 JSON string. */
static void b64_string(tsift_buf *b, const unsigned char *bytes, size_t n) {
  tsift_buf_append(b, "\"", 1);
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)bytes[i] << 16 | (i + 1 < n ? (uint32_t)bytes[i + 1] << 8 : 0) |
                 (i + 2 < n ? bytes[i + 2] : 0);
    char q[4] = {B64[v >> 18 & 63], B64[v >> 12 & 63], i + 1 < n ? B64[v >> 6 & 63] : '=',
                 i + 2 < n ? B64[v & 63] : '='};
    tsift_buf_append(b, q, 4);
  }
  tsift_buf_append(b, "\"", 1);
}

tsift_status tsift_static_model_vector_json(const tsift_static_model *m, const char *text, size_t len,
                                            char **out, size_t *out_len, tsift_error *err) {
  if (!m || !out || (!text && len)) return tsift_fail(err, TSIFT_E_ARG, "tsift_static_model_vector_json: NULL argument");
  *out = NULL;
  size_t dim = tsift_static_model_dim(m), pooled = 0;
  float *row = tsift_calloc_array(dim, sizeof *row);
  unsigned char *le = tsift_alloc_bytes(dim * 4);
  tsift_status st = row && le ? tsift_static_model_embed(m, text ? text : "", len, row, &pooled, err)
                              : tsift_nomem(err, "embedding a query");
  tsift_buf b;
  tsift_buf_init(&b);
  if (!st && !pooled) tsift_json_null(&b);
  else if (!st) {
    for (size_t i = 0; i < dim; i++) { /* float32 little-endian, whatever the host's order */
      uint32_t bits;
      memcpy(&bits, &row[i], 4);
      for (int k = 0; k < 4; k++) le[i * 4 + (size_t)k] = (unsigned char)(bits >> (8 * k));
    }
    b64_string(&b, le, dim * 4);
  }
  tsift_free(row);
  tsift_free(le);
  return tsift_buf_finish_unless(st, &b, out, out_len, "embedding a query", err);
}
