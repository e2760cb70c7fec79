/* static_model.c — the static-embedding model (issue 25): a model2vec-style
 * matrix from a safetensors file (with model2vec 0.7+'s per-token "weights"
 * and "mapping", issue 35) plus a tokenizer.json, and the embedding of a
 * text: its tokens' rows (minus a WordPiece [UNK], at most 512; with
 * sentence-transformers' pooling every token) mapped, weighted and summed in
 * token order in doubles, divided by the sum's norm. Additions, one division
 * per component and one correctly rounded sqrt: IEEE binary64 gives the same
 * bits on every platform (no FMA contraction, no libm), so native and wasm
 * agree byte for byte. docs/semantic.md has the rules. */
#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "json/json_out.h"
#include "base/sha256.h"
#include "model/static_model.h"

struct tsift_static_model {
  tsift_st_matrix m; /* m.data points into `data` */
  uint8_t *data;     /* the matrix's bytes: a copy, or the whole taken file */
  tsift_wordpiece wp;
  double *weight;    /* by token id: model2vec's "weights", or NULL */
  uint32_t *row;     /* by token id: model2vec's "mapping", or NULL */
  unsigned char all; /* sentence-transformers' pooling: every token, [UNK] too, no cap */
  char id[48];
  tsift_fusion_params fusion; /* config.json's calibrated parameters, when has_fusion */
  int has_fusion;
};

void tsift_static_model_free(tsift_static_model *model) {
  if (!model) return;
  tsift_wordpiece_free(&model->wp);
  TSIFT_FREE_ALL(model->data, model->weight, model->row, model);
}

/* "weights" and "mapping" (checked by the reader: finite, rows of the
 * matrix) against the tokenizer: one entry per token id; then kept by id as
 * doubles and row numbers, so they outlive the caller's buffer. Refused
 * with sentence-transformers' pooling, which reads neither. */
static tsift_status read_per_token(tsift_static_model *model, tsift_error *err) {
  const tsift_st_1d *t[2] = {&model->m.weights, &model->m.mapping};
  for (int k = 0; k < 2; k++) {
    const char *name = k ? "mapping" : "weights";
    if (!t[k]->data) continue;
    if (model->all)
      return tsift_fail(err, TSIFT_E_MODEL,
                        "safetensors: tensor \"%s\": sentence-transformers' StaticEmbedding reads no per-token tensor "
                        "(only \"embedding.weight\" or \"embeddings\")", name);
    if (t[k]->n != model->wp.nids)
      return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%s\" has %zu entries, but tokenizer.json has %zu token ids",
                        name, t[k]->n, model->wp.nids);
    void *v = tsift_calloc_array(t[k]->n, k ? sizeof *model->row : sizeof *model->weight);
    if (!v) return tsift_nomem(err, "reading the per-token tensors");
    for (size_t i = 0; i < t[k]->n; i++) {
      const uint8_t *p = t[k]->data + i * t[k]->size;
      if (k) ((uint32_t *)v)[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      else ((double *)v)[i] = tsift_st_at(t[k]->dtype, p);
    }
    if (k) model->row = v;
    else model->weight = v;
  }
  return TSIFT_OK;
}

size_t tsift_static_model_dim(const tsift_static_model *model) { return model ? model->m.cols : 0; }

const char *tsift_static_model_id(const tsift_static_model *model) { return model ? model->id : ""; }

void tsift_static_model_set_fusion(tsift_static_model *model, const tsift_fusion_params *p) {
  model->fusion = *p;
  model->has_fusion = 1;
}

const tsift_fusion_params *tsift_static_model_fusion(const tsift_static_model *model) {
  return model && model->has_fusion ? &model->fusion : NULL;
}

/* Every value finite: a NaN or infinity would poison every sum it enters.
 * *max gets the largest magnitude (for the overflow bound below). */
static tsift_status check_finite(const tsift_st_matrix *m, double *max, tsift_error *err) {
  *max = 128.0; /* I8 */
  if (m->dtype == TSIFT_ST_I8) return TSIFT_OK;
  *max = 0.0;
  for (size_t r = 0; r < m->rows; r++)
    for (size_t c = 0; c < m->cols; c++) {
      double v = tsift_st_value(m, m->data, r, c);
      if (v != v || v - v != 0)
        return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%s\": row %zu, column %zu is %s", m->name, r, c,
                          v != v ? "NaN" : "infinite");
      if (__builtin_fabs(v) > *max) *max = __builtin_fabs(v);
    }
  return TSIFT_OK;
}

/* A pooled sum must not overflow: at most 65,536 tokens of a value times
 * its weight, then squared over 4,096 dimensions. Values times weights of
 * at most TSIFT_STATIC_MAX_MAGNITUDE keep every sum and its norm finite
 * (real models stay under 100). */
