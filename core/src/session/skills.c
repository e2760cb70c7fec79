/* skills.c — skills (SPEC S8): reading the catalog's skills and the
 * session's `skills` section (loud errors naming the key), the bounded
 * system-prompt index, and the BM25F index over skills used by discovery.
 * What an activation does lives in session_skill.c. */
#include "session/skills.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/catalog.h"
#include "catalog/ids.h"
#include "base/fmt.h"
#include "json/json_out.h"
#include "base/sha256.h"
#include "text/text.h"
#include "utf8proc.h"
#include "json/json_read.h"

static int tsift_skills_listed(const tsift_skills *sk, size_t k);

static void free_list(char **l, size_t n) {
  for (size_t i = 0; i < n; i++) tsift_free(l[i]);
  tsift_free(l);
}

static void skill_free(tsift_skill *k) {
  TSIFT_FREE_ALL(k->id, k->description, k->instructions);
  free_list(k->tags, k->ntags);
  free_list(k->aliases, k->naliases);
  free_list(k->tools, k->ntools);
}

void tsift_skills_free(tsift_skills *sk) {
  if (!sk) return;
  for (size_t i = 0; i < sk->n; i++) skill_free(&sk->items[i]);
  TSIFT_FREE_ALL(sk->items, sk->tool_name, sk->selected, sk->active, sk->pinned, sk->warned);
  tsift_index_free(sk->index);
  tsift_free(sk->ranker_kind);
  tsift_free(sk);
}

long tsift_skills_find(const tsift_skills *sk, const char *id) {
  size_t lo = 0, hi = sk->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(sk->items[mid].id, id);
    if (c == 0) return (long)mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* ---- one skill of the catalog ----------------------------------------- */

/* An id the model can name in the index: at most 128 bytes, no control,
 * format or line/paragraph separator characters. */
/* 1 when the model could name `id` in the index: at most 128 bytes, no
 * control, format or line/paragraph separator characters. */
static int tsift_skills_nameable(const char *id) {
  size_t n = strlen(id);
  if (n == 0 || n > SKILLS_INDEX_ID_BYTES) return 0;
  const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)id;
  size_t i = 0;
  while (i < n) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate(p + i, (utf8proc_ssize_t)(n - i), &cp);
    if (k <= 0) return 0;
    utf8proc_category_t c = utf8proc_category(cp);
    if (c == UTF8PROC_CATEGORY_CC || c == UTF8PROC_CATEGORY_CF || c == UTF8PROC_CATEGORY_ZL ||
        c == UTF8PROC_CATEGORY_ZP)
      return 0;
    i += (size_t)k;
  }
  return 1;
}

static tsift_status read_list(const cJSON *obj, const char *key, const char *where, int tool_ids,
                              char ***out, size_t *n, tsift_error *err) {
  const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
  *out = NULL;
  *n = 0;
  if (!arr || cJSON_IsNull(arr)) return TSIFT_OK;
  if (!cJSON_IsArray(arr))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s\": expected an array of strings, got %s", where,
                      key, tsift_json_type_name(arr));
  size_t count = (size_t)cJSON_GetArraySize(arr), i = 0;
  char **list = tsift_calloc_array(count + 1, sizeof *list);
  if (!list) return tsift_nomem(err, "reading skills");
  const cJSON *item;
  tsift_status st = TSIFT_OK;
  cJSON_ArrayForEach(item, arr) {
    if (!cJSON_IsString(item) || !item->valuestring[0])
      st = tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s[%zu]\": expected a non-empty string, got %s", where,
                      key, i, cJSON_IsString(item) ? "an empty string" : tsift_json_type_name(item));
    else if (tool_ids && !tsift_id_valid(item->valuestring, strlen(item->valuestring)))
      st = tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s[%zu]\": not a tool id (^[A-Za-z0-9_.:-]{1,128}$)",
                      where, key, i);
    else if (!(list[i] = tsift_strndup(item->valuestring, strlen(item->valuestring))))
      st = tsift_nomem(err, "reading skills");
    if (st) {
      free_list(list, i);
      return st;
    }
    i++;
  }
  *out = list;
  *n = count;
  return TSIFT_OK;
}

