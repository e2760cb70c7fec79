/* test_vocab.c — the table of tool vocabulary (vocab.h): the generated
 * table's shape, lookup (words, stems, phrases, bigram runs, longest match),
 * what an expansion does to a ranking (one slot, explain, confidence rule),
 * that English words outside the synonym groups are untouched, and the
 * English synonym groups (their weight, the cut, phrases). */
#include <stdlib.h>

#include "cJSON.h"
#include "harness.h"
#include "toolsift.h"
#include "text/vocab_table.h"

static char *analyze(const char *text) {
  char *out = NULL;
  size_t n = 0;
  tsift_error err;
  if (tsift_analyze_query_json(text, strlen(text), NULL, 0, &out, &n, &err)) return NULL;
  return out;
}

/* The "expansions" part of a query analysis ("" when there is none). */
static void check_expansions(const char *text, const char *expected) {
  char *got = analyze(text);
  const char *x = got ? strstr(got, ",\"expansions\":") : NULL;
  char buf[1024] = "";
  if (x) snprintf(buf, sizeof buf, "%.*s", (int)(strlen(x) - 15), x + 14); /* without the closing } */
  CHECK(got != NULL);
  CHECK_EQ_STR(buf, expected);
  tsift_free(got);
}

/* Sorted by bytes, unique, every line "key" then '=' or '*' then concept
 * codes (a character of '#'..'~' without * = ? \, after one '!' per 88). */
static void test_table_shape(void) {
  const char *k = VOCAB_KEYS, *t = VOCAB_TARGETS;
  size_t concepts = 0, groups = 0;
  for (const char *c = t; *c; c++) {
    if (c == t || c[-1] == '\n') groups += *c == '~'; /* a synonym group's line */
    concepts += *c == '\n';
  }
  CHECK(concepts > 88); /* codes with '!' are in use */
  CHECK(groups > 0 && groups < concepts);
  const char *prev = NULL;
  size_t prev_len = 0, entries = 0;
  for (const char *e = k; *e; entries++) {
    const char *sep = e;
    while (*sep && *sep != '=' && *sep != '*' && *sep != '\n') sep++;
    CHECK(*sep == '=' || *sep == '*');
    if (*sep != '=' && *sep != '*') break;
    size_t len = (size_t)(sep - e);
    CHECK(len > 0);
    if (*sep == '*') CHECK(len >= 4);
    if (prev) {
      int c = memcmp(prev, e, prev_len < len ? prev_len : len);
      CHECK(c < 0 || (c == 0 && prev_len < len)); /* strictly increasing */
    }
    const char *code = sep + 1;
    CHECK(*code != '\n'); /* at least one concept */
    for (; *code && *code != '\n'; code++) {
      size_t i = 0;
      while (*code == '!') i += 88, code++;
      unsigned char u = (unsigned char)*code;
      i += (size_t)(u - '#') - (u > '*') - (u > '=') - (u > '?') - (u > '\\');
      CHECK(u >= '#' && u <= '~' && u != '*' && u != '=' && u != '?' && u != '\\');
      CHECK(i < concepts);
    }
    prev = e;
    prev_len = len;
    e = *code ? code + 1 : code;
  }
  CHECK(entries >= 100);
}

static void test_lookup(void) {
  /* stems (lösch* matches löschen and löschte), a word (suchen) */
  check_expansions("Datei löschen",
                   "[[\"datei\",\"file\"],[\"löschen\",\"delet\"],[\"löschen\",\"remov\"]]");
  check_expansions("gelöschte Dateien suchen", "[[\"dateien\",\"file\"],[\"suchen\",\"search\"],[\"suchen\",\"find\"]]");
  /* a phrase of three tokens */
  check_expansions("mettre à jour la page", "[[\"mettr\",\"updat\"]]");
  /* Japanese: ファイル is three bigrams; the expansion goes to the first */
  check_expansions("ファイルを削除する",
                   "[[\"ファ\",\"file\"],[\"削除\",\"delet\"],[\"削除\",\"remov\"]]");
  /* Chinese: the longest key wins (数据库, not a shorter word inside it) */
  check_expansions("删除数据库", "[[\"删除\",\"delet\"],[\"删除\",\"remov\"],[\"数据\",\"databas\"]]");
  /* a word both German message and news expands to both */
  check_expansions("Nachrichten", "[[\"nachrichten\",\"new\"],[\"nachrichten\",\"messag\"]]");
  /* English words outside the synonym groups have no expansions, and a term
   * already in the query is not added again */
  check_expansions("delete the file and update it", "");
  check_expansions("Datei file", "");
  /* a stem needs the token to start with it; too short a token never
   * matches a stem */
  check_expansions("lösc lö", "");
}

