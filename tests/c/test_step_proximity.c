/* test_step_proximity.c — the proximity bonus (step_proximity.c; rank.h): which
 * pairs count, what a pair is worth, and explain's "pairs". The bonus in a
 * hand-computed score: test_bm25f.c test_hand_computed. */
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

/*
 * Proximity (step_proximity.c): consecutive query terms the tool has close together
 * in one field -- the second at most 3 tokens after the first -- add 0.75 x
 * the smaller idf. near/far/reversed have the same field lengths and term
 * frequencies, so their BM25F parts are equal and only the pair differs:
 * alpha and beta have df 4 of N = 5, idf = ln(1 + 1.5/4.5) = 0.287682.
 */
static void test_proximity(void) {
  tsift_index *ix = build("[{\"name\":\"near\",\"description\":\"alpha foo bar beta qux\"},"
                          "{\"name\":\"far\",\"description\":\"alpha foo bar qux beta\"},"
                          "{\"name\":\"reversed\",\"description\":\"beta foo bar alpha qux\"},"
                          "{\"name\":\"split\",\"tags\":[\"alpha\"],\"description\":\"beta foo bar qux zed\"},"
                          "{\"name\":\"other\",\"description\":\"nothing here\"}]");
  CHECK(ix != NULL);
  if (!ix) return;
  tsift_hit h[8];
  CHECK_EQ_INT(search(ix, "alpha beta", h, 8), 4);
  double idf = 0.2876820725, near = -1, far = -1, reversed = -1;
  for (int i = 0; i < 4; i++) {
    if (strcmp(h[i].id, "near") == 0) near = h[i].score;
    if (strcmp(h[i].id, "far") == 0) far = h[i].score;
    if (strcmp(h[i].id, "reversed") == 0) reversed = h[i].score;
  }
  CHECK_NEAR(near - far, 0.75 * idf, 1e-9); /* beta 3 tokens after alpha: a pair */
  CHECK_NEAR(reversed, far, 1e-12);          /* 4 after, or before: none */
  /* explain lists the pair on the one hit that has it, and the parts add up */
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  const char *opts = "{\"explain\":true}";
  CHECK_EQ_INT(tsift_index_search_json(ix, "alpha beta", 10, opts, strlen(opts), &out, &len, &err), TSIFT_OK);
  if (out) {
    CHECK_CONTAINS(out, "\"pairs\":[{\"terms\":[\"alpha\",\"beta\"],\"score\":0.215762}]");
    const char *first = strstr(out, "\"pairs\"");
    CHECK(first && !strstr(first + 1, "\"pairs\""));
    CHECK(strstr(out, "\"id\":\"near\"") && first > strstr(out, "\"id\":\"near\"") &&
          first < strstr(out, "\"id\":\"far\""));
  }
  tsift_free(out);
  tsift_index_free(ix);
}

int main(void) {
  test_proximity();
  return harness_finish("test_proximity");
}
