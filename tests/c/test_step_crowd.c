/* test_step_crowd.c — the crowding rule (rank.h, step_crowd.c; issue 34): one
 * un-vouched server that floods the catalog with tools named after a
 * request cannot fill the page or dilute the request's words for the other
 * tools.
 *
 *   1. A flood of 1,000 (and 50,000) un-vouched look-alikes answers exactly
 *      as the catalog with only the first of them: the same JSON, score for
 *      score — the others left the search's universe, statistics included.
 *   2. The rule is about text nobody vouches for: the same flood marked
 *      first-party or vouched is ranked as it always was (it fills the page).
 *   3. The threshold: TSIFT_CROWD_MAX + 1 look-alikes stay, one more is a
 *      crowd.
 *   4. A source's own name is no look-alike: every tool of a server matches
 *      a query that names only the server, and none leaves.
 *   5. Out of memory anywhere in a crowded search is TSIFT_E_NOMEM, leaks
 *      nothing, and the index answers as before afterwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

#include "fail_alloc.h"

#define QUERY "create an issue on github"

static const char HONEST[] =
    "{\"id\":\"github__create_issue\",\"name\":\"create_issue\",\"description\":\"File an issue in a GitHub "
    "repository.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\"}}}},"
    "{\"id\":\"github__search_issues\",\"name\":\"search_issues\",\"description\":\"Search GitHub issues.\"},"
    "{\"id\":\"gitlab__create_issue\",\"name\":\"create_issue\",\"origin\":\"remote\"},"
    "{\"id\":\"jira__create_issue\",\"name\":\"create_issue\",\"description\":\"Create a Jira issue.\"},"
    "{\"id\":\"slack__send_message\",\"name\":\"send_message\",\"description\":\"Post to a channel.\"}";

/* The honest tools, then n stuffed ones of source "spam" (`trust`: the
 * tool's trust keys, e.g. ",\"origin\":\"remote\""); malloc'd. */
static char *catalog(size_t n, const char *trust) {
  size_t cap = sizeof HONEST + 64 + n * (300 + strlen(trust));
  char *c = malloc(cap);
  if (!c) return NULL;
  size_t at = (size_t)snprintf(c, cap, "{\"tools\":[%s", HONEST);
  for (size_t i = 0; i < n; i++)
    at += (size_t)snprintf(c + at, cap - at,
                           ",{\"id\":\"spam__create_github_issue_%05zu\",\"name\":\"spam__create_github_issue_%05zu\",\"inputSchema\":{\"type\":\"object\","
                           "\"properties\":{\"create\":{},\"issue\":{},\"github\":{}}}%s}",
                           i, i, trust);
  snprintf(c + at, cap - at, "]}");
  return c;
}

static char *answer(size_t n, const char *trust, const char *query) {
  char *json = catalog(n, trust);
  tsift_index *ix = json ? build(json) : NULL;
  char *out = ix ? search_json(ix, query) : NULL;
  tsift_index_free(ix);
  free(json);
  return out;
}

/* How many hits of the answer are "spam__" tools, and how many of those
 * are graded strong. */
static void count_spam(const char *json, int *hits, int *strong) {
  *hits = *strong = 0;
  for (const char *p = json; p && (p = strstr(p, "\"id\":\"spam__")); p++) {
    (*hits)++;
    const char *next = strstr(p + 1, "\"id\":\"");
    const char *m = strstr(p, "\"match\":\"strong\"");
    if (m && (!next || m < next)) (*strong)++;
  }
}

static void test_flood_leaves(void) {
  const char *remote = ",\"origin\":\"remote\"";
  char *one = answer(1, remote, QUERY);
  CHECK(one != NULL);
  CHECK_CONTAINS(one, "\"id\":\"github__create_issue\"");
  size_t floods[] = {1000, 50000};
  for (size_t i = 0; i < 2; i++) {
    char *flood = answer(floods[i], remote, QUERY);
    CHECK_EQ_STR(flood, one);
    tsift_free(flood);
  }
  int hits, strong;
  count_spam(one, &hits, &strong);
  CHECK_EQ_INT(hits, 1);
  tsift_free(one);
}

static void test_trusted_floods_stay(void) {
  const char *kinds[] = {"", ",\"origin\":\"remote\",\"trusted\":true"};
  for (size_t k = 0; k < 2; k++) {
    char *out = answer(100, kinds[k], QUERY);
    CHECK(out != NULL);
    int hits, strong;
    count_spam(out, &hits, &strong);
    CHECK_EQ_INT(hits, 10); /* the default limit: the page is theirs */
    tsift_free(out);
  }
}

static void test_threshold(void) {
  const char *remote = ",\"origin\":\"remote\"";
  int hits, strong;
  char *at = answer(9, remote, QUERY); /* the first and TSIFT_CROWD_MAX look-alikes */
  count_spam(at, &hits, &strong);
  CHECK_EQ_INT(hits, 9);
  tsift_free(at);
  char *over = answer(10, remote, QUERY);
  count_spam(over, &hits, &strong);
  CHECK_EQ_INT(hits, 1);
  tsift_free(over);
}

static void test_source_words(void) {
  /* "spam" is every spam tool's source word: a query naming only it finds
   * them all, none a look-alike of another */
  char *out = answer(30, ",\"origin\":\"remote\"", "spam");
  int hits, strong;
  count_spam(out, &hits, &strong);
  CHECK_EQ_INT(hits, 10);
  tsift_free(out);
}

static void test_alloc_failures(void) {
  char *json = catalog(30, ",\"origin\":\"remote\"");
  tsift_index *ix = json ? build(json) : NULL;
  char *want = ix ? search_json(ix, QUERY) : NULL;
  CHECK(want != NULL);
  int swept = 0, nomem_ok = 1, leaks = 0;
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  for (g_fail_at = 1; ix; g_fail_at++) {
    g_allocs = 0;
    g_live = 0;
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    tsift_status st = tsift_index_search_json(ix, QUERY, strlen(QUERY), "{\"explain\":true}", 16, &out, &len, &err);
    tsift_free(out);
    if (g_live != 0) leaks++;
    if (g_allocs < g_fail_at) break; /* no allocation failed: every point swept */
    swept++;
    if (st != TSIFT_E_NOMEM) nomem_ok = 0;
  }
  tsift_set_allocator(NULL, NULL, NULL);
  CHECK(swept > 10);
  CHECK(nomem_ok);
  CHECK_EQ_INT(leaks, 0);
  char *again = ix ? search_json(ix, QUERY) : NULL;
  CHECK_EQ_STR(again, want);
  tsift_free(again);
  tsift_free(want);
  tsift_index_free(ix);
  free(json);
}

int main(void) {
  test_flood_leaves();
  test_trusted_floods_stay();
  test_threshold();
  test_source_words();
  test_alloc_failures();
  return harness_finish("test_crowd");
}
