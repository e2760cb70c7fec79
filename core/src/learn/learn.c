/* learn.c — a catalog that learns its users' words (docs/learning.md): the
 * learner, the rule that turns evidence into labels, and the learned file.
 *
 * Evidence (learn_read.c) is a list of (word or phrase, tool, client,
 * session, for | against | example) tuples; nothing else of a request is
 * kept, so no raw request text can reach the output. At the end the tuples
 * are sorted, which makes the result independent of the order the journals
 * came in, and the rule (docs/learning.md, "The rule") keeps, per tool,
 *   - only words its own text lacks (learning closes a vocabulary gap; and
 *     a tool's own text, trusted or not, can never teach it a word),
 *   - that enough distinct sessions of enough distinct clients used for it
 *     (no client counts for more than max_per_client sessions anywhere, so
 *     one client can neither teach a word nor drown one), or the host's own
 *     examples did,
 *   - that at least min_share of the requests using the word went to it,
 *   - with more evidence for than against (loaded for the word, never called),
 * the best 16 words as tags and the best 16 phrases as aliases, scored by
 * (for − against) × share. */
#include "learn/learn.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "base/fmt.h"
#include "json/json_check.h"
#include "json/json_out.h"
#include "json/json_read.h"

/* ---- the learner ------------------------------------------------------ */

void tsift_learner_free(tsift_learner *l) {
  if (!l) return;
  tsift_learn_evidence_free(l);
  if (l->own_ix) tsift_index_free(l->ix); /* last: the evidence's lists are sized by it */
  tsift_free(l);
}

/* ---- options ------------------------------------------------------------ */

static tsift_status read_count(const cJSON *o, const char *key, unsigned lo, unsigned hi, unsigned *out,
                               tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!v || cJSON_IsNull(v)) return TSIFT_OK;
  if (!tsift_json_integral(v, lo, hi))
    return tsift_fail(err, TSIFT_E_CONFIG, "learn options: %s: expected an integer from %u to %u", key, lo, hi);
  *out = (unsigned)v->valuedouble;
  return TSIFT_OK;
}

static tsift_status read_options(tsift_learner *l, const cJSON *o, tsift_error *err) {
  l->min_sessions = LEARN_MIN_SESSIONS;
  l->min_clients = LEARN_MIN_CLIENTS;
  l->max_per_client = LEARN_MAX_PER_CLIENT;
  l->min_share = LEARN_MIN_SHARE;
  l->min_examples = LEARN_MIN_EXAMPLES;
  l->unverified = UNVERIFIED_REFUSE;
  if (!o || cJSON_IsNull(o)) return tsift_chain_mac_key(&l->key, NULL, "learn options: journalKey", err);
  if (!cJSON_IsObject(o)) return tsift_fail(err, TSIFT_E_CONFIG, "learn options: expected an object");
  static const char *const keys[] = {"index", "minSessions", "minClients", "maxPerClient", "minShare",
                                     "minExamples", "unverified", "journalKey", NULL};
  const cJSON *item;
  cJSON_ArrayForEach(item, o) {
    size_t k = 0;
    while (keys[k] && strcmp(keys[k], item->string) != 0) k++;
    if (!keys[k]) return tsift_json_unknown_key(err, TSIFT_E_CONFIG, "learn options", item->string);
  }
  tsift_status st;
  if ((st = read_count(o, "minSessions", 1, 1000000, &l->min_sessions, err)) ||
      (st = read_count(o, "minClients", 1, 1000000, &l->min_clients, err)) ||
      (st = read_count(o, "maxPerClient", 0, 1000000, &l->max_per_client, err)) ||
      (st = read_count(o, "minExamples", 1, 1000000, &l->min_examples, err)))
    return st;
  const cJSON *share = cJSON_GetObjectItemCaseSensitive(o, "minShare");
  if (share && !cJSON_IsNull(share)) {
    if (!cJSON_IsNumber(share) || !(share->valuedouble >= 0.0 && share->valuedouble <= 1.0))
      return tsift_fail(err, TSIFT_E_CONFIG, "learn options: minShare: expected a number from 0 to 1");
    l->min_share = (double)(long)(share->valuedouble * 1000.0 + 0.5) / 1000.0;
  }
  const cJSON *u = cJSON_GetObjectItemCaseSensitive(o, "unverified");
  if (u && !cJSON_IsNull(u)) {
    if (cJSON_IsString(u) && strcmp(u->valuestring, "refuse") == 0) l->unverified = UNVERIFIED_REFUSE;
    else if (cJSON_IsString(u) && strcmp(u->valuestring, "skip") == 0) l->unverified = UNVERIFIED_SKIP;
    else if (cJSON_IsString(u) && strcmp(u->valuestring, "accept") == 0) l->unverified = UNVERIFIED_ACCEPT;
    else return tsift_fail(err, TSIFT_E_CONFIG, "learn options: unverified: expected \"refuse\", \"skip\" or \"accept\"");
  }
  return tsift_chain_mac_key(&l->key, cJSON_GetObjectItemCaseSensitive(o, "journalKey"),
                             "learn options: journalKey", err);
}

