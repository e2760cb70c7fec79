/* test_fingerprint.c — the index fingerprint (fingerprint.c, SPEC S4, S11):
 * key order and tool order do not change it, nor text that analyses to the
 * same document; a change to what is indexed does. */
#include <stdlib.h>

#include "harness.h"
#include "index/index.h"
#include "toolsift.h"

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

int main(void) {
  test_fingerprints();
  return harness_finish("test_fingerprint");
}
