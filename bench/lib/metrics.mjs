// metrics.mjs — latency percentiles and nDCG@10 with the definition of
// core/src/eval/eval.c (SPEC S10): gain 2^grade − 1, discount log2(rank + 2), the
// ideal list from the judged grades sorted descending (top 10), averaged over
// the queries that have at least one judged tool (no-match queries, with an
// empty relevance object, are not part of nDCG).

export const K = 10;

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summary(xs) {
  const s = Float64Array.from(xs).sort();
  let sum = 0;
  for (const x of s) sum += x;
  return { n: s.length, mean: sum / s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s[s.length - 1] };
}

export const median = (xs) => percentile(Float64Array.from(xs).sort(), 50);

const gain = (g) => {
  let x = 1;
  for (let k = 0; k < Math.trunc(g) && k < 10; k++) x *= 2;
  return x - 1;
};

/** nDCG@10 of one ranked id list against {id: grade}; null for a no-match query. */
export function ndcg10(ranked, relevance) {
  const grades = Object.values(relevance).map((g) => (typeof g === 'number' ? g : 0));
  if (!grades.length) return null;
  let dcg = 0;
  for (let i = 0; i < ranked.length && i < K; i++) {
    const g = relevance[ranked[i]];
    if (typeof g === 'number' && g > 0) dcg += gain(g) / Math.log2(i + 2);
  }
  const ideal = grades.sort((a, b) => b - a).slice(0, K);
  let idcg = 0;
  for (let i = 0; i < ideal.length && ideal[i] > 0; i++) idcg += gain(ideal[i]) / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Mean nDCG@10 of `rank(query) -> ids` over graded queries. */
export function meanNdcg(queries, rank) {
  let sum = 0, n = 0;
  for (const q of queries) {
    const v = ndcg10(rank(q.query), q.relevance ?? q.relevant ?? {});
    if (v === null) continue;
    sum += v;
    n++;
  }
  return { ndcg10: n ? sum / n : 0, judged: n };
}
