/* session.c — one agent run's life cycle (SPEC S6, S7, S9): creating it
 * (the configuration is read by session_config.c, the session options and
 * the recorded journal here), the fingerprint, the calls and their
 * dispatch to the meta-tools, the menu, journal and metrics as outputs,
 * replay of a whole journal, and freeing it. Authority is decided here and
 * in the files it calls: the searchable universe, what may be loaded, and
 * how a recorded decision is re-admitted (it can only narrow). */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "base/fmt.h"
#include "catalog/ids.h"
#include "index/index.h"
#include "json/json_out.h"
#include "base/sha256.h"
#include "session/session_internal.h"
#include "session/overview.h"
#include "catalog/tool_spec.h"
#include "json/json_read.h"

/* ---- small helpers ---------------------------------------------------- */

static int agent_has(const tsift_session *s, const char *id) {
  return tsift_catalog_find(&s->agent, id) >= 0;
}

void tsift_session_free(tsift_session *s) {
  if (!s) return;
  if (!s->index_borrowed) tsift_index_free(s->index);
  tsift_catalog_free(&s->agent);
  tsift_free(s->loop);
  tsift_free(s->tool_name);
  tsift_chain_free(s);
  for (size_t i = 0; i < s->nnamespaces; i++) tsift_free(s->namespaces[i]);
  TSIFT_FREE_ALL(s->namespaces, s->by_name, s->ns_allowed, s->on_menu, s->menu);
  tsift_buf_free(&s->journal);
  cJSON_Delete(s->replay);
  tsift_free(s->replay_items);
  tsift_session_drop_pending(s);
  tsift_free(s->ranker_kind);
  tsift_session_drop_qvec(s);
  tsift_free(s->overview);
  tsift_skills_free(s->skills);
  TSIFT_FREE_ALL(s->calls, s->client, s);
}

/* ---- the fingerprint -------------------------------------------------- */

/* What the configuration decided, hashed: a journal's header names it, so a
 * replay under another configuration is told apart. */
static void compute_fingerprint(tsift_session *s) {
  tsift_sha256 h;
  tsift_sha256_init(&h);
  const char *parts[] = {"toolsift-session-1", s->index->fingerprint, s->loop, s->tool_name};
  for (size_t i = 0; i < 4; i++) tsift_sha256_update(&h, parts[i], strlen(parts[i]) + 1);
  char caps[96];
  int n = tsift_snprintf(caps, sizeof caps, "%u/%u/%u/%ld", s->max_per_search, s->max_loaded,
                         s->max_searches, s->max_menu_chars);
  tsift_sha256_update(&h, caps, (size_t)n + 1);
  if (s->pre_search_limit != PRE_SEARCH_LIMIT_DEFAULT) { /* so that other sessions keep their fingerprint */
    n = tsift_snprintf(caps, sizeof caps, "pre=%u", s->pre_search_limit);
    tsift_sha256_update(&h, caps, (size_t)n + 1);
  }
  n = tsift_snprintf(caps, sizeof caps, "load=%s/%ld/%ld/%ld", s->load_strong ? "strong" : "all",
                     (long)(s->rule.coverage * 1000.0 + 0.5), (long)(s->rule.pair_coverage * 1000.0 + 0.5),
                     (long)(s->rule.relative * 1000.0 + 0.5));
  tsift_sha256_update(&h, caps, (size_t)n + 1);
  tsift_sha256_update(&h, s->overview ? s->overview : "", (s->overview ? strlen(s->overview) : 0) + 1);
  for (size_t i = 0; i < s->nnamespaces; i++)
    tsift_sha256_update(&h, s->namespaces[i], strlen(s->namespaces[i]) + 1);
  tsift_sha256_update(&h, "|", 2);
  for (size_t i = 0; i < s->nalways; i++) {
    const char *id = s->index->catalog.tools[s->menu[i]].id;
    tsift_sha256_update(&h, id, strlen(id) + 1);
  }
  tsift_sha256_update(&h, "|", 2);
  for (size_t i = 0; i < s->agent.count; i++)
    tsift_sha256_update(&h, s->agent.tools[i].id, strlen(s->agent.tools[i].id) + 1);
  if (s->auto_on) { /* only when asked for, so other sessions keep their fingerprint */
    n = tsift_snprintf(caps, sizeof caps, "|auto|%u/%u/%s", s->auto_max_tools, s->auto_max_chars,
                       s->menu_all ? "all" : "search");
    tsift_sha256_update(&h, caps, (size_t)n + 1);
  }
  if (s->skills) { /* only when on, so sessions without skills keep their fingerprint */
    const tsift_skills *sk = s->skills;
    n = tsift_snprintf(caps, sizeof caps, "|skills|%u/%u/%u/%u/%d", sk->max_active, sk->max_index,
                       sk->max_index_bytes, sk->max_instruction_bytes, sk->discovery);
    tsift_sha256_update(&h, caps, (size_t)n + 1);
    tsift_sha256_update(&h, sk->tool_name, strlen(sk->tool_name) + 1);
    for (size_t i = 0; i < sk->n; i++) {
      tsift_sha256_update(&h, sk->items[i].id, strlen(sk->items[i].id) + 1);
      tsift_sha256_update(&h, sk->items[i].digest, 65);
      tsift_sha256_update(&h, sk->selected[i] ? "s" : "-", 2);
    }
  }
  uint8_t d[32];
  tsift_sha256_final(&h, d);
  tsift_sha256_hex(d, s->fingerprint);
}

