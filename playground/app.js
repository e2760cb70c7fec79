// app.js — the playground page: catalog explorer, search with explain,
// recorded sessions (timeline + menu, the session's mode, the host's
// pre-searches; live runs with auto mode and pre-search), replay check with
// tamper mode, a learned vocabulary (learn, load, review, apply), and a side-by-side
// comparison of two index configurations. Plain ES modules over the JS
// binding; the wasm module is loaded as a file from build/wasm/. Logic that
// needs no DOM lives in lib/model.mjs and lib/vocabulary.mjs (tested in
// Node too).

import { load } from '../js/toolsift.js';
import * as M from './lib/model.mjs';
import * as Bar from './lib/score-bar.mjs';
import * as W from './lib/replay-words.mjs';
import * as V from './lib/vocabulary.mjs';
import * as G from './lib/glossary.mjs';

const WASM_URL = new URL('../build/wasm/toolsift.wasm', import.meta.url);
const CATALOG_URL = new URL('../corpus/catalog.json', import.meta.url);
const EXAMPLES_URL = new URL('./examples/', import.meta.url);
const DEFAULT_CONFIG = { tools: [], search: { maxPerSearch: 5, maxLoaded: 20, maxSearches: 25 } };

const $ = (id) => document.getElementById(id);

/** h('div', {class: 'x', onclick}, child, 'text', [more]) */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'style') el.setAttribute('style', v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}
function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
const clear = (el) => {
  el.replaceChildren();
  return el;
};
const fmt = (x) => (Math.round(x * 1000) / 1000).toFixed(3);
const trustBadge = (trust) => h('span', { class: `badge trust-${trust}`, title: G.hover(trust) }, trust);
const count = G.count;

function say(text) {
  $('status').textContent = text;
}

/** The message of any thrown value, with the core's error code when it has one. */
function describe(e) {
  if (e?.name === 'ToolsiftError') return `${e.code}: ${e.message}`;
  return String(e?.message ?? e);
}
function showError(box, e) {
  const el = $(box);
  el.textContent = e ? describe(e) : '';
  el.hidden = !e;
}
/** Run fn; any error lands in the error box `box` instead of the console. */
function guard(box, fn) {
  return async (...args) => {
    try {
      showError(box, null);
      await fn(...args);
    } catch (e) {
      showError(box, e);
      say(`Error: ${describe(e)}`);
    }
  };
}

const state = {
  toolsift: null,
  bundled: null, // the bundled catalog value
  catalog: null, // { value, label, text? }
  index: null,
  info: null,
  docs: new Map(), // id -> { trust, fields }
  raw: new Map(), // id -> raw tool (for shape and description)
  examples: [],
  run: null, // see openRun()
  replayShown: false,
  tamper: null, // { index, baselineMenu }
  trustCache: new WeakMap(),
  model: null, // a StaticModel: the Search tab's tools and queries embedded with it
  snapshot: null, // the Search tab's index as a snapshot (M.sessionPreview), or null until needed
  // The learned vocabulary in use: { text (as read: the core gets it
  // verbatim), value (parsed, to show), label, info (index.info().vocabulary) }.
  vocab: null,
  // A vocabulary learned or loaded and not yet applied: { text, value, label }.
  candidate: null,
  // The journals the page holds, for learning: key -> { title, kind
  // ('example' | 'opened' | 'live'), header, records } (an example's are
  // fetched when first needed: header and records undefined until then).
  held: new Map(),
  opened: 0, // runs opened from a file, a paste or a link (their keys in `held`)
  lives: 0, // live sessions started (their keys in `held`)
};

// ---------------------------------------------------------------- tabs + hash

const TABS = ['catalog', 'search', 'sessions', 'replay', 'vocab', 'compare'];
function selectTab(name, focus = false) {
  if (!TABS.includes(name)) name = 'search';
  for (const t of TABS) {
    const tab = $(`tab-${t}`);
    const on = t === name;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    $(`panel-${t}`).hidden = !on;
    if (on && focus) tab.focus();
  }
  state.tab = name;
  saveHash();
}
function setupTabs() {
  for (const t of TABS) {
    const tab = $(`tab-${t}`);
    tab.addEventListener('click', () => selectTab(t));
    tab.addEventListener('keydown', (ev) => {
      const i = TABS.indexOf(t);
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      selectTab(TABS[(to + TABS.length) % TABS.length], true);
    });
  }
}

const hashState = {};
let restoring = false;
function saveHash() {
  if (restoring) return;
  const p = new URLSearchParams();
  if (state.tab) p.set('tab', state.tab);
  for (const [k, v] of Object.entries(hashState)) if (v !== undefined && v !== null && v !== '') p.set(k, v);
  const next = `#${p.toString()}`;
  if (location.hash !== next) history.replaceState(null, '', next);
}
function setHash(key, value) {
  hashState[key] = value;
  saveHash();
}

// ------------------------------------------------------------------- catalog

function rawId(tool) {
  if (tool?.type === 'function' && tool.function) return tool.function.name;
  return tool?.id ?? tool?.name;
}

/**
 * Index `value` as the current catalog, with the active learned vocabulary
 * if there is one (the index option "annotations": the text as read,
 * verbatim). Throws without changing anything on error.
 */
function useCatalog(value, label, text) {
  const index = state.toolsift.createIndex(value, state.vocab ? { annotations: state.vocab.text } : undefined);
  let without = 0;
  try {
    if (state.model) without = index.embedStatic(state.model);
  } catch (e) {
    index.free();
    throw e;
  }
  state.index?.free();
  state.index = index;
  state.snapshot = null; // the session preview's copy of the index, made when first needed
  state.info = index.info();
  if (state.vocab) state.vocab.info = state.info.vocabulary ?? null;
  state.docs = new Map(index.documents().tools.map((t) => [t.id, t]));
  state.raw = new Map((M.catalogTools(value) ?? []).map((t) => [rawId(t), t]));
  state.catalog = { value, label, text };
  state.compareIndex?.free();
  state.compareIndex = null;
  state.compareKey = null;
  const small = text && text.length <= M.HASH_LIMIT;
  setHash('catalog', small ? M.toBase64Url(text) : undefined);
  $('catalog-status').textContent = `${count(state.info.tools, 'tool')} · ${label} · fingerprint ${state.info.fingerprint.slice(0, 12)}…`
    + (state.vocab ? ` · vocabulary ${state.vocab.info?.digest?.slice(0, 12) ?? '?'}…` : '');
  $('search-model-status').textContent = state.model
    ? `model ${state.model.id} (${state.model.dim} dimensions): ${state.info.tools - without} of ${count(state.info.tools, 'tool')} embedded`
    : 'no model: BM25F only';
  renderCatalog();
  renderVocabBar();
  renderExamples();
  runSearch();
  if (state.candidate || state.vocab) renderVocabulary();
  say(`Catalog loaded: ${count(state.info.tools, 'tool')}`);
}

function renderCatalog() {
  const info = state.info;
  const shapes = {};
  for (const t of state.raw.values()) {
    const s = M.toolShape(t);
    shapes[s] = (shapes[s] ?? 0) + 1;
  }
  const dl = clear($('catalog-info'));
  // A row's term, when the glossary has it, carries its definition as hover help.
  const row = (k, ...v) => append(dl, [h('dt', { title: G.quotes(k).length ? G.hover(k) : undefined }, k), h('dd', null, ...v)]);
  row('source', state.catalog.label);
  row('tools', String(info.tools));
  row('terms', String(info.terms));
  row('trust class', ...Object.entries(info.trust).map(([k, n]) => [trustBadge(k), ` ${n} `]));
  row('shapes', Object.entries(shapes).map(([k, n]) => `${k} ${n}`).join(', '));
  row('weights', Object.entries(info.fields).map(([f, x]) => `${f} ${x.weight}`).join(', '));
  row('ranker', `${info.ranker} (core ${info.version})`);
  row('fingerprint', h('span', { class: 'mono' }, info.fingerprint));
  row('vocabulary', info.vocabulary
    ? [h('span', { class: 'mono', id: 'catalog-vocab-digest' }, info.vocabulary.digest), ` (${state.vocab?.label ?? 'learned'}; ${count(info.vocabulary.unknownTools, 'unknown tool')})`]
    : h('span', { class: 'muted' }, 'none'));
  renderGroups();
}

function renderGroups() {
  const filter = $('catalog-filter').value.trim().toLowerCase();
  const groups = new Map();
  for (const [id, doc] of state.docs) {
    if (filter && !id.toLowerCase().includes(filter)) continue;
    const ns = M.namespaceOf(id);
    if (!groups.has(ns)) groups.set(ns, []);
    groups.get(ns).push(doc);
  }
  const box = clear($('catalog-groups'));
  if (groups.size === 0) {
    box.append(h('p', { class: 'muted' }, filter ? `No tool id contains “${filter}”.` : 'The catalog has no tools.'));
    return;
  }
  const open = (filter !== '' && groups.size <= 5) || state.docs.size <= 30;
  for (const [ns, docs] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    const counts = {};
    for (const d of docs) counts[d.trust] = (counts[d.trust] ?? 0) + 1;
    const body = h('div', { class: 'ns-body' });
    const det = h(
      'details',
      { class: 'ns', 'data-namespace': ns },
      h('summary', null, h('strong', null, ns), ` · ${count(docs.length, 'tool')} `,
        Object.entries(counts).map(([t, n]) => [trustBadge(t), n > 1 ? `×${n} ` : ' '])),
      body,
    );
    const fill = () => {
      if (body.childElementCount) return;
      for (const d of docs) body.append(renderTool(d));
    };
    det.addEventListener('toggle', () => det.open && fill());
    if (open) {
      det.open = true;
      fill();
    }
    box.append(det);
  }
}

function renderTool(doc) {
  const raw = state.raw.get(doc.id);
  const desc = raw?.type === 'function' ? raw.function?.description : raw?.description;
  const withheld = doc.trust === 'remote' || doc.trust === 'tainted';
  const fields = h('dl', { class: 'doc' });
  for (const [f, toks] of Object.entries(doc.fields)) {
    append(fields, [
      h('dt', null, f),
      h('dd', null, toks.length ? toks.map((t) => h('span', { class: 'tok' }, t)) : h('span', { class: 'muted' }, '(nothing indexed)')),
    ]);
  }
  // The active vocabulary's labels for this tool: the search document
  // below has them merged into its aliases and tags fields.
  const learned = state.vocab ? V.toolLabels(state.vocab.value, doc.id) : [];
  return h(
    'div',
    { class: 'tool', 'data-tool': doc.id },
    h('span', { class: 'mono' }, doc.id), ' ', trustBadge(doc.trust), ' ', h('span', { class: 'badge shape' }, M.toolShape(raw)),
    desc ? h('p', { class: 'desc' }, withheld ? h('span', { class: 'withheld', title: G.hover(doc.trust) }, WITHHELD[doc.trust]) : null, withheld ? ' ' : null, desc) : null,
    learned.length ? h('p', { class: 'learned-line' }, h('span', { class: 'badge learned', title: G.hover('learned label') }, 'learned'), ' ',
      learned.map((l) => h('span', { class: 'learned-label', 'data-list': l.list }, l.label)),
      h('span', { class: 'muted' }, ' (from the vocabulary: merged into its aliases and tags)')) : null,
    h('details', { class: 'json' }, h('summary', { title: G.hover('search document') }, 'search document (what the trust policy indexed)'), fields),
  );
}

/** Why the catalog's own description of a tool is not what the model reads, by trust class. */
const WITHHELD = {
  remote: '(withheld from the model and not searched: an un-vouched third-party tool; the operator vouches for one with trusted: true)',
  tainted: '(tainted: shown fenced, never searched, never loaded)',
};

async function readFileInput(input) {
  const file = input.files?.[0];
  if (!file) throw new Error('no file chosen');
  return { name: file.name, text: await file.text() };
}

// -------------------------------------------------------------------- search

let searchTimer = 0;
function runSearch() {
  const q = $('search-query').value;
  const limit = Number($('search-limit').value) || 10;
  setHash('q', q || undefined);
  setHash('limit', limit === 10 ? undefined : String(limit));
  const hits = clear($('search-hits'));
  const analysis = clear($('search-analysis'));
  const outcome = clear($('search-outcome'));
  const answer = clear($('search-session'));
  showError('search-error', null);
  if (!state.index || q.trim() === '') {
    if (!q.trim()) {
      analysis.append(h('p', { class: 'muted' }, 'Type a request as a user would say it, or pick an example: the hits are ranked with BM25F, each graded ',
        h('span', { class: 'term', title: G.hover('strong') }, 'strong'), ' or ', h('span', { class: 'term', title: G.hover('partial') }, 'partial'),
        ' and explained by field and word, and the box above them says which tools a session would load.'));
    }
    return;
  }
  let r;
  try {
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error(`hits must be an integer from 1 to 1000 (got ${$('search-limit').value})`);
    r = state.index.search(q, { limit, explain: true, ...(state.model ? { vector: state.model.queryVector(q) } : {}) });
  } catch (e) {
    showError('search-error', e);
    return;
  }
  // What a new session would do with the same request: the core's answer
  // (loaded flags, note, unmatched words, vocabulary, the catalog overview).
  let preview = null;
  let previewError = null;
  try {
    preview = M.sessionPreview(state.toolsift, indexSnapshot(), q, { limit, model: state.model });
  } catch (e) {
    previewError = e;
  }
  renderOutcome(outcome, r, preview);
  renderSessionAnswer(answer, preview, previewError, limit);
  renderAnalysis(analysis, r);
  // One list of segments for the bars, the legend and the explain columns.
  const segments = Bar.barSegments(state.info);
  const bars = r.hits.map((hit) => Bar.scoreBar(hit.explain, segments));
  renderLegend(segments, bars);
  if (r.hits.length === 0) {
    hits.append(h('li', { class: 'muted' }, 'No tool matches any word of the request.'));
    say('No hit');
    return;
  }
  if (r.tainted) hits.append(h('li', { class: 'note', id: 'search-tainted' }, TAINTED_NOTE));
  const counts = M.gradeCounts(r.hits);
  hits.append(h('li', { class: 'grade-summary muted', id: 'grade-summary' },
    `${counts.strong ?? 0} strong · ${counts.partial ?? 0} partial (${r.ranker}). A session loads the strong hits and lists the partial ones with loaded: false; select:name loads one.`));
  const max = r.hits[0].score || 1;
  const corrections = r.analysis?.corrections ?? [];
  // Each hit's loaded flag as the session's page has it (by id; a hit past the page has none).
  const loaded = new Map((preview?.page?.tools ?? []).map((t) => [t.name, t.loaded]));
  r.hits.forEach((hit, i) => hits.append(renderHit(hit, i + 1, max, r.terms, corrections, bars[i], Bar.termColumns(segments), loaded.get(hit.id))));
  say(`${count(r.hits.length, 'hit')}, top ${r.hits[0].id}`);
}

