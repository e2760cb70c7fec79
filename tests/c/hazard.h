/* hazard.h — what the pathological-input tests share (test_json_input.c,
 * test_scale.c, test_alloc_failures.c, test_tool_text.c, test_search.c): a
 * growable string, API wrappers that check a failed constructor hands out
 * NULL, a small catalog and a session configuration around a catalog. */
#ifndef TSIFT_HAZARD_H
#define TSIFT_HAZARD_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "toolsift.h"

/* ---- a growable string (test-owned, libc allocator) -------------------- */

typedef struct sb {
  char *p;
  size_t n, cap;
} sb;

static inline void sb_put(sb *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n + 1) cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p) abort();
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}
static inline void sb_puts(sb *b, const char *s) { sb_put(b, s, strlen(s)); }
static inline void sb_rep(sb *b, const char *s, size_t times) {
  size_t n = strlen(s);
  for (size_t i = 0; i < times; i++) sb_put(b, s, n);
}
static inline void sb_printf(sb *b, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  sb_put(b, tmp, (size_t)n);
}
static inline void sb_free(sb *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

/* ---- API wrappers ------------------------------------------------------ */

/* Build and free; on failure the handle must be NULL. */
static inline tsift_status build_st(const char *json, size_t len, const char *opts, tsift_error *err) {
  tsift_index *ix = (tsift_index *)0x1;
  tsift_status st = tsift_index_build(json, len, opts, opts ? strlen(opts) : 0, &ix, err);
  if (st != TSIFT_OK) CHECK(ix == NULL);
  else tsift_index_free(ix);
  return st;
}

static inline tsift_index *build_ok(const char *json, size_t len, const char *opts) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, len, opts, opts ? strlen(opts) : 0, &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n", err.message);
    CHECK(0);
    return NULL;
  }
  return ix;
}

static inline tsift_status session_st(const char *cfg, size_t len, const char *journal, size_t jlen, const char *opts,
                               tsift_error *err) {
  tsift_session *s = (tsift_session *)0x1;
  tsift_status st = tsift_session_new(cfg, len, journal, jlen, opts, opts ? strlen(opts) : 0, &s, err);
  if (st != TSIFT_OK) CHECK(s == NULL);
  else tsift_session_free(s);
  return st;
}

static const char SMALL_CATALOG[] =
    "{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open a new issue in a "
    "repository\",\"tags\":[\"bug\"],\"inputSchema\":{\"properties\":{\"title\":{\"type\":\"string\","
    "\"description\":\"Issue title\",\"maxLength\":1e300}}}},"
    "{\"id\":\"gh__list_issues\",\"name\":\"list_issues\",\"description\":\"List issues of a repository\"},"
    "{\"id\":\"jira__create_issue\",\"name\":\"create_issue\",\"description\":\"Create a Jira issue\"},"
    "{\"id\":\"slack__send\",\"name\":\"send\",\"description\":\"Send a Slack message to a channel\","
    "\"origin\":\"remote\"},"
    "{\"id\":\"mail__send\",\"name\":\"send\",\"description\":\"Send an email message\"},"
    "{\"id\":\"evil__issue\",\"name\":\"issue_helper\",\"description\":\"issue issue\",\"tainted\":true}"
    "],\"annotations\":{\"slack__send\":{\"aliases\":[\"chat\"]}}}";

/* A session configuration around `catalog` with `search` options. */
static inline void make_config(sb *b, const char *catalog, const char *search) {
  sb_puts(b, "{\"loop\":\"lim\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply\"}],\"catalog\":");
  sb_puts(b, catalog);
  sb_puts(b, ",\"search\":");
  sb_puts(b, search);
  sb_puts(b, "}");
}

static inline char *call(tsift_session *s, unsigned turn, unsigned c, const char *tool, size_t tool_len,
                  const char *args, size_t args_len, tsift_status *st) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  *st = tsift_session_call(s, turn, c, tool, tool_len, args, args_len, &out, &len, &err);
  return out;
}

#endif
