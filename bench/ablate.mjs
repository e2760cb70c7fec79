// ablate.mjs — why do the peers score higher? A configurable BM25 family in
// plain JS over the same documents the benchmark gives the peers, so that one
// ingredient at a time (stemmer, stopword list, query-term cap and cut, tf
// clamp, length normalisation, query-term frequency, coordination) can be
// switched between toolsift's choice and a peer's. A research tool, not a
// test: it prints the ablation tables of docs/relevance.md (about 3 min for
// all of them; needs ../shared/datasets for the public sets).
//
//   node bench/ablate.mjs [--sets=corpus,toollens,metatool,sealtools] [--only='T |W |M ']
//   ABLATE_CONFIGS='{"name":{"base":"wink","cap":16}}' node bench/ablate.mjs --only=name
import { BOOSTS, FIELDS, STOPWORDS, catalogDocs, needsMask, trustMask, words, splitIdent } from './lib/fields.mjs';
import { relevanceSets } from './lib/catalogs.mjs';
import { meanNdcg } from './lib/metrics.mjs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const nlp = require('wink-nlp-utils');
const porter2 = nlp.string.stem;
const WINK_STOP = new Set(require('wink-nlp-utils/src/dictionaries/stop_words.json'));

const arg = (k, d) => (process.argv.find((a) => a.startsWith(`--${k}=`)) ?? `=${d}`).split('=')[1];

// ---- toolsift's analyser pieces, in JS (ASCII tokens; see core/src/text.c) ----
const TS_STOP = new Set(`a an the and or but nor so of in on at to for from by with into onto about as via per than then is are was were be been being am do does did has have had i me my mine we us our ours you your yours he him his she her hers it its they them their theirs this that these those there some any please can could would should will shall may might must if also just up m s re ve ll d`.split(/\s+/));
const FILLER = new Set('additionally after assist assistance finally help interested know like looking need needed next now specifically tell then want wanted wish'.split(' '));
const lower = (c) => c >= 'a' && c <= 'z';
const vowel = (c) => 'aeiou'.includes(c);
export function foldPlural(s) {
  const n = s.length;
  if (n <= 3 || s[n - 1] !== 's') return s;
  if (n > 4 && s.endsWith('ies')) return s.slice(0, -3) + 'y';
  if (/(sses|shes|ches|xes|zzes)$/.test(s)) return n - 2 >= 3 ? s.slice(0, -2) : s;
  if (/(ss|us|is)$/.test(s)) return s;
  return s.slice(0, -1);
}
export function foldSuffix(s) {
  let n = s.length;
  if (n < 4 || !lower(s[n - 1]) || !lower(s[n - 2]) || !lower(s[n - 3])) return s;
  let cut = false;
  if (n > 5 && s.endsWith('ing')) { n -= 3; cut = true; }
  else if (n > 4 && s.endsWith('ed') && s[n - 3] !== 'e') { n -= 2; cut = true; }
  if (cut && n > 3 && s[n - 1] === s[n - 2] && lower(s[n - 1]) && !vowel(s[n - 1]) && !'lsz'.includes(s[n - 1])) n--;
  if (n > 4 && s[n - 1] === 'e') n--;
  return s.slice(0, n);
}
const tsStem = (w) => foldSuffix(foldPlural(w));
// candidate extra suffix rules, applied to the surface (after the plural fold) before foldSuffix
const EXTRA = {
  ation: (w) => (w.length > 7 && w.endsWith('ization') ? w.slice(0, -5) : w.length > 6 && w.endsWith('ation') ? w.slice(0, -3) : w),
  ator: (w) => (w.length > 6 && w.endsWith('ator') ? w.slice(0, -2) : w),
  ied: (w) => (w.length > 5 && w.endsWith('ied') ? w.slice(0, -3) + 'y' : w),
  ly: (w) => (w.length > 6 && w.endsWith('ly') && !w.endsWith('lly') ? w.slice(0, -2) : w.length > 7 && w.endsWith('ally') ? w.slice(0, -4) : w),
  ment: (w) => (w.length >= 9 && w.endsWith('ment') ? w.slice(0, -4) : w),
  er: (w) => (w.length > 6 && w.endsWith('er') ? w.slice(0, -2) : w),
  ise: (w) => (w.length > 5 && /is(e|ed|es|ing)$/.test(w) && !/(wise|rise|cise|vise|mise|tise|ise)$/.test(w.replace(/(ed|es|ing)$/, 'e').slice(-5, -3) + '') ? w : w),
  ity: (w) => (w.length > 7 && w.endsWith('ity') ? w.slice(0, -3) : w),
};
function stemWith(rules) {
  return (w) => {
    let s = foldPlural(w);
    if (/^[a-z]+$/.test(s)) for (const r of rules) s = EXTRA[r](s);
    return foldSuffix(s);
  };
}