/** The note a page that names an un-vouched third-party or tainted tool carries (the result's tainted: true). */
const TAINTED_NOTE = 'This page names an un-vouched third-party tool (remote) or a tainted one: the result carries tainted: true, so a host shows it fenced, as data. '
  + 'A remote tool\'s description is withheld from the model and not searched (the operator vouches for a tool with trusted: true); a tainted tool is never loaded.';

/** The Search tab's index as a snapshot (a session over it answers as the Search tab ranks), made once per index. */
function indexSnapshot() {
  state.snapshot ??= state.index.snapshot();
  return state.snapshot;
}

/** The example requests on the bundled catalog (M.FIRST_EXAMPLES), each with the outcome it shows; none over another catalog. */
function renderExamples() {
  const box = clear($('search-examples'));
  if (state.catalog?.value !== state.bundled) return;
  append(box, [h('span', { class: 'muted' }, 'Try a request on the bundled catalog: '),
    M.FIRST_EXAMPLES.map((ex) => h('span', { class: 'example-pair' },
      h('button', {
        type: 'button', class: 'example', 'data-query': ex.query, 'data-outcome': ex.outcome,
        onclick: () => {
          $('search-query').value = ex.query;
          runSearch();
          say(`Example: ${ex.query}`);
        },
      }, ex.query), ' ', outcomeBadge(ex.outcome)))]);
}

/** A badge for a search's outcome: strong, partial or miss, titled with the glossary's words. */
function outcomeBadge(outcome) {
  const [grade, says] = M.OUTCOME_WORDS[outcome].split(': ');
  return h('span', { class: `badge outcome grade-${outcome}`, 'data-outcome': outcome, title: outcome === 'miss' ? undefined : G.hover(outcome) },
    grade, h('span', { class: 'says' }, `: ${says}`));
}

/**
 * The search's outcome in one line, from the core's grades and the
 * session's page: the best hit strong (a session loads it), only partial
 * (listed, nothing loaded) or no hit at all.
 */
function renderOutcome(box, r, preview) {
  const o = M.searchOutcome(r);
  const page = preview?.page ?? null;
  const best = r.hits[0];
  const bestLoaded = page?.tools.find((t) => t.name === best?.id)?.loaded;
  const tally = page ? ` (this request: ${count(page.loaded, 'tool')} loaded, ${page.listed} listed, not loaded)` : '';
  const name = best ? h('span', { class: 'mono' }, best.id) : null;
  let text;
  if (o === 'miss') text = ' No tool matches any word of the request: a session finds nothing and loads nothing; it says which words matched nothing.';
  else if (o === 'strong' && bestLoaded === false && best.trust === 'tainted') {
    text = [' The best hit, ', name, ', is strong but tainted: a session lists it fenced and never loads it', tally, '.'];
  } else if (o === 'strong' && bestLoaded === false) {
    text = [' The best hit, ', name, ', is strong, but the session did not load it (its note says why)', tally, '.'];
  } else if (o === 'strong') text = [' The best hit, ', name, ', is strong: a session loads it', tally, '.'];
  else if (o === 'partial') text = [' The best hit, ', name, ', is only partial: a session lists it without loading it', tally, '; select:name loads one.'];
  else text = [' The best hit, ', name, ', has no grade.'];
  box.dataset.outcome = o;
  box.append(h('p', { id: 'search-outcome-line', 'data-outcome': o }, M.OUTCOME_WORDS[o] ? outcomeBadge(o) : null, text));
}

/**
 * What a new session answers to the request (M.sessionPreview: the core's
 * page): the tools it loads and those it lists, the note, the words that
 * matched nothing, the catalog words near a miss (vocabulary) and, when
 * nothing matched, the catalog overview the model reads.
 */
function renderSessionAnswer(box, p, error, limit) {
  const head = h('div', { class: 'from' }, h('strong', null, 'In a session: '),
    `what a new session (the core's default caps, a page of ${p?.size ?? Math.min(limit, M.MAX_PER_SEARCH)}) answers when the model calls `,
    h('span', { class: 'mono' }, 'search_tools'), ' with this request', limit > M.MAX_PER_SEARCH ? ` (a session's page holds at most ${M.MAX_PER_SEARCH})` : '', '.');
  if (error) {
    append(box, [head, h('div', { class: 'refusal' }, `The session could not be made: ${describe(error)}`)]);
    return;
  }
  if (!p) return;
  if (p.refusal) {
    append(box, [head, h('div', { class: 'refusal', id: 'session-refusal' }, h('strong', null, p.refusal.error), `: ${p.refusal.message}`)]);
    return;
  }
  const page = p.page;
  const names = (tools, cls) => tools.map((t) => h('span', { class: `tok ${cls}`, 'data-tool': t.name }, t.name));
  const loaded = page.tools.filter((t) => t.loaded);
  const listed = page.tools.filter((t) => !t.loaded);
  const chips = (label, title, words, cls, id) => (words.length
    ? h('div', { class: 'words', 'data-words': id }, h('span', { class: 'muted', title }, label),
      words.map((w) => h('span', { class: `tok ${cls}` }, w))) : null);
  append(box, [
    head,
    page.tools.length ? h('div', { class: 'words', 'data-words': 'loaded' }, loaded.length
      ? [h('span', { class: 'loaded-yes', title: G.hover('loaded') }, `✓ loads ${count(loaded.length, 'tool')} onto the menu`), ': ', names(loaded, 'term')]
      : h('span', { class: 'muted', title: G.hover('loaded') }, 'loads no tool onto the menu')) : null,
    listed.length ? h('div', { class: 'words', 'data-words': 'listed' }, h('span', { class: 'loaded-no', title: G.hover('listed') }, `✗ lists ${count(listed.length, 'tool')}, not loaded`),
      ': ', names(listed, '')) : null,
    chips('matched nothing: ', 'unmatched: words of the request no tool of the catalog has', page.unmatched, 'unmatched', 'unmatched'),
    chips('catalog words near the request: ', NEAR_WORDS_TITLE, page.vocabulary, 'vocab', 'vocabulary'),
    page.note ? h('div', { class: 'note', 'data-note': '' }, page.note) : null,
    page.tainted ? h('div', { class: 'note' }, TAINTED_NOTE) : null,
    page.tools.length === 0 && p.overview ? h('div', { id: 'search-overview' },
      h('div', { class: 'from', title: G.hover('catalog overview') }, 'The catalog\'s vocabulary — the catalog overview the model reads at the end of search_tools\' description:'),
      h('div', { class: 'overview-text' }, p.overview)) : null,
  ]);
}

function renderAnalysis(box, r) {
  const v = M.queryView(r);
  const weight = (w) => (w.evidence === null ? '—' : fmt(w.evidence));
  append(box, [
    h('div', null, h('strong', null, 'Analysed query: '),
      v.tokens.length ? v.tokens.map(({ text, kind }) => {
        const title = kind === 'stop' ? 'stopword: dropped' : kind === 'unmatched' ? 'matches no tool' : 'query term';
        return h('span', { class: `tok ${kind}`, title, 'data-kind': kind }, text, kind === 'unmatched' ? ' ✗' : '');
      }) : h('span', { class: 'muted' }, '(no tokens)')),
    v.words.length ? h('div', { id: 'query-evidence', class: 'evidence' },
      h('span', { class: 'muted', title: 'analysis.evidence: what each word weighs in a hit’s coverage (the idf of its rarest form; a word no tool has weighs half the most a word can)' }, 'Evidence per word: '),
      v.words.map((w) => h('span', {
        class: `ev${w.unmatched ? ' unmatched' : ''}`, 'data-word': w.word,
        title: `${w.word}: evidence ${weight(w)}${w.unmatched ? ' — matched nothing' : ''}${w.correction ? ` — read as ${w.correction}` : ''}`,
      }, h('span', { class: 'mono' }, w.word), w.correction ? h('span', { class: 'correction' }, ` → ${w.correction}`) : null,
      w.unmatched ? ' ✗' : '', ' ', h('span', { class: 'evbar', style: `width:${w.evidence === null || !v.maxEvidence ? 0 : Math.max(2, (w.evidence / v.maxEvidence) * 40).toFixed(0)}px` }),
      h('span', { class: 'muted num' }, ` ${weight(w)}`)))) : null,
    h('div', { class: 'muted' }, `terms: ${r.terms.join(' ') || '(none)'}`,
      v.stopwords.length ? ` · stopwords dropped: ${v.stopwords.join(' ')}` : '',
      v.corrections.length ? [' · ', h('span', { id: 'query-corrections' }, 'typo corrections: ',
        v.corrections.map(([w, to], i) => [i ? ', ' : '', h('span', { class: 'mono', 'data-correction': w }, `${w} → ${to}`)]))] : '',
      r.unmatched.length ? [' · ', h('span', { class: 'refusal', id: 'unmatched-terms' }, `unmatched: ${r.unmatched.join(' ')}`)] : ''),
  ]);
}

/** The legend of the score bars: every segment a bar can draw (Bar.legendKeys), in the bars' order. */
function renderLegend(segments, bars) {
  const box = clear($('search-legend'));
  append(box, ['Score by field (weight): ', Bar.legendKeys(segments, bars).map((key) => h('span', { class: 'legend-item', 'data-segment': key },
    h('span', { class: 'swatch', style: `background:${Bar.segmentColor(key)}` }), Bar.segmentLabel(key, state.info)))]);
}

/** A grade's hover help: the glossary's words (selected: those for select:). */
const gradeTitle = (grade) => G.hover(grade === 'selected' ? 'select:' : grade);
const gradeBadge = (grade) => (grade ? h('span', { class: `badge grade grade-${grade}`, 'data-grade': grade, title: gradeTitle(grade) }, grade) : null);
const pct = (x) => `${Math.round(x * 100)}%`;

/**
 * One hit: its head, description, matched words and grade evidence, the
 * score bar (`segments`, from Bar.scoreBar) and the explain table, whose
 * field columns (`fields`) are the same, in the same order, for every hit.
 */
function renderHit(hit, rank, max, queryTerms, corrections, segments, fields, loaded) {
  const terms = hit.explain?.terms ?? [];
  const pairs = hit.explain?.pairs ?? [];
  const grade = hit.explain?.grade;
  const bar = h('div', { class: 'bar', role: 'img', 'aria-label': `score by field: ${segments.map(({ key, score }) => `${key} ${fmt(score)}`).join(', ')}` },
    segments.map(({ key, score }) => h('span', {
      class: 'seg', 'data-field': key, title: `${key}: ${fmt(score)}`,
      style: `width:${((score / max) * 100).toFixed(2)}%;background:${Bar.segmentColor(key)}`,
    })));
  // Every column has a header (a plain word, its meaning on hover); a
  // term's bar draws its score against the best hit's.
  const tbar = (score) => h('span', { class: 'tbar', style: `width:${Math.max(1, (score / max) * 80).toFixed(0)}px` });
  const table = h('table', { class: 'terms' },
    h('thead', null, h('tr', null,
      h('th', { scope: 'col', title: 'a word of the request as the search reads it (a stem; → a typo correction or a vocabulary word it matched through)' }, 'word'),
      h('th', { scope: 'col', title: 'what the word adds to this tool\'s score; the bar draws it against the best hit\'s score' }, 'score'),
      fields.map((f) => h('th', { scope: 'col', title: `what the word adds in this tool's ${f} field — ${G.hover('search document')}` }, f)),
      h('th', { scope: 'col', title: 'why a row has no score in a field, or what else it is' }, 'note'))),
    h('tbody', null, M.termRows(queryTerms, terms, corrections).map(({ term, via, kind, entry: t }) => {
      if (!t) return h('tr', { class: 'refusal' }, h('td', null, term), h('td', null, '—'), fields.map(() => h('td', null, '')), h('td', null, 'no match in this tool'));
      return h('tr', { 'data-via': kind ?? undefined },
        h('td', null, term, via ? h('span', { class: 'muted', title: kind === 'typo' ? 'a typo correction' : 'a vocabulary word (translation or synonym)' }, ` → ${via}${kind === 'typo' ? ' (typo)' : ''}`) : null),
        h('td', null, fmt(t.score), ' ', tbar(t.score)),
        fields.map((f) => h('td', null, t.fields[f] ? fmt(t.fields[f]) : '')),
        h('td', null, ''));
    }), pairs.map((p) => h('tr', { class: 'pair' }, h('td', null, `${p.terms[0]} … ${p.terms[1]}`), h('td', null, fmt(p.score), ' ', tbar(p.score)),
      fields.map(() => h('td', null, '')), h('td', null, 'proximity: close together in one field'))),
    semanticRow(hit.explain?.semantic, fields)));
  const raw = state.raw.get(hit.id);
  const evidence = grade ? h('div', { class: 'grade-evidence muted', 'data-coverage': grade.coverage, 'data-relative': grade.relative },
    'why ', h('strong', null, hit.match), ': ',
    h('span', { title: 'the share of the query\'s evidence (see “Evidence per word”) this tool matches' }, `coverage ${pct(grade.coverage)}`),
    h('span', { class: 'mini', 'aria-hidden': 'true' }, h('span', { style: `width:${pct(Math.min(1, grade.coverage))}` })),
    ' · ', h('span', { title: 'its score / the best hit\'s' }, `relative ${pct(grade.relative)}`),
    h('span', { class: 'mini', 'aria-hidden': 'true' }, h('span', { style: `width:${pct(Math.min(1, grade.relative))}` })),
    grade.phrase ? [' · ', h('span', { class: 'phrase', title: 'two consecutive query words stand close together in its text' }, 'phrase')] : '',
    hit.exact ? ' · exact name' : '') : null;
  return h('li', { class: 'hit', 'data-id': hit.id, 'data-grade': hit.match },
    h('div', { class: 'hit-head' },
      h('span', { class: 'rank' }, `${rank}.`), h('span', { class: 'id mono' }, hit.id), gradeBadge(hit.match),
      loaded === true ? h('span', { class: 'loaded-yes session-flag', 'data-loaded': 'true', title: G.hover('loaded') }, '✓ a session loads it')
        : loaded === false ? h('span', { class: 'loaded-no session-flag', 'data-loaded': 'false', title: G.hover('listed') }, '✗ listed, not loaded') : null,
      trustBadge(hit.trust),
      hit.exact ? h('span', { class: 'badge exact', title: 'the query is this tool’s full name or id' }, 'exact name') : null,
      raw ? h('span', { class: 'badge shape' }, M.toolShape(raw)) : null,
      h('span', { class: 'score' }, fmt(hit.score))),
    h('div', { class: 'desc muted' }, hit.description),
    hit.matched ? h('div', { class: 'matched' }, 'matched: ', hit.matched.length
      ? hit.matched.map((w) => h('span', { class: 'tok term' }, w)) : h('span', { class: 'muted' }, '(no query word)')) : null,
    learnedBlock(hit),
    evidence,
    bar, rank <= 3 ? table : h('details', { class: 'json' }, h('summary', null, 'score by term and field'), table));
}

