/* test_step_prune.c — the pruned top k (step_prune.c) against the exhaustive one
 * (TSIFT_RANK_EXHAUSTIVE): the same hits in the same order with the same
 * score bits, the same breakdown (explain) and grades, on every corpus
 * query, every development-set query (../shared/datasets, skipped with a
 * message when absent) and random catalogs from fixed seeds — under the
 * whole catalog's statistics and a smaller universe's, with and without
 * +required words, for several k. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "harness.h"
#include "random_words.h"
#include "rank/rank.h"
#include "toolsift.h"

static size_t g_compared, g_differ;

static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* 1 when the two rankings report the same thing. */
static int same_ranking(const tsift_ranking *a, const tsift_ranking *b) {
  if (a->nhits != b->nhits || a->nmembers != b->nmembers || a->npairs != b->npairs) return 0;
  if (a->diversified != b->diversified) return 0;
  if (memcmp(a->fate, b->fate, a->nterms) != 0) return 0;
  for (size_t h = 0; h < a->nhits; h++) {
    const tsift_scored *x = &a->hits[h], *y = &b->hits[h];
    if (x->doc != y->doc || x->exact != y->exact || !same_double(x->score, y->score)) return 0;
    if (!a->parts != !b->parts) return 0;
    if (a->parts) {
      const tsift_hit_parts *p = &a->parts[h], *q = &b->parts[h];
      if (p->nterms != q->nterms || p->npairs != q->npairs) return 0;
      for (size_t t = 0; t < p->nterms; t++) {
        if (p->terms[t].member != q->terms[t].member || !same_double(p->terms[t].score, q->terms[t].score))
          return 0;
        for (int f = 0; f < TSIFT_FIELD_COUNT; f++)
          if (!same_double(p->terms[t].fields[f], q->terms[t].fields[f])) return 0;
      }
      for (size_t t = 0; t < p->npairs; t++)
        if (p->pairs[t].pair != q->pairs[t].pair || !same_double(p->pairs[t].score, q->pairs[t].score)) return 0;
    }
    if (!a->grades != !b->grades) return 0;
    if (a->grades) {
      const tsift_grade *g = &a->grades[h], *k = &b->grades[h];
      if (g->level != k->level || g->matched != k->matched || g->phrase != k->phrase ||
          !same_double(g->coverage, k->coverage) || !same_double(g->relative, k->relative))
        return 0;
      if (memcmp(a->matched + h * a->nterms, b->matched + h * b->nterms, a->nterms) != 0) return 0;
    }
  }
  return 1;
}

/* Rank q both ways over the universe `allowed` (NULL: all) and compare. */
static void compare(const tsift_index *ix, const char *text, const uint8_t *allowed, size_t k, unsigned flags) {
  tsift_error err;
  tsift_query q;
  if (tsift_query_analyze(text, strlen(text), &ix->stopwords, &q, &err) != TSIFT_OK) {
    CHECK(0);
    return;
  }
  tsift_stats stats;
  tsift_stats_fit(ix, allowed, &stats);
  tsift_ranking pruned, full;
  tsift_status a = tsift_rank(ix, &q, &stats, k, flags, NULL, &pruned, &err);
  tsift_status b = tsift_rank(ix, &q, &stats, k, flags | TSIFT_RANK_EXHAUSTIVE, NULL, &full, &err);
  CHECK(a == TSIFT_OK && b == TSIFT_OK);
  if (a == TSIFT_OK && b == TSIFT_OK) {
    g_compared++;
    if (!same_ranking(&pruned, &full)) {
      if (g_differ++ < 10)
        fprintf(stderr, "pruned != exhaustive (k %zu, flags %u, %s universe): \"%.120s\"\n", k, flags,
                allowed ? "a smaller" : "the whole", text);
      CHECK(0);
    } else {
      h_passed++;
    }
  }
  tsift_ranking_free(&pruned);
  tsift_ranking_free(&full);
  tsift_query_free(&q);
}

