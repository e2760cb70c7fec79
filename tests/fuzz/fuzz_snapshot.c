/* fuzz_snapshot.c — tsift_index_from_snapshot on fuzzed bytes.
 *
 * Input: snapshot bytes. Each input is loaded twice: as is (almost always a
 * checksum mismatch after a mutation), and with its last 32 bytes replaced by
 * the right checksum of the rest (last 8 bytes), so the fuzzer reaches the body checks (a
 * crafted blob with a valid checksum must still be refused or be a sound
 * index). A loaded index must search, describe itself, and survive its own
 * snapshot round trip with byte-identical search output. Descriptions and
 * schemas stay coded until something reads one, and their codes are checked
 * then (issue 37): a search, the snapshot writer or a schema's decoding may
 * answer TSIFT_E_SNAPSHOT for a bad stored code, never crash or print
 * invalid JSON; an index whose search and snapshot both succeed keeps the
 * round trip. */
#include "fuzz_common.h"
#include "cJSON.h"
#include "base/checksum.h"
#include "index/index.h"

static char *search(const tsift_index *ix, const char *q) {
  char *out = NULL;
  size_t len = 0;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_index_search_json(ix, q, strlen(q), "{\"explain\":true,\"limit\":20}", 27, &out,
                                            &len, &err);
  fuzz_check_output(st, &err, out, len, 0);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_SNAPSHOT); /* a bad stored code, found when read */
  return out;
}

static void load(const char *bytes, size_t len) {
  tsift_index *ix = (tsift_index *)0x1;
  tsift_error err;
  fuzz_err_init(&err);
  tsift_status st = tsift_index_from_snapshot(bytes, len, &ix, &err);
  fuzz_check_status(st, &err);
  if (st != TSIFT_OK) {
    FUZZ_ASSERT(ix == NULL);
    FUZZ_ASSERT(st == TSIFT_E_SNAPSHOT);
    return;
  }
  static const char *const QUERIES[] = {"issue", "create a github issue", "send message", "x"};
  char *a = search(ix, QUERIES[len % 4]);
  char *out = NULL;
  size_t n = 0;
  fuzz_err_init(&err);
  st = tsift_index_info_json(ix, &out, &n, &err);
  fuzz_check_output(st, &err, out, n, 0);
  tsift_free(out);
  out = NULL;
  fuzz_err_init(&err);
  st = tsift_index_documents_json(ix, &out, &n, &err);
  fuzz_check_output(st, &err, out, n, 0);
  tsift_free(out);
  tsift_hit hits[20];
  size_t nh = 0;
  fuzz_err_init(&err);
  st = tsift_index_search(ix, "issue list", 10, 20, hits, &nh, &err);
  fuzz_check_status(st, &err);
  for (size_t i = 0; i < nh; i++) FUZZ_ASSERT(hits[i].tool < tsift_index_size(ix));
  for (size_t d = 0; d < ix->catalog.count && d < 64; d++) {
    const cJSON *schema = NULL;
    cJSON *owned = NULL;
    fuzz_err_init(&err);
    st = tsift_tool_schema(&ix->catalog.tools[d], &schema, &owned, &err); /* sets err on failure only */
    if (st) fuzz_check_status(st, &err);
    FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_SNAPSHOT || st == TSIFT_E_NOMEM);
    cJSON_Delete(owned);
  }

  char *snap = NULL;
  size_t snap_len = 0;
  fuzz_err_init(&err);
  st = tsift_index_snapshot(ix, &snap, &snap_len, &err);
  fuzz_check_status(st, &err);
  FUZZ_ASSERT(st == TSIFT_OK || st == TSIFT_E_SNAPSHOT); /* every stored code is read: a bad one is found */
  if (st != TSIFT_OK || !a) {
    tsift_free(snap);
    tsift_free(a);
    tsift_index_free(ix);
    return;
  }
  tsift_index *back = NULL;
  fuzz_err_init(&err);
  st = tsift_index_from_snapshot(snap, snap_len, &back, &err);
  if (st != TSIFT_OK) fprintf(stderr, "re-snapshot of a loaded index does not load: %s\n", err.message);
  FUZZ_ASSERT(st == TSIFT_OK);
  char *b = search(back, QUERIES[len % 4]);
  FUZZ_ASSERT(strcmp(a, b) == 0);
  tsift_free(b);
  tsift_index_free(back);
  tsift_free(snap);
  tsift_free(a);
  tsift_index_free(ix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  load((const char *)data, size);
  if (size < 8 + 4 + 8) return 0;
  char *fixed = malloc(size);
  if (!fixed) return 0;
  memcpy(fixed, data, size);
  uint64_t sum = tsift_checksum64(fixed, size - 8);
  unsigned char le[8];
  for (int i = 0; i < 8; i++) le[i] = (unsigned char)(sum >> (8 * i));
  if (memcmp(le, fixed + size - 8, 8) != 0) {
    memcpy(fixed + size - 8, le, 8);
    load(fixed, size);
  }
  free(fixed);
  return 0;
}
