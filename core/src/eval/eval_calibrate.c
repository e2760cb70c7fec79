/* eval_calibrate.c — fusion parameters proposed for a static model on a
 * catalog (issue 35; `toolsift calibrate`, docs/semantic.md "Calibrating a
 * model"). The evaluation (eval.c) runs once lexically and once per point
 * of a grid of margins and weights; the point with the best nDCG@10 that
 * keeps the loop's floors against lexical wins, then an `agree` floor is
 * taken when it buys precision without costing what loads. Every number
 * printed is one an evaluation computed: this file only chooses.
 *
 * Without labelled queries the catalog judges itself: each tool's
 * description becomes a query for that tool, and the descriptions leave the
 * catalog, so words must be bridged from a request's phrasing to names and
 * parameters — what a model is for. */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/catalog.h"
#include "base/fmt.h"
#include "rank/fusion.h"
#include "index/index.h"
#include "json/json_out.h"
#include "json/jsonl.h"
#include "json/json_read.h"

/* The grid: margins from the most conservative down, weights from the
 * lightest up, so among equal rows the first (safest) stays chosen. */
static const double MARGINS[] = {0.5, 0.0, -0.5, -1.0, -1.5, -2.0, -2.5, -3.0};
static const double WEIGHTS[] = {1.0, 2.0, 4.0};
static const double AGREES[] = {0.0, 0.5};
#define N_MARGINS (sizeof MARGINS / sizeof *MARGINS)
#define N_WEIGHTS (sizeof WEIGHTS / sizeof *WEIGHTS)
#define N_AGREES (sizeof AGREES / sizeof *AGREES)
#define N_ROWS (N_MARGINS * N_WEIGHTS + N_AGREES)
/* The floors against lexical (the issue's, and primary loaded's). */
#define SLACK_PRECISION 0.03
#define SLACK_NO_MATCH 0.03
#define SLACK_LOADED 0.01
/* A model must add this much nDCG@10 before its parameters are proposed. */
#define MIN_GAIN 0.005
/* An agree floor must buy this much precision, and may cost at most this much of primary loaded. */
#define AGREE_PRECISION 0.01
#define AGREE_LOADED 0.005
/* Queries made from the catalog: at most this many (every k-th tool). */
#define MAX_CATALOG_QUERIES 300
#define QUERY_WORDS 20
static const char LENIENT[] = "{\"ids\":\"lenient\"}"; /* as eval builds */

typedef struct row {
  double margin, weight, agree; /* agree: TSIFT_FUSION_AGREE_OFF when off */
  double ndcg, loaded, shown, precision, junk, clean;
  int meets;
} row;

typedef struct calib {
  const char *catalog, *queries;
  size_t catalog_len, queries_len;
  const tsift_static_model *model;
  row lex, rows[N_ROWS];
  size_t nrows, nomatch, nqueries;
} calib;

static double num(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

/* One evaluation (with the model when r is not the lexical row) into r. */
static tsift_status measure(calib *c, row *r, int lexical, tsift_error *err) {
  char opts[256], agree[48] = "";
  if (r->agree > -1e9) tsift_snprintf(agree, sizeof agree, ",\"agree\":%g", r->agree);
  if (lexical) tsift_snprintf(opts, sizeof opts, "{\"loop\":true,\"worst\":0}");
  else
    tsift_snprintf(opts, sizeof opts, "{\"loop\":true,\"worst\":0,\"fusion\":{\"margin\":%g,\"weight\":%g%s}}",
                   r->margin, r->weight, agree);
  char *out = NULL;
  size_t len = 0;
  tsift_status st = lexical ? tsift_eval_json(c->catalog, c->catalog_len, c->queries, c->queries_len, opts,
                                              strlen(opts), &out, &len, err)
                            : tsift_eval_model_json(c->catalog, c->catalog_len, c->queries, c->queries_len, c->model,
                                                    opts, strlen(opts), &out, &len, err);
  if (st) return st;
  cJSON *doc = cJSON_ParseWithLength(out, len);
  tsift_free(out);
  if (!doc) return tsift_nomem(err, "calibrating");
  const cJSON *loop = cJSON_GetObjectItemCaseSensitive(doc, "loop");
  const cJSON *strong = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(loop, "overall"), 1);
  r->ndcg = num(cJSON_GetObjectItemCaseSensitive(doc, "toolsift"), "ndcg10");
  r->loaded = num(strong, "primaryLoaded");
  r->shown = num(strong, "primaryShown");
  r->precision = num(strong, "precision");
  r->junk = num(strong, "junkPerSearch");
  r->clean = num(strong, "noMatchClean");
  c->nomatch = (size_t)num(strong, "noMatchQueries");
  c->nqueries = (size_t)num(strong, "queries");
  cJSON_Delete(doc);
  return TSIFT_OK;
}

