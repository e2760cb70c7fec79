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
#include "learn.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cJSON.h"
#include "fmt.h"
#include "json_check.h"
#include "json_out.h"

/* ---- interned words --------------------------------------------------- */

static uint32_t hash_bytes(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

static void words_free(learn_words *w) {
  tsift_free(w->pool);
  tsift_free(w->off);
  tsift_free(w->len);
  tsift_free(w->part);
  tsift_free(w->slots);
  memset(w, 0, sizeof *w);
}

static int words_rehash(learn_words *w, size_t nslots) {
  uint32_t *slots = tsift_calloc_array(nslots, sizeof *slots);
  if (!slots) return -1;
  for (size_t i = 0; i < w->n; i++) {
    size_t at = hash_bytes(w->pool + w->off[i], w->len[i]) & (nslots - 1);
    while (slots[at]) at = (at + 1) & (nslots - 1);
    slots[at] = (uint32_t)i + 1;
  }
  tsift_free(w->slots);
  w->slots = slots;
  w->nslots = nslots;
  return 0;
}

uint32_t tsift_learn_intern(learn_words *w, const char *s, size_t n) {
  if ((w->n + 1) * 2 > w->nslots && words_rehash(w, w->nslots ? w->nslots * 2 : 1024)) return UINT32_MAX;
  size_t at = hash_bytes(s, n) & (w->nslots - 1);
  for (; w->slots[at]; at = (at + 1) & (w->nslots - 1)) {
    uint32_t e = w->slots[at] - 1;
    if (w->len[e] == n && memcmp(w->pool + w->off[e], s, n) == 0) return e;
  }
  if (w->n == w->cap) {
    size_t cap = w->cap;
    if (tsift_grow((void **)&w->off, &cap, w->n + 1, sizeof *w->off)) return UINT32_MAX;
    cap = w->cap;
    if (tsift_grow((void **)&w->len, &cap, w->n + 1, sizeof *w->len)) return UINT32_MAX;
    cap = w->cap * 2;
    if (tsift_grow((void **)&w->part, &cap, (w->n + 1) * 2, sizeof *w->part)) return UINT32_MAX;
    w->cap = cap / 2;
  }
  if (w->pool_len + n + 1 > w->pool_cap && tsift_grow((void **)&w->pool, &w->pool_cap, w->pool_len + n + 1, 1))
    return UINT32_MAX;
  memcpy(w->pool + w->pool_len, s, n);
  w->pool[w->pool_len + n] = 0;
  w->off[w->n] = (uint32_t)w->pool_len;
  w->len[w->n] = (uint32_t)n;
  w->part[2 * w->n] = w->part[2 * w->n + 1] = UINT32_MAX;
  w->pool_len += n + 1;
  w->slots[at] = (uint32_t)w->n + 1;
  return (uint32_t)w->n++;
}

uint32_t tsift_learn_phrase(learn_words *w, uint32_t a, uint32_t b) {
  char buf[2 * TSIFT_TOKEN_MAX_BYTES + 2];
  size_t la = w->len[a], lb = w->len[b];
  if (la + lb + 1 >= sizeof buf) return UINT32_MAX - 1; /* not a phrase we keep (tokens are short) */
  memcpy(buf, w->pool + w->off[a], la);
  buf[la] = ' ';
  memcpy(buf + la + 1, w->pool + w->off[b], lb);
  uint32_t id = tsift_learn_intern(w, buf, la + lb + 1);
  if (id != UINT32_MAX) {
    w->part[2 * id] = a;
    w->part[2 * id + 1] = b;
  }
  return id;
}

static const char *word_text(const learn_words *w, uint32_t id) { return w->pool + w->off[id]; }

/* ---- the learner ------------------------------------------------------ */

void tsift_learner_free(tsift_learner *l) {
  if (!l) return;
  for (size_t d = 0; l->own && d < (l->ix ? l->ix->n : 0); d++) tsift_free(l->own[d]);
  tsift_free(l->own);
  tsift_free(l->nown);
  tsift_free(l->by_id);
  words_free(&l->words);
  tsift_free(l->ev);
  tsift_free(l->surf);
  tsift_free(l->session_client);
  if (l->own_ix) tsift_index_free(l->ix); /* last: the lists above are sized by it */
  tsift_free(l);
}

/* qsort, but not on an empty (possibly NULL) array, which C leaves undefined. */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(base, n, size, cmp);
}

