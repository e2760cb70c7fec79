/* eval_learn.c — learning measured by k-fold simulation (eval_learn.h).
 *
 * Every graded query stands for one user's run: its fold is a hash of its
 * id (the same split on every machine), its run is simulated over the
 * evaluated index (simulate.c) by a client of its own, and its journal is
 * evidence for every fold but its own. With "noise" p, a share p of the
 * runs (chosen by hash) are noisy: three in four are an agent's mistake (it
 * calls the first listed tool the query does not grade, a client each), one
 * in four is one abusive client repeating the set's first request and
 * calling one fixed wrong tool. Each fold's learner (learn.c) then writes
 * its vocabulary, and the fold's index is built as the evaluated one was,
 * with that vocabulary as its "annotations". */
#include "eval/eval_learn.h"

#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "base/fmt.h"
#include "json/json_check.h"
#include "json/jsonl.h"
#include "learn/learn.h"
#include "rank/rank.h"
#include "eval/simulate.h"
#include "json/json_read.h"

#define FOLDS_DEFAULT 5
#define FOLDS_MAX 20

struct eval_learn {
  unsigned folds;
  double noise;
  int examples; /* "from": "examples": the other folds' queries as the host's labelled examples */
  tsift_index *ix[FOLDS_MAX];
  tsift_stats stats[FOLDS_MAX];
  size_t labels[FOLDS_MAX];
  size_t sessions, noisy, abusive;
};

void tsift_eval_learn_free(eval_learn *el) {
  if (!el) return;
  for (unsigned f = 0; f < el->folds; f++) tsift_index_free(el->ix[f]);
  tsift_free(el);
}

/* A query's key: its id (a string's bytes, else its JSON), else its line. */
static uint32_t query_hash(const cJSON *q, size_t line_no, const char *salt) {
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(q, "id");
  char buf[64];
  uint32_t h = tsift_fnv1a(salt, strlen(salt));
  if (cJSON_IsString(id)) return tsift_fnv_more(h, id->valuestring, strlen(id->valuestring));
  int n = cJSON_IsNumber(id) && tsift_json_integral(id, -9007199254740992.0, 9007199254740992.0)
              ? tsift_snprintf(buf, sizeof buf, "%lld", (long long)id->valuedouble)
              : tsift_snprintf(buf, sizeof buf, "line %zu", line_no);
  return tsift_fnv_more(h, buf, n > 0 ? (size_t)n : 0);
}

static unsigned fold_of(const eval_learn *el, const cJSON *q, size_t line_no) {
  return query_hash(q, line_no, "fold") % el->folds;
}

/* A query line as the evaluation reads it (a NUL escape is a space). */
static tsift_status read_query(const char *line, size_t n, size_t line_no, cJSON **q, tsift_error *err) {
  char what[40];
  tsift_snprintf(what, sizeof what, "queries line %zu", line_no);
  char *copy = tsift_strndup(line, n);
  if (!copy) return tsift_nomem(err, "evaluating");
  tsift_json_blank_nul_escapes(copy, n);
  tsift_status st = tsift_json_parse(copy, n, what, q, err);
  tsift_free(copy);
  return st;
}

tsift_index *tsift_eval_learn_index(const eval_learn *el, const cJSON *q, size_t line_no, const tsift_stats **stats) {
  unsigned f = fold_of(el, q, line_no);
  *stats = &el->stats[f];
  return el->ix[f];
}

