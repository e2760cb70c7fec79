/* alloc.c — owns the process-wide allocator hook (the only mutable global in
 * the core) and the status/error helpers. cJSON is routed through the same
 * hook so every allocation can fail in tests. */
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "base/fmt.h"

static tsift_malloc_fn g_malloc = malloc;
static tsift_realloc_fn g_realloc = realloc;
static tsift_free_fn g_free = free;

void tsift_set_allocator(tsift_malloc_fn m, tsift_realloc_fn r, tsift_free_fn f) {
  g_malloc = m ? m : malloc;
  g_realloc = r ? r : realloc;
  g_free = f ? f : free;
  cJSON_Hooks hooks = {g_malloc, g_free};
  cJSON_InitHooks(&hooks);
}

void *tsift_alloc_bytes(size_t size) { return g_malloc(size ? size : 1); }

void *tsift_realloc_bytes(void *ptr, size_t size) { return g_realloc(ptr, size ? size : 1); }

void tsift_free(void *ptr) {
  if (ptr) g_free(ptr);
}

void *tsift_calloc_array(size_t n, size_t size) {
  if (size && n > (size_t)-1 / size) return NULL;
  size_t bytes = n * size;
  void *p = tsift_alloc_bytes(bytes);
  if (p) memset(p, 0, bytes > 0 ? bytes : 1);
  return p;
}

char *tsift_strndup(const char *s, size_t len) {
  if (len == (size_t)-1) return NULL;
  char *p = tsift_alloc_bytes(len + 1);
  if (!p) return NULL;
  if (len) memcpy(p, s, len);
  p[len] = 0;
  return p;
}

int tsift_grow(void **ptr, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 0;
  size_t ncap = *cap ? *cap : 8;
  while (ncap < need) {
    if (ncap > ((size_t)-1 / 2)) return -1;
    ncap *= 2;
  }
  if (size && ncap > (size_t)-1 / size) return -1;
  void *p = tsift_realloc_bytes(*ptr, ncap * size);
  if (!p) return -1;
  *ptr = p;
  *cap = ncap;
  return 0;
}

tsift_status tsift_fail(tsift_error *err, tsift_status status, const char *fmt, ...) {
  if (err) {
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    tsift_vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return status;
}

tsift_status tsift_error_prefix(tsift_error *err, tsift_status status, const char *prefix) {
  if (err) {
    char old[TSIFT_ERROR_MESSAGE_MAX];
    memcpy(old, err->message, sizeof old);
    old[sizeof old - 1] = 0;
    tsift_fail(err, status, "%s: %s", prefix, old);
  }
  return status;
}

tsift_status tsift_nomem(tsift_error *err, const char *where) {
  return tsift_fail(err, TSIFT_E_NOMEM, "out of memory while %s", where);
}

tsift_status tsift_ok(tsift_error *err) {
  if (err) {
    err->status = TSIFT_OK;
    err->message[0] = 0;
  }
  return TSIFT_OK;
}

const char *tsift_version(void) { return TSIFT_VERSION; }

const char *tsift_status_name(tsift_status status) {
  switch (status) {
    case TSIFT_OK: return "ok";
    case TSIFT_E_ARG: return "arg";
    case TSIFT_E_JSON: return "json";
    case TSIFT_E_UTF8: return "utf8";
    case TSIFT_E_CONFIG: return "config";
    case TSIFT_E_LIMIT: return "limit";
    case TSIFT_E_NOMEM: return "nomem";
    case TSIFT_E_SNAPSHOT: return "snapshot";
    case TSIFT_E_STATE: return "state";
    case TSIFT_E_RANKER: return "ranker";
    case TSIFT_E_DIVERGED: return "diverged";
    case TSIFT_E_TAMPERED: return "tampered";
    case TSIFT_E_MODEL: return "model";
  }
  return "unknown";
}

const char *tsift_strerror(tsift_status status) {
  switch (status) {
    case TSIFT_OK: return "success";
    case TSIFT_E_ARG: return "invalid argument";
    case TSIFT_E_JSON: return "malformed JSON";
    case TSIFT_E_UTF8: return "invalid UTF-8";
    case TSIFT_E_CONFIG: return "configuration error";
    case TSIFT_E_LIMIT: return "input exceeds a limit";
    case TSIFT_E_NOMEM: return "out of memory";
    case TSIFT_E_SNAPSHOT: return "invalid index snapshot";
    case TSIFT_E_STATE: return "operation not allowed in this state";
    case TSIFT_E_RANKER: return "ranker failed";
    case TSIFT_E_DIVERGED: return "replay diverged from its journal";
    case TSIFT_E_TAMPERED: return "journal does not verify";
    case TSIFT_E_MODEL: return "malformed static-embedding model";
  }
  return "unknown status";
}
