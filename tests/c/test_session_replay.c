/* test_session_replay.c — recorded decisions and their replay (SPEC S9;
 * session.c, session_search.c's re-admission): exact replay (the same
 * outputs, menu and journal, no ranker calls; the journal applied alone),
 * randomised journal tampering that can only narrow, the divergence modes
 * and malformed journals. Replays of host-ranked sessions:
 * test_session_ranker.c; activations pinned by digest: test_skills.c. */
#include <stdlib.h>

#include "harness.h"
#include "session_fixture.h"
#include "toolsift.h"

static const char *CALLS[][2] = {
    {"search_tools", "{\"query\":\"create issue\"}"},
    {"search_tools", "{\"query\":\"send a message\",\"limit\":2}"},
    {"gh__create_issue", "{}"},
    {"search_tools", "{\"query\":\"list issues\"}"},
    {"search_tools", "{\"query\":\"jira search\"}"},
};
#define NCALLS (sizeof CALLS / sizeof *CALLS)

/* Run the calls, append every output line to `outs`. */
static void run_all(tsift_session *s, char *outs, size_t cap) {
  size_t o = 0;
  outs[0] = 0;
  for (size_t i = 0; i < NCALLS; i++) {
    tsift_status st;
    char *r = call(s, (unsigned)i, 0, CALLS[i][0], CALLS[i][1], &st);
    const char *text = st == TSIFT_OK && r ? r : "<error>";
    size_t n = strlen(text);
    if (o + n + 2 < cap) {
      memcpy(outs + o, text, n);
      o += n;
      outs[o++] = '\n';
      outs[o] = 0;
    }
    tsift_free(r);
  }
}

static size_t metric(tsift_session *s, const char *key) {
  char *m = NULL;
  size_t len;
  tsift_error err;
  tsift_session_metrics_json(s, &m, &len, &err);
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = m ? strstr(m, pat) : NULL;
  size_t v = p ? (size_t)strtoul(p + strlen(pat), NULL, 10) : (size_t)-1;
  tsift_free(m);
  return v;
}

static void test_exact_replay(void) {
  static char live[32768], replayed[32768];
  tsift_session *s = open_session("{\"maxPerSearch\":3}", NULL, NULL);
  if (!s) return;
  run_all(s, live, sizeof live);
  char *j = journal(s);
  char *m1 = menu(s);
  CHECK_EQ_INT(metric(s, "rankerCalls"), 4);
  tsift_session *r = open_session("{\"maxPerSearch\":3}", j, NULL);
  CHECK(r != NULL);
  if (r) {
    run_all(r, replayed, sizeof replayed);
    CHECK_EQ_STR(replayed, live);
    char *m2 = menu(r);
    CHECK_EQ_STR(m2, m1);
    tsift_free(m2);
    char *j2 = journal(r);
    CHECK_EQ_STR(j2, j);
    tsift_free(j2);
    CHECK_EQ_INT(metric(r, "rankerCalls"), 0);
    CHECK_EQ_INT(metric(r, "replayed"), 4);
    /* The menu alone, from the journal without the calls. */
    tsift_session *r2 = open_session("{\"maxPerSearch\":3}", j, NULL);
    tsift_error err;
    CHECK_EQ_INT(tsift_session_apply_journal(r2, &err), TSIFT_OK);
    char *m3 = menu(r2);
    CHECK_EQ_STR(m3, m1);
    tsift_free(m3);
    tsift_session_free(r2);
    tsift_session_free(r);
  }
  tsift_free(m1);
  tsift_free(j);
  tsift_session_free(s);
}

/* Ids on a menu (anthropic shape), for subset checks. */
static int menu_subset(const char *small, const char *big) {
  char names[4096];
  menu_names(small, names, sizeof names);
  for (char *tok = strtok(names, " "); tok; tok = strtok(NULL, " ")) {
    char pat[200];
    snprintf(pat, sizeof pat, "{\"name\":\"%s\"", tok);
    if (!strstr(big, pat)) return 0;
  }
  return 1;
}

