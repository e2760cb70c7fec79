/* text.c — the analyser (SPEC S3). Owns tokenisation, normalisation, plural
 * folding, stopwords and label normalisation (query analysis is query.c's). Every step is
 * integer/byte logic over utf8proc's tables, so output is identical on every
 * platform. */
#include "text/text.h"

#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "utf8proc.h"

/* ---- token lists ------------------------------------------------------ */

void tsift_tokens_init(tsift_tokens *t) { memset(t, 0, sizeof *t); }

void tsift_tokens_free(tsift_tokens *t) {
  TSIFT_FREE_ALL(t->bytes, t->off, t->len);
  memset(t, 0, sizeof *t);
}

void tsift_tokens_clear(tsift_tokens *t) {
  t->nbytes = 0;
  t->count = 0;
}

/* Room for one more token of up to n bytes, written at t->bytes + t->nbytes
 * and then ended by tokens_end: tsift_tokens_push copies into it, and the
 * analyser folds a token there in place (emit) instead of in a buffer of
 * its own copied after. -1 when out of memory. */
static int tokens_room(tsift_tokens *t, size_t n) {
  if (t->count == t->cap) {
    size_t cap1 = t->cap, cap2 = t->cap;
    if (tsift_grow((void **)&t->off, &cap1, t->count + 1, sizeof *t->off)) return -1;
    if (tsift_grow((void **)&t->len, &cap2, t->count + 1, sizeof *t->len)) return -1;
    t->cap = cap1 < cap2 ? cap1 : cap2;
  }
  if (t->nbytes + n + 1 > t->bytes_cap && tsift_grow((void **)&t->bytes, &t->bytes_cap, t->nbytes + n + 1, 1))
    return -1;
  return 0;
}

/* The token of n bytes (at most 255) at t->bytes + t->nbytes is the last. */
static void tokens_end(tsift_tokens *t, size_t n) {
  t->bytes[t->nbytes + n] = 0; /* each token NUL-terminated for convenience */
  t->off[t->count] = (uint32_t)t->nbytes;
  t->len[t->count] = (uint8_t)n;
  t->nbytes += n + 1;
  t->count++;
}

int tsift_tokens_push(tsift_tokens *t, const char *s, size_t n) {
  if (n > 255) n = 255;
  if (tokens_room(t, n)) return -1;
  memcpy(t->bytes + t->nbytes, s, n);
  tokens_end(t, n);
  return 0;
}

long tsift_tokens_find(const tsift_tokens *t, const char *s, size_t n) {
  for (size_t i = 0; i < t->count; i++)
    if (t->len[i] == n && memcmp(tsift_token(t, i), s, n) == 0) return (long)i;
  return -1;
}

/* ---- word lists -------------------------------------------------------- */

/* s[0..n) is one of the words of a '|'-packed list ("|a|b|") whose words
 * are in order of their first byte: the scan compares only words of s's
 * first byte and stops past them (the lists are read for every query word). */
int tsift_word_listed(const char *list, const char *s, size_t n) {
  if (!n) return 0;
  const unsigned char first = (unsigned char)s[0];
  for (const char *p = list; (p = strchr(p, '|')) != NULL && p[1]; p++) {
    if ((unsigned char)p[1] > first) return 0;
    if ((unsigned char)p[1] == first && strncmp(p + 1, s, n) == 0 && p[1 + n] == '|') return 1;
  }
  return 0;
}

/* ---- normalisation through utf8proc, with our allocator ---------------- */

/* Decompose + normalise s[0..n) (valid UTF-8) with `opt`; returns codepoints. */
/* 1 when utf8proc leaves the character alone under NFKC (and case folding
 * when `fold`): no decomposition or folding, combining class 0, never the
 * second character of a composition (utf8proc composes a starter with a
 * following one only through comb_index >= 0x8000 or Hangul jamo), and not
 * Hangul, which utf8proc decomposes and composes by rule, not by table. */
static int nfkc_inert(utf8proc_int32_t uc, int fold) {
  if (uc >= 0x1100 && (uc <= 0x11FF || (uc >= 0xAC00 && uc <= 0xD7A3))) return 0;
  const utf8proc_property_t *p = utf8proc_get_property(uc);
  return p->decomp_seqindex == UINT16_MAX && (!fold || p->casefold_seqindex == UINT16_MAX) &&
         p->combining_class == 0 && (p->comb_index == UINT16_MAX || p->comb_index < 0x8000);
}

