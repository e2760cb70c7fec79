/* test_session_modes.c — auto mode (search.auto, session_auto.c) and
 * pre-search (tsift_session_pre_search): every tool on the menu and no
 * search_tools when the universe fits the budgets, decided once, recorded in
 * the header and checked on replay; the host's search before a turn loads
 * only strong hits, is ordered before the turn's calls, does not spend the
 * model's searches, replays byte for byte and only narrows when edited.
 * The session fixture's catalog: 9 tools, one tainted (evil__issue). */
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "harness.h"
#include "session_fixture.h"
#include "toolsift.h"

static cJSON *metrics_of(tsift_session *s) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_session_metrics_json(s, &out, &len, &err);
  cJSON *m = cJSON_Parse(out);
  tsift_free(out);
  return m;
}

static const char *mode_of(tsift_session *s, char buf[16]) {
  cJSON *m = metrics_of(s);
  const cJSON *v = cJSON_GetObjectItem(m, "mode");
  snprintf(buf, 16, "%s", cJSON_IsString(v) ? v->valuestring : "?");
  cJSON_Delete(m);
  return buf;
}

static char *pre(tsift_session *s, unsigned turn, const char *text, tsift_status *st) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  *st = tsift_session_pre_search(s, turn, text, strlen(text), &out, &len, &err);
  return out;
}

/* ---- auto mode --------------------------------------------------------- */

static void test_auto_all(void) {
  tsift_session *s = open_session("{\"auto\":true}", NULL, NULL);
  CHECK(s != NULL);
  if (!s) return;
  char mode[16], names[1024];
  CHECK_EQ_STR(mode_of(s, mode), "all");
  char *m = menu(s);
  menu_names(m, names, sizeof names);
  /* the agent's tool, then the catalog in its order; no search_tools, no tainted tool */
  CHECK_EQ_STR(names, "reply gh__create_issue gh__list_issues gh__close_issue jira__create_issue jira__search "
                      "slack__send mail__send remote__issue_sync");
  tsift_free(m);
  tsift_status st;
  char *o = call(s, 0, 0, "search_tools", "{\"query\":\"issue\"}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK_CONTAINS(o, "\"error\""); /* no such tool in this mode */
  CHECK_CONTAINS(o, "every tool this session has already is");
  CHECK(o && !strstr(o, "\"decision\":{"));
  tsift_free(o);
  o = call(s, 0, 1, "gh__close_issue", "{}", &st);
  CHECK_CONTAINS(o, "\"allowed\":true");
  tsift_free(o);
  char *j = journal(s);
  CHECK_CONTAINS(j, "\"mode\":\"all\"");
  tsift_session_free(s);
  /* replayed: the same mode, the same record */
  s = open_session("{\"auto\":true}", j, NULL);
  CHECK(s != NULL);
  if (s) {
    CHECK_EQ_STR(mode_of(s, mode), "all");
    o = call(s, 0, 1, "gh__close_issue", "{}", &st);
    CHECK_CONTAINS(o, "\"allowed\":true");
    tsift_free(o);
    char *j2 = journal(s);
    CHECK_EQ_STR(j2, j);
    tsift_free(j2);
    tsift_session_free(s);
  }
  /* a journal recorded in mode all is not one a searching session replays */
  tsift_session *t = NULL;
  tsift_error err;
  const char *cfg = config("{\"auto\":{\"maxTools\":3}}");
  CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), j, strlen(j), NULL, 0, &t, &err), TSIFT_E_TAMPERED);
  CHECK_CONTAINS(err.message, "recorded in mode \"all\", the live session's is \"search\"");
  tsift_session_free(t);
  tsift_free(j);
}

