/* test_bm25.c — BM25F scoring (SPEC S4) against values computed by hand. */
#include <stdlib.h>

#include "harness.h"
#include "toolsift.h"

static tsift_index *build(const char *json) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, strlen(json), NULL, 0, &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n", err.message);
    return NULL;
  }
  return ix;
}

static size_t search(tsift_index *ix, const char *q, tsift_hit *hits, size_t cap) {
  size_t n = 0;
  tsift_error err;
  if (tsift_index_search(ix, q, strlen(q), cap, hits, &n, &err) != TSIFT_OK) return 0;
  return n;
}

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

static void test_exact_name_first(void) {
  /* issue_create_issue_create repeats the query in its name, aliases and
   * description, so it outscores the tool whose name is the query; the exact
   * name still ranks first. */
  tsift_index *ix = build(
      "[{\"name\":\"issue_create_issue_create\",\"aliases\":[\"create issue\"],"
      "\"description\":\"create issue\"},"
      "{\"name\":\"create_issue\",\"description\":\"Opens a ticket in a project with a long "
      "description that dilutes nothing relevant here at all really\"},"
      "{\"id\":\"gh__create_issue\",\"name\":\"open_ticket\"}]");
  if (!ix) return;
  tsift_hit h[4];
  size_t n = search(ix, "create issue", h, 4);
  CHECK_EQ_INT(n, 3);
  /* Both the name match and the id match (gh__create_issue's id is
   * "gh create issue", not the query) are checked: only create_issue is exact. */
  CHECK_EQ_STR(h[0].id, "create_issue");
  CHECK_EQ_STR(h[1].id, "issue_create_issue_create");
  CHECK(h[1].score > h[0].score);
  /* An id equal to the query counts too. */
  n = search(ix, "gh__create_issue", h, 4);
  CHECK_EQ_STR(h[0].id, "gh__create_issue");
  tsift_index_free(ix);
}

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

static void test_term_cap_keeps_rarest(void) {
  /* 20 query terms match: "aword" is in all 20 tools, "bword" in 19, …,
   * "tword" in one. Only the 16 rarest are scored, so the four most common
   * (aword..dword) are reported as capped. */
  char cat[4000], q[1000];
  size_t n = (size_t)sprintf(cat, "[");
  size_t qn = 0;
  for (int i = 0; i < 20; i++) {
    /* tool i holds the first i + 1 words */
    n += (size_t)sprintf(cat + n, "%s{\"name\":\"tool%02d\",\"description\":\"", i ? "," : "", i);
    for (int j = 0; j <= i; j++) n += (size_t)sprintf(cat + n, "%cword ", 'a' + j);
    n += (size_t)sprintf(cat + n, "\"}");
    qn += (size_t)sprintf(q + qn, "%cword ", 'a' + i);
  }
  sprintf(cat + n, "]");
  tsift_index *ix = build(cat);
  if (!ix) return;
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_search_json(ix, q, qn, NULL, 0, &out, &len, &err), TSIFT_OK);
  CHECK_CONTAINS(out, "\"capped\":[\"aword\",\"bword\",\"cword\",\"dword\"]");
  CHECK_CONTAINS(out, "\"terms\":[\"eword\",\"fword\",");
  tsift_free(out);
  tsift_index_free(ix);
}

static tsift_index *build_opts(const char *json, const char *opts) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, strlen(json), opts, strlen(opts), &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n", err.message);
    return NULL;
  }
  return ix;
}

static char *search_json(tsift_index *ix, const char *q) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  if (tsift_index_search_json(ix, q, strlen(q), NULL, 0, &out, &len, &err) != TSIFT_OK) return NULL;
  return out;
}

static void test_term_cap_tiers(void) {
  /* 18 matching terms: a word that is also in a tool name (zulu), 15 plain
   * description words (bword in 15 tools .. pword in one), and two words of
   * one tool: 'aword', which the query only quotes (a value), and the request
   * word "need". Rarest-first alone would drop bword and cword; the tiers
   * drop the value and the request word instead. */
  char cat[4000], q[1000];
  size_t n = (size_t)sprintf(cat, "[{\"name\":\"zulu_tool\",\"description\":\"zulu\"},"
                                  "{\"name\":\"rare_tool\",\"description\":\"aword need\"}");
  size_t qn = (size_t)sprintf(q, "I need 'aword' zulu ");
  for (int i = 0; i < 15; i++) {
    n += (size_t)sprintf(cat + n, ",{\"name\":\"t%02d\",\"description\":\"", i);
    for (int j = 0; j <= 14 - i; j++) n += (size_t)sprintf(cat + n, "%cword ", 'b' + j);
    n += (size_t)sprintf(cat + n, "\"}");
    qn += (size_t)sprintf(q + qn, "%cword ", 'b' + i);
  }
  sprintf(cat + n, "]");
  tsift_index *ix = build(cat);
  if (!ix) return;
  char *out = search_json(ix, q);
  CHECK(out != NULL);
  if (out) {
    CHECK_CONTAINS(out, "\"capped\":[\"need\",\"aword\"]");
    CHECK_CONTAINS(out, "\"terms\":[\"zulu\",\"bword\",\"cword\",");
  }
  tsift_free(out);
  tsift_index_free(ix);
}

