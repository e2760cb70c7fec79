/* static_model_tok.c — the WordPiece tokenizer of the static-embedding
 * model: reading a Hugging Face tokenizer.json (the vocabulary, the
 * normalizer and pre-tokenizer options it states), and splitting a text into
 * token ids the way the `tokenizers` library does for a BERT-style model:
 * BertNormalizer (clean text, pad CJK ideographs, strip accents, lowercase),
 * BertPreTokenizer (whitespace, then every punctuation character alone),
 * WordPiece (greedy longest match first; a word with no full split is one
 * [UNK]). Unicode properties come from the pinned utf8proc, so the ids are
 * the same on every platform (docs/semantic.md lists where utf8proc's
 * simple lowercase differs from Rust's full one). Only integer logic.
 * A tokenizer.json whose model.type is "Unigram" is read and tokenised by
 * static_model_uni.c through the same struct and entry points; what both
 * use (the vocabulary table, BertNormalizer's characters) is in
 * static_model_chars.c, below both. */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/catalog.h"
#include "model/static_model.h"
#include "text/text.h"
#include "utf8proc.h"
#include "json/json_read.h"

/* ---- the vocabulary: ids by token (hash.h) and tokens by id ---- */

/* The id of token s[0..n), or -1. */
static long vocab_find(const tsift_wordpiece *wp, const char *s, size_t n) {
  if (n > wp->max_token_len) return -1;
  return tsift_vocab_find_hashed(wp, s, n, tsift_fnv1a(s, n));
}

const char *tsift_wordpiece_token(const tsift_wordpiece *wp, uint32_t id, size_t *len) {
  if (id >= wp->rows || wp->len[id] == 0) return NULL; /* no token is empty */
  *len = wp->len[id];
  return wp->arena + wp->off[id];
}

void tsift_wordpiece_free(tsift_wordpiece *wp) {
  tsift_unigram_free(wp);
  tsift_added_free(wp);
  TSIFT_FREE_ALL(wp->arena, wp->off, wp->len);
  tsift_hash_free(&wp->hash);
  memset(wp, 0, sizeof *wp);
}

/* model.vocab: {token: id}, ids unique and below rows. */
static tsift_status read_vocab(const cJSON *vocab, tsift_wordpiece *wp, tsift_error *err) {
  if (!cJSON_IsObject(vocab))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab must be an object {token: id}, got %s",
                      tsift_json_type_name(vocab));
  size_t count = 0, bytes = 0;
  tsift_status st = tsift_vocab_limit((size_t)cJSON_GetArraySize(vocab), "model.vocab", err);
  for (const cJSON *t = st ? NULL : vocab->child; t; t = t->next) {
    if (!tsift_json_integral(t, 0, (double)wp->rows - 1))
      return tsift_fail(err, TSIFT_E_MODEL,
                        "tokenizer.json: model.vocab \"%.60s\": the id must be an integer from 0 to %zu (the matrix has %zu rows)",
                        t->string, wp->rows - 1, wp->rows);
    if (!t->string[0]) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab has an empty token");
    count++;
    bytes += strlen(t->string);
  }
  if (st) return st;
  if (count == 0) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab is empty");
  st = tsift_vocab_alloc(wp, count, bytes, err);
  for (const cJSON *t = vocab->child; t && !st; t = t->next) {
    uint32_t id = (uint32_t)t->valuedouble;
    if (wp->len[id]) { /* no token is empty: a length marks the id taken */
      char first[61]; /* the arena's tokens are not NUL-terminated */
      size_t k = tsift_utf8_cut(wp->arena + wp->off[id], wp->len[id], 60);
      memcpy(first, wp->arena + wp->off[id], k);
      first[k] = 0;
      st = tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab: \"%s\" and \"%.60s\" both have id %u", first,
                      t->string, (unsigned)id);
    } else {
      tsift_vocab_add(wp, id, t->string, strlen(t->string)); /* keys are unique: the JSON reader refuses a repeated key */
    }
  }
  return st;
}

static tsift_status read_normalizer(const cJSON *n, tsift_wordpiece *wp, tsift_error *err) {
  if (!n || cJSON_IsNull(n)) return TSIFT_OK;
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(n, "type");
  if (!cJSON_IsString(type)) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: normalizer: \"type\" must be a string");
  if (strcmp(type->valuestring, "Lowercase") == 0) {
    wp->lowercase = 1;
    return TSIFT_OK;
  }
  if (strcmp(type->valuestring, "BertNormalizer") != 0)
    return tsift_fail(err, TSIFT_E_MODEL,
                      "tokenizer.json: normalizer type \"%.40s\" is not supported (BertNormalizer, Lowercase or null)",
                      type->valuestring);
  return tsift_read_bert(n, wp, err);
}

