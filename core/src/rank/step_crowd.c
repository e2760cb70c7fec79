/* step_crowd.c — the crowding rule's cut (rank.h, "Crowding"): which tools of an
 * un-vouched source leave a search's universe because they look alike to
 * one of its hits. rank.c ranks again without them. */
#include "rank/rank_internal.h"

#include <string.h>

#include "base/alloc.h"

/* The length of a tool id's source: its prefix before "__" (0: none, so
 * the un-vouched tools without one are one source). */
size_t tsift_source_len(const char *id) {
  const char *sep = strstr(id, "__");
  return sep ? (size_t)(sep - id) : 0;
}

/* Whether id is of the source `src` (n bytes: an id's prefix before its
 * first "__", so no "__" in it, nor a last '_' that would start one): id
 * begins with it and then "__", so its first "__" is at the same place. */
static int of_source(const char *src, size_t n, const char *id) {
  if (n == 0) return strstr(id, "__") == NULL;
  return strncmp(src, id, n) == 0 && id[n] == '_' && id[n + 1] == '_';
}

static int unvouched(const tsift_index *ix, uint32_t d) { return ix->trust[d] == TSIFT_TRUST_REMOTE; }

int tsift_crowd_possible(const tsift_index *ix, const tsift_ranking *r) {
  for (size_t h = 1; h < r->nhits; h++) {
    if (!unvouched(ix, r->hits[h].doc)) continue;
    const char *src = ix->catalog.tools[r->hits[h].doc].id; /* its source, found once */
    size_t n = tsift_source_len(src);
    for (size_t j = 0; j < h; j++)
      if (unvouched(ix, r->hits[j].doc) && of_source(src, n, ix->catalog.tools[r->hits[j].doc].id)) return 1;
  }
  return 0;
}

/* Whether doc d has term id t: a binary search of t's postings (sorted
 * by doc). */
