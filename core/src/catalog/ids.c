/* ids.c — one rule for tools' ids (SPEC S1; docs/usage.md, "Tool ids").
 *
 * A tool's id is the catalog's key for it: what ranking reports and what
 * the catalog's own annotations and gold labels name. The name it has on
 * the model's menu (and in a session's results, journals and select:) is
 * the id itself when the id is model-facing (^[A-Za-z0-9_.:-]{1,128}$) and
 * no earlier tool's id looks the same; otherwise a safe name made here.
 * "Looks the same" is equal after NFKC and case folding: Weather and
 * weather, café composed and decomposed. Real catalogs then index as they
 * are (../shared/catalogs/all.json has ids with spaces) and a model never
 * sees two tools it cannot tell apart.
 *
 * A safe name: the id in NFKD without marks, every character outside
 * [A-Za-z0-9_-] as "_" (none right after another "_"), trailing "_"
 * trimmed, cut to 55 bytes ("tool" when nothing is left), then "_" and the
 * 8 hex digits of FNV-1a 32 over the id's bytes — at most 64 bytes, a
 * function name every provider accepts, the same for the same id in any
 * catalog. Should it look the same as another tool's id or an earlier safe
 * name (a hash collision), the hash runs again over the id, a 0 byte and a
 * salt 1, 2, ... until it does not: still deterministic for a catalog.
 *
 * With the index option {"ids":"strict"} nothing is renamed: an id that is
 * not model-facing was refused by the catalog's reader, and two that look
 * the same are an error naming both.
 */
#include "catalog/ids.h"

#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "base/strtab.h"
#include "base/fmt.h"
#include "text/text.h"
#include "utf8proc.h"

/* ---- what an id may be ------------------------------------------------ */

int tsift_id_valid(const char *id, size_t len) {
  if (len < 1 || len > 128) return 0;
  for (size_t i = 0; i < len; i++) {
    char c = id[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '_' || c == '.' || c == ':' || c == '-';
    if (!ok) return 0;
  }
  return 1;
}

/* What no id may hold, in any id rule (SPEC S1): controls (C0, DEL, C1),
 * invisible and bidi-control characters, fullwidth look-alikes of ASCII. */
static const uint32_t ID_REFUSED[][2] = {
    {0, 0x1f},         {0x7f, 0x9f},     {0xad, 0xad},     {0x61c, 0x61c},   {0x180e, 0x180e},
    {0x200b, 0x200f}, {0x202a, 0x202e}, {0x2060, 0x2064}, {0x2066, 0x2069}, {0xfeff, 0xfeff},
    {0xff01, 0xff5e}};

long tsift_id_bad_char(const char *id, size_t len, uint32_t *cp) {
  for (size_t i = 0; i < len;) {
    unsigned char b = (unsigned char)id[i];
    if (b < 0x80) { /* ASCII: of the ranges below, only C0 and DEL */
      *cp = b;
      if (b < 0x20 || b == 0x7f) return (long)i;
      i++;
      continue;
    }
    utf8proc_int32_t c = 0;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)id + i, (utf8proc_ssize_t)(len - i), &c);
    *cp = k > 0 ? (uint32_t)c : 0xFFFD;
    if (k <= 0) return (long)i;
    for (size_t r = 0; r < sizeof ID_REFUSED / sizeof ID_REFUSED[0]; r++)
      if (*cp >= ID_REFUSED[r][0] && *cp <= ID_REFUSED[r][1]) return (long)i;
    i += (size_t)k;
  }
  return -1;
}

int tsift_id_lenient_valid(const char *id, size_t len) {
  uint32_t cp;
  return len >= 1 && len <= 1024 && tsift_id_bad_char(id, len, &cp) < 0;
}

