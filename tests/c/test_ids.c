/* test_ids.c — one rule for ids (ids.c): any catalog indexes without
 * options; an id a model cannot call by gets a safe name made by the
 * documented formula (computed here independently); ids that look the same
 * (case, Unicode form) are told apart, or refused with {"ids":"strict"};
 * sessions, journals, select:, calls and replay use the menu name, ranking
 * and annotations the catalog's id; a snapshot makes the same names. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

/* The documented safe name's hash: FNV-1a 32 over the id's bytes, then,
 * for salt s > 0, over a 0 byte and s. */
static uint32_t fnv(const char *s, unsigned salt) {
  uint32_t h = 2166136261u;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) h = (h ^ *p) * 16777619u;
  if (salt) {
    h = (h ^ 0u) * 16777619u;
    h = (h ^ salt) * 16777619u;
  }
  return h;
}

static void expected(char *out, size_t cap, const char *base, const char *id, unsigned salt) {
  snprintf(out, cap, "%s_%08x", base, (unsigned)fnv(id, salt));
}

/* The index's menuNames (info), parsed; NULL when it has none. */
static cJSON *menu_names_of(tsift_index *ix) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  if (tsift_index_info_json(ix, &out, &len, &err) != TSIFT_OK) return NULL;
  cJSON *info = cJSON_Parse(out);
  tsift_free(out);
  cJSON *m = cJSON_DetachItemFromObject(info, "menuNames");
  cJSON_Delete(info);
  return m;
}

static const char *menu_name(const cJSON *m, const char *id) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, id);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Safe names, worked out by the formula in ids.c. */
static void test_safe_names(void) {
  char long_id[201];
  memset(long_id, 'a', 200);
  long_id[200] = 0;
  char cat[2048];
  snprintf(cat, sizeof cat,
           "[{\"name\":\"has space\"},{\"name\":\"PDF&URLTool\"},{\"name\":\"x__y  z!\"},"
           "{\"name\":\"caf\\u00e9\"},{\"name\":\"cafe\\u0301\"},{\"name\":\"\\u5929\\u6c14\"},"
           "{\"name\":\"%s\"},{\"name\":\"plain_id\"},{\"name\":\"dots.and:colons-ok\"}]",
           long_id);
  tsift_index *ix = build(cat);
  CHECK(ix != NULL);
  if (!ix) return;
  cJSON *m = menu_names_of(ix);
  char want[128];
  expected(want, sizeof want, "has_space", "has space", 0);
  CHECK_EQ_STR(menu_name(m, "has space"), want);
  expected(want, sizeof want, "PDF_URLTool", "PDF&URLTool", 0);
  CHECK_EQ_STR(menu_name(m, "PDF&URLTool"), want);
  expected(want, sizeof want, "x__y_z", "x__y  z!", 0); /* "__" kept, a run of others one "_", none trailing */
  CHECK_EQ_STR(menu_name(m, "x__y  z!"), want);
  /* composed and decomposed: the marks go, the hashes (of the bytes) differ */
  expected(want, sizeof want, "cafe", "caf\xc3\xa9", 0);
  CHECK_EQ_STR(menu_name(m, "caf\xc3\xa9"), want);
  expected(want, sizeof want, "cafe", "cafe\xcc\x81", 0);
  CHECK_EQ_STR(menu_name(m, "cafe\xcc\x81"), want);
  expected(want, sizeof want, "tool", "\xe5\xa4\xa9\xe6\xb0\x94", 0); /* nothing of it is ASCII */
  CHECK_EQ_STR(menu_name(m, "\xe5\xa4\xa9\xe6\xb0\x94"), want);
  char base[56];
  memset(base, 'a', 55);
  base[55] = 0;
  expected(want, sizeof want, base, long_id, 0);
  CHECK_EQ_STR(menu_name(m, long_id), want);
  CHECK_EQ_INT((long)strlen(want), 64);
  /* model-facing ids keep their names (and are not listed) */
  CHECK(menu_name(m, "plain_id") == NULL && menu_name(m, "dots.and:colons-ok") == NULL);
  CHECK_EQ_INT(cJSON_GetArraySize(m), 7);
  cJSON_Delete(m);
  /* ranking reports the catalog's ids */
  char *r = search_json(ix, "pdf url tool");
  CHECK_CONTAINS(r, "\"id\":\"PDF&URLTool\"");
  tsift_free(r);
  tsift_index_free(ix);
}

