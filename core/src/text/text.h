/* text.h — the analyser (SPEC S3): one function for documents and queries. */
#ifndef TSIFT_TEXT_H
#define TSIFT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "toolsift.h"
#include "base/utf8.h"

#define TSIFT_TOKEN_MAX_BYTES 32
#define TSIFT_FIELD_MAX_BYTES 2000
#define TSIFT_QUERY_MAX_BYTES 512
/* At most this many distinct terms of a query are scored: tool vocabulary
 * before value-like terms, the rarest first (see tsift_rank). */
#define TSIFT_QUERY_MAX_TERMS 16
#define TSIFT_LABEL_MAX_CHARS 80
#define TSIFT_LABELS_MAX 16

/* A list of tokens stored back to back in one byte array. */
typedef struct tsift_tokens {
  char *bytes;
  size_t nbytes, bytes_cap;
  uint32_t *off;
  uint8_t *len;
  size_t count, cap;
} tsift_tokens;

void tsift_tokens_init(tsift_tokens *t);
void tsift_tokens_free(tsift_tokens *t);
void tsift_tokens_clear(tsift_tokens *t);
/* Append a token; -1 when out of memory. */
int tsift_tokens_push(tsift_tokens *t, const char *s, size_t n);
static inline const char *tsift_token(const tsift_tokens *t, size_t i) { return t->bytes + t->off[i]; }
/* Index of the token equal to s[0..n) or -1. Linear: lists are short. */
long tsift_tokens_find(const tsift_tokens *t, const char *s, size_t n);

/* The codepoints of s[0..n) into a new array (*out, *out_n) when NFKC (and
 * case folding, when `fold`) leaves every character as it is, so that the
 * analysis can skip utf8proc's passes: 1 = done, 0 = some character would
 * change or the text is not UTF-8 (normalise it in full), -1 = out of memory.
 * tests/c/test_text.c checks the claim against utf8proc. */
int tsift_inert_cps(const char *s, size_t n, int fold, int32_t **out, size_t *out_n);

/* s[0..n) is one of the words of `list`, a string with '|' before and
 * after every word ("|how|what|"), the words in order of their first byte:
 * word lists without pointer tables. */
int tsift_word_listed(const char *list, const char *s, size_t n);

/*
 * Analyse s[0..n) and append its tokens to `out` until `out` holds
 * `max_tokens`. Reads at most `max_bytes` of input. With replace_invalid,
 * invalid UTF-8 becomes U+FFFD (queries); otherwise it is TSIFT_E_UTF8.
 */
tsift_status tsift_analyze(const char *s, size_t n, size_t max_bytes, int replace_invalid,
                           size_t max_tokens, tsift_tokens *out, tsift_error *err);
/* The same, also appending each token's surface form (before suffix folding:
 * case-folded, plural folded) to `surface` (may be NULL). */
tsift_status tsift_analyze_surface(const char *s, size_t n, size_t max_bytes, int replace_invalid,
                                   size_t max_tokens, tsift_tokens *out, tsift_tokens *surface,
                                   tsift_error *err);

/* Stopwords: analysed terms, kept sorted for binary search. */
typedef struct tsift_stopwords {
  tsift_tokens words; /* sorted, unique */
} tsift_stopwords;

/* Build from a JSON options value: NULL/absent or JSON null = the built-in
 * English list; an array of strings = that list ([] disables). */
struct cJSON;
tsift_status tsift_stopwords_from_json(const struct cJSON *value, tsift_stopwords *sw,
                                       tsift_error *err);
void tsift_stopwords_free(tsift_stopwords *sw);
int tsift_stopwords_has(const tsift_stopwords *sw, const char *s, size_t n);

/* The analysis of one query. */
typedef struct tsift_query {
  char *text; /* the query as analysed: cut to 512 bytes, invalid UTF-8 replaced */
  size_t text_len;
  tsift_tokens tokens;    /* every token, in order (for exact-name matching) */
  tsift_tokens stopwords; /* distinct stopwords dropped */
  tsift_tokens terms;     /* distinct terms in query order; the ranker scores
                             at most TSIFT_QUERY_MAX_TERMS of them */
  tsift_tokens surface;   /* per term: its surface form (first occurrence,
                             before suffix folding), for display */
  uint8_t *term_weak;     /* per term: 1 when every occurrence looks like an
                             argument value rather than tool vocabulary:
                             inside quotes, from a word with a digit, or a
                             single ASCII character */
  uint8_t *term_required; /* per term: 1 when a word it comes from was written
                             +word (a + right before a letter): with
                             TSIFT_RANK_REQUIRED every hit must match it */
  size_t plus_lost;       /* +words that left no term (only stopwords) */
  size_t plus_alone;      /* a "+" standing alone as a word */
  uint8_t *term_soft;     /* per term: 1 when every occurrence is weak (as
                             term_weak) or a question word: it looks like an
                             argument value or phrases the request rather than
                             naming the need; the ranker counts such a term at
                             TSIFT_SOFT_WEIGHT */
  /* Expansions from the cross-lingual vocabulary (vocab.h): English terms
   * for foreign words of the query, each tied to the query term it expands
   * (xof[j] indexes terms), and for English words of a synonym group the
   * group's other words. */
  tsift_tokens xterms;   /* analysed, distinct, none of them in terms */
  tsift_tokens xsurface; /* their surface forms, for display */
  uint32_t *xof;
  uint8_t *term_covered; /* per term: 1 when its word lies inside a longer
                            vocabulary key whose expansions another term
                            carries (a CJK run's later bigrams, the second
                            word of "mot de passe"): the match grade does not
                            count it on its own */
  uint8_t *xsyn;         /* per expansion: 1 when it comes from an English
                            synonym group (weight TSIFT_SYNONYM_WEIGHT), 0 for
                            a translation (TSIFT_VOCAB_WEIGHT) */
} tsift_query;

/*
 * Number of sentences in s[0..n): pieces of text that hold a letter or digit
 * (any non-ASCII byte counts as one), ended by `.`, `!`, `?` or `;` followed
 * by white space or the end, by `。！？；` (no space needed), or by the end.
 * "e.g. " and "U.S. " end a sentence too: the count only tells a request of
 * several sentences from a single one (the ranker's diversity rule).
 */
size_t tsift_sentence_count(const char *s, size_t n);

/* Query-term weight of soft terms (docs/relevance.md). */
#define TSIFT_SOFT_WEIGHT 0.5

tsift_status tsift_query_analyze(const char *s, size_t n, const tsift_stopwords *sw,
                                 tsift_query *q, tsift_error *err);
void tsift_query_free(tsift_query *q);

/* Normalise a label (tag/alias): NFKC + case fold, whitespace collapsed and
 * trimmed, cut at 80 characters. *out may be empty (len 0). */
tsift_status tsift_label_normalize(const char *s, size_t n, char **out, size_t *out_len,
                                   tsift_error *err);

/* An id in one of two forms (ids.c): with `fold`, NFKC and case folding
 * (two ids equal in it look alike to a model); without, NFKD with the marks
 * stripped ("café" -> "cafe", the start of a safe name). *out is
 * NUL-terminated; the caller frees it. */
tsift_status tsift_id_form(const char *s, size_t n, int fold, char **out, size_t *out_len, tsift_error *err);

#endif
