/* rank.c — the ranker's pipeline (rank.h): select the terms to score,
 * accumulate BM25F over their postings, add proximity, collect the
 * candidates and their exact matches, pick the top k (or the diversity
 * rule's greedy pick), apply the confidence rule, and write each hit's
 * breakdown with the function that scores a document (step_score.c). Scores are summed in
 * a fixed order (member order, then pair order; fields in field order), so
 * results are bit-identical on every platform. */
#include "rank/rank.h"

#include <string.h>

#include "base/alloc.h"
#include "rank/fusion.h"
#include "rank/rank_internal.h"
#include "text/vocab.h"

void tsift_ranking_free(tsift_ranking *r) {
  if (!r) return;
  TSIFT_FREE_ALL(r->hits, r->fate, r->members, r->pairs, r->parts, r->grades, r->matched, r->evidence, r->term_store,
                 r->pair_store, r->sem);
  memset(r, 0, sizeof *r);
}

/* ---- select terms ----------------------------------------------------- */

static void member_init(rank_ctx *c, tsift_member *mb, size_t owner, uint8_t kind, double mweight) {
  mb->owner = owner;
  mb->kind = kind;
  mb->mweight = mweight;
  /* argument values and request phrasing ("500mg", "how", "need", …)
   * count half: they shape the request rather than name the need */
  mb->weight = mweight * (c->q->term_soft[owner] ? TSIFT_SOFT_WEIGHT : 1.0);
}

/* A member some doc of the universe has makes its term live. */
static void member_live(rank_ctx *c, const tsift_member *mb, size_t *nmatched) {
  size_t i = mb->owner;
  if (!mb->df) return;
  if (c->fate[i] == TSIFT_TERM_UNMATCHED) (*nmatched)++;
  c->fate[i] = TSIFT_TERM_USED;
  if (!c->gdf[i] || mb->df < c->gdf[i]) c->gdf[i] = mb->df;
}

/* Corrections for the words no tool has at all (step_typo.c), as members after
 * the expansions. Not for words that look like argument values. */
static void add_corrections(rank_ctx *c, size_t *nmatched) {
  const tsift_query *q = c->q;
  for (size_t i = 0; i < c->nt; i++) {
    if (c->fate[i] != TSIFT_TERM_UNMATCHED || c->members[i].id >= 0 || q->term_weak[i]) continue;
    tsift_typo found[TSIFT_TYPO_MAX_CORRECTIONS];
    size_t nf = tsift_typo_corrections(c, tsift_token(&q->terms, i), q->terms.len[i], found);
    for (size_t k = 0; k < nf; k++) {
      tsift_member *mb = &c->members[c->nm++];
      member_init(c, mb, i, TSIFT_MEMBER_CORRECTION, TSIFT_CORRECTION_WEIGHT);
      mb->id = (long)found[k].id;
      mb->df = found[k].df;
      member_live(c, mb, nmatched);
    }
  }
}

/* Look up every member, count its documents in the universe and decide each
 * term's fate: unmatched, scored, or capped by the TSIFT_QUERY_MAX_TERMS cut.
 * An expansion or correction is scored like a term (at its weight) only
 * when its term is kept: a term and its members take one of the slots. */
