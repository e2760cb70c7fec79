/* test_alloc_failures.c — allocation failure at every point (issue 8, ctest
 * label `limits`; docs/reliability.md). A cross-module hazard file: a sweep
 * fails the n-th allocation of a whole scenario, for every n, so it spans
 * every module the scenario goes through:
 *
 *   - index build + search with explain (nothing leaks, nothing half-built);
 *   - a session created, 7 calls, its menus, journal, metrics and finish;
 *     the same replayed from its journal; the journal applied alone; a
 *     two-phase host ranker;
 *   - snapshot load + search + snapshot; rank, info, documents, analysis,
 *     typed search and snapshot of a built index.
 *
 * The step that hits the failure must return TSIFT_E_NOMEM and change
 * nothing (the same step again and every later step give the failure-free
 * bytes), and every allocation is freed. Skills have their own sweep
 * (test_skills.c test_alloc_failures). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "harness.h"
#include "hazard.h"
#include "toolsift.h"

#include "fail_alloc.h"

/* ---- index build + search ---------------------------------------------- */

static void test_build_and_search(void) {
  const char *cat =
      "{\"tools\":[{\"name\":\"createIssue\",\"description\":\"Open an issue \xE6\x96\x87\xE6\x9C\xAC\","
      "\"tags\":[\"Bug\"],\"inputSchema\":{\"properties\":{\"title\":{\"description\":\"the title\"}}}},"
      "{\"name\":\"list_repos\",\"origin\":\"remote\",\"aliases\":[\"repositories\"]}],"
      "\"annotations\":{\"list_repos\":{\"tags\":[\"git\"]}}}";
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  int swept = 0, nomem_ok = 1, leaks = 0;
  for (g_fail_at = 1;; g_fail_at++) {
    g_allocs = 0;
    g_live = 0;
    tsift_index *ix = NULL;
    tsift_error err;
    tsift_status st = tsift_index_build(cat, strlen(cat), NULL, 0, &ix, &err);
    char *out = NULL;
    size_t len = 0;
    if (st == TSIFT_OK) {
      st = tsift_index_search_json(ix, "create issue", 12, "{\"explain\":true}", 16, &out, &len, &err);
      tsift_free(out);
      tsift_index_free(ix);
    }
    if (g_live != 0) leaks++;
    if (g_allocs < g_fail_at) break; /* no allocation failed: every point swept */
    swept++;
    if (st != TSIFT_E_NOMEM) nomem_ok = 0;
  }
  tsift_set_allocator(NULL, NULL, NULL);
  printf("allocation failure injected at %d points\n", swept);
  CHECK(swept > 50);
  CHECK(nomem_ok);
  CHECK_EQ_INT(leaks, 0);
}

/* ---- sweeps over scenarios -------------------------------------------- */

/* One step of a scenario: its status and output (NULL when none). */
typedef struct step {
  tsift_status st;
  char *out;
} step;

#define MAX_STEPS 24
typedef int (*scenario_fn)(int k, void *state, step *res); /* run step k; 0 when there is no step k */
typedef void (*cleanup_fn)(void *state);

typedef struct sweep_result {
  int points, nomem, wrong, leaks, retry_differs;
} sweep_result;

/*
 * Sweep every allocation point of a scenario. For each n, the n-th
 * allocation fails; the step that hits it must return TSIFT_E_NOMEM and
 * must change nothing: the same step run again (no more failures) and every
 * later step give the same status and bytes as the failure-free run. At the
 * end every allocation is freed.
 */
