/*
 * abi.c — the WebAssembly export surface of toolsift (the only file that
 * knows about linear-memory pointers).
 *
 * The ABI is deliberately small and JSON-in/JSON-out. Its exports are listed
 * in wasm/exports.def, one line each, with the ABI's conventions (the `out`
 * slots, error JSON, who frees what); this file includes that table to
 * generate every export's attribute and prototype, and the bodies of the
 * common shapes (BYTES, UNIT, HANDLE). The bodies of the OWN lines are
 * written by hand below.
 */
#include <string.h>

#include "toolsift.h"
#include "base/alloc.h"
#include "index/index.h"
#include "json/json_out.h"
#include "model/static_model.h"

static void put_out(uint32_t *out, const void *ptr, size_t len) {
  out[0] = (uint32_t)(uintptr_t)ptr;
  out[1] = (uint32_t)len;
}

/* Turn a failed call into an error JSON in the out slots. */
static int32_t fail(uint32_t *out, const tsift_error *err) {
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_json_begin_object(&b);
  tsift_json_key(&b, "status");
  tsift_json_int(&b, (long long)err->status);
  tsift_json_key(&b, "code");
  tsift_json_cstr(&b, tsift_status_name(err->status));
  tsift_json_key(&b, "message");
  tsift_json_cstr(&b, err->message);
  tsift_json_end_object(&b);
  size_t len = 0;
  char *bytes = tsift_buf_take(&b, &len);
  put_out(out, bytes, bytes ? len : 0);
  return (int32_t)err->status;
}

static int32_t finish(uint32_t *out, tsift_status st, char *bytes, size_t len,
                      const tsift_error *err) {
  if (st != TSIFT_OK) return fail(out, err);
  put_out(out, bytes, len);
  return 0;
}

/* Grow the heap once before a big build or load. The allocator otherwise
 * grows linear memory a little at a time, and in JS engines every
 * memory.grow costs a garbage collection of the host heap (measured: a
 * 40k-tool build spent half its time there). A block of `factor` × the input
 * is allocated and freed; the allocator keeps it for what follows. When it
 * cannot be had, nothing happens: the build grows memory as it goes. */
static void reserve_heap(size_t input_len, size_t factor) {
  if (input_len < (1u << 20)) return; /* small inputs: not worth it */
  size_t want = input_len > SIZE_MAX / factor ? SIZE_MAX : input_len * factor;
  void *block = tsift_alloc_bytes(want);
  tsift_free(block);
}

/* ---- the table: wasm/exports.def -------------------------------------- */

/* Every line declares its export (the attribute goes on the prototype and
 * the definition inherits it); the three common shapes also get their body. */
#define TSIFT_WASM_EXPORT(name) \
  __attribute__((export_name("tsift_wasm_" #name), visibility("default")))

#define TSIFT_WASM_OWN(name, ret, params) TSIFT_WASM_EXPORT(name) ret tsift_wasm_##name params;

#define TSIFT_WASM_BYTES(name, params, call)                   \
  TSIFT_WASM_EXPORT(name) int32_t tsift_wasm_##name params {   \
    tsift_error err;                                           \
    char *bytes = NULL;                                        \
    size_t bytes_len = 0;                                      \
    tsift_status status = call;                                \
    return finish(out, status, bytes, bytes_len, &err);        \
  }

#define TSIFT_WASM_UNIT(name, params, call)                    \
  TSIFT_WASM_EXPORT(name) int32_t tsift_wasm_##name params {   \
    tsift_error err;                                           \
    tsift_status status = call;                                \
    return finish(out, status, NULL, 0, &err);                 \
  }

#define TSIFT_WASM_HANDLE(name, params, type, call)            \
  TSIFT_WASM_EXPORT(name) int32_t tsift_wasm_##name params {   \
    tsift_error err;                                           \
    type *handle = NULL;                                       \
    tsift_status status = call;                                \
    if (status != TSIFT_OK) return fail(out, &err);            \
    put_out(out, handle, 0);                                   \
    return 0;                                                  \
  }

/* The component's lines (wasm/component.c) */
#define TSIFT_CM_OWN(wit, cname, ret, params)
#define TSIFT_CM_OWN_POST(wit, cname, params)
#define TSIFT_CM_BYTES(wit, cname, call, text, what)

#include "exports.def"

#undef TSIFT_CM_OWN
#undef TSIFT_CM_OWN_POST
#undef TSIFT_CM_BYTES
#undef TSIFT_WASM_OWN
#undef TSIFT_WASM_BYTES
#undef TSIFT_WASM_UNIT
#undef TSIFT_WASM_HANDLE

