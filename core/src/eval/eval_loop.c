/* eval_loop.c — the loop evaluation (docs/relevance.md, "The loop"): what
 * a search LOADS, as the model experiences it. For every graded query, one
 * fresh session over the evaluated index makes one search_tools call, and
 * the tools its result lists and loads are scored against the grades —
 * once with "load": "all" (every hit loaded, the behaviour before match
 * grades) and once with the configured policy (default "strong"). The
 * session is the real one (session*.c): the evaluation reads the result
 * JSON the model would read, nothing else. */
#include "eval/eval_loop.h"

#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "catalog/ids.h"
#include "eval/simulate.h"
#include "json/json_check.h"
#include "session/session_internal.h"
#include "json/json_read.h"

#define LOOP_MAX_CLASSES 64
#define LOOP_POLICIES 2

typedef struct loop_metrics {
  size_t queries, answerable, nomatch;
  size_t primary_loaded, primary_shown, loaded, relevant_loaded, irrelevant_loaded, nomatch_clean;
} loop_metrics;

typedef struct loop_row {
  char name[48];
  loop_metrics m[LOOP_POLICIES];
} loop_row;

struct eval_loop {
  tsift_index *ix;          /* borrowed */
  char *config[LOOP_POLICIES]; /* each policy's session configuration */
  char *label[LOOP_POLICIES];
  loop_metrics overall[LOOP_POLICIES];
  loop_row *rows;
  size_t nrows;
};

void tsift_eval_loop_free(eval_loop *l) {
  if (!l) return;
  for (int p = 0; p < LOOP_POLICIES; p++) {
    tsift_free(l->config[p]);
    tsift_free(l->label[p]);
  }
  tsift_free(l->rows);
  tsift_free(l);
}

/* The session configuration of a policy: the given "search" settings with
 * "load" set (and no overview: it changes no search). */
static char *policy_config(const cJSON *search, const char *load) {
  tsift_buf b;
  tsift_json_open_object(&b);
  tsift_json_key(&b, "search");
  tsift_json_begin_object(&b);
  const cJSON *item;
  cJSON_ArrayForEach(item, search) {
    if (strcmp(item->string, "load") == 0 || strcmp(item->string, "overview") == 0) continue;
    char *text = cJSON_PrintUnformatted(item);
    if (!text) {
      tsift_buf_free(&b);
      return NULL;
    }
    tsift_json_key(&b, item->string);
    tsift_json_raw(&b, text, strlen(text));
    cJSON_free(text);
  }
  tsift_json_key_cstr(&b, "load", load);
  tsift_json_key_bool(&b, "overview", 0);
  tsift_json_end_object(&b);
  tsift_json_end_object(&b);
  return tsift_buf_take(&b, NULL);
}

tsift_status tsift_eval_loop_new(tsift_index *ix, const cJSON *opts, eval_loop **out, tsift_error *err) {
  *out = NULL;
  if (!cJSON_IsObject(opts) && !cJSON_IsTrue(opts))
    return tsift_fail(err, TSIFT_E_CONFIG, "eval options: \"loop\" must be true or the \"search\" settings of "
                                           "a session configuration");
  const cJSON *search = cJSON_IsObject(opts) ? opts : NULL;
  const cJSON *load = cJSON_GetObjectItemCaseSensitive(search, "load");
  const char *policy = cJSON_IsString(load) ? load->valuestring : "strong";
  eval_loop *l = tsift_calloc_array(1, sizeof *l);
  if (!l) return tsift_nomem(err, "evaluating the loop");
  l->ix = ix;
  const char *loads[LOOP_POLICIES] = {"all", policy};
  l->rows = tsift_calloc_array(LOOP_MAX_CLASSES, sizeof *l->rows);
  for (int p = 0; p < LOOP_POLICIES; p++) {
    l->config[p] = policy_config(search, loads[p]);
    l->label[p] = tsift_strndup(loads[p], strlen(loads[p]));
  }
  for (int p = 0; p < LOOP_POLICIES; p++)
    if (!l->config[p] || !l->label[p] || !l->rows) {
      tsift_eval_loop_free(l);
      return tsift_nomem(err, "evaluating the loop");
    }
  /* The configuration must be one a session takes (a typo in it is the
   * caller's error, not every query's). */
  for (int p = 0; p < LOOP_POLICIES; p++) {
    tsift_session *s = NULL;
    tsift_status st = tsift_session_over_index(l->config[p], strlen(l->config[p]), ix, NULL, 0, &s, err);
    tsift_session_free(s);
    if (st) {
      tsift_eval_loop_free(l);
      return st == TSIFT_E_NOMEM ? st : tsift_error_prefix(err, st, "eval options: loop");
    }
  }
  *out = l;
  return TSIFT_OK;
}

