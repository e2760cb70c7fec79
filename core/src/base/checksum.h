/* checksum.h — a fast 64-bit checksum for index snapshots (SPEC S11).
 *
 * It detects truncation and corruption (a torn download, a flipped bit); it
 * is not a cryptographic hash and does not defend against a deliberately
 * edited blob — the snapshot loader's structure checks do that part (nothing
 * a crafted blob says can reach out of bounds). SHA-256 over a 14 MB blob was
 * a third of the load time in WebAssembly; this runs at memory speed. */
#ifndef TSIFT_CHECKSUM_H
#define TSIFT_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

uint64_t tsift_checksum64(const void *data, size_t n);

#endif
