// vocabulary.mjs — the playground's views of a learned vocabulary (issue 32,
// docs/learning.md): reading the file `toolsift learn` or Learner#finish
// writes, arranging it for review (per tool its learned aliases and tags
// with the evidence the file records), a search hit's learned labels
// (explain.learned) with their evidence, and the core's learnDiff. No DOM:
// tested in Node (tests/playground/model.test.mjs).
//
// The rule of the page holds here too: nothing is analysed, ranked or
// counted as evidence in JS. Labels are looked up in the file by the exact
// strings the core returns, and every count shown is the file's own.

import { InputError, parseJSON } from './model.mjs';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const strings = (v) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** The two label lists of a vocabulary entry, in the order the review shows them. */
export const LISTS = ['aliases', 'tags'];

/** The evidence counts of a label, in the order the file writes them. */
export const EVIDENCE_FIELDS = ['sessions', 'clients', 'examples', 'against', 'share'];

/**
 * "No vocabulary", as learnDiff reads one: the old side of a diff when
 * none is active, so the diff lists everything the new one would add.
 */
export const EMPTY_VOCABULARY = '{"annotations": {}}';

/**
 * Read vocabulary text: a learned file ({"learned", "annotations",
 * "evidence"}) or a host's own annotations ({"annotations"} alone). The
 * text is kept as it is — the binding passes it to the core verbatim, whose
 * strict reader validates it and whose digest is of what the file says —
 * and parsed only to show it. Throws InputError naming what is wrong.
 */
export function readVocabulary(text) {
  const value = parseJSON(text, 'vocabulary');
  if (!isObject(value) || !isObject(value.annotations)) {
    const diff = isObject(value) && Array.isArray(value.tools) && 'toolsChanged' in value;
    const got = Array.isArray(value) ? 'an array'
      : isObject(value) ? `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}` : typeof value;
    throw new InputError('vocabulary', diff
      ? 'this is a comparison of two vocabularies (learn --diff), not a vocabulary'
      : `expected a learned vocabulary {"learned": {…}, "annotations": {"<tool id>": {"aliases": […], "tags": […]}}, "evidence": {…}} (what toolsift learn writes); got ${got}`);
  }
  for (const [id, entry] of Object.entries(value.annotations)) {
    if (!isObject(entry)) throw new InputError('vocabulary', `annotations["${id.slice(0, 60)}"] must be an object {"aliases": […], "tags": […]}`);
  }
  return { text, value };
}

/** The evidence the file records for `label` of tool `id`: its numeric fields, or null when it records none. */
export function evidenceOf(value, id, label) {
  const ev = value?.evidence?.[id]?.[label];
  if (!isObject(ev)) return null;
  const out = {};
  for (const k of EVIDENCE_FIELDS) if (typeof ev[k] === 'number') out[k] = ev[k];
  return out;
}

/** Which list of tool `id`'s entry holds `label` exactly ('aliases' | 'tags'), or null. */
export function listOf(value, id, label) {
  const entry = value?.annotations?.[id];
  return LISTS.find((list) => strings(entry?.[list]).includes(label)) ?? null;
}

/** Tool `id`'s labels in the vocabulary, aliases before tags: [{ label, list, evidence }]. */
export function toolLabels(value, id) {
  const entry = value?.annotations?.[id];
  return LISTS.flatMap((list) => strings(entry?.[list]).map((label) => ({ label, list, evidence: evidenceOf(value, id, label) })));
}

/**
 * A vocabulary for review: { learned (the file's provenance: version,
 * catalog, rule, journals, skipped, sessions, clients, examples; null for
 * a host's own annotations), tools: [{ id, known, labels: [{ label, list,
 * evidence }] }] (in the file's order, aliases before tags), toolCount,
 * labelCount, empty }. `known(id)` says whether the current catalog has the
 * tool (the core counts the others as index.info().vocabulary.unknownTools).
 */
export function vocabularyView(value, known = () => true) {
  const learned = isObject(value?.learned) ? value.learned : null;
  const tools = Object.keys(isObject(value?.annotations) ? value.annotations : {}).map((id) => ({ id, known: known(id), labels: toolLabels(value, id) }));
  const labelCount = tools.reduce((n, t) => n + t.labels.length, 0);
  return { learned, tools, toolCount: tools.length, labelCount, empty: labelCount === 0 };
}

/**
 * The learned labels of a search hit, for the explain view: each label of
 * explain.learned (the core's list: the vocabulary's labels that hold a
 * word the hit matched, in its order) with the list that holds it and its
 * evidence, looked up in the vocabulary file by the exact string. The core
 * returns a label in its normalised form (case folded, width and spaces
 * unified: core/src/text/text.c tsift_label_normalize), so a label a host wrote
 * otherwise is not found: list and evidence are then null — the page says
 * so rather than normalising here.
 */
export function learnedLabels(hit, value) {
  return strings(hit?.explain?.learned).map((label) => ({
    label, list: listOf(value, hit.id, label), evidence: evidenceOf(value, hit.id, label),
  }));
}

/**
 * The core's learnDiff (what a new vocabulary would change against the
 * one in use), arranged: { tools: [{ id, added: [change], removed:
 * [change] }], toolsChanged, added, removed, empty }, a change being {
 * label, list, evidence } with the counts the diff carries from the file
 * that has the label.
 */