static tsift_status learner_open(tsift_index *ix, int own_ix, const cJSON *opts, tsift_learner **out,
                                 tsift_error *err) {
  tsift_learner *l = tsift_calloc_array(1, sizeof *l);
  if (!l) {
    if (own_ix) tsift_index_free(ix);
    return tsift_nomem(err, "learning");
  }
  l->ix = ix;
  l->own_ix = (uint8_t)own_ix;
  tsift_status st = read_options(l, opts, err);
  if (!st) st = tsift_learn_evidence_open(l, err);
  if (st) {
    tsift_learner_free(l);
    return st;
  }
  *out = l;
  return tsift_ok(err);
}

tsift_status tsift_learner_over_index(tsift_index *ix, const cJSON *opts, tsift_learner **out, tsift_error *err) {
  *out = NULL;
  return learner_open(ix, 0, opts, out, err);
}

tsift_status tsift_learner_new(const char *catalog, size_t catalog_len, const char *options_json,
                               size_t options_len, tsift_learner **out, tsift_error *err) {
  if (!out || (!catalog && catalog_len) || (!options_json && options_len))
    return tsift_fail(err, TSIFT_E_ARG, "tsift_learner_new: NULL argument");
  *out = NULL;
  cJSON *opts = NULL;
  tsift_status st = options_len ? tsift_json_parse(options_json, options_len, "learn options", &opts, err) : TSIFT_OK;
  if (st) return st;
  const cJSON *index_opts = cJSON_GetObjectItemCaseSensitive(opts, "index");
  char *itext = NULL;
  if (index_opts && !cJSON_IsNull(index_opts)) {
    if (cJSON_GetObjectItemCaseSensitive(index_opts, "annotations"))
      st = tsift_fail(err, TSIFT_E_CONFIG,
                      "learn options: index: annotations: learning reads the catalog without a learned vocabulary "
                      "(the catalog's own annotations count as its text)");
    else if (!(itext = cJSON_PrintUnformatted(index_opts)))
      st = tsift_nomem(err, "learning");
  }
  tsift_index *ix = NULL;
  if (!st) st = tsift_index_build(catalog, catalog_len, itext, itext ? strlen(itext) : 0, &ix, err);
  cJSON_free(itext);
  if (!st) st = learner_open(ix, 1, opts, out, err);
  cJSON_Delete(opts);
  return st;
}

tsift_status tsift_learner_add_journal(tsift_learner *l, const char *name, const char *text, size_t len,
                                       tsift_error *err) {
  if (!l || !name || (!text && len)) return tsift_fail(err, TSIFT_E_ARG, "tsift_learner_add_journal: NULL argument");
  return tsift_learn_read_journal(l, name, text ? text : "", len, err);
}

tsift_status tsift_learner_add_examples(tsift_learner *l, const char *name, const char *text, size_t len,
                                        tsift_error *err) {
  if (!l || !name || (!text && len)) return tsift_fail(err, TSIFT_E_ARG, "tsift_learner_add_examples: NULL argument");
  return tsift_learn_read_examples(l, name, text ? text : "", len, err);
}

/* ---- the rule ------------------------------------------------------------ */

static int ev_cmp(const void *a, const void *b) {
  const learn_ev *x = a, *y = b;
  if (x->word != y->word) return x->word < y->word ? -1 : 1;
  if (x->tool != y->tool) return x->tool < y->tool ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  if (x->client != y->client) return x->client < y->client ? -1 : 1;
  return x->session < y->session ? -1 : x->session > y->session;
}

