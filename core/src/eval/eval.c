/* eval.c — relevance evaluation (SPEC S10): recall@1/5/10, MRR@10,
 * nDCG@10 (gain 2^g − 1, discount log2(rank + 2)) and no-match accuracy,
 * overall and per query class, for toolsift and the plain-BM25 baseline on
 * the same catalog and queries; the worst queries; floors ("gates"). */
#include <string.h>

#include "base/alloc.h"
#include "eval/baseline.h"
#include "eval/eval_learn.h"
#include "eval/eval_loop.h"
#include "eval/eval_vectors.h"
#include "rank/fusion.h"
#include "index/vectors.h"
#include "cJSON.h"
#include "base/fmt.h"
#include "rank/rank.h"
#include "json/json_check.h"
#include "json/json_out.h"
#include "json/jsonl.h"
#include "base/mathx.h"
#include "json/json_read.h"

#define EVAL_K 10
#define MAX_CLASSES 64

typedef struct metrics {
  size_t judged, nomatch, nomatch_ok;
  double r1, r5, r10, mrr, ndcg;
} metrics;

typedef struct class_row {
  char name[48];
  metrics ours, base, learned;
} class_row;

typedef struct worst {
  size_t line;
  double ndcg;
  char *id, *query, *expected, *got; /* JSON texts */
} worst;

static double log2_(double x) { return tsift_ln(x) / 0.6931471805599453; }

/* Per-query metrics of a ranked list against graded relevance. */
static void score_query(const cJSON *rel, const tsift_catalog *cat, const uint32_t *hits, size_t n,
                        metrics *m, double *ndcg_out) {
  size_t nrel = (size_t)cJSON_GetArraySize(rel);
  if (nrel == 0) {
    m->nomatch++;
    if (n == 0) m->nomatch_ok++;
    *ndcg_out = n == 0 ? 1.0 : 0.0;
    return;
  }
  m->judged++;
  double dcg = 0.0, rr = 0.0;
  size_t found1 = 0, found5 = 0, found10 = 0;
  for (size_t i = 0; i < n && i < EVAL_K; i++) {
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(rel, cat->tools[hits[i]].id);
    double grade = cJSON_IsNumber(g) ? g->valuedouble : 0.0;
    if (grade > 0) {
      if (i < 1) found1++;
      if (i < 5) found5++;
      found10++;
      if (rr == 0.0) rr = 1.0 / (double)(i + 1);
      double gain = 1.0;
      for (int k = 0; k < (int)grade && k < 10; k++) gain *= 2.0;
      dcg += (gain - 1.0) / log2_((double)i + 2.0);
    }
  }
  /* Ideal: grades sorted descending. */
  double grades[EVAL_K] = {0};
  const cJSON *g;
  cJSON_ArrayForEach(g, rel) {
    double v = cJSON_IsNumber(g) ? g->valuedouble : 0.0;
    for (size_t i = 0; i < EVAL_K; i++) {
      if (v > grades[i]) {
        for (size_t j = EVAL_K - 1; j > i; j--) grades[j] = grades[j - 1];
        grades[i] = v;
        break;
      }
    }
  }
  double idcg = 0.0;
  for (size_t i = 0; i < EVAL_K; i++) {
    if (grades[i] <= 0) break;
    double gain = 1.0;
    for (int k = 0; k < (int)grades[i] && k < 10; k++) gain *= 2.0;
    idcg += (gain - 1.0) / log2_((double)i + 2.0);
  }
  double ndcg = idcg > 0 ? dcg / idcg : 0.0;
  m->r1 += (double)found1 / (double)nrel;
  m->r5 += (double)found5 / (double)nrel;
  m->r10 += (double)found10 / (double)nrel;
  m->mrr += rr;
  m->ndcg += ndcg;
  *ndcg_out = ndcg;
}

static void write_metrics(tsift_buf *b, const metrics *m) {
  double j = m->judged ? (double)m->judged : 1.0;
  tsift_json_begin_object(b);
  tsift_json_key_int(b, "judged", (long long)m->judged);
  tsift_json_key_score(b, "r1", m->r1 / j);
  tsift_json_key_score(b, "r5", m->r5 / j);
  tsift_json_key_score(b, "r10", m->r10 / j);
  tsift_json_key_score(b, "mrr", m->mrr / j);
  tsift_json_key_score(b, "ndcg10", m->ndcg / j);
  tsift_json_key_int(b, "noMatchQueries", (long long)m->nomatch);
  tsift_json_key(b, "noMatch");
  if (m->nomatch) tsift_json_score(b, (double)m->nomatch_ok / (double)m->nomatch);
  else tsift_json_null(b);
  tsift_json_end_object(b);
}

static double avg(double sum, size_t n) { return n ? sum / (double)n : 0.0; }

