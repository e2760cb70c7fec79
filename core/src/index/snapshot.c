/* snapshot.c — index snapshots (SPEC S11): a versioned binary blob that
 * loads back without re-analysis (edge cold start).
 *
 * Format version 7, compact (version 3 stored every array as it is in
 * memory: 6-byte postings, 4-byte term ids, the schemas as JSON text — a
 * snapshot was larger than its catalog; version 4 had no vectors, version
 * 5 no vocabulary digest, version 6 no postings). All fixed-size integers are
 * little-endian; "v" is a varint (textpack.h).
 *
 *   "TSIFTIDX" magic, u32 format version
 *   str ranker version, str analyser version, str utf8proc version
 *   str fingerprint (64 hex), u8 lenient ids, pad
 *   6 x u64 field weights (IEEE bits), u64 confidence floor (IEEE bits),
 *   6 x u64 field length sums
 *   u32 stopword count, str each, pad
 *   str model id of the vectors ("" = none), u32 dimension (0 = none)
 *   str the vocabulary's digest (64 hex; "" = none: docs/learning.md), pad
 *   u32 n (tools), u32 nterms, u32 labels (all tools'), u32 kept
 *   -- the kept part (bytes 0 .. kept): the index keeps it and reads it in place
 *   u32 byte count + the tools' strings: per tool its id, its name unless it
 *       is the id, its title when it has one, then its labels (tags, aliases,
 *       host tags, host aliases), each NUL-terminated
 *   u32 byte count + the terms in id order, each NUL-terminated
 *   the textpack dictionary of the descriptions and schemas (textpack.h)
 *   u32 byte count + the schemas' codes, tool by tool; pad
 *   -- decoded at load, then dropped, except the descriptions' codes (with
 *      their byte counts), the fields' tokens and the sequences, which the
 *      index keeps as they are (catalog.c, forward.c), moved down next to
 *      the kept part
 *   u32 byte count + a varint stream:
 *     per tool: v flags (bit 0 trusted, 1 tainted, 2 a name other than the
 *       id, 3 a title, 4 a description, 5 a schema, bits 6..7 origin, 8..9
 *       shape), v tags, v aliases, v host tags, v host aliases (counts),
 *       with a vocabulary v host tags and v host aliases of it (the last
 *       ones of those lists), then
 *       with a description v code bytes and the code, with a schema v code
 *       bytes (the code is in the kept part)
 *     the term ids by rank (most tokens first, ties by id): nterms v
 *     per tool the token count of each field: 6 v
 *     the fields' tokens, tool by tool, field by field: v rank each
 *     per tool its name sequence (v count, v rank each), then its id
 *       sequence: v 0 when it is the name's, else v count + 1, v rank each
 *     the postings: v patterns, v each tf pattern (index.h's 12 tf bits;
 *       the ones in use, ascending), v postings in all, then per term
 *       in id order v documents, and per document v its gap (the doc
 *       number minus the one after the term's previous doc; the doc number
 *       for the first), v the index of its pattern
 *   with vectors: the vectors section (snapshot_vectors.h)
 *   u64 checksum (checksum.h) of everything before it
 * "str" is u32 length + bytes; "pad" is zero bytes up to a multiple of 4.
 * Postings are stored (issue 37): decoding them, a sequential pass, takes a
 * fraction of the time deriving them from the fields' tokens takes (a
 * scatter into every term's list), for about 2 bytes a posting (+30 % of a
 * 10k catalog's snapshot); they are dropped from the blob once decoded.
 *
 * Loading checks the checksum first (truncation, corruption), then every
 * count, string, term id and posting, so a crafted blob with a valid checksum
 * still cannot reach out of bounds or produce invalid UTF-8. The
 * descriptions' and schemas' codes are checked to lie within their sections
 * here and to be valid codes when first read (tsift_tool_decode; issue 37:
 * the load does not walk every tool's text). The stored
 * fingerprint is trusted once the checksum matches (re-deriving it costs as
 * much as the rest of the load); tsift_index_verify re-derives it on demand.
 * Descriptions and schemas stay coded until something reads one (catalog.c,
 * tsift_tool_description, tsift_tool_schema), which check the code then. An index holds at most TSIFT_MAX_TOOLS
 * tools (a posting's doc number: index.h); a larger count is refused.
 */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "base/checksum.h"
#include "catalog/ids.h"
#include "index/index.h"
#include "json/json_out.h"
#include "index/snapshot_vectors.h"
#include "text/textpack.h"
#include "index/vectors.h"
#include "utf8proc.h"
#include "json/json_read.h"

#define SNAPSHOT_MAGIC "TSIFTIDX"
#define SNAPSHOT_VERSION 7u
/* Changes whenever analysis (text.c, tool_text.c) would produce other tokens. */
#define ANALYZER_VERSION "text-2"

_Static_assert(TSIFT_FIELD_COUNT == 6, "the format stores six fields");
_Static_assert(TSIFT_TF_CLAMP == 2, "a tf pattern holds tfs of 0..2 (pattern_valid)");

/* Tool flags. */
enum {
  F_TRUSTED = 1, F_TAINTED = 2, F_NAME = 4, F_TITLE = 8, F_DESCRIPTION = 16, F_SCHEMA = 32,
  F_ORIGIN_SHIFT = 6, F_SHAPE_SHIFT = 8, F_ALL = 1023
};

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