/* Session option "client": a name for who the run serves (the gateway's
 * token name), recorded in the journal header so that learning can tell
 * one client's many runs from many clients' (learn.c). 1-64 bytes without
 * control characters. */
#define CLIENT_MAX_BYTES 64
static tsift_status read_client(tsift_session *s, const cJSON *v, tsift_error *err) {
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  size_t n = cJSON_IsString(v) ? strlen(v->valuestring) : 0;
  int ok = n >= 1 && n <= CLIENT_MAX_BYTES;
  for (size_t i = 0; ok && i < n; i++) ok = (unsigned char)v->valuestring[i] >= 0x20 && v->valuestring[i] != 0x7f;
  if (!ok)
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "session options: client: expected a name of 1 to 64 bytes without control characters");
  s->client = tsift_strndup(v->valuestring, n);
  return s->client ? TSIFT_OK : tsift_nomem(err, "reading the session options");
}

/* ---- journal input ---------------------------------------------------- */

static tsift_status read_journal(tsift_session *s, const char *text, size_t len, tsift_error *err) {
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
  tsift_status st;
  if (i < len && text[i] == '[') {
    st = tsift_json_parse(text, len, "journal", &s->replay, err);
    if (st) return st;
    if (!cJSON_IsArray(s->replay)) return tsift_fail(err, TSIFT_E_CONFIG, "journal: expected an array");
  } else {
    s->replay = cJSON_CreateArray();
    if (!s->replay) return tsift_nomem(err, "reading the journal");
    size_t pos = 0, line_no = 0;
    while (pos < len) {
      size_t end = pos;
      while (end < len && text[end] != '\n') end++;
      line_no++;
      size_t a = pos, n = end - pos;
      pos = end + 1;
      size_t blank = 0;
      while (blank < n && (text[a + blank] == ' ' || text[a + blank] == '\t' || text[a + blank] == '\r'))
        blank++;
      if (blank == n) continue;
      char what[40];
      tsift_snprintf(what, sizeof what, "journal line %zu", line_no);
      cJSON *d = NULL;
      if ((st = tsift_json_parse(text + a, n, what, &d, err))) return st;
      if (!cJSON_AddItemToArray(s->replay, d)) {
        cJSON_Delete(d);
        return tsift_nomem(err, "reading the journal");
      }
    }
  }
  /* Each decision needs an id and a source to be matched; its value is
   * re-checked when it is served. A chain header (journal_chain.c) is the
   * first line, not a decision. */
  size_t k = 0;
  const cJSON *d, *header = tsift_chain_is_header(s->replay->child) ? s->replay->child : NULL;
  s->nreplay = (size_t)cJSON_GetArraySize(s->replay) - (header != NULL);
  s->replay_items = tsift_calloc_array(s->nreplay + 1, sizeof *s->replay_items);
  if (!s->replay_items) return tsift_nomem(err, "reading the journal");
  cJSON_ArrayForEach(d, s->replay) if (d != header) s->replay_items[k++] = d;
  for (k = 0; k < s->nreplay; k++) {
    d = s->replay_items[k];
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(d, "id");
    if (!cJSON_IsObject(d))
      return tsift_fail(err, TSIFT_E_CONFIG, "journal decision %zu: expected an object, got %s", k + 1,
                        tsift_json_type_name(d));
    if (!cJSON_IsString(id))
      return tsift_fail(err, TSIFT_E_CONFIG, "journal decision %zu: field \"id\": expected a string, got %s",
                        k + 1, tsift_json_type_name(id));
  }
  return tsift_chain_verify(s, header, err);
}

