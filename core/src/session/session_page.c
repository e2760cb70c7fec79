/* session_page.c — a search's page (SPEC S7, S9; docs/sessions.md): the
 * hits with their grades and matched words, the loading plan under the
 * load policy and the caps, the result the model reads (notes, unmatched
 * words, the catalog words near a miss) and the decision recorded — written
 * before any state changes — and the re-admission of a recorded decision,
 * which can only narrow what it names. */
#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "session/overview.h"
#include "rank/ranking_json.h"
#include "session/session_internal.h"
#include "catalog/tool_spec.h"

#define warn tsift_warn

/* Near a miss, at most this many catalog words are offered (vocabulary). */
#define VOCABULARY_WORDS 12
/* Words of a recorded page are at most this long (a token is 32 bytes;
 * a surface form may be longer): longer ones are not re-admitted. */
#define PAGE_WORD_MAX_BYTES 64

static const char *const k_grade_names[] = {"", "partial", "strong", "selected"};

void tsift_page_init(search_page *p) { memset(p, 0, sizeof *p); }

void tsift_page_free(search_page *p) {
  TSIFT_FREE_ALL(p->hits, p->grade, p->permit, p->words_end);
  tsift_tokens_free(&p->words);
  tsift_tokens_free(&p->unmatched);
  tsift_tokens_free(&p->unknown);
  tsift_tokens_free(&p->on_menu);
  memset(p, 0, sizeof *p);
}

int tsift_page_reserve(search_page *p, size_t cap) {
  p->hits = tsift_calloc_array(cap + 1, sizeof *p->hits);
  p->grade = tsift_calloc_array(cap + 1, 1);
  p->permit = tsift_calloc_array(cap + 1, 1);
  p->words_end = tsift_calloc_array(cap + 1, sizeof *p->words_end);
  return p->hits && p->grade && p->permit && p->words_end ? 0 : -1;
}

/* Append hit d with its grade; its matched words are those pushed to
 * p->words since the previous hit. */
static void page_push(search_page *p, uint32_t d, uint8_t grade) {
  p->hits[p->n] = d;
  p->grade[p->n] = grade;
  p->words_end[p->n] = (uint32_t)p->words.count;
  p->n++;
}

tsift_status tsift_page_from_ranking(search_page *p, const tsift_query *q, const tsift_ranking *r,
                                     tsift_error *err) {
  p->graded = 1;
  for (size_t h = 0; h < r->nhits; h++) {
    const uint8_t *matched = r->matched + h * r->nterms;
    for (size_t i = 0; i < r->nterms; i++)
      if (matched[i] && tsift_tokens_push(&p->words, tsift_token(&q->surface, i), q->surface.len[i]))
        return tsift_nomem(err, "searching");
    page_push(p, r->hits[h].doc, r->grades[h].level == TSIFT_MATCH_STRONG ? PAGE_STRONG : PAGE_PARTIAL);
  }
  for (size_t i = 0; i < r->nterms; i++)
    if (r->fate[i] == TSIFT_TERM_UNMATCHED &&
        tsift_tokens_push(&p->unmatched, tsift_token(&q->surface, i), q->surface.len[i]))
      return tsift_nomem(err, "searching");
  return TSIFT_OK;
}

void tsift_page_add(search_page *p, uint32_t d, uint8_t grade) { page_push(p, d, grade); }

/* ---- loading plan ----------------------------------------------------- */

/* In order, a tool loads while its grade allows it (with "load": "strong",
 * a strong, selected or ungraded hit; for a pre-search, a strong one only), it is not tainted, the maxLoaded cap
 * has room and the menu budget fits it. On a replayed page the recorded
 * loaded flags (permit) further limit loading. */
static tsift_status plan_loading(tsift_session *s, const search_page *p, int pre, uint8_t *loaded,
                                 size_t *chars_out, tsift_error *err) {
  size_t count = s->searched_loaded, chars = s->menu_chars;
  for (size_t i = 0; i < p->n; i++) {
    const tsift_tool *t = &s->index->catalog.tools[p->hits[i]];
    loaded[i] = 0;
    if (p->replayed && !p->permit[i]) continue;
    if (s->load_strong && p->grade[i] == PAGE_PARTIAL) continue;
    if (pre && p->grade[i] != PAGE_STRONG) continue; /* nobody asked: only the strong load */
    if (t->tainted || count >= s->max_loaded) continue;
    if (s->max_menu_chars >= 0) {
      size_t c;
      tsift_status st = tsift_spec_chars(t, &c, "measuring a tool spec", err);
      if (st) return st;
      if (chars + c > (size_t)s->max_menu_chars) continue;
      chars += c;
    }
    loaded[i] = 1;
    count++;
  }
  *chars_out = chars;
  return TSIFT_OK;
}

