/* written_catalog.h — for tests that write a catalog's JSON into a buffer
 * with snprintf, tool by tool: close it and build it. */
#ifndef TSIFT_TEST_WRITTEN_CATALOG_H
#define TSIFT_TEST_WRITTEN_CATALOG_H

#include <stdlib.h>

#include "harness.h"
#include "toolsift.h"

/* Close the tools array written into cat[0..n) (a malloc'd buffer of cap
 * bytes), build it with no options and free the text: the index, or NULL
 * (and a failed check). */
static tsift_index *build_written_catalog(char *cat, size_t n, size_t cap) {
  n += (size_t)snprintf(cat + n, cap - n, "]}");
  CHECK(n < cap);
  tsift_index *ix = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_build(cat, n, NULL, 0, &ix, &err), TSIFT_OK);
  free(cat);
  return ix;
}

#endif
