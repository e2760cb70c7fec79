/* session_config.c — reading a session's configuration (docs/sessions.md,
 * SPEC S6, S8): the "loop", "tools", "catalog", "search" and "skills"
 * sections, each checked for unknown keys and out-of-range values, and the
 * session state they set up (the catalog's index, the agent's tools, the
 * universe's namespaces, the menu at turn 0, the overview). Apart from
 * session.c so that the session's life cycle reads without the ~440 lines
 * of checks; session.c calls tsift_session_read_config once, in session_new. */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/ids.h"
#include "index/index.h"
#include "json/json_read.h"
#include "session/overview.h"
#include "session/session_internal.h"

static int agent_has(const tsift_session *s, const char *id) {
  return tsift_catalog_find(&s->agent, id) >= 0;
}


static tsift_status read_cap(const cJSON *search, const char *key, unsigned lo, unsigned hi,
                             unsigned def, unsigned *out, tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(search, key);
  *out = def;
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  if (!tsift_json_integral(v, lo, hi))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: search.%s: expected an integer from %u to %u, got %s",
                      key, lo, hi, cJSON_IsNumber(v) ? "an out-of-range number" : tsift_json_type_name(v));
  *out = (unsigned)v->valuedouble;
  return TSIFT_OK;
}

static tsift_status check_keys(const cJSON *obj, const char *where, const char *const *keys,
                               tsift_error *err) {
  const cJSON *item;
  cJSON_ArrayForEach(item, obj) {
    int known = 0;
    for (const char *const *k = keys; *k; k++) known |= strcmp(*k, item->string) == 0;
    if (!known) return tsift_fail(err, TSIFT_E_CONFIG, "%s: unknown key \"%.40s\"", where, item->string);
  }
  return TSIFT_OK;
}

/* Build an index (or parse the agent's tools) from a JSON sub-document. */
static tsift_status print_json(const cJSON *v, char **text) {
  *text = tsift_json_print(v); /* the author's numbers kept */
  return *text ? TSIFT_OK : TSIFT_E_NOMEM;
}

static tsift_status read_string_list(const cJSON *arr, const char *where, char ***out, size_t *n,
                                     tsift_error *err) {
  *out = NULL;
  *n = 0;
  if (!arr || cJSON_IsNull(arr)) return TSIFT_OK;
  if (!cJSON_IsArray(arr))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: %s: expected an array of strings, got %s", where,
                      tsift_json_type_name(arr));
  size_t count = (size_t)cJSON_GetArraySize(arr);
  char **list = tsift_calloc_array(count + 1, sizeof *list);
  if (!list) return tsift_nomem(err, "reading the configuration");
  const cJSON *item;
  size_t i = 0;
  cJSON_ArrayForEach(item, arr) {
    if (!cJSON_IsString(item) || !item->valuestring[0]) {
      for (size_t k = 0; k < i; k++) tsift_free(list[k]);
      tsift_free(list);
      return tsift_fail(err, TSIFT_E_CONFIG, "config: %s[%zu]: expected a non-empty string, got %s",
                        where, i, tsift_json_type_name(item));
    }
    list[i] = tsift_strndup(item->valuestring, strlen(item->valuestring));
    if (!list[i]) {
      for (size_t k = 0; k < i; k++) tsift_free(list[k]);
      tsift_free(list);
      return tsift_nomem(err, "reading the configuration");
    }
    i++;
  }
  *out = list;
  *n = count;
  return TSIFT_OK;
}

/* The index of the catalog: `catalog` from the configuration, or *file (a
 * catalog file the host read, already parsed), which the index takes over. */
