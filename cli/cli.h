/* cli.h — what the CLI's command files share. */
#ifndef TSIFT_CLI_H
#define TSIFT_CLI_H

#include <stddef.h>

/* Whole file (malloc'd; caller frees) or NULL after printing an io error. */
char *cli_read_file(const char *path, size_t *len);

/* `toolsift session …`; argv as main's. Returns the exit status. */
int cli_session(int argc, char **argv);

/* `toolsift embed …` (a static-embedding model); argv as main's. */
int cli_embed(int argc, char **argv);

#endif
