// wasm-exports.mjs — the module's export list, read from its one table,
// wasm/exports.def (every TSIFT_WASM_* line's first argument, prefixed
// "tsift_wasm_"). Used by scripts/check-wasm.mjs after every link and by
// tests/js/load.test.mjs.
//
// Lines between `#ifndef TSIFT_WASM_SERVING` and its `#endif` are the full
// module's only (evaluation, calibration, learning): the serving module
// (build/wasm/toolsift-serving.wasm) is linked without them. Those two
// directive lines are the only preprocessor lines the table may hold.
import { readFileSync } from 'node:fs';

export const EXPORTS_DEF = new URL('../wasm/exports.def', import.meta.url);

/**
 * The export names the table lists, in its order, each with its shape and
 * `fullOnly` (left out of the serving module). With `{ serving: true }`,
 * only the serving module's.
 */
export function wasmExports(file = EXPORTS_DEF, { serving = false } = {}) {
  const src = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const list = [];
  let fullOnly = false;
  for (const [i, line] of src.split('\n').entries()) {
    const directive = line.match(/^\s*#\s*(\w+)\s*(\w*)/);
    if (directive) {
      const [, what, name] = directive;
      if (what === 'ifndef' && name === 'TSIFT_WASM_SERVING' && !fullOnly) fullOnly = true;
      else if (what === 'endif' && fullOnly) fullOnly = false;
      else throw new Error(`${file}: line ${i + 1}: only #ifndef TSIFT_WASM_SERVING … #endif may appear, unnested`);
      continue;
    }
    const m = line.match(/^\s*TSIFT_WASM_(BYTES|UNIT|HANDLE|OWN)\(\s*([A-Za-z_]\w*)\s*,/);
    if (m && !(serving && fullOnly)) list.push({ name: `tsift_wasm_${m[2]}`, shape: m[1].toLowerCase(), fullOnly });
  }
  if (fullOnly) throw new Error(`${file}: #ifndef TSIFT_WASM_SERVING without its #endif`);
  return list;
}
