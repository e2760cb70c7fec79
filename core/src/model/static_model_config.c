/* static_model_config.c — a model's calibrated fusion parameters, read
 * from the "toolsift" member of its config.json (toolsift.h,
 * tsift_static_model_configure). Every host hands the file's bytes here;
 * the fusion object is read by fusion_params.c, as eval's option is. */
#include "base/alloc.h"
#include "cJSON.h"
#include "model/fusion_params.h"
#include "json/json_read.h"
#include "model/static_model.h"

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
  if (!st) st = tsift_fusion_read(f, "config.json: toolsift.fusion", TSIFT_E_MODEL, &p, err);
  if (!st && f) tsift_static_model_set_fusion(model, &p);
  cJSON_Delete(root);
  if (!st) tsift_ok(err);
  return st;
}