static tsift_status read_text(const cJSON *obj, const char *key, const char *where, char **out,
                              size_t *len, tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  *out = NULL;
  if (len) *len = 0;
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  if (!cJSON_IsString(v))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s\": expected a string, got %s", where, key,
                      tsift_json_type_name(v));
  size_t n = strlen(v->valuestring);
  if (!(*out = tsift_strndup(v->valuestring, n))) return tsift_nomem(err, "reading skills");
  if (len) *len = n;
  return TSIFT_OK;
}

/* What a delivered text is pinned by: its sha256 and its length as a JSON
 * string body (escapes included, quotes not). */
static tsift_status pin_text(tsift_skill *k, tsift_error *err) {
  /* A skill without instructions delivers "" (a bundle of tools). */
  tsift_sha256 h;
  uint8_t d[32];
  tsift_sha256_init(&h);
  tsift_sha256_update(&h, k->instructions ? k->instructions : "", k->instructions_len);
  tsift_sha256_final(&h, d);
  tsift_sha256_hex(d, k->digest);
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_buf_json_string(&b, k->instructions ? k->instructions : "", k->instructions_len);
  if (b.failed) {
    tsift_buf_free(&b);
    return tsift_nomem(err, "reading skills");
  }
  k->bytes = b.len - 2;
  tsift_buf_free(&b);
  return TSIFT_OK;
}

static tsift_status read_skill(const cJSON *item, size_t i, tsift_skill *k, tsift_error *err) {
  char where[128];
  tsift_snprintf(where, sizeof where, "catalog: skills[%zu]", i);
  if (!cJSON_IsObject(item))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected an object, got %s", where, tsift_json_type_name(item));
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(item, "id");
  if (!id || cJSON_IsNull(id)) id = cJSON_GetObjectItemCaseSensitive(item, "name");
  if (!cJSON_IsString(id))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"id\": expected a string, got %s", where, tsift_json_type_name(id));
  size_t n = strlen(id->valuestring);
  if (!tsift_id_lenient_valid(id->valuestring, n)) return tsift_id_refuse(err, where, id->valuestring);
  if (!(k->id = tsift_strndup(id->valuestring, n))) return tsift_nomem(err, "reading skills");
  char idc[64];
  size_t cut = tsift_utf8_cut(k->id, n, 48);
  memcpy(idc, k->id, cut);
  idc[cut] = 0;
  tsift_snprintf(where, sizeof where, "catalog: skills[%zu] (\"%s\")", i, idc);
  const cJSON *tainted = cJSON_GetObjectItemCaseSensitive(item, "tainted");
  if (tainted && !cJSON_IsNull(tainted) && !cJSON_IsBool(tainted))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"tainted\": expected a boolean, got %s", where,
                      tsift_json_type_name(tainted));
  k->tainted = cJSON_IsTrue(tainted);
  tsift_status st;
  if ((st = read_text(item, "description", where, &k->description, NULL, err)) ||
      (st = read_text(item, "instructions", where, &k->instructions, &k->instructions_len, err)) ||
      (st = read_list(item, "tags", where, 0, &k->tags, &k->ntags, err)) ||
      (st = read_list(item, "aliases", where, 0, &k->aliases, &k->naliases, err)) ||
      (st = read_list(item, "tools", where, 1, &k->tools, &k->ntools, err)))
    return st;
  for (size_t a = 0; a < k->ntools; a++)
    for (size_t b = 0; b < a; b++)
      if (strcmp(k->tools[a], k->tools[b]) == 0)
        return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"tools[%zu]\": \"%.60s\" is listed twice", where, a,
                          k->tools[a]);
  return pin_text(k, err);
}

/* ---- the configuration ------------------------------------------------ */

static tsift_status read_cap(const cJSON *sec, const char *key, unsigned lo, unsigned hi, unsigned def,
                             unsigned *out, tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(sec, key);
  *out = def;
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  if (!tsift_json_integral(v, lo, hi))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.%s: expected an integer from %u to %u, got %s", key,
                      lo, hi, cJSON_IsNumber(v) ? "an out-of-range number" : tsift_json_type_name(v));
  *out = (unsigned)v->valuedouble;
  return TSIFT_OK;
}