/* Look-alikes: the first keeps its id, the later ones get safe names; a
 * safe name that would look like another tool's id is salted. */
static void test_look_alikes(void) {
  char clash[64], cat[512];
  expected(clash, sizeof clash, "has_space", "has space", 0);
  snprintf(cat, sizeof cat,
           "[{\"name\":\"Weather\"},{\"name\":\"weather\"},{\"name\":\"WEATHER\"},{\"name\":\"has space\"},"
           "{\"name\":\"%s\"}]",
           clash);
  tsift_index *ix = build(cat);
  CHECK(ix != NULL);
  if (!ix) return;
  cJSON *m = menu_names_of(ix);
  char want[64];
  CHECK(menu_name(m, "Weather") == NULL);
  expected(want, sizeof want, "weather", "weather", 0);
  CHECK_EQ_STR(menu_name(m, "weather"), want);
  expected(want, sizeof want, "WEATHER", "WEATHER", 0);
  CHECK_EQ_STR(menu_name(m, "WEATHER"), want);
  /* "has space"'s first candidate is another tool's id: salt 1 */
  expected(want, sizeof want, "has_space", "has space", 1);
  CHECK_EQ_STR(menu_name(m, "has space"), want);
  CHECK(menu_name(m, clash) == NULL);
  cJSON_Delete(m);
  tsift_index_free(ix);
  /* strict: nothing is renamed, so look-alikes are an error naming both */
  tsift_error err;
  const char *two = "[{\"name\":\"Weather\"},{\"name\":\"other\"},{\"name\":\"weather\"}]";
  CHECK_EQ_INT(build_err(two, strlen(two), "{\"ids\":\"strict\"}", &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "tools[0] (\"Weather\") and tools[2] (\"weather\"): ids that differ only in case or "
                              "Unicode form look the same to a model");
  const char *nfc = "[{\"id\":\"ok\",\"name\":\"caf\\u00e9\"},{\"id\":\"\\uff21\",\"name\":\"x\"}]";
  CHECK_EQ_INT(build_err(nfc, strlen(nfc), NULL, &err), TSIFT_E_CONFIG); /* fullwidth: refused by every rule */
  CHECK_CONTAINS(err.message, "tools[1]");
}

static char *session_call(tsift_session *s, unsigned turn, const char *tool, const char *args) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  if (tsift_session_call(s, turn, 0, tool, strlen(tool), args, strlen(args), &out, &len, &err) != TSIFT_OK)
    fprintf(stderr, "call %s: %s\n", tool, err.message);
  return out;
}

#define SESSION_CATALOG                                                                                        \
  "{\"tools\":[{\"id\":\"vectra__Summarize Detection\",\"name\":\"Summarize Detection\","                     \
  "\"description\":\"Summarize a threat detection by its id\",\"origin\":\"local\"},"                          \
  "{\"id\":\"vectra__list_hosts\",\"name\":\"list_hosts\",\"description\":\"List hosts\",\"origin\":\"local\"}," \
  "{\"id\":\"vectra__Visualize Entity\",\"name\":\"Visualize Entity\",\"description\":\"Draw an entity graph\"," \
  "\"origin\":\"local\"},{\"id\":\"vectra__Quick Scan\",\"name\":\"Quick Scan\",\"description\":\"Scan\","    \
  "\"origin\":\"local\"}],"                                                                                   \
  "\"annotations\":{\"vectra__Quick Scan\":{\"tags\":[\"zebra\"]}}}"

static tsift_session *open_ids_session(const char *journal) {
  char cfg[2048];
  snprintf(cfg, sizeof cfg,
           "{\"loop\":\"t\",\"catalog\":%s,"
           "\"search\":{\"maxPerSearch\":5,\"alwaysLoaded\":[\"vectra__Visualize Entity\"]}}",
           SESSION_CATALOG);
  tsift_session *s = NULL;
  tsift_error err;
  if (tsift_session_new(cfg, strlen(cfg), journal, journal ? strlen(journal) : 0, NULL, 0, &s, &err) != TSIFT_OK) {
    fprintf(stderr, "session_new: %s\n", err.message);
    return NULL;
  }
  return s;
}

