/* test_vocabulary.c — a vocabulary as host annotations (the index option
 * "annotations", docs/learning.md; index.c, catalog.c): merged after the
 * catalog's own within the label bounds, ids no tool has skipped and
 * counted, read strictly; its digest in the fingerprint, the info, the
 * snapshot and the journal header, and replay under another vocabulary a
 * divergence. */
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

static const char CAT[] =
    "{\"tools\":["
    "{\"id\":\"stripe__create_refund\",\"name\":\"create_refund\",\"description\":\"Refund a charge\"},"
    "{\"id\":\"pd__list_oncalls\",\"name\":\"list_oncalls\",\"description\":\"List on-call entries\","
    "\"aliases\":[\"a1\",\"a2\",\"a3\",\"a4\",\"a5\",\"a6\",\"a7\",\"a8\",\"a9\",\"a10\"]},"
    "{\"id\":\"gh__fork_repository\",\"name\":\"fork_repository\",\"description\":\"Fork a repository\"}],"
    "\"annotations\":{\"pd__list_oncalls\":{\"aliases\":[\"h1\",\"h2\",\"h3\",\"h4\",\"h5\",\"h6\",\"h7\",\"h8\","
    "\"h9\",\"h10\"]}}}";

#define VOCAB                                                                                                    \
  "{\"annotations\":{\"stripe__create_refund\":{\"tags\":[\"money\"],\"aliases\":[\"money back\"]},"           \
  "\"gone__tool\":{\"tags\":[\"x\"]},"                                                                          \
  "\"pd__list_oncalls\":{\"aliases\":[\"v1\",\"v2\",\"v3\",\"v4\",\"v5\",\"v6\",\"v7\",\"v8\",\"h1\"]}},"       \
  "\"learned\":{\"version\":1},\"evidence\":{}}"

static char *info(tsift_index *ix) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_index_info_json(ix, &out, &len, &err);
  return out;
}

static char *docs(tsift_index *ix) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  tsift_index_documents_json(ix, &out, &len, &err);
  return out;
}

static void fingerprint_of(tsift_index *ix, char fp[65]) {
  char *i = info(ix);
  const char *p = i ? strstr(i, "\"fingerprint\":\"") : NULL;
  fp[0] = 0;
  if (p) {
    memcpy(fp, p + 15, 64);
    fp[64] = 0;
  }
  tsift_free(i);
}

static void test_merge_and_search(void) {
  tsift_index *plain = build(CAT);
  tsift_index *ix = build_opts(CAT, "{\"annotations\":" VOCAB "}");
  CHECK(plain && ix);
  if (!plain || !ix) return;
  /* A request in the users' words finds the tool only with the vocabulary. */
  tsift_hit hits[3];
  size_t n = search(plain, "money back", hits, 3);
  CHECK_EQ_INT((long long)n, 0);
  n = search(ix, "money back", hits, 3);
  CHECK(n >= 1 && strcmp(hits[0].id, "stripe__create_refund") == 0);
  /* Host aliases: the catalog's 10, then the vocabulary's up to 16 in all
   * (h1 is already there); the tool's own 10 aliases stay its own list. */
  char *d = docs(ix);
  CHECK_CONTAINS(d, "\"aliases\":[\"a1\",\"a2\",\"a3\",\"a4\",\"a5\",\"a6\",\"a7\",\"a8\",\"a9\",\"a10\",\"h1\",\"h2\","
                    "\"h3\",\"h4\",\"h5\",\"h6\",\"h7\",\"h8\",\"h9\",\"h10\",\"v1\",\"v2\",\"v3\",\"v4\",\"v5\",\"v6\"]");
  CHECK(strstr(d, "\"v7\"") == NULL);
  CHECK_CONTAINS(d, "\"tags\":[\"money\"]");
  tsift_free(d);
  /* The digest is in the info, with the entry no tool has counted. */
  char *i = info(ix);
  CHECK_CONTAINS(i, "\"vocabulary\":{\"digest\":\"");
  CHECK_CONTAINS(i, "\"unknownTools\":1}");
  tsift_free(i);
  i = info(plain);
  CHECK(strstr(i, "vocabulary") == NULL);
  tsift_free(i);
  char a[65], b[65];
  fingerprint_of(plain, a);
  fingerprint_of(ix, b);
  CHECK(strcmp(a, b) != 0);
  tsift_index_free(plain);

  /* Other white space and escapes: the same digest. Other provenance only:
   * another digest, so another fingerprint. */
  tsift_index *same = build_opts(CAT, "{\"annotations\": {\"annotations\":{\"stripe__create_refund\":{\"tags\":"
                                      "[\"mon\\u0065y\"],\"aliases\":[\"money back\"]},\"gone__tool\":{\"tags\":[\"x\"]},"
                                      "\"pd__list_oncalls\":{\"aliases\":[\"v1\",\"v2\",\"v3\",\"v4\",\"v5\",\"v6\","
                                      "\"v7\",\"v8\",\"h1\"]}},\n \"learned\":{\"version\":1},\"evidence\":{}}}");
  tsift_index *other = build_opts(CAT, "{\"annotations\":{\"annotations\":{\"stripe__create_refund\":{\"tags\":"
                                       "[\"money\"],\"aliases\":[\"money back\"]},\"gone__tool\":{\"tags\":[\"x\"]},"
                                       "\"pd__list_oncalls\":{\"aliases\":[\"v1\",\"v2\",\"v3\",\"v4\",\"v5\",\"v6\","
                                       "\"v7\",\"v8\",\"h1\"]}},\"learned\":{\"version\":2},\"evidence\":{}}}");
  CHECK(same && other);
  if (same && other) {
    fingerprint_of(same, a);
    CHECK_EQ_STR(a, b);
    fingerprint_of(other, a);
    CHECK(strcmp(a, b) != 0);
  }
  tsift_index_free(same);
  tsift_index_free(other);

  /* A snapshot keeps the digest. */
  char *blob = NULL;
  size_t len = 0;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_snapshot(ix, &blob, &len, &err), TSIFT_OK);
  tsift_index *loaded = NULL;
  CHECK_EQ_INT(tsift_index_from_snapshot(blob, len, &loaded, &err), TSIFT_OK);
  if (loaded) {
    fingerprint_of(loaded, a);
    CHECK_EQ_STR(a, b);
    char *li = info(loaded);
    CHECK_CONTAINS(li, "\"vocabulary\":{\"digest\":\"");
    tsift_free(li);
    CHECK_EQ_INT(tsift_index_verify(loaded, &err), TSIFT_OK);
  }
  tsift_index_free(loaded);
  tsift_free(blob);
  tsift_index_free(ix);
}

