/* prune.c — exact top-k pruning (docs/performance.md, "Exact pruning and
 * precomputed scoring"): the top k of a ranking without scoring every
 * candidate, bit for bit what collecting them all gives (rank.c; the flag
 * TSIFT_RANK_EXHAUSTIVE keeps that path, and tests/c/test_prune.c holds the
 * two identical).
 *
 * Document at a time over the scoring members' postings, MaxScore (Turtle &
 * Flood, 1995): every member has an upper bound on what it adds to any doc
 * (its weight x the saturation of its largest tfn, index.h term_max_tfn).
 * With the members sorted by bound, the longest prefix whose bounds plus the
 * bonus of the pairs within it stay below the threshold (the k-th best hit
 * so far) is non-essential: a doc with none of the other members cannot
 * enter, so docs come from the essential members' postings only and the
 * non-essential ones are looked up (galloping) for a doc that still may. A
 * doc is scored in full — members in member order, then pairs in pair
 * order, as the accumulator sums, so the same bits — only when its exact
 * partial score plus the bounds of what is still unknown can reach the
 * threshold, and its pairs are scanned (proximity.c) only when its BM25F
 * score plus the bonus of the pairs whose two terms it has can. A bound
 * carries a relative SLACK against rounding and a doc is dropped only when
 * its bound is strictly below the threshold (a tie may still win on its
 * id). Exact matches rank first whatever they score: they are found first,
 * through the index's exact-match chains, and scored in full.
 */
#include <string.h>

#include "alloc.h"
#include "rank_internal.h"

#define SLACK (1.0 + 1e-9)

typedef struct prune_ctx {
  const rank_ctx *c;
  int table;           /* the derived tfn table fits the statistics */
  size_t ns;           /* scoring members */
  uint32_t *ms;        /* ns: their member indexes, ascending */
  uint32_t *pos, *end; /* ns: cursor and end in the member's postings */
  double *ub;          /* ns: the member's bound */
  uint32_t *order;     /* ns: slots by bound, ascending */
  double *pre_ub;      /* ns + 1: the bounds of order[0..i) summed */
  double *pre;         /* ns + 1: pre_ub[i] + the bonus of the pairs within order[0..i) */
  size_t ne;           /* non-essential: order[0..ne) */
  long *at;            /* nm: the member's posting in the doc, or -1 */
  double *part;        /* nm: what it adds (when adds) */
  uint8_t *adds;       /* nm: at >= 0 and tfn > 0 */
  uint8_t *ess;        /* nm: essential */
  uint8_t *in;         /* nm: scratch */
} prune_ctx;

int tsift_prune_applies(const rank_ctx *c) {
  const tsift_index *ix = c->ix;
  if (!ix->field_norm_w || !ix->term_max_tfn || !ix->exact_head) return 0;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) /* a field the catalog lacks has no bound */
    if (c->stats->avg_len[f] > 0.0 && !(ix->scoring_avg_len[f] > 0.0)) return 0;
  return 1;
}

/* What member m adds through posting p (0 and adds = 0 when its tfn is 0),
 * as accumulate() in rank.c computes it. */
static void score_posting(prune_ctx *pc, uint32_t m, uint32_t p) {
  const rank_ctx *c = pc->c;
  const tsift_member *mb = &c->members[m];
  const tsift_posting *post = &c->ix->post[p];
  double tfn = pc->table ? tsift_posting_tfn_table(c->ix, post) : tsift_posting_tfn(c->ix, c->stats, post, NULL);
  pc->at[m] = (long)p;
  pc->adds[m] = tfn > 0.0;
  pc->part[m] = tfn > 0.0 ? mb->weight * tsift_saturate(mb->idf, tfn) : 0.0;
}

/* The BM25F score of the doc whose members are in pc->at: summed in member
 * order, as the accumulator does. */
static double bm25f_sum(const prune_ctx *pc) {
  double v = 0.0;
  for (size_t j = 0; j < pc->ns; j++)
    if (pc->adds[pc->ms[j]]) v += pc->part[pc->ms[j]];
  return v;
}