static tsift_status build_catalog_index(tsift_session *s, const cJSON *catalog, cJSON **file,
                                        const cJSON *stop, const cJSON *vocabulary, tsift_error *err) {
  if (cJSON_IsString(catalog))
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "config: catalog: a path must be resolved by the host (the CLI does)");
  char *catalog_text = NULL, *opts_text = NULL;
  if (!*file && print_json(catalog, &catalog_text)) return tsift_nomem(err, "reading the catalog");
  if ((stop && !cJSON_IsNull(stop)) || vocabulary) {
    cJSON *opts = cJSON_CreateObject();
    cJSON *dup = stop && !cJSON_IsNull(stop) ? cJSON_Duplicate(stop, 1) : NULL;
    cJSON *vdup = vocabulary ? cJSON_Duplicate(vocabulary, 1) : NULL;
    int ok = opts && (!stop || cJSON_IsNull(stop) || (dup && cJSON_AddItemToObject(opts, "stopwords", dup)));
    if (!ok) cJSON_Delete(dup);
    ok = ok && (!vocabulary || (vdup && cJSON_AddItemToObject(opts, "annotations", vdup)));
    if (!ok) {
      if (!vocabulary || !vdup || cJSON_GetObjectItemCaseSensitive(opts, "annotations") != vdup) cJSON_Delete(vdup);
      cJSON_Delete(opts);
      cJSON_free(catalog_text);
      return tsift_nomem(err, "reading the configuration");
    }
    opts_text = cJSON_PrintUnformatted(opts);
    cJSON_Delete(opts);
    if (!opts_text) {
      cJSON_free(catalog_text);
      return tsift_nomem(err, "reading the configuration");
    }
  }
  size_t opts_len = opts_text ? strlen(opts_text) : 0;
  tsift_status st = *file ? tsift_index_build_tree(*file, opts_text, opts_len, &s->index, err)
                          : tsift_index_build(catalog_text, strlen(catalog_text), opts_text, opts_len, &s->index, err);
  *file = NULL; /* taken over */
  cJSON_free(catalog_text);
  cJSON_free(opts_text);
  /* The vocabulary is the host's session option, not the configuration's. */
  if (st && st != TSIFT_E_NOMEM && strncmp(err->message, "options: annotations", 20) == 0) {
    char msg[sizeof err->message];
    memcpy(msg, err->message, sizeof msg);
    return tsift_fail(err, st, "session %s", msg);
  }
  if (st) return st == TSIFT_E_NOMEM ? st : tsift_error_prefix(err, st, "config: catalog");
  return TSIFT_OK;
}

/* The "skills" section: the skills, the activation meta-tool's name (no
 * collision with any tool), every skill tool known and loadable, and the
 * tools of skills selected up front put on the menu. */
static tsift_status read_skills(tsift_session *s, const cJSON *section, const cJSON *catalog_skills,
                                tsift_error *err) {
  tsift_status st = tsift_skills_read(section, catalog_skills, &s->skills, err);
  if (st) return st;
  tsift_skills *sk = s->skills;
  if (strcmp(sk->tool_name, s->tool_name) == 0)
    return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.toolName \"%s\" collides with search.toolName",
                      sk->tool_name);
  if (agent_has(s, sk->tool_name) || tsift_session_find_doc(s, sk->tool_name) >= 0)
    return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.toolName \"%s\" collides with a tool of the same name",
                      sk->tool_name);
  if ((sk->discovery & DISCOVERY_SEARCH) && s->max_searches == 0)
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "config: skills.discovery \"%s\" needs tool search, but search.maxSearches is 0",
                      sk->discovery == DISCOVERY_BOTH ? "both" : "search");
  for (size_t k = 0; k < sk->n; k++)
    for (size_t i = 0; i < sk->items[k].ntools; i++) {
      const char *id = sk->items[k].tools[i];
      long d = tsift_session_find_doc(s, id);
      if (d < 0 && !agent_has(s, id))
        return tsift_fail(err, TSIFT_E_CONFIG, "config: skill \"%.60s\": tools[%zu]: no tool \"%.60s\"",
                          sk->items[k].id, i, id);
      if (d >= 0 && s->index->catalog.tools[d].tainted)
        return tsift_fail(err, TSIFT_E_CONFIG,
                          "config: skill \"%.60s\": tools[%zu]: \"%.60s\" is tainted and can never be loaded",
                          sk->items[k].id, i, id);
    }
  for (size_t k = 0; k < sk->n; k++)
    if (sk->selected[k])
      for (size_t i = 0; i < sk->items[k].ntools; i++) {
        long d = tsift_session_find_doc(s, sk->items[k].tools[i]);
        if (d >= 0) tsift_session_menu_add(s, (uint32_t)d);
      }
  return TSIFT_OK;
}

