/* bignum.h — a fixed-size unsigned big integer, just what exact decimal <->
 * binary conversion needs (numparse.c, numfmt.c): multiply by a small number,
 * shift, compare, subtract, divide by a small number.
 *
 * Why: the core reads and prints doubles itself instead of through libc's
 * strtod/printf (docs/architecture.md, "Numbers"), and both directions are
 * exact only with integers wider than any machine word: a double is m·2^e,
 * and its exact decimal value m·5^k/10^k needs up to ~2,550 bits.
 *
 * No allocation: 4,096 bits on the stack (the largest value any caller makes
 * is bounded in numparse.c, under 3,750 bits). An operation whose result would
 * not fit keeps the low limbs and sets `overflow`, so a broken bound shows as
 * a wrong value in the tests, never as a write out of bounds. */
#ifndef TSIFT_BIGNUM_H
#define TSIFT_BIGNUM_H

#include <stdint.h>

#define TSIFT_BIG_LIMBS 128

typedef struct {
  uint32_t n;                   /* limbs in use; w[n-1] != 0, or n == 0 for zero */
  uint32_t overflow;            /* set when a result did not fit (see above) */
  uint32_t w[TSIFT_BIG_LIMBS];  /* little-endian 32-bit limbs */
} tsift_big;

void tsift_big_set(tsift_big *a, uint64_t v);
/* a = a * m + add */
void tsift_big_muladd(tsift_big *a, uint32_t m, uint32_t add);
/* a = a * 10^k */
void tsift_big_mul_pow10(tsift_big *a, unsigned k);
/* a = a * 5^k */
void tsift_big_mul_pow5(tsift_big *a, unsigned k);
/* a = a << bits */
void tsift_big_shl(tsift_big *a, unsigned bits);
/* -1, 0, 1 as a <, ==, > b */
int tsift_big_cmp(const tsift_big *a, const tsift_big *b);
/* a = a - b; needs a >= b */
void tsift_big_sub(tsift_big *a, const tsift_big *b);
/* Number of significant bits (0 for zero). */
unsigned tsift_big_bitlen(const tsift_big *a);
/* a = a / d, returns a % d; d != 0 */
uint32_t tsift_big_divmod(tsift_big *a, uint32_t d);

#endif