static int u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Every tool's own words (tsift_document_all_text), interned and sorted. */
static tsift_status own_words(tsift_learner *l, tsift_error *err) {
  size_t n = l->ix->n;
  l->own = tsift_calloc_array(n + 1, sizeof *l->own);
  l->nown = tsift_calloc_array(n + 1, sizeof *l->nown);
  if (!l->own || !l->nown) return tsift_nomem(err, "learning");
  tsift_document doc;
  memset(&doc, 0, sizeof doc);
  tsift_status st = TSIFT_OK;
  for (size_t d = 0; d < n && !st; d++) {
    if ((st = tsift_document_all_text(&l->ix->catalog.tools[d], &doc, err))) break;
    size_t total = doc.name_seq.count + doc.id_seq.count;
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) total += doc.fields[f].count;
    uint32_t *ids = tsift_calloc_array(total + 1, sizeof *ids);
    if (!ids) {
      st = tsift_nomem(err, "learning");
      break;
    }
    size_t k = 0;
    const tsift_tokens *lists[TSIFT_FIELD_COUNT + 2] = {&doc.name_seq, &doc.id_seq};
    for (int f = 0; f < TSIFT_FIELD_COUNT; f++) lists[2 + f] = &doc.fields[f];
    for (int i = 0; i < TSIFT_FIELD_COUNT + 2 && !st; i++)
      for (size_t t = 0; t < lists[i]->count && !st; t++) {
        uint32_t id = tsift_learn_intern(&l->words, tsift_token(lists[i], t), lists[i]->len[t]);
        if (id == UINT32_MAX) st = tsift_nomem(err, "learning");
        else ids[k++] = id;
      }
    sort(ids, k, sizeof *ids, u32_cmp);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
      if (!u || ids[u - 1] != ids[i]) ids[u++] = ids[i];
    l->own[d] = ids;
    l->nown[d] = (uint32_t)u;
  }
  tsift_document_free(&doc);
  return st;
}

static tsift_status sort_ids(tsift_learner *l, tsift_error *err) {
  uint32_t *tmp = tsift_calloc_array(l->ix->n + 1, sizeof *tmp);
  l->by_id = tsift_calloc_array(l->ix->n + 1, sizeof *l->by_id);
  if (!tmp || !l->by_id) {
    tsift_free(tmp);
    return tsift_nomem(err, "learning");
  }
  for (size_t d = 0; d < l->ix->n; d++) l->by_id[d] = (uint32_t)d;
  tsift_sort_docs_by_id(l->ix, l->by_id, tmp, l->ix->n);
  tsift_free(tmp);
  return TSIFT_OK;
}

