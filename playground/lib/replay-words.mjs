// replay-words.mjs — what the Replay check says, in plain words: a one-line
// meaning for each verdict, the reason an entry was dropped (the core's and
// the judge's short reasons, e.g. "unknown", spelled out), the live
// re-ranking's finding, and the class of a verdict count badge (a zero count
// is neutral, never drawn as an alarm). No DOM: tested in Node
// (tests/playground/model.test.mjs).

import { count } from './glossary.mjs';

/** The verdicts the judge gives (lib/model.mjs judge), in the order the summary counts them. */
export const VERDICTS = ['identical', 'narrowed', 'diverged'];

/** One line per verdict, shown next to it. */
export const VERDICT_MEANINGS = {
  identical: 'Replay gave back exactly the recorded decision.',
  narrowed: 'Replay gave back less than the record holds; what it left out, and why, is listed below.',
  diverged: 'Replay could not give back this decision as recorded; the reason is below.',
};

/** One line for the other marks a verdict can carry. */
export const MARK_MEANINGS = {
  chainBroken: 'This record is not the one written when the run was recorded: its checksum no longer matches.',
  edited: 'The example changed this record on purpose after recording, to show what replay does with it.',
};

/** The meaning of a verdict, or a plain fallback for one this page does not know. */
export function verdictMeaning(verdict) {
  return VERDICT_MEANINGS[verdict] ?? `The replay's verdict: ${verdict}.`;
}

/**
 * The classes of a verdict count badge ("3 identical", "0 diverged"): a
 * zero count is neutral whatever its verdict, so "0 diverged" never looks
 * as if something diverged; a non-zero count takes its verdict's style.
 */
export function countBadgeClass(verdict, count) {
  return count > 0 ? `verdict v-${verdict}` : 'verdict count-zero';
}

/** A decision value field, as a sentence names it. */
const FIELD_NAMES = {
  results: 'the results',
  loaded: 'the loaded tools',
  grades: 'the grades',
  matched: 'the matched words',
  unmatched: 'the unmatched words',
  unknown: 'the names select: did not find',
  onMenu: 'the names already on the menu',
  skills: 'the skills',
  vocabulary: 'the vocabulary',
};
export const fieldName = (field) => FIELD_NAMES[field] ?? `the field “${field}”`;

/** The core's reasons (session_page.c, session_search.c) and the judge's, said plainly. */
const REASONS = {
  unknown: 'no tool in the catalog has this id',
  'outside the namespaces': 'the session only searches other namespaces',
  'already on the menu': 'it was already on the menu',
  'a duplicate': 'the record lists it twice',
  'beyond the page size': 'the page already held as many results as one search may return (maxPerSearch)',
  'already active': 'the skill was already active',
  tainted: 'it is marked tainted, and a tainted entry is never loaded',
  'tainted: never loaded': 'it is marked tainted, and a tainted entry is never loaded',
  'outside the universe': 'it is not one of the skills this session may find',
  'not a string': 'the record names it with something that is not text',
  'dropped from results': 'replay took it out of the results, so it cannot be loaded',
  'the live loading plan did not load it': 'the session, loading the page today, did not load it',
  'dropped by replay': 'replay left it out',
  'missing from the record: read as []': 'the record does not have it, so it is read as empty',
  'not an array: read as []': 'the record does not hold a list here, so it is read as empty',
  'not an array: read as no words': 'the record does not hold a list of words here, so it is read as none',
};
const REASON_PATTERNS = [
  [/^a partial match: listed, not loaded/, () => 'it is only a partial match: the page lists it but the session loads strong matches only'],
  [/^the live loading plan: maxLoaded \((\d+)\) is full$/, (m) => `the session had already loaded as many tools as maxLoaded allows (${m[1]})`],
  [/^the live loading plan: over maxMenuChars \((\d+)\)$/, (m) => `loading it would make the menu longer than maxMenuChars (${count(Number(m[1]), 'character')})`],
];

/** A short reason (the core's or the judge's) in plain words; text it does not know is kept as it is. */
export function plainReason(reason, field) {
  const text = String(reason ?? '').replace(/^replay: /, '');
  if (text === 'unknown' && field === 'skills') return 'no skill in the catalog has this name';
  if (Object.hasOwn(REASONS, text)) return REASONS[text];
  for (const [re, say] of REASON_PATTERNS) {
    const m = re.exec(text);
    if (m) return say(m);
  }
  return text;
}

/**
 * One dropped entry ({ field, id, reason } from the judge) as a sentence:
 * "admin__grant_root was taken out of the results: no tool in the catalog
 * has this id." An id in parentheses ("(all)", "(missing)") stands for the
 * whole field.
 */
export function droppedSentence(d) {
  const why = plainReason(d.reason, d.field);
  const where = fieldName(d.field);
  if (/^\(.*\)$/.test(String(d.id))) return `${where[0].toUpperCase()}${where.slice(1)} were set aside: ${why}.`;
  return `${d.id} was taken out of ${where}: ${why}.`;
}

/** "a, b and c" */
const list = (xs) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/**
 * What ranking the recorded query again today found, for a record that
 * differs from it in `fields`; `verdict` is the replay's verdict on the
 * record. An identical verdict means replay served the record as it is: an
 * edit that names only tools the session may load is accepted (SPEC S9),
 * and this finding is the only place it shows.
 */
export function rerankFinding(fields, verdict) {
  const found = `The record differs from this in ${list(fields.map(fieldName))}: it holds something the ranker does not pick today. `
    + 'Either the record was edited, or the catalog, its learned vocabulary or the ranker changed since the run was recorded.';
  if (verdict !== 'identical') return found;
  return `${found} Replay accepts an edit that names only tools this session is allowed to load, so only this new ranking shows it.`;
}

/** The finding when the live ranking agrees with the record. */
export const RERANK_SAME = 'Ranked again now: the same results, so the ranker still picks what the record holds.';

const WARN_DROPPED = /^replay: (skill: )?dropped (skill decision )?"((?:[^"\\]|\\.)*)": (.+)$/;

/**
 * A replay warning from the core in plain words: a dropped entry becomes a
 * sentence ("Replay left out admin__grant_root: no tool in the catalog has
 * this id."); anything else is kept as the core wrote it.
 */
export function plainWarning(w) {
  const m = WARN_DROPPED.exec(String(w));
  if (!m) return String(w);
  let id;
  try {
    id = JSON.parse(`"${m[3]}"`);
  } catch {
    id = m[3];
  }
  return `Replay left out ${id}: ${plainReason(m[4], m[1] || m[2] ? 'skills' : 'results')}.`;
}