/* ---- re-admission ----------------------------------------------------- */

/* Why `id` cannot be on this page, or NULL when it can. */
const char *tsift_page_inadmissible(const tsift_session *s, long d, const uint32_t *page, size_t n, size_t cap) {
  if (d < 0) return "unknown";
  if (!s->ns_allowed[d]) return "outside the namespaces";
  if (s->on_menu[d]) return "already on the menu";
  for (size_t k = 0; k < n; k++)
    if (page[k] == (uint32_t)d) return "a duplicate";
  if (n >= cap) return "beyond the page size";
  return NULL;
}

void tsift_warn_dropped(warnings *w, const char *what, const char *id, const char *why) {
  char idc[NAME_ECHO_BYTES + 1];
  size_t len = tsift_utf8_cut(id, strlen(id), NAME_ECHO_BYTES);
  memcpy(idc, id, len);
  idc[len] = 0;
  char fmt[64];
  tsift_snprintf(fmt, sizeof fmt, "%s: dropped \"%%s\": %%s", what);
  warn(w, fmt, idc, why);
}

static int word_listed(const tsift_tokens *list, const char *s, size_t n) {
  return tsift_tokens_find(list, s, n) >= 0;
}

/* Recorded words (an array of strings) re-admitted into `into` when they
 * are in `allowed` (words of the recorded query): a record names only what
 * its own query says, so an edited journal cannot put other text in front
 * of the model. */
static int readmit_words(const cJSON *arr, const tsift_tokens *allowed, tsift_tokens *into, const char *what,
                         warnings *w) {
  const cJSON *v;
  cJSON_ArrayForEach(v, arr) {
    size_t n = cJSON_IsString(v) ? strlen(v->valuestring) : 0;
    if (!cJSON_IsString(v) || n > PAGE_WORD_MAX_BYTES || !word_listed(allowed, v->valuestring, n) ||
        word_listed(into, v->valuestring, n)) {
      warn(w, "replay: dropped a recorded %s word that is not a word of its query%s", what, NULL);
      continue;
    }
    if (tsift_tokens_push(into, v->valuestring, n)) return -1;
  }
  return 0;
}

/* The names a recorded select: query lists (for its unknown and onMenu
 * lists), or the query's surface terms (for matched and unmatched words). */
static tsift_status recorded_query_words(const tsift_session *s, const char *q, int selected, tsift_tokens *out,
                                         tsift_error *err) {
  tsift_tokens_init(out);
  if (selected) {
    /* A live select: lists at most the page size (max_per_search), so the
     * scan of a recorded one stops there. A record whose query could not
     * have been served re-admits no names: its lists are dropped. */
    tsift_status st = tsift_select_names(q, strlen(q), s->max_per_search, out, NULL, err);
    if (st != TSIFT_E_ARG) return st;
    tsift_tokens_free(out);
    tsift_tokens_init(out);
    return tsift_ok(err);
  }
  tsift_query tq;
  tsift_status st = tsift_query_analyze(q, strlen(q), &s->index->stopwords, &tq, err);
  if (st) return st;
  *out = tq.surface;
  tsift_tokens_init(&tq.surface);
  tsift_query_free(&tq);
  return TSIFT_OK;
}

static uint8_t grade_of(const cJSON *v, warnings *w) {
  for (uint8_t g = PAGE_PARTIAL; g <= PAGE_SELECTED; g++)
    if (cJSON_IsString(v) && strcmp(v->valuestring, k_grade_names[g]) == 0) return g;
  warn(w, "replay: a recorded grade is not \"strong\", \"partial\" or \"selected\"; read as partial%s%s", NULL, NULL);
  return PAGE_PARTIAL;
}

