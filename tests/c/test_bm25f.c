/* test_bm25f.c — the BM25F formula (bm25f.c, SPEC S4): scores against
 * values computed by hand, the tf clamp, field averages over the tools that
 * have the field, soft terms at half weight, and (over random catalogs from
 * fixed seeds, issue 8) repetition worth at most the tf clamp. Term
 * selection and exact matches: test_rank.c; the order of hits:
 * test_step_topk.c; the proximity bonus: test_step_proximity.c. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "random_words.h"
#include "toolsift.h"

/*
 * Three tools with only a name field (weight 3): alpha -> [alpha],
 * alpha_beta -> [alpha, beta], gamma -> [gamma]. N = 3, average name length
 * 4/3, k1 = 1.2, b = 0.75.
 *   "beta":  df 1, idf = ln(1 + 2.5/1.5) = 0.980829
 *            alpha_beta: norm = 0.25 + 0.75*2/(4/3) = 1.375, tfn = 3/1.375
 *            score = idf * tfn*2.2/(1.2+tfn) = 1.392145
 *   "alpha": df 2, idf = ln(1 + 1.5/2.5) = ln 1.6 = 0.470004
 *            alpha: norm 0.8125, tfn 3.692308 -> 0.780383
 *            alpha_beta: tfn 2.181818 -> 0.667102
 */
static void test_hand_computed(void) {
  tsift_index *ix = build("[{\"name\":\"alpha\"},{\"name\":\"alpha_beta\"},{\"name\":\"gamma\"}]");
  CHECK(ix != NULL);
  if (!ix) return;
  tsift_hit h[10];
  size_t n = search(ix, "beta", h, 10);
  CHECK_EQ_INT(n, 1);
  CHECK_EQ_STR(h[0].id, "alpha_beta");
  CHECK_NEAR(h[0].score, 1.3921447462, 1e-9);
  n = search(ix, "alpha", h, 10);
  CHECK_EQ_INT(n, 2);
  CHECK_EQ_STR(h[0].id, "alpha");
  CHECK_NEAR(h[0].score, 0.7803833844, 1e-9);
  CHECK_EQ_STR(h[1].id, "alpha_beta");
  CHECK_NEAR(h[1].score, 0.6671019254, 1e-9);
  /* Both terms: the per-term scores add up, plus the proximity bonus of the
   * pair (alpha, beta), adjacent in alpha_beta's name: 0.75 x the smaller
   * idf, 0.75 x 0.470004 = 0.352503. */
  n = search(ix, "alpha beta", h, 10);
  CHECK_EQ_STR(h[0].id, "alpha_beta");
  CHECK_NEAR(h[0].score, 1.3921447462 + 0.6671019254 + 0.75 * 0.4700036292, 1e-9);
  /* The other order is no pair: the second term must follow the first. */
  n = search(ix, "beta alpha", h, 10);
  CHECK_EQ_STR(h[0].id, "alpha_beta");
  CHECK_NEAR(h[0].score, 1.3921447462 + 0.6671019254, 1e-9);
  /* No match -> empty; score > 0 only. */
  CHECK_EQ_INT(search(ix, "delta", h, 10), 0);
  CHECK_EQ_INT(search(ix, "", h, 10), 0);
  tsift_index_free(ix);
}

/*
 * tf is clamped at 2 within a field: "sync sync sync" counts as 2, but the
 * field length stays 3. Names one/two (avg 1), descriptions of length 3 and 1
 * (avg 2); "sync": df 1 of N 2, idf = ln(1 + 1.5/1.5) = ln 2;
 * norm = 0.25 + 0.75*3/2 = 1.375, tfn = 1*2/1.375 -> score 0.835575
 * (unclamped it would be 0.983822).
 */
static void test_tf_clamp(void) {
  tsift_index *ix = build("[{\"name\":\"one\",\"description\":\"sync sync sync\"},"
                          "{\"name\":\"two\",\"description\":\"other\"}]");
  if (!ix) return;
  tsift_hit h[4];
  CHECK_EQ_INT(search(ix, "sync", h, 4), 1);
  CHECK_NEAR(h[0].score, 0.8355746834, 1e-9);
  tsift_index_free(ix);
}

/*
 * The average length of a field is taken over the tools that have it
 * (docs/relevance.md): only "alpha" has a description (3 tokens), so its
 * average is 3, not 3/3 = 1; norm = 0.25 + 0.75*3/3 = 1, tfn = 1*1/1 = 1.
 * Each description term has df 1, idf = ln(1 + 2.5/1.5) = 0.980829, and
 * scores idf * 1*2.2/(1.2+1) = 0.980829 (the old average over all tools gave
 * norm 2.5, tfn 0.4, 0.539456). Soft terms -- a question word, a word with a
 * digit -- count half: 0.490415. All three: the pairs (beta, how) and
 * (how, 2019) are adjacent in the description, each adds 0.75 x idf x the
 * smaller term weight (0.5) = 0.367811.
 */
