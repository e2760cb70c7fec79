// load.js — load(): find, compile and instantiate the module (a Module,
// bytes, a Response, a URL or path, or the package's default file) and
// wrap it in a Toolsift. Works unchanged in Node, Deno, Bun, browsers and
// Cloudflare workerd (which must be handed an already compiled
// WebAssembly.Module).

import { ToolsiftError } from './error.js';
import { Toolsift } from './module.js';

const isNode = () => typeof globalThis.process?.versions?.node === 'string';

// Resolved lazily: a static `import 'node:fs'` would break browsers and
// workerd, and a variable specifier keeps bundlers from trying to resolve it.
async function nodeFs() {
  const spec = 'node:fs/promises';
  return import(spec);
}

// Where load() looks without a source: the packaged module (dist/, copied
// there by `npm pack`'s prepack script; bundlers see this literal
// `new URL(…, import.meta.url)` and emit the file), then the build output of
// a source checkout (a variable, so bundlers leave it alone).
const BUILD_WASM = '../../build/wasm/toolsift.wasm';

// env TOOLSIFT_WASM in Node and Bun; in Deno only when env access is already
// granted (reading it otherwise would prompt on a terminal or throw).
function envWasm() {
  try {
    const deno = globalThis.Deno;
    if (deno) {
      const perm = deno.permissions?.querySync?.({ name: 'env', variable: 'TOOLSIFT_WASM' });
      return perm?.state === 'granted' ? deno.env.get('TOOLSIFT_WASM') : undefined;
    }
    return isNode() ? globalThis.process.env?.TOOLSIFT_WASM : undefined;
  } catch {
    return undefined; /* no env access: use the default */
  }
}

function defaultSources() {
  const env = envWasm();
  if (env) return [env];
  return [new URL('../../dist/toolsift.wasm', import.meta.url), new URL(BUILD_WASM, import.meta.url)];
}

// The first default location that loads; all their errors when none does.
async function compileDefault() {
  const sources = defaultSources();
  if (sources.length === 1) return compileFrom(sources[0]);
  const errors = [];
  for (const source of sources) {
    try {
      return await compileFrom(source);
    } catch (e) {
      errors.push(`${source}: ${e?.message ?? e}`);
    }
  }
  throw new Error(`no toolsift.wasm found (${errors.join('; ')})`);
}

// A string source is a URL when it carries a scheme ("file:", "https:", …);
// in Node a plain string is a file path (so TOOLSIFT_WASM=build/x.wasm works),
// elsewhere it is resolved against the page's location.
function toUrlOrPath(source) {
  if (source instanceof URL) return source;
  if (/^[A-Za-z][A-Za-z0-9+.-]+:/.test(source)) return new URL(source);
  if (isNode()) return { path: source };
  const base = globalThis.location?.href;
  return base ? new URL(source, base) : new URL(source);
}

async function compileFrom(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.compile(source);
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    return WebAssembly.compile(await source.arrayBuffer());
  }
  if (typeof source === 'string' || source instanceof URL) {
    const where = toUrlOrPath(source);
    if (!(where instanceof URL) || (where.protocol === 'file:' && isNode())) {
      const fs = await nodeFs();
      const bytes = await fs.readFile(where instanceof URL ? where : where.path);
      return WebAssembly.compile(bytes);
    }
    const res = await fetch(where);
    if (!res.ok) throw new Error(`HTTP ${res.status} for ${where.href}`);
    // compileStreaming needs the application/wasm content type; bytes always work.
    return WebAssembly.compile(await res.arrayBuffer());
  }
  throw new TypeError('wasm source must be a WebAssembly.Module, bytes, a URL or a string');
}

// The clang wasm32-wasi build imports nothing. The Emscripten standalone
// build imports a few `env` functions (emscripten_notify_memory_growth):
// they are notifications, so no-ops are correct. Any other function import
// gets a stub that reports ENOSYS (52) — nothing in the core does I/O, so a
// stray WASI import is dead code. Non-function imports cannot be faked.
function importsFor(module) {
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') {
      throw new ToolsiftError(
        'load',
        `unsupported wasm import ${imp.module}.${imp.name} (${imp.kind})`,
        -1,
      );
    }
    const ns = (imports[imp.module] ??= {});
    ns[imp.name] = imp.module === 'env' ? () => {} : () => 52;
  }
  return imports;
}

/**
 * Load the toolsift module. `source` may be a WebAssembly.Module, an
 * ArrayBuffer/typed array of bytes, a Response, a URL or URL string, a file
 * path (Node), or undefined for the package's dist/toolsift.wasm (then, in a
 * source checkout, build/wasm/toolsift.wasm; env TOOLSIFT_WASM overrides
 * both in Node). The serving module (dist/toolsift-serving.wasm: no
 * evaluation, calibration or learning) loads the same way from its source.
 */
export async function load(source) {
  const module = await (source === undefined ? compileDefault() : compileFrom(source));
  const instance = await WebAssembly.instantiate(module, importsFor(module));
  const ex = instance.exports;
  // A WASI/Emscripten reactor runs its constructors in _initialize, once.
  if (typeof ex._initialize === 'function') ex._initialize();
  else if (typeof ex.__wasm_call_ctors === 'function') ex.__wasm_call_ctors();
  return new Toolsift(ex);
}