/* Create a session; `index` (may be NULL) is a prebuilt index the session
 * takes over, e.g. one loaded from a snapshot, or borrows (eval); `file` the
 * parsed catalog file the configuration names (taken over too). */
static tsift_status session_new(const char *config_json, size_t config_len, tsift_index *index, int borrowed,
                                cJSON *file, const char *journal, size_t journal_len, const char *options_json,
                                size_t options_len, tsift_session **out, tsift_error *err) {
  tsift_session *s = tsift_calloc_array(1, sizeof *s);
  if (!s) {
    if (!borrowed) tsift_index_free(index);
    cJSON_Delete(file);
    return tsift_nomem(err, "creating the session");
  }
  s->index = index;
  s->index_borrowed = (uint8_t)borrowed;
  tsift_buf_init(&s->journal);
  /* The options are parsed first (their vocabulary goes into the catalog's
   * index) and checked after the configuration, whose errors come first. */
  cJSON *opts = NULL;
  tsift_error opts_err;
  tsift_status opts_st = options_json && options_len
                             ? tsift_json_parse(options_json, options_len, "session options", &opts, &opts_err)
                             : TSIFT_OK;
  if (opts_st == TSIFT_E_NOMEM) *err = opts_err;
  const cJSON *vocabulary = cJSON_GetObjectItemCaseSensitive(opts, "annotations");
  cJSON *cfg = NULL;
  tsift_status st = opts_st == TSIFT_E_NOMEM ? opts_st : tsift_json_parse(config_json, config_len, "config", &cfg, err);
  if (!st) st = tsift_session_read_config(s, cfg, &file, vocabulary, err);
  cJSON_Delete(cfg);
  cJSON_Delete(file); /* when no index took it over (a snapshot's skills, or an error) */
  if (!st && opts_st) {
    *err = opts_err;
    st = opts_st;
  }
  if (!st && opts) {
    {
      const cJSON *dv = cJSON_GetObjectItemCaseSensitive(opts, "divergence");
      const cJSON *item;
      cJSON_ArrayForEach(item, opts) {
        if (strcmp(item->string, "divergence") != 0 && strcmp(item->string, "journalKey") != 0 &&
            strcmp(item->string, "journalParent") != 0 && strcmp(item->string, "client") != 0 &&
            strcmp(item->string, "annotations") != 0) {
          st = tsift_fail(err, TSIFT_E_CONFIG, "session options: unknown key \"%.40s\"", item->string);
          break;
        }
      }
      if (!st && dv) {
        if (cJSON_IsString(dv) && strcmp(dv->valuestring, "fail") == 0) s->divergence = DIVERGE_FAIL;
        else if (cJSON_IsString(dv) && strcmp(dv->valuestring, "warn") == 0) s->divergence = DIVERGE_WARN;
        else if (cJSON_IsString(dv) && strcmp(dv->valuestring, "off") == 0) s->divergence = DIVERGE_OFF;
        else st = tsift_fail(err, TSIFT_E_CONFIG, "session options: divergence: expected \"fail\", \"warn\" or \"off\"");
      }
      if (!st) st = read_client(s, cJSON_GetObjectItemCaseSensitive(opts, "client"), err);
      if (!st)
        st = tsift_chain_options(s, cJSON_GetObjectItemCaseSensitive(opts, "journalKey"),
                                 cJSON_GetObjectItemCaseSensitive(opts, "journalParent"), err);
    }
  } else if (!st) {
    st = tsift_chain_options(s, NULL, NULL, err);
  }
  cJSON_Delete(opts);
  /* The fingerprint first: the journal's header is checked against it. */
  if (!st) compute_fingerprint(s);
  /* The recorded journal before the header this session writes: a replay
   * that names no client continues the recorded one's (journal_chain.c). */
  if (!st && journal) st = read_journal(s, journal, journal_len, err);
  if (!st) st = tsift_chain_open(s, err);
  if (st) {
    tsift_session_free(s);
    return st;
  }
  *out = s;
  return tsift_ok(err);
}