/* Doc d's final score from its members (pc->at), or -1 when it is no
 * candidate or (threshold >= 0) cannot reach threshold: BM25F, then each
 * pair it has near, in pair order (proximity_accumulate in proximity.c). */
static double finish(const prune_ctx *pc, uint32_t d, double threshold) {
  const rank_ctx *c = pc->c;
  const tsift_index *ix = c->ix;
  double v = bm25f_sum(pc);
  if (!(v > 0.0)) return -1.0;
  double bonus = 0.0;
  for (size_t k = 0; k < c->npairs; k++) {
    const tsift_qpair *p = &c->pairs[k];
    if (pc->at[p->a] >= 0 && pc->at[p->b] >= 0) bonus += p->bonus;
  }
  if (threshold >= 0.0 && (v + bonus) * SLACK < threshold) return -1.0;
  for (size_t k = 0; k < c->npairs; k++) {
    const tsift_qpair *p = &c->pairs[k];
    long pa = pc->at[p->a], pb = pc->at[p->b];
    if (pa < 0 || pb < 0) continue;
    unsigned both = tsift_pair_fields(&ix->post[pa], &ix->post[pb]);
    if (both && tsift_pair_near_in(ix, d, p, both)) v += p->bonus;
  }
  if (c->required && !tsift_has_required(c, d)) return -1.0;
  return v;
}

static void heap_add(const tsift_index *ix, tsift_scored *out, size_t *nh, size_t k, tsift_scored h) {
  if (*nh < k) {
    out[*nh] = h;
    tsift_heap_sift_up(ix, out, *nh, TOPK_ROOT_WORST);
    (*nh)++;
  } else if (tsift_hit_better(ix, &h, &out[0])) {
    out[0] = h;
    tsift_heap_sift_down(ix, out, *nh, 0, TOPK_ROOT_WORST);
  }
}

/* Sequence e of the exact-match chains (2d: name, 2d + 1: id) equals qseq. */
static int entry_equal(const tsift_index *ix, uint32_t e, const long *qseq, size_t nq) {
  uint32_t a = ix->seq_off[e], b = ix->seq_off[e + 1];
  if (b - a != nq) return 0;
  for (size_t i = 0; i < nq; i++)
    if ((long)ix->seq_terms[a + i] != qseq[i]) return 0;
  return 1;
}

/* The exact matches, scored in full, into the heap. */
static void add_exact(prune_ctx *pc, const long *qseq, size_t nq, size_t k, tsift_scored *out, size_t *nh) {
  const rank_ctx *c = pc->c;
  const tsift_index *ix = c->ix;
  uint32_t h = TSIFT_SEQ_HASH_SEED;
  for (size_t i = 0; i < nq; i++) h = tsift_seq_hash_add(h, (uint32_t)qseq[i]);
  for (uint32_t e1 = ix->exact_head[h & (ix->exact_nbuckets - 1)]; e1; e1 = ix->exact_next[e1 - 1]) {
    uint32_t e = e1 - 1, d = e / 2;
    if (!entry_equal(ix, e, qseq, nq)) continue; /* another sequence in the bucket */
    if (c->stats->allowed && !c->stats->allowed[d]) continue;
    for (size_t j = 0; j < pc->ns; j++) {
      uint32_t m = pc->ms[j];
      long p = tsift_find_posting(ix, (uint32_t)c->members[m].id, d);
      pc->at[m] = p;
      pc->adds[m] = 0;
      if (p >= 0) score_posting(pc, m, (uint32_t)p);
    }
    double v = finish(pc, d, -1.0);
    if (v >= 0.0) heap_add(ix, out, nh, k, (tsift_scored){d, 1, v});
  }
}

/* The non-essential prefix for threshold t: the longest whose bound stays
 * below it; marks pc->ess. */
static void set_essential(prune_ctx *pc, double t) {
  size_t ne = pc->ne;
  while (ne < pc->ns && pc->pre[ne + 1] * SLACK < t) ne++;
  pc->ne = ne;
  for (size_t i = 0; i < pc->ns; i++) pc->ess[pc->ms[pc->order[i]]] = i >= ne;
}