static tsift_status read_learn_options(eval_learn *el, const cJSON *o, cJSON **rule, tsift_error *err) {
  el->folds = FOLDS_DEFAULT;
  *rule = cJSON_CreateObject();
  if (!*rule) return tsift_nomem(err, "evaluating");
  if (cJSON_IsTrue(o)) return TSIFT_OK;
  if (!cJSON_IsObject(o))
    return tsift_fail(err, TSIFT_E_CONFIG, "eval options: learn: expected true or {\"folds\", \"noise\", rule options}");
  const cJSON *item;
  cJSON_ArrayForEach(item, o) {
    if (strcmp(item->string, "folds") == 0) {
      if (!tsift_json_integral(item, 2, FOLDS_MAX))
        return tsift_fail(err, TSIFT_E_CONFIG, "eval options: learn.folds: expected an integer from 2 to %d", FOLDS_MAX);
      el->folds = (unsigned)item->valuedouble;
    } else if (strcmp(item->string, "from") == 0) {
      if (cJSON_IsString(item) && strcmp(item->valuestring, "runs") == 0) el->examples = 0;
      else if (cJSON_IsString(item) && strcmp(item->valuestring, "examples") == 0) el->examples = 1;
      else return tsift_fail(err, TSIFT_E_CONFIG, "eval options: learn.from: expected \"runs\" or \"examples\"");
    } else if (strcmp(item->string, "noise") == 0) {
      if (!cJSON_IsNumber(item) || !(item->valuedouble >= 0.0 && item->valuedouble <= 1.0))
        return tsift_fail(err, TSIFT_E_CONFIG, "eval options: learn.noise: expected a share from 0 to 1");
      el->noise = item->valuedouble;
    } else if (strcmp(item->string, "minSessions") == 0 || strcmp(item->string, "minClients") == 0 ||
               strcmp(item->string, "maxPerClient") == 0 || strcmp(item->string, "minShare") == 0 ||
               strcmp(item->string, "minExamples") == 0) {
      cJSON *dup = cJSON_Duplicate(item, 1);
      if (!dup || !cJSON_AddItemToObject(*rule, item->string, dup)) {
        cJSON_Delete(dup);
        return tsift_nomem(err, "evaluating");
      }
    } else {
      return tsift_fail(err, TSIFT_E_CONFIG, "eval options: learn: unknown key \"%.40s\"", item->string);
    }
  }
  return TSIFT_OK;
}

/* Simulate every query's run and hand its journal to the learners of the
 * other folds. */
static tsift_status simulate_all(eval_learn *el, tsift_index *base, const char *queries, size_t queries_len,
                                 const char *config, tsift_learner **learners, tsift_error *err) {
  tsift_jsonl it;
  tsift_jsonl_init(&it, queries, queries_len);
  const char *line;
  size_t n;
  char *abuse_query = NULL; /* the abusive client's one request (the set's first) */
  long abuse_tool = -1;
  tsift_status st = TSIFT_OK;
  while (!st && tsift_jsonl_next(&it, &line, &n)) {
    cJSON *q = NULL;
    if ((st = read_query(line, n, it.line, &q, err))) break;
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(q, "query");
    const cJSON *rel = cJSON_GetObjectItemCaseSensitive(q, "relevance");
    if (!rel) rel = cJSON_GetObjectItemCaseSensitive(q, "relevant");
    if (!cJSON_IsString(text) || !cJSON_IsObject(rel)) { /* eval.c reports it */
      cJSON_Delete(q);
      continue;
    }
    if (!abuse_query) {
      abuse_query = tsift_strndup(text->valuestring, strlen(text->valuestring));
      if (!abuse_query) st = tsift_nomem(err, "evaluating");
      /* the wrong tool: the first in catalog order the request does not grade */
      for (size_t d = 0; d < base->n && abuse_tool < 0; d++)
        if (!cJSON_GetObjectItemCaseSensitive(rel, base->catalog.tools[d].id)) abuse_tool = (long)d;
    }
    if (el->examples) { /* the line itself is an example in the eval format */
      unsigned fold = fold_of(el, q, it.line);
      for (unsigned f = 0; f < el->folds && !st; f++)
        if (f != fold) st = tsift_learner_add_examples(learners[f], "queries", line, n, err);
      el->sessions++;
      cJSON_Delete(q);
      continue;
    }
    uint32_t h = query_hash(q, it.line, "noise");
    int noisy = el->noise > 0.0 && (double)(h % 10000u) < el->noise * 10000.0;
    int abusive = noisy && ((h >> 16) & 3u) == 0 && abuse_tool >= 0;
    char client[48];
    tsift_snprintf(client, sizeof client, abusive ? "abuser" : "user-%zu", it.line);
    sim_run run = {config, client, abusive ? abuse_query : text->valuestring, rel,
                   abusive ? abuse_tool : noisy ? SIM_WRONG_LISTED : SIM_WRONG_NONE};
    char *journal = NULL;
    size_t jlen = 0;
    if (!st) st = tsift_simulate_run(base, &run, &journal, &jlen, err);
    unsigned fold = fold_of(el, q, it.line);
    char name[48];
    tsift_snprintf(name, sizeof name, "simulated run %zu", it.line);
    for (unsigned f = 0; f < el->folds && !st; f++)
      if (f != fold) st = tsift_learner_add_journal(learners[f], name, journal, jlen, err);
    tsift_free(journal);
    el->sessions++;
    el->noisy += (size_t)noisy;
    el->abusive += (size_t)abusive;
    cJSON_Delete(q);
  }
  tsift_free(abuse_query);
  return st;
}

