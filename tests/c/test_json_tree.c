/* test_json_tree.c — json_tree.c builds the tree cJSON's parser builds:
 * every node's type, key, string, number (bit for bit) and links compared
 * with cJSON_ParseWithLengthOpts on the same text, plus the kept number
 * lexemes as catalog.c found them before (tsift_json_next_number over the
 * text, in document order). Inputs: hand-written edge cases (escapes,
 * surrogate pairs, numbers at the limits, empty containers, scalars at the
 * root, white space), the fuzz seeds, the relevance corpus, the dev sets'
 * tools when ../shared is there, and random documents. Then an allocation
 * failure sweep: every failing allocation gives NULL and leaks nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>

#include "cJSON.h"
#include "fail_alloc.h"
#include "harness.h"
#include "json/json_check.h"
#include "json/json_read.h"
#include "base/utf8.h"
#include "json/json_tree.h"
#include "toolsift.h"

static int same_number(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static int same_str(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* 1 when `ours` matches cJSON's `ref` node for node; the kept lexemes are
 * looked for in s from *at, as the old code did. */
static int same_tree(const cJSON *ours, const cJSON *ref, const char *s, size_t n, size_t *at) {
  for (; ours || ref; ours = ours->next, ref = ref->next) {
    /* keys live in their items (json_tree.h): the flag on exactly those */
    int keyed_flag = (ours && ours->string) ? cJSON_StringIsConst : 0;
    if (!ours || !ref || ours->type != (ref->type | keyed_flag) || !same_str(ours->string, ref->string) ||
        ours->valueint != ref->valueint || !same_number(ours->valuedouble, ref->valuedouble))
      return 0;
    if (cJSON_IsNumber(ref)) {
      size_t a = tsift_json_next_number(s, n, at), k = *at - a;
      int kept = tsift_json_number_kept(s + a, k);
      if (kept ? !ours->valuestring || strlen(ours->valuestring) != k || memcmp(ours->valuestring, s + a, k)
               : ours->valuestring != NULL)
        return 0;
    } else if (!same_str(ours->valuestring, ref->valuestring)) {
      return 0;
    }
    if ((ours->child == NULL) != (ref->child == NULL)) return 0;
    if (ours->child) {
      const cJSON *lo = ours->child, *lr = ref->child;
      while (lo->next) lo = lo->next;
      while (lr->next) lr = lr->next;
      if (ours->child->prev != lo || ref->child->prev != lr) return 0; /* first's prev is the last */
      for (const cJSON *c = ours->child; c->next; c = c->next)
        if (c->next->prev != c) return 0;
    }
    if (!same_tree(ours->child, ref->child, s, n, at)) return 0;
    if (!ours->next && !ref->next) break;
    if (!ours->next || !ref->next) return 0;
  }
  return 1;
}

static int valid_input(const char *s, size_t n) {
  size_t pos;
  tsift_json_facts f;
  return n && tsift_json_check_facts(s, n, &pos, &f) == TSIFT_JSON_VALID && !f.nul_escapes && !f.bad_utf8;
}

static int g_compared;

static void compare(const char *s, size_t n, const char *what) {
  if (!valid_input(s, n)) return;
  cJSON *ours = tsift_json_tree(s, n), *ref = cJSON_ParseWithLengthOpts(s, n, NULL, 0);
  size_t at = 0;
  int ok = ours && ref && same_tree(ours, ref, s, n, &at);
  if (!ok) fprintf(stderr, "tree differs from cJSON's: %s\n", what);
  CHECK(ok);
  /* the arena tree (catalogs) is the same tree in other memory */
  tsift_json_arena *arena = NULL;
  cJSON *in_arena = tsift_json_tree_arena(s, n, &arena);
  at = 0;
  ok = in_arena && arena && ref && same_tree(in_arena, ref, s, n, &at);
  if (!ok) fprintf(stderr, "arena tree differs from cJSON's: %s\n", what);
  CHECK(ok);
  tsift_json_arena_free(arena);
  g_compared++;
  cJSON_Delete(ours);
  cJSON_Delete(ref);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) *len = (size_t)n;
  return buf;
}

