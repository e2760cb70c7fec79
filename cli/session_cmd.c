/* session_cmd.c — `toolsift session run | replay | menu | prompt`: reads a session
 * configuration (resolving a catalog path relative to it) and a calls file,
 * drives a tsift_session and prints one JSON line per call. The JS CLI
 * (js/cli.js) does the same over wasm and prints the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "cli.h"
#include "toolsift.h"

/* The configuration text with "catalog": "path" replaced by the file's JSON. */
static char *load_config(const char *path, size_t *len) {
  size_t n = 0;
  char *text = cli_read_file(path, &n);
  if (!text) return NULL;
  cJSON *cfg = cJSON_ParseWithLength(text, n);
  const cJSON *catalog = cfg ? cJSON_GetObjectItemCaseSensitive(cfg, "catalog") : NULL;
  if (!cJSON_IsString(catalog)) { /* the core reports any problem */
    cJSON_Delete(cfg);
    *len = n;
    return text;
  }
  /* Relative to the configuration file's folder. */
  const char *rel = catalog->valuestring;
  char *cat_path;
  const char *slash = strrchr(path, '/');
  {
    size_t dir = (rel[0] == '/' || !slash) ? 0 : (size_t)(slash - path) + 1;
    cat_path = malloc(dir + strlen(rel) + 1);
    if (cat_path) {
      memcpy(cat_path, path, dir);
      strcpy(cat_path + dir, rel);
    }
  }
  size_t cat_len = 0;
  char *cat_text = cat_path ? cli_read_file(cat_path, &cat_len) : NULL;
  free(cat_path);
  free(text);
  if (!cat_text) {
    cJSON_Delete(cfg);
    return NULL;
  }
  cJSON *cat = cJSON_ParseWithLength(cat_text, cat_len);
  free(cat_text);
  if (!cat) {
    fprintf(stderr, "toolsift: json: catalog file %s is not valid JSON\n", catalog->valuestring);
    cJSON_Delete(cfg);
    return NULL;
  }
  cJSON_ReplaceItemInObjectCaseSensitive(cfg, "catalog", cat);
  char *out = cJSON_PrintUnformatted(cfg);
  cJSON_Delete(cfg);
  if (!out) return NULL;
  *len = strlen(out);
  return out;
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
  size_t pos = 0, line_no = 0;
  while (pos < len) {
    size_t end = pos;
    while (end < len && calls[end] != '\n') end++;
    line_no++;
    const char *line = calls + pos;
    size_t n = end - pos;
    pos = end + 1;
    size_t blank = 0;
    while (blank < n && (line[blank] == ' ' || line[blank] == '\t' || line[blank] == '\r')) blank++;
    if (blank == n) continue;
    cJSON *c = cJSON_ParseWithLength(line, n);
    const cJSON *turn = cJSON_GetObjectItemCaseSensitive(c, "turn");
    const cJSON *call = cJSON_GetObjectItemCaseSensitive(c, "call");
    const cJSON *tool = cJSON_GetObjectItemCaseSensitive(c, "tool");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(c, "args");
    if (!cJSON_IsObject(c) || !cJSON_IsNumber(turn) || !cJSON_IsNumber(call) || !cJSON_IsString(tool) ||
        turn->valuedouble < 0 || call->valuedouble < 0 || turn->valuedouble > 4294967295.0 ||
        call->valuedouble > 4294967295.0) {
      fprintf(stderr,
              "toolsift: calls line %zu: expected {\"turn\": integer, \"call\": integer, \"tool\": string, "
              "\"args\": {…}}\n",
              line_no);
      cJSON_Delete(c);
      rc = 1;
      continue;
    }
    char *args_text = args ? cJSON_PrintUnformatted(args) : NULL;
    const char *a = args_text ? args_text : "{}";
    char *out = NULL;
    size_t out_len = 0;
    tsift_error err;
    tsift_status st = tsift_session_call(s, (uint32_t)turn->valuedouble, (uint32_t)call->valuedouble,
                                         tool->valuestring, strlen(tool->valuestring), a, strlen(a), &out,
                                         &out_len, &err);
    if (st != TSIFT_OK) {
      fprintf(stderr, "toolsift: %s: calls line %zu: %s\n", tsift_status_name(st), line_no, err.message);
      rc = 1;
    } else {
      fwrite(out, 1, out_len, stdout);
      fputc('\n', stdout);
    }
    tsift_free(out);
    cJSON_free(args_text);
    cJSON_Delete(c);
  }
  return rc;
}

