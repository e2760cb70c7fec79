/* rank.h — the ranker (SPEC S4): a query over the universe of a tsift_stats,
 * best hits first, and what it decided on the way (which terms it scored,
 * the proximity pairs, per hit the contribution of every term, field and
 * pair). Hosts of the ranking — search results and explain (search.c),
 * sessions, skills, eval — read those decisions from tsift_ranking; nothing
 * outside rank*.c, step_proximity.c, step_diversity.c and step_confidence.c computes a
 * score. Internal to the core.
 *
 * The data path of one query, file by file:
 *   text.c, vocab.c   analyse: terms, stopwords, expansions
 *   rank.c            select terms (lookups, document frequencies, the
 *                     16-term cut), accumulate BM25F (bm25f.c) over postings
 *   step_proximity.c       the pair bonus of consecutive terms
 *   rank.c, step_topk.c    collect candidates, exact matches, the top k
 *   step_diversity.c       or the greedy pick of a request of several sentences
 *   step_confidence.c      the optional confidence rule on the best hit
 *   rank.c            the breakdown per hit, from the same scoring function
 *   search.c          write it (JSON)
 */
#ifndef TSIFT_RANK_H
#define TSIFT_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "index/bm25f.h"
#include "index/index.h"
#include "text/text.h"

/* What became of each query term in a ranking. */
enum {
  TSIFT_TERM_UNMATCHED = 0, /* no document of the universe has it */
  TSIFT_TERM_USED = 1,      /* scored */
  TSIFT_TERM_CAPPED = 2     /* matched, but not among the TSIFT_QUERY_MAX_TERMS kept */
};

/* What a member is. */
enum {
  TSIFT_MEMBER_TERM = 0,        /* a term of the query */
  TSIFT_MEMBER_TRANSLATION = 1, /* an English word for a foreign one (vocab.h) */
  TSIFT_MEMBER_SYNONYM = 2,     /* an English synonym (vocab.h) */
  TSIFT_MEMBER_CORRECTION = 3   /* a dictionary word one or two edits from a
                                   query word the dictionary lacks (step_typo.c) */
};

/* A member of a ranking: the query's terms (members 0 .. terms.count - 1,
 * in query order), then their expansions (in q->xterms order), then the
 * typo corrections of words the dictionary lacks (step_typo.c). */
typedef struct tsift_member {
  size_t owner;   /* the query term it belongs to */
  uint8_t kind;   /* TSIFT_MEMBER_* */
  uint32_t at;    /* an expansion's index in q->xterms */
  long id;        /* its term id, or -1 when the dictionary lacks it */
  uint32_t df;    /* documents of the universe that have it */
  double mweight; /* the member weight: 1 for a term, TSIFT_VOCAB_WEIGHT,
                     TSIFT_SYNONYM_WEIGHT or TSIFT_CORRECTION_WEIGHT */
  double weight;  /* what it is scored at: mweight x TSIFT_SOFT_WEIGHT for a
                     soft term */
  double idf;     /* of df in the universe (0 unless scored) */
} tsift_member;

/*
 * Typo tolerance (step_typo.c, docs/relevance.md): a query word of at least
 * TSIFT_TYPO_MIN_BYTES (analysed) bytes that is in no tool's text, and does
 * not look like an argument value, is matched through the dictionary words
 * at most one edit away (two from TSIFT_TYPO_TWO_EDITS_BYTES bytes; an edit
 * is an insertion, deletion, substitution or a swap of neighbours) that some
 * tool of the universe has, starting with the same letter: the nearest
 * first, then the most common, then
 * by bytes, at most TSIFT_TYPO_MAX_CORRECTIONS, each scored at
 * TSIFT_CORRECTION_WEIGHT. A query whose words all exist gets none, so an
 * exact name is never corrected.
 */
#define TSIFT_TYPO_MIN_BYTES 5
#define TSIFT_TYPO_TWO_EDITS_BYTES 9
#define TSIFT_TYPO_MAX_CORRECTIONS 3
#define TSIFT_CORRECTION_WEIGHT 0.5

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
  uint32_t ra, rb; /* and ranks (index.h), which proximity compares */
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

/*
 * The match grade of a hit (step_grade.c, docs/sessions.md): how sure the ranker
 * is that the hit is what the query asks for. The query's evidence is the
 * idf of each of its content terms (not argument values, request phrasing,
 * words a vocabulary key already counts, or foreign function words); a word
 * no tool of the universe has counts against every hit, at
 * TSIFT_GRADE_UNMATCHED_WEIGHT of the most a word can weigh. A hit covers
 * the evidence of the terms it matches. It is strong when the query names it
 * exactly, or when it scores at least `relative` of the best hit and covers
 * at least `coverage` of the evidence — or `pair_coverage` when two
 * consecutive content words of the query stand close together in its text
 * (a proximity pair: a phrase of the request). Anything else is partial.
 * Measured in docs/relevance.md ("The loop").
 */
enum { TSIFT_MATCH_PARTIAL = 0, TSIFT_MATCH_STRONG = 1 };

typedef struct tsift_grade_rule {
  double coverage;      /* 0..1 */
  double pair_coverage; /* 0..1 */
  double relative;      /* 0..1 */
} tsift_grade_rule;

