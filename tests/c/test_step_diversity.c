/* test_step_diversity.c — the diversity rule (step_diversity.c, step_score.c's discounts;
 * docs/relevance.md) on a worked example. */
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

/*
 * The diversity rule (docs/relevance.md): a query of two or more sentences
 * with at least 13 scored terms picks each next hit by its score with every
 * term halved once per earlier hit that matched it. `..._zest` matches the
 * same six terms as the first hit and nothing else, so once that hit is
 * picked its score is exactly half its BM25F score and `grape_hazel_iris`
 * (no term in common) overtakes it unchanged.
 */
static void test_diversity(void) {
  tsift_index *ix = build("[{\"name\":\"apple_berry_cherry_date_elder_fig\"},"
                          "{\"name\":\"apple_berry_cherry_date_elder_fig_zest\"},"
                          "{\"name\":\"grape_hazel_iris\"},{\"name\":\"juniper\"},"
                          "{\"name\":\"kiwi\"},{\"name\":\"lemon\"},{\"name\":\"mango\"}]");
  CHECK(ix != NULL);
  if (!ix) return;
  tsift_hit one[8], two[8], few[8];
  size_t n1 = search(ix, "apple berry cherry date elder fig grape hazel iris juniper kiwi lemon mango", one, 8);
  size_t n2 = search(ix, "apple berry cherry date elder fig. Grape hazel iris juniper kiwi lemon mango.", two, 8);
  CHECK_EQ_INT(n1, 7);
  CHECK_EQ_INT(n2, 7);
  if (n1 != 7 || n2 != 7) {
    tsift_index_free(ix);
    return;
  }
  /* one sentence: BM25F order */
  CHECK_EQ_STR(one[0].id, "apple_berry_cherry_date_elder_fig");
  CHECK_EQ_STR(one[1].id, "apple_berry_cherry_date_elder_fig_zest");
  CHECK_EQ_STR(one[2].id, "grape_hazel_iris");
  CHECK(one[1].score > one[2].score && one[2].score > one[1].score * 0.5);
  /* two sentences: the near-duplicate drops behind the hit covering new terms */
  CHECK_EQ_STR(two[0].id, "apple_berry_cherry_date_elder_fig");
  CHECK_EQ_STR(two[1].id, "grape_hazel_iris");
  CHECK_EQ_STR(two[2].id, "apple_berry_cherry_date_elder_fig_zest");
  CHECK(two[0].score == one[0].score);
  CHECK(two[1].score == one[2].score);
  CHECK(two[2].score == one[1].score * 0.5);
  for (size_t i = 3; i < 7; i++) CHECK(two[i].score == one[i].score);
  for (size_t i = 1; i < 7; i++) CHECK(two[i].score <= two[i - 1].score);
  /* a shorter page is a prefix of a longer one */
  for (size_t k = 1; k <= 7; k++) {
    size_t nk = search(ix, "apple berry cherry date elder fig. Grape hazel iris juniper kiwi lemon mango.", few, k);
    CHECK_EQ_INT(nk, k);
    for (size_t i = 0; i < nk && i < k; i++) CHECK_EQ_STR(few[i].id, two[i].id);
  }
  /* twelve scored terms: below the rule's threshold, BM25F order */
  size_t n3 = search(ix, "apple berry cherry date elder fig. Grape hazel iris juniper kiwi lemon.", few, 8);
  CHECK_EQ_INT(n3, 6);
  if (n3 == 6) CHECK_EQ_STR(few[1].id, "apple_berry_cherry_date_elder_fig_zest");
  tsift_index_free(ix);
}

int main(void) {
  test_diversity();
  return harness_finish("test_diversity");
}