const STEMMERS = {
  ts: tsStem,
  ...Object.fromEntries(Object.keys(EXTRA).map((r) => [`ts+${r}`, stemWith([r])])),
  'ts+ation+ator': stemWith(['ation', 'ator']),
  'ts+ation+ator+ied': stemWith(['ation', 'ator', 'ied']),
  'ts+ation+ator+ied+ly': stemWith(['ation', 'ator', 'ied', 'ly']),
  plural: foldPlural,
  porter2: (w) => porter2(w),
  none: (w) => w,
};
const QWORDS = new Set('what which who whom whose when where why how'.split(' '));
const STOPS = { winkNoQ: new Set([...WINK_STOP].filter((w) => !QWORDS.has(w))), tsPlusWinkNoQ: new Set([...TS_STOP, ...[...WINK_STOP].filter((w) => !QWORDS.has(w))]), ts: TS_STOP, wink: WINK_STOP, bench: STOPWORDS, none: new Set() };

// ---- documents ----
function schemaText(schema, names, docs, enums, depth = 0, budget = { nodes: 256 }) {
  if (!schema || typeof schema !== 'object' || depth > 8 || budget.nodes-- <= 0) return;
  if (typeof schema.description === 'string' && depth > 0) docs.push(schema.description);
  if (enums && Array.isArray(schema.enum)) docs.push(schema.enum.filter((x) => typeof x === 'string').join(' '));
  const props = schema.properties;
  if (props && typeof props === 'object' && !Array.isArray(props))
    for (const [k, v] of Object.entries(props)) {
      names.push(k);
      schemaText(v, names, docs, enums, depth + 1, budget);
    }
  if (schema.items) schemaText(schema.items, names, docs, enums, depth + 1, budget);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(schema[key])) for (const s of schema[key]) schemaText(s, names, docs, enums, depth + 1, budget);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    schemaText(schema.additionalProperties, names, docs, enums, depth + 1, budget);
  for (const key of ['$defs', 'definitions'])
    if (schema[key] && typeof schema[key] === 'object')
      for (const s of Object.values(schema[key])) schemaText(s, names, docs, enums, depth + 1, budget);
}

const CAPS = { name: 32, aliases: 96, tags: 64, description: 128, params: 128, param_docs: 128 };

export function prepSet(set, tsDocs) {
  // Field strings as the peers see them (with enums in param_docs), and
  // toolsift's own per-field tokens (documents()) for reference.
  const mask = tsDocs && needsMask(set.catalog) ? trustMask(set.catalog, tsDocs) : null;
  const docs = catalogDocs(set.catalog, mask);
  const noEnum = catalogDocs(set.catalog.map ? set.catalog.map((t) => stripEnums(t)) : { ...set.catalog, tools: set.catalog.tools.map(stripEnums) }, mask);
  return { docs, noEnum };
}
function stripEnums(t) {
  const clone = JSON.parse(JSON.stringify(t));
  const walk = (s) => {
    if (!s || typeof s !== 'object') return;
    if (Array.isArray(s)) return s.forEach(walk);
    delete s.enum;
    for (const v of Object.values(s)) walk(v);
  };
  for (const k of ['inputSchema', 'input_schema', 'parameters']) walk(clone[k]);
  if (clone.function) walk(clone.function.parameters);
  return clone;
}

