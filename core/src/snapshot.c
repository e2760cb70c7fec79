/* snapshot.c — index snapshots (SPEC S11): a versioned binary blob that
 * loads back without re-analysis (edge cold start).
 *
 * Format version 3 (version 2 had 12-byte postings). All integers
 * little-endian; every array starts at a
 * multiple of 4 bytes from the start of the blob, so the loader keeps one
 * copy of the blob and points into it: nothing is re-analysed, re-parsed or
 * copied array by array (version 1 re-parsed the catalog JSON and took as
 * long to load as a JavaScript engine's JSON index).
 *
 *   "TSIFTIDX" magic, u32 format version
 *   str ranker version, str analyser version, str utf8proc version
 *   str fingerprint (64 hex), u8 lenient ids, pad
 *   6 x u64 field weights (IEEE bits), u64 confidence floor (IEEE bits),
 *   6 x u64 field length sums
 *   u32 stopword count, str each, pad
 *   u32 n (tools)
 *   strings: u32 byte count, NUL-terminated UTF-8 strings, pad
 *   labels:  u32 count, u32 string offset each
 *   tools:   n x TOOL_WORDS u32 (see enum below)
 *   (n*6+1) u32 field_off, u32 count + u32 field_terms
 *   (2n+1) u32 seq_off, u32 count + u32 seq_terms
 *   u32 nterms, u32 byte count + NUL-terminated terms, pad,
 *   nterms u32 term_off, nterms u8 term_len, pad
 *   (nterms+1) u32 post_off, postings of 6 bytes (u32 doc, u16 tfs: the
 *   clamped tf of field f in bits 2f..2f+1, bits 12..15 zero), pad
 *   u64 checksum (checksum.h) of everything before it
 * "str" is u32 length + bytes; "pad" is zero bytes up to a multiple of 4.
 *
 * Loading checks the checksum first (truncation, corruption), then every
 * count, offset, string and posting, so a crafted blob with a valid checksum
 * still cannot reach out of bounds or produce invalid UTF-8. The stored
 * fingerprint is trusted once the checksum matches (re-deriving it costs as
 * much as the rest of the load); tsift_index_verify re-derives it on demand.
 * Tool schemas stay compact JSON text until a menu needs one (spec.c).
 */
#include <string.h>

#include "alloc.h"
#include "cJSON.h"
#include "checksum.h"
#include "index.h"
#include "json_out.h"
#include "utf8proc.h"

#define SNAPSHOT_MAGIC "TSIFTIDX"
#define SNAPSHOT_VERSION 3u
/* Changes whenever analysis (text.c, docs.c) would produce other tokens. */
#define ANALYZER_VERSION "text-2"
#define NONE 0xFFFFFFFFu /* an absent optional string */
#define POSTING_BYTES 6u

/* The words of one tool record. */
enum {
  T_ID, T_NAME, T_TITLE, T_DESCRIPTION, T_SCHEMA, T_SCHEMA_LEN,
  T_TAGS, T_NTAGS, T_ALIASES, T_NALIASES, T_HOST_TAGS, T_NHOST_TAGS, T_HOST_ALIASES, T_NHOST_ALIASES,
  T_FLAGS, T_RESERVED,
  TOOL_WORDS
};

_Static_assert(sizeof(tsift_posting) == POSTING_BYTES, "postings are read in place");
_Static_assert(TSIFT_FIELD_COUNT == 6, "the format stores six fields");
_Static_assert(TSIFT_TF_CLAMP == 2, "a posting stores each tf in two bits, 3 never");

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

static void pad4(tsift_buf *b) {
  while (!b->failed && b->len % 4) tsift_buf_putc(b, 0);
}

static uint64_t double_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

/* The tools' strings, their label lists and one record per tool. */
typedef struct tool_tables {
  tsift_buf strings;
  tsift_buf labels; /* u32 string offsets */
  tsift_buf tools;  /* TOOL_WORDS u32 per tool */
  size_t nlabels;
  int too_big;
} tool_tables;