tsift_status tsift_session_new(const char *config_json, size_t config_len, const char *journal,
                               size_t journal_len, const char *options_json, size_t options_len,
                               tsift_session **out, tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_new: out is NULL");
  *out = NULL;
  return session_new(config_json, config_len, NULL, 0, NULL, journal, journal_len, options_json, options_len, out,
                     err);
}

tsift_status tsift_session_new_from_snapshot(const char *config_json, size_t config_len, const char *snapshot,
                                             size_t snapshot_len, const char *journal, size_t journal_len,
                                             const char *options_json, size_t options_len,
                                             tsift_session **out, tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_new_from_snapshot: out is NULL");
  *out = NULL;
  tsift_index *index = NULL;
  tsift_status st = tsift_index_from_snapshot(snapshot, snapshot_len, &index, err);
  if (st) return st;
  return session_new(config_json, config_len, index, 0, NULL, journal, journal_len, options_json, options_len, out,
                     err);
}

tsift_status tsift_session_create(const char *config_json, size_t config_len, tsift_index *index,
                                  cJSON *catalog_file, const char *journal, size_t journal_len,
                                  const char *options_json, size_t options_len, tsift_session **out,
                                  tsift_error *err) {
  return session_new(config_json, config_len, index, 0, catalog_file, journal, journal_len, options_json, options_len,
                     out, err);
}

tsift_status tsift_session_over_index(const char *config_json, size_t config_len, tsift_index *index,
                                      const char *options_json, size_t options_len, tsift_session **out,
                                      tsift_error *err) {
  *out = NULL;
  return session_new(config_json, config_len, index, 1, NULL, NULL, 0, options_json, options_len, out, err);
}

/* A meta-tool call: arguments read (bounded, valid JSON) before `handle`
 * answers; unreadable arguments are the refusal invalid_input. */
typedef tsift_status (*meta_handler)(tsift_session *, const call_ref *, const cJSON *, char **, size_t *,
                                     tsift_error *);
static tsift_status meta_call(tsift_session *s, const call_ref *c, const char *args_json, size_t args_len,
                              meta_handler handle, char **out, size_t *out_len, tsift_error *err) {
  if (args_len > ARGS_MAX_BYTES)
    return tsift_session_refuse(s, c, "invalid_input", "arguments are too large", NULL, out, out_len, err);
  cJSON *args = NULL;
  tsift_error perr;
  if (tsift_json_parse(args_json ? args_json : "", args_len, "arguments", &args, &perr) != TSIFT_OK)
    return perr.status == TSIFT_E_NOMEM
               ? tsift_nomem(err, "reading arguments")
               : tsift_session_refuse(s, c, "invalid_input", "arguments must be a JSON object (valid JSON in UTF-8)",
                                      NULL, out, out_len, err);
  tsift_status st = handle(s, c, args, out, out_len, err);
  cJSON_Delete(args);
  return st;
}

/* The journal line of a call to catalog doc d, or of its failure: one
 * record a call, not a decision (replay passes over it). 0 when out of
 * memory (nothing recorded). */
static int write_call_record(tsift_session *s, const call_ref *c, uint32_t d, const char *source) {
  tsift_buf b;
  tsift_buf_init(&b);
  char id[200];
  tsift_snprintf(id, sizeof id, "%s#turn:%u:tool:%u:call", s->loop, c->turn, c->call);
  tsift_json_begin_object(&b);
  tsift_json_key_cstr(&b, "id", id);
  tsift_json_key_cstr(&b, "source", source);
  tsift_json_key(&b, "value");
  tsift_json_begin_object(&b);
  tsift_json_key_cstr(&b, "tool", s->index->catalog.tools[d].menu_name);
  tsift_json_end_object(&b);
  tsift_json_end_object(&b);
  int ok = !b.failed && tsift_session_record(s, b.data, b.len);
  tsift_buf_free(&b);
  return ok;
}

