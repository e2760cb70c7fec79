/* learn_evidence.c — what learning's evidence is made of (learn.h): words
 * and phrases interned to ids, every tool's own words, a request's
 * learnable words, the evidence and surface lists. learn_read.c turns runs
 * and examples into evidence with these; learn.c applies the rule to it. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "learn/learn.h"

/* ---- interned words --------------------------------------------------- */

static void words_free(learn_words *w) {
  tsift_strtab_free(&w->tab);
  tsift_free(w->part);
  memset(w, 0, sizeof *w);
}

uint32_t tsift_learn_intern(learn_words *w, const char *s, size_t n) {
  size_t before = w->tab.n;
  /* room for the new entry's parts first, so that a failure leaves no
   * entry without them */
  if (tsift_grow((void **)&w->part, &w->part_cap, 2 * (before + 1), sizeof *w->part)) return UINT32_MAX;
  uint32_t id = tsift_strtab_intern(&w->tab, s, n);
  if (id != UINT32_MAX && w->tab.n > before) w->part[2 * id] = w->part[2 * id + 1] = UINT32_MAX;
  return id;
}

uint32_t tsift_learn_phrase(learn_words *w, uint32_t a, uint32_t b) {
  char buf[2 * TSIFT_TOKEN_MAX_BYTES + 2];
  size_t la = tsift_strtab_len(&w->tab, a), lb = tsift_strtab_len(&w->tab, b);
  if (la + lb + 1 >= sizeof buf) return UINT32_MAX - 1; /* not a phrase we keep (tokens are short) */
  memcpy(buf, tsift_strtab_text(&w->tab, a), la);
  buf[la] = ' ';
  memcpy(buf + la + 1, tsift_strtab_text(&w->tab, b), lb);
  uint32_t id = tsift_learn_intern(w, buf, la + lb + 1);
  if (id != UINT32_MAX) {
    w->part[2 * id] = a;
    w->part[2 * id + 1] = b;
  }
  return id;
}


/* ---- the tools: lookups and their own words ---------------------------- */

void tsift_learn_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(base, n, size, cmp); /* not on an empty (possibly NULL) array: C leaves that undefined */
}

int tsift_learn_u32_cmp(const void *a, const void *b) {
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
    tsift_learn_sort(ids, k, sizeof *ids, tsift_learn_u32_cmp);
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
  l->by_name = tsift_calloc_array(l->ix->n + 1, sizeof *l->by_name);
  if (!tmp || !l->by_name) {
    tsift_free(tmp);
    return tsift_nomem(err, "learning");
  }
  for (size_t d = 0; d < l->ix->n; d++) l->by_name[d] = (uint32_t)d;
  tsift_sort_docs_by_menu_name(l->ix, l->by_name, tmp, l->ix->n);
  tsift_free(tmp);
  return TSIFT_OK;
}

long tsift_learn_tool(const tsift_learner *l, const char *id) { return tsift_find_doc_by_menu_name(l->ix, l->by_name, id); }

static int owns_word(const tsift_learner *l, uint32_t d, uint32_t w) {
  return bsearch(&w, l->own[d], l->nown[d], sizeof w, tsift_learn_u32_cmp) != NULL;
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
      size_t a = tsift_strtab_len(&l->words.tab, prev_surface), b = tsift_strtab_len(&l->words.tab, sid);
      uint32_t phs = UINT32_MAX - 1;
      if (ph != UINT32_MAX - 1 && a + b + 1 < sizeof buf) {
        memcpy(buf, tsift_learn_text(&l->words, prev_surface), a);
        buf[a] = ' ';
        memcpy(buf + a + 1, tsift_learn_text(&l->words, sid), b);
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


tsift_status tsift_learn_evidence_open(tsift_learner *l, tsift_error *err) {
  tsift_status st = sort_ids(l, err);
  if (!st) st = own_words(l, err);
  if (!st) {
    l->anonymous = tsift_learn_intern(&l->words, "\x01", 1); /* the client of journals that name none */
    if (l->anonymous == UINT32_MAX) st = tsift_nomem(err, "learning");
  }
  return st;
}

void tsift_learn_evidence_free(tsift_learner *l) {
  for (size_t d = 0; l->own && d < (l->ix ? l->ix->n : 0); d++) tsift_free(l->own[d]);
  TSIFT_FREE_ALL(l->own, l->nown, l->by_name);
  words_free(&l->words);
  TSIFT_FREE_ALL(l->ev, l->surf, l->session_client);
}
