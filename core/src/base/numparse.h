/* numparse.h — decimal text to double, correctly rounded, without libc.
 *
 * Why not strtod: wasi-libc's strtod is musl's __floatscan, which pulls in
 * 128-bit long-double soft-float (about 15 KB of the gzipped module together
 * with printf). The core and cJSON (through cjson_libc.h) use this one on
 * every platform, so a number reads as the same double natively and in wasm
 * by construction, and it is the double glibc's strtod gives (tests/c/test_numbers.c
 * compares them). */
#ifndef TSIFT_NUMPARSE_H
#define TSIFT_NUMPARSE_H

/* strtod for decimal numbers: optional leading white space, an optional
 * sign, digits with an optional '.', an optional exponent ('e' or 'E', an
 * optional sign, digits). Rounds to nearest, ties to even, with overflow to
 * ±inf and gradual underflow to subnormals and ±0, as glibc does. *end (when
 * end is not NULL) points after the longest such prefix, or at s when there
 * is none (the result is then 0).
 *
 * Not read: hexadecimal numbers, "inf", "nan" (strtod's other forms): cJSON,
 * the caller, hands over only the characters 0-9 + - . e E. errno is not set. */
double tsift_strtod(const char *s, char **end);

#endif
