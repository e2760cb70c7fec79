/* simulate.c — an agent's run over one graded request, through a real
 * session (simulate.h): the journal it leaves is what learning reads, so
 * the evaluation of learning (eval_learn.c) measures the rule on records of
 * the same shape real runs write. */
#include "eval/simulate.h"

#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "json/json_check.h"
#include "json/json_out.h"
#include "session/session_internal.h"
#include "json/json_read.h"

typedef struct sim {
  tsift_session *s;
  uint32_t turn;
  tsift_error *err;
} sim;

/* One call; its parsed output into *o (NULL on a refusal that is no
 * error). */
static tsift_status sim_call(sim *m, const char *tool, const char *args, cJSON **o) {
  char *out = NULL;
  size_t len = 0;
  *o = NULL;
  tsift_status st = tsift_session_call(m->s, m->turn++, 0, tool, strlen(tool), args, strlen(args), &out, &len, m->err);
  if (!st && o) st = tsift_json_parse(out, len, "a simulated call", o, m->err);
  tsift_free(out);
  return st;
}

tsift_status tsift_sim_search_args(tsift_buf *b, const char *query, const char *what, tsift_error *err) {
  tsift_buf_init(b);
  tsift_json_begin_object(b);
  tsift_json_key_cstr(b, "query", query);
  tsift_json_end_object(b);
  if (!b->failed) return TSIFT_OK;
  tsift_buf_free(b);
  return tsift_nomem(err, what);
}

static tsift_status sim_search(sim *m, const char *query, cJSON **o) {
  tsift_buf b;
  tsift_status st = tsift_sim_search_args(&b, query, "simulating a run", m->err);
  if (st) return st;
  st = sim_call(m, m->s->tool_name, b.data, o);
  tsift_buf_free(&b);
  return st;
}

/* How a search result shows tool `id`: 2 loaded, 1 listed, 0 not. */
static int shown(const cJSON *out, const char *id) {
  const cJSON *t;
  cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(out, "result"), "tools")) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
    if (cJSON_IsString(name) && strcmp(name->valuestring, id) == 0)
      return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "loaded")) ? 2 : 1;
  }
  return 0;
}

/* The words of a tool's name, as a model rephrasing with the catalog's
 * words would search: "create_refund" → "create refund". */
static void name_words(const char *name, char *out, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; name[i] && o + 1 < cap; i++) {
    char c = name[i];
    out[o++] = (c == '_' || c == '-' || c == '.' || c == ':') ? ' ' : c;
  }
  out[o] = 0;
}

static tsift_status get_tool(sim *m, const tsift_index *ix, const cJSON *first, uint32_t d) {
  const char *id = ix->catalog.tools[d].menu_name;
  int how = shown(first, id);
  tsift_status st = TSIFT_OK;
  cJSON *o = NULL;
  if (how == 0) { /* search again with the catalog's words */
    char q[300];
    name_words(ix->catalog.tools[d].name, q, sizeof q);
    st = sim_search(m, q, &o);
    how = st ? 0 : shown(o, id);
    cJSON_Delete(o);
    o = NULL;
  }
  if (!st && how < 2) { /* listed (or still missing): load it by name */
    char args[400];
    char esc[300];
    size_t k = 0;
    for (size_t i = 0; id[i] && k + 2 < sizeof esc; i++) { /* ids are strict here: no quote or backslash */
      if (id[i] == '"' || id[i] == '\\') esc[k++] = '\\';
      esc[k++] = id[i];
    }
    esc[k] = 0;
    tsift_snprintf(args, sizeof args, "{\"query\":\"select:%s\"}", esc);
    st = sim_call(m, m->s->tool_name, args, &o);
    cJSON_Delete(o);
  }
  return st;
}

tsift_status tsift_simulate_run(tsift_index *ix, const sim_run *run, char **journal, size_t *len, tsift_error *err) {
  *journal = NULL;
  tsift_buf opts;
  tsift_buf_init(&opts);
  tsift_json_begin_object(&opts);
  tsift_json_key_cstr(&opts, "client", run->client);
  tsift_json_end_object(&opts);
  if (opts.failed) {
    tsift_buf_free(&opts);
    return tsift_nomem(err, "simulating a run");
  }
  sim m = {NULL, 0, err};
  tsift_status st = tsift_session_over_index(run->config, strlen(run->config), ix, opts.data, opts.len, &m.s, err);
  tsift_buf_free(&opts);
  if (st) return st;
  /* The tools the agent means: the wrong one, or those of the top grade. */
  uint32_t targets[32];
  size_t nt = 0;
  if (run->wrong >= 0) {
    targets[nt++] = (uint32_t)run->wrong;
  } else if (run->wrong == SIM_WRONG_NONE) {
    double top = 0.0;
    const cJSON *g;
    cJSON_ArrayForEach(g, run->relevance) if (cJSON_IsNumber(g) && g->valuedouble > top) top = g->valuedouble;
    cJSON_ArrayForEach(g, run->relevance) {
      long d = cJSON_IsNumber(g) && top > 0.0 && g->valuedouble >= top ? tsift_session_find_doc(m.s, g->string) : -1;
      if (d >= 0 && nt < sizeof targets / sizeof *targets) targets[nt++] = (uint32_t)d;
    }
  }
  cJSON *first = NULL;
  st = sim_search(&m, run->query, &first);
  if (!st && run->wrong == SIM_WRONG_LISTED) {
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(first, "result"), "tools")) {
      const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
      long d = cJSON_IsString(name) ? tsift_session_find_doc(m.s, name->valuestring) : -1;
      if (d >= 0 && !cJSON_GetObjectItemCaseSensitive(run->relevance, name->valuestring)) {
        targets[nt++] = (uint32_t)d;
        break;
      }
    }
  }
  for (size_t i = 0; i < nt && !st; i++) st = get_tool(&m, ix, first, targets[i]);
  for (size_t i = 0; i < nt && !st; i++) {
    cJSON *o = NULL;
    st = sim_call(&m, ix->catalog.tools[targets[i]].menu_name, "{}", &o); /* refused when it never loaded */
    cJSON_Delete(o);
  }
  cJSON_Delete(first);
  if (!st) st = tsift_session_journal_jsonl(m.s, journal, len, err);
  tsift_session_free(m.s);
  return st;
}
