/* step_prune.c — exact top-k pruning (docs/performance.md, "Exact pruning and
 * precomputed scoring"): the top k of a ranking without scoring every
 * candidate, bit for bit what collecting them all gives (rank.c; the flag
 * TSIFT_RANK_EXHAUSTIVE keeps that path, and tests/c/test_step_prune.c holds the
 * two identical).
 *
 * MaxScore (Turtle & Flood, 1995), a window of docs at a time. Every
 * scoring member has an upper bound on what it adds to any doc (its weight
 * x the saturation of its largest tfn, index.h term_max_tfn). Given the
 * threshold t (the k-th best hit so far), some members are left unwalked:
 * as many postings as possible, while their bounds plus the bonus of the
 * pairs among them stay below t, so a doc that has none of the walked
 * members cannot enter. The walked members' postings of a window of
 * WINDOW docs are recorded per doc (which walked members it has, and
 * where); then the window's docs, in doc order, are bounded by those
 * members' bounds plus the unwalked bounds (less those of the common terms
 * the doc lacks: ix->doc_common) plus the pairs still possible; a doc that
 * passes has its walked members scored and is bounded again, and only then
 * are its unwalked members looked up (galloping, largest bound first,
 * dropped as soon as it cannot reach t). The walks are chosen again between
 * windows when t has risen.
 *
 * Before the walk, the threshold is raised: the exact matches, then every
 * doc of the rare members (a few postings, high bounds) are scored in
 * full, and the walk skips them.
 *
 * A doc is scored in full — members in member order, then pairs in pair
 * order, as the accumulator sums, so the same bits — only when its exact
 * partial score plus the bounds of what is still unknown can reach the
 * threshold, and its pairs are scanned (step_proximity.c) only when its BM25F
 * score plus the bonus of the pairs whose two terms it has can. A bound
 * carries a relative SLACK against rounding and a doc is dropped only when
 * its bound is strictly below the threshold (a tie may still win on its
 * id). Exact matches rank first whatever they score: they are found first,
 * through the index's exact-match chains, and scored in full.
 */
#include <string.h>

#include "base/alloc.h"
#include "rank/rank_internal.h"

#define SLACK (1.0 + 1e-9)

#define WINDOW 256      /* docs per window (a multiple of 64) */
#define MAX_SLOTS 64    /* scoring members (a bit each); more: the exhaustive path */
#define PAIR_TABLE_BITS 8 /* walks up to this many: the pairs' bonus by a table */
#define SEED_DF 64      /* members with at most this many postings seed */
#define SEED_MAX 2048   /* seeded docs at most */
/* The walks are chosen again when the threshold has risen by this share. */
#define REASSIGN_RISE (1.0 / 64.0)

typedef struct slot {
  uint32_t m;             /* member index */
  uint32_t fo, fe;        /* its postings: post[fo .. fe) */
  uint32_t look;          /* lookup cursor in them (only moves forward) */
  uint32_t cur;           /* walk cursor (when walked) */
  double ub;              /* bound on what it adds */
  int walked;
  int cbit;               /* its bit in ix->doc_common, or -1 */
  uint8_t seeding;        /* add_seeds: chosen or passed over */
} slot;

