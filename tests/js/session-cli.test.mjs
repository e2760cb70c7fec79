// `toolsift session run | replay | menu` of the wasm CLI (js/cli.js) against
// the module named by env TOOLSIFT_WASM: output bytes equal the binding's,
// catalog paths, bad calls lines, journals, divergence, usage and errors.
// (tests/parity/parity.mjs compares the same commands with the native CLI.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { load } from '../../js/toolsift.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WASM = path.resolve(ROOT, process.env.TOOLSIFT_WASM || 'build/wasm/toolsift.wasm');
const CLI = path.join(ROOT, 'js/cli.js');

const CATALOG = {
  tools: [
    { id: 'gh__create_issue', name: 'create_issue', description: 'Open a new issue in a repository' },
    { id: 'gh__list_issues', name: 'list_issues', description: 'List issues of a repository' },
    { id: 'jira__create_issue', name: 'create_issue', description: 'Create a Jira issue' },
    { id: 'slack__send', name: 'send', description: 'Send a Slack message to a channel' },
    { id: 'mail__send', name: 'send', description: 'Send an email message' },
  ],
};
const CONFIG = {
  loop: 'cli',
  tools: [{ name: 'reply', description: 'Reply to the user' }],
  catalog: 'catalogs/small.json',
  search: { alwaysLoaded: ['mail__send'], maxPerSearch: 2, maxLoaded: 3 },
};
const CALLS = [
  { turn: 0, call: 0, tool: 'search_tools', args: { query: 'create issue' } },
  { turn: 0, call: 1, tool: 'gh__create_issue', args: { title: 'x' } },
  { turn: 1, call: 0, tool: 'slack__send', args: {} },
  { turn: 1, call: 1, tool: 'search_tools', args: { query: 'send a slack message' } },
  { turn: 1, call: 2, tool: 'search_tools', args: { query: '' } },
  { turn: 2, call: 0, tool: 'search_tools', args: { query: 'list issues', limit: 1 } },
];

let dir;
let ts;
let configPath;
let callsPath;
let expected; // what the binding prints for CALLS
let journal;

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'toolsift-session-cli-'));
  await mkdir(path.join(dir, 'catalogs'));
  await writeFile(path.join(dir, 'catalogs/small.json'), JSON.stringify(CATALOG));
  configPath = path.join(dir, 'config.json');
  await writeFile(configPath, JSON.stringify(CONFIG, null, 2));
  callsPath = path.join(dir, 'calls.jsonl');
  await writeFile(callsPath, CALLS.map((c) => JSON.stringify(c)).join('\n') + '\n');
  ts = await load(WASM);
  const s = ts.createSession({ ...CONFIG, catalog: CATALOG });
  try {
    expected = CALLS.map((c) => s.callJSON(c.turn, c.call, c.tool, c.args) + '\n').join('');
    journal = s.journalJSONL();
  } finally {
    s.free();
  }
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function cli(args, opts = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, TOOLSIFT_WASM: WASM },
    encoding: 'utf8',
    cwd: opts.cwd ?? ROOT,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const file = (name) => path.join(dir, name);

test('session run prints one core line per call and writes the journal', async () => {
  const out = file('run.jsonl');
  const r = cli(['session', 'run', '--config', configPath, '--calls', callsPath, '--journal-out', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, expected);
  const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 6);
  assert.deepEqual(lines[0].decision.value.results, ['jira__create_issue', 'gh__create_issue']);
  assert.deepEqual(lines[1].result, { allowed: true });
  assert.equal(lines[2].result.error, 'not_on_menu');
  assert.equal(lines[4].result.error, 'invalid_input');
  assert.equal(await readFile(out, 'utf8'), journal);
  // the chain's header, three decisions and the call record of the allowed call
  assert.equal(journal.trimEnd().split('\n').length, 5);
  assert.equal(JSON.parse(journal.split('\n')[2]).source, 'agent-tool-call');
  // Without --journal-out nothing is written; the same lines are printed.
  const again = cli(['session', 'run', '--calls', callsPath, '--config', configPath]);
  assert.equal(again.stdout, expected);
});

test('session replay prints the same lines from the journal', async () => {
  const j = file('replay.jsonl');
  await writeFile(j, journal);
  const r = cli(['session', 'replay', '--config', configPath, '--calls', callsPath, '--journal', j]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, expected);
  // The journal may also be a JSON array.
  const arr = file('replay-array.json');
  await writeFile(arr, JSON.stringify(journal.trimEnd().split('\n').map((l) => JSON.parse(l))));
  const r2 = cli(['session', 'replay', '--config', configPath, '--calls', callsPath, '--journal', arr]);
  assert.equal(r2.status, 0, r2.stderr);
  assert.equal(r2.stdout, expected);
});

