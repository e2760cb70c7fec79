/* crowd.c — the crowding rule's cut (rank.h, "Crowding"): which tools of an
 * un-vouched source leave a search's universe because they look alike to
 * one of its hits. rank.c ranks again without them. */
#include "rank_internal.h"

#include <string.h>

#include "alloc.h"

/* The length of a tool id's source: its prefix before "__" (0: none, so
 * the un-vouched tools without one are one source). */
size_t tsift_source_len(const char *id) {
  const char *sep = strstr(id, "__");
  return sep ? (size_t)(sep - id) : 0;
}

static int same_source(const tsift_index *ix, uint32_t a, uint32_t b) {
  const char *x = ix->catalog.tools[a].id, *y = ix->catalog.tools[b].id;
  size_t n = tsift_source_len(x);
  return tsift_source_len(y) == n && memcmp(x, y, n) == 0;
}

static int unvouched(const tsift_index *ix, uint32_t d) { return ix->trust[d] == TSIFT_TRUST_REMOTE; }

int tsift_crowd_possible(const tsift_index *ix, const tsift_ranking *r) {
  for (size_t h = 1; h < r->nhits; h++)
    for (size_t j = 0; j < h; j++)
      if (unvouched(ix, r->hits[h].doc) && unvouched(ix, r->hits[j].doc) && same_source(ix, r->hits[h].doc, r->hits[j].doc))
        return 1;
  return 0;
}

/* sets[d]: bit i for each query term i the ranking used that doc d has
 * (through the term or any of its members), over the allowed docs; the
 * docs with any, once each, into touched. Returns how many. */
static size_t term_sets(const tsift_index *ix, const tsift_ranking *r, const uint8_t *allowed, uint32_t *sets,
                        uint32_t *touched) {
  size_t nt = 0;
  for (size_t m = 0; m < r->nmembers; m++) {
    const tsift_member *mb = &r->members[m];
    if (mb->id < 0 || mb->owner >= 32 || r->fate[mb->owner] != TSIFT_TERM_USED) continue;
    for (uint32_t p = ix->post_off[mb->id]; p < ix->post_off[mb->id + 1]; p++) {
      uint32_t d = tsift_posting_doc(&ix->post[p]);
      if (!allowed[d]) continue;
      if (!sets[d]) touched[nt++] = d;
      sets[d] |= 1u << mb->owner;
    }
  }
  return nt;
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

/* The look-alikes of hit doc dj in the universe: dj's source, un-vouched,
 * the same query terms apart from the source's words (at least one). */
static int looks_alike(const tsift_index *ix, const uint32_t *sets, uint32_t words, const uint8_t *allowed,
                       uint32_t dj, uint32_t d) {
  return allowed[d] && (sets[d] & ~words) == (sets[dj] & ~words) && unvouched(ix, d) && same_source(ix, d, dj);
}

size_t tsift_crowd_cut(const tsift_index *ix, const tsift_query *q, const tsift_ranking *r, uint8_t *allowed,
                       tsift_error *err, tsift_status *st) {
  *st = TSIFT_OK;
  uint32_t *sets = tsift_calloc_array(ix->n + 1, sizeof *sets);
  uint32_t *touched = tsift_calloc_array(ix->n + 1, sizeof *touched);
  if (!sets || !touched) {
    tsift_free(sets);
    tsift_free(touched);
    *st = tsift_nomem(err, "searching");
    return 0;
  }
  size_t nt = term_sets(ix, r, allowed, sets, touched);
  size_t cut = 0;
  /* a crowd: more than TSIFT_CROWD_MAX look-alikes of a hit that has one
   * on the page after it; the hit stays, the others leave (a look-alike
   * matches a term, so it is among the touched docs) */
  for (size_t h = 1; h < r->nhits; h++) {
    uint32_t dh = r->hits[h].doc;
    if (!unvouched(ix, dh) || !allowed[dh]) continue;
    for (size_t j = 0; j < h; j++) {
      uint32_t dj = r->hits[j].doc;
      if (!unvouched(ix, dj) || !allowed[dj] || !same_source(ix, dj, dh)) continue;
      uint32_t words = source_words(ix, q, dj);
      if (!(sets[dj] & ~words) || !looks_alike(ix, sets, words, allowed, dj, dh)) continue;
      size_t alike = 0;
      for (size_t i = 0; i < nt; i++) alike += looks_alike(ix, sets, words, allowed, dj, touched[i]);
      if (alike > TSIFT_CROWD_MAX + 1) /* (dj is one of them) */
        for (size_t i = 0; i < nt; i++)
          if (touched[i] != dj && looks_alike(ix, sets, words, allowed, dj, touched[i])) {
            allowed[touched[i]] = 0;
            cut++;
          }
      break;
    }
  }
  tsift_free(sets);
  tsift_free(touched);
  return cut;
}
