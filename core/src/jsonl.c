/* jsonl.c — see jsonl.h. */
#include "jsonl.h"

#include <string.h>

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