static int record_call(tsift_session *s, const call_ref *c, uint32_t d) {
  if (s->ncalls == s->calls_cap && tsift_grow((void **)&s->calls, &s->calls_cap, s->ncalls + 1, sizeof *s->calls))
    return 0;
  if (!write_call_record(s, c, d, CALL_SOURCE)) return 0;
  s->calls[s->ncalls++] = (struct allowed_call){c->turn, c->call, d, 0};
  return 1;
}

tsift_status tsift_session_call_failed(tsift_session *s, uint32_t turn, uint32_t call, const char *tool,
                                       size_t tool_len, tsift_error *err) {
  if (!s || (!tool && tool_len)) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_call_failed: NULL argument");
  long d = -1;
  if (tool && tool_len <= 1024 && memchr(tool, 0, tool_len) == NULL) {
    char *name = tsift_strndup(tool, tool_len);
    if (!name) return tsift_nomem(err, "recording a failed call");
    d = tsift_session_find_doc(s, name);
    tsift_free(name);
  }
  for (size_t i = s->ncalls; d >= 0 && i-- > 0;) {
    struct allowed_call *a = &s->calls[i];
    if (a->turn != turn || a->call != call || a->doc != (uint32_t)d) continue;
    if (!a->failed) {
      call_ref c = {turn, call, NULL, 0};
      if (!write_call_record(s, &c, a->doc, CALL_FAILED_SOURCE)) return tsift_nomem(err, "recording a failed call");
      a->failed = 1;
    }
    return tsift_ok(err);
  }
  return tsift_fail(err, TSIFT_E_ARG, "tsift_session_call_failed: no call to a catalog tool of that name was allowed "
                    "at turn %u call %u", turn, call);
}

/* The longest name a call can match: ids are at most 1024 bytes (lenient,
 * catalog.h), every other name is shorter. */
#define CALL_NAME_MAX_BYTES 1024

tsift_status tsift_session_call(tsift_session *s, uint32_t turn, uint32_t call, const char *tool,
                                size_t tool_len, const char *args_json, size_t args_len, char **out,
                                size_t *out_len, tsift_error *err) {
  if (!s || !out || (!tool && tool_len)) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_call: NULL argument");
  *out = NULL;
  if (out_len) *out_len = 0;
  if (s->pending)
    return tsift_fail(err, TSIFT_E_STATE,
                      "a search is waiting for its ranking: answer it with tsift_session_ranked");
  /* No tool, agent or meta tool has a name longer than an id may be
   * (CALL_NAME_MAX_BYTES), so a longer name matches nothing and only its
   * start is echoed (at most 128 bytes): cut the raw bytes before replacing
   * invalid ones, as queries are (replacing never shortens, so the echo is
   * the same), and a huge name costs no huge copy. */
  int too_long = tool_len > CALL_NAME_MAX_BYTES;
  char *name = tsift_utf8_sanitize(tool ? tool : "", too_long ? CALL_NAME_MAX_BYTES + 3 : tool_len, &tool_len);
  if (!name) return tsift_nomem(err, "handling a call");
  tsift_status st;
  call_ref c = {turn, call, name, 0};
  /* a name with a NUL byte inside never matches a tool */
  int clean = !too_long && strlen(name) == tool_len;
  if (clean && !s->menu_all && strcmp(name, s->tool_name) == 0) { /* with every tool on the menu, no search */
    st = meta_call(s, &c, args_json, args_len, tsift_session_search, out, out_len, err);
  } else if (clean && s->skills && strcmp(name, s->skills->tool_name) == 0) {
    st = meta_call(s, &c, args_json, args_len, tsift_session_activate, out, out_len, err);
  } else {
    long d = clean ? tsift_session_find_doc(s, name) : -1;
    int on_menu = clean && (agent_has(s, name) || (d >= 0 && s->on_menu[d]));
    if (on_menu) {
      tsift_buf b;
      tsift_buf_init(&b);
      tsift_session_begin_output(&b, &c);
      tsift_json_key(&b, "result");
      tsift_json_raw(&b, "{\"allowed\":true}", 16);
      tsift_json_key(&b, "decision");
      tsift_json_null(&b);
      tsift_json_end_object(&b);
      *out = tsift_buf_take(&b, out_len);
      st = *out ? TSIFT_OK : tsift_nomem(err, "handling a call");
      /* A catalog tool's call is recorded (the agent's own tools are the
       * host's business): what the model called is what learning reads.
       * Last, so that a failure changes nothing. */
      if (!st && d >= 0 && !record_call(s, &c, (uint32_t)d)) {
        tsift_free(*out);
        *out = NULL;
        st = tsift_nomem(err, "recording a call");
      }
      if (!st) tsift_ok(err);
    } else {
      /* with every tool on the menu there is nothing to search (auto mode) */
      const char *why = s->menu_all ? "this tool is not on the menu, and every tool this session has already is"
                                    : "this tool is not on the menu; search for it first";
      st = tsift_session_refuse(s, &c, "not_on_menu", why, name, out, out_len, err);
    }
  }
  tsift_free(name);
  return st;
}

