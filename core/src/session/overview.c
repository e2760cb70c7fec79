/* overview.c — the catalog overview in the meta-tool's description
 * (docs/sessions.md): a model cannot search for what it does not know
 * exists, so the description says which groups of tools the catalog has,
 * how many of each, and their most distinctive name words. Built only from
 * tool ids (model-facing names, checked by the id rule) of the tools a
 * search could return — never from descriptions, never from tainted tools —
 * and from nothing that changes during a run, so the prompt prefix stays
 * cache-stable. Deterministic: counts, then bytes, decide every order. */
#include "session/overview.h"

#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "json/json_out.h"
#include "base/mathx.h"
#include "text/text.h"

#define WORDS_PER_GROUP 5
/* A catalog without groups lists its words alone, as many as fit. */
#define WORDS_UNGROUPED 60
#define WORD_MIN_BYTES 3

/* The bytes a group or word is known by: both structs start with it, so one
 * binary search serves their sorted arrays. */
typedef struct key {
  const char *s;
  size_t n;
} key;

/* One distinct word of tool names, counted per group. */
typedef struct word {
  key k;
  uint32_t groups;   /* groups having it */
  uint32_t last;     /* the last group counted (to count groups once) */
  uint32_t count;    /* in the group being ranked */
} word;

typedef struct group {
  key k;            /* the id prefix before "__" ("" for tools without one) */
  uint32_t tools;
} group;

size_t tsift_id_namespace(const char *id) {
  const char *sep = strstr(id, "__");
  return sep && sep > id ? (size_t)(sep - id) : 0;
}
#define ns_len tsift_id_namespace

tsift_status tsift_id_name_words(const char *id, tsift_tokens *words, tsift_error *err) {
  size_t skip = ns_len(id);
  if (skip) skip += 2;
  tsift_tokens stems;
  tsift_tokens_init(&stems);
  tsift_status st =
      tsift_analyze_surface(id + skip, strlen(id + skip), TSIFT_FIELD_MAX_BYTES, 1, (size_t)-1, &stems, words, err);
  tsift_tokens_free(&stems);
  return st;
}

static int key_cmp(const key *a, const char *s, size_t n) {
  size_t m = a->n < n ? a->n : n;
  int c = memcmp(a->s, s, m);
  return c ? c : (a->n > n) - (a->n < n);
}

/* Position of s[0..n) in a sorted array of `count` structs `stride` bytes
 * apart, each starting with a key: where it is, or where it belongs. */
static size_t key_find(const void *arr, size_t count, size_t stride, const char *s, size_t n, int *found) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (key_cmp((const key *)((const char *)arr + mid * stride), s, n) < 0) lo = mid + 1;
    else hi = mid;
  }
  *found = lo < count && key_cmp((const key *)((const char *)arr + lo * stride), s, n) == 0;
  return lo;
}

typedef struct builder {
  const tsift_index *ix;
  const uint8_t *allowed;
  group *groups;
  size_t ngroups;
  uint32_t *tool_group; /* per doc, its group (UINT32_MAX: not shown) */
  tsift_tokens names;   /* the words of every shown tool's name, in doc order */
  uint32_t *name_doc;   /* per word in names: its doc */
  word *words;          /* distinct words */
  size_t nwords;
  uint32_t *word_of;    /* per word in names: its distinct word */
} builder;

static void builder_free(builder *b) {
  tsift_free(b->groups);
  tsift_free(b->tool_group);
  tsift_tokens_free(&b->names);
  TSIFT_FREE_ALL(b->name_doc, b->words, b->word_of);
}

static int shown(const builder *b, size_t d) {
  return (!b->allowed || b->allowed[d]) && !b->ix->catalog.tools[d].tainted;
}

/* The groups, sorted by name (binary insertion: catalogs have few groups). */
static int collect_groups(builder *b) {
  const tsift_index *ix = b->ix;
  b->groups = tsift_calloc_array(ix->n + 1, sizeof *b->groups);
  b->tool_group = tsift_calloc_array(ix->n + 1, sizeof *b->tool_group);
  if (!b->groups || !b->tool_group) return -1;
  for (size_t d = 0; d < ix->n; d++) {
    if (!shown(b, d)) continue;
    const char *id = ix->catalog.tools[d].id;
    int found;
    size_t at = key_find(b->groups, b->ngroups, sizeof *b->groups, id, ns_len(id), &found);
    if (!found) {
      memmove(&b->groups[at + 1], &b->groups[at], (b->ngroups - at) * sizeof *b->groups);
      b->groups[at] = (group){{id, ns_len(id)}, 0};
      b->ngroups++;
    }
    b->groups[at].tools++;
  }
  /* each doc's group, once the groups stand still */
  for (size_t d = 0; d < ix->n; d++) {
    int found;
    const char *id = ix->catalog.tools[d].id;
    b->tool_group[d] = shown(b, d) ? (uint32_t)key_find(b->groups, b->ngroups, sizeof *b->groups, id, ns_len(id), &found)
                                   : UINT32_MAX;
  }
  return 0;
}

