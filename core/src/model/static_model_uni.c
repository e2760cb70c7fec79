/* static_model_uni.c — the Unigram tokenizer of the static-embedding model
 * (issue 35), as model2vec 0.6–0.7 and sentencepiece-derived models
 * (potion-multilingual) write it in tokenizer.json, tokenised the way the
 * Hugging Face `tokenizers` library does:
 *   normalizer     a Sequence of Replace (a String; the Regex forms \s+, \s,
 *                  \s{2,}, " +", " {2,}"), Strip, NFC / NFKC / NFD / NFKD,
 *                  Lowercase, BertNormalizer, Precompiled (sentencepiece's
 *                  charsmap, decoded and applied as the library does)
 *   pre_tokenizer  Metaspace (replacement, prepend_scheme, split), alone or
 *                  as the only member of a Sequence, or none
 *   model          Unigram: Viterbi over the pieces' log-probabilities (read
 *                  as the library's serde_json reads them), a character no
 *                  single-character piece covers scoring (lowest − 10) as
 *                  unk_id, runs of unknowns fused into one token,
 *                  byte_fallback to <0xXX> pieces.
 * Anything else is refused by name (docs/semantic.md, "Tokeniser rules",
 * which also says how it was checked against the library). */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/catalog.h"
#include "base/fmt.h"
#include "base/numparse.h"
#include "model/static_model.h"
#include "text/text.h"
#include "utf8proc.h"
#include "index/vectors.h"
#include "json/json_read.h"

enum { N_BERT, N_REPLACE, N_SPACES, N_STRIP, N_UNICODE, N_PRECOMPILED };

struct tsift_norm_step {
  unsigned char kind;
  unsigned char left, right;         /* N_STRIP */
  tsift_wordpiece bert;              /* N_BERT: its four options (Lowercase: lowercase alone) */
  int options;                       /* N_UNICODE: utf8proc options */
  unsigned char any_space, min, many; /* N_SPACES: \s (any White_Space) or ' ', at least min, more */
  int32_t *pat, *rep;                /* N_REPLACE (pattern), N_REPLACE / N_SPACES (content) */
  size_t npat, nrep;
  uint32_t *units;                   /* N_PRECOMPILED: the double-array trie */
  size_t nunits;
  char *pool;                        /* N_PRECOMPILED: the replacements, NUL-separated */
  size_t npool;
};

void tsift_unigram_free(tsift_wordpiece *wp) {
  for (size_t i = 0; i < wp->nsteps; i++) {
    TSIFT_FREE_ALL(wp->steps[i].pat, wp->steps[i].rep, wp->steps[i].units, wp->steps[i].pool);
  }
  tsift_free(wp->steps);
  tsift_free(wp->scores);
  wp->steps = NULL;
  wp->scores = NULL;
  wp->nsteps = 0;
}

/* ---- reading ---------------------------------------------------------------- */

#define NORMALIZERS "Sequence, Replace, Strip, NFC, NFKC, NFD, NFKD, Lowercase, BertNormalizer, Precompiled or null"

/* A JSON string as code points (valid UTF-8: the JSON reader checked it). */
static int to_cps(const char *s, int32_t **out, size_t *n) {
  tsift_cps a = {0};
  int r = tsift_cps_decode(&a, s, strlen(s));
  *out = a.v;
  *n = a.n;
  return r;
}

