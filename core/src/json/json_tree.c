/* json_tree.c — see json_tree.h. cJSON's own parser measures every string
 * twice, skips white space and compares "null"/"true"/"false" at every value
 * and re-checks what tsift_json_check already proved; parsing a catalog was a
 * quarter of the build's instructions (docs/performance.md). The tree is
 * built as the check reads the text (tsift_json_check_read tells each value
 * and key it passes, issue 37): each byte is read once, by the check, and
 * nothing here can fail but memory. */
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

/* The raw span s[a..j) decoded into out as a C string. */
static void copy_string(const char *s, size_t a, size_t j, int escaped, char *out) {
  size_t len = j - a;
  if (escaped) len = decode_escapes(s, a, j, out);
  else memcpy(out, s + a, len);
  out[len] = 0;
}

/* A new item for an object member whose key is the raw span s[a..j): the
 * key lives in the item's own allocation, after it, and is marked
 * cJSON_StringIsConst so cJSON_Delete frees it with the item (one
 * allocation instead of two for every member). */
static cJSON *new_member(const tree_alloc *al, const char *s, size_t a, size_t j, int escaped) {
  cJSON *item = take(al, sizeof *item + (j - a + 1));
  if (!item) return NULL;
  memset(item, 0, sizeof *item);
  item->string = (char *)(item + 1);
  copy_string(s, a, j, escaped, item->string);
  item->type = cJSON_StringIsConst;
  return item;
}

/* The number s[a..j): cJSON's value (its strtod on the token, an int
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

static int read_number(const tree_alloc *al, cJSON *item, const char *s, size_t a, size_t j) {
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

/* The tree as the check reads the text: the containers open, outermost
 * first, and the key of the member whose value comes next. After an
 * allocation fails, the rest of the text is only checked. */
typedef struct builder {
  tree_alloc al;
  const char *s;
  cJSON *root, *open[TSIFT_JSON_MAX_NESTING];
  size_t depth, key, key_end;
  int key_escaped, failed;
} builder;

static void on_key(void *ctx, size_t at, size_t end, int escaped) {
  builder *b = ctx;
  b->key = at, b->key_end = end, b->key_escaped = escaped;
}

static void on_close(void *ctx) { ((builder *)ctx)->depth--; }

static void on_value(void *ctx, size_t at, size_t end, int escaped) {
  builder *b = ctx;
  const char *s = b->s;
  cJSON *parent = b->depth ? b->open[b->depth - 1] : NULL;
  cJSON *item = b->failed                 ? NULL
                : parent && cJSON_IsObject(parent) ? new_member(&b->al, s, b->key, b->key_end, b->key_escaped)
                                                   : new_item(&b->al);
  if (item && parent) append(parent, item);
  else if (item) b->root = item;
  char ch = s[at];
  if (ch == '{' || ch == '[') {
    b->open[b->depth++] = item; /* NULL after a failure: never read then */
    if (item) item->type |= ch == '{' ? cJSON_Object : cJSON_Array;
  } else if (!item) {
    /* out of memory: nothing to fill */
  } else if (ch == '"') {
    item->type |= cJSON_String;
    if ((item->valuestring = take(&b->al, end - at)) != NULL) copy_string(s, at + 1, end, escaped, item->valuestring);
    else item = NULL;
  } else if (ch == 't') {
    item->type |= cJSON_True;
    item->valueint = 1;
  } else if (ch == 'f') {
    item->type |= cJSON_False;
  } else if (ch == 'n') {
    item->type |= cJSON_NULL;
  } else if (!read_number(&b->al, item, s, at, end)) {
    item = NULL;
  }
  if (!item) b->failed = 1;
}

tsift_json_verdict tsift_json_read_tree(const char *s, size_t n, size_t *pos, tsift_json_facts *facts,
                                        tsift_json_arena **arena, cJSON **root) {
  builder b; /* 8 KiB of open containers, as deep as the check allows */
  b.al.arena = arena;
  b.s = s;
  b.root = NULL;
  b.depth = 0;
  b.failed = 0;
  if (arena) *arena = NULL;
  tsift_json_sink sink = {on_key, on_value, on_close, &b};
  tsift_json_verdict v = tsift_json_check_read(s, n, pos, facts, &sink);
  *root = v == TSIFT_JSON_VALID && !b.failed ? b.root : NULL;
  if (*root) return v;
  if (arena) {
    tsift_json_arena_free(*arena);
    *arena = NULL;
  } else {
    cJSON_Delete(b.root);
  }
  return b.failed ? TSIFT_JSON_VALID : v; /* out of memory, whatever the text */
}

cJSON *tsift_json_tree(const char *s, size_t n) {
  size_t pos;
  tsift_json_facts facts;
  cJSON *root;
  tsift_json_read_tree(s, n, &pos, &facts, NULL, &root);
  return root;
}

cJSON *tsift_json_tree_arena(const char *s, size_t n, tsift_json_arena **arena) {
  size_t pos;
  tsift_json_facts facts;
  cJSON *root;
  tsift_json_read_tree(s, n, &pos, &facts, arena, &root);
  return root;
}