static void sort_skills(tsift_skill *a, tsift_skill *tmp, size_t n) {
  if (n < 2) return;
  size_t h = n / 2;
  sort_skills(a, tmp, h);
  sort_skills(a + h, tmp, n - h);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = strcmp(a[i].id, a[j].id) <= 0 ? a[i++] : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

/* Every skill of the catalog, in catalog order. */
static tsift_status read_catalog_skills(const cJSON *arr, tsift_skill **out, size_t *n, tsift_error *err) {
  *out = NULL;
  *n = 0;
  if (arr && !cJSON_IsNull(arr) && !cJSON_IsArray(arr))
    return tsift_fail(err, TSIFT_E_CONFIG, "catalog: field \"skills\": expected an array, got %s", tsift_json_type_name(arr));
  size_t count = cJSON_IsArray(arr) ? (size_t)cJSON_GetArraySize(arr) : 0;
  tsift_skill *items = tsift_calloc_array(count + 1, sizeof *items);
  if (!items) return tsift_nomem(err, "reading skills");
  size_t i = 0;
  const cJSON *item;
  tsift_status st = TSIFT_OK;
  if (count) cJSON_ArrayForEach(item, arr) {
      if ((st = read_skill(item, i, &items[i], err))) {
        skill_free(&items[i]);
        break;
      }
      i++;
    }
  if (!st)
    for (size_t a = 0; a < count && !st; a++)
      for (size_t b = 0; b < a && !st; b++)
        if (strcmp(items[a].id, items[b].id) == 0)
          st = tsift_fail(err, TSIFT_E_CONFIG, "catalog: skills[%zu]: id \"%.60s\" is used twice", a, items[a].id);
  if (st) {
    for (size_t k = 0; k < i; k++) skill_free(&items[k]);
    tsift_free(items);
    return st;
  }
  *out = items;
  *n = count;
  return TSIFT_OK;
}

/* cJSON_CreateStringArray refuses an empty list. */
static cJSON *string_array(char **items, size_t n) {
  return n ? cJSON_CreateStringArray((const char *const *)items, (int)n) : cJSON_CreateArray();
}

/* The BM25F index over skills (discovery): each skill as a first-party
 * document with its id as name, its aliases, tags and description; lenient
 * ids, since skill ids are free text. Queries are analysed with the tool
 * index's stopwords, so none are set here. */
static tsift_status build_skill_index(tsift_skills *sk, tsift_error *err) {
  cJSON *cat = cJSON_CreateArray();
  int ok = cat != NULL;
  for (size_t i = 0; ok && i < sk->n; i++) {
    const tsift_skill *k = &sk->items[i];
    cJSON *doc = cJSON_CreateObject();
    ok = doc && cJSON_AddItemToArray(cat, doc) && cJSON_AddStringToObject(doc, "id", k->id) &&
         cJSON_AddStringToObject(doc, "name", k->id) &&
         (!k->description || k->tainted || cJSON_AddStringToObject(doc, "description", k->description));
    if (!doc) break;
    cJSON *tags = ok ? string_array(k->tags, k->ntags) : NULL;
    ok = ok && tags && cJSON_AddItemToObject(doc, "tags", tags);
    if (!ok) cJSON_Delete(tags);
    cJSON *aliases = ok ? string_array(k->aliases, k->naliases) : NULL;
    ok = ok && aliases && cJSON_AddItemToObject(doc, "aliases", aliases);
    if (!ok) cJSON_Delete(aliases);
  }
  char *text = ok ? cJSON_PrintUnformatted(cat) : NULL;
  cJSON_Delete(cat);
  if (!text) return tsift_nomem(err, "indexing skills");
  static const char opts[] = "{\"ids\":\"lenient\"}";
  tsift_status st = tsift_index_build(text, strlen(text), opts, sizeof opts - 1, &sk->index, err);
  cJSON_free(text);
  if (st) return st == TSIFT_E_NOMEM ? st : tsift_error_prefix(err, st, "catalog: skills");
  /* Doc d must be skill d (the catalog keeps the order it was given). */
  for (size_t i = 0; i < sk->n; i++)
    if (strcmp(sk->index->catalog.tools[i].id, sk->items[i].id) != 0)
      return tsift_fail(err, TSIFT_E_CONFIG, "catalog: skills: internal order mismatch at %zu", i);
  return TSIFT_OK;
}

static tsift_status take_skills(tsift_skills *sk, const cJSON *sec, tsift_skill *all, size_t nall,
                                tsift_error *err);
static tsift_status read_selected(tsift_skills *sk, const cJSON *sec, tsift_error *err);

/* The "skills" section: its keys, caps, discovery and meta-tool name, then
 * the skills it offers and those selected up front. */
static tsift_status read_section(tsift_skills *sk, const cJSON *sec, tsift_skill *all, size_t nall,
                                 tsift_error *err) {
  static const char *const keys[] = {"catalog", "selected", "maxActive", "maxIndex", "maxIndexBytes",
                                     "maxInstructionBytes", "discovery", "toolName", NULL};
  const cJSON *item;
  cJSON_ArrayForEach(item, sec) {
    int known = 0;
    for (const char *const *k = keys; *k; k++) known |= strcmp(*k, item->string) == 0;
    if (!known) return tsift_fail(err, TSIFT_E_CONFIG, "config: skills: unknown key \"%.40s\"", item->string);
  }
  tsift_status st;
  if ((st = read_cap(sec, "maxActive", 1, SKILLS_MAX_ACTIVE_CEILING, SKILLS_MAX_ACTIVE_DEFAULT, &sk->max_active,
                     err)) ||
      (st = read_cap(sec, "maxIndex", 1, SKILLS_MAX_INDEX_CEILING, SKILLS_MAX_INDEX_DEFAULT, &sk->max_index, err)) ||
      (st = read_cap(sec, "maxIndexBytes", 1, SKILLS_MAX_INDEX_BYTES_CEILING, SKILLS_MAX_INDEX_BYTES_DEFAULT,
                     &sk->max_index_bytes, err)) ||
      (st = read_cap(sec, "maxInstructionBytes", 1, SKILLS_MAX_INSTRUCTION_BYTES_CEILING,
                     SKILLS_MAX_INSTRUCTION_BYTES_DEFAULT, &sk->max_instruction_bytes, err)))
    return st;
  const cJSON *disc = cJSON_GetObjectItemCaseSensitive(sec, "discovery");
  sk->discovery = DISCOVERY_INDEX;
  if (disc && !cJSON_IsNull(disc)) {
    if (cJSON_IsString(disc) && strcmp(disc->valuestring, "index") == 0) sk->discovery = DISCOVERY_INDEX;
    else if (cJSON_IsString(disc) && strcmp(disc->valuestring, "search") == 0) sk->discovery = DISCOVERY_SEARCH;
    else if (cJSON_IsString(disc) && strcmp(disc->valuestring, "both") == 0) sk->discovery = DISCOVERY_BOTH;
    else return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.discovery: expected \"index\", \"search\" or \"both\"");
  }
  const cJSON *tn = cJSON_GetObjectItemCaseSensitive(sec, "toolName");
  const char *name = "activate_skill";
  if (tn && !cJSON_IsNull(tn)) {
    if (!cJSON_IsString(tn) || !tsift_id_valid(tn->valuestring, strlen(tn->valuestring)))
      return tsift_fail(err, TSIFT_E_CONFIG,
                        "config: skills.toolName: expected a string matching ^[A-Za-z0-9_.:-]{1,128}$");
    name = tn->valuestring;
  }
  if (!(sk->tool_name = tsift_strndup(name, strlen(name)))) return tsift_nomem(err, "reading skills");
  if ((st = take_skills(sk, sec, all, nall, err))) return st;
  return read_selected(sk, sec, err);
}

