/* index.c — builds the index (SPEC S4) from a catalog: the build options,
 * each tool's search document (tool_text.c) as term ids per field, the exact-match
 * sequences, the postings and the per-field statistics; and frees it. The
 * dictionary is dict.c's, the fingerprint fingerprint.c's, ranking rank.c's. */
#include "index/index.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "base/fmt.h"
#include "json/json_canonical.h"
#include "text/textpack.h"
#include "index/vectors.h"
#include "json/json_read.h"

/* name, aliases, tags, description (SPEC S4) and the two schema fields,
 * whose weights were chosen on the relevance corpus (docs/relevance.md). */
const double tsift_default_field_weights[TSIFT_FIELD_COUNT] = {3.0, 2.0, 2.0, 1.0, 1.5, 1.0};

/* ---- building --------------------------------------------------------- */

void tsift_index_free(tsift_index *ix) {
  if (!ix) return;
  tsift_catalog_free(&ix->catalog);
  tsift_hash_free(&ix->term_hash);
  TSIFT_FREE_ALL(ix->trust, ix->by_letter, ix->len_norm_w, ix->term_max_tfn, ix->exact_head, ix->exact_next,
                 ix->doc_common);
  /* A loaded index's term bytes and tools' strings live in its blob. */
  tsift_free(ix->blob ? ix->blob : ix->term_bytes);
  tsift_textpack_free(&ix->pack);
  TSIFT_FREE_ALL(ix->field_lens, ix->tok_at, ix->tok_own, ix->by_rank, ix->rank_of, ix->seq_at, ix->seq_own,
                 ix->term_off, ix->term_len, ix->post_off, ix->post);
  tsift_vectors_free(ix);
  tsift_stopwords_free(&ix->stopwords);
  tsift_free(ix);
}

size_t tsift_index_size(const tsift_index *ix) { return ix ? ix->n : 0; }

typedef struct u32vec {
  uint32_t *v;
  size_t n, cap;
} u32vec;

/* t's tokens as term ids after dst's, room made once for them all. */
static int intern_all(tsift_index *ix, const tsift_tokens *t, u32vec *dst) {
  if (tsift_grow((void **)&dst->v, &dst->cap, dst->n + t->count, sizeof *dst->v)) return -1;
  for (size_t i = 0; i < t->count; i++) {
    long id = tsift_dict_intern(ix, tsift_token(t, i), t->len[i]);
    if (id < 0) return -1;
    dst->v[dst->n++] = (uint32_t)id;
  }
  return 0;
}

/* The postings from the forward index, in one pass over it to count and one
 * to fill: in doc order, so each term's postings are sorted by doc, and the
 * last posting of a term is the current doc's while that doc is read. Used by
 * the build and by tsift_index_verify (a snapshot stores them: format 7).
 * Neither pass branches on a token (a posting new or not, a tf clamped or
 * not: both unpredictable, their mispredictions were most of the time):
 * last[t] = d + 1 marks the terms doc d has met. */
int tsift_index_postings(tsift_index *ix) {
  uint32_t *last = tsift_calloc_array(ix->nterms + 1, sizeof *last);
  uint32_t *fill = tsift_calloc_array(ix->nterms + 1, sizeof *fill);
  ix->post_off = tsift_calloc_array(ix->nterms + 1, sizeof *ix->post_off);
  if (!last || !fill || !ix->post_off) {
    TSIFT_FREE_ALL(last, fill);
    return -1;
  }
  const uint32_t *by_rank = ix->by_rank;
  /* Pass 1: documents per term, at t + 1. */
  for (uint32_t d = 0; d < ix->n; d++) {
    const unsigned char *p = ix->tok_bytes + ix->tok_at[d], *end = ix->tok_bytes + ix->tok_at[d + 1];
    while (p < end) {
      uint32_t t = by_rank[tsift_forward_next(&p)];
      ix->post_off[t + 1] += last[t] != d + 1;
      last[t] = d + 1;
    }
  }
  for (size_t t = 0; t < ix->nterms; t++) {
    ix->post_off[t + 1] += ix->post_off[t];
    fill[t] = ix->post_off[t];
    last[t] = 0;
  }
  ix->post = tsift_calloc_array(ix->post_off[ix->nterms] + 1, sizeof *ix->post);
  if (!ix->post) {
    TSIFT_FREE_ALL(last, fill);
    return -1;
  }
  /* Pass 2: fill[t] = where t's next posting goes; t's posting in doc d,
   * once d met t, is the one before it. */
  for (uint32_t d = 0; d < ix->n; d++) {
    const unsigned char *p = ix->tok_bytes + ix->tok_at[d];
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
      for (size_t i = tsift_field_len(ix, d, f); i > 0; i--) {
        uint32_t t = by_rank[tsift_forward_next(&p)], fresh = last[t] != d + 1, k = fill[t] - !fresh;
        uint32_t bits = fresh ? d << 12 : ix->post[k].bits;
        bits += (uint32_t)(((bits >> (2 * f)) & 3u) < TSIFT_TF_CLAMP) << (2 * f);
        ix->post[k].bits = bits;
        fill[t] = k + 1;
        last[t] = d + 1;
      }
  }
  TSIFT_FREE_ALL(last, fill);
  return 0;
}