int cli_session(int argc, char **argv) {
  if (argc < 3) {
    fputs("usage: toolsift session run|replay|menu|prompt --config CONFIG.json [options]\n", stderr);
    return 2;
  }
  const char *sub = argv[2];
  const char *config = NULL, *calls = NULL, *journal = NULL, *journal_out = NULL, *divergence = NULL,
             *format = "mcp", *index = NULL;
  for (int i = 3; i < argc; i++) {
    const char **slot = NULL;
    if (strcmp(argv[i], "--config") == 0) slot = &config;
    else if (strcmp(argv[i], "--calls") == 0) slot = &calls;
    else if (strcmp(argv[i], "--journal") == 0) slot = &journal;
    else if (strcmp(argv[i], "--journal-out") == 0) slot = &journal_out;
    else if (strcmp(argv[i], "--divergence") == 0) slot = &divergence;
    else if (strcmp(argv[i], "--format") == 0) slot = &format;
    else if (strcmp(argv[i], "--index") == 0) slot = &index;
    if (!slot || i + 1 >= argc) {
      fprintf(stderr, "toolsift: session: unexpected argument %s\n", argv[i]);
      return 2;
    }
    *slot = argv[++i];
  }
  int is_run = strcmp(sub, "run") == 0, is_replay = strcmp(sub, "replay") == 0,
      is_menu = strcmp(sub, "menu") == 0, is_prompt = strcmp(sub, "prompt") == 0;
  if (!is_run && !is_replay && !is_menu && !is_prompt) {
    fprintf(stderr, "toolsift: session: unknown subcommand %s (run, replay, menu, prompt)\n", sub);
    return 2;
  }
  if (!config || ((is_run || is_replay) && !calls) || (is_replay && !journal)) {
    fputs("toolsift: session: run needs --config and --calls; replay also --journal; menu needs --config\n",
          stderr);
    return 2;
  }
  if (divergence && strcmp(divergence, "fail") && strcmp(divergence, "warn") && strcmp(divergence, "off")) {
    fputs("toolsift: session: --divergence must be fail, warn or off\n", stderr);
    return 2;
  }
  size_t cfg_len = 0, j_len = 0, calls_len = 0, snap_len = 0;
  char *cfg = load_config(config, &cfg_len);
  if (!cfg) return 1;
  char *jtext = journal ? cli_read_file(journal, &j_len) : NULL;
  char *ctext = calls ? cli_read_file(calls, &calls_len) : NULL;
  char *snap = index ? cli_read_file(index, &snap_len) : NULL;
  if ((journal && !jtext) || (calls && !ctext) || (index && !snap)) {
    free(cfg);
    free(jtext);
    free(ctext);
    free(snap);
    return 1;
  }
  char opts[48] = "";
  if (divergence) snprintf(opts, sizeof opts, "{\"divergence\":\"%s\"}", divergence);
  tsift_session *s = NULL;
  tsift_error err;
  int rc = 0;
  tsift_status created =
      snap ? tsift_session_new_from_snapshot(cfg, cfg_len, snap, snap_len, jtext, j_len, opts[0] ? opts : NULL,
                                             strlen(opts), &s, &err)
           : tsift_session_new(cfg, cfg_len, jtext, j_len, opts[0] ? opts : NULL, strlen(opts), &s, &err);
  free(snap);
  if (created) {
    fprintf(stderr, "toolsift: %s: %s\n", tsift_status_name(err.status), err.message);
    rc = 1;
  } else {
    if (ctext) rc = run_calls(s, ctext, calls_len);
    else if (is_menu && jtext && tsift_session_apply_journal(s, &err)) {
      fprintf(stderr, "toolsift: %s: %s\n", tsift_status_name(err.status), err.message);
      rc = 1;
    }
    char *out = NULL;
    size_t out_len = 0;
    if (is_prompt) { /* the skill index, as the host puts it in the system prompt */
      if (tsift_session_skill_index(s, &out, &out_len, &err)) {
        fprintf(stderr, "toolsift: %s: %s\n", tsift_status_name(err.status), err.message);
        rc = 1;
      } else {
        fwrite(out, 1, out_len, stdout);
      }
      tsift_free(out);
      out = NULL;
    }
    if (is_menu) {
      if (tsift_session_menu_json(s, format, &out, &out_len, &err)) {
        fprintf(stderr, "toolsift: %s: %s\n", tsift_status_name(err.status), err.message);
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
        fprintf(stderr, "toolsift: %s: %s\n", tsift_status_name(err.status), err.message);
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
  }
  tsift_session_free(s);
  free(cfg);
  free(jtext);
  free(ctext);
  fflush(stdout);
  return rc;
}
