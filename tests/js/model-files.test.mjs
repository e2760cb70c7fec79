// Model files bounded before they are read (issue 34, item 4): the one JS
// rule (js/model-dir.js readModelFile) that the wasm CLI and the gateway's
// search.model share, the native CLI's (cli/model_load.c) giving the same
// errors, and the core's safetensors layout (no overlap, no gap, no trailing
// bytes) through the module named by env TOOLSIFT_WASM. Large files are
// sparse (truncate): nothing here allocates more than a few KB for them, and
// the spied fs.openSync shows a refused file is never opened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs, { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load, ToolsiftError } from '../../js/toolsift.js';
import { GatewayConfigError } from '../../js/mcp/errors.js';
import { loadGatewayModel } from '../../js/mcp/model.js';
import { MODEL_FILE_LIMITS, readModelFile } from '../../js/model-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const NATIVE = path.join(ROOT, 'build/native/toolsift');
const CLI = path.join(ROOT, 'js/cli.js');

const ST_MAX = 8 + 16 * 2 ** 20 + 2 ** 30; // core/src/model/static_model.h TSIFT_STATIC_MAX_FILE
const TOK_MAX = 256 * 2 ** 20; // TSIFT_STATIC_MAX_TOKENIZER

let dir, ts;

// A tiny model: an 8 × 4 F32 "embeddings" matrix (128 bytes) and a WordPiece
// tokenizer of 8 tokens; `tensors` replaces the header's entries and `extra`
// bytes follow the data. Returns the folder.
function model(name, { tensors, data = 128, extra = 0 } = {}) {
  const d = path.join(dir, name);
  mkdirSync(d, { recursive: true });
  const header = Buffer.from(JSON.stringify(tensors ?? { embeddings: { dtype: 'F32', shape: [8, 4], data_offsets: [0, 128] } }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  const bytes = Buffer.alloc(data + extra);
  for (let i = 0; i < data / 4; i++) bytes.writeFloatLE((i % 7) - 2.5, i * 4);
  writeFileSync(path.join(d, 'model.safetensors'), Buffer.concat([len, header, bytes]));
  const vocab = { '[UNK]': 0, hello: 1, world: 2, a: 3, b: 4, c: 5, d: 6, e: 7 };
  writeFileSync(path.join(d, 'tokenizer.json'), JSON.stringify({ normalizer: null, pre_tokenizer: { type: 'BertPreTokenizer' },
    model: { type: 'WordPiece', unk_token: '[UNK]', vocab } }));
  return d;
}

// The tiny model with its safetensors file made `size` bytes long: the real
// 203 bytes, then a hole (no disk blocks, no memory).
function sparse(name, size, file = 'model.safetensors') {
  const d = model(name);
  truncateSync(path.join(d, file), size);
  return d;
}

function fifo(name) {
  const d = model(name);
  rmSync(path.join(d, 'model.safetensors'));
  const r = spawnSync('mkfifo', [path.join(d, 'model.safetensors')]);
  return r.status === 0 ? d : null;
}

// fs.openSync as js/mcp/model.js sees it, recording the paths it opens.
function spyOpen(fn) {
  const opened = [];
  const real = fs.openSync;
  fs.openSync = (file, ...rest) => {
    opened.push(String(file));
    return real(file, ...rest);
  };
  syncBuiltinESMExports();
  try {
    return { result: fn(), opened };
  } catch (error) {
    return { error, opened };
  } finally {
    fs.openSync = real;
    syncBuiltinESMExports();
  }
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'toolsift-model-files-'));
  ts = await load(readFileSync(WASM));
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('the limits are the core\'s: 8 + 16 MiB + 1 GiB, and 256 MiB (config.json 1 MiB, the CLI\'s)', () => {
  assert.deepEqual({ ...MODEL_FILE_LIMITS }, { safetensors: ST_MAX, tokenizer: TOK_MAX, config: 2 ** 20 });
  assert.equal(ST_MAX, 1090519048);
});

test('readModelFile: a regular file whole; others refused by type or size before they are opened', () => {
  const ok = model('ok');
  const st = path.join(ok, 'model.safetensors');
  assert.deepEqual(readModelFile(st, 'safetensors'), readFileSync(st));
  const refused = [
    [path.join(sparse('over', ST_MAX + 1), 'model.safetensors'), 'safetensors', 'limit',
      `${ST_MAX + 1} bytes, over the ${ST_MAX}-byte limit of a safetensors file`],
    [path.join(sparse('issue', 1.2e9), 'model.safetensors'), 'safetensors', 'limit',
      `1200000000 bytes, over the ${ST_MAX}-byte limit of a safetensors file`],
    [path.join(sparse('tok-over', TOK_MAX + 1, 'tokenizer.json'), 'tokenizer.json'), 'tokenizer', 'limit',
      `${TOK_MAX + 1} bytes, over the ${TOK_MAX}-byte limit of a tokenizer.json file`],
    ['/dev/zero', 'safetensors', 'io', 'not a regular file (a character device)'],
    [dir, 'tokenizer', 'io', 'not a regular file (a directory)'],
    [path.join(dir, 'none', 'model.safetensors'), 'safetensors', 'io', /ENOENT/],
  ];
  const f = fifo('fifo');
  if (f) refused.push([path.join(f, 'model.safetensors'), 'safetensors', 'io', 'not a regular file (a FIFO)']);
  for (const [file, kind, code, reason] of refused) {
    const { error, opened } = spyOpen(() => readModelFile(file, kind));
    assert.ok(error instanceof ToolsiftError, `${file}: ${error}`);
    assert.equal(error.code, code, file);
    assert.equal(error.file, file);
    if (typeof reason === 'string') assert.equal(error.message, `cannot read ${file}: ${reason}`);
    else assert.match(error.message, reason);
    assert.deepEqual(opened, [], `${file} was not opened`);
  }
  // exactly at the bound: past the size check, opened (then the spy stops it before a byte is read)
  const at = path.join(sparse('at', ST_MAX), 'model.safetensors');
  const real = fs.openSync;
  fs.openSync = () => {
    throw Object.assign(new Error('stopped by the test'), { code: 'ETEST' });
  };
  syncBuiltinESMExports();
  try {
    assert.throws(() => readModelFile(at, 'safetensors'), (e) => e.code === 'io' && e.errno === 'ETEST');
  } finally {
    fs.openSync = real;
    syncBuiltinESMExports();
  }
  assert.throws(() => readModelFile(st, 'weights'), TypeError);
});

test('the core refuses what the reference safetensors library refuses: overlap, gaps, trailing bytes', () => {
  const load = (d) => ts.loadStaticModel(readFileSync(path.join(d, 'model.safetensors')), readFileSync(path.join(d, 'tokenizer.json')));
  const E = (begin, end) => ({ dtype: 'F32', shape: [8, 4], data_offsets: [begin, end] });
  const cases = [
    [{ extra: 1000 }, 'safetensors: data bytes 128..1128 are in no tensor (1000 bytes after the last, "embeddings")'],
    [{ tensors: { embeddings: E(0, 128), x: { dtype: 'I8', shape: [8], data_offsets: [120, 128] } } },
      'safetensors: tensors "embeddings" (bytes 0..128) and "x" (bytes 120..128) overlap'],
    [{ tensors: { embeddings: E(8, 136) }, data: 136 }, 'safetensors: data bytes 0..8 are in no tensor (the first, "embeddings", begins at 8)'],
    [{ tensors: { a: { dtype: 'I8', shape: [4], data_offsets: [0, 4] }, embeddings: E(8, 136) }, data: 136 },
      'safetensors: data bytes 4..8 are in no tensor (between "a" and "embeddings")'],
  ];
  cases.forEach(([opts, message], i) => {
    assert.throws(() => load(model(`layout-${i}`, opts)), (e) => e instanceof ToolsiftError && e.code === 'model' && e.message === message);
  });
  // the header's order is not the data's: fine
  const m = load(model('layout-order', { tensors: { b: { dtype: 'I8', shape: [4], data_offsets: [128, 132] }, embeddings: E(0, 128) }, data: 132 }));
  assert.equal(m.dim, 4);
  m.free();
});

test('the gateway\'s search.model reads through the same rule', () => {
  const ok = model('gw-ok');
  const m = loadGatewayModel(ts, { dir: ok });
  const direct = ts.loadStaticModel(readFileSync(path.join(ok, 'model.safetensors')), readFileSync(path.join(ok, 'tokenizer.json'), 'utf8'));
  assert.equal(m.id, direct.id, 'the same files, the same id');
  m.free();
  direct.free();
  // [folder, message, the files that must not have been opened]
  const refused = [
    [sparse('gw-over', ST_MAX + 1), /^search\.model: cannot read .*gw-over\/model\.safetensors: 1090519049 bytes, over the 1090519048-byte limit of a safetensors file$/,
      ['model.safetensors', 'tokenizer.json']],
    [sparse('gw-tok', TOK_MAX + 1, 'tokenizer.json'), /^search\.model: cannot read .*gw-tok\/tokenizer\.json: 268435457 bytes, over the 268435456-byte limit of a tokenizer\.json file$/,
      ['tokenizer.json']],
    [model('gw-trailing', { extra: 64 }), /^search\.model: .*gw-trailing: safetensors: data bytes 128\.\.192 are in no tensor/, []],
    [path.join(dir, 'gw-none'), /^search\.model: cannot read .*gw-none\/model\.safetensors: ENOENT/, []],
  ];
  const f = fifo('gw-fifo');
  if (f) refused.push([f, /^search\.model: cannot read .*gw-fifo\/model\.safetensors: not a regular file \(a FIFO\)$/, ['model.safetensors']]);
  for (const [d, re, unopened] of refused) {
    const { error, opened } = spyOpen(() => loadGatewayModel(ts, { dir: d }));
    assert.ok(error instanceof GatewayConfigError, `${d}: ${error}`);
    assert.match(error.message, re);
    for (const name of unopened) assert.ok(!opened.includes(path.join(d, name)), `${d}/${name} was not opened`);
  }
});

// Both CLIs: the same status and stderr, each ending by itself (a FIFO that
// nobody writes to would block an open for reading).
function both(args) {
  const run = (cmd, a) => {
    const r = spawnSync(cmd, a, { encoding: 'utf8', cwd: ROOT, timeout: 120_000, env: { ...process.env, TOOLSIFT_WASM: WASM } });
    assert.equal(r.signal, null, `${cmd} ${a.join(' ')} ended by itself`);
    return { status: r.status, stderr: r.stderr, stdout: r.stdout };
  };
  const wasm = run(process.execPath, [CLI, ...args]);
  if (existsSync(NATIVE)) assert.deepEqual(run(NATIVE, args), wasm, `native and wasm: ${args.join(' ')}`);
  return wasm;
}

test('both CLIs: /dev/zero, a FIFO, a directory, sparse files over the bounds are typed errors naming the file', () => {
  const tok = path.join(model('cli-ok'), 'tokenizer.json');
  const over = path.join(sparse('cli-over', 1.2e9), 'model.safetensors');
  const cases = [
    [['embed', '--safetensors', '/dev/zero', '--tokenizer', tok, 'hello'], 'toolsift: io: cannot read /dev/zero: not a regular file (a character device)\n'],
    [['embed', '--safetensors', over, '--tokenizer', tok, 'hello'],
      `toolsift: limit: cannot read ${over}: 1200000000 bytes, over the 1090519048-byte limit of a safetensors file\n`],
    [['embed', '--safetensors', path.join(dir, 'cli-ok', 'model.safetensors'), '--tokenizer', dir, 'hello'],
      `toolsift: io: cannot read ${dir}: not a regular file (a directory)\n`],
    [['embed', '--model', sparse('cli-tok', TOK_MAX + 1, 'tokenizer.json'), 'hello'],
      `toolsift: limit: cannot read ${dir}/cli-tok/tokenizer.json: 268435457 bytes, over the 268435456-byte limit of a tokenizer.json file\n`],
    [['embed', '--model', model('cli-trailing', { extra: 4 }), 'hello'],
      'toolsift: model: safetensors: data bytes 128..132 are in no tensor (4 bytes after the last, "embeddings")\n'],
  ];
  const f = fifo('cli-fifo');
  if (f) cases.push([['embed', '--model', f, 'hello'], `toolsift: io: cannot read ${f}/model.safetensors: not a regular file (a FIFO)\n`]);
  for (const [args, stderr] of cases) {
    const r = both(args);
    assert.equal(r.status, 1, args.join(' '));
    assert.equal(r.stderr, stderr);
    assert.equal(r.stdout, '');
  }
  const ok = both(['embed', '--model', path.join(dir, 'cli-ok'), 'hello']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).pooled, 1);
});
