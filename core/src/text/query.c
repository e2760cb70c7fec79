/* query.c — query analysis (SPEC S3): a query's tokens through the
 * analyser (text.c), its stopwords, its distinct terms with their surface
 * forms, which terms look like argument values or request phrasing (weak,
 * soft), the cross-lingual and synonym expansions (vocab.c), and the
 * sentence count the diversity rule reads. */
#include <string.h>

#include "base/alloc.h"
#include "text/text.h"
#include "text/vocab.h"

void tsift_query_free(tsift_query *q) {
  tsift_free(q->text);
  tsift_tokens_free(&q->tokens);
  tsift_tokens_free(&q->stopwords);
  tsift_tokens_free(&q->terms);
  TSIFT_FREE_ALL(q->term_weak, q->term_soft, q->term_required);
  tsift_tokens_free(&q->surface);
  tsift_tokens_free(&q->xterms);
  tsift_tokens_free(&q->xsurface);
  TSIFT_FREE_ALL(q->xof, q->xsyn, q->term_covered);
  memset(q, 0, sizeof *q);
}

static int byte_in(char c, const char *set) { return c != 0 && strchr(set, c) != NULL; }
/* Words of request phrasing rather than of the need: wanting and asking
 * ("I need…", "I would like to know…", "can you help…") and discourse
 * connectives between the parts of a long request. Matched on the surface
 * form (case-folded, plural folded). */
static const char k_filler[] =
    "|additionally|after|assist|assistance|finally|help|interested|know|like|looking|"
    "need|needed|next|now|specifically|tell|then|want|wanted|wish|";

/* Question words: not stopwords (SPEC S3), but they phrase the request
 * rather than name the need ("what is the weather like"). */
static const char k_question[] = "|how|what|when|where|which|who|whom|whose|why|";

static int is_filler(const char *s, size_t n) { return tsift_word_listed(k_filler, s, n); }

static int is_question(const char *s, size_t n) { return tsift_word_listed(k_question, s, n); }

static int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t tsift_sentence_count(const char *s, size_t n) {
  size_t count = 0;
  int content = 0; /* the current piece holds a letter or digit */
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    int end = 0;
    if (c == '.' || c == '!' || c == '?' || c == ';') {
      unsigned char next = i + 1 < n ? (unsigned char)s[i + 1] : ' ';
      end = is_space(next);
    } else if (c == 0xE3 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 && (unsigned char)s[i + 2] == 0x82) {
      end = 1; /* 。 U+3002 */
      i += 2;
    } else if (c == 0xEF && i + 2 < n && (unsigned char)s[i + 1] == 0xBC &&
               ((unsigned char)s[i + 2] == 0x81 || (unsigned char)s[i + 2] == 0x9F ||
                (unsigned char)s[i + 2] == 0x9B)) {
      end = 1; /* ！？； U+FF01 U+FF1F U+FF1B */
      i += 2;
    } else if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c >= 0x80) {
      content = 1;
    }
    if (end) {
      count += (size_t)content;
      content = 0;
    }
  }
  return count + (size_t)content;
}

/* Whether bytes hold a letter, a digit or a non-ASCII byte: something a
 * word can be made of. */
static int has_word_byte(const char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)b[i];
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return 1;
    if ((c >= '0' && c <= '9') || c >= 0x80) return 1;
  }
  return 0;
}

/* Per token of a query: how its word looks (query_words). */
typedef struct token_flags {
  uint8_t *weak, *soft, *req;
  size_t weak_cap, soft_cap, req_cap;
  tsift_tokens surface; /* each token before suffix folding */
} token_flags;

static void token_flags_free(token_flags *f) {
  TSIFT_FREE_ALL(f->weak, f->soft, f->req);
  tsift_tokens_free(&f->surface);
}

