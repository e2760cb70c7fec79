/* mathx.c — deterministic natural logarithm (see mathx.h). */
#include "base/mathx.h"

double tsift_ln(double x) {
  if (!(x > 0)) return 0.0; /* never called so; keep it total */
  /* Range reduction by exact scaling with powers of two: x = m * 2^e with
   * m in [sqrt(1/2), sqrt(2)). Multiplying by 2 or 0.5 is exact. */
  int e = 0;
  double m = x;
  while (m >= 1.4142135623730951) {
    m *= 0.5;
    e++;
  }
  while (m < 0.7071067811865476) {
    m *= 2.0;
    e--;
  }
  /* ln(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.1716: a fixed 20-term series. */
  double s = (m - 1.0) / (m + 1.0);
  double s2 = s * s;
  double term = s, sum = 0.0;
  for (int k = 1; k <= 41; k += 2) {
    sum += term / (double)k;
    term *= s2;
  }
  return 2.0 * sum + (double)e * 0.6931471805599453;
}