/* tsift_inert_cps (text.h): a text of inert characters only is its own
 * normal form. Most non-ASCII catalog text is (dashes, quotes, arrows, CJK,
 * emoji), and one property lookup a character replaces utf8proc's
 * decomposition, reordering and composition passes (a third of the analysis
 * of ../shared/catalogs/all.json). ASCII needs no lookup: no decomposition,
 * class 0, never a second; only A-Z fold. */
int tsift_inert_cps(const char *s, size_t n, int fold, int32_t **out, size_t *out_n) {
  const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
  for (size_t i = 0; i < n;) {
    if (p[i] < 0x80) {
      if (fold && p[i] >= 'A' && p[i] <= 'Z') return 0;
      i++;
      continue;
    }
    utf8proc_int32_t uc;
    utf8proc_ssize_t len = utf8proc_iterate(p + i, (utf8proc_ssize_t)(n - i), &uc);
    if (len <= 0 || uc < 0 || !nfkc_inert(uc, fold)) return 0;
    i += (size_t)len;
  }
  int32_t *buf = tsift_calloc_array(n + 1, sizeof *buf);
  if (!buf) return -1;
  size_t k = 0;
  for (size_t i = 0; i < n; k++) {
    utf8proc_int32_t uc = p[i];
    i += p[i] < 0x80 ? 1 : (size_t)utf8proc_iterate(p + i, (utf8proc_ssize_t)(n - i), &uc);
    buf[k] = uc;
  }
  *out = buf;
  *out_n = k;
  return 1;
}

