/* tool_text.c — the trust policy (SPEC S2) and schema walk (SPEC S5). Nothing else
 * in the core decides which text of a tool reaches the index. */
#include "catalog/tool_text.h"

#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"

const char *const tsift_field_names[TSIFT_FIELD_COUNT] = {
    "name", "aliases", "tags", "description", "params", "param_docs"};

const unsigned tsift_field_token_caps[TSIFT_FIELD_COUNT] = {32, 96, 64, 128, 128, 128};

const char *tsift_trust_name(tsift_trust t) {
  switch (t) {
    case TSIFT_TRUST_FIRST_PARTY: return "first-party";
    case TSIFT_TRUST_REMOTE: return "remote";
    case TSIFT_TRUST_VOUCHED: return "vouched";
    case TSIFT_TRUST_TAINTED: return "tainted";
  }
  return "remote";
}

tsift_trust tsift_trust_of(const tsift_tool *t) {
  if (t->tainted) return TSIFT_TRUST_TAINTED;
  if (t->origin == TSIFT_ORIGIN_LOCAL) return TSIFT_TRUST_FIRST_PARTY;
  return t->trusted ? TSIFT_TRUST_VOUCHED : TSIFT_TRUST_REMOTE;
}

int tsift_description_visible(const tsift_tool *t) {
  tsift_trust tr = tsift_trust_of(t);
  return tr == TSIFT_TRUST_FIRST_PARTY || tr == TSIFT_TRUST_VOUCHED;
}

tsift_status tsift_shown_description(const tsift_tool *t, const char **text, size_t *len, char **owned,
                                     tsift_error *err) {
  if (tsift_description_visible(t)) return tsift_tool_description(t, text, len, owned, err);
  *text = TSIFT_WITHHELD_DESCRIPTION;
  *len = strlen(TSIFT_WITHHELD_DESCRIPTION);
  *owned = NULL;
  return TSIFT_OK;
}

tsift_trust tsift_label_class(const tsift_tool *t) {
  tsift_trust trust = tsift_trust_of(t);
  if (trust != TSIFT_TRUST_TAINTED) return trust;
  return t->origin == TSIFT_ORIGIN_LOCAL ? TSIFT_TRUST_FIRST_PARTY
                                         : (t->trusted ? TSIFT_TRUST_VOUCHED : TSIFT_TRUST_REMOTE);
}

void tsift_document_free(tsift_document *doc) {
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) tsift_tokens_free(&doc->fields[f]);
  tsift_tokens_free(&doc->name_seq);
  tsift_tokens_free(&doc->id_seq);
}

static tsift_status add_text(tsift_document *doc, tsift_field f, const char *s, size_t n,
                             tsift_error *err) {
  return tsift_analyze(s, n, TSIFT_FIELD_MAX_BYTES, 0, tsift_field_token_caps[f], &doc->fields[f],
                       err);
}

static tsift_status add_labels(tsift_document *doc, tsift_field f, const tsift_tool *t, int list,
                               tsift_error *err) {
  tsift_status st = TSIFT_OK;
  tsift_labels l = tsift_tool_labels(t, list);
  for (size_t i = 0; i < l.count && st == TSIFT_OK; i++)
    st = add_text(doc, f, l.items[i], strlen(l.items[i]), err);
  return st;
}

/* ---- schema walk ------------------------------------------------------ */

typedef struct walk {
  tsift_document *doc;
  int with_docs; /* index nested descriptions (trusted tools) */
  unsigned nodes, props;
  size_t text;   /* bytes of schema text consumed so far */
  tsift_error *err;
} walk;

/* Consume up to the text budget; returns the bytes that fit. */
static size_t budget(walk *w, const char *s, size_t n) {
  size_t left = TSIFT_SCHEMA_MAX_TEXT - w->text;
  size_t take = tsift_utf8_cut(s, n, left);
  w->text += take;
  return take;
}

static tsift_status walk_node(walk *w, const cJSON *node, int depth);

static tsift_status walk_each(walk *w, const cJSON *container, int depth) {
  tsift_status st = TSIFT_OK;
  const cJSON *child;
  if (cJSON_IsObject(container) || cJSON_IsArray(container)) {
    cJSON_ArrayForEach(child, container) {
      if ((st = walk_node(w, child, depth)) != TSIFT_OK) break;
    }
  }
  return st;
}

