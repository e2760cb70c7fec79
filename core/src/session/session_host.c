/* session_host.c — what a host that works with files needs (the CLIs): the
 * catalog file a configuration names, a session over that file's bytes, and
 * the calls of a calls file, one line at a time. Every byte of JSON is read
 * here, by the core's strict reader, so no host parses or prints JSON and
 * every host gives the same answer. */
#include <string.h>

#include "base/alloc.h"
#include "catalog/catalog.h"
#include "base/fmt.h"
#include "json/json_check.h"
#include "json/jsonl.h"
#include "session/session_internal.h"
#include "json/json_read.h"

tsift_status tsift_session_config_catalog(const char *config_json, size_t config_len, char **file,
                                          size_t *file_len, tsift_error *err) {
  if (!file) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_config_catalog: file is NULL");
  *file = NULL;
  if (file_len) *file_len = 0;
  cJSON *cfg = NULL;
  tsift_status st = tsift_json_parse(config_json, config_len, "config", &cfg, err);
  if (st) return st;
  const cJSON *catalog = cJSON_GetObjectItemCaseSensitive(cfg, "catalog");
  if (cJSON_IsString(catalog)) {
    size_t n = strlen(catalog->valuestring); /* no NUL inside: \u0000 is refused */
    *file = tsift_strndup(catalog->valuestring, n);
    if (!*file) st = tsift_nomem(err, "reading the configuration");
    else if (file_len) *file_len = n;
  }
  cJSON_Delete(cfg);
  if (!st) tsift_ok(err);
  return st;
}

/* The catalog file the configuration names, parsed into *doc: its errors
 * name the file. The configuration is read for the name first (it is small
 * when its catalog is in a file), and its errors come first, as
 * tsift_session_new would report them. */
static tsift_status parse_catalog_file(const char *config_json, size_t config_len, const char *bytes,
                                       size_t len, cJSON **doc, tsift_error *err) {
  cJSON *cfg = NULL;
  tsift_status st = tsift_json_parse(config_json, config_len, "config", &cfg, err);
  if (st) return st;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(cfg, "catalog");
  if (!cJSON_IsString(name)) {
    st = tsift_fail(err, TSIFT_E_ARG,
                    "tsift_session_open: a catalog file was given, but the configuration's \"catalog\" is not "
                    "a file name");
  } else {
    char what[256];
    tsift_snprintf(what, sizeof what, "catalog file %.200s", name->valuestring);
    st = tsift_json_parse(bytes, len, what, doc, err);
  }
  cJSON_Delete(cfg);
  return st;
}

tsift_status tsift_session_open(const char *config_json, size_t config_len, const char *catalog,
                                size_t catalog_len, const char *snapshot, size_t snapshot_len,
                                const char *journal, size_t journal_len, const char *options_json,
                                size_t options_len, tsift_session **out, tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_open: out is NULL");
  *out = NULL;
  tsift_index *index = NULL;
  cJSON *file = NULL;
  tsift_status st = snapshot ? tsift_index_from_snapshot(snapshot, snapshot_len, &index, err) : TSIFT_OK;
  if (!st && catalog) st = parse_catalog_file(config_json, config_len, catalog, catalog_len, &file, err);
  if (st) {
    tsift_index_free(index);
    return st;
  }
  return tsift_session_create(config_json, config_len, index, file, journal, journal_len, options_json, options_len,
                              out, err);
}

static const char CALL_SHAPE[] =
    "expected {\"turn\": integer, \"call\": integer, \"tool\": string, \"args\": {…}} or {\"turn\": integer, "
    "\"preSearch\": string}";

/* One line {"turn","call","tool","args"} (args may be left out: {}), or a
 * pre-search {"turn","preSearch"}. The
 * arguments are what the model sent, any JSON value: they go on as the bytes
 * the line holds, so a calls file and a host calling tsift_session_call
 * directly are one path (size bound, parse, the invalid_input refusal of
 * arguments that are not an object). */
static tsift_status call_line(tsift_session *s, const char *line, size_t n, char **out, size_t *out_len,
                              tsift_error *err) {
  cJSON *c = NULL;
  tsift_error perr;
  if (tsift_json_parse(line, n, "not a call", &c, &perr)) /* the parser's reason, with the byte in the line */
    return perr.status == TSIFT_E_NOMEM ? tsift_nomem(err, "reading the call")
                                        : tsift_fail(err, TSIFT_E_CONFIG, "%s", perr.message);
  const cJSON *turn = cJSON_GetObjectItemCaseSensitive(c, "turn");
  const cJSON *call = cJSON_GetObjectItemCaseSensitive(c, "call");
  const cJSON *tool = cJSON_GetObjectItemCaseSensitive(c, "tool");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(c, "args");
  const cJSON *pre = cJSON_GetObjectItemCaseSensitive(c, "preSearch");
  if (pre) { /* the host's pre-search of a user message before turn T */
    tsift_status st = cJSON_IsObject(c) && tsift_json_integral(turn, 0, 4294967295.0) && cJSON_IsString(pre) &&
                              cJSON_GetArraySize(c) == 2
                          ? tsift_session_pre_search(s, (uint32_t)turn->valuedouble, pre->valuestring,
                                                     strlen(pre->valuestring), out, out_len, err)
                          : tsift_fail(err, TSIFT_E_CONFIG, "%s", CALL_SHAPE);
    cJSON_Delete(c);
    return st;
  }
  if (!cJSON_IsObject(c) || !tsift_json_integral(turn, 0, 4294967295.0) ||
      !tsift_json_integral(call, 0, 4294967295.0) || !cJSON_IsString(tool)) {
    cJSON_Delete(c);
    return tsift_fail(err, TSIFT_E_CONFIG, "%s", CALL_SHAPE);
  }
  size_t a = 0, b = 2;
  const char *text = "{}";
  if (args) {
    size_t k = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, c) {
      if (m == args) break;
      k++;
    }
    tsift_json_member_value(line, n, k, &a, &b);
    text = line;
  }
  tsift_status st = tsift_session_call(s, (uint32_t)turn->valuedouble, (uint32_t)call->valuedouble,
                                       tool->valuestring, strlen(tool->valuestring), text + a, b - a, out,
                                       out_len, err);
  cJSON_Delete(c);
  return st;
}

tsift_status tsift_session_call_next(tsift_session *s, const char *calls, size_t len, size_t *pos,
                                     size_t *line, char **out, size_t *out_len, tsift_error *err) {
  if (!s || !out || !pos || !line || (!calls && len))
    return tsift_fail(err, TSIFT_E_ARG, "tsift_session_call_next: NULL argument");
  *out = NULL;
  if (out_len) *out_len = 0;
  if (*pos > len) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_call_next: position past the end");
  tsift_jsonl it = {calls, len, *pos, *line};
  const char *text;
  size_t n;
  int more = tsift_jsonl_next(&it, &text, &n);
  *pos = it.pos;
  *line = it.line;
  if (!more) {
    return tsift_ok(err);
  }
  tsift_status st = call_line(s, text, n, out, out_len, err);
  if (st) {
    char where[40];
    tsift_snprintf(where, sizeof where, "calls line %zu", it.line);
    tsift_error_prefix(err, st, where);
  }
  return st;
}
