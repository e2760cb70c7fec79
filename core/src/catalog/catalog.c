/* catalog.c — reads a catalog document (SPEC S1): recognises the MCP, OpenAI,
 * Anthropic and native tool shapes, validates every field and reports the
 * first problem loudly with the tool and field it concerns. */
#include "catalog/catalog.h"

#include "catalog/ids.h"
#include "text/textpack.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "base/fmt.h"
#include "json/json_check.h"
#include "json/json_tree.h"
#include "text/text.h"
#include "utf8proc.h"
#include "json/json_read.h"

static void tool_free(tsift_tool *t) {
  TSIFT_FREE_ALL(t->id, t->name, t->title, t->desc);
  for (size_t i = 0, n = (size_t)t->nlabels[0] + t->nlabels[1] + t->nlabels[2] + t->nlabels[3]; i < n; i++)
    tsift_free(t->labels[i]);
  tsift_free(t->labels);
}

void tsift_catalog_free(tsift_catalog *c) {
  if (!c) return;
  for (size_t i = 0; i < c->count; i++) /* a safe name is always the catalog's own */
    if (c->tools[i].menu_name != c->tools[i].id) tsift_free(c->tools[i].menu_name);
  if (!c->borrowed)
    for (size_t i = 0; i < c->count; i++) tool_free(&c->tools[i]);
  TSIFT_FREE_ALL(c->label_pool, c->embeddings, c->vocab, c->tools);
  if (c->arena) tsift_json_arena_free(c->arena); /* the tree is in it */
  else cJSON_Delete(c->root);
  memset(c, 0, sizeof *c);
}

tsift_status tsift_tool_decode(const tsift_tool *t, const char *code, uint32_t n, const char *what, char **text,
                               size_t *len, tsift_error *err) {
  /* The code is checked here, the first time it is read, not at load
   * (issue 37): a crafted snapshot's bad code is a snapshot error then. */
  long count = tsift_textpack_check(t->pack, (const unsigned char *)code, n);
  *text = NULL;
  *len = 0;
  if (count < 0) return tsift_fail(err, TSIFT_E_SNAPSHOT, "bad tool %s (tool \"%.60s\")", what, t->id);
  if (!(*text = tsift_alloc_bytes((size_t)count + 1))) return tsift_nomem(err, "decoding a tool's text");
  tsift_textpack_decode(t->pack, (const unsigned char *)code, n, *text);
  (*text)[count] = 0;
  *len = (size_t)count;
  return TSIFT_OK;
}

tsift_status tsift_tool_description(const tsift_tool *t, const char **text, size_t *len, char **owned,
                                    tsift_error *err) {
  *owned = NULL;
  *text = t->desc;
  *len = 0;
  if (!t->desc) return TSIFT_OK;
  if (!t->pack) {
    *len = strlen(t->desc);
    return TSIFT_OK;
  }
  const char *code;
  uint32_t n;
  tsift_tool_desc_code(t, &code, &n);
  tsift_status st = tsift_tool_decode(t, code, n, "description", owned, len, err);
  *text = *owned;
  return st;
}

size_t tsift_tool_desc_code(const tsift_tool *t, const char **code, uint32_t *n) {
  size_t at = 0;
  *n = 0;
  tsift_get_varint((const unsigned char *)t->desc, 5, &at, n); /* checked at load */
  *code = t->desc + at;
  return at + *n;
}

tsift_status tsift_tool_schema(const tsift_tool *t, const cJSON **schema, cJSON **owned, tsift_error *err) {
  *owned = NULL;
  *schema = t->schema;
  if (t->schema || !t->schema_text) return TSIFT_OK;
  size_t len;
  char *text;
  tsift_status st = tsift_tool_decode(t, t->schema_text, t->schema_code_len, "schema", &text, &len, err);
  if (st) return st;
  st = tsift_json_parse(text, len, "snapshot schema", owned, err);
  tsift_free(text);
  if (st) return st == TSIFT_E_NOMEM ? st : tsift_error_prefix(err, TSIFT_E_SNAPSHOT, "snapshot");
  *schema = *owned;
  return TSIFT_OK;
}

long tsift_catalog_find(const tsift_catalog *c, const char *id) {
  for (size_t i = 0; i < c->count; i++)
    if (strcmp(c->tools[i].id, id) == 0) return (long)i;
  return -1;
}