static void test_auto_budgets(void) {
  char mode[16], names[1024];
  /* 8 joining tools: more than 5, so the session searches */
  tsift_session *s = open_session("{\"auto\":{\"maxTools\":5}}", NULL, NULL);
  CHECK(s && strcmp(mode_of(s, mode), "search") == 0);
  char *m = s ? menu(s) : NULL;
  if (m) menu_names(m, names, sizeof names);
  CHECK(m && strncmp(names, "search_tools reply", 18) == 0);
  tsift_free(m);
  tsift_session_free(s);
  /* exactly 8 fits */
  s = open_session("{\"auto\":{\"maxTools\":8}}", NULL, NULL);
  CHECK(s && strcmp(mode_of(s, mode), "all") == 0);
  tsift_session_free(s);
  /* the characters' budget decides too */
  s = open_session("{\"auto\":{\"maxChars\":100}}", NULL, NULL);
  CHECK(s && strcmp(mode_of(s, mode), "search") == 0);
  tsift_session_free(s);
  /* the universe is what counts: a namespace of 3 tools fits any budget of 3 */
  s = open_session("{\"auto\":{\"maxTools\":3},\"namespaces\":[\"gh__\"]}", NULL, NULL);
  CHECK(s && strcmp(mode_of(s, mode), "all") == 0);
  m = s ? menu(s) : NULL;
  if (m) menu_names(m, names, sizeof names);
  CHECK(m && strcmp(names, "reply gh__create_issue gh__list_issues gh__close_issue") == 0);
  tsift_free(m);
  tsift_session_free(s);
  /* off: as before */
  s = open_session("{\"auto\":false}", NULL, NULL);
  CHECK(s && strcmp(mode_of(s, mode), "search") == 0);
  tsift_session_free(s);
  /* bad values name the key */
  const char *bad[] = {"{\"auto\":\"yes\"}", "{\"auto\":{\"maxTools\":0}}", "{\"auto\":{\"maxChars\":1.5}}",
                       "{\"auto\":{\"tools\":3}}"};
  const char *says[] = {"search.auto: expected true, false", "search.auto.maxTools", "search.auto.maxChars",
                        "search.auto: unknown key \"tools\""};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *cfg = config(bad[i]);
    tsift_session *t = NULL;
    tsift_error err;
    CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), NULL, 0, NULL, 0, &t, &err), TSIFT_E_CONFIG);
    CHECK_CONTAINS(err.message, says[i]);
    tsift_session_free(t);
  }
}

/* ---- pre-search -------------------------------------------------------- */