static tsift_status prune_alloc(prune_ctx *pc, size_t nm, size_t ns) {
  pc->ms = tsift_calloc_array(ns + 1, sizeof *pc->ms);
  pc->pos = tsift_calloc_array(ns + 1, sizeof *pc->pos);
  pc->end = tsift_calloc_array(ns + 1, sizeof *pc->end);
  pc->order = tsift_calloc_array(ns + 1, sizeof *pc->order);
  pc->ub = tsift_calloc_array(ns + 1, sizeof *pc->ub);
  pc->pre_ub = tsift_calloc_array(ns + 1, sizeof *pc->pre_ub);
  pc->pre = tsift_calloc_array(ns + 1, sizeof *pc->pre);
  pc->at = tsift_calloc_array(nm + 1, sizeof *pc->at);
  pc->part = tsift_calloc_array(nm + 1, sizeof *pc->part);
  pc->adds = tsift_calloc_array(nm + 1, 1);
  pc->ess = tsift_calloc_array(nm + 1, 1);
  pc->in = tsift_calloc_array(nm + 1, 1);
  return pc->ms && pc->pos && pc->end && pc->order && pc->ub && pc->pre_ub && pc->pre && pc->at &&
                 pc->part && pc->adds && pc->ess && pc->in
             ? TSIFT_OK
             : TSIFT_E_NOMEM;
}

static void prune_free(prune_ctx *pc) {
  tsift_free(pc->ms);
  tsift_free(pc->pos);
  tsift_free(pc->end);
  tsift_free(pc->order);
  tsift_free(pc->ub);
  tsift_free(pc->pre_ub);
  tsift_free(pc->pre);
  tsift_free(pc->at);
  tsift_free(pc->part);
  tsift_free(pc->adds);
  tsift_free(pc->ess);
  tsift_free(pc->in);
}