typedef struct prune_ctx {
  const rank_ctx *c;
  int table;           /* the derived tfn table fits the statistics */
  size_t ns;           /* scoring members */
  slot *sl;            /* ns, in member order */
  uint32_t *mslot;     /* nm: the member's slot (UINT32_MAX: none) */
  uint32_t *wk;        /* walked slots, in member order (nw) */
  size_t nw;
  uint32_t *lk;        /* unwalked slots, largest bound first (nl) */
  size_t nl;
  uint32_t *lq;        /* the unwalked slots that are no common term, likewise (nlq) */
  size_t nlq;
  uint64_t ucommon;    /* the common-term bits of the unwalked slots */
  double cub[64];      /* per bit: the bounds of the unwalked slots of that term */
  double rest;         /* the unwalked slots' bounds summed */
  double bonus0;       /* the pairs between two unwalked members */
  uint64_t *pneed;     /* npairs: the walk bits a pair needs (0: both unwalked) */
  uint32_t *pw;        /* the pairs with a walked member (npw) */
  size_t npw;
  double *pbonus;      /* 2^nw when nw <= PAIR_TABLE_BITS: bonus0 + the pairs a doc with those walked members may have */
  double *pub;         /* 2^nw likewise: the bounds of those walked members */
  double assigned_t;   /* the threshold the walks were chosen for */
  uint32_t gen;        /* the doc being scored: at[m] is for it when stamp[m] == gen */
  uint32_t *stamp;     /* nm */
  long *at;            /* nm: the member's posting in the doc, or -1 */
  double *part;        /* nm: what it adds */
  /* the window: per doc offset, which walked members it has (bit = walk
   * index) and their postings; which offsets are set */
  uint64_t *msk;       /* WINDOW */
  uint32_t *wpos;      /* nw x WINDOW (not zeroed: read only under msk) */
  uint64_t used[WINDOW / 64];
  uint32_t exact[8];   /* the exact matches add_exact found (nexact; more: exact_many) */
  size_t nexact;
  int exact_many;
  uint32_t *seed;      /* the seeded docs, ascending (nseed) */
  size_t nseed;
} prune_ctx;

int tsift_prune_applies(const rank_ctx *c) {
  const tsift_index *ix = c->ix;
  if (!ix->len_norm_w || !ix->term_max_tfn || !ix->exact_head) return 0;
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) /* a field the catalog lacks has no bound */
    if (c->stats->avg_len[f] > 0.0 && !(ix->scoring_avg_len[f] > 0.0)) return 0;
  size_t ns = 0;
  for (size_t m = 0; m < c->nm; m++) ns += tsift_member_scores(c, &c->members[m]);
  return ns <= MAX_SLOTS;
}

/* What member m adds through posting post (0 when its tfn is 0), as
 * accumulate() in rank.c computes it. */
static inline double posting_part(const prune_ctx *pc, const tsift_member *mb, const tsift_posting *post) {
  const rank_ctx *c = pc->c;
  double tfn = pc->table ? tsift_posting_tfn_table(c->ix, post) : tsift_posting_tfn(c->ix, c->stats, post, NULL);
  return tfn > 0.0 ? mb->weight * tsift_saturate(mb->idf, tfn) : 0.0;
}

static inline void set_known(prune_ctx *pc, uint32_t m, long p, double part) {
  pc->stamp[m] = pc->gen;
  pc->at[m] = p;
  pc->part[m] = part;
}

static inline long known_at(const prune_ctx *pc, uint32_t m) {
  return pc->stamp[m] == pc->gen ? pc->at[m] : -1;
}

/* Doc d's final score from its members (pc->at), or -1 when it is no
 * candidate or (threshold >= 0) cannot reach threshold: BM25F summed in
 * member order, as the accumulator does (a member adding 0 changes no bit),
 * then each pair it has near, in pair order (proximity_accumulate). */
static double finish(const prune_ctx *pc, uint32_t d, double threshold) {
  const rank_ctx *c = pc->c;
  const tsift_index *ix = c->ix;
  double v = 0.0;
  for (size_t j = 0; j < pc->ns; j++) {
    uint32_t m = pc->sl[j].m;
    if (known_at(pc, m) >= 0) v += pc->part[m];
  }
  if (!(v > 0.0)) return -1.0;
  double bonus = 0.0;
  for (size_t k = 0; k < c->npairs; k++) {
    const tsift_qpair *p = &c->pairs[k];
    if (known_at(pc, p->a) >= 0 && known_at(pc, p->b) >= 0) bonus += p->bonus;
  }
  if (threshold >= 0.0 && (v + bonus) * SLACK < threshold) return -1.0;
  for (size_t k = 0; k < c->npairs; k++) {
    const tsift_qpair *p = &c->pairs[k];
    long pa = known_at(pc, p->a), pb = known_at(pc, p->b);
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
  return tsift_seq_is(ix, e, qseq, nq);
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
    if (pc->nexact < sizeof pc->exact / sizeof pc->exact[0]) pc->exact[pc->nexact++] = d;
    else pc->exact_many = 1;
    if (c->stats->allowed && !c->stats->allowed[d]) continue;
    pc->gen++;
    for (size_t j = 0; j < pc->ns; j++) {
      uint32_t m = pc->sl[j].m;
      long p = tsift_find_posting(ix, (uint32_t)c->members[m].id, d);
      if (p >= 0) set_known(pc, m, p, posting_part(pc, &c->members[m], &ix->post[p]));
    }
    double v = finish(pc, d, -1.0);
    if (v >= 0.0) heap_add(ix, out, nh, k, (tsift_scored){d, 1, v});
  }
}

