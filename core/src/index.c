/* index.c — builds the BM25F index from a catalog and ranks queries over it
 * (SPEC S4). Scores are summed in a fixed order (query term order, then field
 * order) and logarithms come from mathx.c, so results are bit-identical on
 * every platform. */
#include "index.h"
#include "vocab.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cJSON.h"
#include "fmt.h"
#include "mathx.h"
#include "sha256.h"

/* name, aliases, tags, description (SPEC S4) and the two schema fields,
 * whose weights were chosen on the relevance corpus (docs/relevance.md). */
const double tsift_default_field_weights[TSIFT_FIELD_COUNT] = {3.0, 2.0, 2.0, 1.0, 1.5, 1.0};

/* ---- term dictionary -------------------------------------------------- */

static uint32_t hash_bytes(const char *s, size_t n) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

long tsift_term_lookup(const tsift_index *ix, const char *s, size_t n) {
  if (!ix->nslots) return -1;
  size_t mask = ix->nslots - 1;
  for (size_t i = hash_bytes(s, n) & mask;; i = (i + 1) & mask) {
    uint32_t v = ix->slots[i];
    if (!v) return -1;
    uint32_t t = v - 1;
    if (ix->term_len[t] == n && memcmp(ix->term_bytes + ix->term_off[t], s, n) == 0) return t;
  }
}

int tsift_index_rehash(tsift_index *ix, size_t nslots) {
  uint32_t *slots = tsift_calloc_array(nslots, sizeof *slots);
  if (!slots) return -1;
  for (size_t t = 0; t < ix->nterms; t++) {
    size_t i = hash_bytes(ix->term_bytes + ix->term_off[t], ix->term_len[t]) & (nslots - 1);
    while (slots[i]) i = (i + 1) & (nslots - 1);
    slots[i] = (uint32_t)t + 1;
  }
  tsift_free(ix->slots);
  ix->slots = slots;
  ix->nslots = nslots;
  return 0;
}

/* Term id of s, adding it when new; -1 when out of memory. */
static long intern(tsift_index *ix, const char *s, size_t n) {
  long found = tsift_term_lookup(ix, s, n);
  if (found >= 0) return found;
  if ((ix->nterms + 1) * 2 > ix->nslots && tsift_index_rehash(ix, ix->nslots ? ix->nslots * 2 : 1024)) return -1;
  if (ix->nterms == ix->terms_cap) {
    size_t c1 = ix->terms_cap, c2 = ix->terms_cap;
    if (tsift_grow((void **)&ix->term_off, &c1, ix->nterms + 1, sizeof *ix->term_off)) return -1;
    if (tsift_grow((void **)&ix->term_len, &c2, ix->nterms + 1, sizeof *ix->term_len)) return -1;
    ix->terms_cap = c1 < c2 ? c1 : c2;
  }
  if (tsift_grow((void **)&ix->term_bytes, &ix->term_bytes_cap, ix->term_bytes_len + n + 1, 1))
    return -1;
  memcpy(ix->term_bytes + ix->term_bytes_len, s, n);
  ix->term_bytes[ix->term_bytes_len + n] = 0;
  size_t t = ix->nterms++;
  ix->term_off[t] = (uint32_t)ix->term_bytes_len;
  ix->term_len[t] = (uint8_t)n;
  ix->term_bytes_len += n + 1;
  size_t i = hash_bytes(s, n) & (ix->nslots - 1);
  while (ix->slots[i]) i = (i + 1) & (ix->nslots - 1);
  ix->slots[i] = (uint32_t)t + 1;
  return (long)t;
}

/* ---- building --------------------------------------------------------- */

void tsift_index_free(tsift_index *ix) {
  if (!ix) return;
  tsift_catalog_free(&ix->catalog);
  tsift_free(ix->trust);
  tsift_free(ix->slots);
  if (ix->blob) { /* the arrays point into it */
    tsift_free(ix->blob);
  } else {
    tsift_free(ix->field_off);
    tsift_free(ix->field_terms);
    tsift_free(ix->seq_off);
    tsift_free(ix->seq_terms);
    tsift_free(ix->term_bytes);
    tsift_free(ix->term_off);
    tsift_free(ix->term_len);
    tsift_free(ix->post_off);
    tsift_free(ix->post);
  }
  tsift_stopwords_free(&ix->stopwords);
  tsift_free(ix);
}

size_t tsift_index_size(const tsift_index *ix) { return ix ? ix->n : 0; }

typedef struct u32vec {
  uint32_t *v;
  size_t n, cap;
} u32vec;

static int vec_push(u32vec *v, uint32_t x) {
  if (tsift_grow((void **)&v->v, &v->cap, v->n + 1, sizeof *v->v)) return -1;
  v->v[v->n++] = x;
  return 0;
}

static int intern_all(tsift_index *ix, const tsift_tokens *t, u32vec *dst) {
  for (size_t i = 0; i < t->count; i++) {
    long id = intern(ix, tsift_token(t, i), t->len[i]);
    if (id < 0 || vec_push(dst, (uint32_t)id)) return -1;
  }
  return 0;
}

static int pair_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Sorted (term << 8 | field) pairs of doc d, one per token. */
static size_t doc_pairs(const tsift_index *ix, size_t d, uint64_t *pairs) {
  size_t np = 0;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    size_t a = ix->field_off[d * TSIFT_FIELD_COUNT + f], b = ix->field_off[d * TSIFT_FIELD_COUNT + f + 1];
    for (size_t i = a; i < b; i++) pairs[np++] = (uint64_t)ix->field_terms[i] << 8 | (uint64_t)f;
  }
  qsort(pairs, np, sizeof *pairs, pair_cmp);
  return np;
}

