/* static_model_chars.c — what the two tokenizers of the static-embedding
 * model share (static_model_tok.c: WordPiece and the reading of
 * tokenizer.json; static_model_uni.c: Unigram): the vocabulary's lookup,
 * Rust's White_Space, a growing code-point array, BertNormalizer's options
 * and its treatment of one character. Below both, so neither calls the other back. */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "model/static_model.h"
#include "utf8proc.h"

/* A token's bytes, for the table (hash.h). */
static const char *token_key(const void *owner, uint32_t id, size_t *len) {
  const tsift_wordpiece *wp = owner;
  *len = wp->len[id];
  return wp->arena + wp->off[id];
}

long tsift_vocab_find_hashed(const tsift_wordpiece *wp, const char *s, size_t n, uint32_t h) {
  if (n > wp->max_token_len) return -1;
  return tsift_hash_find(&wp->hash, h, s, n, token_key, wp);
}

/* Room for `count` tokens of `bytes` bytes in all, ids below wp->rows (and
 * their scores for a Unigram model): both readers build the same table. */
tsift_status tsift_vocab_alloc(tsift_wordpiece *wp, size_t count, size_t bytes, tsift_error *err) {
  wp->arena = tsift_alloc_bytes(bytes + 1);
  wp->off = tsift_calloc_array(wp->rows, sizeof *wp->off);
  wp->len = tsift_calloc_array(wp->rows, sizeof *wp->len);
  if (wp->unigram) wp->scores = tsift_calloc_array(count, sizeof *wp->scores);
  /* sized once: the table never grows (no ids to add again, so none named) */
  if (!wp->arena || !wp->off || !wp->len || (wp->unigram && !wp->scores) ||
      tsift_hash_room(&wp->hash, count, 0, 16, token_key, wp))
    return tsift_nomem(err, "reading the vocabulary");
  wp->count = count;
  return TSIFT_OK;
}

tsift_status tsift_vocab_limit(size_t n, const char *key, tsift_error *err) {
  if (n <= TSIFT_STATIC_MAX_VOCAB) return TSIFT_OK;
  return tsift_fail(err, TSIFT_E_LIMIT, "tokenizer.json: %s: %zu tokens is over the limit of %u", key, n,
                    TSIFT_STATIC_MAX_VOCAB);
}

long tsift_vocab_add(tsift_wordpiece *wp, uint32_t id, const char *s, size_t n) {
  uint32_t h = tsift_fnv1a(s, n);
  if (n > wp->max_token_len) wp->max_token_len = n;
  long dup = tsift_vocab_find_hashed(wp, s, n, h);
  if (dup >= 0) return dup;
  memcpy(wp->arena + wp->used, s, n);
  wp->off[id] = (uint32_t)wp->used;
  wp->len[id] = (uint32_t)n;
  wp->used += n;
  if (id >= wp->nids) wp->nids = (size_t)id + 1;
  tsift_hash_add(&wp->hash, h, id);
  return -1;
}

/* ---- options both readers parse -------------------------------------------- */

int tsift_bool_opt(const cJSON *o, const char *key, int dflt, int *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!v) *out = dflt;
  else if (cJSON_IsBool(v)) *out = cJSON_IsTrue(v);
  else return -1;
  return 0;
}

tsift_status tsift_read_bert(const cJSON *n, tsift_wordpiece *wp, tsift_error *err) {
  int clean, chinese, lower;
  const cJSON *sa = cJSON_GetObjectItemCaseSensitive(n, "strip_accents");
  if (tsift_bool_opt(n, "clean_text", 1, &clean) || tsift_bool_opt(n, "handle_chinese_chars", 1, &chinese) ||
      tsift_bool_opt(n, "lowercase", 1, &lower) || (sa && !cJSON_IsNull(sa) && !cJSON_IsBool(sa)))
    return tsift_fail(err, TSIFT_E_MODEL,
                      "tokenizer.json: normalizer BertNormalizer: clean_text, handle_chinese_chars and lowercase must be "
                      "booleans, strip_accents a boolean or null");
  wp->clean_text = (unsigned char)clean;
  wp->chinese_chars = (unsigned char)chinese;
  wp->lowercase = (unsigned char)lower;
  wp->strip_accents = (unsigned char)(cJSON_IsBool(sa) ? cJSON_IsTrue(sa) : lower); /* null: as lowercase */
  return TSIFT_OK;
}

/* ---- character classes (BERT's definitions) ----------------------------- */

/* Rust's char::is_whitespace (the White_Space property). */
int tsift_is_white_space(int32_t c) {
  return c == ' ' || (c >= 9 && c <= 13) || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}


/* A control character clean_text drops: categories Cc, Cf, Co (and Cs,
 * which UTF-8 cannot hold) except \t \n \r. Unassigned code points (Cn)
 * stay, as in the tokenizers library (checked against it: U+0378 is kept). */
static int is_control(int32_t c) {
  if (c == '\t' || c == '\n' || c == '\r') return 0;
  utf8proc_category_t k = utf8proc_category(c);
  return k == UTF8PROC_CATEGORY_CC || k == UTF8PROC_CATEGORY_CF || k == UTF8PROC_CATEGORY_CO ||
         k == UTF8PROC_CATEGORY_CS;
}

/* The CJK ideograph blocks handle_chinese_chars pads with spaces: the
 * tokenizers library's list, which starts Extension E at U+2B920 (BERT's
 * original said U+2B820; checked against the library: U+2B906 is not padded). */
static int is_cjk(int32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

#define is_space tsift_is_white_space
typedef tsift_cps cps;
#define cps_push tsift_cps_push

int tsift_cps_push(tsift_cps *a, int32_t c) {
  if (tsift_grow((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v)) return -1;
  a->v[a->n++] = c;
  return 0;
}

int tsift_cps_decode(tsift_cps *a, const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    utf8proc_int32_t c = 0xFFFD;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &c);
    if (k < 1) k = 1, c = 0xFFFD;
    i += (size_t)k;
    if (tsift_cps_push(a, c)) return -1;
  }
  return 0;
}

/* One input character through the normalizer, appended to out. */
int tsift_bert_normalize_char(const tsift_wordpiece *wp, int32_t c, cps *out) {
  if (wp->clean_text) {
    if (c == 0 || c == 0xFFFD || is_control(c)) return 0;
    if (is_space(c)) c = ' ';
  }
  int pad = wp->chinese_chars && is_cjk(c);
  if (pad && cps_push(out, ' ')) return -1;
  int32_t parts[32];
  utf8proc_ssize_t k = 1;
  parts[0] = c;
  if (wp->strip_accents) {
    /* NFD one character at a time (canonical reordering only reorders the
     * marks that are then dropped), then drop the nonspacing marks. */
    k = utf8proc_decompose_char(c, parts, 32, UTF8PROC_DECOMPOSE, NULL);
    if (k < 1 || k > 32) {
      k = 1;
      parts[0] = c;
    }
  }
  for (utf8proc_ssize_t i = 0; i < k; i++) {
    int32_t p = parts[i];
    if (wp->strip_accents && utf8proc_category(p) == UTF8PROC_CATEGORY_MN) continue;
    if (wp->lowercase && p == 0x130) {
      /* İ: the one character whose full lowercase is two (i + U+0307),
       * which utf8proc's simple mapping lacks and Rust's has. */
      if (cps_push(out, 'i') || cps_push(out, 0x307)) return -1;
      continue;
    }
    if (wp->lowercase) p = utf8proc_tolower(p);
    if (cps_push(out, p)) return -1;
  }
  if (pad && cps_push(out, ' ')) return -1;
  return 0;
}