static tsift_status check_magnitude(const tsift_static_model *model, double max_value, tsift_error *err) {
  double max_weight = model->weight ? 0.0 : 1.0;
  for (size_t i = 0; model->weight && i < model->wp.nids; i++)
    if (__builtin_fabs(model->weight[i]) > max_weight) max_weight = __builtin_fabs(model->weight[i]);
  if (max_value * max_weight > TSIFT_STATIC_MAX_MAGNITUDE)
    return tsift_fail(err, TSIFT_E_LIMIT, "safetensors: a value (up to %g) times its weight (up to %g) is over %g",
                      max_value, max_weight, TSIFT_STATIC_MAX_MAGNITUDE);
  return TSIFT_OK;
}

/* NAME-HEX12: HEX12 from SHA-256 over the two files, each preceded by its
 * length (8 bytes, little-endian) so no two pairs of files hash alike. */
static void model_id(tsift_static_model *model, const uint8_t *st, size_t st_len, const char *tok, size_t tok_len) {
  tsift_sha256 h;
  tsift_sha256_init(&h);
  uint8_t len8[8];
  for (int i = 0; i < 8; i++) len8[i] = (uint8_t)((uint64_t)st_len >> (8 * i));
  tsift_sha256_update(&h, len8, 8);
  tsift_sha256_update(&h, st, st_len);
  for (int i = 0; i < 8; i++) len8[i] = (uint8_t)((uint64_t)tok_len >> (8 * i));
  tsift_sha256_update(&h, len8, 8);
  tsift_sha256_update(&h, tok, tok_len);
  if (model->all) tsift_sha256_update(&h, "S", 1); /* another pooling, another id */
  uint8_t digest[32];
  char hex[65];
  tsift_sha256_final(&h, digest);
  tsift_sha256_hex(digest, hex);
  tsift_snprintf(model->id, sizeof model->id, "%s-%.12s", model->m.meta_name[0] ? model->m.meta_name : "static", hex);
}

/* Both loads: with `take` (the safetensors buffer, from tsift_alloc_bytes)
 * the model keeps that buffer and reads its matrix in place, else it copies
 * the matrix. `take` is the model's or freed, whatever happens. */
static tsift_status load(const uint8_t *safetensors, size_t safetensors_len, const char *tokenizer_json,
                         size_t tokenizer_len, uint8_t *take, unsigned flags, tsift_static_model **out,
                         tsift_error *err) {
  tsift_static_model *model = tsift_calloc_array(1, sizeof *model);
  if (!model) {
    tsift_free(take);
    return tsift_nomem(err, "loading a static model");
  }
  model->data = take; /* freed with the model from here on */
  model->all = (flags & TSIFT_STATIC_SENTENCE_TRANSFORMERS) != 0;
  tsift_status st = tsift_st_read_matrix(safetensors, safetensors_len, &model->m, err);
  double max_value = 0.0;
  if (!st) st = check_finite(&model->m, &max_value, err);
  /* with a mapping, token ids index it, not the matrix */
  if (!st) st = tsift_wordpiece_load(tokenizer_json, tokenizer_len,
                                     model->m.mapping.data ? model->m.mapping.n : model->m.rows, &model->wp, err);
  if (!st) st = read_per_token(model, err);
  if (!st) st = check_magnitude(model, max_value, err);
  if (!st && !take) {
    size_t bytes = model->m.rows * model->m.cols * model->m.elem_size;
    model->data = tsift_alloc_bytes(bytes);
    if (!model->data) st = tsift_nomem(err, "copying the embedding matrix");
    else {
      memcpy(model->data, model->m.data, bytes);
      model->m.data = model->data;
    }
  }
  if (st) {
    tsift_static_model_free(model);
    return st;
  }
  model_id(model, safetensors, safetensors_len, tokenizer_json, tokenizer_len);
  *out = model;
  return tsift_ok(err);
}

tsift_status tsift_static_model_load_flags(const uint8_t *safetensors, size_t safetensors_len,
                                           const char *tokenizer_json, size_t tokenizer_len, unsigned flags,
                                           tsift_static_model **out, tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "static model: NULL output");
  *out = NULL;
  if ((!safetensors && safetensors_len) || (!tokenizer_json && tokenizer_len))
    return tsift_fail(err, TSIFT_E_ARG, "static model: NULL input");
  return load(safetensors, safetensors_len, tokenizer_json, tokenizer_len, NULL, flags, out, err);
}

tsift_status tsift_static_model_load(const uint8_t *safetensors, size_t safetensors_len, const char *tokenizer_json,
                                     size_t tokenizer_len, tsift_static_model **out, tsift_error *err) {
  return tsift_static_model_load_flags(safetensors, safetensors_len, tokenizer_json, tokenizer_len, 0, out, err);
}

tsift_status tsift_static_model_load_take_flags(uint8_t *safetensors, size_t safetensors_len,
                                                const char *tokenizer_json, size_t tokenizer_len, unsigned flags,
                                                tsift_static_model **out, tsift_error *err) {
  if (!out || !safetensors || (!tokenizer_json && tokenizer_len)) {
    tsift_free(safetensors);
    if (out) *out = NULL;
    return tsift_fail(err, TSIFT_E_ARG, "static model: NULL argument");
  }
  *out = NULL;
  return load(safetensors, safetensors_len, tokenizer_json, tokenizer_len, safetensors, flags, out, err);
}