/* The grade of the tool a result names by its menu name; gold labels name
 * tools by catalog id, which differs for a renamed tool (ids.c). */
static double grade_of(const cJSON *rel, const tsift_catalog *c, const char *name) {
  long d = tsift_catalog_find_renamed(c, name, 1);
  const cJSON *g = cJSON_GetObjectItemCaseSensitive(rel, d >= 0 ? c->tools[d].id : name);
  return cJSON_IsNumber(g) ? g->valuedouble : 0.0;
}

/* Score one search's result (the JSON the model reads) into m. */
static void score_result(const cJSON *result, const cJSON *rel, const tsift_catalog *c, loop_metrics *m) {
  double top = 0.0;
  const cJSON *g;
  cJSON_ArrayForEach(g, rel) if (cJSON_IsNumber(g) && g->valuedouble > top) top = g->valuedouble;
  int answerable = top > 0.0, primary_loaded = 0, primary_shown = 0;
  size_t loaded = 0;
  const cJSON *t;
  cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(result, "tools")) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
    int is_loaded = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "loaded"));
    double grade = cJSON_IsString(name) ? grade_of(rel, c, name->valuestring) : 0.0;
    if (answerable && grade >= top) {
      primary_shown = 1;
      primary_loaded |= is_loaded;
    }
    if (!is_loaded) continue;
    loaded++;
    if (grade > 0.0) m->relevant_loaded++;
    else m->irrelevant_loaded++;
  }
  m->queries++;
  m->loaded += loaded;
  if (answerable) {
    m->answerable++;
    m->primary_loaded += (size_t)primary_loaded;
    m->primary_shown += (size_t)primary_shown;
  } else {
    m->nomatch++;
    m->nomatch_clean += loaded == 0;
  }
}

tsift_status tsift_eval_loop_query(eval_loop *l, const char *query, const struct tsift_qvec *qv, const cJSON *rel,
                                   const char *cls, tsift_error *err) {
  loop_row *row = NULL;
  for (size_t i = 0; i < l->nrows && !row; i++)
    if (strncmp(l->rows[i].name, cls, sizeof l->rows[i].name - 1) == 0) row = &l->rows[i];
  if (!row && l->nrows < LOOP_MAX_CLASSES) {
    row = &l->rows[l->nrows++];
    tsift_snprintf(row->name, sizeof row->name, "%s", cls);
  }
  tsift_buf args;
  tsift_status st = tsift_sim_search_args(&args, query, "evaluating the loop", err);
  if (st) return st;
  for (int p = 0; p < LOOP_POLICIES && !st; p++) {
    tsift_session *s = NULL;
    char *out = NULL;
    size_t out_len = 0;
    cJSON *o = NULL;
    st = tsift_session_over_index(l->config[p], strlen(l->config[p]), l->ix, NULL, 0, &s, err);
    if (!st && qv) st = tsift_session_use_qvec(s, qv, err);
    if (!st) {
      const char *tool = s->tool_name;
      st = tsift_session_call(s, 0, 0, tool, strlen(tool), args.data, args.len, &out, &out_len, err);
    }
    if (!st) st = tsift_json_parse(out, out_len, "a search result", &o, err);
    if (!st) {
      const cJSON *result = cJSON_GetObjectItemCaseSensitive(o, "result");
      score_result(result, rel, &l->ix->catalog, &l->overall[p]);
      if (row) score_result(result, rel, &l->ix->catalog, &row->m[p]);
    }
    cJSON_Delete(o);
    tsift_free(out);
    tsift_session_free(s);
  }
  tsift_buf_free(&args);
  return st;
}

void tsift_eval_loop_set_index(eval_loop *l, tsift_index *ix) { l->ix = ix; }

/* The session configuration of the configured policy (the second). */
const char *tsift_eval_loop_config(const eval_loop *l) { return l->config[LOOP_POLICIES - 1]; }

static double share(size_t a, size_t b) { return b ? (double)a / (double)b : 0.0; }

/* A loop metric by gate name; -1 when unknown. */
static double loop_value(const loop_metrics *m, const char *name) {
  if (strcmp(name, "primaryLoaded") == 0) return share(m->primary_loaded, m->answerable);
  if (strcmp(name, "primaryShown") == 0) return share(m->primary_shown, m->answerable);
  if (strcmp(name, "precision") == 0) return m->loaded ? share(m->relevant_loaded, m->loaded) : 1.0;
  if (strcmp(name, "junkPerSearch") == 0) return share(m->irrelevant_loaded, m->queries);
  if (strcmp(name, "noMatchClean") == 0) return m->nomatch ? share(m->nomatch_clean, m->nomatch) : 1.0;
  if (strcmp(name, "loadedPerSearch") == 0) return share(m->loaded, m->queries);
  return -1.0;
}

