/* fusion_params.h — the parameters of the fusion rule and of the grade's
 * use of similarity, on their own: a query vector carries them
 * (vector_rank.h) and a static model may bring calibrated ones from its
 * config.json (static_model_config.c), below the ranker that reads them.
 * fusion_params.c: the defaults and the one reader. */
#ifndef TSIFT_FUSION_PARAMS_H
#define TSIFT_FUSION_PARAMS_H

#include "toolsift.h"

/* The defaults (the rule is fusion.h's). */
#define TSIFT_FUSION_MARGIN (-0.5)
#define TSIFT_FUSION_WEIGHT 2.0
/* The grade (step_grade.c; measured in docs/relevance.md): a hit whose z-score
 * stands at least sqrt(2 ln N) + TSIFT_FUSION_STRONG above the query's
 * distribution is strong when its fused score is within the rule's
 * `relative` of the best, even if it matches few words of the query. The
 * strong floor does not move with the margin: a lower margin lets weaker
 * similarity reorder the page, never load. */
#define TSIFT_FUSION_STRONG 1.5
/* A hit the query's words make strong stays strong only when its z-score
 * is at least `agree` (meaning agrees with the words); off by default. */
#define TSIFT_FUSION_AGREE_OFF (-1e300)

/* The parameters of the fusion rule and of the grade's use of similarity
 * (fusion.h, step_grade.c): the defaults there unless an evaluation measures
 * others or a model's config.json carries calibrated ones. */
typedef struct tsift_fusion_params {
  double margin;  /* the evidence floor: sqrt(2 ln N) + margin */
  double weight;  /* the fused score's weight on evidence */
  double strong;  /* similarity alone makes a hit strong at z >= sqrt(2 ln N) + strong */
  double agree;   /* a hit the words make strong stays strong only at z >= agree */
} tsift_fusion_params;

/* The defaults above. */
void tsift_fusion_defaults(tsift_fusion_params *p);

/* The one reader of a fusion object ({"margin": -10..10, "weight": 0..100,
 * "strong": -10..10, "agree": -10..10 | null (off)}, each key optional:
 * an absent one keeps *p's value), for eval's "fusion" option and a
 * model's config.json alike. A bad value is `bad` (the caller's status)
 * with the message "WHERE.KEY must be …"; other keys are the caller's. */
struct cJSON;
tsift_status tsift_fusion_read(const struct cJSON *f, const char *where, tsift_status bad, tsift_fusion_params *p,
                               tsift_error *err);

#endif
