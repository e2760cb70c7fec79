/* baseline.c — plain BM25, the yardstick of the relevance evaluation
 * (SPEC S10): one bag of lowercase ASCII [a-z0-9]+ tokens per tool (name,
 * description, schema property names and descriptions), no identifier
 * splitting, no stopwords, no field weights, k1 = 1.2, b = 0.75. This is the
 * plain BM25 the public data sets quote, so our numbers sit beside theirs. */
#include "eval/baseline.h"

#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "cJSON.h"
#include "base/mathx.h"

typedef struct bterm {
  char *text;
  uint32_t len;
  uint32_t *docs, *tfs;
  size_t n, cap, cap2;
} bterm;

struct tsift_baseline {
  size_t ndocs;
  uint32_t *doc_len;
  double avg_len;
  bterm *terms;
  size_t nterms, terms_cap;
  tsift_hash hash; /* the terms by their text */
  const tsift_catalog *catalog;
};

/* A term's text, for the table (hash.h). */
static const char *term_key(const void *owner, uint32_t t, size_t *len) {
  const bterm *term = &((const tsift_baseline *)owner)->terms[t];
  *len = term->len;
  return term->text;
}

static long lookup(const tsift_baseline *b, const char *s, size_t n) {
  return tsift_hash_find(&b->hash, tsift_fnv1a(s, n), s, n, term_key, b);
}

/* Count one occurrence of s in doc d (docs arrive in order). */
static int add_token(tsift_baseline *b, uint32_t d, const char *s, size_t n) {
  long t = lookup(b, s, n);
  if (t < 0) {
    if (tsift_hash_room(&b->hash, b->nterms + 1, b->nterms, 1024, term_key, b)) return -1;
    if (tsift_grow((void **)&b->terms, &b->terms_cap, b->nterms + 1, sizeof *b->terms)) return -1;
    bterm *nt = &b->terms[b->nterms];
    memset(nt, 0, sizeof *nt);
    if (!(nt->text = tsift_strndup(s, n))) return -1;
    nt->len = (uint32_t)n;
    t = (long)b->nterms++;
    tsift_hash_add(&b->hash, tsift_fnv1a(s, n), (uint32_t)t);
  }
  bterm *bt = &b->terms[t];
  if (bt->n && bt->docs[bt->n - 1] == d) {
    bt->tfs[bt->n - 1]++;
    return 0;
  }
  if (tsift_grow((void **)&bt->docs, &bt->cap, bt->n + 1, sizeof *bt->docs)) return -1;
  if (tsift_grow((void **)&bt->tfs, &bt->cap2, bt->n + 1, sizeof *bt->tfs)) return -1;
  bt->docs[bt->n] = d;
  bt->tfs[bt->n] = 1;
  bt->n++;
  return 0;
}

/* Lowercase ASCII alphanumeric runs; every other byte separates. */
typedef int (*token_fn)(void *ctx, const char *s, size_t n);

