/* test_numbers.c — the core's own number parsing and printing (numparse.h,
 * numfmt.h, fmt.h, and cJSON through cjson_libc.h) against glibc's strtod,
 * snprintf and sscanf, which the engine used before and which the outputs
 * must keep matching byte for byte. Native only: glibc is the reference.
 *
 * Deterministic: a fixed-seed generator; edge cases listed by hand; halfway
 * cases (the exact midpoint between two neighbouring doubles, and strings
 * just below and above it) built with long double, which holds a midpoint
 * exactly on x86-64 (64-bit significand). */
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "cJSON.h"
#include "base/fmt.h"
#include "harness.h"
#include "base/numfmt.h"
#include "base/numparse.h"
#include "toolsift.h"

static int shown; /* mismatches printed so far (the first 20 only) */

static void same_str(const char *what, const char *input, const char *got, const char *want) {
  if (strcmp(got, want) == 0) {
    h_passed++;
    return;
  }
  h_failed++;
  if (shown++ < 20) fprintf(stderr, "%s(%s): got \"%s\", glibc \"%s\"\n", what, input, got, want);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) { /* splitmix64 */
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double from_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* ---- parsing ------------------------------------------------------------- */

static void check_parse(const char *s) {
  char *e1, *e2;
  double a = tsift_strtod(s, &e1), b = strtod(s, &e2);
  char got[64], want[64];
  uint64_t ab, bb;
  memcpy(&ab, &a, 8);
  memcpy(&bb, &b, 8);
  snprintf(got, sizeof got, "%016llx end %td", (unsigned long long)ab, e1 - s);
  snprintf(want, sizeof want, "%016llx end %td", (unsigned long long)bb, e2 - s);
  same_str("tsift_strtod", strlen(s) > 60 ? "(long)" : s, got, want);
}

static void test_parse_edges(void) {
  static const char *cases[] = {
      "0", "-0", "+0", "00", "0.0", "-0.000e5", "1", "-1", "1.5", ".5", "5.", "-.5", "+5.", ".", "-", "+", "",
      "e5", ".e5", "1e", "1e+", "1e-", "1E5", "1e+5", "1e-5", "1.e3", "12abc", "1.2.3", "1e5e6", "--1", "+-1",
      "  3", "\t\n 4.25", "0.1", "0.2", "0.3", "3.14159", "1e23", "8.5e-5", "123456789012345678901234567890",
      "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995", "9007199254740993.0000001",
      "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e309",
      "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096"
      "3302952463185698838345548779225087552271718080897187891045209286149262920183213440405119219542226981712"
      "0849393946920133282930924022566467225054580830000000000000001",
      "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
      "2.4703282292062327e-324", "2.4703282292062328e-324", "2.47032822920623272e-324", "1e-320", "1e-400",
      "1e400", "-1e400", "1e-99999999999", "1e99999999999", "0e99999999999", "0.000000000000000000000000001e27",
      "100000000000000000000000000000000000000000000000000000000000000e-62", "1,5",
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) check_parse(cases[i]);
  /* strtod's other forms are not read (numparse.h): cJSON never hands them over */
  char *end;
  const char *hex = "0x10", *inf = "inf", *nan = "-nan";
  CHECK(tsift_strtod(hex, &end) == 0.0 && end == hex + 1);
  CHECK(tsift_strtod(inf, &end) == 0.0 && end == inf);
  CHECK(tsift_strtod(nan, &end) == 0.0 && end == nan);
  /* a long run of digits: the 800-digit cut and its sticky digit */
  char big[2100];
  memset(big, '9', 2000);
  big[2000] = 0;
  check_parse(big);
  memcpy(big, "0.", 2);
  check_parse(big);
  memset(big, '0', 2000);
  big[0] = '1';
  memcpy(big + 1990, "e-1990", 7);
  check_parse(big);
  big[1000] = '1'; /* a non-zero digit far past the cut */
  check_parse(big);
}

static void test_parse_random(void) {
  char s[64];
  for (int i = 0; i < 100000; i++) {
    uint64_t r = next();
    int nd = 1 + (int)(r % 25), dot = (int)((r >> 8) % (unsigned)(nd + 1)), ex = (int)((r >> 16) % 700) - 360;
    size_t k = 0;
    if ((r >> 30) & 1) s[k++] = '-';
    for (int j = 0; j < nd; j++) {
      if (j == dot && (r >> 31) & 1) s[k++] = '.';
      s[k++] = (char)('0' + next() % 10);
    }
    if ((r >> 32) & 1) k += (size_t)snprintf(s + k, sizeof s - k, "e%d", ex - (nd - dot));
    s[k] = 0;
    check_parse(s);
  }
}

/* Midpoints between neighbouring doubles (normal and subnormal), exactly,
 * then cut shorter (just below) and with a 1 appended (just above). */
static void test_parse_halfway(void) {
  char s[1000];
  for (int i = 0; i < 4000; i++) {
    uint64_t bits = next() & 0x7FEFFFFFFFFFFFFFull;                       /* finite, positive */
    if (i % 4 == 0) bits &= 0x000FFFFFFFFFFFFFull;                          /* subnormal */
    if (i % 4 == 1) bits = (bits & 0x000FFFFFFFFFFFFFull) | (0x434ull << 52); /* 2^53 .. 2^54 */
    double d = from_bits(bits), up = from_bits(bits + 1);
    long double mid = ((long double)d + (long double)up) / 2;
    int n = snprintf(s, sizeof s, "%.780Le", mid);
    if (n <= 0 || n >= (int)sizeof s - 8) continue;
    check_parse(s);
    /* just above: a 1 after the last significant digit of the mantissa */
    char *e = strchr(s, 'e');
    char ex[16];
    strcpy(ex, e);
    char *m = e;
    while (m[-1] == '0') m--;
    sprintf(m, "1%s", ex);
    check_parse(s);
    /* just below: the midpoint cut after 17, 25, 40 digits */
    snprintf(s, sizeof s, "%.780Le", mid);
    for (int cut = 17; cut <= 40; cut += 23) {
      char t[64];
      snprintf(t, sizeof t, "%.*s%s", cut + 1, s, ex);
      check_parse(t);
    }
  }
}

/* ---- printing ------------------------------------------------------------ */

static const char *const dfmts[] = {"%1.15g", "%1.17g", "%.4f", "%g", "%.0f", "%.3g", "%.1f", "%f", "%.0g",
                                    "%.20g", "%.30f", "%10.4f|", "%-12.3f|", "%012.4f", "%08g", "%.100g"};

static void check_double(double d) {
  char got[800], want[800], in[40];
  snprintf(in, sizeof in, "%a", d);
  for (size_t i = 0; i < sizeof dfmts / sizeof *dfmts; i++) {
    int n1 = tsift_snprintf(got, sizeof got, dfmts[i], d);
    int n2 = snprintf(want, sizeof want, dfmts[i], d);
    same_str(dfmts[i], in, got, want);
    CHECK_EQ_INT(n1, n2);
  }
}

static void test_print_doubles(void) {
  static const double edges[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 0.125, 0.00005, 0.00015, 0.00025, 1e15,
                                 1000000000000005.0, 123456789012345678.0, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3,
                                 9.9999999999999995e14, 999999.5, 0.0001, 0.00001, 1e-5, 1e21, 1e22, 1e100,
                                 DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN, 5e-324, 0.95, 0.9999,
                                 0.99995, 99.99995, 1.0e-4, 0.8253, 0.82535, 9.5, 10.5, 1e300 * 1e10,
                                 -1e300 * 1e10, 0.0 / 0.0};
  for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) check_double(edges[i]);
  for (int i = 0; i < 20000; i++) {
    uint64_t r = next();
    check_double(from_bits(r)); /* any bit pattern: subnormals, huge, nan */
    check_double((double)(int64_t)(r >> (r & 63)) / 10000.0); /* "nice" decimals */
    check_double((double)(r % 100001) / 1000.0);
  }
}