static sweep_result sweep(const char *name, scenario_fn run, cleanup_fn cleanup, size_t state_size) {
  sweep_result r = {0, 0, 0, 0, 0};
  step ref[MAX_STEPS];
  memset(ref, 0, sizeof ref);
  int nsteps = 0;
  void *state = calloc(1, state_size);
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  g_armed = 0;
  g_live = 0;
  while (nsteps < MAX_STEPS && run(nsteps, state, &ref[nsteps])) nsteps++;
  cleanup(state);
  double t0 = now();
  for (g_fail_at = 1;; g_fail_at++) {
    memset(state, 0, state_size);
    g_allocs = 0;
    g_live = 0;
    g_armed = 1;
    int hit = 0, hit_step = -1;
    for (int k = 0; k < nsteps; k++) {
      long before = g_allocs;
      step got = {TSIFT_OK, NULL};
      run(k, state, &got);
      if (!hit && g_allocs >= g_fail_at && before < g_fail_at) {
        hit = 1;
        hit_step = k;
        if (got.st == TSIFT_E_NOMEM) r.nomem++;
        else {
          r.wrong++;
          if (r.wrong <= 5)
            fprintf(stderr, "%s: allocation %ld failed in step %d: status %s, not nomem\n", name, g_fail_at, k,
                    tsift_status_name(got.st));
        }
        tsift_free(got.out);
        got.out = NULL;
        run(k, state, &got); /* the same step again: as if nothing happened */
      }
      int same = got.st == ref[k].st && ((!got.out && !ref[k].out) ||
                                         (got.out && ref[k].out && strcmp(got.out, ref[k].out) == 0));
      if (!same) {
        r.retry_differs++;
        if (r.retry_differs <= 5)
          fprintf(stderr, "%s: allocation %ld failed in step %d; then step %d gives %s%s%.200s\n  instead of %s%s%.200s\n",
                  name, g_fail_at, hit_step, k, tsift_status_name(got.st), got.out ? ": " : "", got.out ? got.out : "",
                  tsift_status_name(ref[k].st), ref[k].out ? ": " : "", ref[k].out ? ref[k].out : "");
      }
      tsift_free(got.out);
    }
    g_armed = 0;
    cleanup(state);
    if (g_live != 0) {
      r.leaks++;
      if (r.leaks <= 5) fprintf(stderr, "%s: %ld allocation(s) leaked when allocation %ld failed\n", name, g_live, g_fail_at);
    }
    if (!hit) break; /* fewer allocations than g_fail_at: every point swept */
    r.points++;
  }
  for (int k = 0; k < nsteps; k++) {
    g_armed = 0;
    tsift_free(ref[k].out);
  }
  tsift_set_allocator(NULL, NULL, NULL);
  free(state);
  char label[128];
  snprintf(label, sizeof label, "allocation failure: %s (%d points)", name, r.points);
  timed(label, now() - t0, 20);
  printf("    %d steps; nomem %d, other status %d, changed state %d, leaks %d\n", nsteps, r.nomem, r.wrong,
         r.retry_differs, r.leaks);
  return r;
}

/* A copy of s in core-allocator memory (never a failure point). */
static char *dup_out(const char *s) {
  if (!s) return NULL;
  int armed = g_armed;
  g_armed = 0;
  char *p = fail_malloc(strlen(s) + 1);
  g_armed = armed;
  return p ? strcpy(p, s) : NULL;
}

/* -- scenario: session creation and calls -- */

static const char SESSION_CONFIG[] =
    "{\"loop\":\"al\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply to the user\","
    "\"inputSchema\":{\"properties\":{\"text\":{\"type\":\"string\"}}}}],"
    "\"catalog\":{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open a new issue\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\",\"minLength\":1}},"
    "\"required\":[\"title\"]}},"
    "{\"id\":\"gh__list_issues\",\"name\":\"list_issues\",\"description\":\"List issues\",\"tags\":[\"Bug\"]},"
    "{\"id\":\"jira__create_issue\",\"name\":\"create_issue\",\"description\":\"Create a Jira issue\"},"
    "{\"id\":\"slack__send\",\"name\":\"send\",\"description\":\"Send a Slack message\",\"origin\":\"remote\"},"
    "{\"id\":\"mail__send\",\"name\":\"send\",\"description\":\"Send an email message\"},"
    "{\"id\":\"evil__issue\",\"name\":\"issue_helper\",\"description\":\"issue\",\"tainted\":true}],"
    "\"annotations\":{\"slack__send\":{\"aliases\":[\"chat\"]}}},"
    "\"search\":{\"alwaysLoaded\":[\"mail__send\"],\"namespaces\":[\"gh__\",\"jira__\",\"mail__\",\"slack__\","
    "\"evil__\"],\"maxPerSearch\":3,\"maxLoaded\":4,\"maxMenuChars\":100000,\"stopwords\":[\"a\",\"the\"]}}";

typedef struct session_state {
  tsift_session *s;
  char *journal; /* for replay scenarios: a recorded journal (libc memory) */
} session_state;

static char *g_recorded_journal; /* libc memory */

