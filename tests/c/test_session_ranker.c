/* test_session_ranker.c — host rankers in search_tools (session_search.c;
 * SPEC S6, S9): a hostile or broken ranker can narrow results but never
 * widen them; over-asking and widening rounds; the two-phase protocol used
 * through wasm; replay without ranker calls; random hostile rankers (fixed
 * seed) and forged replays of their journals. */
#include <stdint.h>
#include <stdlib.h>

#include "cJSON.h"
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

/* ---- random hostile rankers (issue 8), then tampered replays ------------ */

static uint32_t g_rng = 0xB5297A4Du;
static uint32_t rnd(uint32_t n) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 17;
  g_rng ^= g_rng << 5;
  return g_rng % n;
}

/* What a hostile ranker may say: every id of the config (inside and outside
 * the universe, on the menu, tainted), the agent's and the meta-tool's
 * names, near-misses, wrong types, a NUL cut, a long string. */
static const char *const POOL[] = {
    "\"a__one\"", "\"a__two\"", "\"a__three\"", "\"a__four\"", "\"a__bad\"", "\"b__denied\"", "\"reply\"",
    "\"search_tools\"", "\"nope\"", "\"\"", "7", "null", "true", "[\"a__one\"]", "{\"id\":\"a__two\"}",
    "\"A__ONE\"", "\"a__one \"", "\"a__one\\u0000x\"", "\"a__\"", "-1e400"};
#define NPOOL (sizeof POOL / sizeof *POOL)

typedef struct random_ranker {
  char answer[4096];
  int calls;
} random_ranker;

static int random_rank(void *user, const char *query, size_t qlen, unsigned want, const char **ids, size_t *len) {
  (void)query;
  (void)qlen;
  (void)want;
  random_ranker *r = user;
  r->calls++;
  uint32_t shape = rnd(20);
  if (shape == 0) return 1; /* fails */
  if (shape == 1) snprintf(r->answer, sizeof r->answer, "%s", rnd(2) ? "{\"ids\":[]}" : "\"a__one\"");
  else if (shape == 2) snprintf(r->answer, sizeof r->answer, "[\"a__one\",");      /* truncated */
  else {
    size_t o = (size_t)snprintf(r->answer, sizeof r->answer, "[");
    for (uint32_t n = rnd(24), i = 0; i < n && o < sizeof r->answer - 64; i++)
      o += (size_t)snprintf(r->answer + o, sizeof r->answer - o, "%s%s", i ? "," : "", POOL[rnd(NPOOL)]);
    snprintf(r->answer + o, sizeof r->answer - o, "]");
  }
  *ids = r->answer;
  *len = strlen(r->answer);
  return 0;
}

static int in_list(const char *id, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(id, list[i]) == 0) return 1;
  return 0;
}

/* The names on an anthropic menu, checked against the authority of CONFIG:
 * the meta-tool, the agent tool, a__four (alwaysLoaded) and the untainted
 * universe, none twice. Fills names (count in *n). Returns 1 when inside. */
static int menu_inside(tsift_session *s, char names[][32], size_t *n) {
  static const char *const AUTH[] = {"search_tools", "reply", "a__four", "a__one", "a__two", "a__three"};
  char *m = NULL;
  size_t len = 0;
  tsift_error err;
  if (tsift_session_menu_json(s, "anthropic", &m, &len, &err) != TSIFT_OK) return 0;
  cJSON *doc = cJSON_ParseWithLength(m, len);
  tsift_free(m);
  int ok = cJSON_IsArray(doc);
  *n = 0;
  const cJSON *tool;
  cJSON_ArrayForEach(tool, doc) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(tool, "name");
    if (!cJSON_IsString(name) || !in_list(name->valuestring, AUTH, 6) || *n >= 8) {
      ok = 0;
      break;
    }
    for (size_t k = 0; k < *n; k++) ok &= strcmp(names[k], name->valuestring) != 0;
    snprintf(names[(*n)++], 32, "%s", name->valuestring);
  }
  cJSON_Delete(doc);
  return ok;
}

/* One search's decision against the universe: results inside it (never the
 * menu, no duplicates, at most a page of 2), loaded inside results and
 * never tainted. A refusal records nothing. */
