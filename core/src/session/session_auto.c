/* session_auto.c — auto mode (search.auto; docs/sessions.md, "Auto mode").
 *
 * Deferred loading pays when the catalog is large; below a few dozen tools
 * the search round trip costs more than the menu it saves. With
 * search.auto, a session whose universe fits both budgets puts every tool
 * on the menu when it is created and offers no search_tools: the model
 * sees an ordinary tool list. The choice is made once, from the catalog and
 * the configuration alone, so the prompt prefix never changes during the
 * run; the journal's header records it ("mode": "all") and a replay checks
 * it (journal_chain.c).
 *
 * The defaults are measured (docs/sessions.md): 30 tools, the size the
 * seeds name as where deferred loading starts to pay, and 24,000
 * characters of model-facing specs (MCP JSON), 30 times the mean spec of
 * the 2,032 real MCP tools in ../shared/catalogs (814 characters; about
 * 6,000 tokens in all).
 */
#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "session/session_internal.h"
#include "catalog/tool_spec.h"
#include "json/json_read.h"

#define AUTO_MAX_TOOLS_DEFAULT 30
#define AUTO_MAX_TOOLS_CEILING 1000
#define AUTO_MAX_CHARS_DEFAULT 24000
#define AUTO_MAX_CHARS_CEILING 10000000

/* A budget of search.auto: an integer in [1, ceiling], or the default. */
static tsift_status read_budget(const cJSON *obj, const char *key, unsigned ceiling, unsigned dflt, unsigned *out,
                                tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  *out = dflt;
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  if (!tsift_json_integral(v, 1, (double)ceiling))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: search.auto.%s: expected an integer from 1 to %u", key, ceiling);
  *out = (unsigned)v->valuedouble;
  return TSIFT_OK;
}

tsift_status tsift_auto_read(tsift_session *s, const cJSON *v, tsift_error *err) {
  s->auto_on = 0;
  s->auto_max_tools = AUTO_MAX_TOOLS_DEFAULT;
  s->auto_max_chars = AUTO_MAX_CHARS_DEFAULT;
  if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v)) return TSIFT_OK;
  s->auto_on = 1;
  if (cJSON_IsTrue(v)) return TSIFT_OK;
  if (!cJSON_IsObject(v))
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "config: search.auto: expected true, false or {\"maxTools\": N, \"maxChars\": N}");
  const cJSON *k;
  cJSON_ArrayForEach(k, v) if (strcmp(k->string, "maxTools") != 0 && strcmp(k->string, "maxChars") != 0)
      return tsift_fail(err, TSIFT_E_CONFIG, "config: search.auto: unknown key \"%.40s\" (expected maxTools, maxChars)",
                        k->string);
  tsift_status st = read_budget(v, "maxTools", AUTO_MAX_TOOLS_CEILING, AUTO_MAX_TOOLS_DEFAULT, &s->auto_max_tools, err);
  if (!st) st = read_budget(v, "maxChars", AUTO_MAX_CHARS_CEILING, AUTO_MAX_CHARS_DEFAULT, &s->auto_max_chars, err);
  return st;
}

/* The tools auto mode would add: the universe's, not on the menu yet and
 * not tainted (a tainted tool is never on a menu, SPEC S2). */
static int joins(const tsift_session *s, size_t d) {
  return s->ns_allowed[d] && !s->on_menu[d] && !s->index->catalog.tools[d].tainted;
}

tsift_status tsift_auto_decide(tsift_session *s, tsift_error *err) {
  s->menu_all = 0;
  /* skills found by search need search_tools: such a session keeps it */
  if (!s->auto_on || tsift_session_discovers(s)) return TSIFT_OK;
  size_t count = 0, chars = 0;
  for (size_t d = 0; d < s->index->n; d++) {
    if (!joins(s, d)) continue;
    size_t c;
    tsift_status st = tsift_spec_chars(&s->index->catalog.tools[d], &c, "measuring the catalog for search.auto", err);
    if (st) return st;
    count++;
    chars += c;
    if (count > s->auto_max_tools || chars > s->auto_max_chars) return TSIFT_OK;
  }
  for (size_t d = 0; d < s->index->n; d++)
    if (joins(s, d)) tsift_session_menu_add(s, (uint32_t)d);
  s->nalways = s->nmenu; /* on the menu from the start, like alwaysLoaded (and in the fingerprint) */
  s->menu_all = 1;
  return TSIFT_OK;
}
