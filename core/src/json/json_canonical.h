/* json_canonical.h — a parsed JSON value printed by the core's writer: the
 * same bytes whatever white space, key escapes or number spelling the text
 * had, so a digest of it (a journal line's chain, a vocabulary's digest)
 * survives a host re-serialising the document. */
#ifndef TSIFT_JSON_CANONICAL_H
#define TSIFT_JSON_CANONICAL_H

#include "cJSON.h"
#include "json/json_out.h"

/* Write v into b without its top-level member `skip` (NULL: none): objects
 * in their member order, integers in [-2^53, 2^53] as integers, other
 * numbers with 6 decimals. 0 when v nests deeper than max_depth. */
int tsift_json_canonical(tsift_buf *b, const cJSON *v, int max_depth, const char *skip);

/* The sha256 (64 hex digits) of v's canonical form; 0 when it nests deeper
 * than max_depth, -1 when out of memory. */
int tsift_json_digest(const cJSON *v, int max_depth, char out[65]);

#endif