static uint32_t add_string(tool_tables *tt, const char *s, size_t n) {
  if (!s) return NONE;
  size_t at = tt->strings.len;
  tsift_buf_append(&tt->strings, s, n);
  tsift_buf_putc(&tt->strings, 0);
  if (tt->strings.len >= NONE) tt->too_big = 1;
  return (uint32_t)at;
}

static void add_labels(tool_tables *tt, const tsift_labels *l) {
  put_u32(&tt->tools, (uint32_t)tt->nlabels);
  put_u32(&tt->tools, (uint32_t)l->count);
  for (size_t i = 0; i < l->count; i++)
    put_u32(&tt->labels, add_string(tt, l->items[i], strlen(l->items[i])));
  tt->nlabels += l->count;
}

static tsift_status write_tools(const tsift_index *ix, tool_tables *tt, tsift_error *err) {
  for (size_t d = 0; d < ix->n && !tt->strings.failed; d++) {
    const tsift_tool *t = &ix->catalog.tools[d];
    char *printed = NULL;
    const char *schema = t->schema_text;
    size_t schema_len = t->schema_text_len;
    if (t->schema) {
      if (!(printed = tsift_json_print(t->schema))) return tsift_nomem(err, "writing a snapshot");
      schema = printed;
      schema_len = strlen(printed);
    }
    put_u32(&tt->tools, add_string(tt, t->id, strlen(t->id)));
    put_u32(&tt->tools, add_string(tt, t->name, strlen(t->name)));
    put_u32(&tt->tools, add_string(tt, t->title, t->title ? strlen(t->title) : 0));
    put_u32(&tt->tools, add_string(tt, t->description, t->description ? strlen(t->description) : 0));
    put_u32(&tt->tools, add_string(tt, schema, schema_len));
    put_u32(&tt->tools, (uint32_t)schema_len);
    cJSON_free(printed);
    add_labels(tt, &t->tags);
    add_labels(tt, &t->aliases);
    add_labels(tt, &t->host_tags);
    add_labels(tt, &t->host_aliases);
    put_u32(&tt->tools, (uint32_t)t->origin | (uint32_t)t->shape << 8 | (uint32_t)(t->trusted ? 1 : 0) << 16 |
                            (uint32_t)(t->tainted ? 1 : 0) << 24);
    put_u32(&tt->tools, 0);
  }
  if (tt->strings.failed || tt->labels.failed || tt->tools.failed) return tsift_nomem(err, "writing a snapshot");
  if (tt->too_big) return tsift_fail(err, TSIFT_E_LIMIT, "snapshot: the tools' text exceeds 4 GiB");
  return TSIFT_OK;
}

