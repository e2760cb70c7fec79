/* session_search.c — the search_tools meta-tool (SPEC S6, S7, S9): argument
 * checks and refusals, the authorised universe, ranking (built-in BM25F or a
 * host ranker, whose answer is clipped, intersected and widened), the loading
 * plan under the caps, re-admission of recorded decisions, and the result and
 * decision written before any state changes. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fmt.h"
#include "session_internal.h"
#include "spec.h"

#define warn tsift_warn
#define warnings_free tsift_warnings_free

/* Cut s at `chars` Unicode characters; returns the byte length. */
static size_t cut_chars(const char *s, size_t n, size_t chars) {
  size_t i = 0, c = 0;
  while (i < n && c < chars) {
    i++;
    while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    c++;
  }
  return i;
}

/* ---- loading plan and re-admission ------------------------------------ */

/* In order, a tool loads while it is not tainted, the maxLoaded cap has room
 * and the menu budget fits it. `permit` (replay) further limits loading to
 * the recorded loaded ids. */
static tsift_status plan_loading(tsift_session *s, const uint32_t *page, size_t n, const uint8_t *permit,
                                 uint8_t *loaded, size_t *chars_out, tsift_error *err) {
  size_t count = s->searched_loaded, chars = s->menu_chars;
  for (size_t i = 0; i < n; i++) {
    const tsift_tool *t = &s->index->catalog.tools[page[i]];
    loaded[i] = 0;
    if ((permit && !permit[i]) || t->tainted || count >= s->max_loaded) continue;
    if (s->max_menu_chars >= 0) {
      size_t c = tsift_spec_chars(t);
      if (c == (size_t)-1) return tsift_nomem(err, "measuring a tool spec");
      if (chars + c > (size_t)s->max_menu_chars) continue;
      chars += c;
    }
    loaded[i] = 1;
    count++;
  }
  *chars_out = chars;
  return TSIFT_OK;
}

/* Why `id` cannot be on this page, or NULL when it can. */
static const char *inadmissible(const tsift_session *s, long d, const uint32_t *page, size_t n,
                                size_t cap) {
  if (d < 0) return "unknown";
  if (!s->ns_allowed[d]) return "outside the namespaces";
  if (s->on_menu[d]) return "already on the menu";
  for (size_t k = 0; k < n; k++)
    if (page[k] == (uint32_t)d) return "a duplicate";
  if (n >= cap) return "beyond the page size";
  return NULL;
}

static void warn_dropped(warnings *w, const char *what, const char *id, const char *why) {
  char idc[NAME_ECHO_BYTES + 1];
  size_t len = tsift_utf8_cut(id, strlen(id), NAME_ECHO_BYTES);
  memcpy(idc, id, len);
  idc[len] = 0;
  char fmt[64];
  tsift_snprintf(fmt, sizeof fmt, "%s: dropped \"%%s\": %%s", what);
  warn(w, fmt, idc, why);
}

/* Re-admit a recorded decision against the live universe (SPEC S9): only
 * strings, no duplicates, known ids inside the universe, at most `page`. */
static size_t readmit(tsift_session *s, const cJSON *value, size_t page, uint32_t *out, uint8_t *permit,
                      warnings *w) {
  const cJSON *results = cJSON_GetObjectItemCaseSensitive(value, "results");
  const cJSON *loaded = cJSON_GetObjectItemCaseSensitive(value, "loaded");
  if (!cJSON_IsObject(value)) warn(w, "replay: decision value is not an object%s%s", NULL, NULL);
  else if (!cJSON_IsArray(results)) warn(w, "replay: value.results is not an array%s%s", NULL, NULL);
  if (cJSON_IsObject(value) && !cJSON_IsArray(loaded))
    warn(w, "replay: value.loaded is not an array%s%s", NULL, NULL);
  size_t n = 0;
  const cJSON *r;
  if (!cJSON_IsArray(results)) return 0;
  cJSON_ArrayForEach(r, results) {
    if (!cJSON_IsString(r)) {
      warn(w, "replay: dropped a result that is not a string%s%s", NULL, NULL);
      continue;
    }
    long d = tsift_session_find_doc(s, r->valuestring);
    const char *why = inadmissible(s, d, out, n, page);
    if (why) {
      warn_dropped(w, "replay", r->valuestring, why);
      continue;
    }
    int was_loaded = 0;
    const cJSON *l;
    if (cJSON_IsArray(loaded))
      cJSON_ArrayForEach(l, loaded) was_loaded |= cJSON_IsString(l) && strcmp(l->valuestring, r->valuestring) == 0;
    permit[n] = (uint8_t)was_loaded;
    out[n++] = (uint32_t)d;
  }
  return n;
}

