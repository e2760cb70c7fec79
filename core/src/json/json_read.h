/* json_read.h — the strict JSON reader (json_read.c): every JSON input of
 * the core is parsed here, with positions in its messages. */
#ifndef TSIFT_JSON_READ_H
#define TSIFT_JSON_READ_H

#include <stddef.h>

#include "toolsift.h"

struct cJSON;
struct tsift_json_arena;

/* cJSON_PrintUnformatted, except that a number tsift_json_parse kept the
 * text of (a fraction, an exponent, -0, more than 15 characters) is printed
 * as that text: what re-reads a sub-document, and snapshots, keep the
 * author's numbers (SPEC S5). cJSON_free the result; NULL = out of memory. */
char *tsift_json_print(const struct cJSON *v);

/* 1 when v is a number with an integral value in [lo, hi] (checked before
 * any conversion, so huge values are never cast). */
int tsift_json_integral(const struct cJSON *v, double lo, double hi);

/* "a string", "a number", "an array", … for messages ("nothing" for NULL). */
const char *tsift_json_type_name(const struct cJSON *v);
/* `status` with "<where>: unknown key \"<key>\"", the key cut to 40 bytes
 * at a character boundary: an options object's key that nothing reads. */
tsift_status tsift_json_unknown_key(tsift_error *err, tsift_status status, const char *where, const char *key);
/* Parse JSON with a precise error position ("at line L, column C"). `what`
 * names the document in messages. The tree is owned by the caller. */
tsift_status tsift_json_parse(const char *json, size_t len, const char *what, struct cJSON **out,
                              tsift_error *err);
/* tsift_json_parse with the tree's nodes in an arena (json_tree.h) when
 * arena is not NULL: *arena then owns them (the catalog's reader). */
tsift_status tsift_json_parse_arena(const char *json, size_t len, const char *what, struct cJSON **out,
                                    struct tsift_json_arena **arena, tsift_error *err);

#endif