/* Which of the catalog's skills this session offers: all of them
 * ("registry", the default) or the listed ids. Each taken skill moves from
 * `all` into sk->items, sorted by id. */
static tsift_status take_skills(tsift_skills *sk, const cJSON *sec, tsift_skill *all, size_t nall,
                                tsift_error *err) {
  const cJSON *which = cJSON_GetObjectItemCaseSensitive(sec, "catalog"), *item;
  uint8_t *take = tsift_calloc_array(nall + 1, 1);
  if (!take) return tsift_nomem(err, "reading skills");
  size_t ntake = 0;
  tsift_status st = TSIFT_OK;
  if (!which || cJSON_IsNull(which) || (cJSON_IsString(which) && strcmp(which->valuestring, "registry") == 0)) {
    memset(take, 1, nall);
    ntake = nall;
  } else if (cJSON_IsArray(which)) {
    size_t i = 0;
    cJSON_ArrayForEach(item, which) {
      long found = -1;
      if (cJSON_IsString(item))
        for (size_t k = 0; k < nall && found < 0; k++)
          if (strcmp(all[k].id, item->valuestring) == 0) found = (long)k;
      if (!cJSON_IsString(item))
        st = tsift_fail(err, TSIFT_E_CONFIG, "config: skills.catalog[%zu]: expected a skill id, got %s", i,
                        tsift_json_type_name(item));
      else if (found < 0)
        st = tsift_fail(err, TSIFT_E_CONFIG, "config: skills.catalog[%zu]: no catalog skill \"%.60s\"", i,
                        item->valuestring);
      else if (take[found])
        st = tsift_fail(err, TSIFT_E_CONFIG, "config: skills.catalog[%zu]: \"%.60s\" is listed twice", i,
                        item->valuestring);
      if (st) break;
      take[found] = 1;
      ntake++;
      i++;
    }
  } else {
    st = tsift_fail(err, TSIFT_E_CONFIG, "config: skills.catalog: expected \"registry\" or an array of skill ids");
  }
  if (!st) {
    sk->items = tsift_calloc_array(ntake + 1, sizeof *sk->items);
    tsift_skill *tmp = tsift_calloc_array(ntake + 1, sizeof *tmp);
    if (!sk->items || !tmp) st = tsift_nomem(err, "reading skills");
    for (size_t k = 0; !st && k < nall; k++)
      if (take[k]) {
        sk->items[sk->n++] = all[k];
        memset(&all[k], 0, sizeof all[k]);
      }
    if (!st) sort_skills(sk->items, tmp, sk->n);
    tsift_free(tmp);
  }
  tsift_free(take);
  return st;
}

