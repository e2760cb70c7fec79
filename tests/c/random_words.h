/* random_words.h — deterministic randomness for the properties checked over
 * random catalogs and queries from fixed seeds (test_trust.c, test_bm25f.c):
 * a xorshift generator each test seeds itself, 120 pseudo-words, a growable
 * string and a build that counts a failure. */
#ifndef TSIFT_RANDOM_WORDS_H
#define TSIFT_RANDOM_WORDS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "toolsift.h"

/* ---- deterministic randomness ------------------------------------------ */

static uint32_t g_rng;
static inline uint32_t rnd(uint32_t n) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 17;
  g_rng ^= g_rng << 5;
  return n ? g_rng % n : 0;
}

/* Pseudo-words of three consonant-vowel syllables from letters that keep
 * them clear of stopwords and plural folding (no s, r, l, f, h, n, w). */
#define VOCAB 120
static char g_vocab[VOCAB][8];
static inline void make_vocab(void) {
  static const char cons[] = "bdgkmptvz", vow[] = "aeiou";
  g_rng = 0x12345678u;
  for (int i = 0; i < VOCAB; i++) {
    for (;;) {
      for (int k = 0; k < 3; k++) {
        g_vocab[i][2 * k] = cons[rnd(sizeof cons - 1)];
        g_vocab[i][2 * k + 1] = vow[rnd(sizeof vow - 1)];
      }
      g_vocab[i][6] = 0;
      int dup = 0;
      for (int j = 0; j < i; j++) dup |= strcmp(g_vocab[i], g_vocab[j]) == 0;
      if (!dup) break;
    }
  }
}

/* ---- a growable string ------------------------------------------------- */

typedef struct sb {
  char *p;
  size_t n, cap;
} sb;
static inline void put(sb *b, const char *s) {
  size_t n = strlen(s);
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 1024;
    while (cap < b->n + n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      fprintf(stderr, "random_words.h: out of memory in the test harness\n");
      exit(2);
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n + 1);
  b->n += n;
}
static inline void putf(sb *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  put(b, tmp);
}
static inline void reset(sb *b) {
  b->n = 0;
  if (b->p) b->p[0] = 0;
}

static inline tsift_index *build_world(const char *json) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, strlen(json), NULL, 0, &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n%.300s\n", err.message, json);
    CHECK(0);
    return NULL;
  }
  return ix;
}

#endif