static tsift_status select_terms(rank_ctx *c, tsift_error *err) {
  const tsift_query *q = c->q;
  size_t nt = c->nt, nmatched = 0;
  for (size_t m = 0; m < c->nm; m++) {
    tsift_member *mb = &c->members[m];
    if (m < nt) {
      member_init(c, mb, m, TSIFT_MEMBER_TERM, 1.0);
    } else {
      size_t at = m - nt;
      int syn = q->xsyn[at];
      member_init(c, mb, q->xof[at], syn ? TSIFT_MEMBER_SYNONYM : TSIFT_MEMBER_TRANSLATION,
                  syn ? TSIFT_SYNONYM_WEIGHT : TSIFT_VOCAB_WEIGHT);
      mb->at = (uint32_t)at;
    }
    const tsift_tokens *t = m < nt ? &q->terms : &q->xterms;
    size_t at = m < nt ? m : m - nt;
    mb->id = tsift_term_lookup(c->ix, tsift_token(t, at), t->len[at]);
    mb->df = mb->id < 0 ? 0 : tsift_term_df(c->ix, c->stats, (uint32_t)mb->id);
    member_live(c, mb, &nmatched);
  }
  add_corrections(c, &nmatched);
  if (nmatched > TSIFT_QUERY_MAX_TERMS) {
    /* Which terms to keep: tool vocabulary before argument values. Tier 0:
     * a term some tool of the universe has in its name (the term itself or
     * a translation); tier 1: other terms; tier 2: terms that look like
     * values (q->term_weak). Within a tier the highest key first, then the
     * earliest: key = idf x (1 + the share of the tools having the term that
     * have it in their name), the best over the term and its translations
     * (an English synonym or a correction counts for neither tier nor key),
     * so rarity decides, and a word that is mostly a name word where it
     * occurs (tool vocabulary) counts up to twice as rare (docs/relevance.md). */
    uint8_t *tier = tsift_calloc_array(nt, 1);
    double *key = tsift_calloc_array(nt, sizeof *key);
    if (!tier || !key) {
      tsift_free(tier);
      tsift_free(key);
      return tsift_nomem(err, "searching");
    }
    for (size_t i = 0; i < nt; i++) tier[i] = q->term_weak[i] ? 2 : 1;
    for (size_t m = 0; m < c->nm; m++) {
      const tsift_member *mb = &c->members[m];
      size_t i = mb->owner;
      if (c->fate[i] != TSIFT_TERM_USED || !mb->df) continue;
      if (mb->kind == TSIFT_MEMBER_SYNONYM || mb->kind == TSIFT_MEMBER_CORRECTION) continue;
      uint32_t named = 0;
      for (uint32_t p = c->ix->post_off[mb->id]; p < c->ix->post_off[mb->id + 1]; p++)
        if (tsift_posting_tf(&c->ix->post[p], TSIFT_FIELD_NAME) &&
            (!c->stats->allowed || c->stats->allowed[tsift_posting_doc(&c->ix->post[p])]))
          named++;
      double km = tsift_term_idf(c->stats, mb->df) * (1.0 + (double)named / (double)mb->df);
      if (km > key[i]) key[i] = km;
      if (named && tier[i] == 1) tier[i] = 0;
    }
    for (; nmatched > TSIFT_QUERY_MAX_TERMS; nmatched--) {
      size_t worst = nt;
      for (size_t i = 0; i < nt; i++) /* worst tier, lowest key, latest */
        if (c->fate[i] == TSIFT_TERM_USED &&
            (worst == nt || tier[i] > tier[worst] || (tier[i] == tier[worst] && key[i] <= key[worst])))
          worst = i;
      c->fate[worst] = TSIFT_TERM_CAPPED;
    }
    tsift_free(tier);
    tsift_free(key);
  }
  for (size_t m = 0; m < c->nm; m++) {
    tsift_member *mb = &c->members[m];
    if (c->fate[mb->owner] == TSIFT_TERM_USED && mb->df) mb->idf = tsift_term_idf(c->stats, mb->df);
  }
  return TSIFT_OK;
}

/* ---- accumulate ------------------------------------------------------- */

static void accumulate(rank_ctx *c) {
  const tsift_index *ix = c->ix;
  for (size_t m = 0; m < c->nm; m++) {
    const tsift_member *mb = &c->members[m];
    if (!tsift_member_scores(c, mb)) continue;
    for (uint32_t p = ix->post_off[mb->id]; p < ix->post_off[mb->id + 1]; p++) {
      const tsift_posting *post = &ix->post[p];
      uint32_t d = tsift_posting_doc(post);
      if (c->stats->allowed && !c->stats->allowed[d]) continue;
      double tfn = tsift_posting_tfn(ix, c->stats, post, NULL);
      if (tfn <= 0.0) continue;
      if (c->acc[d] == 0.0) c->touched[c->ntouched++] = d;
      c->acc[d] += mb->weight * tsift_saturate(mb->idf, tfn);
    }
  }
}

/* ---- collect and pick ------------------------------------------------- */

/* The query's token sequence as term ids (for exact matches); *can_exact is
 * 0 when the dictionary lacks a token. NULL when out of memory. */