/* The text as analysed: invalid UTF-8 replaced, cut at 512 bytes. */
static tsift_status query_text(tsift_query *q, const char *s, size_t n, tsift_error *err) {
  size_t bad;
  if (tsift_utf8_valid(s, n, &bad)) {
    n = tsift_utf8_cut(s, n, TSIFT_QUERY_MAX_BYTES);
    q->text = tsift_strndup(s, n);
    q->text_len = n;
  } else {
    /* Cut the raw bytes first, so a huge invalid query is not copied whole
     * (each bad byte becomes 3): replacing never shortens, and a character
     * starting before byte 512 ends before byte 512 + 3, so the first 512
     * bytes of the replaced text are the same either way. */
    if (n > TSIFT_QUERY_MAX_BYTES + 3) n = TSIFT_QUERY_MAX_BYTES + 3;
    size_t fixed_len = 0;
    char *fixed = tsift_utf8_sanitize(s, n, &fixed_len);
    if (fixed) {
      q->text_len = tsift_utf8_cut(fixed, fixed_len, TSIFT_QUERY_MAX_BYTES);
      q->text = tsift_strndup(fixed, q->text_len);
      tsift_free(fixed);
    }
  }
  return q->text ? TSIFT_OK : tsift_nomem(err, "analysing the query");
}

/*
 * Word by word (white space separates tokens anyway, so the tokens are
 * those of the whole text), noting for every token whether it looks like an
 * argument value rather than tool vocabulary: inside quotes, from a word
 * that has a digit ("8sA3Yh", "500mg", "2019"), or a single ASCII
 * character (weak; the ranker keeps such terms last when it must drop
 * some), or a question word as well (soft), and whether its word was
 * written +word (required).
 */
static tsift_status query_words(tsift_query *q, const tsift_stopwords *sw, token_flags *f, tsift_error *err) {
  tsift_status st = TSIFT_OK;
  int quote = 0; /* the open quote character, or 0 */
  const char *tx = q->text;
  size_t tn = q->text_len;
  for (size_t at = 0; st == TSIFT_OK && at < tn;) {
    unsigned char c = (unsigned char)tx[at];
    if (is_space(c)) {
      at++;
      continue;
    }
    size_t end = at;
    while (end < tn && !is_space((unsigned char)tx[end])) end++;
    /* A quote opens at the start of a word and closes at the end of one
     * (before trailing punctuation). */
    int quoted = quote != 0;
    if (!quote && (c == '"' || c == '\'') && end - at > 1) {
      quote = c;
      quoted = 1;
    }
    size_t e = end;
    while (e > at && byte_in(tx[e - 1], ".,;:!?)]")) e--;
    int closes = quote && e > at + 1 && (unsigned char)tx[e - 1] == quote;
    int digit = 0;
    for (size_t i = at; i < end; i++) digit |= tx[i] >= '0' && tx[i] <= '9';
    /* +word: a word every hit must have (the meta-tool's convention); a +
     * before a digit is a value ("+1 555 0100"), a + before no word at all
     * is noted: alone, or before more + and punctuation ("+++…" 1,000
     * times is no more a query than one +) */
    unsigned char after = at + 1 < end ? (unsigned char)tx[at + 1] : 0;
    int required = c == '+' && (((after | 0x20) >= 'a' && (after | 0x20) <= 'z') || after >= 0x80);
    if (c == '+' && !has_word_byte(tx + at + 1, end - at - 1)) q->plus_alone++;
    size_t before = q->tokens.count;
    st = tsift_analyze_surface(tx + at, end - at, TSIFT_QUERY_MAX_BYTES, 1, (size_t)-1, &q->tokens,
                               &f->surface, err);
    if (st == TSIFT_OK && q->tokens.count > before) {
      if (tsift_grow((void **)&f->weak, &f->weak_cap, q->tokens.count, 1) ||
          tsift_grow((void **)&f->soft, &f->soft_cap, q->tokens.count, 1) ||
          tsift_grow((void **)&f->req, &f->req_cap, q->tokens.count, 1))
        st = tsift_nomem(err, "analysing the query");
      int kept = 0; /* a token of the word that is not a stopword */
      for (size_t i = before; st == TSIFT_OK && i < q->tokens.count; i++) {
        const char *sf = tsift_token(&f->surface, i);
        int filler = is_filler(sf, f->surface.len[i]);
        f->weak[i] = (uint8_t)(quoted || digit || q->tokens.len[i] == 1 || filler);
        f->soft[i] = (uint8_t)(f->weak[i] || is_question(sf, f->surface.len[i]));
        f->req[i] = (uint8_t)required;
        kept |= !(sw && tsift_stopwords_has(sw, tsift_token(&q->tokens, i), q->tokens.len[i]));
      }
      if (st == TSIFT_OK && required && !kept) q->plus_lost++;
    } else if (st == TSIFT_OK && required) {
      q->plus_lost++;
    }
    if (closes) quote = 0;
    at = end;
  }
  return st;
}

