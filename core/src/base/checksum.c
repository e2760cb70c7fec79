/* checksum.c — see checksum.h. Four independent 64-bit lanes over 32-byte
 * stripes (multiply, rotate, multiply: the lanes keep a CPU's or a wasm
 * engine's multipliers busy in parallel), then the lanes, the length and
 * the tail folded together and a final avalanche so every input bit reaches
 * every output bit. Words are read little-endian, so the value is the same
 * on every platform. */
#include "base/checksum.h"

#include <string.h>

#define K1 0x9E3779B185EBCA87ull /* odd constants with well-mixed bits */
#define K2 0xC2B2AE3D27D4EB4Full
#define K3 0x165667B19E3779F9ull

static uint64_t rotl(uint64_t x, unsigned r) { return (x << r) | (x >> (64u - r)); }

/* One unaligned 8-byte load (memcpy compiles to it; assembling the word byte
 * by byte did not, with gcc -O2 and clang -Oz, and was half of a load),
 * swapped on a big-endian host so the value is the same everywhere. */
static uint64_t read64(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  return w;
}

static uint64_t step(uint64_t lane, uint64_t word) { return rotl(lane + word * K2, 31) * K1; }

uint64_t tsift_checksum64(const void *data, size_t n) {
  const unsigned char *p = data;
  size_t i = 0;
  uint64_t h;
  if (n >= 32) {
    uint64_t a = K1 + K2, b = K2, c = 0, d = 0 - K1;
    for (; i + 32 <= n; i += 32) {
      a = step(a, read64(p + i));
      b = step(b, read64(p + i + 8));
      c = step(c, read64(p + i + 16));
      d = step(d, read64(p + i + 24));
    }
    h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
    h = (h ^ step(0, a)) * K1 + K3;
    h = (h ^ step(0, b)) * K1 + K3;
    h = (h ^ step(0, c)) * K1 + K3;
    h = (h ^ step(0, d)) * K1 + K3;
  } else {
    h = K3;
  }
  h += (uint64_t)n;
  for (; i + 8 <= n; i += 8) h = rotl(h ^ step(0, read64(p + i)), 27) * K1 + K3;
  for (; i < n; i++) h = rotl(h ^ (p[i] * K3), 11) * K1;
  h ^= h >> 33;
  h *= K2;
  h ^= h >> 29;
  h *= K3;
  h ^= h >> 32;
  return h;
}
