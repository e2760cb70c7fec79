/* test_step_topk.c — the order of hits and the bounded top-k heap (step_topk.c):
 * equal scores break ties by id in UTF-8 byte order, and the heap keeps the
 * same order at any k. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

static void test_tie_order(void) {
  /* Identical documents up to their id tokens -> equal scores; ties break by
   * id in UTF-8 byte order ("B" 0x42 < "a" 0x61). */
  tsift_index *ix = build("[{\"id\":\"zz.s\",\"name\":\"s\",\"description\":\"find things\"},"
                          "{\"id\":\"a.s\",\"name\":\"s\",\"description\":\"find things\"},"
                          "{\"id\":\"B.s\",\"name\":\"s\",\"description\":\"find things\"}]");
  if (!ix) return;
  tsift_hit h[4];
  CHECK_EQ_INT(search(ix, "things", h, 4), 3);
  CHECK_EQ_STR(h[0].id, "B.s");
  CHECK_EQ_STR(h[1].id, "a.s");
  CHECK_EQ_STR(h[2].id, "zz.s");
  CHECK(h[0].score == h[1].score && h[1].score == h[2].score);
  /* The bounded heap keeps the same order at any k. */
  CHECK_EQ_INT(search(ix, "things", h, 2), 2);
  CHECK_EQ_STR(h[0].id, "B.s");
  CHECK_EQ_STR(h[1].id, "a.s");
  tsift_index_free(ix);
}

static void test_heap_top_k(void) {
  /* 60 tools with descriptions of growing length: shorter is better for
   * "needle", so the top 5 are t00..t04 in order at any capacity. */
  char cat[20000];
  size_t n = 0;
  n += (size_t)sprintf(cat + n, "[");
  for (int i = 0; i < 60; i++) {
    n += (size_t)sprintf(cat + n, "%s{\"name\":\"t%02d\",\"description\":\"needle", i ? "," : "", i);
    for (int j = 0; j < i; j++) n += (size_t)sprintf(cat + n, " filler%d", j);
    n += (size_t)sprintf(cat + n, "\"}");
  }
  sprintf(cat + n, "]");
  tsift_index *ix = build(cat);
  if (!ix) return;
  tsift_hit h[60];
  CHECK_EQ_INT(search(ix, "needle", h, 5), 5);
  for (int i = 0; i < 5; i++) {
    char id[8];
    sprintf(id, "t%02d", i);
    CHECK_EQ_STR(h[i].id, id);
  }
  CHECK_EQ_INT(search(ix, "needle", h, 60), 60);
  for (int i = 1; i < 60; i++) CHECK(h[i - 1].score >= h[i].score);
  tsift_index_free(ix);
}

int main(void) {
  test_tie_order();
  test_heap_top_k();
  return harness_finish("test_topk");
}