static long *query_sequence(const rank_ctx *c, int *can_exact) {
  const tsift_query *q = c->q;
  long *qseq = tsift_calloc_array(q->tokens.count + 1, sizeof *qseq);
  *can_exact = 1;
  for (size_t i = 0; qseq && i < q->tokens.count; i++) {
    qseq[i] = tsift_term_lookup(c->ix, tsift_token(&q->tokens, i), q->tokens.len[i]);
    if (qseq[i] < 0) *can_exact = 0;
  }
  return qseq;
}

/* Every touched doc with a positive score becomes a candidate, marked exact
 * when the query's token sequence equals its name or id. Without the
 * diversity rule the candidates go through the bounded top-k heap into out
 * (best first); with it, they are all kept in cand for the greedy pick. */
static tsift_status collect(rank_ctx *c, size_t k, tsift_scored *out, size_t *nout, tsift_scored *cand,
                            size_t *ncand, tsift_error *err) {
  const tsift_index *ix = c->ix;
  const tsift_query *q = c->q;
  int can_exact;
  long *qseq = query_sequence(c, &can_exact);
  if (!qseq) return tsift_nomem(err, "searching");
  size_t nh = 0, nc = 0;
  for (size_t i = 0; i < c->ntouched && k > 0; i++) {
    uint32_t d = c->touched[i];
    if (!(c->acc[d] > 0.0)) continue;
    if (c->required && !tsift_has_required(c, d)) continue;
    tsift_scored h = {d, 0, c->acc[d]};
    if (can_exact) h.exact = (uint8_t)tsift_doc_exact(ix, d, qseq, q->tokens.count);
    if (cand) {
      cand[nc++] = h;
    } else if (nh < k) {
      out[nh] = h;
      tsift_heap_sift_up(ix, out, nh, TOPK_ROOT_WORST);
      nh++;
    } else if (tsift_hit_better(ix, &h, &out[0])) {
      out[0] = h;
      tsift_heap_sift_down(ix, out, nh, 0, TOPK_ROOT_WORST);
    }
  }
  if (!cand)
    for (size_t n = nh; n > 1; n--) { /* heap sort into best-first order */
      tsift_scored t = out[0];
      out[0] = out[n - 1];
      out[n - 1] = t;
      tsift_heap_sift_down(ix, out, n - 1, 0, TOPK_ROOT_WORST);
    }
  tsift_free(qseq);
  *nout = nh;
  *ncand = nc;
  return TSIFT_OK;
}

static tsift_status pick(rank_ctx *c, size_t k, tsift_ranking *r, tsift_error *err) {
  tsift_scored *cand = NULL;
  size_t nc = 0;
  if (r->diversified && k > 0 && !(cand = tsift_calloc_array(c->ntouched + 1, sizeof *cand)))
    return tsift_nomem(err, "searching");
  tsift_status st = collect(c, k, r->hits, &r->nhits, cand, &nc, err);
  if (!st && cand) st = tsift_diversity_pick(c, cand, nc, k, r->hits, &r->nhits, err);
  tsift_free(cand);
  return st;
}

/* The same top k without scoring every candidate (step_prune.c). */
static tsift_status pick_pruned(rank_ctx *c, size_t k, tsift_ranking *r, tsift_error *err) {
  int can_exact;
  long *qseq = query_sequence(c, &can_exact);
  if (!qseq) return tsift_nomem(err, "searching");
  tsift_status st = tsift_prune_topk(c, k, can_exact ? qseq : NULL, c->q->tokens.count, r->hits, &r->nhits, err);
  tsift_free(qseq);
  return st;
}

/* ---- breakdown -------------------------------------------------------- */

/* Each hit's parts, from tsift_score_doc with the discounts the pick
 * applied: under the diversity rule, each hit is scored with the terms the
 * hits before it matched covered, as it was when it was picked. */