/* ---- options ---------------------------------------------------------- */

static tsift_status read_weights(const cJSON *w, double *weights, tsift_error *err) {
  if (!cJSON_IsObject(w)) return tsift_fail(err, TSIFT_E_CONFIG, "options: \"weights\" must be an object");
  const cJSON *item;
  cJSON_ArrayForEach(item, w) {
    int f = 0;
    while (f < TSIFT_FIELD_COUNT && strcmp(tsift_field_names[f], item->string) != 0) f++;
    if (f == TSIFT_FIELD_COUNT)
      return tsift_fail(err, TSIFT_E_CONFIG, "options: weights: unknown field \"%.40s\"", item->string);
    if (!cJSON_IsNumber(item) || !(item->valuedouble >= 0.0 && item->valuedouble <= 100.0))
      return tsift_fail(err, TSIFT_E_CONFIG, "options: weights.%s: expected a number from 0 to 100",
                        tsift_field_names[f]);
    /* Weights are kept to 1/1000 so the fingerprint describes them exactly. */
    weights[f] = (double)(long)(item->valuedouble * 1000.0 + 0.5) / 1000.0;
  }
  return TSIFT_OK;
}

/* The option "annotations": a vocabulary document (docs/learning.md), the
 * file `toolsift learn` writes or the host's own: {"annotations": {"<tool
 * id>": {"tags": [...], "aliases": [...]}}} with, from learn, "learned" and
 * "evidence" (provenance, read by no ranking: they enter its digest). Its
 * digest (the sha256 of its canonical form) goes into the fingerprint. */
#define VOCABULARY_MAX_DEPTH 16
static tsift_status read_vocabulary(const cJSON *v, char digest[65], tsift_error *err) {
  if (!cJSON_IsObject(v) || !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(v, "annotations")))
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "options: annotations: expected a vocabulary {\"annotations\": {\"<tool id>\": {\"tags\": "
                      "[...], \"aliases\": [...]}}}");
  const cJSON *k;
  cJSON_ArrayForEach(k, v) {
    if (strcmp(k->string, "annotations") != 0 && strcmp(k->string, "learned") != 0 &&
        strcmp(k->string, "evidence") != 0) {
      size_t n = tsift_utf8_cut(k->string, strlen(k->string), 40);
      return tsift_fail(err, TSIFT_E_CONFIG,
                        "options: annotations: unknown key \"%.*s\" (a vocabulary has \"annotations\", "
                        "\"learned\" and \"evidence\")",
                        (int)n, k->string);
    }
  }
  int r = tsift_json_digest(v, VOCABULARY_MAX_DEPTH, digest);
  if (r < 0) return tsift_nomem(err, "reading the vocabulary");
  if (r == 0) return tsift_fail(err, TSIFT_E_LIMIT, "options: annotations: nested deeper than %d levels", VOCABULARY_MAX_DEPTH);
  return TSIFT_OK;
}

