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
/* 64 lowercase hex digits + NUL. */
void tsift_sha256_hex(const uint8_t digest[32], char out[65]);

#endif