static int decision_ok(const char *out, char menu_before[][32], size_t nmenu) {
  static const char *const UNIVERSE[] = {"a__one", "a__two", "a__three", "a__bad"};
  cJSON *doc = cJSON_Parse(out);
  const cJSON *dec = cJSON_GetObjectItemCaseSensitive(doc, "decision");
  int ok = doc != NULL;
  if (cJSON_IsObject(dec)) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(dec, "value");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(v, "results");
    const cJSON *loaded = cJSON_GetObjectItemCaseSensitive(v, "loaded");
    ok &= cJSON_IsArray(res) && cJSON_IsArray(loaded) && cJSON_GetArraySize(res) <= 2;
    const char *seen[4];
    size_t ns = 0;
    const cJSON *id;
    cJSON_ArrayForEach(id, res) {
      ok &= cJSON_IsString(id) && in_list(id->valuestring, UNIVERSE, 4) && ns < 4;
      if (!ok) break;
      for (size_t k = 0; k < nmenu; k++) ok &= strcmp(menu_before[k], id->valuestring) != 0;
      ok &= !in_list(id->valuestring, seen, ns);
      seen[ns++] = id->valuestring;
    }
    cJSON_ArrayForEach(id, loaded) {
      ok &= cJSON_IsString(id) && in_list(id->valuestring, seen, ns) && strcmp(id->valuestring, "a__bad") != 0;
    }
  } else {
    ok &= cJSON_IsNull(dec);
  }
  cJSON_Delete(doc);
  return ok;
}

/* Insert an id the universe does not authorise into a random results or
 * loaded array of a JSON Lines journal. */
static void forge(const char *j, char *dst, size_t cap) {
  static const char *const FORGED[] = {"\"a__bad\"", "\"b__denied\"", "\"a__four\"", "\"reply\"",
                                       "\"search_tools\"", "\"nope\"", "7", "\"a__one\",\"a__one\""};
  const char *key = rnd(2) ? "\"results\":[" : "\"loaded\":[";
  const char *hits[64];
  size_t nh = 0;
  for (const char *p = j; nh < 64 && (p = strstr(p, key)) != NULL; p++) hits[nh++] = p;
  if (!nh) {
    snprintf(dst, cap, "%s", j);
    return;
  }
  size_t at = (size_t)(hits[rnd((uint32_t)nh)] - j) + strlen(key);
  snprintf(dst, cap, "%.*s%s%s%s", (int)at, j, FORGED[rnd(sizeof FORGED / sizeof *FORGED)],
           j[at] == ']' ? "" : ",", j + at);
}

/* The span of `s` from `from` to the first `to` after it (0 if missing). */
static size_t span(const char *s, const char *from, const char *to, const char **at) {
  const char *a = s ? strstr(s, from) : NULL;
  const char *b = a ? strstr(a, to) : NULL;
  *at = a;
  return b ? (size_t)(b - a) : 0;
}
static int same_span(const char *x, const char *y, const char *from, const char *to) {
  const char *a, *b;
  size_t n = span(x, from, to, &a), m = span(y, from, to, &b);
  return n && n == m && memcmp(a, b, n) == 0;
}
static int same_outcome(const char *live, const char *replay) {
  return same_span(live, replay, "\"result\":", ",\"decision\":") &&
         same_span(live, replay, "\"results\":", "]}");
}

