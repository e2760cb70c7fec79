// session-scale.mjs — `toolsift session menu` and `session run` over large
// synthetic catalogs, native CLI beside the wasm CLI (node js/cli.js): both
// read the catalog file through the core's strict reader, and the wasm CLI
// must stay within 3x of native (issue 21; it was quadratic in the catalog
// size once). Outputs must be byte-identical. Not part of npm test.
// Run: node bench/session-scale.mjs [sizes, comma-separated] [repeats]
//   e.g. node bench/session-scale.mjs 40000,80000,160000 3
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SIZES = (process.argv[2] ?? '40000,80000,160000').split(',').map(Number);
const REPEATS = Number(process.argv[3] ?? 3);
const NATIVE = process.env.TOOLSIFT_NATIVE ?? path.join(ROOT, 'build/native/toolsift');
const WASM = process.env.TOOLSIFT_WASM ?? path.join(ROOT, 'build/wasm/toolsift.wasm');

// A deterministic catalog of n MCP-shaped tools: 200 namespaces, words drawn
// by a linear congruential generator, a small schema with numbers (kept as
// written) on every fourth tool.
const WORDS = ('create list update delete send read write search find issue message file user repo branch ' +
  'commit comment channel email calendar event invoice payment order ticket page database table row column ' +
  'image video audio note task project board card report metric alert log deploy build test').split(' ');
function catalog(n) {
  let seed = 42;
  const rnd = (k) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % k);
  const tools = [];
  for (let i = 0; i < n; i++) {
    const verb = WORDS[rnd(8)];
    const obj = WORDS[8 + rnd(WORDS.length - 8)];
    const desc = Array.from({ length: 8 + rnd(8) }, () => WORDS[rnd(WORDS.length)]).join(' ');
    const tool = { id: `ns${i % 200}__${verb}_${obj}_${i}`, name: `${verb}_${obj}`, description: `${verb} ${obj}: ${desc}` };
    tool.inputSchema = { type: 'object', properties: { [obj]: { type: 'string', description: `the ${obj}` } } };
    if (i % 4 === 0) tool.inputSchema.properties.limit = { type: 'integer', minimum: 1, maximum: 100 };
    tools.push(tool);
  }
  return JSON.stringify({ tools }).replaceAll('"maximum":100', '"maximum":1.0e2');
}

function time(cmd, args, env) {
  let best = Infinity;
  let out = null;
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now();
    const p = spawnSync(cmd, args, { maxBuffer: 1 << 30, env: { ...process.env, ...env } });
    const secs = (performance.now() - t0) / 1000;
    if (p.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${p.stderr}`);
    best = Math.min(best, secs);
    out = p.stdout;
  }
  return { secs: best, out };
}

const dir = mkdtempSync(path.join(tmpdir(), 'toolsift-session-scale-'));
try {
  const calls = path.join(dir, 'calls.jsonl');
  writeFileSync(calls, ['create issue', 'send email message', 'list calendar events', 'select:ns0__create_issue_0']
    .map((q, i) => JSON.stringify({ turn: i, call: 0, tool: 'search_tools', args: { query: q } })).join('\n') + '\n');
  console.log(`session-scale: best of ${REPEATS}; native ${path.relative(ROOT, NATIVE)}, wasm ${path.relative(ROOT, WASM)}`);
  console.log('tools    command       native    wasm CLI   ratio');
  let worst = 0;
  for (const n of SIZES) {
    const cat = path.join(dir, `catalog-${n}.json`);
    writeFileSync(cat, catalog(n));
    const cfg = path.join(dir, `config-${n}.json`);
    writeFileSync(cfg, JSON.stringify({ catalog: path.basename(cat), search: { maxPerSearch: 5, maxLoaded: 20 } }));
    for (const [label, args] of [
      ['session menu', ['session', 'menu', '--config', cfg]],
      ['session run', ['session', 'run', '--config', cfg, '--calls', calls]],
    ]) {
      const nat = existsSync(NATIVE) ? time(NATIVE, args, {}) : null;
      const wasm = time(process.execPath, [path.join(ROOT, 'js/cli.js'), ...args], { TOOLSIFT_WASM: WASM });
      const ratio = nat ? wasm.secs / nat.secs : NaN;
      worst = Math.max(worst, ratio || 0);
      const same = nat ? (Buffer.compare(nat.out, wasm.out) === 0 ? '' : '  OUTPUTS DIFFER') : '';
      console.log(`${String(n).padEnd(8)} ${label.padEnd(13)} ${nat ? nat.secs.toFixed(2).padStart(6) + ' s' : '     -  '}` +
        `  ${wasm.secs.toFixed(2).padStart(6)} s   ${nat ? ratio.toFixed(2) + 'x' : ''}${same}`);
    }
  }
  if (worst) console.log(`worst wasm/native ratio ${worst.toFixed(2)}x (target <= 3x)${worst > 3 ? '  OVER' : ''}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
