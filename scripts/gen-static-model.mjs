// gen-static-model.mjs — a small static-embedding model of the project's own,
// in the format a model2vec model ships in (model.safetensors with an
// "embeddings" matrix + a Hugging Face WordPiece tokenizer.json), for tests:
// no third-party weights are downloadable here, and none are needed to test
// the loader, the tokenizer and the pooling.
//
//   node scripts/gen-static-model.mjs [--out DIR] [--catalog FILE] [--dim N]
//        [--words N] [--dtype f32|f16] [--name NAME] [--fuzz-seed FILE]
//        [--extra N]
//
// Writes DIR/model.safetensors and DIR/tokenizer.json (default
// build/static-model). --fuzz-seed also writes the pair as one fuzz input
// for tests/fuzz/fuzz_static_model.c: a 4-byte little-endian length of the
// safetensors bytes, those bytes, then the tokenizer.json bytes. --extra N
// appends N synthetic tokens (zz0, zz1, …) with noise rows: a model of a
// real one's size, for measuring load and embedding times.
//
// The vocabulary: [PAD] [UNK] [CLS] [SEP] [MASK], ASCII punctuation, the
// letters and digits alone and as ##pieces, a few suffixes (##s ##ed ##ing
// …), then the words of the catalog's tool names and descriptions
// ([a-z0-9]{2,}, the N most frequent by tool count, ties by word). Rows
// carry some meaning: a word's row is the mean of a pseudo-random vector per
// tool it occurs in (its server's vector plus a smaller one of its own) and a
// little noise of its own, so words of the same tools or of one server's
// tools are close (pod ~ deployment, channel ~ message on this corpus). Every value
// is a multiple of 1/256 in [-4, 4], exact in F16 and F32, so both dtypes
// hold the same numbers. Deterministic: FNV-1a seeds a 32-bit generator.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = opt('out', path.join(root, 'build/static-model'));
const catalogFile = opt('catalog', path.join(root, 'corpus/catalog.json'));
const dim = Number(opt('dim', '64'));
const maxWords = Number(opt('words', '3000'));
const dtype = opt('dtype', 'f32').toUpperCase();
const name = opt('name', 'toolsift-test');
const seedFile = opt('fuzz-seed', null);
const extra = Number(opt('extra', '0'));
if (!(dim >= 1 && dim <= 4096) || !(maxWords >= 0) || !['F32', 'F16'].includes(dtype)) {
  console.error('gen-static-model: --dim 1..4096, --words N >= 0, --dtype f32|f16');
  process.exit(2);
}

function fnv1a(s) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}
// A deterministic vector in [-1, 1)^dim for a string (xorshift32).
function noise(s) {
  let x = fnv1a(s) || 1;
  const v = new Array(dim);
  for (let j = 0; j < dim; j++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    v[j] = x / 2 ** 31 - 1;
  }
  return v;
}
const quantise = (x) => Math.max(-1024, Math.min(1024, Math.round(x * 256))) / 256;

// Words of the catalog, with the tools each occurs in.
const catalog = JSON.parse(readFileSync(catalogFile, 'utf8'));
const tools = Array.isArray(catalog) ? catalog : catalog.tools;
const toolsOf = new Map();
for (const t of tools) {
  const text = `${t.name ?? ''} ${t.id ?? ''} ${t.description ?? ''}`.toLowerCase();
  for (const w of new Set(text.match(/[a-z0-9]{2,}/g) ?? [])) {
    if (!toolsOf.has(w)) toolsOf.set(w, []);
    toolsOf.get(w).push(t.id ?? t.name);
  }
}
const words = [...toolsOf.keys()]
  .sort((a, b) => toolsOf.get(b).length - toolsOf.get(a).length || (a < b ? -1 : a > b ? 1 : 0))
  .slice(0, maxWords);

const vocab = [];
const have = new Set();
const add = (t) => {
  if (!have.has(t)) {
    have.add(t);
    vocab.push(t);
  }
};
['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].forEach(add);
for (const c of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') add(c);
const alnum = 'abcdefghijklmnopqrstuvwxyz0123456789';
for (const c of alnum) add(c);
for (const c of alnum) add(`##${c}`);
['##s', '##es', '##ed', '##ing', '##er', '##ly'].forEach(add);
words.forEach(add);
for (let i = 0; i < extra; i++) add(`zz${i}`);

const wordSet = new Set(words);
// Rows: [PAD] zero; a catalog word the mean of its tools' vectors plus a
// quarter of its own noise; every other piece half its own noise.
const rows = vocab.map((t) => {
  if (t === '[PAD]') return new Array(dim).fill(0);
  const ts = toolsOf.get(t);
  if (!ts || !wordSet.has(t)) return noise(`piece:${t}`).map((x) => quantise(x / 2));
  const v = noise(`word:${t}`).map((x) => x / 4);
  for (const id of ts) {
    // A tool's vector: its server's (the id's namespace, "stripe" of
    // stripe__create_refund) plus a smaller one of its own, so words of one
    // server's tools come out close even when no tool has both.
    const server = noise(`server:${String(id).split('__')[0]}`), own = noise(`tool:${id}`);
    server.forEach((x, j) => (v[j] += (x + own[j] * 0.6) / ts.length));
  }
  return v.map(quantise);
});

// IEEE half of a value that is a multiple of 1/256 in [-4, 4] (exact).
function half(x) {
  if (x === 0) return Object.is(x, -0) ? 0x8000 : 0;
  const sign = x < 0 ? 0x8000 : 0;
  let a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  while (2 ** e > a) e--;
  while (2 ** (e + 1) <= a) e++;
  const mant = Math.round((a / 2 ** e - 1) * 1024);
  return sign | ((e + 15) << 10) | mant;
}

const size = dtype === 'F32' ? 4 : 2;
const data = Buffer.alloc(vocab.length * dim * size);
rows.forEach((r, i) =>
  r.forEach((x, j) => {
    const at = (i * dim + j) * size;
    if (size === 4) data.writeFloatLE(x, at);
    else data.writeUInt16LE(half(x), at);
  }),
);
let header = JSON.stringify({
  __metadata__: { name, format: 'pt' },
  embeddings: { dtype, shape: [vocab.length, dim], data_offsets: [0, data.length] },
});
header += ' '.repeat((8 - (header.length % 8)) % 8); // the data starts 8-aligned
const len = Buffer.alloc(8);
len.writeBigUInt64LE(BigInt(header.length));
const safetensors = Buffer.concat([len, Buffer.from(header, 'utf8'), data]);

const tokenizer = JSON.stringify({
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((content, id) => ({
    id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
  })),
  normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: null,
  decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
  model: {
    type: 'WordPiece',
    unk_token: '[UNK]',
    continuing_subword_prefix: '##',
    max_input_chars_per_word: 100,
    vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
  },
});

mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'model.safetensors'), safetensors);
writeFileSync(path.join(out, 'tokenizer.json'), tokenizer);
if (seedFile) {
  const n = Buffer.alloc(4);
  n.writeUInt32LE(safetensors.length);
  mkdirSync(path.dirname(seedFile), { recursive: true });
  writeFileSync(seedFile, Buffer.concat([n, safetensors, Buffer.from(tokenizer, 'utf8')]));
}
console.log(`gen-static-model: ${out}: ${vocab.length} tokens × ${dim} ${dtype} (${safetensors.length} + ${tokenizer.length} bytes)`);