/* Re-admit a recorded search's skills (discovery on): strings, known
 * skills, not active, no duplicates, at most `room`. */
static size_t readmit_skills(tsift_session *s, const cJSON *value, size_t room, uint32_t *out, warnings *w) {
  const cJSON *skills = cJSON_GetObjectItemCaseSensitive(value, "skills");
  if (!cJSON_IsArray(skills)) {
    if (cJSON_IsObject(value)) warn(w, "replay: value.skills is not an array%s%s", NULL, NULL);
    return 0;
  }
  size_t n = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, skills) {
    if (!cJSON_IsString(r)) {
      warn(w, "replay: dropped a skill that is not a string%s%s", NULL, NULL);
      continue;
    }
    long k = tsift_skills_find(s->skills, r->valuestring);
    const char *why = NULL;
    if (k < 0) why = "unknown";
    else if (s->skills->active[k]) why = "already active";
    else if (s->skills->items[k].tainted) why = "tainted";
    for (size_t i = 0; !why && i < n; i++)
      if (out[i] == (uint32_t)k) why = "a duplicate";
    if (!why && n >= room) why = "beyond the page size";
    if (why) {
      warn_dropped(w, "replay: skill", r->valuestring, why);
      continue;
    }
    out[n++] = (uint32_t)k;
  }
  return n;
}

/* ---- finishing a search ----------------------------------------------- */

static const char *ranker_kind(const tsift_session *s) {
  return s->ranker_kind ? s->ranker_kind : TSIFT_RANKER_VERSION;
}

static int discovery_on(const tsift_session *s) {
  return s->skills && (s->skills->discovery & DISCOVERY_SEARCH);
}

/* The ranker kinds a decision records: the session's for a live search, the
 * record's own for a replayed one (the results are the record's, so is the
 * kind that ranked them; a replayed run's journal equals the original). */
typedef struct ranker_kinds {
  const char *ranker, *skill_ranker; /* skill_ranker NULL: none recorded */
} ranker_kinds;

/* A recorded kind is kept when it could have been set: 1..64 bytes, no
 * control characters. */
static const char *recorded_kind(const cJSON *value, const char *key) {
  const cJSON *k = cJSON_GetObjectItemCaseSensitive(value, key);
  if (!cJSON_IsString(k)) return NULL;
  size_t n = strlen(k->valuestring);
  if (n < 1 || n > 64) return NULL;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)k->valuestring[i] < 0x20 || k->valuestring[i] == 0x7f) return NULL;
  return k->valuestring;
}

static void write_decision(tsift_buf *b, const tsift_session *s, const char *id, const char *query,
                           size_t qlen, const uint32_t *page, size_t n, const uint8_t *loaded,
                           const uint32_t *skill_page, size_t ns, const ranker_kinds *kinds) {
  tsift_json_begin_object(b);
  tsift_json_key(b, "id");
  tsift_json_cstr(b, id);
  tsift_json_key(b, "source");
  tsift_json_cstr(b, "agent-tool-search");
  tsift_json_key(b, "value");
  tsift_json_begin_object(b);
  tsift_json_key(b, "ranker");
  tsift_json_cstr(b, kinds ? kinds->ranker : ranker_kind(s));
  const char *skill_kind = kinds ? kinds->skill_ranker : discovery_on(s) ? s->skills->ranker_kind : NULL;
  if (discovery_on(s) && skill_kind) {
    tsift_json_key(b, "skillRanker");
    tsift_json_cstr(b, skill_kind);
  }
  tsift_json_key(b, "query");
  tsift_json_str(b, query, cut_chars(query, qlen, QUERY_RECORD_CHARS));
  tsift_json_key(b, "results");
  tsift_json_begin_array(b);
  for (size_t i = 0; i < n; i++) tsift_json_cstr(b, s->index->catalog.tools[page[i]].id);
  tsift_json_end_array(b);
  tsift_json_key(b, "loaded");
  tsift_json_begin_array(b);
  for (size_t i = 0; i < n; i++)
    if (loaded[i]) tsift_json_cstr(b, s->index->catalog.tools[page[i]].id);
  tsift_json_end_array(b);
  if (discovery_on(s)) {
    tsift_json_key(b, "skills");
    tsift_json_begin_array(b);
    for (size_t i = 0; i < ns; i++) tsift_json_cstr(b, s->skills->items[skill_page[i]].id);
    tsift_json_end_array(b);
  }
  tsift_json_end_object(b);
  tsift_json_end_object(b);
}