/* Every query of a set, in every configuration. */
static void compare_all(const tsift_index *ix, char **queries, size_t nq) {
  CHECK(ix->len_norm_w && ix->term_max_tfn && ix->exact_head); /* the pruned path is there */
  uint8_t *every3 = calloc(ix->n + 1, 1);
  for (size_t d = 0; d < ix->n; d++) every3[d] = d % 3 != 1;
  static const size_t ks[] = {1, 10, 50};
  for (size_t i = 0; i < nq; i++) {
    for (size_t j = 0; j < 3; j++) compare(ix, queries[i], NULL, ks[j], TSIFT_RANK_GRADE);
    compare(ix, queries[i], NULL, 10, 0);
    compare(ix, queries[i], every3, 10, TSIFT_RANK_GRADE | TSIFT_RANK_REQUIRED);
  }
  free(every3);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  *len = fread(b, 1, (size_t)n, f);
  b[*len] = 0;
  fclose(f);
  return b;
}

/* The "query" of every line of a JSON Lines file. */
static char **read_queries(const char *path, size_t *nq) {
  size_t len;
  char *text = slurp(path, &len);
  *nq = 0;
  if (!text) return NULL;
  char **out = NULL;
  size_t cap = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    cJSON *j = cJSON_Parse(line);
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(j, "query");
    if (cJSON_IsString(q)) {
      if (*nq == cap) out = realloc(out, (cap = cap ? cap * 2 : 256) * sizeof *out);
      out[(*nq)++] = strdup(q->valuestring);
    }
    cJSON_Delete(j);
  }
  free(text);
  return out;
}

static void free_queries(char **q, size_t n) {
  for (size_t i = 0; i < n; i++) free(q[i]);
  free(q);
}

static tsift_index *build_file(const char *path, int jsonl) {
  size_t len;
  char *text = slurp(path, &len);
  if (!text) return NULL;
  if (jsonl) { /* one tool per line: an array */
    char *arr = malloc(len + 3);
    size_t n = 0;
    arr[n++] = '[';
    for (size_t i = 0; i < len; i++) {
      if (text[i] == '\n') {
        if (i + 1 < len && text[i + 1] != '\n') arr[n++] = ',';
      } else {
        arr[n++] = text[i];
      }
    }
    while (n > 1 && arr[n - 1] == ',') n--;
    arr[n++] = ']';
    free(text);
    text = arr;
    len = n;
  }
  tsift_index *ix = NULL;
  tsift_error err;
  const char *opts = "{\"ids\":\"lenient\"}";
  if (tsift_index_build(text, len, opts, strlen(opts), &ix, &err) != TSIFT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    ix = NULL;
  }
  free(text);
  return ix;
}

static void test_corpus(void) {
  tsift_index *ix = build_file(TSIFT_SOURCE_DIR "/corpus/catalog.json", 0);
  CHECK(ix != NULL);
  size_t nq;
  char **qs = read_queries(TSIFT_SOURCE_DIR "/corpus/queries.jsonl", &nq);
  CHECK(nq > 100);
  if (ix) compare_all(ix, qs, nq);
  printf("corpus: %zu queries\n", nq);
  free_queries(qs, nq);
  tsift_index_free(ix);
}

static void test_dev_sets(void) {
  static const char *sets[] = {"toollens", "metatool", "sealtools"};
  for (size_t s = 0; s < 3; s++) {
    char cat[512], qpath[512];
    snprintf(cat, sizeof cat, "%s/../shared/datasets/%s/tools.jsonl", TSIFT_SOURCE_DIR, sets[s]);
    snprintf(qpath, sizeof qpath, "%s/../shared/datasets/%s/queries_dev.jsonl", TSIFT_SOURCE_DIR, sets[s]);
    FILE *f = fopen(cat, "rb");
    if (!f) {
      printf("dev set %s: not present (%s); skipped\n", sets[s], cat);
      continue;
    }
    fclose(f);
    tsift_index *ix = build_file(cat, 1);
    CHECK(ix != NULL);
    size_t nq;
    char **qs = read_queries(qpath, &nq);
    if (ix) compare_all(ix, qs, nq);
    printf("dev set %s: %zu queries\n", sets[s], nq);
    free_queries(qs, nq);
    tsift_index_free(ix);
  }
}

