// wasm-exports.mjs — the module's export list, read from its one table,
// wasm/exports.def (every TSIFT_WASM_* line's first argument, prefixed
// "tsift_wasm_"). Used by scripts/check-wasm.mjs after every link and by
// tests/js/load.test.mjs.
import { readFileSync } from 'node:fs';

export const EXPORTS_DEF = new URL('../wasm/exports.def', import.meta.url);

/** The export names the table lists, in its order, each with its shape. */
export function wasmExports(file = EXPORTS_DEF) {
  const src = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const list = [];
  for (const m of src.matchAll(/^\s*TSIFT_WASM_(BYTES|UNIT|HANDLE|OWN)\(\s*([A-Za-z_]\w*)\s*,/gm)) {
    list.push({ name: `tsift_wasm_${m[2]}`, shape: m[1].toLowerCase() });
  }
  return list;
}
