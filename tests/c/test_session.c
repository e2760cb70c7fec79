/* test_session.c — sessions (session.c, session_common.c; SPEC S6, S7):
 * the menu's order and append-only growth, decision ids that must advance,
 * the dispatch gate, unknown and long called names refused and echoed
 * capped (a huge name is not copied whole), configuration errors.
 * search_tools: test_session_search.c and test_session_ranker.c (host
 * rankers); replay: test_session_replay.c; skills: test_skills.c; a session
 * over a snapshot: test_snapshot.c. */
#include <stdlib.h>

#include "harness.h"
#include "largest_alloc.h"
#include "session_fixture.h"
#include "text/text.h"
#include "toolsift.h"

static void test_menu_order_and_growth(void) {
  tsift_session *s = open_session("{\"alwaysLoaded\":[\"mail__send\"],\"maxPerSearch\":2}", NULL, NULL);
  CHECK(s != NULL);
  if (!s) return;
  char names[2048];
  char *m = menu(s);
  menu_names(m, names, sizeof names);
  CHECK_EQ_STR(names, "search_tools reply mail__send");
  tsift_free(m);
  tsift_status st;
  char *r = call(s, 0, 0, "search_tools", "{\"query\":\"create issue\"}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK_CONTAINS(r, "\"decision\":{\"id\":\"t#turn:0:tool:0:search\",\"source\":\"agent-tool-search\"");
  tsift_free(r);
  m = menu(s);
  menu_names(m, names, sizeof names);
  /* both are exact name matches; the shorter Jira document scores higher */
  CHECK_EQ_STR(names, "search_tools reply mail__send jira__create_issue gh__create_issue");
  tsift_free(m);
  /* A tool on the menu is never returned again; the menu only grows. */
  r = call(s, 1, 0, "search_tools", "{\"query\":\"create issue\"}", &st);
  CHECK(strstr(r, "\"name\":\"gh__create_issue\"") == NULL);
  CHECK(strstr(r, "\"name\":\"jira__create_issue\"") == NULL);
  tsift_free(r);
  m = menu(s);
  menu_names(m, names, sizeof names);
  CHECK(strncmp(names, "search_tools reply mail__send jira__create_issue gh__create_issue", 63) == 0);
  tsift_free(m);
  /* A search must advance past the last decision: ids stay unique. */
  r = call(s, 1, 0, "search_tools", "{\"query\":\"send\"}", &st);
  CHECK_EQ_INT(st, TSIFT_E_ARG);
  CHECK(r == NULL);
  r = call(s, 0, 9, "search_tools", "{\"query\":\"send\"}", &st);
  CHECK_EQ_INT(st, TSIFT_E_ARG);
  /* Dispatch gate. */
  r = call(s, 1, 1, "gh__create_issue", "{}", &st);
  CHECK_CONTAINS(r, "\"result\":{\"allowed\":true}");
  tsift_free(r);
  r = call(s, 1, 2, "reply", "{}", &st);
  CHECK_CONTAINS(r, "\"result\":{\"allowed\":true}");
  tsift_free(r);
  /* A NUL inside a name never matches a tool on the menu. */
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_call(s, 1, 5, "reply\0x", 7, "{}", 2, &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"error\":\"not_on_menu\"");
  tsift_free(out);
  r = call(s, 1, 3, "slack__send", "{}", &st);
  CHECK_CONTAINS(r, "\"error\":\"not_on_menu\"");
  CHECK_CONTAINS(r, "\"decision\":null");
  tsift_free(r);
  /* A long unknown name is echoed capped at 64 bytes. */
  char longname[300];
  memset(longname, 'x', 299);
  longname[299] = 0;
  r = call(s, 1, 4, longname, "{}", &st);
  CHECK_CONTAINS(r, "\"tool\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}");
  tsift_free(r);
  tsift_session_free(s);
}