static int call_step(session_state *st, unsigned turn, unsigned c, const char *tool, const char *args, step *res) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  res->st = tsift_session_call(st->s, turn, c, tool, strlen(tool), args, strlen(args), &out, &len, &err);
  res->out = out;
  return 1;
}

static int session_steps(int k, void *state, step *res, const char *journal, const char *opts) {
  session_state *st = state;
  tsift_error err;
  res->out = NULL;
  switch (k) {
    case 0:
      if (st->s) tsift_session_free(st->s);
      st->s = NULL;
      res->st = tsift_session_new(SESSION_CONFIG, sizeof SESSION_CONFIG - 1, journal, journal ? strlen(journal) : 0,
                                  opts, opts ? strlen(opts) : 0, &st->s, &err);
      return 1;
    case 1: return call_step(st, 0, 0, "search_tools", "{\"query\":\"create an issue\"}", res);
    case 2: return call_step(st, 0, 1, "gh__create_issue", "{\"title\":\"x\"}", res);
    case 3: return call_step(st, 0, 2, "slack__send", "{}", res);
    case 4: return call_step(st, 0, 3, "search_tools", "not json", res);
    case 5: return call_step(st, 1, 0, "search_tools", "{\"query\":\"send a chat message\",\"limit\":2}", res);
    case 6: return call_step(st, 2, 0, "search_tools", "{\"query\":\"zzzz nothing\"}", res);
    case 7: return call_step(st, 3, 0, "search_tools", "{\"query\":\"issue\"}", res);
    case 8:
    case 9:
    case 10: {
      static const char *const formats[] = {"mcp", "openai", "anthropic"};
      size_t len = 0;
      res->st = tsift_session_menu_json(st->s, formats[k - 8], &res->out, &len, &err);
      return 1;
    }
    case 11: {
      size_t len = 0;
      res->st = tsift_session_journal_jsonl(st->s, &res->out, &len, &err);
      return 1;
    }
    case 12: {
      size_t len = 0;
      res->st = tsift_session_metrics_json(st->s, &res->out, &len, &err);
      /* B7 (found here, fixed): counters went up for calls that failed */
      return 1;
    }
    case 13: {
      size_t len = 0;
      res->st = tsift_session_finish(st->s, &res->out, &len, &err);
      return 1;
    }
    default: return 0;
  }
}

static int scenario_live(int k, void *state, step *res) { return session_steps(k, state, res, NULL, NULL); }
static int scenario_replay(int k, void *state, step *res) {
  return session_steps(k, state, res, g_recorded_journal, "{\"divergence\":\"warn\"}");
}
static int scenario_apply(int k, void *state, step *res) {
  session_state *st = state;
  tsift_error err;
  res->out = NULL;
  switch (k) {
    case 0:
      st->s = NULL;
      res->st = tsift_session_new(SESSION_CONFIG, sizeof SESSION_CONFIG - 1, g_recorded_journal,
                                  strlen(g_recorded_journal), NULL, 0, &st->s, &err);
      return 1;
    case 1: res->st = tsift_session_apply_journal(st->s, &err); return 1;
    case 2: {
      size_t len = 0;
      res->st = tsift_session_menu_json(st->s, "anthropic", &res->out, &len, &err);
      return 1;
    }
    case 3: {
      size_t len = 0;
      res->st = tsift_session_finish(st->s, &res->out, &len, &err);
      return 1;
    }
    default: return 0;
  }
}
/* A two-phase host ranker: request, answer, a second search. */
static int scenario_ranker(int k, void *state, step *res) {
  session_state *st = state;
  tsift_error err;
  size_t len = 0;
  res->out = NULL;
  switch (k) {
    case 0:
      st->s = NULL;
      res->st = tsift_session_new(SESSION_CONFIG, sizeof SESSION_CONFIG - 1, NULL, 0, NULL, 0, &st->s, &err);
      return 1;
    case 1: res->st = tsift_session_set_ranker(st->s, "host-embed", NULL, NULL, &err); return 1;
    case 2: return call_step(st, 0, 0, "search_tools", "{\"query\":\"create an issue\"}", res);
    case 3:
      res->st = tsift_session_ranked(st->s, "[\"jira__create_issue\",\"nope\",\"evil__issue\",\"gh__create_issue\"]",
                                     62, &res->out, &len, &err);
      return 1;
    case 4: return call_step(st, 1, 0, "search_tools", "{\"query\":\"send\"}", res);
    case 5:
      res->st = tsift_session_ranked(st->s, "{}", 2, &res->out, &len, &err);
      /* B8 (found here, fixed): out of memory while refusing this answer
       * dropped the pending search (a retry got TSIFT_E_STATE) */
      return 1;
    case 6: res->st = tsift_session_menu_json(st->s, "mcp", &res->out, &len, &err); return 1;
    case 7: res->st = tsift_session_journal_jsonl(st->s, &res->out, &len, &err); return 1;
    default: return 0;
  }
}
static void session_cleanup(void *state) {
  session_state *st = state;
  int armed = g_armed;
  g_armed = 0;
  tsift_session_free(st->s);
  st->s = NULL;
  g_armed = armed;
}

