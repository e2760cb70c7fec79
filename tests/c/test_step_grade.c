/* test_step_grade.c — the match grade (step_grade.c, rank.h) and typo corrections
 * (step_typo.c), on catalogs small enough that every number is worked out by
 * hand in the comments: idf = ln(1 + (N - df + 0.5) / (df + 0.5)). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

/* The search result of q with explain, parsed (caller deletes). */
static cJSON *explain(tsift_index *ix, const char *q) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  const char *opts = "{\"limit\":10,\"explain\":true}";
  if (tsift_index_search_json(ix, q, strlen(q), opts, strlen(opts), &out, &len, &err) != TSIFT_OK) return NULL;
  cJSON *o = cJSON_Parse(out);
  tsift_free(out);
  return o;
}

static const cJSON *hit_named(const cJSON *o, const char *id) {
  const cJSON *h;
  cJSON_ArrayForEach(h, cJSON_GetObjectItem(o, "hits")) if (strcmp(cJSON_GetObjectItem(h, "id")->valuestring, id) == 0) return h;
  return NULL;
}

static const char *match_of(const cJSON *o, const char *id) {
  const cJSON *h = hit_named(o, id);
  return h ? cJSON_GetObjectItem(h, "match")->valuestring : "(absent)";
}

static double grade_num(const cJSON *o, const char *id, const char *key) {
  const cJSON *h = hit_named(o, id);
  const cJSON *g = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(h, "explain"), "grade"), key);
  return g ? g->valuedouble : -1.0;
}

/* N = 3 tools. "send" is in two (df 2): idf = ln(1 + 1.5/2.5) = ln 1.6 =
 * 0.470004; "email" in one (df 1): ln(1 + 2.5/1.5) = 0.980829; a word in
 * none counts half of ln(1 + 3.5/0.5) = ln 8: 1.039721. */
static void test_coverage(void) {
  tsift_index *ix = build(
      "[{\"name\":\"send_email\",\"description\":\"Send an email\"},"
      "{\"name\":\"send_sms\",\"description\":\"Send a text\"},"
      "{\"name\":\"list_files\",\"description\":\"List the files in a folder\"}]");
  if (!ix) return;
  /* both words: coverage 1 */
  cJSON *o = explain(ix, "send email");
  CHECK_EQ_STR(match_of(o, "send_email"), "strong");
  CHECK_NEAR(grade_num(o, "send_email", "coverage"), 1.0, 1e-6);
  /* send only: 0.470004 / 1.450833 = 0.323955, no pair: partial */
  CHECK_EQ_STR(match_of(o, "send_sms"), "partial");
  CHECK_NEAR(grade_num(o, "send_sms", "coverage"), 0.323955, 1e-6);
  cJSON_Delete(o);
  /* a word no tool has: 1.450833 / (1.450833 + 1.039721) = 0.582534 >= 0.5 */
  o = explain(ix, "send email xyzzy");
  CHECK_NEAR(grade_num(o, "send_email", "coverage"), 0.582534, 1e-6);
  CHECK_EQ_STR(match_of(o, "send_email"), "strong");
  cJSON_Delete(o);
  /* two of them: 1.450833 / 3.530274 = 0.410969, under 0.5 — but "send" and
   * "email" stand together in the name (a proximity pair): 0.25 suffices */
  o = explain(ix, "send email xyzzy plugh");
  CHECK_NEAR(grade_num(o, "send_email", "coverage"), 0.410969, 1e-6);
  CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(hit_named(o, "send_email"), "explain"),
                                                              "grade"), "phrase")));
  CHECK_EQ_STR(match_of(o, "send_email"), "strong");
  cJSON_Delete(o);
  /* the same words apart: "email xyzzy plugh send" has no pair in order */
  o = explain(ix, "email xyzzy plugh send");
  CHECK_EQ_STR(match_of(o, "send_email"), "partial");
  cJSON_Delete(o);
  /* soft words (question words) and foreign function words are not
   * evidence: coverage 1 */
  o = explain(ix, "how do I send email");
  CHECK_NEAR(grade_num(o, "send_email", "coverage"), 1.0, 1e-6);
  cJSON_Delete(o);
  o = explain(ix, "send email für");
  CHECK_NEAR(grade_num(o, "send_email", "coverage"), 1.0, 1e-6);
  cJSON_Delete(o);
  /* an exact name is strong whatever it covers */
  o = explain(ix, "send_sms");
  CHECK_EQ_STR(match_of(o, "send_sms"), "strong");
  cJSON_Delete(o);
  tsift_index_free(ix);
}

/* A hit that covers the query but scores under 0.75 of the best is partial;
 * the grade follows the reported coverage and relative score everywhere. */