export function diffView(diff) {
  const change = (c) => ({
    label: String(c?.label ?? ''),
    list: typeof c?.list === 'string' ? c.list : null,
    evidence: Object.fromEntries(EVIDENCE_FIELDS.filter((k) => typeof c?.[k] === 'number').map((k) => [k, c[k]])),
  });
  const tools = (Array.isArray(diff?.tools) ? diff.tools : []).map((t) => ({
    id: String(t?.id ?? ''),
    added: (Array.isArray(t?.added) ? t.added : []).map(change),
    removed: (Array.isArray(t?.removed) ? t.removed : []).map(change),
  }));
  return {
    tools,
    toolsChanged: typeof diff?.toolsChanged === 'number' ? diff.toolsChanged : tools.length,
    added: typeof diff?.added === 'number' ? diff.added : 0,
    removed: typeof diff?.removed === 'number' ? diff.removed : 0,
    empty: tools.length === 0,
  };
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

const EVIDENCE_WORDS = {
  sessions: (x) => plural(x, 'session'),
  clients: (x) => plural(x, 'client'),
  examples: (x) => plural(x, 'example'),
  against: (x) => `${x} against`,
  share: (x) => `share ${Math.round(x * 100)}%`,
};

/** A label's evidence as words, one part per count the file records: [{ field, value, text }]. */
export function evidenceParts(ev) {
  return EVIDENCE_FIELDS.filter((k) => typeof ev?.[k] === 'number').map((k) => ({ field: k, value: ev[k], text: EVIDENCE_WORDS[k](ev[k]) }));
}

/** A label's evidence in one line: "3 sessions · 3 clients · 0 examples · 0 against · share 100%", or null. */
export function evidenceLine(ev) {
  const parts = evidenceParts(ev);
  return parts.length ? parts.map((p) => p.text).join(' · ') : null;
}

/** What each evidence count means (the titles the page puts on them; docs/learning.md, "The rule"). */
export const EVIDENCE_MEANINGS = {
  sessions: 'sessions whose requests used the word for this tool (at most maxPerClient from one client)',
  clients: 'distinct clients those sessions came from',
  examples: 'host examples (labelled queries) that teach the word for this tool',
  against: 'sessions in which a search loaded this tool for the word and the model never called it',
  share: 'of all the requests that used the word, the share that went to this tool',
};

/**
 * The file's provenance in one line: "learned from 4 journals (1 skipped):
 * 3 sessions from 3 clients, 0 examples", or null for a host's own
 * annotations (no "learned" section).
 */
export function provenanceLine(learned) {
  if (!isObject(learned)) return null;
  const n = (k) => (typeof learned[k] === 'number' ? learned[k] : 0);
  return `learned from ${plural(n('journals'), 'journal')}${n('skipped') ? ` (${n('skipped')} skipped: unverified)` : ''}: `
    + `${plural(n('sessions'), 'session')} from ${plural(n('clients'), 'client')}, ${plural(n('examples'), 'host example')}`;
}

/**
 * Why a learned file holds no label, in words, from its own provenance and
 * rule: the counts the learner read against the thresholds it applied.
 * null when the file holds labels.
 */
export function nothingLearned(value) {
  if (!vocabularyView(value).empty) return null;
  const learned = isObject(value?.learned) ? value.learned : {};
  const rule = isObject(learned.rule) ? learned.rule : {};
  const n = (o, k) => (typeof o[k] === 'number' ? o[k] : null);
  const minSessions = n(rule, 'minSessions');
  const minClients = n(rule, 'minClients');
  return {
    sessions: n(learned, 'sessions') ?? 0,
    clients: n(learned, 'clients') ?? 0,
    examples: n(learned, 'examples') ?? 0,
    skipped: n(learned, 'skipped') ?? 0,
    minSessions,
    minClients,
    text: 'Nothing learned. '
      + `A word becomes a tool's label when ${minSessions ?? 'enough'} or more sessions from ${minClients ?? 'enough'} or more different clients used it `
      + 'for that tool (a search that missed it, or loaded it, followed by a call to it), or when a host example teaches it. '
      + `The learner read ${plural(n(learned, 'sessions') ?? 0, 'session')} from ${plural(n(learned, 'clients') ?? 0, 'client')}`
      + `${n(learned, 'skipped') ? ` (${plural(learned.skipped, 'journal')} skipped: its chain could not be verified)` : ''}`
      + ` and ${plural(n(learned, 'examples') ?? 0, 'host example')}.`,
  };
}

/**
 * The learner's options from the form's fields (strings; blank leaves the
 * core's default): { minSessions, minClients, maxPerClient, minShare,
 * unverified }. Only the form's syntax is checked here (a number); the
 * core checks the ranges and names what is wrong.
 */
export function learnerOptions(fields) {
  const out = {};
  for (const k of ['minSessions', 'minClients', 'maxPerClient', 'minShare']) {
    const raw = String(fields?.[k] ?? '').trim();
    if (raw === '') continue;
    const x = Number(raw);
    if (!Number.isFinite(x)) throw new InputError('learning rule', `${k} must be a number (got ${JSON.stringify(raw)})`);
    out[k] = x;
  }
  if (fields?.unverified) out.unverified = fields.unverified;
  return out;
}