/* Random catalogs: names of 1-3 words (many shared, so exact matches tie),
 * descriptions and tags from a small vocabulary, so scores tie often and
 * most tools are candidates; queries of 1-6 words, exact names, +words and
 * two-sentence requests. Some catalogs weigh a field 0 (a posting with no
 * score). The last few are large (2,000-5,000 tools: many of the pruned
 * ranker's windows, walks chosen again as the threshold rises) with queries
 * of up to 14 words (more walks than its pair table covers). */
static void test_random(void) {
  static const char *opts[] = {NULL, "{\"weights\":{\"description\":0,\"tags\":0}}",
                               "{\"minCoverage\":0.5}"};
  sb cat = {0}, q = {0};
  size_t queries = 0;
  make_vocab();
  for (uint32_t seed = 1; seed <= 44; seed++) {
    g_rng = seed * 2654435761u;
    int large = seed > 40;
    size_t n = large ? 2000 + rnd(3000) : 20 + rnd(400), vocab = 8 + rnd(VOCAB - 8);
    reset(&cat);
    put(&cat, "{\"tools\":[");
    for (size_t t = 0; t < n; t++) {
      putf(&cat, "%s{\"id\":\"t%zu\",\"name\":\"", t ? "," : "", t);
      size_t nw = 1 + rnd(3);
      for (size_t w = 0; w < nw; w++) putf(&cat, "%s%s", w ? "_" : "", g_vocab[rnd(vocab / 2 + 1)]);
      put(&cat, "\",\"description\":\"");
      size_t nd = rnd(25);
      for (size_t w = 0; w < nd; w++) putf(&cat, "%s%s", w ? " " : "", g_vocab[rnd(vocab)]);
      put(&cat, "\",\"tags\":[");
      size_t ng = rnd(3);
      for (size_t w = 0; w < ng; w++) putf(&cat, "%s\"%s\"", w ? "," : "", g_vocab[rnd(vocab)]);
      put(&cat, "]}");
    }
    put(&cat, "]}");
    const char *o = opts[seed % 3];
    tsift_index *ix = NULL;
    tsift_error err;
    if (tsift_index_build(cat.p, cat.n, o, o ? strlen(o) : 0, &ix, &err) != TSIFT_OK) {
      fprintf(stderr, "build failed: %s\n", err.message);
      CHECK(0);
      continue;
    }
    uint8_t *allowed = calloc(n + 1, 1);
    for (size_t d = 0; d < n; d++) allowed[d] = rnd(4) != 0;
    for (int i = 0; i < 60; i++) {
      reset(&q);
      uint32_t kind = rnd(6);
      size_t nw = 1 + rnd(large ? 14 : 6);
      if (kind == 0) { /* an exact name */
        size_t nn = 1 + rnd(3);
        for (size_t w = 0; w < nn; w++) putf(&q, "%s%s", w ? " " : "", g_vocab[rnd(vocab / 2 + 1)]);
      } else {
        for (size_t w = 0; w < nw; w++)
          putf(&q, "%s%s%s", w ? " " : "", kind == 1 && w == 0 ? "+" : "", g_vocab[rnd(vocab)]);
        if (kind == 2) { /* two sentences */
          put(&q, ". Then ");
          for (size_t w = 0; w < nw; w++) putf(&q, "%s%s", w ? " " : "", g_vocab[rnd(vocab)]);
        }
        if (kind == 3) put(&q, " zzqqxx"); /* a word no tool has */
      }
      size_t k = 1 + rnd(12);
      compare(ix, q.p, NULL, k, TSIFT_RANK_GRADE);
      compare(ix, q.p, allowed, k, TSIFT_RANK_GRADE | TSIFT_RANK_REQUIRED);
      compare(ix, q.p, NULL, k + 40, TSIFT_RANK_EXPLAIN);
      queries++;
    }
    free(allowed);
    tsift_index_free(ix);
  }
  free(cat.p);
  free(q.p);
  printf("random: 44 catalogs, %zu queries\n", queries);
}

int main(void) {
  test_random();
  test_corpus();
  test_dev_sets();
  printf("%zu rankings compared, %zu differ\n", g_compared, g_differ);
  return harness_finish("test_prune");
}