/* One key of the build options; "stopwords" is read after them all. */
static tsift_status read_build_option(const cJSON *item, tsift_id_rule *ids, double *weights, double *min_coverage,
                                      char model[65], char vocabulary[65], tsift_error *err) {
  const char *key = item->string;
  if (strcmp(key, "ids") == 0) {
    if (cJSON_IsString(item) && strcmp(item->valuestring, "strict") == 0) *ids = TSIFT_IDS_STRICT;
    else if (cJSON_IsString(item) && strcmp(item->valuestring, "lenient") == 0) *ids = TSIFT_IDS_LENIENT;
    else return tsift_fail(err, TSIFT_E_CONFIG, "options: \"ids\" must be \"strict\" or \"lenient\"");
    return TSIFT_OK;
  }
  if (strcmp(key, "minCoverage") == 0) {
    if (!cJSON_IsNumber(item) || !(item->valuedouble >= 0.0 && item->valuedouble <= 1.0))
      return tsift_fail(err, TSIFT_E_CONFIG, "options: \"minCoverage\" must be a number from 0 to 1");
    *min_coverage = (double)(long)(item->valuedouble * 1000.0 + 0.5) / 1000.0;
    return TSIFT_OK;
  }
  if (strcmp(key, "model") == 0) { /* the model id of the catalog's embeddings (vectors.h) */
    if (!cJSON_IsString(item) || !tsift_model_id_valid(item->valuestring, strlen(item->valuestring)))
      return tsift_fail(err, TSIFT_E_CONFIG,
                        "options: \"model\" must be 1 to 64 printable ASCII characters (no spaces)");
    strcpy(model, item->valuestring);
    return TSIFT_OK;
  }
  if (strcmp(key, "annotations") == 0) return read_vocabulary(item, vocabulary, err);
  if (strcmp(key, "weights") == 0) return read_weights(item, weights, err);
  if (strcmp(key, "stopwords") == 0) return TSIFT_OK;
  return tsift_json_unknown_key(err, TSIFT_E_CONFIG, "options", key);
}

/* `*kept`: the parsed options, which the build reads on after the catalog
 * (the vocabulary); the caller deletes it. */
static tsift_status read_build_options(const char *json, size_t len, tsift_stopwords *sw,
                                       tsift_id_rule *ids, double *weights, double *min_coverage,
                                       char model[65], char vocabulary[65], cJSON **kept, tsift_error *err) {
  *kept = NULL;
  *ids = TSIFT_IDS_LENIENT; /* real catalogs index as they are (ids.c) */
  *min_coverage = TSIFT_DEFAULT_MIN_COVERAGE;
  memcpy(weights, tsift_default_field_weights, sizeof tsift_default_field_weights);
  cJSON *opts = NULL;
  if (json && len) {
    tsift_status st = tsift_json_parse(json, len, "options", &opts, err);
    if (st) return st;
    if (!cJSON_IsObject(opts) && !cJSON_IsNull(opts)) {
      cJSON_Delete(opts);
      return tsift_fail(err, TSIFT_E_CONFIG, "options: expected an object");
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, opts) {
      st = read_build_option(item, ids, weights, min_coverage, model, vocabulary, err);
      if (st) {
        cJSON_Delete(opts);
        return st;
      }
    }
  }
  tsift_status st =
      tsift_stopwords_from_json(cJSON_GetObjectItemCaseSensitive(opts, "stopwords"), sw, err);
  if (st && st != TSIFT_E_NOMEM) tsift_error_prefix(err, st, "options");
  if (st) cJSON_Delete(opts);
  else *kept = opts;
  return st;
}

/* ---- build ------------------------------------------------------------ */

/* From catalog text, or from `tree` (a parsed catalog, taken over) when it
 * is not NULL. */
