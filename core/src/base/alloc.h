/* alloc.h — the allocator hook and error helpers every core file uses. */
#ifndef TSIFT_ALLOC_H
#define TSIFT_ALLOC_H

#include <stdarg.h>
#include <stddef.h>

#include "toolsift.h"

/* All core allocations go through these (the hook set by tsift_set_allocator). */
void *tsift_alloc_bytes(size_t size);
void *tsift_realloc_bytes(void *ptr, size_t size);
/* Zeroed array of n elements of `size`, NULL on overflow or out of memory. */
void *tsift_calloc_array(size_t n, size_t size);
/* Free each of n pointers, in order (any may be NULL): the arrays a struct
 * owns, freed as one list rather than a call a member. Inline, so that a
 * short list costs what its calls did (tokens and queries free often). */
static inline void tsift_free_all(void *const *ptrs, size_t n) {
  for (size_t i = 0; i < n; i++) tsift_free(ptrs[i]);
}
/* tsift_free_all over its arguments: TSIFT_FREE_ALL(s->a, s->b, s->c). */
#define TSIFT_FREE_ALL(...) \
  tsift_free_all((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))
/* Copy of s[0..len) with a NUL appended; NULL when out of memory. */
char *tsift_strndup(const char *s, size_t len);

/* Grow *ptr (an array of elements of `size`) so it holds at least `need`
 * elements; *cap tracks the capacity. Returns 0 on success, -1 on overflow or
 * out of memory (the old array stays valid). */
int tsift_grow(void **ptr, size_t *cap, size_t need, size_t size);

/* Fill `err` (may be NULL) and return `status`. printf-style message. */
tsift_status tsift_fail(tsift_error *err, tsift_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Replace err's status with `status` and prefix its message with
 * "<prefix>: " (the message stays otherwise intact). Returns `status`. */
tsift_status tsift_error_prefix(tsift_error *err, tsift_status status, const char *prefix);
tsift_status tsift_nomem(tsift_error *err, const char *where);
/* Mark success in `err` (may be NULL); returns TSIFT_OK, so a function
 * that succeeds ends with `return tsift_ok(err);`. */
tsift_status tsift_ok(tsift_error *err);

#endif