tsift_status tsift_id_refuse(tsift_error *err, const char *where, const char *id) {
  size_t len = strlen(id);
  uint32_t cp = 0;
  long at = len && len <= 1024 ? tsift_id_bad_char(id, len, &cp) : -1;
  if (at < 0)
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: invalid id: must be 1 to 1024 bytes without control characters",
                      where);
  char u[8];
  tsift_snprintf(u, sizeof u, "%04x", (unsigned)cp);
  for (char *p = u; *p; p++) *p = *p >= 'a' ? (char)(*p - 32) : *p;
  return tsift_fail(err, TSIFT_E_CONFIG,
                    "%s: invalid id: U+%s at byte %ld is a control, invisible, bidi-control or fullwidth "
                    "character, not allowed in an id",
                    where, u, at);
}

/* ---- the name on the menu --------------------------------------------- */

#define SAFE_BASE_MAX 55 /* + "_" + 8 hex digits = 64 bytes */
#define SAFE_SALT_MAX 255

/* What one pass over an ASCII id finds: its folded form in `buf` (when it
 * fits) and whether it is model-facing (^[A-Za-z0-9_.:-]{1,128}$). An id
 * with a byte >= 0x80 returns 0: it needs Unicode's folding. */
static int fold_ascii(const char *id, size_t n, char *buf, size_t cap, int *model_facing) {
  if (n >= cap) return 0;
  int ok = n >= 1 && n <= 128;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)id[i];
    if (c >= 0x80) return 0;
    int upper = c >= 'A' && c <= 'Z';
    ok &= upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' || c == '-';
    buf[i] = (char)(upper ? c + 32 : c);
  }
  *model_facing = ok;
  return 1;
}

/* FNV-1a of the id, then of a 0 byte and the salt's low byte when salted. */
static uint32_t salted_hash(const char *s, size_t n, unsigned salt) {
  uint32_t h = tsift_fnv1a(s, n);
  if (salt) h = tsift_fnv_step(tsift_fnv_step(h, 0), (unsigned char)(salt & 0xffu));
  return h;
}

static int safe_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* The safe name's base (before "_" and the hash) into base[SAFE_BASE_MAX + 1]. */
static tsift_status safe_base(const char *id, char *base, tsift_error *err) {
  char *plain = NULL;
  size_t n = 0;
  tsift_status st = tsift_id_form(id, strlen(id), 0, &plain, &n, err);
  if (st) return st;
  size_t o = 0;
  for (size_t i = 0; i < n && o < SAFE_BASE_MAX; i++) {
    char c = safe_char(plain[i]) ? plain[i] : '_';
    if (c == '_' && !safe_char(plain[i]) && o && base[o - 1] == '_') continue;
    /* a multi-byte character becomes one "_", not one per byte */
    if ((unsigned char)plain[i] >= 0x80)
      while (i + 1 < n && ((unsigned char)plain[i + 1] & 0xC0) == 0x80) i++;
    base[o++] = c;
  }
  while (o && base[o - 1] == '_') o--;
  if (!o) {
    memcpy(base, "tool", 4);
    o = 4;
  }
  base[o] = 0;
  tsift_free(plain);
  return TSIFT_OK;
}

/* Look-alike: the intern of a folded form that was there before. */
typedef struct names {
  tsift_strtab folded;  /* folded forms of ids, then of safe names */
  uint32_t *first_tool; /* per folded form of an id: the first tool with it */
} names;