static void test_random_hostile_rankers(void) {
  static const char *const QUERIES[] = {"{\"query\":\"one\"}", "{\"query\":\"two three\"}",
                                        "{\"query\":\"bad\",\"limit\":1}", "{\"query\":\"denied four\"}",
                                        "{\"query\":\"anything\"}"};
  int sessions = 0, searches = 0, bad = 0, outside = 0, replay_differs = 0, tampered = 0, widened = 0;
  long ranker_calls = 0;
  for (int t = 0; t < 200; t++) {
    random_ranker rr = {{0}, 0};
    tsift_session *s = NULL;
    tsift_error err;
    if (tsift_session_new(CONFIG, strlen(CONFIG), NULL, 0, NULL, 0, &s, &err) != TSIFT_OK ||
        tsift_session_set_ranker(s, "random-1", random_rank, &rr, &err) != TSIFT_OK) {
      fprintf(stderr, "session: %s\n", err.message);
      CHECK(0);
      tsift_session_free(s);
      continue;
    }
    sessions++;
    char *outs[5] = {0};
    unsigned nsearch = 1 + rnd(5);
    for (unsigned turn = 0; turn < nsearch; turn++) {
      char names[8][32];
      size_t nn = 0;
      if (!menu_inside(s, names, &nn)) outside++;
      tsift_status st;
      outs[turn] = search(s, turn, QUERIES[rnd(5)], &st);
      searches++;
      if (st != TSIFT_OK || !outs[turn] || !decision_ok(outs[turn], names, nn)) {
        bad++;
        if (bad <= 3) fprintf(stderr, "hostile answer %s gave:\n%s\n", rr.answer, outs[turn] ? outs[turn] : "(null)");
      }
    }
    char live_names[8][32];
    size_t live_n = 0;
    if (!menu_inside(s, live_names, &live_n)) outside++;
    ranker_calls += rr.calls;
    char *j = NULL;
    size_t jlen = 0;
    CHECK_EQ_INT(tsift_session_journal_jsonl(s, &j, &jlen, &err), TSIFT_OK);

    /* replay as recorded: the same outputs, no ranker */
    tsift_session *r = NULL;
    if (j && tsift_session_new(CONFIG, strlen(CONFIG), j, jlen, NULL, 0, &r, &err) == TSIFT_OK) {
      for (unsigned turn = 0; turn < nsearch; turn++) {
        tsift_status st;
        char *again = search(r, turn, "{\"query\":\"replayed\"}", &st);
        /* the model-facing result and the decision's results and loaded
         * are the recorded ones (the decision's query and ranker kind are
         * the replay's own; a refusal recorded nothing and replays as a
         * divergence, so it is left out) */
        if (strstr(outs[turn], "\"decision\":null") == NULL && !same_outcome(outs[turn], again)) {
          replay_differs++;
          if (replay_differs < 3) fprintf(stderr, "live: %s\nreplay: %s\n", outs[turn], again ? again : "(null)");
        }
        tsift_free(again);
      }
      tsift_session_free(r);
    } else if (j) {
      fprintf(stderr, "replay: %s\n", err.message);
      replay_differs++;
    }

    /* tampered replays: forged ids the universe does not authorise */
    for (int e = 0; j && jlen && e < 4; e++) {
      static char edited[16384], twice[16384];
      forge(j, edited, sizeof edited);
      if (rnd(2)) {
        forge(edited, twice, sizeof twice);
        memcpy(edited, twice, sizeof edited);
      }
      tsift_session *x = NULL;
      if (tsift_session_new(CONFIG, strlen(CONFIG), edited, strlen(edited), "{\"divergence\":\"warn\"}", 21, &x,
                            &err) != TSIFT_OK)
        continue; /* an edit the journal reader refuses is a typed error: fine */
      tampered++;
      for (unsigned turn = 0; turn < nsearch + 1; turn++) {
        tsift_status st;
        tsift_free(search(x, turn, "{\"query\":\"replayed\"}", &st));
      }
      char names[8][32];
      size_t nn = 0;
      if (!menu_inside(x, names, &nn)) outside++;
      for (size_t k = 0; k < nn; k++) {
        const char *live_list[8];
        for (size_t q = 0; q < live_n; q++) live_list[q] = live_names[q];
        if (!in_list(names[k], live_list, live_n)) {
          widened++;
          fprintf(stderr, "tampered journal widened the menu by %s:\n%s\n", names[k], edited);
        }
      }
      tsift_session_free(x);
    }
    tsift_free(j);
    for (unsigned k = 0; k < nsearch; k++) tsift_free(outs[k]);
    tsift_session_free(s);
  }
  printf("random hostile rankers: %d sessions, %d searches, %ld ranker calls: %d decisions outside the "
         "universe, %d menus outside the authority, %d replays that differ; %d tampered replays, %d widened\n",
         sessions, searches, ranker_calls, bad, outside, replay_differs, tampered, widened);
  CHECK(searches > 400);
  CHECK(tampered > 400);
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(outside, 0);
  CHECK_EQ_INT(replay_differs, 0);
  CHECK_EQ_INT(widened, 0);
}

int main(void) {
  test_hostile_ids_are_intersected();
  test_flood_is_clipped();
  test_widening_finds_more();
  test_failing_ranker();
  test_two_phase();
  test_replay_calls_no_ranker();
  test_random_hostile_rankers();
  return harness_finish("test_session_ranker");
}
