// model-dir.js — the one rule every JS host (the wasm CLI, the gateway's
// search.model, the binding helper the SDK adapters take a model from) uses
// to turn a model's name or folder into its files, and to read them within
// their bounds. Node only (node:fs): the binding itself (toolsift.js) stays
// free of file access so it runs in browsers and workers. cli/model_load.c
// follows the same rule natively (docs/semantic.md, "Model folders").
//
// A name or a folder:
//   "glove"   the project's real model (scripts/model-glove.mjs, npm run
//             model): env TOOLSIFT_GLOVE_DIR, else build/models/glove in this
//             package; not built → io "model glove is not built: …".
//   DIR       DIR/model.safetensors + DIR/tokenizer.json (model2vec's layout);
//             or, when DIR has no model.safetensors but has modules.json and
//             0_StaticEmbedding/model.safetensors, the files of
//             DIR/0_StaticEmbedding (sentence-transformers' StaticEmbedding).
//   config.json beside model.safetensors is optional: its bytes, or null.

import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ToolsiftError } from './toolsift.js';

/**
 * The largest file of each kind, in bytes. safetensors and tokenizer are the
 * core's own bounds (core/src/model/static_model.h): an 8-byte length, a header of
 * at most 16 MiB and a matrix of at most 1 GiB; tokenizer.json at most 256
 * MiB. config.json (model2vec writes a few hundred bytes) at most 1 MiB, the
 * native CLI's CLI_MODEL_MAX_CONFIG. docs/semantic.md, "Reading model files".
 */
export const MODEL_FILE_LIMITS = Object.freeze({
  safetensors: 8 + 16 * 2 ** 20 + 2 ** 30, // TSIFT_STATIC_MAX_FILE: 1,090,519,048
  tokenizer: 256 * 2 ** 20, // TSIFT_STATIC_MAX_TOKENIZER: 268,435,456
  config: 2 ** 20, // CLI_MODEL_MAX_CONFIG (cli/cli.h): 1,048,576
});
const WHAT = { safetensors: 'a safetensors file', tokenizer: 'a tokenizer.json file', config: 'a config.json file' };

/** The name `--model glove` and search.model "glove" select. */
export const GLOVE = 'glove';
/** The sentence-transformers module folder that holds a StaticEmbedding's files. */
export const STATIC_EMBEDDING_DIR = '0_StaticEmbedding';
const NOT_BUILT = 'model glove is not built: run npm run model in the checkout';

/** Where "glove" points: env TOOLSIFT_GLOVE_DIR, else build/models/glove in this package (scripts/model-glove.mjs writes there). */
export function gloveDir() {
  const env = process.env.TOOLSIFT_GLOVE_DIR;
  return env ? path.resolve(env) : fileURLToPath(new URL('../build/models/glove', import.meta.url));
}

function kindOf(s) {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'not a file';
}

// ToolsiftError 'io' or 'limit': "cannot read FILE: REASON" (cli/model_load.c's
// words). An operating-system error keeps its code in .errno (ENOENT, …).
function fail(code, file, reason, errno) {
  const e = new ToolsiftError(code, `cannot read ${file}: ${reason}`, code === 'limit' ? 5 : -1);
  e.file = file;
  e.reason = reason;
  if (errno) e.errno = errno;
  return e;
}
const osError = (file, e) => fail('io', file, e.message, e.code);

function refuse(file, s, kind) {
  if (!s.isFile()) return fail('io', file, `not a regular file (${kindOf(s)})`);
  if (s.size > MODEL_FILE_LIMITS[kind]) {
    return fail('limit', file, `${s.size} bytes, over the ${MODEL_FILE_LIMITS[kind]}-byte limit of ${WHAT[kind]}`);
  }
  return null;
}

/**
 * A model file's bytes, read whole within its bound — kind 'safetensors',
 * 'tokenizer' or 'config' (MODEL_FILE_LIMITS); the same rule as the native
 * CLI's read_model_file (cli/model_load.c). The path is stat'ed first, so a
 * FIFO (whose open for reading would block), a device such as /dev/zero or
 * a directory is refused by its type, and a file over the bound by its size,
 * before it is opened; then it is opened without blocking, checked again on
 * the descriptor, and read to that size only (a byte more: it grew, refused).
 * Throws a ToolsiftError: code 'io' (the path cannot be read or is not a
 * regular file) or 'limit' (too large), message "cannot read FILE: REASON".
 */
