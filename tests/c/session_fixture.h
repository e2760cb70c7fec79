/* session_fixture.h — the session tests' catalog and configuration
 * (test_session.c, test_session_search.c, test_session_replay.c): a session
 * over it with given search options, a call, its menu (anthropic shape), its
 * journal and the names on a menu. */
#ifndef TSIFT_SESSION_FIXTURE_H
#define TSIFT_SESSION_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "toolsift.h"

static const char CATALOG[] =
    "{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open a new issue in a "
    "repository\",\"inputSchema\":{\"properties\":{\"title\":{\"type\":\"string\"}}}},"
    "{\"id\":\"gh__list_issues\",\"name\":\"list_issues\",\"description\":\"List issues of a repository\"},"
    "{\"id\":\"gh__close_issue\",\"name\":\"close_issue\",\"description\":\"Close an issue\"},"
    "{\"id\":\"jira__create_issue\",\"name\":\"create_issue\",\"description\":\"Create a Jira issue\"},"
    "{\"id\":\"jira__search\",\"name\":\"search\",\"description\":\"Search Jira issues with JQL\"},"
    "{\"id\":\"slack__send\",\"name\":\"send\",\"description\":\"Send a Slack message to a channel\"},"
    "{\"id\":\"mail__send\",\"name\":\"send\",\"description\":\"Send an email message\"},"
    "{\"id\":\"evil__issue\",\"name\":\"issue_helper\",\"description\":\"issue issue\",\"tainted\":true},"
    "{\"id\":\"remote__issue_sync\",\"name\":\"issue_sync\",\"description\":\"secret text\","
    "\"origin\":\"remote\"}"
    "]}";

static inline char *config(const char *search_json) {
  static char buf[8192];
  snprintf(buf, sizeof buf,
           "{\"loop\":\"t\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply\"}],"
           "\"catalog\":%s,\"search\":%s}",
           CATALOG, search_json);
  return buf;
}

static inline tsift_session *open_session(const char *search_json, const char *journal, const char *opts) {
  const char *cfg = config(search_json);
  tsift_session *s = NULL;
  tsift_error err;
  if (tsift_session_new(cfg, strlen(cfg), journal, journal ? strlen(journal) : 0, opts,
                        opts ? strlen(opts) : 0, &s, &err) != TSIFT_OK) {
    if (!journal) fprintf(stderr, "session_new: %s\n", err.message); /* tampered journals may fail */
    return NULL;
  }
  return s;
}

/* The call's output (caller frees) or NULL with err filled. */
static inline char *call(tsift_session *s, unsigned turn, unsigned c, const char *tool, const char *args,
                  tsift_status *st) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  *st = tsift_session_call(s, turn, c, tool, strlen(tool), args, strlen(args), &out, &len, &err);
  return out;
}

static inline char *menu(tsift_session *s) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_session_menu_json(s, "anthropic", &out, &len, &err);
  return out;
}

static inline char *journal(tsift_session *s) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_session_journal_jsonl(s, &out, &len, &err);
  return out;
}

/* Names on an anthropic-shaped menu, in order, joined by spaces. */
static inline void menu_names(const char *m, char *dst, size_t cap) {
  size_t o = 0;
  dst[0] = 0;
  for (const char *p = m; (p = strstr(p, "{\"name\":\"")) != NULL;) {
    p += 9;
    const char *e = strchr(p, '"');
    size_t n = (size_t)(e - p);
    if (o + n + 2 >= cap) break;
    if (o) dst[o++] = ' ';
    memcpy(dst + o, p, n);
    o += n;
    dst[o] = 0;
    p = e;
  }
}

#endif