/* One hit of a result page: {name, description[, loaded]} (loaded < 0:
 * a skill, which has no loaded flag). */
static void write_hit(tsift_buf *b, const tsift_tool *t, int loaded) {
  size_t dl = 0;
  char *desc = tsift_short_description(t, RESULT_DESCRIPTION_CHARS, &dl);
  if (!desc) b->failed = 1;
  tsift_json_begin_object(b);
  tsift_json_key(b, "name");
  tsift_json_cstr(b, t->id);
  tsift_json_key(b, "description");
  tsift_json_str(b, desc ? desc : "", desc ? dl : 0);
  if (loaded >= 0) {
    tsift_json_key(b, "loaded");
    tsift_json_bool(b, loaded);
  }
  tsift_json_end_object(b);
  tsift_free(desc);
}

/* Plan loading, write the result and the decision, then commit: nothing
 * changes unless the whole output could be written. `skill_hits` (ns of
 * them) are the page's skills when discovery is on. */
static tsift_status finish_search(tsift_session *s, const call_ref *c, const char *q, const uint32_t *hits,
                                  size_t n, const uint8_t *permit, const uint32_t *skill_hits, size_t ns,
                                  const ranker_kinds *replayed, warnings *w, char **out, size_t *out_len,
                                  tsift_error *err) {
  char did[200];
  tsift_snprintf(did, sizeof did, "%s#turn:%u:tool:%u:search", s->loop, c->turn, c->call);
  size_t qlen = strlen(q);
  uint8_t *loaded = tsift_calloc_array(n + 1, 1);
  if (!loaded) return tsift_nomem(err, "searching");
  size_t chars = 0;
  tsift_status st = plan_loading(s, hits, n, permit, loaded, &chars, err);
  if (st) {
    tsift_free(loaded);
    return st;
  }
  tsift_buf b;
  tsift_buf_init(&b);
  int tainted = 0, unloaded_tainted = 0, unloaded_other = 0;
  tsift_session_begin_output(&b, c);
  tsift_json_key(&b, "result");
  tsift_json_begin_object(&b);
  tsift_json_key(&b, "tools");
  tsift_json_begin_array(&b);
  for (size_t i = 0; i < n; i++) {
    const tsift_tool *t = &s->index->catalog.tools[hits[i]];
    write_hit(&b, t, loaded[i]);
    tainted |= !tsift_description_visible(t);
    if (!loaded[i] && t->tainted) unloaded_tainted = 1;
    else if (!loaded[i]) unloaded_other = 1;
  }
  tsift_json_end_array(&b);
  if (discovery_on(s)) {
    /* Skills are first-party: their descriptions are shown as tools' are. */
    tsift_json_key(&b, "skills");
    tsift_json_begin_array(&b);
    for (size_t i = 0; i < ns; i++) write_hit(&b, &s->skills->index->catalog.tools[skill_hits[i]], -1);
    tsift_json_end_array(&b);
  }
  if (n == 0 && ns == 0) {
    tsift_json_key(&b, "note");
    tsift_json_cstr(&b, "No matching tools found. Try other words.");
  } else if (unloaded_tainted || unloaded_other) {
    /* Why they are not callable: the menu's caps, or tainted text (SPEC S2:
     * such a tool is never loaded), or both. */
    tsift_json_key(&b, "note");
    tsift_json_cstr(&b, !unloaded_tainted ? "Tools marked loaded: false did not fit the menu and cannot be called."
                        : !unloaded_other ? "Tools marked loaded: false have untrusted descriptions and cannot be called."
                                          : "Tools marked loaded: false did not fit the menu or have untrusted "
                                            "descriptions, and cannot be called.");
  }
  if (tainted) {
    tsift_json_key(&b, "tainted");
    tsift_json_bool(&b, 1);
  }
  tsift_json_end_object(&b);
  tsift_json_key(&b, "decision");
  size_t dec_start = b.len;
  write_decision(&b, s, did, q, qlen, hits, n, loaded, skill_hits, ns, replayed);
  size_t dec_end = b.len;
  tsift_write_warnings(&b, w);
  tsift_json_end_object(&b);
  if (b.failed || w->nomem || !tsift_session_record(s, b.data + dec_start, dec_end - dec_start)) {
    tsift_buf_free(&b);
    tsift_free(loaded);
    return tsift_nomem(err, "recording a decision");
  }
  *out = tsift_buf_take(&b, out_len);
  /* Commit. */
  s->ndecisions++;
  s->last_turn = c->turn;
  s->last_call = c->call;
  s->searches++;
  for (size_t i = 0; i < n; i++)
    if (loaded[i]) {
      tsift_session_menu_add(s, hits[i]);
      s->searched_loaded++;
      s->metrics.loaded++;
    }
  s->menu_chars = chars;
  s->metrics.searches++;
  s->metrics.hits += n + ns;
  if (n == 0 && ns == 0) s->metrics.no_match++;
  if (replayed) s->metrics.replayed++;
  tsift_free(loaded);
  tsift_ok(err);
  return TSIFT_OK;
}