static struct tsift_norm_step *add_step(tsift_wordpiece *wp, unsigned char kind, size_t *cap, tsift_error *err) {
  if (wp->nsteps >= TSIFT_STATIC_MAX_NORM_STEPS) {
    tsift_fail(err, TSIFT_E_LIMIT, "tokenizer.json: normalizer: more than %u steps", TSIFT_STATIC_MAX_NORM_STEPS);
    return NULL;
  }
  if (tsift_grow((void **)&wp->steps, cap, wp->nsteps + 1, sizeof *wp->steps)) {
    tsift_nomem(err, "reading the normalizer");
    return NULL;
  }
  struct tsift_norm_step *s = &wp->steps[wp->nsteps++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  return s;
}

#define get_bool tsift_bool_opt

/* Replace: {"pattern": {"String": s} | {"Regex": r}, "content": c}. */
static tsift_status read_replace(const cJSON *n, tsift_wordpiece *wp, size_t *cap, tsift_error *err) {
  const cJSON *pat = cJSON_GetObjectItemCaseSensitive(n, "pattern");
  const cJSON *content = cJSON_GetObjectItemCaseSensitive(n, "content");
  const cJSON *str = cJSON_IsObject(pat) ? cJSON_GetObjectItemCaseSensitive(pat, "String") : NULL;
  const cJSON *re = cJSON_IsObject(pat) ? cJSON_GetObjectItemCaseSensitive(pat, "Regex") : NULL;
  if (!cJSON_IsObject(pat) || !!str == !!re || (str && !cJSON_IsString(str)) || (re && !cJSON_IsString(re)))
    return tsift_fail(err, TSIFT_E_MODEL,
                      "tokenizer.json: normalizer Replace: \"pattern\" must be {\"String\": string} or {\"Regex\": string}");
  if (!cJSON_IsString(content))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: normalizer Replace: \"content\" must be a string");
  const char *p = str ? str->valuestring : re->valuestring;
  /* The regular expressions read: runs of whitespace (model2vec's \s+) or
   * of spaces (sentencepiece conversions' " {2,}"), and plain strings. */
  static const struct {
    const char *re;
    unsigned char any_space, min, many;
  } RUNS[] = {{"\\s+", 1, 1, 1}, {"\\s", 1, 1, 0}, {"\\s{2,}", 1, 2, 1}, {" +", 0, 1, 1}, {" {2,}", 0, 2, 1}};
  int run = -1;
  if (re) {
    for (int i = 0; i < 5; i++)
      if (strcmp(p, RUNS[i].re) == 0) run = i;
    if (run < 0 && strpbrk(p, "\\^$.|?*+()[]{}"))
      return tsift_fail(err, TSIFT_E_MODEL,
                        "tokenizer.json: normalizer Replace: Regex \"%.40s\" is not supported (\\s+, \\s, \\s{2,}, \" +\", "
                        "\" {2,}\" or a plain string)",
                        p);
  }
  if (!p[0]) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: normalizer Replace: the pattern is empty");
  struct tsift_norm_step *s = add_step(wp, run >= 0 ? N_SPACES : N_REPLACE, cap, err);
  if (!s) return err->status;
  if (run >= 0) {
    s->any_space = RUNS[run].any_space;
    s->min = RUNS[run].min;
    s->many = RUNS[run].many;
  }
  if ((run < 0 && to_cps(p, &s->pat, &s->npat)) || to_cps(content->valuestring, &s->rep, &s->nrep))
    return tsift_nomem(err, "reading the normalizer");
  return TSIFT_OK;
}

/* Precompiled: sentencepiece's precompiled_charsmap, base64 of
 * [u32 LE trie bytes][trie: u32 LE units][replacements, NUL-separated, UTF-8].
 * Padded base64 only: a multiple of 4 characters, at most two '=' at the end. */
static tsift_status read_precompiled(const cJSON *n, tsift_wordpiece *wp, size_t *cap, tsift_error *err) {
  const cJSON *map = cJSON_GetObjectItemCaseSensitive(n, "precompiled_charsmap");
  if (!cJSON_IsString(map))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: normalizer Precompiled: \"precompiled_charsmap\" must be a string");
  const char *t = map->valuestring;
  size_t len = strlen(t);
  if (len % 4 || len < 8 || t[len - 3] == '=')
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: normalizer Precompiled: \"precompiled_charsmap\" is not base64 of a charsmap");
  uint8_t *raw = tsift_alloc_bytes(len / 4 * 3 + 3);
  if (!raw) return tsift_nomem(err, "reading the normalizer");
  long got = tsift_b64_decode(t, len, raw);
  int bad = got < 0;
  size_t nb = bad ? 0 : (size_t)got;
  size_t trie = nb >= 4 ? (size_t)raw[0] | (size_t)raw[1] << 8 | (size_t)raw[2] << 16 | (size_t)raw[3] << 24 : 0;
  if (bad || nb < 4 || trie % 4 || trie == 0 || trie > nb - 4 ||
      !tsift_utf8_valid((const char *)raw + 4 + trie, nb - 4 - trie, &(size_t){0})) {
    tsift_free(raw);
    return tsift_fail(err, TSIFT_E_MODEL,
                      "tokenizer.json: normalizer Precompiled: \"precompiled_charsmap\" is not base64 of a charsmap");
  }
  struct tsift_norm_step *s = add_step(wp, N_PRECOMPILED, cap, err);
  if (!s) {
    tsift_free(raw);
    return err->status;
  }
  s->nunits = trie / 4;
  s->npool = nb - 4 - trie;
  s->units = tsift_calloc_array(s->nunits, sizeof *s->units);
  s->pool = tsift_alloc_bytes(s->npool + 1);
  if (s->units && s->pool) {
    for (size_t i = 0; i < s->nunits; i++) {
      const uint8_t *u = raw + 4 + 4 * i;
      s->units[i] = (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
    }
    memcpy(s->pool, raw + 4 + trie, s->npool);
    s->pool[s->npool] = 0;
  }
  tsift_free(raw);
  return s->units && s->pool ? TSIFT_OK : tsift_nomem(err, "reading the normalizer");
}

