/* jsonl.h — the one loop over JSON Lines input (calls files, rank and eval
 * queries, JSON Lines catalogs). A line ends at '\n' (a '\r' before it stays
 * part of the line, as JSON whitespace); a line of nothing but spaces, tabs
 * and CRs is blank and skipped. Lines are numbered from 1, blank ones
 * included, so a message names the line an editor shows. */
#ifndef TSIFT_JSONL_H
#define TSIFT_JSONL_H

#include <stddef.h>

typedef struct tsift_jsonl {
  const char *text;
  size_t len;
  size_t pos;  /* where the next line starts (len at the end) */
  size_t line; /* number of the line last returned; 0 before the first */
} tsift_jsonl;

/* Start at the beginning of text[0..len). */
void tsift_jsonl_init(tsift_jsonl *it, const char *text, size_t len);

/* The next non-blank line, without its '\n': 1 with *line and *n set and
 * it->line its number, or 0 when only blank lines are left. */
int tsift_jsonl_next(tsift_jsonl *it, const char **line, size_t *n);

/* 1 when text[0..n) looks like JSON Lines of objects: an object first, and
 * another starting on a later line (a catalog given one tool per line). */
int tsift_jsonl_is_lines(const char *s, size_t n);
/* The lines of text[0..n) as one JSON array text (tsift_free), or NULL when
 * out of memory. */
char *tsift_jsonl_to_array(const char *s, size_t n, size_t *out_len);

#endif
