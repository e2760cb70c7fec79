/* session_internal.h — the session object and what its files share:
 * session.c (life cycle, calls, the menu and journal as outputs, replay
 * of a whole journal), session_config.c (reading the configuration),
 * session_search.c (search_tools: the universe, ranking, host rankers,
 * loading, re-admission of recorded decisions), session_skill.c
 * (activate_skill) and session_common.c (what all three use). Calls go one
 * way: session.c -> session_config.c, session_search.c, session_skill.c ->
 * session_common.c. */
#ifndef TSIFT_SESSION_INTERNAL_H
#define TSIFT_SESSION_INTERNAL_H

#include "cJSON.h"
#include "rank/rank.h"
#include "session/journal_mac.h"
#include "json/json_out.h"
#include "base/sha256.h"
#include "session/skills.h"
#include "toolsift.h"

#define MAX_PER_SEARCH_DEFAULT 5
#define MAX_PER_SEARCH_CEILING 50
/* A pre-search's page (search.preSearchLimit): nobody asked for it, so it
 * loads fewer than a search would — 2 halved the irrelevant tools loaded per
 * message on both graded sets for a small loss of the best tool
 * (docs/sessions.md, "Pre-search"). */
#define PRE_SEARCH_LIMIT_DEFAULT 2
#define MAX_LOADED_DEFAULT 20
#define MAX_LOADED_CEILING 200
#define MAX_SEARCHES_DEFAULT 25
#define MAX_SEARCHES_CEILING 200
#define MAX_MENU_CHARS_CEILING 10000000
#define RESULT_DESCRIPTION_CHARS 160
#define ARGS_MAX_BYTES 65536
#define NAME_ECHO_BYTES 64
#define MAX_WARNINGS 16

typedef enum { DIVERGE_FAIL = 0, DIVERGE_WARN, DIVERGE_OFF } divergence_mode;

/* Ranking rounds for a host ranker: over-ask, then double while short. */
#define HOST_RANK_MAX_ROUNDS 4
#define HOST_RANK_MAX_WANT 1000

/* The call a model tool call answers (echoed in every output). */
typedef struct call_ref {
  uint32_t turn, call;
  const char *tool;
  uint8_t pre; /* a host's pre-search: before the model's calls of its turn */
} call_ref;

/* The grade of a hit on a page. */
enum { PAGE_UNGRADED = 0, PAGE_PARTIAL = 1, PAGE_STRONG = 2, PAGE_SELECTED = 3 };

/* A search's page, live or replayed: what it shows and records. */
typedef struct search_page {
  size_t n;
  uint32_t *hits;      /* catalog docs, best first */
  uint8_t *grade;      /* per hit: PAGE_* */
  uint8_t *permit;     /* per hit, replayed: the recorded loaded flag */
  tsift_tokens words;  /* every hit's matched words, hit after hit */
  uint32_t *words_end; /* per hit: the end of its words in `words` */
  tsift_tokens unmatched; /* query words that matched nothing */
  tsift_tokens unknown;   /* select: names no searchable tool has */
  tsift_tokens on_menu;   /* select: names already on the menu */
  uint8_t graded;   /* the hits carry grades */
  uint8_t selected; /* a select: page */
  uint8_t replayed; /* served from a recorded decision */
} search_page;

/* A live search waiting for a host ranker's answer: first the tools, then,
 * with skill discovery and a host skill ranker, the skills. */
typedef struct pending_search {
  uint32_t turn, call;
  char *query;
  size_t page, want;
  unsigned round;
  char *divergence_warning; /* carried into the final output, or NULL */
  int skills_phase;         /* 1: waiting for the skill ranking */
  search_page tool_page; /* the tools' page, once ranked */
} pending_search;

/* The journal's hash chain (journal_chain.c). */
#define CHAIN_MAX_HEADER_PROBLEMS 8
typedef struct journal_chain {
  tsift_chain_mac key;  /* the MAC: the host's journal key, or the empty key */
  uint8_t has_parent;
  uint8_t parent[32];   /* the host's journalParent */
  uint8_t head[32];     /* the digest of the journal's last line */
  uint8_t next[32];     /* the digest of the decision being written */
  char *header;         /* the header line, once the first decision is sealed */
  size_t header_len;
  /* A recorded journal's verification: per decision, why it does not
   * verify (NULL: it does); the journal as a whole. */
  char **problem;
  char *header_problems[CHAIN_MAX_HEADER_PROBLEMS];
  size_t nheader_problems;
  uint8_t unverifiable; /* an old journal, without a chain */
  uint8_t vocabulary_differs; /* recorded under another learned vocabulary (a divergence) */
  uint8_t warned;       /* the whole-journal warnings were given */
} journal_chain;