static void pad4(tsift_buf *b) {
  while (!b->failed && b->len % 4) tsift_buf_putc(b, 0);
}

static uint64_t double_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

/* The schema text of a tool (built: printed; loaded: decoded), or NULL with
 * *len 0 when it has none. */
static tsift_status schema_text(const tsift_tool *t, char **text, size_t *len, tsift_error *err) {
  *text = NULL;
  *len = 0;
  if (t->schema) {
    if (!(*text = tsift_json_print(t->schema))) return tsift_nomem(err, "writing a snapshot");
    *len = strlen(*text);
  } else if (t->schema_text) {
    return tsift_tool_decode(t, t->schema_text, t->schema_code_len, "schema", text, len, err);
  }
  return TSIFT_OK;
}

static void free_text(const tsift_tool *t, char *text) {
  if (t->schema) cJSON_free(text);
  else tsift_free(text);
}

/* The parts of a snapshot, written tool by tool. */
typedef struct parts {
  tsift_textpack_writer *pack;
  tsift_buf strings, schemas, stream, code;
  size_t nlabels;
} parts;

static void put_cstr(tsift_buf *b, const char *s) { tsift_buf_append(b, s, strlen(s) + 1); }


static tsift_status write_tools(const tsift_index *ix, parts *p, tsift_error *err) {
  for (size_t d = 0; d < ix->n; d++) { /* every text once, for the dictionary */
    const tsift_tool *t = &ix->catalog.tools[d];
    char *text, *owned = NULL;
    const char *desc;
    size_t len, dl;
    tsift_status st = schema_text(t, &text, &len, err);
    if (st) return st;
    if (!(st = tsift_tool_description(t, &desc, &dl, &owned, err)) &&
        ((text && tsift_textpack_count(p->pack, text, len)) || (desc && tsift_textpack_count(p->pack, desc, dl))))
      st = tsift_nomem(err, "writing a snapshot");
    free_text(t, text);
    tsift_free(owned);
    if (st) return st;
  }
  if (tsift_textpack_finish(p->pack)) return tsift_nomem(err, "writing a snapshot");
  for (size_t d = 0; d < ix->n && !p->stream.failed; d++) {
    const tsift_tool *t = &ix->catalog.tools[d];
    char *text, *owned;
    const char *desc;
    size_t len, dl;
    tsift_status st = schema_text(t, &text, &len, err);
    if (st) return st;
    if ((st = tsift_tool_description(t, &desc, &dl, &owned, err))) {
      free_text(t, text);
      return st;
    }
    int other_name = strcmp(t->name, t->id) != 0;
    put_cstr(&p->strings, t->id);
    if (other_name) put_cstr(&p->strings, t->name);
    if (t->title) put_cstr(&p->strings, t->title);
    size_t nl = (size_t)t->nlabels[0] + t->nlabels[1] + t->nlabels[2] + t->nlabels[3];
    for (size_t i = 0; i < nl; i++) put_cstr(&p->strings, t->labels[i]); /* the four lists in order */
    p->nlabels += nl;
    tsift_put_varint(&p->stream, (t->trusted ? F_TRUSTED : 0) | (t->tainted ? F_TAINTED : 0) |
                                     (other_name ? F_NAME : 0) | (t->title ? F_TITLE : 0) |
                                     (desc ? F_DESCRIPTION : 0) | (text ? F_SCHEMA : 0) |
                                     (uint32_t)t->origin << F_ORIGIN_SHIFT | (uint32_t)t->shape << F_SHAPE_SHIFT);
    for (int i = 0; i < 4; i++) tsift_put_varint(&p->stream, t->nlabels[i]);
    if (ix->vocabulary[0]) { /* how many of its host tags and aliases are the vocabulary's */
      const uint8_t *v = ix->catalog.vocab ? ix->catalog.vocab + 2 * d : NULL;
      tsift_put_varint(&p->stream, v ? v[0] : 0);
      tsift_put_varint(&p->stream, v ? v[1] : 0);
    }
    if (desc) {
      p->code.len = 0;
      tsift_textpack_encode(p->pack, desc, dl, &p->code);
      tsift_put_varint(&p->stream, (uint32_t)p->code.len);
      tsift_buf_append(&p->stream, p->code.data, p->code.len);
    }
    if (text) {
      size_t before = p->schemas.len;
      tsift_textpack_encode(p->pack, text, len, &p->schemas);
      tsift_put_varint(&p->stream, (uint32_t)(p->schemas.len - before));
    }
    free_text(t, text);
    tsift_free(owned);
  }
  if (p->strings.failed || p->schemas.failed || p->stream.failed || p->code.failed)
    return tsift_nomem(err, "writing a snapshot");
  if (p->strings.len >= 0xFFFFFFF0u || p->schemas.len >= 0xFFFFFFF0u)
    return tsift_fail(err, TSIFT_E_LIMIT, "snapshot: the tools' text exceeds 4 GiB");
  return TSIFT_OK;
}

/* The documents part of the stream: ranks, field lengths, tokens, sequences,
 * the index's own (forward.c codes the tokens and sequences as they are
 * stored). */
static void write_documents(const tsift_index *ix, tsift_buf *s) {
  for (size_t r = 0; r < ix->nterms; r++) tsift_put_varint(s, ix->by_rank[r]);
  for (size_t i = 0; i < ix->n * TSIFT_FIELD_COUNT; i++) tsift_put_varint(s, ix->field_lens[i]);
  tsift_buf_append(s, (const char *)ix->tok_bytes, ix->tok_at[ix->n]);
  tsift_buf_append(s, (const char *)ix->seq_bytes, ix->seq_at[ix->n]);
}