/* Skills selected up front: active from turn 0, their text delivered by
 * the host, so it must be deliverable. */
static tsift_status read_selected(tsift_skills *sk, const cJSON *sec, tsift_error *err) {
  const cJSON *item;
  size_t n = sk->n;
  sk->selected = tsift_calloc_array(n + 1, 1);
  sk->active = tsift_calloc_array(n + 1, 1);
  sk->warned = tsift_calloc_array(n + 1, 1);
  sk->pinned = tsift_calloc_array(n + 1, sizeof *sk->pinned);
  if (!sk->selected || !sk->active || !sk->warned || !sk->pinned) return tsift_nomem(err, "reading skills");
  const cJSON *sel = cJSON_GetObjectItemCaseSensitive(sec, "selected");
  if (sel && !cJSON_IsNull(sel) && !cJSON_IsArray(sel))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.selected: expected an array of skill ids, got %s",
                      tsift_json_type_name(sel));
  size_t i = 0;
  if (cJSON_IsArray(sel)) cJSON_ArrayForEach(item, sel) {
      long k = cJSON_IsString(item) ? tsift_skills_find(sk, item->valuestring) : -1;
      if (!cJSON_IsString(item))
        return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.selected[%zu]: expected a skill id, got %s", i,
                          tsift_json_type_name(item));
      if (k < 0)
        return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.selected[%zu]: no skill \"%.60s\" in skills.catalog",
                          i, item->valuestring);
      if (sk->selected[k])
        return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.selected[%zu]: \"%.60s\" is listed twice", i,
                          item->valuestring);
      if (sk->items[k].tainted)
        return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.selected[%zu]: \"%.60s\" has tainted instructions", i,
                          item->valuestring);
      if (sk->items[k].instructions_len > sk->max_instruction_bytes)
        return tsift_fail(err, TSIFT_E_CONFIG,
                          "config: skills.selected[%zu]: \"%.60s\" has instructions over maxInstructionBytes (%zu > %u)",
                          i, item->valuestring, sk->items[k].instructions_len, sk->max_instruction_bytes);
      if (sk->nactive >= sk->max_active)
        return tsift_fail(err, TSIFT_E_CONFIG, "config: skills.selected: more than maxActive (%u) skills",
                          sk->max_active);
      sk->selected[k] = sk->active[k] = 1;
      memcpy(sk->pinned[k], sk->items[k].digest, sizeof sk->pinned[k]);
      sk->nactive++;
      i++;
    }
  return TSIFT_OK;
}

