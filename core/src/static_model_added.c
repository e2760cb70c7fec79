/* static_model_added.c — tokenizer.json's `added_tokens`, matched in the
 * text the way the Hugging Face `tokenizers` library's AddedVocabulary does
 * (0.22): before pre-tokenising, the tokens with `normalized: false` split the
 * raw text, then those with `normalized: true` (their content put through the
 * model's normalizer) split each normalised remainder; leftmost-longest,
 * non-overlapping, with the `single_word`, `lstrip` and `rstrip` rules. A
 * token's id is the library's: its model.vocab id, else the next one after
 * the vocabulary's size, in file order (the file's "id" is checked, not
 * used, as the library only warns about it). Reading and splitting only;
 * static_model_tok.c drives the encode and hands its normalizer in, so this
 * file calls neither tokenizer. */
#include <string.h>

#include "alloc.h"
#include "cJSON.h"
#include "catalog.h"
#include "static_model.h"
#include "utf8proc.h"

enum { A_SINGLE = 1, A_LSTRIP = 2, A_RSTRIP = 4 };

/* One matching set: the patterns (a vocabulary table whose ids are
 * positions here), each with its token id and options. */
typedef struct added_set {
  tsift_wordpiece pat;
  uint32_t *id;
  unsigned char *opt;
} added_set;

struct tsift_added {
  added_set set[2]; /* [0] matched in the raw text, [1] in the normalised text */
};

static void set_free(added_set *s) {
  tsift_free(s->pat.arena);
  tsift_free(s->pat.off);
  tsift_free(s->pat.len);
  tsift_free(s->pat.slots);
  tsift_free(s->id);
  tsift_free(s->opt);
}

void tsift_added_free(tsift_wordpiece *wp) {
  if (!wp->added) return;
  set_free(&wp->added->set[0]);
  set_free(&wp->added->set[1]);
  tsift_free(wp->added);
  wp->added = NULL;
}

static uint32_t hash(const char *s, size_t n) {
  uint32_t h = TSIFT_FNV_BASIS;
  for (size_t i = 0; i < n; i++) h = tsift_fnv_step(h, (unsigned char)s[i]);
  return h;
}

/* Entry i checked: an object with a non-empty string "content" of at most
 * TSIFT_STATIC_MAX_PIECE bytes, boolean options, an integer "id". */
static tsift_status check_entry(const cJSON *a, size_t i, unsigned char *opt, int *norm, int *special, tsift_error *err) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(a, "content");
  if (!cJSON_IsObject(a) || !cJSON_IsString(c) || !c->valuestring[0])
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: added_tokens[%zu]: \"content\" must be a non-empty string", i);
  if (strlen(c->valuestring) > TSIFT_STATIC_MAX_PIECE)
    return tsift_fail(err, TSIFT_E_LIMIT, "tokenizer.json: added_tokens[%zu]: \"content\" is over the limit of %u bytes", i,
                      TSIFT_STATIC_MAX_PIECE);
  int s, l, r;
  if (tsift_bool_opt(a, "single_word", 0, &s) || tsift_bool_opt(a, "lstrip", 0, &l) ||
      tsift_bool_opt(a, "rstrip", 0, &r) || tsift_bool_opt(a, "normalized", 1, norm) ||
      tsift_bool_opt(a, "special", 0, special))
    return tsift_fail(err, TSIFT_E_MODEL,
                      "tokenizer.json: added_tokens[%zu]: single_word, lstrip, rstrip, normalized and special must be booleans", i);
  if (!tsift_json_integral(cJSON_GetObjectItemCaseSensitive(a, "id"), 0, 4294967295.0))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: added_tokens[%zu]: \"id\" must be a non-negative integer", i);
  *opt = (unsigned char)(s * A_SINGLE | l * A_LSTRIP | r * A_RSTRIP);
  return TSIFT_OK;
}

/* The pattern of a normalized token: its content through the model's normalizer, as UTF-8. */
static tsift_status pattern(const char *content, const tsift_wordpiece *wp, tsift_added_norm norm, char *out,
                            size_t *n, size_t i, tsift_error *err) {
  tsift_cps a = {0}, b = {0};
  size_t len = strlen(content), zero = 1, k = 0;
  int bad = 0;
  for (size_t j = 0; j < len && !bad;) {
    utf8proc_int32_t c = 0xFFFD;
    utf8proc_ssize_t m = utf8proc_iterate((const utf8proc_uint8_t *)content + j, (utf8proc_ssize_t)(len - j), &c);
    j += m < 1 ? 1 : (size_t)m;
    bad = tsift_cps_push(&a, c);
  }
  if (!bad) bad = norm(wp, &a, &b, &zero);
  for (size_t j = 0; j < a.n && !bad && k <= TSIFT_STATIC_MAX_PIECE; j++)
    k += (size_t)utf8proc_encode_char(a.v[j], (utf8proc_uint8_t *)out + k);
  tsift_free(a.v);
  tsift_free(b.v);
  *n = k;
  if (bad) return tsift_nomem(err, "reading added_tokens");
  if (k == 0 || k > TSIFT_STATIC_MAX_PIECE)
    return tsift_fail(err, k ? TSIFT_E_LIMIT : TSIFT_E_MODEL, "tokenizer.json: added_tokens[%zu] \"%.60s\" is %s once normalized",
                      i, content, k ? "over the limit of 1024 bytes" : "empty");
  return TSIFT_OK;
}

