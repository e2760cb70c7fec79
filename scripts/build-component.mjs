#!/usr/bin/env node
// build-component.mjs — the WebAssembly component (issue 10), after the
// wasm32-wasi build (scripts/build.sh calls it):
//
//   1. link wasm/component.c (the hand-written canonical-ABI glue) with the
//      wasm32-wasi core library build/wasm-wasi/libtoolsift_core.a, using the
//      compiler and sysroot that build was configured with (the library is
//      LTO bitcode: only the same clang can link it)
//        -> build/component/toolsift.core.wasm
//   2. check the core module: its only imports are the canonical resource
//      intrinsics ([export]toolsift:toolsift/engine@0.1.0 [resource-new]…),
//      it exports memory, cabi_realloc, _initialize and exactly the
//      functions of the TSIFT_CM_* lines of wasm/exports.def
//   3. embed wasm/toolsift.wit (passed as text to jco's componentEmbed) and
//      make the component with componentNew
//        -> build/component/toolsift.component.wasm
//   4. read the WIT back out of the component (componentWit) and check it
//      names the world's interface and has no imports; print the sizes
//      beside the plain module's (build/wasm/toolsift.wasm)
//
// Incremental: nothing is redone when the component is newer than its inputs.
//   node scripts/build-component.mjs [--force]
// Exit 1 with a message naming the step on any failure.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSize } from './gzip-size.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const at = (p) => path.join(ROOT, p);
const WIT = at('wasm/toolsift.wit');
const GLUE = at('wasm/component.c');
const TABLE = at('wasm/exports.def'); // the export table (its TSIFT_CM_* lines)
const LIB = at('build/wasm-wasi/libtoolsift_core.a');
const CACHE = at('build/wasm-wasi/CMakeCache.txt');
const OUT_DIR = at('build/component');
const CORE = path.join(OUT_DIR, 'toolsift.core.wasm');
const COMPONENT = path.join(OUT_DIR, 'toolsift.component.wasm');
const PLAIN = at('build/wasm/toolsift.wasm');
const IFACE = 'toolsift:toolsift/engine@0.1.0';
const WORLD = 'toolsift';

function fail(step, message) {
  console.error(`build-component: ${step}: ${message}`);
  process.exit(1);
}

const mtime = (f) => (existsSync(f) ? statSync(f).mtimeMs : -1);

// ---- 1. link the core module --------------------------------------------------

function cacheValue(text, key) {
  const m = new RegExp(`^${key}:[A-Z]+=(.*)$`, 'm').exec(text);
  return m ? m[1].trim() : '';
}

function linkCore() {
  if (!existsSync(LIB)) fail('link', `${path.relative(ROOT, LIB)} missing: build the wasm-wasi target first (scripts/build.sh)`);
  const cache = readFileSync(CACHE, 'utf8');
  const cc = cacheValue(cache, 'CMAKE_C_COMPILER') || 'clang-14';
  const sysroot = cacheValue(cache, 'CMAKE_SYSROOT');
  const args = [
    '--target=wasm32-wasi', ...(sysroot ? [`--sysroot=${sysroot}`] : []),
    '-std=c11', '-Oz', '-DNDEBUG', '-flto', '-ffp-contract=off', '-fvisibility=hidden',
    '-Wall', '-Wextra', '-Werror', '-Werror=implicit-function-declaration',
    `-I${at('core/include')}`,
    '-mexec-model=reactor', // no main; exports _initialize, which the component runs at start
    // --strip-debug, not --strip-all: wasm-opt needs the target_features
    // section (vector_rank.c uses SIMD), and drops the names itself
    '-Wl,--strip-debug', '-Wl,-z,stack-size=1048576',
    '-o', CORE, GLUE, LIB,
    // no -lc-printscan-long-double: the core brings its own printf/strtod
    // (see CMakeLists.txt); a stray libc printf shows as WASI imports below
  ];
  const r = spawnSync(cc, args, { encoding: 'utf8' });
  if (r.error) fail('link', `${cc}: ${r.error.message}`);
  if (r.status !== 0) fail('link', `${cc} exited ${r.status}:\n${r.stderr}`);
}

// ---- 2. check the core module ---------------------------------------------------

