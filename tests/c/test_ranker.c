/* test_ranker.c — host rankers in sessions: a hostile or broken ranker can
 * narrow results but never widen them; over-asking and widening rounds;
 * the two-phase protocol used through wasm; replay without ranker calls. */
#include <stdlib.h>

#include "harness.h"
#include "toolsift.h"

static const char CONFIG[] =
    "{\"loop\":\"r\",\"tools\":[{\"name\":\"reply\"}],"
    "\"catalog\":[{\"id\":\"a__one\",\"name\":\"one\"},{\"id\":\"a__two\",\"name\":\"two\"},"
    "{\"id\":\"a__three\",\"name\":\"three\"},{\"id\":\"a__four\",\"name\":\"four\"},"
    "{\"id\":\"b__denied\",\"name\":\"denied\"},{\"id\":\"a__bad\",\"name\":\"bad\",\"tainted\":true}],"
    "\"search\":{\"namespaces\":[\"a__\"],\"maxPerSearch\":2,\"alwaysLoaded\":[\"a__four\"]}}";

/* A scripted ranker: answers `script[round]`, counts calls, records `want`. */
typedef struct script {
  const char *answers[8];
  int fail_at; /* round that fails (-1: none) */
  int calls;
  unsigned wants[8];
  char *big; /* a generated answer */
} script;

static int scripted(void *user, const char *query, size_t qlen, unsigned want, const char **ids,
                    size_t *len) {
  (void)query;
  (void)qlen;
  script *s = user;
  int round = s->calls++;
  if (round < 8) s->wants[round] = want;
  if (round == s->fail_at) return 1;
  /* a consistent ranker: later rounds repeat the last scripted answer */
  const char *a = "[]";
  for (int k = 0; k <= round && k < 8; k++)
    if (s->answers[k]) a = s->answers[k];
  if (strcmp(a, "BIG") == 0) a = s->big;
  *ids = a;
  *len = strlen(a);
  return 0;
}

static tsift_session *open_with(script *sc, const char *journal) {
  tsift_session *s = NULL;
  tsift_error err;
  if (tsift_session_new(CONFIG, strlen(CONFIG), journal, journal ? strlen(journal) : 0, NULL, 0, &s,
                        &err) != TSIFT_OK) {
    fprintf(stderr, "session_new: %s\n", err.message);
    return NULL;
  }
  if (sc && tsift_session_set_ranker(s, "scripted-1", scripted, sc, &err) != TSIFT_OK) {
    fprintf(stderr, "set_ranker: %s\n", err.message);
    tsift_session_free(s);
    return NULL;
  }
  return s;
}

static char *search(tsift_session *s, unsigned turn, const char *args, tsift_status *st) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  *st = tsift_session_call(s, turn, 0, "search_tools", 12, args, strlen(args), &out, &len, &err);
  return out;
}

static void test_hostile_ids_are_intersected(void) {
  script sc = {{"[\"b__denied\",\"nope\",\"a__four\",\"a__bad\",\"a__one\",\"a__one\",7,\"a__two\"]"}, -1, 0, {0}, NULL};
  tsift_session *s = open_with(&sc, NULL);
  if (!s) return;
  tsift_status st;
  char *r = search(s, 0, "{\"query\":\"anything\"}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  /* denied, unknown, on the menu, duplicate and non-string ids are gone; the
   * tainted tool is returned but never loaded; the page holds 2 */
  CHECK_CONTAINS(r, "\"results\":[\"a__bad\",\"a__one\"],\"loaded\":[\"a__one\"]");
  CHECK_CONTAINS(r, "\"ranker\":\"scripted-1\"");
  CHECK_CONTAINS(r, "ranker: dropped 5 ids outside the universe");
  /* over-ask: page 2 + hidden tools (b__denied, a__four on the menu) = 4;
   * the first 4 ids hold one usable tool, so it widens once to 8 */
  CHECK_EQ_INT(sc.calls, 2);
  CHECK_EQ_INT(sc.wants[0], 4);
  CHECK_EQ_INT(sc.wants[1], 8);
  tsift_free(r);
  tsift_session_free(s);
}

static void test_flood_is_clipped(void) {
  script sc = {{"BIG"}, -1, 0, {0}, NULL};
  size_t cap = 10000 * 12 + 16, o = 0;
  sc.big = malloc(cap);
  o += (size_t)sprintf(sc.big + o, "[");
  for (int i = 0; i < 10000; i++) o += (size_t)sprintf(sc.big + o, "%s\"x%d\"", i ? "," : "", i);
  sprintf(sc.big + o, "]");
  tsift_session *s = open_with(&sc, NULL);
  if (s) {
    tsift_status st;
    char *r = search(s, 0, "{\"query\":\"q\"}", &st);
    CHECK_EQ_INT(st, TSIFT_OK);
    /* 10000 unknown ids: clipped to what was asked each round, nothing survives;
     * the page is short from full answers, so the ranker is asked 4 times */
    CHECK_CONTAINS(r, "\"results\":[]");
    CHECK_EQ_INT(sc.calls, 4);
    CHECK_EQ_INT(sc.wants[0], 4);
    CHECK_EQ_INT(sc.wants[1], 8);
    CHECK_EQ_INT(sc.wants[2], 16);
    CHECK_EQ_INT(sc.wants[3], 32);
    tsift_free(r);
    tsift_session_free(s);
  }
  free(sc.big);
}

static void test_widening_finds_more(void) {
  /* Round 1 returns only hidden ids (a full answer of 4), round 2 the real ones. */
  script sc = {{"[\"b__denied\",\"a__four\",\"b__denied\",\"a__four\"]", "[\"a__three\",\"a__two\"]"}, -1, 0,
               {0}, NULL};
  tsift_session *s = open_with(&sc, NULL);
  if (!s) return;
  tsift_status st;
  char *r = search(s, 0, "{\"query\":\"q\"}", &st);
  CHECK_EQ_INT(sc.calls, 2);
  CHECK_EQ_INT(sc.wants[1], 8);
  CHECK_CONTAINS(r, "\"results\":[\"a__three\",\"a__two\"]");
  tsift_free(r);
  tsift_session_free(s);
}

static void test_failing_ranker(void) {
  const char *garbage[] = {NULL, "not json", "{\"ids\":[]}", "\"a__one\"", "42"};
  for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
    script sc = {{garbage[i]}, garbage[i] ? -1 : 0, 0, {0}, NULL};
    tsift_session *s = open_with(&sc, NULL);
    if (!s) return;
    tsift_status st;
    char *r = search(s, 0, "{\"query\":\"q\"}", &st);
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(r, "\"error\":\"search_unavailable\"");
    CHECK_CONTAINS(r, "\"decision\":null");
    tsift_free(r);
    char *j = NULL;
    size_t len;
    tsift_error err;
    tsift_session_journal_jsonl(s, &j, &len, &err);
    CHECK_EQ_STR(j, ""); /* nothing recorded */
    tsift_free(j);
    /* the session stays usable */
    r = search(s, 1, "{\"query\":\"q\"}", &st);
    CHECK_EQ_INT(st, TSIFT_OK);
    tsift_free(r);
    tsift_session_free(s);
  }
}

