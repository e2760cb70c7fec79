#!/usr/bin/env node
// check-layers.mjs — fails when the files of core/src and of the native CLI
// (cli/, named cli/<file>) call each other in a circle, or when a function
// grows past the length limit without a comment that says why. The call graph comes from the native objects' symbols
// (`nm`: what each object defines and what it needs), so it is what the
// linker sees, not a guess from the text.
//
//   node scripts/check-layers.mjs [build/native]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const BUILD = path.resolve(ROOT, process.argv[2] ?? 'build/native');
const OBJ_DIR = path.join(BUILD, 'CMakeFiles/toolsift_core.dir/core/src');
// The CLI's objects, one graph with the core's: the core never calls the
// CLI, so a circle is within one of them. Its files are keyed cli/<file>.
const CLI_OBJ_DIR = path.join(BUILD, 'CMakeFiles/toolsift.dir/cli');
const OBJ_DIRS = [[OBJ_DIR, ''], [CLI_OBJ_DIR, 'cli/']];
const SRC_DIRS = [[path.join(ROOT, 'core/src'), ''], [path.join(ROOT, 'cli'), 'cli/']];
const MAX_LINES = 120; // a longer function needs a comment containing "long:" before it

let failed = false;
const fail = (msg) => {
  console.error(`check-layers: ${msg}`);
  failed = true;
};

for (const [dir] of OBJ_DIRS)
  if (!existsSync(dir)) {
    console.error(`check-layers: ${dir} not found (build native first)`);
    process.exit(1);
  }

// ---- file-level call graph ----
const defines = new Map(); // symbol -> file
const needs = new Map(); // file -> Set(symbol)
for (const [dir, prefix] of OBJ_DIRS) for (const o of readdirSync(dir).filter((f) => f.endsWith('.c.o'))) {
  const file = prefix + o.replace(/\.o$/, '');
  const out = execFileSync('nm', [path.join(dir, o)], { encoding: 'utf8' });
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
for (const [dir, prefix] of SRC_DIRS) for (const name of readdirSync(dir).filter((f) => f.endsWith('.c'))) {
  const f = prefix + name;
  const lines = readFileSync(path.join(dir, name), 'utf8').split('\n');
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

if (failed) process.exit(1);
console.log(`check-layers: ${edges.size} files, no call circles, no function over ${MAX_LINES} lines without a reason`);
