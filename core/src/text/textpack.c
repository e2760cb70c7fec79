/* textpack.c — the word-level dictionary code of the tools' text in
 * snapshots (textpack.h). */
#include "text/textpack.h"

#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "text/text.h"

void tsift_put_varint(tsift_buf *b, uint32_t v) {
  /* Most go straight into room the buffer has (a forward index writes one
   * a token); the rest through x and tsift_buf_append. */
  char x[5], *p = x;
  int room = !b->failed && b->len + sizeof x + 1 <= b->cap;
  if (room) p = b->data + b->len;
  size_t n = 0;
  for (; v >= 128; v >>= 7) p[n++] = (char)((v & 127) | 128);
  p[n++] = (char)v;
  if (!room) {
    tsift_buf_append(b, x, n);
    return;
  }
  b->len += n;
  b->data[b->len] = 0;
}

static int word_byte(unsigned char c) {
  return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* The length of the token at s[0..n) (n > 0). */
static size_t token_len(const char *s, size_t n) {
  size_t i = 0;
  if (word_byte((unsigned char)s[0])) {
    while (i < n && word_byte((unsigned char)s[i])) i++;
    if (i < n && s[i] == ' ') i++;
  } else {
    while (i < n && !word_byte((unsigned char)s[i])) i++;
  }
  return i;
}

/* ---- writing ---------------------------------------------------------- */

typedef struct entry {
  uint32_t off, count, rank; /* rank + 1 in the dictionary, 0 = literal */
  uint8_t len;
} entry;

struct tsift_textpack_writer {
  tsift_buf bytes; /* the distinct tokens */
  entry *e;
  size_t n, cap;
  tsift_hash hash; /* the entries by their token */
  uint32_t *order; /* the dictionary: entry indexes by rank */
  size_t ndict;
};

tsift_textpack_writer *tsift_textpack_writer_new(void) {
  tsift_textpack_writer *w = tsift_calloc_array(1, sizeof *w);
  if (!w) return NULL;
  tsift_buf_init(&w->bytes);
  return w;
}

void tsift_textpack_writer_free(tsift_textpack_writer *w) {
  if (!w) return;
  tsift_buf_free(&w->bytes);
  tsift_free(w->e);
  tsift_hash_free(&w->hash);
  tsift_free(w->order);
  tsift_free(w);
}

/* An entry's token, for the table (hash.h). */
static const char *entry_key(const void *owner, uint32_t k, size_t *len) {
  const tsift_textpack_writer *w = owner;
  *len = w->e[k].len;
  return w->bytes.data + w->e[k].off;
}

int tsift_textpack_count(tsift_textpack_writer *w, const char *s, size_t n) {
  for (size_t at = 0; at < n;) {
    size_t len = token_len(s + at, n - at);
    if (len <= TSIFT_TEXTPACK_TOKEN_MAX) {
      uint32_t h = tsift_fnv1a(s + at, len);
      long k = tsift_hash_find(&w->hash, h, s + at, len, entry_key, w);
      if (k >= 0) {
        w->e[k].count++;
      } else {
        if (tsift_hash_room(&w->hash, w->n + 1, w->n, 1024, entry_key, w)) return -1;
        if (tsift_grow((void **)&w->e, &w->cap, w->n + 1, sizeof *w->e)) return -1;
        entry *e = &w->e[w->n];
        e->off = (uint32_t)w->bytes.len;
        e->len = (uint8_t)len;
        e->count = 1;
        e->rank = 0;
        tsift_buf_append(&w->bytes, s + at, len);
        if (w->bytes.failed) return -1;
        tsift_hash_add(&w->hash, h, (uint32_t)w->n++);
      }
    }
    at += len;
  }
  return 0;
}

static int before(const tsift_textpack_writer *w, uint32_t a, uint32_t b) {
  const entry *x = &w->e[a], *y = &w->e[b];
  if (x->count != y->count) return x->count > y->count;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(w->bytes.data + x->off, w->bytes.data + y->off, n);
  return c ? c < 0 : x->len < y->len;
}

/* Merge sort of v[0..n) by `before` (qsort has no context argument). */
static void sort_entries(const tsift_textpack_writer *w, uint32_t *v, uint32_t *tmp, size_t n) {
  if (n < 2) return;
  size_t h = n / 2;
  sort_entries(w, v, tmp, h);
  sort_entries(w, v + h, tmp, n - h);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = before(w, v[j], v[i]) ? v[j++] : v[i++];
  while (i < h) tmp[k++] = v[i++];
  while (j < n) tmp[k++] = v[j++];
  memcpy(v, tmp, n * sizeof *v);
}

int tsift_textpack_finish(tsift_textpack_writer *w) {
  w->order = tsift_calloc_array(w->n + 1, sizeof *w->order);
  if (!w->order) return -1;
  for (size_t k = 0; k < w->n; k++)
    if (w->e[k].count > 1) w->order[w->ndict++] = (uint32_t)k;
  uint32_t *tmp = tsift_calloc_array(w->ndict + 1, sizeof *tmp);
  if (!tmp) return -1;
  sort_entries(w, w->order, tmp, w->ndict);
  tsift_free(tmp);
  for (size_t r = 0; r < w->ndict; r++) w->e[w->order[r]].rank = (uint32_t)r + 1;
  return 0;
}

static void put_u32(tsift_buf *b, uint32_t v) {
  char x[4] = {(char)(v & 255), (char)((v >> 8) & 255), (char)((v >> 16) & 255), (char)(v >> 24)};
  tsift_buf_append(b, x, 4);
}

void tsift_textpack_write_dict(const tsift_textpack_writer *w, tsift_buf *b) {
  size_t bytes = 0;
  for (size_t r = 0; r < w->ndict; r++) bytes += 1 + w->e[w->order[r]].len;
  put_u32(b, (uint32_t)w->ndict);
  put_u32(b, (uint32_t)bytes);
  for (size_t r = 0; r < w->ndict; r++) {
    const entry *e = &w->e[w->order[r]];
    tsift_buf_putc(b, (char)e->len);
    tsift_buf_append(b, w->bytes.data + e->off, e->len);
  }
}

void tsift_textpack_encode(const tsift_textpack_writer *w, const char *s, size_t n, tsift_buf *b) {
  for (size_t at = 0; at < n;) {
    size_t len = token_len(s + at, n - at);
    long k = len <= TSIFT_TEXTPACK_TOKEN_MAX
                 ? tsift_hash_find(&w->hash, tsift_fnv1a(s + at, len), s + at, len, entry_key, w)
                 : -1;
    if (k >= 0 && w->e[k].rank) {
      tsift_put_varint(b, w->e[k].rank);
    } else {
      tsift_put_varint(b, 0);
      tsift_put_varint(b, (uint32_t)len);
      tsift_buf_append(b, s + at, len);
    }
    at += len;
  }
}

/* ---- reading ---------------------------------------------------------- */

/* Whole UTF-8 characters without NUL. */
static int text_ok(const unsigned char *s, size_t n) {
  size_t bad;
  return n > 0 && !memchr(s, 0, n) && tsift_utf8_valid((const char *)s, n, &bad);
}

size_t tsift_textpack_read_dict(tsift_textpack *tp, const unsigned char *p, size_t len, int *nomem) {
  memset(tp, 0, sizeof *tp);
  *nomem = 0;
  if (len < 8) return 0;
  uint32_t ntok = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  uint32_t nbytes = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
  if (nbytes > len - 8 || ntok > nbytes / 2) return 0;
  tp->off = tsift_calloc_array((size_t)ntok + 1, sizeof *tp->off);
  if (!tp->off) {
    *nomem = 1;
    return 0;
  }
  tp->bytes = p + 8;
  size_t at = 0;
  for (uint32_t i = 0; i < ntok; i++) {
    size_t n = at < nbytes ? tp->bytes[at] : 0;
    if (n == 0 || n > nbytes - at - 1 || !text_ok(tp->bytes + at + 1, n) ||
        (tp->bytes[at + 1] & 0xC0) == 0x80) {
      tsift_textpack_free(tp);
      return 0;
    }
    tp->off[i] = (uint32_t)at + 1;
    at += 1 + n;
  }
  if (at != nbytes) {
    tsift_textpack_free(tp);
    return 0;
  }
  tp->off[ntok] = (uint32_t)at + 1; /* one past the last token: off[i+1] - 1 ends token i */
  tp->ntokens = ntok;
  return 8 + (size_t)nbytes;
}

void tsift_textpack_free(tsift_textpack *tp) {
  tsift_free(tp->off);
  memset(tp, 0, sizeof *tp);
}

/* Token i: bytes[off[i] .. off[i + 1] - 1) (each token has its length byte
 * in front of it). */
static size_t tok_len(const tsift_textpack *tp, uint32_t i) { return tp->off[i + 1] - 1 - tp->off[i]; }

long tsift_textpack_check(const tsift_textpack *tp, const unsigned char *code, size_t n) {
  size_t pos = 0, out = 0;
  while (pos < n) {
    /* Codes of one or two bytes (a dictionary of up to 16,383 tokens) read
     * inline: they are nearly all of them; longer ones by the general reader. */
    uint32_t k = code[pos], len = 0;
    if (k < 128) pos++;
    else if (pos + 1 < n && code[pos + 1] < 128) k = (k & 127u) | (uint32_t)code[pos + 1] << 7, pos += 2;
    else if (tsift_get_varint(code, n, &pos, &k)) return -1;
    if (k) {
      if (k > tp->ntokens) return -1;
      out += tok_len(tp, k - 1);
    } else {
      if (tsift_get_varint(code, n, &pos, &len) || len > n - pos || !text_ok(code + pos, len) ||
          (code[pos] & 0xC0) == 0x80)
        return -1;
      pos += len;
      out += len;
    }
    if (out > 0x7FFFFFFFu) return -1;
  }
  return (long)out;
}

void tsift_textpack_decode(const tsift_textpack *tp, const unsigned char *code, size_t n, char *dst) {
  size_t pos = 0;
  while (pos < n) {
    uint32_t k = 0, len = 0;
    if (code[pos] < 128 && code[pos]) k = code[pos++];
    else tsift_get_varint(code, n, &pos, &k);
    if (k) {
      len = (uint32_t)tok_len(tp, k - 1);
      memcpy(dst, tp->bytes + tp->off[k - 1], len);
    } else {
      tsift_get_varint(code, n, &pos, &len);
      memcpy(dst, code + pos, len);
      pos += len;
    }
    dst += len;
  }
}