/* Distinct terms in first-seen order, stopwords set aside (a query of
 * nothing but stopwords keeps them); a term is weak or soft when every
 * occurrence is, required when one is. */
static tsift_status query_terms(tsift_query *q, const tsift_stopwords *sw, const token_flags *f, tsift_error *err) {
  tsift_status st = TSIFT_OK;
  tsift_tokens distinct, dsurface;
  tsift_tokens_init(&distinct);
  tsift_tokens_init(&dsurface);
  uint8_t *dweak = tsift_calloc_array(q->tokens.count + 1, 1);
  uint8_t *dsoft = tsift_calloc_array(q->tokens.count + 1, 1);
  uint8_t *dreq = tsift_calloc_array(q->tokens.count + 1, 1);
  if (st == TSIFT_OK && (!dweak || !dsoft || !dreq)) st = tsift_nomem(err, "analysing the query");
  for (size_t i = 0; st == TSIFT_OK && i < q->tokens.count; i++) {
    const char *t = tsift_token(&q->tokens, i);
    size_t len = q->tokens.len[i];
    long seen = tsift_tokens_find(&distinct, t, len);
    if (seen >= 0) {
      dweak[seen] &= f->weak[i];
      dsoft[seen] &= f->soft[i];
      dreq[seen] |= f->req[i];
      continue;
    }
    dweak[distinct.count] = f->weak[i];
    dsoft[distinct.count] = f->soft[i];
    dreq[distinct.count] = f->req[i];
    if (tsift_tokens_push(&distinct, t, len) ||
        tsift_tokens_push(&dsurface, tsift_token(&f->surface, i), f->surface.len[i]))
      st = tsift_nomem(err, "analysing the query");
  }
  q->term_weak = tsift_calloc_array(distinct.count + 1, 1);
  q->term_soft = tsift_calloc_array(distinct.count + 1, 1);
  q->term_required = tsift_calloc_array(distinct.count + 1, 1);
  if (st == TSIFT_OK && (!q->term_weak || !q->term_soft || !q->term_required))
    st = tsift_nomem(err, "analysing the query");
  for (size_t i = 0; st == TSIFT_OK && i < distinct.count; i++) {
    const char *t = tsift_token(&distinct, i);
    size_t len = distinct.len[i];
    int stop = sw && tsift_stopwords_has(sw, t, len);
    if (!stop) {
      q->term_weak[q->terms.count] = dweak[i];
      q->term_soft[q->terms.count] = dsoft[i];
      q->term_required[q->terms.count] = dreq[i];
      if (tsift_tokens_push(&q->surface, tsift_token(&dsurface, i), dsurface.len[i]))
        st = tsift_nomem(err, "analysing the query");
    }
    if (tsift_tokens_push(stop ? &q->stopwords : &q->terms, t, len))
      st = tsift_nomem(err, "analysing the query");
  }
  if (st == TSIFT_OK && q->terms.count == 0 && q->stopwords.count > 0) {
    /* Nothing but stopwords: keep the unfiltered terms. */
    tsift_tokens_free(&q->terms);
    q->terms = distinct;
    tsift_tokens_init(&distinct);
    tsift_tokens_clear(&q->stopwords);
    memcpy(q->term_weak, dweak, q->terms.count);
    memcpy(q->term_soft, dsoft, q->terms.count);
    memcpy(q->term_required, dreq, q->terms.count);
    tsift_tokens_free(&q->surface);
    q->surface = dsurface;
    tsift_tokens_init(&dsurface);
  }
  tsift_tokens_free(&distinct);
  tsift_tokens_free(&dsurface);
  TSIFT_FREE_ALL(dweak, dsoft, dreq);
  return st;
}

tsift_status tsift_query_analyze(const char *s, size_t n, const tsift_stopwords *sw,
                                 tsift_query *q, tsift_error *err) {
  memset(q, 0, sizeof *q);
  token_flags f;
  memset(&f, 0, sizeof f);
  tsift_tokens_init(&f.surface);
  tsift_status st = query_text(q, s, n, err);
  if (st == TSIFT_OK) st = query_words(q, sw, &f, err);
  if (st == TSIFT_OK) st = query_terms(q, sw, &f, err);
  token_flags_free(&f);
  if (st == TSIFT_OK) st = tsift_vocab_expand(q, err);
  if (st != TSIFT_OK) tsift_query_free(q);
  return st;
}
