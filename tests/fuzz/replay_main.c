/* replay_main.c — a plain main() for the fuzz targets, so their committed
 * corpora (seeds and every crash reproducer) run as ordinary ctest cases in
 * any build, with or without clang, sanitizers or libFuzzer.
 *
 *   fuzz_<name>_replay DIR|FILE...   run every file once; exit 1 if none
 *
 * A broken contract aborts inside the target (FUZZ_ASSERT), like under
 * libFuzzer. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return -1;
  }
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      uint8_t *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (!buf) return -1;
  /* An exact-size copy, so ASan sees reads past the input. */
  uint8_t *exact = malloc(len ? len : 1);
  if (!exact) {
    free(buf);
    return -1;
  }
  memcpy(exact, buf, len);
  free(buf);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
  size_t ran = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "%s: no such file or directory\n", argv[i]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (run_file(argv[i])) return 1;
      ran++;
      continue;
    }
    DIR *d = opendir(argv[i]);
    if (!d) return 1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') continue;
      if (n == cap) {
        cap = cap ? cap * 2 : 16;
        char **nn = realloc(names, cap * sizeof *names);
        if (!nn) return 1;
        names = nn;
      }
      names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    for (size_t k = 0; k < n; k++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
      if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        if (run_file(path)) return 1;
        ran++;
      }
      free(names[k]);
    }
    free(names);
  }
  printf("%zu input(s) ran\n", ran);
  return ran ? 0 : 1;
}