static unsigned rng_state = 12345;
static unsigned rnd(unsigned n) {
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 16) % n;
}

/* Apply one random edit to a JSON Lines journal. */
static void tamper(const char *src, char *dst, size_t cap) {
  static const char *forged[] = {"\"slack__send\"", "\"mail__send\"", "\"evil__issue\"",
                                 "\"remote__issue_sync\"", "\"nope\"", "5", "null", "[\"gh__close_issue\"]",
                                 "{\"x\":1}", "\"gh__create_issue\",\"gh__create_issue\""};
  strncpy(dst, src, cap - 1);
  dst[cap - 1] = 0;
  size_t len = strlen(dst);
  unsigned kind = rnd(5);
  const char *keys[] = {"\"results\":[", "\"loaded\":["};
  const char *key = keys[rnd(2)];
  /* pick a random occurrence of the key */
  const char *hits[16];
  size_t nh = 0;
  for (const char *p = dst; nh < 16 && (p = strstr(p, key)) != NULL; p++) hits[nh++] = p;
  if (!nh) return;
  char *at = (char *)hits[rnd((unsigned)nh)] + strlen(key);
  char tmp[8192];
  if (kind <= 1) { /* insert a forged element at the front */
    const char *f = forged[rnd(sizeof forged / sizeof *forged)];
    int empty = *at == ']';
    snprintf(tmp, sizeof tmp, "%s%s%s", f, empty ? "" : ",", at);
    if ((size_t)(at - dst) + strlen(tmp) + 1 < cap) strcpy(at, tmp);
  } else if (kind == 2) { /* replace the whole array by a wrong type */
    char *close = strchr(at, ']');
    if (!close) return;
    const char *wrong[] = {"0]", "\"x\"]", "{}]", "null]"};
    snprintf(tmp, sizeof tmp, "%s%s", wrong[rnd(4)], close + 1);
    at[-1] = 0; /* drop the '[' */
    if ((size_t)(at - dst) + strlen(tmp) + 1 < cap) strcpy(at - 1, tmp);
  } else if (kind == 3) { /* swap two decision lines */
    char *nl = strchr(dst, '\n');
    if (!nl || !nl[1]) return;
    size_t a = (size_t)(nl - dst) + 1;
    snprintf(tmp, sizeof tmp, "%s%.*s", dst + a, (int)a, dst);
    strncpy(dst, tmp, cap - 1);
  } else { /* every result also marked loaded */
    char *r = strstr(dst, "\"results\":[");
    char *l = r ? strstr(r, "\"loaded\":[") : NULL;
    if (!r || !l) return;
    char *rend = strchr(r, ']');
    char *lend = strchr(l, ']');
    snprintf(tmp, sizeof tmp, "\"loaded\":%.*s%s", (int)(rend - r - 10 + 1), r + 10, lend + 1);
    if ((size_t)(l - dst) + strlen(tmp) + 1 < cap) strcpy(l, tmp);
  }
  (void)len;
}

/* Authority of the tamper tests' session: namespaces gh__, jira__ and evil__
 * (evil__issue is tainted and never loads), maxLoaded 4. */
static const char *TAMPER_SEARCH = "{\"maxPerSearch\":3,\"maxLoaded\":4,\"namespaces\":[\"gh__\",\"jira__\",\"evil__\"]}";
static const char *AUTHORISED[] = {"search_tools", "reply", "gh__create_issue", "gh__list_issues",
                                   "gh__close_issue", "jira__create_issue", "jira__search"};

