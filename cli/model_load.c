/* model_load.c — the static-embedding model in the CLI, below the commands
 * that use it (search and build --model in main.c, session_cmd.c,
 * calibrate_cmd.c, embed_cmd.c): finding a model's files by name or folder
 * (the rule of js/model-dir.js), reading them within their bounds, loading
 * the model, and the tools' and query's vectors from the core's
 * tsift_index_embed_static and tsift_static_model_vector_json. Apart from
 * embed_cmd.c so that no command file calls into another. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "model/static_model.h" /* the core's bounds: TSIFT_STATIC_MAX_FILE, _MAX_TOKENIZER */
#include "toolsift.h"

/* What a path that is not a regular file is, for the message. */
static const char *kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

/* 0 when st is a regular file of at most cap bytes, else 1 after printing
 * the io (not a regular file) or limit (too large) error naming path. */
static int refuse(const char *path, const struct stat *st, size_t cap, const char *what) {
  if (!S_ISREG(st->st_mode)) {
    fprintf(stderr, "toolsift: io: cannot read %s: not a regular file (%s)\n", path, kind_of(st->st_mode));
    return 1;
  }
  if ((unsigned long long)st->st_size > cap) {
    fprintf(stderr, "toolsift: limit: cannot read %s: %llu bytes, over the %zu-byte limit of %s\n", path,
            (unsigned long long)st->st_size, cap, what);
    return 1;
  }
  return 0;
}

/* A model file, whole, read within its bound (docs/semantic.md, "Reading
 * model files"; js/mcp/model.js readModelFile is the same rule): stat first,
 * so a FIFO (whose open for reading would block), a device such as
 * /dev/zero or a directory is refused by its type, and a file over cap by
 * its size, before it is opened; then opened without blocking, checked
 * again on the descriptor (the path may have changed), and read to that
 * size only: a byte more means it grew meanwhile, refused. malloc'd, or
 * NULL after printing an io or limit error naming the file. */
static char *read_model_file(const char *path, size_t cap, const char *what, size_t *len) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "toolsift: io: cannot read %s: %s\n", path, strerror(errno));
    return NULL;
  }
  if (refuse(path, &st, cap, what)) return NULL;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    fprintf(stderr, "toolsift: io: cannot read %s: %s\n", path, strerror(errno));
    return NULL;
  }
  char *buf = NULL;
  size_t n = 0, size = 0;
  int e = 0;
  if (fstat(fd, &st) != 0) e = errno;
  else if (refuse(path, &st, cap, what)) e = -1;
  else if (!(buf = malloc((size = (size_t)st.st_size) + 1))) e = ENOMEM;
  while (!e && n <= size) { /* up to one byte past the size: growth shows */
    ssize_t got = read(fd, buf + n, size + 1 - n);
    if (got < 0 && errno != EINTR) e = errno;
    else if (got == 0) break;
    else if (got > 0) n += (size_t)got;
  }
  close(fd);
  if (!e && n > size) {
    fprintf(stderr, "toolsift: io: cannot read %s: it grew while it was read\n", path);
    e = -1;
  } else if (e > 0) {
    fprintf(stderr, "toolsift: io: cannot read %s: %s\n", path, strerror(e));
  }
  if (e) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* stat succeeds (any type: what it is, read_model_file says), symbolic
 * links followed (the Hugging Face cache links files into blobs/). */