/* ---- menu, journal, metrics, finish ----------------------------------- */

static int parse_format(const char *f, tsift_format *out) {
  if (!f || strcmp(f, "mcp") == 0) *out = TSIFT_FORMAT_MCP;
  else if (strcmp(f, "openai") == 0) *out = TSIFT_FORMAT_OPENAI;
  else if (strcmp(f, "anthropic") == 0) *out = TSIFT_FORMAT_ANTHROPIC;
  else return -1;
  return 0;
}

/* The search meta-tool's description: how to search, what a result means
 * under the load policy, select: and +word, then the catalog overview
 * (overview.c) — all fixed for the run, so the prompt prefix stays
 * cache-stable. */
static void meta_tool_description(const tsift_session *s, tsift_buf *b) {
  const char *parts[] = {
      "Search the tool catalog with a natural-language query: name the action and the product or object in a "
      "few words. ",
      s->load_strong ? "Tools that match the request well are added to your tools for the next step; weaker matches "
                       "are listed with loaded: false. Load listed tools"
                     : "Matching tools are added to your tools for the next step. Load tools",
      " by name with the query select:name1,name2. Put + before a word every result must contain (+postgres). "
      "Tools you already have are not returned."};
  for (size_t i = 0; i < 3; i++) tsift_buf_append(b, parts[i], strlen(parts[i]));
  if (s->overview) {
    tsift_buf_append(b, "\n\n", 2);
    tsift_buf_append(b, s->overview, strlen(s->overview));
  }
}

