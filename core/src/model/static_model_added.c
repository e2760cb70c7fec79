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

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/catalog.h"
#include "model/static_model.h"
#include "utf8proc.h"
#include "json/json_read.h"

/* A pattern's options, above its token id (ids are below 2^24: TSIFT_STATIC_MAX_VOCAB). */
#define A_SINGLE (1u << 24)
#define A_LSTRIP (2u << 24)
#define A_RSTRIP (4u << 24)
#define A_ID 0xFFFFFFu

/* One matching set: the patterns (a vocabulary table whose ids are
 * positions here), each with its token id and options. */
typedef struct added_set {
  tsift_wordpiece pat;
  uint32_t *id;
} added_set;

struct tsift_added {
  added_set set[2]; /* [0] matched in the raw text, [1] in the normalised text */
};

static void set_free(added_set *s) {
  TSIFT_FREE_ALL(s->pat.arena, s->pat.off, s->pat.len);
  tsift_hash_free(&s->pat.hash);
  tsift_free(s->id);
}

void tsift_added_free(tsift_wordpiece *wp) {
  if (!wp->added) return;
  set_free(&wp->added->set[0]);
  set_free(&wp->added->set[1]);
  tsift_free(wp->added);
  wp->added = NULL;
}

/* Entry i's content (NULL when the entry is malformed: an object with a
 * "content" of 1 to TSIFT_STATIC_MAX_PIECE bytes, an integer "id", boolean
 * options; "special" only matters to decoding, so it is not read), its
 * options and whether it is normalized. */
static const char *entry(const cJSON *a, uint32_t *opt, int *norm) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(a, "content");
  int s, l, r;
  if (!cJSON_IsString(c) || !c->valuestring[0] || strlen(c->valuestring) > TSIFT_STATIC_MAX_PIECE ||
      tsift_bool_opt(a, "single_word", 0, &s) || tsift_bool_opt(a, "lstrip", 0, &l) || tsift_bool_opt(a, "rstrip", 0, &r) ||
      tsift_bool_opt(a, "normalized", 1, norm) ||
      !tsift_json_integral(cJSON_GetObjectItemCaseSensitive(a, "id"), 0, 4294967295.0))
    return NULL;
  *opt = (uint32_t)s * A_SINGLE | (uint32_t)l * A_LSTRIP | (uint32_t)r * A_RSTRIP;
  return c->valuestring;
}

/* The pattern of a normalized token: its content through the model's
 * normalizer, as UTF-8 in out; its length, 0 when empty or too long, or -1
 * when out of memory. */
static long pattern(const char *content, const tsift_wordpiece *wp, tsift_added_norm norm, char *out) {
  tsift_cps a = {0}, b = {0};
  size_t zero = 1, k = 0;
  int bad = tsift_cps_decode(&a, content, strlen(content));
  if (!bad) bad = norm(wp, &a, &b, &zero);
  for (size_t j = 0; j < a.n && !bad && k <= TSIFT_STATIC_MAX_PIECE; j++)
    k += (size_t)utf8proc_encode_char(a.v[j], (utf8proc_uint8_t *)out + k);
  tsift_free(a.v);
  tsift_free(b.v);
  return bad ? -1 : k > TSIFT_STATIC_MAX_PIECE ? 0 : (long)k;
}

/* Room for the sets: n patterns each (their bytes grow as they come). */
static tsift_status alloc_sets(tsift_wordpiece *wp, size_t n, tsift_error *err) {
  wp->added = tsift_calloc_array(1, sizeof *wp->added);
  int bad = !wp->added;
  for (int s = 0; s < 2 && !bad; s++) {
    added_set *set = &wp->added->set[s];
    set->pat.rows = n;
    set->id = tsift_calloc_array(n, sizeof *set->id);
    bad = !set->id || tsift_vocab_alloc(&set->pat, n, 0, err);
    set->pat.count = 0; /* counts the patterns added */
  }
  return bad ? tsift_nomem(err, "reading added_tokens") : TSIFT_OK;
}

/* Entry i (content c): its pattern (c, normalised when nz) into its set, a
 * pattern already there keeping its first token as the library's matching
 * does; its id as the library gives it (its model.vocab id, else the next
 * after the vocabulary's size, in file order), the name of a token outside
 * the vocabulary kept by id, outside the lookup table. */
