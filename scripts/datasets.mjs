#!/usr/bin/env node
// datasets.mjs — `npm run datasets`: fetch the public tool-retrieval sets
// from their original repositories at pinned commits, verify every file's
// digest, convert them (scripts/datasets/convert.mjs) into the layout of
// ../shared/datasets and write them to datasets/ (or --out), where
// `npm run eval` and `npm run bench` find them when ../shared is absent.
// Prints each set's source and licence. Never part of `npm test`; its test
// (tests/front-door/datasets.test.mjs) serves a mirror over 127.0.0.1.
//
//   node scripts/datasets.mjs [--out DIR] [--mirror URL] [--sources FILE]
//                             [--set NAME]… [--record]
//
// A set is written whole or not at all: into a temporary folder first, then
// renamed over the old one.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONVERTERS } from './datasets/convert.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_BYTES = 256 * 1024 * 1024;

function usage(problem) {
  console.error(`datasets: ${problem}\nusage: node scripts/datasets.mjs [--out DIR] [--mirror URL] [--sources FILE] [--set NAME]… [--record]`);
  process.exit(2);
}

function readArgs(argv) {
  const a = { out: path.join(ROOT, 'datasets'), mirror: null, sources: path.join(ROOT, 'scripts/datasets/sources.json'), sets: [], record: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${k} needs a value`));
    if (k === '--out') a.out = path.resolve(value());
    else if (k === '--mirror') a.mirror = value().replace(/\/+$/, '');
    else if (k === '--sources') a.sources = path.resolve(value());
    else if (k === '--set') a.sets.push(value());
    else if (k === '--record') a.record = true;
    else usage(`unknown argument ${k}`);
  }
  return a;
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

async function fetchFile(url) {
  let res;
  try {
    res = await fetch(url, { redirect: 'follow' });
  } catch (e) {
    throw new Error(`${url}: ${e.cause?.message ?? e.message}`);
  }
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw new Error(`${url}: larger than ${MAX_BYTES} bytes`);
  return bytes;
}

/** The digest a file must have: the pin in sources.json, else the one recorded by an earlier --record run. */
function expected(file, lock, key) {
  return file.sha256 ?? lock[key] ?? null;
}

async function fetchSet(name, set, base, lock, record) {
  const texts = {};
  for (const file of set.files) {
    const key = `${set.repo}@${set.commit}:${file.path}`;
    const url = `${base}/${set.repo}/${set.commit}/${file.path}`;
    const bytes = await fetchFile(url);
    const digest = sha256(bytes);
    const want = expected(file, lock, key);
    if (want && want !== digest) throw new Error(`${name}: ${file.path}: sha256 ${digest}, expected ${want} (${url})`);
    if (!want) {
      if (!record) throw new Error(`${name}: ${file.path}: no digest pinned (sha256 ${digest}); check the source and re-run with --record to keep it`);
      lock[key] = digest;
      console.log(`  recorded ${file.path} sha256 ${digest}`);
    }
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
    try {
      texts[file.path] = text.decode(bytes);
    } catch {
      throw new Error(`${name}: ${file.path}: not UTF-8`);
    }
  }
  return texts;
}

function sourceNote(name, set, base, result) {
  return [`# ${set.title} (${name})`, '',
    `Fetched by scripts/datasets.mjs from ${set.repo} at commit ${set.commit} (the commit ../shared cites: ${set.cites}).`,
    `Licence: ${set.licence}.`, `Split: ${set.split}.`, '',
    ...set.files.map((f) => `- ${base}/${set.repo}/${set.commit}/${f.path}`), '',
    `${result.tools} tools, ${result.queries} queries.`, ''].join('\n');
}

/** Compare with ../shared/datasets/<set> when it is there: informational. */
function compareShared(name, files) {
  const dir = path.join(ROOT, '..', 'shared', 'datasets', name);
  if (!existsSync(dir)) return '';
  return Object.entries(files)
    .map(([f, text]) => {
      const p = path.join(dir, f);
      if (!existsSync(p)) return `${f}: not in ../shared`;
      return `${f}: ${readFileSync(p, 'utf8') === text ? 'identical to' : 'differs from'} ../shared`;
    })
    .join('; ');
}

function writeSet(out, name, files) {
  const tmp = path.join(out, `.${name}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(path.join(tmp, f), text);
  rmSync(path.join(out, name), { recursive: true, force: true });
  renameSync(tmp, path.join(out, name));
}

async function main() {
  const args = readArgs(process.argv.slice(2));
  let sources;
  try {
    sources = JSON.parse(readFileSync(args.sources, 'utf8'));
  } catch (e) {
    usage(`${args.sources}: ${e.message}`);
  }
  const names = args.sets.length ? args.sets : Object.keys(sources.sets);
  for (const n of names) if (!sources.sets[n] || !CONVERTERS[n]) usage(`unknown set ${n} (known: ${Object.keys(sources.sets).join(', ')})`);
  const base = args.mirror ?? sources.base;
  mkdirSync(args.out, { recursive: true });
  const lockPath = path.join(args.out, 'SOURCES.lock.json');
  const lock = existsSync(lockPath) ? JSON.parse(readFileSync(lockPath, 'utf8')) : {};
  let failed = 0;
  for (const name of names) {
    const set = sources.sets[name];
    console.log(`${name}: ${set.title} — ${set.repo} @ ${set.commit.slice(0, 12)}, licence ${set.licence}`);
    try {
      const texts = await fetchSet(name, set, base, lock, args.record);
      const result = CONVERTERS[name](texts);
      const files = { ...result.files, 'SOURCE.md': sourceNote(name, set, base, result) };
      writeSet(args.out, name, files);
      const same = compareShared(name, result.files);
      console.log(`  wrote ${path.relative(process.cwd(), path.join(args.out, name)) || '.'}: ${result.tools} tools, ${result.queries} queries (${set.split})${same ? `\n  ${same}` : ''}`);
    } catch (e) {
      failed++;
      console.error(`datasets: ${e.message}\n  ${name} not written`);
    }
  }
  writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
  process.exit(failed ? 1 : 0);
}

main();
