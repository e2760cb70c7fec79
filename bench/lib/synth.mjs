// synth.mjs — deterministic synthetic tool catalogs and query sets.
//
// The same (size, seed) always gives the same bytes: a fixed PRNG
// (splitmix32), no Math.random, no Date, no locale-dependent calls.
//
// Shape: MCP tools { name, description, inputSchema } grouped by product
// ("acme__create_invoice"), names in snake_case, camelCase or kebab-case,
// descriptions of one to three sentences, object schemas with 0–8 typed
// properties (some nested, some enums). Words come from a ranked vocabulary:
// a few hundred common tool words on top, then pseudo-words built from
// syllables, drawn with a Zipf law (P(rank r) ∝ 1 / r^s) so a handful of words
// are everywhere and most are rare, as in real catalogs.

export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return z / 4294967296;
  };
}

const VERBS = `get list create update delete search find send fetch read write run query add remove set
start stop cancel close open upload download export import sync check validate generate summarize
translate convert schedule assign move copy archive restore publish deploy invoke execute analyze
count compare merge split resolve approve reject enable disable retry subscribe notify lookup
describe attach detach share rename tag label book reserve track monitor scan index render
transcribe classify extract parse format backup rotate`.split(/\s+/);

const NOUNS = `file issue user project repository page message channel record table database query
event calendar email document task ticket invoice payment customer order product report account
contact comment branch commit pull request release deployment build pipeline job workflow alert
incident metric log trace dashboard bucket object image video audio playlist track note folder
drive sheet row column cell label tag team member role permission policy key secret token session
cluster node pod container service endpoint domain record certificate backup snapshot volume instance
region zone network subnet route firewall rule vendor shipment warehouse item stock price quote
subscription plan coupon refund dispute charge transfer balance meeting room booking flight hotel
weather forecast location address map place review rating survey form response lead deal campaign
audience segment experiment feature flag model dataset embedding prompt completion chat thread
schema migration index view function trigger webhook integration connector space board card list
sprint epic story version environment variable config setting profile avatar group organization`.split(/\s+/);

const FILLER = `the a an of to for in on with by from and or all new current specific given
recent latest existing multiple single optional default public private remote local active`.split(/\s+/);

const PROSE = `returns including using based within across between when which that each
details information status results data content metadata summary history changes values
fields properties identifiers names filters options limits pages cursor pagination supports
optionally specified provided matching selected related nested full partial raw
structured formatted encoded json markdown html text csv url id ids timestamp date time`.split(/\s+/);

const SYL = `ka ri to ne mu sa lo vi pe da zu bri fla gor mel tan dex vor quin lys pra sto
zen kal mir nov tre olu ash fen gri hal jor kin lum mar nod pel rav sil tor umb vel wex yar zor`.split(/\s+/);

const PARAM_TYPES = ['string', 'string', 'string', 'integer', 'boolean', 'array', 'number', 'object'];

/** A ranked vocabulary of `size` distinct lowercase words (real tool words first). */
function vocabulary(rand, size) {
  const words = [];
  const seen = new Set();
  const push = (w) => {
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  };
  // Interleave the real words so verbs, nouns and prose share the top ranks.
  const pools = [VERBS, NOUNS, PROSE];
  for (let i = 0; i < Math.max(VERBS.length, NOUNS.length, PROSE.length); i++)
    for (const p of pools) if (i < p.length) push(p[i]);
  while (words.length < size) {
    const n = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYL[Math.floor(rand() * SYL.length)];
    push(w);
  }
  return words;
}

/** Sampler of ranks 0..n-1 with P(r) ∝ 1/(r+1)^s (inverse CDF, binary search). */
function zipf(rand, n, s) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cdf[r] = sum += 1 / Math.pow(r + 1, s);
  return () => {
    const u = rand() * sum;
    let lo = 0, hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);

function styleName(words, style) {
  if (style === 'camel') return words[0] + words.slice(1).map(cap).join('');
  if (style === 'kebab') return words.join('-');
  return words.join('_');
}

/**
 * A catalog of `size` MCP tools: { tools: [...] }. Vocabulary grows with the
 * catalog (Heaps-like: ~ 40·size^0.7 words, at least 2,000).
 */