/* Every menu entry authorised, none twice, at most 4 searched tools. */
static int within_authority(const char *m) {
  char names[4096];
  menu_names(m, names, sizeof names);
  int count = 0;
  char seen[16][64];
  for (char *tok = strtok(names, " "); tok; tok = strtok(NULL, " ")) {
    int ok = 0;
    for (size_t i = 0; i < sizeof AUTHORISED / sizeof *AUTHORISED; i++) ok |= strcmp(tok, AUTHORISED[i]) == 0;
    if (!ok || count >= 16) return 0;
    for (int k = 0; k < count; k++)
      if (strcmp(seen[k], tok) == 0) return 0;
    snprintf(seen[count++], 64, "%s", tok);
  }
  return count - 2 <= 4;
}

/*
 * Two guarantees. (1) Any edit — forged ids, wrong types, extra ids, swapped
 * lines, everything marked loaded, stacked edits — leaves the menu inside the
 * authority: the universe (namespaces, never tainted), the caps, no repeats.
 * (2) An edit that only forges ids the live universe does not authorise
 * (unknown, hidden by namespaces, tainted, duplicates, wrong types) never
 * widens the menu beyond the live run's. A forged id that the universe does
 * authorise cannot be told from a real ranking without ranking again, so (1)
 * is the guarantee there, as SPEC S6 states it.
 */
static void test_tamper_never_widens(void) {
  static char live[32768], out[32768];
  tsift_session *s = open_session(TAMPER_SEARCH, NULL, NULL);
  if (!s) return;
  run_all(s, live, sizeof live);
  char *j = journal(s);
  char *live_menu = menu(s);
  CHECK(within_authority(live_menu));
  int outside = 0, widened = 0, failed = 0, runs = 0, strict_runs = 0;
  static char edited[16384], twice[16384];
  static const char *unauthorised[] = {"\"slack__send\"", "\"mail__send\"", "\"evil__issue\"",
                                       "\"remote__issue_sync\"", "\"nope\"", "5", "null",
                                       "{\"x\":1}", "\"gh__create_issue\",\"gh__create_issue\""};
  for (int i = 0; i < 600; i++) {
    int strict = i % 2 == 0;
    if (strict) {
      /* forge one unauthorised element into a random results/loaded array */
      const char *key = rnd(2) ? "\"results\":[" : "\"loaded\":[";
      const char *hits[16];
      size_t nh = 0;
      for (const char *p = j; nh < 16 && (p = strstr(p, key)) != NULL; p++) hits[nh++] = p;
      size_t at = (size_t)(hits[rnd((unsigned)nh)] - j) + strlen(key);
      const char *f = unauthorised[rnd(sizeof unauthorised / sizeof *unauthorised)];
      snprintf(edited, sizeof edited, "%.*s%s%s%s", (int)at, j, f, j[at] == ']' ? "" : ",", j + at);
    } else {
      tamper(j, edited, sizeof edited);
      if (rnd(2) == 0) {
        tamper(edited, twice, sizeof twice);
        memcpy(edited, twice, sizeof edited);
      }
    }
    tsift_session *r = open_session(TAMPER_SEARCH, edited, "{\"divergence\":\"warn\"}");
    if (!r) continue; /* an edit that breaks a line is a typed error at load: fine */
    runs++;
    run_all(r, out, sizeof out);
    if (strstr(out, "<error>")) failed++;
    char *m = menu(r);
    if (!m || !within_authority(m)) outside++;
    if (strict) {
      strict_runs++;
      if (!m || !menu_subset(m, live_menu)) {
        widened++;
        fprintf(stderr, "widened by:\n%s\n", edited);
      }
    }
    tsift_free(m);
    tsift_session_free(r);
  }
  printf("tamper: %d replays of edited journals (%d with unauthorised forgeries): %d outside authority, "
         "%d widened\n", runs, strict_runs, outside, widened);
  CHECK(runs > 400);
  CHECK(strict_runs >= 300);
  CHECK_EQ_INT(outside, 0);
  CHECK_EQ_INT(widened, 0);
  CHECK_EQ_INT(failed, 0);
  tsift_free(live_menu);
  tsift_free(j);
  tsift_session_free(s);
}

