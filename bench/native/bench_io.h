/* bench_io.h — what every native benchmark driver needs around its timed
 * calls: a monotonic clock in milliseconds and a whole file read into
 * memory (NUL-terminated, so JSON text can be handed on as it is). */
#ifndef TSIFT_BENCH_IO_H
#define TSIFT_BENCH_IO_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The bytes of path (a file or a pipe), or NULL; the caller frees. */
static inline char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 20, n = 0, got;
  char *buf = malloc(cap + 1);
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *more = realloc(buf, (cap *= 2) + 1);
      if (!more) free(buf);
      buf = more;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (buf && bad) {
    free(buf);
    buf = NULL;
  }
  if (buf) {
    buf[n] = '\0';
    *len = n;
  }
  return buf;
}

#endif
