/* fuzz_common.h — shared checks for the libFuzzer targets in tests/fuzz.
 *
 * Every target defines LLVMFuzzerTestOneInput and checks, beyond "no crash,
 * no leak, no UB" (ASan/UBSan/LSan do that), the API contract of every call:
 *  - the status is a known tsift_status and equals err.status;
 *  - err.message is NUL-terminated inside its buffer;
 *  - on failure the output pointer is NULL (nothing half-built handed out);
 *  - on success a JSON output is valid JSON, valid UTF-8, has no NUL byte and
 *    its length is out_len;
 *  - allocations never fail here, so TSIFT_E_NOMEM is always a wrong error
 *    (bugs B5 and B9 reported malformed input as out of memory).
 * A broken contract abort()s, which libFuzzer reports as a crash.
 */
#ifndef TSIFT_FUZZ_COMMON_H
#define TSIFT_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_check.h"
#include "text/text.h"
#include "toolsift.h"

#define FUZZ_ASSERT(cond)                                                          \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      fprintf(stderr, "%s:%d: fuzz contract broken: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                     \
    }                                                                              \
  } while (0)

/* The status is typed and err agrees with it. */
static inline void fuzz_check_status(tsift_status st, const tsift_error *err) {
  FUZZ_ASSERT(st >= TSIFT_OK && st <= TSIFT_E_MODEL);
  FUZZ_ASSERT(err->status == st);
  FUZZ_ASSERT(memchr(err->message, 0, sizeof err->message) != NULL);
}

/* A JSON (or JSON Lines, when `lines`) output of a successful call. */
static inline void fuzz_check_output(tsift_status st, const tsift_error *err, const char *out,
                                     size_t len, int lines) {
  fuzz_check_status(st, err);
  if (st != TSIFT_OK) {
    FUZZ_ASSERT(out == NULL);
    return;
  }
  FUZZ_ASSERT(out != NULL);
  FUZZ_ASSERT(strlen(out) == len);
  FUZZ_ASSERT(tsift_utf8_valid(out, len, NULL));
  size_t pos = 0;
  if (!lines) {
    FUZZ_ASSERT(tsift_json_check(out, len, &pos) == TSIFT_JSON_VALID);
    return;
  }
  for (size_t a = 0; a < len;) {
    const char *nl = memchr(out + a, '\n', len - a);
    FUZZ_ASSERT(nl != NULL); /* every line ends with \n */
    size_t n = (size_t)(nl - (out + a));
    FUZZ_ASSERT(tsift_json_check(out + a, n, &pos) == TSIFT_JSON_VALID);
    a += n + 1;
  }
}

/* TSIFT_FUZZ_PAD=1: one NUL byte after every input (see fuzz_input). */
static inline int fuzz_pad_inputs(void) {
  static int pad = -1;
  if (pad >= 0) return pad;
  const char *e = getenv("TSIFT_FUZZ_PAD");
  return pad = e && *e && strcmp(e, "0") != 0;
}

/* The input as the core should see it: an exact-size copy (libFuzzer's
 * buffer is exact too), so ASan catches any read past the end. Bug B1
 * (cJSON 1.7.15 read one byte past a text ending right after a ',' inside an
 * object, e.g. `{"1":1,`; docs/reliability.md) stopped every JSON target
 * within seconds until the core ran its strict grammar check before cJSON.
 * For a future bug like it, TSIFT_FUZZ_PAD=1 copies the input with one NUL
 * byte after it: an over-read of exactly one byte is hidden, any longer one
 * is still caught. Free the result with free(). */
static inline char *fuzz_input(const uint8_t *data, size_t size) {
  int pad = fuzz_pad_inputs();
  char *copy = malloc(pad ? size + 1 : (size ? size : 1));
  if (!copy) abort();
  if (size) memcpy(copy, data, size);
  if (pad) copy[size] = 0;
  return copy;
}

/* The error pointer is poisoned first, so a call that forgets to fill it on
 * success or failure is caught by the status check. */
static inline void fuzz_err_init(tsift_error *err) {
  err->status = (tsift_status)-1;
  memset(err->message, 'x', sizeof err->message); /* no NUL: must be written */
}

#endif