static tsift_index *build(const char *json, const char *opts) {
  tsift_index *ix = NULL;
  tsift_error err;
  if (tsift_index_build(json, strlen(json), opts, opts ? strlen(opts) : 0, &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "build failed: %s\n", err.message);
    return NULL;
  }
  return ix;
}

static char *search(tsift_index *ix, const char *q, const char *opts) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  if (tsift_index_search_json(ix, q, strlen(q), opts, opts ? strlen(opts) : 0, &out, &len, &err))
    return NULL;
  return out;
}

static const char *k_catalog =
    "[{\"name\":\"files__delete_file\",\"description\":\"Delete a file from the drive\"},"
    "{\"name\":\"files__upload_file\",\"description\":\"Upload a file to the drive\"},"
    "{\"name\":\"mail__send\",\"description\":\"Send an email message\"},"
    "{\"name\":\"db__drop\",\"description\":\"Remove a table\"}]";

static void test_ranking(void) {
  tsift_index *ix = build(k_catalog, NULL);
  if (!ix) return;
  char *out = search(ix, "Datei löschen", "{\"explain\":true}");
  CHECK(out != NULL);
  if (out) {
    /* the foreign terms are scored (through their expansions), not unmatched */
    CHECK_CONTAINS(out, "\"terms\":[\"datei\",\"löschen\"],\"hits\":[{\"id\":\"files__delete_file\"");
    CHECK_CONTAINS(out, "\"unmatched\":[]");
    CHECK_CONTAINS(out, "{\"term\":\"löschen\",\"via\":\"delete\",\"score\":");
    CHECK_CONTAINS(out, "{\"term\":\"datei\",\"via\":\"file\",\"score\":");
    CHECK_CONTAINS(out, "\"expansions\":[[\"datei\",\"file\"],[\"löschen\",\"delet\"],[\"löschen\",\"remov\"]]");
  }
  tsift_free(out);
  /* the same scores as the English query: an expansion counts as the word
   * (weight 1), and "remove" adds what it matches. The English words in an
   * order no tool has close together: expansions do not pair (proximity,
   * index.h), so "file delete" would add a pair bonus the German lacks. */
  char *en = search(ix, "file remove delete", NULL);
  char *de = search(ix, "Datei löschen", NULL);
  CHECK(en && de);
  if (en && de) {
    const char *a = strstr(en, "\"hits\":"), *b = strstr(de, "\"hits\":");
    CHECK(a && b);
    if (a && b) {
      /* ids, scores and grades alike; "matched" names each query's own words */
      cJSON *ja = cJSON_Parse(en), *jb = cJSON_Parse(de);
      const cJSON *ha = cJSON_GetObjectItem(ja, "hits"), *hb = cJSON_GetObjectItem(jb, "hits");
      CHECK(cJSON_GetArraySize(ha) > 0 && cJSON_GetArraySize(ha) == cJSON_GetArraySize(hb));
      for (int k = 0; k < cJSON_GetArraySize(ha) && k < cJSON_GetArraySize(hb); k++) {
        const cJSON *x = cJSON_GetArrayItem(ha, k), *y = cJSON_GetArrayItem(hb, k);
        CHECK_EQ_STR(cJSON_GetObjectItem(x, "id")->valuestring, cJSON_GetObjectItem(y, "id")->valuestring);
        CHECK(cJSON_GetObjectItem(x, "score")->valuedouble == cJSON_GetObjectItem(y, "score")->valuedouble);
        CHECK_EQ_STR(cJSON_GetObjectItem(x, "match")->valuestring, cJSON_GetObjectItem(y, "match")->valuestring);
      }
      cJSON_Delete(ja);
      cJSON_Delete(jb);
    }
  }
  tsift_free(en);
  tsift_free(de);
  /* an English query without a synonym group's word has no trace of the
   * table */
  out = search(ix, "delete file", "{\"explain\":true}");
  CHECK(out && !strstr(out, "via") && !strstr(out, "expansions"));
  tsift_free(out);
  tsift_index_free(ix);

  /* Confidence rule: a foreign word matched through its expansion is not an
   * unknown word; "Datei löschen" stays answered. */
  ix = build(k_catalog, "{\"minCoverage\":0.5}");
  if (!ix) return;
  out = search(ix, "Datei löschen", NULL);
  CHECK_CONTAINS(out, "\"hits\":[{\"id\":\"files__delete_file\"");
  tsift_free(out);
  tsift_index_free(ix);
}