#define TSIFT_GRADE_COVERAGE_DEFAULT 0.5
#define TSIFT_GRADE_PAIR_COVERAGE_DEFAULT 0.25
#define TSIFT_GRADE_RELATIVE_DEFAULT 0.75
#define TSIFT_GRADE_UNMATCHED_WEIGHT 0.5

/* Why a hit got its grade. */
typedef struct tsift_grade {
  uint8_t level;    /* TSIFT_MATCH_* */
  double coverage;  /* the share of the query's evidence the hit matches */
  double relative;  /* its score / the best hit's */
  uint32_t matched; /* content terms it matches */
  uint8_t phrase;   /* it has a proximity pair */
} tsift_grade;

/*
 * Crowding (rank.c, step_crowd.c; issue 34, docs/reliability.md "Ranking
 * manipulation"). Un-vouched remote tools (SPEC S2) are ranked on text their
 * server wrote — names and property names — and a server can write many.
 * When a page shows two un-vouched hits of one source (the id's prefix
 * before "__", which the gateway sets per server) that match the same query
 * terms apart from the source's own words, and the source has more than
 * TSIFT_CROWD_MAX (rank_internal.h) such look-alikes, all but the first
 * leave the search's universe — its ranking and its statistics — and the
 * query is ranked again: a flood can neither fill the page nor dilute the
 * words' weight for every other tool.
 */

/* The semantic part of one hit of a fused ranking (fusion.h): its
 * similarity to the query vector, its rank in the universe by similarity,
 * the z-score of that similarity, the evidence (how far the z-score stands
 * above the floor, 0 when below) and what it added to the score. */
typedef struct tsift_sem_part {
  double similarity, z, evidence, score;
  uint32_t rank;  /* 1-based, with TSIFT_RANK_EXPLAIN (a pass over the universe per hit); else 0 */
  uint8_t has;    /* the tool has a vector */
  uint8_t close;  /* at or above the query's minSimilarity (1 when off) */
  uint8_t alone;  /* z high enough for similarity alone to make it strong */
  uint8_t agrees; /* z at or above the fusion's `agree` (step_grade.c) */
} tsift_sem_part;

/* A ranking and what it decided. Owns every array; tsift_ranking_free. */
typedef struct tsift_ranking {
  tsift_scored *hits; /* best first */
  size_t nhits;
  size_t nterms;        /* q->terms.count */
  uint8_t *fate;        /* per query term: TSIFT_TERM_* */
  tsift_member *members; /* terms, expansions, then corrections */
  size_t nmembers;
  const tsift_index *ix; /* the index ranked (corrections' words live in it) */
  tsift_qpair *pairs; /* the proximity pairs of the query */
  size_t npairs;
  int diversified;        /* the hits were picked by the diversity rule */
  tsift_hit_parts *parts; /* per hit, with TSIFT_RANK_EXPLAIN or _GRADE; else NULL */
  tsift_grade *grades;    /* per hit, with TSIFT_RANK_GRADE; else NULL */
  uint8_t *matched;       /* per hit x query term: 1 when the hit matches the
                             term (through any member), with TSIFT_RANK_GRADE */
  double *evidence;       /* per query term: what it weighs in the grade's
                             coverage (0: not a content term), with _GRADE */
  tsift_term_part *term_store;
  tsift_pair_part *pair_store;
  tsift_sem_part *sem;    /* per hit when a query vector was fused; else NULL */
  double sem_floor;       /* the z-score floor of that fusion */
} tsift_ranking;

/* tsift_rank flags */
#define TSIFT_RANK_EXPLAIN 1u  /* fill ranking.parts */
#define TSIFT_RANK_GRADE 2u    /* fill ranking.grades and matched (and parts) */
#define TSIFT_RANK_REQUIRED 4u /* a hit must match every +word of the query
                                  (q->term_required) through the word or an
                                  expansion, not a correction */
#define TSIFT_RANK_EXHAUSTIVE 8u /* score every candidate instead of pruning
                                    (step_prune.c): the same ranking, bit for bit;
                                    the reference tests/c/test_step_prune.c holds
                                    the pruned one to */

/*
 * Rank q over the universe of `stats` (its `allowed` docs; NULL: all), at
 * most k hits best first: exact matches, then score, then id bytes. When a
 * query has more than TSIFT_QUERY_MAX_TERMS matching terms, that many are
 * scored (rank.c says which). With ix->min_coverage > 0 the result is empty
 * unless the best hit is confident (step_confidence.c). On error nothing is
 * left to free.
 */
tsift_status tsift_rank(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                        size_t k, unsigned flags, const tsift_grade_rule *rule, tsift_ranking *out,
                        tsift_error *err);
/* tsift_rank with a query vector (vector_rank.h; NULL: tsift_rank, bit for
 * bit): the lexical ranking fused with similarity by the rule of fusion.h,
 * each hit's semantic part in r->sem. */
struct tsift_qvec;
tsift_status tsift_rank_fused(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                              const struct tsift_qvec *qv, size_t k, unsigned flags, const tsift_grade_rule *rule,
                              tsift_ranking *out, tsift_error *err);
/* "strong" / "partial" */
const char *tsift_match_name(int level);
/* The rule with the default thresholds. */
extern const tsift_grade_rule tsift_default_grade_rule;
/* The word of member m to show after "via" (an expansion's English word or
 * a correction's dictionary word), and its length. */
const char *tsift_member_via(const tsift_ranking *r, const tsift_query *q, size_t m, size_t *len);
void tsift_ranking_free(tsift_ranking *r);

#endif
