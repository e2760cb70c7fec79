#!/usr/bin/env node
// gen-vocab.mjs — generate core/src/text/vocab_table.h from core/src/text/vocab.txt
// (the table of tool vocabulary: cross-lingual concepts and English synonym
// groups, docs/relevance.md).
//
// Every key goes through the real analyser (the wasm module of a source
// build: build/wasm/toolsift.wasm, or env TOOLSIFT_WASM), so the table holds
// exactly the tokens a query produces: Latin keys as analysed tokens joined
// by one space, keys in scripts without spaces as the characters their
// overlapping bigrams spell.
//
//   node scripts/gen-vocab.mjs            write core/src/text/vocab_table.h
//   node scripts/gen-vocab.mjs --check    exit 1 if the header is stale
//   node scripts/gen-vocab.mjs --english  also list keys that are words (or
//       stems that begin words) of English tool catalogs and queries:
//       corpus/catalog.json, ../shared/datasets/* (tools and dev queries) and
//       ../shared/catalogs/all.json; fail when one meets a word of a query
//       (it would change English results).
//   --all          also the "## not compiled" sections (to measure)
//   --concepts N, --keys K, --langs de,fr   only the first N cross-lingual
//                  concepts, the first K keys of each language, these
//                  languages (to measure)
//   --synonyms N, --no-synonyms   only the first N English synonym groups, or
//                  none (to measure)
//
// A section whose title contains "synonyms" holds English synonym groups,
// one a line ("picture, image, photo"): each becomes a concept whose line of
// targets starts with '~' and whose every member is a key. The --english
// check skips those keys (they are English on purpose).
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { load } from '../js/toolsift.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'core/src/text/vocab.txt');
const OUT = path.join(ROOT, 'core/src/text/vocab_table.h');
const args = process.argv.slice(2);
const check = args.includes('--check');
const english = args.includes('--english');
const all = args.includes('--all');
const nConcepts = args.includes('--concepts') ? Number(args[args.indexOf('--concepts') + 1]) : Infinity;
const nKeys = args.includes('--keys') ? Number(args[args.indexOf('--keys') + 1]) : Infinity;
const langs = args.includes('--langs') ? args[args.indexOf('--langs') + 1].split(',') : null;
const noSyn = args.includes('--no-synonyms');
const synGroups = args.includes('--synonyms') ? Number(args[args.indexOf('--synonyms') + 1]) : null;

const ts = await load();
const tokensOf = (text) => ts.analyze(text, { stopwords: [] }).tokens;
const isCjk = (s) => {
  const c = s.codePointAt(0);
  return (c >= 0x0e00 && c <= 0x0e7f) || (c >= 0x1100 && c <= 0x11ff) || (c >= 0x2e80 && c <= 0xa97f) ||
    (c >= 0xac00 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff66 && c <= 0xff9f) || c >= 0x20000;
};
const fail = (msg) => {
  console.error(`gen-vocab: ${msg}`);
  process.exit(1);
};

// ---- parse the source ------------------------------------------------------
const concepts = []; // { targets, syn, keys: [{ lang, text, stem }] }
let cur = null;
let section = '';
for (const [n, raw] of fs.readFileSync(SRC, 'utf8').split('\n').entries()) {
  const line = raw.replace(/\s+$/, '');
  if (line.startsWith('## not compiled') && !all) break;
  if (line.startsWith('## ')) section = line.includes('synonyms') ? 'synonyms' : 'concepts';
  if (!line || line.startsWith('#')) continue;
  if (section === 'synonyms') {
    // an English synonym group: every member is a key, the members are the targets
    if (noSyn || (synGroups !== null && concepts.filter((c) => c.syn).length >= synGroups)) continue;
    const members = line.split(',').map((s) => s.trim()).filter(Boolean);
    if (members.length < 2 || members.some((m) => m.endsWith('*')))
      fail(`vocab.txt:${n + 1}: a synonym group needs two or more words or phrases, no stems`);
    cur = { targets: members.join(' '), syn: true, keys: members.map((text) => ({ lang: 'en', text, stem: false, line: n + 1 })), line: n + 1 };
    concepts.push(cur);
    cur = null;
    continue;
  }
  if (!/^\s/.test(line)) {
    // a concept named again (in "## not compiled") continues the first one
    cur = concepts.find((c) => !c.syn && c.targets === line.trim());
    if (!cur && concepts.filter((c) => !c.syn).length >= nConcepts) {
      cur = 'skip'; // beyond --concepts N: its keys are left out
      continue;
    }
    if (!cur) concepts.push((cur = { targets: line.trim(), keys: [], line: n + 1 }));
    continue;
  }
  const m = /^\s+([a-z]{2})\s+(.*)$/.exec(line);
  if (!m || !cur) fail(`vocab.txt:${n + 1}: expected "  LANG key, key"`);
  if (cur === 'skip') continue;
  if (langs && !langs.includes(m[1])) continue;
  for (const k of m[2].split(',').map((s) => s.trim()).filter(Boolean).slice(0, nKeys)) {
    const stem = k.endsWith('*');
    cur.keys.push({ lang: m[1], text: stem ? k.slice(0, -1) : k, stem, line: n + 1 });
  }
}

