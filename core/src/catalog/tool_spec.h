/* tool_spec.h — model-facing tool specs (SPEC S7): bounded descriptions and
 * sanitised schemas, in the MCP, OpenAI and Anthropic shapes. */
#ifndef TSIFT_SPEC_H
#define TSIFT_SPEC_H

#include "catalog/catalog.h"
#include "json/json_out.h"

typedef enum { TSIFT_FORMAT_MCP = 0, TSIFT_FORMAT_OPENAI, TSIFT_FORMAT_ANTHROPIC } tsift_format;

#define TSIFT_SPEC_DESCRIPTION_CHARS 1000
#define TSIFT_SPEC_SCHEMA_MAX_DEPTH 8
#define TSIFT_SPEC_SCHEMA_MAX_NODES 512

/* Write the spec of `tool` in `format`. With strip_text, descriptions,
 * titles, examples and comments in the schema are withheld (un-vouched
 * remote or tainted tools). */
void tsift_spec_write(tsift_buf *b, const tsift_tool *tool, tsift_format format);

/* A spec from parts (meta-tools): name, description, schema as JSON text. */
void tsift_spec_write_raw(tsift_buf *b, const char *name, const char *description,
                          const char *schema_json, tsift_format format);

/* *chars: the Unicode characters of the MCP-shaped spec (for
 * maxMenuChars); TSIFT_E_NOMEM or TSIFT_E_SNAPSHOT (a bad stored code) while
 * `what`. */
tsift_status tsift_spec_chars(const tsift_tool *tool, size_t *chars, const char *what, tsift_error *err);


#endif
