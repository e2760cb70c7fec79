/* describe.c — what results show of a tool: a one-line, bounded,
 * trust-aware description (withheld for un-vouched third-party text, S2). */
#include <string.h>

#include "base/alloc.h"
#include "index/index.h"

char *tsift_short_description(const tsift_tool *t, size_t max_chars, size_t *len, tsift_status *st) {
  const char *s;
  size_t n;
  char *owned;
  tsift_error err;
  if ((*st = tsift_shown_description(t, &s, &n, &owned, &err))) return NULL;
  /* First non-empty line, whitespace collapsed, at most max_chars characters. */
  char *out = tsift_alloc_bytes(n + 4);
  if (!out) {
    tsift_free(owned);
    *st = TSIFT_E_NOMEM;
    return NULL;
  }
  size_t o = 0, chars = 0, i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
  int space = 0, cut = 0;
  for (; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n' || c == '\r') break;
    if (c == ' ' || c == '\t') {
      space = 1;
      continue;
    }
    if ((c & 0xC0) != 0x80) { /* a new character starts */
      if (chars + space >= max_chars) {
        cut = 1;
        break;
      }
      if (space) {
        out[o++] = ' ';
        chars++;
        space = 0;
      }
      chars++;
    }
    out[o++] = (char)c;
  }
  if (cut) {
    memcpy(out + o, TSIFT_ELLIPSIS, 3);
    o += 3;
  }
  out[o] = 0;
  *len = o;
  tsift_free(owned);
  return out;
}