tsift_status tsift_index_snapshot(const tsift_index *ix, char **out, size_t *out_len, tsift_error *err) {
  if (!ix || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_snapshot: NULL argument");
  *out = NULL;
  tool_tables tt;
  memset(&tt, 0, sizeof tt);
  tsift_buf_init(&tt.strings);
  tsift_buf_init(&tt.labels);
  tsift_buf_init(&tt.tools);
  tsift_status st = write_tools(ix, &tt, err);
  tsift_buf b;
  tsift_buf_init(&b);
  if (!st) {
    tsift_buf_append(&b, SNAPSHOT_MAGIC, 8);
    put_u32(&b, SNAPSHOT_VERSION);
    put_str(&b, TSIFT_RANKER_VERSION, strlen(TSIFT_RANKER_VERSION));
    put_str(&b, ANALYZER_VERSION, strlen(ANALYZER_VERSION));
    put_str(&b, utf8proc_version(), strlen(utf8proc_version()));
    put_str(&b, ix->fingerprint, 64);
    tsift_buf_putc(&b, (char)ix->lenient_ids);
    pad4(&b);
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) put_u64(&b, double_bits(ix->weights[f]));
    put_u64(&b, double_bits(ix->min_coverage));
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) put_u64(&b, ix->field_len_sum[f]);
    put_u32(&b, (uint32_t)ix->stopwords.words.count);
    for (size_t i = 0; i < ix->stopwords.words.count; i++)
      put_str(&b, tsift_token(&ix->stopwords.words, i), ix->stopwords.words.len[i]);
    pad4(&b);
    put_u32(&b, (uint32_t)ix->n);
    put_u32(&b, (uint32_t)tt.strings.len);
    tsift_buf_append(&b, tt.strings.data, tt.strings.len);
    pad4(&b);
    put_u32(&b, (uint32_t)tt.nlabels);
    tsift_buf_append(&b, tt.labels.data, tt.labels.len);
    tsift_buf_append(&b, tt.tools.data, tt.tools.len);
    size_t nf = ix->n * TSIFT_FIELD_COUNT;
    put_u32s(&b, ix->field_off, nf + 1);
    put_u32(&b, ix->field_off[nf]);
    put_u32s(&b, ix->field_terms, ix->field_off[nf]);
    put_u32s(&b, ix->seq_off, 2 * ix->n + 1);
    put_u32(&b, ix->seq_off[2 * ix->n]);
    put_u32s(&b, ix->seq_terms, ix->seq_off[2 * ix->n]);
    put_u32(&b, (uint32_t)ix->nterms);
    /* The dictionary as it is in memory: terms in id order, each followed
     * by a NUL (a built index has no other bytes in term_bytes). */
    put_u32(&b, (uint32_t)ix->term_bytes_len);
    tsift_buf_append(&b, ix->term_bytes, ix->term_bytes_len);
    pad4(&b);
    put_u32s(&b, ix->term_off, ix->nterms);
    tsift_buf_append(&b, (const char *)ix->term_len, ix->nterms);
    pad4(&b);
    put_u32s(&b, ix->post_off, ix->nterms + 1);
    for (uint32_t p = 0; p < ix->post_off[ix->nterms]; p++) {
      put_u32(&b, ix->post[p].doc);
      char tfs[2] = {(char)(ix->post[p].tfs & 255), (char)(ix->post[p].tfs >> 8)};
      tsift_buf_append(&b, tfs, 2);
    }
    pad4(&b);
    if (!b.failed) put_u64(&b, tsift_checksum64(b.data, b.len));
  }
  tsift_buf_free(&tt.strings);
  tsift_buf_free(&tt.labels);
  tsift_buf_free(&tt.tools);
  if (st) {
    tsift_buf_free(&b);
    return st;
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

static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t get_u32(reader *r) {
  if (r->len - r->pos < 4) {
    r->bad = 1;
    r->pos = r->len;
    return 0;
  }
  uint32_t v = le32(r->p + r->pos);
  r->pos += 4;
  return v;
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
  const char *s = (const char *)r->p + r->pos;
  r->pos += n;
  return s;
}

static const char *get_str(reader *r, size_t *n) {
  *n = get_u32(r);
  return r->bad ? NULL : get_bytes(r, *n);
}

static int str_is(reader *r, const char *expected) {
  size_t n;
  const char *s = get_str(r, &n);
  return s && n == strlen(expected) && memcmp(s, expected, n) == 0;
}

/* Skip the zero padding to the next multiple of 4; 0 when it is not zero. */
static int skip_pad(reader *r) {
  while (r->pos % 4) {
    if (r->pos >= r->len || r->p[r->pos] != 0) {
      r->bad = 1;
      return 0;
    }
    r->pos++;
  }
  return 1;
}

/* `count` elements of `size` bytes in place (4-aligned), then the padding;
 * NULL when they do not fit. */
static const void *get_array(reader *r, size_t count, size_t size) {
  if (r->bad || r->pos % 4 || count > (r->len - r->pos) / size) {
    r->bad = 1;
    return NULL;
  }
  const void *a = r->p + r->pos;
  r->pos += count * size;
  return skip_pad(r) ? a : NULL;
}

/* 0 = off[0], non-decreasing, off[n] == total. */
static int offsets_ok(const uint32_t *off, size_t n, uint32_t total) {
  if (off[0] != 0 || off[n] != total) return 0;
  for (size_t i = 0; i < n; i++)
    if (off[i] > off[i + 1]) return 0;
  return 1;
}

static tsift_status corrupt(tsift_error *err, const char *what) {
  return tsift_fail(err, TSIFT_E_SNAPSHOT, "snapshot: %s", what);
}

#define NEED(cond, what) \
  do {                   \
    if (!(cond)) return corrupt(err, what); \
  } while (0)

static int little_endian(void) {
  const uint32_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1;
}

static tsift_status read_header(tsift_index *ix, reader *r, tsift_error *err) {
  NEED(str_is(r, TSIFT_RANKER_VERSION), "built for another ranker version (this is " TSIFT_RANKER_VERSION ")");
  NEED(str_is(r, ANALYZER_VERSION), "built by another analyser version");
  NEED(str_is(r, utf8proc_version()), "built with another Unicode version");
  size_t n;
  const char *fp = get_str(r, &n);
  NEED(fp && n == 64, "bad fingerprint");
  for (size_t i = 0; i < 64; i++)
    NEED((fp[i] >= '0' && fp[i] <= '9') || (fp[i] >= 'a' && fp[i] <= 'f'), "bad fingerprint");
  memcpy(ix->fingerprint, fp, 64);
  ix->fingerprint[64] = 0;
  const char *lenient = get_bytes(r, 1);
  NEED(lenient && (unsigned char)*lenient <= 1, "bad id rule");
  ix->lenient_ids = (uint8_t)*lenient;
  NEED(skip_pad(r), "truncated");
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    uint64_t bits = get_u64(r);
    memcpy(&ix->weights[f], &bits, sizeof bits);
    NEED(ix->weights[f] >= 0.0 && ix->weights[f] <= 100.0, "bad field weight");
  }
  uint64_t mc = get_u64(r);
  memcpy(&ix->min_coverage, &mc, sizeof mc);
  NEED(ix->min_coverage >= 0.0 && ix->min_coverage <= 1.0, "bad confidence floor");
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) ix->field_len_sum[f] = get_u64(r);
  uint32_t nstop = get_u32(r);
  NEED(!r->bad && nstop <= r->len, "truncated");
  for (uint32_t i = 0; i < nstop; i++) {
    const char *w = get_str(r, &n);
    NEED(w && n > 0 && n <= 255, "bad stopword");
    if (tsift_tokens_push(&ix->stopwords.words, w, n)) return tsift_nomem(err, "loading a snapshot");
  }
  for (size_t i = 1; i < ix->stopwords.words.count; i++) /* must stay sorted and unique */
    NEED(strcmp(tsift_token(&ix->stopwords.words, i - 1), tsift_token(&ix->stopwords.words, i)) < 0,
         "stopwords out of order");
  NEED(skip_pad(r), "truncated");
  return TSIFT_OK;
}