static tsift_status index_build(const char *catalog_json, size_t catalog_len, cJSON *tree,
                                const char *options_json, size_t options_len, tsift_index **out,
                                tsift_error *err) {
  tsift_index *ix = tsift_calloc_array(1, sizeof *ix);
  if (!ix) {
    cJSON_Delete(tree);
    return tsift_nomem(err, "creating the index");
  }
  tsift_id_rule ids;
  char model[65] = "";
  cJSON *opts = NULL;
  tsift_status st = read_build_options(options_json, options_len, &ix->stopwords, &ids, ix->weights,
                                       &ix->min_coverage, model, ix->vocabulary, &opts, err);
  if (st) cJSON_Delete(tree);
  else if (tree) st = tsift_catalog_read(tree, ids, &ix->catalog, err);
  else st = tsift_catalog_parse(catalog_json, catalog_len, ids, &ix->catalog, err);
  if (!st && ix->vocabulary[0])
    st = tsift_catalog_add_vocabulary(
        &ix->catalog, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(opts, "annotations"), "annotations"),
        "options: annotations", &ix->vocabulary_unknown, err);
  cJSON_Delete(opts);
  ix->lenient_ids = ids == TSIFT_IDS_LENIENT;
  if (st) {
    tsift_index_free(ix);
    return st;
  }
  ix->n = ix->catalog.count;
  if (ix->n > TSIFT_MAX_TOOLS) {
    size_t n = ix->n;
    tsift_index_free(ix);
    return tsift_fail(err, TSIFT_E_LIMIT, "catalog: %zu tools, an index holds at most %u", n, TSIFT_MAX_TOOLS);
  }
  ix->trust = tsift_calloc_array(ix->n + 1, 1);
  uint32_t *field_off = tsift_calloc_array(ix->n * TSIFT_FIELD_COUNT + 1, sizeof *field_off);
  uint32_t *seq_off = tsift_calloc_array(ix->n * 2 + 1, sizeof *seq_off);
  if (!ix->trust || !field_off || !seq_off) {
    tsift_free(field_off);
    tsift_free(seq_off);
    tsift_index_free(ix);
    return tsift_nomem(err, "creating the index");
  }
  u32vec terms = {0}, seqs = {0};
  tsift_document doc; /* one for every tool: its lists keep their memory */
  memset(&doc, 0, sizeof doc);
  for (size_t d = 0; d < ix->n && !st; d++) {
    const tsift_tool *tool = &ix->catalog.tools[d];
    st = tsift_document_rebuild(tool, &doc, err);
    if (st) {
      if (st != TSIFT_E_NOMEM) {
        char where[160];
        tsift_snprintf(where, sizeof where, "tools[%zu] (\"%.60s\")", d, tool->id);
        tsift_error_prefix(err, st, where);
      }
      break;
    }
    ix->trust[d] = (uint8_t)doc.trust;
    for (int f = 0; f < TSIFT_FIELD_COUNT && !st; f++) {
      if (intern_all(ix, &doc.fields[f], &terms)) st = tsift_nomem(err, "indexing");
      field_off[d * TSIFT_FIELD_COUNT + f + 1] = (uint32_t)terms.n;
    }
    if (!st && intern_all(ix, &doc.name_seq, &seqs)) st = tsift_nomem(err, "indexing");
    seq_off[2 * d + 1] = (uint32_t)seqs.n;
    if (!st && intern_all(ix, &doc.id_seq, &seqs)) st = tsift_nomem(err, "indexing");
    seq_off[2 * d + 2] = (uint32_t)seqs.n;
  }
  tsift_document_free(&doc);
  tsift_doc_ids doc_ids = {field_off, terms.v, seq_off, seqs.v};
  if (!st && tsift_forward_encode(ix, &doc_ids)) st = tsift_nomem(err, "indexing");
  TSIFT_FREE_ALL(field_off, terms.v, seq_off, seqs.v);
  if (!st) {
    for (size_t d = 0; d < ix->n; d++)
      for (int f = 0; f < TSIFT_FIELD_COUNT; f++) ix->field_len_sum[f] += tsift_field_len(ix, (uint32_t)d, f);
    tsift_index_count_fields(ix);
    if (tsift_index_postings(ix)) st = tsift_nomem(err, "building postings");
  }
  if (!st) st = tsift_index_fingerprint(ix, ix->fingerprint, err);
  if (!st) st = tsift_vectors_from_catalog(ix, model[0] ? model : NULL, err);
  /* the terms by letter, then the ranker's tables (derive.c), as a snapshot load does */
  if (!st && (tsift_dict_letters(ix) || tsift_index_derive(ix))) st = tsift_nomem(err, "indexing");
  if (st) {
    tsift_index_free(ix);
    return st;
  }
  *out = ix;
  return tsift_ok(err);
}

tsift_status tsift_index_build(const char *catalog_json, size_t catalog_len,
                               const char *options_json, size_t options_len, tsift_index **out,
                               tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_build: out is NULL");
  *out = NULL;
  if (!catalog_json && catalog_len)
    return tsift_fail(err, TSIFT_E_ARG, "tsift_index_build: catalog is NULL");
  return index_build(catalog_json, catalog_len, NULL, options_json, options_len, out, err);
}

tsift_status tsift_index_build_tree(cJSON *catalog, const char *options_json, size_t options_len,
                                    tsift_index **out, tsift_error *err) {
  *out = NULL;
  return index_build(NULL, 0, catalog, options_json, options_len, out, err);
}

void tsift_index_count_fields(tsift_index *ix) {
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) ix->field_docs[f] = 0;
  for (size_t d = 0; d < ix->n; d++)
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) ix->field_docs[f] += tsift_field_len(ix, (uint32_t)d, f) > 0;
}