static void test_strict_reading(void) {
  static const struct {
    const char *opts, *message;
  } bad[] = {
      {"{\"annotations\":[]}", "options: annotations: expected a vocabulary"},
      {"{\"annotations\":{}}", "options: annotations: expected a vocabulary"},
      {"{\"annotations\":{\"annotations\":{},\"notes\":1}}", "options: annotations: unknown key \"notes\""},
      {"{\"annotations\":{\"annotations\":{\"stripe__create_refund\":[]}}}",
       "options: annotations: annotations[\"stripe__create_refund\"]: expected an object, got an array"},
      {"{\"annotations\":{\"annotations\":{\"stripe__create_refund\":{\"words\":[]}}}}",
       "annotations[\"stripe__create_refund\"]: unknown key \"words\""},
      {"{\"annotations\":{\"annotations\":{\"stripe__create_refund\":{\"tags\":[1]}}}}",
       "annotations[\"stripe__create_refund\"]: field \"tags[0]\": expected a string, got a number"},
      {"{\"annotations\":{\"annotations\":{\"gone\":{\"tags\":\"x\"}}}}", "annotations[\"gone\"]: field \"tags\""},
      {"{\"annotations\":{\"annotations\":{\"gone\":{\"tags\":[1]}}}}", "annotations[\"gone\"]: field \"tags[0]\""},
      {"{\"annotations\":{\"annotations\":{\"gone\":{\"tags\":[\"x\"]}}}}", NULL},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    tsift_index *ix = NULL;
    tsift_error err;
    tsift_status st = tsift_index_build(CAT, strlen(CAT), bad[i].opts, strlen(bad[i].opts), &ix, &err);
    if (!bad[i].message) { /* an entry no tool has is read, then skipped */
      CHECK_EQ_INT(st, TSIFT_OK);
      tsift_index_free(ix);
      continue;
    }
    CHECK_EQ_INT(st, TSIFT_E_CONFIG);
    CHECK(ix == NULL);
    CHECK_CONTAINS(err.message, bad[i].message);
  }
  /* The catalog's own annotations stay as they were: an unknown id is an error. */
  const char *cat = "{\"tools\":[{\"name\":\"a\"}],\"annotations\":{\"b\":{\"tags\":[\"x\"]}}}";
  tsift_index *ix = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_build(cat, strlen(cat), NULL, 0, &ix, &err), TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "annotations[\"b\"]: no tool has this id");
}

/* A session's journal names the vocabulary; replay under another one (or
 * none) is a divergence, not an edit. */
