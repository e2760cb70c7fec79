// checksum64.mjs — the snapshot checksum (core/src/base/checksum.c) written again
// in JavaScript with BigInt, so tests can re-seal an edited blob (a crafted
// snapshot with a valid checksum) and check the two implementations agree.
const M = (1n << 64n) - 1n;
const K1 = 0x9e3779b185ebca87n;
const K2 = 0xc2b2ae3d27d4eb4fn;
const K3 = 0x165667b19e3779f9n;
const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M;
const mul = (a, b) => (a * b) & M;
const step = (lane, word) => mul(rotl((lane + mul(word, K2)) & M, 31), K1);

export function checksum64(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length;
  const word = (i) => view.getBigUint64(i, true);
  let i = 0;
  let h;
  if (n >= 32) {
    let a = (K1 + K2) & M, b = K2, c = 0n, d = (0n - K1) & M;
    for (; i + 32 <= n; i += 32) {
      a = step(a, word(i));
      b = step(b, word(i + 8));
      c = step(c, word(i + 16));
      d = step(d, word(i + 24));
    }
    h = (rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18)) & M;
    for (const lane of [a, b, c, d]) h = (mul(h ^ step(0n, lane), K1) + K3) & M;
  } else {
    h = K3;
  }
  h = (h + BigInt(n)) & M;
  for (; i + 8 <= n; i += 8) h = (mul(rotl(h ^ step(0n, word(i)), 27), K1) + K3) & M;
  for (; i < n; i++) h = mul(rotl(h ^ mul(BigInt(bytes[i]), K3), 11), K1);
  h ^= h >> 33n;
  h = mul(h, K2);
  h ^= h >> 29n;
  h = mul(h, K3);
  h ^= h >> 32n;
  return h;
}

/** Write the right checksum into the last 8 bytes of a snapshot (in place). */
export function reseal(blob) {
  const sum = checksum64(blob.subarray(0, blob.length - 8));
  new DataView(blob.buffer, blob.byteOffset, blob.byteLength).setBigUint64(blob.length - 8, sum, true);
  return blob;
}
