/* json_tree.h — cJSON's tree of text that already passed tsift_json_check,
 * built in one pass without checking anything again. */
#ifndef TSIFT_JSON_TREE_H
#define TSIFT_JSON_TREE_H

#include <stddef.h>

#include "cJSON.h"

/* The tree cJSON_ParseWithLengthOpts(s, n, NULL, 0) builds for s[0..n) —
 * the same node types, values (numbers through the same tsift_strtod,
 * strings decoded the same way), keys and child/next/prev links, allocated
 * through cJSON's hooks so cJSON_Delete frees it — and, on every number that
 * tsift_json_number_kept keeps, its source text as valuestring (catalog.c).
 * One difference: a member's key is stored in its item's own allocation and
 * the item's type has cJSON_StringIsConst (cJSON_Delete then frees the key
 * with the item; cJSON_IsX and the printer mask the flag off; whoever sets a
 * type must keep it).
 * Only for text the check found valid, without \u0000 escapes. NULL only
 * when out of memory. */
cJSON *tsift_json_tree(const char *s, size_t n);

/* The blocks an arena tree lives in. */
typedef struct tsift_json_arena tsift_json_arena;

/* The same tree with every node, key and string in a few large blocks
 * (*arena, NULL when out of memory): free it whole with
 * tsift_json_arena_free, never with cJSON_Delete (nor any node of it).
 * Reading, printing and cJSON_Duplicate work as on the other tree. */
cJSON *tsift_json_tree_arena(const char *s, size_t n, tsift_json_arena **arena);
void tsift_json_arena_free(tsift_json_arena *a);

#endif
