// update-docs.mjs — copy the tables of bench/results/latest.md and the
// engine configurations of latest.json into docs/performance.md (between the
// <!-- results --> / <!-- configs --> markers and the next heading).
//   node bench/update-docs.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const docPath = new URL('docs/performance.md', root);
const md = readFileSync(new URL('bench/results/latest.md', root), 'utf8');
const json = JSON.parse(readFileSync(new URL('bench/results/latest.json', root), 'utf8'));
let doc = readFileSync(docPath, 'utf8');

// Results: latest.md without its title and its configuration section, headings one level down.
const body = md
  .replace(/^# .*\n\n?/, '')
  .replace(/\n## Engine configurations[\s\S]*$/, '\n')
  .replace(/^## /gm, '### ')
  .trim();
// Configuration texts from the adapters as they are now (documentation, not
// results: the adapters' behaviour is what the run measured), versions from the run.
const { allEngines } = await import('./lib/engines.mjs');
const current = Object.fromEntries((await allEngines()).map((e) => [e.name, e.config]));
const configs = Object.entries(json.engines).map(([n, e]) => `- **${n}** ${e.version}: ${current[n] ?? e.config}`).join('\n');

function put(marker, text) {
  const re = new RegExp(`(<!-- ${marker} -->\\n)[\\s\\S]*?(?=\\n## |$)`);
  if (!re.test(doc)) throw new Error(`docs/performance.md: no <!-- ${marker} --> marker`);
  doc = doc.replace(re, (_, m) => `${m}\n${text}\n`);
}
put('results', `Charts: [latency vs size](../bench/results/latency-vs-size.svg) · [build vs size](../bench/results/build-vs-size.svg) · [relevance vs latency](../bench/results/relevance-vs-latency.svg). Raw numbers: [latest.json](../bench/results/latest.json).\n\n${body}`);
put('configs', configs);
writeFileSync(docPath, doc);
console.log('docs/performance.md updated from bench/results/latest.{md,json}');
