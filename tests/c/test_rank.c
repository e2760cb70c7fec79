/* test_rank.c — the ranker's pipeline (rank.c): an exact name or id match
 * ranks first, and the 16-term cap (SPEC S3) keeps the terms it should when
 * more match — by tier (terms in some tool's name, other terms, values and
 * request words), then by idf x (1 + the share of the term's tools that
 * have it in their name). */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

static void test_exact_name_first(void) {
  /* issue_create_issue_create repeats the query in its name, aliases and
   * description, so it outscores the tool whose name is the query; the exact
   * name still ranks first. */
  tsift_index *ix = build(
      "[{\"name\":\"issue_create_issue_create\",\"aliases\":[\"create issue\"],"
      "\"description\":\"create issue\"},"
      "{\"name\":\"create_issue\",\"description\":\"Opens a ticket in a project with a long "
      "description that dilutes nothing relevant here at all really\"},"
      "{\"id\":\"gh__create_issue\",\"name\":\"open_ticket\"}]");
  if (!ix) return;
  tsift_hit h[4];
  size_t n = search(ix, "create issue", h, 4);
  CHECK_EQ_INT(n, 3);
  /* Both the name match and the id match (gh__create_issue's id is
   * "gh create issue", not the query) are checked: only create_issue is exact. */
  CHECK_EQ_STR(h[0].id, "create_issue");
  CHECK_EQ_STR(h[1].id, "issue_create_issue_create");
  CHECK(h[1].score > h[0].score);
  /* An id equal to the query counts too. */
  n = search(ix, "gh__create_issue", h, 4);
  CHECK_EQ_STR(h[0].id, "gh__create_issue");
  tsift_index_free(ix);
}

static void test_term_cap_keeps_rarest(void) {
  /* 20 query terms match: "aword" is in all 20 tools, "bword" in 19, …,
   * "tword" in one. Only the 16 rarest are scored, so the four most common
   * (aword..dword) are reported as capped. */
  char cat[4000], q[1000];
  size_t n = (size_t)sprintf(cat, "[");
  size_t qn = 0;
  for (int i = 0; i < 20; i++) {
    /* tool i holds the first i + 1 words */
    n += (size_t)sprintf(cat + n, "%s{\"name\":\"tool%02d\",\"description\":\"", i ? "," : "", i);
    for (int j = 0; j <= i; j++) n += (size_t)sprintf(cat + n, "%cword ", 'a' + j);
    n += (size_t)sprintf(cat + n, "\"}");
    qn += (size_t)sprintf(q + qn, "%cword ", 'a' + i);
  }
  sprintf(cat + n, "]");
  tsift_index *ix = build(cat);
  if (!ix) return;
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_search_json(ix, q, qn, NULL, 0, &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"capped\":[\"aword\",\"bword\",\"cword\",\"dword\"]");
  CHECK_CONTAINS(out, "\"terms\":[\"eword\",\"fword\",");
  tsift_free(out);
  tsift_index_free(ix);
}

static void test_term_cap_tiers(void) {
  /* 18 matching terms: a word that is also in a tool name (zulu), 15 plain
   * description words (bword in 15 tools .. pword in one), and two words of
   * one tool: 'aword', which the query only quotes (a value), and the request
   * word "need". Rarest-first alone would drop bword and cword; the tiers
   * drop the value and the request word instead. */
  char cat[4000], q[1000];
  size_t n = (size_t)sprintf(cat, "[{\"name\":\"zulu_tool\",\"description\":\"zulu\"},"
                                  "{\"name\":\"rare_tool\",\"description\":\"aword need\"}");
  size_t qn = (size_t)sprintf(q, "I need 'aword' zulu ");
  for (int i = 0; i < 15; i++) {
    n += (size_t)sprintf(cat + n, ",{\"name\":\"t%02d\",\"description\":\"", i);
    for (int j = 0; j <= 14 - i; j++) n += (size_t)sprintf(cat + n, "%cword ", 'b' + j);
    n += (size_t)sprintf(cat + n, "\"}");
    qn += (size_t)sprintf(q + qn, "%cword ", 'b' + i);
  }
  sprintf(cat + n, "]");
  tsift_index *ix = build(cat);
  if (!ix) return;
  char *out = search_json(ix, q);
  CHECK(out != NULL);
  if (out) {
    CHECK_CONTAINS(out, "\"capped\":[\"need\",\"aword\"]");
    CHECK_CONTAINS(out, "\"terms\":[\"zulu\",\"bword\",\"cword\",");
  }
  tsift_free(out);
  tsift_index_free(ix);
}

static void test_term_cap_name_share(void) {
  /* 17 matching terms, all in some tool name: 15 words of one name each
   * (zqa..zqo), "alpha" in four names, "beta" in one name and two
   * descriptions. N = 22. Rarest first would drop alpha (df 4) and keep beta
   * (df 3); the key idf x (1 + name share) keeps alpha:
   * ln(1 + 18.5/4.5) x 2 = 3.26 against ln(1 + 19.5/3.5) x 4/3 = 2.51. */
  char cat[4000], q[1000];
  size_t n = (size_t)sprintf(cat, "[{\"name\":\"alpha_one\"},{\"name\":\"alpha_two\"},"
                                  "{\"name\":\"alpha_three\"},{\"name\":\"alpha_four\"},"
                                  "{\"name\":\"beta_one\"},{\"name\":\"other_one\",\"description\":\"beta\"},"
                                  "{\"name\":\"other_two\",\"description\":\"beta\"}");
  size_t qn = 0;
  for (int i = 0; i < 15; i++) {
    n += (size_t)sprintf(cat + n, ",{\"name\":\"zq%c_tool\"}", 'a' + i);
    qn += (size_t)sprintf(q + qn, "zq%c ", 'a' + i);
  }
  sprintf(cat + n, "]");
  sprintf(q + qn, "alpha beta");
  tsift_index *ix = build(cat);
  if (!ix) return;
  char *out = search_json(ix, q);
  CHECK(out != NULL);
  if (out) {
    CHECK_CONTAINS(out, "\"capped\":[\"beta\"]");
    CHECK_CONTAINS(out, "\"zqo\",\"alpha\"]");
  }
  tsift_free(out);
  tsift_index_free(ix);
}

int main(void) {
  test_exact_name_first();
  test_term_cap_keeps_rarest();
  test_term_cap_tiers();
  test_term_cap_name_share();
  return harness_finish("test_rank");
}
