/* vocab.c — the table of tool vocabulary and its lookup: cross-lingual
 * keys (German, French, Spanish, Japanese, Chinese words → English words)
 * and English synonym groups (each member a key whose expansions are the
 * group's other members; a group's line of targets starts with '~').
 *
 * The table (vocab_table.h, generated from vocab.txt by
 * scripts/gen-vocab.mjs) is one sorted packed string of analysed keys. A key
 * is a word, a phrase (tokens joined by one space: "mot de pass"), a word of
 * a script without spaces (the characters its overlapping bigrams spell:
 * "ファイル" is the tokens ファ ァイ イル), or a stem ("lösch*" matches every
 * token that starts with "lösch"). Lookup walks the query's tokens left to
 * right and takes the longest key that starts at each token (a stem only
 * when no key does); the tokens of a match are not looked up again. Only
 * integer and byte logic: identical natively and in WebAssembly. */
#include "text/vocab.h"

#include <string.h>

#include "base/alloc.h"
#include "utf8proc.h"
#include "text/vocab_table.h"

#define KEYS ((const char *)VOCAB_KEYS) /* a pointer: KEYS + i is not -Wstring-plus-int */
#define KEYS_LEN (sizeof VOCAB_KEYS - 1)
#define NONE ((size_t)-1)
#define SPAN_MAX 8 /* tokens one key may span */
#define STEM_MIN 4 /* bytes a stem shares with the token at least */

/* Scripts without spaces, where the analyser makes bigrams (text.c). */
static int is_cjk(const char *s, size_t n) {
  utf8proc_int32_t c = -1;
  utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &c);
  return (c >= 0x0E00 && c <= 0x0E7F) || (c >= 0x1100 && c <= 0x11FF) ||
         (c >= 0x2E80 && c <= 0xA97F) || (c >= 0xAC00 && c <= 0xD7FF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF66 && c <= 0xFF9F) || c >= 0x20000;
}

/* Length of the key of the entry at e (up to its '=' or '*'). */
static size_t key_len(size_t e) {
  size_t i = e;
  while (KEYS[i] != '=' && KEYS[i] != '*') i++;
  return i - e;
}

/* Start of the first entry whose key is >= p[0..n) in byte order (KEYS_LEN
 * when none). */
static size_t lower_bound(const char *p, size_t n) {
  size_t lo = 0, hi = KEYS_LEN;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    while (m > lo && KEYS[m - 1] != '\n') m--;
    size_t kl = key_len(m);
    int c = memcmp(KEYS + m, p, kl < n ? kl : n);
    if (c < 0 || (c == 0 && kl < n)) {
      lo = m;
      while (KEYS[lo] != '\n') lo++;
      lo++;
    } else {
      hi = m;
    }
  }
  return lo;
}

/* The entry of the longest key made of tokens i, i+1, …; its token count
 * goes to *span. A Latin token that starts no key may match a stem. */
static size_t match_at(const tsift_tokens *t, size_t i, size_t *span) {
  char buf[SPAN_MAX * 256];
  size_t n = 0, best = NONE, first = KEYS_LEN;
  const char *s0 = tsift_token(t, i);
  int cjk = is_cjk(s0, t->len[i]);
  for (size_t m = 0; m < SPAN_MAX && i + m < t->count; m++) {
    const char *s = tsift_token(t, i + m);
    size_t len = t->len[i + m];
    if (m && is_cjk(s, len) != cjk) break;
    if (m && cjk) {
      /* the next bigram continues the run when it starts with our last character */
      size_t c1 = 1; /* bytes of its first character */
      while (c1 < len && ((unsigned char)s[c1] & 0xC0) == 0x80) c1++;
      if (c1 >= len || n < c1 || memcmp(buf + n - c1, s, c1)) break;
      memcpy(buf + n, s + c1, len - c1);
      n += len - c1;
    } else {
      if (m) buf[n++] = ' ';
      memcpy(buf + n, s, len);
      n += len;
    }
    size_t e = lower_bound(buf, n), kl = e < KEYS_LEN ? key_len(e) : 0;
    if (m == 0) first = e;
    if (kl < n || memcmp(KEYS + e, buf, n)) break; /* no key starts so */
    if (kl == n) {
      best = e;
      *span = m + 1;
    }
  }
  if (best != NONE || cjk) return best;
  /* Stems: keys before the token that are prefixes of it. In sorted order
   * the prefix shared with the token only shrinks going back. */
  size_t len = t->len[i];
  *span = 1;
  for (size_t e = first; e > 0;) {
    e--;
    while (e > 0 && KEYS[e - 1] != '\n') e--;
    size_t kl = key_len(e), l = 0;
    while (l < kl && l < len && KEYS[e + l] == s0[l]) l++;
    if (l < STEM_MIN) break;
    if (l == kl && KEYS[e + kl] == '*') return e;
  }
  return NONE;
}

