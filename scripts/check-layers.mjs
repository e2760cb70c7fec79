#!/usr/bin/env node
// check-layers.mjs — the layers of the core, kept true (docs/architecture.md):
//   1. includes: a core/src file includes headers of its own folder and of
//      the folders below it, by their folder path ("index/index.h"), never
//      one above (LAYERS, lowest first);
//   2. calls: the same direction at link level, and no two files (core or
//      native CLI, named cli/<file>) that call each other in a circle. The
//      call graph comes from the native objects' symbols (`nm`: what each
//      object defines and what it needs), so it is what the linker sees;
//   3. length: no function past 120 lines without a comment that says why;
//   4. the map: docs/architecture.md names every core file and every wasm
//      export (wasm/exports.def), so the map cannot drift from the code.
// It prints the depth of the include graph, file by file and folder by folder.
//
//   node scripts/check-layers.mjs [build/native]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { wasmExports } from './wasm-exports.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const BUILD = path.resolve(ROOT, process.argv[2] ?? 'build/native');
const CORE = path.join(ROOT, 'core/src');
// The folders of core/src, lowest first: each may include and call only
// itself and those before it (docs/architecture.md says what each is for).
const LAYERS = ['base', 'json', 'text', 'catalog', 'index', 'model', 'rank', 'session', 'learn', 'eval'];
const OBJ_DIR = path.join(BUILD, 'CMakeFiles/toolsift_core.dir/core/src');
// The CLI's objects, one graph with the core's: the core never calls the
// CLI, so a circle is within one of them. Its files are keyed cli/<file>.
const CLI_OBJ_DIR = path.join(BUILD, 'CMakeFiles/toolsift.dir/cli');
const MAX_LINES = 120; // a longer function needs a comment containing "long:" before it

let failed = false;
const fail = (msg) => {
  console.error(`check-layers: ${msg}`);
  failed = true;
};

for (const dir of [OBJ_DIR, CLI_OBJ_DIR])
  if (!existsSync(dir)) {
    console.error(`check-layers: ${dir} not found (build native first)`);
    process.exit(1);
  }

// The sources: core/src/<folder>/<file> keyed "<folder>/<file>", cli/<file>
// keyed "cli/<file>". A file directly in core/src, or in a folder that is
// not a layer, is an error: every file has a layer.
const coreFiles = [];
for (const e of readdirSync(CORE, { withFileTypes: true })) {
  if (!e.isDirectory()) { fail(`core/src/${e.name}: a file outside the layer folders`); continue; }
  if (!LAYERS.includes(e.name)) { fail(`core/src/${e.name}/: not a layer (scripts/check-layers.mjs LAYERS)`); continue; }
  for (const f of readdirSync(path.join(CORE, e.name))) coreFiles.push(`${e.name}/${f}`);
}
const cliFiles = readdirSync(path.join(ROOT, 'cli')).filter((f) => /\.[ch]$/.test(f)).map((f) => `cli/${f}`);
const sourcePath = (key) => (key.startsWith('cli/') ? path.join(ROOT, key) : path.join(CORE, key));
const layerOf = (key) => LAYERS.indexOf(key.split('/')[0]);

// ---- includes ----
const includes = new Map(); // core header or source -> core headers it includes
for (const key of coreFiles.filter((f) => /\.[ch]$/.test(f))) {
  const to = [];
  const lines = readFileSync(sourcePath(key), 'utf8').split('\n');
  lines.forEach((line, i) => {
    const m = /^#\s*include\s+"([^"]+)"/.exec(line);
    if (!m) return;
    const inc = m[1];
    if (!inc.includes('/')) {
      if (existsSync(path.join(path.dirname(sourcePath(key)), inc)) || coreFiles.some((f) => f.endsWith(`/${inc}`)))
        fail(`core/src/${key}:${i + 1}: includes "${inc}" without its folder`);
      return; // the public header or third-party code
    }
    if (!coreFiles.includes(inc)) return fail(`core/src/${key}:${i + 1}: includes "${inc}", which is not a core file`);
    if (layerOf(inc) > layerOf(key))
      fail(`core/src/${key}:${i + 1}: includes ${inc}, a layer above (${LAYERS.join(' < ')})`);
    to.push(inc);
  });
  includes.set(key, to);
}
// The depth of the include graph: the longest chain of includes, by file
// and by folder (the folder graph has at most as many levels as LAYERS).
const depthMemo = new Map();
const depth = (key, seen = new Set()) => {
  if (depthMemo.has(key)) return depthMemo.get(key);
  if (seen.has(key)) return 0; // a header guard's cycle; the include check reports direction
  seen.add(key);
  let d = 1;
  for (const inc of includes.get(key) ?? []) d = Math.max(d, 1 + depth(inc, seen));
  seen.delete(key);
  depthMemo.set(key, d);
  return d;
};
const fileDepth = Math.max(...[...includes.keys()].map((k) => depth(k)));
const folderEdges = new Map();
for (const [from, tos] of includes)
  for (const to of tos)
    if (layerOf(to) < layerOf(from)) { // upward ones are reported above
      const f = from.split('/')[0];
      if (!folderEdges.has(f)) folderEdges.set(f, new Set());
      folderEdges.get(f).add(to.split('/')[0]);
    }
