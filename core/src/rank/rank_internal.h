/* rank_internal.h — the context one ranking owns, shared by its steps:
 * rank.c (select terms, accumulate, collect, pick, breakdown), step_score.c (one
 * document's score and parts), step_topk.c (the order of hits and the heaps),
 * step_proximity.c, step_diversity.c and step_confidence.c.
 * Internal to the ranker. */
#ifndef TSIFT_RANK_INTERNAL_H
#define TSIFT_RANK_INTERNAL_H

#include "rank/rank.h"

typedef struct rank_ctx {
  const tsift_index *ix;
  const tsift_query *q;
  const tsift_stats *stats;
  size_t nt, nm;          /* query terms; members (terms, then expansions) */
  tsift_member *members;  /* nm: term ids, dfs, weights, idfs */
  uint8_t *fate;          /* per term: TSIFT_TERM_* */
  uint32_t *gdf;          /* per term: the smallest df of its live members */
  tsift_qpair *pairs;     /* at most nt - 1 */
  size_t npairs;
  double *acc;            /* per doc: the BM25F score so far (exhaustive path only) */
  uint32_t *touched;      /* docs with acc > 0, in the order first scored */
  size_t ntouched;
  int required;           /* some term must be in every hit (TSIFT_RANK_REQUIRED) */
} rank_ctx;

/* ---- step_topk.c ---- */
/* Full order of results: exact matches first, then score, then id bytes. */
int tsift_hit_better(const tsift_index *ix, const tsift_scored *a, const tsift_scored *b);
/* Binary heaps of hits: TOPK_ROOT_WORST for the bounded top-k heap (the
 * root is the worst kept hit), TOPK_ROOT_BEST for the candidates of the
 * diversity rule (the root is the best). */
enum { TOPK_ROOT_WORST = 0, TOPK_ROOT_BEST = 1 };
void tsift_heap_sift_down(const tsift_index *ix, tsift_scored *h, size_t n, size_t i, int order);
void tsift_heap_sift_up(const tsift_index *ix, tsift_scored *h, size_t i, int order);

/* ---- step_score.c ---- */
/* A member that adds to scores: its term is kept, some doc has it, and its
 * weight is positive. */
int tsift_member_scores(const rank_ctx *c, const tsift_member *mb);
/*
 * What the scored members and pairs give doc d, summed in member order, then
 * pair order, like the accumulator, so with covered NULL it equals acc[d]
 * bit for bit. covered (the diversity rule; NULL when off): per query term,
 * the earlier hits that matched it — each contribution is halved that often.
 * term_post (nt entries, scratch) receives each term's own posting in d.
 * Marks the terms d matches in hit_terms (nt entries; may be NULL). With
 * parts, writes d's breakdown there (terms at parts->terms, pairs at
 * parts->pairs, room for every member and pair) and sets the counts.
 */
double tsift_score_doc(const rank_ctx *c, uint32_t d, const uint32_t *covered, long *term_post,
                            uint8_t *hit_terms, tsift_term_part *terms, tsift_pair_part *pairs,
                            size_t *nterms, size_t *npairs);

/* 1 when the query's token sequence qseq[0..nq) (term ids) is doc d's name
 * or id sequence: an exact match, ranked first. */
int tsift_doc_exact(const tsift_index *ix, uint32_t d, const long *qseq, size_t nq);
/* Doc d has every required term of the query (TSIFT_RANK_REQUIRED): through
 * the term or an expansion, not a correction (a +word is meant as written). */
int tsift_has_required(const rank_ctx *c, uint32_t d);

/* ---- step_prune.c ---- */
/* 1 when the pruned top k applies to c (the derived tables are there and
 * bound its statistics; the diversity rule scores every candidate). */
int tsift_prune_applies(const rank_ctx *c);
/* The top k of c, best first, into out (what collecting every candidate
 * gives, bit for bit): document at a time, scoring a doc in full only when
 * an upper bound on its score could still enter the top k. qseq[0..nq):
 * the query's token sequence as term ids, for exact matches (NULL: none). */
tsift_status tsift_prune_topk(const rank_ctx *c, size_t k, const long *qseq, size_t nq, tsift_scored *out,
                              size_t *nout, tsift_error *err);

/* ---- step_proximity.c ---- */
/* The pairs of the query under c->fate (only scored terms pair) into c->pairs. */
void tsift_proximity_pairs(rank_ctx *c);
/* Add each pair's bonus to c->acc of every allowed doc that has it near. */
void tsift_proximity_accumulate(rank_ctx *c);
/* 1 when doc d has pair p close together in one of the fields of the mask. */
int tsift_pair_near_in(const tsift_index *ix, uint32_t d, const tsift_qpair *p, unsigned fields);
/* The fields in which both postings have their term. */
unsigned tsift_pair_fields(const tsift_posting *a, const tsift_posting *b);

/* ---- step_diversity.c ---- */
/* 1 when the query's hits are picked by the diversity rule (c->fate set). */
int tsift_diversity_applies(const rank_ctx *c);
/* The greedy pick over the nc candidates (consumed) into out, at most k. */
tsift_status tsift_diversity_pick(const rank_ctx *c, tsift_scored *cand, size_t nc, size_t k,
                                  tsift_scored *out, size_t *nout, tsift_error *err);

/* ---- step_typo.c ---- */
typedef struct tsift_typo {
  uint32_t id;       /* the dictionary word */
  unsigned distance; /* edits from the query word */
  uint32_t df;       /* documents of the universe that have it */
} tsift_typo;
/* The corrections of query word s[0..n) (rank.h, "Typo tolerance"), best
 * first, into out (room for TSIFT_TYPO_MAX_CORRECTIONS); returns how many. */
size_t tsift_typo_corrections(const rank_ctx *c, const char *s, size_t n, tsift_typo *out);

/* ---- step_grade.c ---- */
/* Grade every hit of r from its parts under rule (fills r->grades, r->matched). */
tsift_status tsift_grade_hits(const rank_ctx *c, tsift_ranking *r, const tsift_grade_rule *rule,
                              tsift_error *err);

/* ---- step_confidence.c ---- */
/* The confidence rule on hit d under floor (ix->min_coverage). */
int tsift_confident(const rank_ctx *c, uint32_t d, double floor);

/* The crowding rule's cut (step_crowd.c; rank.h, "Crowding"). The length of a
 * tool id's source, its prefix before "__" (0: none). */
size_t tsift_source_len(const char *id);
/* 1 when two un-vouched hits of one source are on r's page (a crowd may be). */
int tsift_crowd_possible(const tsift_index *ix, const tsift_ranking *r);
/* The crowd of r's page: the look-alikes of a hit — un-vouched tools of
 * its source in the universe `allowed` (NULL: all) with the same query
 * terms of q, the source's own words aside — when another is on the page
 * and there are more than TSIFT_CROWD_MAX; the hit stays. Writes them to
 * *out (grown to *cap as needed) and returns how many (0: no crowd, or
 * *st = TSIFT_E_NOMEM). */
#define TSIFT_CROWD_MAX 8
size_t tsift_crowd_cut(const tsift_index *ix, const tsift_query *q, const tsift_ranking *r, const uint8_t *allowed,
                       uint32_t **out, size_t *cap, tsift_error *err, tsift_status *st);

#endif