static tsift_status build_postings(tsift_index *ix, tsift_error *err) {
  size_t maxlen = 0;
  for (size_t d = 0; d < ix->n; d++) {
    size_t len = ix->field_off[(d + 1) * TSIFT_FIELD_COUNT] - ix->field_off[d * TSIFT_FIELD_COUNT];
    if (len > maxlen) maxlen = len;
  }
  uint64_t *pairs = tsift_calloc_array(maxlen + 1, sizeof *pairs);
  ix->post_off = tsift_calloc_array(ix->nterms + 1, sizeof *ix->post_off);
  if (!pairs || !ix->post_off) {
    tsift_free(pairs);
    return tsift_nomem(err, "building postings");
  }
  /* Pass 1: documents per term. */
  for (size_t d = 0; d < ix->n; d++) {
    size_t np = doc_pairs(ix, d, pairs);
    for (size_t i = 0; i < np; i++)
      if (i == 0 || (pairs[i] >> 8) != (pairs[i - 1] >> 8)) ix->post_off[(pairs[i] >> 8) + 1]++;
  }
  for (size_t t = 0; t < ix->nterms; t++) ix->post_off[t + 1] += ix->post_off[t];
  ix->post = tsift_calloc_array(ix->post_off[ix->nterms] + 1, sizeof *ix->post);
  uint32_t *fill = tsift_calloc_array(ix->nterms + 1, sizeof *fill);
  if (!ix->post || !fill) {
    tsift_free(pairs);
    tsift_free(fill);
    return tsift_nomem(err, "building postings");
  }
  /* Pass 2: in doc order, so each term's postings are sorted by doc. */
  for (size_t d = 0; d < ix->n; d++) {
    size_t np = doc_pairs(ix, d, pairs);
    tsift_posting *p = NULL;
    for (size_t i = 0; i < np; i++) {
      uint32_t term = (uint32_t)(pairs[i] >> 8);
      int f = (int)(pairs[i] & 0xff);
      if (i == 0 || (pairs[i] >> 8) != (pairs[i - 1] >> 8)) {
        p = &ix->post[ix->post_off[term] + fill[term]++];
        p->doc = (uint32_t)d;
      }
      if (tsift_posting_tf(p, f) < TSIFT_TF_CLAMP) p->tfs = (uint16_t)(p->tfs + (1u << (2 * f)));
    }
  }
  tsift_free(pairs);
  tsift_free(fill);
  return TSIFT_OK;
}

/* ---- fingerprint ------------------------------------------------------ */

static void hash_str(tsift_sha256 *s, const char *p, size_t n) {
  uint8_t len[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
  tsift_sha256_update(s, len, 4);
  tsift_sha256_update(s, p, n);
}

/* Sort doc numbers by id (ids are unique): a merge sort, no global context. */
static void sort_by_id(const tsift_index *ix, uint32_t *a, uint32_t *tmp, size_t n) {
  if (n < 2) return;
  size_t h = n / 2;
  sort_by_id(ix, a, tmp, h);
  sort_by_id(ix, a + h, tmp, n - h);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n)
    tmp[k++] = strcmp(ix->catalog.tools[a[i]].id, ix->catalog.tools[a[j]].id) <= 0 ? a[i++] : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

/* sha256 over a canonical form of the effective documents and configuration:
 * documents in id order, each as id, trust class and its fields' tokens;
 * then ranker version, weights and stopwords. Tool and key order in the
 * catalog cannot change it. */
tsift_status tsift_index_fingerprint(const tsift_index *ix, char out[65], tsift_error *err) {
  uint32_t *order = tsift_calloc_array(ix->n + 1, sizeof *order);
  uint32_t *tmp = tsift_calloc_array(ix->n + 1, sizeof *tmp);
  if (!order || !tmp) {
    tsift_free(order);
    tsift_free(tmp);
    return tsift_nomem(err, "fingerprinting the catalog");
  }
  for (size_t i = 0; i < ix->n; i++) order[i] = (uint32_t)i;
  sort_by_id(ix, order, tmp, ix->n);
  tsift_sha256 s;
  tsift_sha256_init(&s);
  hash_str(&s, "toolsift-fingerprint-1", 22);
  hash_str(&s, TSIFT_RANKER_VERSION, strlen(TSIFT_RANKER_VERSION));
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    char w[16];
    int milli = (int)(ix->weights[f] * 1000.0 + 0.5);
    size_t n = 0;
    do {
      w[n++] = (char)('0' + milli % 10);
      milli /= 10;
    } while (milli && n < sizeof w);
    hash_str(&s, tsift_field_names[f], strlen(tsift_field_names[f]));
    hash_str(&s, w, n);
  }
  {
    char mc[24];
    int n = tsift_snprintf(mc, sizeof mc, "minCoverage=%ld", (long)(ix->min_coverage * 1000.0 + 0.5));
    hash_str(&s, mc, (size_t)n);
  }
  for (size_t i = 0; i < ix->stopwords.words.count; i++)
    hash_str(&s, tsift_token(&ix->stopwords.words, i), ix->stopwords.words.len[i]);
  for (size_t k = 0; k < ix->n; k++) {
    uint32_t d = order[k];
    const char *id = ix->catalog.tools[d].id;
    hash_str(&s, id, strlen(id));
    const char *tr = tsift_trust_name((tsift_trust)ix->trust[d]);
    hash_str(&s, tr, strlen(tr));
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
      size_t a = ix->field_off[d * TSIFT_FIELD_COUNT + f], b = ix->field_off[d * TSIFT_FIELD_COUNT + f + 1];
      uint8_t cnt[4] = {(uint8_t)((b - a) >> 24), (uint8_t)((b - a) >> 16), (uint8_t)((b - a) >> 8),
                        (uint8_t)(b - a)};
      tsift_sha256_update(&s, cnt, 4);
      for (size_t i = a; i < b; i++) {
        uint32_t t = ix->field_terms[i];
        hash_str(&s, ix->term_bytes + ix->term_off[t], ix->term_len[t]);
      }
    }
  }
  uint8_t digest[32];
  tsift_sha256_final(&s, digest);
  tsift_sha256_hex(digest, out);
  tsift_free(order);
  tsift_free(tmp);
  return TSIFT_OK;
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

