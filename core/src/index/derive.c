/* derive.c — what the ranker derives from an index at build and at snapshot
 * load and never stores (index.h: the scoring tables of bm25f.c and the
 * exact-match chains), so snapshots keep their format: the index builder
 * (index.c) and the snapshot loader (snapshot.c) both end with
 * tsift_dict_letters and then tsift_index_derive. */
#include <string.h>

#include "base/alloc.h"
#include "index/bm25f.h"
#include "index/index.h"

/* The exact-match chains (index.h): every doc under the hash of its name
 * sequence and, when different, of its id sequence. Empty sequences match no
 * query and are left out. */
static int derive_exact(tsift_index *ix) {
  size_t nb = 1024; /* about one entry a bucket (an id equal to the name is no entry): chains are walked once a query */
  while (nb < ix->n) nb *= 2;
  ix->exact_head = tsift_calloc_array(nb, sizeof *ix->exact_head);
  ix->exact_next = tsift_calloc_array(ix->n * 2 + 1, sizeof *ix->exact_next);
  if (!ix->exact_head || !ix->exact_next) {
    tsift_free(ix->exact_head);
    tsift_free(ix->exact_next);
    ix->exact_head = ix->exact_next = NULL;
    return -1;
  }
  ix->exact_nbuckets = nb;
  uint32_t seq[2][TSIFT_SEQ_TOKENS_MAX];
  size_t len[2] = {0, 0};
  for (size_t e = 0; e < ix->n * 2; e++) {
    size_t n = len[e & 1] = tsift_seq_tokens(ix, (uint32_t)e, seq[e & 1]);
    if (n == 0) continue;
    if ((e & 1) && n == len[0] && memcmp(seq[0], seq[1], n * sizeof seq[0][0]) == 0)
      continue; /* an id sequence equal to the name's is found through the name */
    uint32_t h = TSIFT_SEQ_HASH_SEED;
    for (size_t i = 0; i < n; i++) h = tsift_seq_hash_add(h, seq[e & 1][i]);
    size_t bucket = h & (nb - 1);
    ix->exact_next[e] = ix->exact_head[bucket];
    ix->exact_head[bucket] = (uint32_t)e + 1;
  }
  return 0;
}

/* The common terms (index.h): the 64 with the most postings (ties: the
 * lower id), and each doc's bits of them. */
static int derive_common(tsift_index *ix) {
  uint32_t top[64];
  size_t nt = 0;
  for (size_t t = 0; t < ix->nterms; t++) { /* insertion into the top 64 by df, descending */
    uint32_t df = ix->post_off[t + 1] - ix->post_off[t];
    if (nt == 64 && df <= ix->post_off[top[63] + 1] - ix->post_off[top[63]]) continue;
    size_t i = nt < 64 ? nt++ : 63;
    while (i > 0 && ix->post_off[top[i - 1] + 1] - ix->post_off[top[i - 1]] < df) {
      top[i] = top[i - 1];
      i--;
    }
    top[i] = (uint32_t)t;
  }
  for (size_t i = 1; i < nt; i++) /* by id, for the ranker's binary search */
    for (size_t j = i; j > 0 && top[j - 1] > top[j]; j--) {
      uint32_t x = top[j];
      top[j] = top[j - 1];
      top[j - 1] = x;
    }
  ix->doc_common = tsift_calloc_array(ix->n + 1, sizeof *ix->doc_common);
  if (!ix->doc_common) return -1;
  memcpy(ix->common, top, nt * sizeof *top);
  ix->ncommon = nt;
  for (size_t i = 0; i < nt; i++)
    for (uint32_t p = ix->post_off[top[i]]; p < ix->post_off[top[i] + 1]; p++)
      ix->doc_common[tsift_posting_doc(&ix->post[p])] |= 1ull << i;
  return 0;
}

static void derived_free(tsift_index *ix) {
  TSIFT_FREE_ALL(ix->len_norm_w, ix->term_max_tfn, ix->exact_head, ix->exact_next);
  ix->len_norm_w = ix->term_max_tfn = NULL;
  ix->exact_head = ix->exact_next = NULL;
  ix->exact_nbuckets = 0;
  tsift_free(ix->doc_common);
  ix->doc_common = NULL;
  ix->ncommon = 0;
}

int tsift_index_derive(tsift_index *ix) {
  derived_free(ix);
  if (tsift_scoring_derive(ix) || derive_exact(ix) || derive_common(ix)) {
    derived_free(ix);
    return -1;
  }
  return 0;
}
