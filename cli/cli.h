/* cli.h — what the CLI's files share. Calls go one way: main.c dispatches
 * to the command files (*_cmd.c), and all of them call down into the
 * helpers (common.c, model_load.c, json_text.c, journal_key.c), which call
 * only the core; scripts/check-layers.mjs checks that no files call each
 * other in a circle. */
#ifndef TSIFT_CLI_H
#define TSIFT_CLI_H

#include <stddef.h>

struct tsift_error;

/* ---- common.c ---- */
/* Whole file (malloc'd; caller frees) or NULL after printing an io error. */
char *cli_read_file(const char *path, size_t *len);
/* A usage error: "toolsift: <command>: <msg>" (command NULL: the top
 * level's "toolsift: <msg>"; msg NULL: no such line), then the usage text,
 * on stderr; returns 2 (the exit status). */
int cli_usage(const char *command, const char *msg, const char *usage);
/* Print a core error as "toolsift: <status>: <message>"; returns 1 (the exit status). */
int cli_report(const struct tsift_error *err);
/* Write the core's output (len bytes, a newline after when asked) to stdout
 * and tsift_free it; 0, or 1 when stdout fails. */
int cli_print_and_free(char *out, size_t len, int newline);

/* ---- json_text.c ---- */
/* The JSON object text `object` (NULL, or only white space: {}) with "key":
 * value (JSON text, vlen bytes, verbatim) as its first member; `object` as
 * it is when it is not an object (the core reports that). malloc'd; NULL
 * when out of memory. */
char *cli_json_with(const char *object, const char *key, const char *value, size_t vlen);

/* ---- journal_key.c ---- */
/* The journal key the command was given (journal_key.c): the bytes of
 * --journal-key-file FILE (read by the caller, in its order of files), else
 * env TOOLSIFT_JOURNAL_KEY, checked by the core's reader, into out (""
 * when neither was given); 0, or 1 after printing the error. */
#define CLI_JOURNAL_KEY_MAX 128
int cli_journal_key(const char *key_file, const char *bytes, size_t len, char out[CLI_JOURNAL_KEY_MAX + 1]);

/* ---- model_load.c ---- */
/* Load a static-embedding model from DIR — "glove" or a folder, the rule of
 * js/model-dir.js (docs/semantic.md, "Model folders") — or from the two
 * files (either may override DIR's): NULL after printing what is wrong. */
#define CLI_MODEL_PATH 8192
/* config.json beside a model: model2vec writes a few hundred bytes
 * (js/model-dir.js MODEL_FILE_LIMITS.config; to move into the core with its
 * reader). */
#define CLI_MODEL_MAX_CONFIG ((size_t)1 << 20)
struct tsift_static_model *cli_load_model(const char *dir, const char *safetensors, const char *tokenizer);

/* The tools' vectors of ix from the model (a note on stderr names how many
 * tools it knows no token of); 0, or 1 after printing the error. */
struct tsift_index;
int cli_embed_index(struct tsift_index *ix, const struct tsift_static_model *model);
/* The query's "vector" option value from the model (JSON; tsift_free), or
 * NULL after printing the error. */
char *cli_query_vector(const struct tsift_static_model *model, const char *query, size_t *len);

/* ---- the commands (main.c dispatches to them) ---- */
/* `toolsift learn …`; argv as main's. Returns the exit status. */
int cli_learn(int argc, char **argv);

/* `toolsift session …`; argv as main's. Returns the exit status. */
int cli_session(int argc, char **argv);

/* `toolsift calibrate …` (fusion parameters for a static model); argv as main's. */
int cli_calibrate(int argc, char **argv);

/* `toolsift embed …` (a static-embedding model); argv as main's. */
int cli_embed(int argc, char **argv);
/* `toolsift model build`: the JS CLI's; the native one says so (exit 2). */
int cli_model(int argc, char **argv);

#endif