/* Inside a UTF-8 sequence (a continuation byte): no string may start there. */
static int mid_char(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* A string of the tools' table: an offset inside it (the table ends with a
 * NUL, so every offset starts a terminated string; the table is valid UTF-8
 * and a NUL never sits inside a character, so a string that starts on a
 * character boundary is valid UTF-8 too — found by fuzz_snapshot). */
static const char *string_at(const char *strings, uint32_t nbytes, uint32_t off) {
  return off < nbytes && !mid_char(strings[off]) ? strings + off : NULL;
}

static int labels_at(tsift_labels *l, char **pool, uint32_t nlabels, uint32_t first, uint32_t count) {
  if (first > nlabels || count > nlabels - first) return 0;
  l->items = count ? pool + first : NULL;
  l->count = count;
  return 1;
}

static tsift_status read_tools(tsift_index *ix, reader *r, tsift_error *err) {
  uint32_t n = get_u32(r);
  NEED(!r->bad && n <= r->len / (TOOL_WORDS * 4), "truncated");
  ix->n = n;
  uint32_t nbytes = get_u32(r);
  const char *strings = get_array(r, nbytes, 1);
  NEED(strings, "truncated");
  NEED(n == 0 || (nbytes > 0 && strings[nbytes - 1] == 0), "bad tool strings");
  size_t bad_at;
  NEED(tsift_utf8_valid(strings, nbytes, &bad_at), "tool strings are not UTF-8");
  uint32_t nlabels = get_u32(r);
  const uint32_t *label_off = get_array(r, nlabels, 4);
  NEED(label_off, "truncated");
  const uint32_t *rec = get_array(r, (size_t)n * TOOL_WORDS, 4);
  NEED(rec, "truncated");

  tsift_catalog *c = &ix->catalog;
  c->borrowed = 1;
  c->tools = tsift_calloc_array((size_t)n + 1, sizeof *c->tools);
  c->label_pool = tsift_calloc_array((size_t)nlabels + 1, sizeof *c->label_pool);
  ix->trust = tsift_calloc_array((size_t)n + 1, 1);
  if (!c->tools || !c->label_pool || !ix->trust) return tsift_nomem(err, "loading a snapshot");
  for (uint32_t i = 0; i < nlabels; i++) {
    const char *s = string_at(strings, nbytes, label_off[i]);
    NEED(s && *s, "bad label");
    c->label_pool[i] = (char *)s;
  }
  for (uint32_t d = 0; d < n; d++, rec += TOOL_WORDS) {
    tsift_tool *t = &c->tools[d];
    t->id = (char *)string_at(strings, nbytes, rec[T_ID]);
    t->name = (char *)string_at(strings, nbytes, rec[T_NAME]);
    NEED(t->id && t->name, "bad tool record");
    size_t id_len = strlen(t->id);
    NEED(ix->lenient_ids ? tsift_id_lenient_valid(t->id, id_len) : tsift_id_valid(t->id, id_len), "bad tool id");
    t->title = (char *)string_at(strings, nbytes, rec[T_TITLE]);
    t->description = (char *)string_at(strings, nbytes, rec[T_DESCRIPTION]);
    NEED((t->title || rec[T_TITLE] == NONE) && (t->description || rec[T_DESCRIPTION] == NONE), "bad tool record");
    if (rec[T_SCHEMA] != NONE) {
      NEED(string_at(strings, nbytes, rec[T_SCHEMA]) && rec[T_SCHEMA_LEN] < nbytes - rec[T_SCHEMA] &&
               strings[rec[T_SCHEMA] + rec[T_SCHEMA_LEN]] == 0 && rec[T_SCHEMA_LEN] > 0,
           "bad tool schema");
      t->schema_text = strings + rec[T_SCHEMA];
      t->schema_text_len = rec[T_SCHEMA_LEN];
    }
    NEED(labels_at(&t->tags, c->label_pool, nlabels, rec[T_TAGS], rec[T_NTAGS]) &&
             labels_at(&t->aliases, c->label_pool, nlabels, rec[T_ALIASES], rec[T_NALIASES]) &&
             labels_at(&t->host_tags, c->label_pool, nlabels, rec[T_HOST_TAGS], rec[T_NHOST_TAGS]) &&
             labels_at(&t->host_aliases, c->label_pool, nlabels, rec[T_HOST_ALIASES], rec[T_NHOST_ALIASES]),
         "bad tool labels");
    uint32_t flags = rec[T_FLAGS];
    NEED((flags & 0xFF) <= TSIFT_ORIGIN_A2A && ((flags >> 8) & 0xFF) <= TSIFT_SHAPE_ANTHROPIC &&
             ((flags >> 16) & 0xFF) <= 1 && (flags >> 24) <= 1 && rec[T_RESERVED] == 0,
         "bad tool flags");
    t->origin = (tsift_origin)(flags & 0xFF);
    t->shape = (tsift_shape)((flags >> 8) & 0xFF);
    t->trusted = (uint8_t)((flags >> 16) & 0xFF);
    t->tainted = (uint8_t)(flags >> 24);
    ix->trust[d] = (uint8_t)tsift_trust_of(t);
  }
  c->count = n;
  return TSIFT_OK;
}