/* Index of the concept code at *c, advancing *c past it: its place in
 * '#'..'~' without '*', '=', '?', '\\', plus 88 for each '!' before it. */
static size_t code_index(const char **c) {
  size_t i = 0;
  while (**c == '!') i += 88, (*c)++;
  unsigned char ch = (unsigned char)*(*c)++;
  i += (size_t)(ch - '#');
  i -= (ch > '*') + (ch > '=') + (ch > '?') + (ch > '\\');
  return i;
}

tsift_status tsift_vocab_expand(tsift_query *q, tsift_error *err) {
  const tsift_tokens *t = &q->tokens;
  tsift_tokens words, surf;
  tsift_tokens_init(&words);
  tsift_tokens_init(&surf);
  size_t xcap = 0, scap = 0;
  tsift_status st = TSIFT_OK;
  q->term_covered = tsift_calloc_array(q->terms.count + 1, 1);
  if (!q->term_covered) st = tsift_nomem(err, "expanding the query");
  for (size_t i = 0; i < t->count && st == TSIFT_OK;) {
    size_t span = 1, e = match_at(t, i, &span);
    if (e == NONE) {
      i++;
      continue;
    }
    /* The expansions belong to the first token of the match that is a query
     * term (not a stopword). */
    long term = -1;
    for (size_t k = i; k < i + span && term < 0; k++)
      term = tsift_tokens_find(&q->terms, tsift_token(t, k), t->len[k]);
    /* the key's other words are covered by it (the grade counts the key once) */
    for (size_t k = i; term >= 0 && k < i + span; k++) {
      long other = tsift_tokens_find(&q->terms, tsift_token(t, k), t->len[k]);
      if (other >= 0 && other != term) q->term_covered[other] = 1;
    }
    i += span;
    for (const char *c = KEYS + e + key_len(e) + 1; term >= 0 && *c != '\n' && st == TSIFT_OK;) {
      const char *tg = VOCAB_TARGETS;
      for (size_t k = code_index(&c); k > 0; tg++) k -= *tg == '\n';
      uint8_t syn = *tg == '~'; /* an English synonym group */
      tg += syn;
      size_t tl = 0;
      while (tg[tl] != '\n') tl++;
      tsift_tokens_clear(&words);
      tsift_tokens_clear(&surf);
      st = tsift_analyze_surface(tg, tl, TSIFT_FIELD_MAX_BYTES, 0, 16, &words, &surf, err);
      for (size_t w = 0; st == TSIFT_OK && w < words.count; w++) {
        const char *ws = tsift_token(&words, w);
        if (tsift_tokens_find(&q->terms, ws, words.len[w]) >= 0 ||
            tsift_tokens_find(&q->xterms, ws, words.len[w]) >= 0)
          continue; /* already a term or an expansion */
        if (tsift_grow((void **)&q->xof, &xcap, q->xterms.count + 1, sizeof *q->xof) ||
            tsift_grow((void **)&q->xsyn, &scap, q->xterms.count + 1, sizeof *q->xsyn) ||
            tsift_tokens_push(&q->xterms, ws, words.len[w]) ||
            tsift_tokens_push(&q->xsurface, tsift_token(&surf, w), surf.len[w])) {
          st = tsift_nomem(err, "expanding the query");
        } else {
          q->xof[q->xterms.count - 1] = (uint32_t)term;
          q->xsyn[q->xterms.count - 1] = syn;
        }
      }
    }
  }
  tsift_tokens_free(&words);
  tsift_tokens_free(&surf);
  return st;
}
