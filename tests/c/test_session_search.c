/* test_session_search.c — the search_tools meta-tool (session_search.c;
 * SPEC S6, S7): the caps (per search, loaded, searches, menu characters),
 * typed refusals of invalid arguments that record nothing, metrics, the
 * notes on unloaded hits, namespaces, and statistics fitted to the
 * authorised universe (a denied tool cannot change a score). Host rankers:
 * test_session_ranker.c; tainted tools never loaded: test_trust.c. */
#include <stdlib.h>

#include "harness.h"
#include "rank/rank.h"
#include "session_fixture.h"
#include "toolsift.h"

/* The note on unloaded hits names the reason: caps, tainted text, or both. */
/* Where a withheld description is met, the note says what it means and who
 * can change it; a strong hit that is tainted is a match, not a miss. */
static void test_trust_notes(void) {
  tsift_session *s = open_session("{\"maxPerSearch\":5}", NULL, NULL);
  if (!s) return;
  tsift_status st;
  char *r = call(s, 0, 0, "search_tools", "{\"query\":\"issue sync\"}", &st);
  CHECK_CONTAINS(r, "{\"name\":\"remote__issue_sync\",\"description\":\"Third-party tool; description withheld\"");
  CHECK_CONTAINS(r, "A description shown as withheld is a third-party server's own text, kept from you until the "
                    "operator vouches for that server (\\\"trusted\\\": true); the tool itself can be loaded and called.");
  tsift_free(r);
  /* "helper" is only evil__issue's (tainted) word: it is the one strong hit */
  r = call(s, 1, 0, "search_tools", "{\"query\":\"issue helper\"}", &st);
  CHECK_CONTAINS(r, "{\"name\":\"evil__issue\",\"description\":\"Third-party tool; description withheld\",\"loaded\":false,"
                    "\"match\":\"strong\"");
  CHECK(r && !strstr(r, "No tool matches this request well"));
  CHECK_CONTAINS(r, "tainted");
  tsift_free(r);
  tsift_session_free(s);
}

static void test_unloaded_notes(void) {
  tsift_session *s = open_session("{\"maxPerSearch\":5,\"maxLoaded\":50}", NULL, NULL);
  if (!s) return;
  tsift_status st;
  char *r = call(s, 0, 0, "search_tools", "{\"query\":\"issue\"}", &st);
  /* a one-word query every hit matches: each is strong, the tainted one still never loads */
  CHECK_CONTAINS(r, "{\"name\":\"evil__issue\",\"description\":\"Third-party tool; description withheld\","
                    "\"loaded\":false,\"match\":\"strong\",\"matched\":[\"issue\"]}");
  CHECK_CONTAINS(r, "\"note\":\"Tools marked loaded: false are tainted: their text reads like instructions to you, so "
                    "they are never loaded and cannot be called.\"");
  tsift_free(r);
  tsift_session_free(s);
  s = open_session("{\"maxPerSearch\":5,\"maxLoaded\":2}", NULL, NULL);
  if (!s) return;
  r = call(s, 0, 0, "search_tools", "{\"query\":\"issue\"}", &st);
  CHECK_CONTAINS(r, "\"note\":\"Tools marked loaded: false did not fit the menu or are tainted (their text reads "
                    "like instructions to you, so they are never loaded), and cannot be called.\"");
  tsift_free(r);
  tsift_session_free(s);
  s = open_session("{\"maxPerSearch\":5,\"maxLoaded\":1}", NULL, NULL);
  if (!s) return;
  r = call(s, 0, 0, "search_tools", "{\"query\":\"repository\"}", &st);
  CHECK(strstr(r, "evil__issue") == NULL);
  CHECK_CONTAINS(r, "\"note\":\"Tools marked loaded: false did not fit the menu and cannot be called.\"");
  tsift_free(r);
  tsift_session_free(s);
}