/* ---- sharing the page between tools and skills ------------------------ */

/* With a host ranker on either side the two rankings are not comparable:
 * the page takes them by rank position, tool first, and a kind that runs
 * out hands its share to the other. Writes how many of each are kept. */
static void interleave(size_t page, size_t nt, size_t ns, size_t *keep_t, size_t *keep_s) {
  size_t i = 0, j = 0;
  int tool_turn = 1;
  while (i + j < page && (i < nt || j < ns)) {
    if ((tool_turn && i < nt) || j >= ns) i++;
    else j++;
    tool_turn = !tool_turn;
  }
  *keep_t = i;
  *keep_s = j;
}

/* Both built-in: one BM25F order over both kinds (exact matches first, then
 * score; a tie goes to the tool). */
static void merge_by_score(size_t page, const tsift_scored *t, size_t nt, const tsift_scored *sk, size_t ns,
                           size_t *keep_t, size_t *keep_s) {
  size_t i = 0, j = 0;
  while (i + j < page && (i < nt || j < ns)) {
    int take_tool = j >= ns || (i < nt && (t[i].exact > sk[j].exact ||
                                           (t[i].exact == sk[j].exact && t[i].score >= sk[j].score)));
    if (take_tool) i++;
    else j++;
  }
  *keep_t = i;
  *keep_s = j;
}

/* BM25F over the skills that are not active, with statistics fitted to them. */
static tsift_status rank_skills(tsift_session *s, const char *q, size_t page, tsift_scored *scored, size_t *n,
                                tsift_error *err) {
  tsift_skills *sk = s->skills;
  *n = 0;
  uint8_t *allowed = tsift_calloc_array(sk->n + 1, 1);
  if (!allowed) return tsift_nomem(err, "searching skills");
  for (size_t k = 0; k < sk->n; k++) allowed[k] = (uint8_t)tsift_skills_searchable(sk, k);
  tsift_query tq;
  tsift_status st = tsift_query_analyze(q, strlen(q), &s->index->stopwords, &tq, err);
  if (!st) {
    tsift_stats stats;
    tsift_stats_fit(sk->index, allowed, &stats);
    tsift_ranking r;
    st = tsift_rank(sk->index, &tq, &stats, page, 0, &r, err);
    tsift_query_free(&tq);
    if (!st) {
      *n = r.nhits;
      memcpy(scored, r.hits, r.nhits * sizeof *scored);
      tsift_ranking_free(&r);
    }
  }
  tsift_free(allowed);
  return st;
}

/* ---- host rankers ----------------------------------------------------- */

void tsift_session_drop_pending(tsift_session *s) {
  if (!s->pending) return;
  tsift_free(s->pending->query);
  tsift_free(s->pending->divergence_warning);
  tsift_free(s->pending->tool_hits);
  tsift_free(s->pending);
  s->pending = NULL;
}

/* Tools the host ranker cannot know are off limits (namespace-denied or on
 * the menu): it is asked for that many more, so a full page survives the
 * intersection with the universe. For skills: the active ones. */
static size_t hidden_count(const tsift_session *s) {
  size_t hidden = 0;
  for (size_t d = 0; d < s->index->n; d++) hidden += !s->ns_allowed[d] || s->on_menu[d];
  return hidden;
}

static size_t capped_want(size_t page, size_t hidden) {
  size_t want = page + hidden;
  return want > HOST_RANK_MAX_WANT ? HOST_RANK_MAX_WANT : want;
}