// ---- tokenising under a configuration ----
function tokensOf(text, cfg, field) {
  let ws;
  if (cfg.tok === 'wink') {
    ws = nlp.string.tokenize0(nlp.string.lowerCase(splitIdent(text)));
  } else ws = words(text);
  const out = [];
  for (const w of ws) {
    if (cfg.docStop && STOPS[cfg.docStop].has(w)) continue;
    out.push(STEMMERS[cfg.stem](w));
  }
  return cfg.fieldCaps ? out.slice(0, CAPS[field]) : out;
}

function decompounder(docs, cfg) {
  // vocabulary: every token of every field except the name
  const vocab = new Set();
  for (const d of docs) for (const f of FIELDS) if (f !== 'name') for (const w of words(d[f])) vocab.add(w);
  return (w) => {
    if (w.length < cfg.decompound || vocab.has(w)) return null;
    for (let i = 3; i <= w.length - 3; i++) {
      const a = w.slice(0, i), b = w.slice(i);
      if (vocab.has(a) && vocab.has(b) && !TS_STOP.has(a) && !TS_STOP.has(b)) return [a, b];
    }
    return null;
  };
}
export function buildIndex(docs, cfg) {
  const N = docs.length;
  const split = cfg.decompound ? decompounder(docs, cfg) : null;
  const post = new Map(); // term -> Map(doc -> tf[6])
  const flen = docs.map(() => new Float64Array(FIELDS.length));
  const names = new Set();
  docs.forEach((d, i) => {
    FIELDS.forEach((f, fi) => {
      let toks = tokensOf(d[f], cfg, f);
      if (split && f === 'name') {
        const extra = [];
        for (const w of words(d[f])) { const p = split(w); if (p) extra.push(...p.map((x) => STEMMERS[cfg.stem](x))); }
        toks = toks.concat(extra);
      }
      flen[i][fi] = toks.length;
      for (const t of toks) {
        let m = post.get(t);
        if (!m) post.set(t, (m = new Map()));
        let tf = m.get(i);
        if (!tf) m.set(i, (tf = new Float64Array(FIELDS.length)));
        tf[fi]++;
        if (f === 'name') names.add(t);
      }
    });
  });
  const avg = FIELDS.map((_, fi) => flen.reduce((s, l) => s + l[fi], 0) / N);
  const w = FIELDS.map((f) => (cfg.weights ?? BOOSTS)[f]);
  const dlen = flen.map((l) => l.reduce((s, x, fi) => s + x * w[fi], 0));
  const avgd = dlen.reduce((a, b) => a + b, 0) / N;
  const ulen = flen.map((l) => l.reduce((s, x) => s + x, 0));
  const avgu = ulen.reduce((a, b) => a + b, 0) / N;
  const avgNE = FIELDS.map((_, fi) => { const ne = flen.filter((l) => l[fi] > 0); return ne.length ? ne.reduce((s, l) => s + l[fi], 0) / ne.length : 1; });
  // per-field df (minisearch)
  return { N, post, flen, avg, w, dlen, avgd, ulen, avgu, avgNE, names, ids: docs.map((d) => d.id) };
}