static tsift_status normalize_cps(const char *s, size_t n, utf8proc_option_t opt,
                                  utf8proc_int32_t **out, size_t *out_n, tsift_error *err) {
  *out = NULL;
  *out_n = 0;
  if (n == 0) return TSIFT_OK;
  int fold = (opt & UTF8PROC_CASEFOLD) != 0;
  if ((opt & ~(utf8proc_option_t)UTF8PROC_CASEFOLD) == (UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT)) {
    int r = tsift_inert_cps(s, n, fold, out, out_n);
    if (r < 0) return tsift_nomem(err, "normalising text");
    if (r > 0) return TSIFT_OK;
  }
  utf8proc_ssize_t need =
      utf8proc_decompose((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, NULL, 0, opt);
  if (need < 0) {
    if (need == UTF8PROC_ERROR_NOMEM || need == UTF8PROC_ERROR_OVERFLOW)
      return tsift_fail(err, TSIFT_E_LIMIT, "text too large to normalise");
    return tsift_fail(err, TSIFT_E_UTF8, "invalid UTF-8");
  }
  utf8proc_int32_t *buf = tsift_calloc_array((size_t)need + 1, sizeof *buf);
  if (!buf) return tsift_nomem(err, "normalising text");
  utf8proc_ssize_t got =
      utf8proc_decompose((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, buf, need, opt);
  if (got < 0 || got > need) {
    tsift_free(buf);
    return tsift_fail(err, TSIFT_E_UTF8, "invalid UTF-8");
  }
  utf8proc_ssize_t m = utf8proc_normalize_utf32(buf, got, opt);
  if (m < 0) {
    tsift_free(buf);
    return tsift_fail(err, TSIFT_E_UTF8, "cannot normalise text");
  }
  *out = buf;
  *out_n = (size_t)m;
  return TSIFT_OK;
}

/* Encode codepoints as UTF-8 into a tokens-sized scratch buffer. */
static size_t encode_cps(const utf8proc_int32_t *cps, size_t n, char *dst, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    utf8proc_uint8_t tmp[4];
    utf8proc_ssize_t k = utf8proc_encode_char(cps[i], tmp);
    if (k <= 0 || o + (size_t)k > cap) break;
    memcpy(dst + o, tmp, (size_t)k);
    o += (size_t)k;
  }
  return o;
}

/* The first n code points as a new NUL-terminated UTF-8 string in *out;
 * frees cps either way. */
static tsift_status take_utf8(utf8proc_int32_t *cps, size_t n, char **out, size_t *out_len, const char *what,
                              tsift_error *err) {
  char *buf = tsift_alloc_bytes(n * 4 + 1);
  if (!buf) {
    tsift_free(cps);
    return tsift_nomem(err, what);
  }
  size_t len = encode_cps(cps, n, buf, n * 4);
  buf[len] = 0;
  tsift_free(cps);
  *out = buf;
  *out_len = len;
  return TSIFT_OK;
}

/* ---- character classes ------------------------------------------------ */

enum { CH_SEP = 0, CH_UPPER, CH_LOWER, CH_LETTER, CH_MARK, CH_DIGIT, CH_CJK };

/* Scripts written without spaces: Han, Hiragana, Katakana, Hangul, Thai. */
static int is_cjk_script(utf8proc_int32_t c) {
  return (c >= 0x0E00 && c <= 0x0E7F) ||   /* Thai */
         (c >= 0x1100 && c <= 0x11FF) ||   /* Hangul Jamo */
         (c >= 0x2E80 && c <= 0x2FDF) ||   /* CJK radicals */
         (c >= 0x3005 && c <= 0x3007) ||   /* 々 〆 〇 */
         (c >= 0x3021 && c <= 0x3029) ||   /* Hangzhou numerals */
         (c >= 0x3038 && c <= 0x303B) ||
         (c >= 0x3041 && c <= 0x30FF) ||   /* Hiragana, Katakana */
         (c >= 0x3130 && c <= 0x318F) ||   /* Hangul compatibility Jamo */
         (c >= 0x31F0 && c <= 0x31FF) ||   /* Katakana extensions */
         (c >= 0x3400 && c <= 0x4DBF) ||   /* CJK ext A */
         (c >= 0x4E00 && c <= 0x9FFF) ||   /* CJK unified */
         (c >= 0xA960 && c <= 0xA97F) ||   /* Hangul Jamo ext A */
         (c >= 0xAC00 && c <= 0xD7FF) ||   /* Hangul syllables, Jamo ext B */
         (c >= 0xF900 && c <= 0xFAFF) ||   /* CJK compatibility */
         (c >= 0xFF66 && c <= 0xFF9F) ||   /* halfwidth Katakana */
         (c >= 0x20000 && c <= 0x3134F);   /* CJK ext B.. */
}

static int char_class_table(utf8proc_int32_t c) {
  utf8proc_category_t cat = utf8proc_category(c);
  int letter_or_mark = 0, digit = 0;
  switch (cat) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
      letter_or_mark = 1;
      break;
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      digit = 1;
      break;
    default:
      return CH_SEP;
  }
  if (letter_or_mark && is_cjk_script(c)) return CH_CJK;
  if (digit) return CH_DIGIT;
  if (cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LT) return CH_UPPER;
  if (cat == UTF8PROC_CATEGORY_LL) return CH_LOWER;
  if (cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC || cat == UTF8PROC_CATEGORY_ME)
    return CH_MARK;
  return CH_LETTER;
}

/* ASCII: the same classes as utf8proc's categories give (A-Z Lu, a-z Ll,
 * 0-9 Nd, every other ASCII character punctuation, symbol, space or
 * control), by lookup: 0 CH_SEP, 1 CH_UPPER, 2 CH_LOWER, 5 CH_DIGIT. Most
 * analysed text is ASCII and read as bytes. */
static const unsigned char k_ascii_class[128] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
};

static inline int char_class(utf8proc_int32_t c) {
  return (uint32_t)c < 0x80 ? k_ascii_class[c] : char_class_table(c);
}

/* ---- plural folding --------------------------------------------------- */

static int ends_with(const char *s, size_t n, const char *suf) {
  size_t k = strlen(suf);
  return n >= k && memcmp(s + n - k, suf, k) == 0;
}

/*
 * Fold a trailing English plural on tokens longer than three bytes. Rules, in
 * order (documented in docs/architecture.md):
 *   -ies  -> -y        (policies -> policy; needs > 4 bytes)
 *   -sses, -shes, -ches, -xes, -zzes -> drop "es" (addresses, branches, boxes)
 *   -ss, -us, -is      -> unchanged (address, status, analysis)
 *   -s                 -> dropped (issues -> issue)
 * Only ASCII suffixes are considered; the result is never shorter than 3 bytes.
 */
