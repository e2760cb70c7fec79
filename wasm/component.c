/*
 * component.c — the canonical-ABI glue of the toolsift component
 * (wasm/toolsift.wit, world `toolsift`), written by hand: no wit-bindgen.
 *
 * scripts/build-component.mjs links this file with the wasm32-wasi core
 * library into a core module, embeds the WIT and turns it into a component
 * (jco's componentEmbed + componentNew). The core is untouched: everything
 * here goes through core/include/toolsift.h.
 * Its exports are the TSIFT_CM_* lines of wasm/exports.def (the one table
 * of wasm exports), which also generates the bodies of the simple methods.
 *
 * The canonical ABI in the few lines this file needs (wasm32, UTF-8):
 *  - Parameters are flattened to i32s: a string or list is (ptr, len), an
 *    option (disc, payload…), a variant (disc, the join of its cases), an
 *    enum its index, a record its fields in order, a borrowed resource of
 *    our own (`self`) its rep — here the C pointer. With more than one flat
 *    result, an export returns a pointer to a return area it owns.
 *  - Strings and lists the host passes in are written into memory through
 *    cabi_realloc; the export owns them and frees them.
 *  - After the host has read a result it calls cabi_post_<export> with the
 *    return pointer; that frees what the result pointed to.
 *  - result<T, error> in memory: the discriminant (u8, 0 = ok) at 0, the
 *    payload at 4 (alignment 4): ok string/list (ptr, len) at 4 and 8, or
 *    own<resource> (an i32 handle) at 4; error {code: enum u8 at 4,
 *    message (ptr, len) at 8 and 12}. 16 bytes.
 *  - A constructor makes a handle from its rep with the imported
 *    [resource-new]; when the last handle is dropped the host calls the
 *    exported [dtor] with the rep, which frees the object.
 * Core export and import names follow wit-component's (legacy) convention:
 *   "<iface>#[method]index.search", "cabi_post_<same>", "<iface>#[dtor]index",
 *   import module "[export]<iface>", field "[resource-new]index".
 *
 * Memory discipline: the return area and the error message are static (one
 * call at a time: the component model never re-enters an instance). Success
 * payloads are the core's own output buffers, freed in cabi_post_*. Every
 * string handed back is checked to be UTF-8 (lifting invalid UTF-8 would trap
 * the host); error messages, which the core cuts at 511 bytes and may cut
 * inside a character, are repaired in place.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "toolsift.h"

#define IFACE "toolsift:toolsift/engine@0.1.0"
#define EXPORT(name) __attribute__((export_name(name), visibility("default")))
#define EXPORT_FN(fn) EXPORT(IFACE "#" fn)
#define EXPORT_POST(fn) EXPORT("cabi_post_" IFACE "#" fn)

__attribute__((import_module("[export]" IFACE), import_name("[resource-new]index")))
extern int32_t tsift_cm_index_new_handle(int32_t rep);
__attribute__((import_module("[export]" IFACE), import_name("[resource-new]session")))
extern int32_t tsift_cm_session_new_handle(int32_t rep);

/* The WIT error-code enum lists tsift_status in order, without ok. */
_Static_assert(TSIFT_E_ARG == 1 && TSIFT_E_DIVERGED == 10,
               "error-code in wasm/toolsift.wit mirrors tsift_status: update both");

/* ---- memory ------------------------------------------------------------ */

/* The canonical ABI's allocator. Size 0 needs no memory: any non-zero
 * aligned address will do, and the glue never frees a buffer of length 0.
 * A failed allocation cannot be reported through the ABI (the host writes
 * to whatever comes back), so it traps — the one place the glue does. */
EXPORT("cabi_realloc")
void *cabi_realloc(void *old, size_t old_size, size_t align, size_t new_size) {
  if (new_size == 0) {
    if (old && old_size) free(old);
    return (void *)(uintptr_t)(align ? align : 1);
  }
  void *p = (old && old_size) ? realloc(old, new_size) : malloc(new_size);
  if (!p) __builtin_trap();
  /* malloc aligns to max_align_t (at least 8): all this WIT ever asks for. */
  return p;
}

