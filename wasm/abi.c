/*
 * abi.c — the WebAssembly export surface of toolsift (the only file that
 * knows about linear-memory pointers).
 *
 * The ABI is deliberately small and JSON-in/JSON-out. All pointers and lengths
 * are u32 offsets into linear memory; strings are UTF-8 with explicit length.
 *
 *   tsift_wasm_alloc(size) -> ptr | 0              buffers the host fills
 *   tsift_wasm_free(ptr)                           frees any buffer from either side
 *   tsift_wasm_index_new(cat, cat_len, opt, opt_len, out) -> status
 *   tsift_wasm_index_search(h, q, q_len, opt, opt_len, out) -> status
 *   tsift_wasm_index_rank(h, jsonl, len, k, out) -> status
 *   tsift_wasm_index_info(h, out) -> status
 *   tsift_wasm_index_documents(h, out) -> status
 *   tsift_wasm_analyze(text, len, opt, opt_len, out) -> status
 *   tsift_wasm_index_free(h)
 *   tsift_wasm_version() -> ptr to a NUL-terminated static string
 *   tsift_wasm_session_call(s, turn, call, tool, tool_len, args, args_len, out) -> status
 *   tsift_wasm_session_call_failed(s, turn, call, tool, tool_len, out) -> status  (a failed call's record)
 *   tsift_wasm_session_pre_search(s, turn, text, text_len, out) -> status  (the host's search before a turn)
 *   tsift_wasm_journal_key_check(text, len, where_cstr, out) -> status  (the one reader of a journal key)
 *   tsift_wasm_session_config_catalog(cfg, cfg_len, out) -> status  (the catalog file it names)
 *   tsift_wasm_session_open(cfg, cfg_len, cat, cat_len, snap, snap_len, journal, journal_len,
 *                           opt, opt_len, out) -> status  (slot 0: handle; cat, snap: 0 = none)
 *   tsift_wasm_session_call_next(s, calls, len, cursor, out) -> status  (one calls-file line)
 *   tsift_wasm_session_menu(s, format_cstr, out) / _journal(s, out) / _metrics(s, out)
 *   tsift_wasm_session_apply_journal(s, out) / _finish(s, out) -> status
 *   tsift_wasm_session_set_ranker(s, kind_cstr | 0, out) -> status  (two-phase host ranker)
 *   tsift_wasm_session_set_skill_ranker(s, kind_cstr | 0, out) -> status  (two-phase skill ranker)
 *   tsift_wasm_session_ranked(s, ids_json | 0, len, out) -> status
 *   tsift_wasm_session_skill_index(s, out) -> status  (system-prompt text)
 *   tsift_wasm_session_free(s)
 *   tsift_wasm_index_snapshot(h, out) -> status        (out: the snapshot bytes)
 *   tsift_wasm_index_from_snapshot_take(bytes, len, out) -> status (slot 0: handle; takes `bytes` over)
 *   tsift_wasm_index_verify(h, out) -> status         (re-derive a snapshot's fingerprint)
 *   tsift_wasm_eval(cat, cat_len, queries, q_len, opt, opt_len, out) -> status
 *   tsift_wasm_eval_report(json, len, title_cstr, out) -> status
 *   tsift_wasm_eval_vectors(cat, cat_len, queries, q_len, vectors, v_len, opt, opt_len, out) -> status
 *   tsift_wasm_eval_model(cat, cat_len, queries, q_len, model, opt, opt_len, out) -> status
 *   tsift_wasm_index_embed_texts(h, out) -> status     (the text to embed per tool, JSON)
 *   tsift_wasm_index_set_vectors(h, model, model_len, dim, rows_f32, nrows, out) -> status
 *   tsift_wasm_session_set_query_vector(s, vec_f32 | 0, dim, min_similarity, out) -> status
 *   tsift_wasm_session_set_embedder(s, model | 0, min_similarity, out) -> status
 *   tsift_wasm_static_model_load_take(st, st_len, tok, tok_len, flags, out) -> status (slot 0: handle; takes `st` over;
 *     flags: TSIFT_STATIC_SENTENCE_TRANSFORMERS for StaticEmbedding's pooling)
 *   tsift_wasm_static_model_dim(m) -> dim; tsift_wasm_static_model_id(m) -> ptr to a NUL-terminated id
 *   tsift_wasm_static_model_embed(m, text, len, out) -> status  (out: dim float32s, or (0, 0): zero vector)
 *   tsift_wasm_static_model_embed_json(m, text, len, out) -> status
 *   tsift_wasm_static_model_free(m)
 *   tsift_wasm_static_model_configure(m, json, len, out) -> status  (config.json's calibrated fusion parameters)
 *   tsift_wasm_calibrate(cat, cat_len, q, q_len, m, text, out) -> status  (tsift_calibrate_json)
 *   tsift_wasm_index_embed_static(h, m, out) -> status  (slot 0: tools left without a vector)
 *   tsift_wasm_static_model_vector_json(m, text, len, out) -> status  (the search option "vector")
 *   tsift_wasm_learner_new(cat, cat_len, opt, opt_len, out) -> status  (slot 0: handle)
 *   tsift_wasm_learner_add_journal(l, name_cstr, text, len, out) / _add_examples(…) -> status
 *   tsift_wasm_learner_finish(l, out) -> status        (the learned vocabulary JSON)
 *   tsift_wasm_learner_free(l)
 *   tsift_wasm_learn_diff(old, old_len, new, new_len, out) -> status
 *
 * `out` points to two u32 slots the host allocated (8 bytes). On success the
 * function writes (ptr, len) of its output bytes there — for index_new, slot 0
 * is the index handle and slot 1 is 0. On failure (status != 0) it writes
 * (ptr, len) of an error JSON {"status":N,"code":"config","message":"…"}.
 * Every output buffer is the host's to free with tsift_wasm_free.
 * A status of TSIFT_E_NOMEM with (0, 0) in `out` means not even the error
 * message could be allocated.
 */
