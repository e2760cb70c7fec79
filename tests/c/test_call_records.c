/* test_call_records.c — the journal's call records (docs/sessions.md, "Call
 * records"; session.c): an allowed call to a catalog tool is recorded, a
 * failure the host reports is recorded once, the agent's own tools and
 * refused calls are not; replay passes over the records and writes them
 * again from the replayed calls; the records are sealed in the chain; the
 * session option "client" names who the run served in the header. */
#include <stdlib.h>

#include "harness.h"
#include "session_fixture.h"
#include "toolsift.h"

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; p && (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
  return n;
}

static void test_what_is_recorded(void) {
  tsift_session *s = open_session("{}", NULL, NULL);
  if (!s) return;
  tsift_status st;
  char *r = call(s, 0, 0, "search_tools", "{\"query\":\"create issue\"}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK_CONTAINS(r, "\"name\":\"gh__create_issue\"");
  tsift_free(r);
  r = call(s, 1, 0, "gh__create_issue", "{\"title\":\"x\"}", &st);
  CHECK_CONTAINS(r, "\"result\":{\"allowed\":true},\"decision\":null");
  tsift_free(r);
  r = call(s, 1, 1, "reply", "{}", &st); /* the agent's own tool */
  CHECK_CONTAINS(r, "\"allowed\":true");
  tsift_free(r);
  r = call(s, 1, 2, "slack__send", "{}", &st); /* not on the menu */
  CHECK_CONTAINS(r, "not_on_menu");
  tsift_free(r);
  char *j = journal(s);
  CHECK_CONTAINS(j, "{\"id\":\"t#turn:1:tool:0:call\",\"source\":\"agent-tool-call\",\"value\":{\"tool\":\"gh__create_issue\"},\"chain\":\"");
  CHECK_EQ_INT((long long)count(j, "agent-tool-call"), 1);
  CHECK(strstr(j, "reply") == NULL && strstr(j, "slack__send\"}") == NULL);

  /* A failure the host reports: recorded once, only for a call it allowed. */
  tsift_error err;
  CHECK_EQ_INT(tsift_session_call_failed(s, 1, 0, "gh__create_issue", 16, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_call_failed(s, 1, 0, "gh__create_issue", 16, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_call_failed(s, 1, 1, "gh__create_issue", 16, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_session_call_failed(s, 1, 2, "slack__send", 11, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_session_call_failed(s, 1, 1, "reply", 5, &err), TSIFT_E_ARG);
  tsift_free(j);
  j = journal(s);
  CHECK_EQ_INT((long long)count(j, "\"source\":\"agent-tool-call-failed\""), 1);
  CHECK_CONTAINS(j, "{\"id\":\"t#turn:1:tool:0:call\",\"source\":\"agent-tool-call-failed\",\"value\":{\"tool\":\"gh__create_issue\"}");

  /* The records are chained with the decisions: the journal verifies, and
   * an edited record does not. */
  tsift_session *v = open_session("{}", j, "{\"divergence\":\"off\"}");
  char *out = NULL;
  size_t len = 0;
  CHECK(v != NULL);
  if (v) {
    CHECK_EQ_INT(tsift_session_verify_json(v, &out, &len, &err), TSIFT_OK);
    CHECK_CONTAINS(out, "\"verified\":true");
    CHECK_CONTAINS(out, "\"decisions\":1,"); /* call records are not decisions */
    tsift_free(out);
    tsift_session_free(v);
  }
  char *edited = strdup(j);
  char *at = strstr(edited, "\"value\":{\"tool\":\"gh__create_issue\"}");
  memcpy(at + 17, "gh__close_issue\"} ", 18); /* another tool, same length */
  tsift_session *t = open_session("{}", edited, NULL);
  CHECK(t == NULL); /* tampered: refused in fail mode */
  tsift_session_free(t);
  free(edited);
  tsift_free(j);
  tsift_session_free(s);
}

static void test_replay_passes_over_records(void) {
  tsift_session *s = open_session("{}", NULL, NULL);
  if (!s) return;
  static const char *calls[][2] = {
      {"search_tools", "{\"query\":\"create issue\"}"},
      {"gh__create_issue", "{}"},
      {"search_tools", "{\"query\":\"send slack message\"}"},
      {"slack__send", "{}"},
  };
  char live[8192] = "", replayed[8192] = "";
  tsift_status st;
  for (unsigned i = 0; i < 4; i++) {
    char *r = call(s, i, 0, calls[i][0], calls[i][1], &st);
    strncat(live, r ? r : "<error>", sizeof live - strlen(live) - 1);
    tsift_free(r);
  }
  char *j = journal(s);
  CHECK_EQ_INT((long long)count(j, "agent-tool-call"), 2);
  /* The same calls replayed: the same outputs and journal, no ranking. */
  tsift_session *rp = open_session("{}", j, NULL);
  CHECK(rp != NULL);
  if (rp) {
    for (unsigned i = 0; i < 4; i++) {
      char *r = call(rp, i, 0, calls[i][0], calls[i][1], &st);
      CHECK_EQ_INT(st, TSIFT_OK);
      strncat(replayed, r ? r : "<error>", sizeof replayed - strlen(replayed) - 1);
      tsift_free(r);
    }
    CHECK_EQ_STR(replayed, live);
    char *j2 = journal(rp);
    CHECK_EQ_STR(j2, j);
    tsift_free(j2);
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    CHECK_EQ_INT(tsift_session_finish(rp, &out, &len, &err), TSIFT_OK);
    CHECK_EQ_STR(out, "{\"unasked\":[]}");
    tsift_free(out);
    tsift_session_free(rp);
  }
  /* Applied alone (no calls): the decisions rebuild the menu; the records
   * are not asked for. */
  tsift_session *ap = open_session("{}", j, NULL);
  CHECK(ap != NULL);
  if (ap) {
    tsift_error err;
    CHECK_EQ_INT(tsift_session_apply_journal(ap, &err), TSIFT_OK);
    char *m = menu(ap), names[512];
    menu_names(m, names, sizeof names);
    CHECK_EQ_STR(names, "search_tools reply jira__create_issue gh__create_issue slack__send");
    tsift_free(m);
    char *out = NULL;
    size_t len = 0;
    CHECK_EQ_INT(tsift_session_finish(ap, &out, &len, &err), TSIFT_OK);
    tsift_free(out);
    tsift_session_free(ap);
  }
  tsift_free(j);
  tsift_session_free(s);
}

static void test_client_in_header(void) {
  tsift_session *s = open_session("{}", NULL, "{\"client\":\"alice\"}");
  if (!s) return;
  tsift_status st;
  tsift_free(call(s, 0, 0, "search_tools", "{\"query\":\"create issue\"}", &st));
  char *j = journal(s);
  CHECK_CONTAINS(j, "\"mac\":\"none\",\"client\":\"alice\"}");
  /* The header is sealed: a journal recorded for alice replays as it is,
   * and not for another client (its journal would be another). */
  tsift_session *rp = open_session("{}", j, "{\"client\":\"alice\"}");
  CHECK(rp != NULL);
  tsift_session_free(rp);
  const char *cfg0 = config("{}");
  tsift_error e0;
  rp = NULL;
  CHECK_EQ_INT(tsift_session_new(cfg0, strlen(cfg0), j, strlen(j), "{\"client\":\"bob\"}", 16, &rp, &e0),
               TSIFT_E_TAMPERED);
  CHECK_CONTAINS(e0.message, "recorded for client \"alice\", the live session's is \"bob\"");
  tsift_free(j);
  tsift_session_free(s);
  static const char *bad[] = {"{\"client\":\"\"}", "{\"client\":7}", "{\"client\":\"a\\u0007b\"}",
                              "{\"client\":\"0123456789012345678901234567890123456789012345678901234567890123x\"}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *cfg = config("{}");
    tsift_session *x = NULL;
    tsift_error err;
    CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), NULL, 0, bad[i], strlen(bad[i]), &x, &err), TSIFT_E_CONFIG);
    CHECK_CONTAINS(err.message, "session options: client:");
    CHECK(x == NULL);
  }
}

int main(void) {
  test_what_is_recorded();
  test_replay_passes_over_records();
  test_client_in_header();
  return harness_finish("test_call_records");
}
