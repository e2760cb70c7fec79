/* json_tree.c — see json_tree.h. cJSON's own parser measures every string
 * twice, skips white space and compares "null"/"true"/"false" at every value
 * and re-checks what tsift_json_check already proved; parsing a catalog was a
 * quarter of the build's instructions (docs/performance.md). This reads each
 * byte once: the text is known valid, so nothing here can fail but memory.
 * No recursion: the open containers are a fixed array as deep as the check
 * allows. */
#include "json/json_tree.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "json/json_check.h"
#include "base/numparse.h"

/* Where a tree's pieces come from: cJSON's allocator (one allocation per
 * node and per string, what cJSON_Delete frees), or, with `arena` set, the
 * arena's blocks (json_tree.h): a catalog's tree is tens of thousands of
 * small pieces made at once and freed at once, and one malloc each was a
 * sixth of a build's time (docs/performance.md, issue 23). */
typedef struct tree_alloc {
  tsift_json_arena **arena; /* NULL: cJSON_malloc */
} tree_alloc;

/* A block's header; its pieces follow. `p` and `end` bound the free part of
 * the newest block; `prev` links the older ones for the free. */
struct tsift_json_arena {
  struct tsift_json_arena *prev;
  char *p, *end;
};

/* The first block fits a small document (options, one tool) without waste;
 * blocks then double up to a size whose unused tail stays small next to
 * the tree it ends. */
#define ARENA_FIRST 1024
#define ARENA_MAX (256 * 1024)

static void *arena_take(tsift_json_arena **a, size_t size) {
  size = (size + 7) & ~(size_t)7; /* nodes hold pointers and doubles */
  tsift_json_arena *b = *a;
  if (!b || (size_t)(b->end - b->p) < size) {
    size_t cap = b ? 2 * (size_t)(b->end - (char *)(b + 1)) : ARENA_FIRST;
    if (cap > ARENA_MAX) cap = ARENA_MAX;
    if (cap < size) cap = size; /* a long string gets a block of its own size */
    tsift_json_arena *nb = tsift_alloc_bytes(sizeof *nb + cap);
    if (!nb) return NULL;
    nb->prev = b;
    nb->p = (char *)(nb + 1);
    nb->end = nb->p + cap;
    *a = b = nb;
  }
  void *piece = b->p;
  b->p += size;
  return piece;
}

void tsift_json_arena_free(tsift_json_arena *a) {
  while (a) {
    tsift_json_arena *prev = a->prev;
    tsift_free(a);
    a = prev;
  }
}

static void *take(const tree_alloc *al, size_t size) {
  return al->arena ? arena_take(al->arena, size) : cJSON_malloc(size);
}

static cJSON *new_item(const tree_alloc *al) {
  cJSON *item = take(al, sizeof *item);
  if (item) memset(item, 0, sizeof *item);
  return item;
}

/* cJSON's links: a container's child is its first item, whose prev is the
 * last; each item's next is the one after it (NULL at the end). */
static void append(cJSON *parent, cJSON *item) {
  cJSON *first = parent->child;
  if (!first) {
    parent->child = item;
    item->prev = item;
    return;
  }
  cJSON *last = first->prev;
  last->next = item;
  item->prev = last;
  first->prev = item;
}

/* Outside strings, checked text has no byte below 0x20 but \t \n \r, so
 * one compare tells white space; runs of spaces (indentation) go eight
 * bytes a step. */
static inline size_t skip_ws(const char *s, size_t n, size_t i) {
  const unsigned char *p = (const unsigned char *)s;
  if (i < n && p[i] <= ' ') { /* a newline, then the indentation */
    i++;
    for (uint64_t w; i + 8 <= n && (memcpy(&w, p + i, 8), w == 0x2020202020202020u);) i += 8;
    while (i < n && p[i] <= ' ') i++;
  }
  return i;
}