static tsift_status read_pretokenizer(const cJSON *p, tsift_wordpiece *wp, tsift_error *err) {
  if (!p || cJSON_IsNull(p)) return TSIFT_OK;
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(p, "type");
  if (!cJSON_IsString(type)) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: pre_tokenizer: \"type\" must be a string");
  if (strcmp(type->valuestring, "BertPreTokenizer") == 0) wp->pretok = 1;
  else if (strcmp(type->valuestring, "WhitespaceSplit") == 0) wp->pretok = 2;
  else
    return tsift_fail(err, TSIFT_E_MODEL,
                      "tokenizer.json: pre_tokenizer type \"%.40s\" is not supported (BertPreTokenizer, WhitespaceSplit or null)",
                      type->valuestring);
  return TSIFT_OK;
}

/* model: {"type":"WordPiece","vocab":{…},"unk_token","continuing_subword_prefix","max_input_chars_per_word"}. */
static tsift_status read_model(const cJSON *model, tsift_wordpiece *wp, tsift_error *err) {
  if (!cJSON_IsObject(model)) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: \"model\" must be an object");
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(model, "type");
  if (!cJSON_IsString(type) || strcmp(type->valuestring, "WordPiece") != 0)
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model type %s%.40s%s is not supported (WordPiece or Unigram)",
                      cJSON_IsString(type) ? "\"" : "", cJSON_IsString(type) ? type->valuestring : "(missing)",
                      cJSON_IsString(type) ? "\"" : "");
  const cJSON *prefix = cJSON_GetObjectItemCaseSensitive(model, "continuing_subword_prefix");
  const char *pre = "##";
  if (prefix && !cJSON_IsNull(prefix)) {
    if (!cJSON_IsString(prefix) || strlen(prefix->valuestring) > TSIFT_STATIC_MAX_PREFIX)
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.continuing_subword_prefix must be a string of at most %u bytes",
                        TSIFT_STATIC_MAX_PREFIX);
    pre = prefix->valuestring;
  }
  wp->prefix_len = strlen(pre);
  memcpy(wp->prefix, pre, wp->prefix_len + 1);
  const cJSON *maxc = cJSON_GetObjectItemCaseSensitive(model, "max_input_chars_per_word");
  wp->max_chars = 100;
  if (maxc && !cJSON_IsNull(maxc)) {
    if (!tsift_json_integral(maxc, 1, TSIFT_STATIC_MAX_WORD_CHARS))
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.max_input_chars_per_word must be an integer from 1 to %u",
                        TSIFT_STATIC_MAX_WORD_CHARS);
    wp->max_chars = (size_t)maxc->valuedouble;
  }
  tsift_status st = read_vocab(cJSON_GetObjectItemCaseSensitive(model, "vocab"), wp, err);
  if (st) return st;
  const cJSON *unk = cJSON_GetObjectItemCaseSensitive(model, "unk_token");
  if (!cJSON_IsString(unk)) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.unk_token must be a string");
  long id = vocab_find(wp, unk->valuestring, strlen(unk->valuestring));
  if (id < 0)
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.unk_token \"%.40s\" is not in model.vocab", unk->valuestring);
  wp->unk_id = (uint32_t)id;
  return TSIFT_OK;
}

/* The model's normalizer over a (b: scratch): BertNormalizer (or
 * Lowercase) per character, or the Unigram model's steps. Also what the
 * normalized added tokens' patterns go through. -1: out of memory. */
static int normalize(const tsift_wordpiece *wp, tsift_cps *a, tsift_cps *b, size_t *zero) {
  if (wp->unigram) return tsift_unigram_normalize(wp, a, b, zero);
  b->n = 0;
  for (size_t i = 0; i < a->n; i++)
    if (tsift_bert_normalize_char(wp, a->v[i], b)) return -1;
  tsift_cps t = *a;
  *a = *b;
  *b = t;
  return 0;
}

