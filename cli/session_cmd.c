/* session_cmd.c — `toolsift session run | replay | menu | prompt`: reads a session
 * configuration, the catalog file it names (relative to it) and a calls
 * file, hands their bytes to the core (tsift_session_open,
 * tsift_session_call_next: the core reads every byte of JSON) and prints one
 * JSON line per call. The JS CLI (js/cli.js) does the same over wasm and
 * prints the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "toolsift.h"

/* The catalog file a configuration names: relative to the configuration
 * file's folder, an absolute path as it is. malloc'd; NULL when out of memory. */
static char *catalog_path(const char *config_path, const char *file) {
  const char *slash = strrchr(config_path, '/');
  size_t dir = (file[0] == '/' || !slash) ? 0 : (size_t)(slash - config_path) + 1;
  char *path = malloc(dir + strlen(file) + 1);
  if (path) {
    memcpy(path, config_path, dir);
    strcpy(path + dir, file);
  }
  return path;
}

/* An error of opening the session; the configuration's own errors
 * ("config: …") name its file. */
static void report(const char *config, const tsift_error *err) {
  const char *m = err->message;
  int own = strncmp(m, "config: ", 8) == 0;
  fprintf(stderr, "toolsift: %s: %s%s%s%s\n", tsift_status_name(err->status), own ? "config file " : "",
          own ? config : "", own ? ": " : "", own ? m + 8 : m);
}

/* The configuration's bytes and, when it names one, its catalog file's
 * (*catalog, else NULL); 0, or 1 after a message. */
static int load_config(const char *path, char **config, size_t *config_len, char **catalog, size_t *catalog_len) {
  *catalog = NULL;
  *config = cli_read_file(path, config_len);
  if (!*config) return 1;
  char *file = NULL;
  tsift_error err;
  if (tsift_session_config_catalog(*config, *config_len, &file, NULL, &err)) {
    report(path, &err);
    free(*config);
    return 1;
  }
  if (!file) return 0;
  char *cat_path = catalog_path(path, file);
  tsift_free(file);
  if (!cat_path) fputs("toolsift: nomem: out of memory\n", stderr);
  *catalog = cat_path ? cli_read_file(cat_path, catalog_len) : NULL;
  free(cat_path);
  if (*catalog) return 0;
  free(*config);
  return 1;
}

static int write_file(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
    fprintf(stderr, "toolsift: io: cannot write %s\n", path);
    return 1;
  }
  return 0;
}

/* Run every call of CALLS through the session; 0 when all went through. */
static int run_calls(tsift_session *s, const char *calls, size_t len) {
  int rc = 0;
  size_t pos = 0, line = 0;
  for (;;) {
    char *out = NULL;
    size_t out_len = 0;
    tsift_error err;
    tsift_status st = tsift_session_call_next(s, calls, len, &pos, &line, &out, &out_len, &err);
    if (st == TSIFT_OK && !out) break; /* the end */
    if (st == TSIFT_E_CONFIG) { /* a line that is not a call: printed without a code, as it always was */
      fprintf(stderr, "toolsift: %s\n", err.message);
      rc = 1;
    } else if (st != TSIFT_OK) {
      fprintf(stderr, "toolsift: %s: %s\n", tsift_status_name(st), err.message);
      rc = 1;
    } else {
      fwrite(out, 1, out_len, stdout);
      fputc('\n', stdout);
    }
    tsift_free(out);
  }
  return rc;
}

/* What the subcommand asks to be printed and written. */
typedef struct session_outs {
  int is_verify, is_menu, is_prompt, is_replay;
  const char *format, *journal_out;
} session_outs;

/* The session options of the command line: --divergence and the journal
 * key, then --client NAME (a JSON string; the core checks the name) and
 * --annotations FILE (its bytes verbatim) joined to them. malloc'd, or NULL
 * when there are none (or out of memory). */
