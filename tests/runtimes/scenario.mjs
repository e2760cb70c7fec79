// scenario.mjs — the runtime-matrix smoke scenario, host-neutral.
//
// One scenario, run unchanged in Node, Deno, Bun, workerd and Chromium over
// the package's ESM binding: build an index from corpus/catalog.json, run
// QUERIES with explain, print info, run a session (fixtures/session.json +
// fixtures/calls.jsonl) and replay it from its own journal, rebuild the menu
// from the journal in every format, write a snapshot and search the index
// loaded back from it. The result is one JSON document (assemble()), built
// only from the core's output bytes, so native.mjs can assemble the same
// document from the native CLI's stdout and the two compare byte for byte.
//
// No imports: this file must load in a browser and in a Worker as it is.

export const SCENARIO = 'toolsift-runtimes-smoke-1';

/** The fixed queries (search --limit 5 --explain each). */
export const QUERIES = [
  'create a pull request',
  'send a slack message',
  'refund a payment',
  'list kubernetes pods',
  'read a file',
  'schedule a meeting on my calendar',
  'translate text',
  'weather forecast for berlin',
  'createPullRequest',
  'GitHub Issue erstellen',
  'Kubernetes Pods auflisten',
  'Slack メッセージを検索',
  '翻译文本 translate text',
  'für Straße',
  'delete the production database',
  'upload to s3 bucket',
  'query postgres',
  'xyzzy plugh',
  'the of and',
  'constructor',
];

/** The queries searched on the index loaded from the snapshot. */
export const SNAPSHOT_QUERIES = ['create a pull request', 'refund a payment', 'Kubernetes Pods auflisten'];

export const SEARCH_OPTIONS = '{"limit":5,"explain":true}';
export const MENU_FORMATS = ['mcp', 'openai', 'anthropic'];

/**
 * The scenario's document. Every field but `scenario`, `snapshot.bytes`,
 * `snapshot.sha256` and `journal` (a JSON string of the JSONL journal) is a
 * core output pasted verbatim; `finish` is the replay's finish() JSON.
 */
export function assemble(p) {
  const list = (items) => `[\n${items.join(',\n')}\n]`;
  return (
    `{"scenario":${JSON.stringify(SCENARIO)},\n` +
    `"version":${JSON.stringify(p.version)},\n` +
    `"info":${p.info},\n` +
    `"search":${list(p.search)},\n` +
    `"session":${list(p.session)},\n` +
    `"journal":${JSON.stringify(p.journal)},\n` +
    `"replay":${list(p.replay)},\n` +
    `"finish":${p.finish},\n` +
    `"menu":{${MENU_FORMATS.map((f, i) => `${JSON.stringify(f)}:${p.menu[i]}`).join(',\n')}},\n` +
    `"snapshot":{"bytes":${p.snapshotBytes},"sha256":${JSON.stringify(p.snapshotSha256)}},\n` +
    `"snapshotInfo":${p.snapshotInfo},\n` +
    `"snapshotSearch":${list(p.snapshotSearch)}}\n`
  );
}

/** The calls of a calls.jsonl text: [{turn, call, tool, args}]. */
export function parseCalls(text) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/**
 * The session configuration with its "catalog" path replaced by the catalog
 * itself (what `toolsift session` does with the file it names).
 */
export function inlineCatalog(configText, catalogText) {
  const config = JSON.parse(configText);
  config.catalog = JSON.parse(catalogText);
  return JSON.stringify(config);
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function runCalls(session, calls) {
  return calls.map((c) => session.callJSON(c.turn, c.call, c.tool, JSON.stringify(c.args ?? {})));
}

/**
 * Run the scenario with a loaded toolsift instance (the result of load()).
 * inputs: { catalog, sessionConfig, calls } as text.
 */
export async function runScenario(toolsift, inputs) {
  const p = { version: toolsift.version };
  const index = toolsift.createIndex(inputs.catalog);
  let loaded = null;
  try {
    p.info = index.infoJSON();
    p.search = QUERIES.map((q) => index.searchJSON(q, SEARCH_OPTIONS));

    const config = inlineCatalog(inputs.sessionConfig, inputs.catalog);
    const calls = parseCalls(inputs.calls);
    const run = toolsift.createSession(config);
    try {
      p.session = runCalls(run, calls);
      p.journal = run.journalJSONL();
    } finally {
      run.free();
    }
    const replay = toolsift.createSession(config, { journal: p.journal, divergence: 'fail' });
    try {
      p.replay = runCalls(replay, calls);
      p.finish = replay.finishJSON();
    } finally {
      replay.free();
    }
    p.menu = MENU_FORMATS.map((format) => {
      const s = toolsift.createSession(config, { journal: p.journal });
      try {
        s.applyJournal();
        return s.menuJSON(format);
      } finally {
        s.free();
      }
    });

    const snap = index.snapshot();
    p.snapshotBytes = snap.length;
    p.snapshotSha256 = await sha256Hex(snap);
    loaded = toolsift.indexFromSnapshot(snap);
    p.snapshotInfo = loaded.infoJSON();
    p.snapshotSearch = SNAPSHOT_QUERIES.map((q) => loaded.searchJSON(q, SEARCH_OPTIONS));
  } finally {
    index.free();
    loaded?.free();
  }
  return assemble(p);
}
