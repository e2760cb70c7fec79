/* jsonl.c — see jsonl.h: the line loop, and a catalog of lines as one array. */
#include "json/jsonl.h"

#include <string.h>

#include "json/json_out.h"

void tsift_jsonl_init(tsift_jsonl *it, const char *text, size_t len) {
  it->text = text;
  it->len = len;
  it->pos = 0;
  it->line = 0;
}

int tsift_jsonl_next(tsift_jsonl *it, const char **line, size_t *n) {
  while (it->pos < it->len) {
    const char *start = it->text + it->pos;
    const char *nl = memchr(start, '\n', it->len - it->pos);
    size_t end = nl ? (size_t)(nl - it->text) : it->len;
    size_t count = end - it->pos;
    it->pos = end < it->len ? end + 1 : it->len;
    it->line++;
    size_t blank = 0;
    while (blank < count && (start[blank] == ' ' || start[blank] == '\t' || start[blank] == '\r')) blank++;
    if (blank == count) continue;
    *line = start;
    *n = count;
    return 1;
  }
  return 0;
}

/* A catalog given as JSON Lines (one tool per line) becomes an array. */
char *tsift_jsonl_to_array(const char *s, size_t n, size_t *out_len) {
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_buf_putc(&b, '[');
  tsift_jsonl lines;
  tsift_jsonl_init(&lines, s, n);
  const char *line;
  size_t len, items = 0;
  while (tsift_jsonl_next(&lines, &line, &len)) {
    size_t a = 0; /* the line without its leading blanks */
    while (line[a] == ' ' || line[a] == '\t' || line[a] == '\r') a++;
    if (items++) tsift_buf_putc(&b, ',');
    tsift_buf_append(&b, line + a, len - a);
  }
  tsift_buf_putc(&b, ']');
  return tsift_buf_take(&b, out_len);
}

int tsift_jsonl_is_lines(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++;
  if (i >= n || s[i] != '{') return 0;
  /* an object first, and another object starts on a later line */
  for (size_t k = i; k + 1 < n; k++)
    if (s[k] == '\n' && s[k + 1] == '{') return 1;
  return 0;
}
