/* sha256.c — a small portable SHA-256. */
#include "base/sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* One round with the working variables named in place (8 rounds per loop
 * step, rotating the names), so no round moves the eight values along. */
#define ROUND(a, b, c, d, e, f, g, h, i)                                         \
  do {                                                                           \
    uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + \
                  K[i] + w[i];                                                   \
    uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c)); \
    d += t1;                                                                     \
    h = t1 + t2;                                                                 \
  } while (0)

static void compress(uint32_t hs[8], const uint8_t b[64]) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 |
           (uint32_t)b[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = hs[0], bb = hs[1], c = hs[2], d = hs[3], e = hs[4], f = hs[5], g = hs[6], h = hs[7];
  for (int i = 0; i < 64; i += 8) {
    ROUND(a, bb, c, d, e, f, g, h, i);
    ROUND(h, a, bb, c, d, e, f, g, i + 1);
    ROUND(g, h, a, bb, c, d, e, f, i + 2);
    ROUND(f, g, h, a, bb, c, d, e, i + 3);
    ROUND(e, f, g, h, a, bb, c, d, i + 4);
    ROUND(d, e, f, g, h, a, bb, c, i + 5);
    ROUND(c, d, e, f, g, h, a, bb, i + 6);
    ROUND(bb, c, d, e, f, g, h, a, i + 7);
  }
  hs[0] += a; hs[1] += bb; hs[2] += c; hs[3] += d; hs[4] += e; hs[5] += f; hs[6] += g; hs[7] += h;
}

/* x86-64 with the SHA extensions (natively; the wasm builds and other
 * hosts use compress() above): the same function, four rounds per pair of
 * sha256rnds2, chosen once by cpuid. Same digests by definition; the parity
 * tests compare native fingerprints with the wasm module's. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(TSIFT_NO_SHANI)
#include <cpuid.h>
#include <immintrin.h>
#define TSIFT_HAVE_SHANI 1

__attribute__((target("sha,sse4.1,ssse3"))) static void compress_shani(uint32_t hs[8], const uint8_t *p,
                                                                        size_t blocks) {
  const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&hs[0]), 0xB1); /* CDAB */
  __m128i st1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&hs[4]), 0x1B); /* EFGH */
  __m128i st0 = _mm_alignr_epi8(tmp, st1, 8);                                      /* ABEF */
  st1 = _mm_blend_epi16(st1, tmp, 0xF0);                                           /* CDGH */
  for (; blocks; blocks--, p += 64) {
    __m128i abef = st0, cdgh = st1, w[4];
    for (int i = 0; i < 16; i++) {
      if (i < 4)
        w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), mask);
      else
        w[i & 3] = _mm_sha256msg2_epu32(
            _mm_add_epi32(_mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]),
                          _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4)),
            w[(i + 3) & 3]);
      __m128i m = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&K[4 * i]));
      st1 = _mm_sha256rnds2_epu32(st1, st0, m);
      st0 = _mm_sha256rnds2_epu32(st0, st1, _mm_shuffle_epi32(m, 0x0E));
    }
    st0 = _mm_add_epi32(st0, abef);
    st1 = _mm_add_epi32(st1, cdgh);
  }
  tmp = _mm_shuffle_epi32(st0, 0x1B);   /* FEBA */
  st1 = _mm_shuffle_epi32(st1, 0xB1);   /* DCHG */
  st0 = _mm_blend_epi16(tmp, st1, 0xF0); /* DCBA */
  st1 = _mm_alignr_epi8(st1, tmp, 8);   /* ABEF */
  _mm_storeu_si128((__m128i *)&hs[0], st0);
  _mm_storeu_si128((__m128i *)&hs[4], st1);
}

static int shani_state; /* 0 unknown, 1 yes, -1 no */

static int have_shani(void) {
  if (!shani_state) {
    unsigned a, b, c, d;
    int ok = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 19)) && (c & (1u << 9)); /* SSE4.1, SSSE3 */
    ok = ok && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));          /* SHA */
    shani_state = ok ? 1 : -1;
  }
  return shani_state > 0;
}
#endif