/* A word's uses: the sessions (and examples) that attributed it to any tool. */
static int use_cmp(const void *a, const void *b) {
  const learn_ev *x = a, *y = b;
  if (x->word != y->word) return x->word < y->word ? -1 : 1;
  int xe = x->kind == EV_EXAMPLE, ye = y->kind == EV_EXAMPLE;
  if (xe != ye) return xe - ye;
  if (x->client != y->client) return x->client < y->client ? -1 : 1;
  return x->session < y->session ? -1 : x->session > y->session;
}

/* The evidence of one (word, tool): sessions for (per client at most
 * max_per_client), clients for, examples, sessions against. */
typedef struct tally {
  size_t sessions, clients, examples, against;
} tally;

/* Count ev[*i ..) of one (word, tool, kind) into sessions and clients,
 * advancing *i past them. */
static void count_kind(const tsift_learner *l, const learn_ev *ev, size_t nev, size_t *i, size_t *sessions,
                       size_t *clients) {
  const learn_ev *first = &ev[*i];
  while (*i < nev && ev[*i].word == first->word && ev[*i].tool == first->tool && ev[*i].kind == first->kind) {
    uint32_t client = ev[*i].client;
    size_t mine = 0;
    uint32_t last = UINT32_MAX;
    for (; *i < nev && ev[*i].word == first->word && ev[*i].tool == first->tool && ev[*i].kind == first->kind &&
           ev[*i].client == client;
         (*i)++)
      if (ev[*i].session != last) {
        last = ev[*i].session;
        mine++;
      }
    if (l->max_per_client && mine > l->max_per_client && first->kind != EV_EXAMPLE) mine = l->max_per_client;
    *sessions += mine;
    (*clients)++;
  }
}

typedef struct learned {
  uint32_t word, tool, tool_rank; /* tool_rank: the tool's place in id order */
  const char *text;               /* the word's analysed text */
  tally t;
  double share, score;
} learned;

/* Tools in id order, then the best score first, then the word's bytes. */
static int learned_cmp(const void *a, const void *b) {
  const learned *x = a, *y = b;
  if (x->tool_rank != y->tool_rank) return x->tool_rank < y->tool_rank ? -1 : 1;
  if (x->score != y->score) return x->score > y->score ? -1 : 1;
  return strcmp(x->text, y->text);
}

/* The surface of each word: the one written most often, ties to the
 * smaller bytes; UINT32_MAX when none was recorded. */
static int surf_cmp(const void *a, const void *b) {
  const learn_surface *x = a, *y = b;
  if (x->word != y->word) return x->word < y->word ? -1 : 1;
  return x->surface < y->surface ? -1 : x->surface > y->surface;
}

static uint32_t *best_surfaces(tsift_learner *l) {
  uint32_t *best = tsift_calloc_array(l->words.tab.n + 1, sizeof *best);
  uint32_t *count = tsift_calloc_array(l->words.tab.n + 1, sizeof *count);
  if (!best || !count) {
    tsift_free(best);
    tsift_free(count);
    return NULL;
  }
  for (size_t w = 0; w < l->words.tab.n; w++) best[w] = UINT32_MAX;
  tsift_learn_sort(l->surf, l->nsurf, sizeof *l->surf, surf_cmp);
  for (size_t i = 0; i < l->nsurf;) {
    size_t j = i;
    while (j < l->nsurf && l->surf[j].word == l->surf[i].word && l->surf[j].surface == l->surf[i].surface) j++;
    uint32_t w = l->surf[i].word, s = l->surf[i].surface, n = (uint32_t)(j - i);
    if (best[w] == UINT32_MAX || n > count[w] ||
        (n == count[w] && strcmp(tsift_learn_text(&l->words, s), tsift_learn_text(&l->words, best[w])) < 0)) {
      best[w] = s;
      count[w] = n;
    }
    i = j;
  }
  tsift_free(count);
  return best;
}

/* The label of a learned word: its surface when analysing that gives the
 * word back (always, for a surface the request had), else the word. */
static const char *label_of(const tsift_learner *l, const uint32_t *surface, uint32_t w) {
  return surface[w] != UINT32_MAX && surface[w] < UINT32_MAX - 1 ? tsift_learn_text(&l->words, surface[w])
                                                                  : tsift_learn_text(&l->words, w);
}