const CAPKEYS = {
  idf: (x) => x.idf,
  qtfFirst: (x) => (x.qtf > 1 ? 100 : 0) + x.idf,
  idfQtf: (x) => x.idf * Math.min(x.qtf, 2),
  idfName1: (x) => x.idf * (1 + x.nameShare),
  idfName05: (x) => x.idf * (0.5 + x.nameShare),
  idfStruct1: (x) => x.idf * (1 + x.structShare),
  idfStruct05: (x) => x.idf * (0.5 + x.structShare),
  nameTier: (x) => (x.nameShare >= 0.5 ? 100 : 0) + x.idf,
  idfNameSqrt: (x) => x.idf * Math.sqrt(0.25 + x.nameShare),
};
export function queryTerms(q, cfg, ix) {
  // Word by word, with toolsift's "weak" marks (digit, single char, filler, quoted).
  if (cfg.qcut) q = Buffer.from(q).subarray(0, cfg.qcut).toString().replace(/\uFFFD$/, '');
  const raw = q.split(/\s+/).filter(Boolean);
  const toks = [];
  let quote = null;
  let prevEnd = true; // the previous word ended a sentence (or this is the first)
  const filler = cfg.filler ? new Set([...FILLER, ...cfg.filler]) : FILLER;
  for (const word of raw) {
    const proper = cfg.properWeak && !prevEnd && /^[("']?\p{Lu}\p{Ll}/u.test(word);
    prevEnd = /[.?!:]["')]*$/.test(word);
    let quoted = quote !== null;
    if (!quote && (word[0] === '"' || word[0] === "'") && word.length > 1) { quote = word[0]; quoted = true; }
    const e = word.replace(/[.,;:!?)\]]+$/, '');
    const closes = quote && e.length > 1 && e[e.length - 1] === quote;
    const digit = /[0-9]/.test(word);
    let ws = cfg.tok === 'wink' ? nlp.string.tokenize0(nlp.string.lowerCase(splitIdent(word))) : words(word);
    for (const w0 of ws) {
      const surface = foldPlural(w0);
      const soft = (cfg.softQ && QWORDS.has(w0)) || (cfg.softFiller && filler.has(surface)) || (cfg.softExtra && cfg.softExtra.includes(surface));
      const weak = quoted || digit || proper || w0.length === 1 || filler.has(surface);
      toks.push({ w0, term: STEMMERS[cfg.stem](w0), qw: soft ? cfg.softW : cfg.softWeak && weak ? cfg.softWeak : cfg.softProper && proper ? cfg.softProper : 1, weak });
    }
    if (closes) quote = null;
  }
  let list = toks.filter((t) => !STOPS[cfg.qStop].has(t.w0));
  if (!list.length) list = toks;
  const counts = new Map();
  for (const t of list) counts.set(t.term, (counts.get(t.term) ?? 0) + 1);
  if (!cfg.qtf) {
    const seen = new Map();
    const out = [];
    for (const t of list) {
      const s = seen.get(t.term);
      if (s) { s.weak = s.weak && t.weak; s.qw = Math.max(s.qw, t.qw); continue; }
      const c = { ...t, n: counts.get(t.term) };
      seen.set(t.term, c);
      out.push(c);
    }
    list = out;
  } else list = list.map((t) => ({ ...t }));
  // cap
  const present = list.filter((t) => ix.post.has(t.term));
  const distinct = [...new Set(present.map((t) => t.term))];
  if (cfg.cap && distinct.length > cfg.cap) {
    const info = new Map();
    for (const t of present) {
      const i = info.get(t.term) ?? { term: t.term, df: ix.post.get(t.term).size, first: info.size, weak: true, qtf: 0 };
      i.weak = i.weak && t.weak;
      i.qtf = Math.max(i.qtf + 1, t.n ?? 1);
      info.set(t.term, i);
    }
    const arr = [...info.values()];
    for (const i of arr) i.tier = cfg.capMode === 'rarest' ? 0 : i.weak ? 2 : ix.names.has(i.term) ? 0 : 1;
    if (cfg.capKey) {
      for (const i of arr) {
        let nameDf = 0, structDf = 0;
        for (const tf of ix.post.get(i.term).values()) {
          if (tf[0]) nameDf++;
          if (tf[0] || tf[1] || tf[2] || tf[4]) structDf++;
        }
        const idf = Math.log(1 + (ix.N - i.df + 0.5) / (i.df + 0.5));
        i.key = CAPKEYS[cfg.capKey]({ idf, df: i.df, nameShare: nameDf / i.df, structShare: structDf / i.df, nameDf, qtf: i.qtf });
        if (cfg.capKeyTier0 && i.tier < 2) i.tier = 0;
      }
      arr.sort((a, b) => a.tier - b.tier || b.key - a.key || a.first - b.first);
    } else
    arr.sort((a, b) => a.tier - b.tier || a.df - b.df || a.first - b.first);
    const keep = new Set(arr.slice(0, cfg.cap).map((i) => i.term));
    return present.filter((t) => keep.has(t.term));
  }
  return present;
}

export function score(ix, terms, cfg) {
  const acc = new Map();
  const hits = new Map();
  const k1 = cfg.k1 ?? 1.2, b = cfg.b ?? 0.75;
  for (const t of terms) {
    const m = ix.post.get(t.term);
    const df = m.size;
    const idf = Math.log(1 + (ix.N - df + 0.5) / (df + 0.5));
    for (const [d, tf] of m) {
      let s = 0;
      if (cfg.scorer === 'bm25f') {
        let tfn = 0;
        for (let f = 0; f < FIELDS.length; f++) {
          if (!tf[f]) continue;
          const c = Math.min(tf[f], cfg.clamp ?? Infinity);
          const rel = cfg.docNormFields?.includes(FIELDS[f]) ? ix.dlen[d] / ix.avgd
            : cfg.unweightedDocNorm?.includes(FIELDS[f]) ? ix.ulen[d] / ix.avgu
            : cfg.avgNonEmpty && (cfg.neFields ?? FIELDS).includes(FIELDS[f]) ? ix.flen[d][f] / ix.avgNE[f] : ix.flen[d][f] / ix.avg[f];
          tfn += (ix.w[f] * c) / (1 - b + b * rel);
        }
        s = (idf * tfn * (k1 + 1)) / (k1 + tfn);
      } else if (cfg.scorer === 'wink') {
        let freq = 0;
        for (let f = 0; f < FIELDS.length; f++) freq += ix.w[f] * Math.min(tf[f], cfg.clamp ?? Infinity);
        const norm = 1 - b + (b * ix.dlen[d]) / ix.avgd;
        s = (idf * freq * (k1 + 1)) / (k1 * norm + freq);
      } else if (cfg.scorer === 'minisearch') {
        for (let f = 0; f < FIELDS.length; f++) {
          if (!tf[f]) continue;
          const dff = cfg.fieldDf ? ix.fieldDf(t.term, f) : df;
          const idff = Math.log(1 + (ix.N - dff + 0.5) / (dff + 0.5));
          const c = Math.min(tf[f], cfg.clamp ?? Infinity);
          s += ix.w[f] * idff * ((cfg.d ?? 0) + (c * (k1 + 1)) / (c + k1 * (1 - b + (b * ix.flen[d][f]) / ix.avg[f])));
        }
      }
      acc.set(d, (acc.get(d) ?? 0) + s * (t.qw ?? 1));
      if (cfg.coord) {
        let h = hits.get(d);
        if (!h) hits.set(d, (h = new Set()));
        h.add(t.term);
      }
    }
  }
  const out = [...acc].map(([d, s]) => [d, cfg.coord ? s * hits.get(d).size : s]);
  out.sort((a, b) => b[1] - a[1] || (ix.ids[a[0]] < ix.ids[b[0]] ? -1 : ix.ids[a[0]] > ix.ids[b[0]] ? 1 : 0));
  return out.slice(0, 10).map(([d]) => ix.ids[d]);
}

export function fieldDfFn(ix) {
  const cache = new Map();
  return (term, f) => {
    const key = term + '\u0000' + f;
    let v = cache.get(key);
    if (v === undefined) {
      v = 0;
      for (const tf of ix.post.get(term).values()) if (tf[f]) v++;
      cache.set(key, v);
    }
    return v;
  };
}

export function run(set, prepared, cfg) {
  const docs = cfg.enums === false ? prepared.noEnum : prepared.docs;
  const ix = buildIndex(docs, cfg);
  ix.fieldDf = fieldDfFn(ix);
  return meanNdcg(set.queries, (q) => score(ix, queryTerms(q, cfg, ix), cfg)).ndcg10;
}

// ---- configurations ----
export const TS = { tok: 'words', stem: 'ts', qStop: 'ts', docStop: null, scorer: 'bm25f', clamp: 2, cap: 16, capMode: 'tiers', qtf: false, coord: false, enums: false, fieldCaps: true, qcut: 512 };
const WINK = { tok: 'wink', stem: 'porter2', qStop: 'wink', docStop: 'wink', scorer: 'wink', clamp: Infinity, cap: 0, qtf: true, coord: false, enums: true, fieldCaps: false };
const MINI = { tok: 'words', stem: 'porter2', qStop: 'bench', docStop: 'bench', scorer: 'minisearch', k1: 1.2, b: 0.7, d: 0.5, fieldDf: true, clamp: Infinity, cap: 0, qtf: true, coord: true, enums: true, fieldCaps: false };

// The tables of docs/relevance.md. T: toolsift bm25f-2 with one peer ingredient;
// W / M: wink / minisearch with one toolsift ingredient; N: bm25f-3 experiments not adopted.
const BM25F3 = { ...TS, avgNonEmpty: true, softQ: true, softFiller: true, softW: 0.5, softWeak: 0.5, capKey: 'idfName1' };
export const CONFIGS = {
  "T toolsift bm25f-2 (replica)": { ...TS },
  "T + Porter2 stemmer": { ...TS, "stem": "porter2" },
  "T + plural fold only": { ...TS, "stem": "plural" },
  "T + wink stopword list (query)": { ...TS, "qStop": "wink" },
  "T + wink stopword list (query and documents)": { ...TS, "qStop": "wink", "docStop": "wink" },
  "T + no 16-term cap": { ...TS, "cap": 0 },
  "T + no 512-byte cut": { ...TS, "qcut": 0 },
  "T + neither cap nor cut": { ...TS, "cap": 0, "qcut": 0 },
  "T + tf unclamped": { ...TS, "clamp": Infinity },
  "T + query-term frequency counted": { ...TS, "qtf": true },
  "T + one length norm per document (wink)": { ...TS, "scorer": "wink" },
  "T + doc-level norm for param_docs only": { ...TS, "docNormFields": ["param_docs"] },
  "T + enum values in param_docs": { ...TS, "enums": true },
  "T + coordination (x matched terms)": { ...TS, "coord": true },
  "T + field average over tools having the field": { ...TS, "avgNonEmpty": true },
  "W wink (replica)": { ...WINK },
  "W + toolsift stemmer": { ...WINK, "stem": "ts" },
  "W + toolsift stopwords (query only)": { ...WINK, "qStop": "ts", "docStop": null },
  "W + 16-term cap": { ...WINK, "cap": 16, "capMode": "tiers" },
  "W + 512-byte cut": { ...WINK, "qcut": 512 },
  "W + cap and cut": { ...WINK, "cap": 16, "capMode": "tiers", "qcut": 512 },
  "W + tf clamp 2": { ...WINK, "clamp": 2 },
  "W + query terms deduplicated": { ...WINK, "qtf": false },
  "W + per-field length norm": { ...WINK, "scorer": "bm25f" },
  "W + per-field norm, field average over tools having it": { ...WINK, "scorer": "bm25f", "avgNonEmpty": true },
  "M minisearch (replica)": { ...MINI },
  "M + 16-term cap": { ...MINI, "cap": 16, "capMode": "tiers" },
  "M + 512-byte cut": { ...MINI, "qcut": 512 },
  "M + cap and cut": { ...MINI, "cap": 16, "capMode": "tiers", "qcut": 512 },
  "M + no coordination": { ...MINI, "coord": false },
  "M + query terms deduplicated": { ...MINI, "qtf": false },
  "M + toolsift stemmer": { ...MINI, "stem": "ts" },
  "M + tf clamp 2": { ...MINI, "clamp": 2 },
  "N bm25f-3 (replica)": { ...BM25F3 },
  "N Porter2 stemmer": { ...BM25F3, "stem": "porter2" },
  "N suffixes -ation\u2192-at, -ization\u2192-iz": { ...BM25F3, "stem": "ts+ation" },
  "N suffix -ator\u2192-at": { ...BM25F3, "stem": "ts+ator" },
  "N suffix -ied\u2192-y": { ...BM25F3, "stem": "ts+ied" },
  "N suffix -ly": { ...BM25F3, "stem": "ts+ly" },
  "N suffix -ment (tokens \u2265 9 bytes)": { ...BM25F3, "stem": "ts+ment" },
  "N suffix -er (tokens > 6 bytes)": { ...BM25F3, "stem": "ts+er" },
  "N suffix -ity": { ...BM25F3, "stem": "ts+ity" },
  "N -ation, -ator, -ied and -ly together": { ...BM25F3, "stem": "ts+ation+ator+ied+ly" },
  "N + wink stopwords without question words (query)": { ...BM25F3, "qStop": "tsPlusWinkNoQ" },
  "N + enum values in param_docs": { ...BM25F3, "enums": true },
  "N + coordination (\u00d7 matched terms)": { ...BM25F3, "coord": true },
  "N + tf unclamped (SPEC fixes 2)": { ...BM25F3, "clamp": Infinity },
  "N + one length norm per document (not BM25F)": { ...BM25F3, "scorer": "wink" },
  "N field average only for params and param_docs": { ...BM25F3, "neFields": ["params", "param_docs"] },
  "N soft weight 0.25": { ...BM25F3, "softW": 0.25, "softWeak": 0.25 },
  "N soft weight 0.65": { ...BM25F3, "softW": 0.65, "softWeak": 0.65 },
  "N capitalised words inside a sentence as tier 3 (so soft)": { ...BM25F3, "properWeak": true },
  "N 10 more request words (first, firstly, secondly, \u2026, thank, kindly) as tier 3": { ...BM25F3, "filler": ["first", "firstly", "second", "secondly", "third", "thirdly", "lastly", "thank", "thanks", "kindly"] },
  "N cap key idf \u00d7 sqrt(0.25 + name share)": { ...BM25F3, "capKey": "idfNameSqrt" },
  "N cap: repeated query words first": { ...BM25F3, "capKey": "qtfFirst" },
  "N cap key idf \u00d7 min(query tf, 2)": { ...BM25F3, "capKey": "idfQtf" },
  "N split run-together names (\u2265 8 letters) into two catalog words": { ...BM25F3, "decompound": 8 },
  "N weights params 1.5, param_docs 1.25": { ...BM25F3, "weights": {"name": 3, "aliases": 2, "tags": 2, "description": 1, "params": 1.5, "param_docs": 1.25} },
  "N weights params 1.25, param_docs 0.75": { ...BM25F3, "weights": {"name": 3, "aliases": 2, "tags": 2, "description": 1, "params": 1.25, "param_docs": 0.75} },
  "N weights params 1.75, param_docs 1.25": { ...BM25F3, "weights": {"name": 3, "aliases": 2, "tags": 2, "description": 1, "params": 1.75, "param_docs": 1.25} },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const want = arg('sets', 'corpus,toollens,metatool,sealtools').split(',');
  const only = arg('only', '') ? arg('only', '').split('|') : null;
  const sets = relevanceSets().filter((s) => want.includes(s.name));
  const { load } = await import('../js/toolsift.js');
  const ts = await load();
  const prepared = sets.map((s) => {
    const ix = ts.createIndex(s.text, { ids: 'lenient' });
    const d = ix.documents();
    ix.free();
    return prepSet(s, d);
  });
  const extra = process.env.ABLATE_CONFIGS ? JSON.parse(process.env.ABLATE_CONFIGS) : {};
  const all = { ...CONFIGS };
  for (const [k, v] of Object.entries(extra)) all[k] = { ...(v.base === 'wink' ? WINK : v.base === 'mini' ? MINI : TS), ...v };
  console.log(`| config | ${sets.map((s) => s.name).join(' | ')} |`);
  console.log(`|---|${sets.map(() => '---').join('|')}|`);
  for (const [name, cfg] of Object.entries(all)) {
    if (only && !only.some((o) => name.includes(o))) continue;
    const vals = sets.map((s, i) => run(s, prepared[i], cfg).toFixed(4));
    console.log(`| ${name} | ${vals.join(' | ')} |`);
  }
}