tsift_status tsift_page_readmit(tsift_session *s, const cJSON *value, size_t cap, search_page *p, warnings *w,
                                tsift_error *err) {
  const cJSON *results = cJSON_GetObjectItemCaseSensitive(value, "results");
  const cJSON *loaded = cJSON_GetObjectItemCaseSensitive(value, "loaded");
  const cJSON *grades = cJSON_GetObjectItemCaseSensitive(value, "grades");
  const cJSON *matched = cJSON_GetObjectItemCaseSensitive(value, "matched");
  const cJSON *query = cJSON_GetObjectItemCaseSensitive(value, "query");
  const cJSON *ranker = cJSON_GetObjectItemCaseSensitive(value, "ranker");
  p->replayed = 1;
  if (!cJSON_IsObject(value)) warn(w, "replay: decision value is not an object%s%s", NULL, NULL);
  else if (!cJSON_IsArray(results)) warn(w, "replay: value.results is not an array%s%s", NULL, NULL);
  if (cJSON_IsObject(value) && !cJSON_IsArray(loaded)) warn(w, "replay: value.loaded is not an array%s%s", NULL, NULL);
  if (!cJSON_IsArray(results)) return TSIFT_OK;
  /* A page with grades was graded when it was recorded; one without (an
   * older journal, or a host ranker's page) loads as recorded. */
  p->graded = cJSON_IsArray(grades);
  p->selected = cJSON_IsString(ranker) && strcmp(ranker->valuestring, "select") == 0;
  tsift_tokens allowed;
  tsift_tokens_init(&allowed);
  tsift_status st = TSIFT_OK;
  if (p->graded || p->selected)
    st = recorded_query_words(s, cJSON_IsString(query) ? query->valuestring : "", p->selected, &allowed, err);
  size_t j = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, results) {
    if (st) break;
    size_t at = j++;
    if (!cJSON_IsString(r)) {
      warn(w, "replay: dropped a result that is not a string%s%s", NULL, NULL);
      continue;
    }
    long d = tsift_session_find_doc(s, r->valuestring);
    const char *why = tsift_page_inadmissible(s, d, p->hits, p->n, cap);
    if (why) {
      tsift_warn_dropped(w, "replay", r->valuestring, why);
      continue;
    }
    int was_loaded = 0;
    const cJSON *l;
    if (cJSON_IsArray(loaded))
      cJSON_ArrayForEach(l, loaded) was_loaded |= cJSON_IsString(l) && strcmp(l->valuestring, r->valuestring) == 0;
    uint8_t grade = PAGE_UNGRADED;
    if (p->graded) {
      grade = grade_of(cJSON_GetArrayItem(grades, (int)at), w);
      tsift_tokens words;
      tsift_tokens_init(&words);
      const cJSON *mw = cJSON_GetArrayItem(matched, (int)at);
      if (cJSON_IsArray(mw) && readmit_words(mw, &allowed, &words, "matched", w)) st = tsift_nomem(err, "replaying");
      for (size_t k = 0; !st && k < words.count; k++)
        if (tsift_tokens_push(&p->words, tsift_token(&words, k), words.len[k])) st = tsift_nomem(err, "replaying");
      tsift_tokens_free(&words);
    }
    p->permit[p->n] = (uint8_t)was_loaded;
    page_push(p, (uint32_t)d, grade);
  }
  if (!st && p->graded && readmit_words(cJSON_GetObjectItemCaseSensitive(value, "unmatched"), &allowed,
                                        &p->unmatched, "unmatched", w))
    st = tsift_nomem(err, "replaying");
  if (!st && p->selected &&
      (readmit_words(cJSON_GetObjectItemCaseSensitive(value, "unknown"), &allowed, &p->unknown, "unknown", w) ||
       readmit_words(cJSON_GetObjectItemCaseSensitive(value, "onMenu"), &allowed, &p->on_menu, "onMenu", w)))
    st = tsift_nomem(err, "replaying");
  tsift_tokens_free(&allowed);
  return st;
}

/* ---- writing the result and the decision ------------------------------ */

static void json_tokens(tsift_buf *b, const tsift_tokens *t, size_t from, size_t to) {
  tsift_json_begin_array(b);
  for (size_t i = from; i < to; i++) tsift_json_str(b, tsift_token(t, i), t->len[i]);
  tsift_json_end_array(b);
}