static void test_term_cap_name_share(void) {
  /* 17 matching terms, all in some tool name: 15 words of one name each
   * (zqa..zqo), "alpha" in four names, "beta" in one name and two
   * descriptions. N = 22. Rarest first would drop alpha (df 4) and keep beta
   * (df 3); the key idf x (1 + name share) keeps alpha:
   * ln(1 + 18.5/4.5) x 2 = 3.26 against ln(1 + 19.5/3.5) x 4/3 = 2.51. */
  char cat[4000], q[1000];
  size_t n = (size_t)sprintf(cat, "[{\"name\":\"alpha_one\"},{\"name\":\"alpha_two\"},"
                                  "{\"name\":\"alpha_three\"},{\"name\":\"alpha_four\"},"
                                  "{\"name\":\"beta_one\"},{\"name\":\"other_one\",\"description\":\"beta\"},"
                                  "{\"name\":\"other_two\",\"description\":\"beta\"}");
  size_t qn = 0;
  for (int i = 0; i < 15; i++) {
    n += (size_t)sprintf(cat + n, ",{\"name\":\"zq%c_tool\"}", 'a' + i);
    qn += (size_t)sprintf(q + qn, "zq%c ", 'a' + i);
  }
  sprintf(cat + n, "]");
  sprintf(q + qn, "alpha beta");
  tsift_index *ix = build(cat);
  if (!ix) return;
  char *out = search_json(ix, q);
  CHECK(out != NULL);
  if (out) {
    CHECK_CONTAINS(out, "\"capped\":[\"beta\"]");
    CHECK_CONTAINS(out, "\"zqo\",\"alpha\"]");
  }
  tsift_free(out);
  tsift_index_free(ix);
}

static void test_confidence_rule(void) {
  const char *cat = "[{\"name\":\"list_files\",\"description\":\"Files in a folder, sorted by date\"},"
                    "{\"name\":\"send_email\",\"description\":\"Send an email message\"}]";
  tsift_index *off = build(cat);
  tsift_index *on = build_opts(cat, "{\"minCoverage\":0.5}");
  CHECK(off != NULL && on != NULL);
  if (!off || !on) {
    tsift_index_free(off);
    tsift_index_free(on);
    return;
  }
  char *a = search_json(off, "sorted pepperoni pizza");
  char *b = search_json(on, "sorted pepperoni pizza");
  /* off: the one description match is returned; on: one description-only
   * match against two unknown words is not confident -> empty, and the
   * result still says which words matched nothing. */
  CHECK_CONTAINS(a, "\"hits\":[{\"id\":\"list_files\"");
  CHECK_CONTAINS(b, "\"hits\":[]");
  CHECK_CONTAINS(b, "\"unmatched\":[\"pepperoni\",\"pizza\"]");
  tsift_free(a);
  tsift_free(b);
  /* a name match, two matched words, or unknown words that are values: kept */
  const char *kept[] = {"list pepperoni", "sorted folder pizza", "sorted '8sA3Yh' 2024"};
  for (size_t i = 0; i < 3; i++) {
    char *c = search_json(on, kept[i]);
    CHECK_CONTAINS(c, "\"hits\":[{\"id\":\"list_files\"");
    tsift_free(c);
  }
  tsift_index_free(off);
  tsift_index_free(on);
}

static void test_surface_forms(void) {
  /* Suffix folding makes creating meet create; results show what was typed
   * (case- and plural-folded), analysis shows the stems. */
  tsift_index *ix = build("[{\"name\":\"create_file\"}]");
  if (!ix) return;
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  const char *opts = "{\"explain\":true}";
  CHECK_EQ_INT(tsift_index_search_json(ix, "Creating FILES nowhere", 22, opts, strlen(opts), &out, &len, &err),
               TSIFT_OK);
  CHECK_CONTAINS(out, "\"terms\":[\"creating\",\"file\"]");
  CHECK_CONTAINS(out, "{\"term\":\"creating\",");
  CHECK_CONTAINS(out, "\"unmatched\":[\"nowhere\"]");
  CHECK_CONTAINS(out, "\"analysis\":{\"tokens\":[\"creat\",\"file\",\"nowher\"]");
  tsift_free(out);
  tsift_index_free(ix);
}

static void test_explain(void) {
  tsift_index *ix = build("[{\"name\":\"alpha\"},{\"name\":\"alpha_beta\"},{\"name\":\"gamma\"}]");
  if (!ix) return;
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  const char *opts = "{\"limit\":1,\"explain\":true}";
  CHECK_EQ_INT(tsift_index_search_json(ix, "beta zeta the", 13, opts, strlen(opts), &out, &len, &err),
               TSIFT_OK);
  CHECK_EQ_STR(out,
               "{\"query\":\"beta zeta the\",\"ranker\":\"bm25f-5\",\"terms\":[\"beta\"],\"hits\":[{\"id\":"
               "\"alpha_beta\",\"name\":\"alpha_beta\",\"description\":\"\",\"trust\":\"first-party\","
               "\"score\":1.392145,\"explain\":{\"terms\":[{\"term\":\"beta\",\"score\":1.392145,"
               "\"fields\":{\"name\":1.392145}}]}}],\"unmatched\":[\"zeta\"],\"analysis\":{\"tokens\":"
               "[\"beta\",\"zeta\",\"the\"],\"stopwords\":[\"the\"],\"terms\":[\"beta\",\"zeta\"]}}");
  tsift_free(out);
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

/*
 * Proximity (index.h): consecutive query terms the tool has close together
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
  test_hand_computed();
  test_tf_clamp();
  test_exact_name_first();
  test_tie_order();
  test_heap_top_k();
  test_term_cap_keeps_rarest();
  test_term_cap_tiers();
  test_term_cap_name_share();
  test_confidence_rule();
  test_surface_forms();
  test_explain();
  test_field_average_and_soft_terms();
  test_diversity();
  test_proximity();
  return harness_finish("test_bm25");
}
