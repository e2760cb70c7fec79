/* fuzz_calls.c — what the CLI hands the core from files (session_host.c):
 * the input is read as a calls file (tsift_session_call_next over a fixed
 * session, every line to the end), as a configuration
 * (tsift_session_config_catalog) and as the catalog file a fixed
 * configuration names (tsift_session_open).
 *
 * Beyond the output contract: the cursor moves forward on every call and
 * ends exactly at the end of the input; every error names the line it read
 * ("calls line N: "), a line that is not a call is TSIFT_E_CONFIG with the
 * fixed message and nothing else is; a session opened over a catalog file
 * gives a valid menu. */
#include "fuzz_common.h"

static const char CONFIG[] =
    "{\"loop\":\"fz\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply to the user\"}],"
    "\"catalog\":{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open a new issue\"},"
    "{\"id\":\"slack__send\",\"name\":\"send\",\"description\":\"Send a Slack message to a channel\"},"
    "{\"id\":\"evil__issue\",\"name\":\"issue_helper\",\"description\":\"issue\",\"tainted\":true}]},"
    "\"search\":{\"maxPerSearch\":2,\"maxLoaded\":3,\"maxSearches\":4}}";

static const char FILE_CONFIG[] = "{\"loop\":\"fz\",\"catalog\":\"catalog.json\",\"search\":{\"maxPerSearch\":2}}";

static const char SHAPE[] = ": expected {\"turn\": integer, \"call\": integer, \"tool\": string, \"args\": {…}} or {\"turn\": integer, \"preSearch\": string}";

static void run_calls(const char *calls, size_t len) {
  tsift_session *s = NULL;
  tsift_error err;
  if (tsift_session_new(CONFIG, sizeof CONFIG - 1, NULL, 0, NULL, 0, &s, &err) != TSIFT_OK) abort();
  size_t pos = 0, line = 0;
  for (;;) {
    size_t before_pos = pos, before_line = line;
    char *out = NULL;
    size_t out_len = 0;
    fuzz_err_init(&err);
    tsift_status st = tsift_session_call_next(s, calls, len, &pos, &line, &out, &out_len, &err);
    fuzz_check_status(st, &err);
    FUZZ_ASSERT(pos <= len && line >= before_line);
    if (st == TSIFT_OK && !out) { /* the end: only blank lines were left */
      FUZZ_ASSERT(pos == len);
      break;
    }
    FUZZ_ASSERT(pos > before_pos && line > before_line);
    if (st == TSIFT_OK) {
      fuzz_check_output(st, &err, out, out_len, 0);
    } else {
      FUZZ_ASSERT(out == NULL);
      FUZZ_ASSERT(st != TSIFT_E_NOMEM);
      char prefix[48];
      int n = snprintf(prefix, sizeof prefix, "calls line %zu", line);
      FUZZ_ASSERT(strncmp(err.message, prefix, (size_t)n) == 0);
      /* not a call: the shape, or what the strict reader refused in the line */
      FUZZ_ASSERT((st == TSIFT_E_CONFIG) ==
                  (strcmp(err.message + n, SHAPE) == 0 || strncmp(err.message + n, ": not a call: ", 14) == 0));
    }
    tsift_free(out);
  }
  tsift_session_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *input = fuzz_input(data, size);
  run_calls(input, size);

  char *file = (char *)0x1;
  size_t file_len = 0;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_session_config_catalog(input, size, &file, &file_len, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_JSON || st == TSIFT_E_UTF8 || st == TSIFT_E_LIMIT);
  if (st != TSIFT_OK) FUZZ_ASSERT(file == NULL);
  if (file) FUZZ_ASSERT(strlen(file) == file_len && tsift_utf8_valid(file, file_len, NULL));
  tsift_free(file);

  tsift_session *s = (tsift_session *)0x1;
  fuzz_err_init(&err);
  st = tsift_session_open(FILE_CONFIG, sizeof FILE_CONFIG - 1, input, size, NULL, 0, NULL, 0, NULL, 0, &s, &err);
  fuzz_check_status(st, &err);
  if (st != TSIFT_OK) {
    FUZZ_ASSERT(s == NULL);
    FUZZ_ASSERT(st == TSIFT_E_JSON || st == TSIFT_E_UTF8 || st == TSIFT_E_CONFIG || st == TSIFT_E_LIMIT);
    /* the file's own JSON errors name it; what it holds is the catalog's */
    FUZZ_ASSERT(strncmp(err.message, "catalog file catalog.json: ", 27) == 0 ||
                strncmp(err.message, "config: ", 8) == 0);
  } else {
    char *menu = NULL;
    size_t menu_len = 0;
    fuzz_err_init(&err);
    st = tsift_session_menu_json(s, "mcp", &menu, &menu_len, &err);
    fuzz_check_output(st, &err, menu, menu_len, 0);
    tsift_free(menu);
    tsift_session_free(s);
  }
  free(input);
  return 0;
}
