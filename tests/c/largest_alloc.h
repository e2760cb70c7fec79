/* largest_alloc.h — an allocator that remembers the largest single request,
 * for tests that check a huge input is not copied whole. Install it with
 * tsift_set_allocator(largest_malloc, largest_realloc, free), zero
 * g_largest first, and put the default back with
 * tsift_set_allocator(NULL, NULL, NULL). */
#ifndef TSIFT_LARGEST_ALLOC_H
#define TSIFT_LARGEST_ALLOC_H

#include <stdlib.h>

static size_t g_largest;

static void *largest_malloc(size_t n) {
  if (n > g_largest) g_largest = n;
  return malloc(n);
}
static void *largest_realloc(void *p, size_t n) {
  if (n > g_largest) g_largest = n;
  return realloc(p, n);
}

#endif