/* The postings part of the stream: the tf patterns in use (ascending; a
 * catalog uses few of the 3^6, so an index is one byte), then each term's
 * documents as gaps, each with its pattern's index — about 2 bytes a
 * posting. */
static int write_postings(const tsift_index *ix, tsift_buf *s) {
  uint16_t *index_of = tsift_calloc_array(4096, sizeof *index_of);
  uint32_t total = ix->post_off[ix->nterms], npatterns = 0;
  if (!index_of) return -1;
  for (uint32_t i = 0; i < total; i++) index_of[tsift_posting_tfs(&ix->post[i])] = 1;
  for (uint32_t v = 0; v < 4096; v++) npatterns += index_of[v];
  tsift_put_varint(s, npatterns);
  for (uint32_t v = 0, k = 0; v < 4096; v++)
    if (index_of[v]) {
      tsift_put_varint(s, v);
      index_of[v] = (uint16_t)k++;
    }
  tsift_put_varint(s, total);
  for (size_t t = 0; t < ix->nterms; t++) {
    uint32_t a = ix->post_off[t], b = ix->post_off[t + 1], next_doc = 0;
    tsift_put_varint(s, b - a);
    for (uint32_t i = a; i < b; i++) {
      uint32_t d = tsift_posting_doc(&ix->post[i]);
      tsift_put_varint(s, d - next_doc);
      tsift_put_varint(s, index_of[tsift_posting_tfs(&ix->post[i])]);
      next_doc = d + 1;
    }
  }
  tsift_free(index_of);
  return 0;
}

static void put_section(tsift_buf *b, const tsift_buf *part) {
  put_u32(b, (uint32_t)part->len);
  tsift_buf_append(b, part->data, part->len);
}

static void write_header(const tsift_index *ix, tsift_buf *b) {
  tsift_buf_append(b, SNAPSHOT_MAGIC, 8);
  put_u32(b, SNAPSHOT_VERSION);
  put_str(b, TSIFT_RANKER_VERSION, strlen(TSIFT_RANKER_VERSION));
  put_str(b, ANALYZER_VERSION, strlen(ANALYZER_VERSION));
  put_str(b, utf8proc_version(), strlen(utf8proc_version()));
  put_str(b, ix->fingerprint, 64);
  tsift_buf_putc(b, (char)ix->lenient_ids);
  pad4(b);
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) put_u64(b, double_bits(ix->weights[f]));
  put_u64(b, double_bits(ix->min_coverage));
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) put_u64(b, ix->field_len_sum[f]);
  put_u32(b, (uint32_t)ix->stopwords.words.count);
  for (size_t i = 0; i < ix->stopwords.words.count; i++)
    put_str(b, tsift_token(&ix->stopwords.words, i), ix->stopwords.words.len[i]);
  pad4(b);
  put_str(b, ix->vec_model, ix->vec_dim ? strlen(ix->vec_model) : 0);
  put_u32(b, ix->vec_dim);
  pad4(b);
  put_str(b, ix->vocabulary, strlen(ix->vocabulary));
  pad4(b);
}