/** A label's evidence counts as the file records them, each titled with what it counts. */
function evidenceSpans(ev) {
  const parts = V.evidenceParts(ev);
  if (!parts.length) return h('span', { class: 'muted' }, 'no counts recorded');
  return h('span', { class: 'ev-counts' }, parts.map((p, i) => [i ? ' · ' : '',
    h('span', { class: 'evc', 'data-field': p.field, 'data-value': String(p.value), title: V.EVIDENCE_MEANINGS[p.field] }, p.text)]));
}

/**
 * Why a hit came up, beyond its own text: the learned vocabulary's labels
 * that hold a word it matched (explain.learned, the core's list), each
 * with its evidence from the loaded file — drawn apart from the tool's own
 * matched words.
 */
function learnedBlock(hit) {
  if (!state.vocab || !hit.explain?.learned?.length) return null;
  const labels = V.learnedLabels(hit, state.vocab.value);
  return h('div', { class: 'learned', 'data-learned': labels.map((l) => l.label).join('|') },
    h('span', { class: 'badge learned', title: `from the learned vocabulary, not from the tool's own text. ${G.hover('learned label')}` }, 'learned'),
    ' it matched words its users taught it — the vocabulary\'s labels, not the tool\'s own text:',
    h('ul', { class: 'learned-list' }, labels.map((l) => h('li', { 'data-label': l.label, 'data-list': l.list ?? undefined },
      h('span', { class: 'learned-label' }, l.label),
      h('span', { class: 'muted' }, l.list ? ` ${l.list === 'aliases' ? 'alias' : 'tag'} · ` : ' '),
      l.evidence ? evidenceSpans(l.evidence)
        : h('span', { class: 'muted', 'data-evidence': 'none' }, 'no evidence for this label in the file as written (the core reports labels normalised: case, width and spaces; a host\'s own annotations have none)')))));
}

/**
 * The Search tab's line about the vocabulary in use: its digest (the
 * core's), how many tools and labels it holds and what it was learned from
 * (the file's own counts), and a switch to turn it off.
 */
function renderVocabBar() {
  const box = clear($('search-vocab'));
  const v = state.vocab;
  if (!v) {
    append(box, [h('span', { class: 'muted' }, 'No learned vocabulary: tools are found by their own words only. '),
      h('button', { type: 'button', class: 'linkish', onclick: () => selectTab('vocab', true) }, 'Learn or load one')]);
    box.dataset.active = 'false';
    return;
  }
  const view = V.vocabularyView(v.value);
  box.dataset.active = 'true';
  append(box, [
    h('span', { class: 'badge learned', title: G.hover('vocabulary') }, 'learned vocabulary'), ' ',
    h('span', { class: 'mono', id: 'vocab-digest', title: 'the vocabulary\'s digest (index.info().vocabulary): journals recorded under it carry it in their header' },
      `${v.info?.digest?.slice(0, 12) ?? '?'}…`),
    ` · ${view.toolCount} tool${view.toolCount === 1 ? '' : 's'}, ${view.labelCount} label${view.labelCount === 1 ? '' : 's'}`,
    V.provenanceLine(view.learned) ? ` · ${V.provenanceLine(view.learned)}` : ' · a host\'s own annotations (no learning record)',
    v.info?.unknownTools ? h('span', { class: 'refusal' }, ` · ${v.info.unknownTools} of its tools ${v.info.unknownTools === 1 ? 'is' : 'are'} not in this catalog`) : '',
    ' ', h('button', { type: 'button', class: 'linkish', onclick: () => selectTab('vocab', true) }, 'review'),
    ' ', h('button', { type: 'button', id: 'search-vocab-off', onclick: guard('search-error', () => dropVocabulary()) }, 'Turn off'),
  ]);
}

/**
 * The explain's semantic part (docs/relevance.md, "Semantic search"), as the
 * ranker reported it: similarity, rank by similarity, z-score, evidence
 * above the floor, and what it added; or that the tool has no vector.
 */
function semanticRow(sem, fields) {
  if (!sem) return null;
  if (sem.vector === false)
    return h('tr', { class: 'semantic', 'data-semantic': 'none' }, h('td', null, 'semantic'), h('td', null, '—'), fields.map(() => h('td', null, '')),
      h('td', null, 'no vector: its text has no token the model knows (BM25F only)'));
  return h('tr', { class: 'semantic', 'data-semantic': String(sem.score) }, h('td', null, 'semantic'), h('td', null, fmt(sem.score)),
    fields.map(() => h('td', null, '')),
    h('td', null, `similarity ${fmt(sem.similarity)} · rank ${sem.rank} by similarity · z ${fmt(sem.z)} · evidence ${fmt(sem.evidence)}`,
      h('span', { class: 'muted', title: 'only a similarity that stands out from this query\'s similarities to every tool counts (z above √(2 ln N) + 0.5)' }, sem.evidence > 0 ? '' : ' (below the floor: adds nothing)')));
}

/** Use the two chosen files as the Search tab's model, or drop it (lexical only): the catalog is indexed again with it. */
async function useModel(load) {
  let model = null;
  if (load) {
    const st = $('search-model-st').files?.[0], tok = $('search-model-tok').files?.[0];
    if (!st || !tok) throw new Error('choose both files: model.safetensors and tokenizer.json');
    model = state.toolsift.loadStaticModel(new Uint8Array(await st.arrayBuffer()), await tok.text());
  }
  const old = state.model;
  state.model = model;
  try {
    useCatalog(state.catalog.value, state.catalog.label, state.catalog.text);
  } catch (e) {
    state.model = old;
    model?.free();
    throw e;
  }
  old?.free();
}

// ------------------------------------------------------------------ sessions

function trustOfFor(catalogValue) {
  if (catalogValue === state.catalog?.value) return (id) => state.docs.get(id)?.trust;
  if (!state.trustCache.has(catalogValue)) {
    let map = new Map();
    try {
      const ix = state.toolsift.createIndex(catalogValue);
      map = new Map(ix.documents().tools.map((t) => [t.id, t.trust]));
      ix.free();
    } catch {
      /* the session reports the catalog error itself */
    }
    state.trustCache.set(catalogValue, map);
  }
  const map = state.trustCache.get(catalogValue);
  return (id) => map.get(id);
}

function readConfigBox() {
  const value = M.parseJSON($('session-config').value, 'session configuration');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new M.InputError('session configuration', 'must be a JSON object');
  }
  if ('catalog' in value) throw new M.InputError('session configuration', 'leave "catalog" out: the current catalog is used');
  return value;
}

/**
 * Open a recording (playground format) or a bare journal, and replay it.
 * A recording replays under the vocabulary it carries ("annotations"), a
 * bare journal under the one active in Search (if any). `heldKey` names an
 * example's entry among the journals the page holds; any other run is
 * added to them (for learning).
 */
function openRun(parsed, label, heldKey) {
  let run;
  if (parsed.kind === 'recording') {
    const rec = parsed.recording;
    let catalog = rec.catalog === undefined || rec.catalog === 'bundled' ? state.bundled : rec.catalog;
    if (rec.skills) catalog = Array.isArray(catalog) ? { tools: catalog, skills: rec.skills } : { ...catalog, skills: rec.skills };
    run = {
      kind: 'recording', label, title: rec.title ?? label, description: rec.description, tampered: rec.tampered,
      fingerprint: rec.fingerprint, config: { ...(rec.config ?? {}) }, catalog, calls: rec.calls ?? null,
      annotations: rec.annotations ?? null, vocabLabel: rec.annotations ? 'the recording\'s vocabulary' : null,
      header: parsed.header, journal: structuredClone(parsed.records), original: structuredClone(parsed.records),
    };
  } else {
    const config = readConfigBox();
    const loop = loopOf(parsed.header, parsed.records);
    if (loop && config.loop === undefined) config.loop = loop;
    run = {
      kind: 'journal', label, title: label, config, catalog: state.catalog.value, calls: null,
      annotations: state.vocab?.text ?? null, vocabLabel: state.vocab ? `the vocabulary active in Search (${state.vocab.label})` : null,
      header: parsed.header, journal: structuredClone(parsed.records), original: structuredClone(parsed.records),
    };
  }
  replay(run); // throws (config, journal) before anything changes
  state.live?.free();
  state.live = null;
  $('live-form').hidden = true;
  $('live-pre-form').hidden = true;
  $('live-mode-note').hidden = true;
  state.tamper = null;
  state.editorOpen = null;
  state.run = run;
  state.replayShown = false;
  hold(heldKey, run.title, heldKey ? 'example' : 'opened', parsed.header, parsed.records);
  renderRun();
  renderReplay();
  say(`Opened ${run.title}: ${count(run.result.steps.length, 'call')}, ${count(run.result.metrics.menu, 'tool')} on the menu`);
}

/**
 * Keep a journal among those the page holds (Vocabulary › Learn from the
 * sessions here). Without a key, a journal already held with the same
 * records is not added twice (a link can open the same one again).
 */
function hold(key, title, kind, header, records) {
  if (!key) {
    const same = JSON.stringify(records);
    if ([...state.held.values()].some((j) => j.records && JSON.stringify(j.records) === same)) return;
    key = `open:${++state.opened}`;
  }
  state.held.set(key, { ...(state.held.get(key) ?? {}), title, kind, header, records: structuredClone(records) });
  renderLearnJournals();
}

/** The loop a journal was recorded by: its header's id (<loop>#journal), else its first decision's. */
function loopOf(header, records) {
  if (typeof header?.id === 'string' && header.id.endsWith('#journal')) return header.id.slice(0, -'#journal'.length);
  return M.parseDecisionId(records[0]?.id)?.loop;
}

/** The vocabulary a run replays under: the Replay check's choice, else the one it was opened with. */
const effectiveAnnotations = (run) => (run.against && 'vocab' in run.against ? run.against.vocab : run.annotations);

/** (Re)compute run.result: the replay of run.journal (its header passed back with it). */
function replay(run) {
  const catalog = run.against?.catalog ?? run.catalog;
  const config = run.against?.config ?? run.config;
  run.result = replayWithRerank({
    config: { ...config, catalog }, calls: run.calls, header: run.header, journal: run.journal, trustOf: trustOfFor(catalog),
    annotations: effectiveAnnotations(run),
  });
}

/** replayRun plus, per verdict, what the ranker picks now (v.live, v.rerank). */
function replayWithRerank(input) {
  const result = M.replayRun(state.toolsift, input);
  let live = new Map();
  try {
    live = M.rerankRun(state.toolsift, input);
  } catch {
    /* the replay reported the configuration error already */
  }
  for (const v of result.verdicts) {
    v.live = live.get(v.id) ?? null;
    v.rerank = M.rerankVerdict(v.recorded, v.live);
  }
  result.config = input.config;
  result.trustOf = input.trustOf;
  return result;
}

/** What the Replay check tab's options ask to replay against (null: the run's own). */
function replayAgainst(run) {
  const against = {};
  if ($('replay-use-catalog').checked) against.catalog = state.catalog.value;
  if ($('replay-use-config').checked) {
    against.config = readConfigBox();
    const loop = loopOf(run.header, run.journal);
    if (loop && against.config.loop === undefined) against.config.loop = loop;
  }
  // null: no vocabulary (the catalog's own words), when none is active.
  if ($('replay-use-vocab').checked) against.vocab = state.vocab?.text ?? null;
  return against.catalog || against.config || 'vocab' in against ? against : null;
}

/**
 * A live session over the current catalog, under the vocabulary active in
 * Search (if any) and with the client name in the form (the session option
 * `client`, recorded in the journal header: learning counts clients).
 */
function startLive() {
  // The "auto mode" box turns on search.auto (docs/sessions.md, "Auto mode").
  const config = M.withAutoMode(readConfigBox(), $('live-auto').checked);
  const client = $('live-client').value.trim();
  const annotations = state.vocab?.text ?? null;
  const session = state.toolsift.createSession({ ...config, catalog: state.catalog.value }, {
    client: client || undefined, annotations: annotations ?? undefined,
  });
  state.live?.free();
  state.live = session;
  const n = ++state.lives;
  state.run = {
    kind: 'live', label: 'live session', title: 'Live session', config, catalog: state.catalog.value, calls: [],
    client: client || null, annotations, vocabLabel: state.vocab ? `the vocabulary active in Search (${state.vocab.label})` : null,
    heldKey: `live:${n}`, heldTitle: `live session ${n}${client ? ` (client ${client})` : ''}`,
    header: null, journal: [], original: [], result: { start: M.startOf(session), steps: [], metrics: session.metrics() },
  };
  state.replayShown = false;
  state.tamper = null;
  state.editorOpen = null;
  $('live-form').hidden = false;
  $('live-turn').value = '0';
  $('live-call').value = '0';
  liveFormForMode(session.mode);
  setHash('ex', undefined);
  setHash('jr', undefined);
  setHash('cfg', undefined);
  renderRun();
  renderReplay();
  $('live-tool').focus();
  say(`Live session started${client ? ` as client ${client}` : ''}: ${M.MODE_WORDS[M.modeView(session.metrics()).mode]}`);
}

