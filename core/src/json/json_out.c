/* json_out.c — byte buffer + JSON writer (see json_out.h). */
#include "json/json_out.h"

#include <string.h>

#include "base/alloc.h"

void tsift_buf_init(tsift_buf *b) { memset(b, 0, sizeof *b); }

void tsift_buf_free(tsift_buf *b) {
  tsift_free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

void tsift_buf_append(tsift_buf *b, const char *s, size_t n) {
  if (b->failed) return;
  /* grown only when it lacks room: most appends are a few bytes */
  if (b->cap - b->len <= n && (n > (size_t)-1 - b->len - 1 ||
                               tsift_grow((void **)&b->data, &b->cap, b->len + n + 1, 1) != 0)) {
    b->failed = 1;
    return;
  }
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void tsift_buf_putc(tsift_buf *b, char c) {
  if (!b->failed && b->cap - b->len > 1) { /* room for c and the NUL: no call */
    b->data[b->len++] = c;
    b->data[b->len] = 0;
    return;
  }
  tsift_buf_append(b, &c, 1);
}

void tsift_buf_fail(tsift_buf *b, tsift_status st) {
  if (!b->failed) b->failed = st == TSIFT_E_SNAPSHOT ? TSIFT_E_SNAPSHOT : 1;
}

tsift_status tsift_buf_error(const tsift_buf *b, const char *what, tsift_error *err) {
  if (b->failed == TSIFT_E_SNAPSHOT)
    return tsift_fail(err, TSIFT_E_SNAPSHOT, "bad tool text while %s: a stored description or schema is not a valid code",
                      what);
  return tsift_nomem(err, what);
}

tsift_status tsift_buf_finish(tsift_buf *b, char **out, size_t *out_len, const char *what, tsift_error *err) {
  if (b->failed) {
    tsift_status st = tsift_buf_error(b, what, err);
    tsift_buf_free(b);
    *out = NULL;
    if (out_len) *out_len = 0;
    return st;
  }
  *out = tsift_buf_take(b, out_len);
  if (!*out) return tsift_nomem(err, what);
  return tsift_ok(err);
}

tsift_status tsift_buf_finish_unless(tsift_status st, tsift_buf *b, char **out, size_t *out_len, const char *what,
                                     tsift_error *err) {
  if (!st) return tsift_buf_finish(b, out, out_len, what, err);
  tsift_buf_free(b);
  return st;
}

char *tsift_buf_take(tsift_buf *b, size_t *len) {
  if (!b->failed && !b->data) tsift_buf_append(b, "", 0);
  if (b->failed) {
    tsift_buf_free(b);
    if (len) *len = 0;
    return NULL;
  }
  char *p = b->data;
  if (len) *len = b->len;
  b->data = NULL;
  b->len = b->cap = 0;
  return p;
}

/* Comma handling: called before every value or key. */
static void before_value(tsift_buf *b) {
  if (b->after_key) {
    b->after_key = 0;
    return;
  }
  if (b->depth > 0 && b->depth <= TSIFT_JSON_MAX_DEPTH) {
    if (b->has_item[b->depth - 1]) tsift_buf_putc(b, ',');
    b->has_item[b->depth - 1] = 1;
  }
}

static void open_container(tsift_buf *b, char c) {
  before_value(b);
  tsift_buf_putc(b, c);
  if (b->depth < TSIFT_JSON_MAX_DEPTH) b->has_item[b->depth] = 0;
  b->depth++;
}

static void close_container(tsift_buf *b, char c) {
  if (b->depth > 0) b->depth--;
  tsift_buf_putc(b, c);
}

void tsift_json_begin_object(tsift_buf *b) { open_container(b, '{'); }
void tsift_json_end_object(tsift_buf *b) { close_container(b, '}'); }
void tsift_json_begin_array(tsift_buf *b) { open_container(b, '['); }
void tsift_json_end_array(tsift_buf *b) { close_container(b, ']'); }

/* The bytes a JSON string escapes: '"', '\\' and the controls (the rest,
 * UTF-8 included, goes through as is). One test a byte: search results
 * are mostly descriptions and ids, so this loop is the JSON path's hottest. */
static int json_escapes(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

void tsift_buf_json_string(tsift_buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  tsift_buf_putc(b, '"');
  size_t start = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!json_escapes(c)) continue;
    const char *esc = NULL;
    char ubuf[6];
    if (c == '"') esc = "\\\"";
    else if (c == '\\') esc = "\\\\";
    else if (c == '\n') esc = "\\n";
    else if (c == '\r') esc = "\\r";
    else if (c == '\t') esc = "\\t";
    else if (c == '\b') esc = "\\b";
    else if (c == '\f') esc = "\\f";
    else if (c < 0x20) {
      ubuf[0] = '\\'; ubuf[1] = 'u'; ubuf[2] = '0'; ubuf[3] = '0';
      ubuf[4] = hex[c >> 4]; ubuf[5] = hex[c & 15];
      tsift_buf_append(b, s + start, i - start);
      tsift_buf_append(b, ubuf, 6);
      start = i + 1;
      continue;
    }
    if (esc) {
      tsift_buf_append(b, s + start, i - start);
      tsift_buf_append(b, esc, 2);
      start = i + 1;
    }
  }
  tsift_buf_append(b, s + start, n - start);
  tsift_buf_putc(b, '"');
}

void tsift_json_open_object(tsift_buf *b) {
  tsift_buf_init(b);
  tsift_json_begin_object(b);
}

void tsift_json_key(tsift_buf *b, const char *key) {
  before_value(b);
  tsift_buf_json_string(b, key, strlen(key));
  tsift_buf_putc(b, ':');
  b->after_key = 1;
}

void tsift_json_str(tsift_buf *b, const char *s, size_t n) {
  before_value(b);
  tsift_buf_json_string(b, s, n);
}

void tsift_json_cstr(tsift_buf *b, const char *s) { tsift_json_str(b, s, strlen(s)); }

static void append_uint(tsift_buf *b, unsigned long long v) {
  char tmp[24];
  int i = 0;
  do {
    tmp[i++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  char out[24];
  for (int j = 0; j < i; j++) out[j] = tmp[i - 1 - j];
  tsift_buf_append(b, out, (size_t)i);
}

void tsift_json_int(tsift_buf *b, long long v) {
  before_value(b);
  if (v < 0) {
    tsift_buf_putc(b, '-');
    append_uint(b, (unsigned long long)(-(v + 1)) + 1);
  } else {
    append_uint(b, (unsigned long long)v);
  }
}

void tsift_json_bool(tsift_buf *b, int v) {
  before_value(b);
  if (v) tsift_buf_append(b, "true", 4);
  else tsift_buf_append(b, "false", 5);
}

void tsift_json_null(tsift_buf *b) {
  before_value(b);
  tsift_buf_append(b, "null", 4);
}

void tsift_json_score(tsift_buf *b, double v) {
  before_value(b);
  if (!(v == v) || v > 9e12 || v < -9e12) { /* NaN or absurd: never expected */
    tsift_buf_append(b, "0.000000", 8);
    return;
  }
  int neg = v < 0;
  double a = neg ? -v : v;
  /* Scale and round half away from zero; exact for the magnitudes we use. */
  unsigned long long scaled = (unsigned long long)(a * 1000000.0 + 0.5);
  if (neg && scaled) tsift_buf_putc(b, '-');
  append_uint(b, scaled / 1000000ULL);
  char frac[8];
  unsigned long long f = scaled % 1000000ULL;
  frac[0] = '.';
  for (int i = 6; i >= 1; i--) {
    frac[i] = (char)('0' + f % 10);
    f /= 10;
  }
  tsift_buf_append(b, frac, 7);
}

void tsift_json_key_str(tsift_buf *b, const char *key, const char *s, size_t n) {
  tsift_json_key(b, key);
  tsift_json_str(b, s, n);
}

void tsift_json_key_cstr(tsift_buf *b, const char *key, const char *s) {
  tsift_json_key(b, key);
  tsift_json_cstr(b, s);
}

void tsift_json_key_int(tsift_buf *b, const char *key, long long v) {
  tsift_json_key(b, key);
  tsift_json_int(b, v);
}

void tsift_json_key_bool(tsift_buf *b, const char *key, int v) {
  tsift_json_key(b, key);
  tsift_json_bool(b, v);
}

void tsift_json_key_score(tsift_buf *b, const char *key, double v) {
  tsift_json_key(b, key);
  tsift_json_score(b, v);
}

void tsift_json_raw(tsift_buf *b, const char *s, size_t n) {
  before_value(b);
  tsift_buf_append(b, s, n);
}