/* An id-shaped string option (loop, search.toolName), default `def`. */
static tsift_status read_name(const cJSON *v, const char *where, const char *def, char **out, tsift_error *err) {
  const char *name = def;
  if (v && !cJSON_IsNull(v)) {
    if (!cJSON_IsString(v) || !tsift_id_valid(v->valuestring, strlen(v->valuestring)))
      return tsift_fail(err, TSIFT_E_CONFIG, "config: %s: expected a string matching ^[A-Za-z0-9_.:-]{1,128}$",
                        where);
    name = v->valuestring;
  }
  *out = tsift_strndup(name, strlen(name));
  return *out ? TSIFT_OK : tsift_nomem(err, "reading the configuration");
}

/* A number from 0 to 1, kept to 1/1000 so the fingerprint states it exactly. */
static tsift_status read_share(const cJSON *obj, const char *key, const char *where, double *out,
                               tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0.0 && v->valuedouble <= 1.0))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: %s.%s: expected a number from 0 to 1", where, key);
  *out = (double)(long)(v->valuedouble * 1000.0 + 0.5) / 1000.0;
  return TSIFT_OK;
}

/* The loop's confidence (docs/sessions.md): which hits a search loads
 * ("load": "strong", the default, or "all"), the grade rule's thresholds
 * ("strong": {"coverage", "pairCoverage", "relative"}) and the catalog overview in the
 * meta-tool's description ("overview": true, false or the host's own text;
 * "overviewChars"). */
static tsift_status read_loop_options(tsift_session *s, const cJSON *search, tsift_error *err) {
  s->load_strong = 1;
  s->rule = tsift_default_grade_rule;
  s->overview_on = 1;
  const cJSON *load = cJSON_GetObjectItemCaseSensitive(search, "load");
  if (load && !cJSON_IsNull(load)) {
    if (cJSON_IsString(load) && strcmp(load->valuestring, "all") == 0) s->load_strong = 0;
    else if (!cJSON_IsString(load) || strcmp(load->valuestring, "strong") != 0)
      return tsift_fail(err, TSIFT_E_CONFIG, "config: search.load: expected \"strong\" or \"all\"");
  }
  const cJSON *strong = cJSON_GetObjectItemCaseSensitive(search, "strong");
  if (strong && !cJSON_IsNull(strong)) {
    static const char *const keys[] = {"coverage", "pairCoverage", "relative", NULL};
    tsift_status st;
    if (!cJSON_IsObject(strong)) return tsift_fail(err, TSIFT_E_CONFIG, "config: search.strong: expected an object");
    if ((st = check_keys(strong, "config: search.strong", keys, err)) ||
        (st = read_share(strong, "coverage", "search.strong", &s->rule.coverage, err)) ||
        (st = read_share(strong, "pairCoverage", "search.strong", &s->rule.pair_coverage, err)) ||
        (st = read_share(strong, "relative", "search.strong", &s->rule.relative, err)))
      return st;
  }
  unsigned chars = TSIFT_OVERVIEW_CHARS_DEFAULT;
  tsift_status st = read_cap(search, "overviewChars", TSIFT_OVERVIEW_CHARS_MIN, TSIFT_OVERVIEW_CHARS_MAX,
                             TSIFT_OVERVIEW_CHARS_DEFAULT, &chars, err);
  if (st) return st;
  s->overview_chars = chars;
  const cJSON *ov = cJSON_GetObjectItemCaseSensitive(search, "overview");
  if (ov && !cJSON_IsNull(ov)) {
    if (cJSON_IsBool(ov)) {
      s->overview_on = cJSON_IsTrue(ov);
    } else if (cJSON_IsString(ov)) {
      size_t n = strlen(ov->valuestring);
      if (n > TSIFT_OVERVIEW_HOST_MAX_BYTES)
        return tsift_fail(err, TSIFT_E_CONFIG, "config: search.overview: at most %d bytes of text",
                          TSIFT_OVERVIEW_HOST_MAX_BYTES);
      s->overview = tsift_strndup(ov->valuestring, n);
      if (!s->overview) return tsift_nomem(err, "reading the configuration");
    } else {
      return tsift_fail(err, TSIFT_E_CONFIG, "config: search.overview: expected true, false or a string");
    }
  }
  return TSIFT_OK;
}