static void check_fmt(const char *what, int n1, const char *got, int n2, const char *want) {
  same_str(what, "", got, want);
  CHECK_EQ_INT(n1, n2);
}
#define BOTH(fmt, ...)                                                      \
  do {                                                                      \
    char g_[256], w_[256];                                                  \
    int n1_ = tsift_snprintf(g_, sizeof g_, fmt, __VA_ARGS__);             \
    int n2_ = snprintf(w_, sizeof w_, fmt, __VA_ARGS__);                    \
    check_fmt(fmt, n1_, g_, n2_, w_);                                       \
  } while (0)

static void test_print_other(void) {
  BOTH("%d %i %u %ld %lld %llu %zu", 0, -1, 4000000000u, LONG_MIN, LLONG_MAX, ULLONG_MAX, (size_t)-1);
  BOTH("%d|%d|%5d|%-5d|%05d|%-5d|%x|%04x|%02x|%x", INT_MIN, INT_MAX, -42, -42, -42, 7, 0, 31, 0xe9, 0xdeadbeef);
  BOTH("%04llu.%04llu %llu", 12ull, 345ull, 0ull);
  BOTH("[%s] [%7s] [%-22s] [%.3s] [%.*s] [%*s] [%-*s] [%.0s]", "", "abc", "left", "abcdef", 2, "xyz", 6, "r", -6,
       "l", "gone");
  BOTH("100%% %s%%", "sure");
  BOTH("%.60s", "tools[3] (\"a very long identifier that goes on and on and on and on past sixty\")");
  BOTH("u%04x", (unsigned char)0x1f);
  BOTH("%i.%i.%i", 1, 7, 15);
  BOTH("%s", "null");
  BOTH("%zu %u/%u/%u/%ld", (size_t)3, 1u, 2u, 3u, -1L);
  /* cut to the buffer: same bytes, same would-be length */
  for (volatile size_t cap = 0; cap < 12; cap++) { /* volatile: gcc would warn about the cut */
    char g[16] = "~~~~~~~~~~~~~~~", w[16] = "~~~~~~~~~~~~~~~";
    int n1 = tsift_snprintf(cap ? g : NULL, cap, "%s=%d", "limit", 12345);
    int n2 = snprintf(cap ? w : NULL, cap, "%s=%d", "limit", 12345);
    CHECK_EQ_INT(n1, n2);
    CHECK(memcmp(g, w, sizeof g) == 0);
  }
  /* refused: not in fmt.h's list */
  static const char *refused[] = {"%c", "%p", "%e", "%+d", "% d", "%#x", "%.3d", "%hd", "%Lf", "%n", "%q"};
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    char b[32];
    CHECK_EQ_INT(tsift_snprintf(b, sizeof b, refused[i], 1), -1);
  }
  char b[32];
  CHECK_EQ_INT(tsift_snprintf(b, sizeof b, "ok %s %c", "so far", 'x'), -1);
  CHECK_EQ_STR(b, "ok so far ");
  /* numfmt's precision bound */
  CHECK_EQ_INT(tsift_numfmt(b, 1.0, 'f', TSIFT_NUMFMT_MAX_PREC + 1), -1);
  char big[TSIFT_NUMFMT_BUF], want[TSIFT_NUMFMT_BUF];
  int n = tsift_numfmt(big, -DBL_MAX, 'f', TSIFT_NUMFMT_MAX_PREC);
  snprintf(want, sizeof want, "%.*f", TSIFT_NUMFMT_MAX_PREC, -DBL_MAX);
  CHECK_EQ_INT(n, (int)strlen(want));
  CHECK_EQ_STR(big, want);
}

