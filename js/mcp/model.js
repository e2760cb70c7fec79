// model.js — reading a static-embedding model's files within their bounds
// (readModelFile: the one rule every JS host follows, js/cli.js included),
// and the gateway's model (config search.model): its two files read from the
// configured directory and loaded by toolsift, once per gateway. Every
// generation's index is embedded with it (catalog.js) and every live session
// embeds its queries with it (session.js); replays need it not.

import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

import { ToolsiftError } from '../toolsift.js';
import { GatewayConfigError } from './errors.js';

/**
 * The largest file of each kind, in bytes: the core's own bounds
 * (core/src/static_model.h). A safetensors file is its 8-byte length, a
 * header of at most 16 MiB and a matrix of at most 1 GiB; tokenizer.json at
 * most 256 MiB. docs/semantic.md, "Reading model files".
 */
export const MODEL_FILE_LIMITS = Object.freeze({
  safetensors: 8 + 16 * 2 ** 20 + 2 ** 30, // TSIFT_STATIC_MAX_FILE: 1,090,519,048
  tokenizer: 256 * 2 ** 20, // TSIFT_STATIC_MAX_TOKENIZER: 268,435,456
});
const WHAT = { safetensors: 'a safetensors file', tokenizer: 'a tokenizer.json file' };

function kindOf(s) {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'not a file';
}

// ToolsiftError 'io' or 'limit': "cannot read FILE: REASON" (cli/embed_cmd.c's
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
 * A model file's bytes, read whole within its bound — kind 'safetensors' or
 * 'tokenizer' (MODEL_FILE_LIMITS); the same rule as the native CLI's
 * read_model_file (cli/embed_cmd.c). The path is stat'ed first, so a FIFO
 * (whose open for reading would block), a device such as /dev/zero or a
 * directory is refused by its type, and a file over the bound by its size,
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

/** The StaticModel of config.model ({ dir }), or null without one. */
export function loadGatewayModel(toolsift, model) {
  if (!model) return null;
  const read = (name, kind) => {
    const file = path.join(model.dir, name);
    try {
      return readModelFile(file, kind);
    } catch (e) {
      throw new GatewayConfigError(`search.model: ${e.message}`);
    }
  };
  const st = read('model.safetensors', 'safetensors');
  const tok = read('tokenizer.json', 'tokenizer');
  try {
    return toolsift.loadStaticModel(st, tok);
  } catch (e) {
    throw new GatewayConfigError(`search.model: ${model.dir}: ${e.message}`);
  }
}