long tsift_learn_tool(const tsift_learner *l, const char *id) {
  size_t lo = 0, hi = l->ix->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(l->ix->catalog.tools[l->by_id[mid]].id, id);
    if (c == 0) return (long)l->by_id[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

static int owns_word(const tsift_learner *l, uint32_t d, uint32_t w) {
  return bsearch(&w, l->own[d], l->nown[d], sizeof w, u32_cmp) != NULL;
}

int tsift_learn_owns(const tsift_learner *l, uint32_t d, uint32_t word) {
  const uint32_t *part = &l->words.part[2 * word];
  if (part[0] == UINT32_MAX) return owns_word(l, d, word);
  return owns_word(l, d, part[0]) && owns_word(l, d, part[1]);
}

int tsift_learn_add(tsift_learner *l, uint32_t word, uint32_t tool, uint32_t client, uint32_t session, int kind) {
  if (l->nev == l->ev_cap && tsift_grow((void **)&l->ev, &l->ev_cap, l->nev + 1, sizeof *l->ev)) return -1;
  l->ev[l->nev++] = (learn_ev){word, tool, client, session, (uint8_t)kind};
  return 0;
}

int tsift_learn_add_surface(tsift_learner *l, uint32_t word, uint32_t surface) {
  if (l->nsurf == l->surf_cap && tsift_grow((void **)&l->surf, &l->surf_cap, l->nsurf + 1, sizeof *l->surf))
    return -1;
  l->surf[l->nsurf++] = (learn_surface){word, surface};
  return 0;
}

int tsift_learn_request(tsift_learner *l, const char *q, size_t n, uint32_t *out, uint32_t *surfaces) {
  tsift_query tq;
  tsift_error err;
  if (tsift_query_analyze(q, n, &l->ix->stopwords, &tq, &err)) return -1; /* a query is never an error */
  int count = 0;
  uint32_t prev = UINT32_MAX, prev_surface = UINT32_MAX;
  for (size_t i = 0; i < tq.tokens.count && count + 2 <= LEARN_REQUEST_MAX; i++) {
    const char *t = tsift_token(&tq.tokens, i);
    size_t tl = tq.tokens.len[i];
    if (tsift_stopwords_has(&l->ix->stopwords, t, tl)) continue; /* a phrase skips them */
    long k = tsift_tokens_find(&tq.terms, t, tl);
    if (k < 0 || tq.term_soft[k]) { /* an argument value: no word, and it ends a phrase */
      prev = UINT32_MAX;
      continue;
    }
    uint32_t id = tsift_learn_intern(&l->words, t, tl);
    uint32_t sid = tsift_learn_intern(&l->words, tsift_token(&tq.surface, (size_t)k), tq.surface.len[k]);
    if (id == UINT32_MAX || sid == UINT32_MAX) {
      count = -1;
      break;
    }
    int seen = 0;
    for (int j = 0; j < count && !seen; j++) seen = out[j] == id;
    if (!seen) {
      surfaces[count] = sid;
      out[count++] = id;
    }
    if (prev != UINT32_MAX && prev != id) {
      uint32_t ph = tsift_learn_phrase(&l->words, prev, id);
      if (ph == UINT32_MAX) {
        count = -1;
        break;
      }
      char buf[2 * TSIFT_TOKEN_MAX_BYTES + 2];
      size_t a = l->words.len[prev_surface], b = l->words.len[sid];
      uint32_t phs = UINT32_MAX - 1;
      if (ph != UINT32_MAX - 1 && a + b + 1 < sizeof buf) {
        memcpy(buf, word_text(&l->words, prev_surface), a);
        buf[a] = ' ';
        memcpy(buf + a + 1, word_text(&l->words, sid), b);
        phs = tsift_learn_intern(&l->words, buf, a + b + 1);
        if (phs == UINT32_MAX) {
          count = -1;
          break;
        }
      }
      seen = ph == UINT32_MAX - 1 || phs == UINT32_MAX - 1;
      for (int j = 0; j < count && !seen; j++) seen = out[j] == ph;
      if (!seen) {
        surfaces[count] = phs;
        out[count++] = ph;
      }
    }
    prev = id;
    prev_surface = sid;
  }
  tsift_query_free(&tq);
  return count;
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
    if (!keys[k]) {
      size_t n = tsift_utf8_cut(item->string, strlen(item->string), 40);
      return tsift_fail(err, TSIFT_E_CONFIG, "learn options: unknown key \"%.*s\"", (int)n, item->string);
    }
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
  if (!st) st = sort_ids(l, err);
  if (!st) st = own_words(l, err);
  if (!st) {
    l->anonymous = tsift_learn_intern(&l->words, "\x01", 1); /* the client of journals that name none */
    if (l->anonymous == UINT32_MAX) st = tsift_nomem(err, "learning");
  }
  if (st) {
    tsift_learner_free(l);
    return st;
  }
  *out = l;
  tsift_ok(err);
  return TSIFT_OK;
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
  uint32_t *best = tsift_calloc_array(l->words.n + 1, sizeof *best);
  uint32_t *count = tsift_calloc_array(l->words.n + 1, sizeof *count);
  if (!best || !count) {
    tsift_free(best);
    tsift_free(count);
    return NULL;
  }
  for (size_t w = 0; w < l->words.n; w++) best[w] = UINT32_MAX;
  sort(l->surf, l->nsurf, sizeof *l->surf, surf_cmp);
  for (size_t i = 0; i < l->nsurf;) {
    size_t j = i;
    while (j < l->nsurf && l->surf[j].word == l->surf[i].word && l->surf[j].surface == l->surf[i].surface) j++;
    uint32_t w = l->surf[i].word, s = l->surf[i].surface, n = (uint32_t)(j - i);
    if (best[w] == UINT32_MAX || n > count[w] ||
        (n == count[w] && strcmp(word_text(&l->words, s), word_text(&l->words, best[w])) < 0)) {
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
  return surface[w] != UINT32_MAX && surface[w] < UINT32_MAX - 1 ? word_text(&l->words, surface[w])
                                                                  : word_text(&l->words, w);
}

static void write_tally(tsift_buf *b, const learned *x) {
  tsift_json_begin_object(b);
  tsift_json_key(b, "sessions");
  tsift_json_int(b, (long long)x->t.sessions);
  tsift_json_key(b, "clients");
  tsift_json_int(b, (long long)x->t.clients);
  tsift_json_key(b, "examples");
  tsift_json_int(b, (long long)x->t.examples);
  tsift_json_key(b, "against");
  tsift_json_int(b, (long long)x->t.against);
  tsift_json_key(b, "share");
  tsift_json_score(b, x->share);
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
  tsift_json_key(b, "minSessions");
  tsift_json_int(b, l->min_sessions);
  tsift_json_key(b, "minClients");
  tsift_json_int(b, l->min_clients);
  tsift_json_key(b, "maxPerClient");
  tsift_json_int(b, l->max_per_client);
  tsift_json_key(b, "minShare");
  tsift_json_score(b, l->min_share);
  tsift_json_key(b, "minExamples");
  tsift_json_int(b, l->min_examples);
  tsift_json_end_object(b);
}

tsift_status tsift_learner_finish(tsift_learner *l, char **out, size_t *out_len, tsift_error *err) {
  if (!l || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_learner_finish: NULL argument");
  *out = NULL;
  /* A word's uses: distinct sessions per client (capped) and examples. */
  learn_ev *uses = tsift_calloc_array(l->nev + 1, sizeof *uses);
  double *used = tsift_calloc_array(l->words.n + 1, sizeof *used);
  learned *keep = tsift_calloc_array(l->nev + 1, sizeof *keep);
  const learned **lists = tsift_calloc_array(2 * TSIFT_LABELS_MAX, sizeof *lists);
  uint32_t *surface = NULL, *rank = NULL, *tmp = NULL;
  size_t nuses = 0, nkeep = 0, nclients = 0;
  if (!uses || !used || !keep || !lists) goto nomem;
  for (size_t i = 0; i < l->nev; i++)
    if (l->ev[i].kind != EV_AGAINST) uses[nuses++] = l->ev[i];
  sort(uses, nuses, sizeof *uses, use_cmp);
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

  /* Per (word, tool): the tally and the rule. */
  if (!(rank = tsift_calloc_array(l->ix->n + 1, sizeof *rank)) || !(tmp = tsift_calloc_array(l->ix->n + 1, sizeof *tmp)))
    goto nomem;
  for (size_t d = 0; d < l->ix->n; d++) tmp[d] = (uint32_t)d;
  tsift_sort_docs_by_id(l->ix, tmp, rank, l->ix->n);
  for (size_t k = 0; k < l->ix->n; k++) rank[tmp[k]] = (uint32_t)k;
  sort(l->session_client, l->sessions, sizeof *l->session_client, u32_cmp);
  for (size_t i = 0; i < l->sessions; i++) nclients += i == 0 || l->session_client[i] != l->session_client[i - 1];
  sort(l->ev, l->nev, sizeof *l->ev, ev_cmp);
  for (size_t i = 0; i < l->nev;) {
    learned x = {l->ev[i].word, l->ev[i].tool, rank[l->ev[i].tool], word_text(&l->words, l->ev[i].word),
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
  sort(keep, nkeep, sizeof *keep, learned_cmp);
  if (!(surface = best_surfaces(l))) goto nomem;

  tsift_buf b;
  tsift_buf_init(&b);
  tsift_json_begin_object(&b);
  tsift_json_key(&b, "learned");
  tsift_json_begin_object(&b);
  tsift_json_key(&b, "version");
  tsift_json_int(&b, 1);
  tsift_json_key(&b, "catalog");
  tsift_json_cstr(&b, l->ix->fingerprint);
  write_rule(l, &b);
  tsift_json_key(&b, "journals");
  tsift_json_int(&b, (long long)l->journals);
  tsift_json_key(&b, "skipped");
  tsift_json_int(&b, (long long)l->skipped);
  tsift_json_key(&b, "sessions");
  tsift_json_int(&b, (long long)l->sessions);
  tsift_json_key(&b, "clients");
  tsift_json_int(&b, (long long)nclients);
  tsift_json_key(&b, "examples");
  tsift_json_int(&b, (long long)l->examples);
  tsift_json_end_object(&b);
  for (int section = 0; section < 2; section++) { /* the annotations, then their evidence */
    tsift_json_key(&b, section ? "evidence" : "annotations");
    tsift_json_begin_object(&b);
    for (size_t i = 0; i < nkeep;) {
      size_t j = i;
      while (j < nkeep && keep[j].tool == keep[i].tool) j++;
      const learned **aliases = lists, **tags = lists + TSIFT_LABELS_MAX;
      size_t na = pick(l, keep + i, j - i, 1, aliases), nt = pick(l, keep + i, j - i, 0, tags);
      tsift_json_key(&b, l->ix->catalog.tools[keep[i].tool].id);
      tsift_json_begin_object(&b);
      if (!section) {
        if (na) {
          tsift_json_key(&b, "aliases");
          tsift_json_begin_array(&b);
          for (size_t k = 0; k < na; k++) tsift_json_cstr(&b, label_of(l, surface, aliases[k]->word));
          tsift_json_end_array(&b);
        }
        if (nt) {
          tsift_json_key(&b, "tags");
          tsift_json_begin_array(&b);
          for (size_t k = 0; k < nt; k++) tsift_json_cstr(&b, label_of(l, surface, tags[k]->word));
          tsift_json_end_array(&b);
        }
      } else {
        for (size_t k = 0; k < na + nt; k++) {
          const learned *x = k < na ? aliases[k] : tags[k - na];
          tsift_json_key(&b, label_of(l, surface, x->word));
          write_tally(&b, x);
        }
      }
      tsift_json_end_object(&b);
      i = j;
    }
    tsift_json_end_object(&b);
  }
  tsift_json_end_object(&b);
  tsift_free(uses);
  tsift_free(used);
  tsift_free(keep);
  tsift_free(lists);
  tsift_free(surface);
  tsift_free(rank);
  tsift_free(tmp);
  return tsift_buf_finish(&b, out, out_len, "writing the learned vocabulary", err);
nomem:
  tsift_free(uses);
  tsift_free(used);
  tsift_free(keep);
  tsift_free(lists);
  tsift_free(surface);
  tsift_free(rank);
  tsift_free(tmp);
  return tsift_nomem(err, "learning");
}
