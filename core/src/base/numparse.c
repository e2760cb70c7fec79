/* numparse.c — see numparse.h.
 *
 * Method: the decimal number is the exact fraction R/S of two big integers
 * (digits·10^E, or digits / 10^-E). Its binary exponent b comes from their bit
 * lengths and one comparison; then long division, one bit at a time, gives
 * the 53 significant bits (fewer for a subnormal), a guard bit and a sticky
 * bit (a remainder is left), and the result rounds to nearest, ties to even.
 * Exact by construction: no floating-point arithmetic, no tables, no
 * approximation to correct afterwards. A few thousand limb operations per
 * number, which is nothing beside parsing the JSON around it. */
#include "base/numparse.h"

#include <stdint.h>
#include <string.h>

#include "base/bignum.h"

/* Significant digits kept. Every double and every midpoint between two
 * neighbouring doubles has at most 768 significant decimal digits, so cutting
 * after 800 and standing a single 1 digit in for any non-zero rest (the
 * "sticky" digit) never moves a number across one of them. */
#define MAX_DIGITS 800

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static double from_bits(int neg, uint64_t bits) {
  if (neg) bits |= (uint64_t)1 << 63;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

#define INF_BITS ((uint64_t)0x7FF << 52)

double tsift_strtod(const char *s, char **end) {
  const char *p = s;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;
  int neg = 0;
  if (*p == '+' || *p == '-') neg = *p++ == '-';

  /* value = digits[0..n) as an integer · 10^e */
  unsigned char digits[MAX_DIGITS + 1];
  int n = 0, any = 0, sticky = 0;
  long long e = 0;
  for (; is_digit(*p); p++) {
    any = 1;
    if (n == 0 && *p == '0') continue; /* leading zero */
    if (n < MAX_DIGITS) digits[n++] = (unsigned char)(*p - '0');
    else {
      e++; /* a dropped integer digit still scales the value */
      sticky |= *p != '0';
    }
  }
  if (*p == '.' && (any || is_digit(p[1]))) {
    for (p++; is_digit(*p); p++) {
      any = 1;
      if (n == 0 && *p == '0') e--;
      else if (n < MAX_DIGITS) {
        digits[n++] = (unsigned char)(*p - '0');
        e--;
      } else sticky |= *p != '0';
    }
  }
  if (!any) {
    if (end) *end = (char *)s;
    return 0.0;
  }
  /* The exponent counts only when digits follow "e", "e+" or "e-". */
  if (*p == 'e' || *p == 'E') {
    const char *q = p + 1;
    int eneg = 0;
    if (*q == '+' || *q == '-') eneg = *q++ == '-';
    if (is_digit(*q)) {
      long long x = 0;
      for (; is_digit(*q); q++)
        if (x < 1000000000) x = x * 10 + (*q - '0'); /* saturate: far past ±inf/0 already */
      e += eneg ? -x : x;
      p = q;
    }
  }
  if (end) *end = (char *)p;

  if (n == 0) return from_bits(neg, 0);
  if (sticky) {
    digits[n++] = 1;
    e--;
  }
  /* 10^(n+e-1) <= value < 10^(n+e) */
  if (n + e > 309) return from_bits(neg, INF_BITS); /* >= 1e309 > DBL_MAX */
  if (n + e <= -324) return from_bits(neg, 0);      /* < 1e-324, under half the least subnormal */

  tsift_big r, sden, t;
  tsift_big_set(&r, 0);
  for (int i = 0; i < n;) { /* nine digits at a time */
    uint32_t chunk = 0, scale = 1;
    for (int k = 0; k < 9 && i < n; k++, i++) {
      chunk = chunk * 10 + digits[i];
      scale *= 10;
    }
    tsift_big_muladd(&r, scale, chunk);
  }
  tsift_big_set(&sden, 1);
  if (e >= 0) tsift_big_mul_pow10(&r, (unsigned)e); /* < 10^309: ~1,030 bits */
  else tsift_big_mul_pow10(&sden, (unsigned)-e);     /* -e <= 801 + 323: ~3,740 bits */

  /* b = floor(log2(value)): the bit lengths give it to within one. */
  int b = (int)tsift_big_bitlen(&r) - (int)tsift_big_bitlen(&sden);
  int below;
  if (b >= 0) {
    t = sden;
    tsift_big_shl(&t, (unsigned)b);
    below = tsift_big_cmp(&r, &t) < 0;
  } else {
    t = r;
    tsift_big_shl(&t, (unsigned)-b);
    below = tsift_big_cmp(&t, &sden) < 0;
  }
  if (below) b--;
  if (b > 1023) return from_bits(neg, INF_BITS);
  /* bits to produce: 53, or fewer below the normal range (the subnormal's
   * last bit is always 2^-1074) */
  int bits = b >= -1022 ? 53 : b + 1075;
  if (bits < 0) return from_bits(neg, 0); /* value < 2^-1075 */

  /* scale so that 1 <= r/sden < 2 */
  if (b >= 0) tsift_big_shl(&sden, (unsigned)b);
  else tsift_big_shl(&r, (unsigned)-b);
  uint64_t q = 0;
  int guard = 0;
  for (int i = 0; i <= bits; i++) {
    int bit = tsift_big_cmp(&r, &sden) >= 0;
    if (bit) tsift_big_sub(&r, &sden);
    if (i < bits) q = (q << 1) | (uint64_t)bit;
    else guard = bit;
    if (i < bits) tsift_big_shl(&r, 1);
  }
  int rest = r.n != 0;
  if (guard && (rest || (q & 1))) q++;

  if (bits < 53) return from_bits(neg, q); /* subnormal; q == 2^52 is the least normal */
  if (q == (uint64_t)1 << 53) {           /* rounded up to the next power of two */
    q >>= 1;
    b++;
    if (b > 1023) return from_bits(neg, INF_BITS);
  }
  return from_bits(neg, ((uint64_t)(b + 1023) << 52) | (q & (((uint64_t)1 << 52) - 1)));
}