/* 1 when slot s has a posting in doc d. Moves its lookup cursor to that
 * posting or past d (a few steps, then galloping: the docs asked for are
 * ascending and often close), so look_up finds it at once. */
static inline int has_posting(const tsift_posting *post, slot *s, uint32_t d) {
  uint32_t key = tsift_posting_key(d), lo = s->look;
  for (int i = 0; i < 4 && lo < s->fe && post[lo].bits < key; i++) lo++;
  if (lo < s->fe && post[lo].bits < key) lo = tsift_posting_gallop(post, lo, s->fe, d);
  s->look = lo;
  return lo < s->fe && tsift_posting_doc(&post[lo]) == d;
}

/* Doc d is an exact match (added first by add_exact, which finds them all:
 * every doc's name and id sequences are in the chains). */
static int is_exact(const prune_ctx *pc, uint32_t d, const long *qseq, size_t nq) {
  if (pc->exact_many) return tsift_doc_exact(pc->c->ix, d, qseq, nq);
  for (size_t i = 0; i < pc->nexact; i++)
    if (pc->exact[i] == d) return 1;
  return 0;
}

/* Looks up slot s's posting in doc d and records it; returns what it adds. */
static double look_up(prune_ctx *pc, slot *s, uint32_t d) {
  const rank_ctx *c = pc->c;
  const tsift_posting *post = c->ix->post;
  s->look = tsift_posting_gallop(post, s->look, s->fe, d);
  if (s->look < s->fe && tsift_posting_doc(&post[s->look]) == d) {
    double v = posting_part(pc, &c->members[s->m], &post[s->look]);
    set_known(pc, s->m, (long)s->look, v);
    return v;
  }
  set_known(pc, s->m, -1, 0.0);
  return 0.0;
}

/* The bound of a doc that has no walked member: the unwalked bounds and the
 * pairs between two unwalked members (a pair counts a member's presence,
 * even one that adds 0). */
static int member_walked(const prune_ctx *pc, uint32_t m) {
  return pc->mslot[m] != UINT32_MAX && pc->sl[pc->mslot[m]].walked;
}

static double unwalked_bound(const prune_ctx *pc) {
  const rank_ctx *c = pc->c;
  double v = 0.0;
  for (size_t j = 0; j < pc->ns; j++)
    if (!pc->sl[j].walked) v += pc->sl[j].ub;
  for (size_t k = 0; k < c->npairs; k++)
    if (!member_walked(pc, c->pairs[k].a) && !member_walked(pc, c->pairs[k].b))
      v += c->pairs[k].bonus;
  return v;
}

/* How much leaving s unwalked saves per unit of bound it costs. */
static double unwalk_key(const slot *s) { return s->ub > 0.0 ? (double)(s->fe - s->fo) / s->ub : 1e308; }

/* Choose the walks for threshold t (0: every member is walked): members
 * left unwalked greedily, most postings per unit of bound first, while a
 * doc with none of the walked ones cannot reach t. Newly walked members
 * start at the first posting at or after doc `from`. */