/* A metric of a metrics block by gate name; -1 when unknown. */
static double metric_value(const metrics *m, const char *name) {
  if (strcmp(name, "r1") == 0) return avg(m->r1, m->judged);
  if (strcmp(name, "r5") == 0) return avg(m->r5, m->judged);
  if (strcmp(name, "r10") == 0) return avg(m->r10, m->judged);
  if (strcmp(name, "mrr") == 0) return avg(m->mrr, m->judged);
  if (strcmp(name, "ndcg10") == 0) return avg(m->ndcg, m->judged);
  if (strcmp(name, "noMatch") == 0) return m->nomatch ? (double)m->nomatch_ok / (double)m->nomatch : 1.0;
  return -1.0;
}

/* Check floors {"overall": {metric: floor}, "classes": {class: {metric: floor}}}
 * on toolsift's metrics, or with `learned` on the k-fold learned ones (the
 * gates' "learned" group, whose failures start with "learned "). */
static tsift_status check_gates(const cJSON *gates, const metrics *overall, const class_row *rows, size_t nrows,
                                int learned, tsift_buf *fails, size_t *nfail, tsift_error *err) {
  if (!gates) return TSIFT_OK;
  if (!cJSON_IsObject(gates)) return tsift_fail(err, TSIFT_E_CONFIG, "gates: expected an object");
  const cJSON *group;
  cJSON_ArrayForEach(group, gates) {
    if (strcmp(group->string, "loop") == 0) continue; /* eval_loop.c's */
    if (!learned && strcmp(group->string, "learned") == 0) continue; /* eval_write's */
    int is_overall = strcmp(group->string, "overall") == 0;
    if (!is_overall && strcmp(group->string, "classes") != 0)
      return tsift_fail(err, TSIFT_E_CONFIG, "gates: unknown key \"%.40s\"", group->string);
    const cJSON *entry;
    cJSON_ArrayForEach(entry, group) {
      const metrics *m = overall;
      const cJSON *floors = group;
      const char *cls = NULL;
      if (!is_overall) {
        cls = entry->string;
        m = NULL;
        for (size_t i = 0; i < nrows; i++)
          if (strcmp(rows[i].name, cls) == 0) m = learned ? &rows[i].learned : &rows[i].ours;
        if (!m) return tsift_fail(err, TSIFT_E_CONFIG, "gates: no queries of class \"%.40s\"", cls);
        floors = entry;
      }
      const cJSON *f;
      cJSON_ArrayForEach(f, floors) {
        double v = metric_value(m, f->string);
        if (v < 0 || !cJSON_IsNumber(f))
          return tsift_fail(err, TSIFT_E_CONFIG, "gates: \"%.40s\" is not a metric with a number floor", f->string);
        if (v + 1e-9 < f->valuedouble) {
          char line[200];
          tsift_snprintf(line, sizeof line, "%s%s %s %.4f < floor %.4f", learned ? "learned " : "",
                         cls ? cls : "overall", f->string, v, f->valuedouble);
          tsift_json_cstr(fails, line);
          (*nfail)++;
        }
      }
      if (is_overall) break; /* the overall group is one object of floors */
    }
  }
  return TSIFT_OK;
}

static void write_top(tsift_buf *b, const tsift_catalog *cat, const uint32_t *hits, size_t n) {
  tsift_json_begin_array(b);
  for (size_t i = 0; i < n && i < 3; i++) tsift_json_cstr(b, cat->tools[hits[i]].id);
  tsift_json_end_array(b);
}

/* One evaluation: the index, its baseline, the optional loop evaluation,
 * the metrics so far, the class rows and the worst queries. */
typedef struct evaluation {
  tsift_index *ix;
  tsift_baseline *base;
  eval_loop *loop;
  /* With "learn": the k-fold learned indexes, their metrics and loop. */
  eval_learn *learn;
  eval_loop *loop_learned;
  metrics learned;
  eval_vectors *vecs; /* with --vectors: the query vectors (the tools' are in ix) */
  tsift_stats stats;
  metrics ours, theirs;
  class_row *rows;
  size_t nrows, nqueries;
  worst *worsts;
  size_t nworst, nw;
} evaluation;

static void eval_free(evaluation *e) {
  for (size_t i = 0; i < e->nw; i++) {
    cJSON_free(e->worsts[i].id);
    TSIFT_FREE_ALL(e->worsts[i].query, e->worsts[i].expected, e->worsts[i].got);
  }
  tsift_free(e->worsts);
  tsift_free(e->rows);
  tsift_eval_loop_free(e->loop);
  tsift_eval_loop_free(e->loop_learned);
  tsift_eval_learn_free(e->learn);
  tsift_eval_vectors_free(e->vecs);
  tsift_baseline_free(e->base);
  tsift_index_free(e->ix);
}

/* The eval option "fusion": {"margin": -10..10, "weight": 0..100,
 * "strong": -10..10, "agree": -10..10 | null, read by fusion_params.c;
 * "minSimilarity": -1..1}, other
 * parameters of the fusion rule and the grade's use of similarity to
 * measure (fusion.h, step_grade.c). */