static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* `--model glove`: the project's real model, the folder `npm run model`
 * (scripts/model-glove.mjs) builds — env TOOLSIFT_GLOVE_DIR, else
 * build/models/glove beside this binary (build/native/toolsift), else
 * build/models/glove under the working directory; js/model-dir.js gloveDir
 * is the same rule (its package's build/models/glove). */
static const char *glove_dir(char *buf, size_t cap) {
  const char *env = getenv("TOOLSIFT_GLOVE_DIR");
  if (env && *env) return env;
#ifdef __linux__
  char exe[4096]; /* a longer path (readlink fills it): the working directory's */
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  char *slash = n > 0 && n < (ssize_t)sizeof exe - 1 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
  if (slash) {
    *slash = 0;
    snprintf(buf, cap, "%s/../models/glove", exe);
    return buf;
  }
#endif
  return "build/models/glove";
}

/* A model's three files (config.json's path whether or not it exists). */
typedef struct model_paths {
  char st[CLI_MODEL_PATH], tok[CLI_MODEL_PATH], config[CLI_MODEL_PATH];
  unsigned flags; /* TSIFT_STATIC_SENTENCE_TRANSFORMERS for a 0_StaticEmbedding/ folder: its pooling */
} model_paths;

/* The files of a model by name or folder, the rule of js/model-dir.js
 * resolveModelDir (docs/semantic.md, "Model folders"): "glove" is
 * glove_dir(); a folder holds model.safetensors and tokenizer.json
 * (model2vec), or — when it has no model.safetensors but modules.json and
 * 0_StaticEmbedding/model.safetensors — sentence-transformers keeps them in
 * 0_StaticEmbedding/; config.json beside model.safetensors. A folder of
 * neither layout gives the model2vec paths, so reading names the missing
 * file. 0, or 1 after printing the error. */
static int resolve_model_dir(const char *dir, model_paths *p) {
  char glove[4200];
  int is_glove = strcmp(dir, "glove") == 0;
  if (is_glove) dir = glove_dir(glove, sizeof glove);
  if (strlen(dir) > CLI_MODEL_PATH - 64) { /* the OS refuses it too (PATH_MAX): its words, as js/model-dir.js gets them */
    fprintf(stderr, "toolsift: io: cannot read %s/model.safetensors: %s\n", dir, strerror(ENAMETOOLONG));
    return 1;
  }
  const char *sub = "";
  snprintf(p->st, sizeof p->st, "%s/model.safetensors", dir);
  if (!exists(p->st)) {
    snprintf(p->st, sizeof p->st, "%s/modules.json", dir);
    snprintf(p->tok, sizeof p->tok, "%s/0_StaticEmbedding/model.safetensors", dir);
    if (exists(p->st) && exists(p->tok)) sub = "/0_StaticEmbedding";
  }
  p->flags = *sub ? TSIFT_STATIC_SENTENCE_TRANSFORMERS : 0;
  snprintf(p->st, sizeof p->st, "%s%s/model.safetensors", dir, sub);
  snprintf(p->tok, sizeof p->tok, "%s%s/tokenizer.json", dir, sub);
  snprintf(p->config, sizeof p->config, "%s%s/config.json", dir, sub);
  if (is_glove && !(exists(p->st) && exists(p->tok))) {
    fprintf(stderr, "toolsift: io: model glove is not built: run npm run model in the checkout\n");
    return 1;
  }
  return 0;
}

tsift_static_model *cli_load_model(const char *dir, const char *st_path, const char *tok_path) {
  model_paths p;
  const char *config_path = NULL;
  unsigned flags = 0;
  if (dir) {
    if (resolve_model_dir(dir, &p)) return NULL;
    if (!st_path) st_path = p.st;
    if (!tok_path) tok_path = p.tok;
    config_path = p.config;
    flags = p.flags;
  }
  /* in js/model-dir.js readModelFiles' order: a bad file is named the same way in every host */
  size_t slen = 0, klen = 0, clen = 0;
  char *st = read_model_file(st_path, TSIFT_STATIC_MAX_FILE, "a safetensors file", &slen);
  char *tok = st ? read_model_file(tok_path, TSIFT_STATIC_MAX_TOKENIZER, "a tokenizer.json file", &klen) : NULL;
  /* config.json, when there, is read within its bound and handed to the
   * core: the model's calibrated fusion parameters (tsift_static_model_configure) */
  char *config = NULL;
  int config_bad = 0;
  if (tok && config_path && exists(config_path))
    config_bad = !(config = read_model_file(config_path, CLI_MODEL_MAX_CONFIG, "a config.json file", &clen));
  tsift_static_model *model = NULL;
  tsift_error err;
  if (st && tok && !config_bad &&
      (tsift_static_model_load_flags((const uint8_t *)st, slen, tok, klen, flags, &model, &err) ||
       (config && tsift_static_model_configure(model, config, clen, &err)))) {
    cli_report(&err);
    tsift_static_model_free(model);
    model = NULL;
  }
  free(st);
  free(tok);
  free(config);
  return model;
}

int cli_embed_index(tsift_index *ix, const tsift_static_model *model) {
  tsift_error err;
  size_t without = 0;
  if (tsift_index_embed_static(ix, model, &without, &err)) {
    cli_report(&err);
    return 1;
  }
  if (without)
    fprintf(stderr, "toolsift: note: %zu tool(s) have no token the model knows: no vector (BM25F only)\n", without);
  return 0;
}

char *cli_query_vector(const tsift_static_model *model, const char *query, size_t *len) {
  tsift_error err;
  char *out = NULL;
  if (tsift_static_model_vector_json(model, query, strlen(query), &out, len, &err)) {
    cli_report(&err);
    return NULL;
  }
  return out;
}