static tsift_status read_normalizer(const cJSON *n, tsift_wordpiece *wp, size_t *cap, int depth, tsift_error *err) {
  if (!n || (depth == 0 && cJSON_IsNull(n))) return TSIFT_OK;
  const cJSON *type = cJSON_IsObject(n) ? cJSON_GetObjectItemCaseSensitive(n, "type") : NULL;
  if (!cJSON_IsString(type))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: normalizer: \"type\" must be a string");
  const char *t = type->valuestring;
  if (strcmp(t, "Sequence") == 0) {
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(n, "normalizers");
    if (!cJSON_IsArray(list))
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: normalizer Sequence: \"normalizers\" must be an array");
    if (depth >= 8) return tsift_fail(err, TSIFT_E_LIMIT, "tokenizer.json: normalizer: Sequences nested over 8 deep");
    for (const cJSON *m = list->child; m; m = m->next) {
      tsift_status st = read_normalizer(m, wp, cap, depth + 1, err);
      if (st) return st;
    }
    return TSIFT_OK;
  }
  if (strcmp(t, "Replace") == 0) return read_replace(n, wp, cap, err);
  if (strcmp(t, "Precompiled") == 0) return read_precompiled(n, wp, cap, err);
  if (strcmp(t, "Strip") == 0) {
    int l, r;
    if (!cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(n, "strip_left")) ||
        !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(n, "strip_right")) || get_bool(n, "strip_left", 0, &l) ||
        get_bool(n, "strip_right", 0, &r))
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: normalizer Strip: strip_left and strip_right must be booleans");
    struct tsift_norm_step *s = add_step(wp, N_STRIP, cap, err);
    if (!s) return err->status;
    s->left = (unsigned char)l;
    s->right = (unsigned char)r;
    return TSIFT_OK;
  }
  static const struct {
    const char *name;
    int options;
  } UNICODE_FORMS[] = {
      {"NFC", UTF8PROC_STABLE | UTF8PROC_COMPOSE},
      {"NFKC", UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT},
      {"NFD", UTF8PROC_STABLE | UTF8PROC_DECOMPOSE},
      {"NFKD", UTF8PROC_STABLE | UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT},
  };
  for (size_t i = 0; i < 4; i++)
    if (strcmp(t, UNICODE_FORMS[i].name) == 0) {
      struct tsift_norm_step *s = add_step(wp, N_UNICODE, cap, err);
      if (!s) return err->status;
      s->options = UNICODE_FORMS[i].options;
      return TSIFT_OK;
    }
  if (strcmp(t, "Lowercase") == 0) {
    struct tsift_norm_step *s = add_step(wp, N_BERT, cap, err);
    if (!s) return err->status;
    s->bert.lowercase = 1;
    return TSIFT_OK;
  }
  if (strcmp(t, "BertNormalizer") == 0) {
    struct tsift_norm_step *s = add_step(wp, N_BERT, cap, err);
    return s ? tsift_read_bert(n, &s->bert, err) : err->status;
  }
  return tsift_fail(err, TSIFT_E_MODEL,
                    "tokenizer.json: normalizer type \"%.40s\" is not supported with a Unigram model (" NORMALIZERS ")", t);
}

/* Metaspace: {"replacement": one character, "prepend_scheme": "always" |
 * "first" | "never", "split": bool} (older files: "add_prefix_space"). */
