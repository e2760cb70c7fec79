/* sha256.h — SHA-256 (FIPS 180-4), for catalog fingerprints and snapshots. */
#ifndef TSIFT_SHA256_H
#define TSIFT_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct tsift_sha256 {
  uint32_t h[8];
  uint64_t bytes;
  uint8_t block[64];
  size_t fill;
} tsift_sha256;

void tsift_sha256_init(tsift_sha256 *s);
void tsift_sha256_update(tsift_sha256 *s, const void *data, size_t n);
void tsift_sha256_final(tsift_sha256 *s, uint8_t out[32]);
/* HMAC-SHA-256 (RFC 2104): a MAC context keyed once and reused, so that
 * each message costs one init (a copy) plus the message's blocks. */
typedef struct tsift_hmac {
  tsift_sha256 inner, outer; /* the hash states after the padded key */
} tsift_hmac;

void tsift_hmac_key(tsift_hmac *m, const uint8_t *key, size_t key_len);
/* Start a message: *h continues the keyed inner hash. */
void tsift_hmac_begin(const tsift_hmac *m, tsift_sha256 *h);
/* The MAC of the message hashed into h since tsift_hmac_begin. */
void tsift_hmac_end(const tsift_hmac *m, tsift_sha256 *h, uint8_t out[32]);
/* 64 lowercase hex digits + NUL. */
void tsift_sha256_hex(const uint8_t digest[32], char out[65]);

#endif