/* -- scenario: issue 33 — ids that get safe names and look-alikes (ids.c),
 * a pre-search, a select: by a bare name, and a session in auto mode -- */
static const char IDS_CONFIG[] =
    "{\"loop\":\"i\",\"catalog\":{\"tools\":["
    "{\"id\":\"chat__Send Message\",\"name\":\"send\",\"description\":\"Send a chat message to a channel\"},"
    "{\"id\":\"wx__Weather\",\"name\":\"forecast\",\"description\":\"Weather forecast\"},"
    "{\"id\":\"wx__weather\",\"name\":\"now\",\"description\":\"Current weather\"},"
    "{\"id\":\"caf\u00e9__menu\",\"name\":\"menu\",\"description\":\"Today's menu\"}]},"
    "\"search\":{\"maxPerSearch\":3}}";
static const char AUTO_CONFIG[] =
    "{\"loop\":\"a\",\"catalog\":{\"tools\":[{\"id\":\"x y\",\"name\":\"x\",\"description\":\"one\"},"
    "{\"id\":\"z\",\"name\":\"z\",\"description\":\"two\"}]},\"search\":{\"auto\":true}}";

typedef struct ids_state {
  tsift_session *s, *a;
} ids_state;

static int scenario_ids_modes(int k, void *state, step *res) {
  ids_state *st = state;
  tsift_error err;
  size_t len = 0;
  res->out = NULL;
  switch (k) {
    case 0:
      st->s = NULL;
      res->st = tsift_session_new(IDS_CONFIG, sizeof IDS_CONFIG - 1, NULL, 0, NULL, 0, &st->s, &err);
      return 1;
    case 1: res->st = tsift_session_pre_search(st->s, 0, "send a chat message", 19, &res->out, &len, &err); return 1;
    case 2: {
      static const char args[] = "{\"query\":\"select:menu,weather\"}";
      res->st = tsift_session_call(st->s, 0, 0, "search_tools", 12, args, sizeof args - 1, &res->out, &len, &err);
      return 1;
    }
    case 3: res->st = tsift_session_menu_json(st->s, "openai", &res->out, &len, &err); return 1;
    case 4: res->st = tsift_session_journal_jsonl(st->s, &res->out, &len, &err); return 1;
    case 5:
      st->a = NULL;
      res->st = tsift_session_new(AUTO_CONFIG, sizeof AUTO_CONFIG - 1, NULL, 0, NULL, 0, &st->a, &err);
      return 1;
    case 6: res->st = tsift_session_metrics_json(st->a, &res->out, &len, &err); return 1;
    case 7: res->st = tsift_session_menu_json(st->a, "mcp", &res->out, &len, &err); return 1;
    default: return 0;
  }
}
static void ids_cleanup(void *state) {
  ids_state *st = state;
  int armed = g_armed;
  g_armed = 0;
  tsift_session_free(st->s);
  tsift_session_free(st->a);
  st->s = st->a = NULL;
  g_armed = armed;
}

/* -- scenario: snapshot write and load, index functions -- */

typedef struct index_state {
  tsift_index *ix, *loaded;
} index_state;

static char *g_snapshot; /* libc memory */
static size_t g_snapshot_len;