static size_t words_start(const search_page *p, size_t i) { return i ? p->words_end[i - 1] : 0; }

static void write_decision(tsift_buf *b, const tsift_session *s, const call_ref *c, const char *id, const char *query,
                           const search_page *p, const uint8_t *loaded, const uint32_t *skill_page, size_t ns,
                           const ranker_kinds *kinds) {
  tsift_json_begin_object(b);
  tsift_json_key_cstr(b, "id", id);
  tsift_json_key_cstr(b, "source", c->pre ? "host-pre-search" : "agent-tool-search");
  tsift_json_key(b, "value");
  tsift_json_begin_object(b);
  tsift_json_key_cstr(b, "ranker", kinds->ranker);
  if (tsift_session_discovers(s) && kinds->skill_ranker) tsift_json_key_cstr(b, "skillRanker", kinds->skill_ranker);
  tsift_json_key(b, "query");
  /* Whole: replay re-reads it, and a cut could end inside a +word or drop
   * the words the recorded grades matched. */
  tsift_json_cstr(b, query);
  tsift_json_key(b, "results");
  tsift_json_begin_array(b);
  for (size_t i = 0; i < p->n; i++) tsift_json_cstr(b, s->index->catalog.tools[p->hits[i]].menu_name);
  tsift_json_end_array(b);
  tsift_json_key(b, "loaded");
  tsift_json_begin_array(b);
  for (size_t i = 0; i < p->n; i++)
    if (loaded[i]) tsift_json_cstr(b, s->index->catalog.tools[p->hits[i]].menu_name);
  tsift_json_end_array(b);
  if (p->graded) { /* what the model was shown about each hit, and why it loaded */
    tsift_json_key(b, "grades");
    tsift_json_begin_array(b);
    for (size_t i = 0; i < p->n; i++) tsift_json_cstr(b, k_grade_names[p->grade[i]]);
    tsift_json_end_array(b);
    tsift_json_key(b, "matched");
    tsift_json_begin_array(b);
    for (size_t i = 0; i < p->n; i++) json_tokens(b, &p->words, words_start(p, i), p->words_end[i]);
    tsift_json_end_array(b);
    tsift_json_key(b, "unmatched");
    json_tokens(b, &p->unmatched, 0, p->unmatched.count);
  }
  if (p->selected) {
    tsift_json_key(b, "unknown");
    json_tokens(b, &p->unknown, 0, p->unknown.count);
    tsift_json_key(b, "onMenu");
    json_tokens(b, &p->on_menu, 0, p->on_menu.count);
  }
  if (tsift_session_discovers(s)) {
    tsift_json_key(b, "skills");
    tsift_json_begin_array(b);
    for (size_t i = 0; i < ns; i++) tsift_json_cstr(b, s->skills->items[skill_page[i]].id);
    tsift_json_end_array(b);
  }
  tsift_json_end_object(b);
  tsift_json_end_object(b);
}

/* One hit of a result page: {name, description[, loaded][, match, matched]}
 * (loaded < 0: a skill, which has no loaded flag). */
static void write_hit(tsift_buf *b, const tsift_tool *t, int loaded, const search_page *p, size_t i) {
  size_t dl = 0;
  tsift_status dst;
  char *desc = tsift_short_description(t, RESULT_DESCRIPTION_CHARS, &dl, &dst);
  if (!desc) tsift_buf_fail(b, dst);
  tsift_json_begin_object(b);
  /* a tool's menu name; a skill's id (activate_skill takes it) */
  tsift_json_key_cstr(b, "name", loaded >= 0 ? t->menu_name : t->id);
  tsift_json_key_str(b, "description", desc ? desc : "", desc ? dl : 0);
  if (loaded >= 0) tsift_json_key_bool(b, "loaded", loaded);
  if (p && p->grade[i] != PAGE_UNGRADED) {
    tsift_json_key_cstr(b, "match", k_grade_names[p->grade[i]]);
    if (p->grade[i] != PAGE_SELECTED) {
      tsift_json_key(b, "matched");
      json_tokens(b, &p->words, words_start(p, i), p->words_end[i]);
    }
  }
  tsift_json_end_object(b);
  tsift_free(desc);
}