static void write_tally(tsift_buf *b, const learned *x) {
  tsift_json_begin_object(b);
  tsift_json_key_int(b, "sessions", (long long)x->t.sessions);
  tsift_json_key_int(b, "clients", (long long)x->t.clients);
  tsift_json_key_int(b, "examples", (long long)x->t.examples);
  tsift_json_key_int(b, "against", (long long)x->t.against);
  tsift_json_key_score(b, "share", x->share);
  tsift_json_end_object(b);
}

/* Per tool, the kept labels of one kind (phrases: aliases, words: tags),
 * at most TSIFT_LABELS_MAX, best first. */
static size_t pick(const tsift_learner *l, const learned *k, size_t n, int phrases, const learned **out) {
  size_t m = 0;
  for (size_t i = 0; i < n && m < TSIFT_LABELS_MAX; i++)
    if ((l->words.part[2 * k[i].word] != UINT32_MAX) == phrases) out[m++] = &k[i];
  return m;
}

static void write_rule(const tsift_learner *l, tsift_buf *b) {
  tsift_json_key(b, "rule");
  tsift_json_begin_object(b);
  tsift_json_key_int(b, "minSessions", l->min_sessions);
  tsift_json_key_int(b, "minClients", l->min_clients);
  tsift_json_key_int(b, "maxPerClient", l->max_per_client);
  tsift_json_key_score(b, "minShare", l->min_share);
  tsift_json_key_int(b, "minExamples", l->min_examples);
  tsift_json_end_object(b);
}

/* A word's uses, per word: its distinct sessions (per client at most
 * max_per_client) and examples that gave it to any tool. 0, or -1 when out
 * of memory. */
static int word_uses(const tsift_learner *l, double *used) {
  learn_ev *uses = tsift_calloc_array(l->nev + 1, sizeof *uses);
  if (!uses) return -1;
  size_t nuses = 0;
  for (size_t i = 0; i < l->nev; i++)
    if (l->ev[i].kind != EV_AGAINST) uses[nuses++] = l->ev[i];
  tsift_learn_sort(uses, nuses, sizeof *uses, use_cmp);
  for (size_t i = 0; i < nuses;) {
    size_t j = i, mine = 0;
    uint32_t last = UINT32_MAX;
    for (; j < nuses && uses[j].word == uses[i].word && (uses[j].kind == EV_EXAMPLE) == (uses[i].kind == EV_EXAMPLE) &&
           uses[j].client == uses[i].client;
         j++)
      if (uses[j].session != last) {
        last = uses[j].session;
        mine++;
      }
    if (l->max_per_client && uses[i].kind != EV_EXAMPLE && mine > l->max_per_client) mine = l->max_per_client;
    used[uses[i].word] += (double)mine;
    i = j;
  }
  tsift_free(uses);
  return 0;
}

/* The rule over every (word, tool) of the evidence (sorted here): the
 * learned ones into keep (room for l->nev), tools in id order, best first.
 * rank: each tool's place in id order. */
static size_t apply_rule(tsift_learner *l, const double *used, const uint32_t *rank, learned *keep) {
  size_t nkeep = 0;
  tsift_learn_sort(l->ev, l->nev, sizeof *l->ev, ev_cmp);
  for (size_t i = 0; i < l->nev;) {
    learned x = {l->ev[i].word, l->ev[i].tool, rank[l->ev[i].tool], tsift_learn_text(&l->words, l->ev[i].word),
                 {0, 0, 0, 0}, 0, 0};
    while (i < l->nev && l->ev[i].word == x.word && l->ev[i].tool == x.tool) {
      size_t sessions = 0, clients = 0;
      int kind = l->ev[i].kind;
      count_kind(l, l->ev, l->nev, &i, &sessions, &clients);
      if (kind == EV_FOR) {
        x.t.sessions = sessions;
        x.t.clients = clients;
      } else if (kind == EV_AGAINST) {
        x.t.against = sessions;
      } else {
        x.t.examples = sessions;
      }
    }
    double support = (double)(x.t.sessions + x.t.examples);
    int enough = (x.t.examples && x.t.examples >= l->min_examples) ||
                 (x.t.sessions >= l->min_sessions && x.t.clients >= l->min_clients);
    x.share = used[x.word] > 0 ? support / used[x.word] : 0.0;
    x.score = (support - (double)x.t.against) * x.share;
    if (enough && support > (double)x.t.against && x.share >= l->min_share) keep[nkeep++] = x;
  }
  tsift_learn_sort(keep, nkeep, sizeof *keep, learned_cmp);
  return nkeep;
}