static tsift_status eval_fusion_options(eval_vectors *v, const cJSON *f, tsift_error *err) {
  if (!f) return TSIFT_OK;
  tsift_fusion_params p;
  tsift_eval_vectors_params(v, &p); /* a model's calibrated ones, else the defaults */
  tsift_status st = tsift_fusion_read(f, "eval options: fusion", TSIFT_E_CONFIG, &p, err);
  const cJSON *ms = cJSON_GetObjectItemCaseSensitive(f, "minSimilarity");
  double floor = TSIFT_VEC_MIN_SIMILARITY_OFF;
  if (!st && ms && !(cJSON_IsNumber(ms) && ms->valuedouble >= -1 && ms->valuedouble <= 1))
    st = tsift_fail(err, TSIFT_E_CONFIG, "eval options: fusion.minSimilarity must be a number from -1 to 1");
  if (!st && ms) floor = ms->valuedouble;
  if (!st) tsift_eval_vectors_tune(v, &p, floor);
  return st;
}

/* The index (a JSON Lines catalog becomes an array first), the baseline, the
 * loop evaluation when asked for, and room for the rows. */
/* The index options: the eval option "index" (default {"ids": "lenient"}),
 * with the eval option "annotations" (a vocabulary) added. */
static tsift_status index_options(const cJSON *opts, cJSON **out, tsift_error *err) {
  const cJSON *index_opts = cJSON_GetObjectItemCaseSensitive(opts, "index");
  const cJSON *vocab = cJSON_GetObjectItemCaseSensitive(opts, "annotations");
  cJSON *o = NULL;
  if (index_opts && !cJSON_IsObject(index_opts)) { /* the build reports what is wrong with it */
    *out = cJSON_Duplicate(index_opts, 1);
    return *out ? TSIFT_OK : tsift_nomem(err, "evaluating");
  }
  o = index_opts ? cJSON_Duplicate(index_opts, 1) : cJSON_CreateObject();
  if (o && !index_opts && !cJSON_AddStringToObject(o, "ids", "lenient")) {
    cJSON_Delete(o);
    o = NULL;
  }
  if (o && vocab) {
    if (cJSON_GetObjectItemCaseSensitive(o, "annotations")) {
      cJSON_Delete(o);
      return tsift_fail(err, TSIFT_E_CONFIG, "eval options: annotations given twice (and in \"index\")");
    }
    cJSON *dup = cJSON_Duplicate(vocab, 1);
    if (!dup || !cJSON_AddItemToObject(o, "annotations", dup)) {
      cJSON_Delete(dup);
      cJSON_Delete(o);
      o = NULL;
    }
  }
  *out = o;
  return o ? TSIFT_OK : tsift_nomem(err, "evaluating");
}

/* The index (a JSON Lines catalog becomes an array first), the baseline, the
 * loop evaluation when asked for, with "learn" the k-fold learned indexes
 * (eval_learn.c), and room for the rows. */
static tsift_status eval_open(evaluation *e, const char *catalog, size_t catalog_len, const char *queries,
                              size_t queries_len, const char *vectors, size_t vectors_len,
                              const tsift_static_model *model, const cJSON *opts, tsift_error *err) {
  const cJSON *worst_n = cJSON_GetObjectItemCaseSensitive(opts, "worst");
  const cJSON *loop_opts = cJSON_GetObjectItemCaseSensitive(opts, "loop");
  const cJSON *learn_opts = cJSON_GetObjectItemCaseSensitive(opts, "learn");
  int learning = learn_opts && !cJSON_IsNull(learn_opts) && !cJSON_IsFalse(learn_opts);
  e->nworst = cJSON_IsNumber(worst_n) && worst_n->valuedouble >= 0 && worst_n->valuedouble <= 100
                  ? (size_t)worst_n->valuedouble
                  : 10;
  cJSON *iopts = NULL;
  tsift_status st = index_options(opts, &iopts, err);
  if (!st && learning && (vectors || model || cJSON_GetObjectItemCaseSensitive(iopts, "annotations")))
    st = tsift_fail(err, TSIFT_E_CONFIG,
                    "eval options: learn measures learning from the catalog alone: not with vectors, a model or "
                    "annotations");
  char *itext = st ? NULL : cJSON_PrintUnformatted(iopts);
  char *cat_array = NULL;
  size_t cat_array_len = 0;
  if (!st && !itext) st = tsift_nomem(err, "evaluating");
  if (!st && tsift_jsonl_is_lines(catalog, catalog_len)) {
    cat_array = tsift_jsonl_to_array(catalog, catalog_len, &cat_array_len);
    if (!cat_array) st = tsift_nomem(err, "reading the catalog");
  }
  const char *cat = cat_array ? cat_array : catalog;
  size_t cat_len = cat_array ? cat_array_len : catalog_len;
  if (!st) st = tsift_index_build(cat, cat_len, itext, strlen(itext), &e->ix, err);
  cJSON_free(itext);
  if (!st) st = tsift_baseline_build(&e->ix->catalog, &e->base, err);
  if (!st && vectors) st = tsift_eval_vectors_read(e->ix, vectors, vectors_len, &e->vecs, err);
  if (!st && model) st = tsift_eval_vectors_from_model(e->ix, model, &e->vecs, err);
  if (!st && e->vecs) st = eval_fusion_options(e->vecs, cJSON_GetObjectItemCaseSensitive(opts, "fusion"), err);
  /* Learning is judged by what a search loads: it brings the loop along. */
  const cJSON *true_opt = cJSON_CreateTrue();
  const cJSON *lopts = loop_opts && !cJSON_IsNull(loop_opts) && !cJSON_IsFalse(loop_opts) ? loop_opts
                       : learning                                                        ? true_opt
                                                                                         : NULL;
  if (!st && learning && !true_opt) st = tsift_nomem(err, "evaluating");
  if (!st && lopts) st = tsift_eval_loop_new(e->ix, lopts, &e->loop, err);
  if (!st && learning) st = tsift_eval_loop_new(e->ix, lopts, &e->loop_learned, err);
  if (!st && learning)
    st = tsift_eval_learn_new(cat, cat_len, iopts, e->ix, queries, queries_len, learn_opts,
                              tsift_eval_loop_config(e->loop), &e->learn, err);
  cJSON_Delete((cJSON *)true_opt);
  tsift_free(cat_array);
  cJSON_Delete(iopts);
  e->rows = tsift_calloc_array(MAX_CLASSES, sizeof *e->rows);
  e->worsts = tsift_calloc_array(e->nworst + 1, sizeof *e->worsts);
  if (!st && (!e->rows || !e->worsts)) st = tsift_nomem(err, "evaluating");
  if (!st) tsift_stats_fit(e->ix, NULL, &e->stats);
  return st;
}

