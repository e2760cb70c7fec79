/* search.c — the public search front ends over the index: JSON search with
 * explain, typed search, batch ranking (the outside-evaluation contract),
 * index facts, search documents and query analysis as JSON. */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "base/fmt.h"
#include "rank/rank.h"
#include "rank/ranking_json.h"
#include "json/json_check.h"
#include "json/json_out.h"
#include "json/jsonl.h"
#include "rank/vector_rank.h"
#include "index/vectors.h"
#include "text/vocab.h"
#include "json/json_read.h"

/* ---- options ---------------------------------------------------------- */

typedef struct search_options {
  size_t limit;
  int explain;
  int has_vector;    /* "vector" given: qvec holds it */
  tsift_qvec qvec;
} search_options;

#define DEFAULT_LIMIT 10

/* "vector" (vector_rank.h) and "minSimilarity" (-1..1, step_grade.c): read
 * after the other keys, since the floor belongs to the vector. */
static tsift_status read_vector_options(const tsift_index *ix, const cJSON *opts, search_options *o,
                                        tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(opts, "vector");
  const cJSON *floor = cJSON_GetObjectItemCaseSensitive(opts, "minSimilarity");
  if (floor && !cJSON_IsNull(floor) &&
      (!cJSON_IsNumber(floor) || !(floor->valuedouble >= -1.0 && floor->valuedouble <= 1.0)))
    return tsift_fail(err, TSIFT_E_ARG, "search options: \"minSimilarity\" must be a number from -1 to 1");
  if (!v || cJSON_IsNull(v)) {
    if (floor && !cJSON_IsNull(floor))
      return tsift_fail(err, TSIFT_E_ARG, "search options: \"minSimilarity\" needs a \"vector\"");
    return TSIFT_OK;
  }
  tsift_status st = tsift_qvec_from_json(ix, v, &o->qvec, err);
  if (st) return st;
  o->has_vector = 1;
  if (floor && !cJSON_IsNull(floor)) o->qvec.min_similarity = floor->valuedouble;
  return TSIFT_OK;
}

static tsift_status read_search_options(const tsift_index *ix, const char *json, size_t len, search_options *o,
                                        tsift_error *err) {
  o->limit = DEFAULT_LIMIT;
  o->explain = 0;
  o->has_vector = 0;
  memset(&o->qvec, 0, sizeof o->qvec);
  if (!json || !len) return TSIFT_OK;
  cJSON *opts = NULL;
  tsift_status st = tsift_json_parse(json, len, "search options", &opts, err);
  if (st) return st == TSIFT_E_NOMEM ? st : tsift_error_prefix(err, TSIFT_E_ARG, "invalid");
  if (cJSON_IsNull(opts)) {
    cJSON_Delete(opts);
    return TSIFT_OK;
  }
  if (!cJSON_IsObject(opts)) {
    cJSON_Delete(opts);
    return tsift_fail(err, TSIFT_E_ARG, "search options: expected an object");
  }
  const cJSON *item;
  cJSON_ArrayForEach(item, opts) {
    if (strcmp(item->string, "limit") == 0) {
      if (cJSON_IsNull(item)) continue;
      if (!tsift_json_integral(item, 1, TSIFT_SEARCH_MAX_LIMIT)) {
        cJSON_Delete(opts);
        return tsift_fail(err, TSIFT_E_ARG, "search options: \"limit\" must be an integer from 1 to %d",
                          TSIFT_SEARCH_MAX_LIMIT);
      }
      o->limit = (size_t)item->valuedouble;
    } else if (strcmp(item->string, "explain") == 0) {
      if (!cJSON_IsBool(item) && !cJSON_IsNull(item)) {
        cJSON_Delete(opts);
        return tsift_fail(err, TSIFT_E_ARG, "search options: \"explain\" must be a boolean");
      }
      o->explain = cJSON_IsTrue(item);
    } else if (strcmp(item->string, "vector") == 0 || strcmp(item->string, "minSimilarity") == 0) {
      continue; /* read_vector_options */
    } else {
      st = tsift_json_unknown_key(err, TSIFT_E_ARG, "search options", item->string);
      cJSON_Delete(opts);
      return st;
    }
  }
  st = read_vector_options(ix, opts, o, err);
  cJSON_Delete(opts);
  return st;
}