static tsift_status explain_hits(const rank_ctx *c, tsift_ranking *r, tsift_error *err) {
  size_t scoring = 0;
  for (size_t m = 0; m < c->nm; m++) scoring += tsift_member_scores(c, &c->members[m]);
  size_t nh = r->nhits;
  r->parts = tsift_calloc_array(nh + 1, sizeof *r->parts);
  r->term_store = tsift_calloc_array(nh * scoring + 1, sizeof *r->term_store);
  r->pair_store = tsift_calloc_array(nh * c->npairs + 1, sizeof *r->pair_store);
  uint32_t *covered = r->diversified ? tsift_calloc_array(c->nt + 1, sizeof *covered) : NULL;
  uint8_t *hit_terms = tsift_calloc_array(c->nt + 1, 1);
  long *term_post = tsift_calloc_array(c->nt + 1, sizeof *term_post);
  tsift_status st = TSIFT_OK;
  if (!r->parts || !r->term_store || !r->pair_store || (r->diversified && !covered) || !hit_terms ||
      !term_post) {
    st = tsift_nomem(err, "explaining the hits");
  } else {
    for (size_t h = 0; h < nh; h++) {
      tsift_hit_parts *hp = &r->parts[h];
      tsift_term_part *terms = r->term_store + h * scoring;
      tsift_pair_part *pairs = r->pair_store + h * c->npairs;
      tsift_score_doc(c, r->hits[h].doc, covered, term_post, hit_terms, terms, pairs, &hp->nterms,
                           &hp->npairs);
      hp->terms = terms;
      hp->pairs = pairs;
      if (covered)
        for (size_t i = 0; i < c->nt; i++) covered[i] += hit_terms[i];
    }
  }
  TSIFT_FREE_ALL(covered, hit_terms, term_post);
  return st;
}

/* ---- tsift_rank ------------------------------------------------------- */

const tsift_grade_rule tsift_default_grade_rule = {TSIFT_GRADE_COVERAGE_DEFAULT, TSIFT_GRADE_PAIR_COVERAGE_DEFAULT,
                                                 TSIFT_GRADE_RELATIVE_DEFAULT};

const char *tsift_member_via(const tsift_ranking *r, const tsift_query *q, size_t m, size_t *len) {
  const tsift_member *mb = &r->members[m];
  if (mb->kind == TSIFT_MEMBER_CORRECTION) {
    *len = r->ix->term_len[mb->id];
    return r->ix->term_bytes + r->ix->term_off[mb->id];
  }
  *len = q->xsurface.len[mb->at];
  return tsift_token(&q->xsurface, mb->at);
}

/* Fuse the lexical top k in r with the query vector (fusion.c). */
static tsift_status fuse(rank_ctx *c, const struct tsift_qvec *qv, size_t k, unsigned flags, tsift_ranking *r,
                         tsift_error *err) {
  int can_exact;
  long *qseq = query_sequence(c, &can_exact);
  if (!qseq) return tsift_nomem(err, "searching");
  tsift_status st =
      tsift_fuse(c, qv, k, can_exact ? qseq : NULL, c->q->tokens.count, (flags & TSIFT_RANK_EXPLAIN) != 0, r, err);
  tsift_free(qseq);
  return st;
}

tsift_status tsift_rank(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                        size_t k, unsigned flags, const tsift_grade_rule *rule, tsift_ranking *r,
                        tsift_error *err) {
  return tsift_rank_fused(ix, q, stats, NULL, k, flags, rule, r, err);
}