/**
 * The live form as the session's mode allows: in mode "all" every tool is
 * on the menu and search_tools is not (a call to it is refused), and there
 * is nothing to pre-search (the core refuses it), so the form offers
 * neither; in mode "search" it offers both.
 */
function liveFormForMode(mode) {
  const all = mode === 'all';
  $('live-pre-form').hidden = all;
  $('live-mode-note').hidden = !all;
  const search = M.metaTools(state.run?.config).search;
  if (all && $('live-tool').value === search) {
    $('live-tool').value = '';
    $('live-args').value = '{}';
  } else if (!all && $('live-tool').value === '') {
    $('live-tool').value = search;
    $('live-args').value = $('live-args').defaultValue;
  }
}

function liveCall(ev) {
  ev.preventDefault();
  const run = state.run;
  if (!state.live || run?.kind !== 'live') throw new Error('start a live session first');
  const turn = Number($('live-turn').value);
  const call = Number($('live-call').value);
  const tool = $('live-tool').value.trim();
  if (!Number.isInteger(turn) || turn < 0) throw new M.InputError('turn', 'must be a non-negative integer');
  if (!Number.isInteger(call) || call < 0) throw new M.InputError('call', 'must be a non-negative integer');
  if (!tool) throw new M.InputError('tool', 'name the tool the model calls (search_tools to search)');
  const argsText = $('live-args').value.trim();
  const args = argsText === '' ? {} : M.parseJSON(argsText, 'arguments');
  const c = { turn, call, tool, args };
  const s = M.step(state.live, c);
  if (s.error) throw new Error(`${s.error.code}: ${s.error.message}`);
  run.calls.push(c);
  run.result.steps.push(s);
  run.result.metrics = s.metrics;
  syncLiveJournal(run);
  $('live-call').value = String(call + 1);
  renderRun();
  if (state.replayShown) renderReplay();
  say(`Call answered: ${s.output?.result?.error ?? (s.output?.result?.allowed ? 'allowed' : count(s.output?.result?.tools?.length ?? 0, 'hit'))}`);
}

/**
 * The host pre-searches the user's message (Session#preSearch) before the
 * model's next turn (M.nextPreSearchTurn: the form's model turn when the
 * run has nothing at it yet, else the one after): its strong hits load,
 * and the form moves to that turn's first tool call.
 */
function livePreSearch(ev) {
  ev.preventDefault();
  const run = state.run;
  if (!state.live || run?.kind !== 'live') throw new Error('start a live session first');
  const text = $('live-pre-text').value;
  if (!text.trim()) throw new M.InputError('user\'s message', 'type what the user says: the host searches it before the model\'s turn');
  const formTurn = Number($('live-turn').value);
  if (!Number.isInteger(formTurn) || formTurn < 0) throw new M.InputError('turn', 'must be a non-negative integer');
  const turn = M.nextPreSearchTurn(run.calls, formTurn);
  const c = { turn, preSearch: text };
  const s = M.step(state.live, c);
  if (s.error) throw new Error(`${s.error.code}: ${s.error.message}`);
  run.calls.push(c);
  run.result.steps.push(s);
  run.result.metrics = s.metrics;
  syncLiveJournal(run);
  $('live-turn').value = String(turn);
  $('live-call').value = '0';
  $('live-pre-text').value = '';
  renderRun();
  if (state.replayShown) renderReplay();
  const loaded = (s.output?.result?.tools ?? []).filter((t) => t.loaded).length;
  say(`Pre-searched before model turn ${turn}: ${count(loaded, 'tool')} loaded`);
}

/** The turn the next live pre-search goes to, said beside its input. */
function renderPreSearchTurn() {
  const run = state.run;
  const el = $('live-pre-turn');
  if (!el || run?.kind !== 'live') return;
  const turn = Number($('live-turn').value);
  el.textContent = Number.isInteger(turn) && turn >= 0 ? `before model turn ${M.nextPreSearchTurn(run.calls, turn)}` : '';
}

/**
 * The live session's journal into the run: its chain header kept apart, so
 * record k is run.journal[k] ("Edit decision k" and the core's chain
 * positions count records); each step gets the call records of its call;
 * the journal joins the ones the page holds.
 */
function syncLiveJournal(run) {
  const { header, records } = M.splitJournal(state.live.journal());
  run.header = header;
  run.journal = records;
  run.original = structuredClone(records);
  for (const s of run.result.steps) s.callRecords = [];
  for (const c of M.callRecordView(records, records, run.result.steps)) if (c.step !== null) run.result.steps[c.step].callRecords.push(c);
  hold(run.heldKey, run.heldTitle, 'live', header, records);
}

/** The host reports a live call failed (Session#callFailed): the journal records it, and learning will not count the call. */
function liveReportFailed(s) {
  const run = state.run;
  if (!state.live || run?.kind !== 'live') throw new Error('start a live session first');
  M.reportFailed(state.live, s);
  if (s.failedError) throw new Error(`${s.failedError.code}: ${s.failedError.message}`);
  syncLiveJournal(run);
  renderRun();
  if (state.replayShown) renderReplay();
  say(`Reported failed: ${s.call.tool} (${callWhere(s.call.turn, s.call.call)})`);
}

function renderRun() {
  const run = state.run;
  const head = clear($('recording-head'));
  const tl = clear($('timeline'));
  if (!run) return;
  const r = run.result;
  append(head, [
    h('h3', { id: 'run-title' }, run.title),
    run.description ? h('p', { class: 'muted' }, run.description) : null,
    run.fingerprint && r.fingerprint && run.fingerprint !== r.fingerprint
      ? h('p', { class: 'note' }, 'The catalog, configuration or vocabulary changed since this run was recorded (fingerprint differs): expect narrowed or diverged decisions.') : null,
    run.kind === 'journal' && !run.calls ? h('p', { class: 'hint' }, 'A bare journal: calls are rebuilt from the record ids (searches, pre-searches, skill activations and calls to catalog tools, without their arguments).') : null,
    renderRunMode(run),
    run.kind !== 'live' && r.chain ? h('p', { class: r.chain.verified ? 'muted' : 'note', id: 'run-chain', 'data-first': r.chain.first ?? undefined },
      `${chainHeadline(r.chain)} — see Replay check.`) : null,
    renderRunVocabulary(run),
    r.diverged ? h('p', { class: 'note diverged', id: 'run-diverged' }, h('strong', null, 'Diverged: '), r.diverged) : null,
    h('p', { class: 'row' },
      h('button', { type: 'button', onclick: () => download(`${safeName(run.title)}.jsonl`, journalJSONL(M.journalRecords(run.header, run.journal))) }, 'Download journal (.jsonl)'),
      h('button', { type: 'button', onclick: () => download(`${safeName(run.title)}.recording.json`, JSON.stringify(recordingOf(run), null, 1)) }, 'Download recording (.json)'),
      h('button', { type: 'button', onclick: () => { selectTab('replay', true); checkReplay(); } }, 'Check replay →')),
  ]);
  if (r.steps.length === 0) tl.append(h('li', { class: 'muted' }, run.kind === 'live' ? 'No calls yet: send one with the form.' : 'This recording has no calls.'));
  let turn = null;
  r.steps.forEach((s, i) => {
    if (s.call.turn !== turn) {
      turn = s.call.turn;
      tl.append(h('li', { class: 'turn-head', 'aria-hidden': 'true', title: TURN_TITLE }, `Model turn ${turn}`));
    }
    tl.append(renderStep(s, i, run));
  });
  renderMenu(run);
  // In mode "all" search_tools is not on the menu: the form does not offer it.
  const all = M.modeView(r.metrics ?? r.start.metrics).mode === 'all';
  const names = new Set([...(all ? [] : [M.metaTools(effectiveConfig(run)).search]), 'activate_skill', ...(r.steps.at(-1)?.menu ?? r.start.menu)]);
  const dl = clear($('live-tools'));
  for (const n of names) dl.append(h('option', { value: n }));
  renderPreSearchTurn();
}

/** A badge naming a session's mode (M.MODE_WORDS), with the glossary's words on hover. */
const modeBadge = (mode) => h('span', { class: `badge mode mode-${mode}`, 'data-mode': mode, title: G.hover(mode === 'all' ? 'auto mode' : 'mode: search') }, M.MODE_WORDS[mode]);

/**
 * Which mode the session is in (the core's metrics().mode): every tool on
 * the menu from the start without search_tools (auto mode's "all"), or
 * search; for a recorded run also the mode its journal header records
 * ("mode": "all"), and the pre-searches the host made.
 */
function renderRunMode(run) {
  const r = run.result;
  const v = M.modeView(r.metrics ?? r.start.metrics, run.kind === 'live' ? null : run.header, effectiveConfig(run));
  const pre = r.metrics?.preSearches ?? 0;
  const says = v.mode === 'all'
    ? ': every tool this session may use is on the menu from the start, and search_tools is not (a call to it is refused)'
    : v.auto ? ': auto mode is on, but this session searches — the tools it may use do not fit auto mode\'s budget (by default 30 tools and 24,000 characters of specs), or it finds skills through search — so the model finds tools with search_tools'
      : ': the model finds tools with search_tools, and each search loads its strong hits onto the menu';
  return h('p', { class: 'muted', id: 'run-mode', 'data-mode': v.mode, 'data-recorded': v.recorded ?? undefined },
    modeBadge(v.mode), says, '.',
    v.differs ? h('span', { class: 'note' }, ` Recorded in ${M.MODE_WORDS[v.recorded]}, replayed in ${M.MODE_WORDS[v.mode]}: the journal header does not match (see Replay check).`) : '',
    pre ? [' ', h('span', { class: 'term', title: G.hover('pre-search') }, count(pre, 'pre-search', 'pre-searches')),
      ' of the user\'s messages by the host.'] : '');
}

/**
 * Who recorded the run and under which vocabulary (its journal header:
 * "client", and "vocabulary", the digest of the vocabulary it ran under),
 * and which vocabulary the page replays it under.
 */
function renderRunVocabulary(run) {
  const hv = run.header?.value ?? {};
  const recorded = typeof hv.vocabulary === 'string' ? hv.vocabulary : null;
  const client = typeof hv.client === 'string' ? hv.client : run.client ?? null;
  const using = run.kind === 'live' ? run.vocabLabel
    : run.against && 'vocab' in run.against ? (run.against.vocab ? `the vocabulary active in Search (${state.vocab?.label ?? 'learned'})` : null)
      : run.vocabLabel;
  if (!recorded && !client && !using) return null;
  return h('p', { class: 'muted', id: 'run-vocab', 'data-recorded': recorded ?? undefined, 'data-client': client ?? undefined },
    client ? [h('span', { class: 'term', title: G.hover('client') }, 'client'), ' ', h('span', { class: 'mono' }, client), ' · '] : '',
    recorded ? ['recorded under ', h('span', { class: 'term', title: G.hover('vocabulary') }, 'vocabulary'), ' ', h('span', { class: 'mono', title: recorded }, `${recorded.slice(0, 12)}…`)]
      : run.kind === 'live' ? '' : 'recorded under no learned vocabulary',
    run.kind === 'live' ? (using ? `runs under ${using}` : 'runs under no learned vocabulary')
      : ` · replayed under ${using ?? 'no learned vocabulary'}`);
}

const safeName = (s) => String(s).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'run';
const journalJSONL = M.journalJSONL;
function recordingOf(run) {
  const { catalog } = run;
  const annotations = typeof run.annotations === 'string' ? JSON.parse(run.annotations) : run.annotations;
  return {
    format: M.RECORDING_FORMAT, title: run.title, description: run.description,
    catalog: catalog === state.bundled ? 'bundled' : catalog, config: run.config,
    calls: run.calls ?? M.callsFromJournal(run.journal, run.config).calls, journal: M.journalRecords(run.header, run.journal),
    ...(annotations ? { annotations } : {}),
    fingerprint: run.result.fingerprint,
  };
}
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const effectiveConfig = (run) => run.against?.config ?? run.config;
const effectiveCatalog = (run) => run.against?.catalog ?? run.catalog;

/** Where a call is in the run, in plain words: the journal's turn:T:tool:C. */
const callWhere = (turn, call) => `model turn ${turn}, tool call ${call}`;
/** Where a step is: a tool call's place, or a pre-search's (before the model's turn; the journal's turn:T:pre-search). */
const stepWhere = (c) => (M.isPreSearch(c) ? `before model turn ${c.turn} (the host's pre-search)` : callWhere(c.turn, c.call));
const TURN_TITLE = 'A model turn is one reply of the model; the tool calls it makes in that turn are numbered from 0 (the journal names a call turn:T:tool:C).';
/** The search page's "vocabulary" field (not a learned vocabulary): docs/sessions.md, "What a search answers". */
const NEAR_WORDS_TITLE = 'vocabulary (only when no hit is strong): up to 12 catalog words near the request — the namespaces and name words of the listed hits\' ids';

function stepKind(s, run) {
  const names = M.metaTools(effectiveConfig(run));
  if (s.error) return 'error';
  if (M.isPreSearch(s.call)) return 'pre-search';
  const res = s.output?.result ?? {};
  const skillDecision = [s.output?.decision, s.verdict?.recorded].some((d) => d?.source === 'agent-skill-activation');
  if (skillDecision || (s.call.tool === names.skill && !res.allowed)) return 'skill';
  if (res.error) return 'refused';
  if (s.call.tool === names.search) return 'search';
  return 'allowed';
}