tsift_status tsift_session_menu_json(const tsift_session *s, const char *format, char **out,
                                     size_t *out_len, tsift_error *err) {
  if (!s || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_menu_json: NULL argument");
  tsift_format f;
  if (parse_format(format, &f))
    return tsift_fail(err, TSIFT_E_ARG, "menu: format must be \"mcp\", \"openai\" or \"anthropic\"");
  char schema[400];
  tsift_snprintf(schema, sizeof schema,
                 "{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\",\"description\":\"What "
                 "you want to do, in a few words.\"},\"limit\":{\"type\":\"integer\",\"minimum\":1,"
                 "\"maximum\":%u,\"description\":\"The most tools to return.\"}},\"required\":[\"query\"]}",
                 s->max_per_search);
  tsift_buf b;
  tsift_buf_init(&b);
  if (f == TSIFT_FORMAT_MCP) {
    tsift_json_begin_object(&b);
    tsift_json_key(&b, "tools");
  }
  tsift_json_begin_array(&b);
  tsift_buf desc;
  tsift_buf_init(&desc);
  meta_tool_description(s, &desc);
  if (desc.failed) {
    tsift_buf_free(&desc);
    tsift_buf_free(&b);
    return tsift_nomem(err, "writing the menu");
  }
  if (!s->menu_all) tsift_spec_write_raw(&b, s->tool_name, desc.data, schema, f);
  tsift_buf_free(&desc);
  if (s->skills)
    tsift_spec_write_raw(&b, s->skills->tool_name,
                         "Activate a skill by its name: returns the skill's instructions and adds its tools "
                         "to your tools for the next step.",
                         "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\",\"description\":"
                         "\"The skill's name, as listed or found by search.\"}},\"required\":[\"name\"]}",
                         f);
  for (size_t i = 0; i < s->agent.count; i++) tsift_spec_write(&b, &s->agent.tools[i], f);
  for (size_t i = 0; i < s->nmenu; i++) tsift_spec_write(&b, &s->index->catalog.tools[s->menu[i]], f);
  tsift_json_end_array(&b);
  if (f == TSIFT_FORMAT_MCP) tsift_json_end_object(&b);
  return tsift_buf_finish(&b, out, out_len, "writing the menu", err);
}

tsift_status tsift_session_journal_jsonl(const tsift_session *s, char **out, size_t *out_len,
                                         tsift_error *err) {
  if (!s || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_journal_jsonl: NULL argument");
  *out = tsift_strndup(s->journal.data ? s->journal.data : "", s->journal.len);
  if (!*out) return tsift_nomem(err, "copying the journal");
  if (out_len) *out_len = s->journal.len;
  return tsift_ok(err);
}

tsift_status tsift_session_metrics_json(const tsift_session *s, char **out, size_t *out_len,
                                        tsift_error *err) {
  if (!s || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_metrics_json: NULL argument");
  tsift_buf b;
  tsift_json_open_object(&b);
  const char *keys[] = {"searches", "refusals", "hits", "noMatch", "loaded", "rankerCalls", "replayed", "preSearches"};
  size_t vals[] = {s->metrics.searches, s->metrics.refusals,     s->metrics.hits,     s->metrics.no_match,
                   s->metrics.loaded,   s->metrics.ranker_calls, s->metrics.replayed, s->metrics.pre_searches};
  for (size_t i = 0; i < 8; i++) tsift_json_key_int(&b, keys[i], (long long)vals[i]);
  if (s->skills) {
    tsift_json_key_int(&b, "activations", (long long)s->skills->activations);
    tsift_json_key_int(&b, "activeSkills", (long long)s->skills->nactive);
  }
  /* "all": every tool on the menu, no search (search.auto) */
  tsift_json_key_cstr(&b, "mode", s->menu_all ? "all" : "search");
  tsift_json_key_int(&b, "menu", (long long)((s->menu_all ? 0 : 1) + (s->skills ? 1 : 0) + s->agent.count + s->nmenu));
  tsift_json_key_int(&b, "menuChars", (long long)s->menu_chars);
  tsift_json_key_cstr(&b, "fingerprint", s->fingerprint);
  tsift_json_end_object(&b);
  return tsift_buf_finish(&b, out, out_len, "writing metrics", err);
}

/* The rest of a journal decision id after "<loop>#turn:", as the core
 * writes it: "<turn>:tool:<call>:search" (or ":skill"; a pre-search's is
 * "<turn>:pre-search"), each number plain
 * decimal digits up to 4294967295. Anything else (a sign, white space, an
 * overflow, text after the kind) is no decision id: "turn:-1" is reported
 * as written, never read as 4294967295. */
static const char *scan_uint(const char *s, unsigned *out) {
  if (*s < '0' || *s > '9') return NULL;
  unsigned long long v = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    v = v * 10 + (unsigned)(*s - '0');
    if (v > 0xffffffffull) return NULL;
  }
  *out = (unsigned)v;
  return s;
}

static int scan_decision_id(const char *s, unsigned *turn, unsigned *call, char tail[16]) {
  if (!(s = scan_uint(s, turn)) || strncmp(s, ":tool:", 6) != 0 || !(s = scan_uint(s + 6, call)) || *s != ':')
    return 0;
  s++;
  size_t n = strlen(s);
  if (n == 0 || n > 15) return 0;
  memcpy(tail, s, n + 1);
  return 1;
}

tsift_status tsift_session_apply_journal(tsift_session *s, tsift_error *err) {
  if (!s) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_apply_journal: NULL argument");
  size_t total = s->nreplay;
  char prefix[160];
  int plen = tsift_snprintf(prefix, sizeof prefix, "%s#turn:", s->loop);
  for (;;) {
    tsift_replay_skip_records(s, NULL);
    if (s->replay_pos >= total) break;
    const cJSON *rec = s->replay_items[s->replay_pos];
    const char *id = cJSON_GetObjectItemCaseSensitive(rec, "id")->valuestring;
    unsigned turn = 0, call = 0;
    char tail[16] = "";
    int is_skill = 0;
    const char *after = strncmp(id, prefix, (size_t)plen) == 0 ? scan_uint(id + plen, &turn) : NULL;
    if (after && strcmp(after, ":pre-search") == 0) { /* the host's: its recorded text again */
      const cJSON *q = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, "value"), "query");
      const char *text = cJSON_IsString(q) ? q->valuestring : "";
      char *out = NULL;
      size_t before = s->replay_pos;
      tsift_status st = tsift_session_pre_search(s, turn, text, strlen(text), &out, NULL, err);
      tsift_free(out);
      if (st) return st;
      if (s->replay_pos == before) s->replay_pos++;
      continue;
    }
    if (strncmp(id, prefix, (size_t)plen) != 0 || !scan_decision_id(id + plen, &turn, &call, tail) ||
        !(strcmp(tail, "search") == 0 || (is_skill = s->skills && strcmp(tail, "skill") == 0)))
      return tsift_fail(err, TSIFT_E_DIVERGED, "replay: decision %zu (\"%.80s\") is not a %s of loop \"%s\"",
                        s->replay_pos + 1, id, s->skills ? "search or skill activation" : "search", s->loop);
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(rec, "value");
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(value, is_skill ? "skill" : "query");
    cJSON *args = cJSON_CreateObject();
    if (!args || !cJSON_AddStringToObject(args, is_skill ? "name" : "query",
                                          cJSON_IsString(q) && q->valuestring[0] ? q->valuestring : "(recorded)")) {
      cJSON_Delete(args);
      return tsift_nomem(err, "replaying the journal");
    }
    call_ref c = {turn, call, is_skill ? s->skills->tool_name : s->tool_name, 0};
    char *out = NULL;
    size_t out_len = 0;
    size_t before = s->replay_pos;
    tsift_status st = is_skill ? tsift_session_activate(s, &c, args, &out, &out_len, err)
                               : tsift_session_search(s, &c, args, &out, &out_len, err);
    cJSON_Delete(args);
    tsift_free(out);
    if (st) return st;
    if (s->replay_pos == before) s->replay_pos++; /* refused (e.g. caps): skip it */
  }
  return tsift_ok(err);
}