/* One ranking over the universe of `stats`. */
static tsift_status rank_once(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                              const struct tsift_qvec *qv, size_t k, unsigned flags, const tsift_grade_rule *rule,
                              tsift_ranking *r, tsift_error *err) {
  memset(r, 0, sizeof *r);
  rank_ctx c = {0};
  c.ix = ix;
  c.q = q;
  c.stats = stats;
  c.nt = q->terms.count;
  c.nm = c.nt + q->xterms.count;
  for (size_t i = 0; (flags & TSIFT_RANK_REQUIRED) && i < c.nt; i++) c.required |= q->term_required[i];
  r->ix = ix;
  r->nterms = c.nt;
  r->hits = tsift_calloc_array(k + 1, sizeof *r->hits);
  r->fate = tsift_calloc_array(c.nt + 1, 1);
  /* room for every term's corrections after the terms and expansions */
  r->members = tsift_calloc_array(c.nm + c.nt * TSIFT_TYPO_MAX_CORRECTIONS + 1, sizeof *r->members);
  r->pairs = tsift_calloc_array(c.nt + 1, sizeof *r->pairs);
  if (!r->hits || !r->fate || !r->members || !r->pairs) {
    tsift_ranking_free(r);
    return tsift_nomem(err, "searching");
  }
  c.members = r->members;
  c.fate = r->fate;
  c.pairs = r->pairs;
  /* (an empty catalog or query goes through every step too: no term
   * matches, there are no hits, and the grade still has its evidence) */
  c.gdf = tsift_calloc_array(c.nt + 1, sizeof *c.gdf);
  tsift_status st = TSIFT_OK;
  if (!c.gdf) st = tsift_nomem(err, "searching");
  if (!st) st = select_terms(&c, err);
  r->nmembers = c.nm;
  if (!st) {
    tsift_proximity_pairs(&c);
    r->npairs = c.npairs;
    r->diversified = tsift_diversity_applies(&c);
    if (!r->diversified && !(flags & TSIFT_RANK_EXHAUSTIVE) && tsift_prune_applies(&c)) {
      st = pick_pruned(&c, k, r, err);
    } else { /* every candidate scored: into per-doc accumulators */
      c.acc = tsift_calloc_array(ix->n + 1, sizeof *c.acc);
      c.touched = tsift_calloc_array(ix->n + 1, sizeof *c.touched);
      if (!c.acc || !c.touched) st = tsift_nomem(err, "searching");
      if (!st) {
        accumulate(&c);
        tsift_proximity_accumulate(&c);
        st = pick(&c, k, r, err);
      }
    }
  }
  if (!st && r->nhits && !r->hits[0].exact && ix->min_coverage > 0.0 &&
      !tsift_confident(&c, r->hits[0].doc, ix->min_coverage))
    r->nhits = 0; /* nothing fits well enough: an empty result */
  /* the lexical confidence rule judges the lexical result; similarity is
   * fused after it (a semantic hit needs no lexical confidence) */
  if (!st && qv) st = fuse(&c, qv, k, flags, r, err);
  if (!st && (flags & (TSIFT_RANK_EXPLAIN | TSIFT_RANK_GRADE))) st = explain_hits(&c, r, err);
  if (!st && (flags & TSIFT_RANK_GRADE)) st = tsift_grade_hits(&c, r, rule ? rule : &tsift_default_grade_rule, err);
  TSIFT_FREE_ALL(c.gdf, c.acc, c.touched);
  if (st) tsift_ranking_free(r);
  return st;
}

/* The crowding rule (rank.h): while a page shows look-alikes of one
 * un-vouched source, they leave the universe — ranking and statistics, so
 * a flood can neither fill the page nor dilute the words' weight for the
 * other tools — and the query is ranked again. Each pass takes out at least
 * one tool; after CROWD_PASSES the page stands (the grade still loads at
 * most one of a source's look-alikes). A page without two un-vouched hits
 * of one source costs nothing more. */
#define CROWD_PASSES 4
tsift_status tsift_rank_fused(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                              const struct tsift_qvec *qv, size_t k, unsigned flags, const tsift_grade_rule *rule,
                              tsift_ranking *r, tsift_error *err) {
  tsift_status st = rank_once(ix, q, stats, qv, k, flags, rule, r, err);
  uint8_t *allowed = NULL;
  uint32_t *cut = NULL;
  size_t cap = 0;
  tsift_stats cut_stats = *stats;
  for (int pass = 0; !st && pass < CROWD_PASSES && tsift_crowd_possible(ix, r); pass++) {
    size_t n = tsift_crowd_cut(ix, q, r, cut_stats.allowed, &cut, &cap, err, &st);
    if (!n) break;
    if (!allowed) {
      if (!(allowed = tsift_calloc_array(ix->n + 1, 1))) {
        st = tsift_nomem(err, "searching");
        break;
      }
      for (size_t d = 0; d < ix->n; d++) allowed[d] = !stats->allowed || stats->allowed[d];
      cut_stats.allowed = allowed;
    }
    for (size_t i = 0; i < n; i++) {
      allowed[cut[i]] = 0;
      tsift_stats_drop(ix, &cut_stats, cut[i]);
    }
    tsift_ranking_free(r);
    st = rank_once(ix, q, &cut_stats, qv, k, flags, rule, r, err);
  }
  if (st) tsift_ranking_free(r);
  tsift_free(allowed);
  tsift_free(cut);
  return st;
}