static tsift_status read_metaspace(const cJSON *p, tsift_wordpiece *wp, tsift_error *err) {
  const cJSON *r = cJSON_GetObjectItemCaseSensitive(p, "replacement");
  int32_t *cp = NULL;
  size_t n = 0;
  if (!cJSON_IsString(r))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: pre_tokenizer Metaspace: \"replacement\" must be a string");
  if (to_cps(r->valuestring, &cp, &n)) return tsift_nomem(err, "reading the pre-tokenizer");
  wp->replacement = n == 1 ? cp[0] : 0;
  tsift_free(cp);
  if (n != 1)
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: pre_tokenizer Metaspace: \"replacement\" must be one character");
  const cJSON *scheme = cJSON_GetObjectItemCaseSensitive(p, "prepend_scheme");
  int add = -1, split;
  const cJSON *aps = cJSON_GetObjectItemCaseSensitive(p, "add_prefix_space");
  if (aps && !cJSON_IsNull(aps)) {
    if (!cJSON_IsBool(aps))
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: pre_tokenizer Metaspace: \"add_prefix_space\" must be a boolean");
    add = cJSON_IsTrue(aps);
  }
  wp->prepend = 1;
  if (scheme && !cJSON_IsNull(scheme)) {
    const char *s = cJSON_IsString(scheme) ? scheme->valuestring : "";
    if (strcmp(s, "always") == 0) wp->prepend = 1;
    else if (strcmp(s, "first") == 0) wp->prepend = 2;
    else if (strcmp(s, "never") == 0) wp->prepend = 0;
    else
      return tsift_fail(err, TSIFT_E_MODEL,
                        "tokenizer.json: pre_tokenizer Metaspace: \"prepend_scheme\" must be \"always\", \"first\" or \"never\"");
    if (add == 0 && wp->prepend != 0)
      return tsift_fail(err, TSIFT_E_MODEL,
                        "tokenizer.json: pre_tokenizer Metaspace: \"add_prefix_space\" does not match \"prepend_scheme\"");
  } else if (add == 0) {
    /* as the library: add_prefix_space false wants prepend_scheme "never" said */
    return tsift_fail(err, TSIFT_E_MODEL,
                      "tokenizer.json: pre_tokenizer Metaspace: \"add_prefix_space\" does not match \"prepend_scheme\"");
  }
  const cJSON *sp = cJSON_GetObjectItemCaseSensitive(p, "split");
  if ((sp && cJSON_IsNull(sp)) ? (split = 1, 0) : get_bool(p, "split", 1, &split))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: pre_tokenizer Metaspace: \"split\" must be a boolean");
  wp->split = (unsigned char)split;
  wp->metaspace = 1;
  return TSIFT_OK;
}

static tsift_status read_pretokenizer(const cJSON *p, tsift_wordpiece *wp, tsift_error *err) {
  if (!p || cJSON_IsNull(p)) return TSIFT_OK;
  const cJSON *type = cJSON_IsObject(p) ? cJSON_GetObjectItemCaseSensitive(p, "type") : NULL;
  if (!cJSON_IsString(type)) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: pre_tokenizer: \"type\" must be a string");
  if (strcmp(type->valuestring, "Sequence") == 0) {
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(p, "pretokenizers");
    if (!cJSON_IsArray(list))
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: pre_tokenizer Sequence: \"pretokenizers\" must be an array");
    int count = cJSON_GetArraySize(list);
    if (count == 0) return TSIFT_OK;
    const cJSON *only = list->child;
    const cJSON *t = cJSON_IsObject(only) ? cJSON_GetObjectItemCaseSensitive(only, "type") : NULL;
    if (count > 1 || !cJSON_IsString(t) || strcmp(t->valuestring, "Metaspace") != 0)
      return tsift_fail(err, TSIFT_E_MODEL,
                        "tokenizer.json: pre_tokenizer Sequence: only a Sequence of one Metaspace is supported");
    return read_metaspace(only, wp, err);
  }
  if (strcmp(type->valuestring, "Metaspace") == 0) return read_metaspace(p, wp, err);
  return tsift_fail(err, TSIFT_E_MODEL,
                    "tokenizer.json: pre_tokenizer type \"%.40s\" is not supported with a Unigram model (Metaspace, a "
                    "Sequence of one Metaspace, or null)",
                    type->valuestring);
}

/* A score as the library reads it: serde_json (without its float_roundtrip
 * feature) takes the decimal digits as an integer, converts that to a double
 * and multiplies or divides it once by a power of ten — not always the
 * correctly rounded value (a third of a real vocabulary's scores are one ulp
 * off), and Viterbi's ties follow those bits. The JSON reader keeps the
 * lexeme of a number with a fraction or an exponent; an integer of at most
 * 15 digits is exact either way. Over 19 significant digits (never written
 * by Python or JavaScript): the correctly rounded value. */
static double score_of(const cJSON *v) {
  const char *p = v->valuestring;
  if (!p) return v->valuedouble;
  int neg = *p == '-';
  p += neg;
  uint64_t sig = 0;
  long frac = 0, exp = 0;
  for (int in_frac = 0;; p++) {
    if (*p == '.' && !in_frac) {
      in_frac = 1;
      continue;
    }
    if (*p < '0' || *p > '9') break;
    if (sig > (UINT64_MAX - 9) / 10) return v->valuedouble;
    sig = sig * 10 + (uint64_t)(*p - '0');
    frac += in_frac;
  }
  if (*p == 'e' || *p == 'E') {
    int eneg = *++p == '-';
    p += *p == '-' || *p == '+';
    for (; *p >= '0' && *p <= '9'; p++)
      if ((exp = exp * 10 + (*p - '0')) > 100000) return v->valuedouble;
    if (eneg) exp = -exp;
  }
  long e10 = exp - frac;
  double f = (double)sig;
  if (e10 > 308) return v->valuedouble;
  for (; e10 < -308 && f != 0; e10 += 308) f /= 1e308;
  if (e10 < -308) e10 = 0;
  char pw[8];
  tsift_snprintf(pw, sizeof pw, "1e%ld", e10 < 0 ? -e10 : e10);
  double ten = tsift_strtod(pw, NULL); /* 10^|e10|, correctly rounded, as serde's table */
  f = e10 < 0 ? f / ten : f * ten;
  return neg ? -f : f;
}