static int each_token(const char *s, token_fn fn, void *ctx) {
  char tok[64];
  size_t n = 0;
  for (const char *p = s;; p++) {
    char c = *p;
    int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
    if (alnum) {
      if (n < sizeof tok) tok[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    } else {
      if (n && fn(ctx, tok, n)) return -1;
      n = 0;
      if (!c) return 0;
    }
  }
}

typedef struct doc_ctx {
  tsift_baseline *b;
  uint32_t d;
  uint32_t len;
} doc_ctx;

static int doc_token(void *ctx, const char *s, size_t n) {
  doc_ctx *c = ctx;
  c->len++;
  return add_token(c->b, c->d, s, n);
}

/* Property names and descriptions, recursively (bounded depth). */
static int schema_text(const cJSON *node, int depth, doc_ctx *c) {
  if (!cJSON_IsObject(node) && !cJSON_IsArray(node)) return 0;
  if (depth > 16) return 0;
  const cJSON *child;
  cJSON_ArrayForEach(child, node) {
    if (child->string && strcmp(child->string, "properties") == 0 && cJSON_IsObject(child)) {
      const cJSON *p;
      cJSON_ArrayForEach(p, child) {
        if (each_token(p->string, doc_token, c)) return -1;
        if (schema_text(p, depth + 1, c)) return -1;
      }
    } else if (child->string && strcmp(child->string, "description") == 0 && cJSON_IsString(child)) {
      if (each_token(child->valuestring, doc_token, c)) return -1;
    } else if (schema_text(child, depth + 1, c)) {
      return -1;
    }
  }
  return 0;
}

void tsift_baseline_free(tsift_baseline *b) {
  if (!b) return;
  for (size_t t = 0; t < b->nterms; t++) {
    TSIFT_FREE_ALL(b->terms[t].text, b->terms[t].docs, b->terms[t].tfs);
  }
  tsift_free(b->terms);
  tsift_hash_free(&b->hash);
  tsift_free(b->doc_len);
  tsift_free(b);
}

tsift_status tsift_baseline_build(const tsift_catalog *cat, tsift_baseline **out, tsift_error *err) {
  *out = NULL;
  tsift_baseline *b = tsift_calloc_array(1, sizeof *b);
  if (!b) return tsift_nomem(err, "building the baseline");
  b->catalog = cat;
  b->ndocs = cat->count;
  b->doc_len = tsift_calloc_array(cat->count + 1, sizeof *b->doc_len);
  if (!b->doc_len) {
    tsift_baseline_free(b);
    return tsift_nomem(err, "building the baseline");
  }
  uint64_t total = 0;
  for (size_t d = 0; d < cat->count; d++) {
    const tsift_tool *t = &cat->tools[d];
    doc_ctx c = {b, (uint32_t)d, 0};
    const cJSON *schema = NULL;
    cJSON *owned = NULL;
    tsift_status st = tsift_tool_schema(t, &schema, &owned, err);
    if (st) {
      tsift_baseline_free(b);
      return st;
    }
    const char *desc;
    size_t dl;
    char *dcode;
    st = tsift_tool_description(t, &desc, &dl, &dcode, err);
    int failed = !st && (each_token(t->name, doc_token, &c) || (desc && each_token(desc, doc_token, &c)) ||
                         schema_text(schema, 0, &c));
    tsift_free(dcode);
    cJSON_Delete(owned);
    if (st || failed) {
      tsift_baseline_free(b);
      return st ? st : tsift_nomem(err, "building the baseline");
    }
    b->doc_len[d] = c.len;
    total += c.len;
  }
  b->avg_len = b->ndocs ? (double)total / (double)b->ndocs : 0.0;
  *out = b;
  return TSIFT_OK;
}

/* Every token of the query, however long the query (no cap: plain BM25). */
typedef struct query_ctx {
  char (*terms)[64];
  size_t *lens;
  size_t n, cap;
} query_ctx;

static int query_token(void *ctx, const char *s, size_t n) {
  query_ctx *q = ctx;
  if (q->n < q->cap) {
    memcpy(q->terms[q->n], s, n);
    q->lens[q->n++] = n;
  }
  return 0;
}

tsift_status tsift_baseline_rank(const tsift_baseline *b, const char *query, size_t k, uint32_t *out,
                                 size_t *nout, tsift_error *err) {
  *nout = 0;
  query_ctx q = {NULL, NULL, 0, strlen(query) / 2 + 1};
  q.terms = tsift_calloc_array(q.cap, sizeof *q.terms);
  q.lens = tsift_calloc_array(q.cap, sizeof *q.lens);
  double *acc = tsift_calloc_array(b->ndocs + 1, sizeof *acc);
  if (!acc || !q.terms || !q.lens) {
    TSIFT_FREE_ALL(acc, q.terms, q.lens);
    return tsift_nomem(err, "ranking the baseline");
  }
  each_token(query, query_token, &q);
  double N = (double)b->ndocs;
  /* Every query token counts (repeats too), as in the usual plain BM25. */
  for (size_t i = 0; i < q.n; i++) {
    long t = lookup(b, q.terms[i], q.lens[i]);
    if (t < 0) continue;
    const bterm *bt = &b->terms[t];
    double df = (double)bt->n;
    double idf = tsift_ln(1.0 + (N - df + 0.5) / (df + 0.5));
    for (size_t p = 0; p < bt->n; p++) {
      double tf = (double)bt->tfs[p];
      double norm = 1.0 - 0.75 + 0.75 * (double)b->doc_len[bt->docs[p]] / b->avg_len;
      acc[bt->docs[p]] += idf * tf * 2.2 / (tf + 1.2 * norm);
    }
  }
  /* Top k by score, ties by id: a simple selection (k is small). */
  size_t n = 0;
  for (size_t d = 0; d < b->ndocs; d++) {
    if (!(acc[d] > 0.0)) continue;
    size_t pos = n < k ? n : k;
    while (pos > 0) {
      uint32_t o = out[pos - 1];
      int better = acc[d] > acc[o] ||
                   (acc[d] == acc[o] && strcmp(b->catalog->tools[d].id, b->catalog->tools[o].id) < 0);
      if (!better) break;
      if (pos < k) out[pos] = o;
      pos--;
    }
    if (pos < k) out[pos] = (uint32_t)d;
    if (n < k) n++;
  }
  TSIFT_FREE_ALL(acc, q.terms, q.lens);
  *nout = n;
  return TSIFT_OK;
}