/* The learned file: provenance, then per tool its labels, then their evidence. */
static void write_learned(const tsift_learner *l, const learned *keep, size_t nkeep, const uint32_t *surface,
                          size_t nclients, tsift_buf *b) {
  const learned *lists[2 * TSIFT_LABELS_MAX];
  tsift_json_begin_object(b);
  tsift_json_key(b, "learned");
  tsift_json_begin_object(b);
  tsift_json_key_int(b, "version", 1);
  tsift_json_key_cstr(b, "catalog", l->ix->fingerprint);
  write_rule(l, b);
  const char *const counts[] = {"journals", "skipped", "sessions", "clients", "examples"};
  const size_t values[] = {l->journals, l->skipped, l->sessions, nclients, l->examples};
  for (int k = 0; k < 5; k++) tsift_json_key_int(b, counts[k], (long long)values[k]);
  tsift_json_end_object(b);
  for (int section = 0; section < 2; section++) { /* the annotations, then their evidence */
    tsift_json_key(b, section ? "evidence" : "annotations");
    tsift_json_begin_object(b);
    for (size_t i = 0; i < nkeep;) {
      size_t j = i;
      while (j < nkeep && keep[j].tool == keep[i].tool) j++;
      const learned **aliases = lists, **tags = lists + TSIFT_LABELS_MAX;
      size_t na = pick(l, keep + i, j - i, 1, aliases), nt = pick(l, keep + i, j - i, 0, tags);
      tsift_json_key(b, l->ix->catalog.tools[keep[i].tool].id);
      tsift_json_begin_object(b);
      for (int list = 0; list < 2 && !section; list++) {
        size_t n = list ? nt : na;
        if (!n) continue;
        tsift_json_key(b, list ? "tags" : "aliases");
        tsift_json_begin_array(b);
        for (size_t k = 0; k < n; k++) tsift_json_cstr(b, label_of(l, surface, (list ? tags : aliases)[k]->word));
        tsift_json_end_array(b);
      }
      for (size_t k = 0; section && k < na + nt; k++) {
        const learned *x = k < na ? aliases[k] : tags[k - na];
        tsift_json_key(b, label_of(l, surface, x->word));
        write_tally(b, x);
      }
      tsift_json_end_object(b);
      i = j;
    }
    tsift_json_end_object(b);
  }
  tsift_json_end_object(b);
}

tsift_status tsift_learner_finish(tsift_learner *l, char **out, size_t *out_len, tsift_error *err) {
  if (!l || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_learner_finish: NULL argument");
  *out = NULL;
  double *used = tsift_calloc_array(l->words.tab.n + 1, sizeof *used);
  learned *keep = tsift_calloc_array(l->nev + 1, sizeof *keep);
  uint32_t *rank = tsift_calloc_array(l->ix->n + 1, sizeof *rank), *tmp = tsift_calloc_array(l->ix->n + 1, sizeof *tmp);
  uint32_t *surface = NULL;
  tsift_status st = TSIFT_OK;
  if (!used || !keep || !rank || !tmp || word_uses(l, used)) st = tsift_nomem(err, "learning");
  size_t nkeep = 0, nclients = 0;
  if (!st) {
    for (size_t d = 0; d < l->ix->n; d++) tmp[d] = (uint32_t)d;
    tsift_sort_docs_by_id(l->ix, tmp, rank, l->ix->n);
    for (size_t k = 0; k < l->ix->n; k++) rank[tmp[k]] = (uint32_t)k;
    nkeep = apply_rule(l, used, rank, keep);
    tsift_learn_sort(l->session_client, l->sessions, sizeof *l->session_client, tsift_learn_u32_cmp);
    for (size_t i = 0; i < l->sessions; i++) nclients += i == 0 || l->session_client[i] != l->session_client[i - 1];
    if (!(surface = best_surfaces(l))) st = tsift_nomem(err, "learning");
  }
  tsift_buf b;
  tsift_buf_init(&b);
  if (!st) write_learned(l, keep, nkeep, surface, nclients, &b);
  TSIFT_FREE_ALL(used, keep, rank, tmp, surface);
  if (st) return st;
  return tsift_buf_finish(&b, out, out_len, "writing the learned vocabulary", err);
}
