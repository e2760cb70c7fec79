/* fusion.h — the rule that fuses similarity with BM25F (docs/relevance.md,
 * "Semantic search"). Internal to the ranker.
 *
 * Similarity counts only where it is evidence. For a query, the similarity
 * of every tool of the universe that has a vector gives a distribution
 * (mean m, standard deviation sd); a tool's z-score is (sim - m) / sd. Over
 * N tools, a model that knows nothing (random vectors) still produces a
 * largest z-score of about sqrt(2 ln N), so the floor is
 *   F(N) = sqrt(2 ln N) + TSIFT_FUSION_MARGIN
 * and a tool's evidence is e = max(0, z - F(N)). Its fused score is
 *   score = BM25F + TSIFT_FUSION_WEIGHT x e
 * so a tool above the floor rises (and a tool no word of the query matches
 * can enter), and every other tool keeps its BM25F score and its order: a
 * useless model contributes about nothing. Exact-name hits stay first
 * (step_topk.c's order); ties by id bytes as ever. Both parameters were chosen
 * on the development sets with random and oracle vectors (the numbers are
 * in docs/relevance.md). */
#ifndef TSIFT_FUSION_H
#define TSIFT_FUSION_H

#include "rank/rank_internal.h"
#include "rank/vector_rank.h"

/* The default parameters, TSIFT_FUSION_*, are fusion_params.h's. */


/* F(n) above with the given margin; a universe of fewer than 2 tools with
 * vectors has no floor a z-score can pass. */
double tsift_fusion_floor(size_t n, double margin);
/* e above (0 when sd is 0). */
double tsift_fusion_evidence(double sim, const tsift_vec_dist *dist, double floor);

/* Fuse the lexical top k in r (best first; r->hits has room for k + 1)
 * with the query vector: every tool of the universe with evidence joins
 * the candidates with its BM25F score (step_score.c; it must pass the
 * required-word rule), each candidate adds its contribution, and the best k
 * by step_topk.c's order replace r->hits. Fills r->sem (per hit) and
 * r->sem_floor (each hit's rank by similarity only with_rank, for
 * explain). qseq[0..nq): the query's token sequence as term ids, for
 * exact matches (NULL: none). */
tsift_status tsift_fuse(const rank_ctx *c, const tsift_qvec *qv, size_t k, const long *qseq, size_t nq,
                        int with_rank, tsift_ranking *r, tsift_error *err);

#endif
