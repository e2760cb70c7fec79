/* cjson_libc.c — the sscanf cJSON calls (see cjson_libc.h). */
#include <stdarg.h>
#include <string.h>

#include "base/numparse.h"

int tsift_cjson_sscanf(const char *s, const char *fmt, ...);

/* Only sscanf(s, "%lg", &d), the one form cJSON uses: like glibc, it skips
 * white space, returns -1 (EOF) at the end of s, 0 when no number starts
 * there, 1 after storing one. Any other format converts nothing (0). */
int tsift_cjson_sscanf(const char *s, const char *fmt, ...) {
  if (strcmp(fmt, "%lg") != 0) return 0;
  while (*s == ' ' || (*s >= '\t' && *s <= '\r')) s++;
  if (!*s) return -1;
  char *end;
  double v = tsift_strtod(s, &end);
  if (end == s) return 0;
  va_list ap;
  va_start(ap, fmt);
  *va_arg(ap, double *) = v;
  va_end(ap);
  return 1;
}
