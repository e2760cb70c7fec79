/* vocab.h — the cross-lingual table of tool vocabulary (docs/relevance.md,
 * "Cross-lingual tool vocabulary"): German, French, Spanish, Japanese and
 * Chinese words for the verbs and objects of tool catalogs, each mapped to
 * English words. A query that contains a key gets those English terms as
 * expansions of the query term where the key starts. */
#ifndef TSIFT_VOCAB_H
#define TSIFT_VOCAB_H

#include "text.h"

/* An expansion scores at this fraction of what the same match would score
 * as the query's own term; a term and its expansions count as one term
 * (each document takes the best of them) and take one of the 16 slots. */
#define TSIFT_VOCAB_WEIGHT 0.8

/* Fill q->xterms, q->xsurface and q->xof from q->tokens and q->terms. */
tsift_status tsift_vocab_expand(tsift_query *q, tsift_error *err);

#endif