static void test_divergence_modes(void) {
  tsift_session *s = open_session("{}", NULL, NULL);
  if (!s) return;
  tsift_status st;
  tsift_free(call(s, 0, 0, "search_tools", "{\"query\":\"create issue\"}", &st));
  tsift_free(call(s, 1, 0, "search_tools", "{\"query\":\"send\"}", &st));
  char *j = journal(s);
  tsift_session_free(s);
  /* fail: asking at another position is an error; the session stays usable */
  s = open_session("{}", j, "{\"divergence\":\"fail\"}");
  char *r = call(s, 5, 0, "search_tools", "{\"query\":\"create issue\"}", &st);
  CHECK_EQ_INT(st, TSIFT_E_DIVERGED);
  CHECK(r == NULL);
  r = call(s, 0, 0, "search_tools", "{\"query\":\"create issue\"}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  tsift_free(r);
  char *out = NULL;
  size_t len;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_finish(s, &out, &len, &err), TSIFT_E_DIVERGED);
  CHECK_CONTAINS(err.message, "1 journal decision(s) never asked for, first \"t#turn:1:tool:0:search\"");
  tsift_session_free(s);
  /* warn: ranked live with a warning; finish lists the unasked */
  s = open_session("{}", j, "{\"divergence\":\"warn\"}");
  r = call(s, 5, 0, "search_tools", "{\"query\":\"create issue\"}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK_CONTAINS(r, "\"warnings\":[\"replay: the journal has no decision \\\"t#turn:5:tool:0:search\\\"");
  tsift_free(r);
  CHECK_EQ_INT(tsift_session_finish(s, &out, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(out, "{\"unasked\":[\"t#turn:0:tool:0:search\",\"t#turn:1:tool:0:search\"]}");
  tsift_free(out);
  tsift_session_free(s);
  /* off: silent */
  s = open_session("{}", j, "{\"divergence\":\"off\"}");
  r = call(s, 5, 0, "search_tools", "{\"query\":\"create issue\"}", &st);
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK(strstr(r, "warnings") == NULL);
  tsift_free(r);
  tsift_session_free(s);
  /* A malformed journal line is a typed error naming the line. */
  const char *cfg = config("{}");
  const char *bad = "{\"id\":\"t#turn:0:tool:0:search\",\"value\":{}}\n{oops\n";
  CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), bad, strlen(bad), NULL, 0, &s, &err), TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "journal line 2: malformed JSON");
  const char *noid = "{\"value\":{}}\n";
  CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), noid, strlen(noid), NULL, 0, &s, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "journal decision 1: field \"id\"");
  tsift_free(j);
}

/* Decision ids are read as the core writes them: "turn:-1" or a turn past
 * 4294967295 is no id, reported as written (it once read as 4294967295). */
static void test_decision_ids_as_written(void) {
  const char *ids[] = {"t#turn:-1:tool:0:search", "t#turn:4294967296:tool:0:search", "t#turn: 1:tool:0:search",
                       "t#turn:1:tool:0:search xyz"};
  for (size_t i = 0; i < 4; i++) {
    char j[512];
    snprintf(j, sizeof j,
             "{\"id\":\"%s\",\"source\":\"agent-tool-search\",\"value\":{\"query\":\"x\",\"results\":[],"
             "\"loaded\":[]}}\n",
             ids[i]);
    tsift_session *s = open_session("{}", j, "{\"divergence\":\"warn\"}");
    CHECK(s != NULL);
    if (!s) continue;
    tsift_error err;
    CHECK_EQ_INT(tsift_session_apply_journal(s, &err), TSIFT_E_DIVERGED);
    char want[128];
    snprintf(want, sizeof want, "(\"%s\") is not a search", ids[i]);
    CHECK_CONTAINS(err.message, want);
    CHECK(strstr(err.message, "4294967295") == NULL);
    tsift_session_free(s);
  }
}

int main(void) {
  test_decision_ids_as_written();
  test_exact_replay();
  test_tamper_never_widens();
  test_divergence_modes();
  return harness_finish("test_session_replay");
}
