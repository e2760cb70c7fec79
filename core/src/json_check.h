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
  TSIFT_JSON_LONG_NUMBER /* valid JSON, but a number cJSON cannot read; *pos = its start */
} tsift_json_verdict;

/* cJSON reads a number through a 64-byte buffer: a longer one it rejects. */
#define TSIFT_JSON_MAX_NUMBER_CHARS 63

/* The nesting depth cJSON accepts (its CJSON_NESTING_LIMIT). */
#define TSIFT_JSON_MAX_NESTING 1000

tsift_json_verdict tsift_json_check(const char *s, size_t n, size_t *pos);

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

#endif