/* The catalog words near a miss: the namespaces and name words of the
 * listed hits' ids, in hit order, distinct (ids are model-facing names;
 * no description text). */
static int vocabulary(const tsift_session *s, const search_page *p, tsift_tokens *out) {
  for (size_t i = 0; i < p->n && out->count < VOCABULARY_WORDS; i++) {
    const char *id = s->index->catalog.tools[p->hits[i]].menu_name;
    size_t nsl = tsift_id_namespace(id);
    if (nsl && nsl <= PAGE_WORD_MAX_BYTES && !word_listed(out, id, nsl) && tsift_tokens_push(out, id, nsl)) return -1;
    tsift_tokens words;
    tsift_tokens_init(&words);
    tsift_error err;
    int rc = tsift_id_name_words(id, &words, &err) ? -1 : 0;
    for (size_t k = 0; !rc && k < words.count && out->count < VOCABULARY_WORDS; k++) {
      const char *wd = tsift_token(&words, k);
      if (words.len[k] < 3 || tsift_stopwords_has(&s->index->stopwords, wd, words.len[k]) ||
          word_listed(out, wd, words.len[k]))
        continue;
      if (tsift_tokens_push(out, wd, words.len[k])) rc = -1;
    }
    tsift_tokens_free(&words);
    if (rc) return -1;
  }
  return 0;
}

static void append_list(tsift_buf *b, const tsift_tokens *t) {
  for (size_t i = 0; i < t->count; i++) {
    if (i) tsift_buf_append(b, ", ", 2);
    tsift_buf_append(b, tsift_token(t, i), t->len[i]);
  }
}

/* A select: by bare names: which tool each loaded, from the query's names
 * and the page (the same words live and replayed). */
static void write_bare_names(tsift_buf *note, const tsift_session *s, const char *q, const search_page *p) {
  tsift_tokens names;
  tsift_error err;
  const char *why = NULL;
  tsift_tokens_init(&names);
  if (tsift_select_names(q, strlen(q), SIZE_MAX, &names, &why, &err)) {
    note->failed |= err.status == TSIFT_E_NOMEM; /* the output is not written without its note */
    tsift_tokens_free(&names);
    return;
  }
  int any = 0;
  for (size_t i = 0; i < p->n; i++) {
    const char *id = s->index->catalog.tools[p->hits[i]].menu_name;
    if (tsift_tokens_find(&names, id, strlen(id)) >= 0) continue;
    for (size_t k = 0; k < names.count; k++) {
      uint32_t only;
      if (tsift_session_bare_matches(s, tsift_token(&names, k), names.len[k], &only, 1) != 1 || only != p->hits[i])
        continue;
      if (any) tsift_buf_append(note, ", ", 2);
      else tsift_buf_append(note, "Loaded by the full name: ", 25);
      any = 1;
      tsift_buf_append(note, tsift_token(&names, k), names.len[k]);
      tsift_buf_append(note, " is ", 4);
      tsift_buf_append(note, id, strlen(id));
      break;
    }
  }
  if (any) tsift_buf_append(note, ". ", 2);
  tsift_tokens_free(&names);
}

/* For unknown select: names that several tools end with: "Did you mean
 * a, b, c?" (at most 5, in id order), nothing loaded for them. */
#define DID_YOU_MEAN_MAX 5
static void write_did_you_mean(tsift_buf *note, const tsift_session *s, const tsift_tokens *unknown) {
  for (size_t k = 0; k < unknown->count; k++) {
    uint32_t d[DID_YOU_MEAN_MAX];
    size_t n = tsift_session_bare_matches(s, tsift_token(unknown, k), unknown->len[k], d, DID_YOU_MEAN_MAX);
    if (n < 2) continue;
    tsift_buf_append(note, "For ", 4);
    tsift_buf_append(note, tsift_token(unknown, k), unknown->len[k]);
    tsift_buf_append(note, ", did you mean ", 15);
    for (size_t i = 0; i < n && i < DID_YOU_MEAN_MAX; i++) {
      if (i) tsift_buf_append(note, ", ", 2);
      const char *id = s->index->catalog.tools[d[i]].menu_name;
      tsift_buf_append(note, id, strlen(id));
    }
    if (n > DID_YOU_MEAN_MAX) tsift_buf_append(note, ", …", 5);
    tsift_buf_append(note, "? ", 2);
  }
}