static const char *const k_metrics[] = {"primaryLoaded", "primaryShown",  "precision",
                                        "junkPerSearch", "noMatchClean", "loadedPerSearch"};
#define NMETRICS (sizeof k_metrics / sizeof *k_metrics)

static void write_metrics(tsift_buf *b, const loop_metrics *m) {
  tsift_json_begin_object(b);
  tsift_json_key_int(b, "queries", (long long)m->queries);
  tsift_json_key_int(b, "answerable", (long long)m->answerable);
  tsift_json_key_int(b, "noMatchQueries", (long long)m->nomatch);
  for (size_t k = 0; k < NMETRICS; k++) tsift_json_key_score(b, k_metrics[k], loop_value(m, k_metrics[k]));
  tsift_json_end_object(b);
}

void tsift_eval_loop_write(const eval_loop *l, tsift_buf *b) {
  tsift_json_begin_object(b);
  tsift_json_key(b, "policies");
  tsift_json_begin_array(b);
  for (int p = 0; p < LOOP_POLICIES; p++) tsift_json_cstr(b, l->label[p]);
  tsift_json_end_array(b);
  tsift_json_key(b, "overall");
  tsift_json_begin_array(b);
  for (int p = 0; p < LOOP_POLICIES; p++) write_metrics(b, &l->overall[p]);
  tsift_json_end_array(b);
  tsift_json_key(b, "classes");
  tsift_json_begin_object(b);
  for (size_t i = 0; i < l->nrows; i++) {
    tsift_json_key(b, l->rows[i].name);
    tsift_json_begin_array(b);
    for (int p = 0; p < LOOP_POLICIES; p++) write_metrics(b, &l->rows[i].m[p]);
    tsift_json_end_array(b);
  }
  tsift_json_end_object(b);
  tsift_json_end_object(b);
}

/* Gates on the configured policy (the second): {"overall": {metric: bound},
 * "classes": {class: {metric: bound}}}; junkPerSearch and loadedPerSearch
 * are ceilings, the others floors. */
tsift_status tsift_eval_loop_gates(const eval_loop *l, const cJSON *gates, const char *prefix, tsift_buf *fails,
                                   size_t *nfail, tsift_error *err) {
  if (!cJSON_IsObject(gates)) return tsift_fail(err, TSIFT_E_CONFIG, "gates: loop: expected an object");
  const cJSON *group;
  cJSON_ArrayForEach(group, gates) {
    int overall = strcmp(group->string, "overall") == 0;
    if (!overall && strcmp(group->string, "classes") != 0)
      return tsift_fail(err, TSIFT_E_CONFIG, "gates: loop: unknown key \"%.40s\"", group->string);
    const cJSON *entry;
    cJSON_ArrayForEach(entry, group) {
      const loop_metrics *m = &l->overall[LOOP_POLICIES - 1];
      const cJSON *bounds = overall ? group : entry;
      const char *cls = overall ? "overall" : entry->string;
      if (!overall) {
        m = NULL;
        for (size_t i = 0; i < l->nrows; i++)
          if (strcmp(l->rows[i].name, cls) == 0) m = &l->rows[i].m[LOOP_POLICIES - 1];
        if (!m) return tsift_fail(err, TSIFT_E_CONFIG, "gates: loop: no queries of class \"%.40s\"", cls);
      }
      const cJSON *f;
      cJSON_ArrayForEach(f, bounds) {
        double v = loop_value(m, f->string);
        if (v < 0 || !cJSON_IsNumber(f))
          return tsift_fail(err, TSIFT_E_CONFIG, "gates: loop: \"%.40s\" is not a loop metric with a number bound",
                            f->string);
        int ceiling = strcmp(f->string, "junkPerSearch") == 0 || strcmp(f->string, "loadedPerSearch") == 0;
        int bad = ceiling ? v > f->valuedouble + 1e-9 : v + 1e-9 < f->valuedouble;
        if (bad) {
          char line[200];
          tsift_snprintf(line, sizeof line, "%sloop %s %s %.4f %s %.4f", prefix, cls, f->string, v,
                         ceiling ? "> ceiling" : "< floor", f->valuedouble);
          tsift_json_cstr(fails, line);
          (*nfail)++;
        }
      }
      if (overall) break; /* the overall group is one object of bounds */
    }
  }
  return TSIFT_OK;
}