/* Output a ranking request for the pending search. */
static tsift_status request_ranking(tsift_session *s, char **out, size_t *out_len, tsift_error *err) {
  pending_search *p = s->pending;
  call_ref c = {p->turn, p->call, s->tool_name};
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_session_begin_output(&b, &c);
  tsift_json_key(&b, "rank");
  tsift_json_begin_object(&b);
  tsift_json_key(&b, "kind");
  tsift_json_cstr(&b, p->skills_phase ? s->skills->ranker_kind : s->ranker_kind);
  tsift_json_key(&b, "query");
  tsift_json_cstr(&b, p->query);
  tsift_json_key(&b, "want");
  tsift_json_int(&b, (long long)p->want);
  if (p->skills_phase) {
    tsift_json_key(&b, "of");
    tsift_json_cstr(&b, "skills");
  }
  tsift_json_end_object(&b);
  tsift_json_end_object(&b);
  *out = tsift_buf_take(&b, out_len);
  if (!*out) {
    tsift_session_drop_pending(s);
    return tsift_nomem(err, "asking the ranker");
  }
  s->metrics.ranker_calls++;
  tsift_ok(err);
  return TSIFT_OK;
}

static tsift_status set_ranker(tsift_session *s, char **slot, tsift_rank_fn *fn_slot, void **user_slot,
                               const char *kind, tsift_rank_fn fn, void *user, tsift_error *err) {
  if (s->pending || s->searches)
    return tsift_fail(err, TSIFT_E_STATE, "ranker: set it before the first search");
  char *copy = NULL;
  if (kind) {
    size_t n = strlen(kind);
    if (n < 1 || n > 64 || !tsift_utf8_valid(kind, n, NULL))
      return tsift_fail(err, TSIFT_E_ARG, "ranker: kind must be 1 to 64 bytes of UTF-8");
    for (size_t i = 0; i < n; i++)
      if ((unsigned char)kind[i] < 0x20)
        return tsift_fail(err, TSIFT_E_ARG, "ranker: kind must not contain control characters");
    copy = tsift_strndup(kind, n);
    if (!copy) return tsift_nomem(err, "setting the ranker");
  }
  tsift_free(*slot);
  *slot = copy;
  *fn_slot = kind ? fn : NULL;
  *user_slot = kind ? user : NULL;
  tsift_ok(err);
  return TSIFT_OK;
}

tsift_status tsift_session_set_ranker(tsift_session *s, const char *kind, tsift_rank_fn fn, void *user,
                                      tsift_error *err) {
  if (!s) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_set_ranker: NULL session");
  return set_ranker(s, &s->ranker_kind, &s->rank_fn, &s->rank_user, kind, fn, user, err);
}

tsift_status tsift_session_set_skill_ranker(tsift_session *s, const char *kind, tsift_rank_fn fn, void *user,
                                            tsift_error *err) {
  if (!s) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_set_skill_ranker: NULL session");
  if (!discovery_on(s))
    return tsift_fail(err, TSIFT_E_STATE,
                      "skill ranker: skills are not searched in this session (skills.discovery must be "
                      "\"search\" or \"both\")");
  tsift_skills *sk = s->skills;
  return set_ranker(s, &sk->ranker_kind, &sk->rank_fn, &sk->rank_user, kind, fn, user, err);
}

/* The tools' page is final: rank the skills (discovery on), share the page
 * and finish; or ask the host's skill ranker first. `tool_scored` holds the
 * tools' BM25F scores when the tools were ranked built-in. */
