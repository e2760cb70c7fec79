/* snapshot.c — index snapshots (SPEC S11): a versioned binary blob that
 * loads back without re-analysis (edge cold start).
 *
 * Layout, all integers little-endian:
 *   "TSIFTIDX" magic, u32 format version
 *   str ranker version, str analyser version, str utf8proc version
 *   str fingerprint (64 hex), u8 lenient ids
 *   6 x u64 field weights (IEEE bits), u64 confidence floor (IEEE bits),
 *   6 x u64 field length sums
 *   u32 stopword count, str each
 *   str catalog JSON (the catalog as given, compact)
 *   u32 n, (n*6+1) u32 field_off, u32 count + u32 field_terms
 *   (2n+1) u32 seq_off, u32 count + u32 seq_terms
 *   u32 nterms, nterms x str terms
 *   (nterms+1) u32 post_off, postings (u32 doc + 6 x u8 tf each)
 *   32-byte sha256 of everything before it
 * "str" is u32 length + bytes. Loading checks the checksum first, then
 * every count and offset, and finally recomputes the fingerprint, so a
 * crafted blob with a valid checksum still cannot reach out of bounds.
 */
#include <string.h>

#include "alloc.h"
#include "cJSON.h"
#include "index.h"
#include "json_out.h"
#include "sha256.h"
#include "utf8proc.h"

#define SNAPSHOT_MAGIC "TSIFTIDX"
#define SNAPSHOT_VERSION 1u
/* Changes whenever analysis (text.c, docs.c) would produce other tokens. */
#define ANALYZER_VERSION "text-2"

/* ---- writing ---------------------------------------------------------- */

static void put_u32(tsift_buf *b, uint32_t v) {
  char x[4] = {(char)(v & 255), (char)((v >> 8) & 255), (char)((v >> 16) & 255), (char)(v >> 24)};
  tsift_buf_append(b, x, 4);
}

static void put_u64(tsift_buf *b, uint64_t v) {
  put_u32(b, (uint32_t)v);
  put_u32(b, (uint32_t)(v >> 32));
}

static void put_str(tsift_buf *b, const char *s, size_t n) {
  put_u32(b, (uint32_t)n);
  tsift_buf_append(b, s, n);
}

static void put_u32s(tsift_buf *b, const uint32_t *v, size_t n) {
  for (size_t i = 0; i < n; i++) put_u32(b, v[i]);
}

static uint64_t double_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

tsift_status tsift_index_snapshot(const tsift_index *ix, char **out, size_t *out_len, tsift_error *err) {
  if (!ix || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_snapshot: NULL argument");
  *out = NULL;
  char *catalog = cJSON_PrintUnformatted(ix->catalog.root);
  if (!catalog) return tsift_nomem(err, "writing a snapshot");
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_buf_append(&b, SNAPSHOT_MAGIC, 8);
  put_u32(&b, SNAPSHOT_VERSION);
  put_str(&b, TSIFT_RANKER_VERSION, strlen(TSIFT_RANKER_VERSION));
  put_str(&b, ANALYZER_VERSION, strlen(ANALYZER_VERSION));
  put_str(&b, utf8proc_version(), strlen(utf8proc_version()));
  put_str(&b, ix->fingerprint, 64);
  tsift_buf_putc(&b, (char)ix->lenient_ids);
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) put_u64(&b, double_bits(ix->weights[f]));
  put_u64(&b, double_bits(ix->min_coverage));
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) put_u64(&b, ix->field_len_sum[f]);
  put_u32(&b, (uint32_t)ix->stopwords.words.count);
  for (size_t i = 0; i < ix->stopwords.words.count; i++)
    put_str(&b, tsift_token(&ix->stopwords.words, i), ix->stopwords.words.len[i]);
  put_str(&b, catalog, strlen(catalog));
  cJSON_free(catalog);
  size_t nf = ix->n * TSIFT_FIELD_COUNT;
  put_u32(&b, (uint32_t)ix->n);
  put_u32s(&b, ix->field_off, nf + 1);
  put_u32(&b, ix->field_off[nf]);
  put_u32s(&b, ix->field_terms, ix->field_off[nf]);
  put_u32s(&b, ix->seq_off, 2 * ix->n + 1);
  put_u32(&b, ix->seq_off[2 * ix->n]);
  put_u32s(&b, ix->seq_terms, ix->seq_off[2 * ix->n]);
  put_u32(&b, (uint32_t)ix->nterms);
  for (size_t t = 0; t < ix->nterms; t++) put_str(&b, ix->term_bytes + ix->term_off[t], ix->term_len[t]);
  put_u32s(&b, ix->post_off, ix->nterms + 1);
  for (uint32_t p = 0; p < ix->post_off[ix->nterms]; p++) {
    put_u32(&b, ix->post[p].doc);
    tsift_buf_append(&b, (const char *)ix->post[p].tf, TSIFT_FIELD_COUNT);
  }
  if (!b.failed) {
    tsift_sha256 h;
    tsift_sha256_init(&h);
    tsift_sha256_update(&h, b.data, b.len);
    uint8_t digest[32];
    tsift_sha256_final(&h, digest);
    tsift_buf_append(&b, (const char *)digest, 32);
  }
  size_t len = 0;
  *out = tsift_buf_take(&b, &len);
  if (!*out) return tsift_nomem(err, "writing a snapshot");
  if (out_len) *out_len = len;
  tsift_ok(err);
  return TSIFT_OK;
}