test('session replay: divergence fail, warn and off', async () => {
  const extra = JSON.parse(journal.split('\n')[1]);
  extra.id = 'cli#turn:9:tool:9:search';
  const tampered = file('tampered.jsonl');
  await writeFile(tampered, journal + JSON.stringify(extra) + '\n');
  const base = ['session', 'replay', '--config', configPath, '--calls', callsPath, '--journal', tampered];
  // fail (the default): the appended copy breaks the hash chain; nothing is served.
  const fail = cli(base);
  assert.equal(fail.status, 1);
  assert.equal(fail.stdout, '');
  assert.match(fail.stderr, /^toolsift: tampered: journal decision 5 \("cli#turn:9:tool:9:search"\): chain broken/);
  // warn: served with the chain's warning; finish() reports the unasked decision.
  const warned = cli([...base, '--divergence', 'warn']);
  assert.equal(warned.status, 0, warned.stderr);
  assert.equal(warned.stderr, 'toolsift: warning: {"unasked":["cli#turn:9:tool:9:search"]}\n');
  assert.equal(warned.stdout.split('\n').length, expected.split('\n').length);
  // off: as recorded, the chain not looked at.
  const off = cli([...base, '--divergence', 'off']);
  assert.equal(off.status, 0, off.stderr);
  assert.equal(off.stdout, expected);
  assert.equal(off.stderr, 'toolsift: warning: {"unasked":["cli#turn:9:tool:9:search"]}\n');
  // A journal missing its last decisions (cut at the end, the chain still
  // holds: a shorter journal only narrows): fail → an error per call line
  // that asked for one.
  const short = file('short.jsonl');
  await writeFile(short, journal.split('\n').slice(0, 2).join('\n'));
  const r = cli(['session', 'replay', '--config', configPath, '--calls', callsPath, '--journal', short]);
  assert.equal(r.status, 1);
  assert.match(r.stderr,
    /^toolsift: diverged: calls line 4: replay: the journal has no decision "cli#turn:1:tool:1:search" at position 2\n/);
  const warn = cli(['session', 'replay', '--config', configPath, '--calls', callsPath, '--journal', short,
    '--divergence', 'warn']);
  assert.equal(warn.status, 0, warn.stderr);
  const fourth = JSON.parse(warn.stdout.split('\n')[3]);
  assert.deepEqual(fourth.warnings, ['replay: the journal has no decision "cli#turn:1:tool:1:search" here; ranked live']);
});

test('session menu: three formats, with and without a journal', async () => {
  const j = file('menu.jsonl');
  await writeFile(j, journal);
  const s = ts.createSession({ ...CONFIG, catalog: CATALOG });
  const r = ts.createSession({ ...CONFIG, catalog: CATALOG }, { journal });
  try {
    r.applyJournal();
    for (const format of ['mcp', 'openai', 'anthropic']) {
      const plain = cli(['session', 'menu', '--config', configPath, '--format', format]);
      assert.equal(plain.status, 0, plain.stderr);
      assert.equal(plain.stdout, s.menuJSON(format) + '\n');
      const replayed = cli(['session', 'menu', '--config', configPath, '--journal', j, '--format', format]);
      assert.equal(replayed.status, 0, replayed.stderr);
      assert.equal(replayed.stdout, r.menuJSON(format) + '\n');
    }
    assert.equal(cli(['session', 'menu', '--config', configPath]).stdout, s.menuJSON('mcp') + '\n');
    assert.deepEqual(r.menu('anthropic').map((t) => t.name), [
      'search_tools', 'reply', 'mail__send', 'jira__create_issue', 'gh__create_issue', 'slack__send',
    ]);
    // With --calls, menu runs the calls first (and prints them) instead of applying the journal.
    const withCalls = cli(['session', 'menu', '--config', configPath, '--calls', callsPath, '--format', 'anthropic']);
    assert.equal(withCalls.status, 0, withCalls.stderr);
    assert.equal(withCalls.stdout, expected + r.menuJSON('anthropic') + '\n');
  } finally {
    s.free();
    r.free();
  }
  const bad = cli(['session', 'menu', '--config', configPath, '--format', 'xml']);
  assert.equal(bad.status, 1);
  assert.equal(bad.stdout, '');
  assert.equal(bad.stderr, 'toolsift: arg: menu: format must be "mcp", "openai" or "anthropic"\n');
});