/* A word worth showing: a few letters, not a number, not a stopword, not
 * part of the group's own name. */
static int worth_showing(const builder *b, const group *g, const char *s, size_t n) {
  if (n < WORD_MIN_BYTES) return 0;
  int letter = 0;
  for (size_t i = 0; i < n; i++) letter |= (s[i] >= 'a' && s[i] <= 'z') || (unsigned char)s[i] >= 0x80;
  if (!letter || tsift_stopwords_has(&b->ix->stopwords, s, n)) return 0;
  for (size_t i = 0; i + n <= g->k.n; i++)
    if (memcmp(g->k.s + i, s, n) == 0) return 0;
  return 1;
}

/* The words of every shown tool's name (after its namespace), through the
 * analyser's surface forms (camelCase and snake_case split, case and plural
 * folded), and the distinct words with the number of groups having each. */
static int collect_words(builder *b) {
  const tsift_index *ix = b->ix;
  tsift_tokens_init(&b->names);
  size_t cap = 0;
  for (size_t d = 0; d < ix->n; d++) {
    if (b->tool_group[d] == UINT32_MAX) continue;
    tsift_tokens words;
    tsift_tokens_init(&words);
    tsift_error err;
    tsift_status st = tsift_id_name_words(ix->catalog.tools[d].id, &words, &err);
    const group *g = &b->groups[b->tool_group[d]];
    for (size_t i = 0; st == TSIFT_OK && i < words.count; i++) {
      const char *w = tsift_token(&words, i);
      if (!worth_showing(b, g, w, words.len[i])) continue;
      if (tsift_grow((void **)&b->name_doc, &cap, b->names.count + 1, sizeof *b->name_doc) ||
          tsift_tokens_push(&b->names, w, words.len[i]))
        st = TSIFT_E_NOMEM;
      else
        b->name_doc[b->names.count - 1] = (uint32_t)d;
    }
    tsift_tokens_free(&words);
    if (st) return -1;
  }
  /* distinct words, sorted (binary insertion into a sorted array) */
  b->words = tsift_calloc_array(b->names.count + 1, sizeof *b->words);
  b->word_of = tsift_calloc_array(b->names.count + 1, sizeof *b->word_of);
  if (!b->words || !b->word_of) return -1;
  for (size_t i = 0; i < b->names.count; i++) {
    const char *w = tsift_token(&b->names, i);
    int found;
    size_t at = key_find(b->words, b->nwords, sizeof *b->words, w, b->names.len[i], &found);
    if (!found) {
      memmove(&b->words[at + 1], &b->words[at], (b->nwords - at) * sizeof *b->words);
      b->words[at] = (word){{w, b->names.len[i]}, 0, UINT32_MAX, 0};
      b->nwords++;
    }
  }
  for (size_t i = 0; i < b->names.count; i++) {
    int found;
    size_t at = key_find(b->words, b->nwords, sizeof *b->words, tsift_token(&b->names, i), b->names.len[i], &found);
    b->word_of[i] = (uint32_t)at;
    word *wd = &b->words[at];
    uint32_t g = b->tool_group[b->name_doc[i]];
    if (wd->last != g) {
      wd->last = g;
      wd->groups++;
    }
  }
  return 0;
}

/* Group a before group b: more tools first, then by name. */
static int group_before(const group *a, const group *b) {
  if (a->tools != b->tools) return a->tools > b->tools;
  return key_cmp(&a->k, b->k.s, b->k.n) < 0;
}

/* The most distinctive words of group g: the words its tools' names use
 * most, weighed by how few groups use them (a word every group has, like
 * "get", tells nothing), then by bytes. Writes at most `max` (at most
 * WORDS_UNGROUPED). */
static size_t top_words(builder *b, uint32_t g, size_t max, uint32_t *out) {
  for (size_t w = 0; w < b->nwords; w++) b->words[w].count = 0;
  for (size_t i = 0; i < b->names.count; i++)
    if (b->tool_group[b->name_doc[i]] == g) b->words[b->word_of[i]].count++;
  size_t n = 0;
  double groups = (double)b->ngroups;
  double best[WORDS_UNGROUPED];
  for (size_t w = 0; w < b->nwords; w++) {
    if (!b->words[w].count) continue;
    double v = (double)b->words[w].count * tsift_ln(1.0 + groups / (double)b->words[w].groups);
    size_t at = n;
    while (at > 0 && v > best[at - 1]) at--; /* ties keep byte order: earlier words first */
    if (at >= max) continue;
    size_t last = n < max ? n : max - 1;
    memmove(&best[at + 1], &best[at], (last - at) * sizeof *best);
    memmove(&out[at + 1], &out[at], (last - at) * sizeof *out);
    best[at] = v;
    out[at] = (uint32_t)w;
    if (n < max) n++;
  }
  return n;
}