static void json_tokens(tsift_buf *b, const tsift_tokens *t) {
  tsift_json_begin_array(b);
  for (size_t i = 0; i < t->count; i++) tsift_json_str(b, tsift_token(t, i), t->len[i]);
  tsift_json_end_array(b);
}

/* "terms" of an analysis, then (only when there are any) the vocabulary
 * expansions (vocab.h) as [term, English term] pairs of analysed terms. */
static void json_terms(tsift_buf *b, const tsift_query *q) {
  tsift_json_key(b, "terms");
  json_tokens(b, &q->terms);
  if (!q->xterms.count) return;
  tsift_json_key(b, "expansions");
  tsift_json_begin_array(b);
  for (size_t j = 0; j < q->xterms.count; j++) {
    tsift_json_begin_array(b);
    tsift_json_str(b, tsift_token(&q->terms, q->xof[j]), q->terms.len[q->xof[j]]);
    tsift_json_str(b, tsift_token(&q->xterms, j), q->xterms.len[j]);
    tsift_json_end_array(b);
  }
  tsift_json_end_array(b);
}

/* ---- JSON search ------------------------------------------------------ */


/* The semantic part of a fused hit (rank.h), as fusion.c computed it:
 * similarity, rank by similarity, z-score, evidence and what it added. */
static void write_semantic(tsift_buf *b, const tsift_sem_part *sp) {
  tsift_json_key(b, "semantic");
  tsift_json_begin_object(b);
  if (!sp->has) {
    tsift_json_key_bool(b, "vector", 0);
  } else {
    tsift_json_key_score(b, "similarity", sp->similarity);
    tsift_json_key_int(b, "rank", (long long)sp->rank);
    tsift_json_key_score(b, "z", sp->z);
    tsift_json_key_score(b, "evidence", sp->evidence);
    tsift_json_key_score(b, "score", sp->score);
  }
  tsift_json_end_object(b);
}

/* The vocabulary's labels of hit h (docs/learning.md) that hold a word the
 * hit matched: what explain shows as learned; nothing without one. */
static void write_learned(tsift_buf *b, const tsift_index *ix, const tsift_query *q, const tsift_ranking *r, size_t h,
                          int *nomem) {
  if (!ix->catalog.vocab) return;
  uint32_t d = r->hits[h].doc;
  const tsift_tool *t = &ix->catalog.tools[d];
  const uint8_t *matched = r->matched + h * r->nterms;
  int any = 0;
  tsift_tokens toks;
  tsift_tokens_init(&toks);
  for (int k = 0; k < 2; k++) {
    tsift_labels l = tsift_tool_labels(t, k ? TSIFT_HOST_ALIASES : TSIFT_HOST_TAGS);
    for (size_t i = l.count - ix->catalog.vocab[2 * d + k]; i < l.count; i++) {
      tsift_tokens_clear(&toks);
      tsift_error err;
      if (tsift_analyze(l.items[i], strlen(l.items[i]), TSIFT_FIELD_MAX_BYTES, 0, TSIFT_FIELD_TOKENS_MAX, &toks, &err)) {
        *nomem |= err.status == TSIFT_E_NOMEM;
        continue;
      }
      int hit = 0;
      for (size_t j = 0; j < r->nterms && !hit; j++)
        hit = matched[j] && tsift_tokens_find(&toks, tsift_token(&q->terms, j), q->terms.len[j]) >= 0;
      if (!hit) continue;
      if (!any++) {
        tsift_json_key(b, "learned");
        tsift_json_begin_array(b);
      }
      tsift_json_cstr(b, l.items[i]);
    }
  }
  if (any) tsift_json_end_array(b);
  tsift_tokens_free(&toks);
}

/* One hit; with explain, its breakdown as the ranker computed it (rank.h):
 * each scored member (a term, or an expansion "via" a word of the query),
 * its score and its fields' parts, then the proximity pairs it has ("pairs"
 * only when there is one). Terms and pairs add up to the score. */
