// cli-entry.mjs — the scenario in a command-line runtime (Node, Deno, Bun),
// run from a project with the packed toolsift installed (run.mjs stages it):
// imports the package by name (its exports map), loads the module from the
// package's default location and writes the scenario document to stdout.
//   node cli-entry.mjs | deno run --allow-read cli-entry.mjs | bun cli-entry.mjs

import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { load } from 'toolsift';
import { runScenario } from './scenario.mjs';

const read = (f) => readFile(new URL(`inputs/${f}`, import.meta.url), 'utf8');
const [catalog, sessionConfig, calls] = await Promise.all(
  ['catalog.json', 'session.json', 'calls.jsonl'].map(read),
);
const toolsift = await load();
const doc = await runScenario(toolsift, { catalog, sessionConfig, calls });
await new Promise((resolve, reject) => process.stdout.write(doc, (e) => (e ? reject(e) : resolve())));
