/* embed_text.h — the text a model may see for a tool (embed_text.c: what
 * the trust policy lets reach the index, nothing else). Internal to the
 * core; hosts get it as tsift_index_embed_texts_json. */
#ifndef TSIFT_EMBED_TEXT_H
#define TSIFT_EMBED_TEXT_H

#include "catalog/catalog.h"
#include "json/json_out.h"
#include "toolsift.h"

/* Append tool t's text to embed to b (the buffer's own failure flag records
 * out of memory; reading its schema can fail). */
tsift_status tsift_embed_text(const tsift_tool *t, tsift_buf *b, tsift_error *err);

#endif