/* Why some listed tools are not callable, in one or two sentences; empty
 * when every hit was loaded. */
static void write_note(tsift_buf *note, const tsift_session *s, const char *q, const search_page *p,
                       const uint8_t *loaded, size_t ns, int *offer_vocabulary) {
  int any_loaded = 0, partial = 0, tainted = 0, full = 0, strong = 0, withheld = 0;
  for (size_t i = 0; i < p->n; i++) {
    const tsift_tool *t = &s->index->catalog.tools[p->hits[i]];
    any_loaded |= loaded[i];
    strong |= p->grade[i] == PAGE_STRONG;
    withheld |= !t->tainted && !tsift_description_visible(t);
    if (loaded[i]) continue;
    if (t->tainted) tainted = 1;
    else if (s->load_strong && p->grade[i] == PAGE_PARTIAL) partial = 1;
    else full = 1; /* the caps kept it off (or, replayed, the record did) */
  }
  *offer_vocabulary = 0;
  if (p->selected) {
    write_bare_names(note, s, q, p);
    if (p->unknown.count) {
      tsift_buf_append(note, "No tool is named ", 17);
      append_list(note, &p->unknown);
      tsift_buf_append(note, ". ", 2);
      write_did_you_mean(note, s, &p->unknown);
    }
    if (p->on_menu.count) {
      tsift_buf_append(note, "Already among your tools: ", 26);
      append_list(note, &p->on_menu);
      tsift_buf_append(note, ". ", 2);
    }
  } else if (p->n == 0 && ns == 0) {
    tsift_buf_append(note, "No matching tools found.", 24);
    if (p->unmatched.count) {
      tsift_buf_append(note, " Words that matched nothing: ", 29);
      append_list(note, &p->unmatched);
      tsift_buf_putc(note, '.');
    }
    tsift_buf_append(note, " Try other words. ", 18);
  } else if (partial && !any_loaded && !strong) { /* a strong hit that is tainted is a match, not a miss */
    const char *t = "No tool matches this request well, so none was loaded.";
    tsift_buf_append(note, t, strlen(t));
    if (p->unmatched.count) {
      tsift_buf_append(note, " Words that matched nothing: ", 29);
      append_list(note, &p->unmatched);
      tsift_buf_putc(note, '.');
    }
    t = " If a listed tool is what you need, load it with select:<name>; otherwise search again with "
        "the catalog's words (vocabulary). ";
    tsift_buf_append(note, t, strlen(t));
    *offer_vocabulary = 1;
  } else if (partial) {
    const char *t = "Tools marked loaded: false matched only part of the request; load one with select:<name> "
                    "if you need it. ";
    tsift_buf_append(note, t, strlen(t));
  }
  /* Why others are not callable: the menu's caps, or tainted text (SPEC S2:
   * such a tool is never loaded), or both. */
  const char *why = full && tainted ? "Tools marked loaded: false did not fit the menu or are tainted (their text "
                                      "reads like instructions to you, so they are never loaded), and cannot be called. "
                    : full          ? "Tools marked loaded: false did not fit the menu and cannot be called. "
                    : tainted       ? "Tools marked loaded: false are tainted: their text reads like instructions to "
                                      "you, so they are never loaded and cannot be called. "
                                    : NULL;
  if (why && partial) why = full && tainted ? "Others did not fit the menu or are tainted (never loaded). "
                            : full          ? "Others did not fit the menu. "
                                            : "Others are tainted (their text reads like instructions) and cannot be "
                                              "called. ";
  if (why) tsift_buf_append(note, why, strlen(why));
  /* SPEC S2: where a withheld description is met, what it means and who
   * can change it */
  if (withheld) {
    const char *t = "A description shown as withheld is a third-party server's own text, kept from you until the "
                    "operator vouches for that server (\"trusted\": true); the tool itself can be loaded and called.";
    tsift_buf_append(note, t, strlen(t));
  }
  while (note->len && note->data[note->len - 1] == ' ') note->len--; /* sentences end with ". " */
}

/* Plan loading, write the result and the decision, then commit: nothing
 * changes unless the whole output could be written. */
