// sqlite-wasm.mjs — @sqlite.org/sqlite-wasm started the way a Worker has to
// start it, shared by bench/cold-start.mjs (Node) and worker-sqlite.mjs
// (workerd).
//
// A Worker may not compile WebAssembly at run time ("Wasm code generation
// disallowed by embedder"): its .wasm must be imported as a compiled
// WebAssembly.Module. sqlite-wasm needs two things for that:
//   - its Emscripten init pointed at the imported module (instantiateWasm);
//   - its jsFuncToWasm, which wraps a JS callback for the function table by
//     compiling a tiny module of its own (≈ 35 bytes, one per signature; 7
//     during init in 3.54.1). Those modules' bytes are the same on every run,
//     so Node records them (recordCompiles), cold-start.mjs embeds each as a
//     compiled module, and the Worker answers `new WebAssembly.Module(bytes)`
//     for exactly those bytes with the embedded module (usePrecompiled). Any
//     other bytes throw, naming the cause.

/** sqlite3InitModule(…) on an already compiled module: the `sqlite3` namespace. */
export function initSqlite(sqlite3InitModule, module) {
  return new Promise((resolve, reject) => {
    sqlite3InitModule({
      print: () => {},
      printErr: () => {},
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(module, imports).then((instance) => done(instance, module), reject);
        return {}; // Emscripten's contract: the exports arrive through done()
      },
    }).then(resolve, reject);
  });
}

/** The key of a module's bytes: lowercase hex. */
export function wasmKey(bytes) {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/**
 * Calls fn with `new WebAssembly.Module(bytes)` recorded: resolves to
 * { result, compiled: Map<wasmKey, Uint8Array> } (Node only).
 */
export async function recordCompiles(fn) {
  const compiled = new Map();
  const restore = replaceModule((bytes, Original) => {
    const copy = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength).slice();
    compiled.set(wasmKey(copy), copy);
    return new Original(copy);
  });
  try {
    return { result: await fn(), compiled };
  } finally {
    restore();
  }
}

/** From now on `new WebAssembly.Module(bytes)` answers the precompiled module of those bytes (workerd). */
export function usePrecompiled(precompiled) {
  replaceModule((bytes) => {
    const m = precompiled.get(wasmKey(bytes));
    if (m) return m;
    throw new Error(`sqlite-wasm compiled ${bytes.byteLength} bytes of wasm that the Node pass of bench/cold-start.mjs did not record, ` +
      `and a Worker may not compile wasm at run time: record that call path in Node too (${wasmKey(bytes).slice(0, 80)}…)`);
  });
}

// WebAssembly.Module replaced by make(bytes, Original) (called with `new`, a
// constructor returning an object gives that object); returns the undo.
function replaceModule(make) {
  const Original = WebAssembly.Module;
  function Module(bytes) {
    return make(bytes, Original);
  }
  Module.prototype = Original.prototype; // instanceof WebAssembly.Module still holds
  Object.setPrototypeOf(Module, Original); // and WebAssembly.Module.imports() & co. still work
  WebAssembly.Module = Module;
  return () => {
    WebAssembly.Module = Original;
  };
}