struct tsift_session {
  tsift_index *index;   /* the searchable catalog */
  uint8_t index_borrowed; /* not the session's to free (tsift_session_over_index) */
  tsift_catalog agent;  /* the agent's own tools (always on the menu) */
  char *loop, *tool_name;
  unsigned max_per_search, max_loaded, max_searches, pre_search_limit;
  long max_menu_chars; /* -1: no budget */
  char **namespaces;
  size_t nnamespaces;

  uint32_t *by_name; /* catalog docs sorted by menu name (ids.c), for lookups */
  uint8_t *ns_allowed, *on_menu;
  uint32_t *menu;  /* catalog docs on the menu in load order */
  size_t nmenu, nalways;
  size_t searched_loaded, menu_chars, searches;

  tsift_buf journal; /* JSON Lines of accepted decisions and call records */
  size_t ndecisions;
  /* The calls to catalog tools the session allowed, for a host's report
   * that one failed (tsift_session_call_failed): the record of each is in
   * the journal (docs/sessions.md, "Call records"). */
  struct allowed_call {
    uint32_t turn, call, doc;
    uint8_t failed;
  } *calls;
  size_t ncalls, calls_cap;
  char *client; /* session option "client": who the run serves, in the journal header, or NULL */
  uint32_t last_turn, last_call; /* of the last decision (when ndecisions > 0) */
  uint8_t last_pre;              /* ... which was a pre-search (its turn's first) */

  journal_chain chain;
  cJSON *replay; /* recorded decisions (array), or NULL */
  const cJSON **replay_items; /* the same, indexable (cJSON arrays are lists) */
  size_t nreplay;
  size_t replay_pos;
  divergence_mode divergence;

  /* A host ranker (NULL kind: the built-in BM25F). With a callback the
   * session asks it directly; without one, a search answers with a ranking
   * request that tsift_session_ranked completes (the wasm/JS path). */
  char *ranker_kind;
  tsift_rank_fn rank_fn;
  void *rank_user;
  pending_search *pending; /* a search waiting for the host's ranking */

  tsift_skills *skills; /* SPEC S8; NULL when off */

  /* The query vector of the next search (session_vector.c), owned, or
   * NULL; the built-in ranker fuses it (fusion.h) and the decision records
   * vec_kind, "bm25f-N+vec:<model>". Cleared after every search. */
  struct tsift_qvec *qvec;
  char vec_kind[96];
  /* The query embedder (tsift_session_set_embedder), borrowed, or NULL:
   * the built-in ranker embeds a query that has no host vector with it. */
  const struct tsift_static_model *embedder;
  double embedder_min_similarity;

  /* The loop's confidence (docs/sessions.md, read_loop_options). */
  uint8_t load_strong;    /* load only strong hits ("load": "strong") */
  tsift_grade_rule rule;  /* the grade rule's thresholds */
  uint8_t overview_on;    /* the catalog overview in the meta-tool's description */
  unsigned overview_chars;
  char *overview;         /* its text (built, or the host's), or NULL */

  /* Auto mode (search.auto, session_auto.c): when the universe fits the
   * budgets, every tool is on the menu from the start and search_tools is
   * not (menu_all). Decided once, when the session is created. */
  uint8_t auto_on, menu_all;
  unsigned auto_max_tools, auto_max_chars;

  struct {
    size_t searches, refusals, hits, no_match, loaded, ranker_calls, replayed, pre_searches;
  } metrics;
  char fingerprint[65];
};


/* ---- session.c ---- */
/* ---- session_config.c ---- */
/* Read the configuration cfg into s (session_new, before the options'
 * checks and the fingerprint); *file (may be NULL) is the parsed catalog
 * file that stands for "catalog", taken over by the index (then set NULL). */
tsift_status tsift_session_read_config(tsift_session *s, const cJSON *cfg, cJSON **file, const cJSON *vocabulary,
                                       tsift_error *err);
/* ---- session_vector.c ---- */
/* The next search's query vector: a copy of qv (NULL clears it). */
tsift_status tsift_session_use_qvec(tsift_session *s, const struct tsift_qvec *qv, tsift_error *err);
/* Drop the query vector (after a search). */
void tsift_session_drop_qvec(tsift_session *s);
/* The query vector of the search for text q[0..len) from the embedder,
 * when there is one and the host gave no vector. */
tsift_status tsift_session_embed_query(tsift_session *s, const char *q, size_t len, tsift_error *err);