static void test_pre_search(void) {
  tsift_session *s = open_session("{\"maxPerSearch\":5,\"load\":\"all\",\"maxSearches\":0}", NULL, NULL);
  CHECK(s != NULL);
  if (!s) return;
  tsift_status st;
  char *o = pre(s, 0, "Could you send a slack message to the team?", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  cJSON *r = cJSON_Parse(o);
  CHECK_CONTAINS(o, "\"call\":{\"turn\":0,\"preSearch\":true}");
  CHECK_CONTAINS(o, "\"id\":\"t#turn:0:pre-search\",\"source\":\"host-pre-search\"");
  /* strong loads; a partial hit does not, even with load "all" (nobody asked) */
  const cJSON *t;
  int slack = 0, partial_unloaded = 0;
  cJSON_ArrayForEach(t, cJSON_GetObjectItem(cJSON_GetObjectItem(r, "result"), "tools")) {
    const char *name = cJSON_GetObjectItem(t, "name")->valuestring;
    int loaded = cJSON_IsTrue(cJSON_GetObjectItem(t, "loaded"));
    const char *grade = cJSON_GetObjectItem(t, "match")->valuestring;
    if (strcmp(name, "slack__send") == 0) slack = loaded && strcmp(grade, "strong") == 0;
    if (strcmp(grade, "partial") == 0) partial_unloaded += !loaded;
    CHECK(!loaded || strcmp(grade, "strong") == 0);
  }
  CHECK(slack);
  CHECK(partial_unloaded >= 1); /* mail__send matches "send" only */
  cJSON_Delete(r);
  tsift_free(o);
  /* maxSearches 0 is the model's budget: the pre-search did not spend it */
  cJSON *m = metrics_of(s);
  CHECK_EQ_INT(cJSON_GetObjectItem(m, "preSearches")->valueint, 1);
  CHECK_EQ_INT(cJSON_GetObjectItem(m, "searches")->valueint, 0);
  cJSON_Delete(m);
  /* the model's calls of turn 0 come after it */
  o = call(s, 0, 0, "slack__send", "{}", &st);
  CHECK_CONTAINS(o, "\"allowed\":true");
  tsift_free(o);
  o = call(s, 0, 1, "search_tools", "{\"query\":\"jira\"}", &st);
  CHECK_CONTAINS(o, "search_limit_reached");
  tsift_free(o);
  /* a turn's pre-search comes before its calls: not again at turn 0 */
  o = pre(s, 0, "create a jira issue", &st);
  CHECK_EQ_INT(st, TSIFT_E_ARG);
  CHECK(o == NULL);
  /* the user's words are words: select: and +word are the model's conventions */
  o = pre(s, 1, "select:gh__close_issue +mail", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK(o && !strstr(o, "\"ranker\":\"select\""));
  tsift_free(o);
  char *j = journal(s);
  tsift_session_free(s);
  /* replay: byte for byte, ranking nothing */
  s = open_session("{\"maxPerSearch\":5,\"load\":\"all\",\"maxSearches\":0}", j, NULL);
  CHECK(s != NULL);
  if (s) {
    char *a = pre(s, 0, "Could you send a slack message to the team?", &st);
    char *b = call(s, 0, 0, "slack__send", "{}", &st);
    tsift_free(call(s, 0, 1, "search_tools", "{\"query\":\"jira\"}", &st));
    char *c = pre(s, 1, "select:gh__close_issue +mail", &st);
    char *j2 = journal(s);
    CHECK_EQ_STR(j2, j);
    cJSON *mm = metrics_of(s);
    CHECK_EQ_INT(cJSON_GetObjectItem(mm, "replayed")->valueint, 2);
    cJSON_Delete(mm);
    tsift_free(a);
    tsift_free(b);
    tsift_free(c);
    tsift_free(j2);
    tsift_session_free(s);
  }
  /* resuming applies the recorded pre-searches too */
  s = open_session("{\"maxPerSearch\":5,\"load\":\"all\",\"maxSearches\":0}", j, "{\"divergence\":\"off\"}");
  tsift_error err;
  CHECK(s && tsift_session_apply_journal(s, &err) == TSIFT_OK);
  char *mn = s ? menu(s) : NULL;
  CHECK_CONTAINS(mn, "slack__send");
  tsift_free(mn);
  tsift_session_free(s);
  tsift_free(j);
}

/* An edited pre-search record is served under the replay's narrowing
 * rules (SPEC S9): a tainted tool added to it as strong and loaded stays
 * unloaded. */
static void test_pre_search_narrows(void) {
  tsift_session *s = open_session("{\"maxPerSearch\":5}", NULL, NULL);
  if (!s) return;
  tsift_status st;
  tsift_free(pre(s, 0, "send a slack message", &st));
  char *j = journal(s);
  tsift_session_free(s);
  /* the second line is the decision: mark every hit strong and loaded */
  char *nl = strchr(j, '\n');
  cJSON *header = NULL, *d = NULL;
  if (nl) {
    *nl = 0;
    header = cJSON_Parse(j);
    d = cJSON_Parse(nl + 1);
  }
  CHECK(header && d);
  if (!header || !d) {
    tsift_free(j);
    return;
  }
  cJSON *v = cJSON_GetObjectItem(d, "value");
  cJSON_AddItemToArray(cJSON_GetObjectItem(v, "results"), cJSON_CreateString("evil__issue"));
  cJSON_AddItemToArray(cJSON_GetObjectItem(v, "grades"), cJSON_CreateString("strong"));
  cJSON_AddItemToArray(cJSON_GetObjectItem(v, "matched"), cJSON_Parse("[\"send\"]"));
  cJSON_AddItemToArray(cJSON_GetObjectItem(v, "loaded"), cJSON_CreateString("evil__issue"));
  char *h = cJSON_PrintUnformatted(header), *dd = cJSON_PrintUnformatted(d);
  char edited[16384];
  snprintf(edited, sizeof edited, "%s\n%s\n", h, dd);
  s = open_session("{\"maxPerSearch\":5}", edited, "{\"divergence\":\"warn\"}");
  CHECK(s != NULL);
  if (s) {
    char *o = pre(s, 0, "send a slack message", &st);
    cJSON *out = cJSON_Parse(o);
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(cJSON_GetObjectItem(out, "result"), "tools")) {
      const char *name = cJSON_GetObjectItem(t, "name")->valuestring;
      if (strcmp(name, "evil__issue") == 0) CHECK(!cJSON_IsTrue(cJSON_GetObjectItem(t, "loaded")));
      if (strcmp(name, "slack__send") == 0) CHECK(cJSON_IsTrue(cJSON_GetObjectItem(t, "loaded")));
    }
    cJSON_Delete(out);
    tsift_free(o);
    tsift_session_free(s);
  }
  free(h);
  free(dd);
  cJSON_Delete(header);
  cJSON_Delete(d);
  tsift_free(j);
}

static void test_pre_search_refused(void) {
  tsift_status st;
  tsift_session *s = open_session("{\"auto\":true}", NULL, NULL);
  char *o = s ? pre(s, 0, "send a slack message", &st) : NULL;
  CHECK(s && st == TSIFT_E_STATE && o == NULL);
  tsift_session_free(s);
  s = open_session("{}", NULL, NULL);
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_pre_search(s, 0, NULL, 3, &out, &len, &err), TSIFT_E_ARG);
  /* nothing to search in an empty text: a decision that found nothing */
  o = pre(s, 0, "", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK_CONTAINS(o, "\"results\":[]");
  tsift_free(o);
  tsift_session_free(s);
}

/* A calls file (the CLIs' session run) takes pre-search lines too. */
static void test_pre_search_line(void) {
  tsift_session *s = open_session("{\"maxPerSearch\":5}", NULL, NULL);
  if (!s) return;
  const char calls[] = "{\"turn\":0,\"preSearch\":\"send a slack message\"}\n"
                       "{\"turn\":0,\"call\":0,\"tool\":\"slack__send\",\"args\":{}}\n"
                       "{\"turn\":1,\"preSearch\":3}\n"
                       "{\"turn\":1,\"preSearch\":\"x\",\"tool\":\"y\"}\n";
  size_t pos = 0, line = 0, len = 0;
  char *out = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_call_next(s, calls, sizeof calls - 1, &pos, &line, &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"source\":\"host-pre-search\"");
  tsift_free(out);
  CHECK_EQ_INT(tsift_session_call_next(s, calls, sizeof calls - 1, &pos, &line, &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"allowed\":true"); /* the pre-search loaded it */
  tsift_free(out);
  for (int i = 0; i < 2; i++) {
    out = NULL;
    CHECK_EQ_INT(tsift_session_call_next(s, calls, sizeof calls - 1, &pos, &line, &out, &len, &err), TSIFT_E_CONFIG);
    CHECK_CONTAINS(err.message, "or {\"turn\": integer, \"preSearch\": string}");
    CHECK(out == NULL);
  }
  tsift_session_free(s);
}

int main(void) {
  test_auto_all();
  test_auto_budgets();
  test_pre_search();
  test_pre_search_narrows();
  test_pre_search_refused();
  test_pre_search_line();
  return harness_finish("test_session_modes");
}
