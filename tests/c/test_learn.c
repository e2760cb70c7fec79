/* test_learn.c — learning a catalog's vocabulary (docs/learning.md; learn.c,
 * learn_read.c, learn_diff.c): journals written by real sessions teach the
 * words users asked with to the tools they then called; thresholds of
 * sessions and clients, the per-client cap, evidence against, failed calls,
 * the tool's own words (trusted or not) never learned; the same evidence in
 * any order gives the same bytes; journals read strictly and verified
 * against their chain; examples; options; the diff. */
#include <stdlib.h>

#include "harness.h"
#include "toolsift.h"

/* create_refund lacks "money back"; lookup_charge's description has
 * "money"; remote__payout is un-vouched and its withheld description says
 * "money back guarantee". */
static const char CAT[] =
    "{\"tools\":["
    "{\"id\":\"stripe__create_refund\",\"name\":\"create_refund\",\"description\":\"Refund a charge\"},"
    "{\"id\":\"stripe__lookup_charge\",\"name\":\"lookup_charge\",\"description\":\"Look up a charge and its money\"},"
    "{\"id\":\"pd__list_oncalls\",\"name\":\"list_oncalls\",\"description\":\"List on-call entries\"},"
    "{\"id\":\"gh__fork_repository\",\"name\":\"fork_repository\",\"description\":\"Fork a repository\"},"
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open an issue\"},"
    "{\"id\":\"remote__payout\",\"name\":\"payout\",\"description\":\"money back guarantee for sellers\","
    "\"origin\":\"remote\"}"
    "]}";

static char *config_json(void) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "{\"loop\":\"u\",\"catalog\":%s}", CAT);
  return buf;
}

typedef struct step {
  const char *tool, *args;
  int failed; /* report the call failed */
} step;

/* A run's journal: the steps as calls 0.., under client (NULL: none) and
 * session options extra (NULL or members to add). Caller frees. */
static char *run(const char *client, const char *key, const step *steps, size_t n) {
  char opts[256] = "{}";
  if (client && key) snprintf(opts, sizeof opts, "{\"client\":\"%s\",\"journalKey\":\"%s\"}", client, key);
  else if (client) snprintf(opts, sizeof opts, "{\"client\":\"%s\"}", client);
  else if (key) snprintf(opts, sizeof opts, "{\"journalKey\":\"%s\"}", key);
  const char *cfg = config_json();
  tsift_session *s = NULL;
  tsift_error err;
  if (tsift_session_new(cfg, strlen(cfg), NULL, 0, opts, strlen(opts), &s, &err)) {
    fprintf(stderr, "session: %s\n", err.message);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    char *out = NULL;
    size_t len = 0;
    tsift_session_call(s, (uint32_t)i, 0, steps[i].tool, strlen(steps[i].tool), steps[i].args, strlen(steps[i].args),
                       &out, &len, &err);
    tsift_free(out);
    if (steps[i].failed) tsift_session_call_failed(s, (uint32_t)i, 0, steps[i].tool, strlen(steps[i].tool), &err);
  }
  char *j = NULL;
  size_t jl = 0;
  tsift_session_journal_jsonl(s, &j, &jl, &err);
  tsift_session_free(s);
  return j;
}

/* "money back for my customer" finds nothing strong; the agent selects the
 * refund tool and calls it. */
static const step REFUND[] = {
    {"search_tools", "{\"query\":\"money back for my customer\"}", 0},
    {"search_tools", "{\"query\":\"select:stripe__create_refund\"}", 0},
    {"stripe__create_refund", "{}", 0},
};

static tsift_learner *learner(const char *opts) {
  tsift_learner *l = NULL;
  tsift_error err;
  if (tsift_learner_new(CAT, strlen(CAT), opts, opts ? strlen(opts) : 0, &l, &err)) {
    fprintf(stderr, "learner: %s\n", err.message);
    return NULL;
  }
  return l;
}

static char *finish(tsift_learner *l) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  if (tsift_learner_finish(l, &out, &len, &err)) fprintf(stderr, "finish: %s\n", err.message);
  return out;
}