static void test_two_phase(void) {
  tsift_session *s = open_with(NULL, NULL);
  if (!s) return;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_set_ranker(s, "host-js", NULL, NULL, &err), TSIFT_OK);
  tsift_status st;
  char *r = search(s, 0, "{\"query\":\"find it\"}", &st);
  CHECK_EQ_STR(r, "{\"call\":{\"turn\":0,\"call\":0,\"tool\":\"search_tools\"},\"rank\":{\"kind\":\"host-js\","
                  "\"query\":\"find it\",\"want\":4}}");
  tsift_free(r);
  /* nothing else may happen while a ranking is pending */
  r = search(s, 1, "{\"query\":\"other\"}", &st);
  CHECK_EQ_INT(st, TSIFT_E_STATE);
  CHECK_EQ_INT(tsift_session_set_ranker(s, NULL, NULL, NULL, &err), TSIFT_E_STATE);
  char *out = NULL;
  size_t len = 0;
  const char *ids = "[\"a__two\",\"a__one\"]";
  CHECK_EQ_INT(tsift_session_ranked(s, ids, strlen(ids), &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"value\":{\"ranker\":\"host-js\",\"query\":\"find it\",\"results\":[\"a__two\",\"a__one\"],"
                      "\"loaded\":[\"a__two\",\"a__one\"]}");
  tsift_free(out);
  CHECK_EQ_INT(tsift_session_ranked(s, ids, strlen(ids), &out, &len, &err), TSIFT_E_STATE);
  CHECK_EQ_INT(tsift_session_set_ranker(s, "late", NULL, NULL, &err), TSIFT_E_STATE);
  tsift_session_free(s);
}

static void test_replay_calls_no_ranker(void) {
  script sc = {{"[\"a__one\",\"a__two\"]", "[\"a__three\"]"}, -1, 0, {0}, NULL};
  tsift_session *s = open_with(&sc, NULL);
  if (!s) return;
  tsift_status st;
  char *r1 = search(s, 0, "{\"query\":\"first\"}", &st);
  char *r2 = search(s, 1, "{\"query\":\"second\"}", &st);
  char *j = NULL;
  size_t len;
  tsift_error err;
  tsift_session_journal_jsonl(s, &j, &len, &err);
  CHECK_EQ_INT(sc.calls, 2);
  script again = {{NULL}, -1, 0, {0}, NULL};
  tsift_session *replay = open_with(&again, j);
  if (replay) {
    char *p1 = search(replay, 0, "{\"query\":\"first\"}", &st);
    char *p2 = search(replay, 1, "{\"query\":\"second\"}", &st);
    CHECK_EQ_STR(p1, r1);
    CHECK_EQ_STR(p2, r2);
    CHECK_EQ_INT(again.calls, 0);
    tsift_free(p1);
    tsift_free(p2);
    tsift_session_free(replay);
  }
  tsift_free(r1);
  tsift_free(r2);
  tsift_free(j);
  tsift_session_free(s);
}

int main(void) {
  test_hostile_ids_are_intersected();
  test_flood_is_clipped();
  test_widening_finds_more();
  test_failing_ranker();
  test_two_phase();
  test_replay_calls_no_ranker();
  return harness_finish("test_ranker");
}