export function readModelFile(file, kind) {
  if (!Object.hasOwn(MODEL_FILE_LIMITS, kind)) throw new TypeError(`readModelFile: unknown kind ${kind}`);
  let s;
  try {
    s = statSync(file);
  } catch (e) {
    throw osError(file, e);
  }
  const refused = refuse(file, s, kind);
  if (refused) throw refused;
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw osError(file, e);
  }
  try {
    const again = fstatSync(fd);
    const changed = refuse(file, again, kind);
    if (changed) throw changed;
    const buf = Buffer.allocUnsafe(again.size + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > again.size) throw fail('io', file, 'it grew while it was read');
    }
    return buf.subarray(0, n);
  } catch (e) {
    if (e instanceof ToolsiftError) throw e;
    throw osError(file, e);
  } finally {
    closeSync(fd);
  }
}

// stat succeeds (any type: what it is, readModelFile says): symbolic links
// followed, as the Hugging Face cache links files into blobs/.
const exists = (p) => {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * The files of a model, by name ("glove") or folder, without reading them:
 * { dir, name, layout, safetensors, tokenizer, config } — dir the folder
 * given (or glove's), name "glove" or null, layout 'model2vec' or
 * 'sentence-transformers', the three paths (config.json's whether or not it
 * exists). Throws ToolsiftError 'io' for glove not built, 'arg' for an
 * empty or non-string value. A folder that has neither layout resolves to
 * the model2vec paths, so reading names the missing file.
 */
export function resolveModelDir(nameOrDir) {
  if (typeof nameOrDir !== 'string' || nameOrDir === '') {
    throw new ToolsiftError('arg', 'model: expected "glove" or the folder of a static model (model.safetensors and tokenizer.json)', 1);
  }
  const name = nameOrDir === GLOVE ? GLOVE : null;
  const dir = name ? gloveDir() : nameOrDir;
  let layout = 'model2vec', files = dir;
  const sub = path.join(dir, STATIC_EMBEDDING_DIR);
  if (!exists(path.join(dir, 'model.safetensors')) && exists(path.join(dir, 'modules.json')) && exists(path.join(sub, 'model.safetensors'))) {
    layout = 'sentence-transformers';
    files = sub;
  }
  const r = { dir, name, layout, safetensors: path.join(files, 'model.safetensors'), tokenizer: path.join(files, 'tokenizer.json'),
    config: path.join(files, 'config.json') };
  if (name && !(exists(r.safetensors) && exists(r.tokenizer))) throw new ToolsiftError('io', NOT_BUILT, -1);
  return r;
}

/**
 * The files at these paths read within their bounds, in this order (the
 * native CLI's): { safetensors, tokenizer, config } — config null when its
 * path is null or nothing is there. The CLIs' --safetensors / --tokenizer
 * replace a folder's paths here.
 */
export function readModelFiles({ safetensors, tokenizer, config = null }) {
  return {
    safetensors: readModelFile(safetensors, 'safetensors'),
    tokenizer: readModelFile(tokenizer, 'tokenizer'),
    config: config !== null && exists(config) ? readModelFile(config, 'config') : null,
  };
}

/**
 * resolveModelDir, then its files read (readModelFiles): { ...resolved,
 * bytes: { safetensors, tokenizer, config } }. config.json carries the
 * calibrated fusion parameters a model's config may hold (the core reads
 * them: loadStaticModel's third argument).
 */
export function readModelDir(nameOrDir) {
  const r = resolveModelDir(nameOrDir);
  return { ...r, bytes: readModelFiles(r) };
}

/**
 * A StaticModel loaded into `toolsift` (what load() returned) from a name or
 * folder: the model the SDK adapters take as options.model, an index's
 * createIndex(catalog, { model }) and a session's setEmbedder. The caller
 * frees it. Throws ToolsiftError: 'io'/'limit' from the files, the core's
 * 'model'/'json'/'limit' from their contents.
 */
export function loadStaticModelDir(toolsift, nameOrDir) {
  const { bytes, layout } = readModelDir(nameOrDir);
  return toolsift.loadStaticModel(bytes.safetensors, bytes.tokenizer, bytes.config,
    { sentenceTransformers: layout === 'sentence-transformers' });
}