static tsift_status add(tsift_learner *l, const char *name, const char *j, tsift_error *err) {
  return tsift_learner_add_journal(l, name, j, j ? strlen(j) : 0, err);
}

/* The annotations of tool `id` in a learned file, as the text between its
 * braces, or "" (for CHECK_CONTAINS). */
static const char *annotations_of(const char *learned, const char *id, char *buf, size_t cap) {
  buf[0] = 0;
  const char *a = learned ? strstr(learned, "\"annotations\":{") : NULL;
  const char *e = learned ? strstr(learned, "\"evidence\":") : NULL;
  char key[128];
  snprintf(key, sizeof key, "\"%s\":{", id);
  const char *p = a ? strstr(a, key) : NULL;
  if (!p || (e && p > e)) return buf;
  p += strlen(key);
  const char *end = strchr(p, '}');
  size_t n = end ? (size_t)(end - p) : 0;
  if (n >= cap) n = cap - 1;
  memcpy(buf, p, n);
  buf[n] = 0;
  return buf;
}

static void test_learns_from_runs(void) {
  char *j[4] = {run("alice", NULL, REFUND, 3), run("bob", NULL, REFUND, 3), run("carol", NULL, REFUND, 3),
                run("dave", NULL, REFUND, 3)};
  CHECK(j[0] && j[3]);
  CHECK_CONTAINS(j[0], "\"client\":\"alice\"");
  CHECK_CONTAINS(j[0], "\"source\":\"agent-tool-call\",\"value\":{\"tool\":\"stripe__create_refund\"}");
  tsift_learner *l = learner(NULL);
  tsift_error err;
  for (int i = 0; i < 3; i++) CHECK_EQ_INT(add(l, "j", j[i], &err), TSIFT_OK);
  char *out = finish(l);
  char buf[512];
  /* Words the tool lacks, as tags; the phrase as an alias; its own words
   * ("refund", "charge") never; "for"/"my" are stopwords. */
  CHECK_EQ_STR(annotations_of(out, "stripe__create_refund", buf, sizeof buf),
               "\"aliases\":[\"back customer\",\"money back\"],\"tags\":[\"back\",\"customer\",\"money\"]");
  CHECK_CONTAINS(out, "\"learned\":{\"version\":1,\"catalog\":\"");
  CHECK_CONTAINS(out, "\"journals\":3,\"skipped\":0,\"sessions\":3,\"clients\":3,\"examples\":0}");
  CHECK_CONTAINS(out, "\"money back\":{\"sessions\":3,\"clients\":3,\"examples\":0,\"against\":0,\"share\":1.000000}");
  /* No request text: the learned file holds words and counts only. */
  CHECK(strstr(out, "money back for my customer") == NULL);
  tsift_learner_free(l);

  /* The same evidence in any order: the same bytes. */
  tsift_learner *r = learner(NULL);
  for (int i = 2; i >= 0; i--) add(r, "j", j[i], &err);
  char *out2 = finish(r);
  CHECK_EQ_STR(out2, out);
  tsift_learner_free(r);
  tsift_free(out2);

  /* The learned file as the index option "annotations": the request now
   * finds and grades the tool strong. */
  char opts[16384];
  snprintf(opts, sizeof opts, "{\"annotations\":%s}", out);
  tsift_index *ix = NULL;
  CHECK_EQ_INT(tsift_index_build(CAT, strlen(CAT), opts, strlen(opts), &ix, &err), TSIFT_OK);
  char *res = NULL;
  size_t rl = 0;
  tsift_index_search_json(ix, "money back", 10, "{\"explain\":true}", 16, &res, &rl, &err);
  CHECK_CONTAINS(res, "{\"id\":\"stripe__create_refund\"");
  CHECK_CONTAINS(res, "\"match\":\"strong\"");
  CHECK_CONTAINS(res, "\"learned\":[\"back\",\"money\",\"back customer\",\"money back\"]");
  tsift_free(res);
  tsift_index_free(ix);
  tsift_free(out);
  for (int i = 0; i < 4; i++) tsift_free(j[i]);
}