static void assign_walks(prune_ctx *pc, double t, uint32_t from) {
  const rank_ctx *c = pc->c;
  const tsift_index *ix = c->ix;
  pc->assigned_t = t;
  uint8_t was[MAX_SLOTS];
  uint32_t order[MAX_SLOTS];
  for (size_t j = 0; j < pc->ns; j++) {
    slot *s = &pc->sl[j];
    was[j] = (uint8_t)s->walked;
    s->walked = 1;
    size_t i = j; /* by postings / bound, descending */
    double key = unwalk_key(s);
    while (i > 0) {
      const slot *o = &pc->sl[order[i - 1]];
      if (unwalk_key(o) >= key) break;
      order[i] = order[i - 1];
      i--;
    }
    order[i] = (uint32_t)j;
  }
  for (size_t i = 0; i < pc->ns && t > 0.0; i++) {
    slot *s = &pc->sl[order[i]];
    s->walked = 0;
    if (!(unwalked_bound(pc) * SLACK < t)) s->walked = 1;
  }
  pc->nw = pc->nl = 0;
  pc->ucommon = 0;
  pc->rest = 0.0;
  for (size_t j = 0; j < pc->ns; j++) {
    slot *s = &pc->sl[j];
    if (s->walked) {
      if (!was[j]) s->cur = tsift_posting_gallop(ix->post, s->fo, s->fe, from);
      pc->wk[pc->nw++] = (uint32_t)j;
      continue;
    }
    pc->rest += s->ub;
    if (s->cbit >= 0) {
      if (!(pc->ucommon >> s->cbit & 1u)) pc->cub[s->cbit] = 0.0;
      pc->ucommon |= 1ull << s->cbit;
      pc->cub[s->cbit] += s->ub;
    }
    size_t i = pc->nl++; /* by bound, largest first */
    while (i > 0 && pc->sl[pc->lk[i - 1]].ub < s->ub) {
      pc->lk[i] = pc->lk[i - 1];
      i--;
    }
    pc->lk[i] = (uint32_t)j;
  }
  pc->nlq = 0;
  for (size_t i = 0; i < pc->nl; i++)
    if (pc->sl[pc->lk[i]].cbit < 0) pc->lq[pc->nlq++] = pc->lk[i];
  uint32_t bit[MAX_SLOTS]; /* walk index of each walked slot */
  for (size_t w = 0; w < pc->nw; w++) bit[pc->wk[w]] = (uint32_t)w;
  pc->bonus0 = 0.0;
  pc->npw = 0;
  for (size_t k = 0; k < c->npairs; k++) {
    uint64_t need = 0;
    uint32_t a = c->pairs[k].a, b = c->pairs[k].b;
    if (member_walked(pc, a)) need |= 1ull << bit[pc->mslot[a]];
    if (member_walked(pc, b)) need |= 1ull << bit[pc->mslot[b]];
    pc->pneed[k] = need;
    if (!need) pc->bonus0 += c->pairs[k].bonus;
    else pc->pw[pc->npw++] = (uint32_t)k;
  }
  if (pc->nw <= PAIR_TABLE_BITS) /* by the lowest bit: the pairs it completes */
    for (uint64_t mask = 0; mask < (1ull << pc->nw); mask++) {
      if (!mask) {
        pc->pbonus[0] = pc->bonus0;
        pc->pub[0] = 0.0;
        continue;
      }
      uint64_t low = mask & (~mask + 1);
      double v = pc->pbonus[mask ^ low];
      pc->pub[mask] = pc->pub[mask ^ low] + pc->sl[pc->wk[__builtin_ctzll(low)]].ub;
      for (size_t i = 0; i < pc->npw; i++) {
        uint64_t need = pc->pneed[pc->pw[i]];
        if ((need & low) && (need & mask) == need) v += c->pairs[pc->pw[i]].bonus;
      }
      pc->pbonus[mask] = v;
    }
}

/* 1 when doc d cannot reach t without an unwalked member it lacks (bound:
 * what it may score with every unwalked member). Largest bound first, so
 * the first member it may lack ends the test; only members that are no
 * common term (those are known by their bits already). Their presence
 * costs a cursor step, less than any tfn: the conjunction of two words. */
static inline int lacks_required(prune_ctx *pc, uint32_t d, double bound, double t) {
  for (size_t i = 0; i < pc->nlq; i++) {
    slot *s = &pc->sl[pc->lq[i]];
    if (!((bound - s->ub) * SLACK < t)) return 0;
    if (!has_posting(pc->c->ix->post, s, d)) return 1;
  }
  return 0;
}

/* The rest of a doc d whose walked members are known (they add `known`):
 * its unwalked members looked up, largest bound first, while its bound
 * (known + rest + bonus; absent: the common terms it lacks) can reach the
 * threshold, then scored in full into the heap. */
