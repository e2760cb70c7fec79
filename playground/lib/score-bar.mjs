// score-bar.mjs — a hit's score bar, its legend and the columns of its
// explain table, all drawn from one list of segments so that the legend
// cannot leave out something the bar draws and every hit's table has the
// same columns in the same order. No DOM: tested in Node
// (tests/playground/model.test.mjs).

/** The bar's segments that are not fields: the pair bonus for query terms close together (explain.pairs), */
export const PROXIMITY = 'proximity';
/** and, in an index with vectors searched with a query vector, what similarity added (explain.semantic.score). */
export const SEMANTIC = 'semantic';

/**
 * The segments a score bar can draw, in the order it draws them: the index's
 * fields in the order `index.info().fields` lists them (the ranker's own
 * order: name, aliases, tags, description, params, param_docs), then
 * proximity; with vectors in the index (info.vectors), then semantic.
 */
export function barSegments(info) {
  const fields = info && typeof info.fields === 'object' && info.fields !== null ? Object.keys(info.fields) : [];
  const own = [...fields.filter((f) => f !== PROXIMITY && f !== SEMANTIC), PROXIMITY];
  return info?.vectors ? [...own, SEMANTIC] : own;
}

/**
 * The field columns of the per-hit explain table: the bar's field segments,
 * in the same order, for every hit (a field a hit did not match is an empty
 * column, not a missing one).
 */
export function termColumns(segments) {
  return segments.filter((k) => k !== PROXIMITY && k !== SEMANTIC);
}

/**
 * A hit's score split into segments: [{ key, score }] in `segments` order,
 * segments that add nothing left out. The term scores go to their fields and
 * the pair bonuses to proximity. A field the list does not name (the explain
 * comes from the same index as the list, so it should not happen) is kept,
 * after the listed ones, rather than dropped from the bar: legendKeys then
 * lists it too.
 */
export function scoreBar(explain, segments) {
  const sums = new Map();
  const add = (key, score) => {
    if (typeof score === 'number' && Number.isFinite(score)) sums.set(key, (sums.get(key) ?? 0) + score);
  };
  for (const t of explain?.terms ?? []) for (const [f, s] of Object.entries(t?.fields ?? {})) add(f, s);
  for (const p of explain?.pairs ?? []) add(PROXIMITY, p?.score);
  add(SEMANTIC, explain?.semantic?.score);
  const order = [...segments, ...[...sums.keys()].filter((k) => !segments.includes(k))];
  return order.filter((k) => sums.get(k) > 0).map((key) => ({ key, score: sums.get(key) }));
}

/** The legend's keys: every segment of the list, then any key a drawn bar used that the list lacks. */
export function legendKeys(segments, bars) {
  const extra = [];
  for (const bar of bars) for (const { key } of bar) if (!segments.includes(key) && !extra.includes(key)) extra.push(key);
  return [...segments, ...extra];
}

/** What a legend entry says: a field with its weight, or what proximity means. */
export function segmentLabel(key, info) {
  if (key === PROXIMITY) return 'proximity (query words close together)';
  if (key === SEMANTIC) return `semantic (similarity, model ${info?.vectors?.model ?? '?'})`;
  const weight = info?.fields?.[key]?.weight;
  return `${key} (${weight ?? '?'})`;
}

/** The CSS colour of a segment: its own variable, or the shared fallback for a key without one. */
export function segmentColor(key) {
  const ident = String(key).replace(/[^A-Za-z0-9_-]/g, '');
  return `var(--f-${ident}, var(--f-other))`;
}
