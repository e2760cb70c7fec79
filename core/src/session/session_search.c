/* session_search.c — the search_tools meta-tool (SPEC S6, S7, S9): argument
 * checks and refusals, select: queries, the authorised universe, ranking
 * (built-in BM25F with grades, or a host ranker, whose answer is clipped,
 * intersected and widened), the page shared with skill hits, and recorded
 * decisions served in replay. The page itself — loading, the result, the
 * decision — is session_page.c's. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "session/session_internal.h"
#include "catalog/tool_spec.h"
#include "rank/vector_rank.h"
#include "index/vectors.h"
#include "json/json_read.h"

/* A pre-search reads as much of the host's text as a query's analysis does. */
#define PRE_SEARCH_MAX_BYTES 512
#define warn tsift_warn
#define warnings_free tsift_warnings_free

static const char *ranker_kind(const tsift_session *s) {
  if (s->ranker_kind) return s->ranker_kind;
  return s->vec_kind[0] ? s->vec_kind : TSIFT_RANKER_VERSION;
}

/* The kinds a live search records. */
static ranker_kinds live_kinds(const tsift_session *s) {
  ranker_kinds k = {ranker_kind(s), tsift_session_discovers(s) ? s->skills->ranker_kind : NULL};
  return k;
}

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
      tsift_warn_dropped(w, "replay: skill", r->valuestring, why);
      continue;
    }
    out[n++] = (uint32_t)k;
  }
  return n;
}

/* ---- select: ---------------------------------------------------------- */

/* A select: page: the named tools that are searchable (inside the
 * namespaces, not on the menu), in the order named; the others are listed
 * as unknown (a hidden tool is reported like one that does not exist) or
 * already on the menu. */
static tsift_status select_page(tsift_session *s, const tsift_tokens *names, search_page *p, tsift_error *err) {
  p->graded = 1;
  p->selected = 1;
  for (size_t i = 0; i < names->count; i++) {
    char name[TSIFT_SELECT_NAME_MAX_BYTES + 1];
    memcpy(name, tsift_token(names, i), names->len[i]);
    name[names->len[i]] = 0;
    long d = tsift_session_find_doc(s, name);
    /* A bare name ("create_entities") stands for the one namespaced tool
     * whose id ends with it; with several, none (the note lists them). */
    uint32_t only;
    if ((d < 0 || !s->ns_allowed[d]) && tsift_session_bare_matches(s, name, names->len[i], &only, 1) == 1)
      d = (long)only;
    int pushed;
    if (d >= 0 && s->ns_allowed[d] && s->on_menu[d]) pushed = tsift_tokens_push(&p->on_menu, name, names->len[i]);
    else if (d < 0 || !s->ns_allowed[d]) pushed = tsift_tokens_push(&p->unknown, name, names->len[i]);
    else {
      tsift_page_add(p, (uint32_t)d, PAGE_SELECTED);
      pushed = 0;
    }
    if (pushed) return tsift_nomem(err, "reading select:");
  }
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
    st = tsift_rank(sk->index, &tq, &stats, page, 0, NULL, &r, err);
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
  tsift_page_free(&s->pending->tool_page);
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
  call_ref c = {p->turn, p->call, s->tool_name, 0};
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_session_begin_output(&b, &c);
  tsift_json_key(&b, "rank");
  tsift_json_begin_object(&b);
  tsift_json_key_cstr(&b, "kind", p->skills_phase ? s->skills->ranker_kind : s->ranker_kind);
  tsift_json_key_cstr(&b, "query", p->query);
  tsift_json_key_int(&b, "want", (long long)p->want);
  if (p->skills_phase) tsift_json_key_cstr(&b, "of", "skills");
  tsift_json_end_object(&b);
  tsift_json_end_object(&b);
  *out = tsift_buf_take(&b, out_len);
  if (!*out) {
    tsift_session_drop_pending(s);
    return tsift_nomem(err, "asking the ranker");
  }
  s->metrics.ranker_calls++;
  return tsift_ok(err);
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
  return tsift_ok(err);
}