static size_t fold_plural(char *s, size_t n) {
  if (n <= 3 || s[n - 1] != 's') return n;
  if (n > 4 && ends_with(s, n, "ies")) {
    s[n - 3] = 'y';
    return n - 2;
  }
  if (ends_with(s, n, "sses") || ends_with(s, n, "shes") || ends_with(s, n, "ches") ||
      ends_with(s, n, "xes") || ends_with(s, n, "zzes"))
    return n - 2 >= 3 ? n - 2 : n;
  if (ends_with(s, n, "ss") || ends_with(s, n, "us") || ends_with(s, n, "is")) return n;
  return n - 1;
}

static int ascii_lower(char c) { return c >= 'a' && c <= 'z'; }
static int vowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

/*
 * Light suffix folding (after the plural fold), so that create, creates,
 * created and creating meet. Rules, in order, on tokens ending in ASCII
 * letters (documented in docs/architecture.md and docs/relevance.md):
 *   -ing  dropped on tokens over 5 bytes   (listing -> list, running -> runn)
 *   -ed   dropped on tokens over 4 bytes, not after e (updated -> updat; need, speed stay)
 *   after either, a doubled final consonant other than l, s, z is undoubled
 *         (runn -> run, stopp -> stop; call stays)
 *   -e    dropped on tokens over 4 bytes   (create -> creat, update -> updat)
 * The result is never shorter than 3 bytes.
 */
static size_t fold_suffix(char *s, size_t n) {
  if (n < 4 || !ascii_lower(s[n - 1]) || !ascii_lower(s[n - 2]) || !ascii_lower(s[n - 3])) return n;
  int cut = 0;
  if (n > 5 && ends_with(s, n, "ing")) {
    n -= 3;
    cut = 1;
  } else if (n > 4 && ends_with(s, n, "ed") && s[n - 3] != 'e') {
    n -= 2;
    cut = 1;
  }
  if (cut && n > 3 && s[n - 1] == s[n - 2] && ascii_lower(s[n - 1]) && !vowel(s[n - 1]) &&
      s[n - 1] != 'l' && s[n - 1] != 's' && s[n - 1] != 'z')
    n--;
  if (n > 4 && s[n - 1] == 'e') n--;
  return n;
}

/* ---- the analyser ----------------------------------------------------- */

typedef struct scratch {
  char tok[4 * 64 + 16];       /* UTF-8 of one raw token (bounded run) */
  utf8proc_int32_t cps[64];    /* codepoints of one raw token */
} scratch;

/* A token cut to TSIFT_TOKEN_MAX_BYTES: tsift_utf8_cut, called only for
 * the few tokens longer (twice a token, the call was most of the cost). */
static size_t token_cut(const char *s, size_t n) {
  return n <= TSIFT_TOKEN_MAX_BYTES ? n : tsift_utf8_cut(s, n, TSIFT_TOKEN_MAX_BYTES);
}

/* Case-fold (with NFKC recomposition) and emit one token; its form before
 * suffix folding goes to `surface` when given. Returns status. */