/* The row of class `name` (the first MAX_CLASSES classes, by first
 * appearance), or NULL. */
static class_row *class_of(evaluation *e, const char *name) {
  for (size_t i = 0; i < e->nrows; i++)
    if (strncmp(e->rows[i].name, name, sizeof e->rows[i].name - 1) == 0) return &e->rows[i];
  if (e->nrows >= MAX_CLASSES) return NULL;
  class_row *row = &e->rows[e->nrows++];
  tsift_snprintf(row->name, sizeof row->name, "%s", name);
  return row;
}

/* Keep query q among the worst by nDCG (stable: earlier queries win ties). */
static void keep_worst(evaluation *e, const cJSON *q, size_t line_no, double ndcg, const uint32_t *hits, size_t nh) {
  if (!e->nworst) return;
  size_t at = e->nw < e->nworst ? e->nw : e->nworst;
  while (at > 0 && e->worsts[at - 1].ndcg > ndcg) at--;
  if (at >= e->nworst) return;
  if (e->nw == e->nworst) {
    worst *last = &e->worsts[e->nworst - 1];
    cJSON_free(last->id);
    TSIFT_FREE_ALL(last->query, last->expected, last->got);
  }
  size_t top = e->nw < e->nworst ? e->nw : e->nworst - 1;
  memmove(&e->worsts[at + 1], &e->worsts[at], (top - at) * sizeof *e->worsts);
  worst *w = &e->worsts[at];
  memset(w, 0, sizeof *w);
  w->line = line_no;
  w->ndcg = ndcg;
  const cJSON *qid = cJSON_GetObjectItemCaseSensitive(q, "id");
  const cJSON *text = cJSON_GetObjectItemCaseSensitive(q, "query");
  const cJSON *rel = cJSON_GetObjectItemCaseSensitive(q, "relevance");
  if (!rel) rel = cJSON_GetObjectItemCaseSensitive(q, "relevant");
  w->id = qid ? cJSON_PrintUnformatted(qid) : NULL;
  w->query = tsift_strndup(text->valuestring, strlen(text->valuestring));
  tsift_buf eb;
  tsift_buf_init(&eb);
  tsift_json_begin_array(&eb);
  const cJSON *g;
  for (int grade = 3; grade >= 1; grade--) /* best judged first */
    cJSON_ArrayForEach(g, rel) if (cJSON_IsNumber(g) && (int)g->valuedouble == grade && eb.len < 400)
        tsift_json_cstr(&eb, g->string);
  tsift_json_end_array(&eb);
  w->expected = tsift_buf_take(&eb, NULL);
  tsift_buf gb;
  tsift_buf_init(&gb);
  write_top(&gb, &e->ix->catalog, hits, nh);
  w->got = tsift_buf_take(&gb, NULL);
  if (e->nw < e->nworst) e->nw++;
}

/* One line of the queries: toolsift's ranking, the baseline's, the loop's
 * search when on, each scored overall and in the query's class. */