static void test_thresholds(void) {
  tsift_error err;
  char buf[512];
  /* Two sessions: not enough (minSessions 3). */
  char *a = run("alice", NULL, REFUND, 3), *b = run("bob", NULL, REFUND, 3);
  tsift_learner *l = learner(NULL);
  add(l, "a", a, &err);
  add(l, "b", b, &err);
  char *out = finish(l);
  CHECK_EQ_STR(annotations_of(out, "stripe__create_refund", buf, sizeof buf), "");
  tsift_free(out);
  tsift_learner_free(l);
  /* One client, many sessions: never (minClients 2); with minClients 1 it
   * teaches, each client counting for at most maxPerClient (3) sessions. */
  l = learner(NULL);
  for (int i = 0; i < 10; i++) add(l, "a", a, &err);
  out = finish(l);
  CHECK_EQ_STR(annotations_of(out, "stripe__create_refund", buf, sizeof buf), "");
  tsift_free(out);
  tsift_learner_free(l);
  l = learner("{\"minClients\":1}");
  for (int i = 0; i < 10; i++) add(l, "a", a, &err);
  add(l, "b", b, &err);
  out = finish(l);
  CHECK_CONTAINS(annotations_of(out, "stripe__create_refund", buf, sizeof buf), "\"money back\"");
  CHECK_CONTAINS(out, "\"money back\":{\"sessions\":4,\"clients\":2,");
  tsift_free(out);
  tsift_learner_free(l);
  /* Journals that name no client are one client together. */
  char *anon = run(NULL, NULL, REFUND, 3);
  l = learner(NULL);
  for (int i = 0; i < 5; i++) add(l, "anon", anon, &err);
  out = finish(l);
  CHECK_EQ_STR(annotations_of(out, "stripe__create_refund", buf, sizeof buf), "");
  CHECK_CONTAINS(out, "\"sessions\":5,\"clients\":1,");
  tsift_free(out);
  tsift_learner_free(l);
  tsift_free(anon);
  tsift_free(a);
  tsift_free(b);
}

/* One abusive client repeating a request and calling a wrong tool teaches
 * nothing, and cannot drown what honest clients taught. */
static void test_abusive_client(void) {
  static const step ABUSE[] = {
      {"search_tools", "{\"query\":\"money back for my customer\"}", 0},
      {"search_tools", "{\"query\":\"select:gh__fork_repository\"}", 0},
      {"gh__fork_repository", "{}", 0},
  };
  tsift_error err;
  char *bad = run("mallory", NULL, ABUSE, 3);
  char *good[3] = {run("alice", NULL, REFUND, 3), run("bob", NULL, REFUND, 3), run("carol", NULL, REFUND, 3)};
  tsift_learner *l = learner(NULL);
  for (int i = 0; i < 200; i++) CHECK_EQ_INT(add(l, "bad", bad, &err), TSIFT_OK);
  char *out = finish(l);
  char buf[512];
  CHECK_EQ_STR(annotations_of(out, "gh__fork_repository", buf, sizeof buf), "");
  CHECK(strstr(out, "\"annotations\":{}") != NULL);
  tsift_free(out);
  for (int i = 0; i < 3; i++) add(l, "good", good[i], &err);
  out = finish(l);
  CHECK_EQ_STR(annotations_of(out, "gh__fork_repository", buf, sizeof buf), "");
  CHECK_CONTAINS(annotations_of(out, "stripe__create_refund", buf, sizeof buf), "\"money back\"");
  tsift_free(out);
  tsift_learner_free(l);
  tsift_free(bad);
  for (int i = 0; i < 3; i++) tsift_free(good[i]);
}

/* A tool's own words are never learned for it, trusted or not: an
 * un-vouched tool's withheld description cannot reach the index through
 * learning. Words another called tool has are that tool's. */