tsift_status tsift_wordpiece_load(const char *json, size_t n, size_t rows, tsift_wordpiece *wp, tsift_error *err) {
  memset(wp, 0, sizeof *wp);
  wp->rows = rows;
  if (n > TSIFT_STATIC_MAX_TOKENIZER)
    return tsift_fail(err, TSIFT_E_LIMIT, "tokenizer.json: %zu bytes is over the limit of %u", n, TSIFT_STATIC_MAX_TOKENIZER);
  cJSON *root = NULL;
  tsift_status st = tsift_json_parse(json, n, "tokenizer.json", &root, err);
  if (st) return st;
  if (!cJSON_IsObject(root)) st = tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: expected a JSON object");
  const cJSON *model = st ? NULL : cJSON_GetObjectItemCaseSensitive(root, "model");
  const cJSON *mtype = cJSON_IsObject(model) ? cJSON_GetObjectItemCaseSensitive(model, "type") : NULL;
  if (!st && cJSON_IsString(mtype) && strcmp(mtype->valuestring, "Unigram") == 0) {
    /* The Unigram model's own reader, with its normalizers and pre-tokenizer. */
    st = tsift_unigram_read(root, wp, err);
    if (!st) st = tsift_added_read(cJSON_GetObjectItemCaseSensitive(root, "added_tokens"), wp, normalize, err);
    cJSON_Delete(root);
    if (st) tsift_wordpiece_free(wp);
    return st;
  }
  if (!st) st = read_normalizer(cJSON_GetObjectItemCaseSensitive(root, "normalizer"), wp, err);
  if (!st) st = read_pretokenizer(cJSON_GetObjectItemCaseSensitive(root, "pre_tokenizer"), wp, err);
  if (!st) st = read_model(cJSON_GetObjectItemCaseSensitive(root, "model"), wp, err);
  if (!st) st = tsift_added_read(cJSON_GetObjectItemCaseSensitive(root, "added_tokens"), wp, normalize, err);
  cJSON_Delete(root);
  if (st) tsift_wordpiece_free(wp);
  return st;
}

/* ---- character classes (BERT's definitions) ----------------------------- */

#define is_space tsift_is_white_space

/* BertPreTokenizer's punctuation: ASCII symbols and Unicode P*. */
static int is_punct(int32_t c) {
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return 1;
  utf8proc_category_t k = utf8proc_category(c);
  return k >= UTF8PROC_CATEGORY_PC && k <= UTF8PROC_CATEGORY_PO;
}

/* ---- encoding ------------------------------------------------------------ */

typedef tsift_cps cps;
#define cps_push tsift_cps_push

/* The longest vocabulary piece of the word starting at character `start`
 * ("##"-prefixed after the first): its id, or -1 when none; *end is where
 * it stops. buf holds the prefix then room for the word. */
static long longest_piece(const tsift_wordpiece *wp, const char *w, const uint32_t *at, size_t start, size_t chars,
                          char *buf, size_t *end) {
  for (*end = chars; *end > start; (*end)--) {
    size_t n = at[*end] - at[start];
    const char *s = w + at[start];
    if (start > 0) {
      memcpy(buf + wp->prefix_len, s, n);
      s = buf;
      n += wp->prefix_len;
    }
    long found = vocab_find(wp, s, n);
    if (found >= 0) return found;
  }
  return -1;
}

/* WordPiece over one word (its UTF-8 bytes w[0..bytes), character starts
 * at[0..chars]). buf holds the prefix then room for the word. Returns 1
 * when emit asked to stop. */
static int wordpiece_word(const tsift_wordpiece *wp, const char *w, const uint32_t *at, size_t chars, char *buf,
                          tsift_wordpiece_emit emit, void *user) {
  if (chars > wp->max_chars) return emit(user, wp->unk_id);
  /* First the split, then the emits: a word with no full split is one [UNK]. */
  size_t start = 0, pieces = 0, end;
  uint32_t ids[64];
  while (start < chars) {
    long found = longest_piece(wp, w, at, start, chars, buf, &end);
    if (found < 0) return emit(user, wp->unk_id);
    if (pieces < 64) ids[pieces] = (uint32_t)found;
    pieces++;
    start = end;
  }
  if (pieces > 64) {
    /* More than 64 pieces (only with a long max_input_chars_per_word): split
     * again, emitting as it goes; the split is the same. */
    for (start = 0; start < chars; start = end)
      if (emit(user, (uint32_t)longest_piece(wp, w, at, start, chars, buf, &end))) return 1;
    return 0;
  }
  for (size_t i = 0; i < pieces; i++)
    if (emit(user, ids[i])) return 1;
  return 0;
}

/* BertPreTokenizer (or WhitespaceSplit, or none) and WordPiece over the
 * normalised piece v[0..n). -1: out of memory; 1: emit asked to stop. */
