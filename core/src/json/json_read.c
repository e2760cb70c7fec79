/* json_read.c — the strict JSON reader every input goes through (SPEC S5):
 * cJSON's parse with a precise error position ("at line L, column C"),
 * refusals cJSON would let through (duplicate keys, too deep, NUL escapes,
 * lone surrogates: json_check.c), numbers kept as their text where a double
 * would change them (tsift_json_print), and the small helpers messages use.
 * On its own since issue 36: eleven files read JSON, only catalog.c reads
 * catalogs. */
#include "json/json_read.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "base/fmt.h"
#include "json/json_check.h"
#include "json/json_tree.h"
#include "base/utf8.h"
#include "utf8proc.h"

/* ---- JSON parsing with positions -------------------------------------- */

/* Line and column (1-based, in characters) of byte `pos`. */
static void line_col(const char *s, size_t pos, size_t *line, size_t *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < pos; i++) {
    if (s[i] == '\n') {
      (*line)++;
      *col = 1;
    } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
      (*col)++;
    }
  }
}

static int key_cmp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 1 and *dup set when an object of the tree repeats a key (cJSON would keep
 * both and lookups would silently take the first), -1 when out of memory. */
static int find_duplicate_key(const cJSON *node, const char **dup) {
  if (!cJSON_IsObject(node) && !cJSON_IsArray(node)) return 0;
  size_t n = 0;
  const cJSON *c;
  cJSON_ArrayForEach(c, node) n++;
  if (cJSON_IsObject(node) && n > 1) {
    /* Small objects (most of a catalog: schema nodes) are checked pair by
     * pair on the stack first, without an allocation; only one that has a
     * duplicate is sorted (by insertion, the same order as qsort's), so the
     * key reported is the same: the smallest repeated one. */
    const char *small[16];
    const char **keys = n <= 16 ? small : tsift_calloc_array(n, sizeof *keys);
    if (!keys) return -1;
    size_t k = 0;
    cJSON_ArrayForEach(c, node) keys[k++] = c->string;
    int any = n > 16;
    for (size_t i = 0; !any && i < n; i++)
      for (size_t j = i + 1; j < n; j++)
        if (keys[i][0] == keys[j][0] && strcmp(keys[i], keys[j]) == 0) {
          any = 1;
          break;
        }
    if (!any) {
      /* no repeated key */
    } else if (n <= 16) {
      for (size_t i = 1; i < n; i++) {
        const char *x = keys[i];
        size_t j = i;
        for (; j > 0 && strcmp(keys[j - 1], x) > 0; j--) keys[j] = keys[j - 1];
        keys[j] = x;
      }
    } else {
      qsort(keys, n, sizeof *keys, key_cmp);
    }
    for (size_t i = 1; any && i < n; i++)
      if (strcmp(keys[i - 1], keys[i]) == 0) {
        *dup = keys[i];
        if (keys != small) tsift_free(keys);
        return 1;
      }
    if (keys != small) tsift_free(keys);
  }
  cJSON_ArrayForEach(c, node) {
    int rc = find_duplicate_key(c, dup);
    if (rc) return rc;
  }
  return 0;
}

/* A document nested past the parser's bound is refused whole (SPEC S5); the
 * message names the tool it is inside when the path at the error is a
 * catalog's tools array (the document's root array for a catalog, or an
 * object's "tools" member at any of the outer levels). */