// ---- analyse the keys -------------------------------------------------------
const entries = new Map(); // analysed key -> { stem, codes: Set, src: [] }
const byLang = {};
for (const [ci, c] of concepts.entries()) {
  const targets = tokensOf(c.targets);
  for (const k of c.keys) {
    const toks = tokensOf(k.text);
    if (!toks.length) fail(`vocab.txt:${k.line}: "${k.text}" has no tokens`);
    let key;
    if (toks.every(isCjk)) {
      // overlapping bigrams: the first token, then the last character of each next one
      key = toks[0];
      for (const t of toks.slice(1)) {
        const chars = [...t];
        if (chars.length !== 2 || [...key].at(-1) !== chars[0]) fail(`vocab.txt:${k.line}: "${k.text}" is not one run`);
        key += chars[1];
      }
    } else if (toks.some(isCjk)) {
      fail(`vocab.txt:${k.line}: "${k.text}" mixes scripts`);
    } else {
      key = toks.join(' ');
    }
    if (k.stem && (toks.length !== 1 || isCjk(key) || [...key].length < 4))
      fail(`vocab.txt:${k.line}: stem "${k.text}*" must be one Latin token of at least 4 characters`);
    if (k.stem && key !== k.text) console.error(`gen-vocab: note: stem "${k.text}*" analyses to "${key}*"`);
    if (!c.syn && targets.includes(key)) {
      console.error(`gen-vocab: note: "${k.text}" is already the English term "${key}"; left out`);
      continue;
    }
    const e = entries.get(key) ?? { stem: k.stem, codes: new Set(), src: [] };
    if (e.stem !== k.stem) fail(`vocab.txt:${k.line}: "${key}" is both a stem and a word`);
    e.codes.add(ci);
    e.src.push(`${k.lang} ${k.text}${k.stem ? '*' : ''}`);
    entries.set(key, e);
    byLang[k.lang] = (byLang[k.lang] ?? 0) + 1;
    if (c.syn) e.syn = true;
  }
}

