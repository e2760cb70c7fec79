/* test_step_confidence.c — the confidence rule (step_confidence.c, index option
 * "minCoverage", docs/relevance.md): off by default; on, a best hit that
 * matches one description word against unknown words gives an empty result
 * that still lists the unmatched words; a name match, two matched words or
 * unknown words that look like values keep the hits. */
#include <stdlib.h>

#include "harness.h"
#include "index_helpers.h"
#include "toolsift.h"

static void test_confidence_rule(void) {
  const char *cat = "[{\"name\":\"list_files\",\"description\":\"Files in a folder, sorted by date\"},"
                    "{\"name\":\"send_email\",\"description\":\"Send an email message\"}]";
  tsift_index *off = build(cat);
  tsift_index *on = build_opts(cat, "{\"minCoverage\":0.5}");
  CHECK(off != NULL && on != NULL);
  if (!off || !on) {
    tsift_index_free(off);
    tsift_index_free(on);
    return;
  }
  char *a = search_json(off, "sorted pepperoni pizza");
  char *b = search_json(on, "sorted pepperoni pizza");
  /* off: the one description match is returned; on: one description-only
   * match against two unknown words is not confident -> empty, and the
   * result still says which words matched nothing. */
  CHECK_CONTAINS(a, "\"hits\":[{\"id\":\"list_files\"");
  CHECK_CONTAINS(b, "\"hits\":[]");
  CHECK_CONTAINS(b, "\"unmatched\":[\"pepperoni\",\"pizza\"]");
  tsift_free(a);
  tsift_free(b);
  /* a name match, two matched words, or unknown words that are values: kept */
  const char *kept[] = {"list pepperoni", "sorted folder pizza", "sorted '8sA3Yh' 2024"};
  for (size_t i = 0; i < 3; i++) {
    char *c = search_json(on, kept[i]);
    CHECK_CONTAINS(c, "\"hits\":[{\"id\":\"list_files\"");
    tsift_free(c);
  }
  tsift_index_free(off);
  tsift_index_free(on);
}

int main(void) {
  test_confidence_rule();
  return harness_finish("test_confidence");
}