/* model.vocab: [[piece, score], …], id = position. */
static tsift_status read_vocab(const cJSON *vocab, tsift_wordpiece *wp, tsift_error *err) {
  if (!cJSON_IsArray(vocab))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab must be an array of [piece, score], got %s",
                      tsift_json_type_name(vocab));
  size_t count = 0, bytes = 0;
  double min = 0;
  tsift_status st = tsift_vocab_limit((size_t)cJSON_GetArraySize(vocab), "model.vocab", err);
  if (st) return st;
  for (const cJSON *e = vocab->child; e; e = e->next, count++) {
    const cJSON *piece = cJSON_IsArray(e) ? e->child : NULL;
    const cJSON *score = piece ? piece->next : NULL;
    if (!cJSON_IsString(piece) || !cJSON_IsNumber(score) || score->next)
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab[%zu] must be [piece, score] (a string and a number)",
                        count);
    double v = score_of(score);
    if (v != v || v - v != 0)
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab[%zu]: the score must be finite", count);
    size_t n = strlen(piece->valuestring);
    if (n == 0) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab[%zu]: the piece is empty", count);
    if (n > TSIFT_STATIC_MAX_PIECE)
      return tsift_fail(err, TSIFT_E_LIMIT, "tokenizer.json: model.vocab[%zu]: a piece of %zu bytes, over the limit of %u",
                        count, n, TSIFT_STATIC_MAX_PIECE);
    if (count >= wp->rows)
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab has more than the matrix's %zu rows", wp->rows);
    if (count == 0 || v < min) min = v;
    bytes += n;
  }
  if (count == 0) return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab is empty");
  st = tsift_vocab_alloc(wp, count, bytes, err);
  if (st) return st;
  wp->unk_score = min - 10.0; /* the library's K_UNK_PENALTY */
  size_t id = 0;
  for (const cJSON *e = vocab->child; e; e = e->next, id++) {
    const char *s = e->child->valuestring;
    long dup = tsift_vocab_add(wp, (uint32_t)id, s, strlen(s));
    if (dup >= 0)
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.vocab: \"%.60s\" is both id %ld and id %zu", s, dup, id);
    wp->scores[id] = score_of(e->child->next);
  }
  return TSIFT_OK;
}

tsift_status tsift_unigram_read(const cJSON *root, tsift_wordpiece *wp, tsift_error *err) {
  wp->unigram = 1;
  size_t cap = 0;
  tsift_status st = read_normalizer(cJSON_GetObjectItemCaseSensitive(root, "normalizer"), wp, &cap, 0, err);
  if (!st) st = read_pretokenizer(cJSON_GetObjectItemCaseSensitive(root, "pre_tokenizer"), wp, err);
  if (st) return st;
  const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
  const cJSON *fb = cJSON_GetObjectItemCaseSensitive(model, "byte_fallback");
  if (fb && !cJSON_IsNull(fb) && !cJSON_IsBool(fb))
    return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.byte_fallback must be a boolean");
  wp->byte_fallback = (unsigned char)cJSON_IsTrue(fb);
  st = read_vocab(cJSON_GetObjectItemCaseSensitive(model, "vocab"), wp, err);
  if (st) return st;
  const cJSON *unk = cJSON_GetObjectItemCaseSensitive(model, "unk_id");
  wp->unk_id = UINT32_MAX;
  if (unk && !cJSON_IsNull(unk)) {
    if (!tsift_json_integral(unk, 0, (double)wp->count - 1))
      return tsift_fail(err, TSIFT_E_MODEL, "tokenizer.json: model.unk_id must be null or an integer from 0 to %zu (model.vocab has %zu pieces)",
                        wp->count - 1, wp->count);
    wp->unk_id = (uint32_t)unk->valuedouble;
    wp->has_unk = 1;
  }
  return TSIFT_OK;
}

/* ---- normalising -------------------------------------------------------- */

/* A normalizer may lengthen the text (NFKC, a long Replace content, a
 * charsmap's replacements): each step's output stops at this many code
 * points (4 per byte of the longest text read), so a hostile file costs
 * bounded memory and time. */
