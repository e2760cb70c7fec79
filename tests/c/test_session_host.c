/* test_session_host.c — sessions from files, as the CLIs open them
 * (core/src/session/session_host.c): the catalog file a configuration names,
 * tsift_session_open over that file's bytes (the same session as with the
 * catalog inline; errors that name the file), tsift_session_call_next over a
 * calls file (line numbers, blank lines, strict lines, the arguments' own
 * bytes), the JSON Lines loop and member spans under them, and allocation
 * failure in all of it. */
#include <stdlib.h>

#include "cJSON.h"
#include "fail_alloc.h"
#include "harness.h"
#include "json/json_check.h"
#include "json/jsonl.h"
#include "toolsift.h"

static const char CATALOG[] =
    "{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open a new issue in a "
    "repository\",\"inputSchema\":{\"properties\":{\"title\":{\"type\":\"string\",\"maxLength\":2.5e2}}}},"
    "{\"id\":\"gh__list_issues\",\"name\":\"list_issues\",\"description\":\"List issues of a repository\"},"
    "{\"id\":\"jira__create_issue\",\"name\":\"create_issue\",\"description\":\"Create a Jira issue \\u00e9\"},"
    "{\"id\":\"slack__send\",\"name\":\"send\",\"description\":\"Send a Slack message to a channel\"},"
    "{\"id\":\"mail__send\",\"name\":\"send\",\"description\":\"Send an email message\"}"
    "]}";

/* A configuration whose "catalog" is `catalog` (raw JSON text). */
static char *config_with(const char *catalog, const char *search) {
  size_t cap = strlen(catalog) + strlen(search) + 256;
  char *buf = malloc(cap);
  snprintf(buf, cap,
           "{\"loop\":\"host\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply\"}],\"catalog\":%s,"
           "\"search\":%s}",
           catalog, search);
  return buf;
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  *len = fread(buf, 1, (size_t)n, f);
  buf[*len] = 0;
  fclose(f);
  return buf;
}

/* Every output of a session worth comparing, joined (caller frees). */
static char *describe(tsift_session *s) {
  static const char *const formats[] = {"mcp", "openai", "anthropic"};
  size_t cap = 1 << 16, used = 0;
  char *all = malloc(cap);
  all[0] = 0;
  for (int k = 0; k < 6; k++) {
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    tsift_status st = k < 3   ? tsift_session_menu_json(s, formats[k], &out, &len, &err)
                      : k == 3 ? tsift_session_journal_jsonl(s, &out, &len, &err)
                      : k == 4 ? tsift_session_metrics_json(s, &out, &len, &err)
                               : tsift_session_skill_index(s, &out, &len, &err);
    if (st != TSIFT_OK) len = 0;
    while (used + len + 2 > cap) all = realloc(all, cap *= 2);
    memcpy(all + used, out ? out : "", len);
    used += len;
    all[used++] = '|';
    all[used] = 0;
    tsift_free(out);
  }
  return all;
}

/* ---- the JSON Lines loop and member spans -------------------------------- */

static void test_jsonl(void) {
  const char text[] = "a\n\n  \t\r\nb\r\n   c  \n\n";
  tsift_jsonl it;
  tsift_jsonl_init(&it, text, sizeof text - 1);
  const char *line;
  size_t n;
  CHECK(tsift_jsonl_next(&it, &line, &n));
  CHECK(n == 1 && line[0] == 'a' && it.line == 1);
  CHECK(tsift_jsonl_next(&it, &line, &n));
  CHECK(n == 2 && memcmp(line, "b\r", 2) == 0 && it.line == 4); /* the CR stays: JSON whitespace */
  CHECK(tsift_jsonl_next(&it, &line, &n));
  CHECK(n == 6 && memcmp(line, "   c  ", 6) == 0 && it.line == 5);
  CHECK(!tsift_jsonl_next(&it, &line, &n));
  CHECK_EQ_INT(it.line, 6);
  CHECK_EQ_INT(it.pos, sizeof text - 1);
  CHECK(!tsift_jsonl_next(&it, &line, &n)); /* stays at the end */
  /* no final newline; nothing at all */
  tsift_jsonl_init(&it, "x", 1);
  CHECK(tsift_jsonl_next(&it, &line, &n) && n == 1 && it.pos == 1);
  CHECK(!tsift_jsonl_next(&it, &line, &n));
  tsift_jsonl_init(&it, NULL, 0);
  CHECK(!tsift_jsonl_next(&it, &line, &n));
  CHECK_EQ_INT(it.line, 0);
}

