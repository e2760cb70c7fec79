/* vector_rank.c — similarity of a query vector to the tools' (vector_rank.h):
 * int8 x int8 dot products summed in int32 (exact, so every platform gets
 * the same integer), scaled by both vectors' scales into a double; the
 * distribution of the similarities over a universe; the exact top k. */
#include "rank/vector_rank.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "rank/fusion.h"
#include "model/static_model.h"
#include "index/vectors.h"

void tsift_qvec_free(tsift_qvec *qv) {
  if (!qv) return;
  tsift_free(qv->q);
  memset(qv, 0, sizeof *qv);
}

/* A bad query vector is a bad search argument, whatever the reader called it. */
static tsift_status as_arg(tsift_status st, tsift_error *err) {
  if (st == TSIFT_E_NOMEM) return st;
  if (err) err->status = TSIFT_E_ARG;
  return TSIFT_E_ARG;
}

tsift_status tsift_qvec_from_doubles(const tsift_index *ix, const double *x, uint32_t dim, tsift_qvec *out,
                                     tsift_error *err) {
  memset(out, 0, sizeof *out);
  out->min_similarity = TSIFT_VEC_MIN_SIMILARITY_OFF;
  if (!ix->vec_dim) return tsift_fail(err, TSIFT_E_ARG, "search: \"vector\": the index has no vectors");
  if (dim != ix->vec_dim)
    return tsift_fail(err, TSIFT_E_ARG, "search: \"vector\": %u components, but the index's vectors have %u", dim,
                      ix->vec_dim);
  out->q = tsift_calloc_array(dim, 1);
  if (!out->q) return tsift_nomem(err, "reading the query vector");
  tsift_status st = tsift_vec_quantize(x, dim, out->q, &out->scale, "search: \"vector\"", err);
  if (st) {
    tsift_qvec_free(out);
    return as_arg(st, err);
  }
  out->dim = dim;
  out->min_similarity = TSIFT_VEC_MIN_SIMILARITY_OFF;
  tsift_fusion_defaults(&out->fusion);
  return TSIFT_OK;
}

tsift_status tsift_qvec_from_model(const tsift_index *ix, const tsift_static_model *m, const char *text, size_t len,
                                   tsift_qvec *out, int *known, tsift_error *err) {
  memset(out, 0, sizeof *out);
  *known = 0;
  uint32_t dim = ix->vec_dim;
  float *f = tsift_calloc_array(dim + 1, sizeof *f);
  double *x = tsift_calloc_array(dim + 1, sizeof *x);
  size_t pooled = 0;
  tsift_status st = f && x ? tsift_static_model_embed(m, text, len, f, &pooled, err)
                           : tsift_nomem(err, "embedding the query");
  for (uint32_t i = 0; !st && i < dim; i++) x[i] = (double)f[i];
  if (!st && pooled) st = tsift_qvec_from_doubles(ix, x, dim, out, err);
  /* the model's calibrated parameters (its config.json), else the defaults */
  const tsift_fusion_params *calibrated = tsift_static_model_fusion(m);
  if (!st && pooled && calibrated) out->fusion = *calibrated;
  tsift_free(f);
  tsift_free(x);
  *known = !st && pooled;
  return st;
}

tsift_status tsift_qvec_from_json(const tsift_index *ix, const cJSON *v, tsift_qvec *out, tsift_error *err) {
  memset(out, 0, sizeof *out);
  double *x = NULL;
  uint32_t dim = 0;
  tsift_status st = tsift_vec_read_json(v, "search: \"vector\"", &x, &dim, err);
  if (st) return as_arg(st, err);
  st = tsift_qvec_from_doubles(ix, x, dim, out, err);
  tsift_free(x);
  return st;
}

/* The int32 dot products of q with nrows rows of dim components. Every
 * component is in [-127, 127] (the quantiser clamps there and a snapshot's
 * vectors are checked: snapshot_vectors.c), so a product is at most 16129,
 * a pair of them fits int16 and 4096 of them stay far inside int32.
 * Integer sums: any order, any instruction set, the same result, natively
 * and in wasm. One call for all rows, so the dispatch happens once. */