/* The members of a schema node the walk reads, found in one pass over its
 * members as cJSON_GetObjectItemCaseSensitive finds each (the first with the
 * key; none past a member without a key), instead of one pass per key: most
 * members ("type", "enum", …) are passed over on their first byte. */
enum { M_DESCRIPTION, M_PROPERTIES, M_ITEMS, M_ANY_OF, M_ONE_OF, M_ALL_OF, M_ADDITIONAL, M_DEFS, M_DEFINITIONS, M_COUNT };
static const char *const k_schema_members[M_COUNT] = {
    "description", "properties", "items", "anyOf", "oneOf", "allOf", "additionalProperties", "$defs", "definitions"};

static void schema_members(const cJSON *node, const cJSON *m[M_COUNT]) {
  for (int k = 0; k < M_COUNT; k++) m[k] = NULL;
  for (const cJSON *c = node->child; c && c->string; c = c->next) {
    int k0, k1; /* the candidates by first byte */
    switch (c->string[0]) {
      case 'd': k0 = M_DESCRIPTION, k1 = M_DEFINITIONS; break;
      case 'p': k0 = k1 = M_PROPERTIES; break;
      case 'i': k0 = k1 = M_ITEMS; break;
      case 'a': k0 = M_ANY_OF, k1 = c->string[1] == 'l' ? M_ALL_OF : M_ADDITIONAL; break;
      case 'o': k0 = k1 = M_ONE_OF; break;
      case '$': k0 = k1 = M_DEFS; break;
      default: continue;
    }
    if (!m[k0] && strcmp(c->string, k_schema_members[k0]) == 0) m[k0] = c;
    else if (!m[k1] && strcmp(c->string, k_schema_members[k1]) == 0) m[k1] = c;
  }
}

static tsift_status walk_node(walk *w, const cJSON *node, int depth) {
  if (!cJSON_IsObject(node) || depth >= TSIFT_SCHEMA_MAX_DEPTH ||
      w->nodes >= TSIFT_SCHEMA_MAX_NODES || w->text >= TSIFT_SCHEMA_MAX_TEXT)
    return TSIFT_OK;
  w->nodes++;
  tsift_status st = TSIFT_OK;
  const cJSON *m[M_COUNT];
  schema_members(node, m);
  if (w->with_docs) {
    const cJSON *d = m[M_DESCRIPTION];
    if (cJSON_IsString(d)) {
      size_t n = budget(w, d->valuestring, strlen(d->valuestring));
      if ((st = add_text(w->doc, TSIFT_FIELD_PARAM_DOCS, d->valuestring, n, w->err))) return st;
    }
  }
  const cJSON *props = m[M_PROPERTIES];
  if (cJSON_IsObject(props)) {
    const cJSON *p;
    cJSON_ArrayForEach(p, props) {
      if (w->props >= TSIFT_SCHEMA_MAX_PROPERTIES || w->text >= TSIFT_SCHEMA_MAX_TEXT) break;
      w->props++;
      size_t n = budget(w, p->string, strlen(p->string));
      if ((st = add_text(w->doc, TSIFT_FIELD_PARAMS, p->string, n, w->err))) return st;
      if ((st = walk_node(w, p, depth + 1))) return st;
    }
  }
  /* items may be a schema or (draft-04 tuples) an array of schemas. */
  const cJSON *items = m[M_ITEMS];
  if (cJSON_IsArray(items)) st = walk_each(w, items, depth + 1);
  else st = walk_node(w, items, depth + 1);
  if (st) return st;
  for (int i = M_ANY_OF; i <= M_ALL_OF; i++)
    if ((st = walk_each(w, m[i], depth + 1))) return st;
  if ((st = walk_node(w, m[M_ADDITIONAL], depth + 1))) return st;
  if ((st = walk_each(w, m[M_DEFS], depth + 1))) return st;
  return walk_each(w, m[M_DEFINITIONS], depth + 1);
}

/* ---- the policy ------------------------------------------------------- */

tsift_status tsift_document_build(const tsift_tool *tool, tsift_document *doc, tsift_error *err) {
  memset(doc, 0, sizeof *doc);
  return tsift_document_rebuild(tool, doc, err);
}

static tsift_status document_build(const tsift_tool *tool, tsift_document *doc, int all_text, tsift_error *err);