static tsift_status read_build_options(const char *json, size_t len, tsift_stopwords *sw,
                                       tsift_id_rule *ids, double *weights, double *min_coverage,
                                       tsift_error *err) {
  *ids = TSIFT_IDS_STRICT;
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
      if (strcmp(item->string, "ids") == 0) {
        if (cJSON_IsString(item) && strcmp(item->valuestring, "strict") == 0) continue;
        if (cJSON_IsString(item) && strcmp(item->valuestring, "lenient") == 0) {
          *ids = TSIFT_IDS_LENIENT;
          continue;
        }
        cJSON_Delete(opts);
        return tsift_fail(err, TSIFT_E_CONFIG, "options: \"ids\" must be \"strict\" or \"lenient\"");
      }
      if (strcmp(item->string, "minCoverage") == 0) {
        if (!cJSON_IsNumber(item) || !(item->valuedouble >= 0.0 && item->valuedouble <= 1.0)) {
          cJSON_Delete(opts);
          return tsift_fail(err, TSIFT_E_CONFIG, "options: \"minCoverage\" must be a number from 0 to 1");
        }
        *min_coverage = (double)(long)(item->valuedouble * 1000.0 + 0.5) / 1000.0;
        continue;
      }
      if (strcmp(item->string, "weights") == 0) {
        tsift_status st = read_weights(item, weights, err);
        if (st) {
          cJSON_Delete(opts);
          return st;
        }
        continue;
      }
      if (strcmp(item->string, "stopwords") != 0) {
        char key[64];
        size_t n = tsift_utf8_cut(item->string, strlen(item->string), 40);
        memcpy(key, item->string, n);
        key[n] = 0;
        cJSON_Delete(opts);
        return tsift_fail(err, TSIFT_E_CONFIG, "options: unknown key \"%s\"", key);
      }
    }
  }
  tsift_status st =
      tsift_stopwords_from_json(cJSON_GetObjectItemCaseSensitive(opts, "stopwords"), sw, err);
  if (st && st != TSIFT_E_NOMEM) tsift_error_prefix(err, st, "options");
  cJSON_Delete(opts);
  return st;
}

/* ---- build ------------------------------------------------------------ */

tsift_status tsift_index_build(const char *catalog_json, size_t catalog_len,
                               const char *options_json, size_t options_len, tsift_index **out,
                               tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_build: out is NULL");
  *out = NULL;
  if (!catalog_json && catalog_len)
    return tsift_fail(err, TSIFT_E_ARG, "tsift_index_build: catalog is NULL");
  tsift_index *ix = tsift_calloc_array(1, sizeof *ix);
  if (!ix) return tsift_nomem(err, "creating the index");
  tsift_id_rule ids;
  tsift_status st = read_build_options(options_json, options_len, &ix->stopwords, &ids, ix->weights,
                                       &ix->min_coverage, err);
  if (!st) st = tsift_catalog_parse(catalog_json, catalog_len, ids, &ix->catalog, err);
  ix->lenient_ids = ids == TSIFT_IDS_LENIENT;
  if (st) {
    tsift_index_free(ix);
    return st;
  }
  ix->n = ix->catalog.count;
  if (ix->n > 0xFFFFFFF0u) {
    tsift_index_free(ix);
    return tsift_fail(err, TSIFT_E_LIMIT, "catalog: too many tools");
  }
  ix->trust = tsift_calloc_array(ix->n + 1, 1);
  ix->field_off = tsift_calloc_array(ix->n * TSIFT_FIELD_COUNT + 1, sizeof *ix->field_off);
  ix->seq_off = tsift_calloc_array(ix->n * 2 + 1, sizeof *ix->seq_off);
  if (!ix->trust || !ix->field_off || !ix->seq_off) {
    tsift_index_free(ix);
    return tsift_nomem(err, "creating the index");
  }
  u32vec terms = {0}, seqs = {0};
  for (size_t d = 0; d < ix->n && !st; d++) {
    const tsift_tool *tool = &ix->catalog.tools[d];
    tsift_document doc;
    st = tsift_document_build(tool, &doc, err);
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
      ix->field_off[d * TSIFT_FIELD_COUNT + f + 1] = (uint32_t)terms.n;
    }
    if (!st && intern_all(ix, &doc.name_seq, &seqs)) st = tsift_nomem(err, "indexing");
    ix->seq_off[2 * d + 1] = (uint32_t)seqs.n;
    if (!st && intern_all(ix, &doc.id_seq, &seqs)) st = tsift_nomem(err, "indexing");
    ix->seq_off[2 * d + 2] = (uint32_t)seqs.n;
    tsift_document_free(&doc);
  }
  ix->field_terms = terms.v;
  ix->seq_terms = seqs.v;
  if (!st) {
    for (size_t d = 0; d < ix->n; d++)
      for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
        ix->field_len_sum[f] += ix->field_off[d * TSIFT_FIELD_COUNT + f + 1] -
                                ix->field_off[d * TSIFT_FIELD_COUNT + f];
    tsift_index_count_fields(ix);
    st = build_postings(ix, err);
  }
  if (!st) st = tsift_index_fingerprint(ix, ix->fingerprint, err);
  if (st) {
    tsift_index_free(ix);
    return st;
  }
  tsift_ok(err);
  *out = ix;
  return TSIFT_OK;
}

/* ---- ranking ---------------------------------------------------------- */

static size_t field_len(const tsift_index *ix, uint32_t d, int f) {
  return ix->field_off[d * TSIFT_FIELD_COUNT + f + 1] - ix->field_off[d * TSIFT_FIELD_COUNT + f];
}