/* Room for the sets (n patterns; their bytes grow as they come), the
 * names of the tokens outside the vocabulary (`extra` bytes more in its
 * arena) and a table of the contents (to refuse one written twice). */
static tsift_status alloc_sets(tsift_wordpiece *wp, tsift_wordpiece *names, size_t n, size_t extra, tsift_error *err) {
  wp->added = tsift_calloc_array(1, sizeof *wp->added);
  char *arena = wp->added ? tsift_realloc_bytes(wp->arena, wp->used + extra + 1) : NULL;
  if (arena) wp->arena = arena;
  names->rows = n;
  if (arena && tsift_vocab_alloc(names, n, extra, err)) arena = NULL;
  for (int s = 0; s < 2 && arena; s++) {
    added_set *set = &wp->added->set[s];
    set->pat.rows = n;
    set->id = tsift_calloc_array(n, sizeof *set->id);
    set->opt = tsift_calloc_array(n, 1);
    if (!set->id || !set->opt || tsift_vocab_alloc(&set->pat, n, 0, err)) arena = NULL;
    set->pat.count = 0; /* counts the patterns added */
  }
  return arena ? TSIFT_OK : tsift_nomem(err, "reading added_tokens");
}

/* Entry i's id as the library gives it (its model.vocab id, else the next
 * after the vocabulary's, in file order); the name of a token outside the
 * vocabulary is kept by id, outside the lookup table. */
static long token_id(tsift_wordpiece *wp, const char *c, size_t i, size_t *next, tsift_error *err) {
  size_t len = strlen(c);
  long id = tsift_vocab_find_hashed(wp, c, len, hash(c, len));
  if (id >= 0) return id;
  id = (long)(*next)++;
  if ((size_t)id >= wp->rows || wp->len[id]) {
    tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: added_tokens[%zu] \"%.60s\" gets id %ld, %s", i, c, id,
               (size_t)id >= wp->rows ? "past the matrix's rows" : "which model.vocab gives another token");
    return -1;
  }
  memcpy(wp->arena + wp->used, c, len);
  wp->off[id] = (uint32_t)wp->used;
  wp->len[id] = (uint32_t)len;
  wp->used += len;
  if ((size_t)id >= wp->nids) wp->nids = (size_t)id + 1;
  return id;
}

/* Entry i's pattern (content c, normalised when nz) in its set; a pattern
 * already there keeps its first token, as the library's matching does. */
static tsift_status add_pattern(tsift_wordpiece *wp, const char *c, size_t i, uint32_t id, unsigned char opt, int nz,
                                tsift_added_norm norm, size_t *cap, tsift_error *err) {
  char buf[TSIFT_STATIC_MAX_PIECE + 8];
  const char *p = c;
  size_t plen = strlen(c);
  if (nz) {
    if (pattern(c, wp, norm, buf, &plen, i, err)) return err->status;
    p = buf;
  }
  added_set *set = &wp->added->set[nz];
  if (tsift_grow((void **)&set->pat.arena, cap, set->pat.used + plen + 1, 1)) return tsift_nomem(err, "reading added_tokens");
  if (tsift_vocab_add(&set->pat, (uint32_t)set->pat.count, p, plen) < 0) {
    set->id[set->pat.count] = id;
    set->opt[set->pat.count++] = opt;
  }
  return TSIFT_OK;
}

