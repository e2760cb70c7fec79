/* learn.h — learning a catalog's vocabulary from recorded runs and labelled
 * examples (docs/learning.md): what learn.c (the learner, the rule, the
 * learned file) and learn_read.c (reading journals and example files into
 * evidence) share. Internal to the core. */
#ifndef TSIFT_LEARN_H
#define TSIFT_LEARN_H

#include <stddef.h>
#include <stdint.h>

#include "index/index.h"
#include "session/journal_mac.h"
#include "base/strtab.h"

/* The rule's defaults (docs/learning.md, "The rule"). */
#define LEARN_MIN_SESSIONS 3
#define LEARN_MIN_CLIENTS 2
#define LEARN_MAX_PER_CLIENT 3
#define LEARN_MIN_SHARE 0.1
#define LEARN_MIN_EXAMPLES 1

enum { UNVERIFIED_REFUSE = 0, UNVERIFIED_SKIP, UNVERIFIED_ACCEPT };
enum { EV_FOR = 0, EV_AGAINST = 1, EV_EXAMPLE = 2 };

/* Words and phrases ("w1 w2", two analysed words) interned to ids, and
 * client names (a leading 0x01 byte keeps them apart), with per entry a
 * phrase's two word ids (UINT32_MAX for a word or a client). */
typedef struct learn_words {
  tsift_strtab tab;
  uint32_t *part; /* 2 per entry */
  size_t part_cap;
} learn_words;

/* One piece of evidence: `word` (a word or phrase) for or against `tool`,
 * from a session of `client` (or an example, EV_EXAMPLE). */
typedef struct learn_ev {
  uint32_t word, tool, client, session;
  uint8_t kind;
} learn_ev;

/* The surface a word was written in, once per session it came from. */
typedef struct learn_surface {
  uint32_t word, surface;
} learn_surface;

struct tsift_learner {
  tsift_index *ix;
  uint8_t own_ix;
  /* the rule */
  unsigned min_sessions, min_clients, max_per_client, min_examples;
  double min_share;
  int unverified;
  tsift_chain_mac key;
  learn_words words;
  uint32_t *by_name; /* the tools in menu-name order (ids.c), for lookups (tsift_learn_tool) */
  /* per tool: the ids of every word of its own text, sorted (learn.c) */
  uint32_t **own;
  uint32_t *nown;
  learn_ev *ev;
  size_t nev, ev_cap;
  learn_surface *surf;
  size_t nsurf, surf_cap;
  /* provenance */
  size_t journals, skipped, sessions, examples;
  uint32_t *session_client; /* per session read, its client */
  size_t session_client_cap;
  uint32_t anonymous; /* the client id of journals that name none */
};

/* ---- learn.c ---- */
/* A learner over an index it borrows (its catalog without a learned
 * vocabulary) with the options object (may be NULL): eval_learn.c. */
tsift_status tsift_learner_over_index(tsift_index *ix, const cJSON *opts, tsift_learner **out, tsift_error *err);

/* ---- learn_evidence.c ---- */
/* The tool lookups, every tool's own words and the anonymous client (once
 * the learner has its index and options); what they and the evidence hold
 * is freed by tsift_learn_evidence_free. */
tsift_status tsift_learn_evidence_open(tsift_learner *l, tsift_error *err);
void tsift_learn_evidence_free(tsift_learner *l);
static inline const char *tsift_learn_text(const learn_words *w, uint32_t id) { return tsift_strtab_text(&w->tab, id); }
/* qsort that leaves an empty array alone; the order of uint32_t values. */
void tsift_learn_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
int tsift_learn_u32_cmp(const void *a, const void *b);
/* The id of s[0..n) (added when new), or UINT32_MAX when out of memory. */
uint32_t tsift_learn_intern(learn_words *w, const char *s, size_t n);
/* The id of the phrase of words a and b. */
uint32_t tsift_learn_phrase(learn_words *w, uint32_t a, uint32_t b);
/* 1 when `word` (a word, or a phrase both of whose words are) is in tool
 * d's own text. */
int tsift_learn_owns(const tsift_learner *l, uint32_t d, uint32_t word);
/* The tool with this id, or -1. */
long tsift_learn_tool(const tsift_learner *l, const char *id);
/* Append evidence; -1 when out of memory. */
int tsift_learn_add(tsift_learner *l, uint32_t word, uint32_t tool, uint32_t client, uint32_t session, int kind);
int tsift_learn_add_surface(tsift_learner *l, uint32_t word, uint32_t surface);

/* The learnable words and phrases of a request, as ids into out (room for
 * LEARN_REQUEST_MAX) with their surfaces; the count, or -1 when out of
 * memory. Words: the request's analysed terms that are no stopword and not
 * soft (query.c: an argument value — quoted, with a digit, one character —
 * or request phrasing — need, want, now, how, what…): the words of the
 * need, not of the asking; phrases: two such words in a row (stopwords
 * between them skipped, as the ranker pairs a query's terms). */
#define LEARN_REQUEST_MAX 256
int tsift_learn_request(tsift_learner *l, const char *q, size_t n, uint32_t *out, uint32_t *surfaces);

/* ---- learn_read.c ---- */
/* A journal's runs into evidence (one session per journal, its client the
 * header's). */
tsift_status tsift_learn_read_journal(tsift_learner *l, const char *name, const char *text, size_t len,
                                      tsift_error *err);
/* Labelled examples (JSON Lines {"query", "relevance" | "relevant"}). */
tsift_status tsift_learn_read_examples(tsift_learner *l, const char *name, const char *text, size_t len,
                                       tsift_error *err);

#endif