static void test_field_average_and_soft_terms(void) {
  tsift_index *ix = build("[{\"name\":\"alpha\",\"description\":\"beta how 2019\"},"
                          "{\"name\":\"delta\"},{\"name\":\"epsilon\"}]");
  CHECK(ix != NULL);
  if (!ix) return;
  tsift_hit h[4];
  CHECK_EQ_INT(search(ix, "beta", h, 4), 1);
  CHECK_NEAR(h[0].score, 0.9808292530, 1e-9);
  CHECK_EQ_INT(search(ix, "how", h, 4), 1);
  CHECK_NEAR(h[0].score, 0.4904146265, 1e-9);
  CHECK_EQ_INT(search(ix, "2019", h, 4), 1);
  CHECK_NEAR(h[0].score, 0.4904146265, 1e-9);
  CHECK_EQ_INT(search(ix, "beta how 2019", h, 4), 1);
  CHECK_NEAR(h[0].score, 1.9616585060 + 2 * 0.75 * 0.4904146265, 1e-9);
  /* explain shows the weighted contribution, so the parts add up to the score */
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  const char *opts = "{\"explain\":true}";
  CHECK(tsift_index_search_json(ix, "how", 3, opts, strlen(opts), &out, &len, &err) == TSIFT_OK);
  CHECK(out && strstr(out, "\"term\":\"how\",\"score\":0.490415,\"fields\":{\"description\":0.490415}") != NULL);
  tsift_free(out);
  tsift_index_free(ix);
}

/* ---- repetition is worth at most the tf clamp ----------------------- */

/* With the field length held fixed, a word said 2 or 200 times scores
 * exactly the same (bit for bit), and more than once (2) strictly more than
 * once. */

/* Score of the tool "target" for query `word` in a catalog where its field
 * `field` holds `k` copies of `word` and `len - k` filler words. */
static double target_score(const char *field, const char *word, int k, int len, uint32_t seed) {
  sb b = {0};
  g_rng = seed;
  int is_name = strcmp(field, "name") == 0;
  put(&b, "[{\"id\":\"target\",");
  put(&b, is_name ? "\"name\":\"" : "\"name\":\"tgt\",\"description\":\"");
  for (int i = 0; i < len; i++) {
    if (i) put(&b, is_name ? "_" : " ");
    /* fillers: fixed per position (not per k) so only the count changes */
    uint32_t v = rnd(VOCAB);
    put(&b, i < k ? word : (strcmp(g_vocab[v], word) ? g_vocab[v] : "filler"));
  }
  put(&b, "\"}");
  /* other tools, the same for every k: some say the word once */
  for (int i = 0; i < 12; i++) {
    putf(&b, ",{\"id\":\"o%d\",\"name\":\"%s\",\"description\":\"%s %s\"}", i, g_vocab[rnd(VOCAB)],
         g_vocab[rnd(VOCAB)], i % 4 == 0 ? word : g_vocab[rnd(VOCAB)]);
  }
  put(&b, "]");
  tsift_index *ix = build_world(b.p);
  free(b.p);
  if (!ix) return -1;
  tsift_hit hits[16];
  size_t n = 0;
  tsift_error err;
  double score = 0;
  if (tsift_index_search(ix, word, strlen(word), 16, hits, &n, &err) == TSIFT_OK)
    for (size_t i = 0; i < n; i++)
      if (strcmp(hits[i].id, "target") == 0) score = hits[i].score;
  tsift_index_free(ix);
  return score;
}

static void test_repetition_clamp(void) {
  static const struct {
    const char *field;
    int max_len; /* the field's token cap (S3): name 32, description 128 */
  } fields[] = {{"description", 128}, {"name", 32}};
  int checked = 0, above_clamp = 0, once_not_less = 0;
  for (size_t f = 0; f < 2; f++) {
    for (int t = 0; t < 12; t++) {
      g_rng = 0xC0FFEEu + (uint32_t)t * 7919u + (uint32_t)f;
      const char *word = g_vocab[rnd(VOCAB)];
      int len = 4 + (int)rnd((uint32_t)fields[f].max_len - 3);
      uint32_t seed = 0xABCDu + (uint32_t)t;
      double one = target_score(fields[f].field, word, 1, len, seed);
      double two = target_score(fields[f].field, word, 2, len, seed);
      if (!(one > 0 && one < two)) once_not_less++;
      for (int k = 3; k <= len; k += 1 + (int)rnd(5)) {
        double s = target_score(fields[f].field, word, k, len, seed);
        checked++;
        if (s != two) {
          above_clamp++;
          fprintf(stderr, "%s: \"%s\" x%d of %d scores %.17g, x2 %.17g\n", fields[f].field, word, k, len, s, two);
        }
      }
    }
  }
  printf("tf clamp: %d repeated-field catalogs: %d scored differently from 2 repetitions, "
         "%d where 2 was not above 1\n", checked, above_clamp, once_not_less);
  CHECK(checked > 100);
  CHECK_EQ_INT(above_clamp, 0);
  CHECK_EQ_INT(once_not_less, 0);
}

int main(void) {
  test_hand_computed();
  test_tf_clamp();
  test_field_average_and_soft_terms();
  make_vocab();
  test_repetition_clamp();
  return harness_finish("test_bm25f");
}