static tsift_status eval_query(evaluation *e, const char *line, size_t n, size_t line_no, tsift_error *err) {
  char what[40];
  tsift_snprintf(what, sizeof what, "queries line %zu", line_no);
  cJSON *q = NULL;
  char *copy = tsift_strndup(line, n);
  if (!copy) return tsift_nomem(err, "evaluating");
  tsift_json_blank_nul_escapes(copy, n); /* a NUL in a query is a space */
  tsift_status st = tsift_json_parse(copy, n, what, &q, err);
  tsift_free(copy);
  if (st) return st;
  const cJSON *text = cJSON_GetObjectItemCaseSensitive(q, "query");
  const cJSON *rel = cJSON_GetObjectItemCaseSensitive(q, "relevance");
  if (!rel) rel = cJSON_GetObjectItemCaseSensitive(q, "relevant");
  const cJSON *cls = cJSON_GetObjectItemCaseSensitive(q, "class");
  if (!cJSON_IsString(text) || !cJSON_IsObject(rel)) {
    cJSON_Delete(q);
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected {\"id\", \"query\": string, \"relevance\": {id: grade}}", what);
  }
  e->nqueries++;
  const tsift_qvec *qv = NULL;
  st = tsift_eval_vectors_query(e->ix, e->vecs, cJSON_GetObjectItemCaseSensitive(q, "id"), text->valuestring, &qv,
                                err);
  tsift_query tq;
  tsift_ranking ranking = {0};
  uint32_t hits[EVAL_K], bhits[EVAL_K];
  size_t nh = 0, nb = 0;
  if (!st) st = tsift_query_analyze(text->valuestring, strlen(text->valuestring), &e->ix->stopwords, &tq, err);
  if (!st) {
    st = tsift_rank_fused(e->ix, &tq, &e->stats, qv, EVAL_K, 0, NULL, &ranking, err);
    tsift_query_free(&tq);
  }
  if (!st) {
    nh = ranking.nhits;
    for (size_t i = 0; i < nh; i++) hits[i] = ranking.hits[i].doc;
    tsift_ranking_free(&ranking);
  }
  if (!st) st = tsift_baseline_rank(e->base, text->valuestring, EVAL_K, bhits, &nb, err);
  const char *cname = cJSON_IsString(cls) ? cls->valuestring : "all";
  if (!st && e->loop) st = tsift_eval_loop_query(e->loop, text->valuestring, qv, rel, cname, err);
  /* With learning: the same query over its fold's learned index. */
  uint32_t lhits[EVAL_K];
  size_t nl = 0;
  if (!st && e->learn) {
    const tsift_stats *lstats = NULL;
    tsift_index *lix = tsift_eval_learn_index(e->learn, q, line_no, &lstats);
    tsift_query lq;
    tsift_ranking lr = {0};
    st = tsift_query_analyze(text->valuestring, strlen(text->valuestring), &lix->stopwords, &lq, err);
    if (!st) {
      st = tsift_rank_fused(lix, &lq, lstats, NULL, EVAL_K, 0, NULL, &lr, err);
      tsift_query_free(&lq);
    }
    if (!st) {
      nl = lr.nhits;
      for (size_t i = 0; i < nl; i++) lhits[i] = lr.hits[i].doc; /* docs number alike in every fold */
      tsift_ranking_free(&lr);
    }
    tsift_eval_loop_set_index(e->loop_learned, lix);
    if (!st) st = tsift_eval_loop_query(e->loop_learned, text->valuestring, NULL, rel, cname, err);
  }
  if (!st) {
    class_row *row = class_of(e, cname);
    double nd_ours = 0, nd_base = 0;
    score_query(rel, &e->ix->catalog, hits, nh, &e->ours, &nd_ours);
    score_query(rel, &e->ix->catalog, bhits, nb, &e->theirs, &nd_base);
    if (e->learn) {
      double tmp;
      score_query(rel, &e->ix->catalog, lhits, nl, &e->learned, &tmp);
      if (row) score_query(rel, &e->ix->catalog, lhits, nl, &row->learned, &tmp);
    }
    if (row) {
      double tmp;
      score_query(rel, &e->ix->catalog, hits, nh, &row->ours, &tmp);
      score_query(rel, &e->ix->catalog, bhits, nb, &row->base, &tmp);
    }
    keep_worst(e, q, line_no, nd_ours, hits, nh);
  }
  cJSON_Delete(q);
  return st;
}

static void write_worst(tsift_buf *b, const worst *w) {
  tsift_json_begin_object(b);
  tsift_json_key(b, "id");
  if (w->id) tsift_json_raw(b, w->id, strlen(w->id));
  else tsift_json_null(b);
  tsift_json_key_cstr(b, "query", w->query ? w->query : "");
  tsift_json_key_score(b, "ndcg10", w->ndcg);
  tsift_json_key(b, "expected");
  if (w->expected) tsift_json_raw(b, w->expected, strlen(w->expected));
  else tsift_json_null(b);
  tsift_json_key(b, "got");
  if (w->got) tsift_json_raw(b, w->got, strlen(w->got));
  else tsift_json_null(b);
  tsift_json_end_object(b);
}

