/* json_text.c — option objects composed from verbatim JSON pieces (a file's
 * bytes, a flag's value) for the core to read strictly: the CLI never
 * parses JSON, it only places text. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

char *cli_json_with(const char *object, const char *key, const char *value, size_t vlen) {
  /* the members of `object` after its "{": where the new member goes first */
  const char *rest = "}";
  if (object) {
    const char *p = object;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (*p == '{') rest = p + 1;
    else if (*p) rest = NULL; /* not an object: the core reports it, untouched */
    /* nothing but white space: no options, as the core reads an empty text */
  }
  if (!rest) {
    char *copy = malloc(strlen(object) + 1);
    if (copy) strcpy(copy, object);
    return copy;
  }
  const char *q = rest;
  while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
  int empty = *q == '}';
  size_t klen = strlen(key), rlen = strlen(rest);
  char *out = malloc(klen + vlen + rlen + 8);
  if (!out) return NULL;
  char *o = out;
  *o++ = '{';
  *o++ = '"';
  memcpy(o, key, klen);
  o += klen;
  *o++ = '"';
  *o++ = ':';
  memcpy(o, value, vlen);
  o += vlen;
  if (!empty) *o++ = ',';
  memcpy(o, rest, rlen + 1);
  return out;
}
