/* vocab.h — the table of tool vocabulary (docs/relevance.md, "Cross-lingual
 * tool vocabulary" and "English synonyms"): German, French, Spanish,
 * Japanese and Chinese words for the verbs and objects of tool catalogs,
 * each mapped to English words, and groups of English words that tools and
 * users say for the same thing (picture/image/photo). A query that contains
 * a key gets those English terms as expansions of the query term where the
 * key starts. */
#ifndef TSIFT_VOCAB_H
#define TSIFT_VOCAB_H

#include "text/text.h"

/* An expansion is scored like a query term of its own, times this weight
 * (measured 0.5, 0.8, 1.0 on the corpus; a translation counts as the word),
 * but it is scored only when the term it expands is: a term and its
 * expansions take one of the 16 slots (tsift_rank). */
#define TSIFT_VOCAB_WEIGHT 1.0

/* An English synonym (a word of the same group as a query word) weighs less
 * than a translation: it is a neighbour of the user's word, not the word
 * (measured 0.3 to 0.7; 0.4 is the weight at which no set loses). A synonym
 * is scored when its term is kept, and makes a term live like a translation,
 * but it decides neither the tier nor the key of the 16-term cut. */
#define TSIFT_SYNONYM_WEIGHT 0.4

/* Fill q->xterms, q->xsurface and q->xof from q->tokens and q->terms. */
tsift_status tsift_vocab_expand(tsift_query *q, tsift_error *err);

#endif
