/* journal_key.c — the journal key a CLI command was given: --journal-key-file
 * FILE, else env TOOLSIFT_JOURNAL_KEY (even set to ""). Whatever was given is
 * checked by the core's one reader (tsift_journal_key_check): an empty,
 * white-space, short, long, non-hex or NUL-holding key is an error naming
 * its source, never "no key" — a journal whose digests anyone can recompute
 * must not verify because a key file was empty. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "toolsift.h"

int cli_journal_key(const char *key_file, const char *bytes, size_t len, char out[CLI_JOURNAL_KEY_MAX + 1]) {
  out[0] = 0;
  const char *env = getenv("TOOLSIFT_JOURNAL_KEY");
  if (!key_file && !env) return 0; /* no key given: journals are chained without one */
  const char *text = env;
  char where[300];
  if (key_file) {
    /* a key file ends with a newline (echo's, an editor's): one line ending is not the key */
    if (len && bytes[len - 1] == '\n') len--;
    if (len && bytes[len - 1] == '\r') len--;
    text = bytes;
    snprintf(where, sizeof where, "--journal-key-file %s", key_file);
  } else {
    len = strlen(env);
    snprintf(where, sizeof where, "TOOLSIFT_JOURNAL_KEY");
  }
  tsift_error err;
  if (tsift_journal_key_check(text, len, where, &err) != TSIFT_OK) {
    cli_report(&err);
    return 1;
  }
  memcpy(out, text, len); /* checked: at most CLI_JOURNAL_KEY_MAX hex digits */
  out[len] = 0;
  return 0;
}
