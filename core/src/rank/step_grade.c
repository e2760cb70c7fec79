/* step_grade.c — the match grade of every hit (rank.h, docs/sessions.md), from
 * the breakdown the ranker wrote (step_score.c): which query terms the hit
 * matches, how much of the query's evidence that is, and how its score
 * compares with the best hit's. Sessions load only strong hits. */
#include "rank/rank_internal.h"

#include <string.h>

#include "base/alloc.h"
#include "rank/fusion.h"

/* Function words of the languages the vocabulary table translates
 * (German, French, Spanish; Italian and Portuguese share most of them), as
 * query analysis leaves them (case folded, plural folded: "dans" -> "dan").
 * English ones are stopwords already. They are not stopwords — a catalog
 * may use them — but a query word no tool has is a need nothing serves
 * only when it is a content word: "für" in "Wetter für München" is not.
 * One string, '|' around every word: no pointer table in the module. */
static const char k_function_words[] =
    "|a|al|alle|am|an|as|au|auf|aus|aux|avec|bei|bitte|ce|ces|cet|cette|com|con|d|da|dan|das|de|del|"
    "dem|den|der|des|di|die|do|dos|du|durch|e|ein|eine|einem|einen|einer|eines|el|elle|em|en|es|esa|"
    "ese|esta|este|esto|et|für|gli|il|im|in|ins|je|l|la|las|le|les|leur|lo|los|ma|mais|me|mein|meine|"
    "mes|mi|mich|mir|mis|mit|mon|na|nach|no|nos|notre|nous|o|oder|os|ou|où|par|para|per|pero|por|"
    "pour|qu|que|qui|qué|san|se|ses|sin|sobre|son|sous|su|sur|sus|ta|te|tu|tus|um|uma|un|una|und|une|"
    "uno|unter|vom|von|vor|votre|vous|y|zu|zum|zur|à|über|";

static int is_function_word(const char *s, size_t n) { return tsift_word_listed(k_function_words, s, n); }

/* Content terms carry the need: not argument values or request phrasing
 * (soft terms), not terms the 16-term cut dropped, not words inside a
 * vocabulary key another term carries, and no foreign function word that
 * matched nothing. A query without content terms is judged on all its kept
 * terms. */
static void content_terms(const rank_ctx *c, uint8_t *content) {
  const tsift_query *q = c->q;
  size_t any = 0;
  for (size_t i = 0; i < c->nt; i++) {
    content[i] = !q->term_soft[i] && c->fate[i] != TSIFT_TERM_CAPPED && !q->term_covered[i] &&
                 !(c->fate[i] == TSIFT_TERM_UNMATCHED && is_function_word(tsift_token(&q->surface, i), q->surface.len[i]));
    any += content[i];
  }
  if (!any)
    for (size_t i = 0; i < c->nt; i++) content[i] = c->fate[i] != TSIFT_TERM_CAPPED;
}

/* With a query vector (fusion.h): a hit whose similarity stands far above
 * the query's distribution is strong when its fused score is close to the
 * best, though it matches few words; a hit below the host's minSimilarity
 * is never strong, so a request no tool is close to in meaning loads
 * nothing. */
static int semantic_grade(const tsift_sem_part *sp, const tsift_grade *g, const tsift_grade_rule *rule,
                          int strong) {
  if (!sp->close) return 0;
  return (strong && sp->agrees) || (sp->alone && g->relative >= rule->relative);
}

tsift_status tsift_grade_hits(const rank_ctx *c, tsift_ranking *r, const tsift_grade_rule *rule,
                              tsift_error *err) {
  size_t nt = c->nt, nh = r->nhits;
  r->grades = tsift_calloc_array(nh + 1, sizeof *r->grades);
  r->matched = tsift_calloc_array(nh * nt + 1, 1);
  uint8_t *content = tsift_calloc_array(nt + 1, 1);
  double *mass = r->evidence = tsift_calloc_array(nt + 1, sizeof *mass);
  if (!r->grades || !r->matched || !content || !mass) {
    tsift_free(content);
    return tsift_nomem(err, "grading the hits");
  }
  /* The query's evidence: each content term's idf — that of its rarest live
   * member, or, for a word no tool of the universe has, a share of the idf
   * of a term in no document (the most a word can weigh): a need nothing
   * here serves counts against every hit, but natural requests carry many
   * words no catalog has ("furious", "weekend"), so not in full. */
  content_terms(c, content);
  double total = 0.0;
  for (size_t i = 0; i < nt; i++) {
    if (!content[i]) continue;
    mass[i] = c->fate[i] == TSIFT_TERM_USED ? tsift_term_idf(c->stats, c->gdf[i])
                                            : TSIFT_GRADE_UNMATCHED_WEIGHT * tsift_term_idf(c->stats, 0);
    total += mass[i];
  }
  double best = 0.0;
  for (size_t h = 0; h < nh; h++)
    if (r->hits[h].score > best) best = r->hits[h].score;
  for (size_t h = 0; h < nh; h++) {
    uint8_t *matched = r->matched + h * nt;
    const tsift_hit_parts *hp = &r->parts[h];
    for (size_t k = 0; k < hp->nterms; k++) matched[r->members[hp->terms[k].member].owner] = 1;
    tsift_grade *g = &r->grades[h];
    double covered = 0.0;
    for (size_t i = 0; i < nt; i++) /* in term order: the same sum everywhere */
      if (content[i] && matched[i]) {
        covered += mass[i];
        g->matched++;
      }
    g->coverage = total > 0.0 ? covered / total : 0.0;
    g->relative = best > 0.0 ? r->hits[h].score / best : 0.0;
    /* a phrase of the request: a pair of two content terms (a pair with an
     * argument value, "customer cus_42", says nothing about the need) */
    g->phrase = 0;
    for (size_t k = 0; k < hp->npairs && !g->phrase; k++) {
      const tsift_qpair *p = &r->pairs[hp->pairs[k].pair];
      g->phrase = content[p->a] && content[p->b];
    }
    double needed = g->phrase && rule->pair_coverage < rule->coverage ? rule->pair_coverage : rule->coverage;
    int strong = r->hits[h].exact || (g->relative >= rule->relative && g->coverage >= needed);
    if (r->sem && !r->hits[h].exact) strong = semantic_grade(&r->sem[h], g, rule, strong);
    g->level = strong ? TSIFT_MATCH_STRONG : TSIFT_MATCH_PARTIAL;
  }
  tsift_free(content);
  return TSIFT_OK;
}
