/* learn_cmd.c — `toolsift learn`: a catalog's vocabulary learned from
 * recorded runs and labelled examples (docs/learning.md), and `toolsift
 * learn --diff OLD NEW`, what a new vocabulary would change. Reads the
 * files (a folder of journals: its *.jsonl files in name order), hands their
 * bytes to the core and writes the core's JSON; the file it writes is
 * private (0600: it holds words of users' requests). js/cli.js does the
 * same over wasm and prints the same bytes. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "toolsift.h"

#define MAX_INPUTS 256

static const char LEARN_USAGE[] =
    "usage: toolsift learn --catalog FILE [--journals FILE|DIR]... [--examples FILE]... [-o LEARNED.json]\n"
    "                      [--options JSON] [--min-sessions N] [--min-clients N] [--max-per-client N]\n"
    "                      [--min-share X] [--min-examples N] [--unverified refuse|skip|accept]\n"
    "                      [--journal-key-file KEY]\n"
    "       toolsift learn --diff OLD.json NEW.json\n";

static int usage(const char *msg) { return cli_usage("learn", msg, LEARN_USAGE); }

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Feed one journal file to the learner; 0, or 1 after a message. */
static int add_journal(tsift_learner *l, const char *path) {
  size_t len = 0;
  char *text = cli_read_file(path, &len);
  if (!text) return 1;
  tsift_error err;
  int rc = tsift_learner_add_journal(l, path, text, len, &err) ? cli_report(&err) : 0;
  free(text);
  return rc;
}

/* A journal file, or every *.jsonl file of a folder in name order. */
static int add_journals(tsift_learner *l, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return add_journal(l, path);
  DIR *dir = opendir(path);
  if (!dir) {
    fprintf(stderr, "toolsift: io: cannot read the folder %s\n", path);
    return 1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  for (struct dirent *e; (e = readdir(dir)) != NULL;) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 6, ".jsonl") != 0) continue;
    if (n == cap) {
      char **bigger = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
      if (!bigger) {
        rc = 1;
        break;
      }
      names = bigger;
    }
    size_t plen = strlen(path);
    names[n] = malloc(plen + len + 2);
    if (!names[n]) {
      rc = 1;
      break;
    }
    snprintf(names[n], plen + len + 2, "%s/%s", path, e->d_name);
    n++;
  }
  closedir(dir);
  if (rc) fputs("toolsift: nomem: out of memory\n", stderr);
  qsort(names, n, sizeof *names, name_cmp);
  for (size_t i = 0; i < n && !rc; i++) rc = add_journal(l, names[i]);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}

/* Write `data` to `path`, readable by its owner only. */
static int write_private(const char *path, const char *data, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int ok = fd >= 0 && fchmod(fd, 0600) == 0;
  for (size_t off = 0; ok && off < len;) {
    ssize_t w = write(fd, data + off, len - off);
    ok = w > 0;
    if (ok) off += (size_t)w;
  }
  if (fd >= 0 && close(fd) != 0) ok = 0;
  if (!ok) fprintf(stderr, "toolsift: io: cannot write %s\n", path);
  return !ok;
}

static int diff(const char *old_path, const char *new_path) {
  size_t ol = 0, nl = 0;
  char *a = cli_read_file(old_path, &ol);
  char *b = a ? cli_read_file(new_path, &nl) : NULL;
  int rc = !b;
  if (b) {
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    if (tsift_learn_diff_json(a, ol, b, nl, &out, &len, &err)) rc = cli_report(&err);
    else {
      fwrite(out, 1, len, stdout);
      fputc('\n', stdout);
    }
    tsift_free(out);
  }
  free(a);
  free(b);
  return rc;
}

/* The learner's options: --options JSON with the flags added (each value
 * verbatim; the core reads them strictly). malloc'd, NULL when out of memory. */
static char *learn_options(const char *options, const char *const flags[][2], size_t nflags, const char *key) {
  char *o = malloc(3);
  if (!o) return NULL;
  strcpy(o, options ? "" : "{}");
  if (options) {
    free(o);
    o = malloc(strlen(options) + 1);
    if (!o) return NULL;
    strcpy(o, options);
  }
  for (size_t i = 0; i < nflags && o; i++) {
    if (!flags[i][1]) continue;
    char *next = cli_json_with(o, flags[i][0], flags[i][1], strlen(flags[i][1]));
    free(o);
    o = next;
  }
  if (o && key[0]) {
    char quoted[200];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    char *next = cli_json_with(o, "journalKey", quoted, strlen(quoted));
    free(o);
    o = next;
  }
  return o;
}

