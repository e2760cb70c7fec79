/* tool_spec.c — model-facing specs: what a model is shown for a tool. Schemas are
 * copied with depth and size caps; text in them is stripped for tools whose
 * text is not trusted (SPEC S2, S7). */
#include "catalog/tool_spec.h"

#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/tool_text.h"
#include "text/text.h"
#include "json/json_read.h"

/* The description a model sees for `tool`: withheld text for un-vouched or
 * tainted tools, otherwise cut at 1000 characters. Caller frees; NULL and
 * *st the failure (out of memory, a bad stored code). */
static char *tsift_spec_description(const tsift_tool *tool, size_t *len, tsift_status *st) {
  const char *d;
  size_t n;
  char *owned;
  tsift_error err;
  if ((*st = tsift_shown_description(tool, &d, &n, &owned, &err))) return NULL;
  *len = d ? tsift_utf8_prefix_chars(d, n, TSIFT_SPEC_DESCRIPTION_CHARS) : 0;
  char *out = tsift_strndup(d ? d : "", *len);
  tsift_free(owned);
  if (!out) *st = TSIFT_E_NOMEM;
  return out;
}

typedef struct copy_state {
  int strip_text;
  unsigned nodes;
} copy_state;

static int is_text_key(const char *k) {
  return strcmp(k, "description") == 0 || strcmp(k, "title") == 0 ||
         strcmp(k, "examples") == 0 || strcmp(k, "$comment") == 0;
}

/* Keywords whose value maps names to schemas: their keys are names, never
 * text to strip. */
static int is_schema_map(const char *k) {
  return strcmp(k, "properties") == 0 || strcmp(k, "$defs") == 0 ||
         strcmp(k, "definitions") == 0 || strcmp(k, "patternProperties") == 0 ||
         strcmp(k, "dependentSchemas") == 0;
}

/* Copy a JSON value; objects and arrays below the depth cap or beyond the
 * node budget become {} (any value), which keeps the schema valid. `is_map`
 * says v is a name -> schema map. */
static void copy_value(tsift_buf *b, const cJSON *v, int depth, int is_map, copy_state *cs) {
  if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
    if (depth >= TSIFT_SPEC_SCHEMA_MAX_DEPTH || cs->nodes >= TSIFT_SPEC_SCHEMA_MAX_NODES) {
      if (cJSON_IsObject(v)) {
        tsift_json_begin_object(b);
        tsift_json_end_object(b);
      } else {
        tsift_json_begin_array(b);
        tsift_json_end_array(b);
      }
      return;
    }
    cs->nodes++;
    const cJSON *c;
    if (cJSON_IsObject(v)) {
      tsift_json_begin_object(b);
      cJSON_ArrayForEach(c, v) {
        if (!is_map && cs->strip_text && is_text_key(c->string)) continue;
        tsift_json_key(b, c->string);
        copy_value(b, c, depth + 1, !is_map && is_schema_map(c->string), cs);
      }
      tsift_json_end_object(b);
    } else {
      tsift_json_begin_array(b);
      cJSON_ArrayForEach(c, v) copy_value(b, c, depth + 1, 0, cs);
      tsift_json_end_array(b);
    }
  } else if (cJSON_IsString(v)) {
    tsift_json_cstr(b, v->valuestring);
  } else if (cJSON_IsBool(v)) {
    tsift_json_bool(b, cJSON_IsTrue(v));
  } else if (cJSON_IsNull(v)) {
    tsift_json_null(b);
  } else if (cJSON_IsNumber(v) && v->valuestring) { /* the author's text (catalog.c keeps it) */
    tsift_json_raw(b, v->valuestring, strlen(v->valuestring));
  } else if (cJSON_IsNumber(v)) {
    double d = v->valuedouble;
    if (tsift_json_integral(v, -9007199254740991.0, 9007199254740991.0)) {
      tsift_json_int(b, (long long)d);
    } else {
      char *text = cJSON_PrintUnformatted(v);
      if (text) {
        tsift_json_raw(b, text, strlen(text));
        cJSON_free(text);
      } else {
        b->failed = 1;
      }
    }
  }
}

static void write_schema(tsift_buf *b, const tsift_tool *tool) {
  /* A tool loaded from a snapshot keeps its schema as text: parsed here, for
   * the few tools on a menu, rather than for every tool at load. Stored text
   * that is not JSON can only come from a deliberately edited blob (the
   * checksum catches corruption); such a tool gets the empty schema, like a
   * tool without one. */
  const cJSON *schema = NULL;
  cJSON *owned = NULL;
  tsift_error err;
  tsift_status st = tsift_tool_schema(tool, &schema, &owned, &err);
  if (st == TSIFT_E_NOMEM) {
    b->failed = 1;
    return;
  }
  if (!schema) {
    tsift_json_raw(b, "{\"type\":\"object\",\"properties\":{}}", 33);
    return;
  }
  copy_state cs = {!tsift_description_visible(tool), 0};
  copy_value(b, schema, 0, 0, &cs);
  cJSON_Delete(owned);
}

static void write_parts(tsift_buf *b, const char *name, const char *desc, size_t desc_len,
                        const tsift_tool *tool, const char *schema_json, tsift_format format) {
  const char *schema_key = format == TSIFT_FORMAT_MCP ? "inputSchema"
                           : format == TSIFT_FORMAT_ANTHROPIC ? "input_schema"
                                                              : "parameters";
  tsift_json_begin_object(b);
  if (format == TSIFT_FORMAT_OPENAI) {
    tsift_json_key_cstr(b, "type", "function");
    tsift_json_key(b, "function");
    tsift_json_begin_object(b);
  }
  tsift_json_key_cstr(b, "name", name);
  tsift_json_key_str(b, "description", desc, desc_len);
  tsift_json_key(b, schema_key);
  if (tool) write_schema(b, tool);
  else tsift_json_raw(b, schema_json, strlen(schema_json));
  if (format == TSIFT_FORMAT_OPENAI) tsift_json_end_object(b);
  tsift_json_end_object(b);
}

void tsift_spec_write(tsift_buf *b, const tsift_tool *tool, tsift_format format) {
  size_t len = 0;
  tsift_status st;
  char *desc = tsift_spec_description(tool, &len, &st);
  if (!desc) {
    tsift_buf_fail(b, st);
    return;
  }
  /* The model calls a tool by its menu name (unique, name-rule safe: ids.c). */
  write_parts(b, tool->menu_name, desc, len, tool, NULL, format);
  tsift_free(desc);
}

void tsift_spec_write_raw(tsift_buf *b, const char *name, const char *description,
                          const char *schema_json, tsift_format format) {
  write_parts(b, name, description, strlen(description), NULL, schema_json, format);
}

tsift_status tsift_spec_chars(const tsift_tool *tool, size_t *chars, const char *what, tsift_error *err) {
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_spec_write(&b, tool, TSIFT_FORMAT_MCP);
  char *text;
  size_t len;
  tsift_status st = tsift_buf_finish(&b, &text, &len, what, err);
  *chars = st ? 0 : tsift_utf8_chars(text, len);
  tsift_free(text);
  return st;
}