static void test_cases(void) {
  printf("edge cases\n");
  static const char *const cases[] = {
      "{}", "[]", "[[],{},[{}],{\"a\":[]}]", " \t\r\n{ \"a\" : 1 , \"b\" : [ 1 , 2 ] } \n", "0", "-0", "\"x\"",
      "true", "false", "null", "[true,false,null]",
      "{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}", "[\"\\u0041\\u00e9\\u20ac\\uFFFF\\u0001\"]",
      "[\"\\ud83d\\ude00 and \\uD834\\uDD1E\"]", "[\"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80\"]",
      "{\"k\\u0065y\":1,\"key\":2}", "{\"a\":1,\"a\":2}",
      "[0,1,-1,2147483647,2147483648,-2147483648,-2147483649,1e400,-1e400,1e-400,0.5,-0.0,1E5,1e+5,1e-5]",
      "[123456789012345,1234567890123456,12345678901234567890,3.141592653589793238462643383279]",
      "[999999999999999,-999999999999999,9007199254740993,-0,0,-1,10,-10,1e0,10E1]", /* integer path edges */
      "[" "123456789012345678901234567890123456789012345678901234567890123" "]",
      "{\"tools\":[{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\","
      "\"minimum\":0.25,\"maximum\":1e3,\"default\":-0}}}}]}",
      "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]", "{\"\":\"\",\"\\\\\":\"\\\\\"}"};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) compare(cases[i], strlen(cases[i]), cases[i]);
  /* deep: the check's limit */
  char *deep = malloc(2 * TSIFT_JSON_MAX_NESTING + 1);
  memset(deep, '[', TSIFT_JSON_MAX_NESTING);
  memset(deep + TSIFT_JSON_MAX_NESTING, ']', TSIFT_JSON_MAX_NESTING);
  compare(deep, 2 * TSIFT_JSON_MAX_NESTING, "1000 levels");
  free(deep);
}

/* The check reads strings and indentation eight bytes a word and goes from
 * the word holding a stop (quote, backslash, control, byte >= 0x80; a byte
 * other than a space) to that byte: a stop at every offset of the first
 * three words, after runs of plain bytes and of spaces of every length, and
 * the verdict and tree as cJSON's. */
static void test_word_edges(void) {
  printf("stops at every offset of a word\n");
  static const char *const stops[] = {"\"", "\\n", "\x01", "\xc3\xa9", "\\u00e9", "\x7f"};
  char doc[128];
  for (size_t k = 0; k < sizeof stops / sizeof stops[0]; k++)
    for (size_t run = 0; run < 24; run++) {
      size_t n = 0;
      doc[n++] = '[';
      doc[n++] = '"';
      for (size_t i = 0; i < run; i++) doc[n++] = (char)('a' + i % 26);
      size_t sl = strlen(stops[k]);
      memcpy(doc + n, stops[k], sl);
      n += sl;
      if (k) n += (size_t)snprintf(doc + n, sizeof doc - n, "xyz\"");
      doc[n++] = ']';
      size_t pos;
      tsift_json_facts f;
      /* a control character ends the check there (RFC 8259; cJSON takes it) */
      tsift_json_verdict v = tsift_json_check_facts(doc, n, &pos, &f);
      CHECK(k == 2 ? v != TSIFT_JSON_VALID && pos == 2 + run : v == TSIFT_JSON_VALID);
      compare(doc, n, "a stop after a plain run");
    }
  for (size_t spaces = 0; spaces < 24; spaces++)
    for (int other = 0; other < 3; other++) {
      size_t n = 0;
      doc[n++] = '[';
      doc[n++] = '\n';
      for (size_t i = 0; i < spaces; i++) doc[n++] = ' ';
      if (other) doc[n++] = other == 1 ? '\t' : '\n';
      n += (size_t)snprintf(doc + n, sizeof doc - n, "1,\n");
      for (size_t i = 0; i < spaces; i++) doc[n++] = ' ';
      n += (size_t)snprintf(doc + n, sizeof doc - n, "\"x\"]");
      size_t pos;
      tsift_json_facts f;
      CHECK(tsift_json_check_facts(doc, n, &pos, &f) == TSIFT_JSON_VALID);
      compare(doc, n, "indentation of every length");
    }
}