static char *session_options(const char *divergence, const char *key, const char *client, const char *atext,
                             size_t alen) {
  char base[256] = "";
  if (divergence || key[0])
    snprintf(base, sizeof base, "{\"divergence\":\"%s\"%s%s%s}", divergence ? divergence : "fail",
             key[0] ? ",\"journalKey\":\"" : "", key, key[0] ? "\"" : "");
  char *opts = NULL, quoted[200] = "";
  if (client) {
    size_t o = 0;
    quoted[o++] = '"';
    for (const char *c = client; *c && o + 3 < sizeof quoted; c++) {
      if (*c == '"' || *c == '\\') quoted[o++] = '\\';
      quoted[o++] = *c;
    }
    quoted[o++] = '"';
    quoted[o] = 0;
  }
  {
    char *o1 = client ? cli_json_with(base[0] ? base : NULL, "client", quoted, strlen(quoted)) : NULL;
    const char *b1 = o1 ? o1 : base[0] ? base : NULL;
    opts = atext ? cli_json_with(b1, "annotations", atext, alen) : NULL;
    if (opts) free(o1);
    else if (o1) opts = o1;
    else if (base[0]) {
      opts = malloc(strlen(base) + 1);
      if (opts) strcpy(opts, base);
    }
  }
  return opts;
}

/* What a session command prints and writes once the session is open:
 * verify's verdict, the calls' outputs, the skill index (prompt), the menu,
 * the unasked warning of a replay, the journal (--journal-out). Returns the
 * exit status. */
static int session_outputs(tsift_session *s, const session_outs *o, const char *jtext, const char *ctext,
                           size_t calls_len) {
  int rc = 0;
  int is_verify = o->is_verify, is_menu = o->is_menu, is_prompt = o->is_prompt, is_replay = o->is_replay;
  const char *format = o->format, *journal_out = o->journal_out;
  tsift_error err;
  if (is_verify) { /* the chain's verdict; exit 1 unless the journal verifies */
    char *v = NULL;
    size_t v_len = 0;
    if (tsift_session_verify_json(s, &v, &v_len, &err)) {
      cli_report(&err);
      rc = 1;
    } else {
      fwrite(v, 1, v_len, stdout);
      fputc('\n', stdout);
      rc = strncmp(v, "{\"verified\":true", 16) != 0;
    }
    tsift_free(v);
  }
  if (ctext) rc = run_calls(s, ctext, calls_len);
  else if (is_menu && jtext && tsift_session_apply_journal(s, &err)) {
    cli_report(&err);
    rc = 1;
  }
  char *out = NULL;
  size_t out_len = 0;
  if (is_prompt) { /* the skill index, as the host puts it in the system prompt */
    if (tsift_session_skill_index(s, &out, &out_len, &err)) {
      cli_report(&err);
      rc = 1;
    } else {
      fwrite(out, 1, out_len, stdout);
    }
    tsift_free(out);
    out = NULL;
  }
  if (is_menu) {
    if (tsift_session_menu_json(s, format, &out, &out_len, &err)) {
      cli_report(&err);
      rc = 1;
    } else {
      fwrite(out, 1, out_len, stdout);
      fputc('\n', stdout);
    }
    tsift_free(out);
  }
  if (is_replay || (is_menu && jtext)) {
    out = NULL;
    if (tsift_session_finish(s, &out, &out_len, &err)) {
      cli_report(&err);
      rc = 1;
    } else if (out && strcmp(out, "{\"unasked\":[]}") != 0) {
      fprintf(stderr, "toolsift: warning: %s\n", out);
    }
    tsift_free(out);
  }
  /* The journal is written even when a call failed: nothing accepted is lost. */
  if (journal_out) {
    out = NULL;
    if (tsift_session_journal_jsonl(s, &out, &out_len, &err) == TSIFT_OK)
      rc |= write_file(journal_out, out, out_len);
    else
      rc = 1;
    tsift_free(out);
  }
  return rc;
}

static const char SESSION_USAGE[] =
    "usage: toolsift session run|replay|menu|prompt|verify --config CONFIG.json [options]\n";

