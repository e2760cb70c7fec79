/* bignum.c — see bignum.h. Schoolbook operations on 32-bit limbs with 64-bit
 * intermediates (native i64 arithmetic in wasm: no compiler-rt helpers). */
#include "base/bignum.h"

static void trim(tsift_big *a) {
  while (a->n > 0 && a->w[a->n - 1] == 0) a->n--;
}

void tsift_big_set(tsift_big *a, uint64_t v) {
  a->overflow = 0;
  a->w[0] = (uint32_t)v;
  a->w[1] = (uint32_t)(v >> 32);
  a->n = 2;
  trim(a);
}

void tsift_big_muladd(tsift_big *a, uint32_t m, uint32_t add) {
  uint64_t carry = add;
  for (uint32_t i = 0; i < a->n; i++) {
    uint64_t t = (uint64_t)a->w[i] * m + carry;
    a->w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry) {
    if (a->n < TSIFT_BIG_LIMBS) a->w[a->n++] = (uint32_t)carry;
    else a->overflow = 1;
  }
  trim(a); /* m == 0 */
}

void tsift_big_mul_pow10(tsift_big *a, unsigned k) {
  for (; k >= 9; k -= 9) tsift_big_muladd(a, 1000000000u, 0);
  static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  if (k) tsift_big_muladd(a, p10[k], 0);
}

void tsift_big_mul_pow5(tsift_big *a, unsigned k) {
  for (; k >= 13; k -= 13) tsift_big_muladd(a, 1220703125u, 0); /* 5^13 */
  uint32_t p = 1;
  while (k--) p *= 5;
  tsift_big_muladd(a, p, 0);
}

void tsift_big_shl(tsift_big *a, unsigned bits) {
  if (a->n == 0) return;
  unsigned limbs = bits / 32, r = bits % 32;
  uint32_t n = a->n + limbs + (r ? 1 : 0);
  if (n > TSIFT_BIG_LIMBS) {
    a->overflow = 1;
    n = TSIFT_BIG_LIMBS;
  }
  /* from the top down, so the move can overlap */
  for (uint32_t i = n; i-- > 0;) {
    uint64_t hi = (i >= limbs && i - limbs < a->n) ? a->w[i - limbs] : 0;
    uint64_t lo = (r && i >= limbs + 1 && i - limbs - 1 < a->n) ? a->w[i - limbs - 1] : 0;
    a->w[i] = r ? (uint32_t)((hi << r) | (lo >> (32 - r))) : (uint32_t)hi;
  }
  a->n = n;
  trim(a);
}

int tsift_big_cmp(const tsift_big *a, const tsift_big *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (uint32_t i = a->n; i-- > 0;)
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}

void tsift_big_sub(tsift_big *a, const tsift_big *b) {
  uint64_t borrow = 0;
  for (uint32_t i = 0; i < a->n; i++) {
    uint64_t t = (uint64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
    a->w[i] = (uint32_t)t;
    borrow = (t >> 32) & 1;
  }
  trim(a);
}

unsigned tsift_big_bitlen(const tsift_big *a) {
  if (a->n == 0) return 0;
  uint32_t top = a->w[a->n - 1];
  unsigned bits = 0;
  while (top) {
    bits++;
    top >>= 1;
  }
  return (a->n - 1) * 32 + bits;
}

uint32_t tsift_big_divmod(tsift_big *a, uint32_t d) {
  uint64_t rem = 0;
  for (uint32_t i = a->n; i-- > 0;) {
    uint64_t cur = (rem << 32) | a->w[i];
    a->w[i] = (uint32_t)(cur / d);
    rem = cur % d;
  }
  trim(a);
  return (uint32_t)rem;
}