static void write_hit(tsift_buf *b, const tsift_index *ix, const tsift_query *q, const tsift_ranking *r,
                      size_t h, int explain, int *nomem) {
  const tsift_scored *hit = &r->hits[h];
  const tsift_tool *t = &ix->catalog.tools[hit->doc];
  tsift_json_begin_object(b);
  tsift_json_key_cstr(b, "id", t->id);
  /* The name is echoed bounded like the description (S12): at most
   * TSIFT_RESULT_NAME_CHARS characters, then "…". (A short id can carry a
   * name of any length; the index only reads its first 2000 bytes.) */
  size_t nlen = strlen(t->name), ncut = tsift_utf8_prefix_chars(t->name, nlen, TSIFT_RESULT_NAME_CHARS);
  tsift_json_key(b, "name");
  if (ncut == nlen) {
    tsift_json_str(b, t->name, nlen);
  } else {
    char *cut = tsift_alloc_bytes(ncut + 3);
    if (!cut) *nomem = 1;
    if (cut) {
      memcpy(cut, t->name, ncut);
      memcpy(cut + ncut, TSIFT_ELLIPSIS, 3);
    }
    tsift_json_str(b, cut ? cut : "", cut ? ncut + 3 : 0);
    tsift_free(cut);
  }
  size_t dlen = 0;
  tsift_status dst;
  char *desc = tsift_short_description(t, TSIFT_RESULT_DESCRIPTION_CHARS, &dlen, &dst);
  if (!desc) tsift_buf_fail(b, dst);
  tsift_json_key_str(b, "description", desc ? desc : "", desc ? dlen : 0);
  tsift_free(desc);
  tsift_json_key_cstr(b, "trust", tsift_trust_name((tsift_trust)ix->trust[hit->doc]));
  tsift_json_key_score(b, "score", hit->score);
  if (hit->exact) tsift_json_key_bool(b, "exact", 1);
  const tsift_grade *g = &r->grades[h];
  tsift_json_key_cstr(b, "match", tsift_match_name(g->level));
  tsift_json_key(b, "matched");
  tsift_json_matched_words(b, q, r, h);
  if (explain) {
    const tsift_hit_parts *hp = &r->parts[h];
    tsift_json_key(b, "explain");
    tsift_json_begin_object(b);
    tsift_json_key(b, "terms");
    tsift_json_begin_array(b);
    for (size_t k = 0; k < hp->nterms; k++) {
      const tsift_term_part *tp = &hp->terms[k];
      size_t m = tp->member, i = r->members[m].owner;
      tsift_json_begin_object(b);
      tsift_json_key_str(b, "term", tsift_token(&q->surface, i), q->surface.len[i]);
      if (r->members[m].kind != TSIFT_MEMBER_TERM) {
        size_t vlen = 0;
        const char *via = tsift_member_via(r, q, m, &vlen);
        tsift_json_key_str(b, "via", via, vlen);
      }
      tsift_json_key_score(b, "score", tp->score);
      tsift_json_key(b, "fields");
      tsift_json_begin_object(b);
      for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
        if (!(tp->fields[f] > 0.0)) continue;
        tsift_json_key_score(b, tsift_field_names[f], tp->fields[f]);
      }
      tsift_json_end_object(b);
      tsift_json_end_object(b);
    }
    tsift_json_end_array(b);
    if (hp->npairs) {
      tsift_json_key(b, "pairs");
      tsift_json_begin_array(b);
      for (size_t k = 0; k < hp->npairs; k++) {
        const tsift_qpair *p = &r->pairs[hp->pairs[k].pair];
        tsift_json_begin_object(b);
        tsift_json_key(b, "terms");
        tsift_json_begin_array(b);
        tsift_json_str(b, tsift_token(&q->surface, p->a), q->surface.len[p->a]);
        tsift_json_str(b, tsift_token(&q->surface, p->b), q->surface.len[p->b]);
        tsift_json_end_array(b);
        tsift_json_key_score(b, "score", hp->pairs[k].score);
        tsift_json_end_object(b);
      }
      tsift_json_end_array(b);
    }
    if (r->sem) write_semantic(b, &r->sem[h]);
    write_learned(b, ix, q, r, h, nomem);
    /* why the hit got its grade (rank.h) */
    tsift_json_key(b, "grade");
    tsift_json_begin_object(b);
    tsift_json_key_score(b, "coverage", g->coverage);
    tsift_json_key_score(b, "relative", g->relative);
    if (g->phrase) tsift_json_key_bool(b, "phrase", 1);
    tsift_json_end_object(b);
    tsift_json_end_object(b);
  }
  tsift_json_end_object(b);
}

/* The typo corrections the ranker used (rank.h), as [word, correction]
 * pairs; only when there are any. */