tsift_status tsift_prune_topk(const rank_ctx *c, size_t k, const long *qseq, size_t nq, tsift_scored *out,
                              size_t *nout, tsift_error *err) {
  const tsift_index *ix = c->ix;
  const uint8_t *allowed = c->stats->allowed;
  prune_ctx pc = {0};
  pc.c = c;
  pc.table = tsift_scoring_fits(ix, c->stats);
  size_t ns = 0;
  for (size_t m = 0; m < c->nm; m++) ns += tsift_member_scores(c, &c->members[m]);
  *nout = 0;
  if (prune_alloc(&pc, c->nm, ns)) {
    prune_free(&pc);
    return tsift_nomem(err, "searching");
  }
  /* Under other statistics (a session's universe), a field part grows at
   * most by the ratio of the averages (norm = 1 - b + b len / avg), so the
   * catalog's largest tfn times the largest ratio bounds every tfn. */
  double grow = 1.0;
  for (int f = 0; f < TSIFT_FIELD_COUNT && !pc.table; f++)
    if (c->stats->avg_len[f] > 0.0 && c->stats->avg_len[f] / ix->scoring_avg_len[f] > grow)
      grow = c->stats->avg_len[f] / ix->scoring_avg_len[f];
  for (size_t m = 0; m < c->nm; m++) {
    pc.at[m] = -1;
    if (!tsift_member_scores(c, &c->members[m])) continue;
    const tsift_member *mb = &c->members[m];
    size_t j = pc.ns++;
    pc.ms[j] = (uint32_t)m;
    pc.pos[j] = ix->post_off[mb->id];
    pc.end[j] = ix->post_off[mb->id + 1];
    pc.ub[j] = mb->weight * tsift_saturate(mb->idf, ix->term_max_tfn[mb->id] * grow);
    size_t i = j; /* insertion by bound, ascending */
    while (i > 0 && pc.ub[pc.order[i - 1]] > pc.ub[j]) {
      pc.order[i] = pc.order[i - 1];
      i--;
    }
    pc.order[i] = (uint32_t)j;
  }
  for (size_t i = 0; i < ns; i++) {
    pc.pre_ub[i + 1] = pc.pre_ub[i] + pc.ub[pc.order[i]];
    pc.in[pc.ms[pc.order[i]]] = 1;
    double bonus = 0.0;
    for (size_t k2 = 0; k2 < c->npairs; k2++)
      if (pc.in[c->pairs[k2].a] && pc.in[c->pairs[k2].b]) bonus += c->pairs[k2].bonus;
    pc.pre[i + 1] = pc.pre_ub[i + 1] + bonus;
  }
  size_t nh = 0;
  if (qseq && nq && k) add_exact(&pc, qseq, nq, k, out, &nh);
  double t = nh == k ? out[0].score : 0.0; /* the threshold: the worst hit kept */
  set_essential(&pc, nh == k ? t : 0.0);
  while (k > 0 && !(nh == k && out[0].exact)) { /* an exact worst hit: nothing else enters */
    uint32_t d = UINT32_MAX;
    for (size_t i = pc.ne; i < ns; i++) {
      uint32_t j = pc.order[i];
      if (pc.pos[j] < pc.end[j] && ix->post[pc.pos[j]].doc < d) d = ix->post[pc.pos[j]].doc;
    }
    if (d == UINT32_MAX) break; /* the essential postings are done */
    int skip = allowed && !allowed[d];
    double known = 0.0;
    for (size_t i = pc.ne; i < ns; i++) {
      uint32_t j = pc.order[i], m = pc.ms[j];
      pc.at[m] = -1;
      pc.adds[m] = 0;
      if (pc.pos[j] < pc.end[j] && ix->post[pc.pos[j]].doc == d) {
        if (!skip) {
          score_posting(&pc, m, pc.pos[j]);
          known += pc.part[m];
        }
        pc.pos[j]++;
      }
    }
    if (skip) continue;
    int full = nh == k;
    if (full) { /* the bound: what is known, the unknown members' bounds, the pairs still possible */
      double bonus = 0.0;
      for (size_t k2 = 0; k2 < c->npairs; k2++) {
        const tsift_qpair *p = &c->pairs[k2];
        if ((!pc.ess[p->a] || pc.at[p->a] >= 0) && (!pc.ess[p->b] || pc.at[p->b] >= 0)) bonus += p->bonus;
      }
      if ((known + pc.pre_ub[pc.ne] + bonus) * SLACK < t) continue;
      size_t i = pc.ne;
      while (i-- > 0) { /* the non-essential members, largest bound first */
        uint32_t j = pc.order[i], m = pc.ms[j];
        pc.pos[j] = tsift_posting_gallop(ix->post, pc.pos[j], pc.end[j], d);
        pc.at[m] = -1;
        pc.adds[m] = 0;
        if (pc.pos[j] < pc.end[j] && ix->post[pc.pos[j]].doc == d) {
          score_posting(&pc, m, pc.pos[j]);
          known += pc.part[m];
        }
        if ((known + pc.pre_ub[i] + bonus) * SLACK < t) break;
      }
      if (i != (size_t)-1) continue; /* dropped before every member was known */
    } else {
      for (size_t i = 0; i < pc.ne; i++) { /* (none are non-essential before the heap is full) */
        uint32_t j = pc.order[i], m = pc.ms[j];
        pc.pos[j] = tsift_posting_gallop(ix->post, pc.pos[j], pc.end[j], d);
        pc.at[m] = -1;
        pc.adds[m] = 0;
        if (pc.pos[j] < pc.end[j] && ix->post[pc.pos[j]].doc == d) score_posting(&pc, m, pc.pos[j]);
      }
    }
    double v = finish(&pc, d, full ? t : -1.0);
    if (v < 0.0) continue;
    if (qseq && nq && tsift_doc_exact(ix, d, qseq, nq)) continue; /* added first */
    heap_add(ix, out, &nh, k, (tsift_scored){d, 0, v});
    if (nh == k && !out[0].exact && out[0].score > t) {
      t = out[0].score;
      set_essential(&pc, t);
    }
  }
  for (size_t n = nh; n > 1; n--) { /* heap sort into best-first order */
    tsift_scored tmp = out[0];
    out[0] = out[n - 1];
    out[n - 1] = tmp;
    tsift_heap_sift_down(ix, out, n - 1, 0, TOPK_ROOT_WORST);
  }
  *nout = nh;
  prune_free(&pc);
  return TSIFT_OK;
}
