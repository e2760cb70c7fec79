#!/usr/bin/env node
// pack-wasm.mjs — npm's prepack/postpack hooks for the packaged wasm module.
//   node scripts/pack-wasm.mjs copy    build/wasm/toolsift.wasm -> dist/toolsift.wasm,
//                                      build/wasm/toolsift-serving.wasm -> dist/ too
//   node scripts/pack-wasm.mjs clean   remove dist/ again (postpack), so a
//                                      source checkout never loads a stale copy
// The build output (build/) is not packaged; js/toolsift.js's load() looks
// for dist/toolsift.wasm first, then build/wasm/toolsift.wasm.
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULES = ['toolsift.wasm', 'toolsift-serving.wasm'].map((f) => path.join(ROOT, 'build/wasm', f));
const DIST = path.join(ROOT, 'dist');

const cmd = process.argv[2];
if (cmd === 'copy') {
  const missing = MODULES.filter((m) => !existsSync(m));
  if (missing.length) {
    console.error(`pack-wasm: ${missing.map((m) => path.relative(ROOT, m)).join(', ')} missing: run \`npm run build\` first`);
    process.exit(1);
  }
  mkdirSync(DIST, { recursive: true });
  for (const m of MODULES) {
    copyFileSync(m, path.join(DIST, path.basename(m)));
    console.error(`pack-wasm: dist/${path.basename(m)} (${statSync(m).size} bytes)`);
  }
} else if (cmd === 'clean') {
  rmSync(DIST, { recursive: true, force: true });
} else {
  console.error('usage: pack-wasm.mjs copy|clean');
  process.exit(2);
}