static void json_corrections(tsift_buf *b, const tsift_query *q, const tsift_ranking *r) {
  int any = 0;
  for (size_t m = 0; m < r->nmembers; m++) {
    const tsift_member *mb = &r->members[m];
    if (mb->kind != TSIFT_MEMBER_CORRECTION) continue;
    if (!any) {
      tsift_json_key(b, "corrections");
      tsift_json_begin_array(b);
      any = 1;
    }
    size_t vlen = 0;
    const char *via = tsift_member_via(r, q, m, &vlen);
    tsift_json_begin_array(b);
    tsift_json_str(b, tsift_token(&q->surface, mb->owner), q->surface.len[mb->owner]);
    tsift_json_str(b, via, vlen);
    tsift_json_end_array(b);
  }
  if (any) tsift_json_end_array(b);
}

/* The surface forms of the query terms whose fate is `fate`. */
static void json_terms_with_fate(tsift_buf *b, const tsift_query *q, const tsift_ranking *r, int fate) {
  tsift_json_begin_array(b);
  for (size_t i = 0; i < q->terms.count; i++)
    if (r->fate[i] == fate) tsift_json_str(b, tsift_token(&q->surface, i), q->surface.len[i]);
  tsift_json_end_array(b);
}

tsift_status tsift_index_search_json(const tsift_index *ix, const char *query, size_t query_len,
                                     const char *options_json, size_t options_len, char **out,
                                     size_t *out_len, tsift_error *err) {
  if (!ix || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_search_json: NULL argument");
  *out = NULL;
  if (out_len) *out_len = 0;
  if (!query && query_len) return tsift_fail(err, TSIFT_E_ARG, "search: query is NULL");
  search_options o;
  tsift_status st = read_search_options(ix, options_json, options_len, &o, err);
  if (st) return st;
  tsift_query q;
  st = tsift_query_analyze(query ? query : "", query_len, &ix->stopwords, &q, err);
  if (st) {
    tsift_qvec_free(&o.qvec);
    return st;
  }
  tsift_stats stats;
  tsift_stats_fit(ix, NULL, &stats);
  tsift_ranking r;
  /* (explain: the semantic part's rank by similarity too, fusion.c) */
  st = tsift_rank_fused(ix, &q, &stats, o.has_vector ? &o.qvec : NULL, o.limit,
                        TSIFT_RANK_GRADE | (o.explain ? TSIFT_RANK_EXPLAIN : 0u), NULL, &r, err);
  tsift_qvec_free(&o.qvec);
  if (st) {
    tsift_query_free(&q);
    return st;
  }
  char kind[TSIFT_RANKER_KIND_MAX];
  if (r.sem) tsift_vec_ranker_kind(ix, kind);
  tsift_buf b;
  tsift_buf_init(&b);
  int nomem = 0, tainted = 0;
  tsift_json_begin_object(&b);
  tsift_json_key_str(&b, "query", q.text, q.text_len);
  tsift_json_key_cstr(&b, "ranker", r.sem ? kind : TSIFT_RANKER_VERSION);
  tsift_json_key(&b, "terms"); /* the terms scored */
  json_terms_with_fate(&b, &q, &r, TSIFT_TERM_USED);
  tsift_json_key(&b, "hits");
  tsift_json_begin_array(&b);
  for (size_t i = 0; i < r.nhits; i++) {
    write_hit(&b, ix, &q, &r, i, o.explain, &nomem);
    tsift_trust tr = (tsift_trust)ix->trust[r.hits[i].doc];
    if (tr == TSIFT_TRUST_REMOTE || tr == TSIFT_TRUST_TAINTED) tainted = 1;
  }
  tsift_json_end_array(&b);
  tsift_json_key(&b, "unmatched");
  json_terms_with_fate(&b, &q, &r, TSIFT_TERM_UNMATCHED);
  int any_capped = 0;
  for (size_t i = 0; i < q.terms.count; i++) any_capped |= r.fate[i] == TSIFT_TERM_CAPPED;
  if (any_capped) { /* matched, but not among the 16 terms kept (see rank.c) */
    tsift_json_key(&b, "capped");
    json_terms_with_fate(&b, &q, &r, TSIFT_TERM_CAPPED);
  }
  if (tainted) tsift_json_key_bool(&b, "tainted", 1);
  if (o.explain) {
    tsift_json_key(&b, "analysis");
    tsift_json_begin_object(&b);
    tsift_json_key(&b, "tokens");
    json_tokens(&b, &q.tokens);
    tsift_json_key(&b, "stopwords");
    json_tokens(&b, &q.stopwords);
    json_terms(&b, &q);
    json_corrections(&b, &q, &r);
    /* what each term weighs in the grades' coverage (step_grade.c) */
    tsift_json_key(&b, "evidence");
    tsift_json_begin_object(&b);
    for (size_t i = 0; i < q.terms.count; i++) {
      if (!(r.evidence[i] > 0.0)) continue;
      tsift_json_key_score(&b, tsift_token(&q.surface, i), r.evidence[i]);
    }
    tsift_json_end_object(&b);
    tsift_json_end_object(&b);
  }
  tsift_json_end_object(&b);
  tsift_ranking_free(&r);
  tsift_query_free(&q);
  if (nomem) {
    tsift_buf_free(&b);
    return tsift_nomem(err, "writing search results");
  }
  return tsift_buf_finish(&b, out, out_len, "writing search results", err);
}

/* ---- typed search ----------------------------------------------------- */

tsift_status tsift_index_search(const tsift_index *ix, const char *query, size_t query_len,
                                size_t capacity, tsift_hit *out, size_t *count, tsift_error *err) {
  if (!ix || !count || (capacity && !out))
    return tsift_fail(err, TSIFT_E_ARG, "tsift_index_search: NULL argument");
  *count = 0;
  if (!query && query_len) return tsift_fail(err, TSIFT_E_ARG, "search: query is NULL");
  if (capacity > TSIFT_SEARCH_MAX_LIMIT) capacity = TSIFT_SEARCH_MAX_LIMIT;
  tsift_query q;
  tsift_status st = tsift_query_analyze(query ? query : "", query_len, &ix->stopwords, &q, err);
  if (st) return st;
  tsift_stats stats;
  tsift_stats_fit(ix, NULL, &stats);
  tsift_ranking r;
  st = tsift_rank(ix, &q, &stats, capacity, 0, NULL, &r, err);
  tsift_query_free(&q);
  if (st) return st;
  for (size_t i = 0; i < r.nhits; i++) {
    out[i].id = ix->catalog.tools[r.hits[i].doc].id;
    out[i].score = r.hits[i].score;
    out[i].tool = r.hits[i].doc;
  }
  *count = r.nhits;
  tsift_ranking_free(&r);
  return tsift_ok(err);
}

/* ---- batch ranking ---------------------------------------------------- */

/* Re-serialise a query id: strings and integers by our writer, anything
 * else through cJSON (compact). */
static int write_id(tsift_buf *b, const cJSON *id) {
  if (cJSON_IsString(id)) {
    tsift_json_cstr(b, id->valuestring);
    return 0;
  }
  if (tsift_json_integral(id, -9007199254740991.0, 9007199254740991.0)) {
    tsift_json_int(b, (long long)id->valuedouble);
    return 0;
  }
  char *text = cJSON_PrintUnformatted(id);
  if (!text) return -1;
  tsift_json_raw(b, text, strlen(text));
  cJSON_free(text);
  return 0;
}

tsift_status tsift_index_rank_jsonl(const tsift_index *ix, const char *jsonl, size_t len,
                                    unsigned k, char **out, size_t *out_len, tsift_error *err) {
  if (!ix || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_rank_jsonl: NULL argument");
  *out = NULL;
  if (out_len) *out_len = 0;
  if (!jsonl && len) return tsift_fail(err, TSIFT_E_ARG, "rank: queries are NULL");
  if (k < 1 || k > TSIFT_SEARCH_MAX_LIMIT)
    return tsift_fail(err, TSIFT_E_ARG, "rank: k must be from 1 to %d", TSIFT_SEARCH_MAX_LIMIT);
  tsift_stats stats;
  tsift_stats_fit(ix, NULL, &stats);
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_status st = TSIFT_OK;
  tsift_jsonl lines;
  tsift_jsonl_init(&lines, jsonl, len);
  const char *line;
  size_t n;
  while (st == TSIFT_OK && tsift_jsonl_next(&lines, &line, &n)) {
    size_t line_no = lines.line;
    /* Queries are never an error for their bytes: replace invalid UTF-8. */
    size_t fixed_len = 0;
    char *fixed = tsift_utf8_sanitize(line, n, &fixed_len);
    if (!fixed) {
      st = tsift_nomem(err, "ranking");
      break;
    }
    /* ... and a \u0000 escape in a query is a space, not a cut. */
    tsift_json_blank_nul_escapes(fixed, fixed_len);
    char what[48];
    tsift_snprintf(what, sizeof what, "queries line %zu", line_no);
    cJSON *obj = NULL;
    st = tsift_json_parse(fixed, fixed_len, what, &obj, err);
    tsift_free(fixed);
    if (st) break;
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(obj, "id");
    const cJSON *query = cJSON_GetObjectItemCaseSensitive(obj, "query");
    if (!cJSON_IsObject(obj)) st = tsift_fail(err, TSIFT_E_ARG, "%s: expected an object", what);
    else if (!id) st = tsift_fail(err, TSIFT_E_ARG, "%s: missing \"id\"", what);
    else if (!cJSON_IsString(query))
      st = tsift_fail(err, TSIFT_E_ARG, "%s: field \"query\": expected a string", what);
    tsift_query q;
    tsift_ranking r = {0};
    if (!st) st = tsift_query_analyze(query->valuestring, strlen(query->valuestring), &ix->stopwords, &q, err);
    if (!st) {
      st = tsift_rank(ix, &q, &stats, k, 0, NULL, &r, err);
      tsift_query_free(&q);
    }
    if (!st) {
      tsift_json_begin_object(&b);
      tsift_json_key(&b, "id");
      if (write_id(&b, id)) st = tsift_nomem(err, "ranking");
      tsift_json_key(&b, "hits");
      tsift_json_begin_array(&b);
      for (size_t i = 0; i < r.nhits; i++) tsift_json_cstr(&b, ix->catalog.tools[r.hits[i].doc].id);
      tsift_json_end_array(&b);
      tsift_json_end_object(&b);
      tsift_buf_putc(&b, '\n');
    }
    tsift_ranking_free(&r);
    cJSON_Delete(obj);
  }
  return tsift_buf_finish_unless(st, &b, out, out_len, "ranking", err);
}

/* ---- index facts and documents ---------------------------------------- */

tsift_status tsift_index_info_json(const tsift_index *ix, char **out, size_t *out_len,
                                   tsift_error *err) {
  if (!ix || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_info_json: NULL argument");
  size_t counts[4] = {0};
  for (size_t d = 0; d < ix->n; d++) counts[ix->trust[d] & 3]++;
  tsift_buf b;
  tsift_json_open_object(&b);
  tsift_json_key_cstr(&b, "version", TSIFT_VERSION);
  tsift_json_key_cstr(&b, "ranker", TSIFT_RANKER_VERSION);
  tsift_json_key_int(&b, "tools", (long long)ix->n);
  tsift_json_key_int(&b, "terms", (long long)ix->nterms);
  tsift_json_key(&b, "trust");
  tsift_json_begin_object(&b);
  for (int t = 0; t < 4; t++) tsift_json_key_int(&b, tsift_trust_name((tsift_trust)t), (long long)counts[t]);
  tsift_json_end_object(&b);
  tsift_json_key(&b, "fields");
  tsift_json_begin_object(&b);
  for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
    tsift_json_key(&b, tsift_field_names[f]);
    tsift_json_begin_object(&b);
    tsift_json_key_score(&b, "weight", ix->weights[f]);
    tsift_json_key_score(&b, "avgLength", ix->n ? (double)ix->field_len_sum[f] / (double)ix->n : 0.0);
    tsift_json_end_object(&b);
  }
  tsift_json_end_object(&b);
  tsift_json_key_int(&b, "stopwords", (long long)ix->stopwords.words.count);
  tsift_json_key_cstr(&b, "fingerprint", ix->fingerprint);
  if (ix->catalog.renamed) { /* only when some id is not its menu name (ids.c) */
    tsift_json_key(&b, "menuNames");
    tsift_json_begin_object(&b);
    for (size_t d = 0; d < ix->n; d++) {
      const tsift_tool *t = &ix->catalog.tools[d];
      if (t->menu_name == t->id) continue;
      tsift_json_key_cstr(&b, t->id, t->menu_name);
    }
    tsift_json_end_object(&b);
  }
  if (ix->vocabulary[0]) { /* only with a vocabulary (docs/learning.md) */
    tsift_json_key(&b, "vocabulary");
    tsift_json_begin_object(&b);
    tsift_json_key_cstr(&b, "digest", ix->vocabulary);
    /* its entries for ids no tool has (skipped at build) */
    tsift_json_key_int(&b, "unknownTools", (long long)ix->vocabulary_unknown);
    tsift_json_end_object(&b);
  }
  if (ix->vec_dim) { /* only with vectors: an index without them reads as before */
    tsift_json_key(&b, "vectors");
    tsift_json_begin_object(&b);
    tsift_json_key_cstr(&b, "model", ix->vec_model);
    tsift_json_key_int(&b, "dim", (long long)ix->vec_dim);
    tsift_json_end_object(&b);
  }
  tsift_json_end_object(&b);
  return tsift_buf_finish(&b, out, out_len, "writing index facts", err);
}

tsift_status tsift_index_documents_json(const tsift_index *ix, char **out, size_t *out_len,
                                        tsift_error *err) {
  if (!ix || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_index_documents_json: NULL argument");
  tsift_buf b;
  tsift_json_open_object(&b);
  tsift_json_key(&b, "tools");
  tsift_json_begin_array(&b);
  for (size_t d = 0; d < ix->n && !b.failed; d++) {
    const tsift_tool *t = &ix->catalog.tools[d];
    tsift_json_begin_object(&b);
    tsift_json_key_cstr(&b, "id", t->id);
    tsift_json_key_cstr(&b, "trust", tsift_trust_name((tsift_trust)ix->trust[d]));
    tsift_json_key(&b, "fields");
    tsift_json_begin_object(&b);
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) {
      tsift_json_key(&b, tsift_field_names[f]);
      tsift_json_begin_array(&b);
      uint32_t tok[TSIFT_FIELD_TOKENS_MAX];
      size_t n = tsift_field_tokens(ix, (uint32_t)d, f, tok);
      for (size_t i = 0; i < n; i++) tsift_json_str(&b, ix->term_bytes + ix->term_off[tok[i]], ix->term_len[tok[i]]);
      tsift_json_end_array(&b);
    }
    tsift_json_end_object(&b);
    tsift_json_end_object(&b);
  }
  tsift_json_end_array(&b);
  tsift_json_end_object(&b);
  return tsift_buf_finish(&b, out, out_len, "writing search documents", err);
}

/* ---- analysis as JSON ------------------------------------------------- */

tsift_status tsift_analyze_query_json(const char *text, size_t len, const char *options_json,
                                      size_t options_len, char **out, size_t *out_len,
                                      tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_analyze_query_json: out is NULL");
  *out = NULL;
  if (!text && len) return tsift_fail(err, TSIFT_E_ARG, "analyze: text is NULL");
  cJSON *opts = NULL;
  tsift_status st = TSIFT_OK;
  if (options_json && options_len) {
    st = tsift_json_parse(options_json, options_len, "options", &opts, err);
    if (st) return st;
  }
  tsift_stopwords sw;
  st = tsift_stopwords_from_json(cJSON_GetObjectItemCaseSensitive(opts, "stopwords"), &sw, err);
  cJSON_Delete(opts);
  if (st) return st;
  tsift_query q;
  st = tsift_query_analyze(text ? text : "", len, &sw, &q, err);
  tsift_stopwords_free(&sw);
  if (st) return st;
  tsift_buf b;
  tsift_json_open_object(&b);
  tsift_json_key_str(&b, "query", q.text, q.text_len);
  tsift_json_key(&b, "tokens");
  json_tokens(&b, &q.tokens);
  tsift_json_key(&b, "stopwords");
  json_tokens(&b, &q.stopwords);
  json_terms(&b, &q);
  tsift_json_end_object(&b);
  tsift_query_free(&q);
  return tsift_buf_finish(&b, out, out_len, "writing the analysis", err);
}

tsift_status tsift_analyze_field_json(const char *text, size_t len, char **out, size_t *out_len,
                                      tsift_error *err) {
  if (!out) return tsift_fail(err, TSIFT_E_ARG, "tsift_analyze_field_json: out is NULL");
  *out = NULL;
  if (!text && len) return tsift_fail(err, TSIFT_E_ARG, "analyze: text is NULL");
  tsift_tokens t;
  tsift_tokens_init(&t);
  tsift_status st = tsift_analyze(text ? text : "", len, TSIFT_FIELD_MAX_BYTES, 0, (size_t)-1, &t, err);
  if (st) {
    tsift_tokens_free(&t);
    return st;
  }
  tsift_buf b;
  tsift_buf_init(&b);
  json_tokens(&b, &t);
  tsift_tokens_free(&t);
  return tsift_buf_finish(&b, out, out_len, "writing the analysis", err);
}