/* ---- cJSON: print_number and parse_number as with glibc ---------------- */

/* cJSON 1.7.15's print_number, with glibc's functions. */
static int compare_double(double a, double b) {
  double max = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(a - b) <= max * DBL_EPSILON;
}

static void glibc_print_number(double d, char *out) {
  double test = 0.0;
  if (isnan(d) || isinf(d)) sprintf(out, "null");
  else {
    sprintf(out, "%1.15g", d);
    if (sscanf(out, "%lg", &test) != 1 || !compare_double(test, d)) sprintf(out, "%1.17g", d);
  }
}

static void check_cjson(double d) {
  cJSON *n = cJSON_CreateNumber(d);
  char *got = cJSON_PrintUnformatted(n);
  char want[40], in[40];
  glibc_print_number(d, want);
  snprintf(in, sizeof in, "%a", d);
  same_str("cJSON_PrintUnformatted", in, got ? got : "(failed)", want);
  /* and the text parses back as glibc reads it */
  cJSON *back = got ? cJSON_Parse(got) : NULL;
  if (back && strcmp(want, "null") != 0) {
    double g = back->valuedouble, w = strtod(want, NULL);
    CHECK(memcmp(&g, &w, sizeof g) == 0);
  }
  cJSON_Delete(back);
  free(got);
  cJSON_Delete(n);
}

static void test_cjson(void) {
  static const double edges[] = {0.0, -0.0, 1.0, 0.1, 1e15, 1000000000000005.0, 1e300 * 1e10, 5e-324,
                                 DBL_MAX, 123.456, -7.25e-300, 0.0 / 0.0};
  for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) check_cjson(edges[i]);
  for (int i = 0; i < 20000; i++) {
    uint64_t r = next();
    check_cjson(from_bits(r));
    check_cjson((double)(r % 1000003) / 1000.0);
  }
  /* parse_number: the strings a catalog may hold */
  static const char *texts[] = {"[0.1]", "[-0]", "[1e400]", "[1e-400]", "[2.4703282292062328e-324]",
                                "[9007199254740993]", "[123456789012345678901234567890123456789012345678901234567]",
                                "[1.7976931348623158e308]"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    cJSON *a = cJSON_Parse(texts[i]);
    CHECK(a && cJSON_IsNumber(a->child));
    if (a && a->child) {
      double g = a->child->valuedouble, w = strtod(texts[i] + 1, NULL);
      CHECK(memcmp(&g, &w, sizeof g) == 0);
    }
    cJSON_Delete(a);
  }
}

int main(void) {
  test_parse_edges();
  test_parse_random();
  test_parse_halfway();
  test_print_doubles();
  test_print_other();
  test_cjson();
  return harness_finish("test_numbers");
}