#include <string.h>

#include "toolsift.h"
#include "alloc.h"
#include "index.h"
#include "json_out.h"
#include "static_model.h"

#define EXPORT(name) __attribute__((export_name(#name), visibility("default")))

EXPORT(tsift_wasm_alloc) void *tsift_wasm_alloc(size_t size) {
  return tsift_alloc_bytes(size ? size : 1);
}

EXPORT(tsift_wasm_free) void tsift_wasm_free(void *ptr) { tsift_free(ptr); }

EXPORT(tsift_wasm_version) const char *tsift_wasm_version(void) { return tsift_version(); }

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

EXPORT(tsift_wasm_index_new)
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

EXPORT(tsift_wasm_index_free) void tsift_wasm_index_free(tsift_index *index) {
  tsift_index_free(index);
}

EXPORT(tsift_wasm_index_search)
int32_t tsift_wasm_index_search(const tsift_index *index, const char *q, size_t q_len,
                                const char *opt, size_t opt_len, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st =
      tsift_index_search_json(index, q, q_len, opt_len ? opt : NULL, opt_len, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_index_rank)
int32_t tsift_wasm_index_rank(const tsift_index *index, const char *jsonl, size_t len, unsigned k,
                              uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t out_len = 0;
  tsift_status st = tsift_index_rank_jsonl(index, jsonl, len, k, &bytes, &out_len, &err);
  return finish(out, st, bytes, out_len, &err);
}

EXPORT(tsift_wasm_index_info)
int32_t tsift_wasm_index_info(const tsift_index *index, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_index_info_json(index, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_index_documents)
int32_t tsift_wasm_index_documents(const tsift_index *index, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_index_documents_json(index, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_analyze)
int32_t tsift_wasm_analyze(const char *text, size_t len, const char *opt, size_t opt_len,
                           uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t out_len = 0;
  tsift_status st =
      tsift_analyze_query_json(text, len, opt_len ? opt : NULL, opt_len, &bytes, &out_len, &err);
  return finish(out, st, bytes, out_len, &err);
}

/* ---- sessions --------------------------------------------------------- */

EXPORT(tsift_wasm_session_free) void tsift_wasm_session_free(tsift_session *s) {
  tsift_session_free(s);
}

EXPORT(tsift_wasm_session_call)
int32_t tsift_wasm_session_call(tsift_session *s, uint32_t turn, uint32_t call, const char *tool,
                                size_t tool_len, const char *args, size_t args_len, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st =
      tsift_session_call(s, turn, call, tool, tool_len, args, args_len, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_session_call_failed)
int32_t tsift_wasm_session_call_failed(tsift_session *s, uint32_t turn, uint32_t call, const char *tool,
                                       size_t tool_len, uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_session_call_failed(s, turn, call, tool, tool_len, &err);
  return finish(out, st, NULL, 0, &err);
}

EXPORT(tsift_wasm_journal_key_check)
int32_t tsift_wasm_journal_key_check(const char *text, size_t len, const char *where, uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_journal_key_check(text, len, where, &err);
  return finish(out, st, NULL, 0, &err);
}

EXPORT(tsift_wasm_session_pre_search)
int32_t tsift_wasm_session_pre_search(tsift_session *s, uint32_t turn, const char *text, size_t len, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t n = 0;
  tsift_status st = tsift_session_pre_search(s, turn, text, len, &bytes, &n, &err);
  return finish(out, st, bytes, n, &err);
}

/* format: "mcp" | "openai" | "anthropic" (NUL-terminated by the host). */
EXPORT(tsift_wasm_session_menu)
int32_t tsift_wasm_session_menu(const tsift_session *s, const char *format, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_session_menu_json(s, format, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_session_journal)
int32_t tsift_wasm_session_journal(const tsift_session *s, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_session_journal_jsonl(s, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_session_verify)
int32_t tsift_wasm_session_verify(const tsift_session *s, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_session_verify_json(s, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_session_metrics)
int32_t tsift_wasm_session_metrics(const tsift_session *s, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_session_metrics_json(s, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_session_apply_journal)
int32_t tsift_wasm_session_apply_journal(tsift_session *s, uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_session_apply_journal(s, &err);
  return finish(out, st, NULL, 0, &err);
}

EXPORT(tsift_wasm_session_finish)
int32_t tsift_wasm_session_finish(tsift_session *s, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_session_finish(s, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

/* Two-phase host ranker (the JS function ranks between the two calls).
 * kind: NUL-terminated, or 0 to restore BM25F. */
EXPORT(tsift_wasm_session_set_ranker)
int32_t tsift_wasm_session_set_ranker(tsift_session *s, const char *kind, uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_session_set_ranker(s, kind, NULL, NULL, &err);
  return finish(out, st, NULL, 0, &err);
}

/* The same for skills (discovery "search" or "both"). */
EXPORT(tsift_wasm_session_set_skill_ranker)
int32_t tsift_wasm_session_set_skill_ranker(tsift_session *s, const char *kind, uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_session_set_skill_ranker(s, kind, NULL, NULL, &err);
  return finish(out, st, NULL, 0, &err);
}

EXPORT(tsift_wasm_session_skill_index)
int32_t tsift_wasm_session_skill_index(const tsift_session *s, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_session_skill_index(s, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

/* ids: a JSON array of tool (or skill) ids, or ptr 0 when the host ranker failed. */
EXPORT(tsift_wasm_session_ranked)
int32_t tsift_wasm_session_ranked(tsift_session *s, const char *ids, size_t len, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t out_len = 0;
  tsift_status st = tsift_session_ranked(s, ids, len, &bytes, &out_len, &err);
  return finish(out, st, bytes, out_len, &err);
}

/* ---- snapshots -------------------------------------------------------- */

EXPORT(tsift_wasm_index_snapshot)
int32_t tsift_wasm_index_snapshot(const tsift_index *index, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_index_snapshot(index, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

/* Load a snapshot the host copied into a tsift_wasm_alloc buffer. The module
 * takes `bytes` over: the index keeps them (no second copy of the whole
 * snapshot), or they are freed when loading fails; the caller must not free
 * them. On success slot 0 is the index handle (as for index_new). */
EXPORT(tsift_wasm_index_from_snapshot_take)
int32_t tsift_wasm_index_from_snapshot_take(char *bytes, size_t len, uint32_t *out) {
  tsift_error err;
  tsift_index *index = NULL;
  tsift_status st = tsift_index_from_snapshot_take(bytes, len, &index, &err);
  if (st != TSIFT_OK) return fail(out, &err);
  put_out(out, index, 0);
  return 0;
}

/* Re-derive a loaded index's fingerprint (slot 0: nothing on success). */
EXPORT(tsift_wasm_index_verify)
int32_t tsift_wasm_index_verify(const tsift_index *index, uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_index_verify(index, &err);
  if (st != TSIFT_OK) return fail(out, &err);
  put_out(out, NULL, 0);
  return 0;
}

/* ---- relevance evaluation --------------------------------------------- */

EXPORT(tsift_wasm_eval)
int32_t tsift_wasm_eval(const char *catalog, size_t catalog_len, const char *queries,
                        size_t queries_len, const char *opt, size_t opt_len, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_eval_json(catalog, catalog_len, queries, queries_len, opt_len ? opt : NULL,
                                    opt_len, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_eval_vectors)
int32_t tsift_wasm_eval_vectors(const char *catalog, size_t catalog_len, const char *queries, size_t queries_len,
                                const char *vectors, size_t vectors_len, const char *opt, size_t opt_len,
                                uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_eval_vectors_json(catalog, catalog_len, queries, queries_len, vectors_len ? vectors : NULL,
                                            vectors_len, opt_len ? opt : NULL, opt_len, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_eval_model)
int32_t tsift_wasm_eval_model(const char *catalog, size_t catalog_len, const char *queries, size_t queries_len,
                              const tsift_static_model *model, const char *opt, size_t opt_len, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_eval_model_json(catalog, catalog_len, queries, queries_len, model, opt_len ? opt : NULL,
                                          opt_len, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

/* ---- vectors ---------------------------------------------------------- */

EXPORT(tsift_wasm_index_embed_texts)
int32_t tsift_wasm_index_embed_texts(const tsift_index *index, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_index_embed_texts_json(index, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

/* rows: nrows x dim float32 (4-aligned: the allocator's). */
EXPORT(tsift_wasm_index_set_vectors)
int32_t tsift_wasm_index_set_vectors(tsift_index *index, const char *model, size_t model_len, uint32_t dim,
                                     const float *rows, size_t nrows, uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_index_set_vectors(index, model, model_len, dim, rows, nrows, &err);
  return finish(out, st, NULL, 0, &err);
}

EXPORT(tsift_wasm_session_set_query_vector)
int32_t tsift_wasm_session_set_query_vector(tsift_session *s, const float *vec, uint32_t dim, double min_similarity,
                                            uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_session_set_query_vector(s, vec, dim, min_similarity, &err);
  return finish(out, st, NULL, 0, &err);
}

EXPORT(tsift_wasm_session_set_embedder)
int32_t tsift_wasm_session_set_embedder(tsift_session *s, const tsift_static_model *model, double min_similarity,
                                        uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_session_set_embedder(s, model, min_similarity, &err);
  return finish(out, st, NULL, 0, &err);
}

/* title: NUL-terminated. */
EXPORT(tsift_wasm_eval_report)
int32_t tsift_wasm_eval_report(const char *eval_json, size_t len, const char *title, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t out_len = 0;
  tsift_status st = tsift_eval_report(eval_json, len, title, &bytes, &out_len, &err);
  return finish(out, st, bytes, out_len, &err);
}

/* ---- opening a session ---------------------------------------------------- */

/* The catalog file a configuration names: (ptr, len) of the name, or (0, 0)
 * when it names none (an empty name is a non-zero ptr with length 0). */
EXPORT(tsift_wasm_session_config_catalog)
int32_t tsift_wasm_session_config_catalog(const char *cfg, size_t cfg_len, uint32_t *out) {
  tsift_error err;
  char *file = NULL;
  size_t len = 0;
  tsift_status st = tsift_session_config_catalog(cfg, cfg_len, &file, &len, &err);
  return finish(out, st, file, len, &err);
}

/* tsift_session_open, the one way the binding opens a session: `cat` is
 * the bytes of the catalog file the configuration names and `snap` a
 * snapshot, each ptr 0 when there is none (a zero-length buffer is an empty
 * file); without either the catalog is the configuration's own. Slot 0 is
 * the handle. */
EXPORT(tsift_wasm_session_open)
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

/* tsift_session_call_next: `cursor` is two u32 slots (byte position, line
 * number; both 0 to start) that the host keeps between calls and the call
 * advances. Output as for session_call; (0, 0) at the end of the file. */
EXPORT(tsift_wasm_session_call_next)
int32_t tsift_wasm_session_call_next(tsift_session *s, const char *calls, size_t len, size_t *cursor,
                                     uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t out_len = 0;
  tsift_status st =
      tsift_session_call_next(s, calls, len, &cursor[0], &cursor[1], &bytes, &out_len, &err);
  return finish(out, st, bytes, out_len, &err);
}

/* ---- static-embedding models (issue 25) -------------------------------- */

/* The module takes `st` over (a tsift_wasm_alloc buffer the host filled):
 * the model reads its matrix in place, or it is freed when loading fails;
 * the caller must not free it. */
EXPORT(tsift_wasm_static_model_load_take)
int32_t tsift_wasm_static_model_load_take(uint8_t *st, size_t st_len, const char *tok, size_t tok_len, uint32_t flags,
                                          uint32_t *out) {
  tsift_error err;
  tsift_static_model *m = NULL;
  tsift_status s = tsift_static_model_load_take_flags(st, st_len, tok, tok_len, flags, &m, &err);
  if (s != TSIFT_OK) return fail(out, &err);
  put_out(out, m, 0);
  return 0;
}

EXPORT(tsift_wasm_static_model_configure)
int32_t tsift_wasm_static_model_configure(tsift_static_model *m, const char *json, size_t len, uint32_t *out) {
  tsift_error err;
  return finish(out, tsift_static_model_configure(m, json, len, &err), NULL, 0, &err);
}

EXPORT(tsift_wasm_calibrate)
int32_t tsift_wasm_calibrate(const char *catalog, size_t catalog_len, const char *queries, size_t queries_len,
                             const tsift_static_model *model, int32_t text, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_calibrate_json(catalog, catalog_len, queries_len ? queries : NULL, queries_len, model,
                                         text, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_static_model_free) void tsift_wasm_static_model_free(tsift_static_model *m) {
  tsift_static_model_free(m);
}

EXPORT(tsift_wasm_static_model_dim) uint32_t tsift_wasm_static_model_dim(const tsift_static_model *m) {
  return (uint32_t)tsift_static_model_dim(m);
}

EXPORT(tsift_wasm_static_model_id) const char *tsift_wasm_static_model_id(const tsift_static_model *m) {
  return tsift_static_model_id(m);
}

/* The vector as dim little-endian float32s; (0, 0) for the zero vector
 * (no known token), which the binding returns as null. */
EXPORT(tsift_wasm_static_model_embed)
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

EXPORT(tsift_wasm_static_model_embed_json)
int32_t tsift_wasm_static_model_embed_json(const tsift_static_model *m, const char *text, size_t len,
                                           uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t out_len = 0;
  tsift_status s = tsift_static_model_embed_json(m, text, len, &bytes, &out_len, &err);
  return finish(out, s, bytes, out_len, &err);
}

EXPORT(tsift_wasm_index_embed_static)
int32_t tsift_wasm_index_embed_static(tsift_index *index, const tsift_static_model *m, uint32_t *out) {
  tsift_error err;
  size_t without = 0;
  tsift_status st = tsift_index_embed_static(index, m, &without, &err);
  if (st != TSIFT_OK) return fail(out, &err);
  out[0] = (uint32_t)without;
  out[1] = 0;
  return 0;
}

EXPORT(tsift_wasm_static_model_vector_json)
int32_t tsift_wasm_static_model_vector_json(const tsift_static_model *m, const char *text, size_t len,
                                            uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t out_len = 0;
  tsift_status s = tsift_static_model_vector_json(m, text, len, &bytes, &out_len, &err);
  return finish(out, s, bytes, out_len, &err);
}

/* ---- learning (docs/learning.md) ---- */

EXPORT(tsift_wasm_learner_new)
int32_t tsift_wasm_learner_new(const char *cat, size_t cat_len, const char *opt, size_t opt_len, uint32_t *out) {
  tsift_error err;
  tsift_learner *l = NULL;
  tsift_status st = tsift_learner_new(cat, cat_len, opt_len ? opt : NULL, opt_len, &l, &err);
  if (st != TSIFT_OK) return fail(out, &err);
  put_out(out, l, 0);
  return 0;
}

EXPORT(tsift_wasm_learner_add_journal)
int32_t tsift_wasm_learner_add_journal(tsift_learner *l, const char *name, const char *text, size_t len,
                                       uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_learner_add_journal(l, name, text, len, &err);
  return finish(out, st, NULL, 0, &err);
}

EXPORT(tsift_wasm_learner_add_examples)
int32_t tsift_wasm_learner_add_examples(tsift_learner *l, const char *name, const char *text, size_t len,
                                        uint32_t *out) {
  tsift_error err;
  tsift_status st = tsift_learner_add_examples(l, name, text, len, &err);
  return finish(out, st, NULL, 0, &err);
}

EXPORT(tsift_wasm_learner_finish)
int32_t tsift_wasm_learner_finish(tsift_learner *l, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_learner_finish(l, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}

EXPORT(tsift_wasm_learner_free) void tsift_wasm_learner_free(tsift_learner *l) { tsift_learner_free(l); }

EXPORT(tsift_wasm_learn_diff)
int32_t tsift_wasm_learn_diff(const char *a, size_t alen, const char *b, size_t blen, uint32_t *out) {
  tsift_error err;
  char *bytes = NULL;
  size_t len = 0;
  tsift_status st = tsift_learn_diff_json(a, alen, b, blen, &bytes, &len, &err);
  return finish(out, st, bytes, len, &err);
}
