/* ids.h — one rule for tools' ids: the name each has on the model's menu
 * (ids.c explains the rule). */
#ifndef TSIFT_IDS_H
#define TSIFT_IDS_H

#include "catalog/catalog.h"

/* 1 when `id` fits the model-facing name rules ^[A-Za-z0-9_.:-]{1,128}$. */
int tsift_id_valid(const char *id, size_t len);
/* 1 when `id` fits the lenient rule: 1 to 1024 bytes, no control characters. */
int tsift_id_lenient_valid(const char *id, size_t len);
/* The byte offset of the first character no id may hold (SPEC S1: controls,
 * invisible and bidi-control characters, fullwidth ASCII look-alikes, bytes
 * that are not UTF-8), with *cp its code point, or -1. */
long tsift_id_bad_char(const char *id, size_t len, uint32_t *cp);
/* The message for a lenient id that is not valid: "WHERE: invalid id: …". */
tsift_status tsift_id_refuse(tsift_error *err, const char *where, const char *id);

/* Every tool's menu_name (its id, or a safe name), c->renamed counted; with
 * TSIFT_IDS_STRICT two ids that look the same are an error naming both. On
 * failure tsift_catalog_free still frees what was set. */
tsift_status tsift_catalog_name_tools(tsift_catalog *c, tsift_id_rule ids, tsift_error *err);

/* The renamed tool whose catalog id (or, with by_menu_name, safe name) is
 * `name`, or -1: sessions look tools up by menu name, and an operator's
 * configuration may name one by its catalog id; annotations name tools by
 * catalog id, and a vocabulary learned from journals may use the menu name. */
long tsift_catalog_find_renamed(const tsift_catalog *c, const char *name, int by_menu_name);

#endif
