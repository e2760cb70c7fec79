/* fusion_params.c — the fusion parameters' defaults and their one reader
 * (fusion_params.h): eval's "fusion" option and a model's config.json give
 * the same keys, ranges and messages. */
#include "model/fusion_params.h"

#include <stddef.h>

#include "base/alloc.h"
#include "cJSON.h"

void tsift_fusion_defaults(tsift_fusion_params *p) {
  p->margin = TSIFT_FUSION_MARGIN;
  p->weight = TSIFT_FUSION_WEIGHT;
  p->strong = TSIFT_FUSION_STRONG;
  p->agree = TSIFT_FUSION_AGREE_OFF;
}

tsift_status tsift_fusion_read(const cJSON *f, const char *where, tsift_status bad, tsift_fusion_params *p,
                               tsift_error *err) {
  static const struct {
    const char *key;
    double lo, hi;
    size_t at; /* offset into the struct */
  } KEYS[] = {{"margin", -10, 10, offsetof(tsift_fusion_params, margin)},
              {"weight", 0, 100, offsetof(tsift_fusion_params, weight)},
              {"strong", -10, 10, offsetof(tsift_fusion_params, strong)},
              {"agree", -10, 10, offsetof(tsift_fusion_params, agree)}};
  for (size_t i = 0; i < sizeof KEYS / sizeof *KEYS; i++) {
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(f, KEYS[i].key);
    double *to = (double *)((char *)p + KEYS[i].at);
    int agree = KEYS[i].at == offsetof(tsift_fusion_params, agree);
    if (!n) continue;
    if (agree && cJSON_IsNull(n)) *to = TSIFT_FUSION_AGREE_OFF;
    else if (cJSON_IsNumber(n) && n->valuedouble >= KEYS[i].lo && n->valuedouble <= KEYS[i].hi) *to = n->valuedouble;
    else
      return tsift_fail(err, bad, "%s.%s must be a number from %g to %g%s", where, KEYS[i].key, KEYS[i].lo, KEYS[i].hi,
                        agree ? ", or null" : "");
  }
  return TSIFT_OK;
}