test('a catalog path is relative to the configuration file; absolute paths as they are', async () => {
  // From another working directory, the relative catalog still resolves.
  const r = cli(['session', 'menu', '--config', configPath], { cwd: tmpdir() });
  assert.equal(r.status, 0, r.stderr);
  const abs = file('abs.json');
  await writeFile(abs, JSON.stringify({ ...CONFIG, catalog: file('catalogs/small.json') }));
  const a = cli(['session', 'run', '--config', abs, '--calls', callsPath]);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, expected);
  // A catalog object inline works too.
  const inline = file('inline.json');
  await writeFile(inline, JSON.stringify({ ...CONFIG, catalog: CATALOG }));
  assert.equal(cli(['session', 'run', '--config', inline, '--calls', callsPath]).stdout, expected);
  // Missing and malformed catalog files.
  const missing = file('missing.json');
  await writeFile(missing, JSON.stringify({ catalog: 'catalogs/nope.json' }));
  const m = cli(['session', 'menu', '--config', missing]);
  assert.equal(m.status, 1);
  assert.equal(m.stderr, `toolsift: io: cannot read ${path.join(dir, 'catalogs/nope.json')}: No such file or directory\n`);
  await writeFile(file('catalogs/broken.json'), '{"tools": [');
  const brokenCfg = file('broken-cfg.json');
  await writeFile(brokenCfg, JSON.stringify({ catalog: 'catalogs/broken.json' }));
  const b = cli(['session', 'menu', '--config', brokenCfg]);
  assert.equal(b.status, 1);
  // The core reads the file: its errors name it and point into it.
  assert.equal(b.stderr, 'toolsift: json: catalog file catalogs/broken.json: malformed JSON at byte 11 (line 1, column 12)\n');
});

test('bad calls lines are reported with their number; the run goes on and the journal is kept', async () => {
  const calls = file('bad-calls.jsonl');
  await writeFile(calls, [
    JSON.stringify(CALLS[0]),
    '{"turn":0,"call":1}',
    'not json',
    '   ',
    '{"turn":-1,"call":0,"tool":"x"}',
    '{"turn":0,"call":4294967296,"tool":"x"}',
    JSON.stringify(CALLS[3]),
  ].join('\n'));
  const out = file('bad-calls-journal.jsonl');
  const r = cli(['session', 'run', '--config', configPath, '--calls', calls, '--journal-out', out]);
  assert.equal(r.status, 1);
  const msg = 'expected {"turn": integer, "call": integer, "tool": string, "args": {…}} or {"turn": integer, "preSearch": string}';
  const why = { 3: 'not a call: malformed JSON at byte 0 (line 1, column 1)' };
  assert.equal(r.stderr, [2, 3, 5, 6].map((n) => `toolsift: calls line ${n}: ${why[n] ?? msg}\n`).join(''));
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.equal(JSON.parse(lines[1]).call.turn, 1);
  const written = (await readFile(out, 'utf8')).trimEnd().split('\n');
  assert.equal(written.length, 3); // the chain's header, then two decisions
});

test('calls lines are read by the core, strictly, as the native CLI reads them', async () => {
  const calls = file('strict.jsonl');
  await writeFile(calls, Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]), // a BOM before the first line: not JSON
    Buffer.from([
      // a duplicate key, data after the value: not JSON either
      '{"turn":0,"call":0,"tool":"search_tools","args":{"query":"create issue","query":"send"}} trailing',
      // "args" may come first; its own bytes reach the session
      '{"args":{ "query" : "create issue" },"turn":0,"call":1,"tool":"search_tools"}',
      // a fractional turn/call is not an integer
      '{"turn":1.9,"call":0.5,"tool":"search_tools","args":{"query":"send","limit":1.0}}',
      // limit 1.0 is the integer 1
      '{"turn":1,"call":0,"tool":"search_tools","args":{"query":"send","limit":1.0}}',
      // args may be any JSON value: a string is not an object (the session refuses it)
      '{"turn":2,"call":0,"tool":"search_tools","args":"send"}',
      // no args: {}
      '{"turn":2,"call":1,"tool":"search_tools"}',
      // an escaped NUL is refused, not a cut
      '{"turn":2,"call":2,"tool":"gh__create_issue\\u0000ignored","args":{}}',
    ].join('\r\n')),
  ]));
  const r = cli(['session', 'run', '--config', configPath, '--calls', calls]);
  assert.equal(r.status, 1);
  // A line the strict reader refuses says why (issue 21); one that is JSON
  // but not a call gives the shape.
  const msg = 'expected {"turn": integer, "call": integer, "tool": string, "args": {…}} or {"turn": integer, "preSearch": string}';
  assert.equal(r.stderr, [
    'toolsift: calls line 1: not a call: starts with a UTF-8 byte order mark; save it without one\n',
    `toolsift: calls line 3: ${msg}\n`,
    'toolsift: calls line 7: not a call: a \\u0000 escape (NUL character) at byte 43 (line 1, column 44) is not ' +
      'allowed in a string\n',
  ].join(''));
  const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 4);
  assert.deepEqual(lines[0].call, { turn: 0, call: 1, tool: 'search_tools' });
  assert.equal(lines[0].decision.value.query, 'create issue');
  assert.deepEqual(lines[1].call, { turn: 1, call: 0, tool: 'search_tools' });
  assert.equal(lines[1].result.tools.length, 1);
  assert.equal(lines[2].result.message, 'query must be a non-empty string');
  assert.equal(lines[3].result.message, 'query must be a non-empty string');
});

