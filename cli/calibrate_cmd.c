/* calibrate_cmd.c — `toolsift calibrate --model DIR --catalog FILE
 * [--queries Q.jsonl] [--json]`: the fusion parameters the core proposes
 * for a static model on a catalog (tsift_calibrate_json, docs/semantic.md
 * "Calibrating a model"), with the table it chose from. Reads the files,
 * hands their bytes to the core, prints what it wrote; js/cli.js does the
 * same over wasm and prints the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "toolsift.h"

static const char CALIBRATE_USAGE[] =
    "usage: toolsift calibrate --model DIR --catalog FILE [--queries Q.jsonl] [--json]\n";

static int usage(const char *msg) { return cli_usage("calibrate", msg, CALIBRATE_USAGE); }

int cli_calibrate(int argc, char **argv) {
  const char *model_dir = NULL, *catalog = NULL, *queries = NULL;
  int json = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--json") == 0) json = 1;
    else if (i + 1 >= argc) return usage("an option needs a value, or is unknown");
    else if (strcmp(a, "--model") == 0) model_dir = argv[++i];
    else if (strcmp(a, "--catalog") == 0) catalog = argv[++i];
    else if (strcmp(a, "--queries") == 0) queries = argv[++i];
    else return usage("unknown option");
  }
  if (!model_dir || !catalog) return usage("--model and --catalog are required");
  size_t clen = 0, qlen = 0;
  char *ctext = cli_read_file(catalog, &clen);
  char *qtext = ctext && queries ? cli_read_file(queries, &qlen) : NULL;
  int rc = !ctext || (queries && !qtext);
  struct tsift_static_model *model = rc ? NULL : cli_load_model(model_dir, NULL, NULL);
  if (!rc && !model) rc = 1; /* cli_load_model said why */
  if (!rc) {
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    if (tsift_calibrate_json(ctext, clen, qtext, qlen, model, !json, &out, &len, &err)) {
      cli_report(&err);
      rc = 1;
    } else {
      fwrite(out, 1, len, stdout);
      if (json) fputc('\n', stdout);
      tsift_free(out);
    }
  }
  tsift_static_model_free(model);
  free(ctext);
  free(qtext);
  return rc;
}