const folderDepthMemo = new Map();
const folderDepth = (f) => {
  if (!folderDepthMemo.has(f)) folderDepthMemo.set(f, 1 + Math.max(0, ...[...(folderEdges.get(f) ?? [])].map(folderDepth)));
  return folderDepthMemo.get(f);
};
const folderLevels = Math.max(...LAYERS.map(folderDepth));

// ---- file-level call graph ----
const defines = new Map(); // symbol -> file
const needs = new Map(); // file -> Set(symbol)
const objects = [
  ...coreFiles.filter((f) => f.endsWith('.c')).map((f) => [f, path.join(OBJ_DIR, `${f}.o`)]),
  ...cliFiles.filter((f) => f.endsWith('.c')).map((f) => [f, path.join(CLI_OBJ_DIR, `${f.slice(4)}.o`)]),
];
for (const [file, obj] of objects) {
  if (!existsSync(obj)) {
    fail(`${obj} not found (build native first)`);
    continue;
  }
  const out = execFileSync('nm', [obj], { encoding: 'utf8' });
  const need = new Set();
  for (const line of out.split('\n')) {
    const m = /^\s*(?:[0-9a-f]+\s+)?([A-Za-z])\s+(\S+)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'U') need.add(m[2]);
    else if (/[TDBR]/.test(m[1])) defines.set(m[2], file);
  }
  needs.set(file, need);
}
const edges = new Map();
for (const [file, need] of needs) {
  const to = new Set();
  for (const sym of need) {
    const d = defines.get(sym);
    if (d && d !== file) to.add(d);
  }
  edges.set(file, to);
}
for (const [file, to] of edges)
  if (!file.startsWith('cli/'))
    for (const d of to)
      if (layerOf(d) > layerOf(file)) fail(`core/src/${file} calls into ${d}, a layer above`);

// Tarjan's strongly connected components: any of size > 1 is a circle.
let index = 0;
const idx = new Map(), low = new Map(), stack = [], on = new Set();
const circles = [];
function visit(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  on.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1) circles.push(comp.sort());
  }
}
for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v);
for (const c of circles) {
  const detail = c.map((f) => `${f} -> ${[...edges.get(f)].filter((t) => c.includes(t)).join(', ')}`);
  fail(`files call each other in a circle: ${detail.join('; ')}`);
}

// ---- function length ----
// A definition starts at column 0 with a name and "(" and ends its
// signature with "{" (within a few lines); its body ends at "}" in column 0.
for (const f of [...coreFiles, ...cliFiles].filter((k) => k.endsWith('.c'))) {
  const lines = readFileSync(sourcePath(f), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^[A-Za-z_][^;=]*\(/.test(lines[i]) || /^(typedef|struct|enum)\b/.test(lines[i])) continue;
    let open = i;
    while (open < lines.length && open < i + 8 && !/\{\s*$/.test(lines[open]) && !/;\s*$/.test(lines[open])) open++;
    if (open >= lines.length || !/\{\s*$/.test(lines[open])) continue; // a declaration, not a definition
    let end = open + 1;
    while (end < lines.length && lines[end] !== '}') end++;
    const length = end - i + 1;
    if (length > MAX_LINES) {
      const before = lines.slice(Math.max(0, i - 12), i).join('\n');
      if (!/long:/.test(before)) fail(`${f}:${i + 1}: a function of ${length} lines (over ${MAX_LINES}) without a "long:" comment saying why`);
    }
    i = end;
  }
}

// ---- the map ----
// Every core file and every wasm export is named in docs/architecture.md,
// as a word of its own (a file by its name, without the folder). A header
// and a source of the same name are one file's interface and body: naming
// either names both; a header on its own (shared types, a table) is named
// itself.
const MAP_DOC = 'docs/architecture.md';
const map = readFileSync(path.join(ROOT, MAP_DOC), 'utf8');
const named = (word) => new RegExp(`(^|[^A-Za-z0-9_.])${word.replace(/[.]/g, '\\.')}($|[^A-Za-z0-9_])`).test(map);
const partner = (key) => key.replace(/\.[ch]$/, (e) => (e === '.c' ? '.h' : '.c'));
const isNamed = (key) =>
  named(path.basename(key)) || (/\.[ch]$/.test(key) && coreFiles.includes(partner(key)) && named(path.basename(partner(key))));
for (const key of coreFiles) if (!isNamed(key)) fail(`${MAP_DOC} does not name core/src/${key}`);
for (const { name } of wasmExports()) if (!named(name)) fail(`${MAP_DOC} does not list the wasm export ${name}`);

console.log(`check-layers: include depth ${fileDepth} files, ${folderLevels} folders (${LAYERS.join(' < ')})`);
if (failed) process.exit(1);
console.log(
  `check-layers: ${coreFiles.length} core files, no upward include or call, no call circles among ${edges.size} ` +
    `objects, no function over ${MAX_LINES} lines without a reason; ${MAP_DOC} names every core file and wasm export`,
);