static void test_member_value(void) {
  const char s[] = " {\"a\":1, \"b\" : [1,{\"c\":\"]}\\\"\"}] ,\"\\u0064\":\"x\\\"y\" , \"e\":{\"f\":null},\"g\":-2.5e3}";
  size_t pos = 0;
  CHECK(tsift_json_check(s, sizeof s - 1, &pos) == TSIFT_JSON_VALID);
  static const char *const want[] = {"1", "[1,{\"c\":\"]}\\\"\"}]", "\"x\\\"y\"", "{\"f\":null}", "-2.5e3"};
  for (size_t k = 0; k < 5; k++) {
    size_t a = 0, b = 0;
    tsift_json_member_value(s, sizeof s - 1, k, &a, &b);
    CHECK(b - a == strlen(want[k]) && memcmp(s + a, want[k], b - a) == 0);
  }
}

/* ---- the catalog file a configuration names -------------------------------- */

static tsift_status config_catalog(const char *cfg, char **file, size_t *len, tsift_error *err) {
  return tsift_session_config_catalog(cfg, strlen(cfg), file, len, err);
}

static void test_config_catalog(void) {
  char *file = NULL;
  size_t len = 99;
  tsift_error err;
  CHECK_EQ_INT(config_catalog("{\"loop\":\"x\",\"catalog\":\"cats/c\\u00e9.json\"}", &file, &len, &err), TSIFT_OK);
  CHECK_EQ_STR(file, "cats/c\xC3\xA9.json");
  CHECK_EQ_INT(len, 13);
  tsift_free(file);
  /* an empty name is a name (the host then reads the folder, and says so) */
  CHECK_EQ_INT(config_catalog("{\"catalog\":\"\"}", &file, &len, &err), TSIFT_OK);
  CHECK(file != NULL && len == 0 && file[0] == 0);
  tsift_free(file);
  /* none: inline, null, absent, not an object */
  const char *none[] = {"{\"catalog\":{\"tools\":[]}}", "{\"catalog\":null}", "{}", "[\"catalog\"]", "7"};
  for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
    file = (char *)1;
    CHECK_EQ_INT(config_catalog(none[i], &file, NULL, &err), TSIFT_OK);
    CHECK(file == NULL);
  }
  /* what the strict reader refuses, with tsift_session_new's messages */
  struct {
    const char *cfg;
    tsift_status st;
    const char *msg;
  } bad[] = {
      {"{\"catalog\":\"a.json\",\"catalog\":\"b.json\"}", TSIFT_E_JSON, "config: duplicate key \"catalog\" in an object"},
      {"{\"catalog\":\"a\\u0000b\"}", TSIFT_E_JSON, "config: a \\u0000 escape (NUL character) at byte 13"},
      {"{\"catalog\": ", TSIFT_E_JSON, "config: malformed JSON at byte 12 (line 1, column 13)"},
      {"{\"catalog\":\"a.json\"} trailing", TSIFT_E_JSON, "config: malformed JSON at byte 21"},
      {"\xEF\xBB\xBF{\"catalog\":\"a.json\"}", TSIFT_E_JSON, "config: starts with a UTF-8 byte order mark; save it without one"},
      {"{\"catalog\":\"a\x01.json\"}", TSIFT_E_JSON, "config: control character 0x01 at byte 13"},
      {"{\"catalog\":\"\xFF\"}", TSIFT_E_UTF8, "config: invalid UTF-8 at byte 12"},
      {"", TSIFT_E_JSON, "config: empty input"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    file = (char *)1;
    CHECK_EQ_INT(config_catalog(bad[i].cfg, &file, &len, &err), bad[i].st);
    CHECK(file == NULL);
    CHECK_CONTAINS(err.message, bad[i].msg);
    /* the session constructor says the same */
    tsift_session *s = (tsift_session *)1;
    tsift_error err2;
    CHECK_EQ_INT(tsift_session_new(bad[i].cfg, strlen(bad[i].cfg), NULL, 0, NULL, 0, &s, &err2), bad[i].st);
    CHECK_EQ_STR(err2.message, err.message);
  }
  CHECK_EQ_INT(tsift_session_config_catalog("{}", 2, NULL, NULL, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_session_config_catalog(NULL, 5, &file, NULL, &err), TSIFT_E_ARG);
}

/* ---- a session over a catalog file's bytes ---------------------------------- */

static tsift_status open_file(const char *cfg, const char *cat, size_t cat_len, tsift_session **s,
                              tsift_error *err) {
  return tsift_session_open(cfg, strlen(cfg), cat, cat_len, NULL, 0, NULL, 0, NULL, 0, s, err);
}

/* The same session, byte for byte, with the catalog inline or in a file. */
static void test_open_matches_inline(void) {
  const char *searches[] = {"{\"maxPerSearch\":2}", "{\"stopwords\":[\"a\",\"the\"],\"alwaysLoaded\":[\"mail__send\"]}"};
  for (size_t i = 0; i < 2; i++) {
    char *inline_cfg = config_with(CATALOG, searches[i]);
    char *file_cfg = config_with("\"cat.json\"", searches[i]);
    tsift_session *a = NULL, *b = NULL;
    tsift_error err;
    CHECK_EQ_INT(tsift_session_new(inline_cfg, strlen(inline_cfg), NULL, 0, NULL, 0, &a, &err), TSIFT_OK);
    CHECK_EQ_INT(open_file(file_cfg, CATALOG, sizeof CATALOG - 1, &b, &err), TSIFT_OK);
    if (!a || !b) {
      tsift_session_free(a);
      tsift_session_free(b);
      continue;
    }
    const char *args[] = {"{\"query\":\"create an issue\"}", "{\"query\":\"send a message\",\"limit\":1}"};
    for (unsigned k = 0; k < 2; k++) {
      char *oa = NULL, *ob = NULL;
      size_t la = 0, lb = 0;
      tsift_session_call(a, k, 0, "search_tools", 12, args[k], strlen(args[k]), &oa, &la, &err);
      tsift_session_call(b, k, 0, "search_tools", 12, args[k], strlen(args[k]), &ob, &lb, &err);
      CHECK_EQ_STR(ob, oa);
      tsift_free(oa);
      tsift_free(ob);
    }
    char *da = describe(a), *db = describe(b);
    CHECK_EQ_STR(db, da);
    CHECK_CONTAINS(db, "\"maxLength\":2.5e2"); /* the file's numbers reach the menu as written, as inline ones do */
    free(da);
    free(db);
    tsift_session_free(a);
    tsift_session_free(b);
    free(inline_cfg);
    free(file_cfg);
  }
  /* skills: the fixture's configuration names catalog.json; inline, the same */
  size_t cfg_len = 0, cat_len = 0;
  char *cfg = read_all("tests/fixtures/skills/config.json", &cfg_len);
  char *cat = read_all("tests/fixtures/skills/catalog.json", &cat_len);
  CHECK(cfg && cat);
  if (!cfg || !cat) return;
  const char *name = strstr(cfg, "\"catalog.json\"");
  CHECK(name != NULL);
  if (!name) return;
  size_t at = (size_t)(name - cfg), inline_len = cfg_len - 14 + cat_len;
  char *inline_cfg = malloc(inline_len + 1);
  memcpy(inline_cfg, cfg, at);
  memcpy(inline_cfg + at, cat, cat_len);
  memcpy(inline_cfg + at + cat_len, name + 14, cfg_len - at - 14);
  tsift_session *a = NULL, *b = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_new(inline_cfg, inline_len, NULL, 0, NULL, 0, &a, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_open(cfg, cfg_len, cat, cat_len, NULL, 0, NULL, 0, NULL, 0, &b, &err), TSIFT_OK);
  if (a && b) {
    char *da = describe(a), *db = describe(b);
    CHECK_EQ_STR(db, da);
    CHECK_CONTAINS(db, "- "); /* a skill index line */
    free(da);
    free(db);
  }
  tsift_session_free(a);
  tsift_session_free(b);
  free(inline_cfg);
  free(cfg);
  free(cat);
}

static void test_open_errors(void) {
  char *cfg = config_with("\"cats/c.json\"", "{}");
  struct {
    const char *catalog;
    size_t len;
    tsift_status st;
    const char *msg;
  } bad[] = {
      {"{\"tools\": [", 11, TSIFT_E_JSON, "catalog file cats/c.json: malformed JSON at byte 11 (line 1, column 12)"},
      {"", 0, TSIFT_E_JSON, "catalog file cats/c.json: empty input"},
      {"{\"tools\":[],\"tools\":[]}", 23, TSIFT_E_JSON, "catalog file cats/c.json: duplicate key \"tools\" in an object"},
      {"[{\"name\":\"a\\u0000\"}]", 20, TSIFT_E_JSON, "catalog file cats/c.json: a \\u0000 escape (NUL character) at byte 11"},
      {"\xEF\xBB\xBF[]", 5, TSIFT_E_JSON, "catalog file cats/c.json: starts with a UTF-8 byte order mark; save it without one"},
      {"[] []", 5, TSIFT_E_JSON, "catalog file cats/c.json: malformed JSON at byte 3"},
      {"[{\"name\":\"\xC3\x28\"}]", 15, TSIFT_E_UTF8, "catalog file cats/c.json: invalid UTF-8 at byte 10"},
      /* what the file holds is a catalog: its errors as an inline catalog's */
      {"[{\"name\":\"a\"},{\"name\":\"a\"}]", 27, TSIFT_E_CONFIG,
       "config: catalog: tools[1] (\"a\"): duplicate id (first used by tools[0])"},
      {"42", 2, TSIFT_E_CONFIG, "config: catalog: catalog: expected an array of tools"},
      {"[{\"name\":\"reply\"}]", 18, TSIFT_E_CONFIG, "config: tools[0] (\"reply\") collides with a catalog tool"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    tsift_session *s = (tsift_session *)1;
    tsift_error err;
    CHECK_EQ_INT(open_file(cfg, bad[i].catalog, bad[i].len, &s, &err), bad[i].st);
    CHECK(s == NULL);
    CHECK_CONTAINS(err.message, bad[i].msg);
  }
  free(cfg);
  tsift_session *s = NULL;
  tsift_error err;
  /* the configuration is read first */
  cfg = config_with("\"c.json\"", "{\"maxLoaded\":500}");
  CHECK_EQ_INT(open_file(cfg, "[", 1, &s, &err), TSIFT_E_JSON);
  CHECK_CONTAINS(err.message, "catalog file c.json: malformed JSON");
  CHECK_EQ_INT(open_file(cfg, "[]", 2, &s, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "config: search.maxLoaded");
  free(cfg);
  /* file bytes for a configuration that names no file; a name without bytes */
  cfg = config_with(CATALOG, "{}");
  CHECK_EQ_INT(open_file(cfg, "[]", 2, &s, &err), TSIFT_E_ARG);
  CHECK_CONTAINS(err.message, "is not a file name");
  free(cfg);
  cfg = config_with("\"c.json\"", "{}");
  CHECK_EQ_INT(open_file(cfg, NULL, 0, &s, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "config: catalog: a path must be resolved by the host");
  CHECK_EQ_INT(tsift_session_open(cfg, strlen(cfg), "[]", 2, NULL, 0, NULL, 0, NULL, 0, NULL, &err), TSIFT_E_ARG);
  free(cfg);
  /* bad stopwords: the parsed file is freed on that path too */
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  g_armed = 0;
  g_live = 0;
  cfg = config_with("\"c.json\"", "{\"stopwords\":[1]}");
  CHECK_EQ_INT(open_file(cfg, CATALOG, sizeof CATALOG - 1, &s, &err), TSIFT_E_CONFIG);
  CHECK_EQ_INT(g_live, 0);
  free(cfg);
  tsift_set_allocator(NULL, NULL, NULL);
  /* a long file name is cut in the message, which stays bounded */
  char name[400];
  memset(name, 'n', sizeof name - 1);
  name[sizeof name - 1] = 0;
  char quoted[404];
  snprintf(quoted, sizeof quoted, "\"%s\"", name);
  cfg = config_with(quoted, "{}");
  CHECK_EQ_INT(open_file(cfg, "{", 1, &s, &err), TSIFT_E_JSON);
  CHECK(strlen(err.message) < TSIFT_ERROR_MESSAGE_MAX);
  CHECK_CONTAINS(err.message, ": malformed JSON at byte 1");
  free(cfg);
}

/* Over a snapshot: the file may bring skills, not tools. */
static void test_open_snapshot(void) {
  size_t cat_len = 0;
  char *cat = read_all("tests/fixtures/skills/catalog.json", &cat_len);
  CHECK(cat != NULL);
  if (!cat) return;
  cJSON *doc = cJSON_Parse(cat);
  char *skills = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(doc, "skills"));
  char *skills_file = malloc(strlen(skills) + 16);
  sprintf(skills_file, "{\"skills\":%s}", skills);
  tsift_index *ix = NULL;
  tsift_error err;
  char *snap = NULL;
  size_t snap_len = 0;
  CHECK_EQ_INT(tsift_index_build(cat, cat_len, NULL, 0, &ix, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_snapshot(ix, &snap, &snap_len, &err), TSIFT_OK);
  const char *skills_section = "\"skills\":{\"selected\":[\"tool-bundle\"],\"discovery\":\"both\"}";
  char cfg_file[256], *cfg_inline = malloc(strlen(skills_file) + 256);
  const char *tools = "\"tools\":[{\"name\":\"reply\",\"description\":\"Reply\"}]";
  snprintf(cfg_file, sizeof cfg_file, "{%s,\"catalog\":\"skills.json\",%s}", tools, skills_section);
  sprintf(cfg_inline, "{%s,\"catalog\":%s,%s}", tools, skills_file, skills_section);
  tsift_session *a = NULL, *b = NULL;
  CHECK_EQ_INT(tsift_session_new_from_snapshot(cfg_inline, strlen(cfg_inline), snap, snap_len, NULL, 0, NULL, 0, &a,
                                               &err),
               TSIFT_OK);
  CHECK_EQ_INT(tsift_session_open(cfg_file, strlen(cfg_file), skills_file, strlen(skills_file), snap, snap_len, NULL,
                                  0, NULL, 0, &b, &err),
               TSIFT_OK);
  if (a && b) {
    char *da = describe(a), *db = describe(b);
    CHECK_EQ_STR(db, da);
    free(da);
    free(db);
  }
  tsift_session_free(a);
  tsift_session_free(b);
  /* tools in the file: the snapshot holds the catalog */
  CHECK_EQ_INT(tsift_session_open(cfg_file, strlen(cfg_file), cat, cat_len, snap, snap_len, NULL, 0, NULL, 0, &b, &err),
               TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "config: catalog: not allowed with a snapshot");
  /* a bad snapshot first */
  CHECK_EQ_INT(tsift_session_open(cfg_file, strlen(cfg_file), "[", 1, "nope", 4, NULL, 0, NULL, 0, &b, &err),
               TSIFT_E_SNAPSHOT);
  CHECK(b == NULL);
  tsift_free(snap);
  tsift_index_free(ix);
  free(cfg_inline);
  free(skills_file);
  cJSON_free(skills);
  cJSON_Delete(doc);
  free(cat);
}

/* ---- a calls file, one line at a time --------------------------------------- */

static const char CALLS[] =
    "{\"turn\":0,\"call\":0,\"tool\":\"search_tools\",\"args\":{\"query\":\"create issue\"}}\n"
    "\n"
    "   \r\n"
    "{\"args\": { \"query\" : \"send a [message]\" , \"limit\" : 2 },\"call\":0,\"turn\":1,\"tool\":\"search_tools\"}\r\n"
    "not json\n"
    "{\"turn\":1.5,\"call\":0,\"tool\":\"x\"}\n"
    "{\"turn\":2,\"call\":0,\"tool\":\"search_tools\",\"args\":\"send\"}\n"
    "{\"turn\":2,\"call\":1,\"tool\":\"search_tools\",\"\\u0061rgs\":{\"query\":\"jira\"},\"extra\":{\"args\":1}}\n"
    "{\"turn\":2,\"call\":2,\"tool\":\"reply\"}\n"
    "[1,2]\n"
    "{\"turn\":2,\"call\":3,\"tool\":\"search_tools\",\"args\":{\"query\":\"a\\u0000b\"}}\n"
    "{\"turn\":2,\"call\":3,\"tool\":\"reply\",\"tool\":\"x\"}\n"
    "{\"turn\":4294967296,\"call\":0,\"tool\":\"reply\"}\n"
    "{\"turn\":4294967295,\"call\":4294967295,\"tool\":\"reply\",\"args\":[]}\n"
    "\n";

/* What each non-blank line is: a call (its arguments as text) or refused. */
static const struct {
  size_t line;
  unsigned turn, call;
  const char *tool, *args; /* NULL tool: not a call */
  const char *why;         /* what the strict reader refused in the line, or NULL: not the call shape */
} EXPECT[] = {
    {1, 0, 0, "search_tools", "{\"query\":\"create issue\"}", NULL},
    {4, 1, 0, "search_tools", "{ \"query\" : \"send a [message]\" , \"limit\" : 2 }", NULL},
    {5, 0, 0, NULL, NULL, "not a call: malformed JSON at byte 0 (line 1, column 1)"},
    {6, 0, 0, NULL, NULL, NULL},
    {7, 2, 0, "search_tools", "\"send\"", NULL},
    {8, 2, 1, "search_tools", "{\"query\":\"jira\"}", NULL},
    {9, 2, 2, "reply", "{}", NULL},
    {10, 0, 0, NULL, NULL, NULL},
    {11, 0, 0, NULL, NULL, "not a call: a \\u0000 escape (NUL character) at byte 59 (line 1, column 60)"},
    {12, 0, 0, NULL, NULL, "not a call: duplicate key \"tool\" in an object"},
    {13, 0, 0, NULL, NULL, NULL},
    {14, 4294967295u, 4294967295u, "reply", "[]", NULL},
};

static tsift_session *plain_session(void) {
  char *cfg = config_with(CATALOG, "{}");
  tsift_session *s = NULL;
  tsift_error err;
  if (tsift_session_new(cfg, strlen(cfg), NULL, 0, NULL, 0, &s, &err)) fprintf(stderr, "%s\n", err.message);
  free(cfg);
  return s;
}

static void test_call_next(void) {
  tsift_session *s = plain_session(), *twin = plain_session();
  CHECK(s && twin);
  if (!s || !twin) return;
  size_t pos = 0, line = 0;
  const size_t nexpect = sizeof EXPECT / sizeof *EXPECT;
  for (size_t i = 0; i <= nexpect; i++) {
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    tsift_status st = tsift_session_call_next(s, CALLS, sizeof CALLS - 1, &pos, &line, &out, &len, &err);
    if (i == nexpect) { /* the end: the blank last line counted */
      CHECK_EQ_INT(st, TSIFT_OK);
      CHECK(out == NULL);
      CHECK_EQ_INT(pos, sizeof CALLS - 1);
      CHECK_EQ_INT(line, 15);
      break;
    }
    CHECK_EQ_INT(line, EXPECT[i].line);
    if (!EXPECT[i].tool) {
      char msg[160];
      snprintf(msg, sizeof msg,
               "calls line %zu: %s", EXPECT[i].line, EXPECT[i].why ? EXPECT[i].why :
               "expected {\"turn\": integer, \"call\": integer, \"tool\": string, \"args\": {…}} or {\"turn\": integer, \"preSearch\": string}");
      CHECK_EQ_INT(st, TSIFT_E_CONFIG);
      if (EXPECT[i].why) CHECK_CONTAINS(err.message, msg);
      else CHECK_EQ_STR(err.message, msg);
      CHECK(out == NULL);
      continue;
    }
    /* the same answer as the call made directly with the line's arguments */
    char *want = NULL;
    size_t want_len = 0;
    tsift_error werr;
    tsift_status wst = tsift_session_call(twin, EXPECT[i].turn, EXPECT[i].call, EXPECT[i].tool,
                                          strlen(EXPECT[i].tool), EXPECT[i].args, strlen(EXPECT[i].args), &want,
                                          &want_len, &werr);
    CHECK_EQ_INT(st, wst);
    CHECK_EQ_STR(out, want);
    CHECK_EQ_INT(len, want_len);
    tsift_free(out);
    tsift_free(want);
  }
  /* and once more at the end */
  char *out = (char *)1;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_call_next(s, CALLS, sizeof CALLS - 1, &pos, &line, &out, NULL, &err), TSIFT_OK);
  CHECK(out == NULL);
  CHECK_EQ_INT(tsift_session_call_next(s, CALLS, 3, &pos, &line, &out, NULL, &err), TSIFT_E_ARG); /* past the end */
  CHECK_EQ_INT(tsift_session_call_next(s, NULL, 3, &pos, &line, &out, NULL, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_session_call_next(NULL, CALLS, 3, &pos, &line, &out, NULL, &err), TSIFT_E_ARG);
  CHECK_EQ_INT(tsift_session_call_next(s, CALLS, 3, NULL, &line, &out, NULL, &err), TSIFT_E_ARG);
  /* a call's own error names the line: a search waiting for a host ranking */
  tsift_session_free(twin);
  twin = plain_session();
  CHECK_EQ_INT(tsift_session_set_ranker(twin, "host-embed", NULL, NULL, &err), TSIFT_OK);
  const char two[] =
      "{\"turn\":0,\"call\":0,\"tool\":\"search_tools\",\"args\":{\"query\":\"issue\"}}\n\n"
      "{\"turn\":0,\"call\":1,\"tool\":\"reply\"}\n";
  pos = line = 0;
  CHECK_EQ_INT(tsift_session_call_next(twin, two, sizeof two - 1, &pos, &line, &out, NULL, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"rank\":{\"kind\":\"host-embed\"");
  tsift_free(out);
  CHECK_EQ_INT(tsift_session_call_next(twin, two, sizeof two - 1, &pos, &line, &out, NULL, &err), TSIFT_E_STATE);
  CHECK_CONTAINS(err.message, "calls line 3: a search is waiting for its ranking");
  CHECK_EQ_INT(pos, sizeof two - 1); /* past the line: the host goes on */
  /* arguments over the bound: the session's refusal, as for a direct call */
  size_t big = 70000;
  char *huge = malloc(big + 128);
  int n = sprintf(huge, "{\"turn\":1,\"call\":0,\"tool\":\"search_tools\",\"args\":{\"query\":\"");
  memset(huge + n, 'q', big);
  strcpy(huge + n + big, "\"}}");
  pos = line = 0;
  CHECK_EQ_INT(tsift_session_call_next(s, huge, strlen(huge), &pos, &line, &out, NULL, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "arguments are too large");
  tsift_free(out);
  free(huge);
  tsift_session_free(s);
  tsift_session_free(twin);
}

/* ---- out of memory ---------------------------------------------------------- */

/* Every step of: config catalog, open over a file (with stopwords), each
 * line of CALLS. The step that meets the failure is NOMEM; run again it
 * gives the failure-free output; nothing leaks. */
typedef struct run_state {
  tsift_session *s;
  size_t pos, line;
} run_state;

static char *g_cfg;

/* Step k: its status, and its output in *out (malloc'd text, or NULL). */
static int run_step(int k, run_state *r, tsift_status *st, char **out) {
  tsift_error err;
  *out = NULL;
  if (k == 0) {
    char *file = NULL;
    *st = tsift_session_config_catalog(g_cfg, strlen(g_cfg), &file, NULL, &err);
    if (file) {
      int armed = g_armed;
      g_armed = 0;
      *out = strdup(file);
      g_armed = armed;
    }
    tsift_free(file);
    return 1;
  }
  if (k == 1) {
    tsift_session_free(r->s);
    r->s = NULL;
    *st = tsift_session_open(g_cfg, strlen(g_cfg), CATALOG, sizeof CATALOG - 1, NULL, 0, NULL, 0, NULL, 0, &r->s, &err);
    r->pos = r->line = 0;
    return 1;
  }
  if (!r->s || r->pos >= sizeof CALLS - 1) return 0;
  size_t pos = r->pos, line = r->line;
  char *o = NULL;
  *st = tsift_session_call_next(r->s, CALLS, sizeof CALLS - 1, &r->pos, &r->line, &o, NULL, &err);
  if (*st == TSIFT_E_NOMEM) { /* not consumed: the same line again */
    r->pos = pos;
    r->line = line;
  }
  if (o) {
    int armed = g_armed;
    g_armed = 0;
    *out = strdup(o);
    g_armed = armed;
  }
  tsift_free(o);
  return 1;
}

static void test_alloc_failures(void) {
  g_cfg = config_with("\"c.json\"", "{\"stopwords\":[\"the\"],\"alwaysLoaded\":[\"mail__send\"]}");
  tsift_set_allocator(fail_malloc, fail_realloc, fail_free);
  enum { MAX = 32 };
  tsift_status ref_st[MAX];
  char *ref_out[MAX];
  int nsteps = 0;
  run_state r = {0};
  g_armed = 0;
  while (nsteps < MAX && run_step(nsteps, &r, &ref_st[nsteps], &ref_out[nsteps])) nsteps++;
  tsift_session_free(r.s);
  CHECK(nsteps > 10);
  int points = 0, nomem = 0, wrong = 0, differs = 0, leaks = 0;
  for (g_fail_at = 1;; g_fail_at++) {
    memset(&r, 0, sizeof r);
    g_allocs = 0;
    g_live = 0;
    g_armed = 1;
    int hit = 0;
    for (int k = 0; k < nsteps; k++) {
      long before = g_allocs;
      tsift_status st;
      char *out;
      run_step(k, &r, &st, &out);
      if (!hit && g_allocs >= g_fail_at && before < g_fail_at) {
        hit = 1;
        if (st == TSIFT_E_NOMEM) nomem++;
        else wrong++;
        free(out);
        run_step(k, &r, &st, &out); /* again, with nothing failing */
      }
      if (st != ref_st[k] || (out == NULL) != (ref_out[k] == NULL) || (out && strcmp(out, ref_out[k]) != 0))
        differs++;
      free(out);
    }
    g_armed = 0;
    tsift_session_free(r.s);
    if (g_live != 0) leaks++;
    if (!hit) break;
    points++;
  }
  tsift_set_allocator(NULL, NULL, NULL);
  for (int k = 0; k < nsteps; k++) free(ref_out[k]);
  free(g_cfg);
  printf("  allocation failure sweep: %d points, %d NOMEM, %d other, %d differing, %d leaking\n", points, nomem,
         wrong, differs, leaks);
  CHECK(points > 100);
  CHECK_EQ_INT(nomem, points);
  CHECK_EQ_INT(wrong, 0);
  CHECK_EQ_INT(differs, 0);
  CHECK_EQ_INT(leaks, 0);
}

int main(void) {
  test_jsonl();
  test_member_value();
  test_config_catalog();
  test_open_matches_inline();
  test_open_errors();
  test_open_snapshot();
  test_call_next();
  test_alloc_failures();
  return harness_finish("test_session_host");
}