static void test_journal_names_the_vocabulary(void) {
  const char *cfg = "{\"loop\":\"v\",\"catalog\":\"c\"}";
  char *a = NULL, *b = NULL, *j = NULL;
  size_t al = 0, bl = 0, jl = 0;
  tsift_index *ia = build_opts(CAT, "{\"annotations\":" VOCAB "}");
  tsift_index *ib = build_opts(CAT, "{\"annotations\":{\"annotations\":{}}}");
  tsift_index *ic = build(CAT);
  tsift_error err;
  char *c = NULL;
  size_t cl = 0;
  if (!ia || !ib || !ic) {
    CHECK(0);
    return;
  }
  tsift_index_snapshot(ia, &a, &al, &err);
  tsift_index_snapshot(ib, &b, &bl, &err);
  tsift_index_snapshot(ic, &c, &cl, &err);
  const char *scfg = "{\"loop\":\"v\"}";
  (void)cfg;
  tsift_session *s = NULL;
  CHECK_EQ_INT(tsift_session_new_from_snapshot(scfg, strlen(scfg), a, al, NULL, 0, NULL, 0, &s, &err), TSIFT_OK);
  if (s) {
    char *out = NULL;
    size_t ol = 0;
    CHECK_EQ_INT(tsift_session_call(s, 0, 0, "search_tools", 12, "{\"query\":\"money back\"}", 22, &out, &ol, &err),
                 TSIFT_OK);
    CHECK_CONTAINS(out, "\"name\":\"stripe__create_refund\"");
    tsift_free(out);
    tsift_session_journal_jsonl(s, &j, &jl, &err);
    CHECK_CONTAINS(j, "\"vocabulary\":\"");
    tsift_session_free(s);
  }
  /* The same vocabulary: it replays. */
  s = NULL;
  CHECK_EQ_INT(tsift_session_new_from_snapshot(scfg, strlen(scfg), a, al, j, jl, NULL, 0, &s, &err), TSIFT_OK);
  tsift_session_free(s);
  /* Another one, or none: a divergence naming both. */
  s = NULL;
  CHECK_EQ_INT(tsift_session_new_from_snapshot(scfg, strlen(scfg), b, bl, j, jl, NULL, 0, &s, &err),
               TSIFT_E_DIVERGED);
  CHECK_CONTAINS(err.message, "journal header: recorded under vocabulary ");
  CHECK_CONTAINS(err.message, "the live index has vocabulary ");
  CHECK(s == NULL);
  CHECK_EQ_INT(tsift_session_new_from_snapshot(scfg, strlen(scfg), c, cl, j, jl, NULL, 0, &s, &err),
               TSIFT_E_DIVERGED);
  CHECK_CONTAINS(err.message, "the live index has no vocabulary");
  /* In warn mode it is the first output's warning; verify lists it. */
  const char *warn = "{\"divergence\":\"warn\"}";
  CHECK_EQ_INT(tsift_session_new_from_snapshot(scfg, strlen(scfg), c, cl, j, jl, warn, strlen(warn), &s, &err),
               TSIFT_OK);
  if (s) {
    char *out = NULL;
    size_t ol = 0;
    CHECK_EQ_INT(tsift_session_verify_json(s, &out, &ol, &err), TSIFT_OK);
    CHECK_CONTAINS(out, "\"verified\":false");
    CHECK_CONTAINS(out, "recorded under vocabulary");
    tsift_free(out);
    tsift_session_free(s);
  }
  tsift_free(j);
  tsift_free(a);
  tsift_free(b);
  tsift_free(c);
  tsift_index_free(ia);
  tsift_index_free(ib);
  tsift_index_free(ic);
}

/* Session option "annotations": the catalog's index takes the vocabulary;
 * over a snapshot it is refused (the snapshot holds its own). */
static void test_session_option(void) {
  char cfg[4096];
  snprintf(cfg, sizeof cfg, "{\"loop\":\"v\",\"catalog\":%s}", CAT);
  const char *opts = "{\"annotations\":" VOCAB ",\"client\":\"c1\"}";
  tsift_session *s = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), NULL, 0, opts, strlen(opts), &s, &err), TSIFT_OK);
  if (s) {
    char *out = NULL;
    size_t ol = 0;
    tsift_session_call(s, 0, 0, "search_tools", 12, "{\"query\":\"money back\"}", 22, &out, &ol, &err);
    CHECK_CONTAINS(out, "\"name\":\"stripe__create_refund\",\"description\":\"Refund a charge\",\"loaded\":true");
    tsift_free(out);
    tsift_session_free(s);
  }
  const char *bad = "{\"annotations\":{\"annotations\":{},\"x\":1}}";
  CHECK_EQ_INT(tsift_session_new(cfg, strlen(cfg), NULL, 0, bad, strlen(bad), &s, &err), TSIFT_E_CONFIG);
  CHECK_EQ_STR(err.message, "session options: annotations: unknown key \"x\" (a vocabulary has \"annotations\", "
                            "\"learned\" and \"evidence\")");
  tsift_index *ix = build(CAT);
  char *blob = NULL;
  size_t len = 0;
  tsift_index_snapshot(ix, &blob, &len, &err);
  const char *scfg = "{\"loop\":\"v\"}";
  CHECK_EQ_INT(tsift_session_new_from_snapshot(scfg, strlen(scfg), blob, len, NULL, 0, opts, strlen(opts), &s, &err),
               TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "session options: annotations: not allowed with a snapshot");
  tsift_free(blob);
  tsift_index_free(ix);
}

int main(void) {
  test_merge_and_search();
  test_session_option();
  test_strict_reading();
  test_journal_names_the_vocabulary();
  return harness_finish("test_vocabulary");
}