tsift_status tsift_document_rebuild(const tsift_tool *tool, tsift_document *doc, tsift_error *err) {
  return document_build(tool, doc, 0, err);
}

tsift_status tsift_document_all_text(const tsift_tool *tool, tsift_document *doc, tsift_error *err) {
  return document_build(tool, doc, 1, err);
}

/* `all_text`: every word of the tool's own text, as if it were first-party
 * (what learning must not teach it, learn.c), instead of the policy's. */
static tsift_status document_build(const tsift_tool *tool, tsift_document *doc, int all_text, tsift_error *err) {
  /* The lists keep their memory: a build reuses one document for every
   * tool instead of growing eight lists from nothing each time. */
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) tsift_tokens_clear(&doc->fields[f]);
  tsift_tokens_clear(&doc->name_seq);
  tsift_tokens_clear(&doc->id_seq);
  tsift_trust trust = all_text ? TSIFT_TRUST_FIRST_PARTY : tsift_trust_of(tool);
  doc->trust = trust;
  /* What each class may index (SPEC S2 table). A tainted tool keeps the
   * label treatment of the class it would otherwise have. */
  tsift_trust label_class = all_text ? TSIFT_TRUST_FIRST_PARTY : tsift_label_class(tool);
  int own_description = trust == TSIFT_TRUST_FIRST_PARTY || trust == TSIFT_TRUST_VOUCHED;
  int schema_docs = own_description;

  tsift_status st = TSIFT_OK;
  /* Name field: the name, the id's extra tokens (e.g. its namespace), the title. */
  st = tsift_analyze(tool->name, strlen(tool->name), TSIFT_FIELD_MAX_BYTES, 0, TSIFT_SEQ_TOKENS_MAX,
                     &doc->name_seq, err);
  if (!st)
    st = tsift_analyze(tool->id, strlen(tool->id), TSIFT_FIELD_MAX_BYTES, 0, TSIFT_SEQ_TOKENS_MAX, &doc->id_seq, err);
  tsift_tokens *name = &doc->fields[TSIFT_FIELD_NAME];
  for (size_t i = 0; !st && i < doc->name_seq.count && name->count < 32; i++)
    if (tsift_tokens_push(name, tsift_token(&doc->name_seq, i), doc->name_seq.len[i]))
      st = tsift_nomem(err, "building a search document");
  for (size_t i = 0; !st && i < doc->id_seq.count && name->count < 32; i++) {
    const char *t = tsift_token(&doc->id_seq, i);
    size_t n = doc->id_seq.len[i];
    if (tsift_tokens_find(&doc->name_seq, t, n) >= 0) continue;
    if (tsift_tokens_push(name, t, n)) st = tsift_nomem(err, "building a search document");
  }
  if (!st && tool->title) st = add_text(doc, TSIFT_FIELD_NAME, tool->title, strlen(tool->title), err);

  /* Own labels by class; host annotations always. */
  if (!st && label_class == TSIFT_TRUST_FIRST_PARTY) {
    st = add_labels(doc, TSIFT_FIELD_ALIASES, tool, TSIFT_ALIASES, err);
    if (!st) st = add_labels(doc, TSIFT_FIELD_TAGS, tool, TSIFT_TAGS, err);
  }
  if (!st) st = add_labels(doc, TSIFT_FIELD_ALIASES, tool, TSIFT_HOST_ALIASES, err);
  if (!st) st = add_labels(doc, TSIFT_FIELD_TAGS, tool, TSIFT_HOST_TAGS, err);

  if (!st && own_description) {
    const char *desc;
    size_t dl;
    char *owned;
    st = tsift_tool_description(tool, &desc, &dl, &owned, err);
    if (!st && desc) st = add_text(doc, TSIFT_FIELD_DESCRIPTION, desc, dl, err);
    tsift_free(owned);
  }
  if (!st && label_class == TSIFT_TRUST_VOUCHED) {
    st = add_labels(doc, TSIFT_FIELD_DESCRIPTION, tool, TSIFT_ALIASES, err);
    if (!st) st = add_labels(doc, TSIFT_FIELD_DESCRIPTION, tool, TSIFT_TAGS, err);
  }

  if (!st && tool->schema) {
    walk w = {doc, schema_docs, 0, 0, 0, err};
    st = walk_node(&w, tool->schema, 0);
  }
  if (st) tsift_document_free(doc);
  return st;
}
