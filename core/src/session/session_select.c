/* session_select.c — reading a select: query ("select:a,b"): the names it
 * lists, and the refusals of lists that cannot be served. Used live
 * (session_search.c) and to check a recorded select: page against its own
 * query (session_page.c). */
#include <string.h>

#include "base/alloc.h"
#include "catalog/ids.h"
#include "session/session_internal.h"

#define SELECT_PREFIX "select:"

int tsift_is_select(const char *q) {
  while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
  return strncmp(q, SELECT_PREFIX, strlen(SELECT_PREFIX)) == 0;
}

tsift_status tsift_select_names(const char *q, size_t n, size_t max, tsift_tokens *out, const char **detail,
                                tsift_error *err) {
  size_t i = 0;
  while (i < n && (q[i] == ' ' || q[i] == '\t' || q[i] == '\n' || q[i] == '\r')) i++;
  if (n - i >= strlen(SELECT_PREFIX) && memcmp(q + i, SELECT_PREFIX, strlen(SELECT_PREFIX)) == 0)
    i += strlen(SELECT_PREFIX);
  const char *why = NULL;
  while (i <= n && !why) {
    size_t end = i;
    while (end < n && q[end] != ',') end++;
    size_t a = i, b = end;
    while (a < b && (q[a] == ' ' || q[a] == '\t' || q[a] == '\n' || q[a] == '\r')) a++;
    while (b > a && (q[b - 1] == ' ' || q[b - 1] == '\t' || q[b - 1] == '\n' || q[b - 1] == '\r')) b--;
    /* What no tool id may hold (ids.c: controls, invisible and bidi-control
     * characters, fullwidth look-alikes) names no tool, and is not echoed
     * back to the model in `unknown` or a note: refused. */
    uint32_t cp;
    if (tsift_id_bad_char(q + a, b - a, &cp) >= 0)
      why = cp < 0x20 || cp == 0x7f ? "select: names must not contain control characters"
                                    : "select: names must not contain invisible, bidi-control or fullwidth characters "
                                      "(no tool id holds them)";
    if (!why && b - a > TSIFT_SELECT_NAME_MAX_BYTES) why = "select: a name is at most 128 bytes";
    if (!why && b > a && tsift_tokens_find(out, q + a, b - a) < 0) {
      if (out->count >= max) why = "select: too many names for one search (at most the search's limit)";
      else if (tsift_tokens_push(out, q + a, b - a)) return tsift_nomem(err, "reading select:");
    }
    i = end + 1;
  }
  if (!why && out->count == 0) why = "select: name at least one tool, as select:name or select:name1,name2";
  if (detail) *detail = why;
  return why ? tsift_fail(err, TSIFT_E_ARG, "%s", why) : TSIFT_OK;
}