static void test_caps_and_refusals(void) {
  tsift_session *s = open_session("{\"maxPerSearch\":3,\"maxLoaded\":2,\"maxSearches\":2}", NULL, NULL);
  if (!s) return;
  tsift_status st;
  char *r = call(s, 0, 0, "search_tools", "{\"query\":\"issue\"}", &st);
  /* three results, two fit maxLoaded; the tainted tool never loads */
  const char *p = strstr(r, "\"loaded\":[");
  CHECK(p != NULL);
  int n_loaded = 0;
  for (const char *q = r; (q = strstr(q, "\"loaded\":true")) != NULL; q++) n_loaded++;
  CHECK_EQ_INT(n_loaded, 2);
  CHECK_CONTAINS(r, "\"loaded\":false");
  /* the note says why (O6; test_unloaded_notes has the other reasons) */
  CHECK_CONTAINS(r, "\"note\":\"Tools marked loaded: false did not fit the menu and cannot be called.\"");
  tsift_free(r);
  /* invalid input: record nothing */
  const char *bad[] = {"{}", "{\"query\":\"\"}", "{\"query\":\"  \"}", "{\"query\":5}",
                       "{\"query\":\"x\",\"limit\":0}", "{\"query\":\"x\",\"limit\":1.5}",
                       "{\"query\":\"x\",\"limit\":\"2\"}", "[1]", "not json"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    r = call(s, 1, (unsigned)i, "search_tools", bad[i], &st);
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(r, "\"error\":\"invalid_input\"");
    CHECK_CONTAINS(r, "\"decision\":null");
    tsift_free(r);
  }
  r = call(s, 2, 0, "search_tools", "{\"query\":\"send message\",\"limit\":1}", &st);
  CHECK_CONTAINS(r, "\"results\":[\"mail__send\"]"); /* the shorter document */
  tsift_free(r);
  r = call(s, 3, 0, "search_tools", "{\"query\":\"email\"}", &st);
  CHECK_CONTAINS(r, "\"error\":\"search_limit_reached\"");
  tsift_free(r);
  char *j = journal(s);
  int lines = 0;
  for (const char *q = j; *q; q++) lines += *q == '\n';
  CHECK_EQ_INT(lines, 3); /* the chain's header, then the two decisions */
  tsift_free(j);
  char *metrics = NULL;
  size_t len;
  tsift_error err;
  tsift_session_metrics_json(s, &metrics, &len, &err);
  CHECK_CONTAINS(metrics, "\"searches\":2,\"refusals\":10,\"hits\":4,\"noMatch\":0,\"loaded\":2,"
                          "\"rankerCalls\":2,\"replayed\":0");
  CHECK(strstr(metrics, "issue") == NULL); /* no query text */
  tsift_free(metrics);
  tsift_session_free(s);

  /* maxMenuChars: a tiny budget loads nothing. */
  s = open_session("{\"maxMenuChars\":10}", NULL, NULL);
  if (!s) return;
  r = call(s, 0, 0, "search_tools", "{\"query\":\"send\"}", &st);
  CHECK_CONTAINS(r, "\"loaded\":[]");
  tsift_free(r);
  tsift_session_free(s);
}