/* A short label for messages: tools[i] ("id"). Written by hand: it is made
 * twice for every tool read, and used only when something is wrong. */
static void tool_label(char *buf, size_t cap, size_t i, const char *id) {
  char text[112]; /* "tools[" 20 digits "] (\"" 60 bytes "\")" */
  char digits[24];
  size_t nd = 0, o = 6;
  do digits[nd++] = (char)('0' + i % 10);
  while ((i /= 10) && nd < sizeof digits);
  memcpy(text, "tools[", 6);
  while (nd) text[o++] = digits[--nd];
  text[o++] = ']';
  if (id) {
    size_t n = tsift_utf8_cut(id, strlen(id), 60);
    memcpy(text + o, " (\"", 3);
    memcpy(text + o + 3, id, n);
    memcpy(text + o + 3 + n, "\")", 2);
    o += n + 5;
  }
  if (o >= cap) o = tsift_utf8_cut(text, o, cap - 1);
  memcpy(buf, text, o);
  buf[o] = 0;
}

/* Normalise, de-duplicate and bound a label array into list `list` of the
 * tool's labels (after the labels it has: host annotations can repeat). */
static tsift_status read_labels(const cJSON *arr, const char *where, const char *field, tsift_tool *t,
                                int list, int merge, tsift_error *err) {
  if (!arr || cJSON_IsNull(arr)) return TSIFT_OK;
  if (!cJSON_IsArray(arr))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s\": expected an array of strings, got %s",
                      where, field, tsift_json_type_name(arr));
  size_t n = 0;
  const cJSON *item;
  cJSON_ArrayForEach(item, arr) {
    if (!cJSON_IsString(item))
      return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s[%zu]\": expected a string, got %s",
                        where, field, n, tsift_json_type_name(item));
    n++;
  }
  size_t cap = n < TSIFT_LABELS_MAX ? n : TSIFT_LABELS_MAX;
  if (cap > (size_t)(TSIFT_LIST_LABELS_MAX - t->nlabels[list])) cap = TSIFT_LIST_LABELS_MAX - t->nlabels[list];
  /* Labels merged into a list (a vocabulary after the catalog's own
   * annotations) keep the list within TSIFT_LABELS_MAX. */
  if (merge && cap > (size_t)(TSIFT_LABELS_MAX - (t->nlabels[list] < TSIFT_LABELS_MAX ? t->nlabels[list] : TSIFT_LABELS_MAX)))
    cap = TSIFT_LABELS_MAX - (t->nlabels[list] < TSIFT_LABELS_MAX ? t->nlabels[list] : TSIFT_LABELS_MAX);
  size_t start = 0, total = 0;
  for (int i = 0; i < 4; i++) {
    if (i < list) start += t->nlabels[i];
    total += t->nlabels[i];
  }
  char **items = tsift_realloc_bytes(t->labels, (total + cap + 1) * sizeof *items);
  if (!items) return tsift_nomem(err, "reading labels");
  t->labels = items;
  size_t added = 0;
  cJSON_ArrayForEach(item, arr) {
    if (added >= cap) break; /* 16 distinct labels per list */
    char *norm = NULL;
    size_t norm_len = 0;
    tsift_status st =
        tsift_label_normalize(item->valuestring, strlen(item->valuestring), &norm, &norm_len, err);
    if (st != TSIFT_OK) {
      if (st != TSIFT_E_NOMEM) {
        char prefix[192];
        tsift_snprintf(prefix, sizeof prefix, "%s: field \"%s\"", where, field);
        tsift_error_prefix(err, st, prefix);
      }
      return st;
    }
    size_t end = start + t->nlabels[list];
    int dup = norm_len == 0;
    for (size_t k = start; !dup && k < end; k++) dup = strcmp(items[k], norm) == 0;
    if (dup) {
      tsift_free(norm);
      continue;
    }
    memmove(items + end + 1, items + end, (total - end) * sizeof *items); /* the lists after it */
    items[end] = norm;
    t->nlabels[list]++;
    total++;
    added++;
  }
  return TSIFT_OK;
}

/* Read an optional string field `v` into *out (owned copy). */
static tsift_status read_string(const cJSON *v, const char *where, const char *field, char **out,
                                tsift_error *err) {
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  if (!cJSON_IsString(v))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s\": expected a string, got %s", where,
                      field, tsift_json_type_name(v));
  *out = tsift_strndup(v->valuestring, strlen(v->valuestring));
  return *out ? TSIFT_OK : tsift_nomem(err, "reading the catalog");
}

