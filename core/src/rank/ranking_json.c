/* ranking_json.c — what a ranking decided, written as JSON for the two
 * places that show it: search results (search.c) and search_tools results
 * (session_search.c). */
#include "rank/ranking_json.h"

const char *tsift_match_name(int level) { return level == TSIFT_MATCH_STRONG ? "strong" : "partial"; }

void tsift_json_matched_words(tsift_buf *b, const tsift_query *q, const tsift_ranking *r, size_t h) {
  tsift_json_begin_array(b);
  const uint8_t *matched = r->matched + h * r->nterms;
  for (size_t i = 0; i < r->nterms; i++)
    if (matched[i]) tsift_json_str(b, tsift_token(&q->surface, i), q->surface.len[i]);
  tsift_json_end_array(b);
}
