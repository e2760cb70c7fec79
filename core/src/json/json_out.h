/* json_out.h — a growable byte buffer and a small JSON writer with a fixed
 * number format, so output bytes never depend on the platform's printf. */
#ifndef TSIFT_JSON_OUT_H
#define TSIFT_JSON_OUT_H

#include <stddef.h>

#include "toolsift.h"

#define TSIFT_JSON_MAX_DEPTH 64

typedef struct tsift_buf {
  char *data;
  size_t len, cap;
  int failed; /* set once a write failed; later writes are ignored: 1 out of
               * memory, or TSIFT_E_SNAPSHOT (tsift_buf_fail) */
  /* writer state: whether the container at each depth has an element yet */
  unsigned char has_item[TSIFT_JSON_MAX_DEPTH];
  int depth;
  int after_key;
} tsift_buf;

void tsift_buf_init(tsift_buf *b);
void tsift_buf_free(tsift_buf *b);
void tsift_buf_append(tsift_buf *b, const char *s, size_t n);
void tsift_buf_putc(tsift_buf *b, char c);
/* Hand the NUL-terminated bytes to the caller (free with tsift_free); NULL
 * (and the buffer freed) when any write failed. */
char *tsift_buf_take(tsift_buf *b, size_t *len);
/* Mark the output failed with `st` (TSIFT_E_NOMEM or TSIFT_E_SNAPSHOT: a
 * loaded tool's stored text is not a valid code, found when written); the
 * first failure is kept. */
void tsift_buf_fail(tsift_buf *b, tsift_status st);
/* The error of a failed output (b->failed): TSIFT_E_SNAPSHOT "bad tool text
 * while <what>: …" or TSIFT_E_NOMEM "out of memory while <what>". */
tsift_status tsift_buf_error(const tsift_buf *b, const char *what, tsift_error *err);
/* The finished output: *out (and *out_len) take the buffer's bytes and the
 * result is TSIFT_OK, or when writing failed TSIFT_E_NOMEM "out of memory
 * while <what>" or TSIFT_E_SNAPSHOT "bad tool text while <what>" (the
 * buffer is freed either way). */
tsift_status tsift_buf_finish(tsift_buf *b, char **out, size_t *out_len, const char *what, tsift_error *err);
/* tsift_buf_finish for output whose making may have failed: when `st` is
 * an error the buffer is freed and `st` returned (the error already set). */
tsift_status tsift_buf_finish_unless(tsift_status st, tsift_buf *b, char **out, size_t *out_len, const char *what,
                                     tsift_error *err);

void tsift_json_begin_object(tsift_buf *b);
/* A new buffer holding an open object: how every JSON output starts. */
void tsift_json_open_object(tsift_buf *b);
void tsift_json_end_object(tsift_buf *b);
void tsift_json_begin_array(tsift_buf *b);
void tsift_json_end_array(tsift_buf *b);
void tsift_json_key(tsift_buf *b, const char *key);
void tsift_json_str(tsift_buf *b, const char *s, size_t n);
void tsift_json_cstr(tsift_buf *b, const char *s);
void tsift_json_int(tsift_buf *b, long long v);
void tsift_json_bool(tsift_buf *b, int v);
void tsift_json_null(tsift_buf *b);
/* A score with exactly 6 decimals, rounded half away from zero. */
void tsift_json_score(tsift_buf *b, double v);
/* A member of an object: the key, then its value (tsift_json_key followed
 * by the value's call), one call a member where most output is members. */
void tsift_json_key_str(tsift_buf *b, const char *key, const char *s, size_t n);
void tsift_json_key_cstr(tsift_buf *b, const char *key, const char *s);
void tsift_json_key_int(tsift_buf *b, const char *key, long long v);
void tsift_json_key_bool(tsift_buf *b, const char *key, int v);
void tsift_json_key_score(tsift_buf *b, const char *key, double v);
/* Raw JSON text (already valid) as a value. */
void tsift_json_raw(tsift_buf *b, const char *s, size_t n);

/* Escape a string as JSON (quotes included) into b without writer state. */
void tsift_buf_json_string(tsift_buf *b, const char *s, size_t n);

#endif