static tsift_status read_bool(const cJSON *v, const char *key, const char *where, uint8_t *out,
                              tsift_error *err) {
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  if (!cJSON_IsBool(v))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s\": expected a boolean, got %s", where,
                      key, tsift_json_type_name(v));
  *out = cJSON_IsTrue(v) ? 1 : 0;
  return TSIFT_OK;
}

/* The members of a tool object read_tool looks at, found in one pass as
 * cJSON_GetObjectItemCaseSensitive finds each (the first with the key; none
 * past a member without a key) instead of fifteen passes. */
enum {
  K_TYPE, K_FUNCTION, K_INPUT_SCHEMA, K_INPUT_SCHEMA_SNAKE, K_PARAMETERS, K_NAME, K_DESCRIPTION, K_ID, K_TITLE,
  K_ANNOTATIONS, K_EMBEDDING, K_TAGS, K_ALIASES, K_ORIGIN, K_TRUSTED, K_TAINTED, K_COUNT
};
static const char *const k_tool_keys[K_COUNT] = {
    "type", "function", "inputSchema", "input_schema", "parameters", "name", "description", "id", "title",
    "annotations", "embedding", "tags", "aliases", "origin", "trusted", "tainted"};

static void tool_members(const cJSON *obj, const cJSON *m[K_COUNT]) {
  for (int k = 0; k < K_COUNT; k++) m[k] = NULL;
  for (const cJSON *c = obj->child; c && c->string; c = c->next)
    for (int k = 0; k < K_COUNT; k++)
      if (k_tool_keys[k][0] == c->string[0] && strcmp(k_tool_keys[k], c->string) == 0) {
        if (!m[k]) m[k] = c;
        break;
      }
}

/* ---- one tool --------------------------------------------------------- */