test('session config errors: "toolsift: <code>: <message>", exit 1', async () => {
  const cases = [
    [{ ...CONFIG, search: { maxPerSearch: 0 } },
      'toolsift: config: config: search.maxPerSearch: expected an integer from 1 to 50, got an out-of-range number\n'],
    [{ ...CONFIG, search: { alwaysLoaded: ['nope'] } },
      'toolsift: config: config: search.alwaysLoaded[0]: no catalog tool "nope"\n'],
    [{ ...CONFIG, tools: [{ name: 'search_tools' }] },
      'toolsift: config: config: search.toolName "search_tools" collides with a tool of the same name\n'],
  ];
  for (let [cfg, stderr] of cases) {
    const p = file('err.json');
    stderr = stderr.replace('config: config:', `config: config file ${p}:`); // its errors name the file
    await writeFile(p, JSON.stringify(cfg));
    const r = cli(['session', 'run', '--config', p, '--calls', callsPath]);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, stderr);
  }
  const broken = file('broken.json');
  await writeFile(broken, '{"loop": ');
  const j = cli(['session', 'menu', '--config', broken]);
  assert.equal(j.status, 1);
  assert.equal(j.stderr, `toolsift: json: config file ${broken}: malformed JSON at byte 9 (line 1, column 10)\n`);
  const badJournal = file('bad-journal.jsonl');
  await writeFile(badJournal, '{"id":"cli#turn:0:tool:0:search"}\n{"id"\n');
  const bj = cli(['session', 'replay', '--config', configPath, '--calls', callsPath, '--journal', badJournal]);
  assert.equal(bj.status, 1);
  assert.match(bj.stderr, /^toolsift: json: journal line 2: /);
});

test('session io errors: unreadable inputs, unwritable journal', () => {
  const nope = file('nope.jsonl');
  const r = cli(['session', 'replay', '--config', configPath, '--calls', nope, '--journal', file('nope2.jsonl')]);
  assert.equal(r.status, 1);
  // Both files are tried (journal first) before giving up.
  assert.equal(r.stderr,
    `toolsift: io: cannot read ${file('nope2.jsonl')}: No such file or directory\n` +
    `toolsift: io: cannot read ${nope}: No such file or directory\n`);
  const c = cli(['session', 'menu', '--config', file('none.json')]);
  assert.equal(c.status, 1);
  assert.equal(c.stderr, `toolsift: io: cannot read ${file('none.json')}: No such file or directory\n`);
  const w = cli(['session', 'run', '--config', configPath, '--calls', callsPath, '--journal-out', dir]);
  assert.equal(w.status, 1);
  assert.equal(w.stdout, expected);
  assert.equal(w.stderr, `toolsift: io: cannot write ${dir}\n`);
});