tsift_status tsift_skills_read(const cJSON *section, const cJSON *catalog_skills, tsift_skills **out,
                               tsift_error *err) {
  *out = NULL;
  if (!cJSON_IsObject(section))
    return tsift_fail(err, TSIFT_E_CONFIG, "config: skills: expected an object, got %s", tsift_json_type_name(section));
  tsift_skill *all = NULL;
  size_t nall = 0;
  tsift_status st = read_catalog_skills(catalog_skills, &all, &nall, err);
  if (st) return st;
  tsift_skills *sk = tsift_calloc_array(1, sizeof *sk);
  if (!sk) st = tsift_nomem(err, "reading skills");
  if (!st) st = read_section(sk, section, all, nall, err);
  for (size_t i = 0; i < nall; i++) skill_free(&all[i]);
  tsift_free(all);
  if (!st && (sk->discovery & DISCOVERY_SEARCH)) st = build_skill_index(sk, err);
  if (!st && sk->discovery == DISCOVERY_INDEX) {
    /* An index too small for even one skill would hide them all. */
    char *text = NULL;
    size_t len = 0;
    st = tsift_skills_prompt(sk, "search_tools", &text, &len, err);
    int has_nameable = 0;
    for (size_t i = 0; !st && i < sk->n && !has_nameable; i++)
      has_nameable = tsift_skills_listed(sk, i);
    if (!st && has_nameable && (len == 0 || text[0] != '-'))
      st = tsift_fail(err, TSIFT_E_CONFIG,
                      "config: skills.maxIndexBytes (%u) is too small for even one skill's index line",
                      sk->max_index_bytes);
    tsift_free(text);
  }
  if (st) {
    tsift_skills_free(sk);
    return st;
  }
  *out = sk;
  return TSIFT_OK;
}

/* ---- the system-prompt index ------------------------------------------ */

/* Listed in the index: not selected up front, nameable, and not tainted (a
 * tainted skill's text is third-party text that never reaches the prompt). */
/* 1 when skill k has a line in the index (not selected up front, nameable,
 * not tainted). */
static int tsift_skills_listed(const tsift_skills *sk, size_t k) {
  return !sk->selected[k] && !sk->items[k].tainted && tsift_skills_nameable(sk->items[k].id);
}

