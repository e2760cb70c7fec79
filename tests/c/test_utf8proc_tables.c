/* test_utf8proc_tables.c — utf8proc's tables as the build stores them
 * (scripts/pack-utf8proc.mjs: byte planes, rebuilt at start-up) are the same
 * bytes as the pinned utf8proc_data.c: every table compared whole, and the
 * linked library's view of every code point compared with the original's. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "utf8proc.h"

/* The pinned original, under other names. */
#define utf8proc_sequences orig_sequences
#define utf8proc_stage1table orig_stage1table
#define utf8proc_stage2table orig_stage2table
#define utf8proc_properties orig_properties
#define utf8proc_combinations orig_combinations
#include TSIFT_UTF8PROC_ORIGINAL
#undef utf8proc_sequences
#undef utf8proc_stage1table
#undef utf8proc_stage2table
#undef utf8proc_properties
#undef utf8proc_combinations

/* The packed one, as the core's utf8proc.c includes it; its constructor has
 * run before main. */
#include TSIFT_UTF8PROC_PACKED

#define SAME_TABLE(a, b) CHECK(sizeof(a) == sizeof(b) && memcmp((a), (b), sizeof(a)) == 0)

int main(void) {
  SAME_TABLE(orig_sequences, utf8proc_sequences);
  SAME_TABLE(orig_stage1table, utf8proc_stage1table);
  SAME_TABLE(orig_stage2table, utf8proc_stage2table);
  SAME_TABLE(orig_properties, utf8proc_properties);
  SAME_TABLE(orig_combinations, utf8proc_combinations);

  /* The library in the core (its own copy of the packed tables). */
  int bad = 0;
  for (utf8proc_int32_t c = 0; c < 0x110000; c++) {
    const utf8proc_property_t *want =
        &orig_properties[orig_stage2table[orig_stage1table[c >> 8] + (c & 0xFF)]];
    if (memcmp(utf8proc_get_property(c), want, sizeof *want) != 0) bad++;
  }
  CHECK_EQ_INT(bad, 0);
  /* A decomposition and a composition read the sequence and combination
   * tables: NFKC_Casefold of "Å" (U+212B) and "ﬁ" (U+FB01). */
  utf8proc_uint8_t *s = utf8proc_NFKC_Casefold((const utf8proc_uint8_t *)"\xE2\x84\xAB\xEF\xAC\x81");
  CHECK_EQ_STR((const char *)s, "\xC3\xA5" "fi");
  free(s);
  return harness_finish("utf8proc_tables");
}
