/* step_topk.c — the order of hits and the binary heaps the ranker keeps them in:
 * the bounded top-k heap (root = the worst hit kept) and the diversity
 * rule's candidates (root = the best). No full sort anywhere. */
#include <string.h>

#include "rank/rank_internal.h"

int tsift_hit_better(const tsift_index *ix, const tsift_scored *a, const tsift_scored *b) {
  if (a->exact != b->exact) return a->exact > b->exact;
  if (a->score != b->score) return a->score > b->score;
  return strcmp(ix->catalog.tools[a->doc].id, ix->catalog.tools[b->doc].id) < 0;
}

/* x belongs nearer the root than y. */
static int above(const tsift_index *ix, const tsift_scored *x, const tsift_scored *y, int order) {
  return order == TOPK_ROOT_BEST ? tsift_hit_better(ix, x, y) : tsift_hit_better(ix, y, x);
}

void tsift_heap_sift_down(const tsift_index *ix, tsift_scored *h, size_t n, size_t i, int order) {
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, w = i;
    if (l < n && above(ix, &h[l], &h[w], order)) w = l;
    if (r < n && above(ix, &h[r], &h[w], order)) w = r;
    if (w == i) return;
    tsift_scored t = h[i];
    h[i] = h[w];
    h[w] = t;
    i = w;
  }
}

void tsift_heap_sift_up(const tsift_index *ix, tsift_scored *h, size_t i, int order) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!above(ix, &h[i], &h[p], order)) return;
    tsift_scored t = h[i];
    h[i] = h[p];
    h[p] = t;
    i = p;
  }
}