tsift_status tsift_index_snapshot(const tsift_index *ix, char **out, size_t *out_len, tsift_error *err) {
  if (!ix || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_snapshot: NULL argument");
  *out = NULL;
  parts p;
  memset(&p, 0, sizeof p);
  tsift_buf_init(&p.strings);
  tsift_buf_init(&p.schemas);
  tsift_buf_init(&p.stream);
  tsift_buf_init(&p.code);
  p.pack = tsift_textpack_writer_new();
  tsift_status st = p.pack ? write_tools(ix, &p, err) : tsift_nomem(err, "writing a snapshot");
  if (!st) write_documents(ix, &p.stream);
  if (!st && (write_postings(ix, &p.stream) || p.stream.failed)) st = tsift_nomem(err, "writing a snapshot");
  tsift_buf b;
  tsift_buf_init(&b);
  if (!st) {
    write_header(ix, &b);
    put_u32(&b, (uint32_t)ix->n);
    put_u32(&b, (uint32_t)ix->nterms);
    put_u32(&b, (uint32_t)p.nlabels);
    size_t kept_at = b.len;
    put_u32(&b, 0); /* kept, below */
    put_section(&b, &p.strings);
    put_u32(&b, (uint32_t)ix->term_bytes_len); /* terms in id order, each NUL-terminated */
    tsift_buf_append(&b, ix->term_bytes, ix->term_bytes_len);
    tsift_textpack_write_dict(p.pack, &b);
    put_section(&b, &p.schemas);
    pad4(&b);
    uint32_t kept = (uint32_t)b.len;
    if (!b.failed)
      for (int i = 0; i < 4; i++) b.data[kept_at + i] = (char)(kept >> (8 * i));
    put_section(&b, &p.stream);
    tsift_snapshot_vectors_write(ix, &b);
    if (!b.failed) put_u64(&b, tsift_checksum64(b.data, b.len));
  }
  tsift_textpack_writer_free(p.pack);
  tsift_buf_free(&p.strings);
  tsift_buf_free(&p.schemas);
  tsift_buf_free(&p.stream);
  tsift_buf_free(&p.code);
  if (st) {
    tsift_buf_free(&b);
    return st;
  }
  size_t len = 0;
  *out = tsift_buf_take(&b, &len);
  if (!*out) return tsift_nomem(err, "writing a snapshot");
  if (out_len) *out_len = len;
  return tsift_ok(err);
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

/* The reason alone: the status (`snapshot`) already says what failed, so
 * the CLIs print "toolsift: snapshot: checksum mismatch …", not the word twice. */
static tsift_status corrupt(tsift_error *err, const char *what) {
  return tsift_fail(err, TSIFT_E_SNAPSHOT, "%s", what);
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
  const char *model = get_str(r, &n);
  uint32_t dim = get_u32(r);
  NEED(model && !r->bad && skip_pad(r), "truncated");
  NEED(dim <= TSIFT_VEC_MAX_DIM && (dim ? tsift_model_id_valid(model, n) : n == 0), "bad vectors header");
  memcpy(ix->vec_model, model, n);
  ix->vec_model[n] = 0;
  ix->vec_dim = dim;
  const char *vocab = get_str(r, &n);
  NEED(vocab && !r->bad && skip_pad(r), "truncated");
  NEED(n == 0 || n == 64, "bad vocabulary digest");
  for (size_t i = 0; i < n; i++)
    NEED((vocab[i] >= '0' && vocab[i] <= '9') || (vocab[i] >= 'a' && vocab[i] <= 'f'), "bad vocabulary digest");
  memcpy(ix->vocabulary, vocab, n);
  ix->vocabulary[n] = 0;
  return TSIFT_OK;
}

/* The next NUL-terminated string of a section, or NULL past its end. */
static const char *next_string(const char *sec, uint32_t nbytes, uint32_t *at) {
  if (*at >= nbytes) return NULL;
  const char *s = sec + *at, *end = memchr(s, 0, nbytes - *at);
  if (!end) return NULL;
  *at += (uint32_t)(end - s) + 1;
  return s;
}

/* A section: u32 byte count, then the bytes. */
static const char *get_section(reader *r, uint32_t *nbytes) {
  *nbytes = get_u32(r);
  return r->bad ? NULL : get_bytes(r, *nbytes);
}

/* The varint stream of the decoded part. */
typedef struct stream {
  const unsigned char *p;
  size_t len, pos;
  int bad;
} stream;

/* The varint at p[*pos..len) as tsift_get_varint reads it, with its
 * one-byte case inline: for the loops over every token and posting, which
 * keep their position in a local. */
static inline __attribute__((always_inline)) int varint_at(const unsigned char *p, size_t len, size_t *pos, uint32_t *v) {
  if (*pos < len && p[*pos] < 128) {
    *v = p[(*pos)++];
    return 0;
  }
  if (len - *pos >= 2 && p[*pos + 1] < 128) { /* and the two-byte one */
    *v = (p[*pos] & 127u) | (uint32_t)p[*pos + 1] << 7;
    *pos += 2;
    return 0;
  }
  return tsift_get_varint(p, len, pos, v);
}

static uint32_t next(stream *s) {
  uint32_t v = 0;
  if (!s->bad && varint_at(s->p, s->len, &s->pos, &v)) s->bad = 1;
  return s->bad ? 0 : v;
}

/* Where read_tools is in the tools' strings, labels and schemas' codes. */
typedef struct texts {
  const char *strings;
  uint32_t nstrings, at;
  const unsigned char *schemas;
  uint32_t nschemas, schema_at;
  uint32_t nlabels, label_at;
} texts;

/* The tool's four label lists, of n[i] labels each, from the pool. */
static int labels_next(tsift_tool *t, tsift_catalog *c, texts *x, const uint32_t n[4]) {
  uint32_t count = 0;
  for (int i = 0; i < 4; i++) {
    if (n[i] > TSIFT_LIST_LABELS_MAX) return 0;
    t->nlabels[i] = (uint8_t)n[i];
    count += n[i];
  }
  if (count > x->nlabels - x->label_at) return 0;
  t->labels = count ? c->label_pool + x->label_at : NULL;
  for (uint32_t i = 0; i < count; i++) {
    const char *s = next_string(x->strings, x->nstrings, &x->at);
    if (!s || !*s) return 0;
    c->label_pool[x->label_at++] = (char *)s;
  }
  return 1;
}

/* One tool's record, strings and codes; t->desc is left at its
 * description's byte count and code in the stream (load_blob moves them). */
static tsift_status read_tool(tsift_index *ix, tsift_tool *t, stream *s, texts *x, tsift_error *err) {
  uint32_t flags = next(s);
  NEED(!s->bad && flags <= F_ALL && (flags >> F_ORIGIN_SHIFT & 3) <= TSIFT_ORIGIN_A2A, "bad tool flags");
  t->origin = (tsift_origin)(flags >> F_ORIGIN_SHIFT & 3);
  t->shape = (tsift_shape)(flags >> F_SHAPE_SHIFT & 3);
  t->trusted = (flags & F_TRUSTED) != 0;
  t->tainted = (flags & F_TAINTED) != 0;
  t->id = (char *)next_string(x->strings, x->nstrings, &x->at);
  NEED(t->id, "bad tool record");
  size_t id_len = strlen(t->id);
  NEED(ix->lenient_ids ? tsift_id_lenient_valid(t->id, id_len) : tsift_id_valid(t->id, id_len), "bad tool id");
  t->name = flags & F_NAME ? (char *)next_string(x->strings, x->nstrings, &x->at) : t->id;
  NEED(t->name, "bad tool record");
  if (flags & F_TITLE) NEED(t->title = (char *)next_string(x->strings, x->nstrings, &x->at), "bad tool record");
  uint32_t nl[4];
  for (int i = 0; i < 4; i++) nl[i] = next(s);
  NEED(!s->bad && labels_next(t, &ix->catalog, x, nl), "bad tool labels");
  if (ix->vocabulary[0]) {
    uint32_t vt = next(s), va = next(s);
    NEED(!s->bad && vt <= t->nlabels[TSIFT_HOST_TAGS] && va <= t->nlabels[TSIFT_HOST_ALIASES], "bad tool labels");
    size_t d = (size_t)(t - ix->catalog.tools);
    ix->catalog.vocab[2 * d] = (uint8_t)vt;
    ix->catalog.vocab[2 * d + 1] = (uint8_t)va;
  }
  t->pack = &ix->pack;
  if (flags & F_DESCRIPTION) {
    size_t at = s->pos;
    uint32_t n = next(s);
    NEED(!s->bad && n <= s->len - s->pos, "bad tool description");
    /* whether it is a valid code: checked when first read (tsift_tool_decode) */
    t->desc = (char *)s->p + at;
    s->pos += n;
  }
  if (flags & F_SCHEMA) {
    uint32_t n = next(s);
    NEED(!s->bad && n > 0 && n <= x->nschemas - x->schema_at, "bad tool schema");
    t->schema_text = (const char *)x->schemas + x->schema_at;
    t->schema_code_len = n;
    x->schema_at += n;
  }
  return TSIFT_OK;
}

static tsift_status read_tools(tsift_index *ix, stream *s, texts *x, tsift_error *err) {
  tsift_catalog *c = &ix->catalog;
  c->borrowed = 1;
  c->tools = tsift_calloc_array(ix->n + 1, sizeof *c->tools);
  c->label_pool = tsift_calloc_array((size_t)x->nlabels + 1, sizeof *c->label_pool);
  ix->trust = tsift_calloc_array(ix->n + 1, 1);
  if (ix->vocabulary[0]) c->vocab = tsift_calloc_array(2 * ix->n + 1, 1);
  tsift_status st = TSIFT_OK;
  if (!c->tools || !c->label_pool || !ix->trust || (ix->vocabulary[0] && !c->vocab))
    st = tsift_nomem(err, "loading a snapshot");
  for (size_t d = 0; d < ix->n && !st; d++) {
    st = read_tool(ix, &c->tools[d], s, x, err);
    ix->trust[d] = (uint8_t)tsift_trust_of(&c->tools[d]);
    c->count = d + 1;
  }
  if (!st && (x->at != x->nstrings || x->label_at != x->nlabels || x->schema_at != x->nschemas))
    st = corrupt(err, "bad tool strings");
  return st;
}

/* The varints that end in the eight bytes of w (little-endian: load_blob),
 * which starts at a varint's first byte: at most `most` of them, none after
 * a varint of three bytes or more (two continuation bytes in a row), whose
 * bytes are *took; 0 when no such varint ends in it. */
static unsigned short_varints(uint64_t w, size_t most, size_t *took) {
  const uint64_t high = 0x8080808080808080u;
  uint64_t ends = ~w & high, cont = w & high, pairs = cont & cont << 8;
  if (pairs) /* bytes j-1 and j continue a varint: it starts after byte j-2's end at the latest */
    ends &= ((uint64_t)1 << 8 * ((__builtin_ctzll(pairs) >> 3) - 1)) - 1;
  unsigned k = tsift_high_bytes(ends);
  for (; k > most; k--) ends &= ~((uint64_t)1 << (63 - __builtin_clzll(ends))); /* the last one off */
  if (!ends) return 0;
  *took = ((unsigned)(63 - __builtin_clzll(ends)) >> 3) + 1;
  return k;
}

/* n varints, each a rank below nterms; 0 when one is bad. When every
 * varint of one or two bytes is a rank (nterms >= 2^14) they go eight
 * bytes a step, without decoding: the reader's branch on each varint's
 * length mispredicted on most tokens (24 % of a native 10k load). */
static int check_ranks(stream *s, uint32_t nterms, size_t n) {
  size_t pos = s->pos; /* a local, not the stream's: this loop reads every token */
  uint32_t r = 0;
  int words = nterms >= 1u << 14;
  while (n > 0) {
    uint64_t w;
    size_t took = 0;
    unsigned k = 0;
    if (words && s->len - pos >= 8) k = short_varints((memcpy(&w, s->p + pos, 8), w), n, &took);
    if (k) {
      pos += took;
      n -= k;
    } else if (!varint_at(s->p, s->len, &pos, &r) && r < nterms) {
      n--;
    } else {
      break;
    }
  }
  s->pos = pos;
  s->bad |= n > 0;
  return n == 0;
}

/* The name and id sequences, checked (at most TSIFT_SEQ_TOKENS_MAX tokens,
 * as analysis makes them) and left in place in the stream, after the
 * fields' tokens (ix->seq_bytes; load_blob moves them with the tokens). */
static tsift_status read_sequences(tsift_index *ix, stream *s, tsift_error *err) {
  ix->seq_at = tsift_calloc_array(ix->n + 1, sizeof *ix->seq_at);
  if (!ix->seq_at) return tsift_nomem(err, "loading a snapshot");
  size_t start = s->pos;
  for (size_t d = 0; d < ix->n; d++) {
    ix->seq_at[d] = (uint32_t)(s->pos - start);
    uint32_t nn = next(s);
    NEED(!s->bad && nn <= TSIFT_SEQ_TOKENS_MAX && check_ranks(s, (uint32_t)ix->nterms, nn), "bad name sequence");
    uint32_t ni = next(s);
    NEED(!s->bad && (ni == 0 || ni - 1 <= TSIFT_SEQ_TOKENS_MAX) &&
             check_ranks(s, (uint32_t)ix->nterms, ni ? ni - 1 : 0), "bad id sequence");
  }
  ix->seq_at[ix->n] = (uint32_t)(s->pos - start);
  ix->seq_bytes = s->p + start;
  return TSIFT_OK;
}

/* The term ids by rank (a permutation): the index keeps it (ix->by_rank)
 * and its inverse. */
static tsift_status read_rank_table(tsift_index *ix, stream *s, tsift_error *err) {
  uint8_t *seen = tsift_calloc_array(ix->nterms + 1, 1);
  ix->by_rank = tsift_calloc_array(ix->nterms + 1, sizeof *ix->by_rank);
  if (!seen || !ix->by_rank) {
    tsift_free(seen);
    return tsift_nomem(err, "loading a snapshot");
  }
  for (size_t r = 0; r < ix->nterms; r++) {
    uint32_t t = next(s);
    if (s->bad || t >= ix->nterms || seen[t]) {
      tsift_free(seen);
      return corrupt(err, "bad term ranks");
    }
    seen[t] = 1;
    ix->by_rank[r] = t;
  }
  tsift_free(seen);
  return tsift_forward_rank_of(ix) ? tsift_nomem(err, "loading a snapshot") : TSIFT_OK;
}

/* The field lengths (each within its field's cap) and the fields' tokens,
 * checked and left in place in the stream (ix->tok_bytes; load_blob moves
 * them next to the kept part). */
static tsift_status read_fields(tsift_index *ix, stream *s, tsift_error *err) {
  size_t nf = ix->n * TSIFT_FIELD_COUNT;
  ix->field_lens = tsift_calloc_array(nf + 1, 1);
  ix->tok_at = tsift_calloc_array(ix->n + 1, sizeof *ix->tok_at);
  if (!ix->field_lens || !ix->tok_at) return tsift_nomem(err, "loading a snapshot");
  uint64_t total = 0, sums[TSIFT_FIELD_COUNT] = {0};
  for (size_t i = 0; i < nf; i++) {
    uint32_t n = next(s);
    NEED(!s->bad && n <= tsift_field_token_caps[i % TSIFT_FIELD_COUNT], "bad field lengths");
    ix->field_lens[i] = (uint8_t)n;
    total += n;
    sums[i % TSIFT_FIELD_COUNT] += n;
  }
  NEED(memcmp(sums, ix->field_len_sum, sizeof sums) == 0, "field lengths do not add up");
  NEED(total <= s->len - s->pos, "bad field lengths"); /* a token takes a byte at least */
  size_t start = s->pos;
  for (size_t d = 0; d < ix->n; d++) {
    ix->tok_at[d] = (uint32_t)(s->pos - start);
    size_t count = 0;
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) count += ix->field_lens[d * TSIFT_FIELD_COUNT + f];
    NEED(check_ranks(s, (uint32_t)ix->nterms, count), "bad term id");
  }
  ix->tok_at[ix->n] = (uint32_t)(s->pos - start);
  ix->tok_bytes = s->p + start;
  return TSIFT_OK;
}

/* A tf pattern: each field's tf at most the clamp (two bits, never 3), one
 * field at least. */
static int pattern_valid(uint32_t v) { return v > 0 && v < 4096 && (v & (v >> 1) & 0x555u) == 0; }

/* The postings (write_postings), decoded into the index's own array: each
 * document below n and after the term's one before, each pattern valid and
 * the counts adding up. Postings are consistent with the fields' tokens in
 * every blob a build wrote; a crafted one that is not ranks oddly, never
 * out of bounds. */
static tsift_status read_postings(tsift_index *ix, stream *s, tsift_error *err) {
  uint32_t patterns[729], npatterns = next(s); /* 3^6 patterns at most */
  NEED(!s->bad && npatterns <= 729, "bad postings");
  for (uint32_t k = 0; k < npatterns; k++) NEED(pattern_valid(patterns[k] = next(s)) && !s->bad, "bad postings");
  uint32_t total = next(s), at = 0;
  NEED(!s->bad && total <= (s->len - s->pos) / 2, "bad postings"); /* 2 bytes a posting at least */
  ix->post_off = tsift_calloc_array(ix->nterms + 1, sizeof *ix->post_off);
  ix->post = tsift_calloc_array((size_t)total + 1, sizeof *ix->post);
  if (!ix->post_off || !ix->post) return tsift_nomem(err, "loading a snapshot");
  size_t n = ix->n, len = s->len;
  const unsigned char *p = s->p;
  tsift_posting *post = ix->post;
  for (size_t t = 0; t < ix->nterms; t++) {
    uint32_t count = next(s), doc = 0, gap, k;
    NEED(!s->bad && count <= total - at, "bad postings");
    size_t pos = s->pos; /* a local in the loop over every posting */
    for (; count > 0; count--) {
      if (len - pos >= 2 && (p[pos] | p[pos + 1]) < 128) { /* most postings: a byte each */
        gap = p[pos];
        k = p[pos + 1];
        pos += 2;
      } else {
        NEED(!tsift_get_varint(p, len, &pos, &gap) && !tsift_get_varint(p, len, &pos, &k), "bad postings");
      }
      NEED(gap < n - doc && k < npatterns, "bad postings");
      doc += gap;
      post[at++].bits = doc++ << 12 | patterns[k];
    }
    s->pos = pos;
    ix->post_off[t + 1] = at;
  }
  NEED(at == total, "bad postings");
  return TSIFT_OK;
}

static tsift_status read_documents(tsift_index *ix, stream *s, tsift_error *err) {
  tsift_status st = read_rank_table(ix, s, err);
  if (!st) st = read_fields(ix, s, err);
  if (!st) st = read_sequences(ix, s, err);
  if (!st) st = read_postings(ix, s, err);
  if (!st && s->pos != s->len) st = corrupt(err, "unexpected data after the index");
  return st;
}

/* The terms (ids in order, NUL-terminated) read in place. */
static tsift_status read_terms(tsift_index *ix, const char *bytes, uint32_t nbytes, uint32_t nterms, tsift_error *err) {
  size_t bad_at;
  NEED(tsift_utf8_valid(bytes, nbytes, &bad_at), "terms are not UTF-8");
  NEED(nterms <= nbytes / 2, "bad terms");
  ix->term_off = tsift_calloc_array((size_t)nterms + 1, sizeof *ix->term_off);
  ix->term_len = tsift_calloc_array((size_t)nterms + 1, 1);
  if (!ix->term_off || !ix->term_len) return tsift_nomem(err, "loading a snapshot");
  uint32_t at = 0;
  for (uint32_t t = 0; t < nterms; t++) {
    const char *s = next_string(bytes, nbytes, &at);
    NEED(s && *s && strlen(s) <= TSIFT_TOKEN_MAX_BYTES, "bad term");
    ix->term_off[t] = (uint32_t)(s - bytes);
    ix->term_len[t] = (uint8_t)strlen(s);
  }
  NEED(at == nbytes, "bad terms");
  ix->term_bytes = (char *)bytes;
  ix->term_bytes_len = ix->term_bytes_cap = nbytes;
  ix->nterms = ix->terms_cap = nterms;
  return TSIFT_OK;
}

/* The kept part, located and checked; the stream after it. */
static tsift_status read_kept(tsift_index *ix, reader *r, texts *x, stream *s, tsift_error *err) {
  uint32_t n = get_u32(r), nterms = get_u32(r), nlabels = get_u32(r), kept = get_u32(r);
  if (!r->bad && n > TSIFT_MAX_TOOLS) /* no build writes it (index.c refuses the catalog) */
    return tsift_fail(err, TSIFT_E_SNAPSHOT, "%u tools, an index holds at most %u", n, TSIFT_MAX_TOOLS);
  NEED(!r->bad && n <= r->len && nlabels <= r->len && kept >= r->pos && kept <= r->len && kept % 4 == 0,
       "truncated");
  ix->n = n;
  x->nlabels = nlabels;
  x->strings = get_section(r, &x->nstrings);
  NEED(x->strings && (x->nstrings == 0 || x->strings[x->nstrings - 1] == 0), "bad tool strings");
  size_t bad_at;
  NEED(tsift_utf8_valid(x->strings, x->nstrings, &bad_at), "tool strings are not UTF-8");
  uint32_t nbytes;
  const char *terms = get_section(r, &nbytes);
  NEED(terms, "truncated");
  tsift_status st = read_terms(ix, terms, nbytes, nterms, err);
  if (st) return st;
  int nomem;
  size_t used = tsift_textpack_read_dict(&ix->pack, r->p + r->pos, r->len - r->pos, &nomem);
  if (nomem) return tsift_nomem(err, "loading a snapshot");
  NEED(used, "bad text dictionary");
  r->pos += used;
  x->schemas = (const unsigned char *)get_section(r, &x->nschemas);
  NEED(x->schemas && skip_pad(r) && r->pos == kept, "truncated");
  uint32_t nstream;
  s->p = (const unsigned char *)get_section(r, &nstream);
  NEED(s->p, "truncated");
  s->len = nstream;
  if (ix->vec_dim) {
    uint32_t nvec;
    const unsigned char *vec = (const unsigned char *)get_section(r, &nvec);
    NEED(vec, "truncated vectors");
    if ((st = tsift_snapshot_vectors_read(ix, vec, nvec, err))) return st;
  }
  NEED(r->pos == r->len, "unexpected data after the index");
  return TSIFT_OK;
}

/* Give back the decoded part of the blob (its first `kept` bytes stay):
 * re-point what lives in it when the allocator moved it. */
static int shrink_blob(tsift_index *ix, size_t kept, uint32_t nlabels) {
  char *old = ix->blob, *p = tsift_realloc_bytes(old, kept);
  if (!p) return -1; /* (the blob is whole: out of memory is still an error) */
  if (p == old) return 0;
  uintptr_t from = (uintptr_t)old;
#define REBASE(ptr) ((ptr) = (void *)(p + ((uintptr_t)(ptr) - from)))
  ix->blob = p;
  REBASE(ix->term_bytes);
  REBASE(ix->pack.bytes);
  REBASE(ix->tok_bytes);
  REBASE(ix->seq_bytes);
  if (ix->vec_q_in_blob) REBASE(ix->vec_q);
  tsift_catalog *c = &ix->catalog;
  for (size_t d = 0; d < c->count; d++) {
    tsift_tool *t = &c->tools[d];
    int same = t->name == t->id;
    REBASE(t->id);
    t->name = same ? t->id : t->name;
    if (!same) REBASE(t->name);
    if (t->title) REBASE(t->title);
    if (t->desc) REBASE(t->desc);
    if (t->schema_text) REBASE(t->schema_text);
  }
  for (uint32_t i = 0; i < nlabels; i++) REBASE(c->label_pool[i]);
#undef REBASE
  return 0;
}

/* Magic, format version and checksum, on the bytes as given. */
static tsift_status check_envelope(const char *bytes, size_t len, tsift_error *err) {
  if (len < 8 + 4 + 8 || memcmp(bytes, SNAPSHOT_MAGIC, 8) != 0)
    return corrupt(err, len < 8 ? "truncated (no header)" : "not a toolsift snapshot (wrong magic)");
  uint32_t version = le32((const unsigned char *)bytes + 8);
  if (version != SNAPSHOT_VERSION)
    return tsift_fail(err, TSIFT_E_SNAPSHOT, "format version %u, this build reads version %u",
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
  texts x;
  memset(&x, 0, sizeof x);
  stream s = {0};
  tsift_status st = read_header(ix, &r, err);
  if (!st) st = read_kept(ix, &r, &x, &s, err);
  if (!st) st = read_tools(ix, &s, &x, err);
  if (!st) st = read_documents(ix, &s, err);
  if (!st) {
    /* The descriptions' counts and codes stay, moved down next to the kept
     * part in tool order (each lands at or below where it was, after the
     * ones before it); then the fields' tokens and the sequences after them,
     * with TSIFT_FORWARD_PAD bytes more (the checksum at least follows
     * them); the rest of the stream is given back. */
    size_t kept = (size_t)(x.schemas - (const unsigned char *)ix->blob) + x.nschemas;
    for (size_t d = 0; d < ix->n; d++) {
      tsift_tool *t = &ix->catalog.tools[d];
      if (!t->desc) continue;
      const char *code;
      uint32_t n;
      size_t bytes = tsift_tool_desc_code(t, &code, &n);
      memmove(ix->blob + kept, t->desc, bytes);
      t->desc = ix->blob + kept;
      kept += bytes;
    }
    size_t nseq = ix->seq_at[ix->n], ntok = ix->tok_at[ix->n] + nseq + TSIFT_FORWARD_PAD;
    memmove(ix->blob + kept, ix->tok_bytes, ntok);
    ix->tok_bytes = (const unsigned char *)ix->blob + kept;
    ix->seq_bytes = ix->tok_bytes + ix->tok_at[ix->n];
    /* the vectors' rows (the section at the end) stay too, moved after them */
    size_t nvec = ix->vec_q_in_blob ? ix->n * (size_t)ix->vec_dim : 0;
    if (nvec) {
      memmove(ix->blob + kept + ntok, ix->vec_q, nvec);
      ix->vec_q = (int8_t *)(ix->blob + kept + ntok);
    }
    tsift_index_count_fields(ix); /* derived, not stored */
    if (shrink_blob(ix, kept + ntok + nvec, x.nlabels) || tsift_dict_hash(ix) || tsift_dict_letters(ix) || tsift_index_derive(ix))
      st = tsift_nomem(err, "loading a snapshot");
  }
  /* menu names are made again by the build's rule, not stored (once the
   * ids have their final place) */
  if (!st) st = tsift_catalog_name_tools(&ix->catalog, ix->lenient_ids ? TSIFT_IDS_LENIENT : TSIFT_IDS_STRICT, err);
  if (st) {
    tsift_index_free(ix);
    return st;
  }
  *out = ix;
  return tsift_ok(err);
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

/* 1 when the index's postings are the ones its documents give (a loaded
 * index's are stored: format 7), 0 when not, -1 when out of memory. */
static int postings_match(const tsift_index *ix) {
  tsift_index derived = *ix; /* the documents and dictionary shared, read only */
  derived.post_off = NULL;
  derived.post = NULL;
  int same = -1;
  if (!tsift_index_postings(&derived))
    same = memcmp(derived.post_off, ix->post_off, (ix->nterms + 1) * sizeof *ix->post_off) == 0 &&
           memcmp(derived.post, ix->post, ix->post_off[ix->nterms] * sizeof *ix->post) == 0;
  TSIFT_FREE_ALL(derived.post_off, derived.post);
  return same;
}

tsift_status tsift_index_verify(const tsift_index *ix, tsift_error *err) {
  if (!ix) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_verify: index is NULL");
  char fp[65];
  tsift_status st = tsift_index_fingerprint(ix, fp, err);
  if (st) return st;
  if (strcmp(fp, ix->fingerprint) != 0) return corrupt(err, "fingerprint does not match the contents");
  int same = postings_match(ix);
  if (same < 0) return tsift_nomem(err, "verifying an index");
  if (!same) return corrupt(err, "postings do not match the documents");
  return tsift_ok(err);
}