static void test_own_words(void) {
  static const step PAYOUT[] = {
      {"search_tools", "{\"query\":\"money back guarantee sellers payout\"}", 0},
      {"search_tools", "{\"query\":\"select:remote__payout\"}", 0},
      {"remote__payout", "{}", 0},
  };
  static const step TWO[] = {
      {"search_tools", "{\"query\":\"money wallet for charge lookup\"}", 0},
      {"search_tools", "{\"query\":\"select:stripe__lookup_charge,stripe__create_refund\"}", 0},
      {"stripe__lookup_charge", "{}", 0},
      {"stripe__create_refund", "{}", 0},
  };
  tsift_error err;
  const char *who[] = {"a", "b", "c"};
  tsift_learner *l = learner(NULL);
  for (int i = 0; i < 3; i++) {
    char *j = run(who[i], NULL, PAYOUT, 3), *k = run(who[i], NULL, TWO, 4);
    add(l, "p", j, &err);
    add(l, "t", k, &err);
    tsift_free(j);
    tsift_free(k);
  }
  char *out = finish(l);
  char buf[512];
  /* remote__payout: its own text has money, back, guarantee, sellers, payout. */
  CHECK_EQ_STR(annotations_of(out, "remote__payout", buf, sizeof buf), "");
  /* "money" is lookup_charge's own word, so it is not create_refund's
   * either in a run that called both; "wallet" teaches both. */
  annotations_of(out, "stripe__create_refund", buf, sizeof buf);
  CHECK(strstr(buf, "\"money\"") == NULL);
  CHECK_CONTAINS(buf, "\"wallet\"");
  annotations_of(out, "stripe__lookup_charge", buf, sizeof buf);
  CHECK(strstr(buf, "\"money\"") == NULL && strstr(buf, "\"charge\"") == NULL);
  CHECK_CONTAINS(buf, "\"wallet\"");
  tsift_free(out);
  tsift_learner_free(l);
}

/* Evidence against: a tool a search loaded that the run never called; and
 * a call the host reported failed is no evidence. */
static void test_against_and_failed(void) {
  static const step LOADED_UNUSED[] = {
      {"search_tools", "{\"query\":\"fork the repository rapidly\"}", 0}, /* loads fork_repository strong */
      {"search_tools", "{\"query\":\"select:gh__create_issue\"}", 0},
      {"gh__create_issue", "{}", 0},
  };
  static const step FAILED[] = {
      {"search_tools", "{\"query\":\"money back for my customer\"}", 0},
      {"search_tools", "{\"query\":\"select:stripe__create_refund\"}", 0},
      {"stripe__create_refund", "{}", 1},
  };
  tsift_error err;
  const char *who[] = {"a", "b", "c"};
  tsift_learner *l = learner(NULL);
  for (int i = 0; i < 3; i++) {
    char *j = run(who[i], NULL, LOADED_UNUSED, 3), *k = run(who[i], NULL, FAILED, 3);
    CHECK_CONTAINS(k, "agent-tool-call-failed");
    add(l, "u", j, &err);
    add(l, "f", k, &err);
    tsift_free(j);
    tsift_free(k);
  }
  char *out = finish(l);
  char buf[512];
  CHECK_EQ_STR(annotations_of(out, "stripe__create_refund", buf, sizeof buf), "");
  /* "rapidly" was asked for create_issue (taught: 3 sessions for, none
   * against) and held against fork_repository (loaded, never called). */
  CHECK_CONTAINS(annotations_of(out, "gh__create_issue", buf, sizeof buf), "\"rapidly\"");
  CHECK_EQ_STR(annotations_of(out, "gh__fork_repository", buf, sizeof buf), "");
  tsift_free(out);
  tsift_learner_free(l);
}

/* A call ends what the searches before it were for, even when it failed:
 * after a failed refund the model searched again and forked a repository —
 * the refund request's words are not the fork's. */
static void test_failed_call_ends_a_request(void) {
  static const step STEPS[] = {
      {"search_tools", "{\"query\":\"money back for my customer\"}", 0},
      {"search_tools", "{\"query\":\"select:stripe__create_refund\"}", 0},
      {"stripe__create_refund", "{}", 1},
      {"search_tools", "{\"query\":\"duplicate the codebase\"}", 0},
      {"search_tools", "{\"query\":\"select:gh__fork_repository\"}", 0},
      {"gh__fork_repository", "{}", 0},
  };
  tsift_error err;
  const char *who[] = {"a", "b", "c"};
  tsift_learner *l = learner(NULL);
  for (int i = 0; i < 3; i++) {
    char *j = run(who[i], NULL, STEPS, 6);
    add(l, "j", j, &err);
    tsift_free(j);
  }
  char *out = finish(l);
  char buf[512];
  annotations_of(out, "gh__fork_repository", buf, sizeof buf);
  CHECK_CONTAINS(buf, "\"duplicate\"");
  CHECK(strstr(buf, "money") == NULL && strstr(buf, "customer") == NULL);
  CHECK_EQ_STR(annotations_of(out, "stripe__create_refund", buf, sizeof buf), "");
  tsift_free(out);
  tsift_learner_free(l);
}

