/* catalog.h — catalog JSON (SPEC S1) into validated tool records. */
#ifndef TSIFT_CATALOG_H
#define TSIFT_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "toolsift.h"

struct cJSON;

typedef enum { TSIFT_ORIGIN_LOCAL = 0, TSIFT_ORIGIN_REMOTE, TSIFT_ORIGIN_A2A } tsift_origin;
typedef enum {
  TSIFT_SHAPE_NATIVE = 0,
  TSIFT_SHAPE_MCP,
  TSIFT_SHAPE_OPENAI,
  TSIFT_SHAPE_ANTHROPIC
} tsift_shape;

/* A list of normalised labels (tags or aliases): a view of one of a tool's
 * four lists (tsift_tool_labels). */
typedef struct tsift_labels {
  char *const *items;
  size_t count;
} tsift_labels;

/* A tool's label lists, in the order they are stored: its own tags and
 * aliases, then the host's annotations. */
enum { TSIFT_TAGS, TSIFT_ALIASES, TSIFT_HOST_TAGS, TSIFT_HOST_ALIASES };
/* The most labels a list holds: a count is a byte (a list takes at most
 * TSIFT_LABELS_MAX from each array read into it; this bounds the merge). */
#define TSIFT_LIST_LABELS_MAX 255

/* One tool. Strings are owned NUL-terminated copies; `schema` points into the
 * catalog's parsed JSON tree (NULL when the tool has none). In an index loaded
 * from a snapshot the strings live in the snapshot's bytes (the catalog is
 * `borrowed`), the description stays coded (read it through
 * tsift_tool_description), `schema` is NULL and `schema_text` holds the
 * schema as coded compact JSON, parsed only when a menu needs it
 * (tsift_tool_schema). */
typedef struct tsift_tool {
  char *id;        /* the catalog's key for the tool */
  char *menu_name; /* its name on the model's menu: id itself, or a safe name (ids.c) */
  char *name;
  char *title; /* MCP title or annotations.title, or NULL */
  /* The description, or NULL: a string for a built tool; for a loaded one
   * (pack set) a varint byte count and a textpack code of that many bytes,
   * in the snapshot's kept bytes. Only tsift_tool_description reads it. */
  char *desc;
  const struct cJSON *schema;
  /* Snapshot only: the dictionary the description's and schema's codes are
   * in (textpack.h; NULL for a built tool), and the schema's compact JSON
   * text as a code of schema_code_len bytes (schema_text NULL when the tool
   * has none). */
  const struct tsift_textpack *pack;
  const char *schema_text;
  uint32_t schema_code_len;
  /* The four label lists (TSIFT_TAGS ...) one after the other, nlabels[i]
   * in list i; NULL when all are empty. Read them through tsift_tool_labels.
   * One pointer and four bytes instead of four (pointer, size_t) pairs. */
  char **labels;
  uint8_t nlabels[4];
  uint8_t origin; /* tsift_origin; bytes, not enums, for a smaller record */
  uint8_t shape;  /* tsift_shape */
  uint8_t trusted, tainted;
} tsift_tool;

/* List `list` of a tool's labels (TSIFT_TAGS ...). */
static inline tsift_labels tsift_tool_labels(const tsift_tool *t, int list) {
  size_t at = 0;
  for (int i = 0; i < list; i++) at += t->nlabels[i];
  tsift_labels l = {t->labels ? t->labels + at : NULL, t->nlabels[list]};
  return l;
}

typedef struct tsift_catalog {
  tsift_tool *tools;
  size_t count;
  struct cJSON *root; /* owned parsed document (NULL when loaded from a snapshot) */
  int borrowed;       /* strings belong to someone else: free only the arrays */
  size_t renamed;     /* tools whose menu_name is a safe name, not the id (ids.c) */
  char **label_pool;  /* borrowed: one array behind every tool's labels */
  /* Per tool its own "embedding" (vectors.h reads them at build), pointing
   * into the tree, NULL when it has none; the array is NULL when no tool
   * has one (always for a catalog loaded from a snapshot). Beside the
   * records, not in them: only a build with vectors reads them. */
  const struct cJSON **embeddings;
  /* With a vocabulary (the index option "annotations", docs/learning.md):
   * per tool two counts, of its host tags and of its host aliases, of the
   * last labels of those lists that came from the vocabulary (what explain
   * shows as learned); NULL without one. */
  uint8_t *vocab;
  /* The blocks `root` lives in when tsift_catalog_parse made it (freed
   * whole, json_tree.h); NULL for a tree taken over by tsift_catalog_read. */
  struct tsift_json_arena *arena;
} tsift_catalog;