static tsift_status read_documents(tsift_index *ix, reader *r, tsift_error *err) {
  size_t nf = ix->n * TSIFT_FIELD_COUNT;
  NEED(ix->field_off = (uint32_t *)get_array(r, nf + 1, 4), "truncated");
  uint32_t nfield_terms = get_u32(r);
  NEED(ix->field_terms = (uint32_t *)get_array(r, nfield_terms, 4), "truncated");
  NEED(offsets_ok(ix->field_off, nf, nfield_terms), "bad field offsets");
  NEED(ix->seq_off = (uint32_t *)get_array(r, 2 * ix->n + 1, 4), "truncated");
  uint32_t nseq = get_u32(r);
  NEED(ix->seq_terms = (uint32_t *)get_array(r, nseq, 4), "truncated");
  NEED(offsets_ok(ix->seq_off, 2 * ix->n, nseq), "bad name offsets");

  uint32_t nterms = get_u32(r);
  NEED(!r->bad && nterms <= r->len, "truncated");
  uint32_t nbytes = get_u32(r);
  const char *bytes = get_array(r, nbytes, 1);
  NEED(bytes, "truncated");
  NEED(ix->term_off = (uint32_t *)get_array(r, nterms, 4), "truncated");
  NEED(ix->term_len = (uint8_t *)get_array(r, nterms, 1), "truncated");
  size_t bad_at;
  NEED(tsift_utf8_valid(bytes, nbytes, &bad_at), "terms are not UTF-8");
  for (uint32_t t = 0; t < nterms; t++) {
    uint32_t off = ix->term_off[t], n = ix->term_len[t];
    NEED(n > 0 && n <= TSIFT_TOKEN_MAX_BYTES && off < nbytes && n < nbytes - off && !mid_char(bytes[off]) &&
             bytes[off + n] == 0 &&
             !memchr(bytes + off, 0, n),
         "bad term");
  }
  ix->term_bytes = (char *)bytes;
  ix->term_bytes_len = ix->term_bytes_cap = nbytes;
  ix->nterms = ix->terms_cap = nterms;
  for (uint32_t i = 0; i < nfield_terms; i++) NEED(ix->field_terms[i] < nterms, "bad term id");
  for (uint32_t i = 0; i < nseq; i++) NEED(ix->seq_terms[i] < nterms, "bad term id");

  NEED(ix->post_off = (uint32_t *)get_array(r, (size_t)nterms + 1, 4), "truncated");
  uint32_t nposts = ix->post_off[nterms];
  NEED(offsets_ok(ix->post_off, nterms, nposts), "bad postings");
  NEED(ix->post = (tsift_posting *)get_array(r, nposts, POSTING_BYTES), "truncated");
  for (uint32_t t = 0; t < nterms; t++) {
    uint32_t prev = 0;
    for (uint32_t p = ix->post_off[t]; p < ix->post_off[t + 1]; p++) {
      const tsift_posting *q = &ix->post[p];
      NEED(q->doc < ix->n && (p == ix->post_off[t] || q->doc > prev), "bad postings");
      prev = q->doc;
      /* six 2-bit fields, none 3 (TSIFT_TF_CLAMP is 2), bits 12..15 zero */
      unsigned tfs = q->tfs;
      NEED(tfs >> (2 * TSIFT_FIELD_COUNT) == 0 && (tfs & (tfs >> 1) & 0x555u) == 0, "bad postings");
    }
  }
  NEED(r->pos == r->len, "unexpected data after the index");
  uint64_t sums[TSIFT_FIELD_COUNT] = {0};
  for (size_t d = 0; d < ix->n; d++)
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
      sums[f] += ix->field_off[d * TSIFT_FIELD_COUNT + f + 1] - ix->field_off[d * TSIFT_FIELD_COUNT + f];
  NEED(memcmp(sums, ix->field_len_sum, sizeof sums) == 0, "field lengths do not add up");
  tsift_index_count_fields(ix); /* derived, not stored: the ranker's average field lengths need it */
  size_t slots = 1024;
  while (slots < (size_t)nterms * 2 + 2) slots *= 2;
  if (tsift_index_rehash(ix, slots) || tsift_dict_letters(ix)) return tsift_nomem(err, "loading a snapshot");
  return TSIFT_OK;
}