/* The metrics JSON, the gates checked last. */
static tsift_status eval_write(const evaluation *e, const cJSON *gates, tsift_buf *b, tsift_error *err) {
  tsift_json_begin_object(b);
  tsift_json_key_int(b, "queries", (long long)e->nqueries);
  tsift_json_key_int(b, "tools", (long long)e->ix->n);
  char kind[TSIFT_RANKER_KIND_MAX];
  if (e->vecs) tsift_vec_ranker_kind(e->ix, kind);
  tsift_json_key_cstr(b, "ranker", e->vecs ? kind : TSIFT_RANKER_VERSION);
  if (e->vecs) { /* how many queries had a vector (the others ranked lexically) */
    tsift_json_key_int(b, "queryVectors", (long long)tsift_eval_vectors_used(e->vecs));
  }
  tsift_json_key(b, "toolsift");
  write_metrics(b, &e->ours);
  tsift_json_key(b, "baseline");
  write_metrics(b, &e->theirs);
  if (e->learn) {
    tsift_json_key(b, "learned");
    write_metrics(b, &e->learned);
  }
  tsift_json_key(b, "classes");
  tsift_json_begin_object(b);
  for (size_t i = 0; i < e->nrows; i++) {
    tsift_json_key(b, e->rows[i].name);
    tsift_json_begin_object(b);
    tsift_json_key(b, "toolsift");
    write_metrics(b, &e->rows[i].ours);
    tsift_json_key(b, "baseline");
    write_metrics(b, &e->rows[i].base);
    if (e->learn) {
      tsift_json_key(b, "learned");
      write_metrics(b, &e->rows[i].learned);
    }
    tsift_json_end_object(b);
  }
  tsift_json_end_object(b);
  tsift_json_key(b, "worst");
  tsift_json_begin_array(b);
  for (size_t i = 0; i < e->nw; i++) write_worst(b, &e->worsts[i]);
  tsift_json_end_array(b);
  if (e->loop) {
    tsift_json_key(b, "loop");
    tsift_eval_loop_write(e->loop, b);
  }
  if (e->learn) {
    tsift_json_key(b, "learning");
    tsift_eval_learn_write(e->learn, b);
    tsift_json_key(b, "loopLearned");
    tsift_eval_loop_write(e->loop_learned, b);
  }
  tsift_json_key(b, "gates");
  tsift_json_begin_object(b);
  tsift_json_key(b, "failures");
  tsift_json_begin_array(b);
  size_t nfail = 0;
  tsift_status st = check_gates(gates, &e->ours, e->rows, e->nrows, 0, b, &nfail, err);
  const cJSON *loop_gates = cJSON_GetObjectItemCaseSensitive(gates, "loop");
  if (!st && e->loop && loop_gates) st = tsift_eval_loop_gates(e->loop, loop_gates, "", b, &nfail, err);
  /* "learned": the same shape, on the k-fold learned metrics, checked when
   * the evaluation learned (eval option "learn"): one gates file serves a
   * run with learning and one without. */
  const cJSON *learned = e->learn ? cJSON_GetObjectItemCaseSensitive(gates, "learned") : NULL;
  if (!st && learned) st = check_gates(learned, &e->learned, e->rows, e->nrows, 1, b, &nfail, err);
  loop_gates = cJSON_GetObjectItemCaseSensitive(learned, "loop");
  if (!st && learned && loop_gates) st = tsift_eval_loop_gates(e->loop_learned, loop_gates, "learned ", b, &nfail, err);
  tsift_json_end_array(b);
  tsift_json_key_bool(b, "passed", nfail == 0);
  tsift_json_end_object(b);
  tsift_json_end_object(b);
  return st;
}

tsift_status tsift_eval_json(const char *catalog, size_t catalog_len, const char *queries, size_t queries_len,
                             const char *options_json, size_t options_len, char **out, size_t *out_len,
                             tsift_error *err) {
  return tsift_eval_vectors_json(catalog, catalog_len, queries, queries_len, NULL, 0, options_json, options_len, out,
                                 out_len, err);
}

static tsift_status eval_run(const char *catalog, size_t catalog_len, const char *queries, size_t queries_len,
                             const char *vectors, size_t vectors_len, const tsift_static_model *model,
                             const char *options_json, size_t options_len, char **out, size_t *out_len,
                             tsift_error *err);

tsift_status tsift_eval_vectors_json(const char *catalog, size_t catalog_len, const char *queries,
                                     size_t queries_len, const char *vectors, size_t vectors_len,
                                     const char *options_json, size_t options_len, char **out, size_t *out_len,
                                     tsift_error *err) {
  return eval_run(catalog, catalog_len, queries, queries_len, vectors, vectors_len, NULL, options_json, options_len,
                  out, out_len, err);
}

tsift_status tsift_eval_model_json(const char *catalog, size_t catalog_len, const char *queries, size_t queries_len,
                                   const tsift_static_model *model, const char *options_json, size_t options_len,
                                   char **out, size_t *out_len, tsift_error *err) {
  if (!model) return tsift_fail(err, TSIFT_E_ARG, "tsift_eval_model_json: model is NULL");
  return eval_run(catalog, catalog_len, queries, queries_len, NULL, 0, model, options_json, options_len, out,
                  out_len, err);
}