/* The "search" section's names and caps (an absent section: the defaults). */
static tsift_status read_search(tsift_session *s, const cJSON *search, tsift_error *err) {
  tsift_status st;
  if ((st = read_name(cJSON_GetObjectItemCaseSensitive(search, "toolName"), "search.toolName", "search_tools",
                      &s->tool_name, err)) ||
      (st = read_cap(search, "maxPerSearch", 1, MAX_PER_SEARCH_CEILING, MAX_PER_SEARCH_DEFAULT,
                     &s->max_per_search, err)) ||
      (st = read_cap(search, "maxLoaded", 0, MAX_LOADED_CEILING, MAX_LOADED_DEFAULT, &s->max_loaded, err)) ||
      (st = read_cap(search, "maxSearches", 0, MAX_SEARCHES_CEILING, MAX_SEARCHES_DEFAULT,
                     &s->max_searches, err)) ||
      (st = read_cap(search, "preSearchLimit", 1, MAX_PER_SEARCH_CEILING, PRE_SEARCH_LIMIT_DEFAULT,
                     &s->pre_search_limit, err)))
    return st;
  s->max_menu_chars = -1;
  const cJSON *mmc = cJSON_GetObjectItemCaseSensitive(search, "maxMenuChars");
  if (mmc && !cJSON_IsNull(mmc)) {
    unsigned v;
    if ((st = read_cap(search, "maxMenuChars", 1, MAX_MENU_CHARS_CEILING, 0, &v, err))) return st;
    s->max_menu_chars = (long)v;
  }
  return read_loop_options(s, search, err);
}

/* The searchable catalog, indexed with the session's stopwords — unless
 * the index came from a snapshot, which fixes the catalog and stopwords.
 * `catalog` is the configuration's, or the parsed catalog file (*file). */
static tsift_status open_catalog(tsift_session *s, const cJSON *catalog, cJSON **file, const cJSON *stop,
                                 const cJSON *vocabulary, tsift_error *err) {
  if (!s->index) {
    if (!catalog || cJSON_IsNull(catalog)) return tsift_fail(err, TSIFT_E_CONFIG, "config: missing \"catalog\"");
    return build_catalog_index(s, catalog, file, stop, vocabulary, err);
  }
  if (vocabulary)
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "session options: annotations: not allowed with a snapshot (it holds its vocabulary: build it "
                      "with the annotations)");
  /* The snapshot holds the tools; the catalog may still bring skills. */
  int skills_only = cJSON_IsObject(catalog) && cJSON_GetArraySize(catalog) == 1 &&
                    cJSON_GetObjectItemCaseSensitive(catalog, "skills");
  if (catalog && !cJSON_IsNull(catalog) && !skills_only)
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "config: catalog: not allowed with a snapshot (it holds the catalog), except as "
                      "{\"skills\": [...]}");
  if (stop && !cJSON_IsNull(stop))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: search.stopwords: fixed by the snapshot");
  return TSIFT_OK;
}

/* The agent's own tools (always on the menu). */
static tsift_status read_agent_tools(tsift_session *s, const cJSON *tools, tsift_error *err) {
  if (!tools || cJSON_IsNull(tools)) return TSIFT_OK;
  if (!cJSON_IsArray(tools))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: tools: expected an array, got %s", tsift_json_type_name(tools));
  char *text = NULL;
  if (print_json(tools, &text)) return tsift_nomem(err, "reading the agent's tools");
  tsift_status st = tsift_catalog_parse(text, strlen(text), TSIFT_IDS_STRICT, &s->agent, err);
  cJSON_free(text);
  if (st) return st == TSIFT_E_NOMEM ? st : tsift_error_prefix(err, st, "config: agent tools");
  /* The agent's tools are always on the menu, and a tainted tool never is (S2). */
  for (size_t i = 0; i < s->agent.count; i++)
    if (s->agent.tools[i].tainted)
      return tsift_fail(err, TSIFT_E_CONFIG,
                        "config: tools[%zu] (\"%.60s\") is tainted and can never be on the menu", i,
                        s->agent.tools[i].id);
  return TSIFT_OK;
}