static int meets(const calib *c, const row *r) {
  const row *l = &c->lex;
  return r->ndcg >= l->ndcg && r->shown >= l->shown && r->precision >= l->precision - SLACK_PRECISION &&
         r->loaded >= l->loaded - SLACK_LOADED && (!c->nomatch || r->clean >= l->clean - SLACK_NO_MATCH);
}

/* The grid, then the agree floors at the chosen point; *chosen is the row
 * proposed, or NULL when the model adds too little (the defaults stand). */
static tsift_status run_grid(calib *c, const row **chosen, tsift_error *err) {
  tsift_status st = measure(c, &c->lex, 1, err);
  const row *best = NULL;
  for (size_t m = 0; !st && m < N_MARGINS; m++)
    for (size_t w = 0; !st && w < N_WEIGHTS; w++) {
      row *r = &c->rows[c->nrows++];
      r->margin = MARGINS[m];
      r->weight = WEIGHTS[w];
      r->agree = TSIFT_FUSION_AGREE_OFF;
      st = measure(c, r, 0, err);
      r->meets = meets(c, r);
      if (r->meets && (!best || r->ndcg > best->ndcg)) best = r;
    }
  if (!st && best && best->ndcg < c->lex.ndcg + MIN_GAIN) best = NULL;
  const row *base = best;
  for (size_t a = 0; !st && base && a < N_AGREES; a++) {
    row *r = &c->rows[c->nrows++];
    *r = *base;
    r->agree = AGREES[a];
    st = measure(c, r, 0, err);
    r->meets = meets(c, r);
    if (r->meets && r->loaded >= base->loaded - AGREE_LOADED && r->precision >= base->precision + AGREE_PRECISION &&
        r->precision > best->precision)
      best = r;
  }
  *chosen = best;
  return st;
}

/* ---- queries from the catalog ----------------------------------------- */

/* The first sentence of a description, at most QUERY_WORDS words; 0 words
 * below three (too little to judge by). */