/* A catalog of `head` (a JSON object or objects, no brackets) and 16 more
 * tools t00..t15 whose descriptions each hold one word waa..wpp (and
 * "common"), and a query of those 16 words followed by `tail`. */
static void sixteen_words(const char *head, const char *tail, char cat[4000], char q[1000]) {
  size_t n = (size_t)sprintf(cat, "[%s", head), qn = 0;
  for (int i = 0; i < 16; i++) {
    n += (size_t)sprintf(cat + n, ",{\"name\":\"t%02d\",\"description\":\"w%c%c common\"}", i, 'a' + i, 'a' + i);
    qn += (size_t)sprintf(q + qn, "w%c%c ", 'a' + i, 'a' + i);
  }
  sprintf(cat + n, "]");
  sprintf(q + qn, "%s", tail);
}

/* A term and its expansions take one of the 16 slots: 16 English words that
 * each match one tool, then a German word that matches only through its
 * expansions (delete, remove). 17 live terms, not 18: one English word is
 * capped, and the German word is kept by its expansions' tier (delete is in
 * a tool name). */
static void test_cap(void) {
  char cat[4000], q[1000];
  sixteen_words("{\"name\":\"delete_thing\",\"description\":\"delete remove\"}", "löschen", cat, q);
  tsift_index *ix = build(cat, NULL);
  if (!ix) return;
  char *out = search(ix, q, NULL);
  CHECK(out != NULL);
  if (out) {
    CHECK_CONTAINS(out, "\"hits\":[{\"id\":\"delete_thing\"");
    CHECK_CONTAINS(out, "\"löschen\"]"); /* among the scored terms */
    CHECK_CONTAINS(out, "\"capped\":[\"wpp\"]"); /* an English word gives way (equal df: the latest) */
  }
  tsift_free(out);
  tsift_index_free(ix);
}

/* English synonym groups (vocab.txt, "## synonyms"): every member is a key
 * whose expansions are the group's other members. */
static void test_synonym_lookup(void) {
  /* picture, image, photo, photograph, pic, img (analysed: pictur, imag) */
  check_expansions("a picture", "[[\"pictur\",\"imag\"],[\"pictur\",\"photo\"],"
                                "[\"pictur\",\"photograph\"],[\"pictur\",\"pic\"],[\"pictur\",\"img\"]]");
  /* the members already in the query are not added: only pic and img */
  check_expansions("picture image photo photograph",
                   "[[\"pictur\",\"pic\"],[\"pictur\",\"img\"]]");
  /* inflected forms meet the group through the analyser (finding -> find) */
  check_expansions("finding", "[[\"find\",\"search\"],[\"find\",\"lookup\"]]");
  /* a phrase is one key (pull request, pr, merge request): its tokens that
   * are query terms are not added, and the longest key wins over merge's
   * own group (merge, combine) */
  check_expansions("pull request", "[[\"pull\",\"pr\"],[\"pull\",\"merg\"]]");
  check_expansions("merge request", "[[\"merg\",\"pull\"],[\"merg\",\"pr\"]]");
  check_expansions("merge", "[[\"merg\",\"combin\"]]");
  /* a foreign key and an English key in one query */
  check_expansions("Datei picture", "[[\"datei\",\"file\"],[\"pictur\",\"imag\"],[\"pictur\",\"photo\"],"
                                    "[\"pictur\",\"photograph\"],[\"pictur\",\"pic\"],[\"pictur\",\"img\"]]");
}