/* The session's per-tool state, the id order for lookups, and no name used
 * twice by the meta-tool, the agent's tools and the catalog. */
static tsift_status index_names(tsift_session *s, tsift_error *err) {
  size_t n = s->index->n;
  s->by_name = tsift_calloc_array(n + 1, sizeof *s->by_name);
  uint32_t *tmp = tsift_calloc_array(n + 1, sizeof *tmp);
  s->ns_allowed = tsift_calloc_array(n + 1, 1);
  s->on_menu = tsift_calloc_array(n + 1, 1);
  s->menu = tsift_calloc_array(n + 1, sizeof *s->menu);
  if (!s->by_name || !tmp || !s->ns_allowed || !s->on_menu || !s->menu) {
    tsift_free(tmp);
    return tsift_nomem(err, "creating the session");
  }
  for (size_t i = 0; i < n; i++) s->by_name[i] = (uint32_t)i;
  tsift_sort_docs_by_menu_name(s->index, s->by_name, tmp, n);
  tsift_free(tmp);
  if (agent_has(s, s->tool_name) || tsift_session_find_doc(s, s->tool_name) >= 0)
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "config: search.toolName \"%s\" collides with a tool of the same name", s->tool_name);
  for (size_t i = 0; i < s->agent.count; i++)
    if (tsift_session_find_doc(s, s->agent.tools[i].id) >= 0)
      return tsift_fail(err, TSIFT_E_CONFIG,
                        "config: tools[%zu] (\"%.60s\") collides with a catalog tool of the same id", i,
                        s->agent.tools[i].id);
  return TSIFT_OK;
}

/* Whether namespace entry ns admits id: whole segments, so "git" admits
 * "git__x" and "git.x" (and "git") but not "github__x"; an entry that ends
 * with a separator ("git__", "git.") is a plain prefix. */
static int namespace_admits(const char *ns, const char *id) {
  size_t n = strlen(ns);
  if (strncmp(id, ns, n) != 0) return 0;
  if (n >= 2 && ns[n - 2] == '_' && ns[n - 1] == '_') return 1;
  if (n >= 1 && ns[n - 1] == '.') return 1;
  const char *rest = id + n;
  return !rest[0] || rest[0] == '.' || (rest[0] == '_' && rest[1] == '_');
}

/* Namespaces: the id segments that narrow the universe. */
static tsift_status read_namespaces(tsift_session *s, const cJSON *list, tsift_error *err) {
  tsift_status st = read_string_list(list, "search.namespaces", &s->namespaces, &s->nnamespaces, err);
  if (st) return st;
  for (size_t d = 0; d < s->index->n; d++) {
    int ok = s->nnamespaces == 0;
    const char *id = s->index->catalog.tools[d].id;
    for (size_t k = 0; !ok && k < s->nnamespaces; k++)
      ok = namespace_admits(s->namespaces[k], id);
    s->ns_allowed[d] = (uint8_t)ok;
  }
  return TSIFT_OK;
}

