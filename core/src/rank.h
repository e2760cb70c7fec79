/* rank.h — the ranker (SPEC S4): a query over the universe of a tsift_stats,
 * best hits first, and what it decided on the way (which terms it scored,
 * the proximity pairs, per hit the contribution of every term, field and
 * pair). Hosts of the ranking — search results and explain (search.c),
 * sessions, skills, eval — read those decisions from tsift_ranking; nothing
 * outside rank*.c, proximity.c, diversity.c and confidence.c computes a
 * score. Internal to the core.
 *
 * The data path of one query, file by file:
 *   text.c, vocab.c   analyse: terms, stopwords, expansions
 *   rank.c            select terms (lookups, document frequencies, the
 *                     16-term cut), accumulate BM25F (bm25f.c) over postings
 *   proximity.c       the pair bonus of consecutive terms
 *   rank.c, topk.c    collect candidates, exact matches, the top k
 *   diversity.c       or the greedy pick of a request of several sentences
 *   confidence.c      the optional confidence rule on the best hit
 *   rank.c            the breakdown per hit, from the same scoring function
 *   search.c          write it (JSON)
 */
#ifndef TSIFT_RANK_H
#define TSIFT_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "bm25f.h"
#include "index.h"
#include "text.h"

/* What became of each query term in a ranking. */
enum {
  TSIFT_TERM_UNMATCHED = 0, /* no document of the universe has it */
  TSIFT_TERM_USED = 1,      /* scored */
  TSIFT_TERM_CAPPED = 2     /* matched, but not among the TSIFT_QUERY_MAX_TERMS kept */
};

/* A member of a ranking: a query term (members 0 .. terms.count - 1, in
 * query order) or one of its expansions (vocab.h; then in q->xterms order). */
typedef struct tsift_member {
  size_t owner;  /* the query term it belongs to */
  long id;       /* its term id, or -1 when the dictionary lacks it */
  uint32_t df;   /* documents of the universe that have it */
  double weight; /* its query weight: the member weight (1 for a term,
                    TSIFT_VOCAB_WEIGHT / TSIFT_SYNONYM_WEIGHT for an
                    expansion) times TSIFT_SOFT_WEIGHT for a soft term */
  double idf;    /* of df in the universe (0 unless scored) */
} tsift_member;

/* The member weight of member m of q, before the soft factor. */
double tsift_member_weight(const tsift_query *q, size_t m);

/*
 * Proximity (docs/relevance.md): two consecutive scored terms of the query
 * (in query order, `ip address`) that a tool has close together in one field
 * (the second at most TSIFT_PROXIMITY_WINDOW tokens after the first) add
 * TSIFT_PROXIMITY_WEIGHT x the smaller idf of the two x the smaller of their
 * soft factors (TSIFT_SOFT_WEIGHT for a soft term) to its score, once per
 * pair. Capped and unmatched terms are passed over; a term scored only
 * through an expansion breaks the chain; expansions (vocab.h) do not pair.
 */
#define TSIFT_PROXIMITY_WINDOW 3
#define TSIFT_PROXIMITY_WEIGHT 0.75

typedef struct tsift_qpair {
  uint32_t a, b;   /* query term indexes, a before b */
  uint32_t ta, tb; /* their term ids */
  double bonus;    /* what the pair adds to a tool that has it */
} tsift_qpair;

/*
 * Diversity (docs/relevance.md): a request of two or more sentences with at
 * least TSIFT_DIVERSIFY_MIN_TERMS scored terms usually asks for several
 * things, so its hits are picked greedily: each next hit is the one with the
 * highest score after every term's contribution is halved once for each hit
 * already picked that matched the term (at most TSIFT_DIVERSIFY_MAX_HALVINGS
 * times). That score is the one reported. Other queries rank by BM25F alone.
 */
#define TSIFT_DIVERSIFY_MIN_SENTENCES 2
#define TSIFT_DIVERSIFY_MIN_TERMS 13
#define TSIFT_DIVERSIFY_MAX_HALVINGS 32

/* One hit of a ranking. */
typedef struct tsift_scored {
  uint32_t doc;
  uint8_t exact; /* the query equals its name or id (ranked first) */
  double score;
} tsift_scored;

/* What one member gave one hit: its score and the part of each field,
 * weighted and discounted as the score was. */
typedef struct tsift_term_part {
  uint32_t member;
  double score;
  double fields[TSIFT_FIELD_COUNT];
} tsift_term_part;

/* What one proximity pair gave one hit. */
typedef struct tsift_pair_part {
  uint32_t pair; /* index into tsift_ranking.pairs */
  double score;
} tsift_pair_part;

/* The breakdown of one hit: its members in member order, then its pairs in
 * pair order; together they add up to the hit's score. */
typedef struct tsift_hit_parts {
  const tsift_term_part *terms;
  size_t nterms;
  const tsift_pair_part *pairs;
  size_t npairs;
} tsift_hit_parts;

/* A ranking and what it decided. Owns every array; tsift_ranking_free. */
typedef struct tsift_ranking {
  tsift_scored *hits; /* best first */
  size_t nhits;
  size_t nterms;        /* q->terms.count */
  uint8_t *fate;        /* per query term: TSIFT_TERM_* */
  tsift_member *members; /* nmembers = terms.count + xterms.count */
  size_t nmembers;
  tsift_qpair *pairs; /* the proximity pairs of the query */
  size_t npairs;
  int diversified;        /* the hits were picked by the diversity rule */
  tsift_hit_parts *parts; /* per hit, with TSIFT_RANK_EXPLAIN; else NULL */
  tsift_term_part *term_store;
  tsift_pair_part *pair_store;
} tsift_ranking;

/* tsift_rank flags */
#define TSIFT_RANK_EXPLAIN 1u /* fill ranking.parts */

/*
 * Rank q over the universe of `stats` (its `allowed` docs; NULL: all), at
 * most k hits best first: exact matches, then score, then id bytes. When a
 * query has more than TSIFT_QUERY_MAX_TERMS matching terms, that many are
 * scored (rank.c says which). With ix->min_coverage > 0 the result is empty
 * unless the best hit is confident (confidence.c). On error nothing is
 * left to free.
 */
tsift_status tsift_rank(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                        size_t k, unsigned flags, tsift_ranking *out, tsift_error *err);
void tsift_ranking_free(tsift_ranking *r);

#endif