#define MAX_NORMALIZED (4 * TSIFT_STATIC_TEXT_MAX_BYTES)

/* The charsmap's replacement for the shortest key that is a prefix of
 * u[0..n) (sentencepiece's double array, as the library reads it): its
 * offset in the pool, or -1. Every position is checked against the array. */
static long charsmap_find(const struct tsift_norm_step *s, const uint8_t *u, size_t n) {
#define OFFSET(x) (((x) >> 10) << (((x) & (1u << 9)) >> 6))
  size_t pos = OFFSET(s->units[0]);
  for (size_t i = 0; i < n && u[i]; i++) {
    pos ^= u[i];
    if (pos >= s->nunits) return -1;
    uint32_t unit = s->units[pos];
    if ((unit & 0x800000FFu) != u[i]) return -1;
    pos ^= OFFSET(unit);
    if ((unit >> 8) & 1) {
      if (pos >= s->nunits) return -1;
      size_t v = s->units[pos] & 0x7FFFFFFFu;
      return v < s->npool ? (long)v : -1;
    }
  }
  return -1;
#undef OFFSET
}

static size_t utf8_len(int32_t c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }

/* cps[0..n) through the charsmap as one chunk: 1 when replaced (appended to b). */
static int charsmap_chunk(const struct tsift_norm_step *s, const int32_t *cps, size_t n, tsift_cps *b, int *oom) {
  uint8_t u[4 * 8];
  size_t nb = 0;
  for (size_t i = 0; i < n; i++) nb += (size_t)utf8proc_encode_char(cps[i], u + nb);
  long at = charsmap_find(s, u, nb);
  if (at < 0) return 0;
  const char *r = s->pool + at;
  size_t rn = strlen(r);
  for (size_t i = 0; i < rn && !*oom && b->n < MAX_NORMALIZED;) {
    utf8proc_int32_t c = 0xFFFD;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)r + i, (utf8proc_ssize_t)(rn - i), &c);
    if (k < 1) k = 1, c = 0xFFFD; /* an offset inside a character */
    i += (size_t)k;
    *oom = tsift_cps_push(b, c);
  }
  return 1;
}

/* One step from a to b (b emptied first). *zero: in a, then in b, how many
 * leading characters the library aligns to the text's first character
 * (what a character becomes, or what replaces a match starting at it, keeps
 * its alignment; prepend_scheme "first" prepends only when the normalised
 * text still starts there). -1: out of memory. */