static void test_strict_reading(void) {
  tsift_error err;
  char *j = run("alice", NULL, REFUND, 3);
  tsift_learner *l = learner(NULL);
  /* Malformed: named by journal and line; nothing added. */
  CHECK_EQ_INT(add(l, "bad.jsonl", "{\"id\":\"x\",\"source\":\"toolsift-mcp-segment\"}\nnot json\n", &err), TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "journal bad.jsonl line 2");
  CHECK_EQ_INT(add(l, "b.jsonl", "\n[1]\n", &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "journal b.jsonl line 2: expected a journal record");
  CHECK_EQ_INT(add(l, "c.jsonl", "{\"id\":\"x\",\"source\":\"my-own\"}", &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "journal c.jsonl line 1: unknown record source \"my-own\"");
  CHECK_EQ_INT(add(l, "d.jsonl", "{\"id\":\"u#turn:0:tool:0:search\",\"source\":\"agent-tool-search\",\"value\":{}}", &err),
               TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "journal d.jsonl line 1: value.query: expected a string");
  /* Tampered: one word of a recorded query edited, its chain kept. */
  char *t = strdup(j);
  char *at = strstr(t, "money back");
  memcpy(at, "honey", 5);
  CHECK_EQ_INT(add(l, "edited.jsonl", t, &err), TSIFT_E_TAMPERED);
  CHECK_CONTAINS(err.message, "journal edited.jsonl: line 2: chain broken");
  CHECK_CONTAINS(err.message, "refused as evidence");
  /* Unchained (the chain stripped: the header line dropped) is refused too. */
  const char *second = strchr(j, '\n') + 1;
  CHECK_EQ_INT(add(l, "cut.jsonl", second, &err), TSIFT_E_TAMPERED);
  CHECK_CONTAINS(err.message, "cannot be verified");
  char *out = finish(l);
  CHECK_CONTAINS(out, "\"journals\":0,\"skipped\":0,\"sessions\":0");
  tsift_free(out);
  tsift_learner_free(l);
  /* unverified "skip": left out and counted; "accept": used. */
  l = learner("{\"unverified\":\"skip\",\"minSessions\":1,\"minClients\":1}");
  CHECK_EQ_INT(add(l, "edited.jsonl", t, &err), TSIFT_OK);
  out = finish(l);
  CHECK_CONTAINS(out, "\"journals\":1,\"skipped\":1,\"sessions\":0");
  tsift_free(out);
  tsift_learner_free(l);
  l = learner("{\"unverified\":\"accept\",\"minSessions\":1,\"minClients\":1}");
  CHECK_EQ_INT(add(l, "edited.jsonl", t, &err), TSIFT_OK);
  out = finish(l);
  CHECK_CONTAINS(out, "\"honey back\"");
  tsift_free(out);
  tsift_learner_free(l);
  free(t);
  tsift_free(j);
}

static void test_keyed_and_segments(void) {
  static const char KEY[] = "00112233445566778899aabbccddeeff";
  tsift_error err;
  char *j = run("alice", KEY, REFUND, 3);
  CHECK_CONTAINS(j, "\"mac\":\"hmac-sha256\"");
  tsift_learner *l = learner(NULL);
  CHECK_EQ_INT(add(l, "keyed.jsonl", j, &err), TSIFT_E_TAMPERED); /* no key here */
  tsift_learner_free(l);
  l = learner("{\"journalKey\":\"ffeeddccbbaa99887766554433221100\"}");
  CHECK_EQ_INT(add(l, "keyed.jsonl", j, &err), TSIFT_E_TAMPERED); /* another key */
  CHECK_CONTAINS(err.message, "another key");
  tsift_learner_free(l);
  l = learner("{\"journalKey\":\"00112233445566778899aabbccddeeff\"}");
  CHECK_EQ_INT(add(l, "keyed.jsonl", j, &err), TSIFT_OK);
  tsift_learner_free(l);
  tsift_free(j);

  /* A gateway's file: a segment line, a journal, a segment line, a journal
   * that continues the first (journalParent); one run. */
  const char *cfg = config_json();
  tsift_session *s1 = NULL, *s2 = NULL;
  CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), NULL, 0, "{\"client\":\"gw\"}", 15, &s1, &err), TSIFT_OK);
  char *out = NULL, *j1 = NULL, *j2 = NULL;
  size_t len = 0, l1 = 0, l2 = 0;
  tsift_session_call(s1, 0, 0, "search_tools", 12, "{\"query\":\"money back for my customer\"}", 38, &out, &len, &err);
  tsift_free(out);
  tsift_session_journal_jsonl(s1, &j1, &l1, &err);
  const char *last = strstr(j1 + l1 - 80, "\"chain\":\"") + 9;
  char opts[200];
  snprintf(opts, sizeof opts, "{\"client\":\"gw\",\"journalParent\":\"%.64s\"}", last);
  CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), NULL, 0, opts, strlen(opts), &s2, &err), TSIFT_OK);
  tsift_session_call(s2, 1, 0, "search_tools", 12, "{\"query\":\"select:stripe__create_refund\"}", 40, &out, &len, &err);
  tsift_free(out);
  tsift_session_call(s2, 2, 0, "stripe__create_refund", 21, "{}", 2, &out, &len, &err);
  tsift_free(out);
  tsift_session_journal_jsonl(s2, &j2, &l2, &err);
  char *file = malloc(l1 + l2 + 256);
  snprintf(file, l1 + l2 + 256, "{\"id\":\"u#segment:0\",\"source\":\"toolsift-mcp-segment\",\"value\":{}}\n%s"
                                "{\"id\":\"u#segment:1\",\"source\":\"toolsift-mcp-segment\",\"value\":{}}\n%s", j1, j2);
  l = learner("{\"minSessions\":1,\"minClients\":1}");
  CHECK_EQ_INT(add(l, "gateway.jsonl", file, &err), TSIFT_OK);
  out = finish(l);
  CHECK_CONTAINS(out, "\"journals\":1,\"skipped\":0,\"sessions\":1,\"clients\":1");
  CHECK_CONTAINS(out, "\"money back\"");
  tsift_free(out);
  tsift_learner_free(l);
  /* The segments swapped: the second no longer continues the first. */
  snprintf(file, l1 + l2 + 256, "%s%s", j2, j1);
  l = learner(NULL);
  CHECK_EQ_INT(add(l, "swapped.jsonl", file, &err), TSIFT_E_TAMPERED);
  CHECK_CONTAINS(err.message, "does not continue the one before it");
  tsift_learner_free(l);
  free(file);
  tsift_free(j1);
  tsift_free(j2);
  tsift_session_free(s1);
  tsift_session_free(s2);
}

