/* session_common.c — what every session call shares (session.c,
 * session_search.c, session_skill.c use it; it uses none of them): catalog
 * lookups by id, the menu, the order of decisions,
 * the output envelope and typed refusals, and warnings. */
#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "catalog/ids.h"
#include "session/session_internal.h"

/* ---- lookups and the menu --------------------------------------------- */

/* By menu name (what the model and journals say), then by the catalog id
 * of a renamed tool (what an operator's configuration may say); no name is
 * both (ids.c). */
long tsift_session_find_doc(const tsift_session *s, const char *id) {
  long d = tsift_find_doc_by_menu_name(s->index, s->by_name, id);
  return d >= 0 ? d : tsift_catalog_find_renamed(&s->index->catalog, id, 0);
}

void tsift_session_menu_add(tsift_session *s, uint32_t d) {
  if (s->on_menu[d]) return;
  s->on_menu[d] = 1;
  s->menu[s->nmenu++] = d;
}

/* ---- warnings, the journal, outputs ----------------------------------- */

void tsift_warn(warnings *w, const char *fmt, const char *a, const char *b) {
  if (w->n >= MAX_WARNINGS) return;
  char msg[256];
  tsift_snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
  size_t n = tsift_utf8_cut(msg, strlen(msg), sizeof msg - 1);
  w->items[w->n] = tsift_strndup(msg, n);
  if (!w->items[w->n]) w->nomem = 1;
  else w->n++;
}

void tsift_warnings_free(warnings *w) {
  for (size_t i = 0; i < w->n; i++) tsift_free(w->items[i]);
  w->n = 0;
}

void tsift_write_warnings(tsift_buf *b, const warnings *w) {
  if (!w->n) return;
  tsift_json_key(b, "warnings");
  tsift_json_begin_array(b);
  for (size_t i = 0; i < w->n; i++) tsift_json_cstr(b, w->items[i]);
  tsift_json_end_array(b);
}

tsift_status tsift_session_check_advance(const tsift_session *s, const call_ref *c, const char *what,
                                         tsift_error *err) {
  if (!s->ndecisions) return TSIFT_OK;
  /* order: turn, then a turn's pre-search before its calls, then call */
  int ahead = c->turn > s->last_turn ||
              (c->turn == s->last_turn && !c->pre && (s->last_pre || c->call > s->last_call));
  if (ahead) return TSIFT_OK;
  if (c->pre)
    return tsift_fail(err, TSIFT_E_ARG,
                      "pre-search at turn %u: a turn's pre-search comes before its calls, and turn %u already has "
                      "a decision",
                      c->turn, s->last_turn);
  if (s->last_pre)
    return tsift_fail(err, TSIFT_E_ARG, "%s at turn %u call %u: calls must advance past turn %u's pre-search", what,
                      c->turn, c->call, s->last_turn);
  return tsift_fail(err, TSIFT_E_ARG,
                    "%s at turn %u call %u: calls must advance past turn %u call %u, which "
                    "already has a decision",
                    what, c->turn, c->call, s->last_turn, s->last_call);
}

void tsift_search_decision_id(const tsift_session *s, const call_ref *c, char *buf, size_t n) {
  if (c->pre) tsift_snprintf(buf, n, "%s#turn:%u:pre-search", s->loop, c->turn);
  else tsift_snprintf(buf, n, "%s#turn:%u:tool:%u:search", s->loop, c->turn, c->call);
}

int tsift_session_discovers(const tsift_session *s) {
  return s->skills && (s->skills->discovery & DISCOVERY_SEARCH);
}

void tsift_session_begin_output(tsift_buf *b, const call_ref *c) {
  tsift_json_begin_object(b);
  tsift_json_key(b, "call");
  tsift_json_begin_object(b);
  tsift_json_key_int(b, "turn", c->turn);
  if (c->pre) { /* the host's, not a model's call */
    tsift_json_key_bool(b, "preSearch", 1);
    tsift_json_end_object(b);
    return;
  }
  tsift_json_key_int(b, "call", c->call);
  tsift_json_key_str(b, "tool", c->tool, tsift_utf8_cut(c->tool, strlen(c->tool), 128));
  tsift_json_end_object(b);
}

tsift_status tsift_session_refuse_echo(tsift_session *s, const call_ref *c, const char *code, const char *message,
                                       const char *key, const char *name, char **out, size_t *out_len,
                                       tsift_error *err) {
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_session_begin_output(&b, c);
  tsift_json_key(&b, "result");
  tsift_json_begin_object(&b);
  tsift_json_key_cstr(&b, "error", code);
  tsift_json_key_cstr(&b, "message", message);
  if (name) tsift_json_key_str(&b, key, name, tsift_utf8_cut(name, strlen(name), NAME_ECHO_BYTES));
  tsift_json_end_object(&b);
  tsift_json_key(&b, "decision");
  tsift_json_null(&b);
  tsift_json_end_object(&b);
  *out = tsift_buf_take(&b, out_len);
  if (!*out) return tsift_nomem(err, "writing a refusal");
  s->metrics.refusals++; /* counted once it is answered */
  return tsift_ok(err);
}

tsift_status tsift_session_refuse(tsift_session *s, const call_ref *c, const char *code,
                                  const char *message, const char *tool, char **out,
                                  size_t *out_len, tsift_error *err) {
  return tsift_session_refuse_echo(s, c, code, message, "tool", tool, out, out_len, err);
}

/* ---- bare names in select: ---------------------------------------------- */

/* Whether id is <namespace><separator>name: a separator "__", "." or ":"
 * right before name at its end, with a namespace before it. */
static int ends_with_name(const char *id, const char *name, size_t n) {
  size_t il = strlen(id);
  if (il <= n + 1 || memcmp(id + il - n, name, n) != 0) return 0;
  char c = id[il - n - 1];
  if (c == '.' || c == ':') return 1;
  return c == '_' && il > n + 2 && id[il - n - 2] == '_';
}

size_t tsift_session_bare_matches(const tsift_session *s, const char *name, size_t n, uint32_t *out, size_t max) {
  size_t count = 0;
  for (size_t k = 0; k < s->index->n; k++) { /* id order, so the first ones are the same every time */
    uint32_t d = s->by_name[k];
    if (!s->ns_allowed[d] || !ends_with_name(s->index->catalog.tools[d].menu_name, name, n)) continue;
    if (count < max) out[count] = d;
    count++;
  }
  return count;
}