static int wordpiece_pieces(const tsift_wordpiece *wp, const int32_t *v, size_t n, tsift_wordpiece_emit emit,
                            void *user) {
  /* Scratch: a word's bytes (at most 4 per character) after the prefix,
   * and its character starts. */
  char *bytes = tsift_alloc_bytes(n * 4 + 1);
  char *buf = tsift_alloc_bytes(wp->prefix_len + n * 4 + 1);
  uint32_t *at = tsift_calloc_array(n + 1, sizeof *at);
  int stop = !bytes || !buf || !at ? -1 : 0;
  if (buf) memcpy(buf, wp->prefix, wp->prefix_len);
  size_t chars = 0, nb = 0;
  for (size_t i = 0; i <= n && !stop; i++) {
    int32_t c = i < n ? v[i] : ' ';
    int space = wp->pretok ? is_space(c) : (i == n);
    int punct = wp->pretok == 1 && i < n && is_punct(c);
    if (space || punct) {
      if (chars) stop = wordpiece_word(wp, bytes, at, chars, buf, emit, user);
      chars = nb = 0;
      if (!punct || stop) continue;
    }
    at[chars] = (uint32_t)nb;
    nb += (size_t)utf8proc_encode_char(c, (utf8proc_uint8_t *)bytes + nb);
    at[++chars] = (uint32_t)nb;
    if (punct) {
      stop = wordpiece_word(wp, bytes, at, chars, buf, emit, user);
      chars = nb = 0;
    }
  }
  TSIFT_FREE_ALL(bytes, buf, at);
  return stop;
}

/* A text piece (in a; b scratch) the raw added tokens left, from the text's
 * start when at0: normalised, split by the normalized added tokens, the rest
 * pre-tokenised and tokenised by the model. -1: out of memory; 1: stop. */
static int normalized_piece(const tsift_wordpiece *wp, tsift_cps *a, tsift_cps *b, int at0, tsift_added_seg **segs,
                            size_t *cap, tsift_wordpiece_emit emit, void *user) {
  size_t zero = at0 && a->n > 0, count = 1; /* leading characters aligned to the text's first */
  if (normalize(wp, a, b, &zero)) return -1;
  tsift_added_seg whole = {0, a->n, UINT32_MAX}, *s = &whole;
  if (wp->added) {
    if (tsift_added_split(wp, 1, a->v, a->n, segs, &count, cap)) return -1;
    s = *segs;
  }
  int r = 0;
  for (size_t k = 0; k < count && !r; k++) {
    const int32_t *v = a->v ? a->v + s[k].start : a->v; /* (an empty text has no buffer: no offset on NULL) */
    if (s[k].id != UINT32_MAX) r = emit(user, s[k].id) != 0;
    else if (wp->unigram) r = tsift_unigram_pieces(wp, v, s[k].end - s[k].start, s[k].start < zero, emit, user);
    else r = wordpiece_pieces(wp, v, s[k].end - s[k].start, emit, user);
  }
  return r;
}

/* Decode; split by the raw added tokens; each piece between them through
 * normalized_piece. */
tsift_status tsift_wordpiece_encode(const tsift_wordpiece *wp, const char *text, size_t len,
                                    tsift_wordpiece_emit emit, void *user, tsift_error *err) {
  if (len > TSIFT_STATIC_TEXT_MAX_BYTES) len = tsift_utf8_cut(text, len, TSIFT_STATIC_TEXT_MAX_BYTES);
  cps a = {0}, p = {0}, b = {0};
  int r = tsift_cps_decode(&a, text, len);
  tsift_added_seg *raw = NULL, *segs = NULL;
  size_t count = 0, rcap = 0, cap = 0;
  if (!r && !wp->added) r = normalized_piece(wp, &a, &b, 1, &segs, &cap, emit, user);
  else if (!r) r = tsift_added_split(wp, 0, a.v, a.n, &raw, &count, &rcap);
  for (size_t k = 0; k < count && !r; k++) {
    if (raw[k].id != UINT32_MAX) {
      r = emit(user, raw[k].id) != 0;
      continue;
    }
    p.n = 0;
    for (size_t i = raw[k].start; i < raw[k].end && !r; i++) r = cps_push(&p, a.v[i]);
    if (!r) r = normalized_piece(wp, &p, &b, raw[k].start == 0, &segs, &cap, emit, user);
  }
  TSIFT_FREE_ALL(a.v, p.v, b.v, raw, segs);
  return r < 0 ? tsift_nomem(err, "tokenising a text") : TSIFT_OK;
}