static tsift_status read_tool(const cJSON *item, size_t index, tsift_id_rule ids, tsift_tool *t,
                              const cJSON **emb, tsift_error *err) {
  char where[128];
  tool_label(where, sizeof where, index, NULL);
  if (!cJSON_IsObject(item))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected an object, got %s", where,
                      tsift_json_type_name(item));

  /* Recognise the shape by its keys. */
  const cJSON *m[K_COUNT], *fm[K_COUNT];
  tool_members(item, m);
  const cJSON **sm = m; /* the members where name/description/schema live */
  int schema_key = K_PARAMETERS;
  const cJSON *type = m[K_TYPE];
  const cJSON *fn = m[K_FUNCTION];
  if (cJSON_IsString(type) && strcmp(type->valuestring, "function") == 0) {
    t->shape = TSIFT_SHAPE_OPENAI;
    if (fn) {
      if (!cJSON_IsObject(fn))
        return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"function\": expected an object, got %s",
                          where, tsift_json_type_name(fn));
      tool_members(fn, fm);
      sm = fm;
    }
  } else if (m[K_INPUT_SCHEMA]) {
    t->shape = TSIFT_SHAPE_MCP;
    schema_key = K_INPUT_SCHEMA;
  } else if (m[K_INPUT_SCHEMA_SNAKE]) {
    t->shape = TSIFT_SHAPE_ANTHROPIC;
    schema_key = K_INPUT_SCHEMA_SNAKE;
  } else {
    t->shape = TSIFT_SHAPE_NATIVE;
    schema_key = m[K_PARAMETERS] ? K_PARAMETERS : K_INPUT_SCHEMA;
  }

  /* name */
  const cJSON *name = sm[K_NAME];
  if (!name || cJSON_IsNull(name))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: missing \"name\"", where);
  if (!cJSON_IsString(name))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"name\": expected a string, got %s", where,
                      tsift_json_type_name(name));
  if (name->valuestring[0] == 0)
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"name\": must not be empty", where);
  t->name = tsift_strndup(name->valuestring, strlen(name->valuestring));
  if (!t->name) return tsift_nomem(err, "reading the catalog");

  /* id (defaults to name) */
  tsift_status st = read_string(m[K_ID], where, "id", &t->id, err);
  if (st != TSIFT_OK) return st;
  if (!t->id) {
    t->id = tsift_strndup(t->name, strlen(t->name));
    if (!t->id) return tsift_nomem(err, "reading the catalog");
  }
  tool_label(where, sizeof where, index, t->id);
  if (ids == TSIFT_IDS_LENIENT) {
    if (!tsift_id_lenient_valid(t->id, strlen(t->id))) return tsift_id_refuse(err, where, t->id);
  } else if (!tsift_id_valid(t->id, strlen(t->id)))
    return tsift_fail(err, TSIFT_E_CONFIG,
                      "%s: invalid id: must match ^[A-Za-z0-9_.:-]{1,128}$ (set \"id\" to a "
                      "model-facing name)",
                      where);

  if ((st = read_string(sm[K_DESCRIPTION], where, "description", &t->desc, err))) return st;

  /* title: top-level, or MCP annotations.title */
  if ((st = read_string(m[K_TITLE], where, "title", &t->title, err))) return st;
  const cJSON *ann = m[K_ANNOTATIONS];
  if (ann && !cJSON_IsNull(ann)) {
    if (!cJSON_IsObject(ann))
      return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"annotations\": expected an object, got %s",
                        where, tsift_json_type_name(ann));
    if (!t->title && (st = read_string(cJSON_GetObjectItemCaseSensitive(ann, "title"), where, "annotations.title",
                                       &t->title, err)))
      return st;
  }

  /* schema */
  const cJSON *schema = sm[schema_key];
  if (schema && !cJSON_IsNull(schema)) {
    if (!cJSON_IsObject(schema))
      return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s\": expected an object, got %s", where,
                        k_tool_keys[schema_key], tsift_json_type_name(schema));
    t->schema = schema;
  }

  /* an embedding vector: checked with the others when the index is built (vectors.c) */
  if (m[K_EMBEDDING] && !cJSON_IsNull(m[K_EMBEDDING])) *emb = m[K_EMBEDDING];

  /* native extras */
  if ((st = read_labels(m[K_TAGS], where, "tags", t, TSIFT_TAGS, 0, err))) return st;
  if ((st = read_labels(m[K_ALIASES], where, "aliases", t, TSIFT_ALIASES, 0, err))) return st;
  const cJSON *origin = m[K_ORIGIN];
  if (origin && !cJSON_IsNull(origin)) {
    if (!cJSON_IsString(origin))
      return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"origin\": expected a string, got %s",
                        where, tsift_json_type_name(origin));
    if (strcmp(origin->valuestring, "local") == 0) t->origin = TSIFT_ORIGIN_LOCAL;
    else if (strcmp(origin->valuestring, "remote") == 0) t->origin = TSIFT_ORIGIN_REMOTE;
    else if (strcmp(origin->valuestring, "a2a") == 0) t->origin = TSIFT_ORIGIN_A2A;
    else
      return tsift_fail(err, TSIFT_E_CONFIG,
                        "%s: field \"origin\": expected \"local\", \"remote\" or \"a2a\"", where);
  }
  if ((st = read_bool(m[K_TRUSTED], "trusted", where, &t->trusted, err))) return st;
  if ((st = read_bool(m[K_TAINTED], "tainted", where, &t->tainted, err))) return st;
  return TSIFT_OK;
}

/* ---- the catalog ------------------------------------------------------ */

typedef struct id_ref {
  const char *id;
  size_t index;
} id_ref;