static tsift_status tools_ranked(tsift_session *s, const call_ref *c, const char *q, size_t page,
                                 const uint32_t *hits, size_t n, const tsift_scored *tool_scored, warnings *w,
                                 char **out, size_t *out_len, tsift_error *err) {
  if (!discovery_on(s)) return finish_search(s, c, q, hits, n, NULL, NULL, 0, NULL, w, out, out_len, err);
  tsift_skills *sk = s->skills;
  if (sk->ranker_kind) {
    /* Two phases: keep the tools' page and ask for the skills. */
    pending_search *p = s->pending;
    if (!p) {
      p = tsift_calloc_array(1, sizeof *p);
      if (p) p->query = tsift_strndup(q, strlen(q));
      if (p && w->n) p->divergence_warning = tsift_strndup(w->items[0], strlen(w->items[0]));
      if (!p || !p->query || (w->n && !p->divergence_warning)) {
        if (p) {
          tsift_free(p->query);
          tsift_free(p->divergence_warning);
          tsift_free(p);
        }
        return tsift_nomem(err, "asking the skill ranker");
      }
      p->turn = c->turn;
      p->call = c->call;
      p->page = page;
      s->pending = p;
    }
    tsift_free(p->tool_hits);
    p->tool_hits = tsift_calloc_array(n + 1, sizeof *p->tool_hits);
    if (!p->tool_hits) {
      tsift_session_drop_pending(s);
      return tsift_nomem(err, "asking the skill ranker");
    }
    memcpy(p->tool_hits, hits, n * sizeof *hits);
    p->ntool_hits = n;
    p->skills_phase = 1;
    p->round = 0;
    size_t hidden = 0;
    for (size_t k = 0; k < sk->n; k++) hidden += !tsift_skills_searchable(sk, k);
    p->want = capped_want(page, hidden);
    return request_ranking(s, out, out_len, err);
  }
  tsift_scored *scored = tsift_calloc_array(page + 1, sizeof *scored);
  uint32_t *skill_hits = tsift_calloc_array(page + 1, sizeof *skill_hits);
  size_t ns = 0;
  tsift_status st = scored && skill_hits ? rank_skills(s, q, page, scored, &ns, err)
                                         : tsift_nomem(err, "searching skills");
  if (!st) {
    size_t keep_t = 0, keep_s = 0;
    if (tool_scored) merge_by_score(page, tool_scored, n, scored, ns, &keep_t, &keep_s);
    else interleave(page, n, ns, &keep_t, &keep_s);
    for (size_t i = 0; i < keep_s; i++) skill_hits[i] = scored[i].doc;
    st = finish_search(s, c, q, hits, keep_t, NULL, skill_hits, keep_s, NULL, w, out, out_len, err);
  }
  tsift_free(scored);
  tsift_free(skill_hits);
  return st;
}

/* Take the host's answer for the pending search: NULL or anything but a
 * JSON array is a failed ranker; non-string entries are skipped; the rest is
 * clipped to what was asked and intersected with the universe. */
static tsift_status take_ranking(tsift_session *s, const char *ids_json, size_t len, char **out,
                                 size_t *out_len, tsift_error *err) {
  pending_search *p = s->pending;
  call_ref c = {p->turn, p->call, s->tool_name};
  cJSON *ids = NULL;
  tsift_error perr;
  if (ids_json && tsift_json_parse(ids_json, len, "ranking", &ids, &perr) != TSIFT_OK &&
      perr.status == TSIFT_E_NOMEM)
    return tsift_nomem(err, "reading the ranking"); /* still pending: the host may retry */
  if (!ids_json || !cJSON_IsArray(ids)) {
    cJSON_Delete(ids);
    tsift_status st = tsift_session_refuse(s, &c, "search_unavailable", "the search is unavailable right now",
                                           NULL, out, out_len, err);
    if (st == TSIFT_OK) tsift_session_drop_pending(s); /* else still pending: the host may retry */
    return st;
  }
  uint32_t *hits = tsift_calloc_array(p->page + 1, sizeof *hits);
  warnings w = {{0}, 0, 0};
  if (!hits) {
    cJSON_Delete(ids);
    return tsift_nomem(err, "reading the ranking");
  }
  if (p->divergence_warning) warn(&w, "%s%s", p->divergence_warning, NULL);
  size_t n = 0, seen = 0, dropped = 0;
  const cJSON *id;
  cJSON_ArrayForEach(id, ids) {
    if (seen++ >= p->want) break; /* clipped to what was asked */
    if (!cJSON_IsString(id)) {
      dropped++;
      continue;
    }
    const char *why;
    long d;
    if (p->skills_phase) {
      d = tsift_skills_find(s->skills, id->valuestring);
      why = d < 0 || !tsift_skills_searchable(s->skills, (size_t)d) ? "outside the universe" : NULL;
      for (size_t k = 0; !why && k < n; k++)
        if (hits[k] == (uint32_t)d) why = "a duplicate";
      if (!why && n >= p->page) why = "beyond the page size";
    } else {
      d = tsift_session_find_doc(s, id->valuestring);
      why = inadmissible(s, d, hits, n, p->page);
    }
    if (why) {
      if (strcmp(why, "beyond the page size") != 0) dropped++;
      continue;
    }
    hits[n++] = (uint32_t)d;
  }
  if (dropped) {
    char count[32];
    tsift_snprintf(count, sizeof count, "%zu", dropped);
    warn(&w, p->skills_phase ? "skill ranker: dropped %s ids outside the universe%s"
                             : "ranker: dropped %s ids outside the universe%s",
         count, NULL);
  }
  /* Short page and a full answer: the ranker may know more. Ask again for
   * twice as many, at most HOST_RANK_MAX_ROUNDS rounds and 1000 ids. */
  tsift_status st;
  if (n < p->page && seen >= p->want && p->round + 1 < HOST_RANK_MAX_ROUNDS &&
      p->want < HOST_RANK_MAX_WANT) {
    p->round++;
    p->want = p->want * 2 > HOST_RANK_MAX_WANT ? HOST_RANK_MAX_WANT : p->want * 2;
    st = request_ranking(s, out, out_len, err);
  } else if (p->skills_phase) {
    size_t keep_t = 0, keep_s = 0;
    interleave(p->page, p->ntool_hits, n, &keep_t, &keep_s);
    st = finish_search(s, &c, p->query, p->tool_hits, keep_t, NULL, hits, keep_s, NULL, &w, out, out_len, err);
    if (st == TSIFT_OK) tsift_session_drop_pending(s);
  } else {
    /* tools_ranked either finishes or turns the pending search to skills. */
    int was_pending_only_for_tools = !discovery_on(s) || !s->skills->ranker_kind;
    st = tools_ranked(s, &c, p->query, p->page, hits, n, NULL, &w, out, out_len, err);
    if (st == TSIFT_OK && was_pending_only_for_tools) tsift_session_drop_pending(s);
  }
  warnings_free(&w);
  tsift_free(hits);
  cJSON_Delete(ids);
  return st;
}