/* Magic, format version and checksum, on the bytes as given. */
static tsift_status check_envelope(const char *bytes, size_t len, tsift_error *err) {
  if (len < 8 + 4 + 8 || memcmp(bytes, SNAPSHOT_MAGIC, 8) != 0)
    return corrupt(err, len < 8 ? "truncated (no header)" : "not a toolsift snapshot (wrong magic)");
  uint32_t version = le32((const unsigned char *)bytes + 8);
  if (version != SNAPSHOT_VERSION)
    return tsift_fail(err, TSIFT_E_SNAPSHOT, "snapshot: format version %u, this build reads version %u",
                      version, SNAPSHOT_VERSION);
  if (!little_endian()) return corrupt(err, "this build reads snapshots on little-endian hosts only");
  const unsigned char *tail = (const unsigned char *)bytes + len - 8;
  uint64_t stored = (uint64_t)le32(tail) | (uint64_t)le32(tail + 4) << 32;
  if (tsift_checksum64(bytes, len - 8) != stored) return corrupt(err, "checksum mismatch (truncated or corrupted)");
  return TSIFT_OK;
}

/* The body of a checked blob the index takes over (freed with it, or here
 * when loading fails). */
static tsift_status load_blob(char *blob, size_t len, tsift_index **out, tsift_error *err) {
  tsift_index *ix = tsift_calloc_array(1, sizeof *ix);
  if (!ix) {
    tsift_free(blob);
    return tsift_nomem(err, "loading a snapshot");
  }
  ix->blob = blob; /* malloc's alignment: the arrays inside are 4-aligned */
  tsift_tokens_init(&ix->stopwords.words);
  reader r = {(const unsigned char *)ix->blob, len - 8, 12, 0};
  tsift_status st = read_header(ix, &r, err);
  if (!st) st = read_tools(ix, &r, err);
  if (!st) st = read_documents(ix, &r, err);
  if (st) {
    tsift_index_free(ix);
    return st;
  }
  tsift_ok(err);
  *out = ix;
  return TSIFT_OK;
}

