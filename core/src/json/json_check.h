/* json_check.h — an allocation-free JSON syntax check. cJSON reports an
 * allocation failure exactly like a syntax error; when it fails, this check
 * tells the two apart (and finds too-deep nesting) without allocating. */
#ifndef TSIFT_JSON_CHECK_H
#define TSIFT_JSON_CHECK_H

#include <stddef.h>

typedef enum {
  TSIFT_JSON_VALID = 0,
  TSIFT_JSON_SYNTAX, /* *pos = byte offset of the first error */
  TSIFT_JSON_TOO_DEEP,
  TSIFT_JSON_LONG_NUMBER, /* valid JSON, but a number cJSON cannot read; *pos = its start */
  TSIFT_JSON_SURROGATE    /* a \uD800-\uDFFF escape not in a high-low pair; *pos = its backslash */
} tsift_json_verdict;

/* cJSON reads a number through a 64-byte buffer: a longer one it rejects. */
#define TSIFT_JSON_MAX_NUMBER_CHARS 63

/* The nesting depth cJSON accepts (its CJSON_NESTING_LIMIT). */
#define TSIFT_JSON_MAX_NESTING 1000

tsift_json_verdict tsift_json_check(const char *s, size_t n, size_t *pos);

/* What the check saw on its way through the strings and numbers, so that a
 * caller can skip a pass that would find nothing (catalog.c): the count of
 * \u0000 escapes, whether some string holds bytes that are not UTF-8 (then
 * tsift_utf8_valid would fail; bytes outside strings fail the check itself),
 * how many numbers tsift_json_number_kept keeps, and whether an object
 * repeats a key: duplicate_keys when two of an object's keys have the same
 * bytes, keys_unchecked when some object was not looked at (escaped keys,
 * deep or large objects), so only when both are 0 has no object a repeated
 * key. Set for every verdict, but only complete for TSIFT_JSON_VALID. */
typedef struct tsift_json_facts {
  size_t nul_escapes, kept_numbers;
  int bad_utf8, duplicate_keys, keys_unchecked;
} tsift_json_facts;
tsift_json_verdict tsift_json_check_facts(const char *s, size_t n, size_t *pos, tsift_json_facts *facts);
/* Who reads the document as the check goes (json_tree.c builds the tree in
 * the same pass, issue 37): `value` for every value in document order, at
 * s[at] (its first byte tells its kind: '{', '[', '"', 't', 'f', 'n' or a
 * number), a string's span [at + 1, end) without its quotes and `escaped`
 * when that holds a backslash, a number's span [at, end); an object's
 * member's key span comes first through `key`; `close` ends the innermost
 * container (an empty one too). The calls are only meaningful when the
 * verdict is TSIFT_JSON_VALID: before an error they describe the text up to
 * it. */
typedef struct tsift_json_sink {
  void (*key)(void *ctx, size_t at, size_t end, int escaped);
  void (*value)(void *ctx, size_t at, size_t end, int escaped);
  void (*close)(void *ctx);
  void *ctx;
} tsift_json_sink;
/* tsift_json_check_facts, telling `sink` what it reads. */
tsift_json_verdict tsift_json_check_read(const char *s, size_t n, size_t *pos, tsift_json_facts *facts,
                                         const tsift_json_sink *sink);

/* 1 when the number token s[0..k) keeps its source text (catalog.c): a
 * double's print would not give it back (a fraction, an exponent, -0, more
 * than 15 characters). */
int tsift_json_number_kept(const char *s, size_t k);

/* The byte span [*start, *end) of the value of member k (0-based, in
 * document order: cJSON's child order) of the object s[0..n). Only for
 * text that passed tsift_json_check and whose value is an object with more
 * than k members: nothing is checked again. Lets a caller hand on a member's
 * own bytes instead of printing its parsed tree back to text. */
void tsift_json_member_value(const char *s, size_t n, size_t k, size_t *start, size_t *end);

/* Offset of the first \u0000 escape in s, or -1. cJSON would end the string
 * there (C strings), silently turning "a\u0000b" into "a"; the core refuses
 * such input instead. */
long tsift_json_find_nul_escape(const char *s, size_t n);

/* Rewrite every \u0000 escape in s as \u0020 (a space), in place, for input
 * where a query must never be an error. Returns how many were rewritten. */
size_t tsift_json_blank_nul_escapes(char *s, size_t n);

/* The containers open at pos in text whose prefix s[0..pos) is JSON so far
 * (as at a TSIFT_JSON_TOO_DEEP verdict), outermost first: lv[d] for
 * d < min(depth, cap), each with its opening byte, the index of its current
 * element or member and (objects) the span of that member's key. Returns the
 * depth. For messages only. */
typedef struct tsift_json_level {
  size_t open, index, key, key_len;
  unsigned char obj;
} tsift_json_level;
size_t tsift_json_levels(const char *s, size_t pos, tsift_json_level *lv, size_t cap);

/* The raw bytes [*at, *at + *len) of the string value of member `key` of the
 * object whose '{' is s[open], looked for up to s[n] in text that may be
 * invalid past some point (bounded; gives up at the first bad string): 1
 * when found. For messages only. */
int tsift_json_find_string(const char *s, size_t n, size_t open, const char *key, size_t *at, size_t *len);

/* In valid JSON text: the start of the next number token at or after *i
 * (strings skipped); *i is left past it. Number nodes of cJSON's tree come
 * in document order, so a walk of the tree meets them in the same order. */
size_t tsift_json_next_number(const char *s, size_t n, size_t *i);

#endif