static tsift_status too_deep(const char *json, size_t len, const char *what, size_t pos, size_t line, size_t col,
                             tsift_error *err) {
  tsift_json_level lv[5] = {{0}};
  size_t d = tsift_json_levels(json, pos, lv, 5), t = 0;
  if (lv[0].obj || strncmp(what, "catalog", 7) != 0)
    for (t = 1; t < 3 && !(lv[t - 1].obj && !lv[t].obj && lv[t - 1].key_len == 5 &&
                           memcmp(json + lv[t - 1].key, "tools", 5) == 0);)
      t++;
  char tool[96] = "";
  if (t < 3 && lv[t + 1].obj && d > t + 2) {
    size_t a = 0, n = 0;
    int named = tsift_json_find_string(json, len, lv[t + 1].open, "id", &a, &n) ||
                tsift_json_find_string(json, len, lv[t + 1].open, "name", &a, &n) ||
                (lv[t + 2].obj && tsift_json_find_string(json, len, lv[t + 2].open, "name", &a, &n));
    n = tsift_utf8_cut(json + a, n, 60);
    tsift_snprintf(tool, sizeof tool, named ? "tools[%zu] (\"%.*s\"): field \"%.*s\": " : "tools[%zu]: field \"%.*s\": ",
                   lv[t].index, named ? (int)n : (int)lv[t + 1].key_len, named ? json + a : json + lv[t + 1].key,
                   (int)lv[t + 1].key_len, json + lv[t + 1].key);
  }
  return tsift_fail(err, TSIFT_E_LIMIT, "%s: %snesting deeper than %d at byte %zu (line %zu, column %zu)", what, tool,
                    TSIFT_JSON_MAX_NESTING, pos, line, col);
}

/* Every number whose text a double's print would not give back (a fraction,
 * an exponent, -0, more than 15 characters) keeps its source text as
 * valuestring (json_tree.c; cJSON leaves it unused for numbers and frees it):
 * a schema reaches the model as its author wrote it (tool_spec.c, SPEC S5). The
 * print shows that text by calling such numbers raw for its duration. */
static void lexemes_as(cJSON *v, int type) {
  for (; v; v = v->next) {
    if (v->valuestring && (cJSON_IsNumber(v) || cJSON_IsRaw(v)))
      v->type = (v->type & ~0xFF) | type; /* keeps cJSON_StringIsConst (json_tree.c) */
    lexemes_as(v->child, type);
  }
}

char *tsift_json_print(const cJSON *v) {
  cJSON *m = (cJSON *)v; /* its numbers are raw text for the print only */
  if (m) lexemes_as(m->child, cJSON_Raw);
  char *text = cJSON_PrintUnformatted(m);
  if (m) lexemes_as(m->child, cJSON_Number);
  return text;
}

/* Every check of the text before cJSON reads it, in the order their errors
 * take precedence: UTF-8, empty, byte order mark, \u0000 escapes, then the
 * strict grammar. TSIFT_OK when none fails. */
static tsift_status refuse_text(const char *json, size_t len, const char *what, tsift_error *err) {
  size_t bad, line, col;
  if (!tsift_utf8_valid(json, len, &bad)) {
    line_col(json, bad, &line, &col);
    return tsift_fail(err, TSIFT_E_UTF8, "%s: invalid UTF-8 at byte %zu (line %zu, column %zu)",
                      what, bad, line, col);
  }
  if (len == 0) return tsift_fail(err, TSIFT_E_JSON, "%s: empty input", what);
  if (len >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0)
    return tsift_fail(err, TSIFT_E_JSON, "%s: starts with a UTF-8 byte order mark; save it without one", what);
  long nul = tsift_json_find_nul_escape(json, len);
  if (nul >= 0) {
    line_col(json, (size_t)nul, &line, &col);
    return tsift_fail(err, TSIFT_E_JSON,
                      "%s: a \\u0000 escape (NUL character) at byte %ld (line %zu, column %zu) is not "
                      "allowed in a string",
                      what, nul, line, col);
  }
  /* The strict, allocation-free grammar check: cJSON is lenient (raw control
   * characters and NUL bytes in strings, any byte below 0x20 taken as
   * whitespace) and reports an allocation failure like a syntax error. */
  size_t pos = 0;
  tsift_json_verdict v = tsift_json_check(json, len, &pos);
  if (v == TSIFT_JSON_VALID) return TSIFT_OK;
  line_col(json, pos < len ? pos : len, &line, &col);
  if (v == TSIFT_JSON_TOO_DEEP) return too_deep(json, len, what, pos, line, col, err);
  if (v == TSIFT_JSON_SURROGATE)
    return tsift_fail(err, TSIFT_E_JSON, "%s: a lone surrogate escape at byte %zu (line %zu, column %zu)", what,
                      pos, line, col);
  if (v == TSIFT_JSON_LONG_NUMBER)
    return tsift_fail(err, TSIFT_E_LIMIT, "%s: a number longer than %d characters at byte %zu (line %zu, column %zu)",
                      what, TSIFT_JSON_MAX_NUMBER_CHARS, pos, line, col);
  if (pos < len && (unsigned char)json[pos] < 0x20 && json[pos] != '\n' && json[pos] != '\r' && json[pos] != '\t')
    return tsift_fail(err, TSIFT_E_JSON,
                      "%s: control character 0x%02x at byte %zu (line %zu, column %zu): JSON needs it "
                      "escaped",
                      what, (unsigned)(unsigned char)json[pos], pos, line, col);
  return tsift_fail(err, TSIFT_E_JSON, "%s: malformed JSON at byte %zu (line %zu, column %zu)", what, pos, line,
                    col);
}