void tsift_index_count_fields(tsift_index *ix) {
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) ix->field_docs[f] = 0;
  for (size_t d = 0; d < ix->n; d++)
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) ix->field_docs[f] += field_len(ix, (uint32_t)d, f) > 0;
}

void tsift_stats_fit(const tsift_index *ix, const uint8_t *allowed, tsift_stats *st) {
  st->allowed = allowed;
  uint64_t sums[TSIFT_FIELD_COUNT] = {0};
  uint64_t have[TSIFT_FIELD_COUNT] = {0}; /* documents with the field non-empty */
  uint64_t n = 0;
  if (!allowed) {
    n = ix->n;
    memcpy(sums, ix->field_len_sum, sizeof sums);
    memcpy(have, ix->field_docs, sizeof have);
  } else {
    for (uint32_t d = 0; d < ix->n; d++) {
      if (!allowed[d]) continue;
      n++;
      for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
        size_t len = field_len(ix, d, f);
        sums[f] += len;
        have[f] += len > 0;
      }
    }
  }
  st->n = (double)n;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
    st->avg_len[f] = have[f] ? (double)sums[f] / (double)have[f] : 0.0;
}

/* Number of allowed documents containing term t. */
static uint32_t term_df(const tsift_index *ix, const tsift_stats *stats, uint32_t t) {
  uint32_t a = ix->post_off[t], b = ix->post_off[t + 1];
  if (!stats->allowed) return b - a;
  uint32_t df = 0;
  for (uint32_t i = a; i < b; i++) df += stats->allowed[ix->post[i].doc] ? 1 : 0;
  return df;
}

static double term_idf(const tsift_stats *stats, uint32_t df) {
  return tsift_ln(1.0 + (stats->n - (double)df + 0.5) / ((double)df + 0.5));
}

/* Weighted, length-normalised term frequency of one posting, summed in field
 * order; per-field parts go to `parts` when given. */
static double posting_tfn(const tsift_index *ix, const tsift_stats *stats, const tsift_posting *p,
                          double *parts) {
  double tfn = 0.0;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    double part = 0.0;
    unsigned tf = tsift_posting_tf(p, f);
    if (tf && stats->avg_len[f] > 0.0) {
      double norm = 1.0 - TSIFT_BM25_B +
                    TSIFT_BM25_B * (double)field_len(ix, p->doc, f) / stats->avg_len[f];
      part = ix->weights[f] * (double)tf / norm;
    }
    if (parts) parts[f] = part;
    tfn += part;
  }
  return tfn;
}

static double saturate(double idf, double tfn) {
  return idf * (tfn * (TSIFT_BM25_K1 + 1.0)) / (TSIFT_BM25_K1 + tfn);
}

double tsift_term_explain(const tsift_index *ix, const tsift_stats *stats, long term, uint32_t doc,
                          double fields[TSIFT_FIELD_COUNT]) {
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) fields[f] = 0.0;
  if (term < 0) return 0.0;
  uint32_t lo = ix->post_off[term], hi = ix->post_off[term + 1];
  while (lo < hi) { /* postings are sorted by doc */
    uint32_t mid = lo + (hi - lo) / 2;
    if (ix->post[mid].doc < doc) lo = mid + 1;
    else hi = mid;
  }
  if (lo == ix->post_off[term + 1] || ix->post[lo].doc != doc) return 0.0;
  double parts[TSIFT_FIELD_COUNT];
  double tfn = posting_tfn(ix, stats, &ix->post[lo], parts);
  if (tfn <= 0.0) return 0.0;
  double score = saturate(term_idf(stats, term_df(ix, stats, (uint32_t)term)), tfn);
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) fields[f] = score * parts[f] / tfn;
  return score;
}

/* Full order of results: exact matches first, then score, then id bytes. */
static int better(const tsift_index *ix, const tsift_scored *a, const tsift_scored *b) {
  if (a->exact != b->exact) return a->exact > b->exact;
  if (a->score != b->score) return a->score > b->score;
  return strcmp(ix->catalog.tools[a->doc].id, ix->catalog.tools[b->doc].id) < 0;
}

/* Binary heaps of hits, in two orders: ROOT_WORST for the bounded top-k
 * heap of tsift_rank (the root is the worst kept hit), ROOT_BEST for the
 * candidates of the diversity rule (the root is the best). `above(x, y)`:
 * x belongs nearer the root than y. */
enum { ROOT_WORST = 0, ROOT_BEST = 1 };

static int above(const tsift_index *ix, const tsift_scored *x, const tsift_scored *y, int order) {
  return order == ROOT_BEST ? better(ix, x, y) : better(ix, y, x);
}

static void heap_sift_down(const tsift_index *ix, tsift_scored *h, size_t n, size_t i, int order) {
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, w = i;
    if (l < n && above(ix, &h[l], &h[w], order)) w = l;
    if (r < n && above(ix, &h[r], &h[w], order)) w = r;
    if (w == i) return;
    tsift_scored t = h[i];
    h[i] = h[w];
    h[w] = t;
    i = w;
  }
}

static void heap_sift_up(const tsift_index *ix, tsift_scored *h, size_t i, int order) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!above(ix, &h[i], &h[p], order)) return;
    tsift_scored t = h[i];
    h[i] = h[p];
    h[p] = t;
    i = p;
  }
}

static int seq_equal(const tsift_index *ix, uint32_t a, uint32_t b, const long *q, size_t nq) {
  if (b - a != nq || nq == 0) return 0;
  for (size_t i = 0; i < nq; i++)
    if ((long)ix->seq_terms[a + i] != q[i]) return 0;
  return 1;
}

