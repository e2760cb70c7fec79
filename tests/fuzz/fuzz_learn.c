/* fuzz_learn.c — the learner (learn_read.c) over a fuzzed journal and a
 * fuzzed examples file, against a fixed catalog.
 *
 * Input: the journal; the same bytes are read as an examples file too. The
 * input's length picks how unverified journals are taken (refuse, skip,
 * accept: accepting reaches every record reader whatever the chain says).
 * Beyond the output contract: an error adds nothing (a learner fed a bad
 * input finishes exactly as one never fed it); the learned file is a
 * vocabulary the index option "annotations" takes, and it only names
 * catalog tools. */
#include "cJSON.h"
#include "fuzz_common.h"

static const char CATALOG[] =
    "{\"tools\":["
    "{\"id\":\"gh__create_issue\",\"name\":\"create_issue\",\"description\":\"Open a new issue in a repository\"},"
    "{\"id\":\"gh__list_issues\",\"name\":\"list_issues\",\"description\":\"List issues of a repository\"},"
    "{\"id\":\"slack__send\",\"name\":\"send\",\"description\":\"Send a Slack message to a channel\"},"
    "{\"id\":\"remote__sync\",\"name\":\"sync\",\"description\":\"secret text\",\"origin\":\"remote\"},"
    "{\"id\":\"evil__x\",\"name\":\"x\",\"description\":\"issue issue\",\"tainted\":true}]}";

static const char *const IDS[] = {"gh__create_issue", "gh__list_issues", "slack__send", "remote__sync", "evil__x"};

static tsift_learner *open_learner(const char *opts) {
  tsift_learner *l = NULL;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_learner_new(CATALOG, sizeof CATALOG - 1, opts, strlen(opts), &l, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK && l != NULL);
  return l;
}

static char *finish(tsift_learner *l, size_t *len) {
  char *out = NULL;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_learner_finish(l, &out, len, &err);
  fuzz_check_output(st, &err, out, *len, 0);
  FUZZ_ASSERT(st == TSIFT_OK);
  return out;
}

/* The learned file names catalog tools only, and an index takes it. */
static void check_learned(const char *out, size_t len) {
  cJSON *doc = cJSON_ParseWithLength(out, len);
  FUZZ_ASSERT(doc != NULL);
  const cJSON *entry;
  cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(doc, "annotations")) {
    int known = 0;
    for (size_t i = 0; i < sizeof IDS / sizeof *IDS; i++) known |= strcmp(entry->string, IDS[i]) == 0;
    FUZZ_ASSERT(known);
  }
  cJSON_Delete(doc);
  size_t olen = len + 32;
  char *opts = malloc(olen);
  FUZZ_ASSERT(opts != NULL);
  int n = snprintf(opts, olen, "{\"annotations\":%s}", out);
  tsift_index *ix = NULL;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_index_build(CATALOG, sizeof CATALOG - 1, opts, (size_t)n, &ix, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK);
  tsift_index_free(ix);
  free(opts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const MODES[] = {"{\"unverified\":\"accept\",\"minSessions\":1,\"minClients\":1}",
                                      "{\"unverified\":\"skip\"}", "{}"};
  const char *opts = MODES[size % 3];
  char *text = fuzz_input(data, size);
  tsift_learner *l = open_learner(opts), *clean = open_learner(opts);
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_learner_add_journal(l, "fuzz.jsonl", text, size, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_JSON || st == TSIFT_E_UTF8 || st == TSIFT_E_CONFIG ||
              st == TSIFT_E_LIMIT || st == TSIFT_E_TAMPERED);
  int journal_ok = st == TSIFT_OK;
  fuzz_err_init(&err);
  st = tsift_learner_add_examples(l, "fuzz.jsonl", text, size, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_JSON || st == TSIFT_E_UTF8 || st == TSIFT_E_CONFIG ||
              st == TSIFT_E_LIMIT);
  int examples_ok = st == TSIFT_OK;
  size_t len = 0, clean_len = 0;
  char *out = finish(l, &len);
  check_learned(out, len);
  if (!journal_ok && !examples_ok) { /* nothing was added: as if never fed */
    char *c = finish(clean, &clean_len);
    FUZZ_ASSERT(clean_len == len && memcmp(c, out, len) == 0);
    tsift_free(c);
  }
  tsift_free(out);
  tsift_learner_free(l);
  tsift_learner_free(clean);
  free(text);
  return 0;
}