static void test_config_errors(void) {
  const char *cases[][2] = {
      {"{\"maxPerSearch\":0}", "search.maxPerSearch: expected an integer from 1 to 50"},
      {"{\"maxPerSearch\":51}", "search.maxPerSearch"},
      {"{\"maxLoaded\":201}", "search.maxLoaded"},
      {"{\"maxSearches\":-1}", "search.maxSearches"},
      {"{\"maxMenuChars\":\"big\"}", "search.maxMenuChars"},
      {"{\"toolName\":\"reply\"}", "search.toolName \"reply\" collides"},
      {"{\"toolName\":\"mail__send\"}", "search.toolName \"mail__send\" collides"},
      {"{\"alwaysLoaded\":[\"nope\"]}", "search.alwaysLoaded[0]: no catalog tool \"nope\""},
      {"{\"alwaysLoaded\":[\"evil__issue\"]}", "is tainted"},
      {"{\"colour\":1}", "config: search: unknown key \"colour\""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *cfg = config(cases[i][0]);
    tsift_session *s = (tsift_session *)0x1;
    tsift_error err;
    CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), NULL, 0, NULL, 0, &s, &err), TSIFT_E_CONFIG);
    CHECK(s == NULL);
    CHECK_CONTAINS(err.message, cases[i][1]);
  }
  /* Agent tools colliding with each other or with the catalog. */
  const char *dup = "{\"tools\":[{\"name\":\"a\"},{\"name\":\"a\"}],\"catalog\":[]}";
  tsift_session *s = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_new(dup, strlen(dup), NULL, 0, NULL, 0, &s, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "config: agent tools: tools[1] (\"a\"): duplicate id");
  const char *clash = "{\"tools\":[{\"name\":\"x\"}],\"catalog\":[{\"name\":\"x\"}]}";
  CHECK_EQ_INT(tsift_session_new(clash, strlen(clash), NULL, 0, NULL, 0, &s, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "collides with a catalog tool");
  /* the agent's own tools are the host's: their ids must be model-facing */
  const char *badagent = "{\"tools\":[{\"name\":\"has space\"}],\"catalog\":[]}";
  CHECK_EQ_INT(tsift_session_new(badagent, strlen(badagent), NULL, 0, NULL, 0, &s, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "config: agent tools: tools[0] (\"has space\"): invalid id");
}

/* A called tool name longer than any id is cut before its invalid bytes are
 * replaced: the refusal echoes the same text as replacing the whole name
 * first would, and a 4 MiB name is not copied whole. */
static void test_long_call_names(void) {
  tsift_session *s = open_session("{}", NULL, NULL);
  if (!s) return;
  size_t big = 4u << 20;
  char *name = malloc(big + 1);
  for (size_t i = 0; i < big; i++) name[i] = (char)(i % 3 == 0 ? 0xff : 'a' + (int)(i % 26));
  name[big] = 0;
  /* the echo as it was: the whole name replaced, then cut by the writer */
  size_t fixed_len = 0;
  char *fixed = tsift_utf8_sanitize(name, big, &fixed_len);
  char want_tool[200], want_echo[100];
  size_t t = tsift_utf8_cut(fixed, fixed_len, 128), e = tsift_utf8_cut(fixed, fixed_len, 64);
  snprintf(want_tool, sizeof want_tool, "\"tool\":\"%.*s\"", (int)t, fixed);
  snprintf(want_echo, sizeof want_echo, "\"tool\":\"%.*s\"}", (int)e, fixed);
  tsift_free(fixed);
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_set_allocator(largest_malloc, largest_realloc, free);
  g_largest = 0;
  tsift_status st = tsift_session_call(s, 0, 0, name, big, "{}", 2, &out, &len, &err);
  tsift_set_allocator(NULL, NULL, NULL);
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK(g_largest < 64 * 1024); /* was 12 MiB: the whole name replaced */
  if (out) {
    CHECK_CONTAINS(out, "\"error\":\"not_on_menu\"");
    CHECK_CONTAINS(out, want_tool);
    CHECK_CONTAINS(out, want_echo);
  }
  tsift_free(out);
  /* a name of exactly 1024 bytes is still looked up (and refused: unknown) */
  out = call(s, 0, 1, "search_tools", "{\"query\":\"issue\"}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  tsift_free(out);
  memset(name, 'a', 1024);
  name[1024] = 0;
  out = call(s, 0, 2, name, "{}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  if (out) CHECK_CONTAINS(out, "\"error\":\"not_on_menu\"");
  tsift_free(out);
  free(name);
  tsift_session_free(s);
}

int main(void) {
  test_long_call_names();
  test_menu_order_and_growth();
  test_config_errors();
  return harness_finish("test_session");
}