/* Position of doc's posting in term t's list, or -1 (postings are sorted by doc). */
static long find_posting(const tsift_index *ix, uint32_t t, uint32_t doc) {
  uint32_t lo = ix->post_off[t], hi = ix->post_off[t + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (ix->post[mid].doc < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo < ix->post_off[t + 1] && ix->post[lo].doc == doc ? (long)lo : -1;
}

size_t tsift_query_pairs(const tsift_index *ix, const tsift_stats *stats, const tsift_query *q,
                         const uint8_t *term_state, tsift_qpair *pairs) {
  size_t np = 0, prev = q->terms.count;
  long prev_id = -1;
  uint32_t prev_df = 0;
  for (size_t i = 0; i < q->terms.count; i++) {
    if (term_state[i] != TSIFT_TERM_USED) continue;
    long id = tsift_term_lookup(ix, tsift_token(&q->terms, i), q->terms.len[i]);
    uint32_t df = id < 0 ? 0 : term_df(ix, stats, (uint32_t)id);
    if (!df) { /* scored through an expansion only: breaks the chain */
      prev = q->terms.count;
      continue;
    }
    if (prev < q->terms.count) {
      double idf_a = term_idf(stats, prev_df), idf_b = term_idf(stats, df);
      double wa = q->term_soft[prev] ? TSIFT_SOFT_WEIGHT : 1.0;
      double wb = q->term_soft[i] ? TSIFT_SOFT_WEIGHT : 1.0;
      tsift_qpair *p = &pairs[np++];
      p->a = (uint32_t)prev;
      p->b = (uint32_t)i;
      p->ta = (uint32_t)prev_id;
      p->tb = (uint32_t)id;
      p->bonus = TSIFT_PROXIMITY_WEIGHT * (idf_a < idf_b ? idf_a : idf_b) * (wa < wb ? wa : wb);
    }
    prev = i;
    prev_id = id;
    prev_df = df;
  }
  return np;
}

/* 1 when doc d has the pair close together in one of the fields of the mask. */
static int pair_near_in(const tsift_index *ix, uint32_t d, const tsift_qpair *p, unsigned fields) {
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    if (!(fields >> f & 1u)) continue;
    uint32_t lo = ix->field_off[d * TSIFT_FIELD_COUNT + f];
    uint32_t hi = ix->field_off[d * TSIFT_FIELD_COUNT + f + 1];
    for (uint32_t i = lo; i < hi; i++) {
      if (ix->field_terms[i] != p->ta) continue;
      for (uint32_t j = i + 1; j < hi && j <= i + TSIFT_PROXIMITY_WINDOW; j++)
        if (ix->field_terms[j] == p->tb) return 1;
    }
  }
  return 0;
}

/* The fields in which both postings have their term. */
static unsigned both_fields(const tsift_posting *a, const tsift_posting *b) {
  unsigned both = 0;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
    if (tsift_posting_tf(a, f) && tsift_posting_tf(b, f)) both |= 1u << f;
  return both;
}

int tsift_pair_near(const tsift_index *ix, uint32_t d, const tsift_qpair *p) {
  long a = find_posting(ix, p->ta, d), b = a < 0 ? -1 : find_posting(ix, p->tb, d);
  if (b < 0) return 0;
  unsigned both = both_fields(&ix->post[a], &ix->post[b]);
  return both && pair_near_in(ix, d, p, both);
}

double tsift_pair_score(const tsift_qpair *p, const uint32_t *covered) {
  if (!covered) return p->bonus;
  uint32_t c = covered[p->a] > covered[p->b] ? covered[p->a] : covered[p->b];
  return p->bonus * tsift_diversity_factor(c);
}

/* First position in [lo, hi) of term list `post` whose doc is >= doc, by
 * galloping from lo: O(log distance), so walking a short list against a long
 * one costs the short list's length times a logarithm, not both lengths. */
static uint32_t gallop(const tsift_posting *post, uint32_t lo, uint32_t hi, uint32_t doc) {
  uint32_t step = 1, prev = lo;
  while (lo < hi && post[lo].doc < doc) {
    prev = lo + 1;
    lo = hi - lo > step ? lo + step : hi;
    step *= 2;
  }
  /* post[prev - 1].doc < doc <= post[lo].doc (or lo == hi): binary search between */
  while (prev < lo) {
    uint32_t mid = prev + (lo - prev) / 2;
    if (post[mid].doc < doc) prev = mid + 1;
    else lo = mid;
  }
  return lo;
}

/* Adds each pair's bonus to acc[d] of every allowed doc that has it near.
 * The docs with both terms: each doc of the shorter posting list looked up
 * in the longer one (both sorted by doc). Bounded work per doc: each pair
 * walks a field once and looks TSIFT_PROXIMITY_WINDOW tokens past each
 * occurrence of its first term, which is the first term of no other pair
 * (the pairs chain distinct terms): at most (15 + 3) x the field's length,
 * and docs.c caps field lengths. */
static void add_proximity(const tsift_index *ix, const tsift_stats *stats, const tsift_qpair *pairs,
                          size_t np, double *acc) {
  for (size_t k = 0; k < np; k++) {
    const tsift_qpair *p = &pairs[k];
    uint32_t sa = ix->post_off[p->ta], ea = ix->post_off[p->ta + 1];
    uint32_t sb = ix->post_off[p->tb], eb = ix->post_off[p->tb + 1];
    int a_short = ea - sa <= eb - sb;
    uint32_t i = a_short ? sa : sb, ie = a_short ? ea : eb; /* the shorter list */
    uint32_t j = a_short ? sb : sa, je = a_short ? eb : ea;
    for (; i < ie && j < je; i++) {
      uint32_t d = ix->post[i].doc;
      j = gallop(ix->post, j, je, d);
      if (j == je || ix->post[j].doc != d) continue;
      unsigned both = both_fields(&ix->post[i], &ix->post[j]); /* the fields to scan */
      if (both && (!stats->allowed || stats->allowed[d]) && acc[d] > 0.0 &&
          pair_near_in(ix, d, p, both))
        acc[d] += p->bonus;
    }
  }
}

/*
 * The confidence rule (docs/relevance.md), on the best hit d only. Content
 * terms are the query terms that do not look like argument values. The hit
 * is confident when it matches two or more scored content terms, or one in
 * its name, aliases or tags; otherwise it must match at least `floor` of the
 * idf-weighted evidence E / (E + U), where E is the idf of the content terms
 * it matches and U the idf (of a term in no document) of each content term
 * the universe does not have at all: an unknown word is a need nothing here
 * serves ("order a large pepperoni pizza": `order` matches, `pepperoni` and
 * `pizza` are unknown).
 */
static int confident(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                     uint32_t d, const long *ids, const uint32_t *gdf, const uint8_t *use,
                     double floor) {
  size_t nt = q->terms.count, matched = 0;
  double e = 0.0, u = 0.0;
  for (size_t i = 0; i < nt; i++) {
    if (q->term_weak[i]) continue;
    if (use[i] == 0) {
      u += term_idf(stats, 0);
      continue;
    }
    if (use[i] != 1) continue;
    int found = 0; /* the term or one of its expansions (vocab.h) */
    for (size_t m = 0; m < nt + q->xterms.count; m++) {
      long p = tsift_member_owner(q, m) != i || ids[m] < 0 ? -1 : find_posting(ix, (uint32_t)ids[m], d);
      if (p < 0) continue;
      const tsift_posting *post = &ix->post[p];
      if (tsift_posting_tf(post, TSIFT_FIELD_NAME) || tsift_posting_tf(post, TSIFT_FIELD_ALIASES) ||
          tsift_posting_tf(post, TSIFT_FIELD_TAGS))
        return 1;
      found = 1;
    }
    if (!found) continue;
    if (++matched >= 2) return 1;
    e += term_idf(stats, gdf[i]);
  }
  return e >= floor * (e + u);
}

double tsift_member_weight(const tsift_query *q, size_t m) {
  size_t nt = q->terms.count;
  if (m < nt) return 1.0;
  return q->xsyn[m - nt] ? TSIFT_SYNONYM_WEIGHT : TSIFT_VOCAB_WEIGHT;
}

int tsift_rank_diversifies(const tsift_query *q, const uint8_t *term_state) {
  size_t used = 0;
  for (size_t i = 0; i < q->terms.count; i++) used += term_state[i] == TSIFT_TERM_USED;
  return used >= TSIFT_DIVERSIFY_MIN_TERMS &&
         tsift_sentence_count(q->text, q->text_len) >= TSIFT_DIVERSIFY_MIN_SENTENCES;
}

double tsift_diversity_factor(uint32_t covered) {
  double f = 1.0; /* powers of two: exact, the same everywhere */
  if (covered > TSIFT_DIVERSIFY_MAX_HALVINGS) covered = TSIFT_DIVERSIFY_MAX_HALVINGS;
  while (covered--) f *= 0.5;
  return f;
}

/* What the scored members give doc d with each query term's contribution
 * discounted by the hits already picked that matched it; summed in member
 * order like tsift_rank's accumulator, so with nothing covered it equals the
 * BM25F score exactly. Marks the terms d matches in hit_terms. */
static double rescore(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                      uint32_t d, const long *ids, const uint32_t *dfs, const uint8_t *use,
                      const double *midf, const uint32_t *covered, const tsift_qpair *pairs,
                      size_t np, uint8_t *hit_terms, long *term_post) {
  size_t nt = q->terms.count;
  memset(hit_terms, 0, nt);
  double v = 0.0;
  for (size_t i = 0; i < nt; i++) term_post[i] = -1;
  for (size_t m = 0; m < nt + q->xterms.count; m++) {
    size_t i = tsift_member_owner(q, m);
    double w = tsift_member_weight(q, m) * (q->term_soft[i] ? TSIFT_SOFT_WEIGHT : 1.0);
    if (use[i] != 1 || !dfs[m] || !(w > 0.0)) continue; /* as tsift_rank's accumulator */
    long p = find_posting(ix, (uint32_t)ids[m], d);
    if (m < nt) term_post[m] = p; /* the term's own posting, for its pairs */
    if (p < 0) continue;
    double tfn = posting_tfn(ix, stats, &ix->post[p], NULL);
    if (tfn <= 0.0) continue;
    v += w * saturate(midf[m], tfn) * tsift_diversity_factor(covered[i]);
    hit_terms[i] = 1;
  }
  for (size_t k = 0; k < np; k++) {
    const tsift_qpair *p = &pairs[k];
    long pa = term_post[p->a], pb = term_post[p->b];
    if (pa < 0 || pb < 0) continue;
    unsigned both = both_fields(&ix->post[pa], &ix->post[pb]);
    if (both && pair_near_in(ix, d, p, both)) v += tsift_pair_score(p, covered);
  }
  return v;
}

/*
 * The diversity rule's greedy pick (index.h) over every candidate, lazily: a
 * candidate's value only falls as hits are picked, so the best stale value
 * bounds every other; a candidate re-scored now that still beats the best
 * stale value of the rest is the true next pick. The picks do not depend on
 * k (a longer page extends a shorter one) and their scores never rise.
 */
static tsift_status diversify(const tsift_index *ix, const tsift_query *q,
                              const tsift_stats *stats, tsift_scored *cand, size_t nc,
                              const long *ids, const uint32_t *dfs, const uint8_t *use,
                              const tsift_qpair *pairs, size_t np, size_t k, tsift_scored *out,
                              size_t *nout, tsift_error *err) {
  size_t nt = q->terms.count, nm = nt + q->xterms.count;
  uint32_t *covered = tsift_calloc_array(nt, sizeof *covered);
  uint8_t *hit_terms = tsift_calloc_array(nt, 1);
  double *midf = tsift_calloc_array(nm, sizeof *midf);
  long *term_post = tsift_calloc_array(nt, sizeof *term_post);
  if (!covered || !hit_terms || !midf || !term_post) {
    tsift_free(covered);
    tsift_free(hit_terms);
    tsift_free(midf);
    tsift_free(term_post);
    return tsift_nomem(err, "searching");
  }
  for (size_t m = 0; m < nm; m++)
    midf[m] = use[tsift_member_owner(q, m)] == 1 && dfs[m] ? term_idf(stats, dfs[m]) : 0.0;
  for (size_t i = nc / 2; i-- > 0;) heap_sift_down(ix, cand, nc, i, ROOT_BEST); /* heapify */
  size_t nh = 0;
  while (nh < k && nc > 0) {
    tsift_scored c = cand[0];
    cand[0] = cand[--nc];
    heap_sift_down(ix, cand, nc, 0, ROOT_BEST);
    c.score = rescore(ix, q, stats, c.doc, ids, dfs, use, midf, covered, pairs, np, hit_terms,
                      term_post);
    if (nc > 0 && !better(ix, &c, &cand[0])) { /* stale: back in line */
      cand[nc] = c;
      heap_sift_up(ix, cand, nc++, ROOT_BEST);
      continue;
    }
    out[nh++] = c;
    for (size_t i = 0; i < nt; i++) covered[i] += hit_terms[i];
  }
  *nout = nh;
  tsift_free(covered);
  tsift_free(hit_terms);
  tsift_free(midf);
  tsift_free(term_post);
  return TSIFT_OK;
}

tsift_status tsift_rank(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                        const uint8_t *excluded, size_t k, tsift_scored *out, size_t *nout,
                        uint8_t *term_state, tsift_error *err) {
  *nout = 0;
  size_t nt = q->terms.count;
  /* Members: the query's terms, then their expansions (vocab.h). An
   * expansion is scored like a term, at TSIFT_VOCAB_WEIGHT (a translation)
   * or TSIFT_SYNONYM_WEIGHT (an English synonym), and only when its term is
   * kept: a term and its expansions take one of the 16 slots. */
  size_t nm = nt + q->xterms.count;
  if (term_state)
    for (size_t i = 0; i < nt; i++) term_state[i] = TSIFT_TERM_UNMATCHED;
  if (ix->n == 0 || nt == 0) return TSIFT_OK;
  double *acc = tsift_calloc_array(ix->n, sizeof *acc);
  uint32_t *touched = tsift_calloc_array(ix->n, sizeof *touched);
  long *qseq = tsift_calloc_array(q->tokens.count + 1, sizeof *qseq);
  long *ids = tsift_calloc_array(nm, sizeof *ids);
  uint32_t *dfs = tsift_calloc_array(nm, sizeof *dfs);
  uint32_t *gdf = tsift_calloc_array(nt, sizeof *gdf); /* smallest df of a term's live members */
  uint8_t *use = tsift_calloc_array(nt, 1);
  uint8_t *tier = tsift_calloc_array(nt, 1);
  double *key = tsift_calloc_array(nt, sizeof *key);
  tsift_qpair *pairs = tsift_calloc_array(nt + 1, sizeof *pairs);
  tsift_status st = TSIFT_OK;
  size_t nh = 0, np = 0;
  if (!acc || !touched || !qseq || !ids || !dfs || !gdf || !use || !tier || !key || !pairs) {
    st = tsift_nomem(err, "searching");
    goto done;
  }
  /* Document frequencies in the universe; then keep at most 16 terms. */
  size_t nmatched = 0;
  for (size_t m = 0; m < nm; m++) {
    const tsift_tokens *t = m < nt ? &q->terms : &q->xterms;
    size_t at = m < nt ? m : m - nt, i = tsift_member_owner(q, m);
    ids[m] = tsift_term_lookup(ix, tsift_token(t, at), t->len[at]);
    dfs[m] = ids[m] < 0 ? 0 : term_df(ix, stats, (uint32_t)ids[m]);
    if (!dfs[m]) continue;
    if (!use[i]) nmatched++;
    use[i] = 1;
    if (!gdf[i] || dfs[m] < gdf[i]) gdf[i] = dfs[m];
  }
  if (nmatched > TSIFT_QUERY_MAX_TERMS) {
    /* Which terms to keep: tool vocabulary before argument values. Tier 0:
     * a term some tool of the universe has in its name (the term itself or
     * an expansion); tier 1: other terms; tier 2: terms that look like
     * values (q->term_weak). Within a tier the highest key first, then the
     * earliest: key = idf x (1 + the share of the tools having the term that
     * have it in their name), the best over the term and its translations
     * (an English synonym counts for neither tier nor key), so
     * rarity decides, and a word that is mostly a name word where it occurs
     * (tool vocabulary) counts up to twice as rare (docs/relevance.md). */
    for (size_t i = 0; i < nt; i++) tier[i] = q->term_weak[i] ? 2 : 1;
    for (size_t m = 0; m < nm; m++) {
      size_t i = tsift_member_owner(q, m);
      if (use[i] != 1 || !dfs[m]) continue;
      if (m >= nt && q->xsyn[m - nt]) continue; /* a synonym does not decide the cut */
      uint32_t named = 0;
      for (uint32_t p = ix->post_off[ids[m]]; p < ix->post_off[ids[m] + 1]; p++)
        if (tsift_posting_tf(&ix->post[p], TSIFT_FIELD_NAME) &&
            (!stats->allowed || stats->allowed[ix->post[p].doc]))
          named++;
      double km = term_idf(stats, dfs[m]) * (1.0 + (double)named / (double)dfs[m]);
      if (km > key[i]) key[i] = km;
      if (named && tier[i] == 1) tier[i] = 0;
    }
    while (nmatched > TSIFT_QUERY_MAX_TERMS) {
      size_t worst = nt;
      for (size_t i = 0; i < nt; i++) /* worst tier, lowest key, latest */
        if (use[i] == 1 && (worst == nt || tier[i] > tier[worst] ||
                            (tier[i] == tier[worst] && key[i] <= key[worst])))
          worst = i;
      use[worst] = 2;
      nmatched--;
    }
  }
  size_t ntouched = 0;
  for (size_t i = 0; i < nt; i++)
    if (term_state) term_state[i] = use[i];
  for (size_t m = 0; m < nm; m++) {
    size_t i = tsift_member_owner(q, m);
    if (use[i] != 1 || !dfs[m]) continue;
    /* an expansion counts at TSIFT_VOCAB_WEIGHT; argument values and request
     * phrasing ("500mg", "how", "need", …) count half: they shape the request
     * rather than name the need (docs/relevance.md) */
    double w = tsift_member_weight(q, m) * (q->term_soft[i] ? TSIFT_SOFT_WEIGHT : 1.0);
    if (!(w > 0.0)) continue; /* adds nothing, and a doc must not be listed twice */
    double idf = term_idf(stats, dfs[m]);
    for (uint32_t p = ix->post_off[ids[m]]; p < ix->post_off[ids[m] + 1]; p++) {
      const tsift_posting *post = &ix->post[p];
      if (stats->allowed && !stats->allowed[post->doc]) continue;
      double tfn = posting_tfn(ix, stats, post, NULL);
      if (tfn <= 0.0) continue;
      if (acc[post->doc] == 0.0) touched[ntouched++] = post->doc;
      acc[post->doc] += w * saturate(idf, tfn);
    }
  }
  /* Proximity: consecutive query terms close together in a field. */
  np = tsift_query_pairs(ix, stats, q, use, pairs);
  add_proximity(ix, stats, pairs, np, acc);
  /* The query's token sequence, for "a query equal to a name or id ranks first". */
  int can_exact = 1;
  for (size_t i = 0; i < q->tokens.count; i++) {
    qseq[i] = tsift_term_lookup(ix, tsift_token(&q->tokens, i), q->tokens.len[i]);
    if (qseq[i] < 0) can_exact = 0;
  }
  /* The candidates: every allowed doc with a positive score. */
  int diverse = tsift_rank_diversifies(q, use);
  tsift_scored *cand = NULL;
  size_t nc = 0;
  if (diverse && k > 0 && !(cand = tsift_calloc_array(ntouched + 1, sizeof *cand))) {
    st = tsift_nomem(err, "searching");
    goto done;
  }
  for (size_t i = 0; i < ntouched && k > 0; i++) {
    uint32_t d = touched[i];
    if (excluded && excluded[d]) continue;
    if (!(acc[d] > 0.0)) continue;
    tsift_scored c = {d, 0, acc[d]};
    if (can_exact)
      c.exact = (uint8_t)(seq_equal(ix, ix->seq_off[2 * d], ix->seq_off[2 * d + 1], qseq,
                                    q->tokens.count) ||
                          seq_equal(ix, ix->seq_off[2 * d + 1], ix->seq_off[2 * d + 2], qseq,
                                    q->tokens.count));
    if (cand) {
      cand[nc++] = c;
    } else if (nh < k) {
      out[nh] = c;
      heap_sift_up(ix, out, nh, ROOT_WORST);
      nh++;
    } else if (better(ix, &c, &out[0])) {
      out[0] = c;
      heap_sift_down(ix, out, nh, 0, ROOT_WORST);
    }
  }
  if (cand) {
    st = diversify(ix, q, stats, cand, nc, ids, dfs, use, pairs, np, k, out, &nh, err);
    tsift_free(cand);
    if (st) goto done;
  } else {
    /* Heap sort into best-first order. */
    for (size_t n = nh; n > 1; n--) {
      tsift_scored t = out[0];
      out[0] = out[n - 1];
      out[n - 1] = t;
      heap_sift_down(ix, out, n - 1, 0, ROOT_WORST);
    }
  }
  if (nh && !out[0].exact && ix->min_coverage > 0.0 &&
      !confident(ix, q, stats, out[0].doc, ids, gdf, use, ix->min_coverage))
    nh = 0; /* nothing fits well enough: an empty result */
done:
  *nout = nh;
  tsift_free(acc);
  tsift_free(touched);
  tsift_free(qseq);
  tsift_free(ids);
  tsift_free(dfs);
  tsift_free(gdf);
  tsift_free(use);
  tsift_free(tier);
  tsift_free(key);
  tsift_free(pairs);
  return st;
}

/* ---- descriptions for results ----------------------------------------- */

char *tsift_short_description(const tsift_tool *t, size_t max_chars, size_t *len) {
  if (!tsift_description_visible(t)) {
    *len = strlen(TSIFT_WITHHELD_DESCRIPTION);
    return tsift_strndup(TSIFT_WITHHELD_DESCRIPTION, *len);
  }
  const char *s = t->description ? t->description : "";
  size_t n = strlen(s);
  /* First non-empty line, whitespace collapsed, at most max_chars characters. */
  char *out = tsift_alloc_bytes(n + 4);
  if (!out) return NULL;
  size_t o = 0, chars = 0, i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
  int space = 0, cut = 0;
  for (; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n' || c == '\r') break;
    if (c == ' ' || c == '\t') {
      space = 1;
      continue;
    }
    if ((c & 0xC0) != 0x80) { /* a new character starts */
      if (chars + space >= max_chars) {
        cut = 1;
        break;
      }
      if (space) {
        out[o++] = ' ';
        chars++;
        space = 0;
      }
      chars++;
    }
    out[o++] = (char)c;
  }
  if (cut) {
    memcpy(out + o, "\xE2\x80\xA6", 3); /* … */
    o += 3;
  }
  out[o] = 0;
  *len = o;
  return out;
}
