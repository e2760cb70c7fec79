/* utf8.c — UTF-8 byte rules (utf8.h): validity as the JSON reader and the
 * analyser both need it, cuts that never split a character, character
 * counts and the U+FFFD copy. Bytes only; no tables. */
#include "base/utf8.h"

#include <string.h>

#include "base/alloc.h"

size_t tsift_utf8_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0x80) return 1;
  if (c < 0xC2) return 0;
  if (c < 0xE0) return (n >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
  if (c < 0xF0) {
    if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && s[1] < 0xA0) return 0; /* overlong */
    if (c == 0xED && s[1] >= 0xA0) return 0; /* surrogate */
    return 3;
  }
  if (c < 0xF5) {
    if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
      return 0;
    if (c == 0xF0 && s[1] < 0x90) return 0; /* overlong */
    if (c == 0xF4 && s[1] >= 0x90) return 0; /* > U+10FFFF */
    return 4;
  }
  return 0;
}

int tsift_utf8_valid(const char *s, size_t n, size_t *bad) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    if (p[i] < 0x80) {
      i++;
      continue;
    }
    size_t k = tsift_utf8_seq(p + i, n - i);
    if (!k) {
      if (bad) *bad = i;
      return 0;
    }
    i += k;
  }
  return 1;
}

size_t tsift_utf8_cut(const char *s, size_t n, size_t max) {
  if (n <= max) return n;
  size_t cut = max;
  while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
  return cut;
}

size_t tsift_utf8_chars(const char *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
  return c;
}

size_t tsift_utf8_prefix_chars(const char *s, size_t n, size_t chars) {
  size_t i = 0, c = 0;
  while (i < n && c < chars) {
    i++;
    while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    c++;
  }
  return i;
}

/* Copy s with every invalid sequence replaced by U+FFFD. */
char *tsift_utf8_sanitize(const char *s, size_t n, size_t *out_len) {
  if (n > ((size_t)-1) / 3 - 1) return NULL;
  char *out = tsift_alloc_bytes(n * 3 + 1);
  if (!out) return NULL;
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0, o = 0;
  while (i < n) {
    size_t k = tsift_utf8_seq(p + i, n - i);
    if (k) {
      memcpy(out + o, s + i, k);
      o += k;
      i += k;
    } else {
      memcpy(out + o, "\xEF\xBF\xBD", 3);
      o += 3;
      i += 1;
    }
  }
  out[o] = 0;
  *out_len = o;
  return out;
}