static unsigned hex4(const char *p) {
  unsigned v = 0;
  for (int k = 0; k < 4; k++) {
    unsigned char h = (unsigned char)p[k];
    v = v * 16 + (h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
  }
  return v;
}

/* The escapes of s[a..b) decoded as cJSON decodes them (a \u surrogate pair
 * is one codepoint; the check let no lone half through) into out; returns
 * the length. */
static size_t decode_escapes(const char *s, size_t a, size_t b, char *out) {
  size_t o = 0;
  for (size_t i = a; i < b;) {
    if (s[i] != '\\') { /* the plain run up to the next escape, at once */
      const char *e = memchr(s + i, '\\', b - i);
      size_t k = (e ? (size_t)(e - s) : b) - i;
      memcpy(out + o, s + i, k);
      o += k;
      i += k;
      continue;
    }
    char e = s[i + 1];
    i += 2;
    if (e != 'u') {
      out[o++] = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
      continue;
    }
    unsigned long cp = hex4(s + i);
    i += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      cp = 0x10000 + (((cp & 0x3FF) << 10) | (hex4(s + i + 2) & 0x3FF));
      i += 6;
    }
    if (cp < 0x80) {
      out[o++] = (char)cp;
    } else if (cp < 0x800) {
      out[o++] = (char)(0xC0 | (cp >> 6));
      out[o++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out[o++] = (char)(0xE0 | (cp >> 12));
      out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
      out[o++] = (char)(0x80 | (cp & 0x3F));
    } else {
      out[o++] = (char)(0xF0 | (cp >> 18));
      out[o++] = (char)(0x80 | ((cp >> 12) & 0x3F));
      out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
      out[o++] = (char)(0x80 | (cp & 0x3F));
    }
  }
  return o;
}

/* The string whose opening quote is s[*i]: its raw span s[a..*end) and
 * whether it holds an escape. Decoding never makes a string longer, so the
 * raw length bounds its allocation. */
static size_t string_end(const char *s, size_t n, size_t a, int *escaped) {
  /* The first quote or backslash from a: eight bytes a step (most strings
   * are short keys and values, for which two memchr calls cost more than
   * the scan), then byte by byte. The text is checked: a quote comes. */
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  size_t j = a;
  *escaped = 0;
  for (;;) {
    for (uint64_t w; j + 8 <= n; j += 8) {
      memcpy(&w, s + j, 8);
      uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
      if ((((q - ones) & ~q) | ((b - ones) & ~b)) & high) break;
    }
    while (s[j] != '"' && s[j] != '\\') j++;
    if (s[j] == '"') return j;
    *escaped = 1;
    j += 2; /* past the escape: an escaped quote or backslash ends nothing */
  }
}

/* The raw span s[a..j) decoded into out as a C string. */
static void copy_string(const char *s, size_t a, size_t j, int escaped, char *out) {
  size_t len = j - a;
  if (escaped) len = decode_escapes(s, a, j, out);
  else memcpy(out, s + a, len);
  out[len] = 0;
}

/* The string whose opening quote is s[*i], decoded into a new C string;
 * *i is left past its closing quote. NULL when out of memory. */
static char *read_string(const tree_alloc *al, const char *s, size_t n, size_t *i) {
  int escaped;
  size_t a = *i + 1, j = string_end(s, n, a, &escaped);
  *i = j + 1;
  char *out = take(al, j - a + 1);
  if (out) copy_string(s, a, j, escaped, out);
  return out;
}

/* A new item for an object member whose key's quote is s[*i]: the key lives
 * in the item's own allocation, after it, and is marked cJSON_StringIsConst
 * so cJSON_Delete frees it with the item (one allocation instead of two for
 * every member). *i is left past the key. */
static cJSON *new_member(const tree_alloc *al, const char *s, size_t n, size_t *i) {
  int escaped;
  size_t a = *i + 1, j = string_end(s, n, a, &escaped);
  *i = j + 1;
  cJSON *item = take(al, sizeof *item + (j - a + 1));
  if (!item) return NULL;
  memset(item, 0, sizeof *item);
  item->string = (char *)(item + 1);
  copy_string(s, a, j, escaped, item->string);
  item->type = cJSON_StringIsConst;
  return item;
}

static int number_char(char ch) {
  return (ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' || ch == 'e' || ch == 'E';
}

/* The number at s[*i]: cJSON's value (its strtod on the token, an int
 * saturated), and the kept lexeme. 0 when out of memory. */
/* An integer of at most 15 digits (most schema numbers: bounds, sizes,
 * defaults) is exact as a double, so its digits give what tsift_strtod's
 * correct rounding gives; -0 is left to it (its sign). 0 when not one. */
static int small_integer(const char *p, size_t k, double *d) {
  size_t neg = p[0] == '-';
  if (k - neg < 1 || k - neg > 15) return 0;
  uint64_t v = 0;
  for (size_t x = neg; x < k; x++) {
    if (p[x] < '0' || p[x] > '9') return 0;
    v = v * 10 + (uint64_t)(p[x] - '0');
  }
  if (neg && v == 0) return 0;
  *d = neg ? -(double)v : (double)v;
  return 1;
}

static int read_number(const tree_alloc *al, cJSON *item, const char *s, size_t n, size_t *i) {
  size_t a = *i, j = a;
  while (j < n && number_char(s[j])) j++;
  *i = j;
  char buf[TSIFT_JSON_MAX_NUMBER_CHARS + 1]; /* the check refused longer numbers */
  size_t k = j - a;
  double d;
  if (!small_integer(s + a, k, &d)) {
    memcpy(buf, s + a, k);
    buf[k] = 0;
    d = tsift_strtod(buf, NULL);
  }
  item->type |= cJSON_Number;
  item->valuedouble = d;
  item->valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
  if (!tsift_json_number_kept(s + a, k)) return 1;
  if (!(item->valuestring = take(al, k + 1))) return 0;
  memcpy(item->valuestring, s + a, k);
  item->valuestring[k] = 0;
  return 1;
}

static cJSON *build_tree(const tree_alloc *al, const char *s, size_t n) {
  cJSON *open[TSIFT_JSON_MAX_NESTING]; /* the containers open, outermost first */
  size_t depth = 0, i = 0;
  cJSON *root = NULL;
  for (;;) {
    /* A value (after its key in an object) and, when it is an empty
     * container or a scalar, whatever closes after it. */
    i = skip_ws(s, n, i);
    int member = depth && cJSON_IsObject(open[depth - 1]);
    cJSON *item = member ? new_member(al, s, n, &i) : new_item(al);
    if (!item) goto oom;
    if (depth) append(open[depth - 1], item);
    else root = item;
    if (member) {
      i = skip_ws(s, n, i) + 1; /* the colon */
      i = skip_ws(s, n, i);
    }
    char ch = s[i];
    if (ch == '{' || ch == '[') {
      item->type |= ch == '{' ? cJSON_Object : cJSON_Array;
      i = skip_ws(s, n, i + 1);
      if (s[i] != (ch == '{' ? '}' : ']')) {
        open[depth++] = item;
        continue;
      }
      i++; /* empty */
    } else if (ch == '"') {
      item->type |= cJSON_String;
      if (!(item->valuestring = read_string(al, s, n, &i))) goto oom;
    } else if (ch == 't') {
      item->type |= cJSON_True;
      item->valueint = 1;
      i += 4;
    } else if (ch == 'f') {
      item->type |= cJSON_False;
      i += 5;
    } else if (ch == 'n') {
      item->type |= cJSON_NULL;
      i += 4;
    } else if (!read_number(al, item, s, n, &i)) {
      goto oom;
    }
    /* Close what ends here; a comma means another value follows. */
    for (;;) {
      i = skip_ws(s, n, i);
      if (depth == 0) return root;
      if (s[i++] == ',') break;
      depth--; /* '}' or ']' */
    }
  }
oom:
  if (al->arena) {
    tsift_json_arena_free(*al->arena);
    *al->arena = NULL;
  } else {
    cJSON_Delete(root);
  }
  return NULL;
}

cJSON *tsift_json_tree(const char *s, size_t n) {
  tree_alloc al = {NULL};
  return build_tree(&al, s, n);
}

cJSON *tsift_json_tree_arena(const char *s, size_t n, tsift_json_arena **arena) {
  *arena = NULL;
  tree_alloc al = {arena};
  return build_tree(&al, s, n);
}
