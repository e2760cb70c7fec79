/* utf8.h — UTF-8 byte rules, below the JSON reader and the analyser that
 * both check and cut text. */
#ifndef TSIFT_UTF8_H
#define TSIFT_UTF8_H

#include <stddef.h>

/* 1 when s[0..n) is valid UTF-8 (no overlongs, surrogates or > U+10FFFF);
 * otherwise 0 and *bad = offset of the first bad byte. */
int tsift_utf8_valid(const char *s, size_t n, size_t *bad);
/* Length of the valid UTF-8 sequence at s[0..n) (n >= 1), or 0 if invalid. */
size_t tsift_utf8_seq(const unsigned char *s, size_t n);

/* Length of the longest prefix of s[0..n) of at most max bytes that does not
 * split a UTF-8 sequence. */
size_t tsift_utf8_cut(const char *s, size_t n, size_t max);
/* Length in bytes of the first `chars` characters of s[0..n) (a character:
 * a byte that is not a continuation byte, and the continuation bytes after
 * it), the whole of s when it is shorter. */
size_t tsift_utf8_prefix_chars(const char *s, size_t n, size_t chars);

/* The characters of s[0..n) (UTF-8: the bytes that start one). */
size_t tsift_utf8_chars(const char *s, size_t n);

/* "…", what a text cut for display ends with. */
#define TSIFT_ELLIPSIS "\xE2\x80\xA6"

/* Copy of s[0..n) with each invalid UTF-8 sequence replaced by U+FFFD,
 * NUL-terminated; NULL when out of memory. */
char *tsift_utf8_sanitize(const char *s, size_t n, size_t *out_len);

#endif
