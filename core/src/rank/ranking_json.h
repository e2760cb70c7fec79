/* ranking_json.h — JSON writers for what a ranking decided (ranking_json.c). */
#ifndef TSIFT_RANKING_JSON_H
#define TSIFT_RANKING_JSON_H

#include "json/json_out.h"
#include "rank/rank.h"

/* The query words hit h matches (their surface forms, in query order). */
void tsift_json_matched_words(tsift_buf *b, const tsift_query *q, const tsift_ranking *r, size_t h);

#endif