/* fn over every file of folder `dir` (none when it is missing). */
static void each_file(const char *dir_path, void (*fn)(char *s, size_t n, const char *path)) {
  DIR *dir = opendir(dir_path);
  if (!dir) return;
  struct dirent *e;
  while ((e = readdir(dir))) {
    if (e->d_name[0] == '.') continue;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
    size_t n = 0;
    char *s = slurp(path, &n);
    if (s) fn(s, n, path);
    free(s);
  }
  closedir(dir);
}

static void compare_file(char *s, size_t n, const char *path) { compare(s, n, path); }

static void test_files(void) {
  printf("seeds, corpus, dev sets\n");
  each_file("tests/fuzz/corpus/catalog", compare_file);
  each_file("tests/fuzz/corpus/schema", compare_file);
  size_t n = 0;
  char *s = slurp("corpus/catalog.json", &n);
  CHECK(s != NULL);
  if (s) compare(s, n, "corpus/catalog.json");
  free(s);
  const char *sets[] = {"metatool", "sealtools", "toollens"};
  for (size_t k = 0; k < 3; k++) {
    char path[256];
    snprintf(path, sizeof path, "../shared/datasets/%s/tools.jsonl", sets[k]);
    s = slurp(path, &n);
    if (!s) {
      printf("SKIP: %s not present\n", path);
      continue;
    }
    for (size_t a = 0; a < n;) { /* one document a line */
      size_t b = a;
      while (b < n && s[b] != '\n') b++;
      compare(s + a, b - a, path);
      a = b + 1;
    }
    free(s);
  }
}

/* Random documents: nested containers, keys and strings with escapes and
 * UTF-8, numbers of every form. */
static uint32_t g_rng = 20261202;
static uint32_t rnd(uint32_t n) {
  g_rng = g_rng * 1664525u + 1013904223u;
  return (g_rng >> 8) % n;
}

static void put(char *buf, size_t *len, const char *s) {
  size_t k = strlen(s);
  memcpy(buf + *len, s, k);
  *len += k;
}

static void random_string(char *buf, size_t *len) {
  static const char *const parts[] = {"a", "Z", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\u4e2d", "\\ud83d\\ude00",
                                      "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\\t", "\\b", "\\f", "\\r",
                                      "\\u0007", "key", "description"};
  put(buf, len, "\"");
  for (uint32_t k = rnd(6); k > 0; k--) put(buf, len, parts[rnd(sizeof parts / sizeof parts[0])]);
  put(buf, len, "\"");
}

static void random_value(char *buf, size_t *len, int depth) {
  static const char *const numbers[] = {"0", "-0", "7", "-12", "3.5", "1e9", "2E-3", "-0.0", "123456789012345678",
                                        "2147483647", "2147483648", "-2147483649", "1e309", "0.1"};
  static const char *const ws[] = {"", " ", "\n", "\t ", "\r\n  "};
  uint32_t kind = depth > 5 ? 2 + rnd(5) : rnd(7);
  put(buf, len, ws[rnd(5)]);
  if (kind < 2) {
    int obj = kind == 0;
    put(buf, len, obj ? "{" : "[");
    for (uint32_t k = rnd(5), i = 0; i < k; i++) {
      if (i) put(buf, len, ",");
      if (obj) {
        put(buf, len, ws[rnd(5)]);
        random_string(buf, len);
        put(buf, len, ws[rnd(5)]);
        put(buf, len, ":");
      }
      random_value(buf, len, depth + 1);
    }
    put(buf, len, ws[rnd(5)]);
    put(buf, len, obj ? "}" : "]");
  } else if (kind == 2 || kind == 3) {
    random_string(buf, len);
  } else if (kind == 4) {
    put(buf, len, numbers[rnd(sizeof numbers / sizeof numbers[0])]);
  } else {
    put(buf, len, kind == 5 ? "true" : rnd(2) ? "false" : "null");
  }
  put(buf, len, ws[rnd(5)]);
}

