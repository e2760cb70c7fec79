/* static_model_config.c — a model's calibrated fusion parameters, read
 * from the "toolsift" member of its config.json (toolsift.h,
 * tsift_static_model_configure). One reader: every host hands the file's
 * bytes here. */
#include "alloc.h"
#include "cJSON.h"
#include "catalog.h"
#include "fusion.h"
#include "static_model.h"
#include "json_read.h"

/* One number of "toolsift.fusion" into *to when given: in [lo, hi], or
 * null where null means off (agree). */
static tsift_status param(const cJSON *f, const char *key, double lo, double hi, int null_ok, double *to,
                          tsift_error *err) {
  const cJSON *n = cJSON_GetObjectItemCaseSensitive(f, key);
  if (!n) return TSIFT_OK;
  if (null_ok && cJSON_IsNull(n)) {
    *to = TSIFT_FUSION_AGREE_OFF;
    return TSIFT_OK;
  }
  if (!cJSON_IsNumber(n) || !(n->valuedouble >= lo && n->valuedouble <= hi))
    return tsift_fail(err, TSIFT_E_MODEL, "config.json: toolsift.fusion.%s must be a number from %g to %g%s", key, lo,
                      hi, null_ok ? ", or null" : "");
  *to = n->valuedouble;
  return TSIFT_OK;
}

tsift_status tsift_static_model_configure(tsift_static_model *model, const char *config_json, size_t len,
                                          tsift_error *err) {
  if (!model || (!config_json && len)) return tsift_fail(err, TSIFT_E_ARG, "static model configure: NULL argument");
  cJSON *root = NULL;
  tsift_status st = tsift_json_parse(config_json, len, "config.json", &root, err);
  if (st) return st == TSIFT_E_NOMEM ? st : (err->status = TSIFT_E_MODEL);
  const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "toolsift");
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(ts, "fusion");
  tsift_fusion_params p;
  tsift_fusion_defaults(&p);
  if (!cJSON_IsObject(root)) st = tsift_fail(err, TSIFT_E_MODEL, "config.json: expected a JSON object");
  else if (ts && !cJSON_IsObject(ts)) st = tsift_fail(err, TSIFT_E_MODEL, "config.json: \"toolsift\" must be an object");
  else if (f && !cJSON_IsObject(f)) st = tsift_fail(err, TSIFT_E_MODEL, "config.json: toolsift.fusion must be an object");
  if (!st) st = param(f, "margin", -10, 10, 0, &p.margin, err);
  if (!st) st = param(f, "weight", 0, 100, 0, &p.weight, err);
  if (!st) st = param(f, "strong", -10, 10, 0, &p.strong, err);
  if (!st) st = param(f, "agree", -10, 10, 1, &p.agree, err);
  if (!st && f) tsift_static_model_set_fusion(model, &p);
  cJSON_Delete(root);
  if (!st) tsift_ok(err);
  return st;
}