/* Parse and validate. On failure everything is freed and `err` names the
 * tool and field. */
/* How ids are checked: TSIFT_IDS_STRICT applies the model-facing name rule
 * (SPEC S1); TSIFT_IDS_LENIENT (pure ranking, e.g. `toolsift rank` over a
 * public data set) accepts any non-empty id of at most 1024 bytes without
 * control characters. Uniqueness is always required. */
typedef enum { TSIFT_IDS_STRICT = 0, TSIFT_IDS_LENIENT } tsift_id_rule;

tsift_status tsift_catalog_parse(const char *json, size_t len, tsift_id_rule ids,
                                 tsift_catalog *out, tsift_error *err);
/* The same over a document already parsed with tsift_json_parse: the
 * catalog takes `root` over (it is freed with the catalog, or on failure). */
tsift_status tsift_catalog_read(struct cJSON *root, tsift_id_rule ids, tsift_catalog *out,
                                tsift_error *err);
void tsift_catalog_free(tsift_catalog *c);
/* The tool's input schema as a tree (NULL when it has none): the catalog's
 * own, or, for a tool loaded from a snapshot, its stored text parsed into
 * *owned, which the caller deletes with cJSON_Delete. TSIFT_E_NOMEM, or
 * TSIFT_E_SNAPSHOT for a stored code that is bad or text that is not JSON
 * (a crafted blob). */
tsift_status tsift_tool_schema(const tsift_tool *t, const struct cJSON **schema, struct cJSON **owned,
                               tsift_error *err);
/* The tool's description as *text of *len bytes, NUL-terminated (NULL, 0
 * when it has none): a built tool's own string, or a loaded tool's code
 * decoded into *owned, which the caller frees (tsift_free; NULL when
 * nothing was decoded). TSIFT_E_NOMEM, or TSIFT_E_SNAPSHOT when a loaded
 * tool's code is bad (checked when read: tsift_tool_decode). */
tsift_status tsift_tool_description(const tsift_tool *t, const char **text, size_t *len, char **owned,
                                    tsift_error *err);
/* A loaded tool's description code (t->desc, t->pack set): *code and its
 * *n bytes after the varint count; returns the bytes count and code take. */
size_t tsift_tool_desc_code(const tsift_tool *t, const char **code, uint32_t *n);
/* A loaded tool's code[0..n), its `what` ("description", "schema"),
 * checked and decoded: *text a NUL-terminated copy to tsift_free, *len its
 * bytes. A snapshot load checks only that the code lies within its section;
 * whether it is a valid code is checked here, the first time it is read
 * (issue 37): TSIFT_E_SNAPSHOT "bad tool <what> (tool "<id>")", or
 * TSIFT_E_NOMEM. */
tsift_status tsift_tool_decode(const tsift_tool *t, const char *code, uint32_t n, const char *what, char **text,
                               size_t *len, tsift_error *err);

/* Index of the tool with this id, or -1 (linear; for small lookups). */
long tsift_catalog_find(const tsift_catalog *c, const char *id);
/* Merge a vocabulary's annotations ({"<tool id>": {"tags", "aliases"}}, the
 * index option "annotations") after the catalog's own: each list stays
 * within TSIFT_LABELS_MAX; ids no tool has are skipped and counted in
 * *unknown. Errors name `where` (the document). */
tsift_status tsift_catalog_add_vocabulary(tsift_catalog *c, const struct cJSON *ann, const char *where,
                                          size_t *unknown, tsift_error *err);

#endif
