#!/usr/bin/env node
// build.mjs — the edge worker's build step: snapshot the catalog and copy the
// package's binding (toolsift.js and its binding/ folder) and module next to
// it, into dist/ (what config.capnp embeds; with wrangler, the same files are
// the bundle's modules).
//   node build.mjs [--catalog CATALOG.json] [--out DIR]
// Default catalog: the toolsift repository's corpus/catalog.json.

import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { load } from 'toolsift';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
};
const catalog = arg('--catalog', path.join(HERE, '../../corpus/catalog.json'));
const out = path.resolve(arg('--out', path.join(HERE, 'dist')));

// The installed package's files (a source checkout has its module in build/).
const binding = fileURLToPath(import.meta.resolve('toolsift'));
// The serving module: what a Worker needs (search, sessions, snapshots)
// without evaluation and learning, about 21 KB gzip smaller.
const wasm = [
  fileURLToPath(import.meta.resolve('toolsift/toolsift-serving.wasm')),
  path.join(path.dirname(binding), '../build/wasm/toolsift-serving.wasm'),
].find((f) => existsSync(f));
if (!wasm) throw new Error('toolsift-serving.wasm not found: install the toolsift package (or npm run build)');

const toolsift = await load(readFileSync(wasm));
const index = toolsift.createIndex(readFileSync(catalog));
const snapshot = index.snapshot();
const { tools, fingerprint } = index.info();
index.free();

mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'index.tsi'), snapshot);
copyFileSync(binding, path.join(out, 'toolsift.js'));
cpSync(path.join(path.dirname(binding), 'binding'), path.join(out, 'binding'), { recursive: true }); // its files, one per class
copyFileSync(wasm, path.join(out, 'toolsift-serving.wasm'));
console.log(`edge-worker: ${out}/index.tsi (${snapshot.length} bytes, ${tools} tools, fingerprint ${fingerprint.slice(0, 12)}…)`);