static void consider_tail(prune_ctx *pc, uint32_t d, double known, double rest, double bonus, uint64_t absent,
                          const long *qseq, size_t nq, size_t k, tsift_scored *out, size_t *nh) {
  const tsift_index *ix = pc->c->ix;
  int full = *nh == k;
  double t = full ? out[0].score : -1.0;
  for (size_t i = 0; i < pc->nl; i++) {
    slot *s = &pc->sl[pc->lk[i]];
    if (s->cbit >= 0 && (absent >> s->cbit & 1u)) { /* known absent */
      set_known(pc, s->m, -1, 0.0);
      continue;
    }
    known += look_up(pc, s, d);
    rest -= s->ub;
    if (full && (known + rest + bonus) * SLACK < t) return;
  }
  double v = finish(pc, d, full ? t : -1.0);
  if (v < 0.0) return;
  if (qseq && nq && is_exact(pc, d, qseq, nq)) return; /* added first */
  heap_add(ix, out, nh, k, (tsift_scored){d, 0, v});
}

/* Doc d (offset o) of the window, which has the walked members of mask
 * `have`, into the heap when it can enter: bounded by their bounds first,
 * then by what they add, then the unwalked members looked up, largest bound
 * first, while the bound holds. */
static void consider(prune_ctx *pc, uint32_t d, uint32_t o, uint64_t have, const long *qseq,
                     size_t nq, size_t k, tsift_scored *out, size_t *nh) {
  const rank_ctx *c = pc->c;
  const tsift_index *ix = c->ix;
  int full = *nh == k;
  double t = full ? out[0].score : -1.0;
  double rest = pc->rest, bonus, walked_ub = 0.0;
  uint64_t absent = pc->ucommon ? pc->ucommon & ~ix->doc_common[d] : 0; /* unwalked common terms d lacks */
  for (uint64_t x = absent; x; x &= x - 1) rest -= pc->cub[__builtin_ctzll(x)];
  if (pc->nw <= PAIR_TABLE_BITS) {
    bonus = pc->pbonus[have];
    walked_ub = pc->pub[have];
  } else {
    bonus = pc->bonus0;
    for (size_t i = 0; i < pc->npw; i++) {
      uint64_t need = pc->pneed[pc->pw[i]];
      if ((need & have) == need) bonus += c->pairs[pc->pw[i]].bonus;
    }
    for (uint64_t x = have; x; x &= x - 1) walked_ub += pc->sl[pc->wk[__builtin_ctzll(x)]].ub;
  }
  /* the walked members' bounds first: their tfns only for a doc that passes */
  if (full && ((walked_ub + rest + bonus) * SLACK < t || lacks_required(pc, d, walked_ub + rest + bonus, t))) return;
  pc->gen++;
  double known = 0.0;
  for (uint64_t x = have; x; x &= x - 1) {
    size_t w = (size_t)__builtin_ctzll(x);
    uint32_t m = pc->sl[pc->wk[w]].m, p = pc->wpos[w * WINDOW + o];
    double v = posting_part(pc, &c->members[m], &ix->post[p]);
    set_known(pc, m, (long)p, v);
    known += v;
  }
  if (full && (known + rest + bonus) * SLACK < t) return;
  consider_tail(pc, d, known, rest, bonus, absent, qseq, nq, k, out, nh);
}

/* The walked members' postings of docs [base, base + WINDOW) into the
 * window. */
static void fill_window(prune_ctx *pc, uint32_t base) {
  const rank_ctx *c = pc->c;
  const tsift_posting *post = c->ix->post;
  uint32_t lim = base + WINDOW;
  for (size_t w = 0; w < pc->nw; w++) {
    slot *s = &pc->sl[pc->wk[w]];
    uint32_t *wpos = pc->wpos + w * WINDOW;
    uint64_t bit = 1ull << w;
    uint32_t p = s->cur;
    for (; p < s->fe && tsift_posting_doc(&post[p]) < lim; p++) {
      uint32_t o = tsift_posting_doc(&post[p]) - base;
      pc->msk[o] |= bit;
      pc->used[o >> 6] |= 1ull << (o & 63);
      wpos[o] = p;
    }
    s->cur = p;
  }
}

