/* common.c — what every command file of the native CLI shares, below
 * them all: reading a whole file, printing a usage error or a core error,
 * printing the core's output. Apart from main.c so that the command files
 * (session_cmd.c, learn_cmd.c, calibrate_cmd.c, ...) call down into it,
 * never back up into the file that dispatches to them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "toolsift.h"

char *cli_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "toolsift: io: cannot read %s: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    char *bigger = realloc(buf, cap * 2);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  int failed = ferror(f);
  fclose(f);
  if (!buf || failed) {
    fprintf(stderr, "toolsift: io: cannot read %s\n", path);
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

int cli_usage(const char *command, const char *msg, const char *usage) {
  if (msg && command) fprintf(stderr, "toolsift: %s: %s\n", command, msg);
  else if (msg) fprintf(stderr, "toolsift: %s\n", msg);
  fputs(usage, stderr);
  return 2;
}

int cli_report(const tsift_error *err) {
  fprintf(stderr, "toolsift: %s: %s\n", tsift_status_name(err->status), err->message);
  return 1;
}

int cli_print_and_free(char *out, size_t len, int newline) {
  fwrite(out, 1, len, stdout);
  if (newline) fputc('\n', stdout);
  tsift_free(out);
  return fflush(stdout) == 0 ? 0 : 1;
}