/* Free a string or list the host passed in (owned by the callee). */
static void drop_param(const void *ptr, size_t len) {
  if (len) free((void *)ptr);
}

/* ---- results ------------------------------------------------------------ */

static uint32_t ret_area[4] __attribute__((aligned(8)));
static tsift_error last_err;

/* Length of the longest UTF-8 prefix of s[0..len). */
static size_t utf8_valid_prefix(const unsigned char *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    unsigned c = s[i];
    size_t n;
    unsigned min;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3, min = 0x10000;
    } else {
      return i;
    }
    if (len - i <= n) return i;
    unsigned cp = c & (0x3Fu >> n);
    for (size_t k = 1; k <= n; k++) {
      unsigned cc = s[i + k];
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n + 1;
  }
  return i;
}

static int is_utf8(const char *s, size_t len) {
  return utf8_valid_prefix((const unsigned char *)s, len) == len;
}

/* An error in the return area; the message lives in last_err. */
static int32_t ret_error(tsift_status status) {
  unsigned code = (status >= TSIFT_E_ARG && status <= TSIFT_E_TAMPERED) ? (unsigned)status - 1 : 0;
  char *m = last_err.message;
  m[TSIFT_ERROR_MESSAGE_MAX - 1] = '\0';
  size_t len = strlen(m);
  /* Replace every byte that does not start a valid character with '?'. */
  for (size_t i = 0; i < len;) {
    size_t ok = utf8_valid_prefix((unsigned char *)m + i, len - i);
    i += ok;
    if (i < len) m[i++] = '?';
  }
  ret_area[0] = 1;
  ret_area[1] = code;
  ret_area[2] = (uint32_t)(uintptr_t)m;
  ret_area[3] = (uint32_t)len;
  return (int32_t)(uintptr_t)ret_area;
}

static int32_t ret_error_msg(tsift_status status, const char *msg) {
  last_err.status = status;
  strncpy(last_err.message, msg, TSIFT_ERROR_MESSAGE_MAX - 1);
  return ret_error(status);
}

/* result<string | list<u8> | _, error> from a core call that filled
 * (bytes, len) or last_err. `text`: the payload is a WIT string. */
static int32_t ret_bytes(tsift_status st, char *bytes, size_t len, int text, const char *what) {
  if (st != TSIFT_OK) {
    tsift_free(bytes);
    return ret_error(st);
  }
  if (text && !is_utf8(bytes, len)) {
    tsift_free(bytes);
    last_err.status = TSIFT_E_UTF8;
    strcpy(last_err.message, "the core's ");
    strncat(last_err.message, what, 64);
    strcat(last_err.message, " output is not valid UTF-8");
    return ret_error(TSIFT_E_UTF8);
  }
  ret_area[0] = 0;
  ret_area[1] = (uint32_t)(uintptr_t)bytes;
  ret_area[2] = (uint32_t)len;
  ret_area[3] = 0;
  return (int32_t)(uintptr_t)ret_area;
}

static int32_t ret_unit(tsift_status st) {
  if (st != TSIFT_OK) return ret_error(st);
  memset(ret_area, 0, sizeof ret_area);
  return (int32_t)(uintptr_t)ret_area;
}

static int32_t ret_handle(int32_t handle) {
  ret_area[0] = 0;
  ret_area[1] = (uint32_t)handle;
  ret_area[2] = ret_area[3] = 0;
  return (int32_t)(uintptr_t)ret_area;
}

/* cabi_post_* of every result<string | list<u8> | _, error>: an ok payload
 * is a core buffer (0 for result<_, error>); an error message is static. */
static void post_result(int32_t area) {
  uint32_t *r = (uint32_t *)(uintptr_t)area;
  if (r[0] == 0 && r[1]) tsift_free((void *)(uintptr_t)r[1]);
  r[1] = 0;
}

/* ---- index -------------------------------------------------------------- */