tsift_status tsift_session_finish(tsift_session *s, char **out, size_t *out_len, tsift_error *err) {
  if (!s || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_finish: NULL argument");
  size_t total = s->nreplay;
  tsift_buf b;
  tsift_json_open_object(&b);
  tsift_json_key(&b, "unasked");
  tsift_json_begin_array(&b);
  size_t unasked = 0;
  const cJSON *first = NULL;
  for (size_t i = s->replay_pos; i < total; i++) {
    if (tsift_journal_is_call_record(s->replay_items[i])) continue; /* calls are not asked for */
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(s->replay_items[i], "id");
    tsift_json_cstr(&b, cJSON_IsString(id) ? id->valuestring : "");
    if (!unasked++) first = id;
  }
  tsift_json_end_array(&b);
  tsift_json_end_object(&b);
  if (unasked && s->divergence == DIVERGE_FAIL) {
    tsift_buf_free(&b);
    return tsift_fail(err, TSIFT_E_DIVERGED, "replay: %zu journal decision(s) never asked for, first \"%.80s\"",
                      unasked, cJSON_IsString(first) ? first->valuestring : "");
  }
  return tsift_buf_finish(&b, out, out_len, "finishing the session", err);
}

tsift_status tsift_session_skill_index(const tsift_session *s, char **out, size_t *out_len, tsift_error *err) {
  if (!s || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_skill_index: NULL argument");
  *out = NULL;
  if (out_len) *out_len = 0;
  if (!s->skills) {
    *out = tsift_strndup("", 0);
    if (!*out) return tsift_nomem(err, "writing the skill index");
    return tsift_ok(err);
  }
  return tsift_skills_prompt(s->skills, s->tool_name, out, out_len, err);
}
