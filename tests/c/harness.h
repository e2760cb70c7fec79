/* harness.h — a tiny test harness: CHECK macros that count failures and a
 * closing line in the plain "N passed, N failed" form. No framework. */
#ifndef TSIFT_HARNESS_H
#define TSIFT_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int h_passed, h_failed;

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (cond) h_passed++;                                                    \
    else {                                                                   \
      h_failed++;                                                            \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                        \
  } while (0)

#define CHECK_EQ_STR(actual, expected)                                            \
  do {                                                                            \
    const char *a_ = (actual), *e_ = (expected);                                  \
    if (a_ && e_ && strcmp(a_, e_) == 0) h_passed++;                              \
    else {                                                                        \
      h_failed++;                                                                 \
      fprintf(stderr, "%s:%d: expected\n  %s\ngot\n  %s\n", __FILE__, __LINE__,   \
              e_ ? e_ : "(null)", a_ ? a_ : "(null)");                            \
    }                                                                             \
  } while (0)

#define CHECK_EQ_INT(actual, expected)                                                      \
  do {                                                                                      \
    long long a_ = (long long)(actual), e_ = (long long)(expected);                         \
    if (a_ == e_) h_passed++;                                                               \
    else {                                                                                  \
      h_failed++;                                                                           \
      fprintf(stderr, "%s:%d: %s: expected %lld, got %lld\n", __FILE__, __LINE__, #actual, e_, a_); \
    }                                                                                       \
  } while (0)

#define CHECK_NEAR(actual, expected, tol)                                                  \
  do {                                                                                     \
    double a_ = (actual), e_ = (expected);                                                 \
    if (fabs(a_ - e_) <= (tol)) h_passed++;                                                \
    else {                                                                                 \
      h_failed++;                                                                          \
      fprintf(stderr, "%s:%d: %s: expected %.9f, got %.9f\n", __FILE__, __LINE__, #actual, e_, a_); \
    }                                                                                      \
  } while (0)

/* Substring check, for error messages that must name a tool or field. */
#define CHECK_CONTAINS(haystack, needle)                                                  \
  do {                                                                                    \
    const char *h_ = (haystack), *n_ = (needle);                                          \
    if (h_ && n_ && strstr(h_, n_)) h_passed++;                                           \
    else {                                                                                \
      h_failed++;                                                                         \
      fprintf(stderr, "%s:%d: expected to contain \"%s\", got \"%s\"\n", __FILE__, __LINE__, \
              n_ ? n_ : "(null)", h_ ? h_ : "(null)");                                    \
    }                                                                                     \
  } while (0)

static int harness_finish(const char *suite) {
  printf("%s: %d passed, %d failed\n", suite, h_passed, h_failed);
  return h_failed ? 1 : 0;
}

#endif