static void test_namespaces_and_fitted_stats(void) {
  tsift_session *s = open_session("{\"namespaces\":[\"gh__\"],\"maxPerSearch\":10}", NULL, NULL);
  if (!s) return;
  tsift_status st;
  char *r = call(s, 0, 0, "search_tools", "{\"query\":\"create issue jira\"}", &st);
  CHECK(strstr(r, "jira__") == NULL);
  CHECK_CONTAINS(r, "gh__create_issue");
  tsift_free(r);
  r = call(s, 0, 1, "jira__create_issue", "{}", &st);
  CHECK_CONTAINS(r, "not_on_menu");
  tsift_free(r);
  tsift_session_free(s);

  /* A denied tool cannot change any score: statistics over an allowed set
   * equal those of an index built from that set alone. */
  const char *with = "[{\"name\":\"alpha\",\"description\":\"red fox\"},{\"name\":\"beta\",\"description\":"
                     "\"red red fox jumps\"},{\"name\":\"denied\",\"description\":\"fox fox fox red\"}]";
  const char *without = "[{\"name\":\"alpha\",\"description\":\"red fox\"},{\"name\":\"beta\",\"description\":"
                        "\"red red fox jumps\"}]";
  tsift_index *a = NULL, *b = NULL;
  tsift_error err;
  tsift_index_build(with, strlen(with), NULL, 0, &a, &err);
  tsift_index_build(without, strlen(without), NULL, 0, &b, &err);
  if (!a || !b) return;
  uint8_t allowed[3] = {1, 1, 0};
  tsift_stats sa, sb;
  tsift_stats_fit(a, allowed, &sa);
  tsift_stats_fit(b, NULL, &sb);
  tsift_query q;
  tsift_query_analyze("red fox jumps", 13, &a->stopwords, &q, &err);
  tsift_ranking ra, rb;
  tsift_rank(a, &q, &sa, 3, 0, NULL, &ra, &err);
  tsift_rank(b, &q, &sb, 3, 0, NULL, &rb, &err);
  const tsift_scored *ha = ra.hits, *hb = rb.hits;
  size_t na = ra.nhits, nb = rb.nhits;
  CHECK_EQ_INT(na, 2);
  CHECK_EQ_INT(nb, 2);
  for (size_t i = 0; i < na && i < nb; i++) {
    CHECK_EQ_INT(ha[i].doc, hb[i].doc);
    CHECK(ha[i].score == hb[i].score); /* bit-identical */
  }
  tsift_ranking_free(&ra);
  tsift_ranking_free(&rb);
  tsift_query_free(&q);
  tsift_index_free(a);
  tsift_index_free(b);
}

/* A namespace entry matches whole id segments: "git" admits git__commit
 * and git.push, not github__merge or gitlab; "git__" is a plain prefix. */
static void test_namespace_segments(void) {
  static const char cat[] =
      "[{\"id\":\"git__commit\",\"name\":\"t\",\"description\":\"commit changes\"},"
      "{\"id\":\"git.push\",\"name\":\"t\",\"description\":\"push changes\"},"
      "{\"id\":\"github__merge\",\"name\":\"t\",\"description\":\"merge changes\"},"
      "{\"id\":\"gitlab\",\"name\":\"t\",\"description\":\"gitlab changes\"},"
      "{\"id\":\"line__push\",\"name\":\"t\",\"description\":\"push changes\"},"
      "{\"id\":\"linear__issue\",\"name\":\"t\",\"description\":\"linear changes\"}]";
  const struct {
    const char *ns, *admitted;
  } cases[] = {
      {"[\"git\"]", "git__commit git.push "},
      {"[\"git__\"]", "git__commit "},
      {"[\"git.\"]", "git.push "},
      {"[\"line\"]", "line__push "},
      {"[\"github\",\"gitlab\"]", "github__merge gitlab "},
      {"[\"gi\"]", ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char cfg[2048];
    snprintf(cfg, sizeof cfg,
             "{\"loop\":\"n\",\"catalog\":%s,\"search\":{\"namespaces\":%s,\"maxPerSearch\":10,\"load\":\"all\"}}",
             cat, cases[i].ns);
    tsift_session *s = NULL;
    tsift_error err;
    CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), NULL, 0, NULL, 0, &s, &err), TSIFT_OK);
    if (!s) continue;
    tsift_status st;
    char *r = call(s, 0, 0, "search_tools", "{\"query\":\"changes\",\"limit\":10}", &st);
    char got[256] = "";
    const char *ids[] = {"git__commit", "git.push", "github__merge", "gitlab", "line__push", "linear__issue"};
    for (size_t k = 0; k < 6; k++) {
      char needle[64];
      snprintf(needle, sizeof needle, "\"name\":\"%s\"", ids[k]);
      if (r && strstr(r, needle)) {
        strcat(got, ids[k]);
        strcat(got, " ");
      }
    }
    CHECK_EQ_STR(got, cases[i].admitted);
    tsift_free(r);
    tsift_session_free(s);
  }
}

int main(void) {
  test_namespace_segments();
  test_caps_and_refusals();
  test_unloaded_notes();
  test_trust_notes();
  test_namespaces_and_fitted_stats();
  return harness_finish("test_session_search");
}