function renderStep(s, i, run) {
  const kind = stepKind(s, run);
  const res = s.output?.result ?? {};
  const v = s.verdict;
  const recorded = v?.recorded ?? null;
  const body = [];
  const args = s.call.args ?? {};
  const pre = M.isPreSearch(s.call);
  if (kind === 'pre-search') {
    // The host's search of the user's message before the model's turn: a page like a search's.
    const page = M.pageView(res, s.output?.decision ?? null, recorded);
    body.push(h('div', null, h('span', { class: 'muted' }, 'user\'s message '), h('q', { class: 'mono pre-search-text' }, s.call.preSearch),
      page?.ranker ? h('span', { class: 'muted ranker', 'data-ranker': page.ranker, title: G.hover('ranker') }, ` · ranker ${page.ranker}`) : null));
    body.push(h('div', { class: 'muted' }, `The host searched it before model turn ${s.call.turn}: only strong hits load (at most search.preSearchLimit), the others are listed for the model to load with select: or search again.`));
    body.push(renderPage(page, trustOfFor(effectiveCatalog(run)), run.kind === 'live'));
  } else if (kind === 'search') {
    const page = M.pageView(res, s.output?.decision ?? null, recorded);
    body.push(h('div', null, page?.select ? h('span', { class: 'badge grade-selected', 'data-select': '', title: 'select: loads exactly the named tools (no ranking)' }, 'select') : 'query ',
      ' ', h('q', { class: 'mono' }, String(args.query ?? '')), args.limit !== undefined ? ` · limit ${args.limit}` : '',
      page?.ranker ? h('span', { class: 'muted ranker', 'data-ranker': page.ranker, title: page.select ? G.hover('select:') : G.hover('ranker') }, ` · ranker ${page.ranker}`) : null));
    body.push(renderPage(page, trustOfFor(effectiveCatalog(run)), run.kind === 'live'));
  } else if (kind === 'skill') {
    if (res.error) body.push(h('div', { class: 'refusal' }, h('strong', null, res.error), `: ${res.message ?? ''}`));
    body.push(renderSkillResult(res, s.output?.decision ?? recorded, args));
  } else if (kind === 'refused') {
    body.push(h('div', { class: 'refusal' }, h('strong', null, res.error), `: ${res.message ?? ''}`, res.tool ? ` (${res.tool})` : ''));
  } else if (kind === 'error') {
    body.push(h('div', { class: 'refusal' }, `${s.error.code}: ${s.error.message}`));
  } else {
    body.push(h('div', { class: 'loaded-yes' }, 'allowed: on the menu, the host may dispatch it'));
    body.push(renderCallRecords(s, run));
  }
  for (const w of s.output?.warnings ?? []) body.push(h('div', { class: 'note', title: w }, W.plainWarning(w)));
  const decision = s.output?.decision ?? null;
  if (decision || recorded) {
    body.push(h('details', { class: 'json' }, h('summary', { title: G.hover('decision') }, 'decision JSON'),
      recorded && decision && M.canonical(M.withoutChain(recorded)) !== M.canonical(decision)
        ? h('div', { class: 'sidebyside' },
          h('div', null, h('div', { class: 'muted' }, 'recorded'), h('pre', null, JSON.stringify(recorded, null, 1))),
          h('div', null, h('div', { class: 'muted' }, 'replayed'), h('pre', null, JSON.stringify(decision, null, 1))))
        : h('pre', null, JSON.stringify(decision ?? recorded, null, 1))));
  }
  const delta = s.added.length ? `+${s.added.length} → ${s.menu.length} on the menu` : `${s.menu.length} on the menu`;
  const callRecords = (s.callRecords ?? []).map((c) => c.source).join(' ');
  return h('li', {
    class: `step k-${kind}`, 'data-step': i, 'data-kind': kind, 'data-decision': decision?.id ?? recorded?.id,
    'data-call-records': callRecords || undefined,
  },
    h('div', { class: 'step-head' },
      h('button', { type: 'button', class: 'linkish where', title: `${stepWhere(s.call)}: draw the menu as it was after this ${pre ? 'pre-search' : 'call'}`,
        onclick: () => { renderMenu(run, i + 1); highlightStep(i); } }, h('span', { class: 'visually-hidden' }, `model turn ${s.call.turn}, `), pre ? 'before the model\'s turn' : `tool call ${s.call.call}`),
      pre ? h('span', { class: 'badge pre-search', title: G.hover('pre-search') }, 'host pre-search') : h('strong', { class: 'mono' }, s.call.tool),
      v ? h('span', { class: `verdict v-${v.verdict}`, title: `${W.verdictMeaning(v.verdict)} ${G.hover(v.verdict)}` }, v.verdict) : null,
      run.tampered && run.tampered.decision === (decision?.id ?? recorded?.id)
        ? h('span', { class: 'badge trust-tainted', title: `${W.MARK_MEANINGS.edited} ${run.tampered.edits.join('; ')}` }, 'edited after recording') : null,
      h('span', { class: 'menu-delta' }, delta)),
    body);
}

/**
 * The call records of an allowed call (not decisions: the journal's record
 * that the model called a catalog tool, and the host's report that it
 * failed), as the journal holds them and, on a replay, whether replay wrote
 * them again; a live call to a catalog tool offers "Report failed".
 */
function renderCallRecords(s, run) {
  const recs = s.callRecords ?? [];
  const live = run.kind === 'live';
  const called = recs.some((c) => c.source === M.CALL_SOURCE);
  const failed = recs.some((c) => c.failed) || s.failed;
  if (!recs.length && !s.failedError) return null;
  return h('div', { class: 'call-records' },
    recs.map((c) => [h('span', {
      class: `badge call-record${c.failed ? ' failed' : ''}`, 'data-source': c.source,
      title: `${c.failed ? 'agent-tool-call-failed: the host reported the call failed; learning does not count it'
        : 'agent-tool-call: the journal records that the model called this catalog tool (learning reads it)'}. ${G.hover('call record')}`,
    }, c.failed ? 'reported failed' : 'call recorded'),
    !live && !c.same ? h('span', { class: 'refusal' }, ' replay did not write this record again') : null,
    c.chain ? h('span', { class: 'badge chain-broken', title: c.chain }, 'chain broken') : null, ' ']),
    s.failedError ? h('span', { class: 'refusal' }, `the failure could not be reported again: ${s.failedError.code}: ${s.failedError.message}`) : null,
    live && called && !failed && state.live ? h('button', {
      type: 'button', class: 'linkish report-failed', title: 'Session#callFailed: the tool answered an error; the journal records it and learning will not count this call',
      onclick: guard('session-error', () => liveReportFailed(s)),
    }, 'Report failed') : null);
}

/** A search_tools page (M.pageView): loaded and listed hits with their grades, the note, unmatched words, vocabulary, unknown names. */
function renderPage(page, trustOf, live) {
  if (!page) return null;
  const chips = (label, words, cls, id, title) => (words.length
    ? h('div', { class: 'words', 'data-words': id }, h('span', { class: 'muted', title }, label), words.map((w) => h('span', { class: `tok ${cls}` }, w))) : null);
  const list = h('ul', { class: 'page' }, page.tools.map((t) => {
    const trust = trustOf(t.name);
    return h('li', { 'data-tool': t.name, 'data-loaded': String(t.loaded), 'data-grade': t.match ?? undefined },
      t.loaded ? h('span', { class: 'loaded-yes', title: G.hover('loaded') }, '✓ loaded ') : h('span', { class: 'loaded-no', title: G.hover('listed') }, '✗ listed '),
      gradeBadge(t.match), ' ', h('span', { class: 'mono' }, t.name), ' ', trust ? trustBadge(trust) : null,
      t.matched.length ? h('span', { class: 'muted matched' }, ` matched ${t.matched.join(', ')}`) : null,
      t.claimed ? h('span', { class: 'refusal' }, ' (the record claims loaded)') : null,
      live && !t.loaded && trust !== 'tainted' ? [' ', h('button', {
        type: 'button', class: 'linkish select-fill', title: 'put select:<name> in the live form (then send it)',
        onclick: () => fillLiveSelect(t.name),
      }, 'load with select:')] : null,
      h('div', { class: 'muted desc' }, t.description));
  }));
  const grades = Object.entries(page.grades).map(([g, n]) => `${n} ${g}`).join(', ');
  return [
    page.tools.length === 0 ? h('div', { class: 'muted' }, 'no hit')
      : [h('div', { class: 'muted page-summary' }, `${page.loaded} loaded · ${page.listed} listed, not loaded${grades ? ` · ${grades}` : ''}`), list],
    page.skills.length ? h('div', null, 'skills: ', page.skills.map((sk) => h('span', { class: 'tok' }, sk))) : null,
    chips('matched nothing: ', page.unmatched, 'unmatched', 'unmatched'),
    chips('no such tool (select:): ', page.unknown, 'unmatched', 'unknown'),
    chips('already on the menu (select:): ', page.onMenu, 'term', 'onMenu'),
    chips('vocabulary (catalog words near the request): ', page.vocabulary, 'vocab', 'vocabulary', NEAR_WORDS_TITLE),
    page.note ? h('div', { class: 'note', 'data-note': '' }, page.note) : null,
    page.tainted ? h('div', { class: 'note' }, TAINTED_NOTE) : null,
  ];
}

/** The live form, ready to load `name` with select: (the user sends it). */
function fillLiveSelect(name) {
  $('live-tool').value = M.metaTools(state.run?.config).search;
  $('live-args').value = JSON.stringify({ query: `select:${name}` });
  $('live-args').focus();
  say(`The live form holds select:${name}: send it to load the tool`);
}

/**
 * A skill activation, rendered from whatever the result and the decision
 * carry (SPEC S8: the result { skill, instructions, tools }, the record
 * { skill, digest, bytes, resultBytes } and whatever else a record holds).
 */
function renderSkillResult(res, decision, args) {
  const value = decision?.value && typeof decision.value === 'object' ? decision.value : {};
  const skill = res.skill ?? value.skill ?? args?.name;
  const tools = Array.isArray(res.tools) ? res.tools : [];
  const short = (v) => (typeof v === 'string' && v.length > 24 ? `${v.slice(0, 16)}…` : JSON.stringify(v));
  const record = Object.entries(value).filter(([k]) => k !== 'skill');
  return h('div', null,
    'skill ', h('strong', { class: 'mono' }, String(skill ?? '?')),
    tools.length ? [' · tools ', tools.map((t) => h('span', { class: 'tok' }, typeof t === 'string' ? t : t.name ?? JSON.stringify(t)))] : '',
    record.length ? h('div', { class: 'muted mono', title: 'the activation record' }, record.map(([k, v]) => `${k} ${short(v)}`).join(' · ')) : null,
    typeof res.instructions === 'string'
      ? h('details', { class: 'json' }, h('summary', null, `instructions (${count(new TextEncoder().encode(res.instructions).length, 'byte')})`), h('pre', null, res.instructions))
      : null);
}

/**
 * The menu after call `upto` (default: the last), drawn as it grew: the
 * entries present from the start, then each call's additions, with the caps
 * and budget used at that point. A slider steps through the run.
 */
function renderMenu(run, upto = run.result.steps.length) {
  const box = clear($('menu-view'));
  const r = run.result;
  const n = r.steps.length;
  upto = Math.max(0, Math.min(n, upto));
  const at = upto === 0 ? null : r.steps[upto - 1];
  const menu = at?.menu ?? r.start.menu;
  const m = at?.metrics ?? r.start.metrics;
  const search = effectiveConfig(run).search ?? {};
  const caps = [
    ['searches', m.searches, search.maxSearches ?? 25],
    ['loaded by searches', m.loaded, search.maxLoaded ?? 20],
    ['menu characters', m.menuChars, search.maxMenuChars ?? null],
  ];
  const slider = h('input', {
    type: 'range', id: 'menu-step', min: '0', max: String(n), value: String(upto),
    'aria-valuetext': upto === 0 ? 'before the first call' : `after call ${upto} of ${n}`,
  });
  slider.addEventListener('input', () => {
    renderMenu(run, Number(slider.value));
    $('menu-step').focus();
    highlightStep(Number(slider.value) - 1);
  });
  append(box, [
    n ? h('div', { class: 'meter' }, h('label', { for: 'menu-step', class: 'label' },
      h('span', { title: 'the menu as it was after this many calls of the run (the tool calls of every model turn, counted from the start)' }, 'after call'), h('span', null, upto === 0 ? 'start' : `${upto} / ${n}`)), slider) : null,
    h('div', null, h('span', { class: 'menu-count', id: upto === n ? 'menu-count' : 'menu-count-at', 'data-count': menu.length }, String(menu.length)),
      ` ${menu.length === 1 ? 'tool' : 'tools'} on the `, h('span', { class: 'term', title: G.hover('menu') }, 'menu'), upto === n ? '' : ' (at this call)'),
    M.modeView(m).mode === 'all' ? h('p', { class: 'muted', id: 'menu-mode' }, modeBadge('all'),
      ': every tool this session may use is listed from the start; there is no search_tools to call.') : null,
    h('div', { class: 'muted' }, `${m.refusals} refusal${m.refusals === 1 ? '' : 's'} · ${m.rankerCalls} ranker call${m.rankerCalls === 1 ? '' : 's'} · ${m.replayed} replayed`,
      m.preSearches ? ` · ${G.count(m.preSearches, 'pre-search', 'pre-searches')}` : ''),
    caps.map(([label, v, cap]) => {
      const pct = cap ? Math.min(100, (v / cap) * 100) : 0;
      return h('div', { class: 'meter' },
        h('div', { class: 'label' }, h('span', null, label), h('span', null, cap ? `${v} / ${cap}` : `${v} (no cap)`)),
        cap ? h('div', { class: 'track', role: 'meter', 'aria-label': label, 'aria-valuemin': '0', 'aria-valuemax': String(cap), 'aria-valuenow': String(v) },
          h('div', { class: `fill${v >= cap ? ' full' : ''}`, style: `width:${pct.toFixed(1)}%` })) : null);
    }),
    renderMetaTool(r.start.specs ?? r.menu, effectiveConfig(run)),
    h('div', { class: 'menu-group' }, h('div', { class: 'from' }, 'from the start'), h('ol', null, r.start.menu.map((x) => h('li', { class: 'mono' }, x)))),
  ]);
  let count = r.start.menu.length;
  r.steps.slice(0, upto).forEach((s, i) => {
    if (!s.added.length) return;
    const label = M.isPreSearch(s.call) ? `the user's message “${s.call.preSearch.slice(0, 40)}”`
      : s.call.tool === M.metaTools(effectiveConfig(run)).search ? `search “${String(s.call.args?.query ?? '').slice(0, 40)}”` : s.call.tool;
    box.append(h('div', { class: `menu-group${i === upto - 1 ? ' latest' : ''}` }, h('div', { class: 'from' }, `${stepWhere(s.call)}: ${label}`),
      h('ol', { start: String(count + 1) }, s.added.map((x) => h('li', { class: 'mono' }, x)))));
    count += s.added.length;
  });
}

