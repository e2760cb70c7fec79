#!/usr/bin/env node
// gen-static-fuzz-seeds.mjs — the static-model fuzz target's seeds for the
// per-token tensors (issue 35): small models in the shapes model2vec 0.7–0.8
// writes ("weights" F64/F16 [vocab], "embeddings" [clusters, dim], "mapping"
// I32/I64 [vocab], in that data order, as model2vec-rs's
// test-model-vocab-quantized fixture has them) and sentence-transformers'
// StaticEmbedding ("embedding.weight"); and added_tokens in every form
// (model2vec 0.8's multi-word entries outside model.vocab, raw and
// normalized, single_word, lstrip, rstrip, a malformed entry). Each seed: a 4-byte little-endian
// length L, L bytes of safetensors, then tokenizer.json
// (tests/fuzz/fuzz_static_model.c). Deterministic: the same bytes every run.
//
//   node scripts/gen-static-fuzz-seeds.mjs   writes tests/fuzz/corpus/static_model/*.bin
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUT = join(import.meta.dirname, '..', 'tests', 'fuzz', 'corpus', 'static_model');
const WP = ['[PAD]', '[UNK]', 'hello', 'world', 'fork', 'repo', '##s', 'new'];
const UNI = [['<unk>', 0], ['\u2581', -2], ['\u2581hello', -3], ['\u2581world', -3.5], ['hel', -4], ['lo', -4], ['\u2581new\u2581york', -6], ['s', -5]];
const MAP = [0, 3, 1, 2, 1, 3, 0, 2];
const WEIGHT = [0.5, 2, 1.25, -0.75, 3, 0.125, 1.5, 0.875];

function tensor(dtype, values) {
  const size = { F64: 8, F32: 4, F16: 2, I32: 4, I64: 8 }[dtype];
  const b = Buffer.alloc(values.length * size);
  values.forEach((v, i) => {
    if (dtype === 'F64') b.writeDoubleLE(v, i * 8);
    else if (dtype === 'F32') b.writeFloatLE(v, i * 4);
    else if (dtype === 'I32') b.writeInt32LE(v, i * 4);
    else if (dtype === 'I64') b.writeBigInt64LE(BigInt(v), i * 8);
    else b.writeUInt16LE(half(v), i * 2);
  });
  return b;
}

// An exact IEEE half of a value that has one (these do).
function half(v) {
  if (v === 0) return 0;
  const sign = v < 0 ? 0x8000 : 0;
  let a = Math.abs(v), e = 0;
  while (a >= 2) (a /= 2), e++;
  while (a < 1) (a *= 2), e--;
  return sign | ((e + 15) << 10) | Math.round((a - 1) * 1024);
}

// tensors: [name, dtype, shape, values] in data order.
function safetensors(tensors) {
  const header = {};
  const parts = [];
  let at = 0;
  for (const [name, dtype, shape, values] of tensors) {
    const b = tensor(dtype, values);
    header[name] = { dtype, shape, data_offsets: [at, at + b.length] };
    parts.push(b);
    at += b.length;
  }
  const h = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(h.length));
  return Buffer.concat([len, h, ...parts]);
}

const rows = (n, dim) => Array.from({ length: n * dim }, (_, i) => ((i * 7) % 11) - 5 + 0.5);

const wordpiece = JSON.stringify({
  version: '1.0',
  added_tokens: [],
  normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(WP.map((t, i) => [t, i])) },
});
const unigram = JSON.stringify({
  version: '1.0',
  added_tokens: [{ id: 0, content: '<unk>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
  normalizer: { type: 'Sequence', normalizers: [{ type: 'Lowercase' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }, { type: 'Strip', strip_left: true, strip_right: true }] },
  pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: false },
  model: { type: 'Unigram', unk_id: 0, byte_fallback: false, vocab: UNI },
});

function seed(file, st, tok) {
  const len = Buffer.alloc(4);
  len.writeUInt32LE(st.length);
  writeFileSync(join(OUT, file), Buffer.concat([len, st, Buffer.from(tok)]));
}

seed('quant-weights-mapping.bin', safetensors([['weights', 'F64', [8], WEIGHT], ['embeddings', 'F32', [4, 3], rows(4, 3)], ['mapping', 'I32', [8], MAP]]), wordpiece);
seed('quant-f16-i64.bin', safetensors([['weights', 'F16', [8], WEIGHT], ['embeddings', 'F32', [4, 3], rows(4, 3)], ['mapping', 'I64', [8], MAP]]), wordpiece);
seed('quant-unigram.bin', safetensors([['weights', 'F64', [8], WEIGHT], ['embeddings', 'F32', [4, 3], rows(4, 3)], ['mapping', 'I32', [8], MAP]]), unigram);
seed('st-embedding-weight.bin', safetensors([['embedding.weight', 'F32', [8, 3], rows(8, 3)]]), wordpiece);

// added_tokens (static_model_added.c): ids after the vocabulary's 8, as the library assigns them
const A = (id, content, o = {}) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: true, special: false, ...o });
const ADDED = [A(1, '[UNK]', { normalized: false, special: true }), A(8, 'New York', { lstrip: true, rstrip: true }), A(9, 'york city'),
  A(5, 'repo', { single_word: true }), A(10, '<x>', { normalized: false, lstrip: true, rstrip: true }), A(11, '  ', { normalized: false })];
const withAdded = (json, added) => JSON.stringify({ ...JSON.parse(json), added_tokens: added });
seed('added-wordpiece.bin', safetensors([['embeddings', 'F32', [12, 3], rows(12, 3)]]), withAdded(wordpiece, ADDED));
seed('added-unigram.bin', safetensors([['embeddings', 'F32', [14, 3], rows(14, 3)]]),
  withAdded(unigram, [A(0, '<unk>', { normalized: false, special: true }), ...ADDED.slice(1).map((t) => ({ ...t, id: t.id === 5 ? 8 : t.id }))]));
seed('added-bad-entry.bin', safetensors([['embeddings', 'F32', [12, 3], rows(12, 3)]]), withAdded(wordpiece, [A(8, 'New York'), { id: 9, content: 'x', lstrip: 'yes' }]));