static tsift_status add_entry(tsift_wordpiece *wp, const char *c, size_t i, uint32_t opt, int nz,
                              tsift_added_norm norm, size_t *next, size_t *cap, tsift_error *err) {
  /* cap[0..1]: the sets' arenas; cap[2]: the vocabulary's */
  char buf[TSIFT_STATIC_MAX_PIECE + 8];
  size_t len = strlen(c);
  long plen = nz ? pattern(c, wp, norm, buf) : (long)len;
  long id = tsift_vocab_find_hashed(wp, c, len, tsift_fnv1a(c, len));
  const char *p = nz ? buf : c, *why = NULL;
  added_set *set = &wp->added->set[nz];
  if (plen < 0 || tsift_grow((void **)&set->pat.arena, &cap[nz], set->pat.used + (size_t)plen + 1, 1) ||
      tsift_grow((void **)&wp->arena, &cap[2], wp->used + len + 1, 1))
    return tsift_nomem(err, "reading added_tokens");
  long dup = plen ? tsift_vocab_find_hashed(&set->pat, p, (size_t)plen, tsift_fnv1a(p, (size_t)plen)) : -1;
  uint32_t was = dup >= 0 ? set->id[dup] & A_ID : 0;
  if (!plen) why = "normalizes to nothing or over 1024 bytes";
  else if (dup >= 0 && wp->len[was] == len && memcmp(wp->arena + wp->off[was], c, len) == 0)
    why = "is there twice";
  else if (id < 0 && (*next >= wp->rows || wp->len[*next]))
    why = "gets an id past the matrix's rows or of model.vocab";
  if (why) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: added_tokens[%zu] \"%.60s\" %s", i, c, why);
  if (id < 0) {
    id = (long)(*next)++;
    memcpy(wp->arena + wp->used, c, len);
    wp->off[id] = (uint32_t)wp->used;
    wp->len[id] = (uint32_t)len;
    wp->used += len;
    if ((size_t)id >= wp->nids) wp->nids = (size_t)id + 1;
  }
  if (dup < 0) {
    tsift_vocab_add(&set->pat, (uint32_t)set->pat.count, p, (size_t)plen);
    set->id[set->pat.count++] = (uint32_t)id | opt;
  }
  return TSIFT_OK;
}

tsift_status tsift_added_read(const cJSON *list, tsift_wordpiece *wp, tsift_added_norm norm, tsift_error *err) {
  if (!list || cJSON_IsNull(list)) return TSIFT_OK;
  if (!cJSON_IsArray(list)) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: added_tokens must be an array");
  /* the vocabulary's arena holds its tokens exactly (+1): it grows for the names */
  size_t n = (size_t)cJSON_GetArraySize(list), i = 0, next = wp->count, cap[3] = {1, 1, wp->used + 1};
  uint32_t opt;
  int nz;
  tsift_status st = tsift_vocab_limit(n, "added_tokens", err);
  if (!st && n) st = alloc_sets(wp, n, err);
  for (const cJSON *a = list->child; a && !st; a = a->next, i++) {
    const char *c = entry(a, &opt, &nz);
    st = c ? add_entry(wp, c, i, opt, nz, norm, &next, cap, err)
           : tsift_fail(err, TSIFT_E_MODEL,
                        "tokenizer.json: added_tokens[%zu] must be {\"id\", \"content\" (1 to 1024 bytes), boolean options}", i);
  }
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
    uint32_t o = set->id[k];
    if ((o & A_SINGLE) && ((start > 0 && is_word(v[start - 1])) || (stop < n && is_word(v[stop])))) continue;
    if (o & A_LSTRIP) {
      while (start > 0 && tsift_is_white_space(v[start - 1])) start--;
      if (start < from) start = from; /* spaces a token before took */
    }
    if (o & A_RSTRIP)
      while (stop < n && tsift_is_white_space(v[stop])) stop++;
    if ((from < start && push(out, count, cap, from, start, UINT32_MAX)) || push(out, count, cap, start, stop, o & A_ID))
      return -1;
    from = stop;
  }
  if (from != n && push(out, count, cap, from, n, UINT32_MAX)) return -1;
  return 0;
}
