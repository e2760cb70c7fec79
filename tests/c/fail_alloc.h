/* fail_alloc.h — a counting allocator for allocation-failure sweeps: once
 * armed, the g_fail_at-th allocation (malloc or realloc) fails; g_live counts
 * blocks not yet freed, so a sweep can check that nothing leaked. Install it
 * with tsift_set_allocator(fail_malloc, fail_realloc, fail_free). */
#ifndef TSIFT_FAIL_ALLOC_H
#define TSIFT_FAIL_ALLOC_H

#include <stdlib.h>

static long g_allocs, g_fail_at, g_live;
static int g_armed = 1; /* a test that needs failure-free setup first clears it */

static void *fail_malloc(size_t n) {
  if (g_armed && ++g_allocs == g_fail_at) return NULL;
  size_t *p = malloc(n + sizeof(size_t) * 2);
  if (!p) return NULL;
  g_live++;
  return p + 2;
}
static void fail_free(void *p) {
  if (!p) return;
  g_live--;
  free((size_t *)p - 2);
}
static void *fail_realloc(void *p, size_t n) {
  if (!p) return fail_malloc(n);
  if (g_armed && ++g_allocs == g_fail_at) return NULL;
  size_t *q = realloc((size_t *)p - 2, n + sizeof(size_t) * 2);
  return q ? q + 2 : NULL;
}

#endif