/* The rep of an index handle: the core index and its fingerprint, read once
 * from the info JSON (the C API has no fingerprint accessor). */
typedef struct cm_index {
  tsift_index *ix;
  char fingerprint[65];
} cm_index;

/* ---- the table: wasm/exports.def ---------------------------------------- */

#define INDEX(self) (((cm_index *)(uintptr_t)(self))->ix)
#define SESSION(self) ((tsift_session *)(uintptr_t)(self))

/* Every TSIFT_CM_* line declares its core export (the definition inherits
 * the attribute); BYTES lines get their body, and both BYTES and OWN_POST
 * their cabi_post_ export. The module's TSIFT_WASM_* lines are wasm/abi.c's. */
#define TSIFT_CM_POST(wit, cname) \
  EXPORT_POST(wit) void cname##_post(int32_t area) { post_result(area); }

#define TSIFT_CM_OWN(wit, cname, ret, params) EXPORT_FN(wit) ret cname params;

#define TSIFT_CM_OWN_POST(wit, cname, params) \
  EXPORT_FN(wit) int32_t cname params;        \
  TSIFT_CM_POST(wit, cname)

#define TSIFT_CM_BYTES(wit, cname, call, text, what)  \
  EXPORT_FN(wit) int32_t cname(int32_t self) {        \
    char *out = NULL;                                 \
    size_t out_len = 0;                               \
    tsift_status st = call;                           \
    return ret_bytes(st, out, out_len, text, what);   \
  }                                                   \
  TSIFT_CM_POST(wit, cname)

#define TSIFT_WASM_OWN(name, ret, params)
#define TSIFT_WASM_BYTES(name, params, call)
#define TSIFT_WASM_UNIT(name, params, call)
#define TSIFT_WASM_HANDLE(name, params, type, call)

#include "exports.def"

#undef TSIFT_WASM_OWN
#undef TSIFT_WASM_BYTES
#undef TSIFT_WASM_UNIT
#undef TSIFT_WASM_HANDLE

/* ---- version ------------------------------------------------------------ */

int32_t tsift_cm_version(void) {
  const char *v = tsift_version();
  ret_area[0] = (uint32_t)(uintptr_t)v;
  ret_area[1] = (uint32_t)strlen(v);
  return (int32_t)(uintptr_t)ret_area;
}

/* ---- index: the hand-written methods ------------------------------------ */

static tsift_status read_fingerprint(cm_index *c) {
  char *info = NULL;
  size_t len = 0;
  tsift_status st = tsift_index_info_json(c->ix, &info, &len, &last_err);
  if (st != TSIFT_OK) return st;
  static const char key[] = "\"fingerprint\":\"";
  const char *p = NULL;
  for (size_t i = 0; i + sizeof key - 1 + 64 <= len; i++) {
    if (memcmp(info + i, key, sizeof key - 1) == 0) {
      p = info + i + sizeof key - 1;
      break;
    }
  }
  if (p) memcpy(c->fingerprint, p, 64);
  c->fingerprint[p ? 64 : 0] = '\0';
  tsift_free(info);
  return TSIFT_OK;
}

/* constructor(source: source) -> result<index, error>
 * source: disc 0 = catalog {json, options: option<string>} (a..e),
 *         disc 1 = snapshot list<u8> (a, b). */
int32_t tsift_cm_index_ctor(int32_t disc, int32_t a, int32_t b, int32_t c, int32_t d, int32_t e) {
  const char *p1 = (const char *)(uintptr_t)a;
  size_t n1 = (size_t)(uint32_t)b;
  const char *opt = (disc == 0 && c == 1) ? (const char *)(uintptr_t)d : NULL;
  size_t opt_len = opt ? (size_t)(uint32_t)e : 0;
  tsift_index *ix = NULL;
  tsift_status st;
  if (disc == 0) {
    st = tsift_index_build(p1, n1, opt_len ? opt : NULL, opt_len, &ix, &last_err);
  } else {
    st = tsift_index_from_snapshot(p1, n1, &ix, &last_err);
  }
  drop_param(p1, n1);
  drop_param(opt, opt_len);
  if (st != TSIFT_OK) return ret_error(st);
  cm_index *ci = malloc(sizeof *ci);
  if (!ci) {
    tsift_index_free(ix);
    return ret_error_msg(TSIFT_E_NOMEM, "out of memory creating the index resource");
  }
  ci->ix = ix;
  st = read_fingerprint(ci);
  if (st != TSIFT_OK) {
    tsift_index_free(ix);
    free(ci);
    return ret_error(st);
  }
  return ret_handle(tsift_cm_index_new_handle((int32_t)(uintptr_t)ci));
}