static int has_term(const tsift_index *ix, long t, uint32_t d) {
  uint32_t lo = ix->post_off[t], hi = ix->post_off[t + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2, at = tsift_posting_doc(&ix->post[mid]);
    if (at == d) return 1;
    if (at < d) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/* Bit i for each query term i the ranking used that doc d has, through the
 * term or any of its members. */
static uint32_t term_set(const tsift_index *ix, const tsift_ranking *r, uint32_t d) {
  uint32_t set = 0;
  for (size_t m = 0; m < r->nmembers; m++) {
    const tsift_member *mb = &r->members[m];
    if (mb->id < 0 || mb->owner >= 32 || r->fate[mb->owner] != TSIFT_TERM_USED || (set >> mb->owner & 1u)) continue;
    if (has_term(ix, mb->id, d)) set |= 1u << mb->owner;
  }
  return set;
}

/* Of the terms in `set`, the one whose members have the fewest postings
 * (*count): every look-alike has it, so its postings are the candidates. */
static size_t rarest(const tsift_index *ix, const tsift_ranking *r, uint32_t set, uint64_t *count) {
  size_t best = 0;
  uint64_t fewest = UINT64_MAX;
  for (size_t i = 0; i < r->nterms && i < 32; i++) {
    if (!(set >> i & 1u)) continue;
    uint64_t n = 0;
    for (size_t m = 0; m < r->nmembers; m++)
      if (r->members[m].owner == i && r->members[m].id >= 0)
        n += ix->post_off[r->members[m].id + 1] - ix->post_off[r->members[m].id];
    if (n < fewest) {
      fewest = n;
      best = i;
    }
  }
  *count = fewest;
  return best;
}

/* The query terms that are words of d's source (its id prefix holds them,
 * case folded): "github" for github__create_issue. A product's name says
 * which server, not which tool: every tool of the source has it. */
static uint32_t source_words(const tsift_index *ix, const tsift_query *q, uint32_t d) {
  const char *id = ix->catalog.tools[d].id;
  size_t n = tsift_source_len(id);
  uint32_t mask = 0;
  for (size_t i = 0; i < q->terms.count && i < 32; i++) {
    const char *t = tsift_token(&q->terms, i);
    size_t len = q->terms.len[i];
    for (size_t at = 0; len && at + len <= n && !(mask >> i & 1u); at++) {
      size_t k = 0;
      while (k < len && (char)(id[at + k] | 0x20) == (char)(t[k] | 0x20)) k++;
      if (k == len) mask |= 1u << i;
    }
  }
  return mask;
}

/* The look-alikes of page hit dj (un-vouched tools of its source whose
 * terms, the source's words aside, are dj's `set`), listed in `out` (dj
 * among them); how many. Candidates come from the postings of the set's
 * rarest term, each doc once (from the first of that term's members it
 * has). */
static size_t look_alikes(const tsift_index *ix, const tsift_ranking *r, const uint8_t *allowed, uint32_t dj,
                          uint32_t set, uint32_t words, uint32_t **out, size_t *cap, size_t at, tsift_status *st) {
  /* (allowed NULL: every doc) */
  uint64_t candidates;
  size_t n = 0, term = rarest(ix, r, set, &candidates);
  if (candidates <= TSIFT_CROWD_MAX + 1) return 0; /* too few to crowd */
  const char *src = ix->catalog.tools[dj].id;
  size_t len = tsift_source_len(src);
  for (size_t m = 0; m < r->nmembers; m++) {
    const tsift_member *mb = &r->members[m];
    if (mb->owner != term || mb->id < 0) continue;
    for (uint32_t p = ix->post_off[mb->id]; p < ix->post_off[mb->id + 1]; p++) {
      uint32_t d = tsift_posting_doc(&ix->post[p]);
      if (!unvouched(ix, d) || (allowed && !allowed[d]) || !of_source(src, len, ix->catalog.tools[d].id)) continue;
      int earlier = 0;
      for (size_t e = 0; e < m && !earlier; e++)
        earlier = r->members[e].owner == term && r->members[e].id >= 0 && has_term(ix, r->members[e].id, d);
      if (earlier || (term_set(ix, r, d) & ~words) != set) continue;
      if (tsift_grow((void **)out, cap, at + n + 1, sizeof **out)) {
        *st = TSIFT_E_NOMEM;
        return 0;
      }
      (*out)[at + n++] = d;
    }
  }
  return n;
}

size_t tsift_crowd_cut(const tsift_index *ix, const tsift_query *q, const tsift_ranking *r, const uint8_t *allowed,
                       uint32_t **out, size_t *cap, tsift_error *err, tsift_status *st) {
  size_t cut = 0;
  *st = TSIFT_OK;
  /* a crowd: more than TSIFT_CROWD_MAX look-alikes of a hit that has one
   * on the page after it; the hit stays, the others leave (a doc is in at
   * most one crowd: its source and terms decide which) */
  for (size_t h = 1; h < r->nhits && !*st; h++) {
    uint32_t dh = r->hits[h].doc;
    if (!unvouched(ix, dh)) continue;
    const char *src = ix->catalog.tools[dh].id; /* its source, found once */
    size_t len = tsift_source_len(src);
    for (size_t j = 0; j < h; j++) {
      uint32_t dj = r->hits[j].doc;
      if (!unvouched(ix, dj) || !of_source(src, len, ix->catalog.tools[dj].id)) continue;
      uint32_t words = source_words(ix, q, dj), set = term_set(ix, r, dj) & ~words;
      if (!set || (term_set(ix, r, dh) & ~words) != set) continue;
      int seen = 0; /* dh's crowd was cut already (an earlier pair of it) */
      for (size_t i = 0; i < cut && !seen; i++) seen = (*out)[i] == dh;
      if (seen) break;
      size_t n = look_alikes(ix, r, allowed, dj, set, words, out, cap, cut, st);
      if (n > TSIFT_CROWD_MAX + 1) { /* keep all but dj */
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
          if ((*out)[cut + i] != dj) (*out)[cut + k++] = (*out)[cut + i];
        cut += k;
      }
      break;
    }
  }
  if (*st) *st = tsift_nomem(err, "searching");
  return *st ? 0 : cut;
}