static int apply_step(const struct tsift_norm_step *s, const tsift_cps *a, tsift_cps *b, size_t *zero) {
  b->n = 0;
  size_t i = 0, end = a->n, in_zero = *zero;
  *zero = 0;
#define FROM(j) (*zero = (j) < in_zero ? b->n : *zero) /* b's last characters came from a[j] */
  switch (s->kind) {
  case N_BERT:
    for (; i < end && b->n < MAX_NORMALIZED; i++) {
      if (tsift_bert_normalize_char(&s->bert, a->v[i], b)) return -1;
      FROM(i);
    }
    return 0;
  case N_STRIP:
    if (s->left)
      while (i < end && tsift_is_white_space(a->v[i])) i++;
    if (s->right)
      while (end > i && tsift_is_white_space(a->v[end - 1])) end--;
    for (; i < end; i++) {
      if (tsift_cps_push(b, a->v[i])) return -1;
      FROM(i);
    }
    return 0;
  case N_REPLACE:
  case N_SPACES:
    while (i < end && b->n < MAX_NORMALIZED) {
      size_t m = 0; /* the match's length at i */
      if (s->kind == N_REPLACE) {
        if (end - i >= s->npat && memcmp(a->v + i, s->pat, s->npat * sizeof *s->pat) == 0) m = s->npat;
      } else {
        while (i + m < end && (s->any_space ? tsift_is_white_space(a->v[i + m]) : a->v[i + m] == ' ') &&
               (s->many || m == 0))
          m++;
        if (m < s->min) m = 0;
      }
      if (!m) {
        if (tsift_cps_push(b, a->v[i])) return -1;
        FROM(i);
        i++;
        continue;
      }
      for (size_t k = 0; k < s->nrep && b->n < MAX_NORMALIZED; k++)
        if (tsift_cps_push(b, s->rep[k])) return -1;
      FROM(i);
      i += m;
    }
    return 0;
  case N_PRECOMPILED: {
    /* As the library: per extended grapheme cluster, the cluster whole when
     * it is under 6 bytes and the charsmap has it, else each character. */
    int oom = 0;
    utf8proc_int32_t state = 0; /* carried along the text, each pair asked once */
    while (i < end && !oom && b->n < MAX_NORMALIZED) {
      size_t g = i + 1, bytes = utf8_len(a->v[i]);
      for (; g < end && !utf8proc_grapheme_break_stateful(a->v[g - 1], a->v[g], &state); g++) bytes += utf8_len(a->v[g]);
      if (!(bytes < 6 && charsmap_chunk(s, a->v + i, g - i, b, &oom)))
        for (size_t k = i; k < g && !oom; k++)
          if (!charsmap_chunk(s, a->v + k, 1, b, &oom)) oom = tsift_cps_push(b, a->v[k]);
      FROM(i);
      i = g;
    }
    /* the library's charsmap transform keeps the start aligned when it
     * removes the first characters (checked against it: "\x01x" with "first"
     * gets its ▁) */
    if (in_zero && b->n && !*zero) *zero = 1;
    return oom ? -1 : 0;
  }
  default: { /* N_UNICODE: utf8proc over the text's UTF-8 */
    size_t cap = 0;
    uint8_t *u = NULL;
    if (tsift_grow((void **)&u, &cap, a->n * 4 + 1, 1)) return -1;
    size_t nb = 0;
    for (; i < end; i++) nb += (size_t)utf8proc_encode_char(a->v[i], u + nb);
    utf8proc_ssize_t k = utf8proc_decompose(u, (utf8proc_ssize_t)nb, NULL, 0, (utf8proc_option_t)s->options);
    if (k < 0 || tsift_grow((void **)&b->v, &b->cap, (size_t)k + 1, sizeof *b->v)) {
      tsift_free(u);
      return -1; /* k < 0 cannot happen: the code points are valid */
    }
    k = utf8proc_decompose(u, (utf8proc_ssize_t)nb, b->v, k, (utf8proc_option_t)s->options);
    tsift_free(u);
    if (k < 0) return -1;
    k = utf8proc_normalize_utf32(b->v, k, (utf8proc_option_t)s->options);
    b->n = k < 0 ? 0 : (size_t)k;
    if (b->n > MAX_NORMALIZED) b->n = MAX_NORMALIZED;
    if (in_zero && b->n) {
      /* what the first character decomposes into (composition may merge
       * the next ones into it: still the first) */
      utf8proc_int32_t d[32];
      utf8proc_int32_t last = 0;
      utf8proc_ssize_t nd = utf8proc_decompose_char(a->v[0], d, 32, (utf8proc_option_t)s->options, &last);
      *zero = nd < 1 ? 1 : (size_t)nd < b->n ? (size_t)nd : b->n;
    }
    return 0;
  }
  }
#undef FROM
}

/* ---- Unigram ---------------------------------------------------------------- */

typedef struct viterbi {
  double *best;   /* by byte position: the best path's score ending there */
  int32_t *from;  /* where that path's last piece starts; -1: none yet */
  uint32_t *id;   /* that piece's id (UINT32_MAX: an unknown character) */
  uint32_t *seg;  /* the path's ends, read back to front */
} viterbi;

/* Emit id unless it is the missing unk (no unk_id: dropped, where the
 * library fails the encode). */
static int emit_id(uint32_t id, int (*emit)(void *, uint32_t), void *user) {
  return id == UINT32_MAX ? 0 : emit(user, id);
}

/* An unknown run s[0..n): the piece if it is one, else its bytes as <0xXX>
 * pieces with byte_fallback when all exist, else unk_id. */
static int emit_unknown(const tsift_wordpiece *wp, const char *s, size_t n, int (*emit)(void *, uint32_t), void *user) {
  uint32_t h = tsift_fnv1a(s, n);
  long id = tsift_vocab_find_hashed(wp, s, n, h);
  if (id >= 0) return emit(user, (uint32_t)id);
  if (wp->byte_fallback) {
    static const char HEX[] = "0123456789ABCDEF";
    int all = 1;
    for (int pass = 0; pass < 2 && all; pass++)
      for (size_t i = 0; i < n && all; i++) {
        char b[6] = {'<', '0', 'x', HEX[(unsigned char)s[i] >> 4], HEX[(unsigned char)s[i] & 15], '>'};
        uint32_t hb = tsift_fnv1a(b, 6);
        long bid = tsift_vocab_find_hashed(wp, b, 6, hb);
        if (bid < 0) all = 0;
        else if (pass == 1 && emit(user, (uint32_t)bid)) return 1;
      }
    if (all) return 0;
  }
  return emit_id(wp->unk_id, emit, user);
}

