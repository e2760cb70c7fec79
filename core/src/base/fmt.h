/* fmt.h — the core's snprintf: the conversions the core and cJSON use, and
 * nothing else.
 *
 * Why: libc's printf family is the largest piece of libc in the wasm module
 * (with strtod, 15.6 KB of 144 KB gzip: musl's vfprintf formats doubles as
 * long double, which wasi-libc can only link with 128-bit soft-float). The
 * core calls these on every platform — one code path, so native and wasm
 * print the same bytes. Numbers: numfmt.h.
 *
 * Directives: %% and %[flags][width][.precision][length]conversion with
 *   flags       '-' (left-justify), '0' (pad numbers with zeros)
 *   width       digits or '*'
 *   precision   digits or '*': bytes of %s, digits after the point of %f,
 *               significant digits of %g (not allowed with d, i, u, x)
 *   length      l, ll, z
 *   conversion  d i u x s f g
 * Anything else (another flag or conversion, '#', h, L, %n, %p, %c, %e, …)
 * is refused: the call returns -1 with what came before it written. The
 * format attribute lets the compiler check argument types as for printf. */
#ifndef TSIFT_FMT_H
#define TSIFT_FMT_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define TSIFT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TSIFT_PRINTF(f, a)
#endif

/* C's vsnprintf/snprintf contract: writes at most cap - 1 bytes and a NUL
 * (when cap > 0), returns the length the whole text has (or -1, above). */
int tsift_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);
int tsift_snprintf(char *buf, size_t cap, const char *fmt, ...) TSIFT_PRINTF(3, 4);
/* sprintf, for cJSON (cjson_libc.h), which sizes its buffers itself. */
int tsift_sprintf(char *buf, const char *fmt, ...) TSIFT_PRINTF(2, 3);

#endif