/* A fold's index: the evaluated index's catalog and options with the
 * learned vocabulary as "annotations". */
static tsift_status fold_index(const char *catalog, size_t catalog_len, const cJSON *index_opts, const char *learned,
                               size_t learned_len, tsift_index **out, size_t *labels, tsift_error *err) {
  cJSON *vocab = NULL, *opts = cJSON_Duplicate(index_opts, 1);
  tsift_status st = opts ? tsift_json_parse(learned, learned_len, "a learned vocabulary", &vocab, err)
                         : tsift_nomem(err, "evaluating");
  if (!st && !cJSON_AddItemToObject(opts, "annotations", vocab)) {
    cJSON_Delete(vocab);
    st = tsift_nomem(err, "evaluating");
  }
  *labels = 0;
  const cJSON *entry, *list;
  if (!st)
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(vocab, "annotations")) cJSON_ArrayForEach(list, entry)
        *labels += (size_t)cJSON_GetArraySize(list);
  char *text = st ? NULL : cJSON_PrintUnformatted(opts);
  if (!st && !text) st = tsift_nomem(err, "evaluating");
  if (!st) st = tsift_index_build(catalog, catalog_len, text, strlen(text), out, err);
  cJSON_free(text);
  cJSON_Delete(opts);
  return st;
}

tsift_status tsift_eval_learn_new(const char *catalog, size_t catalog_len, const cJSON *index_opts, tsift_index *base,
                                  const char *queries, size_t queries_len, const cJSON *learn_opts,
                                  const char *session_config, eval_learn **out, tsift_error *err) {
  *out = NULL;
  eval_learn *el = tsift_calloc_array(1, sizeof *el);
  if (!el) return tsift_nomem(err, "evaluating");
  cJSON *rule = NULL;
  tsift_learner *learners[FOLDS_MAX] = {0};
  tsift_status st = read_learn_options(el, learn_opts, &rule, err);
  for (unsigned f = 0; f < el->folds && !st; f++) st = tsift_learner_over_index(base, rule, &learners[f], err);
  if (!st) st = simulate_all(el, base, queries, queries_len, session_config, learners, err);
  for (unsigned f = 0; f < el->folds && !st; f++) {
    char *learned = NULL;
    size_t len = 0;
    st = tsift_learner_finish(learners[f], &learned, &len, err);
    if (!st) st = fold_index(catalog, catalog_len, index_opts, learned, len, &el->ix[f], &el->labels[f], err);
    if (!st) tsift_stats_fit(el->ix[f], NULL, &el->stats[f]);
    tsift_free(learned);
  }
  for (unsigned f = 0; f < FOLDS_MAX; f++) tsift_learner_free(learners[f]);
  cJSON_Delete(rule);
  if (st) {
    tsift_eval_learn_free(el);
    return st;
  }
  *out = el;
  return TSIFT_OK;
}

void tsift_eval_learn_write(const eval_learn *el, tsift_buf *b) {
  tsift_json_begin_object(b);
  tsift_json_key_int(b, "folds", el->folds);
  tsift_json_key_cstr(b, "from", el->examples ? "examples" : "runs");
  tsift_json_key_score(b, "noise", el->noise);
  tsift_json_key_int(b, "sessions", (long long)el->sessions);
  tsift_json_key_int(b, "noisySessions", (long long)el->noisy);
  tsift_json_key_int(b, "abusiveSessions", (long long)el->abusive);
  tsift_json_key(b, "labels");
  tsift_json_begin_array(b);
  for (unsigned f = 0; f < el->folds; f++) tsift_json_int(b, (long long)el->labels[f]);
  tsift_json_end_array(b);
  tsift_json_end_object(b);
}