/* ---- reading ---------------------------------------------------------- */

typedef struct reader {
  const unsigned char *p;
  size_t len, pos;
  int bad; /* ran past the end */
} reader;

static uint32_t get_u32(reader *r) {
  if (r->len - r->pos < 4) {
    r->bad = 1;
    r->pos = r->len;
    return 0;
  }
  const unsigned char *p = r->p + r->pos;
  r->pos += 4;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(reader *r) {
  uint64_t lo = get_u32(r);
  return lo | (uint64_t)get_u32(r) << 32;
}

static const char *get_bytes(reader *r, size_t n) {
  if (r->len - r->pos < n) {
    r->bad = 1;
    r->pos = r->len;
    return NULL;
  }
  const char *p = (const char *)r->p + r->pos;
  r->pos += n;
  return p;
}

static const char *get_str(reader *r, size_t *n) {
  *n = get_u32(r);
  return get_bytes(r, *n);
}

static int str_is(reader *r, const char *expected) {
  size_t n;
  const char *s = get_str(r, &n);
  return s && n == strlen(expected) && memcmp(s, expected, n) == 0;
}

/* An array of `count` u32 (count bounded by the bytes left). */
static uint32_t *get_u32s(reader *r, size_t count) {
  if (count > (r->len - r->pos) / 4) {
    r->bad = 1;
    return NULL;
  }
  uint32_t *v = tsift_calloc_array(count + 1, sizeof *v);
  if (!v) return NULL;
  for (size_t i = 0; i < count; i++) v[i] = get_u32(r);
  return v;
}

/* Offsets must start at 0, never decrease and end at `total`. */
static int offsets_ok(const uint32_t *off, size_t n, uint32_t total) {
  if (off[0] != 0 || off[n] != total) return 0;
  for (size_t i = 0; i < n; i++)
    if (off[i] > off[i + 1]) return 0;
  return 1;
}

static tsift_status corrupt(tsift_error *err, const char *what) {
  return tsift_fail(err, TSIFT_E_SNAPSHOT, "snapshot: %s", what);
}

static tsift_status read_body(tsift_index *ix, reader *r, tsift_error *err) {
  if (!str_is(r, TSIFT_RANKER_VERSION))
    return corrupt(err, "built for another ranker version (this is " TSIFT_RANKER_VERSION ")");
  if (!str_is(r, ANALYZER_VERSION)) return corrupt(err, "built by another analyser version");
  if (!str_is(r, utf8proc_version())) return corrupt(err, "built with another Unicode version");
  size_t n;
  const char *fp = get_str(r, &n);
  if (!fp || n != 64) return corrupt(err, "bad fingerprint");
  char stored_fp[65];
  memcpy(stored_fp, fp, 64);
  stored_fp[64] = 0;
  const char *lenient = get_bytes(r, 1);
  if (!lenient || (unsigned char)*lenient > 1) return corrupt(err, "bad id rule");
  ix->lenient_ids = (uint8_t)*lenient;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    uint64_t bits = get_u64(r);
    memcpy(&ix->weights[f], &bits, sizeof bits);
    if (!(ix->weights[f] >= 0.0 && ix->weights[f] <= 100.0)) return corrupt(err, "bad field weight");
  }
  uint64_t mc = get_u64(r);
  memcpy(&ix->min_coverage, &mc, sizeof mc);
  if (!(ix->min_coverage >= 0.0 && ix->min_coverage <= 1.0)) return corrupt(err, "bad confidence floor");
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) ix->field_len_sum[f] = get_u64(r);
  uint32_t nstop = get_u32(r);
  if (r->bad || nstop > r->len) return corrupt(err, "truncated");
  for (uint32_t i = 0; i < nstop; i++) {
    const char *w = get_str(r, &n);
    if (!w || n == 0 || n > 255) return corrupt(err, "bad stopword");
    if (tsift_tokens_push(&ix->stopwords.words, w, n)) return tsift_nomem(err, "loading a snapshot");
  }
  for (size_t i = 1; i < ix->stopwords.words.count; i++) /* must stay sorted and unique */
    if (strcmp(tsift_token(&ix->stopwords.words, i - 1), tsift_token(&ix->stopwords.words, i)) >= 0)
      return corrupt(err, "stopwords out of order");
  const char *catalog = get_str(r, &n);
  if (!catalog) return corrupt(err, "truncated");
  tsift_status st = tsift_catalog_parse(catalog, n, ix->lenient_ids ? TSIFT_IDS_LENIENT : TSIFT_IDS_STRICT,
                                        &ix->catalog, err);
  if (st) return st == TSIFT_E_NOMEM ? st : tsift_error_prefix(err, TSIFT_E_SNAPSHOT, "snapshot");
  ix->n = ix->catalog.count;
  if (get_u32(r) != ix->n) return corrupt(err, "tool count does not match the catalog");
  size_t nf = ix->n * TSIFT_FIELD_COUNT;
  if (!(ix->trust = tsift_calloc_array(ix->n + 1, 1))) return tsift_nomem(err, "loading a snapshot");
  for (size_t d = 0; d < ix->n; d++) ix->trust[d] = (uint8_t)tsift_trust_of(&ix->catalog.tools[d]);
  if (!(ix->field_off = get_u32s(r, nf + 1))) return r->bad ? corrupt(err, "truncated") : tsift_nomem(err, "loading a snapshot");
  uint32_t nterms_total = get_u32(r);
  if (!(ix->field_terms = get_u32s(r, nterms_total)))
    return r->bad ? corrupt(err, "truncated") : tsift_nomem(err, "loading a snapshot");
  if (!offsets_ok(ix->field_off, nf, nterms_total)) return corrupt(err, "bad field offsets");
  if (!(ix->seq_off = get_u32s(r, 2 * ix->n + 1)))
    return r->bad ? corrupt(err, "truncated") : tsift_nomem(err, "loading a snapshot");
  uint32_t nseq = get_u32(r);
  if (!(ix->seq_terms = get_u32s(r, nseq)))
    return r->bad ? corrupt(err, "truncated") : tsift_nomem(err, "loading a snapshot");
  if (!offsets_ok(ix->seq_off, 2 * ix->n, nseq)) return corrupt(err, "bad name offsets");
  uint32_t nterms = get_u32(r);
  if (r->bad || nterms > r->len - r->pos) return corrupt(err, "truncated");
  ix->term_off = tsift_calloc_array(nterms + 1, sizeof *ix->term_off);
  ix->term_len = tsift_calloc_array(nterms + 1, 1);
  if (!ix->term_off || !ix->term_len) return tsift_nomem(err, "loading a snapshot");
  ix->terms_cap = nterms + 1;
  for (uint32_t t = 0; t < nterms; t++) {
    const char *s = get_str(r, &n);
    if (!s || n == 0 || n > TSIFT_TOKEN_MAX_BYTES) return corrupt(err, "bad term");
    if (tsift_grow((void **)&ix->term_bytes, &ix->term_bytes_cap, ix->term_bytes_len + n + 1, 1))
      return tsift_nomem(err, "loading a snapshot");
    memcpy(ix->term_bytes + ix->term_bytes_len, s, n);
    ix->term_bytes[ix->term_bytes_len + n] = 0;
    ix->term_off[t] = (uint32_t)ix->term_bytes_len;
    ix->term_len[t] = (uint8_t)n;
    ix->term_bytes_len += n + 1;
    ix->nterms = t + 1;
  }
  for (uint32_t i = 0; i < nterms_total; i++)
    if (ix->field_terms[i] >= nterms) return corrupt(err, "bad term id");
  for (uint32_t i = 0; i < nseq; i++)
    if (ix->seq_terms[i] >= nterms) return corrupt(err, "bad term id");
  size_t slots = 1024;
  while (slots < (size_t)nterms * 2 + 2) slots *= 2;
  if (tsift_index_rehash(ix, slots)) return tsift_nomem(err, "loading a snapshot");
  if (!(ix->post_off = get_u32s(r, nterms + 1)))
    return r->bad ? corrupt(err, "truncated") : tsift_nomem(err, "loading a snapshot");
  uint32_t nposts = ix->post_off[nterms];
  if (!offsets_ok(ix->post_off, nterms, nposts) || nposts > (r->len - r->pos) / (4 + TSIFT_FIELD_COUNT))
    return corrupt(err, "bad postings");
  if (!(ix->post = tsift_calloc_array((size_t)nposts + 1, sizeof *ix->post)))
    return tsift_nomem(err, "loading a snapshot");
  for (uint32_t t = 0; t < nterms; t++) {
    for (uint32_t p = ix->post_off[t]; p < ix->post_off[t + 1]; p++) {
      ix->post[p].doc = get_u32(r);
      const char *tf = get_bytes(r, TSIFT_FIELD_COUNT);
      if (!tf || ix->post[p].doc >= ix->n || (p > ix->post_off[t] && ix->post[p].doc <= ix->post[p - 1].doc))
        return corrupt(err, "bad postings");
      for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
        ix->post[p].tf[f] = (uint8_t)tf[f];
        if (ix->post[p].tf[f] > TSIFT_TF_CLAMP) return corrupt(err, "bad postings");
      }
    }
  }
  if (r->pos != r->len) return corrupt(err, "unexpected data after the index");
  /* The documents must be the ones the fingerprint describes. */
  if ((st = tsift_index_fingerprint(ix, err))) return st;
  if (strcmp(ix->fingerprint, stored_fp) != 0) return corrupt(err, "fingerprint does not match the contents");
  uint64_t sums[TSIFT_FIELD_COUNT] = {0};
  for (size_t d = 0; d < ix->n; d++)
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
      sums[f] += ix->field_off[d * TSIFT_FIELD_COUNT + f + 1] - ix->field_off[d * TSIFT_FIELD_COUNT + f];
  if (memcmp(sums, ix->field_len_sum, sizeof sums) != 0) return corrupt(err, "field lengths do not add up");
  tsift_index_count_fields(ix); /* derived, not stored: the ranker's average field lengths need it */
  return TSIFT_OK;
}