static int id_ref_cmp(const void *a, const void *b) {
  const id_ref *x = a, *y = b;
  int c = strcmp(x->id, y->id);
  if (c) return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

static long find_sorted(const id_ref *refs, size_t n, const char *id) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(refs[mid].id, id);
    if (c == 0) return (long)refs[mid].index;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* Host annotations {"<tool id>": {"tags": [...], "aliases": [...]}}: the
 * catalog's own (`vocabulary` 0: an id no tool has is an error), or a
 * vocabulary from outside it (the index option "annotations", docs/learning.md:
 * merged after the catalog's, each list kept within TSIFT_LABELS_MAX, and an
 * id no tool has is skipped and counted in *unknown — a vocabulary outlives
 * the tools it was learned for). `where0` names the document. */
static tsift_status read_annotations(const cJSON *ann, tsift_catalog *c, const id_ref *refs, const char *where0,
                                     int vocabulary, size_t *unknown, tsift_error *err) {
  if (!ann || cJSON_IsNull(ann)) return TSIFT_OK;
  if (!cJSON_IsObject(ann))
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"annotations\": expected an object, got %s", where0,
                      tsift_json_type_name(ann));
  const cJSON *entry;
  cJSON_ArrayForEach(entry, ann) {
    char where[160];
    size_t n = tsift_utf8_cut(entry->string, strlen(entry->string), 60);
    tsift_snprintf(where, sizeof where, "%s%sannotations[\"%.*s\"]", vocabulary ? where0 : "", vocabulary ? ": " : "",
                   (int)n, entry->string);
    long idx = find_sorted(refs, c->count, entry->string);
    if (idx < 0) idx = tsift_catalog_find_renamed(c, entry->string, 1);
    if (idx < 0 && !vocabulary) return tsift_fail(err, TSIFT_E_CONFIG, "%s: no tool has this id", where);
    if (!cJSON_IsObject(entry))
      return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected an object, got %s", where,
                        tsift_json_type_name(entry));
    const cJSON *k;
    /* A vocabulary file is read strictly; the catalog's own entries may
     * carry other keys (real catalogs do, and always could). */
    if (vocabulary)
      cJSON_ArrayForEach(k, entry) if (strcmp(k->string, "tags") != 0 && strcmp(k->string, "aliases") != 0) {
      n = tsift_utf8_cut(k->string, strlen(k->string), 40);
      return tsift_fail(err, TSIFT_E_CONFIG, "%s: unknown key \"%.*s\" (expected \"tags\" or \"aliases\")", where,
                        (int)n, k->string);
    }
    if (idx < 0) { /* a vocabulary's entry for a tool that is gone: read, then left out */
      static const char *const lists[] = {"tags", "aliases"};
      for (int k = 0; k < 2; k++) {
        const cJSON *arr = cJSON_GetObjectItemCaseSensitive(entry, lists[k]), *item;
        if (!arr || cJSON_IsNull(arr)) continue;
        if (!cJSON_IsArray(arr))
          return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s\": expected an array of strings, got %s", where,
                            lists[k], tsift_json_type_name(arr));
        size_t i = 0;
        cJSON_ArrayForEach(item, arr) {
          if (!cJSON_IsString(item))
            return tsift_fail(err, TSIFT_E_CONFIG, "%s: field \"%s[%zu]\": expected a string, got %s", where,
                              lists[k], i, tsift_json_type_name(item));
          i++;
        }
      }
      (*unknown)++;
      continue;
    }
    tsift_tool *t = &c->tools[idx];
    uint8_t tags = t->nlabels[TSIFT_HOST_TAGS], aliases = t->nlabels[TSIFT_HOST_ALIASES];
    tsift_status st;
    if ((st = read_labels(cJSON_GetObjectItemCaseSensitive(entry, "tags"), where, "tags",
                          t, TSIFT_HOST_TAGS, vocabulary, err)))
      return st;
    if ((st = read_labels(cJSON_GetObjectItemCaseSensitive(entry, "aliases"), where, "aliases",
                          t, TSIFT_HOST_ALIASES, vocabulary, err)))
      return st;
    if (vocabulary) { /* which labels are the vocabulary's (explain shows them as learned) */
      if (!c->vocab && !(c->vocab = tsift_calloc_array(2 * c->count + 1, 1))) return tsift_nomem(err, "reading the vocabulary");
      c->vocab[2 * idx] = (uint8_t)(c->vocab[2 * idx] + t->nlabels[TSIFT_HOST_TAGS] - tags);
      c->vocab[2 * idx + 1] = (uint8_t)(c->vocab[2 * idx + 1] + t->nlabels[TSIFT_HOST_ALIASES] - aliases);
    }
  }
  return TSIFT_OK;
}

/* The catalog's tools sorted by id, for read_annotations; NULL when out of memory. */
static id_ref *sorted_ids(const tsift_catalog *c) {
  id_ref *refs = tsift_calloc_array(c->count ? c->count : 1, sizeof *refs);
  if (!refs) return NULL;
  for (size_t i = 0; i < c->count; i++) {
    refs[i].id = c->tools[i].id;
    refs[i].index = i;
  }
  qsort(refs, c->count, sizeof *refs, id_ref_cmp);
  return refs;
}

tsift_status tsift_catalog_add_vocabulary(tsift_catalog *c, const cJSON *ann, const char *where, size_t *unknown,
                                          tsift_error *err) {
  *unknown = 0;
  id_ref *refs = sorted_ids(c);
  if (!refs) return tsift_nomem(err, "reading the vocabulary");
  tsift_status st = read_annotations(ann, c, refs, where, 1, unknown, err);
  tsift_free(refs);
  return st;
}

