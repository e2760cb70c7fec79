/* fuzz_static_model.c — tsift_static_model_load on fuzzed files, then
 * embeddings of a few texts and of the input's own bytes.
 *
 * Input: a 4-byte little-endian length L, then L bytes of safetensors, then
 * the tokenizer.json bytes (the seeds are the project's generated test model,
 * scripts/gen-static-model.mjs --fuzz-seed, and the per-token tensor forms,
 * scripts/gen-static-fuzz-seeds.py). Each input is loaded twice: model2vec's
 * pooling and sentence-transformers' (TSIFT_STATIC_SENTENCE_TRANSFORMERS). A malformed file must be a typed
 * error (model, json, utf8 or limit) with nothing handed out; a loaded model
 * must embed any text into a unit vector or the zero vector, and print valid
 * JSON whose "pooled" agrees with the typed call. */
#include "fuzz_common.h"

static void embed(const tsift_static_model *m, const char *text, size_t len, unsigned flags) {
  size_t dim = tsift_static_model_dim(m), pooled = 9999;
  FUZZ_ASSERT(dim >= 1 && dim <= 4096);
  float *v = malloc(dim * sizeof *v);
  FUZZ_ASSERT(v != NULL);
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_static_model_embed(m, text, len, v, &pooled, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK);
  FUZZ_ASSERT(pooled <= (flags ? 1u << 21 : 512)); /* StaticEmbedding: no cap (a normalised text is bounded) */
  double sq = 0;
  for (size_t c = 0; c < dim; c++) sq += (double)v[c] * v[c];
  FUZZ_ASSERT(pooled == 0 ? sq == 0 : (sq > 0.999 && sq < 1.001));
  char *out = NULL;
  size_t n = 0;
  fuzz_err_init(&err);
  st = tsift_static_model_embed_json(m, text, len, &out, &n, &err);
  fuzz_check_output(st, &err, out, n, 0);
  FUZZ_ASSERT(st == TSIFT_OK);
  FUZZ_ASSERT((strstr(out, "\"vector\":null}") != NULL) == (pooled == 0));
  tsift_free(out);
  free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t st_len = size;
  const uint8_t *st = data;
  if (size >= 4) {
    st_len = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 | (size_t)data[3] << 24;
    st = data + 4;
    if (st_len > size - 4) st_len = size - 4;
  }
  const char *tok = (const char *)st + st_len;
  size_t tok_len = size - (size_t)(tok - (const char *)data);
  for (unsigned flags = 0; flags <= TSIFT_STATIC_SENTENCE_TRANSFORMERS; flags++) {
    tsift_static_model *m = (tsift_static_model *)0x1;
    tsift_error err;
    fuzz_err_init(&err);
    tsift_status s = tsift_static_model_load_flags(st, st_len, tok, tok_len, flags, &m, &err);
    fuzz_check_status(s, &err);
    if (s != TSIFT_OK) {
      FUZZ_ASSERT(m == NULL);
      FUZZ_ASSERT(s == TSIFT_E_MODEL || s == TSIFT_E_JSON || s == TSIFT_E_UTF8 || s == TSIFT_E_LIMIT);
      continue;
    }
    const char *id = tsift_static_model_id(m);
    FUZZ_ASSERT(strlen(id) >= 13 && strlen(id) <= 45);
    static const char *const TEXTS[] = {"", "refund a payment", "Fork the REPO, now!", "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 \xFF"};
    for (size_t i = 0; i < 4; i++) embed(m, TEXTS[i], strlen(TEXTS[i]), flags);
    embed(m, tok, tok_len > 300 ? 300 : tok_len, flags); /* the input's bytes as a text */
    tsift_static_model_free(m);
  }
  return 0;
}
