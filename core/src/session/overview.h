/* overview.h — the catalog overview for the meta-tool's description
 * (overview.c, docs/sessions.md). */
#ifndef TSIFT_OVERVIEW_H
#define TSIFT_OVERVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "index/index.h"

#define TSIFT_OVERVIEW_CHARS_DEFAULT 1500
#define TSIFT_OVERVIEW_CHARS_MIN 100
#define TSIFT_OVERVIEW_CHARS_MAX 20000
/* The host's own overview text ("overview": "…") may be this long. */
#define TSIFT_OVERVIEW_HOST_MAX_BYTES 20000

/* The namespace of an id: the length of the part before its first "__"
 * (0 when it has none). */
size_t tsift_id_namespace(const char *id);
/* The words of an id's name (after its namespace) as the analyser's surface
 * forms (camelCase and snake_case split, case and plural folded), appended
 * to words. Ids are model-facing names: no description text. */
tsift_status tsift_id_name_words(const char *id, tsift_tokens *words, tsift_error *err);

/* The overview of the tools of ix that `allowed` admits (NULL: all), except
 * tainted ones: the groups (id prefixes before "__") by size with their
 * tool counts and most distinctive name words, as many groups as fit in
 * max_chars characters, then how many more there are. NUL-terminated;
 * NULL when out of memory. */
char *tsift_overview(const tsift_index *ix, const uint8_t *allowed, size_t max_chars, size_t *len);

#endif