tsift_status tsift_session_set_ranker(tsift_session *s, const char *kind, tsift_rank_fn fn, void *user,
                                      tsift_error *err) {
  if (!s) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_set_ranker: NULL session");
  return set_ranker(s, &s->ranker_kind, &s->rank_fn, &s->rank_user, kind, fn, user, err);
}

tsift_status tsift_session_set_skill_ranker(tsift_session *s, const char *kind, tsift_rank_fn fn, void *user,
                                            tsift_error *err) {
  if (!s) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_set_skill_ranker: NULL session");
  if (!tsift_session_discovers(s))
    return tsift_fail(err, TSIFT_E_STATE,
                      "skill ranker: skills are not searched in this session (skills.discovery must be "
                      "\"search\" or \"both\")");
  tsift_skills *sk = s->skills;
  return set_ranker(s, &sk->ranker_kind, &sk->rank_fn, &sk->rank_user, kind, fn, user, err);
}

/* A search that waits for a host ranker, as s->pending (carrying the
 * replay's divergence warning into the final output); NULL when out of
 * memory. */
static pending_search *new_pending(tsift_session *s, const call_ref *c, const char *q, size_t page, warnings *w) {
  pending_search *p = tsift_calloc_array(1, sizeof *p);
  if (p) p->query = tsift_strndup(q, strlen(q));
  if (p && w->n) p->divergence_warning = tsift_strndup(w->items[0], strlen(w->items[0]));
  if (!p || !p->query || (w->n && !p->divergence_warning)) {
    if (p) {
      TSIFT_FREE_ALL(p->query, p->divergence_warning, p);
    }
    return NULL;
  }
  p->turn = c->turn;
  p->call = c->call;
  p->page = page;
  s->pending = p;
  return p;
}

/* The tools' page is final: rank the skills (discovery on), share the page
 * and finish; or ask the host's skill ranker first (the page moves into the
 * pending search then, and *tp is left empty). `tool_scored` holds the
 * tools' BM25F scores when the tools were ranked built-in. */