static void test_random(void) {
  printf("random documents\n");
  char *buf = malloc(1 << 22);
  for (int r = 0; r < 3000; r++) {
    size_t len = 0;
    random_value(buf, &len, 0);
    compare(buf, len, "random document");
  }
  free(buf);
}

static void test_alloc_failures(void) {
  printf("allocation failures\n");
  const char *s = "{\"a\":[1,2.5,\"x\\u00e9\",{\"b\":null,\"c\":[true,false]}],\"d\":\"e\",\"f\":-0}";
  size_t n = strlen(s);
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  int all_null = 1, leaked = 0;
  long needed = 0;
  for (long k = 1; k < 200; k++) {
    g_allocs = 0;
    g_fail_at = k;
    long live = g_live;
    cJSON *t = tsift_json_tree(s, n);
    if (t) {
      needed = k; /* every allocation it makes succeeded */
      cJSON_Delete(t);
      if (g_live != live) leaked = 1;
      break;
    }
    if (g_live != live) leaked = 1;
  }
  all_null = needed > 10;
  tsift_set_allocator(NULL, NULL, NULL);
  CHECK(all_null);
  CHECK(!leaked);

  /* The arena tree: a document over several blocks, failing at each. */
  size_t cap = 64 * 1024, len = 1;
  char *big = malloc(cap);
  big[0] = '[';
  for (int i = 0; len + 80 < cap; i++)
    len += (size_t)snprintf(big + len, cap - len, "%s{\"k%d\":\"v\\u00e9%d\",\"n\":[%d.5,null]}", i ? "," : "", i, i, i);
  big[len++] = ']';
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  long blocks = 0;
  leaked = 0;
  for (long k = 1; k < 200; k++) {
    g_allocs = 0;
    g_fail_at = k;
    long live = g_live;
    tsift_json_arena *arena = (tsift_json_arena *)&arena; /* must be reset */
    cJSON *t = tsift_json_tree_arena(big, len, &arena);
    if (t) {
      blocks = g_allocs; /* every allocation it makes succeeded */
      tsift_json_arena_free(arena);
      if (g_live != live) leaked = 1;
      break;
    }
    if (arena || g_live != live) leaked = 1;
  }
  tsift_set_allocator(NULL, NULL, NULL);
  free(big);
  printf("arena tree: %ld blocks\n", blocks);
  CHECK(blocks > 3);
  CHECK(!leaked);
}

/* The one-pass reader's errors (issue 37: the tree is built as the check
 * reads, and only a failed pass runs the separate checks) ---------------- */

/* Hand-written: the status and message each bad text had before the one
 * pass (docs/spec.md S12's messages, positions counted by hand). */
