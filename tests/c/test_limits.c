/* test_limits.c — hardening (issue 8): pathological inputs with time bounds,
 * and allocation-failure sweeps over sessions, replay, host rankers,
 * snapshots and the index functions test_errors.c does not sweep.
 *
 * Every pathological input must give a typed error or a bounded result
 * within a documented time (docs/reliability.md lists each case with its
 * measured time). Bounds are generous for a 2-core machine and are
 * multiplied by TSIFT_TIME_SCALE (scripts/sanitize.sh sets it: ASan/UBSan
 * builds run several times slower).
 *
 * The bugs these checks found (B1..B9 in docs/reliability.md) are fixed;
 * their checks are plain CHECKs now. A new bug that cannot be fixed at once
 * is parked with KNOWN_BUG("Bn", what, cond): cond is the correct behaviour;
 * by default an open known bug is printed and not counted (the suite stays
 * green), one that behaves is announced ("turn this KNOWN_BUG into a
 * CHECK"); with TSIFT_KNOWN_BUGS=1 known bugs count as failures.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "toolsift.h"

/* ---- timing, known bugs ------------------------------------------------ */

static double g_scale = 1.0;
static int g_known_count; /* TSIFT_KNOWN_BUGS=1 */
static int g_known_open, g_known_fixed;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void timed(const char *name, double secs, double bound) {
  printf("  %-64s %8.3f s (bound %g s)\n", name, secs, bound);
  if (secs > bound * g_scale) fprintf(stderr, "%s: took %.3f s, over its bound of %g s\n", name, secs, bound * g_scale);
  CHECK(secs <= bound * g_scale);
}

/* Run `body` and check it finished within `bound` seconds. */
#define TIMED(name, bound, body)      \
  do {                                \
    double t0_ = now();               \
    body;                             \
    timed((name), now() - t0_, (bound)); \
  } while (0)

#define KNOWN_BUG(id, what, cond)                                                                   \
  do {                                                                                              \
    int ok_ = (cond);                                                                               \
    if (g_known_count) {                                                                            \
      if (!ok_) fprintf(stderr, "known bug %s still open: %s\n", (id), (what));                    \
      CHECK(ok_);                                                                                     \
    } else if (ok_) {                                                                               \
      g_known_fixed++;                                                                              \
      printf("  known bug %s now behaves (%s): turn this KNOWN_BUG into a CHECK\n", (id), (what)); \
    } else {                                                                                        \
      g_known_open++;                                                                               \
      printf("  known bug %s still open (not counted): %s\n", (id), (what));                       \
    }                                                                                               \
  } while (0)

/* ---- a growable string (test-owned, libc allocator) -------------------- */

typedef struct sb {
  char *p;
  size_t n, cap;
} sb;

static void sb_put(sb *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n + 1) cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p) abort();
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}
static void sb_puts(sb *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_rep(sb *b, const char *s, size_t times) {
  size_t n = strlen(s);
  for (size_t i = 0; i < times; i++) sb_put(b, s, n);
}
static void sb_printf(sb *b, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  sb_put(b, tmp, (size_t)n);
}
static void sb_free(sb *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

/* ---- API wrappers ------------------------------------------------------ */

/* Build and free; on failure the handle must be NULL. */
static tsift_status build(const char *json, size_t len, const char *opts, tsift_error *err) {
  tsift_index *ix = (tsift_index *)0x1;
  tsift_status st = tsift_index_build(json, len, opts, opts ? strlen(opts) : 0, &ix, err);
  if (st != TSIFT_OK) CHECK(ix == NULL);
  else tsift_index_free(ix);
  return st;
}

static tsift_index *build_ok(const char *json, size_t len, const char *opts) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, len, opts, opts ? strlen(opts) : 0, &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n", err.message);
    CHECK(0);
    return NULL;
  }
  return ix;
}

static tsift_status session_st(const char *cfg, size_t len, const char *journal, size_t jlen, const char *opts,
                               tsift_error *err) {
  tsift_session *s = (tsift_session *)0x1;
  tsift_status st = tsift_session_new(cfg, len, journal, jlen, opts, opts ? strlen(opts) : 0, &s, err);
  if (st != TSIFT_OK) CHECK(s == NULL);
  else tsift_session_free(s);
  return st;
}

static const char SMALL_CATALOG[] =
    "{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open a new issue in a "
    "repository\",\"tags\":[\"bug\"],\"inputSchema\":{\"properties\":{\"title\":{\"type\":\"string\","
    "\"description\":\"Issue title\",\"maxLength\":1e300}}}},"
    "{\"id\":\"gh__list_issues\",\"name\":\"list_issues\",\"description\":\"List issues of a repository\"},"
    "{\"id\":\"jira__create_issue\",\"name\":\"create_issue\",\"description\":\"Create a Jira issue\"},"
    "{\"id\":\"slack__send\",\"name\":\"send\",\"description\":\"Send a Slack message to a channel\","
    "\"origin\":\"remote\"},"
    "{\"id\":\"mail__send\",\"name\":\"send\",\"description\":\"Send an email message\"},"
    "{\"id\":\"evil__issue\",\"name\":\"issue_helper\",\"description\":\"issue issue\",\"tainted\":true}"
    "],\"annotations\":{\"slack__send\":{\"aliases\":[\"chat\"]}}}";

/* A session configuration around `catalog` with `search` options. */
static void make_config(sb *b, const char *catalog, const char *search) {
  sb_puts(b, "{\"loop\":\"lim\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply\"}],\"catalog\":");
  sb_puts(b, catalog);
  sb_puts(b, ",\"search\":");
  sb_puts(b, search);
  sb_puts(b, "}");
}

static char *call(tsift_session *s, unsigned turn, unsigned c, const char *tool, size_t tool_len,
                  const char *args, size_t args_len, tsift_status *st) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  *st = tsift_session_call(s, turn, c, tool, tool_len, args, args_len, &out, &len, &err);
  return out;
}

/* ---- 1. deeply nested JSON --------------------------------------------- */