tsift_status tsift_index_from_snapshot(const char *bytes, size_t len, tsift_index **out, tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_from_snapshot: out is NULL");
  *out = NULL;
  if (!bytes && len) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_from_snapshot: bytes are NULL");
  if (len < 8 + 4 + 32 || memcmp(bytes, SNAPSHOT_MAGIC, 8) != 0)
    return corrupt(err, len < 8 ? "truncated (no header)" : "not a toolsift snapshot (wrong magic)");
  reader r = {(const unsigned char *)bytes, len - 32, 8, 0};
  uint32_t version = get_u32(&r);
  if (version != SNAPSHOT_VERSION)
    return tsift_fail(err, TSIFT_E_SNAPSHOT, "snapshot: format version %u, this build reads version %u",
                      version, SNAPSHOT_VERSION);
  tsift_sha256 h;
  tsift_sha256_init(&h);
  tsift_sha256_update(&h, bytes, len - 32);
  uint8_t digest[32];
  tsift_sha256_final(&h, digest);
  if (memcmp(digest, bytes + len - 32, 32) != 0) return corrupt(err, "checksum mismatch (truncated or corrupted)");
  tsift_index *ix = tsift_calloc_array(1, sizeof *ix);
  if (!ix) return tsift_nomem(err, "loading a snapshot");
  tsift_tokens_init(&ix->stopwords.words);
  tsift_status st = read_body(ix, &r, err);
  if (st) {
    tsift_index_free(ix);
    return st;
  }
  tsift_ok(err);
  *out = ix;
  return TSIFT_OK;
}