// ---- English collisions -----------------------------------------------------
if (english) {
  const texts = []; // [text, from a query?]
  const addTools = (tools) => {
    for (const t of tools) texts.push([`${t.name ?? ''} ${t.description ?? ''}`, false]);
  };
  const jsonl = (f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const corpus = JSON.parse(fs.readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8'));
  addTools(corpus.tools ?? corpus);
  const shared = path.join(ROOT, '../shared');
  for (const set of ['toollens', 'metatool', 'sealtools']) {
    const dir = path.join(shared, 'datasets', set);
    if (!fs.existsSync(dir)) continue;
    addTools(jsonl(path.join(dir, 'tools.jsonl')));
    for (const q of jsonl(path.join(dir, 'queries_dev.jsonl'))) texts.push([q.query, true]);
  }
  const allJson = path.join(shared, 'catalogs/all.json');
  if (fs.existsSync(allJson)) {
    const j = JSON.parse(fs.readFileSync(allJson, 'utf8'));
    addTools(j.tools ?? j);
  }
  const freq = new Map(); // token -> [in catalogs, in queries]
  for (const [text, query] of texts) {
    // the analyser reads 512 bytes of a query: feed it word chunks
    let chunk = '';
    const flush = () => {
      for (const t of tokensOf(chunk)) {
        const f = freq.get(t) ?? [0, 0];
        f[query ? 1 : 0]++;
        freq.set(t, f);
      }
      chunk = '';
    };
    for (const w of text.split(/\s+/)) {
      if (Buffer.byteLength(chunk) + Buffer.byteLength(w) > 400) flush();
      chunk += ` ${w}`;
    }
    flush();
  }
  const words = [...freq.keys()].sort();
  let n = 0, inQueries = 0;
  for (const [key, e] of [...entries].sort()) {
    if (e.syn && e.src.every((x) => x.startsWith('en '))) continue; // English by design
    const hits = e.stem ? words.filter((w) => w.startsWith(key)) : freq.has(key) ? [key] : [];
    if (!hits.length) continue;
    n++;
    const q = hits.some((w) => freq.get(w)[1] > 0);
    inQueries += q;
    const shown = hits.slice(0, 6).map((w) => `${w}(${freq.get(w).join('/')})`);
    console.log(`english${q ? ' QUERY' : ''}: ${key}${e.stem ? '*' : ''} [${e.src.join('; ')}]: ${shown.join(' ')}`);
  }
  console.log(`english: ${n} keys meet words of ${texts.length} English texts (catalogs/queries counts); ${inQueries} meet words of queries`);
  if (inQueries) fail('keys meet words of English queries (marked QUERY): they would change English results');
}

// ---- emit -------------------------------------------------------------------
// Concept i is coded as one character after the key's separator ('=' for a
// word, '*' for a stem): the i-th of '#'..'~' without '*', '=', '?' and '\\'.
// Concept i >= 88 is written as '!' once per 88 before the character of i % 88.
const ALPHABET = [...Array(92)].map((_, i) => String.fromCharCode(0x23 + i)).filter((c) => !'*=?\\'.includes(c)).join('');
const code = (i) => '!'.repeat(Math.floor(i / ALPHABET.length)) + ALPHABET[i % ALPHABET.length];
const sorted = [...entries].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
const keys = sorted.map(([k, e]) => `${k}${e.stem ? '*' : '='}${[...e.codes].sort((a, b) => a - b).map(code).join('')}\n`).join('');
const targets = concepts.map((c) => `${c.syn ? '~' : ''}${c.targets}\n`).join('');
// Macros of string literals rather than arrays: the linker then keeps the
// table beside the module's other strings, which gzips smaller.
const cstr = (s) =>
  !s ? '  ""' : s.split('\n').filter(Boolean).map((l) => `  "${l.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}\\n"`).join(' \\\n');
const header = `/* vocab_table.h — GENERATED by scripts/gen-vocab.mjs from vocab.txt; do not
 * edit. ${concepts.length} concepts (${concepts.filter((c) => c.syn).length} of them English synonym groups), ${entries.size} keys (${Object.entries(byLang).map(([l, n]) => `${l} ${n}`).join(', ')}).
 *
 * VOCAB_TARGETS: one line per concept, its English words (surface forms); a
 * line that starts with '~' is an English synonym group (its members are
 * also its keys; expansions weigh TSIFT_SYNONYM_WEIGHT).
 * VOCAB_KEYS: one line per analysed key, sorted by bytes: the key, then
 * '=' (a word or phrase) or '*' (a stem: matches tokens that start with it),
 * then the concepts it expands to: concept i is the character i % 88 of
 * '#'..'~' without '*', '=', '?' and '\\\\', after i / 88 times '!'. */
#define VOCAB_TARGETS \\
${cstr(targets)}

#define VOCAB_KEYS \\
${cstr(keys)}
`;
const sizes = `keys ${Buffer.byteLength(keys)} bytes (gzip ${gzipSync(keys, { level: 9 }).length}), targets ${Buffer.byteLength(targets)} bytes (gzip ${gzipSync(targets, { level: 9 }).length}), both gzip ${gzipSync(targets + keys, { level: 9 }).length}`;
if (check) {
  const cur = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  if (cur !== header) fail('core/src/text/vocab_table.h is stale: run node scripts/gen-vocab.mjs');
  console.log(`gen-vocab: up to date; ${sizes}`);
} else {
  fs.writeFileSync(OUT, header);
  console.log(`gen-vocab: wrote ${path.relative(ROOT, OUT)}: ${concepts.length} concepts, ${entries.size} keys; ${sizes}`);
}
