/* test_scale.c — pathological sizes through every layer, with time bounds
 * (issue 8, ctest label `limits`, bounds.h; docs/reliability.md). A
 * cross-module hazard file: each case pushes one size through catalog
 * reading, index build, search, snapshots and sessions together —
 *
 *   10 MB strings in every catalog position (build + search; as an id or an
 *   annotation key: refused) and in a session (menu, results, arguments, a
 *   called name); 100k tools (build, search with explain, snapshot write and
 *   load, documents); million-character queries and 10k distinct terms
 *   (search, analysis, a 10k-line rank batch); a 100k-line journal (load,
 *   search calls against it, finish and apply: B6) and every cap at its
 *   ceiling over the 100k-tool catalog.
 *
 * The 100k-tool catalog, its index and its generator's state are shared by
 * the cases in the order main() runs them. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bounds.h"
#include "harness.h"
#include "hazard.h"
#include "toolsift.h"

/* ---- 10 MB strings ----------------------------------------------------- */

static void test_huge_strings(void) {
  printf("10 MB strings\n");
  const size_t big = 10u << 20;
  char *words = malloc(big + 1), *accents = malloc(big + 1);
  for (size_t i = 0; i < big; i++) words[i] = (i % 7 == 6) ? ' ' : (char)('a' + (i * 31 / 7) % 26);
  words[big] = 0;
  for (size_t i = 0; i + 1 < big; i += 2) memcpy(accents + i, "\xC3\xA9", 2); /* é */
  accents[big] = 0;
  tsift_error err;
  tsift_status st;
  static const char *const positions[][2] = {
      {"description", "[{\"name\":\"t\",\"description\":\"%s\"}]"},
      {"remote description", "[{\"name\":\"t\",\"origin\":\"remote\",\"description\":\"%s\"}]"},
      {"title", "[{\"name\":\"t\",\"title\":\"%s\"}]"},
      {"name (with a short id)", "[{\"id\":\"t\",\"name\":\"%s\"}]"},
      {"tag", "[{\"name\":\"t\",\"tags\":[\"%s\"]}]"},
      {"host alias", "{\"tools\":[{\"name\":\"t\"}],\"annotations\":{\"t\":{\"aliases\":[\"%s\"]}}}"},
      {"schema property name", "[{\"name\":\"t\",\"inputSchema\":{\"properties\":{\"%s\":{}}}}]"},
      {"schema description", "[{\"name\":\"t\",\"inputSchema\":{\"description\":\"%s\"}}]"},
  };
  const char *texts[2] = {words, accents};
  const char *text_names[2] = {"words", "\"\xC3\xA9\" x 5M"};
  for (size_t p = 0; p < sizeof positions / sizeof *positions; p++) {
    for (int t = 0; t < 2; t++) {
      char *json = malloc(big + 512);
      int n = snprintf(json, big + 512, positions[p][1], texts[t]);
      tsift_index *ix = NULL;
      char name[128];
      snprintf(name, sizeof name, "10 MB %s (%s): build + search", positions[p][0], text_names[t]);
      char *out = NULL;
      size_t len = 0;
      TIMED(name, 2, {
        st = tsift_index_build(json, (size_t)n, NULL, 0, &ix, &err);
        if (ix) tsift_index_search_json(ix, "aeinrw t", 8, NULL, 0, &out, &len, &err);
      });
      CHECK_EQ_INT(st, TSIFT_OK);
      if (st) fprintf(stderr, "  %s: %s\n", name, err.message);
      /* descriptions and names in results are cut (B10: a name was echoed whole) */
      CHECK(out && len < 4096);
      if (p == 3 && t == 0) printf("  search output with the 10 MB name: %zu bytes\n", len);
      tsift_free(out);
      tsift_index_free(ix);
      free(json);
    }
  }
  /* A 10 MB id is refused (strict: 128 bytes; lenient: 1024). */
  char *json = malloc(big + 64);
  int n = snprintf(json, big + 64, "[{\"name\":\"%s\"}]", words);
  TIMED("10 MB name as id: refused", 1, st = build_st(json, (size_t)n, "{\"ids\":\"lenient\"}", &err));
  CHECK_EQ_INT(st, TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "invalid id: must be 1 to 1024 bytes");
  CHECK(strlen(err.message) < TSIFT_ERROR_MESSAGE_MAX);
  n = snprintf(json, big + 64, "{\"tools\":[],\"annotations\":{\"%s\":{}}}", words);
  TIMED("10 MB annotation key: refused", 1, st = build_st(json, (size_t)n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "no tool has this id");
  free(json);

  /* Sessions: a 10 MB description on the menu and in results. */
  sb cat = {0}, cfg = {0};
  sb_puts(&cat, "[{\"name\":\"big_tool\",\"description\":\"");
  sb_puts(&cat, words);
  sb_puts(&cat, "\"}]");
  make_config(&cfg, cat.p, "{\"maxMenuChars\":10000000}");
  tsift_session *s = NULL;
  char *r = NULL;
  TIMED("session: 10 MB description, search + menu", 3, {
    st = tsift_session_new(cfg.p, cfg.n, NULL, 0, NULL, 0, &s, &err);
    if (s) r = call(s, 0, 0, "search_tools", 12, "{\"query\":\"big tool\"}", 20, &st);
  });
  CHECK_EQ_INT(st, TSIFT_OK);
  CHECK(r && strlen(r) < 4096); /* the result's description is cut */
  printf("  search result: %.120s...\n", r ? r : "(null)");
  tsift_free(r);
  if (s) {
    char *m = NULL;
    size_t len = 0;
    tsift_session_menu_json(s, "mcp", &m, &len, &err);
    printf("  menu with the 10 MB tool: %zu bytes\n", len);
    tsift_free(m);
    /* A 10 MB query is over the 64 KiB argument cap: a refusal. */
    sb args = {0};
    sb_puts(&args, "{\"query\":\"");
    sb_puts(&args, words);
    sb_puts(&args, "\"}");
    TIMED("search_tools: 10 MB arguments", 1, r = call(s, 1, 0, "search_tools", 12, args.p, args.n, &st));
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(r, "arguments are too large");
    tsift_free(r);
    /* A 10 MB tool name from the model: refused, echoed capped. */
    TIMED("session call: a 10 MB tool name", 1, r = call(s, 1, 1, words, big, "{}", 2, &st));
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(r, "\"error\":\"not_on_menu\"");
    CHECK(r && strlen(r) < 1024);
    tsift_free(r);
    sb_free(&args);
    tsift_session_free(s);
  }
  sb_free(&cat);
  sb_free(&cfg);
  free(words);
  free(accents);
}

/* ---- 100k tools -------------------------------------------------------- */

static unsigned g_rng = 2463534242u;
static unsigned rnd(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 17;
  g_rng ^= g_rng << 5;
  return g_rng;
}

/* A word from a 5000-word pseudo vocabulary (Zipf-ish: low ids common). */
static void put_word(sb *b) {
  unsigned r = rnd() % 5000;
  r = r * r / 5000;
  static const char *const syl[] = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa"};
  sb_puts(b, syl[r % 10]);
  sb_puts(b, syl[(r / 10) % 10]);
  sb_puts(b, syl[(r / 100) % 10]);
  if (r >= 1000) sb_puts(b, syl[(r / 1000) % 10]);
}

static void make_catalog(sb *b, size_t n) {
  sb_puts(b, "{\"tools\":[");
  for (size_t i = 0; i < n; i++) {
    sb_printf(b, "%s{\"id\":\"ns%zu__tool_%zu\",\"name\":\"", i ? "," : "", i % 100, i);
    put_word(b);
    sb_puts(b, "_");
    put_word(b);
    sb_puts(b, "\",\"description\":\"");
    for (int w = 0; w < 12; w++) {
      if (w) sb_puts(b, " ");
      put_word(b);
    }
    sb_puts(b, "\",\"inputSchema\":{\"properties\":{\"");
    put_word(b);
    sb_puts(b, "\":{\"type\":\"string\"}}}");
    if (i % 3 == 0) sb_puts(b, ",\"origin\":\"remote\"");
    sb_puts(b, "}");
  }
  sb_puts(b, "]}");
}

static sb g_big_catalog;     /* 100k tools, shared with the query tests */
static tsift_index *g_big;   /* built from it */

static void test_many_tools(void) {
  printf("100k tools\n");
  TIMED("generate a 100k-tool catalog (test harness)", 5, make_catalog(&g_big_catalog, 100000));
  printf("  catalog: %.1f MB\n", (double)g_big_catalog.n / 1048576.0);
  tsift_error err;
  tsift_status st;
  TIMED("index build: 100k tools", 10,
        st = tsift_index_build(g_big_catalog.p, g_big_catalog.n, NULL, 0, &g_big, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  if (!g_big) return;
  CHECK_EQ_INT(tsift_index_size(g_big), 100000);
  char *out = NULL;
  size_t len = 0;
  TIMED("search: 100k tools, explain, limit 1000", 1,
        st = tsift_index_search_json(g_big, "kaloka mimi rusa tilo", 21, "{\"explain\":true,\"limit\":1000}", 29,
                                     &out, &len, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  tsift_free(out);
  char *snap = NULL;
  size_t snap_len = 0;
  TIMED("snapshot: write 100k tools", 5, st = tsift_index_snapshot(g_big, &snap, &snap_len, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  printf("  snapshot: %.1f MB\n", (double)snap_len / 1048576.0);
  tsift_index *back = NULL;
  TIMED("snapshot: load 100k tools", 10, st = tsift_index_from_snapshot(snap, snap_len, &back, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  tsift_index_free(back);
  tsift_free(snap);
  TIMED("documents JSON: 100k tools", 5, st = tsift_index_documents_json(g_big, &out, &len, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  tsift_free(out);
}

/* ---- a million-character query; 10k distinct terms ---------------------- */

static void test_huge_queries(void) {
  printf("huge queries\n");
  tsift_index *ix = g_big ? g_big : build_ok(SMALL_CATALOG, sizeof SMALL_CATALOG - 1, NULL);
  if (!ix) return;
  const size_t million = 1000000;
  sb q_a = {0}, q_words = {0}, q_cjk = {0}, q_bad = {0}, q_terms = {0};
  sb_rep(&q_a, "a", million);
  for (size_t i = 0; q_words.n < million; i++) put_word(&q_words), sb_puts(&q_words, " ");
  sb_rep(&q_cjk, "\xE6\x96\x87", million); /* a million CJK characters (3 MB) */
  sb_rep(&q_bad, "\xFF", million);         /* a million invalid bytes */
  for (int i = 0; i < 10000; i++) sb_printf(&q_terms, "term%05d ", i);
  struct {
    const char *name;
    sb *q;
  } qs[] = {{"1M x 'a'", &q_a},
            {"1M characters of words", &q_words},
            {"1M CJK characters (3 MB)", &q_cjk},
            {"1M invalid UTF-8 bytes", &q_bad},
            {"10k distinct terms", &q_terms}};
  tsift_error err;
  tsift_status st;
  for (size_t i = 0; i < sizeof qs / sizeof *qs; i++) {
    char name[128], *out = NULL;
    size_t len = 0;
    snprintf(name, sizeof name, "search (%s tools): %s", g_big ? "100k" : "6", qs[i].name);
    TIMED(name, 1,
          st = tsift_index_search_json(ix, qs[i].q->p, qs[i].q->n, "{\"explain\":true}", 16, &out, &len, &err));
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK(len < 100000); /* the query is cut at 512 bytes */
    tsift_free(out);
    snprintf(name, sizeof name, "analyze query: %s", qs[i].name);
    TIMED(name, 1, st = tsift_analyze_query_json(qs[i].q->p, qs[i].q->n, NULL, 0, &out, &len, &err));
    CHECK_EQ_INT(st, TSIFT_OK);
    tsift_free(out);
    snprintf(name, sizeof name, "analyze field: %s", qs[i].name);
    TIMED(name, 1, st = tsift_analyze_field_json(qs[i].q->p, qs[i].q->n, &out, &len, &err));
    CHECK_EQ_INT(st, i == 3 ? TSIFT_E_UTF8 : TSIFT_OK); /* fields refuse invalid UTF-8 */
    tsift_free(out);
  }
  /* 10k queries of distinct terms in one rank batch. */
  sb lines = {0};
  for (int i = 0; i < 10000; i++) {
    sb_printf(&lines, "{\"id\":%d,\"query\":\"", i);
    put_word(&lines);
    sb_printf(&lines, " term%05d ", i);
    put_word(&lines);
    sb_puts(&lines, "\"}\n");
  }
  char *out = NULL;
  size_t len = 0;
  char name[128];
  snprintf(name, sizeof name, "rank: 10k query lines, k=10 (%s tools)", g_big ? "100k" : "6");
  TIMED(name, 10, st = tsift_index_rank_jsonl(ix, lines.p, lines.n, 10, &out, &len, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  tsift_free(out);
  sb_free(&lines);
  if (ix != g_big) tsift_index_free(ix);
  sb_free(&q_a);
  sb_free(&q_words);
  sb_free(&q_cjk);
  sb_free(&q_bad);
  sb_free(&q_terms);
}

/* ---- journals, huge caps ------------------------------------------------ */

/* Run fn(arg) in a child process and give it `secs` seconds: returns 0 when
 * it finished, 1 when it ran out of time (killed), -1 when it crashed.
 * *elapsed gets the wall time. For known bugs that would hang the suite. */
static int run_with_deadline(void (*fn)(void *), void *arg, double secs, double *elapsed) {
  fflush(NULL);
  double t0 = now();
  pid_t pid = fork();
  if (pid == 0) {
    fn(arg);
    _exit(0);
  }
  if (pid < 0) return -1;
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (now() - t0 > secs) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      *elapsed = now() - t0;
      return 1;
    }
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
  }
  *elapsed = now() - t0;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void finish_child(void *arg) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  _exit(tsift_session_finish(arg, &out, &len, &err) == TSIFT_OK && len > 100 ? 0 : 3);
}
static void apply_child(void *arg) {
  tsift_error err;
  _exit(tsift_session_apply_journal(arg, &err) == TSIFT_OK ? 0 : 3);
}

/* Time finish and apply_journal on a session over `lines` recorded
 * decisions, each in a child with a deadline of `bound` seconds. */
static void time_journal(const char *cfg, size_t cfg_len, size_t lines, double bound, double *t_finish,
                         double *t_apply, int *r_finish, int *r_apply) {
  sb j = {0};
  for (size_t i = 0; i < lines; i++)
    sb_printf(&j,
              "{\"id\":\"lim#turn:%zu:tool:0:search\",\"source\":\"agent-tool-search\",\"value\":{\"ranker\":"
              "\"bm25f-5\",\"query\":\"q%zu\",\"results\":[\"gh__create_issue\",\"nope\",\"evil__issue\"],"
              "\"loaded\":[\"gh__create_issue\",\"evil__issue\"]}}\n",
              i, i);
  tsift_session *s = NULL;
  tsift_error err;
  *r_finish = *r_apply = -1;
  *t_finish = *t_apply = 0;
  if (tsift_session_new(cfg, cfg_len, j.p, j.n, "{\"divergence\":\"warn\"}", 21, &s, &err) == TSIFT_OK) {
    *r_finish = run_with_deadline(finish_child, s, bound, t_finish);
    *r_apply = run_with_deadline(apply_child, s, bound, t_apply);
    tsift_session_free(s);
  }
  sb_free(&j);
}

static void test_journals_and_caps(void) {
  printf("journals and caps\n");
  tsift_error err;
  tsift_status st;
  sb cfg = {0}, j = {0};
  make_config(&cfg, SMALL_CATALOG, "{\"maxPerSearch\":50,\"maxLoaded\":200,\"maxSearches\":200,\"maxMenuChars\":10000000}");
  /* 100k decisions, every one a search with forged results. */
  for (unsigned i = 0; i < 100000; i++)
    sb_printf(&j,
              "{\"id\":\"lim#turn:%u:tool:0:search\",\"source\":\"agent-tool-search\",\"value\":{\"ranker\":"
              "\"bm25f-5\",\"query\":\"q%u\",\"results\":[\"gh__create_issue\",\"nope\",\"evil__issue\"],"
              "\"loaded\":[\"gh__create_issue\",\"evil__issue\"]}}\n",
              i, i);
  printf("  journal: 100k lines, %.1f MB\n", (double)j.n / 1048576.0);
  tsift_session *s = NULL;
  TIMED("session: load a 100k-line journal", 5,
        st = tsift_session_new(cfg.p, cfg.n, j.p, j.n, "{\"divergence\":\"warn\"}", 21, &s, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  if (s) {
    char *out = NULL;
    unsigned done = 0;
    /* the first 200 are replayed (maxSearches), the rest refused */
    TIMED("session: 1000 search calls against it", 5, {
      for (unsigned i = 0; i < 1000; i++) {
        char args[64];
        int n = snprintf(args, sizeof args, "{\"query\":\"q%u\"}", i);
        out = call(s, i, 0, "search_tools", 12, args, (size_t)n, &st);
        if (st != TSIFT_OK) break;
        tsift_free(out);
        done++;
      }
    });
    CHECK_EQ_INT(done, 1000);
    char *m = NULL;
    size_t len = 0;
    tsift_session_metrics_json(s, &m, &len, &err);
    CHECK_CONTAINS(m, "\"searches\":200,\"refusals\":800,");
    CHECK_CONTAINS(m, "\"loaded\":1,\"rankerCalls\":0,\"replayed\":200");
    tsift_free(m);
    tsift_session_free(s);
  }
  sb_free(&j);
  /* B6 (found here, fixed): finish and apply_journal fetched decision i
   * with cJSON_GetArrayItem (a walk from the head of a linked list), so they
   * were quadratic: 20k lines 2.4 s, 100k lines minutes. Each runs in a
   * child with a deadline, so a regression fails instead of hanging. */
  double tf = 0, ta = 0;
  int rf = -1, ra = -1;
  time_journal(cfg.p, cfg.n, 100000, 5 * g_scale, &tf, &ta, &rf, &ra);
  timed("session: finish with 99.8k unasked decisions (100k-line journal)", tf, 5);
  timed("session: apply a 100k-line journal (99.8k refused by maxSearches)", ta, 5);
  CHECK_EQ_INT(rf, 0);
  CHECK_EQ_INT(ra, 0);

  /* Caps at their ceilings over the 100k-tool catalog. */
  if (g_big_catalog.n) {
    sb big = {0};
    make_config(&big, g_big_catalog.p,
                "{\"maxPerSearch\":50,\"maxLoaded\":200,\"maxSearches\":200,\"maxMenuChars\":10000000}");
    s = NULL;
    TIMED("session: 100k-tool catalog, caps at their ceilings", 15,
          st = tsift_session_new(big.p, big.n, NULL, 0, NULL, 0, &s, &err));
    CHECK_EQ_INT(st, TSIFT_OK);
    if (s) {
      char *out = NULL;
      size_t len = 0;
      TIMED("session: 200 searches of 50 over 100k tools", 10, {
        for (unsigned i = 0; i < 200; i++) {
          sb args = {0};
          sb_puts(&args, "{\"query\":\"");
          put_word(&args);
          sb_puts(&args, " ");
          put_word(&args);
          sb_puts(&args, "\"}");
          out = call(s, i, 0, "search_tools", 12, args.p, args.n, &st);
          sb_free(&args);
          if (st != TSIFT_OK) break;
          tsift_free(out);
        }
      });
      CHECK_EQ_INT(st, TSIFT_OK);
      char *m = NULL;
      TIMED("session: menu with 200 loaded tools", 1, st = tsift_session_menu_json(s, "openai", &m, &len, &err));
      CHECK_EQ_INT(st, TSIFT_OK);
      tsift_free(m);
      tsift_session_metrics_json(s, &m, &len, &err);
      CHECK_CONTAINS(m, "\"loaded\":200,");
      tsift_free(m);
      tsift_session_free(s);
    }
    sb_free(&big);
  }
  sb_free(&cfg);
}

int main(void) {
  bounds_init();
  double t0 = now();
  test_huge_strings();
  test_many_tools();
  test_huge_queries();
  test_journals_and_caps();
  tsift_index_free(g_big);
  sb_free(&g_big_catalog);
  bounds_finish("test_scale", t0);
  return harness_finish("test_scale");
}