/* Append one index line: "- id: first line of the description [tags]\n". */
static void index_line(tsift_buf *b, const tsift_skill *k) {
  tsift_buf_append(b, "- ", 2);
  tsift_buf_append(b, k->id, strlen(k->id));
  const char *d = k->description ? k->description : "";
  size_t n = strlen(d), i = 0, chars = 0, start;
  while (i < n && (d[i] == ' ' || d[i] == '\t')) i++;
  start = i;
  size_t end = start;
  int cut = 0;
  /* The first line: up to a line break (or U+0085/U+2028/U+2029), other
   * control characters read as spaces. */
  tsift_buf line;
  tsift_buf_init(&line);
  while (end < n) {
    unsigned char c = (unsigned char)d[end];
    if (c == '\n' || c == '\r') break;
    if ((c == 0xC2 && end + 1 < n && (unsigned char)d[end + 1] == 0x85) ||
        (c == 0xE2 && end + 2 < n && (unsigned char)d[end + 1] == 0x80 &&
         ((unsigned char)d[end + 2] == 0xA8 || (unsigned char)d[end + 2] == 0xA9)))
      break;
    if (chars == SKILLS_INDEX_DESCRIPTION_CHARS) {
      cut = 1;
      break;
    }
    size_t len = 1;
    while (end + len < n && ((unsigned char)d[end + len] & 0xC0) == 0x80) len++;
    if (c < 0x20 || c == 0x7f) tsift_buf_putc(&line, ' ');
    else tsift_buf_append(&line, d + end, len);
    end += len;
    chars++;
  }
  size_t ll = line.len;
  while (ll > 0 && line.data[ll - 1] == ' ') ll--;
  if (ll) {
    tsift_buf_append(b, ": ", 2);
    tsift_buf_append(b, line.data, ll);
    if (cut) tsift_buf_append(b, TSIFT_ELLIPSIS, 3);
  }
  if (line.failed) b->failed = 1;
  tsift_buf_free(&line);
  if (k->ntags) {
    tsift_buf_append(b, " [", 2);
    for (size_t t = 0; t < k->ntags; t++) {
      if (t) tsift_buf_append(b, ", ", 2);
      tsift_buf_append(b, k->tags[t], strlen(k->tags[t]));
    }
    tsift_buf_putc(b, ']');
  }
  tsift_buf_putc(b, '\n');
}

static void marker(tsift_buf *b, size_t more, const tsift_skills *sk, const char *search_tool) {
  char m[200];
  int n = (sk->discovery & DISCOVERY_SEARCH)
              ? tsift_snprintf(m, sizeof m, "(+%zu more \xE2\x80\xA6 find them with %.128s)\n", more, search_tool)
              : tsift_snprintf(m, sizeof m, "(+%zu more \xE2\x80\xA6)\n", more);
  tsift_buf_append(b, m, (size_t)n);
}

tsift_status tsift_skills_prompt(const tsift_skills *sk, const char *search_tool, char **out, size_t *out_len,
                                 tsift_error *err) {
  tsift_buf b, lb, mb;
  tsift_buf_init(&b);
  if (sk->discovery == DISCOVERY_SEARCH) {
    char line[400];
    int n = tsift_snprintf(line, sizeof line,
                           "Skills are available: find them with %.128s and activate one with %.128s.\n", search_tool,
                           sk->tool_name);
    tsift_buf_append(&b, line, (size_t)n);
  } else {
    /* Lines in id order while maxIndex lines and maxIndexBytes (marker
     * included) allow; the rest is counted in the marker. */
    size_t total = 0;
    for (size_t i = 0; i < sk->n; i++) total += tsift_skills_listed(sk, i);
    size_t shown = 0;
    for (size_t i = 0; i < sk->n && !b.failed; i++) {
      if (!tsift_skills_listed(sk, i)) continue;
      if (shown == sk->max_index) break;
      tsift_buf_init(&lb);
      index_line(&lb, &sk->items[i]);
      size_t rest = total - shown - 1;
      tsift_buf_init(&mb);
      if (rest) marker(&mb, rest, sk, search_tool);
      int fits = !lb.failed && !mb.failed && b.len + lb.len + mb.len <= sk->max_index_bytes;
      if (lb.failed || mb.failed) b.failed = 1;
      if (fits) {
        tsift_buf_append(&b, lb.data, lb.len);
        shown++;
      }
      tsift_buf_free(&lb);
      tsift_buf_free(&mb);
      if (!fits) break;
    }
    if (shown < total) {
      /* The marker is left out when even it does not fit. */
      tsift_buf_init(&mb);
      marker(&mb, total - shown, sk, search_tool);
      if (mb.failed) b.failed = 1;
      else if (b.len + mb.len <= sk->max_index_bytes) tsift_buf_append(&b, mb.data, mb.len);
      tsift_buf_free(&mb);
    }
  }
  size_t len = 0;
  char *text = tsift_buf_take(&b, &len);
  if (!text) return tsift_nomem(err, "writing the skill index");
  *out = text;
  if (out_len) *out_len = len;
  return tsift_ok(err);
}
