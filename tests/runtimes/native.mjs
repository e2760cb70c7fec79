// native.mjs — the scenario's reference document from the native CLI.
//
// Every core output in the document comes from build/native/toolsift's
// stdout (search --explain, info, session run/replay/menu, build -o, search
// and info --index); Node only cuts the trailing newlines, hashes the
// snapshot file and pastes the pieces together with scenario.mjs's assemble().

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  assemble, MENU_FORMATS, QUERIES, SEARCH_OPTIONS, SNAPSHOT_QUERIES,
} from './scenario.mjs';

function runNative(bin, args) {
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`native ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  }
  return { stdout: r.stdout, stderr: r.stderr };
}

const chomp = (s) => (s.endsWith('\n') ? s.slice(0, -1) : s);
const lines = (s) => s.split('\n').filter((l) => l !== '');

/** The reference document; `root` is the repository, `bin` the native CLI. */
export function nativeReference(root, bin) {
  if (SEARCH_OPTIONS !== '{"limit":5,"explain":true}') throw new Error('SEARCH_OPTIONS changed: update native.mjs');
  const catalog = path.join(root, 'corpus/catalog.json');
  const config = path.join(root, 'tests/runtimes/fixtures/session.json');
  const calls = path.join(root, 'tests/runtimes/fixtures/calls.jsonl');
  const tmp = mkdtempSync(path.join(tmpdir(), 'toolsift-native-'));
  try {
    const out = (args) => chomp(runNative(bin, args).stdout);
    const p = { version: out(['--version']) };
    p.info = out(['info', '--catalog', catalog]);
    p.search = QUERIES.map((q) => out(['search', '--catalog', catalog, '--limit', '5', '--explain', q]));

    const journal = path.join(tmp, 'journal.jsonl');
    p.session = lines(runNative(bin, ['session', 'run', '--config', config, '--calls', calls,
      '--journal-out', journal]).stdout);
    p.journal = readFileSync(journal, 'utf8');
    const replay = runNative(bin, ['session', 'replay', '--config', config, '--calls', calls,
      '--journal', journal, '--divergence', 'fail']);
    p.replay = lines(replay.stdout);
    // The CLI prints finish() only when it is not empty, as a warning.
    const warning = /^toolsift: warning: (.*)$/m.exec(replay.stderr);
    p.finish = warning ? warning[1] : '{"unasked":[]}';
    p.menu = MENU_FORMATS.map((f) => out(['session', 'menu', '--config', config, '--journal', journal,
      '--format', f]));

    const snap = path.join(tmp, 'corpus.tsi');
    runNative(bin, ['build', '--catalog', catalog, '-o', snap]);
    const bytes = readFileSync(snap);
    p.snapshotBytes = bytes.length;
    p.snapshotSha256 = createHash('sha256').update(bytes).digest('hex');
    p.snapshotInfo = out(['info', '--index', snap]);
    p.snapshotSearch = SNAPSHOT_QUERIES.map((q) => out(['search', '--index', snap, '--limit', '5', '--explain', q]));
    return assemble(p);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// node tests/runtimes/native.mjs [OUT]: write (or print) the reference.
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
  const doc = nativeReference(root, process.env.TOOLSIFT_NATIVE || path.join(root, 'build/native/toolsift'));
  if (process.argv[2]) writeFileSync(process.argv[2], doc);
  else process.stdout.write(doc);
}