static void test_examples(void) {
  tsift_error err;
  tsift_learner *l = learner(NULL);
  /* The host's own examples: one teaches (no session threshold), its top
   * grade only; a request nothing serves teaches nothing. Request phrasing
   * ("who", "now") is no vocabulary. */
  const char *ex = "{\"id\":\"e1\",\"query\":\"who is on call right this minute\",\"relevance\":{\"pd__list_oncalls\":3,"
                   "\"gh__create_issue\":1}}\n\n"
                   "{\"query\":\"order a pizza\",\"relevance\":{}}\n";
  CHECK_EQ_INT(tsift_learner_add_examples(l, "ex.jsonl", ex, strlen(ex), &err), TSIFT_OK);
  char *out = finish(l);
  char buf[512];
  annotations_of(out, "pd__list_oncalls", buf, sizeof buf);
  CHECK_EQ_STR(buf, "\"aliases\":[\"call right\",\"right minute\"],\"tags\":[\"minute\",\"right\"]");
  CHECK(strstr(buf, "\"call\"") == NULL); /* its own word ("on-call") */
  CHECK_EQ_STR(annotations_of(out, "gh__create_issue", buf, sizeof buf), "");
  CHECK_CONTAINS(out, "\"examples\":2}");
  CHECK_CONTAINS(out, "\"right minute\":{\"sessions\":0,\"clients\":0,\"examples\":1,\"against\":0,\"share\":1.000000}");
  tsift_free(out);
  /* Bad lines name the file and line. */
  const char *bad[][2] = {
      {"{\"query\":\"x\",\"relevance\":{\"nope\":3}}", "examples b.jsonl line 1: relevance: no tool \"nope\""},
      {"\n{\"query\":\"x\"}", "examples b.jsonl line 2: expected {\"query\": string, \"relevance\""},
      {"{\"query\":\"x\",\"relevance\":{\"gh__create_issue\":\"3\"}}", "relevance[\"gh__create_issue\"]: expected a grade"},
  };
  for (size_t i = 0; i < 3; i++) {
    CHECK_EQ_INT(tsift_learner_add_examples(l, "b.jsonl", bad[i][0], strlen(bad[i][0]), &err), TSIFT_E_CONFIG);
    CHECK_CONTAINS(err.message, bad[i][1]);
  }
  CHECK_EQ_INT(tsift_learner_add_examples(l, "b.jsonl", "{]", 2, &err), TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "examples b.jsonl line 1");
  tsift_learner_free(l);
}

