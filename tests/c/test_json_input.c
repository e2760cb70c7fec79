/* test_json_input.c — hostile JSON at every entry point (issue 8, ctest
 * label `limits`). Every document goes through one parse path
 * (tsift_json_parse in catalog.c: UTF-8, \u0000 escapes, json_check.c's
 * strict grammar check before cJSON, duplicate keys) and then its reader's
 * type checks, so the cases span the entry points on purpose: catalogs,
 * index build options, search options, rank lines, analysis options,
 * session configurations, journals, session options, search_tools arguments,
 * called tool names and host-ranker answers.
 *
 *   deep nesting (100k levels), invalid UTF-8 in every string position, NUL
 *   (escaped and raw, B3, B9), duplicate keys (B4), numbers where strings
 *   belong and huge or long numbers (B2, B5), reads past the end of the
 *   input (B1).
 *
 * Every input gives a typed error or a bounded result within a time bound
 * (bounds.h; docs/reliability.md). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bounds.h"
#include "harness.h"
#include "hazard.h"
#include "toolsift.h"

/* ---- deeply nested JSON ------------------------------------------------ */

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
  TIMED("catalog: 100k nested arrays", 1, st = build_st(arr.p, arr.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "catalog: nesting deeper than 1000 at byte 1000");
  TIMED("catalog: 100k nested objects", 1, st = build_st(obj.p, obj.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  TIMED("catalog: 100k unclosed arrays", 1, st = build_st(open.p, open.n, NULL, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  TIMED("build options: 100k nested objects", 1, st = build_st("[]", 2, obj.p, &err));
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "options: nesting deeper than 1000");

  /* 999 levels inside "tools": under cJSON's limit, a plain config error. */
  sb_puts(&ok, "{\"tools\":");
  sb_rep(&ok, "[", 998);
  sb_rep(&ok, "]", 998);
  sb_puts(&ok, "}");
  TIMED("catalog: 999 levels (under the limit)", 1, st = build_st(ok.p, ok.n, NULL, &err));
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

/* ---- invalid UTF-8 in every string position ---------------------------- */

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
      tsift_status st = build_st(json, len, NULL, &err);
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
      if (strcmp(kind, "options") == 0) st = build_st("[]", 2, doc, &err);
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

/* ---- NUL inside strings ------------------------------------------------ */

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
    tsift_status st = build_st(json, len, NULL, &err);
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
  tsift_status st = build_st(raw_nul, sizeof raw_nul - 1, NULL, &err);
  printf("  raw NUL byte in a name: %s%s%s\n", tsift_status_name(st), st ? ": " : "", st ? err.message : "");
  CHECK_EQ_INT(st, TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "at byte 20");
  static const char raw_ctl[] = "[{\"name\":\"t\",\"description\":\"line\nbreak\x01\"}]";
  CHECK_EQ_INT(build_st(raw_ctl, sizeof raw_ctl - 1, NULL, &err), TSIFT_E_JSON);
  static const char raw_ws[] = "[\x01{\"name\":\"t\"}\x00]";
  CHECK_EQ_INT(build_st(raw_ws, sizeof raw_ws - 1, NULL, &err), TSIFT_E_JSON);
  static const char raw_journal[] = "{\"id\":\"lim#turn:0:tool:0:search\0tail\",\"value\":{}}\n";
  CHECK_EQ_INT(session_st(cfg.p, cfg.n, raw_journal, sizeof raw_journal - 1, NULL, &err), TSIFT_E_JSON);

  /* B9 (found by the fuzzer, fixed): json_check.c accepted a backslash
   * before a raw NUL byte as an escape (strchr matches the terminator),
   * cJSON refused it, and the core reported malformed input as out of
   * memory. */
  static const char bs_nul[] = "[{\"name\":\"t\\\0\"}]"; /* [{"name":"t\<NUL>"}] */
  st = build_st(bs_nul, sizeof bs_nul - 1, NULL, &err);
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

/* ---- duplicate keys ---------------------------------------------------- */

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
    tsift_status st = build_st(DUPS[i], strlen(DUPS[i]), NULL, &err);
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

/* ---- numbers where strings belong; huge numbers ------------------------ */

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
    tsift_status st = build_st(WRONG[i][0], strlen(WRONG[i][0]), NULL, &err);
    if (st == TSIFT_E_CONFIG && strstr(err.message, WRONG[i][1])) ok++;
    else fprintf(stderr, "%s: %s (%s)\n", WRONG[i][0], tsift_status_name(st), err.message);
  }
  static const char *const OPTS[] = {"{\"stopwords\":[1]}", "{\"ids\":1}", "{\"weights\":{\"name\":1e400}}",
                                     "{\"weights\":{\"name\":-1e400}}", "{\"minCoverage\":1e400}",
                                     "{\"weights\":{\"name\":\"3\"}}"};
  for (size_t i = 0; i < sizeof OPTS / sizeof *OPTS; i++) {
    tsift_status st = build_st("[]", 2, OPTS[i], &err);
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
    /* A schema number 1e300 reaches the menu as written (SPEC S5). */
    char *r = call(s, 1, 0, "search_tools", 12, "{\"query\":\"create issue\"}", 24, &st);
    tsift_free(r);
    char *m = NULL;
    CHECK_EQ_INT(tsift_session_menu_json(s, "mcp", &m, &len, &err), TSIFT_OK);
    CHECK_CONTAINS(m, "\"maxLength\":1e300");
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
  tsift_status st = build_st(longnum.p, longnum.n, NULL, &err);
  printf("  a 64-digit number in a schema: %s (%s)\n", tsift_status_name(st), err.message);
  CHECK_EQ_INT(st, TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "catalog: a number longer than 63 characters at byte 38 (line 1, column 39)");
  longnum.n -= 4; /* 63 digits: read */
  sb_puts(&longnum, "}}]");
  CHECK_EQ_INT(build_st(longnum.p, longnum.n, NULL, &err), TSIFT_OK);
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

/* ---- B1: cJSON reads past the end of the input ------------------------- */

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
  build_st(t, n, NULL, &err);
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

/* ---- one strict input path (issue 21) ----------------------------------- */

static char *menu_of(const char *catalog, const char *snapshot, size_t snap_len) {
  sb cfg = {0};
  if (snapshot)
    sb_puts(&cfg, "{\"loop\":\"lim\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply\"}],"
                  "\"search\":{\"alwaysLoaded\":[\"num__tool\"]}}");
  else make_config(&cfg, catalog, "{\"alwaysLoaded\":[\"num__tool\"]}");
  tsift_session *s = NULL;
  tsift_error err;
  char *out = NULL;
  size_t len = 0;
  if (tsift_session_open(cfg.p, cfg.n, NULL, 0, snapshot, snap_len, NULL, 0, NULL, 0, &s, &err) == TSIFT_OK)
    tsift_session_menu_json(s, "mcp", &out, &len, &err);
  else
    fprintf(stderr, "session: %s\n", err.message);
  tsift_session_free(s);
  sb_free(&cfg);
  return out;
}

static void test_strict_input(void) {
  printf("one strict input path\n");
  tsift_error err;
  /* A BOM and a lone surrogate say so, in every reader. */
  CHECK_EQ_INT(build_st("\xEF\xBB\xBF[]", 5, NULL, &err), TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "catalog: starts with a UTF-8 byte order mark; save it without one");
  CHECK_EQ_INT(session_st("\xEF\xBB\xBF{}", 5, NULL, 0, NULL, &err), TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "config: starts with a UTF-8 byte order mark");
  const char *lone[] = {"[{\"name\":\"a\\ud800\"}]", "[{\"name\":\"a\\ud800\\u0041\"}]",
                        "[{\"name\":\"a\\udfff\\ud800\"}]", "[{\"name\":\"a\",\"\\ud800\":1}]"};
  for (size_t i = 0; i < 4; i++) {
    CHECK_EQ_INT(build_st(lone[i], strlen(lone[i]), NULL, &err), TSIFT_E_JSON);
    CHECK_CONTAINS(err.message, "a lone surrogate escape at byte");
  }
  CHECK_CONTAINS(err.message, "catalog: a lone surrogate escape at byte 14 (line 1, column 15)");

  /* A schema nested past the parser's bound: refused, naming the tool. */
  sb deep = {0};
  sb_puts(&deep, "{\"tools\":[");
  for (int i = 0; i < 12; i++) sb_printf(&deep, "{\"name\":\"t%d\"},", i);
  sb_puts(&deep, "{\"name\":\"d\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"x\":");
  size_t at = deep.n + 995; /* the 1001st container */
  sb_rep(&deep, "[", 5000);
  sb_rep(&deep, "]", 5000);
  sb_puts(&deep, "}},\"id\":\"deep__tool\"}]}");
  CHECK_EQ_INT(build_st(deep.p, deep.n, NULL, &err), TSIFT_E_LIMIT);
  char want[160];
  snprintf(want, sizeof want,
           "catalog: tools[12] (\"deep__tool\"): field \"inputSchema\": nesting deeper than 1000 at byte %zu", at);
  CHECK_CONTAINS(err.message, want);
  sb_free(&deep);
  sb_puts(&deep, "[{\"name\":\"a\"},{\"type\":\"function\",\"function\":{\"name\":\"fn\",\"parameters\":");
  sb_rep(&deep, "{\"a\":", 3000);
  sb_puts(&deep, "1");
  sb_rep(&deep, "}", 3000);
  sb_puts(&deep, "}}]");
  CHECK_EQ_INT(build_st(deep.p, deep.n, NULL, &err), TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "catalog: tools[1] (\"fn\"): field \"function\": nesting deeper than 1000 at byte");
  sb cfg = {0};
  make_config(&cfg, deep.p, "{}");
  CHECK_EQ_INT(session_st(cfg.p, cfg.n, NULL, 0, NULL, &err), TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "config: nesting deeper than 1000"); /* the root array of a catalog inside a config */
  sb_free(&cfg);
  sb_free(&deep);
  sb_puts(&deep, "{\"tools\":[{\"inputSchema\":");
  sb_rep(&deep, "[", 1200);
  sb_rep(&deep, "]", 1200);
  sb_puts(&deep, "}]}");
  make_config(&cfg, deep.p, "{}");
  CHECK_EQ_INT(session_st(cfg.p, cfg.n, NULL, 0, NULL, &err), TSIFT_E_LIMIT);
  CHECK_CONTAINS(err.message, "config: tools[0]: field \"inputSchema\": nesting deeper than 1000 at byte");
  sb_free(&cfg);
  sb_free(&deep);
  /* 990 levels of schema: under the parser's bound, indexed up to the walk's. */
  sb_puts(&deep, "[{\"name\":\"deep\",\"description\":\"d\",\"inputSchema\":");
  sb_rep(&deep, "{\"properties\":{\"p\":", 495);
  sb_puts(&deep, "{}");
  sb_rep(&deep, "}}", 495);
  sb_puts(&deep, "}]");
  CHECK_EQ_INT(build_st(deep.p, deep.n, NULL, &err), TSIFT_OK);
  sb_free(&deep);

  /* Schema numbers reach the model as written, from a catalog and from a
   * snapshot of it; the configuration's own numbers are read as before. */
  const char *nums =
      "{\"tools\":[{\"id\":\"num__tool\",\"name\":\"n\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"n\":"
      "{\"type\":\"number\",\"maximum\":1e999,\"minimum\":-0,\"exclusiveMinimum\":1e-999,\"default\":1.50,"
      "\"multipleOf\":12345678901234567890,\"examples\":[-0.0,2E+3,7,-12]}}}}]}";
  const char *want_nums =
      "\"maximum\":1e999,\"minimum\":-0,\"exclusiveMinimum\":1e-999,\"default\":1.50,"
      "\"multipleOf\":12345678901234567890,\"examples\":[-0.0,2E+3,7,-12]";
  char *m = menu_of(nums, NULL, 0);
  CHECK_CONTAINS(m, want_nums);
  tsift_index *ix = build_ok(nums, strlen(nums), NULL);
  char *snap = NULL;
  size_t snap_len = 0;
  if (ix && tsift_index_snapshot(ix, &snap, &snap_len, &err) == TSIFT_OK) {
    char *m2 = menu_of(NULL, snap, snap_len);
    CHECK_EQ_STR(m2, m);
    tsift_free(m2);
  }
  tsift_free(snap);
  tsift_index_free(ix);
  tsift_free(m);
  make_config(&cfg, SMALL_CATALOG, "{\"maxPerSearch\":-0,\"maxLoaded\":2.0e0}");
  CHECK_EQ_INT(session_st(cfg.p, cfg.n, NULL, 0, NULL, &err), TSIFT_E_CONFIG); /* -0 is 0: below 1 */
  CHECK_CONTAINS(err.message, "search.maxPerSearch: expected an integer from 1 to 50, got an out-of-range number");
  sb_free(&cfg);
  make_config(&cfg, SMALL_CATALOG, "{\"maxPerSearch\":2.0e0,\"maxLoaded\":-0}");
  CHECK_EQ_INT(session_st(cfg.p, cfg.n, NULL, 0, NULL, &err), TSIFT_OK);
  sb_free(&cfg);

  /* Ids: invisible, bidi-control, control and fullwidth characters are
   * refused in every id rule, with the code point and its byte. */
  const char *bad[][2] = {{"weather\\u200d__forecast", "U+200D at byte 7"},
                          {"mail\\u202esend", "U+202E at byte 4"},
                          {"\\ufeffx", "U+FEFF at byte 0"},
                          {"a\\u00adb", "U+00AD at byte 1"},
                          {"a\\u2066b\\u2069", "U+2066 at byte 1"},
                          {"a\\u2063", "U+2063 at byte 1"},
                          {"a\\u180e", "U+180E at byte 1"},
                          {"a\\u0085", "U+0085 at byte 1"},
                          {"\\uff57eather", "U+FF57 at byte 0"},
                          {"a\\u007f", "U+007F at byte 1"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sb c = {0};
    sb_printf(&c, "[{\"id\":\"%s\",\"name\":\"x\"}]", bad[i][0]);
    CHECK_EQ_INT(build_st(c.p, c.n, "{\"ids\":\"lenient\"}", &err), TSIFT_E_CONFIG);
    CHECK_CONTAINS(err.message, bad[i][1]);
    CHECK_CONTAINS(err.message, "is a control, invisible, bidi-control or fullwidth character, not allowed in an id");
    CHECK_EQ_INT(build_st(c.p, c.n, NULL, &err), TSIFT_E_CONFIG); /* strict: ASCII only, as before */
    sb_free(&c);
  }
  const char *fine = "[{\"id\":\"caf\\u00e9 \\u4e2d\\u6587 \\ud83d\\ude00\",\"name\":\"x\"}]";
  CHECK_EQ_INT(build_st(fine, strlen(fine), "{\"ids\":\"lenient\"}", &err), TSIFT_OK);
}

int main(void) {
  bounds_init();
  double t0 = now();
  test_deep_nesting();
  test_invalid_utf8();
  test_nul();
  test_duplicate_keys();
  test_numbers();
  test_read_past_end();
  test_strict_input();
  bounds_finish("test_json_input", t0);
  return harness_finish("test_json_input");
}
