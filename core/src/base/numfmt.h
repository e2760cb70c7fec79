/* numfmt.h — a double as printf's "%.Nf" or "%.Ng" would print it, exactly,
 * without libc.
 *
 * Why not printf: wasi-libc's printf of doubles is musl's fmt_fp over long
 * double, which pulls in 128-bit soft-float (see numparse.h). fmt.c (the
 * core's snprintf) and with it cJSON's number printing (cjson_libc.h) use
 * this on every platform, so a number prints the same natively and in wasm
 * by construction; the text is glibc's (tests/c/test_numbers.c compares).
 *
 * Exact: the double m·2^e is turned into its full decimal expansion with
 * big integers (bignum.h), then rounded to nearest, ties to even, as glibc
 * does in the default rounding mode. */
#ifndef TSIFT_NUMFMT_H
#define TSIFT_NUMFMT_H

#include <stddef.h>

/* Longest text tsift_numfmt writes for a precision <= TSIFT_NUMFMT_MAX_PREC:
 * "-" + 309 integer digits + "." + the precision. */
#define TSIFT_NUMFMT_MAX_PREC 400
#define TSIFT_NUMFMT_BUF 720

/* Writes v as "%.<prec>f" (conv 'f') or "%.<prec>g" (conv 'g') — no flags,
 * no width — into out (TSIFT_NUMFMT_BUF bytes, NUL-terminated) and returns
 * its length; -1 when prec > TSIFT_NUMFMT_MAX_PREC or conv is neither.
 * inf and nan print as "inf", "-inf", "nan", "-nan" (glibc's spelling). */
int tsift_numfmt(char *out, double v, char conv, int prec);

#endif
