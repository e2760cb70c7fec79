/* mathx.h — floating-point helpers with results that do not depend on the
 * platform's libm (glibc, musl/wasi-libc and emscripten differ in the last
 * bit of log()). Built only from +, -, *, / which IEEE 754 fixes exactly. */
#ifndef TSIFT_MATHX_H
#define TSIFT_MATHX_H

/* Natural logarithm of a finite x > 0 (|error| < 1e-15 relative). */
double tsift_ln(double x);

#endif
