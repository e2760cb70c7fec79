/* json_canonical.c — a parsed JSON value printed by the core's writer
 * (json_canonical.h): what the journal chain and vocabulary digests hash. */
#include "json/json_canonical.h"

#include <string.h>

#include "base/sha256.h"
#include "json/json_read.h"

static int write_value(tsift_buf *b, const cJSON *v, int depth, int max_depth, const char *skip) {
  if (depth > max_depth) return 0;
  const cJSON *c;
  if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
    int obj = cJSON_IsObject(v);
    if (obj) tsift_json_begin_object(b);
    else tsift_json_begin_array(b);
    cJSON_ArrayForEach(c, v) {
      if (obj && depth == 0 && skip && strcmp(c->string, skip) == 0) continue;
      if (obj) tsift_json_key(b, c->string);
      if (!write_value(b, c, depth + 1, max_depth, NULL)) return 0;
    }
    if (obj) tsift_json_end_object(b);
    else tsift_json_end_array(b);
  } else if (cJSON_IsString(v)) {
    tsift_json_cstr(b, v->valuestring);
  } else if (cJSON_IsNumber(v)) {
    if (tsift_json_integral(v, -9007199254740992.0, 9007199254740992.0)) tsift_json_int(b, (long long)v->valuedouble);
    else tsift_json_score(b, v->valuedouble);
  } else if (cJSON_IsBool(v)) {
    tsift_json_bool(b, cJSON_IsTrue(v));
  } else {
    tsift_json_null(b);
  }
  return 1;
}

int tsift_json_canonical(tsift_buf *b, const cJSON *v, int max_depth, const char *skip) {
  return write_value(b, v, 0, max_depth, skip);
}

int tsift_json_digest(const cJSON *v, int max_depth, char out[65]) {
  tsift_buf b;
  tsift_buf_init(&b);
  int ok = write_value(&b, v, 0, max_depth, NULL);
  if (b.failed) ok = -1;
  if (ok > 0) {
    tsift_sha256 h;
    uint8_t d[32];
    tsift_sha256_init(&h);
    tsift_sha256_update(&h, b.data, b.len);
    tsift_sha256_final(&h, d);
    tsift_sha256_hex(d, out);
  }
  tsift_buf_free(&b);
  return ok;
}