static tsift_status emit(const utf8proc_int32_t *cps, const unsigned char *bytes, size_t n, scratch *sc,
                         tsift_tokens *out, tsift_tokens *surface, tsift_error *err) {
  if (n == 0) return TSIFT_OK;
  /* Folded where the token goes, at the end of out (surface is another
   * list: pushing to it moves nothing of out's). */
  enum { FOLDED_CAP = 4 * 3 * 64 + 16 };
  if (tokens_room(out, FOLDED_CAP)) return tsift_nomem(err, "storing tokens");
  char *folded = out->bytes + out->nbytes;
  size_t flen = 0;
  int ascii = 1;
  if (!bytes)
    for (size_t i = 0; i < n; i++)
      if (cps[i] >= 0x80) ascii = 0;
  if (bytes) { /* ASCII text, read as bytes: lowercased */
    for (; flen < n; flen++) {
      unsigned char c = bytes[flen];
      folded[flen] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
  } else if (ascii) {
    for (size_t i = 0; i < n && flen < FOLDED_CAP; i++) {
      int c = cps[i];
      folded[flen++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
  } else {
    size_t raw = encode_cps(cps, n, sc->tok, sizeof sc->tok);
    utf8proc_int32_t *f = NULL;
    size_t fn = 0;
    tsift_status st = normalize_cps(
        sc->tok, raw, UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD,
        &f, &fn, err);
    if (st != TSIFT_OK) return st;
    flen = encode_cps(f, fn, folded, FOLDED_CAP);
    tsift_free(f);
  }
  flen = fold_plural(folded, flen);
  size_t slen = token_cut(folded, flen);
  if (slen == 0) return TSIFT_OK;
  if (surface && tsift_tokens_push(surface, folded, slen)) return tsift_nomem(err, "storing tokens");
  flen = fold_suffix(folded, flen);
  tokens_end(out, token_cut(folded, flen));
  return TSIFT_OK;
}

/* Longest raw word we tokenise as one piece; longer runs are cut (the token
 * is cut at 32 bytes anyway). */
#define RUN_MAX 64

tsift_status tsift_analyze(const char *s, size_t n, size_t max_bytes, int replace_invalid,
                           size_t max_tokens, tsift_tokens *out, tsift_error *err) {
  return tsift_analyze_surface(s, n, max_bytes, replace_invalid, max_tokens, out, NULL, err);
}

tsift_status tsift_analyze_surface(const char *s, size_t n, size_t max_bytes, int replace_invalid,
                                   size_t max_tokens, tsift_tokens *out, tsift_tokens *surface,
                                   tsift_error *err) {
  if (out->count >= max_tokens || n == 0) return TSIFT_OK;
  char *fixed = NULL;
  size_t bad, hi = 0;
  /* An ASCII prefix is valid UTF-8: only the rest needs the check. Eight
   * bytes a step (most analysed text is ASCII throughout). */
  for (uint64_t w; hi + 8 <= n && (memcpy(&w, s + hi, 8), (w & 0x8080808080808080u) == 0);) hi += 8;
  while (hi < n && (unsigned char)s[hi] < 0x80) hi++;
  if (hi < n && !tsift_utf8_valid(s + hi, n - hi, &bad)) {
    bad += hi;
    if (!replace_invalid)
      return tsift_fail(err, TSIFT_E_UTF8, "invalid UTF-8 at byte %zu", bad);
    if (max_bytes < SIZE_MAX - 3 && n > max_bytes + 3) n = max_bytes + 3; /* as in tsift_query_analyze */
    size_t fixed_len = 0;
    fixed = tsift_utf8_sanitize(s, n, &fixed_len);
    if (!fixed) return tsift_nomem(err, "replacing invalid UTF-8");
    s = fixed;
    n = fixed_len;
  }
  n = tsift_utf8_cut(s, n, max_bytes);

  /* Short text (most fields and schema strings) works in these; longer text
   * in allocations. */
  unsigned char small_cls[256];
  utf8proc_int32_t *cps = NULL;
  unsigned char *cls = NULL;
  size_t ncp = 0;
  tsift_status st = TSIFT_OK;
  if (fixed) {
    hi = 0;
    while (hi < n && (unsigned char)s[hi] < 0x80) hi++;
  }
  /* ASCII is its own NFKC form, its codepoints are its bytes: the split
   * reads the bytes (`bytes`, no codepoints made); other text is
   * normalised into codepoints first. */
  const unsigned char *bytes = hi >= n ? (const unsigned char *)s : NULL;
  if (bytes) ncp = n;
  else st = normalize_cps(s, n, UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT, &cps, &ncp, err);
  /* Every codepoint's class once (the splitting below asks for each up to
   * three times), and a separator after the last, so that no read of the
   * split looks at the bound. */
  if (st == TSIFT_OK && ncp) {
    cls = ncp < sizeof small_cls ? small_cls : tsift_alloc_bytes(ncp + 1);
    if (!cls) st = tsift_nomem(err, "normalising text");
    else if (bytes)
      for (size_t k = 0; k < ncp; k++) cls[k] = k_ascii_class[bytes[k]];
    else
      for (size_t k = 0; k < ncp; k++) cls[k] = (unsigned char)char_class(cps[k]);
    if (cls) cls[ncp] = CH_SEP;
  }
  if (st != TSIFT_OK) {
    tsift_free(cps);
    tsift_free(fixed);
    return st;
  }
#define AT(k) (cps ? cps + (k) : NULL), (bytes ? bytes + (k) : NULL) /* the run at k, either form */

  scratch sc;
  size_t i = 0;
  while (i < ncp && out->count < max_tokens && st == TSIFT_OK) {
    int c0 = cls[i];
    if (c0 == CH_SEP) {
      i++;
      continue;
    }
    if (c0 == CH_CJK) {
      /* A run of characters from scripts without spaces: overlapping bigrams. */
      size_t j = i;
      while (cls[j] == CH_CJK) j++;
      if (j - i == 1) {
        st = emit(AT(i), 1, &sc, out, surface, err);
      } else {
        for (size_t k = i; k + 1 < j && out->count < max_tokens && st == TSIFT_OK; k++)
          st = emit(AT(k), 2, &sc, out, surface, err);
      }
      i = j;
      continue;
    }
    /* A word run: letters, marks, digits, split at case boundaries as it is
     * read (one pass: where the run ends is found on the way). */
    size_t start = i, k = i + 1;
    for (;; k++) {
      /* Nothing splits a run before a lower-case letter, another letter, a
       * mark or a digit: past those in a tight loop. */
      while ((unsigned)(cls[k] - CH_LOWER) <= CH_DIGIT - CH_LOWER) k++;
      int cur = cls[k], prev = cls[k - 1];
      int end = cur == CH_SEP || cur == CH_CJK;
      /* lower/digit -> Upper: createPull|Request, v2|Api; UPPER -> Upper
       * lower: HTTP|Server */
      if (end || (cur == CH_UPPER && (prev == CH_LOWER || prev == CH_DIGIT ||
                                      (prev == CH_UPPER && cls[k + 1] == CH_LOWER)))) {
        size_t len = k - start;
        if (len > RUN_MAX) len = RUN_MAX;
        st = emit(AT(start), len, &sc, out, surface, err);
        start = k;
        if (end || st != TSIFT_OK || out->count >= max_tokens) break;
      }
    }
    i = k;
  }
#undef AT
  tsift_free(cps);
  tsift_free(fixed); /* after the split: ASCII text may be read in place */
  if (cls != small_cls) tsift_free(cls);
  return st;
}

/* ---- stopwords -------------------------------------------------------- */

/* Articles, conjunctions, prepositions, copulas/auxiliaries and pronouns.
 * Not negations, question words or content verbs. Analysed before use, so
 * "this" and "does" match however the analyser folds them. */
static const char *const k_default_stopwords[] = {
    "a",     "an",    "the",   "and",   "or",    "but",   "nor",   "so",    "of",
    "in",    "on",    "at",    "to",    "for",   "from",  "by",    "with",  "into",
    "onto",  "about", "as",    "via",   "per",   "than",  "then",  "is",    "are",
    "was",   "were",  "be",    "been",  "being", "am",    "do",    "does",  "did",
    "has",   "have",  "had",   "i",     "me",    "my",    "mine",  "we",    "us",
    "our",   "ours",  "you",   "your",  "yours", "he",    "him",   "his",   "she",
    "her",   "hers",  "it",    "its",   "they",  "them",  "their", "theirs", "this",
    "that",  "these", "those", "there", "some",  "any",   "please", "can",  "could",
    "would", "should", "will", "shall", "may",   "might", "must",  "if",    "also",
    "just",  "up",
    /* contracted copulas and auxiliaries: I'm, it's, we're, I've, I'll, I'd */
    "m",     "s",     "re",    "ve",    "ll",    "d",
};

static int token_cmp(const tsift_tokens *t, size_t a, const char *s, size_t n) {
  size_t la = t->len[a];
  int c = memcmp(tsift_token(t, a), s, la < n ? la : n);
  if (c) return c;
  return la < n ? -1 : la > n ? 1 : 0;
}

int tsift_stopwords_has(const tsift_stopwords *sw, const char *s, size_t n) {
  size_t lo = 0, hi = sw->words.count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = token_cmp(&sw->words, mid, s, n);
    if (c == 0) return 1;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/* Insert keeping sorted order and uniqueness (lists are small). */
static int stopwords_add(tsift_stopwords *sw, const char *s, size_t n) {
  if (tsift_stopwords_has(sw, s, n)) return 0;
  tsift_tokens *t = &sw->words;
  if (tsift_tokens_push(t, s, n)) return -1;
  /* bubble the new entry (last) into place by rotating offsets/lengths */
  size_t i = t->count - 1;
  while (i > 0 && token_cmp(t, i - 1, s, n) > 0) {
    uint32_t o = t->off[i];
    uint8_t l = t->len[i];
    t->off[i] = t->off[i - 1];
    t->len[i] = t->len[i - 1];
    t->off[i - 1] = o;
    t->len[i - 1] = l;
    i--;
  }
  return 0;
}

static tsift_status stopwords_add_text(tsift_stopwords *sw, const char *s, size_t n,
                                       tsift_error *err) {
  tsift_tokens toks;
  tsift_tokens_init(&toks);
  tsift_status st = tsift_analyze(s, n, TSIFT_FIELD_MAX_BYTES, 0, 64, &toks, err);
  for (size_t i = 0; st == TSIFT_OK && i < toks.count; i++)
    if (stopwords_add(sw, tsift_token(&toks, i), toks.len[i]))
      st = tsift_nomem(err, "building stopwords");
  tsift_tokens_free(&toks);
  return st;
}

tsift_status tsift_stopwords_from_json(const cJSON *value, tsift_stopwords *sw, tsift_error *err) {
  tsift_tokens_init(&sw->words);
  tsift_status st = TSIFT_OK;
  if (!value || cJSON_IsNull(value)) {
    size_t n = sizeof k_default_stopwords / sizeof *k_default_stopwords;
    for (size_t i = 0; i < n && st == TSIFT_OK; i++)
      st = stopwords_add_text(sw, k_default_stopwords[i], strlen(k_default_stopwords[i]), err);
  } else if (cJSON_IsArray(value)) {
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, value) {
      if (!cJSON_IsString(item)) {
        st = tsift_fail(err, TSIFT_E_CONFIG, "stopwords[%d]: expected a string", i);
        break;
      }
      st = stopwords_add_text(sw, item->valuestring, strlen(item->valuestring), err);
      if (st != TSIFT_OK) {
        if (err && st == TSIFT_E_UTF8)
          tsift_fail(err, st, "stopwords[%d]: invalid UTF-8", i);
        break;
      }
      i++;
    }
  } else {
    st = tsift_fail(err, TSIFT_E_CONFIG, "stopwords: expected null or an array of strings");
  }
  if (st != TSIFT_OK) tsift_stopwords_free(sw);
  return st;
}

void tsift_stopwords_free(tsift_stopwords *sw) { tsift_tokens_free(&sw->words); }

/* ---- labels ----------------------------------------------------------- */

tsift_status tsift_label_normalize(const char *s, size_t n, char **out, size_t *out_len,
                                   tsift_error *err) {
  *out = NULL;
  *out_len = 0;
  n = tsift_utf8_cut(s, n, TSIFT_FIELD_MAX_BYTES);
  utf8proc_int32_t *cps = NULL;
  size_t ncp = 0;
  tsift_status st = normalize_cps(
      s, n, UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD, &cps, &ncp,
      err);
  if (st != TSIFT_OK) return st;
  /* Collapse whitespace runs to one space, trim, keep at most 80 characters. */
  size_t w = 0, chars = 0;
  int pending_space = 0;
  for (size_t i = 0; i < ncp && chars < TSIFT_LABEL_MAX_CHARS; i++) {
    utf8proc_category_t cat = utf8proc_category(cps[i]);
    int space = cps[i] == ' ' || cps[i] == '\t' || cps[i] == '\n' || cps[i] == '\r' ||
                cps[i] == '\f' || cps[i] == '\v' || cat == UTF8PROC_CATEGORY_ZS ||
                cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
    if (space) {
      pending_space = w > 0;
      continue;
    }
    if (pending_space) {
      if (chars + 1 >= TSIFT_LABEL_MAX_CHARS) break;
      cps[w++] = ' ';
      chars++;
      pending_space = 0;
    }
    cps[w++] = cps[i];
    chars++;
  }
  return take_utf8(cps, w, out, out_len, "normalising a label", err);
}

/* tsift_id_form (text.h): one normalisation of the whole id, no cut. */
tsift_status tsift_id_form(const char *s, size_t n, int fold, char **out, size_t *out_len, tsift_error *err) {
  *out = NULL;
  *out_len = 0;
  utf8proc_option_t opt = fold ? UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD
                               : UTF8PROC_STABLE | UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT | UTF8PROC_STRIPMARK;
  utf8proc_int32_t *cps = NULL;
  size_t ncp = 0;
  tsift_status st = normalize_cps(s, n, opt, &cps, &ncp, err);
  if (st != TSIFT_OK) return st;
  return take_utf8(cps, ncp, out, out_len, "normalising an id", err);
}