/* The best segmentation of the piece p[0..n) (UTF-8), emitted front to back. */
static int unigram_piece(const tsift_wordpiece *wp, const char *p, size_t n, viterbi *v,
                         int (*emit)(void *, uint32_t), void *user) {
  for (size_t i = 0; i <= n; i++) v->from[i] = -1;
  v->best[0] = 0;
  for (size_t start = 0; start < n;) {
    size_t mb = 1;
    while (start + mb < n && ((unsigned char)p[start + mb] & 0xC0) == 0x80) mb++;
    double base = v->best[start];
    int single = 0;
    uint32_t h = TSIFT_FNV_BASIS;
    for (size_t e = start; e < n && e - start < wp->max_token_len;) {
      h = tsift_fnv_step(h, (unsigned char)p[e++]);
      if (e < n && ((unsigned char)p[e] & 0xC0) == 0x80) continue; /* inside a character */
      long id = tsift_vocab_find_hashed(wp, p + start, e - start, h);
      if (id < 0) continue;
      double cand = wp->scores[id] + base;
      if (v->from[e] < 0 || cand > v->best[e]) {
        v->best[e] = cand;
        v->from[e] = (int32_t)start;
        v->id[e] = (uint32_t)id;
      }
      if (e - start == mb) single = 1;
    }
    if (!single) {
      size_t e = start + mb;
      double cand = wp->unk_score + base;
      if (v->from[e] < 0 || cand > v->best[e]) {
        v->best[e] = cand;
        v->from[e] = (int32_t)start;
        v->id[e] = UINT32_MAX;
      }
    }
    start += mb;
  }
  /* Back from the end; then forward, fusing runs of unknowns (an unknown
   * character, or the unk piece itself) into one token. */
  size_t k = 0;
  for (size_t e = n; e > 0; e = (size_t)v->from[e]) v->seg[k++] = (uint32_t)e;
  size_t at = 0;
  while (k > 0) {
    uint32_t e = v->seg[--k], id = v->id[e];
    int unk = id == UINT32_MAX || (wp->has_unk && id == wp->unk_id);
    if (!unk) {
      if (emit(user, id)) return 1;
      at = e;
      continue;
    }
    while (k > 0) { /* extend the run */
      uint32_t e2 = v->seg[k - 1], id2 = v->id[e2];
      if (!(id2 == UINT32_MAX || (wp->has_unk && id2 == wp->unk_id))) break;
      e = e2;
      k--;
    }
    if (emit_unknown(wp, p + at, e - at, emit, user)) return 1;
    at = e;
  }
  return 0;
}

int tsift_unigram_normalize(const tsift_wordpiece *wp, tsift_cps *a, tsift_cps *b, size_t *zero) {
  for (size_t s = 0; s < wp->nsteps; s++) {
    if (apply_step(&wp->steps[s], a, b, zero)) return -1;
    tsift_cps t = *a;
    *a = *b;
    *b = t;
  }
  return 0;
}

/* Metaspace: spaces become the replacement, one is prepended (unless the
 * piece starts with it; "first": only when the piece starts at the text's
 * first character, as the library reads its alignment), and with split
 * every replacement starts a new piece; then Unigram over each. */
int tsift_unigram_pieces(const tsift_wordpiece *wp, const int32_t *v, size_t len, int first,
                         int (*emit)(void *user, uint32_t id), void *user) {
  size_t n = 0, cap = len + 2, start = 0;
  int prepend = wp->metaspace && wp->prepend && len > 0 && v[0] != ' ' && v[0] != wp->replacement &&
                !(wp->prepend == 2 && !first);
  char *bytes = tsift_alloc_bytes(len * 4 + 5);
  viterbi vt = {tsift_calloc_array(cap * 4 + 1, sizeof *vt.best), tsift_calloc_array(cap * 4 + 1, sizeof *vt.from),
                tsift_calloc_array(cap * 4 + 1, sizeof *vt.id), tsift_calloc_array(cap * 4 + 1, sizeof *vt.seg)};
  int stop = !bytes || !vt.best || !vt.from || !vt.id || !vt.seg ? -1 : 0;
  if (prepend && !stop) n += (size_t)utf8proc_encode_char(wp->replacement, (utf8proc_uint8_t *)bytes);
  for (size_t i = 0; i <= len && !stop; i++) {
    int32_t c = i < len ? v[i] : 0;
    if (wp->metaspace && c == ' ') c = wp->replacement;
    int cut = i == len || (wp->metaspace && wp->split && c == wp->replacement);
    if (cut && n > start) {
      stop = unigram_piece(wp, bytes + start, n - start, &vt, emit, user);
      start = n;
    }
    if (i < len) n += (size_t)utf8proc_encode_char(c, (utf8proc_uint8_t *)bytes + n);
  }
  TSIFT_FREE_ALL(bytes, vt.best, vt.from, vt.id, vt.seg);
  return stop;
}