/* A tool's safe name: the first candidate no other name looks like. */
static tsift_status rename_tool(tsift_catalog *c, size_t d, names *nm, tsift_error *err) {
  tsift_tool *t = &c->tools[d];
  char base[SAFE_BASE_MAX + 1];
  tsift_status st = safe_base(t->id, base, err);
  if (st) return st;
  size_t bl = strlen(base);
  for (unsigned salt = 0; salt <= SAFE_SALT_MAX; salt++) {
    char cand[SAFE_BASE_MAX + 10], key[SAFE_BASE_MAX + 10];
    tsift_snprintf(cand, sizeof cand, "%s_%08x", base, (unsigned)salted_hash(t->id, strlen(t->id), salt));
    size_t n = bl + 9;
    for (size_t i = 0; i <= n; i++) key[i] = (char)(cand[i] >= 'A' && cand[i] <= 'Z' ? cand[i] + 32 : cand[i]);
    size_t before = nm->folded.n;
    uint32_t k = tsift_strtab_intern(&nm->folded, key, n);
    if (k == UINT32_MAX) return tsift_nomem(err, "naming tools");
    if (k < before) continue; /* looks like another name: salt again */
    if (!(t->menu_name = tsift_strndup(cand, n))) return tsift_nomem(err, "naming tools");
    c->renamed++;
    return TSIFT_OK;
  }
  return tsift_fail(err, TSIFT_E_LIMIT, "tools[%zu]: no safe name found for its id", d);
}

tsift_status tsift_catalog_name_tools(tsift_catalog *c, tsift_id_rule ids, tsift_error *err) {
  for (size_t d = 0; d < c->count; d++) c->tools[d].menu_name = c->tools[d].id;
  c->renamed = 0;
  names nm;
  memset(&nm, 0, sizeof nm);
  uint8_t *rename = tsift_calloc_array(c->count + 1, 1);
  nm.first_tool = tsift_calloc_array(c->count + 1, sizeof *nm.first_tool);
  tsift_status st = rename && nm.first_tool ? TSIFT_OK : tsift_nomem(err, "checking ids");
  if (!st && tsift_strtab_reserve(&nm.folded, c->count + 1)) st = tsift_nomem(err, "checking ids");
  for (size_t d = 0; d < c->count && !st; d++) {
    const tsift_tool *t = &c->tools[d];
    size_t n = strlen(t->id);
    char buf[256], *key = buf;
    int model_facing = 0;
    /* nearly every id is short ASCII: folded on the stack, checked in the same pass */
    if (!fold_ascii(t->id, n, buf, sizeof buf, &model_facing)) {
      if ((st = tsift_id_form(t->id, n, 1, &key, &n, err))) break;
      model_facing = 0; /* not ASCII, or long: never a menu name as it is */
    }
    size_t before = nm.folded.n;
    uint32_t k = tsift_strtab_intern(&nm.folded, key, n);
    if (key != buf) tsift_free(key);
    if (k == UINT32_MAX) {
      st = tsift_nomem(err, "checking ids");
      break;
    }
    if (k == before) nm.first_tool[k] = (uint32_t)d;
    rename[d] = k < before || !model_facing;
    if (k < before && ids == TSIFT_IDS_STRICT) {
      size_t first = nm.first_tool[k];
      const char *a = c->tools[first].id;
      int na = (int)tsift_utf8_cut(a, strlen(a), 60), nb = (int)tsift_utf8_cut(t->id, strlen(t->id), 60);
      st = tsift_fail(err, TSIFT_E_CONFIG,
                      "catalog: tools[%zu] (\"%.*s\") and tools[%zu] (\"%.*s\"): ids that differ only in case or "
                      "Unicode form look the same to a model; rename one (or drop {\"ids\":\"strict\"} to give the "
                      "later one a safe name)",
                      first, na, a, d, nb, t->id);
    }
  }
  for (size_t d = 0; d < c->count && !st; d++)
    if (rename[d]) st = rename_tool(c, d, &nm, err);
  tsift_free(rename);
  tsift_free(nm.first_tool);
  tsift_strtab_free(&nm.folded);
  return st;
}

long tsift_catalog_find_renamed(const tsift_catalog *c, const char *name, int by_menu_name) {
  if (!c->renamed) return -1;
  for (size_t d = 0; d < c->count; d++) {
    const tsift_tool *t = &c->tools[d];
    if (t->menu_name != t->id && strcmp(by_menu_name ? t->menu_name : t->id, name) == 0) return (long)d;
  }
  return -1;
}