/* A session over `index`, which it borrows, with session options (may be
 * NULL): for the loop evaluation (eval_loop.c) and the simulated runs of
 * learning's (simulate.c), one fresh session per query over one index. The
 * index may have lenient ids (never shown to a model there). */
tsift_status tsift_session_over_index(const char *config_json, size_t config_len, tsift_index *index,
                                      const char *options_json, size_t options_len, tsift_session **out,
                                      tsift_error *err);

/* Create a session: `index` (may be NULL) is a prebuilt index the session
 * takes over, e.g. one loaded from a snapshot; `catalog_file` (may be NULL)
 * the parsed catalog file the configuration names, which stands for its
 * "catalog" and is taken over too (also on failure). */
tsift_status tsift_session_create(const char *config_json, size_t config_len, tsift_index *index,
                                  cJSON *catalog_file, const char *journal, size_t journal_len,
                                  const char *options_json, size_t options_len, tsift_session **out,
                                  tsift_error *err);

/* ---- session_auto.c ---- */
/* Read search.auto (true, false or {"maxTools", "maxChars"}). */
tsift_status tsift_auto_read(tsift_session *s, const cJSON *v, tsift_error *err);
/* After the menu's start (agent tools, skills, alwaysLoaded): with
 * search.auto and a universe within both budgets, every tool joins the menu
 * and menu_all is set. */
tsift_status tsift_auto_decide(tsift_session *s, tsift_error *err);

/* ---- session_common.c ---- */
/* Put catalog doc d on the menu (no-op when it is there). */
void tsift_session_menu_add(tsift_session *s, uint32_t d);
/* A decision may be recorded at (turn, call): it advances past the last. */
tsift_status tsift_session_check_advance(const tsift_session *s, const call_ref *c, const char *what,
                                         tsift_error *err);
/* A search's decision id: "<loop>#turn:T:tool:C:search", or a pre-search's
 * "<loop>#turn:T:pre-search". */
void tsift_search_decision_id(const tsift_session *s, const call_ref *c, char *buf, size_t n);
/* Catalog doc with this id, or -1. */
long tsift_session_find_doc(const tsift_session *s, const char *id);
/* The tools of the universe (namespaces) whose id is a namespace and a
 * separator ("__", ".", ":") before `name` (a select: by a bare name): how
 * many, the first `max` of them in id order into out. */
size_t tsift_session_bare_matches(const tsift_session *s, const char *name, size_t n, uint32_t *out, size_t max);
/* Start an output object with its "call" member. */
void tsift_session_begin_output(tsift_buf *b, const call_ref *c);
/* Skills are searched beside tools (skills.discovery "search" or "both"). */
int tsift_session_discovers(const tsift_session *s);
/* A refusal: a typed result that records nothing. */
tsift_status tsift_session_refuse(tsift_session *s, const call_ref *c, const char *code,
                                  const char *message, const char *tool, char **out,
                                  size_t *out_len, tsift_error *err);
/* The same, echoing `name` (capped at NAME_ECHO_BYTES) under `key`. */
tsift_status tsift_session_refuse_echo(tsift_session *s, const call_ref *c, const char *code, const char *message,
                                       const char *key, const char *name, char **out, size_t *out_len,
                                       tsift_error *err);
/* Warnings carried into an output (at most MAX_WARNINGS). */
typedef struct warnings {
  char *items[MAX_WARNINGS];
  size_t n;
  int nomem;
} warnings;

void tsift_warn(warnings *w, const char *fmt, const char *a, const char *b);
void tsift_warnings_free(warnings *w);
void tsift_write_warnings(tsift_buf *b, const warnings *w);

/* The journal's call records (not decisions: replay skips them). */
#define CALL_SOURCE "agent-tool-call"
#define CALL_FAILED_SOURCE "agent-tool-call-failed"
/* Whether a journal line is a call record (CALL_SOURCE, CALL_FAILED_SOURCE). */
int tsift_journal_is_call_record(const cJSON *rec);
/* Move the replay position past call records (their chain problems, in
 * "warn" mode, into w when it is not NULL). */
void tsift_replay_skip_records(tsift_session *s, warnings *w);
/* The recorded decisions (call records not counted). */
size_t tsift_replay_decisions(const tsift_session *s);

/* ---- journal_chain.c ---- */
/* Key the chain (journalKey: hex or NULL) and take the host's parent digest
 * (journalParent: hex or NULL) from the session options. */
tsift_status tsift_chain_options(tsift_session *s, const cJSON *key, const cJSON *parent, tsift_error *err);
/* Append a decision line, sealed into the chain (after the header, first), to
 * the journal; 0 when out of memory (rolled back). */