void tsift_cm_index_dtor(int32_t rep) {
  cm_index *ci = (cm_index *)(uintptr_t)rep;
  if (!ci) return;
  tsift_index_free(ci->ix);
  free(ci);
}

/* Options JSON for tsift_index_search_json: {"limit":N,"explain":true}. */
static size_t search_options(char *buf, size_t cap, int has_limit, uint32_t limit, int explain) {
  char digits[12];
  size_t nd = 0;
  uint32_t v = limit;
  do {
    digits[nd++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  size_t n = 0;
  buf[n++] = '{';
  if (has_limit) {
    memcpy(buf + n, "\"limit\":", 8);
    n += 8;
    while (nd) buf[n++] = digits[--nd];
  }
  if (explain) {
    if (has_limit) buf[n++] = ',';
    memcpy(buf + n, "\"explain\":true", 14);
    n += 14;
  }
  buf[n++] = '}';
  (void)cap;
  return n;
}

/* search(query: string, options: {limit: option<u32>, explain: bool}) */
int32_t tsift_cm_index_search(int32_t self, int32_t q, int32_t q_len, int32_t has_limit,
                              int32_t limit, int32_t explain) {
  cm_index *ci = (cm_index *)(uintptr_t)self;
  char opt[48];
  size_t opt_len = search_options(opt, sizeof opt, has_limit == 1, (uint32_t)limit, explain != 0);
  char *out = NULL;
  size_t out_len = 0;
  tsift_status st = tsift_index_search_json(ci->ix, (const char *)(uintptr_t)q, (size_t)(uint32_t)q_len,
                                            opt_len > 2 ? opt : NULL, opt_len > 2 ? opt_len : 0, &out,
                                            &out_len, &last_err);
  drop_param((const void *)(uintptr_t)q, (size_t)(uint32_t)q_len);
  return ret_bytes(st, out, out_len, 1, "search");
}

int32_t tsift_cm_index_rank(int32_t self, int32_t p, int32_t len, int32_t k) {
  cm_index *ci = (cm_index *)(uintptr_t)self;
  char *out = NULL;
  size_t out_len = 0;
  tsift_status st = tsift_index_rank_jsonl(ci->ix, (const char *)(uintptr_t)p, (size_t)(uint32_t)len,
                                           (unsigned)k, &out, &out_len, &last_err);
  drop_param((const void *)(uintptr_t)p, (size_t)(uint32_t)len);
  return ret_bytes(st, out, out_len, 1, "rank");
}

/* fingerprint() -> string: points into the rep, which outlives the call. */
int32_t tsift_cm_index_fingerprint(int32_t self) {
  cm_index *ci = (cm_index *)(uintptr_t)self;
  ret_area[0] = (uint32_t)(uintptr_t)ci->fingerprint;
  ret_area[1] = (uint32_t)strlen(ci->fingerprint);
  return (int32_t)(uintptr_t)ret_area;
}

/* ---- session ------------------------------------------------------------ */

static const char *const DIVERGENCE[] = {"fail", "warn", "off"};

/* The session options {"divergence"[, "journalKey"]} into opt; 0 when the
 * key is not lowercase hex of at most 128 digits (the core checks the rest). */
static int session_options(char opt[200], int32_t divergence, int32_t has_k, int32_t k, int32_t k_len) {
  const char *key = has_k == 1 ? (const char *)(uintptr_t)k : NULL;
  size_t n = key ? (size_t)(uint32_t)k_len : 0;
  int ok = n <= 128;
  for (size_t i = 0; ok && i < n; i++) ok = (key[i] >= '0' && key[i] <= '9') || (key[i] >= 'a' && key[i] <= 'f');
  const char *d = DIVERGENCE[(uint32_t)divergence < 3 ? divergence : 0];
  size_t o = 0;
#define PUT(text, len) (memcpy(opt + o, (text), (len)), o += (len))
  PUT("{\"divergence\":\"", 15);
  PUT(d, strlen(d));
  PUT("\"", 1);
  if (key && ok) {
    PUT(",\"journalKey\":\"", 15);
    PUT(key, n);
    PUT("\"", 1);
  }
  PUT("}", 2); /* with the NUL */
#undef PUT
  drop_param(key, n);
  return ok;
}

static int32_t session_result(tsift_status st, tsift_session *s) {
  if (st != TSIFT_OK) return ret_error(st);
  return ret_handle(tsift_cm_session_new_handle((int32_t)(uintptr_t)s));
}

/* The two session constructors' one body: the configuration, with a
 * snapshot (from_snapshot) or without (its catalog), the journal (some("")
 * is an empty journal, replay nothing; none is a live run: the C API's
 * meaning, as in the JS binding), the options from divergence and
 * journal-key; every parameter is dropped whatever the outcome. */
static int32_t session_open(int32_t cfg, int32_t cfg_len, int from_snapshot, int32_t snap, int32_t snap_len,
                            int32_t has_j, int32_t j, int32_t j_len, int32_t divergence, int32_t has_k, int32_t k,
                            int32_t k_len) {
  const char *cp = (const char *)(uintptr_t)cfg, *sp = (const char *)(uintptr_t)snap;
  size_t cn = (size_t)(uint32_t)cfg_len, sn = (size_t)(uint32_t)snap_len;
  const char *jp = has_j == 1 ? (const char *)(uintptr_t)j : NULL;
  size_t jn = jp ? (size_t)(uint32_t)j_len : 0;
  const char *journal = jp ? (jn ? jp : "") : NULL;
  char opt[200];
  tsift_session *s = NULL;
  int ok = session_options(opt, divergence, has_k, k, k_len);
  tsift_status st = TSIFT_OK;
  if (ok && from_snapshot) {
    st = tsift_session_new_from_snapshot(cp, cn, sp, sn, journal, jn, opt, strlen(opt), &s, &last_err);
  } else if (ok) {
    st = tsift_session_new(cp, cn, journal, jn, opt, strlen(opt), &s, &last_err);
  }
  drop_param(cp, cn);
  if (from_snapshot) drop_param(sp, sn);
  drop_param(jp, jn);
  if (!ok) return ret_error_msg(TSIFT_E_CONFIG, "journal-key: expected lowercase hex digits");
  return session_result(st, s);
}

/* constructor(config: string, journal: option<string>, divergence: divergence,
 * journal-key: option<string>) */
int32_t tsift_cm_session_ctor(int32_t cfg, int32_t cfg_len, int32_t has_j, int32_t j, int32_t j_len,
                              int32_t divergence, int32_t has_k, int32_t k, int32_t k_len) {
  return session_open(cfg, cfg_len, 0, 0, 0, has_j, j, j_len, divergence, has_k, k, k_len);
}

/* from-snapshot(config: string, snapshot: list<u8>, journal: option<string>, divergence,
 * journal-key: option<string>) */
int32_t tsift_cm_session_from_snapshot(int32_t cfg, int32_t cfg_len, int32_t snap, int32_t snap_len,
                                       int32_t has_j, int32_t j, int32_t j_len, int32_t divergence, int32_t has_k,
                                       int32_t k, int32_t k_len) {
  return session_open(cfg, cfg_len, 1, snap, snap_len, has_j, j, j_len, divergence, has_k, k, k_len);
}

void tsift_cm_session_dtor(int32_t rep) {
  tsift_session_free((tsift_session *)(uintptr_t)rep);
}

int32_t tsift_cm_session_call(int32_t self, int32_t turn, int32_t call, int32_t tool, int32_t tool_len,
                              int32_t args, int32_t args_len) {
  char *out = NULL;
  size_t out_len = 0;
  tsift_status st = tsift_session_call(SESSION(self), (uint32_t)turn, (uint32_t)call,
                                       (const char *)(uintptr_t)tool, (size_t)(uint32_t)tool_len,
                                       (const char *)(uintptr_t)args, (size_t)(uint32_t)args_len, &out,
                                       &out_len, &last_err);
  drop_param((const void *)(uintptr_t)tool, (size_t)(uint32_t)tool_len);
  drop_param((const void *)(uintptr_t)args, (size_t)(uint32_t)args_len);
  return ret_bytes(st, out, out_len, 1, "session call");
}

int32_t tsift_cm_session_menu(int32_t self, int32_t format) {
  static const char *const FORMATS[] = {"mcp", "openai", "anthropic"};
  if ((uint32_t)format >= 3) return ret_error_msg(TSIFT_E_ARG, "menu: unknown format");
  char *out = NULL;
  size_t out_len = 0;
  tsift_status st = tsift_session_menu_json(SESSION(self), FORMATS[format], &out, &out_len, &last_err);
  return ret_bytes(st, out, out_len, 1, "menu");
}

int32_t tsift_cm_session_apply_journal(int32_t self) {
  return ret_unit(tsift_session_apply_journal(SESSION(self), &last_err));
}

/* A kind as a NUL-terminated copy (the C API takes a C string); *bad is set
 * when the copy failed or the kind holds a NUL byte. */
static char *kind_cstr(int32_t has, int32_t p, int32_t len, int *bad) {
  *bad = 0;
  if (has != 1) return NULL;
  const char *s = (const char *)(uintptr_t)p;
  size_t n = (size_t)(uint32_t)len;
  char *c = malloc(n + 1);
  if (!c || memchr(s, '\0', n)) {
    *bad = c ? 1 : 2;
    free(c);
    drop_param(s, n);
    return NULL;
  }
  memcpy(c, s, n);
  c[n] = '\0';
  drop_param(s, n);
  return c;
}

typedef tsift_status (*set_ranker_fn)(tsift_session *, const char *, tsift_rank_fn, void *,
                                      tsift_error *);

static int32_t set_ranker(set_ranker_fn fn, int32_t self, int32_t has, int32_t p, int32_t len) {
  int bad = 0;
  char *kind = kind_cstr(has, p, len, &bad);
  if (bad == 1) return ret_error_msg(TSIFT_E_ARG, "ranker kind: contains a NUL byte");
  if (bad == 2) return ret_error_msg(TSIFT_E_NOMEM, "ranker kind: out of memory");
  tsift_status st = fn(SESSION(self), kind, NULL, NULL, &last_err);
  free(kind);
  return ret_unit(st);
}

int32_t tsift_cm_session_set_ranker(int32_t self, int32_t has, int32_t p, int32_t len) {
  return set_ranker(tsift_session_set_ranker, self, has, p, len);
}

int32_t tsift_cm_session_set_skill_ranker(int32_t self, int32_t has, int32_t p, int32_t len) {
  return set_ranker(tsift_session_set_skill_ranker, self, has, p, len);
}

int32_t tsift_cm_session_ranked(int32_t self, int32_t has, int32_t p, int32_t len) {
  const char *ids = has == 1 ? (const char *)(uintptr_t)p : NULL;
  size_t n = ids ? (size_t)(uint32_t)len : 0;
  char *out = NULL;
  size_t out_len = 0;
  tsift_status st = tsift_session_ranked(SESSION(self), ids ? (n ? ids : "") : NULL, n, &out,
                                         &out_len, &last_err);
  drop_param(ids, n);
  return ret_bytes(st, out, out_len, 1, "ranked");
}