char *tsift_overview(const tsift_index *ix, const uint8_t *allowed, size_t max_chars, size_t *len) {
  builder b = {0};
  b.ix = ix;
  b.allowed = allowed;
  uint32_t *order = NULL;
  tsift_buf out;
  tsift_buf_init(&out);
  if (collect_groups(&b) || collect_words(&b) || !(order = tsift_calloc_array(b.ngroups + 1, sizeof *order))) {
    builder_free(&b);
    tsift_free(order);
    return NULL;
  }
  size_t tools = 0;
  if (b.ngroups == 0) {
    builder_free(&b);
    tsift_free(order);
    const char *none = "The catalog has no tools to search.";
    if (len) *len = strlen(none);
    return tsift_strndup(none, strlen(none));
  }
  for (size_t g = 0; g < b.ngroups; g++) {
    tools += b.groups[g].tools;
    size_t at = g; /* insertion by group_before */
    while (at > 0 && group_before(&b.groups[g], &b.groups[order[at - 1]])) {
      order[at] = order[at - 1];
      at--;
    }
    order[at] = (uint32_t)g;
  }
  char head[96];
  int named = b.ngroups > 1 || (b.ngroups == 1 && b.groups[0].k.n > 0);
  const char *tool_s = tools == 1 ? "" : "s", *group_s = b.ngroups == 1 ? "" : "s";
  int hn = named ? tsift_snprintf(head, sizeof head, "The catalog has %zu tool%s in %zu group%s:", tools, tool_s,
                                  b.ngroups, group_s)
                 : tsift_snprintf(head, sizeof head, "The catalog has %zu tool%s; words in their names:", tools, tool_s);
  tsift_buf_append(&out, head, (size_t)hn);
  size_t chars = (size_t)hn, shown_groups = 0;
  for (size_t k = 0; k < b.ngroups; k++) {
    const group *g = &b.groups[order[k]];
    uint32_t top[WORDS_UNGROUPED];
    size_t nt = top_words(&b, order[k], named ? WORDS_PER_GROUP : WORDS_UNGROUPED, top);
    tsift_buf entry;
    tsift_buf_init(&entry);
    tsift_buf_append(&entry, k ? "; " : " ", k ? 2 : 1);
    if (named) {
      char count[48];
      int cn = tsift_snprintf(count, sizeof count, " (%u)", g->tools);
      tsift_buf_append(&entry, g->k.n ? g->k.s : "other", g->k.n ? g->k.n : 5);
      tsift_buf_append(&entry, count, (size_t)cn);
      if (nt) tsift_buf_append(&entry, ": ", 2);
    }
    for (size_t i = 0; i < nt; i++) {
      /* ungrouped: as many words as fit, then "." */
      const key *w = &b.words[top[i]].k;
      if (!named && chars + tsift_utf8_chars(entry.data, entry.len) + 2 + w->n + 1 > max_chars) break;
      if (i) tsift_buf_append(&entry, ", ", 2);
      tsift_buf_append(&entry, w->s, w->n);
    }
    /* room left for this entry and, if groups remain, the closing count */
    char more[64];
    size_t left = b.ngroups - k - 1;
    int mn = left ? tsift_snprintf(more, sizeof more, "; and %zu more group%s.", left, left == 1 ? "" : "s") : 1;
    if (entry.failed) { /* out of memory: the whole overview fails */
      out.failed = 1;
      tsift_buf_free(&entry);
      break;
    }
    size_t ec = tsift_utf8_chars(entry.data, entry.len);
    if (chars + ec + (size_t)mn > max_chars) {
      tsift_buf_free(&entry);
      break;
    }
    tsift_buf_append(&out, entry.data, entry.len);
    chars += ec;
    shown_groups++;
    tsift_buf_free(&entry);
  }
  if (shown_groups < b.ngroups) {
    char more[64];
    size_t left = b.ngroups - shown_groups;
    int mn = tsift_snprintf(more, sizeof more, "%s and %zu more group%s.", shown_groups ? ";" : "", left,
                            left == 1 ? "" : "s");
    tsift_buf_append(&out, more, (size_t)mn);
  } else {
    tsift_buf_putc(&out, '.');
  }
  builder_free(&b);
  tsift_free(order);
  size_t n = 0;
  char *text = tsift_buf_take(&out, &n);
  if (len) *len = n;
  return text;
}