int cli_learn(int argc, char **argv) {
  const char *catalog = NULL, *output = NULL, *options = NULL, *key_file = NULL;
  const char *journals[MAX_INPUTS], *examples[MAX_INPUTS];
  size_t nj = 0, ne = 0;
  const char *min_sessions = NULL, *min_clients = NULL, *max_per_client = NULL, *min_share = NULL,
             *min_examples = NULL;
  const char *unverified = NULL;
  if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
    fputs(LEARN_USAGE, stdout);
    return 0;
  }
  if (argc >= 3 && strcmp(argv[2], "--diff") == 0) {
    if (argc != 5) return usage("--diff takes OLD.json NEW.json");
    return diff(argv[3], argv[4]);
  }
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], **slot = NULL;
    if (i + 1 >= argc) return usage("every option takes a value");
    if (strcmp(a, "--catalog") == 0) slot = &catalog;
    else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) slot = &output;
    else if (strcmp(a, "--options") == 0) slot = &options;
    else if (strcmp(a, "--journal-key-file") == 0) slot = &key_file;
    else if (strcmp(a, "--min-sessions") == 0) slot = &min_sessions;
    else if (strcmp(a, "--min-clients") == 0) slot = &min_clients;
    else if (strcmp(a, "--max-per-client") == 0) slot = &max_per_client;
    else if (strcmp(a, "--min-share") == 0) slot = &min_share;
    else if (strcmp(a, "--min-examples") == 0) slot = &min_examples;
    else if (strcmp(a, "--unverified") == 0) slot = &unverified;
    else if (strcmp(a, "--journals") == 0 && nj < MAX_INPUTS) slot = &journals[nj++];
    else if (strcmp(a, "--examples") == 0 && ne < MAX_INPUTS) slot = &examples[ne++];
    else {
      fprintf(stderr, "toolsift: learn: unexpected argument %s\n", a);
      return usage(NULL);
    }
    *slot = argv[++i];
  }
  if (!catalog) return usage("--catalog FILE is required");
  if (!nj && !ne) return usage("give --journals FILE|DIR or --examples FILE (or both)");
  /* The journal key: --journal-key-file, else env TOOLSIFT_JOURNAL_KEY, checked (journal_key.c). */
  char key[CLI_JOURNAL_KEY_MAX + 1];
  size_t klen = 0;
  char *k = key_file ? cli_read_file(key_file, &klen) : NULL;
  if (key_file && !k) return 1;
  int bad = cli_journal_key(key_file, k, klen, key);
  if (k) memset(k, 0, klen);
  free(k);
  if (bad) return 1;
  char quoted_unverified[32] = "";
  if (unverified) snprintf(quoted_unverified, sizeof quoted_unverified, "\"%.20s\"", unverified);
  const char *flags[][2] = {{"unverified", unverified ? quoted_unverified : NULL},
                            {"minExamples", min_examples},
                            {"minShare", min_share},
                            {"maxPerClient", max_per_client},
                            {"minClients", min_clients},
                            {"minSessions", min_sessions}};
  char *opts = learn_options(options, flags, sizeof flags / sizeof *flags, key);
  size_t clen = 0;
  char *ctext = opts ? cli_read_file(catalog, &clen) : NULL;
  if (!opts) fputs("toolsift: nomem: out of memory\n", stderr);
  if (!ctext) {
    free(opts);
    return 1;
  }
  tsift_learner *l = NULL;
  tsift_error err;
  int rc = tsift_learner_new(ctext, clen, opts, strlen(opts), &l, &err) ? cli_report(&err) : 0;
  free(ctext);
  free(opts);
  for (size_t i = 0; i < nj && !rc; i++) rc = add_journals(l, journals[i]);
  for (size_t i = 0; i < ne && !rc; i++) {
    size_t len = 0;
    char *text = cli_read_file(examples[i], &len);
    if (!text) rc = 1;
    else if (tsift_learner_add_examples(l, examples[i], text, len, &err)) rc = cli_report(&err);
    free(text);
  }
  char *out = NULL;
  size_t len = 0;
  if (!rc && tsift_learner_finish(l, &out, &len, &err)) rc = cli_report(&err);
  if (!rc) {
    if (output) rc = write_private(output, out, len);
    else {
      fwrite(out, 1, len, stdout);
      fputc('\n', stdout);
    }
  }
  tsift_free(out);
  tsift_learner_free(l);
  return rc;
}
