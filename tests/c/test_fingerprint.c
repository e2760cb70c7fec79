/* test_fingerprint.c — the index fingerprint (fingerprint.c, SPEC S4, S11):
 * key order and tool order do not change it, nor text that analyses to the
 * same document; a change to what is indexed does. */
#include <stdlib.h>

#include "harness.h"
#include "index/index.h"
#include "toolsift.h"
#include "written_catalog.h"

static void test_fingerprints(void) {
  const char *a = "{\"tools\":[{\"name\":\"x\",\"description\":\"alpha\",\"tags\":[\"t\"]},{\"name\":\"y\"}]}";
  const char *b = "{\"tools\":[{\"name\":\"y\"},{\"tags\":[\"t\"],\"description\":\"alpha\",\"name\":\"x\"}]}";
  const char *c = "{\"tools\":[{\"name\":\"x\",\"description\":\"alphas\",\"tags\":[\"t\"]},{\"name\":\"y\"}]}";
  const char *d = "{\"tools\":[{\"name\":\"x\",\"description\":\"beta\",\"tags\":[\"t\"]},{\"name\":\"y\"}]}";
  char fp[4][65];
  const char *cats[4] = {a, b, c, d};
  for (int i = 0; i < 4; i++) {
    tsift_index *ix = NULL;
    tsift_error err;
    tsift_index_build(cats[i], strlen(cats[i]), NULL, 0, &ix, &err);
    strcpy(fp[i], ix ? ix->fingerprint : "");
    tsift_index_free(ix);
  }
  CHECK_EQ_STR(fp[0], fp[1]); /* key and tool order do not matter */
  CHECK_EQ_STR(fp[0], fp[2]); /* "alphas" analyses to the same document as "alpha" */
  CHECK(strcmp(fp[0], fp[3]) != 0); /* indexed text changed */
  CHECK_EQ_INT(strlen(fp[0]), 64);
}

/* The fingerprint of a catalog pinned: the bytes hashed are the format
 * (snapshots and journals hold fingerprints), however fingerprint.c gathers
 * them. Tokens of every length to TSIFT_TOKEN_MAX_BYTES, over many buffers. */
#define PINNED_FINGERPRINT "36e99d0060df0677ca9056b7ecfe3f80c4ab71c0d514354b8fa1a8a37dd58a74"
static void test_pinned(void) {
  size_t cap = 1 << 16, n = 0;
  char *cat = malloc(cap);
  n += (size_t)snprintf(cat + n, cap - n, "{\"tools\":[");
  for (int t = 0; t < 40; t++) {
    n += (size_t)snprintf(cat + n, cap - n, "%s{\"name\":\"tool_%d\",\"description\":\"", t ? "," : "", t);
    for (int w = 0; w < 40; w++) {
      int len = 1 + (t * 40 + w) % 40;
      for (int i = 0; i < len; i++) cat[n++] = (char)('a' + (t * 7 + w * 3 + i) % 26);
      cat[n++] = ' ';
    }
    n += (size_t)snprintf(cat + n, cap - n, "\",\"tags\":[\"tag%d\"]}", t % 5);
  }
  tsift_index *ix = build_written_catalog(cat, n, cap);
  CHECK_EQ_STR(ix ? ix->fingerprint : "", PINNED_FINGERPRINT);
  tsift_index_free(ix);
}

int main(void) {
  test_fingerprints();
  test_pinned();
  return harness_finish("test_fingerprint");
}
