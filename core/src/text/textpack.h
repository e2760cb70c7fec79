/* textpack.h — a word-level dictionary code for the tools' text in snapshots
 * (SPEC S11): descriptions and schemas (their compact JSON text). Internal to
 * the core.
 *
 * A text is cut into tokens — a run of word bytes (ASCII letters, digits,
 * '_', and every byte >= 0x80, so a UTF-8 character is never cut) with at
 * most one space after it, or a run of other bytes — and each token becomes
 * one varint: k >= 1 is token k-1 of the dictionary, 0 is a literal (varint
 * byte count, then the bytes). The dictionary holds the tokens that occur at
 * least twice in all the texts, most frequent first (ties by bytes), so the
 * common words of a catalog cost one byte. Decoding is concatenation; the
 * tokens and literals are whole UTF-8 characters without NUL, so a checked
 * code decodes to valid UTF-8 without NUL. */
#ifndef TSIFT_TEXTPACK_H
#define TSIFT_TEXTPACK_H

#include <stddef.h>
#include <stdint.h>

#include "json/json_out.h"

#define TSIFT_TEXTPACK_TOKEN_MAX 255 /* longer tokens are always literals */

/* A dictionary as read from a snapshot: token i is
 * bytes[off[i] .. off[i + 1]). */
typedef struct tsift_textpack {
  const unsigned char *bytes;
  uint32_t *off; /* ntokens + 1, owned */
  uint32_t ntokens;
} tsift_textpack;

/* Writing: collect every text once (tsift_textpack_count), then write the
 * dictionary (tsift_textpack_write_dict) and each text's code
 * (tsift_textpack_encode), in any order. */
typedef struct tsift_textpack_writer tsift_textpack_writer;
tsift_textpack_writer *tsift_textpack_writer_new(void);
void tsift_textpack_writer_free(tsift_textpack_writer *w);
/* -1 when out of memory. */
int tsift_textpack_count(tsift_textpack_writer *w, const char *s, size_t n);
/* Ranks the tokens; -1 when out of memory. */
int tsift_textpack_finish(tsift_textpack_writer *w);
/* u32 token count, u32 byte count, then per token a u8 length and its bytes. */
void tsift_textpack_write_dict(const tsift_textpack_writer *w, tsift_buf *b);
void tsift_textpack_encode(const tsift_textpack_writer *w, const char *s, size_t n, tsift_buf *b);

/* Reading: the dictionary at p[0..len) (its tokens checked: 1..255 bytes,
 * UTF-8, no NUL, whole characters); the bytes it used, 0 when it is bad or
 * out of memory (*nomem set). */
size_t tsift_textpack_read_dict(tsift_textpack *tp, const unsigned char *p, size_t len, int *nomem);
void tsift_textpack_free(tsift_textpack *tp);
/* Check code[0..n): every varint whole, every token known, every literal
 * non-empty, UTF-8, without NUL; the decoded byte count, or -1. */
long tsift_textpack_check(const tsift_textpack *tp, const unsigned char *code, size_t n);
/* Decode a checked code into dst (room for its decoded byte count). */
void tsift_textpack_decode(const tsift_textpack *tp, const unsigned char *code, size_t n, char *dst);

/* Varints (LEB128, at most 5 bytes for a u32). */
void tsift_put_varint(tsift_buf *b, uint32_t v);
/* The varint at p[*pos..len), advancing *pos; -1 when it is cut or too long. */
static inline int tsift_get_varint(const unsigned char *p, size_t len, size_t *pos, uint32_t *v) {
  uint32_t x = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (*pos >= len) return -1;
    unsigned char c = p[(*pos)++];
    if (shift == 28 && c > 15) return -1;
    x |= (uint32_t)(c & 127) << shift;
    if (!(c & 128)) {
      *v = x;
      return 0;
    }
  }
  return -1;
}

#endif