static size_t first_sentence(const char *s, size_t *words) {
  size_t i = 0, n = 0;
  *words = 0;
  while (s[i] && n < QUERY_WORDS) {
    while (s[i] == ' ' || s[i] == '\t') i++;
    if (!s[i] || s[i] == '\n' || s[i] == '\r') break;
    n++;
    while (s[i] && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') i++;
    if (i > 0 && s[i - 1] == '.' && (!s[i] || s[i] == ' ' || s[i] == '\n')) break;
  }
  *words = n;
  return n >= 3 ? i : 0;
}

/* The tools array of a parsed catalog ({"tools": [...]} or [...]). */
static cJSON *tools_of(cJSON *root) {
  return cJSON_IsArray(root) ? root : cJSON_GetObjectItemCaseSensitive(root, "tools");
}

/* The catalog without descriptions (*cat) and, one per sampled tool with a
 * description, the query {"id","query","relevance":{id:1}} (*qs). The ids
 * are the core's own: the stripped catalog is built once to read them. */
static tsift_status catalog_queries(const char *catalog, size_t len, char **cat, size_t *cat_len, char **qs,
                                    size_t *qs_len, tsift_error *err) {
  char *array = NULL;
  size_t alen = 0;
  if (tsift_jsonl_is_lines(catalog, len) && !(array = tsift_jsonl_to_array(catalog, len, &alen)))
    return tsift_nomem(err, "calibrating");
  cJSON *root = NULL;
  tsift_status st = tsift_json_parse(array ? array : catalog, array ? alen : len, "catalog", &root, err);
  tsift_free(array);
  if (st) return st;
  cJSON *tools = tools_of(root);
  size_t n = (size_t)cJSON_GetArraySize(tools), with = 0;
  char **desc = tsift_calloc_array(n + 1, sizeof *desc);
  if (!desc) st = tsift_nomem(err, "calibrating");
  size_t i = 0;
  for (cJSON *t = tools ? tools->child : NULL; !st && t; t = t->next, i++) {
    cJSON *d = cJSON_DetachItemFromObjectCaseSensitive(t, "description");
    size_t words;
    if (cJSON_IsString(d) && first_sentence(d->valuestring, &words)) {
      desc[i] = d->valuestring;
      d->valuestring = NULL;
      with++;
    }
    cJSON_Delete(d);
  }
  char *text = st ? NULL : cJSON_PrintUnformatted(root);
  if (!st && !text) st = tsift_nomem(err, "calibrating");
  tsift_index *ix = NULL;
  if (!st) st = tsift_index_build(text, strlen(text), LENIENT, sizeof LENIENT - 1, &ix, err);
  tsift_buf b;
  tsift_buf_init(&b);
  size_t stride = with > MAX_CATALOG_QUERIES ? (with + MAX_CATALOG_QUERIES - 1) / MAX_CATALOG_QUERIES : 1, seen = 0;
  for (i = 0; !st && i < n && i < ix->catalog.count; i++) {
    if (!desc[i] || seen++ % stride) continue;
    size_t words, end = first_sentence(desc[i], &words);
    tsift_json_begin_object(&b);
    tsift_json_key_cstr(&b, "id", ix->catalog.tools[i].id);
    tsift_json_key_str(&b, "query", desc[i], end);
    tsift_json_key(&b, "relevance");
    tsift_json_begin_object(&b);
    tsift_json_key_int(&b, ix->catalog.tools[i].id, 1);
    tsift_json_end_object(&b);
    tsift_json_end_object(&b);
    tsift_buf_putc(&b, '\n');
  }
  tsift_index_free(ix);
  for (i = 0; desc && i < n; i++) cJSON_free(desc[i]);
  tsift_free(desc);
  cJSON_Delete(root);
  if (!st) st = tsift_buf_finish(&b, qs, qs_len, "calibrating", err);
  else tsift_buf_free(&b);
  if (!st) {
    *cat = text;
    *cat_len = strlen(text);
  } else
    cJSON_free(text);
  return st;
}

/* ---- the answer ------------------------------------------------------- */

static void write_params(tsift_buf *b, const row *r) {
  tsift_json_begin_object(b);
  tsift_json_key_score(b, "margin", r->margin);
  tsift_json_key_score(b, "weight", r->weight);
  tsift_json_key_score(b, "strong", TSIFT_FUSION_STRONG);
  tsift_json_key(b, "agree");
  if (r->agree > -1e9) tsift_json_score(b, r->agree);
  else tsift_json_null(b);
  tsift_json_end_object(b);
}

static void write_row(tsift_buf *b, const row *r, int params) {
  tsift_json_begin_object(b);
  if (params) {
    tsift_json_key(b, "fusion");
    write_params(b, r);
  }
  const char *keys[] = {"ndcg10", "primaryLoaded", "primaryShown", "precision", "junkPerSearch", "noMatchClean"};
  const double vals[] = {r->ndcg, r->loaded, r->shown, r->precision, r->junk, r->clean};
  for (size_t i = 0; i < 6; i++) tsift_json_key_score(b, keys[i], vals[i]);
  if (params) tsift_json_key_bool(b, "meets", r->meets);
  tsift_json_end_object(b);
}

static void write_json(tsift_buf *b, const calib *c, int from_catalog, const row *chosen) {
  tsift_json_begin_object(b);
  tsift_json_key_cstr(b, "model", tsift_static_model_id(c->model));
  tsift_json_key_cstr(b, "from", from_catalog ? "catalog" : "queries");
  tsift_json_key_int(b, "queries", (long long)c->nqueries);
  tsift_json_key_int(b, "noMatchQueries", (long long)c->nomatch);
  tsift_json_key(b, "lexical");
  write_row(b, &c->lex, 0);
  tsift_json_key(b, "rows");
  tsift_json_begin_array(b);
  for (size_t i = 0; i < c->nrows; i++) write_row(b, &c->rows[i], 1);
  tsift_json_end_array(b);
  /* the object to put in the model's config.json, or null: the defaults stand */
  tsift_json_key(b, "config");
  if (chosen) {
    tsift_json_begin_object(b);
    tsift_json_key(b, "toolsift");
    tsift_json_begin_object(b);
    tsift_json_key(b, "fusion");
    write_params(b, chosen);
    tsift_json_end_object(b);
    tsift_json_end_object(b);
  } else
    tsift_json_null(b);
  tsift_json_end_object(b);
}

/* The table: one line per row, '*' on the chosen one, '-' where a floor fails. */
static void write_text(tsift_buf *b, const calib *c, int from_catalog, const row *chosen) {
  char line[256];
  tsift_snprintf(line, sizeof line, "calibrate %s: %zu queries (%s, %zu no-match)\n", tsift_static_model_id(c->model),
                 c->nqueries, from_catalog ? "made from the catalog's descriptions" : "labelled", c->nomatch);
  tsift_buf_append(b, line, strlen(line));
  tsift_snprintf(line, sizeof line, "    %-32s %8s %8s %8s %8s %8s %8s\n", "fusion (load: strong)", "nDCG@10", "prim.ld",
                 "prim.sh", "precis.", "junk/q", "nomatch");
  tsift_buf_append(b, line, strlen(line));
  for (size_t i = 0; i <= c->nrows; i++) {
    const row *r = i ? &c->rows[i - 1] : &c->lex;
    char label[48];
    if (!i) tsift_snprintf(label, sizeof label, "lexical");
    else if (r->agree > -1e9)
      tsift_snprintf(label, sizeof label, "margin %g weight %g agree %g", r->margin, r->weight, r->agree);
    else tsift_snprintf(label, sizeof label, "margin %g weight %g", r->margin, r->weight);
    tsift_snprintf(line, sizeof line, "  %s %-32s %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f\n",
                   r == chosen ? "*" : (i && !r->meets ? "-" : " "), label, r->ndcg, r->loaded, r->shown, r->precision,
                   r->junk, r->clean);
    tsift_buf_append(b, line, strlen(line));
  }
  char agree[32] = "null";
  if (chosen && chosen->agree > -1e9) tsift_snprintf(agree, sizeof agree, "%g", chosen->agree);
  if (chosen)
    tsift_snprintf(line, sizeof line,
                   "proposed (*), for the model's config.json: {\"toolsift\":{\"fusion\":{\"margin\":%g,\"weight\":%g,"
                   "\"strong\":%g,\"agree\":%s}}}\n",
                   chosen->margin, chosen->weight, TSIFT_FUSION_STRONG, agree);
  else
    tsift_snprintf(line, sizeof line, "no row adds %g nDCG@10 while keeping the floors (-): the defaults stand\n", MIN_GAIN);
  tsift_buf_append(b, line, strlen(line));
}

tsift_status tsift_calibrate_json(const char *catalog, size_t catalog_len, const char *queries, size_t queries_len,
                                  const tsift_static_model *model, int text, char **out, size_t *out_len,
                                  tsift_error *err) {
  if (!out || !model || (!catalog && catalog_len) || (!queries && queries_len))
    return tsift_fail(err, TSIFT_E_ARG, "tsift_calibrate_json: NULL argument");
  *out = NULL;
  calib *c = tsift_calloc_array(1, sizeof *c);
  if (!c) return tsift_nomem(err, "calibrating");
  char *own_cat = NULL, *own_q = NULL;
  size_t own_cat_len = 0, own_q_len = 0;
  int from_catalog = !queries_len;
  tsift_status st =
      from_catalog ? catalog_queries(catalog, catalog_len, &own_cat, &own_cat_len, &own_q, &own_q_len, err) : TSIFT_OK;
  c->catalog = own_cat ? own_cat : catalog;
  c->catalog_len = own_cat ? own_cat_len : catalog_len;
  c->queries = own_q ? own_q : queries;
  c->queries_len = own_q ? own_q_len : queries_len;
  c->model = model;
  if (!st && !c->queries_len)
    st = tsift_fail(err, TSIFT_E_CONFIG, "calibrate: no queries (and no tool with a description of three words or more)");
  const row *chosen = NULL;
  if (!st) st = run_grid(c, &chosen, err);
  tsift_buf b;
  tsift_buf_init(&b);
  if (!st && text) write_text(&b, c, from_catalog, chosen);
  else if (!st) write_json(&b, c, from_catalog, chosen);
  cJSON_free(own_cat);
  tsift_free(own_q);
  tsift_free(c);
  return tsift_buf_finish_unless(st, &b, out, out_len, "writing the calibration", err);
}