/* A tree the parse does not hand out. */
static void drop_tree(cJSON *root, tsift_json_arena **arena) {
  if (arena) {
    tsift_json_arena_free(*arena);
    *arena = NULL;
  } else {
    cJSON_Delete(root);
  }
}

/* tsift_json_parse, with the tree in an arena (json_tree.h) when `arena`
 * is not NULL. */
tsift_status tsift_json_parse_arena(const char *json, size_t len, const char *what, cJSON **out,
                                    tsift_json_arena **arena, tsift_error *err) {
  *out = NULL;
  if (!json && len) return tsift_fail(err, TSIFT_E_ARG, "%s: NULL input", what);
  /* One pass decides for valid text and builds its tree (json_tree.c): the
   * grammar check also validates the UTF-8 of strings (a byte >= 0x80
   * outside one fails the grammar, as does a byte order mark), counts
   * \u0000 escapes and the numbers whose lexemes are kept, and sees which
   * objects repeat a key. Only when it finds something do the separate
   * checks run, in their order, so every error and its position is the one
   * they report (the tree is dropped). */
  tsift_json_facts facts = {0, 0, 0, 0, 0};
  size_t pos = 0;
  cJSON *root = NULL;
  tsift_json_verdict v = len ? tsift_json_read_tree(json, len, &pos, &facts, arena, &root) : TSIFT_JSON_SYNTAX;
  if (v == TSIFT_JSON_VALID && !root) return tsift_nomem(err, "parsing JSON");
  if (v != TSIFT_JSON_VALID || facts.bad_utf8 || facts.nul_escapes) {
    drop_tree(root, arena);
    tsift_status st = refuse_text(json, len, what, err);
    if (st) return st;
    /* they found nothing: as before, the tree */
    root = arena ? tsift_json_tree_arena(json, len, arena) : tsift_json_tree(json, len);
    if (!root) return tsift_nomem(err, "parsing JSON");
  }
  /* The tree's key check runs only where the text's could not clear it. */
  const char *dup = NULL;
  int rc = facts.duplicate_keys || facts.keys_unchecked ? find_duplicate_key(root, &dup) : 0;
  if (rc) {
    tsift_status st = rc < 0 ? tsift_nomem(err, "checking JSON keys")
                             : tsift_fail(err, TSIFT_E_JSON, "%s: duplicate key \"%.60s\" in an object", what, dup);
    drop_tree(root, arena); /* after the message: dup points into the tree */
    return st;
  }
  *out = root;
  return TSIFT_OK;
}

tsift_status tsift_json_parse(const char *json, size_t len, const char *what, cJSON **out,
                              tsift_error *err) {
  return tsift_json_parse_arena(json, len, what, out, NULL, err);
}

int tsift_json_integral(const cJSON *v, double lo, double hi) {
  if (!cJSON_IsNumber(v)) return 0;
  double d = v->valuedouble;
  if (!(d >= lo && d <= hi)) return 0; /* also rejects NaN */
  return d == (double)(long long)d;
}

const char *tsift_json_type_name(const cJSON *v) {
  if (!v) return "nothing";
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsNull(v)) return "null";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  return "an invalid value";
}

tsift_status tsift_json_unknown_key(tsift_error *err, tsift_status status, const char *where, const char *key) {
  size_t n = tsift_utf8_cut(key, strlen(key), 40);
  return tsift_fail(err, status, "%s: unknown key \"%.*s\"", where, (int)n, key);
}