static int scenario_snapshot(int k, void *state, step *res) {
  index_state *st = state;
  tsift_error err;
  size_t len = 0;
  res->out = NULL;
  switch (k) {
    case 0:
      st->loaded = NULL;
      res->st = tsift_index_from_snapshot(g_snapshot, g_snapshot_len, &st->loaded, &err);
      return 1;
    case 1:
      res->st = tsift_index_search_json(st->loaded, "create issue", 12, "{\"explain\":true}", 16, &res->out, &len, &err);
      return 1;
    case 2: {
      char *snap = NULL;
      res->st = tsift_index_snapshot(st->loaded, &snap, &len, &err);
      /* compare the bytes by their hash-free length and equality with the input */
      res->out = snap && len == g_snapshot_len && memcmp(snap, g_snapshot, len) == 0 ? dup_out("same bytes")
                                                                                     : dup_out(snap ? "other bytes" : NULL);
      tsift_free(snap);
      return 1;
    }
    default: return 0;
  }
}
static int scenario_index_extras(int k, void *state, step *res) {
  index_state *st = state;
  tsift_error err;
  size_t len = 0;
  res->out = NULL;
  const char *lines = "{\"id\":1,\"query\":\"create issue\"}\n{\"id\":[\"x\",{\"y\":null}],\"query\":\"send\\u0000\xFF\"}\n";
  switch (k) {
    case 0: {
      st->ix = NULL;
      int armed = g_armed;
      g_armed = 0; /* the build itself is swept by test_build_and_search */
      res->st = tsift_index_build(SMALL_CATALOG, sizeof SMALL_CATALOG - 1, "{\"stopwords\":[\"a\"]}", 20, &st->ix, &err);
      g_armed = armed;
      return 1;
    }
    case 1: res->st = tsift_index_rank_jsonl(st->ix, lines, strlen(lines), 3, &res->out, &len, &err); return 1;
    case 2: res->st = tsift_index_info_json(st->ix, &res->out, &len, &err); return 1;
    case 3: res->st = tsift_index_documents_json(st->ix, &res->out, &len, &err); return 1;
    case 4:
      res->st = tsift_analyze_query_json("the HTTPServer caf\xC3\xA9s \xE6\x96\x87\xE6\x9C\xAC", 24,
                                         "{\"stopwords\":[\"the\"]}", 21, &res->out, &len, &err);
      return 1;
    case 5: res->st = tsift_analyze_field_json("createIssue v2 \xE6\x96\x87\xE6\x9C\xAC", 21, &res->out, &len, &err); return 1;
    case 6: {
      tsift_hit hits[5];
      size_t n = 0;
      res->st = tsift_index_search(st->ix, "issue \xFF send", 12, 5, hits, &n, &err);
      char buf[256] = "";
      for (size_t i = 0; i < n; i++) snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s ", hits[i].id);
      res->out = dup_out(buf);
      return 1;
    }
    case 7: {
      char *snap = NULL;
      res->st = tsift_index_snapshot(st->ix, &snap, &len, &err);
      res->out = dup_out(snap ? "snapshot" : NULL);
      tsift_free(snap);
      return 1;
    }
    default: return 0;
  }
}
static void index_cleanup(void *state) {
  index_state *st = state;
  int armed = g_armed;
  g_armed = 0;
  tsift_index_free(st->ix);
  tsift_index_free(st->loaded);
  st->ix = st->loaded = NULL;
  g_armed = armed;
}

/* -- scenario: learning (learn.c): a learner over the session's catalog,
 * the recorded journal (a search, a call record), examples, the learned
 * file, and a diff of two vocabularies -- */
typedef struct learn_state {
  tsift_learner *l;
  char *catalog; /* the session configuration's catalog (libc memory) */
} learn_state;