static void compress_blocks(uint32_t hs[8], const uint8_t *p, size_t blocks) {
#ifdef TSIFT_HAVE_SHANI
  if (have_shani()) {
    compress_shani(hs, p, blocks);
    return;
  }
#endif
  for (; blocks; blocks--, p += 64) compress(hs, p);
}

void tsift_sha256_init(tsift_sha256 *s) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->h, iv, sizeof iv);
  s->bytes = 0;
  s->fill = 0;
}

void tsift_sha256_update(tsift_sha256 *s, const void *data, size_t n) {
  const uint8_t *p = data;
  s->bytes += n;
  if (n < 64 - s->fill) { /* the common case: a short piece that leaves the block open */
    uint8_t *dst = s->block + s->fill;
    for (size_t i = 0; i < n; i++) dst[i] = p[i];
    s->fill += n;
    return;
  }
  /* Short pieces (the fingerprint hashes many small tokens) fill the block
   * byte by byte; whole blocks of a long input are compressed in place. */
  while (n) {
    if (s->fill == 0 && n >= 64) {
      compress_blocks(s->h, p, n / 64);
      p += n / 64 * 64;
      n %= 64;
      continue;
    }
    size_t take = 64 - s->fill;
    if (take > n) take = n;
    if (take <= 16)
      for (size_t i = 0; i < take; i++) s->block[s->fill + i] = p[i];
    else
      memcpy(s->block + s->fill, p, take);
    s->fill += take;
    p += take;
    n -= take;
    if (s->fill == 64) {
      compress_blocks(s->h, s->block, 1);
      s->fill = 0;
    }
  }
}

void tsift_sha256_final(tsift_sha256 *s, uint8_t out[32]) {
  uint64_t bits = s->bytes * 8;
  uint8_t pad = 0x80;
  tsift_sha256_update(s, &pad, 1);
  uint8_t zero = 0;
  while (s->fill != 56) tsift_sha256_update(s, &zero, 1);
  uint8_t len[8];
  for (int i = 0; i < 8; i++) len[i] = (uint8_t)(bits >> (56 - 8 * i));
  tsift_sha256_update(s, len, 8);
  for (int i = 0; i < 8; i++) {
    out[4 * i] = (uint8_t)(s->h[i] >> 24);
    out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
    out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
    out[4 * i + 3] = (uint8_t)s->h[i];
  }
}

void tsift_hmac_key(tsift_hmac *m, const uint8_t *key, size_t key_len) {
  uint8_t block[64] = {0}, pad[64];
  if (key_len > 64) {
    tsift_sha256 h;
    tsift_sha256_init(&h);
    tsift_sha256_update(&h, key, key_len);
    tsift_sha256_final(&h, block);
  } else if (key_len) {
    memcpy(block, key, key_len);
  }
  for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x36;
  tsift_sha256_init(&m->inner);
  tsift_sha256_update(&m->inner, pad, 64);
  for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x5c;
  tsift_sha256_init(&m->outer);
  tsift_sha256_update(&m->outer, pad, 64);
}

void tsift_hmac_begin(const tsift_hmac *m, tsift_sha256 *h) { *h = m->inner; }

void tsift_hmac_end(const tsift_hmac *m, tsift_sha256 *h, uint8_t out[32]) {
  uint8_t inner[32];
  tsift_sha256_final(h, inner);
  tsift_sha256 o = m->outer;
  tsift_sha256_update(&o, inner, 32);
  tsift_sha256_final(&o, out);
}

void tsift_sha256_hex(const uint8_t d[32], char out[65]) {
  static const char hex[] = "0123456789abcdef";
  for (int i = 0; i < 32; i++) {
    out[2 * i] = hex[d[i] >> 4];
    out[2 * i + 1] = hex[d[i] & 15];
  }
  out[64] = 0;
}
