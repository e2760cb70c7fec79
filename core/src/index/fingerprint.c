/* fingerprint.c — the index fingerprint (SPEC S4, S11): sha256 over the
 * effective documents and configuration in id order; and the id sort it
 * needs, which sessions and learning sort by too, with the lookup by menu
 * name they make over it. */
#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "index/index.h"
#include "base/sha256.h"

/* The bytes to hash gathered in a buffer and given to sha256 many blocks at
 * a time: the fingerprint is two short pieces a token (its length, its
 * bytes), and an update per piece cost more than the copy. The same bytes
 * are hashed in the same order. */
#define FEED_CAP 4096
typedef struct feed {
  tsift_sha256 sha;
  size_t n;
  uint8_t buf[FEED_CAP];
} feed;

static void feed_flush(feed *f) {
  tsift_sha256_update(&f->sha, f->buf, f->n);
  f->n = 0;
}

static void feed_bytes(feed *f, const void *p, size_t n) {
  if (f->n + n > sizeof f->buf) {
    feed_flush(f);
    if (n > sizeof f->buf) {
      tsift_sha256_update(&f->sha, p, n);
      return;
    }
  }
  memcpy(f->buf + f->n, p, n);
  f->n += n;
}

/* A string's length as the fingerprint hashes it: 4 bytes, big-endian. */
static void put_len(uint8_t out[4], size_t n) {
  out[0] = (uint8_t)(n >> 24), out[1] = (uint8_t)(n >> 16), out[2] = (uint8_t)(n >> 8), out[3] = (uint8_t)n;
}

static void hash_str(feed *s, const char *p, size_t n) {
  uint8_t len[4];
  put_len(len, n);
  feed_bytes(s, len, 4);
  feed_bytes(s, p, n);
}

/* Every term as hash_str feeds it (length, bytes) at rec + at[t], made once
 * for the build's hundred thousand tokens of a few thousand terms: a token
 * is then one copy of REC_COPY bytes, a fixed size the compiler inlines,
 * where two variable copies (memcpy calls) were. `rec` has REC_COPY bytes
 * of room past every record. */
#define REC_COPY (4 + TSIFT_TOKEN_MAX_BYTES)
typedef struct term_recs {
  uint8_t *rec;
  uint32_t *at;
} term_recs;

static int term_recs_make(const tsift_index *ix, term_recs *r) {
  size_t total = REC_COPY;
  for (size_t t = 0; t < ix->nterms; t++) total += 4 + (size_t)ix->term_len[t];
  r->rec = tsift_calloc_array(total, 1);
  r->at = tsift_calloc_array(ix->nterms + 1, sizeof *r->at);
  if (!r->rec || !r->at) return -1;
  size_t o = 0;
  for (size_t t = 0; t < ix->nterms; t++) {
    size_t n = ix->term_len[t];
    r->at[t] = (uint32_t)o;
    put_len(r->rec + o, n);
    memcpy(r->rec + o + 4, ix->term_bytes + ix->term_off[t], n);
    o += 4 + n;
  }
  return 0;
}

/* Doc d's fields, each its token count and then its tokens, read in one
 * pass over the doc's code (tsift_field_tokens per field skipped the fields
 * before it again each time, and copied the ids out first). */
static void feed_fields(feed *s, const tsift_index *ix, const term_recs *r, uint32_t d) {
  const unsigned char *p = ix->tok_bytes + ix->tok_at[d];
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    size_t n = tsift_field_len(ix, d, f);
    uint8_t cnt[4] = {0, 0, 0, (uint8_t)n}; /* field_lens are bytes */
    feed_bytes(s, cnt, 4);
    for (size_t i = 0; i < n; i++) {
      uint32_t t = ix->by_rank[tsift_forward_next(&p)];
      size_t k = 4 + (size_t)ix->term_len[t];
      if (k <= REC_COPY && s->n + REC_COPY <= sizeof s->buf) {
        memcpy(s->buf + s->n, r->rec + r->at[t], REC_COPY); /* the bytes past k are overwritten or not hashed */
        s->n += k;
      } else {
        feed_bytes(s, r->rec + r->at[t], k);
      }
    }
  }
}

/* A merge sort of doc numbers by a string of each tool (stable). */
static void sort_docs(const tsift_index *ix, uint32_t *a, uint32_t *tmp, size_t n, int menu) {
  if (n < 2) return;
  size_t h = n / 2;
  sort_docs(ix, a, tmp, h, menu);
  sort_docs(ix, a + h, tmp, n - h, menu);
  const tsift_tool *t = ix->catalog.tools;
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n)
    tmp[k++] = strcmp(menu ? t[a[i]].menu_name : t[a[i]].id, menu ? t[a[j]].menu_name : t[a[j]].id) <= 0 ? a[i++]
                                                                                                       : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

void tsift_sort_docs_by_id(const tsift_index *ix, uint32_t *a, uint32_t *tmp, size_t n) { sort_docs(ix, a, tmp, n, 0); }

void tsift_sort_docs_by_menu_name(const tsift_index *ix, uint32_t *a, uint32_t *tmp, size_t n) {
  sort_docs(ix, a, tmp, n, 1);
}

long tsift_find_doc_by_menu_name(const tsift_index *ix, const uint32_t *by_name, const char *name) {
  size_t lo = 0, hi = ix->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(ix->catalog.tools[by_name[mid]].menu_name, name);
    if (c == 0) return (long)by_name[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* sha256 over a canonical form of the effective documents and configuration:
 * documents in id order, each as id, trust class and its fields' tokens;
 * then ranker version, weights and stopwords. Tool and key order in the
 * catalog cannot change it. */
tsift_status tsift_index_fingerprint(const tsift_index *ix, char out[65], tsift_error *err) {
  uint32_t *order = tsift_calloc_array(ix->n + 1, sizeof *order);
  uint32_t *tmp = tsift_calloc_array(ix->n + 1, sizeof *tmp);
  term_recs recs;
  if (term_recs_make(ix, &recs) || !order || !tmp) {
    TSIFT_FREE_ALL(order, tmp, recs.rec, recs.at);
    return tsift_nomem(err, "fingerprinting the catalog");
  }
  for (size_t i = 0; i < ix->n; i++) order[i] = (uint32_t)i;
  tsift_sort_docs_by_id(ix, order, tmp, ix->n);
  feed s;
  s.n = 0;
  tsift_sha256_init(&s.sha);
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
  if (ix->vocabulary[0]) { /* only with one: indexes without keep their fingerprint */
    hash_str(&s, "vocabulary", 10);
    hash_str(&s, ix->vocabulary, 64);
  }
  for (size_t k = 0; k < ix->n; k++) {
    uint32_t d = order[k];
    const char *id = ix->catalog.tools[d].id;
    hash_str(&s, id, strlen(id));
    const char *tr = tsift_trust_name((tsift_trust)ix->trust[d]);
    hash_str(&s, tr, strlen(tr));
    feed_fields(&s, ix, &recs, d);
  }
  uint8_t digest[32];
  feed_flush(&s);
  tsift_sha256_final(&s.sha, digest);
  tsift_sha256_hex(digest, out);
  TSIFT_FREE_ALL(order, tmp, recs.rec, recs.at);
  return TSIFT_OK;
}