tsift_status tsift_session_ranked(tsift_session *s, const char *ids_json, size_t len, char **out,
                                  size_t *out_len, tsift_error *err) {
  if (!s || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_ranked: NULL argument");
  *out = NULL;
  if (out_len) *out_len = 0;
  if (!s->pending) return tsift_fail(err, TSIFT_E_STATE, "ranked: no search is waiting for a ranking");
  return take_ranking(s, ids_json, len, out, out_len, err);
}

/* While the pending phase has a callback, run its rounds here; otherwise
 * hand the request out (two-phase). */
static tsift_status rank_with_host(tsift_session *s, tsift_status st, char **out, size_t *out_len,
                                   tsift_error *err) {
  for (;;) {
    pending_search *p = s->pending;
    if (st != TSIFT_OK || !p) return st;
    tsift_rank_fn fn = p->skills_phase ? s->skills->rank_fn : s->rank_fn;
    void *user = p->skills_phase ? s->skills->rank_user : s->rank_user;
    if (!fn) return st;
    tsift_free(*out);
    *out = NULL;
    const char *ids = NULL;
    size_t len = 0;
    int rc = fn(user, p->query, strlen(p->query), (unsigned)p->want, &ids, &len);
    st = take_ranking(s, rc == 0 ? ids : NULL, rc == 0 ? len : 0, out, out_len, err);
  }
}

/* ---- search_tools ----------------------------------------------------- */

tsift_status tsift_session_search(tsift_session *s, const call_ref *c, const cJSON *args, char **out,
                                  size_t *out_len, tsift_error *err) {
  const cJSON *query = cJSON_GetObjectItemCaseSensitive(args, "query");
  const cJSON *limit = cJSON_GetObjectItemCaseSensitive(args, "limit");
  int blank = 1;
  if (cJSON_IsString(query))
    for (const char *p = query->valuestring; *p && blank; p++)
      blank = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
  if (!cJSON_IsObject(args) || !cJSON_IsString(query) || blank)
    return tsift_session_refuse(s, c, "invalid_input", "query must be a non-empty string", NULL, out,
                                out_len, err);
  size_t page = s->max_per_search;
  if (limit && !cJSON_IsNull(limit)) {
    if (!tsift_json_integral(limit, 1, 1e15))
      return tsift_session_refuse(s, c, "invalid_input", "limit must be a positive integer", NULL, out,
                                  out_len, err);
    if (limit->valuedouble < (double)page) page = (size_t)limit->valuedouble;
  }
  /* Decision ids must be unique: searches advance in (turn, call) order. */
  tsift_status adv = tsift_session_check_advance(s, c, "search", err);
  if (adv) return adv;
  if (s->searches >= s->max_searches)
    return tsift_session_refuse(s, c, "search_limit_reached", "no searches left in this run", NULL, out,
                                out_len, err);

  char did[200];
  tsift_snprintf(did, sizeof did, "%s#turn:%u:tool:%u:search", s->loop, c->turn, c->call);
  const char *q = query->valuestring;
  warnings w = {{0}, 0, 0};
  tsift_status st = TSIFT_OK;
  uint32_t *hits = tsift_calloc_array(page, sizeof *hits);
  uint32_t *skill_hits = tsift_calloc_array(page, sizeof *skill_hits);
  uint8_t *permit = tsift_calloc_array(page, 1);
  if (!hits || !skill_hits || !permit) {
    st = tsift_nomem(err, "searching");
    goto done;
  }

  /* A recorded decision at this position is served instead of ranking. */
  if (s->replay) {
    const cJSON *rec = s->replay_pos < s->nreplay ? s->replay_items[s->replay_pos] : NULL;
    const cJSON *rid = cJSON_GetObjectItemCaseSensitive(rec, "id");
    if (rec && cJSON_IsString(rid) && strcmp(rid->valuestring, did) == 0) {
      const cJSON *value = cJSON_GetObjectItemCaseSensitive(rec, "value");
      size_t n = readmit(s, value, page, hits, permit, &w);
      size_t ns = discovery_on(s) ? readmit_skills(s, value, page - n, skill_hits, &w) : 0;
      /* A missing or unusable recorded kind reads as the session's own. */
      ranker_kinds kinds = {recorded_kind(value, "ranker"), recorded_kind(value, "skillRanker")};
      if (!kinds.ranker) kinds.ranker = ranker_kind(s);
      st = finish_search(s, c, q, hits, n, permit, skill_hits, ns, &kinds, &w, out, out_len, err);
      if (st == TSIFT_OK) s->replay_pos++;
      goto done;
    }
    if (s->divergence == DIVERGE_FAIL) {
      st = tsift_fail(err, TSIFT_E_DIVERGED, "replay: the journal has no decision \"%s\" at position %zu",
                      did, s->replay_pos + 1);
      goto done;
    }
    if (s->divergence == DIVERGE_WARN)
      warn(&w, "replay: the journal has no decision \"%s\" here; ranked live%s", did, NULL);
  }

  if (s->ranker_kind) {
    pending_search *p = tsift_calloc_array(1, sizeof *p);
    if (p) p->query = tsift_strndup(q, strlen(q));
    if (p && w.n) p->divergence_warning = tsift_strndup(w.items[0], strlen(w.items[0]));
    if (!p || !p->query || (w.n && !p->divergence_warning)) {
      if (p) {
        tsift_free(p->query);
        tsift_free(p->divergence_warning);
        tsift_free(p);
      }
      st = tsift_nomem(err, "asking the ranker");
      goto done;
    }
    p->turn = c->turn;
    p->call = c->call;
    p->page = page;
    p->want = capped_want(page, hidden_count(s));
    s->pending = p;
    st = rank_with_host(s, request_ranking(s, out, out_len, err), out, out_len, err);
    goto done;
  }

  /* Built-in BM25F over the universe: the catalog inside the namespaces,
   * minus the menu, with statistics fitted to it. */
  uint8_t *allowed = tsift_calloc_array(s->index->n + 1, 1);
  tsift_scored *scored = tsift_calloc_array(page, sizeof *scored);
  tsift_query tq;
  size_t n = 0;
  if (!allowed || !scored) st = tsift_nomem(err, "searching");
  if (!st) {
    for (size_t d = 0; d < s->index->n; d++) allowed[d] = s->ns_allowed[d] && !s->on_menu[d];
    st = tsift_query_analyze(q, strlen(q), &s->index->stopwords, &tq, err);
  }
  if (!st) {
    tsift_stats stats;
    tsift_stats_fit(s->index, allowed, &stats);
    tsift_ranking r;
    st = tsift_rank(s->index, &tq, &stats, page, 0, &r, err);
    tsift_query_free(&tq);
    if (!st) {
      n = r.nhits;
      memcpy(scored, r.hits, r.nhits * sizeof *scored);
      tsift_ranking_free(&r);
    }
  }
  if (!st) {
    for (size_t i = 0; i < n; i++) hits[i] = scored[i].doc;
    st = tools_ranked(s, c, q, page, hits, n, scored, &w, out, out_len, err);
    if (!st) {
      s->metrics.ranker_calls++;
      /* A host skill ranker may be next (with or without a callback). */
      st = rank_with_host(s, st, out, out_len, err);
    }
  }
  tsift_free(allowed);
  tsift_free(scored);
done:
  warnings_free(&w);
  tsift_free(hits);
  tsift_free(skill_hits);
  tsift_free(permit);
  return st;
}
