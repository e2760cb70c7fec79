/* test_dict.c — the term dictionary (dict.c): every term is found by its
 * bytes, at a build and after a snapshot load (whose table is made again by
 * tsift_dict_hash), and a word one byte off any of them is no term or the
 * term of its own bytes. The words are of every length up to a token's
 * 32 bytes and differ from each other at every position, so that the
 * table's word hash (hash.h tsift_word_hash) reads each of their bytes. */
#include <stdlib.h>

#include "harness.h"
#include "index/index.h"
#include "toolsift.h"
#include "written_catalog.h"

/* Letters the analyser keeps as they are (no vowel e, no plural s). */
static const char k_letters[] = "bcdfghjklmnpqrtvwxz";

static void word(char *w, size_t len, size_t pos, size_t variant) {
  for (size_t i = 0; i < len; i++) w[i] = k_letters[(i * 7 + len) % 19];
  if (variant) w[pos] = k_letters[(variant + (size_t)(w[pos] - 'a')) % 19];
  w[len] = 0;
}

static void check_terms(const tsift_index *ix) {
  for (size_t t = 0; t < ix->nterms; t++) {
    const char *s = ix->term_bytes + ix->term_off[t];
    CHECK_EQ_INT(tsift_term_lookup(ix, s, ix->term_len[t]), (long)t);
    char off[64];
    for (size_t i = 0; i < ix->term_len[t]; i++) { /* one byte off: none, or the term of those bytes */
      memcpy(off, s, ix->term_len[t]);
      off[i] ^= 1;
      long u = tsift_term_lookup(ix, off, ix->term_len[t]);
      CHECK(u < 0 || (ix->term_len[u] == ix->term_len[t] &&
                      memcmp(ix->term_bytes + ix->term_off[u], off, ix->term_len[t]) == 0));
    }
  }
  CHECK_EQ_INT(tsift_term_lookup(ix, "", 0) >= 0 ? 1 : 0, 0);
}

static void test_lookups(void) {
  size_t cap = 1 << 16, n = 0;
  char *cat = malloc(cap);
  n += (size_t)snprintf(cat + n, cap - n, "{\"tools\":[");
  for (size_t len = 1; len <= TSIFT_TOKEN_MAX_BYTES; len++) {
    n += (size_t)snprintf(cat + n, cap - n, "%s{\"name\":\"tool%zu\",\"description\":\"", len > 1 ? "," : "", len);
    for (size_t pos = 0; pos < len; pos++)
      for (size_t variant = 0; variant < 2; variant++) {
        char w[64];
        word(w, len, pos, variant);
        n += (size_t)snprintf(cat + n, cap - n, "%s ", w);
      }
    n += (size_t)snprintf(cat + n, cap - n, "\"}");
  }
  tsift_index *ix = build_written_catalog(cat, n, cap);
  tsift_error err;
  if (!ix) return;
  CHECK(ix->nterms > 500); /* the words, more than one table's first size */
  check_terms(ix);
  char *snap = NULL;
  size_t snap_len = 0;
  tsift_index *loaded = NULL;
  CHECK_EQ_INT(tsift_index_snapshot(ix, &snap, &snap_len, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_from_snapshot(snap, snap_len, &loaded, &err), TSIFT_OK);
  if (loaded) {
    CHECK_EQ_INT(loaded->nterms, ix->nterms);
    check_terms(loaded);
  }
  tsift_free(snap);
  tsift_index_free(loaded);
  tsift_index_free(ix);
}

int main(void) {
  test_lookups();
  return harness_finish("test_dict");
}