/* The walk of a single walked member: its docs one by one, no window,
 * with consider()'s bounds inline, until its list ends (returns 0) or t
 * has risen enough to choose the walks again (as often as the windows at
 * most: choosing costs O(members x pairs)). */
static int walk_one(prune_ctx *pc, const long *qseq, size_t nq, size_t k, tsift_scored *out, size_t *nh,
                    size_t *si) {
  const rank_ctx *c = pc->c;
  const tsift_index *ix = c->ix;
  const tsift_posting *post = ix->post;
  const uint8_t *allowed = c->stats->allowed;
  slot *s = &pc->sl[pc->wk[0]];
  const tsift_member *mb = &c->members[s->m];
  double rise = pc->assigned_t * (1.0 + REASSIGN_RISE), bonus = pc->pbonus[1];
  int full = *nh == k;
  double t = full ? out[0].score : -1.0;
  uint32_t p = s->cur, again = UINT32_MAX;
  uint32_t check = p < s->fe ? tsift_posting_doc(&post[p]) + WINDOW : 0;
  while (p < s->fe) {
    uint32_t at = p++, d = tsift_posting_doc(&post[at]);
    if (d >= again) {
      s->cur = at;
      assign_walks(pc, t, d);
      return 1;
    }
    while (*si < pc->nseed && pc->seed[*si] < d) (*si)++;
    if ((allowed && !allowed[d]) || (*si < pc->nseed && pc->seed[*si] == d)) continue;
    double rest = pc->rest;
    uint64_t absent = pc->ucommon ? pc->ucommon & ~ix->doc_common[d] : 0;
    for (uint64_t x = absent; x; x &= x - 1) rest -= pc->cub[__builtin_ctzll(x)];
    if (full && ((s->ub + rest + bonus) * SLACK < t || lacks_required(pc, d, s->ub + rest + bonus, t))) continue;
    double v = posting_part(pc, mb, &post[at]);
    if (full && (v + rest + bonus) * SLACK < t) continue;
    pc->gen++;
    set_known(pc, s->m, (long)at, v);
    consider_tail(pc, d, v, rest, bonus, absent, qseq, nq, k, out, nh);
    if (*nh < k) continue;
    full = 1;
    t = out[0].score;
    if (out[0].exact) break;
    if (again == UINT32_MAX && t > rise) again = d + 1 > check ? d + 1 : check;
  }
  s->cur = p;
  return 0;
}

/* The walk: window after window from the first walked posting, each doc
 * of a window in doc order (seeded and disallowed docs skipped); a single
 * walked member without windows (walk_one). */
static void walk(prune_ctx *pc, const long *qseq, size_t nq, size_t k, tsift_scored *out, size_t *nh) {
  const rank_ctx *c = pc->c;
  const tsift_posting *post = c->ix->post;
  const uint8_t *allowed = c->stats->allowed;
  size_t si = 0; /* the next seed */
  while (!(*nh == k && out[0].exact)) { /* an exact worst hit: nothing else enters */
    if (pc->nw == 1) { /* a single walk: no windows */
      if (!walk_one(pc, qseq, nq, k, out, nh, &si)) return;
      continue;
    }
    uint32_t first = UINT32_MAX;
    for (size_t w = 0; w < pc->nw; w++) {
      const slot *s = &pc->sl[pc->wk[w]];
      if (s->cur < s->fe && tsift_posting_doc(&post[s->cur]) < first) first = tsift_posting_doc(&post[s->cur]);
    }
    if (first == UINT32_MAX) return; /* the walks are done */
    uint32_t base = first - first % WINDOW;
    fill_window(pc, base);
    for (size_t i = 0; i < WINDOW / 64; i++) {
      for (uint64_t x = pc->used[i]; x; x &= x - 1) {
        uint32_t o = (uint32_t)(i * 64 + (size_t)__builtin_ctzll(x)), d = base + o;
        uint64_t have = pc->msk[o];
        pc->msk[o] = 0;
        while (si < pc->nseed && pc->seed[si] < d) si++;
        if ((allowed && !allowed[d]) || (si < pc->nseed && pc->seed[si] == d)) continue;
        if (*nh == k && out[0].exact) continue;
        consider(pc, d, o, have, qseq, nq, k, out, nh);
      }
      pc->used[i] = 0;
    }
    if (*nh == k && !out[0].exact && out[0].score > pc->assigned_t * (1.0 + REASSIGN_RISE))
      assign_walks(pc, out[0].score, base + WINDOW);
  }
}