tsift_status tsift_static_model_load_take(uint8_t *safetensors, size_t safetensors_len, const char *tokenizer_json,
                                          size_t tokenizer_len, tsift_static_model **out, tsift_error *err) {
  return tsift_static_model_load_take_flags(safetensors, safetensors_len, tokenizer_json, tokenizer_len, 0, out, err);
}

/* ---- embedding ------------------------------------------------------------ */

typedef struct pool {
  const tsift_static_model *model;
  double *sum;
  size_t pooled;
  tsift_buf *tokens; /* the JSON token list, or NULL */
} pool;

static int pool_token(void *user, uint32_t id) {
  pool *p = user;
  const tsift_static_model *model = p->model;
  if (p->tokens) {
    size_t n = 0;
    const char *t = tsift_wordpiece_token(&model->wp, id, &n);
    tsift_json_str(p->tokens, t, n);
  }
  /* model2vec drops a WordPiece model's [UNK] before pooling (its Unigram
   * models name no unk_token, so their unk piece is pooled);
   * sentence-transformers pools every token */
  if (!model->all && !model->wp.unigram && id == model->wp.unk_id) return 0;
  uint32_t r = model->row ? model->row[id] : id;
  double w = model->weight ? model->weight[id] : 1.0; /* x * 1.0 is x: no weights, the same sums */
  for (size_t c = 0; c < model->m.cols; c++) p->sum[c] += tsift_st_value(&model->m, model->m.data, r, c) * w;
  return ++p->pooled >= TSIFT_STATIC_MAX_POOLED && !model->all;
}

/* Tokenise and pool; out gets the unit vector (or zeros). */
static tsift_status embed(const tsift_static_model *model, const char *text, size_t len, float *out, size_t *pooled,
                          tsift_buf *tokens, tsift_error *err) {
  size_t dim = model->m.cols;
  pool p = {model, tsift_calloc_array(dim, sizeof(double)), 0, tokens};
  if (!p.sum) return tsift_nomem(err, "embedding a text");
  tsift_status st = tsift_wordpiece_encode(&model->wp, text ? text : "", text ? len : 0, pool_token, &p, err);
  if (st) {
    tsift_free(p.sum);
    return st;
  }
  double sq = 0;
  for (size_t c = 0; c < dim; c++) sq += p.sum[c] * p.sum[c];
  double norm = __builtin_sqrt(sq); /* IEEE sqrt is correctly rounded: the same everywhere */
  for (size_t c = 0; c < dim; c++) out[c] = norm > 0 ? (float)(p.sum[c] / norm) : 0.0f;
  if (pooled) *pooled = norm > 0 ? p.pooled : 0;
  tsift_free(p.sum);
  return tsift_ok(err);
}

tsift_status tsift_static_model_embed(const tsift_static_model *model, const char *text, size_t len, float *out,
                                      size_t *pooled, tsift_error *err) {
  if (!model || !out || (!text && len)) return tsift_fail(err, TSIFT_E_ARG, "static model embed: NULL argument");
  return embed(model, text, len, out, pooled, NULL, err);
}

tsift_status tsift_static_model_embed_json(const tsift_static_model *model, const char *text, size_t len, char **out,
                                           size_t *out_len, tsift_error *err) {
  if (!out || !model || (!text && len)) return tsift_fail(err, TSIFT_E_ARG, "static model embed: NULL argument");
  *out = NULL;
  size_t dim = model->m.cols, pooled = 0;
  float *v = tsift_calloc_array(dim, sizeof *v);
  if (!v) return tsift_nomem(err, "embedding a text");
  tsift_buf b;
  tsift_json_open_object(&b);
  tsift_json_key_cstr(&b, "model", model->id);
  tsift_json_key_int(&b, "dim", (long long)dim);
  tsift_json_key(&b, "tokens");
  tsift_json_begin_array(&b);
  tsift_status st = embed(model, text, len, v, &pooled, &b, err);
  if (st) {
    tsift_buf_free(&b);
    tsift_free(v);
    return st;
  }
  tsift_json_end_array(&b);
  tsift_json_key_int(&b, "pooled", (long long)pooled);
  tsift_json_key(&b, "vector");
  if (!pooled) tsift_json_null(&b);
  else {
    tsift_json_begin_array(&b);
    for (size_t c = 0; c < dim; c++) {
      char num[40];
      int n = tsift_snprintf(num, sizeof num, "%.9g", (double)v[c]); /* reads back to the same float */
      tsift_json_raw(&b, num, n > 0 ? (size_t)n : 0);
    }
    tsift_json_end_array(&b);
  }
  tsift_json_end_object(&b);
  tsift_free(v);
  return tsift_buf_finish(&b, out, out_len, "writing an embedding", err);
}
