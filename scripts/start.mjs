#!/usr/bin/env node
// start.mjs — the `npm start` demo until the web playground exists: loads the
// wasm module through js/toolsift.js, indexes corpus/catalog.json and prints
// a few explained searches with a per-field score bar.
//
// Usage: node scripts/start.mjs [QUERY...]   (env TOOLSIFT_WASM picks the module)

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load } from '../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CATALOG = path.join(ROOT, 'corpus/catalog.json');
const WASM = process.env.TOOLSIFT_WASM || path.join(ROOT, 'build/wasm/toolsift.wasm');

const EXAMPLES = [
  'create a github issue',
  'send an email to the team',
  'what is the weather tomorrow',
  'translate this text into French',
  'search files for a string',
];

// One glyph per field, so the bar shows where a score comes from.
const GLYPHS = { name: '█', aliases: '▓', tags: '▒', description: '░', params: '▚', param_docs: '·' };
const OTHER_GLYPHS = ['▞', '•', '◦', '+'];
const BAR_WIDTH = 28;
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const dim = (s) => (color ? `\x1b[2m${s}\x1b[0m` : s);
const bold = (s) => (color ? `\x1b[1m${s}\x1b[0m` : s);

function glyphFor(field, fields) {
  if (GLYPHS[field]) return GLYPHS[field];
  const others = fields.filter((f) => !GLYPHS[f]);
  return OTHER_GLYPHS[Math.max(0, others.indexOf(field)) % OTHER_GLYPHS.length];
}

// Per-field share of a hit's score: each term's score split over its fields
// in proportion to their contributions (saturation makes fields non-additive).
function fieldShares(hit) {
  const shares = {};
  for (const t of hit.explain?.terms ?? []) {
    const sum = Object.values(t.fields).reduce((a, b) => a + b, 0);
    if (sum <= 0) continue;
    for (const [f, v] of Object.entries(t.fields)) shares[f] = (shares[f] ?? 0) + (t.score * v) / sum;
  }
  return shares;
}

// Cumulative rounding, so the segments add up to the hit's share of the top score.
function bar(shares, top, fields) {
  let out = '';
  let cum = 0;
  for (const f of fields) {
    if (!shares[f]) continue;
    cum += shares[f];
    const end = Math.min(BAR_WIDTH, Math.round((cum / top) * BAR_WIDTH));
    if (end > out.length) out += glyphFor(f, fields).repeat(end - out.length);
  }
  return out.padEnd(BAR_WIDTH, ' ');
}

function oneLine(text, max) {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

async function main() {
  if (!existsSync(CATALOG)) {
    console.log('toolsift: corpus/catalog.json does not exist yet; nothing to demo.');
    return;
  }
  let ts;
  try {
    ts = await load(WASM);
  } catch (e) {
    console.error(`toolsift: cannot load ${WASM}: ${e.message}\nRun \`npm run build\` first.`);
    process.exitCode = 1;
    return;
  }
  const index = ts.createIndex(readFileSync(CATALOG));
  try {
    const info = index.info();
    const fields = Object.keys(info.fields);
    console.log(bold(`toolsift ${ts.version}`) + dim(` · ${info.ranker} · ${info.tools} tools · ${info.terms} terms`));
    console.log(dim('bar: ' + fields.map((f) => `${glyphFor(f, fields)} ${f} ×${info.fields[f].weight}`).join('  ')));
    const queries = process.argv.length > 2 ? [process.argv.slice(2).join(' ')] : EXAMPLES;
    for (const query of queries) {
      const r = index.search(query, { limit: 5, explain: true });
      console.log('');
      console.log(`${bold('▸ ' + query)}`);
      console.log(dim(`  terms: ${r.terms.join(' · ') || '(none)'}`));
      if (r.hits.length === 0) console.log('  (no match)');
      const top = r.hits[0]?.score || 1;
      const idWidth = Math.min(36, Math.max(...r.hits.map((h) => h.id.length), 0));
      r.hits.forEach((hit, i) => {
        const id = hit.id.length > idWidth ? `${hit.id.slice(0, idWidth - 1)}…` : hit.id.padEnd(idWidth);
        const flags = [hit.exact ? 'exact' : '', hit.trust !== 'first-party' ? hit.trust : '']
          .filter(Boolean)
          .join(',');
        console.log(`  ${i + 1}. ${id}  ${hit.score.toFixed(3).padStart(7)}  ${bar(fieldShares(hit), top, fields)}${flags ? dim(' ' + flags) : ''}`);
        console.log(dim(`     ${oneLine(hit.description, 72)}`));
      });
      if (r.unmatched.length) console.log(dim(`  unmatched: ${r.unmatched.join(', ')}`));
      if (r.tainted) console.log(dim('  (tainted: results name un-vouched remote tools)'));
    }
  } finally {
    index.free();
  }
}

await main();
