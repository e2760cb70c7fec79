/* json_tree.h — cJSON's tree of JSON text, built as tsift_json_check reads
 * the text, in the same pass. */
#ifndef TSIFT_JSON_TREE_H
#define TSIFT_JSON_TREE_H

#include <stddef.h>

#include "cJSON.h"
#include "json/json_check.h"

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

/* The check and the tree in one pass (json_read.c): tsift_json_check_facts's
 * verdict, *pos and facts for s[0..n), and *root the tree (in *arena when
 * `arena` is not NULL, else through cJSON's hooks) when the verdict is
 * TSIFT_JSON_VALID. On any other verdict *root is NULL and nothing is kept.
 * An allocation that fails is out of memory whatever the text — the
 * verdict TSIFT_JSON_VALID and *root NULL — so that every allocation
 * failure is reported as one (the sweeps of tests/c). The caller still
 * refuses text whose facts show bad UTF-8 or a \u0000 escape, and frees
 * the tree. */
tsift_json_verdict tsift_json_read_tree(const char *s, size_t n, size_t *pos, tsift_json_facts *facts,
                                        tsift_json_arena **arena, cJSON **root);

#endif