static void test_deep_nesting(void) {
  printf("deep nesting\n");
  const size_t depth = 100000;
  sb arr = {0}, obj = {0}, open = {0}, ok = {0};
  sb_rep(&arr, "[", depth);
  sb_rep(&arr, "]", depth);
  sb_rep(&obj, "{\"a\":", depth);
  sb_puts(&obj, "1");
  sb_rep(&obj, "}", depth);
  sb_rep(&open, "[", depth);
  tsift_error err;
  tsift_status st;
  TIMED("catalog: 100k nested arrays", 1, st = build(arr.p, arr.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "catalog: nesting deeper than 1000 at byte 1000");
  TIMED("catalog: 100k nested objects", 1, st = build(obj.p, obj.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  TIMED("catalog: 100k unclosed arrays", 1, st = build(open.p, open.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  TIMED("build options: 100k nested objects", 1, st = build("[]", 2, obj.p, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "options: nesting deeper than 1000");

  /* 999 levels inside "tools": under cJSON's limit, a plain config error. */
  sb_puts(&ok, "{\"tools\":");
  sb_rep(&ok, "[", 998);
  sb_rep(&ok, "]", 998);
  sb_puts(&ok, "}");
  TIMED("catalog: 999 levels (under the limit)", 1, st = build(ok.p, ok.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "tools[0]: expected an object, got an array");

  tsift_index *ix = build_ok(SMALL_CATALOG, sizeof SMALL_CATALOG - 1, NULL);
  if (ix) {
    char *out = NULL;
    size_t len = 0;
    TIMED("search options: 100k nested objects", 1,
          st = tsift_index_search_json(ix, "issue", 5, obj.p, obj.n, &out, &len, &err));
    CHECK_EQ_INT(st, TSIFT_E_ARG);
    CHECK(out == NULL);
    sb line = {0};
    sb_puts(&line, "{\"id\":");
    sb_puts(&line, obj.p);
    sb_puts(&line, ",\"query\":\"issue\"}\n");
    TIMED("rank: a query line with a 100k-deep id", 1,
          st = tsift_index_rank_jsonl(ix, line.p, line.n, 5, &out, &len, &err));
    CHECK_EQ_INT(st, TSIFT_E_LIMIT);
    CHECK_CONTAINS(err.message, "queries line 1: nesting deeper than 1000");
    sb_free(&line);
    TIMED("analyze options: 100k nested arrays", 1,
          st = tsift_analyze_query_json("x", 1, arr.p, arr.n, &out, &len, &err));
    CHECK_EQ_INT(st, TSIFT_E_LIMIT);
    tsift_index_free(ix);
  }

  sb cfg = {0};
  TIMED("session config: 100k nested objects", 1, st = session_st(obj.p, obj.n, NULL, 0, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "config: nesting deeper than 1000");
  make_config(&cfg, SMALL_CATALOG, "{}");
  TIMED("journal: 100k nested arrays", 1, st = session_st(cfg.p, cfg.n, arr.p, arr.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  TIMED("journal: a JSON line 100k deep", 1, st = session_st(cfg.p, cfg.n, obj.p, obj.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "journal line 1: nesting deeper than 1000");
  TIMED("session options: 100k nested objects", 1, st = session_st(cfg.p, cfg.n, NULL, 0, obj.p, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  tsift_session *s = NULL;
  if (tsift_session_new(cfg.p, cfg.n, NULL, 0, NULL, 0, &s, &err) == TSIFT_OK) {
    char *r = NULL;
    /* the host's argument JSON is capped at 64 KiB first: use 30k levels */
    sb args = {0};
    sb_rep(&args, "[", 30000);
    sb_rep(&args, "]", 30000);
    TIMED("search_tools: arguments 30k deep", 1,
          r = call(s, 0, 0, "search_tools", 12, args.p, args.n, &st));
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(r, "\"error\":\"invalid_input\"");
    tsift_free(r);
    sb_free(&args);
    /* a host ranker answering with a 100k-deep array */
    CHECK_EQ_INT(tsift_session_set_ranker(s, "host", NULL, NULL, &err), TSIFT_OK);
    r = call(s, 1, 0, "search_tools", 12, "{\"query\":\"issue\"}", 17, &st);
    CHECK_CONTAINS(r, "\"rank\":{\"kind\":\"host\"");
    tsift_free(r);
    size_t len = 0;
    r = NULL;
    TIMED("ranker answer: 100k nested arrays", 1, st = tsift_session_ranked(s, arr.p, arr.n, &r, &len, &err));
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(r, "\"error\":\"search_unavailable\"");
    tsift_free(r);
    tsift_session_free(s);
  }
  sb_free(&cfg);
  sb_free(&arr);
  sb_free(&obj);
  sb_free(&open);
  sb_free(&ok);
}

/* ---- 2. deep and wide schemas ------------------------------------------ */

static void test_schemas(void) {
  printf("deep and wide schemas\n");
  tsift_error err;
  tsift_status st;
  /* 490 schema levels (980 JSON levels): the walk stops at depth 8. */
  sb deep = {0};
  sb_puts(&deep, "[{\"name\":\"deep\",\"inputSchema\":");
  for (int i = 0; i < 490; i++) sb_printf(&deep, "{\"description\":\"level%d\",\"properties\":{\"p%d\":", i, i);
  sb_puts(&deep, "{}");
  for (int i = 0; i < 490; i++) sb_puts(&deep, "}}");
  sb_puts(&deep, "}]");
  tsift_index *ix = NULL;
  TIMED("schema: 490 nested property levels", 1,
        st = tsift_index_build(deep.p, deep.n, NULL, 0, &ix, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  if (ix) {
    char *docs = NULL;
    size_t len;
    tsift_index_documents_json(ix, &docs, &len, &err);
    CHECK_CONTAINS(docs, "\"p7\"");
    CHECK(docs && strstr(docs, "\"p8\"") == NULL); /* depth < 8 */
    CHECK(docs && strstr(docs, "\"level8\"") == NULL);
    tsift_free(docs);
    tsift_index_free(ix);
  }
  sb_free(&deep);

  /* 100k properties, 100k anyOf branches, 100k $defs, each with text. */
  sb wide = {0};
  sb_puts(&wide, "[{\"name\":\"wide\",\"inputSchema\":{\"properties\":{");
  for (int i = 0; i < 100000; i++) sb_printf(&wide, "%s\"prop%d\":{\"description\":\"about prop %d\"}", i ? "," : "", i, i);
  sb_puts(&wide, "},\"anyOf\":[");
  for (int i = 0; i < 100000; i++) sb_printf(&wide, "%s{\"description\":\"branch %d\"}", i ? "," : "", i);
  sb_puts(&wide, "],\"$defs\":{");
  for (int i = 0; i < 100000; i++) sb_printf(&wide, "%s\"d%d\":{\"properties\":{\"x%d\":{}}}", i ? "," : "", i, i);
  sb_puts(&wide, "}}}]");
  ix = NULL;
  TIMED("schema: 100k properties + 100k anyOf + 100k $defs (7 MB)", 3,
        st = tsift_index_build(wide.p, wide.n, NULL, 0, &ix, &err));
  CHECK_EQ_INT(st, TSIFT_OK);
  if (ix) {
    char *docs = NULL;
    size_t len;
    tsift_index_documents_json(ix, &docs, &len, &err);
    CHECK(docs && strstr(docs, "\"prop128\"") == NULL); /* 128 properties */
    CHECK(len < 20000);
    tsift_free(docs);
    tsift_index_free(ix);
  }
  sb_free(&wide);
}

/* ---- 3. 10 MB strings -------------------------------------------------- */

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
  TIMED("10 MB name as id: refused", 1, st = build(json, (size_t)n, "{\"ids\":\"lenient\"}", &err));
  CHECK_EQ_INT(st, TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "invalid id: must be 1 to 1024 bytes");
  CHECK(strlen(err.message) < TSIFT_ERROR_MESSAGE_MAX);
  n = snprintf(json, big + 64, "{\"tools\":[],\"annotations\":{\"%s\":{}}}", words);
  TIMED("10 MB annotation key: refused", 1, st = build(json, (size_t)n, NULL, &err));
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

/* ---- 4. 100k tools ----------------------------------------------------- */

/* B10: a search result echoed a tool's name whole (a short id can carry a
 * name of any length). Names are now cut like descriptions: at most 128
 * characters (not bytes), then "…"; a name of 128 characters is unchanged. */
static void test_result_name_bound(void) {
  printf("names in search results\n");
  static const struct {
    const char *unit; /* one character */
    size_t chars;
    int cut;
  } cases[] = {{"a", 127, 0}, {"a", 128, 0}, {"a", 129, 1}, {"a", 100000, 1},
               {"\xC3\xA9", 128, 0}, {"\xC3\xA9", 129, 1}, {"\xF0\x9F\x94\xA7", 128, 0},
               {"\xF0\x9F\x94\xA7", 300, 1}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    size_t ul = strlen(cases[c].unit);
    sb cat = {0}, want = {0};
    /* a remote tool, so the long name is the only text of it that reaches
     * results; the query matches a host tag */
    sb_puts(&cat, "{\"tools\":[{\"id\":\"zz\",\"origin\":\"remote\",\"name\":\"");
    sb_rep(&cat, cases[c].unit, cases[c].chars);
    sb_puts(&cat, "\"}],\"annotations\":{\"zz\":{\"tags\":[\"findme\"]}}}");
    sb_puts(&want, "\"name\":\"");
    sb_rep(&want, cases[c].unit, cases[c].cut ? 128 : cases[c].chars);
    if (cases[c].cut) sb_puts(&want, "\xE2\x80\xA6");
    sb_puts(&want, "\",\"description\":");
    tsift_index *ix = build_ok(cat.p, cat.n, NULL);
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    CHECK(ix != NULL);
    if (ix) {
      CHECK_EQ_INT(tsift_index_search_json(ix, "findme", 6, NULL, 0, &out, &len, &err), TSIFT_OK);
      CHECK_CONTAINS(out, want.p);
      CHECK(out && len < 256 + 4 * 129);
      if (!out || !strstr(out, want.p)) fprintf(stderr, "  case %zu (%zu x %zu bytes)\n", c, cases[c].chars, ul);
    }
    tsift_free(out);
    tsift_index_free(ix);
    sb_free(&cat);
    sb_free(&want);
  }
}

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

/* ---- 5. a million-character query; 10k distinct terms ------------------- */

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

/* ---- 6. invalid UTF-8 in every string position ------------------------- */

/* Documents with one string position marked @; each is tried with every
 * kind of invalid sequence in place of the @. */
static const char *const CATALOG_POSITIONS[] = {
    "[{\"name\":\"@\"}]",
    "[{\"id\":\"@\",\"name\":\"t\"}]",
    "[{\"name\":\"t\",\"description\":\"@\"}]",
    "[{\"name\":\"t\",\"title\":\"@\"}]",
    "[{\"name\":\"t\",\"annotations\":{\"title\":\"@\"}}]",
    "[{\"name\":\"t\",\"tags\":[\"ok\",\"@\"]}]",
    "[{\"name\":\"t\",\"aliases\":[\"@\"]}]",
    "[{\"name\":\"t\",\"origin\":\"@\"}]",
    "[{\"name\":\"t\",\"inputSchema\":{\"properties\":{\"@\":{}}}}]",
    "[{\"name\":\"t\",\"inputSchema\":{\"properties\":{\"a\":{\"description\":\"@\"}}}}]",
    "[{\"name\":\"t\",\"inputSchema\":{\"enum\":[\"@\"]}}]",
    "[{\"name\":\"t\",\"@\":1}]",
    "[{\"type\":\"function\",\"function\":{\"name\":\"@\"}}]",
    "{\"tools\":[{\"name\":\"t\"}],\"annotations\":{\"@\":{}}}",
    "{\"tools\":[{\"name\":\"t\"}],\"annotations\":{\"t\":{\"tags\":[\"@\"]}}}",
    "{\"tools\":[],\"skills\":[{\"name\":\"@\"}]}",
    "{\"tools\":[],\"nextCursor\":\"@\"}",
};
static const char *const BAD_UTF8[][2] = {
    {"lone continuation byte", "\x80"},
    {"truncated 2-byte sequence", "\xC3"},
    {"truncated 3-byte sequence", "\xE6\x96"},
    {"overlong '/'", "\xC0\xAF"},
    {"overlong NUL", "\xC0\x80"},
    {"UTF-8 surrogate", "\xED\xA0\x80"},
    {"beyond U+10FFFF", "\xF4\x90\x80\x80"},
    {"0xFF", "\xFF"},
    {"5-byte form", "\xF8\x88\x80\x80\x80"},
};

/* s with the first @ replaced by `with`; *at receives the @'s offset. */
static char *splice(const char *s, const char *with, size_t *at, size_t *len) {
  const char *p = strchr(s, '@');
  *at = (size_t)(p - s);
  size_t wn = strlen(with), n = strlen(s) - 1 + wn;
  char *out = malloc(n + 1);
  memcpy(out, s, *at);
  memcpy(out + *at, with, wn);
  strcpy(out + *at + wn, p + 1);
  *len = n;
  return out;
}

static void test_invalid_utf8(void) {
  printf("invalid UTF-8 everywhere\n");
  tsift_error err;
  int cases = 0, typed = 0, positioned = 0;
  double t0 = now();
  for (size_t p = 0; p < sizeof CATALOG_POSITIONS / sizeof *CATALOG_POSITIONS; p++)
    for (size_t b = 0; b < sizeof BAD_UTF8 / sizeof *BAD_UTF8; b++) {
      size_t at, len;
      char *json = splice(CATALOG_POSITIONS[p], BAD_UTF8[b][1], &at, &len);
      char want[64];
      snprintf(want, sizeof want, "invalid UTF-8 at byte %zu ", at);
      cases++;
      tsift_status st = build(json, len, NULL, &err);
      typed += st == TSIFT_E_UTF8;
      positioned += strstr(err.message, want) != NULL;
      if (st != TSIFT_E_UTF8 || !strstr(err.message, want))
        fprintf(stderr, "catalog %s with %s: %s (%s)\n", CATALOG_POSITIONS[p], BAD_UTF8[b][0],
                tsift_status_name(st), err.message);
      free(json);
    }
  /* Options, session configuration, journal, session options. */
  static const char *const OTHER[][2] = {
      {"options", "{\"stopwords\":[\"@\"]}"},
      {"options", "{\"ids\":\"@\"}"},
      {"config", "{\"loop\":\"@\",\"catalog\":[]}"},
      {"config", "{\"catalog\":[],\"search\":{\"toolName\":\"@\"}}"},
      {"config", "{\"catalog\":[],\"search\":{\"namespaces\":[\"@\"]}}"},
      {"config", "{\"catalog\":[],\"search\":{\"alwaysLoaded\":[\"@\"]}}"},
      {"config", "{\"catalog\":[],\"search\":{\"stopwords\":[\"@\"]}}"},
      {"config", "{\"catalog\":[],\"tools\":[{\"name\":\"@\"}]}"},
      {"config", "{\"catalog\":[{\"name\":\"t\",\"description\":\"@\"}]}"},
      {"journal", "{\"id\":\"@\",\"value\":{}}\n"},
      {"journal", "[{\"id\":\"lim#turn:0:tool:0:search\",\"value\":{\"query\":\"@\"}}]"},
      {"session options", "{\"divergence\":\"@\"}"},
  };
  sb cfg = {0};
  make_config(&cfg, SMALL_CATALOG, "{}");
  for (size_t p = 0; p < sizeof OTHER / sizeof *OTHER; p++)
    for (size_t b = 0; b < sizeof BAD_UTF8 / sizeof *BAD_UTF8; b++) {
      size_t at, len;
      char *doc = splice(OTHER[p][1], BAD_UTF8[b][1], &at, &len);
      char want[64];
      snprintf(want, sizeof want, "invalid UTF-8 at byte %zu ", at);
      tsift_status st;
      const char *kind = OTHER[p][0];
      if (strcmp(kind, "options") == 0) st = build("[]", 2, doc, &err);
      else if (strcmp(kind, "config") == 0) st = session_st(doc, len, NULL, 0, NULL, &err);
      else if (strcmp(kind, "journal") == 0) st = session_st(cfg.p, cfg.n, doc, len, NULL, &err);
      else st = session_st(cfg.p, cfg.n, NULL, 0, doc, &err);
      cases++;
      typed += st == TSIFT_E_UTF8;
      positioned += strstr(err.message, want) != NULL;
      if (st != TSIFT_E_UTF8 || !strstr(err.message, want))
        fprintf(stderr, "%s %s with %s: %s (%s)\n", kind, OTHER[p][1], BAD_UTF8[b][0], tsift_status_name(st),
                err.message);
      free(doc);
    }
  printf("  %d documents with invalid UTF-8: %d TSIFT_E_UTF8, %d naming the exact byte\n", cases, typed,
         positioned);
  CHECK_EQ_INT(typed, cases);
  CHECK_EQ_INT(positioned, cases);

  /* Where text is never an error: queries, tool names, ranker answers. */
  tsift_index *ix = build_ok(SMALL_CATALOG, sizeof SMALL_CATALOG - 1, NULL);
  tsift_session *s = NULL;
  tsift_session_new(cfg.p, cfg.n, NULL, 0, NULL, 0, &s, &err);
  for (size_t b = 0; ix && s && b < sizeof BAD_UTF8 / sizeof *BAD_UTF8; b++) {
    const char *bad = BAD_UTF8[b][1];
    char q[64], *out = NULL;
    size_t len = 0;
    snprintf(q, sizeof q, "create %s issue", bad);
    CHECK_EQ_INT(tsift_index_search_json(ix, q, strlen(q), NULL, 0, &out, &len, &err), TSIFT_OK);
    CHECK_CONTAINS(out, "\"id\":\"gh__create_issue\"");
    tsift_free(out);
    char line[128];
    snprintf(line, sizeof line, "{\"id\":\"%s\",\"query\":\"create %s issue\"}\n", bad, bad);
    CHECK_EQ_INT(tsift_index_rank_jsonl(ix, line, strlen(line), 3, &out, &len, &err), TSIFT_OK);
    CHECK_CONTAINS(out, "\"hits\":[\"");
    tsift_free(out);
    tsift_status st;
    char tool[64];
    snprintf(tool, sizeof tool, "reply%s", bad);
    out = call(s, 0, (unsigned)b, tool, strlen(tool), "{}", 2, &st);
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(out, "\"error\":\"not_on_menu\"");
    tsift_free(out);
    char args[64];
    snprintf(args, sizeof args, "{\"query\":\"%s\"}", bad);
    out = call(s, 0, 100 + (unsigned)b, "search_tools", 12, args, strlen(args), &st);
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(out, "\"error\":\"invalid_input\"");
    tsift_free(out);
    char kind[32];
    snprintf(kind, sizeof kind, "k%s", bad);
    CHECK_EQ_INT(tsift_session_set_ranker(s, kind, NULL, NULL, &err), TSIFT_E_ARG);
  }
  if (s) { /* a ranker answer with invalid UTF-8: the search is unavailable */
    CHECK_EQ_INT(tsift_session_set_ranker(s, "host", NULL, NULL, &err), TSIFT_OK);
    tsift_status st;
    char *out = call(s, 1, 0, "search_tools", 12, "{\"query\":\"issue\"}", 17, &st);
    tsift_free(out);
    size_t len = 0;
    out = NULL;
    CHECK_EQ_INT(tsift_session_ranked(s, "[\"gh__create_issue\xFF\"]", 21, &out, &len, &err), TSIFT_OK);
    CHECK_CONTAINS(out, "\"error\":\"search_unavailable\"");
    tsift_free(out);
  }
  tsift_session_free(s);
  tsift_index_free(ix);
  sb_free(&cfg);
  timed("all invalid UTF-8 cases", now() - t0, 2);
}

/* ---- 7. NUL inside strings --------------------------------------------- */

static void test_nul(void) {
  printf("NUL inside strings\n");
  tsift_error err;
  int cases = 0, refused = 0;
  /* A \u0000 escape in every catalog string position, and in keys. */
  for (size_t p = 0; p < sizeof CATALOG_POSITIONS / sizeof *CATALOG_POSITIONS; p++) {
    size_t at, len;
    char *json = splice(CATALOG_POSITIONS[p], "a\\u0000b", &at, &len);
    char want[96];
    snprintf(want, sizeof want, "a \\u0000 escape (NUL character) at byte %zu ", at + 1);
    tsift_status st = build(json, len, NULL, &err);
    cases++;
    if (st == TSIFT_E_JSON && strstr(err.message, want)) refused++;
    else fprintf(stderr, "\\u0000 in %s: %s (%s)\n", CATALOG_POSITIONS[p], tsift_status_name(st), err.message);
    free(json);
  }
  sb cfg = {0};
  make_config(&cfg, SMALL_CATALOG, "{}");
  const char *journal = "{\"id\":\"lim#turn:0:tool:0:search\\u0000x\",\"value\":{}}\n";
  cases++;
  refused += session_st(cfg.p, cfg.n, journal, strlen(journal), NULL, &err) == TSIFT_E_JSON;
  const char *bad_cfg = "{\"loop\":\"a\\u0000b\",\"catalog\":[]}";
  cases++;
  refused += session_st(bad_cfg, strlen(bad_cfg), NULL, 0, NULL, &err) == TSIFT_E_JSON;
  printf("  %d documents with a \\u0000 escape: %d refused with TSIFT_E_JSON at the escape\n", cases, refused);
  CHECK_EQ_INT(refused, cases);

  /* Queries: an escape is a space (rank), raw NUL bytes are separators. */
  tsift_index *ix = build_ok(SMALL_CATALOG, sizeof SMALL_CATALOG - 1, NULL);
  if (ix) {
    char *out = NULL;
    size_t len = 0;
    CHECK_EQ_INT(tsift_index_search_json(ix, "create\0issue", 12, NULL, 0, &out, &len, &err), TSIFT_OK);
    CHECK_CONTAINS(out, "\"terms\":[\"create\",\"issue\"]");
    tsift_free(out);
    const char *line = "{\"id\":\"a\\u0000b\",\"query\":\"list\\u0000issues\"}\n";
    CHECK_EQ_INT(tsift_index_rank_jsonl(ix, line, strlen(line), 1, &out, &len, &err), TSIFT_OK);
    CHECK_EQ_STR(out, "{\"id\":\"a b\",\"hits\":[\"gh__list_issues\"]}\n");
    tsift_free(out);
    tsift_index_free(ix);
  }

  /* B3 (found here, fixed): a raw NUL byte (or any raw control character)
   * inside a JSON string is malformed JSON (RFC 8259 section 7); cJSON
   * accepted it and the C string ended at the NUL: "mail__send<NUL>evil"
   * became "mail__send", the cut the \u0000 check exists to prevent. */
  static const char raw_nul[] = "[{\"name\":\"mail__send\0evil\",\"description\":\"x\"}]";
  tsift_status st = build(raw_nul, sizeof raw_nul - 1, NULL, &err);
  printf("  raw NUL byte in a name: %s%s%s\n", tsift_status_name(st), st ? ": " : "", st ? err.message : "");
  CHECK_EQ_INT(st, TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "at byte 20");
  static const char raw_ctl[] = "[{\"name\":\"t\",\"description\":\"line\nbreak\x01\"}]";
  CHECK_EQ_INT(build(raw_ctl, sizeof raw_ctl - 1, NULL, &err), TSIFT_E_JSON);
  static const char raw_ws[] = "[\x01{\"name\":\"t\"}\x00]";
  CHECK_EQ_INT(build(raw_ws, sizeof raw_ws - 1, NULL, &err), TSIFT_E_JSON);
  static const char raw_journal[] = "{\"id\":\"lim#turn:0:tool:0:search\0tail\",\"value\":{}}\n";
  CHECK_EQ_INT(session_st(cfg.p, cfg.n, raw_journal, sizeof raw_journal - 1, NULL, &err), TSIFT_E_JSON);

  /* B9 (found by the fuzzer, fixed): json_check.c accepted a backslash
   * before a raw NUL byte as an escape (strchr matches the terminator),
   * cJSON refused it, and the core reported malformed input as out of
   * memory. */
  static const char bs_nul[] = "[{\"name\":\"t\\\0\"}]"; /* [{"name":"t\<NUL>"}] */
  st = build(bs_nul, sizeof bs_nul - 1, NULL, &err);
  printf("  backslash + raw NUL in a string: %s (%s)\n", tsift_status_name(st), err.message);
  CHECK_EQ_INT(st, TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "at byte 12");
  static const char bs_nul_line[] = "{\"id\":1,\"query\":\"a\\\0\"}\n";
  tsift_index *ix2 = build_ok(SMALL_CATALOG, sizeof SMALL_CATALOG - 1, NULL);
  if (ix2) {
    char *out = NULL;
    size_t len = 0;
    st = tsift_index_rank_jsonl(ix2, bs_nul_line, sizeof bs_nul_line - 1, 1, &out, &len, &err);
    CHECK_EQ_INT(st, TSIFT_E_JSON); /* the same in a rank query line */
    tsift_free(out);
    tsift_index_free(ix2);
  }
  sb_free(&cfg);
}

/* ---- 8. duplicate keys ------------------------------------------------- */

static void test_duplicate_keys(void) {
  printf("duplicate keys\n");
  tsift_error err;
  /* B4 (found here, fixed): cJSON keeps every member and lookups return the
   * first, while JSON.parse (the JS host, gateways) keeps the last: a catalog
   * could say one thing to the host and another to the core. Now a typed
   * error naming the key. */
  static const char *const DUPS[] = {
      "[{\"name\":\"safe\",\"tainted\":false,\"tainted\":true}]",
      "[{\"name\":\"a\",\"name\":\"b\"}]",
      "[{\"name\":\"t\",\"origin\":\"local\",\"origin\":\"remote\"}]",
      "{\"tools\":[{\"name\":\"a\"}],\"tools\":[{\"name\":\"b\"}]}",
      "[{\"name\":\"t\",\"inputSchema\":{\"properties\":{\"x\":{},\"x\":{}}}}]",
  };
  for (size_t i = 0; i < sizeof DUPS / sizeof *DUPS; i++) {
    tsift_status st = build(DUPS[i], strlen(DUPS[i]), NULL, &err);
    CHECK_EQ_INT(st, TSIFT_E_JSON);
    CHECK_CONTAINS(err.message, "duplicate key");
  }
  CHECK_CONTAINS(err.message, "duplicate key \"x\"");
  sb cfg = {0};
  make_config(&cfg, SMALL_CATALOG, "{\"maxLoaded\":1,\"maxLoaded\":200}");
  CHECK_EQ_INT(session_st(cfg.p, cfg.n, NULL, 0, NULL, &err), TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "duplicate key \"maxLoaded\"");
  sb_free(&cfg);
  make_config(&cfg, SMALL_CATALOG, "{}");
  const char *journal = "{\"id\":\"lim#turn:0:tool:0:search\",\"id\":\"x\",\"value\":{}}\n";
  CHECK_EQ_INT(session_st(cfg.p, cfg.n, journal, strlen(journal), NULL, &err), TSIFT_E_JSON);
  tsift_session *s = NULL;
  if (tsift_session_new(cfg.p, cfg.n, NULL, 0, NULL, 0, &s, &err) == TSIFT_OK) {
    tsift_status st;
    const char *args = "{\"query\":\"send\",\"query\":\"create issue\"}";
    char *r = call(s, 0, 0, "search_tools", 12, args, strlen(args), &st);
    CHECK_EQ_INT(st, TSIFT_OK);
    CHECK_CONTAINS(r, "\"error\":\"invalid_input\"");
    tsift_free(r);
    tsift_session_free(s);
  }
  sb_free(&cfg);
}

/* ---- 9. numbers where strings belong; huge numbers --------------------- */

static void test_numbers(void) {
  printf("numbers where strings belong, huge numbers\n");
  tsift_error err;
  static const char *const WRONG[][2] = {
      {"[{\"name\":42}]", "field \"name\": expected a string, got a number"},
      {"[{\"id\":42,\"name\":\"t\"}]", "field \"id\": expected a string, got a number"},
      {"[{\"name\":\"t\",\"description\":1e400}]", "field \"description\": expected a string, got a number"},
      {"[{\"name\":\"t\",\"title\":-0}]", "field \"title\": expected a string"},
      {"[{\"name\":\"t\",\"annotations\":{\"title\":7}}]", "field \"annotations.title\": expected a string"},
      {"[{\"name\":\"t\",\"tags\":[1]}]", "field \"tags[0]\": expected a string, got a number"},
      {"[{\"name\":\"t\",\"aliases\":5}]", "field \"aliases\": expected an array of strings, got a number"},
      {"[{\"name\":\"t\",\"origin\":0}]", "field \"origin\": expected a string, got a number"},
      {"[{\"name\":\"t\",\"trusted\":1}]", "field \"trusted\": expected a boolean, got a number"},
      {"[{\"name\":\"t\",\"inputSchema\":5}]", "field \"inputSchema\": expected an object, got a number"},
      {"[{\"type\":\"function\",\"function\":{\"name\":5}}]", "field \"name\": expected a string"},
      {"{\"tools\":[{\"name\":\"t\"}],\"annotations\":{\"t\":3}}", "annotations[\"t\"]: expected an object"},
      {"{\"tools\":5}", "field \"tools\": expected an array, got a number"},
      {"[5]", "tools[0]: expected an object, got a number"},
  };
  int ok = 0;
  for (size_t i = 0; i < sizeof WRONG / sizeof *WRONG; i++) {
    tsift_status st = build(WRONG[i][0], strlen(WRONG[i][0]), NULL, &err);
    if (st == TSIFT_E_CONFIG && strstr(err.message, WRONG[i][1])) ok++;
    else fprintf(stderr, "%s: %s (%s)\n", WRONG[i][0], tsift_status_name(st), err.message);
  }
  static const char *const OPTS[] = {"{\"stopwords\":[1]}", "{\"ids\":1}", "{\"weights\":{\"name\":1e400}}",
                                     "{\"weights\":{\"name\":-1e400}}", "{\"minCoverage\":1e400}",
                                     "{\"weights\":{\"name\":\"3\"}}"};
  for (size_t i = 0; i < sizeof OPTS / sizeof *OPTS; i++) {
    tsift_status st = build("[]", 2, OPTS[i], &err);
    if (st == TSIFT_E_CONFIG) ok++;
    else fprintf(stderr, "options %s: %s (%s)\n", OPTS[i], tsift_status_name(st), err.message);
  }
  static const char *const SEARCH[] = {
      "{\"loop\":5,\"catalog\":[]}",
      "{\"catalog\":[],\"search\":{\"toolName\":5}}",
      "{\"catalog\":[],\"search\":{\"namespaces\":[5]}}",
      "{\"catalog\":[],\"search\":{\"alwaysLoaded\":[5]}}",
      "{\"catalog\":[],\"search\":{\"maxMenuChars\":\"5\"}}",
      "{\"catalog\":[],\"tools\":[{\"name\":5}]}",
      "{\"catalog\":5}",
      "{\"catalog\":[],\"search\":{\"maxPerSearch\":4294967297}}",
      "{\"catalog\":[],\"search\":{\"maxLoaded\":1e19}}",
      "{\"catalog\":[],\"search\":{\"maxSearches\":-1e400}}",
      "{\"catalog\":[],\"search\":{\"maxMenuChars\":10000001}}",
      "{\"catalog\":[],\"search\":{\"maxPerSearch\":5.5}}",
  };
  for (size_t i = 0; i < sizeof SEARCH / sizeof *SEARCH; i++) {
    tsift_status st = session_st(SEARCH[i], strlen(SEARCH[i]), NULL, 0, NULL, &err);
    if (st == TSIFT_E_CONFIG) ok++;
    else fprintf(stderr, "config %s: %s (%s)\n", SEARCH[i], tsift_status_name(st), err.message);
  }
  sb cfg = {0};
  make_config(&cfg, SMALL_CATALOG, "{}");
  static const char *const JOURNALS[] = {"{\"id\":5}\n", "[5]", "{\"id\":1e400,\"value\":{}}"};
  for (size_t i = 0; i < sizeof JOURNALS / sizeof *JOURNALS; i++) {
    tsift_status st = session_st(cfg.p, cfg.n, JOURNALS[i], strlen(JOURNALS[i]), NULL, &err);
    if (st == TSIFT_E_CONFIG) ok++;
    else fprintf(stderr, "journal %s: %s (%s)\n", JOURNALS[i], tsift_status_name(st), err.message);
  }
  const char *div = "{\"divergence\":1}";
  if (session_st(cfg.p, cfg.n, NULL, 0, div, &err) == TSIFT_E_CONFIG) ok++;
  size_t total = sizeof WRONG / sizeof *WRONG + sizeof OPTS / sizeof *OPTS + sizeof SEARCH / sizeof *SEARCH +
                 sizeof JOURNALS / sizeof *JOURNALS + 1;
  printf("  %zu documents with a number in the wrong place or out of range: %d typed errors\n", total, ok);
  CHECK_EQ_INT(ok, (int)total);

  /* Sessions and searches with huge numbers: typed results. */
  tsift_session *s = NULL;
  tsift_session_new(cfg.p, cfg.n, NULL, 0, NULL, 0, &s, &err);
  tsift_index *ix = build_ok(SMALL_CATALOG, sizeof SMALL_CATALOG - 1, NULL);
  if (s && ix) {
    tsift_status st;
    static const char *const ARGS[] = {"{\"query\":5}", "{\"query\":\"issue\",\"limit\":1e400}",
                                       "{\"query\":\"issue\",\"limit\":-1e300}", "{\"query\":\"issue\",\"limit\":\"3\"}"};
    for (unsigned i = 0; i < sizeof ARGS / sizeof *ARGS; i++) {
      char *r = call(s, 0, i, "search_tools", 12, ARGS[i], strlen(ARGS[i]), &st);
      CHECK_EQ_INT(st, TSIFT_OK);
      CHECK_CONTAINS(r, "\"error\":\"invalid_input\"");
      tsift_free(r);
    }
    char *out = NULL;
    size_t len = 0;
    CHECK_EQ_INT(tsift_index_search_json(ix, "x", 1, "{\"limit\":1e400}", 15, &out, &len, &err), TSIFT_E_ARG);
    CHECK_EQ_INT(tsift_index_search_json(ix, "x", 1, "{\"limit\":1e19}", 14, &out, &len, &err), TSIFT_E_ARG);
    const char *line = "{\"id\":1e300,\"query\":\"issue\"}\n{\"id\":-0.5,\"query\":\"issue\"}\n";
    CHECK_EQ_INT(tsift_index_rank_jsonl(ix, line, strlen(line), 1, &out, &len, &err), TSIFT_OK);
    CHECK_CONTAINS(out, "{\"id\":1e+300,");
    CHECK_CONTAINS(out, "{\"id\":-0.5,");
    tsift_free(out);
    line = "{\"id\":1,\"query\":5}\n";
    CHECK_EQ_INT(tsift_index_rank_jsonl(ix, line, strlen(line), 1, &out, &len, &err), TSIFT_E_ARG);
    /* A schema number 1e300 reaches the menu (spec.c prints numbers). */
    char *r = call(s, 1, 0, "search_tools", 12, "{\"query\":\"create issue\"}", 24, &st);
    tsift_free(r);
    char *m = NULL;
    CHECK_EQ_INT(tsift_session_menu_json(s, "mcp", &m, &len, &err), TSIFT_OK);
    CHECK_CONTAINS(m, "\"maxLength\":1e+300");
    tsift_free(m);
  }
  /* B2 (found by the fuzzer, fixed): these went through an undefined
   * double -> long long cast before the range check; the clang UBSan of the
   * fuzz build checks it (gcc's -fsanitize=undefined does not include
   * float-cast-overflow). */

  /* B5 (found here, fixed): a valid number of 64+ characters (cJSON reads
   * numbers through a 64-byte buffer) was reported as out of memory; then
   * as malformed JSON; now (O4) as over a limit, at the number's start. */
  sb longnum = {0};
  sb_puts(&longnum, "[{\"name\":\"t\",\"inputSchema\":{\"maximum\":");
  sb_rep(&longnum, "1", 64);
  sb_puts(&longnum, "}}]");
  tsift_status st = build(longnum.p, longnum.n, NULL, &err);
  printf("  a 64-digit number in a schema: %s (%s)\n", tsift_status_name(st), err.message);
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "catalog: a number longer than 63 characters at byte 38 (line 1, column 39)");
  longnum.n -= 4; /* 63 digits: read */
  sb_puts(&longnum, "}}]");
  CHECK_EQ_INT(build(longnum.p, longnum.n, NULL, &err), TSIFT_OK);
  if (s) {
    sb args = {0};
    sb_puts(&args, "{\"query\":\"issue\",\"limit\":");
    sb_rep(&args, "9", 100);
    sb_puts(&args, "}");
    char *r = call(s, 2, 0, "search_tools", 12, args.p, args.n, &st);
    CHECK_EQ_INT(st, TSIFT_OK); /* a refusal, not an error */
    CHECK_CONTAINS(r, "\"error\":\"invalid_input\"");
    tsift_free(r);
    sb_free(&args);
  }
  sb_free(&longnum);
  tsift_index_free(ix);
  tsift_session_free(s);
  sb_free(&cfg);
}

/* ---- 10. journals, huge caps ------------------------------------------- */

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

/* ---- 11. B1: cJSON reads past the end of the input ---------------------- */

/* B1 (found by the fuzzer, fixed by running the strict grammar check before
 * cJSON): cJSON 1.7.15 reads one byte past a text that ends right after a
 * ',' inside an object (DaveGamble/cJSON#800, fixed upstream in 1.7.17). */

/* Run `fn(text, len)` in a child, with the text ending exactly at a page
 * boundary followed by an inaccessible page: a read past the end crashes
 * the child in any build (with or without ASan). Returns the child's
 * signal, 0 when it exited normally. */
static int run_at_page_end(void (*fn)(const char *, size_t), const char *text) {
  size_t n = strlen(text);
  long pg = sysconf(_SC_PAGESIZE);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    char *p = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || mprotect(p + pg, (size_t)pg, PROT_NONE) != 0) _exit(99);
    memcpy(p + pg - n, text, n);
    fn(p + pg - n, n);
    _exit(0);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return -1;
  if (WIFSIGNALED(status)) return WTERMSIG(status);
  return WEXITSTATUS(status) == 0 ? 0 : -WEXITSTATUS(status);
}

static void parse_catalog(const char *t, size_t n) {
  tsift_error err;
  build(t, n, NULL, &err);
}
static void parse_config(const char *t, size_t n) {
  tsift_error err;
  session_st(t, n, NULL, 0, NULL, &err);
}
static void parse_args(const char *t, size_t n) {
  tsift_session *s = NULL;
  tsift_error err;
  const char *cfg = "{\"catalog\":[{\"name\":\"t\"}]}";
  if (tsift_session_new(cfg, strlen(cfg), NULL, 0, NULL, 0, &s, &err) != TSIFT_OK) _exit(98);
  tsift_status st;
  tsift_free(call(s, 0, 0, "search_tools", 12, t, n, &st));
  tsift_session_free(s);
}
static void parse_journal(const char *t, size_t n) {
  tsift_error err;
  const char *cfg = "{\"catalog\":[{\"name\":\"t\"}]}";
  session_st(cfg, strlen(cfg), t, n, NULL, &err);
}

static void test_read_past_end(void) {
  printf("reads past the end of the input\n");
  struct {
    const char *what;
    void (*fn)(const char *, size_t);
    const char *text;
  } cases[] = {
      {"catalog", parse_catalog, "{\"1\":1,"},
      {"session config", parse_config, "{\"catalog\":[],"},
      {"search_tools arguments", parse_args, "{\"query\":\"x\","},
      {"journal (last line)", parse_journal, "{\"id\":\"x\","},
      {"catalog, control: ends after a value", parse_catalog, "{\"1\":1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int sig = run_at_page_end(cases[i].fn, cases[i].text);
    printf("  %-40s %-16s -> %s\n", cases[i].what, cases[i].text,
           sig == 0 ? "no read past the end" : sig > 0 ? strsignal(sig) : "child failed");
    CHECK_EQ_INT(sig, 0); /* B1 (found by the fuzzer, fixed); the last case checks the harness */
  }
}

/* ---- 12. allocation failure sweeps ------------------------------------- */

#include "fail_alloc.h"

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
      g_armed = 0; /* the build itself is swept by test_errors.c */
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
  const char *scale = getenv("TSIFT_TIME_SCALE");
  if (scale && atof(scale) > 0) g_scale = atof(scale);
  const char *known = getenv("TSIFT_KNOWN_BUGS");
  g_known_count = known && *known && strcmp(known, "0") != 0;
  double t0 = now();
  test_deep_nesting();
  test_schemas();
  test_huge_strings();
  test_result_name_bound();
  test_many_tools();
  test_huge_queries();
  test_invalid_utf8();
  test_nul();
  test_duplicate_keys();
  test_numbers();
  test_journals_and_caps();
  test_read_past_end();
  test_allocation_failures();
  if (g_known_open || g_known_fixed)
    printf("known bugs: %d check(s) still open, %d now behave\n", g_known_open, g_known_fixed);
  tsift_index_free(g_big);
  sb_free(&g_big_catalog);
  printf("test_limits: %.1f s in all (time scale %g)\n", now() - t0, g_scale);
  return harness_finish("test_limits");
}
