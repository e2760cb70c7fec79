/* test_session.c — sessions (SPEC S6, S7, S9): menu order and append-only
 * growth, caps, refusals, namespaces, fitted statistics, exact replay,
 * randomised tampering that can only narrow, divergence modes, fingerprints. */
#include <stdlib.h>

#include "harness.h"
#include "largest_alloc.h"
#include "rank.h"
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

static char *config(const char *search_json) {
  static char buf[8192];
  snprintf(buf, sizeof buf,
           "{\"loop\":\"t\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply\"}],"
           "\"catalog\":%s,\"search\":%s}",
           CATALOG, search_json);
  return buf;
}

static tsift_session *open_session(const char *search_json, const char *journal, const char *opts) {
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
static char *call(tsift_session *s, unsigned turn, unsigned c, const char *tool, const char *args,
                  tsift_status *st) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  *st = tsift_session_call(s, turn, c, tool, strlen(tool), args, strlen(args), &out, &len, &err);
  return out;
}

static char *menu(tsift_session *s) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_session_menu_json(s, "anthropic", &out, &len, &err);
  return out;
}

static char *journal(tsift_session *s) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_session_journal_jsonl(s, &out, &len, &err);
  return out;
}

/* Names on an anthropic-shaped menu, in order, joined by spaces. */
static void menu_names(const char *m, char *dst, size_t cap) {
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

/* The note on unloaded hits names the reason: caps, tainted text, or both. */
static void test_unloaded_notes(void) {
  tsift_session *s = open_session("{\"maxPerSearch\":5,\"maxLoaded\":50}", NULL, NULL);
  if (!s) return;
  tsift_status st;
  char *r = call(s, 0, 0, "search_tools", "{\"query\":\"issue\"}", &st);
  CHECK_CONTAINS(r, "{\"name\":\"evil__issue\",\"description\":\"Third-party tool; description withheld\","
                    "\"loaded\":false}");
  CHECK_CONTAINS(r, "\"note\":\"Tools marked loaded: false have untrusted descriptions and cannot be called.\"");
  tsift_free(r);
  tsift_session_free(s);
  s = open_session("{\"maxPerSearch\":5,\"maxLoaded\":2}", NULL, NULL);
  if (!s) return;
  r = call(s, 0, 0, "search_tools", "{\"query\":\"issue\"}", &st);
  CHECK_CONTAINS(r, "\"note\":\"Tools marked loaded: false did not fit the menu or have untrusted descriptions, "
                    "and cannot be called.\"");
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
  CHECK_EQ_INT(lines, 2);
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
  const char *badcat = "{\"catalog\":[{\"name\":\"has space\"}]}";
  CHECK_EQ_INT(tsift_session_new(badcat, strlen(badcat), NULL, 0, NULL, 0, &s, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "config: catalog: tools[0] (\"has space\"): invalid id");
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

static void test_fingerprints(void) {
  const char *a = "{\"tools\":[{\"name\":\"x\",\"description\":\"alpha\",\"tags\":[\"t\"]},{\"name\":\"y\"}]}";
  const char *b = "{\"tools\":[{\"name\":\"y\"},{\"tags\":[\"t\"],\"description\":\"alpha\",\"name\":\"x\"}]}";
  const char *c = "{\"tools\":[{\"name\":\"x\",\"description\":\"alphas\",\"tags\":[\"t\"]},{\"name\":\"y\"}]}";
  const char *d = "{\"tools\":[{\"name\":\"x\",\"description\":\"beta\",\"tags\":[\"t\"]},{\"name\":\"y\"}]}";
  char fp[4][65];
  const char *cats[4] = {a, b, c, d};
  for (int i = 0; i < 4; i++) {
    tsift_index *ix = NULL;
    tsift_error err;
    tsift_index_build(cats[i], strlen(cats[i]), NULL, 0, &ix, &err);
    strcpy(fp[i], ix ? ix->fingerprint : "");
    tsift_index_free(ix);
  }
  CHECK_EQ_STR(fp[0], fp[1]); /* key and tool order do not matter */
  CHECK_EQ_STR(fp[0], fp[2]); /* "alphas" analyses to the same document as "alpha" */
  CHECK(strcmp(fp[0], fp[3]) != 0); /* indexed text changed */
  CHECK_EQ_INT(strlen(fp[0]), 64);
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
  test_caps_and_refusals();
  test_unloaded_notes();
  test_config_errors();
  test_namespaces_and_fitted_stats();
  test_exact_replay();
  test_tamper_never_widens();
  test_divergence_modes();
  test_fingerprints();
  return harness_finish("test_session");
}