/* The seeds: every doc of the rare members (at most SEED_DF postings),
 * largest bound first while they fit in SEED_MAX; scored in full (in doc order, so lookups only move forward),
 * into the heap and pc->seed. Every lookup cursor is back at the start
 * after. */
static void add_seeds(prune_ctx *pc, const long *qseq, size_t nq, size_t k, tsift_scored *out, size_t *nh) {
  const rank_ctx *c = pc->c;
  const tsift_index *ix = c->ix;
  const uint8_t *allowed = c->stats->allowed;
  size_t nsrc = 0, total = 0;
  uint32_t cur[MAX_SLOTS], end[MAX_SLOTS];
  for (;;) { /* the lists, by bound */
    size_t best = pc->ns;
    for (size_t j = 0; j < pc->ns; j++) {
      slot *s = &pc->sl[j];
      if (s->seeding || s->fe - s->fo > SEED_DF) continue;
      if (best == pc->ns || s->ub > pc->sl[best].ub) best = j;
    }
    if (best == pc->ns) break;
    slot *s = &pc->sl[best];
    s->seeding = 1;
    uint32_t n = s->fe - s->fo;
    if (total + n > SEED_MAX) continue;
    total += n;
    cur[nsrc] = s->fo;
    end[nsrc++] = s->fe;
  }
  double all = 0.0; /* every bound and pair */
  for (size_t j = 0; j < pc->ns; j++) all += pc->sl[j].ub;
  for (size_t k2 = 0; k2 < c->npairs; k2++) all += c->pairs[k2].bonus;
  for (;;) {
    uint32_t d = UINT32_MAX;
    for (size_t i = 0; i < nsrc; i++)
      if (cur[i] < end[i] && tsift_posting_doc(&ix->post[cur[i]]) < d) d = tsift_posting_doc(&ix->post[cur[i]]);
    if (d == UINT32_MAX) break;
    for (size_t i = 0; i < nsrc; i++)
      if (cur[i] < end[i] && tsift_posting_doc(&ix->post[cur[i]]) == d) cur[i]++;
    pc->seed[pc->nseed++] = d;
    if (allowed && !allowed[d]) continue;
    pc->gen++;
    int full = *nh == k;
    double t = full ? out[0].score : -1.0, known = 0.0, rest = all;
    size_t i = 0;
    for (; i < pc->nl; i++) { /* every member, largest bound first */
      slot *s = &pc->sl[pc->lk[i]];
      known += look_up(pc, s, d);
      rest -= s->ub;
      if (full && (known + rest) * SLACK < t) break;
    }
    if (i < pc->nl) continue;
    double v = finish(pc, d, full ? t : -1.0);
    if (v < 0.0 || (qseq && nq && is_exact(pc, d, qseq, nq))) continue;
    heap_add(ix, out, nh, k, (tsift_scored){d, 0, v});
  }
  for (size_t j = 0; j < pc->ns; j++) pc->sl[j].look = pc->sl[j].fo;
}

