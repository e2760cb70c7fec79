#!/usr/bin/env node
// check-wasm.mjs — gate a freshly linked wasm module (run by the build).
//
// Fails (exit 1) unless the module
//   * imports nothing beyond the --allow-import=module.name entries given,
//   * exports its memory and exactly the tsift_wasm_* functions of the
//     export table (when --abi=wasm/exports.def is given; read by
//     scripts/wasm-exports.mjs),
//   * instantiates with a minimal import object (allowed imports as no-ops)
//     and, if it exports _initialize, survives calling it.
// Prints one line per module: "NAME: N bytes raw, N gzip (...)" plus its imports
// (gzip sizes: scripts/gzip-size.mjs).
//
//   node scripts/check-wasm.mjs FILE.wasm [--allow-import=env.x]... [--abi=wasm/exports.def]
//        [--reject-on-failure]   rename a failing FILE to FILE.rejected so the
//                                next build relinks instead of trusting it
//        [--max-gzip=BYTES]      fail when the module is larger than BYTES by
//                                the gzip tool (`gzip -9`, the measure the size
//                                cap is stated in: docs/performance.md)
//        [--serving]             the serving module: the export table
//                                without its full-module-only lines
//        [--sizes-only]          just print the size line
import { readFileSync, renameSync, existsSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSize, nodeZlibSize } from './gzip-size.mjs';
import { wasmExports } from './wasm-exports.mjs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const opt = (name) => args.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const flag = (name) => args.includes(`--${name}`);
if (!file) {
  console.error('usage: check-wasm.mjs FILE.wasm [--allow-import=mod.name]... [--abi=exports.def]');
  process.exit(2);
}

const fmt = (n) => n.toLocaleString('en-US');
const bytes = readFileSync(file);
const gz = gzipSize(bytes);
const name = basename(file);
const nodeGz = nodeZlibSize(bytes);
console.log(`${name}: ${fmt(bytes.length)} bytes raw, ${fmt(gz.size)} gzip (${gz.tool}; Node's zlib ${fmt(nodeGz)})`);
if (flag('sizes-only')) process.exit(0);

const problems = [];
// The size cap (the product promise: the serving module <= 150,000 B gzip,
// the full one 25,000 B more: issue 37; docs/performance.md, "The serving
// module"). Judged by
// the gzip tool; Node's zlib compresses ~5 % worse and is printed beside it.
for (const max of opt('max-gzip')) {
  if (gz.size > Number(max)) {
    problems.push(
      `${fmt(gz.size)} B by ${gz.tool} is over the ${fmt(Number(max))} B cap ` +
        `(${fmt(bytes.length)} B raw; Node's zlib ${fmt(nodeGz)} B)`,
    );
  }
}
let mod;
try {
  mod = new WebAssembly.Module(bytes);
} catch (e) {
  problems.push(`not a valid module: ${e.message}`);
}

if (mod) {
  const allowed = new Set(opt('allow-import'));
  const imports = WebAssembly.Module.imports(mod);
  const exports = WebAssembly.Module.exports(mod);
  const importNames = imports.map((i) => `${i.module}.${i.name}`);
  console.log(`  imports: ${importNames.length ? importNames.join(', ') : 'none'}`);
  for (const i of importNames) if (!allowed.has(i)) problems.push(`unexpected import ${i}`);

  const exported = new Map(exports.map((e) => [e.name, e.kind]));
  if (exported.get('memory') !== 'memory') problems.push('memory is not exported as "memory"');
  for (const abi of opt('abi')) {
    if (!existsSync(abi)) {
      problems.push(`export table ${abi} not found`);
      continue;
    }
    const wanted = new Set(wasmExports(abi, { serving: flag('serving') }).map((e) => e.name));
    if (!wanted.size) problems.push(`export table ${abi} lists no export`);
    for (const w of wanted) {
      if (exported.get(w) !== 'function') problems.push(`ABI function ${w} is not exported`);
    }
    for (const [n, kind] of exported) {
      if (n.startsWith('tsift_wasm_') && !wanted.has(n)) problems.push(`${kind} ${n} is exported but not in ${abi}`);
    }
  }
  const fns = exports.filter((e) => e.kind === 'function').map((e) => e.name);
  console.log(`  exports: memory, ${fns.join(', ')}`);

  if (!problems.length) {
    const importObject = {};
    for (const i of imports) {
      (importObject[i.module] ??= {})[i.name] = () => {};
    }
    try {
      const inst = new WebAssembly.Instance(mod, importObject);
      if (typeof inst.exports._initialize === 'function') inst.exports._initialize();
    } catch (e) {
      problems.push(`does not instantiate with a minimal import object: ${e.message}`);
    }
  }
}

if (problems.length) {
  for (const p of problems) console.error(`check-wasm: ${name}: ${p}`);
  if (flag('reject-on-failure')) {
    renameSync(file, `${file}.rejected`);
    console.error(`check-wasm: moved ${file} to ${file}.rejected`);
  }
  process.exit(1);
}
// A good module supersedes any earlier rejected one.
rmSync(`${file}.rejected`, { force: true });
