// synthetic-vectors.mjs — the synthetic models of eval-vectors.mjs (random,
// oracle, noisy), as a function tests can call without the native CLI.
// A seeded stream of standard Gaussians (FNV-1a of the seed, mulberry32, Box-Muller).
function gaussian(seed) {
  let h = 2166136261;
  for (const c of Buffer.from(seed)) h = Math.imul(h ^ c, 16777619) >>> 0;
  const next = () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
}

export function vector(seed, dim) {
  const g = gaussian(seed);
  return Array.from({ length: dim }, g);
}

export function unit(v) {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / n);
}

export const b64 = (v) => Buffer.from(new Float32Array(v).buffer).toString('base64');

/**
 * The vectors JSON Lines (docs/relevance.md, "Measuring a model") of a
 * synthetic model over tool ids `ids` and the graded queries `queries`
 * (JSON Lines text): kind 'random' | 'oracle' | 'noisy' (signal 0..1).
 */
export function syntheticVectors({ ids, queries, kind, dim = 256, signal = 0.5 }) {
  const lines = [JSON.stringify({ kind: 'model', id: `${kind}-${dim}` })];
  const toolVec = new Map();
  for (const id of ids) {
    const v = kind === 'random' ? vector(`random-tool:${id}`, dim) : vector(`tool:${id}`, dim);
    toolVec.set(id, v);
    lines.push(JSON.stringify({ kind: 'tool', id, b64: b64(v) }));
  }
  for (const line of queries.split('\n')) {
    if (!line.trim()) continue;
    const q = JSON.parse(line);
    const rel = q.relevance ?? q.relevant ?? {};
    const noise = vector(`random-query:${JSON.stringify(q.id)}`, dim);
    let v = noise;
    const judged = Object.entries(rel).filter(([id, g]) => g > 0 && toolVec.has(id));
    if (kind !== 'random' && judged.length) {
      const sum = new Array(dim).fill(0);
      for (const [id, g] of judged) toolVec.get(id).forEach((x, i) => (sum[i] += g * x));
      const o = unit(sum);
      v = kind === 'oracle' ? o : unit(noise).map((x, i) => x + signal * o[i]);
    }
    lines.push(JSON.stringify({ kind: 'query', id: q.id, b64: b64(v) }));
  }
  return lines.join('\n') + '\n';
}