static tsift_status eval_run(const char *catalog, size_t catalog_len, const char *queries, size_t queries_len,
                             const char *vectors, size_t vectors_len, const tsift_static_model *model,
                             const char *options_json, size_t options_len, char **out, size_t *out_len,
                             tsift_error *err) {
  if (!out || (!catalog && catalog_len) || (!queries && queries_len))
    return tsift_fail(err, TSIFT_E_ARG, "tsift_eval_json: NULL argument");
  *out = NULL;
  cJSON *opts = NULL;
  tsift_status st = TSIFT_OK;
  if (options_json && options_len && (st = tsift_json_parse(options_json, options_len, "eval options", &opts, err)))
    return st;
  evaluation e;
  memset(&e, 0, sizeof e);
  st = eval_open(&e, catalog, catalog_len, queries, queries_len, vectors, vectors_len, model, opts, err);
  tsift_jsonl lines;
  tsift_jsonl_init(&lines, queries, queries_len);
  const char *line;
  size_t n;
  while (!st && tsift_jsonl_next(&lines, &line, &n)) st = eval_query(&e, line, n, lines.line, err);
  tsift_buf b;
  tsift_buf_init(&b);
  if (!st) st = eval_write(&e, cJSON_GetObjectItemCaseSensitive(opts, "gates"), &b, err);
  eval_free(&e);
  cJSON_Delete(opts);
  return tsift_buf_finish_unless(st, &b, out, out_len, "writing the evaluation", err);
}

/* ---- the text report -------------------------------------------------- */

/* v with 4 decimals, rounded half away from zero (no printf of doubles). */
static void fixed4(char dst[32], double v) {
  if (!(v >= 0) || v > 1e9) v = 0;
  unsigned long long x = (unsigned long long)(v * 10000.0 + 0.5);
  tsift_snprintf(dst, 32, "%llu.%04llu", x / 10000ULL, x % 10000ULL);
}

static double num(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNumber(v) ? v->valuedouble : -1.0;
}

static void metrics_row(tsift_buf *b, const char *label, const cJSON *m) {
  char line[320], f[6][32];
  const char *keys[] = {"r1", "r5", "r10", "mrr", "ndcg10"};
  for (int i = 0; i < 5; i++) fixed4(f[i], num(m, keys[i]));
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(m, "noMatch");
  if (cJSON_IsNumber(nm)) fixed4(f[5], nm->valuedouble);
  else tsift_snprintf(f[5], sizeof f[5], "-");
  tsift_snprintf(line, sizeof line, "  %-22s %7s %7s %7s %7s %8s %9s\n", label, f[0], f[1], f[2], f[3], f[4], f[5]);
  tsift_buf_append(b, line, strlen(line));
}

/* The loop table: one search per query, what it loaded, per policy. */
static void loop_row_text(tsift_buf *b, const char *label, const cJSON *m) {
  char line[320], f[6][32];
  const char *keys[] = {"primaryLoaded", "primaryShown", "precision", "junkPerSearch", "noMatchClean",
                        "loadedPerSearch"};
  for (int i = 0; i < 6; i++) fixed4(f[i], num(m, keys[i]));
  tsift_snprintf(line, sizeof line, "  %-22s %8s %8s %8s %8s %8s %8s\n", label, f[0], f[1], f[2], f[3], f[4], f[5]);
  tsift_buf_append(b, line, strlen(line));
}

static void loop_report(tsift_buf *b, const cJSON *loop, const char *what) {
  if (!cJSON_IsObject(loop)) return;
  const cJSON *policies = cJSON_GetObjectItemCaseSensitive(loop, "policies");
  const cJSON *overall = cJSON_GetObjectItemCaseSensitive(loop, "overall");
  char line[320];
  tsift_snprintf(line, sizeof line, "  %s: one search per query, what it loads (load: all, then load: %s)\n", what,
                 cJSON_IsString(cJSON_GetArrayItem(policies, 1)) ? cJSON_GetArrayItem(policies, 1)->valuestring : "?");
  tsift_buf_append(b, line, strlen(line));
  tsift_snprintf(line, sizeof line, "  %-22s %8s %8s %8s %8s %8s %8s\n", "", "prim.ld", "prim.sh", "precis.",
                 "junk/q", "nomatch", "load/q");
  tsift_buf_append(b, line, strlen(line));
  const cJSON *p;
  int k = 0;
  cJSON_ArrayForEach(p, overall) {
    const cJSON *name = cJSON_GetArrayItem(policies, k++);
    char label[64];
    tsift_snprintf(label, sizeof label, "load: %.16s", cJSON_IsString(name) ? name->valuestring : "?");
    loop_row_text(b, label, p);
  }
  const cJSON *classes = cJSON_GetObjectItemCaseSensitive(loop, "classes");
  if (cJSON_GetArraySize(classes) > 1) {
    const cJSON *c;
    cJSON_ArrayForEach(c, classes) {
      char label[64];
      const cJSON *all = cJSON_GetArrayItem(c, 0), *chosen = cJSON_GetArrayItem(c, 1);
      tsift_snprintf(label, sizeof label, "%.16s n=%d", c->string, (int)num(all, "queries"));
      loop_row_text(b, label, chosen);
      loop_row_text(b, "  (load: all)", all);
    }
  }
}

