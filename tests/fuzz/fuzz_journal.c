/* fuzz_journal.c — session creation with a fuzzed journal over a fixed
 * configuration and a fixed list of calls (replay).
 *
 * Input: the journal (a JSON array or JSON Lines). The divergence mode is
 * picked from the input's length. Two sessions per input: one replays the
 * fixed calls and finishes, one applies the whole journal. Beyond the output
 * contract, a journal can never widen authority: every menu holds only the
 * meta-tool, the agent's tool and untainted catalog tools inside the
 * namespaces, none twice, at most maxLoaded searched tools. */
#include "cJSON.h"
#include "fuzz_common.h"

static const char CONFIG[] =
    "{\"loop\":\"fz\",\"tools\":[{\"name\":\"reply\",\"description\":\"Reply to the user\"}],"
    "\"catalog\":{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open a new issue in a "
    "repository\",\"inputSchema\":{\"properties\":{\"title\":{\"type\":\"string\"}}}},"
    "{\"id\":\"gh__list_issues\",\"name\":\"list_issues\",\"description\":\"List issues of a repository\"},"
    "{\"id\":\"gh__close_issue\",\"name\":\"close_issue\",\"description\":\"Close an issue\"},"
    "{\"id\":\"jira__create_issue\",\"name\":\"create_issue\",\"description\":\"Create a Jira issue\"},"
    "{\"id\":\"jira__search\",\"name\":\"search\",\"description\":\"Search Jira issues with JQL\"},"
    "{\"id\":\"slack__send\",\"name\":\"send\",\"description\":\"Send a Slack message to a channel\"},"
    "{\"id\":\"mail__send\",\"name\":\"send\",\"description\":\"Send an email message\"},"
    "{\"id\":\"evil__issue\",\"name\":\"issue_helper\",\"description\":\"issue issue\",\"tainted\":true},"
    "{\"id\":\"remote__issue_sync\",\"name\":\"issue_sync\",\"description\":\"secret text\","
    "\"origin\":\"remote\"}]},"
    "\"search\":{\"maxPerSearch\":3,\"maxLoaded\":4,\"maxSearches\":6,"
    "\"namespaces\":[\"gh__\",\"jira__\",\"evil__\"],\"alwaysLoaded\":[\"gh__close_issue\"]}}";

#define MAX_LOADED 4

static const struct {
  unsigned turn, call;
  const char *tool, *args;
} CALLS[] = {
    {0, 0, "search_tools", "{\"query\":\"create issue\"}"},
    {0, 1, "gh__create_issue", "{}"},
    {1, 0, "search_tools", "{\"query\":\"send a message\",\"limit\":2}"},
    {1, 1, "search_tools", "{\"query\":\"\"}"},
    {2, 0, "search_tools", "{\"query\":\"list issues\"}"},
    {2, 1, "jira__search", "{\"jql\":\"x\"}"},
    {3, 0, "search_tools", "{\"query\":\"jira search\"}"},
    {3, 0, "search_tools", "{\"query\":\"again at the same position\"}"},
    {4, 2, "search_tools", "{\"query\":\"issue sync secret\",\"limit\":3}"},
    {5, 0, "search_tools", "{\"query\":\"close\"}"},
    {6, 0, "search_tools", "{\"query\":\"one too many\"}"},
};

static const char *const AUTHORISED[] = {"search_tools",     "reply",              "gh__create_issue",
                                         "gh__list_issues",  "gh__close_issue",    "jira__create_issue",
                                         "jira__search"};

/* The menu stays inside the authority of the configuration. */
static void check_menu(tsift_session *s) {
  char *m = NULL;
  size_t len = 0;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_session_menu_json(s, "anthropic", &m, &len, &err);
  fuzz_check_output(st, &err, m, len, 0);
  if (st != TSIFT_OK) return;
  cJSON *menu = cJSON_ParseWithLength(m, len);
  FUZZ_ASSERT(cJSON_IsArray(menu));
  const char *seen[64];
  size_t n = 0;
  const cJSON *entry;
  cJSON_ArrayForEach(entry, menu) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(entry, "name");
    FUZZ_ASSERT(cJSON_IsString(name));
    int ok = 0;
    for (size_t i = 0; i < sizeof AUTHORISED / sizeof *AUTHORISED; i++)
      ok |= strcmp(name->valuestring, AUTHORISED[i]) == 0;
    if (!ok) fprintf(stderr, "menu holds an unauthorised tool \"%s\"\n", name->valuestring);
    FUZZ_ASSERT(ok);
    FUZZ_ASSERT(n < 64);
    for (size_t k = 0; k < n; k++) FUZZ_ASSERT(strcmp(seen[k], name->valuestring) != 0);
    seen[n++] = name->valuestring;
  }
  /* search_tools, reply, the always-loaded tool, then searched tools */
  FUZZ_ASSERT(n >= 3 && n - 3 <= MAX_LOADED);
  cJSON_Delete(menu);
  tsift_free(m);
}

static void check_call(tsift_status st, const tsift_error *err, const char *out, size_t len) {
  fuzz_check_output(st, err, out, len, 0);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_ARG || st == TSIFT_E_DIVERGED);
}

static void finish(tsift_session *s) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_session_journal_jsonl(s, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 1);
  tsift_free(out);
  out = NULL;
  fuzz_err_init(&err);
  st = tsift_session_metrics_json(s, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  tsift_free(out);
  out = NULL;
  fuzz_err_init(&err);
  st = tsift_session_finish(s, &out, &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_DIVERGED);
  tsift_free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const MODES[] = {"{\"divergence\":\"warn\"}", "{\"divergence\":\"fail\"}",
                                      "{\"divergence\":\"off\"}"};
  const char *opts = MODES[size % 3];
  char *journal = fuzz_input(data, size);
  tsift_session *s = (tsift_session *)0x1;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_session_new(CONFIG, sizeof CONFIG - 1, journal, size, opts, strlen(opts), &s, &err);
  fuzz_check_status(st, &err);
  if (st != TSIFT_OK) {
    FUZZ_ASSERT(s == NULL);
    /* TAMPERED: the journal's hash chain does not verify ("fail" mode). */
    FUZZ_ASSERT(st == TSIFT_E_JSON || st == TSIFT_E_UTF8 || st == TSIFT_E_CONFIG || st == TSIFT_E_LIMIT ||
                st == TSIFT_E_TAMPERED);
    free(journal);
    return 0;
  }
  check_menu(s);
  for (size_t i = 0; i < sizeof CALLS / sizeof *CALLS; i++) {
    char *out = NULL;
    size_t len = 0;
    fuzz_err_init(&err);
    st = tsift_session_call(s, CALLS[i].turn, CALLS[i].call, CALLS[i].tool, strlen(CALLS[i].tool),
                            CALLS[i].args, strlen(CALLS[i].args), &out, &len, &err);
    check_call(st, &err, out, len);
    tsift_free(out);
  }
  check_menu(s);
  finish(s);
  tsift_session_free(s);

  /* The menu a recorded run ended with, from the journal alone. */
  s = NULL;
  fuzz_err_init(&err);
  st = tsift_session_new(CONFIG, sizeof CONFIG - 1, journal, size, opts, strlen(opts), &s, &err);
  FUZZ_ASSERT(st == TSIFT_OK && s != NULL); /* deterministic: it loaded a moment ago */
  fuzz_err_init(&err);
  st = tsift_session_apply_journal(s, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_ARG || st == TSIFT_E_DIVERGED);
  check_menu(s);
  finish(s);
  tsift_session_free(s);
  free(journal);
  return 0;
}