test('session usage errors exit 2 with the native messages', () => {
  const NEEDS = 'toolsift: session: run needs --config and --calls; replay also --journal; menu needs --config; verify --config and --journal\n';
  const cases = [
    [['session'], 'usage: toolsift session run|replay|menu|prompt|verify --config CONFIG.json [options]\n'],
    [['session', 'run'], NEEDS],
    [['session', 'run', '--config', 'c.json'], NEEDS],
    [['session', 'replay', '--config', 'c.json', '--calls', 'x.jsonl'], NEEDS],
    [['session', 'menu'], NEEDS],
    [['session', 'walk', '--config', 'c.json'], 'toolsift: session: unknown subcommand walk (run, replay, menu, prompt, verify)\n'],
    // Arguments are checked before the subcommand.
    [['session', 'walk', '--bogus'], 'toolsift: session: unexpected argument --bogus\n'],
    [['session', 'run', '--config'], 'toolsift: session: unexpected argument --config\n'],
    [['session', 'run', '--config', 'c.json', 'stray'], 'toolsift: session: unexpected argument stray\n'],
    [['session', 'run', '--config', 'c.json', '--calls', 'x', '--divergence', 'maybe'],
      'toolsift: session: --divergence must be fail, warn or off\n'],
  ];
  for (const [args, stderr] of cases) {
    const r = cli(args);
    assert.equal(r.status, 2, `args ${JSON.stringify(args)}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, stderr, `args ${JSON.stringify(args)}`);
  }
  assert.match(cli(['--help']).stdout, /session run --config CONFIG\.json --calls CALLS\.jsonl/);
});

// Issue 21, one strict input path: what the reader refuses says why and where
// (tests/parity/parity.mjs holds the native CLI to the same bytes).
test('session files: a BOM, a lone surrogate, nesting past 1000 named by tool; numbers as written', async () => {
  const menu = async (name, catalogText, configExtra = {}) => {
    await writeFile(file(`catalogs/${name}.json`), catalogText);
    const p = file(`${name}-config.json`);
    await writeFile(p, JSON.stringify({ catalog: `catalogs/${name}.json`, ...configExtra }));
    return cli(['session', 'menu', '--config', p]);
  };
  const where = (name) => `catalog file catalogs/${name}.json`;
  let r = await menu('bom', '\ufeff' + JSON.stringify(CATALOG));
  assert.equal(r.status, 1);
  assert.equal(r.stderr, `toolsift: json: ${where('bom')}: starts with a UTF-8 byte order mark; save it without one\n`);
  r = await menu('surrogate', '[{"name":"a","description":"x \\ud800 y"}]');
  assert.equal(r.stderr, `toolsift: json: ${where('surrogate')}: a lone surrogate escape at byte 30 (line 1, column 31)\n`);
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const deepText = `{"tools":[{"name":"a"},{"name":"b"},{"inputSchema":{"properties":{"x":${deep}}},"id":"deep__tool"}]}`;
  r = await menu('deep', deepText);
  assert.equal(r.status, 1);
  assert.equal(r.stderr, `toolsift: limit: ${where('deep')}: tools[2] ("deep__tool"): field "inputSchema": nesting ` +
    `deeper than 1000 at byte ${deepText.indexOf('[[') + 995} (line 1, column ${deepText.indexOf('[[') + 996})\n`);
  const schema = '{"type":"object","properties":{"n":{"type":"number","maximum":1e999,"minimum":-0,' +
    '"exclusiveMinimum":1e-999,"default":1.50,"multipleOf":12345678901234567890}}}';
  r = await menu('numbers', `[{"id":"num__tool","name":"n","inputSchema":${schema}}]`,
    { search: { alwaysLoaded: ['num__tool'] } });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.includes(`"name":"num__tool","description":"","inputSchema":${schema}}`), r.stdout);
  // The binding's createSession over configuration text keeps them too.
  const s = ts.createSession(`{"catalog":[{"id":"num__tool","name":"n","inputSchema":${schema}}],` +
    '"search":{"alwaysLoaded":["num__tool"]}}');
  try {
    assert.ok(s.menuJSON('mcp').includes(`"inputSchema":${schema}}`));
  } finally {
    s.free();
  }
});

test('issue 21 reproduction: a decision swapped for other allowed tools no longer replays silently', async () => {
  // The fixture session: decision 2 (a Kubernetes pods search) edited to
  // name terraform__apply and github__merge_pull_request, both inside the
  // universe. Before the hash chain this replayed with exit 0, no warning,
  // and terraform__apply loaded and callable.
  const config = path.join(ROOT, 'tests/fixtures/session/config.json');
  const calls = path.join(ROOT, 'tests/fixtures/session/calls.jsonl');
  const out = file('fixture-journal.jsonl');
  assert.equal(cli(['session', 'run', '--config', config, '--calls', calls, '--journal-out', out]).status, 0);
  const lines = (await readFile(out, 'utf8')).trimEnd().split('\n');
  const d = JSON.parse(lines[2]);
  assert.match(d.value.query, /Kubernetes/);
  d.value.results = ['terraform__apply', 'github__merge_pull_request'];
  d.value.loaded = ['terraform__apply', 'github__merge_pull_request'];
  lines[2] = JSON.stringify(d);
  const edited = file('fixture-edited.jsonl');
  await writeFile(edited, lines.join('\n') + '\n');
  const r = cli(['session', 'replay', '--config', config, '--calls', calls, '--journal', edited]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^toolsift: tampered: journal decision 2 \("parity#turn:0:tool:1:search"\): chain broken/);
  const v = cli(['session', 'verify', '--config', config, '--journal', edited]);
  assert.equal(v.status, 1);
  assert.deepEqual(JSON.parse(v.stdout).problems.map((p) => p.at), [2]);
});