tsift_status tsift_index_from_snapshot(const char *bytes, size_t len, tsift_index **out, tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_from_snapshot: out is NULL");
  *out = NULL;
  if (!bytes && len) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_from_snapshot: bytes are NULL");
  tsift_status st = check_envelope(bytes, len, err);
  if (st) return st;
  char *blob = tsift_alloc_bytes(len);
  if (!blob) return tsift_nomem(err, "loading a snapshot");
  memcpy(blob, bytes, len);
  return load_blob(blob, len, out, err);
}

tsift_status tsift_index_from_snapshot_take(char *bytes, size_t len, tsift_index **out, tsift_error *err) {
  if (!out) {
    tsift_free(bytes);
    return tsift_fail(err, TSIFT_E_ARG, "tsift_index_from_snapshot: out is NULL");
  }
  *out = NULL;
  if (!bytes) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_from_snapshot: bytes are NULL");
  tsift_status st = check_envelope(bytes, len, err);
  if (st) {
    tsift_free(bytes);
    return st;
  }
  return load_blob(bytes, len, out, err);
}

tsift_status tsift_index_verify(const tsift_index *ix, tsift_error *err) {
  if (!ix) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_verify: index is NULL");
  char fp[65];
  tsift_status st = tsift_index_fingerprint(ix, fp, err);
  if (st) return st;
  if (strcmp(fp, ix->fingerprint) != 0) return corrupt(err, "fingerprint does not match the contents");
  tsift_ok(err);
  return TSIFT_OK;
}
