/* fmt.c — see fmt.h. */
#include "base/fmt.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "base/numfmt.h"

typedef struct {
  char *buf;
  size_t cap; /* bytes of buf; the text is cut at cap - 1 */
  size_t len; /* length of the whole text so far, cut or not */
} sink;

static void put(sink *o, const char *s, size_t n) {
  if (o->len + 1 < o->cap) {
    size_t room = o->cap - 1 - o->len;
    memcpy(o->buf + o->len, s, n < room ? n : room);
  }
  o->len += n;
}

static void pad(sink *o, char c, size_t n) {
  while (n--) put(o, &c, 1);
}

/* One converted field: sign (or "") then body, padded to width. */
static void field(sink *o, const char *sign, const char *body, size_t blen, size_t width, int left, int zero) {
  size_t slen = strlen(sign), len = slen + blen, fill = width > len ? width - len : 0;
  if (!left && !zero) pad(o, ' ', fill);
  put(o, sign, slen);
  if (!left && zero) pad(o, '0', fill);
  put(o, body, blen);
  if (left) pad(o, ' ', fill);
}

/* A non-negative decimal int from *f (width, precision), saturating. */
static int read_int(const char **f) {
  int v = 0;
  for (; **f >= '0' && **f <= '9'; (*f)++) v = v > INT_MAX / 10 - 1 ? INT_MAX : v * 10 + (**f - '0');
  return v;
}

int tsift_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap) {
  sink o = {buf, cap, 0};
  int ok = 1;
  const char *f = fmt;
  while (*f) {
    if (*f != '%') {
      const char *lit = f;
      while (*f && *f != '%') f++;
      put(&o, lit, (size_t)(f - lit));
      continue;
    }
    f++;
    if (*f == '%') {
      put(&o, f++, 1);
      continue;
    }
    int left = 0, zero = 0;
    for (;; f++) {
      if (*f == '-') left = 1;
      else if (*f == '0') zero = 1;
      else break;
    }
    size_t width = 0;
    if (*f == '*') {
      f++;
      int w = va_arg(ap, int);
      if (w < 0) {
        left = 1;
        w = w == INT_MIN ? INT_MAX : -w;
      }
      width = (size_t)w;
    } else width = (size_t)read_int(&f);
    int prec = -1;
    if (*f == '.') {
      f++;
      if (*f == '*') {
        f++;
        prec = va_arg(ap, int); /* negative: as if none */
        if (prec < 0) prec = -1;
      } else prec = read_int(&f);
    }
    int lng = 0; /* 1 l, 2 ll, 3 z */
    if (*f == 'l') lng = *++f == 'l' ? (f++, 2) : 1;
    else if (*f == 'z') lng = (f++, 3);
    char conv = *f++;
    char num[TSIFT_NUMFMT_BUF];
    if (conv == 's' && lng == 0) {
      const char *s = va_arg(ap, const char *);
      if (!s) s = "(null)";
      size_t n = 0;
      while ((prec < 0 || n < (size_t)prec) && s[n]) n++;
      field(&o, "", s, n, width, left, 0);
    } else if ((conv == 'd' || conv == 'i') && prec < 0) {
      long long v = lng == 0 ? va_arg(ap, int) : lng == 1 ? va_arg(ap, long) : lng == 2 ? va_arg(ap, long long)
                                                                            : (long long)va_arg(ap, size_t);
      unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
      char *e = num + sizeof num, *p = e;
      do *--p = (char)('0' + u % 10);
      while (u /= 10);
      field(&o, v < 0 ? "-" : "", p, (size_t)(e - p), width, left, zero);
    } else if ((conv == 'u' || conv == 'x') && prec < 0) {
      unsigned long long u = lng == 0   ? va_arg(ap, unsigned)
                             : lng == 1 ? va_arg(ap, unsigned long)
                             : lng == 2 ? va_arg(ap, unsigned long long)
                                        : va_arg(ap, size_t);
      unsigned base = conv == 'x' ? 16 : 10;
      char *e = num + sizeof num, *p = e;
      do *--p = "0123456789abcdef"[u % base];
      while (u /= base);
      field(&o, "", p, (size_t)(e - p), width, left, zero);
    } else if ((conv == 'f' || conv == 'g') && lng <= 1) {
      double v = va_arg(ap, double);
      int n = tsift_numfmt(num, v, conv, prec);
      if (n < 0) {
        ok = 0;
        break;
      }
      int neg = num[0] == '-', finite = v - v == 0;
      field(&o, neg ? "-" : "", num + neg, (size_t)(n - neg), width, left, zero && finite);
    } else {
      ok = 0; /* not a conversion fmt.h lists */
      break;
    }
  }
  if (cap) buf[o.len < cap ? o.len : cap - 1] = 0;
  if (!ok || o.len > INT_MAX) return -1;
  return (int)o.len;
}

int tsift_snprintf(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = tsift_vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  return n;
}

int tsift_sprintf(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = tsift_vsnprintf(buf, (size_t)INT_MAX + 1, fmt, ap);
  va_end(ap);
  return n;
}