tsift_status tsift_added_read(const cJSON *list, tsift_wordpiece *wp, tsift_added_norm norm, tsift_error *err) {
  if (!list || cJSON_IsNull(list)) return TSIFT_OK;
  if (!cJSON_IsArray(list))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: added_tokens must be an array of {\"content\": string, …}");
  size_t n = (size_t)cJSON_GetArraySize(list), i = 0, extra = 0;
  tsift_status st = tsift_vocab_limit(n, "added_tokens", err);
  unsigned char opt;
  int nz, sp;
  for (const cJSON *a = list->child; a && !st; a = a->next, i++) {
    st = check_entry(a, i, &opt, &nz, &sp, err);
    if (!st) extra += strlen(cJSON_GetObjectItemCaseSensitive(a, "content")->valuestring);
  }
  if (st || n == 0) return st;
  tsift_wordpiece names = {0};
  size_t next = wp->count, cap[2] = {1, 1}; /* the library's first id after the model's vocabulary */
  uint32_t *ids = tsift_calloc_array(n, sizeof *ids);
  st = ids ? alloc_sets(wp, &names, n, extra, err) : tsift_nomem(err, "reading added_tokens");
  i = 0;
  for (const cJSON *a = list->child; a && !st; a = a->next, i++) {
    const char *c = cJSON_GetObjectItemCaseSensitive(a, "content")->valuestring;
    long dup = tsift_vocab_add(&names, (uint32_t)i, c, strlen(c)), id = dup < 0 ? token_id(wp, c, i, &next, err) : -1;
    if (dup >= 0) st = tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: added_tokens[%zu] \"%.60s\" repeats added_tokens[%ld]", i, c, dup);
    else if (id < 0) st = err->status;
    else ids[i] = (uint32_t)id;
  }
  /* special tokens first, as the library orders its matching */
  for (int pass = 0; pass < 2 && !st; pass++) {
    i = 0;
    for (const cJSON *a = list->child; a && !st; a = a->next, i++) {
      check_entry(a, i, &opt, &nz, &sp, err);
      if (sp == (pass == 0))
        st = add_pattern(wp, cJSON_GetObjectItemCaseSensitive(a, "content")->valuestring, i, ids[i], opt, nz, norm, &cap[nz], err);
    }
  }
  tsift_free(ids);
  tsift_free(names.arena);
  tsift_free(names.off);
  tsift_free(names.len);
  tsift_free(names.slots);
  return st;
}

/* ---- splitting a text ---------------------------------------------------- */

/* Rust regex's \w (what single_word looks at): Alphabetic (letters, Nl, the
 * circled and squared letters), marks, decimal digits, connector
 * punctuation, the two joiners. */
static int is_word(int32_t c) {
  utf8proc_category_t k = utf8proc_category(c);
  return (k >= UTF8PROC_CATEGORY_LU && k <= UTF8PROC_CATEGORY_NL) || k == UTF8PROC_CATEGORY_PC || c == 0x200C ||
         c == 0x200D || (c >= 0x24B6 && c <= 0x24E9) || (c >= 0x1F130 && c <= 0x1F149) ||
         (c >= 0x1F150 && c <= 0x1F169) || (c >= 0x1F170 && c <= 0x1F189);
}

/* The longest pattern of set starting at v[i]: its index, or -1; *stop is where it ends. */
static long longest_at(const added_set *set, const int32_t *v, size_t n, size_t i, size_t *stop) {
  char buf[TSIFT_STATIC_MAX_PIECE + 8];
  uint32_t h = TSIFT_FNV_BASIS;
  long best = -1;
  for (size_t e = i, nb = 0; e < n; e++) {
    size_t m = (size_t)utf8proc_encode_char(v[e], (utf8proc_uint8_t *)buf + nb);
    if (nb + m > set->pat.max_token_len) break;
    for (size_t j = 0; j < m; j++) h = tsift_fnv_step(h, (unsigned char)buf[nb + j]);
    nb += m;
    long id = tsift_vocab_find_hashed(&set->pat, buf, nb, h);
    if (id >= 0) best = id, *stop = e + 1;
  }
  return best;
}

static int push(tsift_added_seg **out, size_t *count, size_t *cap, size_t start, size_t end, uint32_t id) {
  if (tsift_grow((void **)out, cap, *count + 1, sizeof **out)) return -1;
  (*out)[(*count)++] = (tsift_added_seg){start, end, id};
  return 0;
}

int tsift_added_split(const tsift_wordpiece *wp, int which, const int32_t *v, size_t n, tsift_added_seg **out,
                      size_t *count, size_t *cap) {
  const added_set *set = &wp->added->set[which];
  size_t from = 0, at = 0; /* the end of the last token taken; where the search goes on */
  *count = 0;
  while (set->pat.count && at < n) {
    size_t start = at, stop = 0;
    long k = -1;
    for (; start < n && (k = longest_at(set, v, n, start, &stop)) < 0; start++) {}
    if (k < 0) break;
    at = stop; /* the next match starts after this one, taken or not */
    unsigned char o = set->opt[k];
    if ((o & A_SINGLE) && ((start > 0 && is_word(v[start - 1])) || (stop < n && is_word(v[stop])))) continue;
    if (o & A_LSTRIP) {
      while (start > 0 && tsift_is_white_space(v[start - 1])) start--;
      if (start < from) start = from; /* spaces a token before took */
    }
    if (o & A_RSTRIP)
      while (stop < n && tsift_is_white_space(v[stop])) stop++;
    if ((from < start && push(out, count, cap, from, start, UINT32_MAX)) || push(out, count, cap, start, stop, set->id[k]))
      return -1;
    from = stop;
  }
  if (from != n && push(out, count, cap, from, n, UINT32_MAX)) return -1;
  return 0;
}