static tsift_status prune_alloc(prune_ctx *pc, size_t nm, size_t ns) {
  pc->sl = tsift_calloc_array(ns + 1, sizeof *pc->sl);
  pc->mslot = tsift_calloc_array(nm + 1, sizeof *pc->mslot);
  pc->wk = tsift_calloc_array(ns + 1, sizeof *pc->wk);
  pc->lk = tsift_calloc_array(ns + 1, sizeof *pc->lk);
  pc->lq = tsift_calloc_array(ns + 1, sizeof *pc->lq);
  pc->pneed = tsift_calloc_array(pc->c->npairs + 1, sizeof *pc->pneed);
  pc->pw = tsift_calloc_array(pc->c->npairs + 1, sizeof *pc->pw);
  pc->pbonus = tsift_alloc_bytes(sizeof *pc->pbonus << PAIR_TABLE_BITS);
  pc->stamp = tsift_calloc_array(nm + 1, sizeof *pc->stamp);
  pc->at = tsift_calloc_array(nm + 1, sizeof *pc->at);
  pc->part = tsift_calloc_array(nm + 1, sizeof *pc->part);
  pc->msk = tsift_calloc_array(WINDOW, sizeof *pc->msk);
  pc->wpos = tsift_alloc_bytes((ns + 1) * WINDOW * sizeof *pc->wpos);
  pc->pub = tsift_alloc_bytes(sizeof *pc->pub << PAIR_TABLE_BITS);
  pc->seed = tsift_calloc_array(SEED_MAX + 1, sizeof *pc->seed);
  return pc->sl && pc->mslot && pc->wk && pc->lk && pc->lq && pc->pneed && pc->pw && pc->pbonus && pc->stamp && pc->at && pc->part && pc->pub &&
                 pc->msk && pc->wpos && pc->seed
             ? TSIFT_OK
             : TSIFT_E_NOMEM;
}

static void prune_free(prune_ctx *pc) {
  TSIFT_FREE_ALL(pc->sl, pc->mslot, pc->wk, pc->lk, pc->lq, pc->pneed, pc->pw, pc->pbonus, pc->stamp, pc->at, pc->part,
                 pc->msk, pc->wpos, pc->pub, pc->seed);
}

/* The slots of the scoring members, with their bounds. Under other
 * statistics (a session's universe), a field part grows at most by the
 * ratio of the averages (norm = 1 - b + b len / avg), so the catalog's
 * largest tfn times the largest ratio bounds every tfn. */
static void init_slots(prune_ctx *pc) {
  const rank_ctx *c = pc->c;
  const tsift_index *ix = c->ix;
  double grow = 1.0;
  for (int f = 0; f < TSIFT_FIELD_COUNT && !pc->table; f++)
    if (c->stats->avg_len[f] > 0.0 && c->stats->avg_len[f] / ix->scoring_avg_len[f] > grow)
      grow = c->stats->avg_len[f] / ix->scoring_avg_len[f];
  for (size_t m = 0; m < c->nm; m++) {
    pc->mslot[m] = UINT32_MAX;
    if (!tsift_member_scores(c, &c->members[m])) continue;
    const tsift_member *mb = &c->members[m];
    uint32_t t = (uint32_t)mb->id;
    slot *s = &pc->sl[pc->ns];
    pc->mslot[m] = (uint32_t)pc->ns++;
    s->m = (uint32_t)m;
    s->fo = s->look = s->cur = ix->post_off[t];
    s->fe = ix->post_off[t + 1];
    s->ub = mb->weight * tsift_saturate(mb->idf, tsift_term_max_tfn(ix, t) * grow);
    s->cbit = -1;
    for (size_t lo = 0, hi = ix->doc_common ? ix->ncommon : 0; lo < hi;) { /* a common term? */
      size_t mid = lo + (hi - lo) / 2;
      if (ix->common[mid] == t) {
        s->cbit = (int)mid;
        break;
      }
      if (ix->common[mid] < t) lo = mid + 1;
      else hi = mid;
    }
  }
}

tsift_status tsift_prune_topk(const rank_ctx *c, size_t k, const long *qseq, size_t nq, tsift_scored *out,
                              size_t *nout, tsift_error *err) {
  const tsift_index *ix = c->ix;
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
  init_slots(&pc);
  size_t nh = 0;
  if (qseq && nq && k) add_exact(&pc, qseq, nq, k, out, &nh);
  if (k > 0 && !(nh == k && out[0].exact)) {
    assign_walks(&pc, 1e308, 0); /* none walked: every slot in the lookup order */
    add_seeds(&pc, qseq, nq, k, out, &nh);
    for (size_t j = 0; j < pc.ns; j++) pc.sl[j].walked = 0; /* walks start at doc 0 */
    assign_walks(&pc, nh == k ? out[0].score : 0.0, 0);
    walk(&pc, qseq, nq, k, out, &nh);
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
