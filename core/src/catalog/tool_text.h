/* tool_text.h — the trust policy (SPEC S2) and the schema walk (SPEC S5): one pure
 * function from a tool to the text that reaches the index. */
#ifndef TSIFT_DOCS_H
#define TSIFT_DOCS_H

#include "catalog/catalog.h"
#include "text/text.h"

typedef enum {
  TSIFT_FIELD_NAME = 0,   /* name, id, title */
  TSIFT_FIELD_ALIASES,    /* own aliases (first-party) + host aliases */
  TSIFT_FIELD_TAGS,       /* own tags (first-party) + host tags */
  TSIFT_FIELD_DESCRIPTION,/* description (+ a vouched tool's own labels) */
  TSIFT_FIELD_PARAMS,     /* schema property names */
  TSIFT_FIELD_PARAM_DOCS, /* nested schema descriptions (trusted tools only) */
  TSIFT_FIELD_COUNT
} tsift_field;

typedef enum {
  TSIFT_TRUST_FIRST_PARTY = 0,
  TSIFT_TRUST_REMOTE,  /* remote, un-vouched */
  TSIFT_TRUST_VOUCHED, /* remote, operator vouches for its text */
  TSIFT_TRUST_TAINTED  /* description known to carry untrusted data */
} tsift_trust;

/* Field names as they appear in JSON output ("name", "aliases", …). */
extern const char *const tsift_field_names[TSIFT_FIELD_COUNT];
/* Per-field token caps (SPEC S3); none above TSIFT_FIELD_TOKENS_MAX, which
 * the index relies on (a field's length is a byte, its normalisation looked
 * up by length: index.h). */
extern const unsigned tsift_field_token_caps[TSIFT_FIELD_COUNT];
#define TSIFT_FIELD_TOKENS_MAX 128
/* Tokens of a name or id sequence (exact matching), at most. */
#define TSIFT_SEQ_TOKENS_MAX 32

const char *tsift_trust_name(tsift_trust t);
tsift_trust tsift_trust_of(const tsift_tool *t);
/* The class whose label treatment the tool gets: its trust, except that a
 * tainted tool keeps that of the class it would otherwise have. */
tsift_trust tsift_label_class(const tsift_tool *t);
/* 1 when the tool's description may be shown and indexed. */
int tsift_description_visible(const tsift_tool *t);
/* What results and specs show in place of a withheld description. */
#define TSIFT_WITHHELD_DESCRIPTION "Third-party tool; description withheld"
/* The description results and specs show: TSIFT_WITHHELD_DESCRIPTION when
 * it is not visible, else the tool's own (tsift_tool_description: *text may
 * be NULL, *owned is freed by the caller; its errors). */
tsift_status tsift_shown_description(const tsift_tool *t, const char **text, size_t *len, char **owned,
                                     tsift_error *err);

/* Schema walk bounds (SPEC S5). */
#define TSIFT_SCHEMA_MAX_DEPTH 8
#define TSIFT_SCHEMA_MAX_NODES 256
#define TSIFT_SCHEMA_MAX_PROPERTIES 128
#define TSIFT_SCHEMA_MAX_TEXT 8192

/* The search document: one token list per field, plus the token sequences
 * used for exact-name matching. */
typedef struct tsift_document {
  tsift_trust trust;
  tsift_tokens fields[TSIFT_FIELD_COUNT];
  tsift_tokens name_seq; /* analysed name */
  tsift_tokens id_seq;   /* analysed id */
} tsift_document;

/* Build the document of `tool` (the one place that decides what is indexed). */
tsift_status tsift_document_build(const tsift_tool *tool, tsift_document *doc, tsift_error *err);
/* The same into a document built before (or zeroed), reusing its memory.
 * On failure the document is freed (and zeroed), as tsift_document_build's. */
tsift_status tsift_document_rebuild(const tsift_tool *tool, tsift_document *doc, tsift_error *err);
/* Every word of the tool's own text whatever its trust class (name, id,
 * title, labels, description, the schema's names and descriptions, the
 * host's annotations), into a document built before or zeroed: what
 * learning must never teach it (learn.c). Not a search document. */
tsift_status tsift_document_all_text(const tsift_tool *tool, tsift_document *doc, tsift_error *err);
void tsift_document_free(tsift_document *doc);

#endif
