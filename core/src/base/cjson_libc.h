/* cjson_libc.h — force-included into cJSON.c (CMakeLists.txt: -include), so
 * that cJSON reads and prints numbers with the core's code instead of libc's.
 * cJSON itself stays unedited (third_party/ is fetched and checksummed).
 *
 * cJSON 1.7.15 calls, besides memory and string functions:
 *   strtod(s, &end)               parse_number: s holds only 0-9 + - . e E
 *   sprintf(b, "%1.15g"/"%1.17g"), sprintf(b, "null")
 *                                 print_number
 *   sscanf(b, "%lg", &d)          print_number: does %1.15g read back?
 *   sprintf(b, "u%04x", c)        print_string_ptr: a control character
 *   sprintf(b, "%i.%i.%i", …)     cJSON_Version
 * All of them land here; fmt.h covers every sprintf format above.
 *
 * Why: libc's versions pull musl's vfprintf and __floatscan with 128-bit
 * long-double soft-float into the wasm module (15.6 KB gzip), and one code
 * path on every platform makes native and wasm parse and print the same
 * numbers by construction. tests/c/test_numbers.c checks that cJSON's
 * output is still byte for byte what glibc's functions give. */
#ifndef TSIFT_CJSON_LIBC_H
#define TSIFT_CJSON_LIBC_H

/* The libc headers first, with their own declarations (and any fortify
 * macros), then the renames apply to cJSON's calls only. */
#include <stdio.h>
#include <stdlib.h>

int tsift_sprintf(char *buf, const char *fmt, ...);
double tsift_strtod(const char *s, char **end);
int tsift_cjson_sscanf(const char *s, const char *fmt, ...);

#undef sprintf
#undef strtod
#undef sscanf
#define sprintf tsift_sprintf
#define strtod tsift_strtod
#define sscanf tsift_cjson_sscanf

#endif