static void test_errors_by_hand(void) {
  static const struct {
    const char *text, *message;
    tsift_status status;
  } cases[] = {
      {"", "t: empty input", TSIFT_E_JSON},
      {"{\"a\":1,}", "t: malformed JSON at byte 7 (line 1, column 8)", TSIFT_E_JSON},
      {"[1,\n 2", "t: malformed JSON at byte 6 (line 2, column 3)", TSIFT_E_JSON},
      {"{\"a\":\"x\x01y\"}", "t: control character 0x01 at byte 7 (line 1, column 8): JSON needs it escaped",
       TSIFT_E_JSON},
      {"{\"a\":\"x\ty\"}", "t: malformed JSON at byte 7 (line 1, column 8)", TSIFT_E_JSON}, /* a raw tab */
      {"[\"\\ud800\"]", "t: a lone surrogate escape at byte 2 (line 1, column 3)", TSIFT_E_JSON},
      {"[\"a\\u0000b\"]",
       "t: a \\u0000 escape (NUL character) at byte 3 (line 1, column 4) is not allowed in a string", TSIFT_E_JSON},
      {"[\"\xC3\"]", "t: invalid UTF-8 at byte 2 (line 1, column 3)", TSIFT_E_UTF8},
      /* UTF-8 is checked before the grammar: the bad byte after the error wins */
      {"[1,,\"\xFF\"]", "t: invalid UTF-8 at byte 5 (line 1, column 6)", TSIFT_E_UTF8},
      {"\xEF\xBB\xBF[]", "t: starts with a UTF-8 byte order mark; save it without one", TSIFT_E_JSON},
      {"{\"b\":1,\"a\":2,\"b\":3}", "t: duplicate key \"b\" in an object", TSIFT_E_JSON},
      {"[1] x", "t: malformed JSON at byte 4 (line 1, column 5)", TSIFT_E_JSON},
      {"[1e99999999999999999999999999999999999999999999999999999999999999999]",
       "t: a number longer than 63 characters at byte 1 (line 1, column 2)", TSIFT_E_LIMIT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cJSON *t = NULL;
    tsift_error err;
    tsift_status st = tsift_json_parse(cases[i].text, strlen(cases[i].text), "t", &t, &err);
    CHECK_EQ_INT(st, cases[i].status);
    CHECK_EQ_STR(err.message, cases[i].message);
    cJSON_Delete(t);
  }
}

/* The allocation-free check's verdict on s, and its position, as the
 * message of a syntax error states it: "at byte P". */
static int syntax_at(const char *s, size_t n, size_t *pos) {
  return n && tsift_json_check(s, n, pos) == TSIFT_JSON_SYNTAX;
}

/* Every prefix and every one-byte corruption of a file of the bad-input
 * corpus: the reader fails exactly where the standalone check, the UTF-8
 * check and the \u0000 search fail, a syntax error names the check's byte,
 * and the arena tree (catalogs) gives the same status and message. */
static void errors_of(const char *s, size_t n) {
  cJSON *t = NULL, *ta = NULL;
  tsift_json_arena *arena = NULL;
  tsift_error e1, e2;
  tsift_status st = tsift_json_parse(s, n, "t", &t, &e1);
  tsift_status sa = tsift_json_parse_arena(s, n, "t", &ta, &arena, &e2);
  cJSON_Delete(t);
  tsift_json_arena_free(arena);
  CHECK_EQ_INT(sa, st);
  if (st) CHECK_EQ_STR(e2.message, e1.message);
  size_t pos, bad;
  int valid = n && tsift_json_check(s, n, &pos) == TSIFT_JSON_VALID && tsift_utf8_valid(s, n, &bad) &&
              tsift_json_find_nul_escape(s, n) < 0;
  if (valid) CHECK(st == TSIFT_OK || strstr(e1.message, "duplicate key") != NULL);
  else CHECK(st != TSIFT_OK);
  if (st == TSIFT_E_JSON && strstr(e1.message, "malformed JSON") && syntax_at(s, n, &pos)) {
    char want[64];
    snprintf(want, sizeof want, "at byte %zu ", pos);
    CHECK_CONTAINS(e1.message, want);
  }
  g_compared++;
}

/* Every prefix of a file, and the file with each byte in turn made a bad one. */
static void errors_of_file(char *s, size_t n, const char *path) {
  (void)path;
  for (size_t k = 0; k <= n && k < 4096; k++) errors_of(s, k);
  for (size_t k = 0; k < n && k < 2048; k++) {
    static const char bad[] = {'\x01', '"', '}', '\xFF', ','};
    char keep = s[k];
    s[k] = bad[k % sizeof bad];
    errors_of(s, n);
    s[k] = keep;
  }
}

static void test_errors_of_corpus(void) {
  printf("errors over the bad-input corpus\n");
  each_file("tests/fuzz/corpus/catalog", errors_of_file);
  each_file("tests/fuzz/corpus/schema", errors_of_file);
  each_file("tests/fuzz/corpus/calls", errors_of_file);
}

int main(void) {
  test_errors_by_hand();
  test_errors_of_corpus();
  test_cases();
  test_word_edges();
  test_files();
  test_random();
  test_alloc_failures();
  printf("%d documents compared\n", g_compared);
  CHECK(g_compared > 3000);
  return harness_finish("test_json_tree");
}