static void test_options(void) {
  static const char *bad[][2] = {
      {"{\"minSessions\":0}", "learn options: minSessions: expected an integer from 1"},
      {"{\"minShare\":2}", "learn options: minShare: expected a number from 0 to 1"},
      {"{\"unverified\":\"maybe\"}", "learn options: unverified: expected"},
      {"{\"journalKey\":\"xyz\"}", "learn options: journalKey: expected 32 to 128 lowercase hex digits"},
      {"{\"mood\":1}", "learn options: unknown key \"mood\""},
      {"{\"index\":{\"annotations\":{\"annotations\":{}}}}", "learn options: index: annotations"},
      {"[]", "learn options: expected an object"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    tsift_learner *l = (tsift_learner *)1;
    tsift_error err;
    CHECK_EQ_INT(tsift_learner_new(CAT, strlen(CAT), bad[i][0], strlen(bad[i][0]), &l, &err), TSIFT_E_CONFIG);
    CHECK(l == NULL);
    CHECK_CONTAINS(err.message, bad[i][1]);
  }
}

static void test_diff(void) {
  const char *a = "{\"annotations\":{\"x\":{\"tags\":[\"old\",\"kept\"]}}}";
  const char *b = "{\"annotations\":{\"x\":{\"tags\":[\"Kept\",\"new\"]},\"y\":{\"aliases\":[\"money back\"]}},"
                  "\"evidence\":{\"y\":{\"money back\":{\"sessions\":4,\"clients\":3,\"examples\":0,\"against\":1,"
                  "\"share\":0.5}}}}";
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_learn_diff_json(a, strlen(a), b, strlen(b), &out, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(out, "{\"tools\":[{\"id\":\"x\",\"added\":[{\"label\":\"new\",\"list\":\"tags\"}],\"removed\":[{\"label\":"
                    "\"old\",\"list\":\"tags\"}]},{\"id\":\"y\",\"added\":[{\"label\":\"money back\",\"list\":\"aliases\","
                    "\"sessions\":4,\"clients\":3,\"examples\":0,\"against\":1,\"share\":0.500000}]}],\"toolsChanged\":2,"
                    "\"added\":2,\"removed\":1}");
  tsift_free(out);
  CHECK_EQ_INT(tsift_learn_diff_json(a, strlen(a), "{}", 2, &out, &len, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "learn diff: the new vocabulary: expected a vocabulary");
}

int main(void) {
  test_learns_from_runs();
  test_thresholds();
  test_abusive_client();
  test_own_words();
  test_against_and_failed();
  test_failed_call_ends_a_request();
  test_strict_reading();
  test_keyed_and_segments();
  test_examples();
  test_options();
  test_diff();
  return harness_finish("test_learn");
}