static tsift_status catalog_read(cJSON *root, tsift_json_arena *arena, tsift_id_rule ids, tsift_catalog *out,
                                 tsift_error *err);

tsift_status tsift_catalog_parse(const char *json, size_t len, tsift_id_rule ids,
                                 tsift_catalog *out, tsift_error *err) {
  memset(out, 0, sizeof *out);
  cJSON *root = NULL;
  tsift_json_arena *arena = NULL; /* the catalog's tree lives and dies with it */
  tsift_status st = tsift_json_parse_arena(json, len, "catalog", &root, &arena, err);
  if (st != TSIFT_OK) return st;
  return catalog_read(root, arena, ids, out, err);
}

tsift_status tsift_catalog_read(cJSON *root, tsift_id_rule ids, tsift_catalog *out, tsift_error *err) {
  return catalog_read(root, NULL, ids, out, err);
}

static tsift_status catalog_read(cJSON *root, tsift_json_arena *arena, tsift_id_rule ids, tsift_catalog *out,
                                 tsift_error *err) {
  memset(out, 0, sizeof *out);
  out->root = root;
  out->arena = arena;
  tsift_status st = TSIFT_OK;

  const cJSON *tools = NULL, *annotations = NULL;
  if (cJSON_IsArray(root)) {
    tools = root;
  } else if (cJSON_IsObject(root)) {
    tools = cJSON_GetObjectItemCaseSensitive(root, "tools");
    if (!tools) {
      st = tsift_fail(err, TSIFT_E_CONFIG,
                      "catalog: expected an array of tools or an object with a \"tools\" array");
      goto fail;
    }
    if (!cJSON_IsArray(tools)) {
      st = tsift_fail(err, TSIFT_E_CONFIG, "catalog: field \"tools\": expected an array, got %s",
                      tsift_json_type_name(tools));
      goto fail;
    }
    annotations = cJSON_GetObjectItemCaseSensitive(root, "annotations");
    const cJSON *skills = cJSON_GetObjectItemCaseSensitive(root, "skills");
    if (skills && !cJSON_IsNull(skills) && !cJSON_IsArray(skills)) {
      st = tsift_fail(err, TSIFT_E_CONFIG, "catalog: field \"skills\": expected an array, got %s",
                      tsift_json_type_name(skills));
      goto fail;
    }
  } else {
    st = tsift_fail(err, TSIFT_E_CONFIG,
                    "catalog: expected an array of tools or an object with a \"tools\" array, got %s",
                    tsift_json_type_name(root));
    goto fail;
  }

  size_t n = (size_t)cJSON_GetArraySize(tools);
  out->tools = tsift_calloc_array(n ? n : 1, sizeof *out->tools);
  if (!out->tools) {
    st = tsift_nomem(err, "reading the catalog");
    goto fail;
  }
  const cJSON *item;
  cJSON_ArrayForEach(item, tools) {
    const cJSON *emb = NULL;
    st = read_tool(item, out->count, ids, &out->tools[out->count], &emb, err);
    if (!st && emb && !out->embeddings && !(out->embeddings = tsift_calloc_array(n, sizeof *out->embeddings)))
      st = tsift_nomem(err, "reading the catalog");
    if (!st && emb) out->embeddings[out->count] = emb;
    out->count++; /* count it even on failure so it is freed */
    if (st != TSIFT_OK) goto fail;
  }

  /* Unique ids. */
  id_ref *refs = sorted_ids(out);
  if (!refs) {
    st = tsift_nomem(err, "checking ids");
    goto fail;
  }
  for (size_t i = 1; i < n; i++) {
    if (strcmp(refs[i].id, refs[i - 1].id) == 0) {
      char where[128];
      tool_label(where, sizeof where, refs[i].index, refs[i].id);
      st = tsift_fail(err, TSIFT_E_CONFIG, "%s: duplicate id (first used by tools[%zu])", where,
                      refs[i - 1].index);
      tsift_free(refs);
      goto fail;
    }
  }
  st = tsift_catalog_name_tools(out, ids, err);
  if (!st) st = read_annotations(annotations, out, refs, "catalog", 0, NULL, err);
  tsift_free(refs);
  if (st != TSIFT_OK) goto fail;
  return TSIFT_OK;

fail:
  tsift_catalog_free(out);
  return st;
}