int tsift_session_record(tsift_session *s, const char *decision, size_t len);
/* With a journalParent, write the header into the journal now. */
tsift_status tsift_chain_open(tsift_session *s, tsift_error *err);
/* Seal the decision (a JSON object) at b[start..): its digest, chained to
 * `prev` (NULL: the journal's head; the header is made first when needed),
 * goes into s->chain.next and, as a last "chain" member, into b. 0 when out
 * of memory. tsift_session_record commits it as the head. */
int tsift_chain_seal(tsift_session *s, tsift_buf *b, size_t start, const uint8_t *prev);
/* Whether a journal record is a chain header. */
int tsift_chain_is_header(const cJSON *rec);
/* Verify the recorded journal (header: its first line when it is one, or
 * NULL) against the live session; in "fail" mode the first problem is a
 * TSIFT_E_TAMPERED error. */
tsift_status tsift_chain_verify(tsift_session *s, const cJSON *header, tsift_error *err);
/* The warnings for serving recorded decision k (SIZE_MAX: none), in "warn"
 * mode: the journal-wide ones once, then decision k's. */
void tsift_chain_warn(tsift_session *s, size_t k, warnings *w);
void tsift_chain_free(tsift_session *s);

/* ---- session_page.c ---- */
/* The ranker kinds a decision records: the session's for a live search, the
 * record's own for a replayed one (the results are the record's, so is the
 * kind that ranked them; a replayed run's journal equals the original). */
typedef struct ranker_kinds {
  const char *ranker, *skill_ranker; /* skill_ranker NULL: none recorded */
} ranker_kinds;

void tsift_page_init(search_page *p);
void tsift_page_free(search_page *p);
/* Room for cap hits; -1 when out of memory. */
int tsift_page_reserve(search_page *p, size_t cap);
/* The hits, grades and matched words of a graded ranking, and the query's unmatched words. */
tsift_status tsift_page_from_ranking(search_page *p, const tsift_query *q, const tsift_ranking *r,
                                     tsift_error *err);
/* Append hit d with grade (PAGE_*) and no matched words. */
void tsift_page_add(search_page *p, uint32_t d, uint8_t grade);
/* Re-admit a recorded decision's value against the live universe (SPEC S9):
 * only strings, no duplicates, known ids inside the universe, at most cap;
 * grades, matched words and select: lists only as far as the recorded
 * query bears them out. */
tsift_status tsift_page_readmit(tsift_session *s, const cJSON *value, size_t cap, search_page *p, warnings *w,
                                tsift_error *err);
/* Why catalog doc d cannot be on a page of n hits (cap at most), or NULL. */
const char *tsift_page_inadmissible(const tsift_session *s, long d, const uint32_t *page, size_t n, size_t cap);
/* A warning that `id` was dropped from `what`, and why. */
void tsift_warn_dropped(warnings *w, const char *what, const char *id, const char *why);
/* Plan loading, write the result and the decision, then commit (nothing
 * changes unless all of it was written). */
tsift_status tsift_page_finish(tsift_session *s, const call_ref *c, const char *q, const search_page *p,
                               const uint32_t *skill_hits, size_t ns, const ranker_kinds *kinds, warnings *w,
                               char **out, size_t *out_len, tsift_error *err);

/* ---- session_select.c ---- */
/* A select: name is at most this long (an id is at most 128 bytes). */
#define TSIFT_SELECT_NAME_MAX_BYTES 128
/* The names of a "select:a,b" query (after the prefix, split at commas,
 * trimmed, duplicates dropped) into out; with detail, a refusal message
 * for names that cannot be (empty list, control characters, more than max
 * names, a name over 1024 bytes); TSIFT_E_ARG then. */
tsift_status tsift_select_names(const char *q, size_t n, size_t max, tsift_tokens *out, const char **detail,
                                tsift_error *err);
/* A query that starts with "select:" (after white space). */
int tsift_is_select(const char *q);

/* ---- session_search.c ---- */
/* Answer a search_tools call with parsed arguments. */
tsift_status tsift_session_search(tsift_session *s, const call_ref *c, const cJSON *args, char **out,
                                  size_t *out_len, tsift_error *err);
/* Drop a pending host ranking (if any). */
void tsift_session_drop_pending(tsift_session *s);
/* ---- session_skill.c ---- */
/* Answer an activate_skill call with parsed arguments. */
tsift_status tsift_session_activate(tsift_session *s, const call_ref *c, const cJSON *args, char **out,
                                    size_t *out_len, tsift_error *err);

#endif
