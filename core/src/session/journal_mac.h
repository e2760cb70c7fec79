/* journal_mac.h — the MAC of a journal's hash chain (journal_chain.c owns
 * it), shared by the session that writes and verifies journals and by
 * learning (learn_read.c), which verifies journals without a session. */
#ifndef TSIFT_JOURNAL_MAC_H
#define TSIFT_JOURNAL_MAC_H

#include <stdint.h>

#include "cJSON.h"
#include "base/sha256.h"
#include "toolsift.h"

/* The source of a journal's header line. */
#define TSIFT_JOURNAL_HEADER_SOURCE "toolsift-journal"

typedef struct tsift_chain_mac {
  tsift_hmac mac;  /* keyed with the host's journal key, or the empty key */
  uint8_t keyed;
  char key_id[17]; /* 16 hex digits naming the key (not derived backwards) */
} tsift_chain_mac;

/* Key the MAC with a journalKey value (32-128 lowercase hex digits; NULL or
 * JSON null: the empty key). `where` names the option in the error. */
tsift_status tsift_chain_mac_key(tsift_chain_mac *m, const cJSON *key, const char *where, tsift_error *err);
/* MAC(prev ‖ canonical(v without its "chain" member)) into out: 1, or 0
 * when v nests deeper than any record the core writes, -1 when out of
 * memory. */
int tsift_chain_digest(const tsift_chain_mac *m, const uint8_t prev[32], const cJSON *v, uint8_t out[32]);
/* Decode `hex` (exactly 2·n lowercase digits) into out; 0 when it is not. */
int tsift_chain_unhex(const char *hex, uint8_t *out, size_t n);

#endif