/** What the model reads about the search meta-tool: its instructions and the catalog overview (search.overview). */
function renderMetaTool(specs, config) {
  const meta = M.metaToolText(specs, config);
  if (!meta) return null;
  return h('details', { class: 'json overview', id: 'meta-tool' },
    h('summary', { title: meta.overview ? G.hover('catalog overview') : undefined }, `${meta.name}: what the model reads`, meta.overview ? ' (with the catalog overview)' : ''),
    h('p', { class: 'meta-instructions' }, meta.instructions),
    meta.overview ? h('div', { class: 'overview-text', id: 'catalog-overview' }, h('div', { class: 'from', title: G.hover('catalog overview') }, 'catalog overview'), meta.overview)
      : h('p', { class: 'muted' }, 'No catalog overview (search.overview is false).'));
}

function highlightStep(i) {
  for (const el of document.querySelectorAll('#timeline li.step.current')) el.classList.remove('current');
  const el = document.querySelector(`#timeline li.step[data-step="${i}"]`);
  if (el) {
    el.classList.add('current');
    el.scrollIntoView({ block: 'nearest' });
  }
}

// -------------------------------------------------------------------- replay

function checkReplay() {
  const run = state.run;
  if (!run) throw new Error('open a recording (Sessions) or record a live session first');
  const against = replayAgainst(run);
  if (run.kind === 'live') {
    const catalog = against?.catalog ?? run.catalog;
    run.replayResult = replayWithRerank({
      config: { ...(against?.config ?? run.config), catalog }, calls: run.calls, header: run.header, journal: run.journal,
      trustOf: trustOfFor(catalog), annotations: against && 'vocab' in against ? against.vocab : run.annotations,
    });
  } else {
    const saved = { against: run.against, result: run.result };
    run.against = against;
    try {
      replay(run);
    } catch (e) {
      Object.assign(run, saved);
      throw e;
    }
  }
  state.replayShown = true;
  renderReplay();
  if (run.kind !== 'live') renderRun();
  const c = M.summarize(replayResult(run).verdicts);
  say(`Replay: ${c.identical} identical, ${c.narrowed} narrowed, ${c.diverged} diverged; ${chainHeadline(replayResult(run).chain)}`);
}
const replayResult = (run) => (run.kind === 'live' ? run.replayResult : run.result);

function renderReplay() {
  const summary = clear($('replay-summary'));
  const list = clear($('replay-list'));
  const run = state.run;
  if (!run) {
    summary.append(h('p', { class: 'muted' }, 'Open a recording in Sessions first (the examples include a tampered one).'));
    return;
  }
  if (!state.replayShown || !replayResult(run)) {
    summary.append(h('p', { class: 'muted' }, `Ready: ${run.title}, ${count(M.decisionsOf(run.journal).length, 'decision')}.`));
    return;
  }
  const r = replayResult(run);
  const c = M.summarize(r.verdicts);
  append(summary, [
    h('p', null, h('strong', null, run.title), ': ',
      W.VERDICTS.map((k) => [
        h('span', { class: W.countBadgeClass(k, c[k]), 'data-verdict': k, 'data-count': c[k], title: W.verdictMeaning(k) }, `${c[k]} ${k}`), ' ']),
      ` · ${count(r.metrics.rankerCalls, 'ranker call')} · ${count(r.metrics.menu, 'tool')} on the menu · `,
      h('span', { id: 'replay-mode' }, modeBadge(M.modeView(r.metrics).mode)),
      r.callRecords?.length ? ` · ${r.callRecords.length} call record${r.callRecords.length === 1 ? '' : 's'}, ${r.callRecords.filter((c) => c.same).length} written again` : '',
      run.against ? ` · against ${[run.against.catalog ? `the catalog (${state.catalog.label})` : '', run.against.config ? 'the edited configuration' : '',
        'vocab' in run.against ? (run.against.vocab ? 'the vocabulary active in Search' : 'no vocabulary') : ''].filter(Boolean).join(' and ')}` : ''),
    r.diverged ? h('div', { class: 'chain bad diverged', id: 'replay-diverged' },
      h('p', null, h('strong', null, 'Diverged: recorded under another vocabulary'), ` — ${r.diverged}. `,
        h('span', { class: 'muted' }, 'A host replaying with divergence "fail" gets this as the error "diverged"; here each search is still answered from its record.'))) : null,
    renderChain(r.chain, 'replay-chain'),
    r.finishError ? h('p', { class: 'note' }, r.finishError) : null,
    state.tamper ? renderGuarantee(r) : null,
    JSON.stringify(run.journal) !== JSON.stringify(run.original)
      ? h('p', null, h('button', { type: 'button', onclick: guard('replay-error', resetJournal) }, 'Undo my edits')) : null,
  ]);
  if (r.verdicts.length === 0) list.append(h('li', { class: 'muted' }, 'The journal has no decisions.'));
  for (const v of r.verdicts) list.append(renderVerdict(v, run));
  // Call records are not decisions (no verdict): replay passes over them
  // and writes them again from the calls it makes; this says whether it did.
  for (const c of r.callRecords ?? []) list.append(renderCallRecordItem(c));
}

function renderCallRecordItem(c) {
  const p = M.parseDecisionId(c.id);
  return h('li', { class: 'call-record-item', 'data-record': c.id, 'data-source': c.source, 'data-same': String(c.same), 'data-chain': c.chain ? 'broken' : undefined },
    h('div', { class: 'step-head' },
      h('span', { class: `badge call-record${c.failed ? ' failed' : ''}`, title: G.hover('call record') }, c.failed ? 'call reported failed' : 'call record'),
      h('span', { class: 'mono' }, c.id), c.tool ? h('strong', { class: 'mono' }, c.tool) : null,
      c.chain ? h('span', { class: 'badge chain-broken', title: c.chain }, 'chain broken') : null),
    h('div', { class: 'verdict-meaning' }, c.failed
      ? `The host reported that this call${p ? ` (${callWhere(p.turn, p.call)})` : ''} failed. Not a decision: learning does not count a failed call.`
      : `The model called this catalog tool${p ? ` (${callWhere(p.turn, p.call)})` : ''}. Not a decision: replay passes over the record and records the call again when the replayed run makes it.`),
    c.same ? h('div', { class: 'muted' }, 'Replay wrote the same record again.')
      : h('div', { class: 'refusal' }, c.replayed ? 'Replay wrote a different record for this call.' : 'Replay did not write this record again: the replayed run made no such allowed call.'),
    h('details', { class: 'json' }, h('summary', null, 'recorded and replayed JSON'),
      h('div', { class: 'sidebyside' },
        h('div', null, h('div', { class: 'muted' }, 'recorded'), h('pre', null, JSON.stringify(c.recorded, null, 1))),
        h('div', null, h('div', { class: 'muted' }, 'replayed'), h('pre', null, c.replayed ? JSON.stringify(c.replayed, null, 1) : '(none)')))));
}

/** The chain's verdict in one line: the core's (session.verify()), as M.chainView arranged it. */
function chainHeadline(chain) {
  if (!chain) return '';
  if (!chain.chained) return 'No hash chain';
  if (chain.first !== null) return `Chain broken at decision ${chain.first}`;
  // Header problems (another catalog or configuration, a missing or edited
  // header, another key): the core's text follows; no claim about the rest.
  if (chain.header.length) return 'The journal header does not match';
  return 'Chain intact: the journal is as recorded';
}

/**
 * The hash chain box: intact, or broken at decision N (the first break; the
 * others listed), and the header's problems (another catalog,
 * configuration or key). Every sentence after the headline is the core's.
 */
function renderChain(chain, id) {
  if (!chain) return null;
  const ok = chain.chained && chain.first === null && chain.header.length === 0;
  const kind = !chain.chained ? 'unchained' : chain.first !== null ? 'broken' : chain.header.length ? 'header' : 'intact';
  return h('div', { class: `chain ${ok ? 'ok' : 'bad'}`, id, 'data-chain': kind, 'data-first': chain.first ?? undefined },
    h('p', null, h('strong', { title: chain.chained ? G.hover('chain') : undefined }, chainHeadline(chain)),
      ok ? ` (${chain.decisions} decision${chain.decisions === 1 ? '' : 's'}, ${chain.keyed ? 'HMAC-SHA-256 with the journal key' : 'unkeyed'}; verified by the core before replay).` : '',
      !chain.chained ? `: ${chain.unchained}.` : '',
      chain.first !== null ? `: ${chain.broken[0].problem}.` : ''),
    chain.broken.length > 1 ? h('ul', { class: 'chain-problems' }, chain.broken.slice(1).map((p) =>
      h('li', { 'data-at': p.at }, `decision ${p.at}: ${p.problem}`))) : null,
    chain.header.length ? h('ul', { class: 'chain-header' }, chain.header.map((p) => h('li', null, p))) : null);
}

function renderGuarantee(r) {
  const check = M.authorityCheck({
    before: state.tamper.baselineMenu, after: r.menu.map((t) => t.name), config: r.config, trustOf: r.trustOf, metrics: r.metrics,
  });
  const ok = check.violations.length === 0;
  return h('div', { class: `guarantee ${ok ? 'ok' : 'bad'}`, id: 'tamper-guarantee' },
    h('p', null, `After the edit: ${count(r.menu.length, 'tool')} on the menu (before: ${state.tamper.baselineMenu.length}). `,
      check.added.length === 0 ? 'Nothing was added: the edit could only take tools away.' : `Added ${check.added.join(', ')}: `,
      check.added.length && ok ? 'tools this session is allowed to load (in the catalog, inside its namespaces, not tainted, within its caps). '
        + 'Replay accepts such an edit as recorded; only ranking the query again (below) shows that the ranker did not choose it.' : '',
      check.removed.length ? ` Removed: ${check.removed.join(', ')}.` : ''),
    ok ? null : h('p', null, `More than this session allows — a bug, please report it: ${check.violations.join('; ')}`));
}

function renderVerdict(v, run) {
  const k = v.index;
  const li = h('li', { 'data-decision': v.id, 'data-verdict': v.verdict, 'data-chain': v.chain ? 'broken' : undefined },
    h('div', { class: 'step-head' }, h('span', { class: `verdict v-${v.verdict}`, title: G.hover(v.verdict) }, v.verdict), h('span', { class: 'mono' }, v.id),
      M.parseDecisionId(v.id)?.kind === 'pre-search' ? h('span', { class: 'badge pre-search', title: G.hover('pre-search') }, 'host pre-search of the user\'s message') : null,
      v.recorded?.value?.query !== undefined ? h('q', { class: 'muted' }, String(v.recorded.value.query)) : null,
      run.tampered?.decision === v.id ? h('span', { class: 'badge trust-tainted', title: W.MARK_MEANINGS.edited }, 'edited in the example') : null,
      v.chain ? h('span', { class: 'badge chain-broken', title: v.chain }, 'chain broken') : null),
    // What each mark means, in one plain line beside it.
    h('div', { class: 'verdict-meaning', 'data-meaning': v.verdict }, W.verdictMeaning(v.verdict)),
    v.chain ? h('div', { class: 'verdict-meaning', 'data-meaning': 'chain-broken' }, 'Chain broken: ', W.MARK_MEANINGS.chainBroken) : null,
    v.why ? h('div', { class: v.verdict === 'diverged' ? 'refusal' : 'muted' }, 'Why: ', v.why) : null,
    v.rerank === 'differs'
      ? h('div', { class: 'note rerank', 'data-rerank': 'differs', 'data-fields': M.rerankDiff(v.recorded, v.live).join(' ') }, 'Ranked again now: ',
        h('span', { class: 'mono' }, (v.live.value?.results ?? []).join(', ') || '(no hit)'),
        (v.live.value?.grades ?? []).length ? h('span', { class: 'muted' }, ` (${v.live.value.grades.join(', ')})`) : null,
        '. ', W.rerankFinding(M.rerankDiff(v.recorded, v.live), v.verdict))
      : v.rerank === 'same' ? h('div', { class: 'muted rerank', 'data-rerank': 'same' }, W.RERANK_SAME) : null,
    v.dropped?.length ? h('ul', { class: 'dropped' }, v.dropped.map((d) =>
      h('li', { 'data-field': d.field, 'data-id': d.id, 'data-reason': d.reason }, W.droppedSentence(d)))) : null,
    h('details', { class: 'json' }, h('summary', null, 'recorded and replayed JSON'),
      h('div', { class: 'sidebyside' },
        h('div', null, h('div', { class: 'muted' }, 'recorded'), h('pre', null, v.recorded ? JSON.stringify(v.recorded, null, 1) : '(none)')),
        h('div', null, h('div', { class: 'muted' }, 'replayed'), h('pre', null, v.replayed ? JSON.stringify(v.replayed, null, 1) : '(none)')))));
  if (k !== null) {
    const editor = h('div', { class: 'tamper', hidden: true });
    const open = (focus = true) => {
      editor.hidden = !editor.hidden;
      state.editorOpen = editor.hidden ? null : k;
      if (editor.hidden) return;
      clear(editor);
      const id = `tamper-text-${k}`;
      const ta = h('textarea', { id, rows: 8, spellcheck: false }, JSON.stringify(run.journal[k], null, 1));
      const preset = (fn) => () => {
        const d = JSON.parse(ta.value);
        fn(d.value ?? (d.value = {}));
        ta.value = JSON.stringify(d, null, 1);
      };
      append(editor, [
        h('label', { for: id }, `Edit decision ${k + 1} of the journal`), ta,
        h('div', { class: 'row' },
          h('button', { type: 'button', onclick: guard('replay-error', preset((val) => {
            val.results = [...(val.results ?? []), 'forged__tool'];
            val.loaded = [...(val.loaded ?? []), 'forged__tool'];
          })) }, 'Forge an id'),
          h('button', { type: 'button', onclick: guard('replay-error', preset((val) => { val.loaded = [...(val.results ?? [])]; })) }, 'Widen loaded'),
          Array.isArray(run.journal[k]?.value?.grades) ? h('button', {
            type: 'button', title: 'turn the first partial grade into strong and claim that result loaded',
            onclick: guard('replay-error', preset((val) => {
              const i = val.grades.indexOf('partial');
              if (i < 0) throw new M.InputError('decision', 'this decision has no partial grade to raise');
              val.grades[i] = 'strong';
              if (Array.isArray(val.results) && !val.loaded?.includes(val.results[i])) val.loaded = [...(val.loaded ?? []), val.results[i]];
            })),
          }, 'Raise a grade') : null,
          h('button', { type: 'button', class: 'primary', onclick: guard('replay-error', () => applyTamper(k, ta.value)) }, 'Apply and re-check')),
      ]);
      if (focus) ta.focus();
    };
    const button = h('button', { type: 'button', 'aria-label': `Tamper with decision ${v.id}`, 'aria-expanded': 'false' }, 'Tamper…');
    button.addEventListener('click', () => {
      open();
      button.setAttribute('aria-expanded', String(!editor.hidden));
    });
    li.append(button, editor);
    if (state.editorOpen === k) {
      open(false);
      button.setAttribute('aria-expanded', 'true');
    }
  }
  return li;
}