/* ---- the OWN exports ---------------------------------------------------- */

void *tsift_wasm_alloc(size_t size) { return tsift_alloc_bytes(size ? size : 1); }

void tsift_wasm_free(void *ptr) { tsift_free(ptr); }

const char *tsift_wasm_version(void) { return tsift_version(); }

int32_t tsift_wasm_index_new(const char *cat, size_t cat_len, const char *opt, size_t opt_len,
                             uint32_t *out) {
  tsift_error err;
  tsift_index *index = NULL;
  reserve_heap(cat_len, 4);
  tsift_status st = tsift_index_build(cat, cat_len, opt_len ? opt : NULL, opt_len, &index, &err);
  if (st != TSIFT_OK) return fail(out, &err);
  put_out(out, index, 0);
  return 0;
}

void tsift_wasm_index_free(tsift_index *index) { tsift_index_free(index); }

void tsift_wasm_session_free(tsift_session *s) { tsift_session_free(s); }

/* tsift_session_open, the one way the binding opens a session: `cat` is
 * the bytes of the catalog file the configuration names and `snap` a
 * snapshot, each ptr 0 when there is none (a zero-length buffer is an empty
 * file); without either the catalog is the configuration's own. Slot 0 is
 * the handle. */
int32_t tsift_wasm_session_open(const char *cfg, size_t cfg_len, const char *cat, size_t cat_len,
                                const char *snap, size_t snap_len, const char *journal,
                                size_t journal_len, const char *opt, size_t opt_len, uint32_t *out) {
  tsift_error err;
  tsift_session *s = NULL;
  /* A session's index takes more memory per catalog byte than the factor 4
   * of index_new reserves (236 MB for a 13 MB catalog of 160k small tools):
   * 8 cut the wasm CLI's `session menu` over it from 4.4 s to 3.2 s of CPU
   * (fewer memory.grow calls, each a host GC); 12 and 16 gained nothing more. */
  if (!cat && !snap) reserve_heap(cfg_len, 4); /* the catalog is inline */
  else if (cat_len > snap_len) reserve_heap(cat_len, 8);
  else reserve_heap(snap_len, 2);
  tsift_status st = tsift_session_open(cfg, cfg_len, cat, cat_len, snap, snap_len,
                                       journal_len ? journal : NULL, journal_len,
                                       opt_len ? opt : NULL, opt_len, &s, &err);
  if (st != TSIFT_OK) return fail(out, &err);
  put_out(out, s, 0);
  return 0;
}

/* ---- static-embedding models (issue 25) -------------------------------- */

void tsift_wasm_static_model_free(tsift_static_model *m) { tsift_static_model_free(m); }

uint32_t tsift_wasm_static_model_dim(const tsift_static_model *m) {
  return (uint32_t)tsift_static_model_dim(m);
}

const char *tsift_wasm_static_model_id(const tsift_static_model *m) { return tsift_static_model_id(m); }

/* The vector as dim little-endian float32s; (0, 0) for the zero vector
 * (no known token), which the binding returns as null. */
int32_t tsift_wasm_static_model_embed(const tsift_static_model *m, const char *text, size_t len, uint32_t *out) {
  tsift_error err;
  size_t dim = tsift_static_model_dim(m), pooled = 0;
  float *v = tsift_alloc_bytes(dim * sizeof *v);
  if (!v) {
    tsift_nomem(&err, "embedding a text");
    return fail(out, &err);
  }
  tsift_status s = tsift_static_model_embed(m, text, len, v, &pooled, &err);
  if (s != TSIFT_OK || !pooled) {
    tsift_free(v);
    return finish(out, s, NULL, 0, &err);
  }
  return finish(out, s, (char *)v, dim * sizeof *v, &err);
}

/* Slot 0: the number of tools left without a vector. */
int32_t tsift_wasm_index_embed_static(tsift_index *index, const tsift_static_model *m, uint32_t *out) {
  tsift_error err;
  size_t without = 0;
  tsift_status st = tsift_index_embed_static(index, m, &without, &err);
  if (st != TSIFT_OK) return fail(out, &err);
  out[0] = (uint32_t)without;
  out[1] = 0;
  return 0;
}

/* ---- learning (docs/learning.md; the full module only) ---- */

#ifndef TSIFT_WASM_SERVING
void tsift_wasm_learner_free(tsift_learner *l) { tsift_learner_free(l); }
#endif
