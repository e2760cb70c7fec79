/* embed_text.c — the text a host embeds for each tool, under the trust
 * policy of tool_text.c (docs/relevance.md, "Which text a host embeds"): what
 * may reach the index may reach the model, nothing else. A remote
 * (un-vouched) or tainted tool's own description and nested schema
 * descriptions are left out, as they are from its search document. And the
 * host's ways of giving an index vectors: rows of floats, or a callback
 * that embeds each tool's text. */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/tool_text.h"
#include "index/embed_text.h"
#include "index/index.h"
#include "json/json_out.h"
#include "index/vectors.h"

/* The tool's own list `own` (when its labels are indexed, else -1) and the
 * host's list `host`. */
static void append_labels(tsift_buf *b, const char *head, const tsift_tool *t, int own, int host) {
  tsift_labels o = {NULL, 0}, h = tsift_tool_labels(t, host);
  if (own >= 0) o = tsift_tool_labels(t, own);
  size_t n = o.count + h.count;
  if (!n) return;
  tsift_buf_append(b, "\n", 1);
  tsift_buf_append(b, head, strlen(head));
  for (size_t i = 0; i < n; i++) {
    const char *s = i < o.count ? o.items[i] : h.items[i - o.count];
    if (i) tsift_buf_append(b, ", ", 2);
    tsift_buf_append(b, s, strlen(s));
  }
}

/* The schema's top-level property names ("parameters: a, b"). */
static tsift_status append_params(tsift_buf *b, const tsift_tool *t, tsift_error *err) {
  const cJSON *schema = NULL;
  cJSON *owned = NULL;
  tsift_status st = tsift_tool_schema(t, &schema, &owned, err);
  if (st) return st;
  const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties"), *p;
  int any = 0;
  if (cJSON_IsObject(props)) cJSON_ArrayForEach(p, props) {
      tsift_buf_append(b, any ? ", " : "\nparameters: ", any ? 2 : 13);
      tsift_buf_append(b, p->string, strlen(p->string));
      any = 1;
    }
  cJSON_Delete(owned);
  return TSIFT_OK;
}

/* The text of tool t: its name (and title), its description when its trust
 * lets it be indexed, its labels as tool_text.c indexes them, its parameters. */
tsift_status tsift_embed_text(const tsift_tool *t, tsift_buf *b, tsift_error *err) {
  tsift_buf_append(b, t->name, strlen(t->name));
  if (t->title) {
    tsift_buf_append(b, " - ", 3);
    tsift_buf_append(b, t->title, strlen(t->title));
  }
  const char *desc = NULL;
  size_t dl;
  char *owned = NULL;
  if (tsift_description_visible(t)) {
    tsift_status st = tsift_tool_description(t, &desc, &dl, &owned, err);
    if (st) return st;
  }
  if (desc) {
    tsift_buf_append(b, "\n", 1);
    tsift_buf_append(b, desc, dl);
  }
  tsift_free(owned);
  tsift_trust labels = tsift_label_class(t);
  int own = labels == TSIFT_TRUST_FIRST_PARTY || labels == TSIFT_TRUST_VOUCHED; /* as tool_text.c indexes them */
  append_labels(b, "tags: ", t, own ? TSIFT_TAGS : -1, TSIFT_HOST_TAGS);
  append_labels(b, "aliases: ", t, own ? TSIFT_ALIASES : -1, TSIFT_HOST_ALIASES);
  return append_params(b, t, err);
}

tsift_status tsift_index_embed_texts_json(const tsift_index *ix, char **out, size_t *out_len, tsift_error *err) {
  if (!ix || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_embed_texts_json: NULL argument");
  *out = NULL;
  tsift_buf b, text;
  tsift_buf_init(&b);
  tsift_json_begin_object(&b);
  tsift_json_key(&b, "tools");
  tsift_json_begin_array(&b);
  tsift_status st = TSIFT_OK;
  for (size_t d = 0; d < ix->n && !st; d++) {
    const tsift_tool *t = &ix->catalog.tools[d];
    tsift_buf_init(&text);
    st = tsift_embed_text(t, &text, err);
    tsift_json_begin_object(&b);
    tsift_json_key_cstr(&b, "id", t->id);
    tsift_json_key_cstr(&b, "trust", tsift_trust_name(tsift_trust_of(t)));
    tsift_json_key_str(&b, "text", text.data ? text.data : "", text.len);
    tsift_json_end_object(&b);
    if (text.failed && !st) st = tsift_nomem(err, "writing the texts to embed");
    tsift_buf_free(&text);
  }
  tsift_json_end_array(&b);
  tsift_json_end_object(&b);
  return tsift_buf_finish_unless(st, &b, out, out_len, "writing the texts to embed", err);
}

tsift_status tsift_index_set_vectors(tsift_index *ix, const char *model, size_t model_len, uint32_t dim,
                                     const float *rows, size_t nrows, tsift_error *err) {
  if (!ix) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_set_vectors: index is NULL");
  return tsift_vectors_set(ix, model, model_len, dim, rows, nrows, err);
}

tsift_status tsift_index_embed(tsift_index *ix, const char *model, size_t model_len, uint32_t dim,
                               tsift_embed_fn fn, void *user, tsift_error *err) {
  if (!ix || !fn) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_embed: NULL argument");
  if (dim < 1 || dim > TSIFT_VEC_MAX_DIM)
    return tsift_fail(err, TSIFT_E_LIMIT, "vectors: dimension %u, expected 1 to %d", dim, TSIFT_VEC_MAX_DIM);
  float *rows = tsift_calloc_array(ix->n * dim + 1, sizeof *rows);
  if (!rows) return tsift_nomem(err, "embedding the tools");
  tsift_status st = TSIFT_OK;
  for (size_t d = 0; d < ix->n && !st; d++) {
    tsift_buf text;
    tsift_buf_init(&text);
    st = tsift_embed_text(&ix->catalog.tools[d], &text, err);
    if (!st && text.failed) st = tsift_nomem(err, "embedding the tools");
    if (!st && fn(user, text.data ? text.data : "", text.len, dim, rows + d * dim))
      st = tsift_fail(err, TSIFT_E_RANKER, "vectors: the embed function failed on tool \"%.60s\"",
                      ix->catalog.tools[d].id);
    tsift_buf_free(&text);
  }
  if (!st) st = tsift_vectors_set(ix, model, model_len, dim, rows, ix->n, err);
  tsift_free(rows);
  return st;
}