function applyTamper(k, text) {
  const run = state.run;
  const parsed = M.readJournal(`[${text}]`);
  if (parsed.kind !== 'journal' || parsed.records.length !== 1) throw new M.InputError('decision', 'edit one decision object');
  state.tamper = { index: k, baselineMenu: replayResult(run).menu.map((t) => t.name) };
  const saved = run.journal[k];
  run.journal[k] = parsed.records[0];
  try {
    checkReplay();
  } catch (e) {
    run.journal[k] = saved;
    throw e;
  }
}

function resetJournal() {
  const run = state.run;
  run.journal = structuredClone(run.original);
  state.tamper = null;
  state.editorOpen = null;
  checkReplay();
}

// ---------------------------------------------------------------- vocabulary

/**
 * Make `v` ({ text, value, label }) the vocabulary in use: the catalog is
 * indexed again with it (the index option "annotations"), and live
 * sessions and bare journals opened from now on run under it. Throws (the
 * core's error) without changing anything.
 */
function applyVocabulary(v) {
  const old = state.vocab;
  state.vocab = { text: v.text, value: v.value, label: v.label, info: null };
  try {
    useCatalog(state.catalog.value, state.catalog.label, state.catalog.text);
  } catch (e) {
    state.vocab = old;
    throw e;
  }
  if (state.candidate?.text === v.text) state.candidate = null;
  setHash('voc', v.text.length <= M.HASH_LIMIT ? M.toBase64Url(v.text) : undefined);
  renderVocabulary();
  say(`Vocabulary in use: ${v.label}`);
}

/** Turn the vocabulary off: the catalog's own words only. */
function dropVocabulary() {
  if (!state.vocab) return;
  const old = state.vocab;
  state.vocab = null;
  try {
    useCatalog(state.catalog.value, state.catalog.label, state.catalog.text);
  } catch (e) {
    state.vocab = old;
    throw e;
  }
  setHash('voc', undefined);
  renderVocabulary();
  say('Vocabulary off: tools are found by their own words only');
}

/** A vocabulary read (V.readVocabulary) becomes the one to review, not yet in use. */
function setCandidate(read, label) {
  state.candidate = { text: read.text, value: read.value, label };
  renderVocabulary();
  selectTab('vocab');
  say(`Vocabulary to review: ${label}`);
}

/** The journals the page holds, each with a checkbox (all on until unticked). */
function renderLearnJournals() {
  const box = $('learn-journals');
  if (!box) return;
  const off = new Set([...box.querySelectorAll('input[data-key]')].filter((i) => !i.checked).map((i) => i.dataset.key));
  clear(box);
  for (const [key, j] of state.held) {
    const id = `learn-j-${key.replace(/[^a-z0-9]+/gi, '-')}`;
    const records = j.records ? M.decisionsOf(j.records).length : null;
    const client = typeof j.header?.value?.client === 'string' ? j.header.value.client : null;
    box.append(h('li', null, h('input', { type: 'checkbox', id, 'data-key': key, checked: !off.has(key) }), ' ',
      h('label', { for: id }, j.title), h('span', { class: 'muted' },
        ` · ${j.kind}${client ? ` · client ${client}` : ''}${records === null ? '' : ` · ${records} decision${records === 1 ? '' : 's'}`}`)));
  }
  if (!state.held.size) box.append(h('li', { class: 'muted' }, 'No journals yet: open or record one in Sessions.'));
}

/** The example journals not fetched yet among `keys`, fetched (each once). */
async function fetchHeldExamples(keys) {
  for (const key of keys) {
    const j = state.held.get(key);
    if (j.kind !== 'example' || j.records) continue;
    const parsed = M.readJournal(await fetchText(new URL(j.file, EXAMPLES_URL), `example ${j.file}`));
    Object.assign(j, { header: parsed.header, records: parsed.records });
  }
}

/**
 * Learn from the journals ticked (and the host examples, if any) with a
 * Learner over the current catalog (its own words, without a vocabulary):
 * the learned file becomes the vocabulary to review.
 */
async function learnHere() {
  const keys = [...$('learn-journals').querySelectorAll('input[data-key]')].filter((i) => i.checked).map((i) => i.dataset.key);
  const examples = $('learn-examples').value;
  if (!keys.length && !examples.trim()) throw new M.InputError('learning', 'tick at least one journal, or give host examples');
  const options = V.learnerOptions({
    minSessions: $('learn-min-sessions').value, minClients: $('learn-min-clients').value,
    maxPerClient: $('learn-max-per-client').value, minShare: $('learn-min-share').value, unverified: $('learn-unverified').value,
  });
  await fetchHeldExamples(keys);
  const learner = state.toolsift.createLearner(state.catalog.value, options);
  let text;
  try {
    for (const key of keys) {
      const j = state.held.get(key);
      learner.addJournal(j.title, M.journalJSONL(M.journalRecords(j.header, j.records)));
    }
    if (examples.trim()) learner.addExamples('host examples', examples);
    text = learner.finishJSON();
  } finally {
    learner.free();
  }
  renderLearnJournals();
  setCandidate(V.readVocabulary(text), `learned here from ${keys.length} journal${keys.length === 1 ? '' : 's'}${examples.trim() ? ' and host examples' : ''}`);
}

/** The Vocabulary tab: the one to review (with what it would change) and the one in use. */
function renderVocabulary() {
  const cand = clear($('vocab-candidate'));
  const act = clear($('vocab-active'));
  const known = (id) => state.docs.has(id);
  const c = state.candidate;
  if (c) {
    const view = V.vocabularyView(c.value, known);
    const none = V.nothingLearned(c.value);
    let diff = null;
    let diffError = null;
    try {
      diff = V.diffView(state.toolsift.learnDiff(state.vocab?.text ?? V.EMPTY_VOCABULARY, c.text));
    } catch (e) {
      diffError = e;
    }
    append(cand, [
      h('h3', { id: 'candidate-title' }, `To review: ${c.label}`),
      renderProvenance(view),
      none ? h('div', { class: 'note', id: 'nothing-learned' }, none.text, ' ',
        h('span', null, 'To learn here: record more live sessions as different clients (Sessions › Client), ',
          h('button', { type: 'button', class: 'linkish', onclick: () => openDetailsBox('learn-rule-box', 'learn-min-sessions') }, 'lower the rule'),
          ', or ', h('button', { type: 'button', class: 'linkish', id: 'use-host-examples', onclick: () => openDetailsBox('learn-examples-box', 'learn-examples') },
            'add host examples'), ' (a labelled query teaches at once).')) : null,
      h('h4', null, state.vocab ? `What it would change against the vocabulary in use (${state.vocab.label})` : 'What it would change (no vocabulary is in use)'),
      diffError ? h('div', { class: 'error' }, describe(diffError)) : renderDiff(diff),
      h('p', { class: 'row' },
        h('button', { type: 'button', class: 'primary', id: 'vocab-apply', onclick: guard('vocab-error', () => applyVocabulary(c)) }, 'Apply: search with it'),
        h('button', { type: 'button', onclick: () => download(`${safeName(c.label)}.vocabulary.json`, c.text) }, 'Download (.json)'),
        h('button', { type: 'button', onclick: () => { state.candidate = null; renderVocabulary(); } }, 'Discard')),
      h('h4', null, 'Its labels'),
      renderReview(view, 'candidate'),
    ]);
  }
  const v = state.vocab;
  if (!v) {
    act.append(h('p', { class: 'muted', id: 'vocab-none' }, 'No vocabulary in use: Search finds tools by their own words only.'));
    return;
  }
  const view = V.vocabularyView(v.value, known);
  append(act, [
    h('h3', { id: 'active-title' }, `In use: ${v.label}`),
    h('p', { class: 'muted' }, 'digest ', h('span', { class: 'mono' }, v.info?.digest ?? '?'),
      ` · ${v.info?.unknownTools ?? 0} of its tools not in this catalog (the core's count)`),
    renderProvenance(view),
    h('p', { class: 'row' },
      h('button', { type: 'button', id: 'vocab-off', onclick: guard('vocab-error', dropVocabulary) }, 'Turn off'),
      h('button', { type: 'button', onclick: () => download(`${safeName(v.label)}.vocabulary.json`, v.text) }, 'Download (.json)')),
    renderReview(view, 'active'),
  ]);
}

/** Open a <details> of the Learn column and focus a field in it. */
function openDetailsBox(id, focus) {
  $(id).open = true;
  $(focus).focus();
}

/** What a vocabulary file says about where it came from, and the rule that made it. */
function renderProvenance(view) {
  const l = view.learned;
  if (!l) return h('p', { class: 'muted provenance' }, 'A host\'s own annotations: no learning record, no evidence.');
  const rule = l.rule ?? {};
  return h('p', { class: 'muted provenance', 'data-sessions': l.sessions, 'data-clients': l.clients },
    `${V.provenanceLine(l)}. ${view.toolCount} tool${view.toolCount === 1 ? '' : 's'}, ${view.labelCount} label${view.labelCount === 1 ? '' : 's'}. `,
    `The rule: minSessions ${rule.minSessions ?? '?'}, minClients ${rule.minClients ?? '?'}, maxPerClient ${rule.maxPerClient ?? '?'}, minShare ${rule.minShare ?? '?'}.`,
    l.catalog ? [' Learned over catalog ', h('span', { class: 'mono', title: l.catalog }, `${String(l.catalog).slice(0, 12)}…`), '.'] : '');
}

/** Per tool its learned aliases and tags, each with the evidence the file records. */
function renderReview(view, id) {
  if (view.empty) return h('p', { class: 'muted' }, 'No labels.');
  const cols = ['tool', 'label', 'list', ...V.EVIDENCE_FIELDS];
  return h('table', { class: 'terms review', id: `review-${id}` },
    h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col', title: V.EVIDENCE_MEANINGS[c] }, c)))),
    h('tbody', null, view.tools.flatMap((t) => t.labels.map((l, i) => h('tr', { 'data-tool': t.id, 'data-label': l.label, 'data-list': l.list },
      h('td', null, i === 0 ? [h('span', { class: 'mono' }, t.id), t.known ? '' : h('span', { class: 'refusal', title: 'the current catalog has no tool with this id: the core skips it' }, ' (not in this catalog)')] : ''),
      h('td', null, h('span', { class: 'learned-label' }, l.label)),
      h('td', null, l.list === 'aliases' ? 'alias' : 'tag'),
      V.EVIDENCE_FIELDS.map((k) => h('td', { 'data-field': k }, l.evidence?.[k] === undefined ? '—' : k === 'share' ? fmt(l.evidence[k]) : String(l.evidence[k]))))))));
}

/** The core's learnDiff, arranged (V.diffView): per tool the labels added and dropped, with their evidence. */
function renderDiff(d) {
  if (d.empty) return h('p', { class: 'muted', id: 'vocab-diff', 'data-added': 0, 'data-removed': 0 }, 'No change: the same labels.');
  return h('div', { id: 'vocab-diff', 'data-added': d.added, 'data-removed': d.removed },
    h('p', null, `${d.toolsChanged} tool${d.toolsChanged === 1 ? '' : 's'} would change: ${d.added} label${d.added === 1 ? '' : 's'} added, ${d.removed} dropped.`),
    h('ul', { class: 'diff' }, d.tools.map((t) => h('li', { 'data-tool': t.id }, h('span', { class: 'mono' }, t.id),
      h('ul', null, [...t.added.map((c) => ['added', c]), ...t.removed.map((c) => ['removed', c])].map(([kind, c]) => h('li', {
        class: `change ${kind}`, 'data-change': kind, 'data-label': c.label, 'data-list': c.list ?? undefined,
      }, h('span', { class: 'sign' }, kind === 'added' ? '+ ' : '− '), h('span', { class: 'learned-label' }, c.label),
      h('span', { class: 'muted' }, c.list ? ` ${c.list === 'aliases' ? 'alias' : 'tag'} · ` : ' '), evidenceSpans(c.evidence))))))));
}

// ------------------------------------------------------------------- compare

function runCompare(ev) {
  ev?.preventDefault();
  const out = clear($('compare-out'));
  const text = $('compare-options').value;
  const q = $('compare-query').value;
  setHash('cq', q || undefined);
  setHash('cb', text.length <= M.HASH_LIMIT ? M.toBase64Url(text) : undefined);
  const indexB = compareIndex();
  if (!q.trim()) throw new M.InputError('query', 'type a query to compare');
  const a = state.index.search(q, { limit: 10 }).hits;
  const b = indexB.search(q, { limit: 10 }).hits;
  const rankA = new Map(a.map((x, i) => [x.id, i]));
  const col = (title, hits, other) => h('div', null, h('h3', null, title), hits.length === 0 ? h('p', { class: 'muted' }, 'no hit') : h('ol', null, hits.map((x, i) => {
    let delta = null;
    if (other) {
      const was = rankA.get(x.id);
      delta = was === undefined ? h('span', { class: 'delta-new' }, ' new')
        : was > i ? h('span', { class: 'delta-up' }, ` ↑${was - i}`)
          : was < i ? h('span', { class: 'delta-down' }, ` ↓${i - was}`) : h('span', { class: 'muted' }, ' =');
    }
    return h('li', { 'data-id': x.id }, h('span', { class: 'mono' }, x.id), ` ${fmt(x.score)}`, delta);
  })));
  const gone = a.filter((x) => !b.some((y) => y.id === x.id)).map((x) => x.id);
  append(out, [col(compareLabelA(), a, false), col(`B: ${text.trim().slice(0, 60)}`, b, true)]);
  if (gone.length) out.append(h('p', { class: 'muted' }, `Left B's top 10: ${gone.join(', ')}`));
}