int cli_session(int argc, char **argv) {
  if (argc < 3) return cli_usage(NULL, NULL, SESSION_USAGE);
  const char *sub = argv[2];
  const char *config = NULL, *calls = NULL, *journal = NULL, *journal_out = NULL, *divergence = NULL,
             *format = "mcp", *index = NULL, *key_file = NULL, *model_dir = NULL, *annotations = NULL,
             *client = NULL;
  for (int i = 3; i < argc; i++) {
    const char **slot = NULL;
    if (strcmp(argv[i], "--config") == 0) slot = &config;
    else if (strcmp(argv[i], "--calls") == 0) slot = &calls;
    else if (strcmp(argv[i], "--journal") == 0) slot = &journal;
    else if (strcmp(argv[i], "--journal-out") == 0) slot = &journal_out;
    else if (strcmp(argv[i], "--divergence") == 0) slot = &divergence;
    else if (strcmp(argv[i], "--format") == 0) slot = &format;
    else if (strcmp(argv[i], "--index") == 0) slot = &index;
    else if (strcmp(argv[i], "--journal-key-file") == 0) slot = &key_file;
    else if (strcmp(argv[i], "--model") == 0) slot = &model_dir;
    else if (strcmp(argv[i], "--annotations") == 0) slot = &annotations;
    else if (strcmp(argv[i], "--client") == 0) slot = &client;
    if (!slot || i + 1 >= argc) {
      fprintf(stderr, "toolsift: session: unexpected argument %s\n", argv[i]);
      return 2;
    }
    *slot = argv[++i];
  }
  int is_run = strcmp(sub, "run") == 0, is_replay = strcmp(sub, "replay") == 0,
      is_menu = strcmp(sub, "menu") == 0, is_prompt = strcmp(sub, "prompt") == 0,
      is_verify = strcmp(sub, "verify") == 0;
  if (!is_run && !is_replay && !is_menu && !is_prompt && !is_verify) {
    fprintf(stderr, "toolsift: session: unknown subcommand %s (run, replay, menu, prompt, verify)\n", sub);
    return 2;
  }
  if (!config || ((is_run || is_replay) && !calls) || ((is_replay || is_verify) && !journal)) {
    fputs("toolsift: session: run needs --config and --calls; replay also --journal; menu needs --config; "
          "verify --config and --journal\n",
          stderr);
    return 2;
  }
  if (is_verify) divergence = "off"; /* every problem reported, none fatal */
  if (divergence && strcmp(divergence, "fail") && strcmp(divergence, "warn") && strcmp(divergence, "off")) {
    fputs("toolsift: session: --divergence must be fail, warn or off\n", stderr);
    return 2;
  }
  size_t cfg_len = 0, cat_len = 0, j_len = 0, calls_len = 0, snap_len = 0;
  char *cfg = NULL, *cat = NULL;
  if (load_config(config, &cfg, &cfg_len, &cat, &cat_len)) return 1;
  char *jtext = journal ? cli_read_file(journal, &j_len) : NULL;
  char *ctext = calls ? cli_read_file(calls, &calls_len) : NULL;
  char *snap = index ? cli_read_file(index, &snap_len) : NULL;
  size_t klen = 0, alen = 0;
  char *k = key_file ? cli_read_file(key_file, &klen) : NULL;
  char *atext = annotations ? cli_read_file(annotations, &alen) : NULL;
  /* The journal key: --journal-key-file, else env TOOLSIFT_JOURNAL_KEY,
   * checked once every file was read (journal_key.c): hex digits only, so
   * it goes into JSON as it is. */
  char key[CLI_JOURNAL_KEY_MAX + 1] = "";
  int bad = (journal && !jtext) || (calls && !ctext) || (index && !snap) || (key_file && !k) || (annotations && !atext);
  if (!bad) bad = cli_journal_key(key_file, k, klen, key);
  if (k) memset(k, 0, klen);
  free(k);
  if (bad) {
    free(cfg);
    free(cat);
    free(jtext);
    free(ctext);
    free(snap);
    free(atext);
    return 1;
  }
  char *opts = session_options(divergence, key, client, atext, alen);
  free(atext);
  tsift_session *s = NULL;
  tsift_error err;
  int rc = 0;
  tsift_status created = tsift_session_open(cfg, cfg_len, cat, cat_len, snap, snap_len, jtext, j_len,
                                            opts, opts ? strlen(opts) : 0, &s, &err);
  free(opts);
  free(cat);
  free(snap);
  /* --model: the session embeds its tools and every query with the model */
  tsift_static_model *model = NULL;
  if (!created && model_dir) {
    model = cli_load_model(model_dir, NULL, NULL);
    if (!model || tsift_session_set_embedder(s, model, -2.0, &err)) {
      if (model) cli_report(&err);
      tsift_session_free(s);
      tsift_static_model_free(model);
      free(cfg);
      free(jtext);
      free(ctext);
      return 1;
    }
  }
  if (created) {
    report(config, &err);
    rc = 1;
  } else {
    session_outs o = {is_verify, is_menu, is_prompt, is_replay, format, journal_out};
    rc = session_outputs(s, &o, jtext, ctext, calls_len);
  }
  tsift_session_free(s);
  tsift_static_model_free(model);
  free(cfg);
  free(jtext);
  free(ctext);
  fflush(stdout);
  return rc;
}