/* A synonym counts TSIFT_SYNONYM_WEIGHT = 0.4. Three tools with one-word
 * descriptions (average length 1, so norm = 1 and tfn = 1); every word has
 * df 1 of N = 3: idf = ln(1 + 2.5/1.5) = 0.980829 and a match scores
 * idf · 2.2 / 2.2 = 0.980829. For "picture", beta (its own word) scores
 * 0.980829 and alpha (image, a synonym) 0.4 · 0.980829 = 0.392332; gamma
 * nothing. */
static void test_synonym_weight(void) {
  tsift_index *ix = build("[{\"name\":\"alpha\",\"description\":\"image\"},"
                          "{\"name\":\"beta\",\"description\":\"picture\"},"
                          "{\"name\":\"gamma\",\"description\":\"zzz\"}]",
                          NULL);
  if (!ix) return;
  char *out = search(ix, "picture", "{\"explain\":true}");
  CHECK(out != NULL);
  if (out) {
    CHECK_CONTAINS(out, "\"hits\":[{\"id\":\"beta\"");
    CHECK_CONTAINS(out, "\"score\":0.980829,\"match\":\"strong\",\"matched\":[\"picture\"],\"explain\":{\"terms\":"
                        "[{\"term\":\"picture\",\"score\":0.980829");
    CHECK_CONTAINS(out, "{\"id\":\"alpha\"");
    /* through a synonym only: 0.4 of the direct hit, under the 0.75 of the best a strong hit needs */
    CHECK_CONTAINS(out, "\"score\":0.392332,\"match\":\"partial\",\"matched\":[\"picture\"],\"explain\":{\"terms\":"
                        "[{\"term\":\"picture\",\"via\":\"image\",\"score\":0.392332,\"fields\":{\"description\":"
                        "0.392332}}],\"grade\":{\"coverage\":1.000000,\"relative\":0.400000}}");
    CHECK(!strstr(out, "gamma"));
  }
  tsift_free(out);
  /* a word the catalog does not have at all is matched through its synonym:
   * not unmatched, and the confidence rule answers */
  tsift_index_free(ix);
  ix = build("[{\"name\":\"alpha\",\"description\":\"image\"},"
             "{\"name\":\"gamma\",\"description\":\"zzz\"}]",
             "{\"minCoverage\":0.5}");
  if (!ix) return;
  out = search(ix, "photograph", NULL);
  CHECK_CONTAINS(out, "\"hits\":[{\"id\":\"alpha\"");
  CHECK_CONTAINS(out, "\"unmatched\":[]");
  tsift_free(out);
  tsift_index_free(ix);
}

/* A synonym decides neither the tier nor the key of the 16-term cut (a
 * translation does, test_cap). 16 words that each match one description,
 * then "picture", also in one description (the same df, so the same key)
 * and whose synonym "image" is in a tool's name. Were the synonym counted,
 * picture would be tier 0 and stay; it is tier 1 like the others and, the
 * latest of equal keys, is the one capped. */
static void test_synonym_cap(void) {
  char cat[4000], q[1000];
  sixteen_words("{\"name\":\"image_tool\",\"description\":\"x\"},"
                "{\"name\":\"p\",\"description\":\"picture common\"}",
                "picture", cat, q);
  tsift_index *ix = build(cat, NULL);
  if (!ix) return;
  char *out = search(ix, q, NULL);
  CHECK(out != NULL);
  if (out) {
    CHECK_CONTAINS(out, "\"capped\":[\"picture\"]");
    CHECK(!strstr(out, "image_tool")); /* a capped term takes its synonyms with it */
  }
  tsift_free(out);
  tsift_index_free(ix);
}

int main(void) {
  test_table_shape();
  test_lookup();
  test_ranking();
  test_cap();
  test_synonym_lookup();
  test_synonym_weight();
  test_synonym_cap();
  return harness_finish("test_vocab");
}