export function synthCatalog(size, seed = 20261201) {
  const rand = rng(seed ^ size);
  const vocab = vocabulary(rand, Math.max(2000, Math.round(40 * Math.pow(size, 0.7))));
  const word = zipf(rand, vocab.length, 1.05);
  const verb = zipf(rand, VERBS.length, 0.9);
  const noun = zipf(rand, Math.min(vocab.length, 4000), 1.0); // objects: real nouns then pseudo-words
  const nounWord = () => {
    const r = noun();
    return r < NOUNS.length ? NOUNS[r] : vocab[r];
  };
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const nproducts = Math.max(8, Math.round(size / 12));
  const products = [];
  const pseen = new Set();
  while (products.length < nproducts) {
    const n = 2 + Math.floor(rand() * 2);
    let p = '';
    for (let i = 0; i < n; i++) p += pick(SYL);
    if (!pseen.has(p)) {
      pseen.add(p);
      products.push(p);
    }
  }
  const product = zipf(rand, nproducts, 0.8);
  const sentence = (min, max) => {
    const n = min + Math.floor(rand() * (max - min + 1));
    const ws = [];
    for (let i = 0; i < n; i++) ws.push(rand() < 0.25 ? pick(FILLER) : vocab[word()]);
    return ws;
  };
  const names = new Set();
  const tools = [];
  for (let i = 0; i < size; i++) {
    const prod = products[product()];
    const v = VERBS[verb()];
    const objs = [nounWord()];
    if (rand() < 0.45) objs.push(nounWord());
    const r = rand();
    const style = r < 0.6 ? 'snake' : r < 0.85 ? 'camel' : 'kebab';
    let base = styleName([v, ...objs], style);
    let name = `${prod}__${base}`;
    for (let k = 2; names.has(name); k++) name = `${prod}__${base}${style === 'camel' ? 'V' : '_v'}${k}`;
    names.add(name);
    // Description: "<Verb>s the <obj> in <Product>. <prose>. <prose>."
    const parts = [];
    parts.push(`${cap(v)} ${pick(FILLER)} ${objs.join(' ')} in ${cap(prod)}.`);
    const ns = rand() < 0.3 ? 0 : rand() < 0.7 ? 1 : 2;
    for (let s = 0; s < ns; s++) {
      const ws = sentence(5, 24);
      parts.push(cap(ws.join(' ')) + '.');
    }
    const properties = {};
    const required = [];
    const np = Math.floor(rand() * 5 + rand() * 4);
    for (let p = 0; p < np; p++) {
      const pw = rand() < 0.6 ? [nounWord()] : [nounWord(), pick(['id', 'name', 'type', 'limit', 'query', 'url', 'path', 'count'])];
      const pname = styleName(pw, rand() < 0.65 ? 'snake' : 'camel');
      if (properties[pname]) continue;
      const type = pick(PARAM_TYPES);
      const prop = { type };
      if (rand() < 0.8) prop.description = cap(sentence(3, 14).join(' ')) + '.';
      if (type === 'string' && rand() < 0.12) prop.enum = [vocab[word()], vocab[word()], vocab[word()]].filter((x, j, a) => a.indexOf(x) === j);
      if (type === 'array') prop.items = { type: 'string' };
      if (type === 'object') {
        const sub = nounWord();
        prop.properties = { [sub]: { type: 'string', description: cap(sentence(2, 8).join(' ')) + '.' } };
      }
      properties[pname] = prop;
      if (rand() < 0.4) required.push(pname);
    }
    const inputSchema = { type: 'object', properties };
    if (required.length) inputSchema.required = required;
    tools.push({ name, description: parts.join(' '), inputSchema });
  }
  return { tools, vocab, words: { word: () => vocab[word()], verb: () => VERBS[verb()], noun: nounWord } };
}

/**
 * `count` queries over a synthetic catalog: exact tool names (15 %), short
 * intents built from one tool's name and description words (45 %), random
 * Zipf phrases (25 %) and long task sentences (15 %).
 */
export function synthQueries(cat, count, seed = 7) {
  const rand = rng(seed ^ cat.tools.length);
  const { tools, words } = cat;
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const out = [];
  const lead = ['', '', 'how do I', 'I want to', 'can you', 'please', 'help me'];
  for (let i = 0; i < count; i++) {
    const r = rand();
    const t = tools[Math.floor(rand() * tools.length)];
    if (r < 0.15) {
      out.push(t.name.split('__')[1]);
    } else if (r < 0.6) {
      const nameWords = t.name.split('__')[1].split(/[_-]|(?=[A-Z])/).map((w) => w.toLowerCase());
      const desc = t.description.toLowerCase().replace(/[^a-z ]/g, ' ').split(/\s+/).filter((w) => w.length > 3);
      const ws = [pick(lead), nameWords[0]];
      const extra = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < extra; k++) ws.push(rand() < 0.5 && nameWords.length > 1 ? pick(nameWords.slice(1)) : desc.length ? pick(desc) : words.noun());
      out.push(ws.filter(Boolean).join(' '));
    } else if (r < 0.85) {
      const n = 2 + Math.floor(rand() * 5);
      const ws = [words.verb()];
      for (let k = 1; k < n; k++) ws.push(rand() < 0.5 ? words.noun() : words.word());
      out.push(ws.join(' '));
    } else {
      const n = 10 + Math.floor(rand() * 16);
      const ws = ['I need to', words.verb(), 'the', words.noun()];
      for (let k = 4; k < n; k++) ws.push(rand() < 0.3 ? pick(FILLER) : words.word());
      out.push(ws.join(' '));
    }
  }
  return out;
}