tsift_status tsift_page_finish(tsift_session *s, const call_ref *c, const char *q, const search_page *p,
                               const uint32_t *skill_hits, size_t ns, const ranker_kinds *kinds, warnings *w,
                               char **out, size_t *out_len, tsift_error *err) {
  char did[200];
  tsift_search_decision_id(s, c, did, sizeof did);
  uint8_t *loaded = tsift_calloc_array(p->n + 1, 1);
  if (!loaded) return tsift_nomem(err, "searching");
  size_t chars = 0;
  tsift_status st = plan_loading(s, p, c->pre, loaded, &chars, err);
  if (st) {
    tsift_free(loaded);
    return st;
  }
  tsift_buf b, note;
  tsift_buf_init(&b);
  tsift_buf_init(&note);
  tsift_tokens vocab;
  tsift_tokens_init(&vocab);
  int tainted = 0, offer_vocabulary = 0;
  tsift_session_begin_output(&b, c);
  tsift_json_key(&b, "result");
  tsift_json_begin_object(&b);
  tsift_json_key(&b, "tools");
  tsift_json_begin_array(&b);
  for (size_t i = 0; i < p->n; i++) {
    const tsift_tool *t = &s->index->catalog.tools[p->hits[i]];
    write_hit(&b, t, loaded[i], p, i);
    tainted |= !tsift_description_visible(t);
  }
  tsift_json_end_array(&b);
  if (tsift_session_discovers(s)) {
    /* Skills are first-party: their descriptions are shown as tools' are. */
    tsift_json_key(&b, "skills");
    tsift_json_begin_array(&b);
    for (size_t i = 0; i < ns; i++) write_hit(&b, &s->skills->index->catalog.tools[skill_hits[i]], -1, NULL, 0);
    tsift_json_end_array(&b);
  }
  if (p->unmatched.count) {
    tsift_json_key(&b, "unmatched");
    json_tokens(&b, &p->unmatched, 0, p->unmatched.count);
  }
  if (p->unknown.count) {
    tsift_json_key(&b, "unknown");
    json_tokens(&b, &p->unknown, 0, p->unknown.count);
  }
  write_note(&note, s, q, p, loaded, ns, &offer_vocabulary);
  if (offer_vocabulary && vocabulary(s, p, &vocab)) b.failed = 1;
  if (vocab.count) {
    tsift_json_key(&b, "vocabulary");
    json_tokens(&b, &vocab, 0, vocab.count);
  }
  if (note.len) tsift_json_key_str(&b, "note", note.data, note.len);
  if (note.failed) b.failed = 1;
  if (tainted) tsift_json_key_bool(&b, "tainted", 1);
  tsift_json_end_object(&b);
  tsift_json_key(&b, "decision");
  size_t dec_start = b.len;
  write_decision(&b, s, c, did, q, p, loaded, skill_hits, ns, kinds);
  size_t dec_end = b.len;
  tsift_write_warnings(&b, w);
  tsift_json_end_object(&b);
  tsift_buf_free(&note);
  tsift_tokens_free(&vocab);
  if (b.failed || w->nomem || !tsift_session_record(s, b.data + dec_start, dec_end - dec_start)) {
    /* a hit's stored description can be a bad code (a crafted snapshot) */
    tsift_status st = b.failed ? tsift_buf_error(&b, "writing a search result", err) : tsift_nomem(err, "recording a decision");
    tsift_buf_free(&b);
    tsift_free(loaded);
    return st;
  }
  *out = tsift_buf_take(&b, out_len);
  /* Commit. */
  s->ndecisions++;
  s->last_turn = c->turn;
  s->last_call = c->call;
  s->last_pre = c->pre;
  if (c->pre) s->metrics.pre_searches++; /* not the model's: maxSearches is the model's budget */
  else s->searches++;
  for (size_t i = 0; i < p->n; i++)
    if (loaded[i]) {
      tsift_session_menu_add(s, p->hits[i]);
      s->searched_loaded++;
      s->metrics.loaded++;
    }
  s->menu_chars = chars;
  if (!c->pre) s->metrics.searches++;
  s->metrics.hits += p->n + ns;
  if (p->n == 0 && ns == 0) s->metrics.no_match++;
  if (p->replayed) s->metrics.replayed++;
  tsift_free(loaded);
  return tsift_ok(err);
}