/* Always-loaded catalog tools join the menu at turn 0. */
static tsift_status read_always_loaded(tsift_session *s, const cJSON *list, tsift_error *err) {
  char **always = NULL;
  size_t nalways = 0;
  tsift_status st = read_string_list(list, "search.alwaysLoaded", &always, &nalways, err);
  if (st) return st;
  for (size_t i = 0; i < nalways && !st; i++) {
    long d = tsift_session_find_doc(s, always[i]);
    int twice = 0;
    for (size_t k = 0; k < i; k++) twice |= strcmp(always[k], always[i]) == 0;
    if (d < 0)
      st = tsift_fail(err, TSIFT_E_CONFIG, "config: search.alwaysLoaded[%zu]: no catalog tool \"%.60s\"", i,
                      always[i]);
    else if (twice)
      st = tsift_fail(err, TSIFT_E_CONFIG, "config: search.alwaysLoaded[%zu]: \"%.60s\" is listed twice", i,
                      always[i]);
    else if (s->on_menu[d])
      ; /* already there as a selected skill's tool */
    else if (s->index->catalog.tools[d].tainted)
      st = tsift_fail(err, TSIFT_E_CONFIG,
                      "config: search.alwaysLoaded[%zu]: \"%.60s\" is tainted and can never be loaded", i,
                      always[i]);
    else
      tsift_session_menu_add(s, (uint32_t)d);
  }
  for (size_t i = 0; i < nalways; i++) tsift_free(always[i]);
  tsift_free(always);
  s->nalways = s->nmenu;
  return st;
}

/* `file` (*file may be NULL): the catalog file the configuration names,
 * parsed; the catalog's index takes it over. */
tsift_status tsift_session_read_config(tsift_session *s, const cJSON *cfg, cJSON **file, const cJSON *vocabulary,
                                       tsift_error *err) {
  static const char *const top_keys[] = {"loop", "tools", "catalog", "search", "skills", NULL};
  static const char *const search_keys[] = {"toolName",  "alwaysLoaded", "namespaces", "maxPerSearch",
                                            "maxLoaded", "maxSearches",  "maxMenuChars", "stopwords",
                                            "load",      "strong",       "overview",   "overviewChars",
                                            "auto",      "preSearchLimit", NULL};
  if (!cJSON_IsObject(cfg)) return tsift_fail(err, TSIFT_E_CONFIG, "config: expected an object");
  tsift_status st = check_keys(cfg, "config", top_keys, err);
  if (st) return st;
  if ((st = read_name(cJSON_GetObjectItemCaseSensitive(cfg, "loop"), "loop", "agent", &s->loop, err))) return st;
  const cJSON *search = cJSON_GetObjectItemCaseSensitive(cfg, "search");
  if (search && !cJSON_IsNull(search)) {
    if (!cJSON_IsObject(search)) return tsift_fail(err, TSIFT_E_CONFIG, "config: search: expected an object");
    if ((st = check_keys(search, "config: search", search_keys, err))) return st;
  } else {
    search = NULL;
  }
  const cJSON *catalog = cJSON_GetObjectItemCaseSensitive(cfg, "catalog");
  if (*file) catalog = *file; /* stays valid: the index or the caller owns it */
  const cJSON *skills = cJSON_GetObjectItemCaseSensitive(cfg, "skills");
  if ((st = read_search(s, search, err)) ||
      (st = open_catalog(s, catalog, file, cJSON_GetObjectItemCaseSensitive(search, "stopwords"), vocabulary, err)) ||
      (st = read_agent_tools(s, cJSON_GetObjectItemCaseSensitive(cfg, "tools"), err)) ||
      (st = index_names(s, err)) ||
      (st = read_namespaces(s, cJSON_GetObjectItemCaseSensitive(search, "namespaces"), err)))
    return st;
  /* Skills (SPEC S8): off unless the configuration has a "skills" section;
   * the tools of skills selected up front join the menu first. */
  if (skills && !cJSON_IsNull(skills) &&
      (st = read_skills(s, skills, cJSON_IsObject(catalog) ? cJSON_GetObjectItemCaseSensitive(catalog, "skills") : NULL,
                        err)))
    return st;
  if ((st = read_always_loaded(s, cJSON_GetObjectItemCaseSensitive(search, "alwaysLoaded"), err))) return st;
  if ((st = tsift_auto_read(s, cJSON_GetObjectItemCaseSensitive(search, "auto"), err)) ||
      (st = tsift_auto_decide(s, err)))
    return st;
  /* The overview of the universe for the meta-tool's description (overview.c). */
  if (s->overview_on && !s->overview && !s->menu_all &&
      !(s->overview = tsift_overview(s->index, s->ns_allowed, s->overview_chars, NULL)))
    return tsift_nomem(err, "writing the catalog overview");
  return TSIFT_OK;
}