static int scenario_learn(int k, void *state, step *res) {
  learn_state *st = state;
  tsift_error err;
  size_t len = 0;
  res->out = NULL;
  static const char opts[] = "{\"index\":{\"stopwords\":[\"a\",\"the\"]},\"minSessions\":1,\"minClients\":1}";
  static const char examples[] = "{\"query\":\"file a bug report\",\"relevance\":{\"gh__create_issue\":3}}\n"
                                 "{\"query\":\"ping the team chat\",\"relevance\":{\"slack__send\":3,\"mail__send\":3}}\n";
  switch (k) {
    case 0: {
      st->l = NULL;
      int armed = g_armed;
      g_armed = 0;
      const char *a = strstr(SESSION_CONFIG, "\"catalog\":") + 10, *b = strstr(SESSION_CONFIG, ",\"search\":");
      if (!st->catalog) st->catalog = strndup(a, (size_t)(b - a)); /* once: the step may run again */
      g_armed = armed;
      res->st = tsift_learner_new(st->catalog, strlen(st->catalog), opts, sizeof opts - 1, &st->l, &err);
      return 1;
    }
    case 1:
      res->st = tsift_learner_add_journal(st->l, "recorded", g_recorded_journal, strlen(g_recorded_journal), &err);
      return 1;
    case 2: res->st = tsift_learner_add_examples(st->l, "examples", examples, sizeof examples - 1, &err); return 1;
    case 3: res->st = tsift_learner_finish(st->l, &res->out, &len, &err); return 1;
    case 4: {
      static const char a[] = "{\"annotations\":{\"x\":{\"tags\":[\"old\",\"kept\"]}}}";
      static const char b[] = "{\"annotations\":{\"x\":{\"tags\":[\"kept\",\"new\"]}},\"evidence\":{\"x\":"
                              "{\"new\":{\"sessions\":3}}}}";
      res->st = tsift_learn_diff_json(a, sizeof a - 1, b, sizeof b - 1, &res->out, &len, &err);
      return 1;
    }
    default: return 0;
  }
}
static void learn_cleanup(void *state) {
  learn_state *st = state;
  int armed = g_armed;
  g_armed = 0;
  tsift_learner_free(st->l);
  free(st->catalog);
  st->l = NULL;
  st->catalog = NULL;
  g_armed = armed;
}

static void test_allocation_failures(void) {
  printf("allocation failure sweeps\n");
  /* A recorded journal for the replay scenarios. */
  {
    session_state st = {0};
    step res[MAX_STEPS];
    int n = 0;
    while (n < MAX_STEPS && scenario_live(n, &st, &res[n])) n++;
    CHECK_EQ_INT(res[0].st, TSIFT_OK);
    g_recorded_journal = strdup(res[11].out ? res[11].out : "");
    for (int k = 0; k < n; k++) tsift_free(res[k].out);
    tsift_session_free(st.s);
    CHECK(strlen(g_recorded_journal) > 100);
  }
  {
    tsift_index *ix = build_ok(SMALL_CATALOG, sizeof SMALL_CATALOG - 1, "{\"ids\":\"lenient\",\"weights\":{\"name\":4}}");
    char *snap = NULL;
    tsift_error err;
    if (ix && tsift_index_snapshot(ix, &snap, &g_snapshot_len, &err) == TSIFT_OK) {
      g_snapshot = malloc(g_snapshot_len);
      memcpy(g_snapshot, snap, g_snapshot_len);
    }
    tsift_free(snap);
    tsift_index_free(ix);
  }
  struct {
    const char *name;
    scenario_fn run;
    cleanup_fn cleanup;
    size_t size;
  } scenarios[] = {
      {"session create + 7 calls + menus + journal + finish", scenario_live, session_cleanup, sizeof(session_state)},
      {"replay: journal + the same calls (warn)", scenario_replay, session_cleanup, sizeof(session_state)},
      {"replay: apply the journal alone", scenario_apply, session_cleanup, sizeof(session_state)},
      {"host ranker, two-phase", scenario_ranker, session_cleanup, sizeof(session_state)},
      {"snapshot load + search + snapshot", scenario_snapshot, index_cleanup, sizeof(index_state)},
      {"rank, info, documents, analyse, typed search, snapshot", scenario_index_extras, index_cleanup,
       sizeof(index_state)},
      {"learn: journal, examples, the learned file, a diff", scenario_learn, learn_cleanup, sizeof(learn_state)},
      {"safe names, look-alikes, pre-search, bare select:, auto mode", scenario_ids_modes, ids_cleanup,
       sizeof(ids_state)},
  };
  for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++) {
    sweep_result r = sweep(scenarios[i].name, scenarios[i].run, scenarios[i].cleanup, scenarios[i].size);
    CHECK(r.points > 20);
    CHECK_EQ_INT(r.wrong, 0);
    CHECK_EQ_INT(r.retry_differs, 0);
    CHECK_EQ_INT(r.leaks, 0);
  }
  free(g_recorded_journal);
  free(g_snapshot);
}

int main(void) {
  bounds_init();
  double t0 = now();
  test_build_and_search();
  test_allocation_failures();
  bounds_finish("test_alloc_failures", t0);
  return harness_finish("test_alloc_failures");
}