static tsift_status tools_ranked(tsift_session *s, const call_ref *c, const char *q, size_t page, search_page *tp,
                                 const tsift_scored *tool_scored, warnings *w, char **out, size_t *out_len,
                                 tsift_error *err) {
  ranker_kinds kinds = live_kinds(s);
  /* a pre-search finds tools only: the host loads what it needs */
  if (!tsift_session_discovers(s) || c->pre) return tsift_page_finish(s, c, q, tp, NULL, 0, &kinds, w, out, out_len, err);
  tsift_skills *sk = s->skills;
  if (sk->ranker_kind) {
    /* Two phases: keep the tools' page and ask for the skills. */
    pending_search *p = s->pending ? s->pending : new_pending(s, c, q, page, w);
    if (!p) return tsift_nomem(err, "asking the skill ranker");
    tsift_page_free(&p->tool_page);
    p->tool_page = *tp;
    tsift_page_init(tp);
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
    if (tool_scored) merge_by_score(page, tool_scored, tp->n, scored, ns, &keep_t, &keep_s);
    else interleave(page, tp->n, ns, &keep_t, &keep_s);
    for (size_t i = 0; i < keep_s; i++) skill_hits[i] = scored[i].doc;
    tp->n = keep_t;
    st = tsift_page_finish(s, c, q, tp, skill_hits, keep_s, &kinds, w, out, out_len, err);
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
  call_ref c = {p->turn, p->call, s->tool_name, 0};
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
  search_page hp; /* the host's page: docs in its order, ungraded */
  tsift_page_init(&hp);
  warnings w = {{0}, 0, 0};
  if (tsift_page_reserve(&hp, p->page)) {
    tsift_page_free(&hp);
    cJSON_Delete(ids);
    return tsift_nomem(err, "reading the ranking");
  }
  if (p->divergence_warning) warn(&w, "%s%s", p->divergence_warning, NULL);
  size_t seen = 0, dropped = 0;
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
      for (size_t k = 0; !why && k < hp.n; k++)
        if (hp.hits[k] == (uint32_t)d) why = "a duplicate";
      if (!why && hp.n >= p->page) why = "beyond the page size";
    } else {
      d = tsift_session_find_doc(s, id->valuestring);
      why = tsift_page_inadmissible(s, d, hp.hits, hp.n, p->page);
    }
    if (why) {
      if (strcmp(why, "beyond the page size") != 0) dropped++;
      continue;
    }
    tsift_page_add(&hp, (uint32_t)d, PAGE_UNGRADED);
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
  if (hp.n < p->page && seen >= p->want && p->round + 1 < HOST_RANK_MAX_ROUNDS &&
      p->want < HOST_RANK_MAX_WANT) {
    p->round++;
    p->want = p->want * 2 > HOST_RANK_MAX_WANT ? HOST_RANK_MAX_WANT : p->want * 2;
    st = request_ranking(s, out, out_len, err);
  } else if (p->skills_phase) {
    size_t keep_t = 0, keep_s = 0;
    interleave(p->page, p->tool_page.n, hp.n, &keep_t, &keep_s);
    p->tool_page.n = keep_t;
    ranker_kinds kinds = live_kinds(s);
    st = tsift_page_finish(s, &c, p->query, &p->tool_page, hp.hits, keep_s, &kinds, &w, out, out_len, err);
    if (st == TSIFT_OK) tsift_session_drop_pending(s);
  } else {
    /* tools_ranked either finishes or turns the pending search to skills. */
    int was_pending_only_for_tools = !tsift_session_discovers(s) || !s->skills->ranker_kind;
    st = tools_ranked(s, &c, p->query, p->page, &hp, NULL, &w, out, out_len, err);
    if (st == TSIFT_OK && was_pending_only_for_tools) tsift_session_drop_pending(s);
  }
  tsift_warnings_free(&w);
  tsift_page_free(&hp);
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

/* A recorded decision served instead of ranking (replay, SPEC S9). */
static tsift_status serve_recorded(tsift_session *s, const call_ref *c, const char *q, size_t page,
                                   const cJSON *rec, warnings *w, char **out, size_t *out_len, tsift_error *err) {
  const cJSON *value = cJSON_GetObjectItemCaseSensitive(rec, "value");
  search_page p;
  tsift_page_init(&p);
  uint32_t *skill_hits = tsift_calloc_array(page + 1, sizeof *skill_hits);
  tsift_status st = !skill_hits || tsift_page_reserve(&p, page) ? tsift_nomem(err, "replaying")
                                                                : tsift_page_readmit(s, value, page, &p, w, err);
  if (!st) {
    size_t ns = tsift_session_discovers(s) && !c->pre ? readmit_skills(s, value, page - p.n, skill_hits, w) : 0;
    /* A missing or unusable recorded kind reads as the session's own. */
    ranker_kinds kinds = {recorded_kind(value, "ranker"), recorded_kind(value, "skillRanker")};
    if (!kinds.ranker) kinds.ranker = ranker_kind(s);
    st = tsift_page_finish(s, c, q, &p, skill_hits, ns, &kinds, w, out, out_len, err);
    if (st == TSIFT_OK) s->replay_pos++;
  }
  tsift_page_free(&p);
  tsift_free(skill_hits);
  return st;
}

/* Hand the search to the host ranker (answered by tsift_session_ranked, or
 * by its callback right away). */
static tsift_status ask_host(tsift_session *s, const call_ref *c, const char *q, size_t page, warnings *w,
                             char **out, size_t *out_len, tsift_error *err) {
  pending_search *p = new_pending(s, c, q, page, w);
  if (!p) return tsift_nomem(err, "asking the ranker");
  p->want = capped_want(page, hidden_count(s));
  return rank_with_host(s, request_ranking(s, out, out_len, err), out, out_len, err);
}

/* Built-in BM25F over the universe — the catalog inside the namespaces,
 * minus the menu, with statistics fitted to it — graded (rank.h), with the
 * query's +words required. */
static tsift_status rank_builtin(tsift_session *s, const call_ref *c, const char *q, const tsift_query *tq,
                                 size_t page, warnings *w, char **out, size_t *out_len, tsift_error *err) {
  uint8_t *allowed = tsift_calloc_array(s->index->n + 1, 1);
  search_page p;
  tsift_page_init(&p);
  tsift_ranking r = {0};
  tsift_status st = !allowed || tsift_page_reserve(&p, page) ? tsift_nomem(err, "searching") : TSIFT_OK;
  if (!st) {
    for (size_t d = 0; d < s->index->n; d++) allowed[d] = s->ns_allowed[d] && !s->on_menu[d];
    tsift_stats stats;
    tsift_stats_fit(s->index, allowed, &stats);
    /* with a query vector (the host's, else the embedder's), similarity is
     * fused (fusion.h) and the decision records the kind */
    st = tsift_session_embed_query(s, q, strlen(q), err);
    if (!st && s->qvec) tsift_vec_ranker_kind(s->index, s->vec_kind);
    if (!st)
      st = tsift_rank_fused(s->index, tq, &stats, s->qvec, page, TSIFT_RANK_GRADE | TSIFT_RANK_REQUIRED,
                            &s->rule, &r, err);
  }
  if (!st) st = tsift_page_from_ranking(&p, tq, &r, err);
  if (!st) {
    st = tools_ranked(s, c, q, page, &p, r.hits, w, out, out_len, err);
    if (!st) {
      s->metrics.ranker_calls++;
      /* A host skill ranker may be next (with or without a callback). */
      st = rank_with_host(s, st, out, out_len, err);
    }
  }
  tsift_ranking_free(&r);
  tsift_page_free(&p);
  tsift_free(allowed);
  return st;
}

/* select:a,b — the named tools, no ranking (authority, caps, trust and
 * taint as for any page). */
static tsift_status select_search(tsift_session *s, const call_ref *c, const char *q, const tsift_tokens *names,
                                  size_t page, warnings *w, char **out, size_t *out_len, tsift_error *err) {
  search_page p;
  tsift_page_init(&p);
  tsift_status st = tsift_page_reserve(&p, page) ? tsift_nomem(err, "searching") : select_page(s, names, &p, err);
  ranker_kinds kinds = {"select", tsift_session_discovers(s) ? s->skills->ranker_kind : NULL};
  if (!st) st = tsift_page_finish(s, c, q, &p, NULL, 0, &kinds, w, out, out_len, err);
  tsift_page_free(&p);
  return st;
}

/* The conventions of the query, checked before anything is recorded: a
 * select: list that can be served, +words that mean something. Returns a
 * refusal message, or NULL. */
static const char *query_refusal(const tsift_query *tq, int selecting, const char *select_why) {
  if (selecting) return select_why;
  if (tq->plus_alone) return "a + must stand right before a word every result must contain, as in +postgres";
  if (tq->plus_lost) return "a +word must be a word tools use, not a common word such as \"the\"";
  return NULL;
}

/* A search whose query was read: its decision, served from the journal on
 * replay, else ranked (or a select: page when `names`). Decision ids must
 * be unique: searches advance in (turn, call) order. */
static tsift_status decide(tsift_session *s, const call_ref *c, const char *q, const tsift_query *tq,
                           const tsift_tokens *names, size_t page, char **out, size_t *out_len, tsift_error *err) {
  tsift_status st = tsift_session_check_advance(s, c, c->pre ? "pre-search" : "search", err);
  if (st) return st;
  if (!c->pre && s->searches >= s->max_searches)
    return tsift_session_refuse(s, c, "search_limit_reached", "no searches left in this run", NULL, out, out_len, err);
  char did[200];
  tsift_search_decision_id(s, c, did, sizeof did);
  warnings w = {{0}, 0, 0};
  tsift_replay_skip_records(s, &w);
  const cJSON *rec = s->replay && s->replay_pos < s->nreplay ? s->replay_items[s->replay_pos] : NULL;
  const cJSON *rid = cJSON_GetObjectItemCaseSensitive(rec, "id");
  int here = rec && cJSON_IsString(rid) && strcmp(rid->valuestring, did) == 0, served = 0;
  if (s->replay) tsift_chain_warn(s, here ? s->replay_pos : SIZE_MAX, &w);
  if (s->replay && here) {
    st = serve_recorded(s, c, q, page, rec, &w, out, out_len, err);
    served = 1;
  } else if (s->replay && s->divergence == DIVERGE_FAIL) {
    st = tsift_fail(err, TSIFT_E_DIVERGED, "replay: the journal has no decision \"%s\" at position %zu", did,
                    s->replay_pos + 1);
    served = 1;
  } else if (s->replay && s->divergence == DIVERGE_WARN) {
    warn(&w, "replay: the journal has no decision \"%s\" here; ranked live%s", did, NULL);
  }
  if (!served) {
    if (names) st = select_search(s, c, q, names, page, &w, out, out_len, err);
    else if (s->ranker_kind) st = ask_host(s, c, q, page, &w, out, out_len, err);
    else st = rank_builtin(s, c, q, tq, page, &w, out, out_len, err);
  }
  warnings_free(&w);
  return st;
}

static tsift_status search_call(tsift_session *s, const call_ref *c, const cJSON *args, char **out,
                                size_t *out_len, tsift_error *err);

tsift_status tsift_session_search(tsift_session *s, const call_ref *c, const cJSON *args, char **out,
                                  size_t *out_len, tsift_error *err) {
  tsift_status st = search_call(s, c, args, out, out_len, err);
  tsift_session_drop_qvec(s); /* a query vector is for one search, whatever became of it */
  return st;
}

static tsift_status search_call(tsift_session *s, const call_ref *c, const cJSON *args, char **out,
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
  const char *q = query->valuestring;
  int selecting = tsift_is_select(q);
  tsift_tokens names;
  tsift_tokens_init(&names);
  tsift_query tq;
  memset(&tq, 0, sizeof tq);
  const char *why = NULL;
  tsift_error perr;
  tsift_status st = selecting ? tsift_select_names(q, strlen(q), page, &names, &why, &perr)
                              : tsift_query_analyze(q, strlen(q), &s->index->stopwords, &tq, &perr);
  if (st == TSIFT_E_NOMEM) {
    tsift_tokens_free(&names);
    return tsift_nomem(err, "reading the query");
  }
  why = query_refusal(&tq, selecting, why);
  if (why) {
    tsift_tokens_free(&names);
    tsift_query_free(&tq);
    return tsift_session_refuse(s, c, "invalid_input", why, NULL, out, out_len, err);
  }
  st = decide(s, c, q, &tq, selecting ? &names : NULL, page, out, out_len, err);
  tsift_tokens_free(&names);
  tsift_query_free(&tq);
  return st;
}

/* ---- pre-search ------------------------------------------------------- */

tsift_status tsift_session_pre_search(tsift_session *s, uint32_t turn, const char *text, size_t len, char **out,
                                      size_t *out_len, tsift_error *err) {
  if (!s || !out || (!text && len)) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_pre_search: NULL argument");
  *out = NULL;
  if (out_len) *out_len = 0;
  if (s->pending)
    return tsift_fail(err, TSIFT_E_STATE, "a search is waiting for its ranking: answer it with tsift_session_ranked");
  if (s->menu_all)
    return tsift_fail(err, TSIFT_E_STATE, "pre-search: every tool is on the menu already (search.auto)");
  if (s->ranker_kind)
    return tsift_fail(err, TSIFT_E_STATE,
                      "pre-search: this session ranks with a host ranker, whose pages are not graded; pre-search "
                      "loads only strong hits of the built-in ranker");
  /* The user's words, as a query reads them (its first 512 bytes), kept
   * as the decision's query: never select: or +word, which are the model's
   * conventions, not the user's. */
  size_t n = 0;
  char *q = tsift_utf8_sanitize(text ? text : "", tsift_utf8_cut(text ? text : "", len, PRE_SEARCH_MAX_BYTES), &n);
  if (!q) return tsift_nomem(err, "pre-searching");
  for (size_t i = 0; i < n; i++)
    if (q[i] == 0) q[i] = ' '; /* the query is recorded as a C string */
  tsift_query tq;
  memset(&tq, 0, sizeof tq);
  tsift_status st = tsift_query_analyze(q, n, &s->index->stopwords, &tq, err);
  if (!st) {
    for (size_t i = 0; i < tq.terms.count; i++) tq.term_required[i] = 0;
    call_ref c = {turn, 0, "pre-search", 1};
    size_t page = s->pre_search_limit < s->max_per_search ? s->pre_search_limit : s->max_per_search;
    st = decide(s, &c, q, &tq, NULL, page, out, out_len, err);
  }
  tsift_query_free(&tq);
  tsift_free(q);
  return st;
}