/** The core export names the WIT asks for, from the TSIFT_CM_* lines of
 * wasm/exports.def (BYTES and OWN_POST also have a cabi_post_ export). */
function expectedExports(table) {
  const names = new Set(['memory', 'cabi_realloc', '_initialize']);
  const src = table.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of src.matchAll(/^\s*TSIFT_CM_(BYTES|OWN_POST|OWN)\(\s*"([^"]+)"/gm)) {
    names.add(`${IFACE}#${m[2]}`);
    if (m[1] !== 'OWN') names.add(`cabi_post_${IFACE}#${m[2]}`);
  }
  return names;
}

function checkCore(bytes) {
  let mod;
  try {
    mod = new WebAssembly.Module(bytes);
  } catch (e) {
    fail('check', `toolsift.core.wasm is not a valid module: ${e.message}`);
  }
  const problems = [];
  for (const i of WebAssembly.Module.imports(mod)) {
    if (i.module !== `[export]${IFACE}` || !/^\[resource-new\](index|session)$/.test(i.name)) {
      problems.push(`unexpected import ${i.module}.${i.name} (only the resource intrinsics are allowed)`);
    }
  }
  const exported = new Set(WebAssembly.Module.exports(mod).map((e) => e.name));
  const expected = expectedExports(readFileSync(TABLE, 'utf8'));
  if (expected.size < 10) problems.push(`${path.relative(ROOT, TABLE)} lists no component export`);
  for (const name of expected) {
    if (!exported.has(name)) problems.push(`missing export ${name}`);
  }
  for (const name of exported) {
    if (!expected.has(name)) problems.push(`export ${name} is not in ${path.relative(ROOT, TABLE)}`);
  }
  if (problems.length) fail('check', problems.join('; '));
}

// ---- 3 and 4. the component -----------------------------------------------------

async function makeComponent(core) {
  let jco;
  try {
    jco = await import('@bytecodealliance/jco');
  } catch (e) {
    fail('jco', `cannot load @bytecodealliance/jco (npm ci installs the devDependency): ${e.message}`);
  }
  const witSource = readFileSync(WIT, 'utf8');
  let embedded;
  let component;
  try {
    embedded = await jco.componentEmbed({ binary: core, witSource, world: WORLD, stringEncoding: 'utf8' });
  } catch (e) {
    fail('embed', String(e?.message ?? e));
  }
  try {
    component = await jco.componentNew(embedded);
  } catch (e) {
    fail('component-new', String(e?.message ?? e));
  }
  let wit;
  try {
    wit = await jco.componentWit(component);
  } catch (e) {
    fail('wit', `the component's WIT cannot be read back: ${e?.message ?? e}`);
  }
  if (!wit.includes('export toolsift:toolsift/engine@0.1.0;')) fail('wit', `the component does not export engine:\n${wit}`);
  if (/^\s*import\s/m.test(wit)) fail('wit', `the component imports something:\n${wit}`);
  return component;
}

function sizeLine(file) {
  const b = readFileSync(file);
  const gz = gzipSize(b);
  return `${path.basename(file)}: ${b.length.toLocaleString('en-US')} bytes raw, ${gz.size.toLocaleString('en-US')} gzip (${gz.tool})`;
}

async function main() {
  const force = process.argv.includes('--force');
  mkdirSync(OUT_DIR, { recursive: true });
  const inputs = [WIT, GLUE, TABLE, LIB, fileURLToPath(import.meta.url)];
  const newest = Math.max(...inputs.map(mtime));
  if (!force && mtime(COMPONENT) > newest) {
    console.log(sizeLine(COMPONENT) + ' (up to date)');
    return;
  }
  linkCore();
  const core = readFileSync(CORE);
  checkCore(core);
  const component = await makeComponent(core);
  const tmp = `${COMPONENT}.tmp`;
  writeFileSync(tmp, component);
  renameSync(tmp, COMPONENT);
  console.log(sizeLine(COMPONENT));
  console.log(`  ${sizeLine(CORE)} (the core module inside it)`);
  if (existsSync(PLAIN)) console.log(`  ${sizeLine(PLAIN)} (the plain module, for comparison)`);
}

await main();
