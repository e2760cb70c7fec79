/* numfmt.c — see numfmt.h. */
#include "base/numfmt.h"

#include <stdint.h>
#include <string.h>

#include "base/bignum.h"

/* Every finite double has at most 767 significant decimal digits
 * (m·5^1074 for the smallest subnormals); rounding may add a carry digit. */
#define MAX_DIGITS 800

/* Decimal digits of a number: d[0..n) with d[0] != 0, value 0.d0d1d2… × 10^dp;
 * n == 0 is zero. */
typedef struct {
  unsigned char d[MAX_DIGITS];
  int n, dp;
} decimal;

static int digit(const decimal *x, int i) { return i >= 0 && i < x->n ? x->d[i] : 0; }

/* The exact decimal expansion of |v|, v finite. */
static void expand(decimal *x, uint64_t bits) {
  uint64_t m = bits & (((uint64_t)1 << 52) - 1);
  int ef = (int)((bits >> 52) & 0x7FF);
  int e2 = ef ? ef - 1075 : -1074;
  if (ef) m |= (uint64_t)1 << 52;
  x->n = 0;
  x->dp = 0;
  if (m == 0) return;
  /* m·2^e2 = B / 10^k: B = m·2^e2 (k = 0) or m·5^-e2 (k = -e2) */
  tsift_big b;
  tsift_big_set(&b, m);
  int k = 0;
  if (e2 >= 0) tsift_big_shl(&b, (unsigned)e2);
  else {
    tsift_big_mul_pow5(&b, (unsigned)-e2);
    k = -e2;
  }
  /* B's digits, nine at a time from the low end, into the tail of d */
  unsigned char tmp[MAX_DIGITS + 9];
  int len = 0;
  while (b.n) {
    uint32_t chunk = tsift_big_divmod(&b, 1000000000u);
    for (int i = 0; i < 9; i++, chunk /= 10) tmp[len++] = (unsigned char)(chunk % 10);
  }
  while (len > 0 && tmp[len - 1] == 0) len--; /* the last chunk's leading zeros */
  for (int i = 0; i < len; i++) x->d[i] = tmp[len - 1 - i];
  x->n = len;
  x->dp = len - k;
  while (x->n > 0 && x->d[x->n - 1] == 0) x->n--;
}

/* Keep the first `keep` digits (keep may be <= 0: round at a position before
 * the first digit), rounding to nearest, ties to even. */
static void round_to(decimal *x, int keep) {
  if (keep >= x->n) return;
  int up = 0;
  if (keep >= 0) {
    int g = x->d[keep], rest = 0;
    for (int i = keep + 1; i < x->n && !rest; i++) rest = x->d[i] != 0;
    up = g > 5 || (g == 5 && (rest || (keep > 0 && (x->d[keep - 1] & 1))));
  }
  if (keep <= 0) {
    /* nothing kept: zero, or one unit of the rounding position */
    x->n = up ? 1 : 0;
    if (up) {
      x->d[0] = 1;
      x->dp = x->dp - keep + 1;
    }
    return;
  }
  x->n = keep;
  if (up) {
    int i = keep - 1;
    while (i >= 0 && x->d[i] == 9) x->d[i--] = 0;
    if (i >= 0) x->d[i]++;
    else { /* 99…9 → 100…0 */
      x->d[0] = 1;
      x->n = 1;
      x->dp++;
    }
  }
  while (x->n > 0 && x->d[x->n - 1] == 0) x->n--;
}

/* Fixed notation with `frac` digits after the point ("0" before it when
 * the integer part is zero). */
static char *put_fixed(char *o, const decimal *x, int frac) {
  int dp = x->n ? x->dp : 0;
  if (dp <= 0) *o++ = '0';
  for (int i = 0; i < dp; i++) *o++ = (char)('0' + digit(x, i));
  if (frac > 0) {
    *o++ = '.';
    for (int j = 0; j < frac; j++) *o++ = (char)('0' + digit(x, dp + j));
  }
  return o;
}

int tsift_numfmt(char *out, double v, char conv, int prec) {
  if ((conv != 'f' && conv != 'g') || prec > TSIFT_NUMFMT_MAX_PREC) return -1;
  if (prec < 0) prec = 6;
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  char *o = out;
  if (bits >> 63) *o++ = '-';
  if (((bits >> 52) & 0x7FF) == 0x7FF) {
    memcpy(o, (bits & (((uint64_t)1 << 52) - 1)) ? "nan" : "inf", 4);
    return (int)(o - out) + 3;
  }
  decimal x;
  expand(&x, bits);
  if (conv == 'f') {
    round_to(&x, x.dp + prec);
    o = put_fixed(o, &x, prec);
  } else {
    int p = prec ? prec : 1;
    round_to(&x, p);
    int ex = x.n ? x.dp - 1 : 0; /* the exponent "%e" would show */
    if (ex < -4 || ex >= p) {
      *o++ = (char)('0' + digit(&x, 0));
      if (x.n > 1) {
        *o++ = '.';
        for (int i = 1; i < x.n; i++) *o++ = (char)('0' + x.d[i]);
      }
      *o++ = 'e';
      *o++ = ex < 0 ? '-' : '+';
      int a = ex < 0 ? -ex : ex;
      if (a >= 100) *o++ = (char)('0' + a / 100);
      *o++ = (char)('0' + a / 10 % 10);
      *o++ = (char)('0' + a % 10);
    } else {
      /* %g drops trailing zeros: the significant digits after the point */
      int frac = x.n - (x.n ? x.dp : 0);
      o = put_fixed(o, &x, frac);
    }
  }
  *o = 0;
  return (int)(o - out);
}