static void test_relative(void) {
  tsift_index *ix = build(
      "[{\"name\":\"archive\",\"description\":\"Move old mail to the archive folder of the account so the inbox "
      "stays short and the search stays fast\"},"
      "{\"name\":\"mail_send\",\"description\":\"Send mail\"},"
      "{\"name\":\"other\",\"description\":\"Nothing\"}]");
  if (!ix) return;
  cJSON *o = explain(ix, "mail");
  CHECK_EQ_STR(match_of(o, "mail_send"), "strong");
  double rel = grade_num(o, "archive", "relative");
  CHECK(rel > 0.0 && rel < 0.75);
  CHECK_EQ_STR(match_of(o, "archive"), "partial");
  const cJSON *h;
  cJSON_ArrayForEach(h, cJSON_GetObjectItem(o, "hits")) {
    const cJSON *g = cJSON_GetObjectItem(cJSON_GetObjectItem(h, "explain"), "grade");
    double cov = cJSON_GetObjectItem(g, "coverage")->valuedouble, r = cJSON_GetObjectItem(g, "relative")->valuedouble;
    int phrase = cJSON_IsTrue(cJSON_GetObjectItem(g, "phrase"));
    int strong = cJSON_IsTrue(cJSON_GetObjectItem(h, "exact")) || (r >= 0.75 && cov >= (phrase ? 0.25 : 0.5));
    CHECK_EQ_STR(cJSON_GetObjectItem(h, "match")->valuestring, strong ? "strong" : "partial");
  }
  cJSON_Delete(o);
  tsift_index_free(ix);
}

static const cJSON *corrections(const cJSON *o) {
  return cJSON_GetObjectItem(cJSON_GetObjectItem(o, "analysis"), "corrections");
}

static char *corrections_text(const cJSON *o) {
  const cJSON *c = corrections(o);
  return c ? cJSON_PrintUnformatted(c) : NULL;
}

static void test_typos(void) {
  /* zorka in three tools, zorkb in two, zorkc and zorkd in one each */
  tsift_index *ix = build(
      "[{\"name\":\"t1\",\"description\":\"zorka zorkb\"},{\"name\":\"t2\",\"description\":\"zorka zorkb\"},"
      "{\"name\":\"t3\",\"description\":\"zorka zorkc\"},{\"name\":\"t4\",\"description\":\"zorkd ticket\"},"
      "{\"name\":\"t5\",\"description\":\"flight deployment\"},{\"name\":\"zorka\",\"description\":\"x\"}]");
  if (!ix) return;
  /* four words one edit away; the three best by document frequency, then bytes */
  cJSON *o = explain(ix, "zorkx");
  char *c = corrections_text(o);
  CHECK_EQ_STR(c, "[[\"zorkx\",\"zorka\"],[\"zorkx\",\"zorkb\"],[\"zorkx\",\"zorkc\"]]");
  free(c);
  /* a correction scores at half the word: t3 has only zorka (and zorkc) */
  cJSON_Delete(o);
  o = explain(ix, "tiket");
  c = corrections_text(o);
  CHECK_EQ_STR(c, "[[\"tiket\",\"ticket\"]]");
  free(c);
  const cJSON *t4 = hit_named(o, "t4");
  double via = t4 ? cJSON_GetObjectItem(t4, "score")->valuedouble : -1;
  const cJSON *term = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(t4, "explain"), "terms"), 0);
  CHECK_EQ_STR(term ? cJSON_GetObjectItem(term, "via")->valuestring : NULL, "ticket");
  cJSON_Delete(o);
  o = explain(ix, "ticket");
  double direct = hit_named(o, "t4") ? cJSON_GetObjectItem(hit_named(o, "t4"), "score")->valuedouble : -2;
  CHECK(via == 0.5 * direct); /* TSIFT_CORRECTION_WEIGHT, exact in binary */
  cJSON_Delete(o);
  /* four bytes: no correction; two edits only from nine bytes on */
  o = explain(ix, "tikt");
  CHECK(corrections(o) == NULL);
  cJSON_Delete(o);
  o = explain(ix, "dploymnet"); /* 9 bytes, two edits from "deployment" */
  c = corrections_text(o);
  CHECK_EQ_STR(c, "[[\"dploymnet\",\"deployment\"]]");
  free(c);
  cJSON_Delete(o);
  o = explain(ix, "fligjz"); /* 6 bytes, two edits from "flight": none below 9 bytes */
  CHECK(corrections(o) == NULL);
  cJSON_Delete(o);
  /* the first letter must agree: "light" is not "flight" */
  o = explain(ix, "light");
  CHECK(corrections(o) == NULL);
  cJSON_Delete(o);
  /* argument values are never corrected: a digit, quotes */
  o = explain(ix, "zorkx2");
  CHECK(corrections(o) == NULL);
  cJSON_Delete(o);
  o = explain(ix, "'zorkx'");
  CHECK(corrections(o) == NULL);
  cJSON_Delete(o);
  /* a query of known words gets none, so an exact name stays exact */
  o = explain(ix, "zorka");
  CHECK(corrections(o) == NULL);
  CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "hits"), 0), "exact")));
  cJSON_Delete(o);
  tsift_index_free(ix);
}

int main(void) {
  test_coverage();
  test_relative();
  test_typos();
  return harness_finish("test_grade");
}