tsift_status tsift_eval_report(const char *eval_json, size_t len, const char *title, char **out, size_t *out_len,
                               tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_eval_report: out is NULL");
  *out = NULL;
  cJSON *e = NULL;
  tsift_status st = tsift_json_parse(eval_json, len, "evaluation", &e, err);
  if (st) return st;
  tsift_buf b;
  tsift_buf_init(&b);
  char line[512];
  const cJSON *ours = cJSON_GetObjectItemCaseSensitive(e, "toolsift");
  const cJSON *base = cJSON_GetObjectItemCaseSensitive(e, "baseline");
  tsift_snprintf(line, sizeof line, "%s: %d queries (%d judged, %d no-match) over %d tools, ranker %s\n",
                 title ? title : "eval", (int)num(e, "queries"), (int)num(ours, "judged"),
                 (int)num(ours, "noMatchQueries"), (int)num(e, "tools"),
                 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "ranker"))
               ? cJSON_GetObjectItemCaseSensitive(e, "ranker")->valuestring
               : "?");
  tsift_buf_append(&b, line, strlen(line));
  tsift_snprintf(line, sizeof line, "  %-22s %7s %7s %7s %7s %8s %9s\n", "", "R@1", "R@5", "R@10", "MRR", "nDCG@10",
                 "no-match");
  tsift_buf_append(&b, line, strlen(line));
  metrics_row(&b, "toolsift", ours);
  metrics_row(&b, "plain BM25", base);
  const cJSON *learned = cJSON_GetObjectItemCaseSensitive(e, "learned");
  const cJSON *learning = cJSON_GetObjectItemCaseSensitive(e, "learning");
  if (learned) {
    tsift_snprintf(line, sizeof line, "learned, %d folds", (int)num(learning, "folds"));
    metrics_row(&b, line, learned);
  }
  const cJSON *classes = cJSON_GetObjectItemCaseSensitive(e, "classes");
  if (cJSON_GetArraySize(classes) > 1) {
    const char *head = learned ? "  per class (toolsift, then plain BM25, then learned):\n"
                               : "  per class (toolsift, then plain BM25):\n";
    tsift_buf_append(&b, head, strlen(head));
    const cJSON *c;
    cJSON_ArrayForEach(c, classes) {
      char label[64];
      tsift_snprintf(label, sizeof label, "%.16s n=%d", c->string,
                     (int)(num(cJSON_GetObjectItemCaseSensitive(c, "toolsift"), "judged") +
                     num(cJSON_GetObjectItemCaseSensitive(c, "toolsift"), "noMatchQueries")));
      metrics_row(&b, label, cJSON_GetObjectItemCaseSensitive(c, "toolsift"));
      metrics_row(&b, "  (plain BM25)", cJSON_GetObjectItemCaseSensitive(c, "baseline"));
      if (learned) metrics_row(&b, "  (learned)", cJSON_GetObjectItemCaseSensitive(c, "learned"));
    }
  }
  const cJSON *worst = cJSON_GetObjectItemCaseSensitive(e, "worst");
  if (cJSON_GetArraySize(worst) > 0) {
    tsift_buf_append(&b, "  worst queries (nDCG@10, query, expected -> got):\n", 51);
    const cJSON *w;
    cJSON_ArrayForEach(w, worst) {
      char nd[32];
      fixed4(nd, num(w, "ndcg10"));
      char *exp = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(w, "expected"));
      char *got = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(w, "got"));
      const cJSON *q = cJSON_GetObjectItemCaseSensitive(w, "query");
      const char *qs = cJSON_IsString(q) ? q->valuestring : "";
      size_t qn = tsift_utf8_cut(qs, strlen(qs), 70);
      tsift_snprintf(line, sizeof line, "    %s  %.*s%s\n      %.180s -> %.180s\n", nd, (int)qn, qs,
                     qn < strlen(qs) ? "..." : "", exp ? exp : "", got ? got : "");
      tsift_buf_append(&b, line, strlen(line));
      cJSON_free(exp);
      cJSON_free(got);
    }
  }
  loop_report(&b, cJSON_GetObjectItemCaseSensitive(e, "loop"), "loop");
  if (learned) {
    char noise[32];
    fixed4(noise, num(learning, "noise"));
    tsift_snprintf(line, sizeof line,
                   "  learning: %d simulated runs (%d noisy, %d of them one abusive client's), noise %s\n",
                   (int)num(learning, "sessions"), (int)num(learning, "noisySessions"),
                   (int)num(learning, "abusiveSessions"), noise);
    tsift_buf_append(&b, line, strlen(line));
    loop_report(&b, cJSON_GetObjectItemCaseSensitive(e, "loopLearned"), "loop, learned");
  }
  const cJSON *gates = cJSON_GetObjectItemCaseSensitive(e, "gates");
  const cJSON *fails = cJSON_GetObjectItemCaseSensitive(gates, "failures");
  if (cJSON_GetArraySize(fails) > 0) {
    tsift_buf_append(&b, "  GATES FAILED:\n", 16);
    const cJSON *f;
    cJSON_ArrayForEach(f, fails) {
      tsift_snprintf(line, sizeof line, "    %s\n", cJSON_IsString(f) ? f->valuestring : "?");
      tsift_buf_append(&b, line, strlen(line));
    }
  }
  cJSON_Delete(e);
  return tsift_buf_finish(&b, out, out_len, "writing the report", err);
}