/* A session over a catalog with such ids: the menu, results, select:,
 * calls, the journal and its replay all use the menu name; the operator's
 * alwaysLoaded and the catalog's annotations name the catalog id. */
static void test_session_names(void) {
  char summarize[96], visualize[96], scan[96];
  expected(summarize, sizeof summarize, "vectra__Summarize_Detection", "vectra__Summarize Detection", 0);
  expected(visualize, sizeof visualize, "vectra__Visualize_Entity", "vectra__Visualize Entity", 0);
  expected(scan, sizeof scan, "vectra__Quick_Scan", "vectra__Quick Scan", 0);
  tsift_session *s = open_ids_session(NULL);
  CHECK(s != NULL);
  if (!s) return;
  char *m = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_session_menu_json(s, "openai", &m, &len, &err);
  CHECK_CONTAINS(m, visualize); /* alwaysLoaded by its catalog id */
  CHECK(m && !strstr(m, "Visualize Entity\""));
  tsift_free(m);
  const char *calls[][2] = {{"search_tools", "{\"query\":\"summarize detection\"}"},
                            {summarize, "{}"},
                            {"search_tools", "{\"query\":\"zebra\"}"},
                            {"search_tools", "{\"query\":\"select:list_hosts\"}"}};
  char *live[4];
  for (unsigned i = 0; i < 4; i++) live[i] = session_call(s, i, calls[i][0], calls[i][1]);
  char name[128];
  snprintf(name, sizeof name, "\"name\":\"%s\"", summarize);
  CHECK_CONTAINS(live[0], name);
  CHECK_CONTAINS(live[0], "\"loaded\":true");
  CHECK_CONTAINS(live[1], "\"allowed\":true");
  snprintf(name, sizeof name, "\"name\":\"%s\"", scan);
  CHECK_CONTAINS(live[2], name); /* the catalog's annotations, by catalog id, are searched */
  CHECK_CONTAINS(live[3], "Loaded by the full name: list_hosts is vectra__list_hosts.");
  char *j = NULL;
  tsift_session_journal_jsonl(s, &j, &len, &err);
  snprintf(name, sizeof name, "\"tool\":\"%s\"", summarize);
  CHECK_CONTAINS(j, name); /* the call record names what the model called */
  CHECK(j && !strstr(j, "Summarize Detection\""));
  tsift_session_free(s);
  s = open_ids_session(j);
  for (unsigned i = 0; s && i < 4; i++) {
    char *again = session_call(s, i, calls[i][0], calls[i][1]);
    CHECK_EQ_STR(again, live[i]);
    tsift_free(again);
  }
  tsift_session_free(s);
  for (unsigned i = 0; i < 4; i++) tsift_free(live[i]);
  tsift_free(j);
}

/* A snapshot makes the same names again (they are not stored), under the
 * rule it was built with. */
static void test_snapshot_names(void) {
  const char *cat = "[{\"name\":\"has space\"},{\"name\":\"Weather\"},{\"name\":\"weather\"}]";
  tsift_index *ix = build(cat), *back = NULL;
  CHECK(ix != NULL);
  if (!ix) return;
  char *blob = NULL;
  size_t len = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_snapshot(ix, &blob, &len, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_from_snapshot(blob, len, &back, &err), TSIFT_OK);
  cJSON *a = menu_names_of(ix), *b = back ? menu_names_of(back) : NULL;
  char *ta = cJSON_PrintUnformatted(a), *tb = cJSON_PrintUnformatted(b);
  CHECK_EQ_STR(tb, ta);
  CHECK_EQ_INT(cJSON_GetArraySize(a), 2);
  cJSON_free(ta);
  cJSON_free(tb);
  cJSON_Delete(a);
  cJSON_Delete(b);
  tsift_free(blob);
  tsift_index_free(ix);
  tsift_index_free(back);
}

int main(void) {
  test_safe_names();
  test_look_alikes();
  test_session_names();
  test_snapshot_names();
  return harness_finish("test_ids");
}
