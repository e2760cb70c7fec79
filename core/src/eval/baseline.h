/* baseline.h — plain BM25 over one bag of words per tool, the comparison
 * line of the relevance evaluation (SPEC S10). */
#ifndef TSIFT_BASELINE_H
#define TSIFT_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "toolsift.h"

typedef struct tsift_baseline tsift_baseline;

/* Build over `cat` (which must outlive the baseline). */
tsift_status tsift_baseline_build(const tsift_catalog *cat, tsift_baseline **out, tsift_error *err);
void tsift_baseline_free(tsift_baseline *b);
/* The best k tool positions for `query` (NUL-terminated), score > 0. */
tsift_status tsift_baseline_rank(const tsift_baseline *b, const char *query, size_t k, uint32_t *out,
                                 size_t *nout, tsift_error *err);

#endif
