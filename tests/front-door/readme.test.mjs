// The README front page: at most 150 lines; every figure on it is in the
// block scripts/figures.mjs generates from bench/results/latest.json, and the
// block is what that file says now; every relative link of the README and of
// docs/*.md resolves; docs/README.md indexes every page of docs/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { figures, readLatest, readmeBlock, render, SOURCE, strayFigures } from '../../scripts/figures.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

test('README.md is a front page: at most 150 lines', () => {
  const lines = README.trimEnd().split('\n').length;
  assert.ok(lines <= 150, `README.md has ${lines} lines`);
});

test(`README.md's figures are ${SOURCE}'s (node scripts/figures.mjs --write)`, () => {
  const block = readmeBlock(README);
  assert.ok(block != null, 'README.md has no <!-- figures: … --> … <!-- /figures --> block');
  assert.equal(block, render(figures(readLatest())));
});

test('README.md has no figure outside the generated block', () => {
  assert.deepEqual(strayFigures(README), []);
  // the check sees figures: one put in prose is caught
  assert.deepEqual(strayFigures(`${README}\nIt is 3.2× faster and 12,345 bytes.\n`), ['3.2×', '12,345 bytes']);
});

function links(file) {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^(https?:|mailto:|#)/.test(l));
}

test('relative links of README.md and docs/*.md resolve', () => {
  const files = [path.join(ROOT, 'README.md'), ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(ROOT, 'docs', f))];
  const broken = [];
  for (const file of files) {
    for (const link of links(file)) {
      const target = path.resolve(path.dirname(file), decodeURIComponent(link.split('#')[0]));
      if (!existsSync(target)) broken.push(`${path.relative(ROOT, file)}: ${link}`);
    }
  }
  assert.deepEqual(broken, []);
});

test('docs/README.md indexes every page of docs/', () => {
  const index = readFileSync(path.join(ROOT, 'docs/README.md'), 'utf8');
  const pages = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  assert.deepEqual(pages.filter((p) => !index.includes(`](${p})`)), []);
});
