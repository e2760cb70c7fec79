/* json_check.c — see json_check.h. A single pass over RFC 8259 grammar with
 * a fixed-size bit stack for containers; no allocation, no recursion. */
#include "json/json_check.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

typedef struct cursor {
  const char *s;
  size_t n, i;
  size_t surrogate; /* 1 + the offset of a \u escape that is half a surrogate pair, else 0 */
  tsift_json_facts facts; /* what the strings and numbers scanned so far hold */
  size_t escapes;         /* backslashes in the strings scanned so far */
} cursor;

/* Byte classes for the two hot loops (whitespace runs and the plain bytes of
 * strings), one table load a byte instead of a chain of compares. */
enum { BYTE_WS = 1, BYTE_PLAIN = 2 }; /* plain: ASCII that stands for itself in a string */
#define BYTE_CLASS(c)                                                                       \
  (unsigned char)(((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r' ? BYTE_WS : 0) | \
                  ((c) >= 0x20 && (c) < 0x80 && (c) != '"' && (c) != '\\' ? BYTE_PLAIN : 0))
#define BYTES4(c) BYTE_CLASS(c), BYTE_CLASS(c + 1), BYTE_CLASS(c + 2), BYTE_CLASS(c + 3)
#define BYTES16(c) BYTES4(c), BYTES4(c + 4), BYTES4(c + 8), BYTES4(c + 12)
#define BYTES64(c) BYTES16(c), BYTES16(c + 16), BYTES16(c + 32), BYTES16(c + 48)
static const unsigned char byte_class[256] = {BYTES64(0), BYTES64(64), BYTES64(128), BYTES64(192)};
#undef BYTES64
#undef BYTES16
#undef BYTES4
#undef BYTE_CLASS

/* Past the plain bytes of a string from c->i: eight bytes a step while a
 * word holds no control, quote, backslash or byte >= 0x80 (string bytes are
 * mostly plain ASCII, and the checks are exact per word), then byte by byte
 * from the word that holds one; on a little-endian host from its first
 * marked byte, which is one of them (a borrow only marks bytes after one). */
static inline void skip_plain(cursor *c) {
  const unsigned char *s = (const unsigned char *)c->s;
  size_t i = c->i, n = c->n;
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  for (uint64_t w; i + 8 <= n;) {
    memcpy(&w, s + i, 8);
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    uint64_t stop = w | ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b);
    if (stop & high) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      i += (size_t)__builtin_ctzll(stop & high) / 8;
#endif
      break;
    }
    i += 8;
  }
  while (i < n && (byte_class[s[i]] & BYTE_PLAIN)) i++;
  c->i = i;
}

/* White space: a byte-class loop, except that runs of spaces (a pretty-printed
 * catalog is half indentation) go eight bytes a step, and on a little-endian
 * host on to the first other byte of the word that ends them. */
static inline void skip_ws(cursor *c) {
  const unsigned char *s = (const unsigned char *)c->s;
  size_t i = c->i, n = c->n;
  if (i < n && (byte_class[s[i]] & BYTE_WS)) { /* a newline, then the indentation */
    i++;
    for (uint64_t w; i + 8 <= n;) {
      memcpy(&w, s + i, 8);
      w ^= 0x2020202020202020u;
      if (w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        i += (size_t)__builtin_ctzll(w) / 8;
#endif
        break;
      }
      i += 8;
    }
    while (i < n && (byte_class[s[i]] & BYTE_WS)) i++;
  }
  c->i = i;
}

static int is_hex(char ch) {
  return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static unsigned hex4(const char *p) {
  unsigned v = 0;
  for (int k = 0; k < 4; k++) {
    char h = p[k];
    v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
  }
  return v;
}

/* One \uXXXX escape at c->i (on the 'u'); a surrogate must come as a
 * high-low pair, as cJSON requires. Leaves c->i on the last hex digit. */
static int scan_unicode_escape(cursor *c) {
  for (int k = 1; k <= 4; k++)
    if (c->i + k >= c->n || !is_hex(c->s[c->i + k])) return 0;
  unsigned v = hex4(c->s + c->i + 1);
  size_t at = c->i - 1; /* the backslash */
  c->i += 4;
  c->facts.nul_escapes += v == 0;
  if (v < 0xD800 || v > 0xDFFF) return 1;
  if (v <= 0xDBFF && c->i + 6 < c->n && c->s[c->i + 1] == '\\' && c->s[c->i + 2] == 'u' &&
      is_hex(c->s[c->i + 3]) && is_hex(c->s[c->i + 4]) && is_hex(c->s[c->i + 5]) && is_hex(c->s[c->i + 6])) {
    unsigned lo = hex4(c->s + c->i + 3);
    if (lo >= 0xDC00 && lo <= 0xDFFF) {
      c->i += 6;
      return 1;
    }
  }
  c->surrogate = at + 1; /* a lone high or low surrogate */
  return 0;
}

static int scan_string(cursor *c) {
  c->i++; /* opening quote */
  while (c->i < c->n) {
    skip_plain(c);
    if (c->i >= c->n) break;
    unsigned char ch = (unsigned char)c->s[c->i];
    if (ch == '"') {
      c->i++;
      return 1;
    }
    if (ch < 0x20) return 0;
    if (ch >= 0x80) {
      /* A valid sequence's continuation bytes are all >= 0x80 (none is a
       * quote, a backslash or a control), so stepping over them changes no
       * verdict; an invalid byte is only counted and read as before. */
      size_t k = tsift_utf8_seq((const unsigned char *)c->s + c->i, c->n - c->i);
      if (k) c->i += k - 1;
      else c->facts.bad_utf8 = 1;
    }
    if (ch == '\\') {
      c->escapes++;
      if (++c->i >= c->n) return 0;
      char e = c->s[c->i];
      if (e == 'u') {
        if (!scan_unicode_escape(c)) return 0;
      } else if (e == 0 || !strchr("\"\\/bfnrt", e)) { /* strchr finds the terminator */
        return 0;
      }
    }
    c->i++;
  }
  return 0;
}

long tsift_json_find_nul_escape(const char *s, size_t n) {
  for (size_t i = 0; i + 1 < n; i++) {
    if (s[i] != '\\') continue;
    if (s[i + 1] == 'u' && i + 5 < n && s[i + 2] == '0' && s[i + 3] == '0' && s[i + 4] == '0' &&
        s[i + 5] == '0')
      return (long)i;
    i++; /* skip the escaped character, so \\u0000 is not an escape */
  }
  return -1;
}

static int scan_digits(cursor *c) {
  size_t start = c->i;
  while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9') c->i++;
  return c->i > start;
}

static int scan_number_body(cursor *c);

/* 1 = a number, 0 = not one, -1 = a number longer than cJSON can read
 * (valid JSON, so over a limit rather than malformed). */
static int scan_number(cursor *c) {
  size_t start = c->i;
  if (!scan_number_body(c)) return 0;
  c->facts.kept_numbers += tsift_json_number_kept(c->s + start, c->i - start);
  return c->i - start <= TSIFT_JSON_MAX_NUMBER_CHARS ? 1 : -1;
}

int tsift_json_number_kept(const char *s, size_t k) {
  int keep = k > 15 || (k > 1 && s[0] == '-' && s[1] == '0');
  for (size_t j = 0; j < k; j++) keep |= s[j] == '.' || (s[j] | 32) == 'e';
  return keep;
}

static int scan_number_body(cursor *c) {
  if (c->s[c->i] == '-') c->i++;
  if (c->i < c->n && c->s[c->i] == '0') c->i++;
  else if (!scan_digits(c)) return 0;
  if (c->i < c->n && c->s[c->i] == '.') {
    c->i++;
    if (!scan_digits(c)) return 0;
  }
  if (c->i < c->n && (c->s[c->i] == 'e' || c->s[c->i] == 'E')) {
    c->i++;
    if (c->i < c->n && (c->s[c->i] == '+' || c->s[c->i] == '-')) c->i++;
    if (!scan_digits(c)) return 0;
  }
  return 1;
}

static int scan_word(cursor *c, const char *w) {
  size_t k = strlen(w);
  if (c->n - c->i < k || memcmp(c->s + c->i, w, k) != 0) return 0;
  c->i += k;
  return 1;
}

tsift_json_verdict tsift_json_check(const char *s, size_t n, size_t *pos) {
  tsift_json_facts facts;
  return tsift_json_check_facts(s, n, pos, &facts);
}

/* The keys of the open objects of the outer levels, to see whether an
 * object repeats one (by their raw bytes: without a backslash those are the
 * key itself). An object past these bounds, or with an escaped key, is left
 * to the parsed tree's check (facts.keys_unchecked). 32 levels: real MCP
 * schemas nest objects past 16 (../shared/catalogs/all.json reaches 23
 * containers), and one such object sent the whole document through the
 * tree's check (6.3 M instructions of its 73 M build); 8 KiB of stack. */
#define KEY_LEVELS 32
#define KEYS_PER_OBJECT 32
typedef struct open_keys {
  uint32_t at[KEY_LEVELS][KEYS_PER_OBJECT], len[KEY_LEVELS][KEYS_PER_OBJECT];
  unsigned char count[KEY_LEVELS];
} open_keys;

/* The key scanned just before c->i, from its quote at `quote`, of the object
 * at level `level` (0 = outermost). */
static inline void note_key(open_keys *k, size_t level, const cursor *c, size_t quote, size_t escapes_before,
                            tsift_json_facts *f) {
  size_t at = quote + 1, len = c->i - 1 - at;
  if (level >= KEY_LEVELS || k->count[level] == KEYS_PER_OBJECT || at > UINT32_MAX || len > UINT32_MAX ||
      c->escapes != escapes_before) {
    f->keys_unchecked = 1;
    return;
  }
  for (size_t j = 0; j < k->count[level]; j++)
    if (k->len[level][j] == len && c->s[k->at[level][j]] == c->s[at] &&
        memcmp(c->s + k->at[level][j], c->s + at, len) == 0)
      f->duplicate_keys = 1;
  k->at[level][k->count[level]] = (uint32_t)at;
  k->len[level][k->count[level]++] = (uint32_t)len;
}

tsift_json_verdict tsift_json_check_facts(const char *s, size_t n, size_t *pos, tsift_json_facts *facts) {
  return tsift_json_check_read(s, n, pos, facts, NULL);
}

tsift_json_verdict tsift_json_check_read(const char *s, size_t n, size_t *pos, tsift_json_facts *facts,
                                         const tsift_json_sink *sink) {
  unsigned char stack[TSIFT_JSON_MAX_NESTING / 8 + 1]; /* 1 = object, 0 = array */
  open_keys keys;
  size_t depth = 0, quote, esc;
  cursor c = {s, n, 0, 0, {0, 0, 0, 0, 0}, 0};
  enum { VALUE, AFTER_VALUE } state = VALUE;
  for (;;) {
    skip_ws(&c);
    if (state == VALUE) {
      if (c.i >= n) goto bad;
      char ch = s[c.i];
      if (ch == '{' || ch == '[') {
        if (depth >= TSIFT_JSON_MAX_NESTING) {
          *pos = c.i;
          return TSIFT_JSON_TOO_DEEP;
        }
        int obj = ch == '{';
        if (obj) stack[depth / 8] |= (unsigned char)(1u << (depth % 8));
        else stack[depth / 8] &= (unsigned char)~(1u << (depth % 8));
        if (obj && depth < KEY_LEVELS) keys.count[depth] = 0;
        if (sink) sink->value(sink->ctx, c.i, c.i + 1, 0);
        depth++;
        c.i++;
        skip_ws(&c);
        if (c.i < n && s[c.i] == (obj ? '}' : ']')) { /* empty container */
          if (sink) sink->close(sink->ctx);
          c.i++;
          depth--;
          state = AFTER_VALUE;
          continue;
        }
        if (obj) goto key;
        continue; /* a value follows */
      }
      size_t value_at = c.i;
      esc = c.escapes;
      int ok = ch == '"'                       ? scan_string(&c)
               : (ch == '-' || (ch >= '0' && ch <= '9')) ? scan_number(&c)
               : ch == 't'                     ? scan_word(&c, "true")
               : ch == 'f'                     ? scan_word(&c, "false")
               : ch == 'n'                     ? scan_word(&c, "null")
                                               : 0;
      if (ok < 0) {
        *pos = value_at;
        return TSIFT_JSON_LONG_NUMBER;
      }
      if (!ok) goto bad;
      if (sink) sink->value(sink->ctx, value_at, c.i - (ch == '"'), c.escapes != esc);
      state = AFTER_VALUE;
      continue;
    }
    /* AFTER_VALUE */
    if (depth == 0) {
      if (c.i == n) {
        *facts = c.facts;
        return TSIFT_JSON_VALID;
      }
      goto bad;
    }
    if (c.i >= n) goto bad;
    int obj = (stack[(depth - 1) / 8] >> ((depth - 1) % 8)) & 1;
    char ch = s[c.i];
    if (ch == ',') {
      c.i++;
      state = VALUE;
      if (!obj) continue;
      skip_ws(&c);
      goto key;
    }
    if (ch == (obj ? '}' : ']')) {
      if (sink) sink->close(sink->ctx);
      c.i++;
      depth--;
      continue;
    }
    goto bad;
    /* An object's next key and its colon, after '{' or ','; its value
     * follows. One label for both places rather than a function: as an
     * inline function it cost the check 3 % more instructions (callgrind,
     * all.json). */
  key:
    esc = c.escapes;
    if (c.i >= n || s[(quote = c.i)] != '"' || !scan_string(&c)) goto bad;
    note_key(&keys, depth - 1, &c, quote, esc, &c.facts);
    if (sink) sink->key(sink->ctx, quote + 1, c.i - 1, c.escapes != esc);
    skip_ws(&c);
    if (c.i >= n || s[c.i] != ':') goto bad;
    c.i++;
  }
bad:
  *facts = c.facts;
  *pos = c.surrogate ? c.surrogate - 1 : c.i;
  return c.surrogate ? TSIFT_JSON_SURROGATE : TSIFT_JSON_SYNTAX;
}

size_t tsift_json_blank_nul_escapes(char *s, size_t n) {
  size_t count = 0;
  for (;;) {
    long at = tsift_json_find_nul_escape(s, n);
    if (at < 0) return count;
    memcpy(s + at, "\\u0020", 6); /* same length: offsets stay valid */
    count++;
  }
}

/* Past the value at c->i of valid JSON: strings by their grammar (a bracket
 * inside one does not count), containers by depth, a scalar up to the next
 * delimiter. */
static void skip_value(cursor *c) {
  size_t depth = 0;
  do {
    char ch = c->s[c->i];
    if (ch == '"') {
      scan_string(c);
    } else if (ch == '{' || ch == '[') {
      depth++;
      c->i++;
    } else if (ch == '}' || ch == ']') {
      depth--;
      c->i++;
    } else if (depth == 0) {
      while (c->i < c->n && !memchr(",}] \t\r\n", c->s[c->i], 7)) c->i++;
    } else {
      c->i++;
    }
  } while (depth > 0);
}

void tsift_json_member_value(const char *s, size_t n, size_t k, size_t *start, size_t *end) {
  cursor c = {s, n, 0, 0, {0, 0, 0, 0, 0}, 0};
  skip_ws(&c);
  c.i++; /* { */
  for (size_t m = 0;; m++) {
    skip_ws(&c);
    scan_string(&c); /* the key */
    skip_ws(&c);
    c.i++; /* : */
    skip_ws(&c);
    *start = c.i;
    skip_value(&c);
    *end = c.i;
    if (m == k) return;
    skip_ws(&c);
    c.i++; /* , */
  }
}

size_t tsift_json_levels(const char *s, size_t pos, tsift_json_level *lv, size_t cap) {
  cursor c = {s, pos, 0, 0, {0, 0, 0, 0, 0}, 0};
  size_t depth = 0, str = 0, str_len = 0;
  while (c.i < pos) {
    char ch = s[c.i];
    tsift_json_level *top = depth && depth <= cap ? &lv[depth - 1] : NULL;
    if (ch == '"') {
      size_t a = c.i;
      if (!scan_string(&c)) break;
      str = a + 1;
      str_len = c.i - a - 2;
      continue;
    }
    if (ch == '{' || ch == '[') {
      if (depth < cap) lv[depth] = (tsift_json_level){c.i, 0, 0, 0, ch == '{'};
      depth++;
    } else if (ch == '}' || ch == ']') {
      depth--;
    } else if (ch == ',' && top) {
      top->index++;
    } else if (ch == ':' && top) {
      top->key = str;
      top->key_len = str_len;
    }
    c.i++;
  }
  return depth;
}

int tsift_json_find_string(const char *s, size_t n, size_t open, const char *key, size_t *at, size_t *len) {
  cursor c = {s, n, open + 1, 0, {0, 0, 0, 0, 0}, 0};
  size_t depth = 1, klen = strlen(key);
  int is_key = 1, want = 0;
  while (c.i < n && depth) {
    char ch = s[c.i];
    if (ch == '"') {
      size_t a = c.i;
      if (!scan_string(&c)) return 0;
      if (depth > 1) continue;
      if (!is_key && want) {
        *at = a + 1;
        *len = c.i - a - 2;
        return 1;
      }
      want = is_key && c.i - a - 2 == klen && memcmp(s + a + 1, key, klen) == 0;
      is_key = 0;
      continue;
    }
    if (ch == '{' || ch == '[') depth++;
    else if (ch == '}' || ch == ']') depth--;
    if (depth == 1 && ch == ',') is_key = 1;
    if (depth == 1 && !memchr(" \t\r\n:", ch, 5)) want = 0;
    c.i++;
  }
  return 0;
}

size_t tsift_json_next_number(const char *s, size_t n, size_t *i) {
  cursor c = {s, n, *i, 0, {0, 0, 0, 0, 0}, 0};
  while (c.i < n && s[c.i] != '-' && (s[c.i] < '0' || s[c.i] > '9')) {
    if (s[c.i] == '"') scan_string(&c);
    else c.i++;
  }
  size_t at = c.i;
  if (at < n) scan_number_body(&c);
  *i = c.i;
  return at;
}