void tsift_vec_dot_rows_plain(const int8_t *q, const int8_t *rows, size_t nrows, uint32_t dim, int32_t *out) {
  for (size_t r = 0; r < nrows; r++) {
    const int8_t *b = rows + r * dim;
    int32_t s = 0;
    for (uint32_t i = 0; i < dim; i++) s += (int32_t)q[i] * (int32_t)b[i];
    out[r] = s;
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define TSIFT_DOT_AVX2 1
/* x86-64 with AVX2 (picked at run time): 32 components a step. maddubs
 * multiplies unsigned by signed bytes and adds pairs into int16, so q's
 * sign moves onto the row (|q| x sign(q) b = q b): a pair is at most
 * 2 x 127 x 127 = 32258, no saturation; madd with ones widens the pairs
 * into int32 lanes. 2.8x the vectorised plain loop on 10k x 256
 * (0.145 -> 0.051 ms; bench/vector-speed.mjs). */
__attribute__((target("avx2"))) static void dot_rows_avx2(const int8_t *q, const int8_t *rows, size_t nrows,
                                                          uint32_t dim, int32_t *out) {
  const __m256i ones = _mm256_set1_epi16(1);
  uint32_t wide = dim & ~31u;
  for (size_t r = 0; r < nrows; r++) {
    const int8_t *b = rows + r * dim;
    __m256i acc = _mm256_setzero_si256();
    for (uint32_t i = 0; i < wide; i += 32) {
      __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(q + i));
      __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
      __m256i pairs = _mm256_maddubs_epi16(_mm256_abs_epi8(x), _mm256_sign_epi8(y, x));
      acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    int32_t sum = _mm_cvtsi128_si32(s);
    for (uint32_t i = wide; i < dim; i++) sum += (int32_t)q[i] * (int32_t)b[i];
    out[r] = sum;
  }
}
#endif

void tsift_vec_dot_rows(const int8_t *q, const int8_t *rows, size_t nrows, uint32_t dim, int32_t *out) {
#if defined(__wasm_simd128__)
  /* wasm (this file is built with -msimd128, CMakeLists.txt): q widened to
   * i16 once per call, then per row 16 components a step, the row's bytes
   * widened and multiplied-added pairwise into i32 lanes (i32x4.dot_i16x8_s);
   * two rows a step share q's loads. Exact integers: the scalar loop's sum. */
  int16_t q16[TSIFT_VEC_MAX_DIM];
  uint32_t wide = dim & ~15u;
  for (uint32_t i = 0; i < wide; i++) q16[i] = q[i];
  size_t r = 0;
  for (; r + 2 <= nrows; r += 2) {
    const int8_t *b0 = rows + r * dim, *b1 = b0 + dim;
    v128_t a0 = wasm_i32x4_splat(0), a1 = a0;
    for (uint32_t i = 0; i < wide; i += 16) {
      v128_t xl = wasm_v128_load(q16 + i), xh = wasm_v128_load(q16 + i + 8);
      v128_t y0 = wasm_v128_load(b0 + i), y1 = wasm_v128_load(b1 + i);
      a0 = wasm_i32x4_add(a0, wasm_i32x4_dot_i16x8(xl, wasm_i16x8_extend_low_i8x16(y0)));
      a0 = wasm_i32x4_add(a0, wasm_i32x4_dot_i16x8(xh, wasm_i16x8_extend_high_i8x16(y0)));
      a1 = wasm_i32x4_add(a1, wasm_i32x4_dot_i16x8(xl, wasm_i16x8_extend_low_i8x16(y1)));
      a1 = wasm_i32x4_add(a1, wasm_i32x4_dot_i16x8(xh, wasm_i16x8_extend_high_i8x16(y1)));
    }
    int32_t s0 = wasm_i32x4_extract_lane(a0, 0) + wasm_i32x4_extract_lane(a0, 1) + wasm_i32x4_extract_lane(a0, 2) +
                 wasm_i32x4_extract_lane(a0, 3);
    int32_t s1 = wasm_i32x4_extract_lane(a1, 0) + wasm_i32x4_extract_lane(a1, 1) + wasm_i32x4_extract_lane(a1, 2) +
                 wasm_i32x4_extract_lane(a1, 3);
    for (uint32_t i = wide; i < dim; i++) {
      s0 += (int32_t)q[i] * (int32_t)b0[i];
      s1 += (int32_t)q[i] * (int32_t)b1[i];
    }
    out[r] = s0;
    out[r + 1] = s1;
  }
  if (r < nrows) tsift_vec_dot_rows_plain(q, rows + r * dim, 1, dim, out + r);
  return;
#endif
#if defined(TSIFT_DOT_AVX2)
  static int avx2 = -1; /* the CPU's answer, asked once */
  if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
  if (avx2) {
    dot_rows_avx2(q, rows, nrows, dim, out);
    return;
  }
#endif
  tsift_vec_dot_rows_plain(q, rows, nrows, dim, out);
}

double tsift_vec_similarity(const tsift_index *ix, const tsift_qvec *qv, uint32_t d) {
  double s = ix->vec_scale[d];
  if (!(s > 0.0)) return 0.0;
  int32_t dot;
  tsift_vec_dot_rows(qv->q, ix->vec_q + (size_t)d * ix->vec_dim, 1, ix->vec_dim, &dot);
  return (double)dot * (qv->scale * s);
}

int tsift_vec_counts(const tsift_index *ix, const uint8_t *allowed, uint32_t d) {
  return (!allowed || allowed[d]) && ix->vec_scale[d] > 0.0;
}

/* Rows are scored in chunks, the dot products into a small buffer: one
 * pass over the vectors, no per-row call. */
#define SIM_CHUNK 256

void tsift_vec_similarities(const tsift_index *ix, const tsift_qvec *qv, const uint8_t *allowed, double *sim,
                            tsift_vec_dist *dist) {
  double sum = 0.0, max = -1e300;
  size_t count = 0;
  int32_t dots[SIM_CHUNK];
  for (size_t at = 0; at < ix->n; at += SIM_CHUNK) {
    size_t m = ix->n - at < SIM_CHUNK ? ix->n - at : SIM_CHUNK;
    tsift_vec_dot_rows(qv->q, ix->vec_q + at * ix->vec_dim, m, ix->vec_dim, dots);
    for (size_t j = 0; j < m; j++) {
      uint32_t d = (uint32_t)(at + j);
      int counts = tsift_vec_counts(ix, allowed, d);
      sim[d] = counts ? (double)dots[j] * (qv->scale * ix->vec_scale[d]) : 0.0;
      if (counts) {
        sum += sim[d];
        count++;
        if (sim[d] > max) max = sim[d];
      }
    }
  }
  double mean = count ? sum / (double)count : 0.0, var = 0.0;
  for (uint32_t d = 0; d < ix->n; d++)
    if (tsift_vec_counts(ix, allowed, d)) var += (sim[d] - mean) * (sim[d] - mean);
  dist->count = count;
  dist->mean = mean;
  dist->sd = count > 1 ? __builtin_sqrt(var / (double)count) : 0.0;
  dist->max = max;
}

/* a before b by similarity, then tool order */
static int sim_before(const double *sim, uint32_t a, uint32_t b) {
  return sim[a] > sim[b] || (sim[a] == sim[b] && a < b);
}

uint32_t tsift_vec_rank_of(const tsift_index *ix, const uint8_t *allowed, const double *sim, uint32_t d) {
  uint32_t rank = 1;
  for (uint32_t e = 0; e < ix->n; e++)
    if (e != d && tsift_vec_counts(ix, allowed, e) && sim_before(sim, e, d)) rank++;
  return rank;
}

size_t tsift_vec_topk(const tsift_index *ix, const uint8_t *allowed, const double *sim, size_t k, uint32_t *out) {
  size_t n = 0;
  for (uint32_t d = 0; d < ix->n && k; d++) {
    if (!tsift_vec_counts(ix, allowed, d)) continue;
    if (n == k && !sim_before(sim, d, out[k - 1])) continue;
    size_t at = n < k ? n++ : k - 1;
    while (at > 0 && sim_before(sim, d, out[at - 1])) {
      out[at] = out[at - 1];
      at--;
    }
    out[at] = d;
  }
  return n;
}