/** Index A is the Search tab's: the defaults, with the vocabulary in use if any. */
const compareLabelA = () => (state.vocab ? `A: defaults + vocabulary ${state.vocab.info?.digest?.slice(0, 12) ?? ''}…` : 'A: defaults');

/** Index B for the options text in the form (rebuilt when the text changes). */
function compareIndex() {
  const text = $('compare-options').value;
  const options = M.parseJSON(text, 'index options for B');
  if (state.compareKey !== text || !state.compareIndex) {
    state.compareIndex?.free();
    state.compareIndex = null;
    state.compareKey = null;
    state.compareIndex = state.toolsift.createIndex(state.catalog.value, options);
    state.compareKey = text;
  }
  return state.compareIndex;
}

/**
 * Every search query of the open recording, ranked by A and B over the
 * whole catalog (not the session's shrinking universe): which top hits and
 * top-5 sets change.
 */
function runCompareJournal() {
  const out = clear($('compare-out'));
  const run = state.run;
  if (!run) throw new Error('open a recording in Sessions first');
  const queries = run.journal.filter((d) => typeof d.value?.query === 'string' && d.value.query.trim()).map((d) => [d.id, d.value.query]);
  if (!queries.length) throw new Error(`${run.title} has no search queries`);
  const b = compareIndex();
  let top = 0;
  let set = 0;
  const rows = queries.map(([id, q]) => {
    const ha = state.index.search(q, { limit: 5 }).hits.map((x) => x.id);
    const hb = b.search(q, { limit: 5 }).hits.map((x) => x.id);
    const topChanged = ha[0] !== hb[0];
    const setChanged = ha.length !== hb.length || ha.some((x) => !hb.includes(x));
    if (topChanged) top++;
    if (setChanged) set++;
    const list = (ids, other) => h('ol', null, ids.map((x) => h('li', { class: other.includes(x) ? 'mono' : 'mono delta-new' }, x)));
    return h('tr', { 'data-decision': id, 'data-top-changed': String(topChanged) },
      h('td', null, h('q', null, q), h('div', { class: topChanged ? 'refusal' : 'muted' },
        topChanged ? 'top hit changed' : setChanged ? 'top 5 changed' : ha.join() !== hb.join() ? 'same top 5, reordered' : 'same top 5, same order')),
      h('td', null, list(ha, hb)), h('td', null, list(hb, ha)));
  });
  out.append(h('div', { class: 'wide' },
    h('p', { id: 'compare-journal-summary' }, `${run.title}: ${count(queries.length, 'query', 'queries')}; the top hit changes for ${top}, the top-5 set for ${set}. `,
      h('span', { class: 'muted' }, 'Ranked over the whole catalog (a session ranks only what is not yet on its menu); ids only on one side are highlighted.')),
    h('table', { class: 'terms compare-table' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'query'), h('th', { scope: 'col' }, compareLabelA()), h('th', { scope: 'col' }, `B: ${$('compare-options').value.trim().slice(0, 50)}`))),
      h('tbody', null, rows))));
}

// ---------------------------------------------------------------------- boot

async function fetchText(url, what) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} for ${url.pathname}`);
  return res.text();
}

async function openExample(file) {
  const text = await fetchText(new URL(file, EXAMPLES_URL), `example ${file}`);
  openRun(M.readJournal(text), file, `ex:${file}`);
  $('example-select').value = file;
  setHash('ex', file);
  setHash('jr', undefined);
  setHash('cfg', undefined);
}

function openPastedJournal(text, label) {
  const parsed = M.readJournal(text);
  openRun(parsed, label);
  setHash('ex', undefined);
  const small = text.length <= M.HASH_LIMIT;
  setHash('jr', small ? M.toBase64Url(text) : undefined);
  // A bare journal needs its configuration to replay the same way.
  const cfg = $('session-config').value;
  const custom = parsed.kind === 'journal' && small && cfg.length <= M.HASH_LIMIT && cfg !== JSON.stringify(DEFAULT_CONFIG, null, 1);
  setHash('cfg', custom ? M.toBase64Url(cfg) : undefined);
}

function wire() {
  setupTabs();
  $('catalog-bundled').addEventListener('click', guard('catalog-error', () => useCatalog(state.bundled, 'bundled corpus/catalog.json')));
  $('catalog-file').addEventListener('change', guard('catalog-error', async () => {
    const { name, text } = await readFileInput($('catalog-file'));
    useCatalog(M.readCatalog(text), `file ${name}`, text);
  }));
  $('catalog-paste-use').addEventListener('click', guard('catalog-error', () => {
    const text = $('catalog-paste').value;
    useCatalog(M.readCatalog(text), 'pasted catalog', text);
  }));
  $('catalog-filter').addEventListener('input', () => renderGroups());
  $('search-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    runSearch();
  });
  $('search-query').addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(runSearch, 150);
  });
  $('search-limit').addEventListener('change', runSearch);
  $('search-model-load').addEventListener('click', guard('search-error', () => useModel(true)));
  $('search-model-drop').addEventListener('click', guard('search-error', () => useModel(false)));
  $('example-open').addEventListener('click', guard('session-error', () => openExample($('example-select').value)));
  $('journal-file').addEventListener('change', guard('session-error', async () => {
    const { name, text } = await readFileInput($('journal-file'));
    openRun(M.readJournal(text), name);
    setHash('ex', undefined);
    setHash('jr', undefined);
    setHash('cfg', undefined);
  }));
  $('journal-paste-use').addEventListener('click', guard('session-error', () => openPastedJournal($('journal-paste').value, 'pasted journal')));
  $('live-start').addEventListener('click', guard('session-error', startLive));
  $('live-form').addEventListener('submit', guard('session-error', liveCall));
  $('live-pre-form').addEventListener('submit', guard('session-error', livePreSearch));
  $('live-turn').addEventListener('input', renderPreSearchTurn);
  $('replay-run').addEventListener('click', guard('replay-error', checkReplay));
  $('compare-form').addEventListener('submit', guard('compare-error', runCompare));
  $('compare-journal').addEventListener('click', guard('compare-error', runCompareJournal));
  $('learn-run').addEventListener('click', guard('vocab-error', learnHere));
  $('vocab-file').addEventListener('change', guard('vocab-error', async () => {
    const { name, text } = await readFileInput($('vocab-file'));
    setCandidate(V.readVocabulary(text), `file ${name}`);
  }));
  $('vocab-paste-use').addEventListener('click', guard('vocab-error', () => setCandidate(V.readVocabulary($('vocab-paste').value), 'pasted vocabulary')));
}

/** The vocabulary a link carries (the hash's "voc"): applied as it is, or turned off when the link has none. */
function vocabularyFromHash(encoded) {
  if (!encoded) return dropVocabulary();
  const text = M.fromBase64Url(encoded, 'vocabulary in the link');
  return applyVocabulary({ ...V.readVocabulary(text), label: 'vocabulary from the link' });
}

async function restoreFromHash(p) {
  restoring = true;
  try {
    if (p.get('catalog')) {
      await guard('catalog-error', () => {
        const text = M.fromBase64Url(p.get('catalog'), 'catalog in the link');
        $('catalog-paste').value = text;
        useCatalog(M.readCatalog(text), 'catalog from the link', text);
      })();
    }
    if (p.get('voc')) await guard('vocab-error', () => vocabularyFromHash(p.get('voc')))();
    if (p.get('q')) $('search-query').value = p.get('q');
    if (p.get('limit')) $('search-limit').value = p.get('limit');
    if (p.get('cq')) $('compare-query').value = p.get('cq');
    if (p.get('cb')) {
      try {
        $('compare-options').value = M.fromBase64Url(p.get('cb'), 'compare options');
      } catch { /* keep the default */ }
    }
    runSearch();
    if (p.get('cfg')) {
      try {
        $('session-config').value = M.fromBase64Url(p.get('cfg'), 'configuration in the link');
      } catch { /* keep the default */ }
    }
    if (p.get('jr')) {
      await guard('session-error', () => {
        const text = M.fromBase64Url(p.get('jr'), 'journal in the link');
        $('journal-paste').value = text;
        openPastedJournal(text, 'journal from the link');
      })();
    } else {
      const ex = p.get('ex') ?? M.defaultExample(state.examples)?.file;
      if (ex) await guard('session-error', () => openExample(ex))();
    }
  } finally {
    restoring = false;
  }
  selectTab(p.get('tab') ?? 'search');
  if (p.get('tab') === 'compare' && p.get('cq')) await guard('compare-error', runCompare)();
}

/**
 * The hash changed without a reload (an edited address, a pasted link, back
 * or forward): show the view it names — tab, catalog, query, example or
 * journal. Only what differs from the view on screen is redone, so a hash
 * that changes the tab alone keeps a live session or a tampered journal.
 */
async function followHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const want = (k) => p.get(k) ?? undefined;
  const differs = (k) => want(k) !== hashState[k];
  const cfgChanged = differs('cfg');
  restoring = true;
  try {
    if (differs('catalog')) {
      await guard('catalog-error', () => {
        if (!want('catalog')) return useCatalog(state.bundled, 'bundled corpus/catalog.json');
        const text = M.fromBase64Url(want('catalog'), 'catalog in the link');
        $('catalog-paste').value = text;
        return useCatalog(M.readCatalog(text), 'catalog from the link', text);
      })();
    }
    if (differs('voc')) await guard('vocab-error', () => vocabularyFromHash(want('voc')))();
    if (differs('q') || differs('limit')) {
      $('search-query').value = want('q') ?? '';
      $('search-limit').value = want('limit') ?? '10';
      runSearch();
    }
    // The compare form and the session configuration are shown as the hash
    // has them (the page's defaults when it has none), and the hash keeps them.
    if (differs('cq')) {
      $('compare-query').value = want('cq') ?? $('compare-query').defaultValue;
      hashState.cq = want('cq');
    }
    if (differs('cb')) {
      try {
        $('compare-options').value = want('cb') ? M.fromBase64Url(want('cb'), 'compare options') : $('compare-options').defaultValue;
        hashState.cb = want('cb');
      } catch { /* keep what is there */ }
    }
    if (differs('cfg')) {
      try {
        if (want('cfg')) $('session-config').value = M.fromBase64Url(want('cfg'), 'configuration in the link');
        hashState.cfg = want('cfg');
      } catch { /* keep what is there */ }
    }
    if (want('jr') && (differs('jr') || cfgChanged)) {
      await guard('session-error', () => {
        const text = M.fromBase64Url(want('jr'), 'journal in the link');
        $('journal-paste').value = text;
        openPastedJournal(text, 'journal from the link');
      })();
    } else if (!want('jr') && (differs('ex') || differs('jr'))) {
      // No example named: the default one, as on a first visit.
      const ex = want('ex') ?? M.defaultExample(state.examples)?.file;
      if (ex && ex !== hashState.ex) await guard('session-error', () => openExample(ex))();
    }
  } finally {
    restoring = false;
  }
  selectTab(want('tab') ?? 'search');
  if (want('tab') === 'compare' && want('cq')) await guard('compare-error', runCompare)();
}

/** Hover help for the page's own words that name a project term (data-term): the glossary's definition. */
function glossaryTitles(root = document) {
  for (const el of root.querySelectorAll('[data-term]')) if (!el.title) el.title = G.hover(el.dataset.term);
}

async function boot() {
  const t0 = performance.now();
  glossaryTitles();
  wire();
  $('session-config').value = JSON.stringify(DEFAULT_CONFIG, null, 1);
  try {
    const [toolsift, catalogText, examplesText] = await Promise.all([
      load(WASM_URL),
      fetchText(CATALOG_URL, 'bundled catalog'),
      fetchText(new URL('index.json', EXAMPLES_URL), 'examples list').catch(() => '{"examples": []}'),
    ]);
    state.toolsift = toolsift;
    state.bundled = M.readCatalog(catalogText);
    state.examples = JSON.parse(examplesText).examples ?? [];
  } catch (e) {
    const box = $('boot-error');
    box.hidden = false;
    box.textContent = `The playground could not start: ${describe(e)}. Serve it with \`npm start\` (it needs build/wasm/toolsift.wasm).`;
    $('catalog-status').textContent = 'not loaded';
    window.__playground = { ready: false, error: describe(e) };
    return;
  }
  const sel = clear($('example-select'));
  for (const ex of state.examples) sel.append(h('option', { value: ex.file }, ex.title));
  // The examples are journals the page holds (for learning), fetched when first needed.
  for (const ex of state.examples) state.held.set(`ex:${ex.file}`, { title: ex.title, kind: 'example', file: ex.file });
  renderLearnJournals();
  renderVocabulary();
  if (!state.examples.length) sel.append(h('option', { value: '' }, '(no examples found)'));
  const params = new URLSearchParams(location.hash.slice(1));
  restoring = true; // keep the link's hash until it has been applied
  const t1 = performance.now();
  useCatalog(state.bundled, 'bundled corpus/catalog.json');
  const t2 = performance.now();
  await restoreFromHash(params);
  const ms = Math.round(performance.now() - t0);
  // One hash change at a time: each waits for the one before it to be shown.
  let following = Promise.resolve();
  window.addEventListener('hashchange', () => {
    following = following.then(followHash).catch((e) => say(`Error: ${describe(e)}`)).then(() => { window.__playground.hashChanges++; });
  });
  document.body.dataset.ready = 'true';
  window.__playground = {
    ready: true, bootMs: ms, version: state.toolsift.version, hashChanges: 0,
    // fetch + compile the module and fetch the catalog; index it and draw it; open the example (replay + re-rank)
    timings: { loadMs: Math.round(t1 - t0), indexMs: Math.round(t2 - t1), restoreMs: Math.round(performance.now() - t2) },
  };
  say(`Ready in ${ms} ms`);
}

boot();
