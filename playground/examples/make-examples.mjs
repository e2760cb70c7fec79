#!/usr/bin/env node
// make-examples.mjs — records the playground's example journals by really
// running sessions through the JS binding (js/toolsift.js + the wasm module):
// nothing here writes a decision by hand except the one documented edit of
// the tampered example.
//
//   node playground/examples/make-examples.mjs          (re)write the examples
//   node playground/examples/make-examples.mjs --check  exit 1 if a file would change
//
// Env TOOLSIFT_WASM picks the module (default build/wasm/toolsift.wasm).
//
// Writes, next to this script:
//   support-desk.json   a clean run: searches, a tainted page, caps reached,
//                       refusals (not_on_menu, invalid_input); replays identical
//   tampered.json       the same run with ONE decision edited after recording
//                       (see TAMPER below); replay marks it narrowed
//   skills.json         a run with activate_skill and skill discovery, written
//                       only when the binding supports skills (SPEC S8); the
//                       script says so and leaves it out otherwise
//   index.json          the list the playground preloads
//
// A recording is { format, title, description, catalog, skills?, config,
// calls, journal, fingerprint, tampered? }: `catalog` is "bundled" (the
// page's corpus/catalog.json) or a catalog object, `skills` is merged into the
// catalog as its skills, `config` is the session configuration without its
// catalog, `calls` are the model's tool calls in order, `journal` the
// decisions the session recorded, `fingerprint` the session's metrics
// fingerprint when recorded (the page warns when the live one differs).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../js/toolsift.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const WASM = process.env.TOOLSIFT_WASM || path.join(ROOT, 'build/wasm/toolsift.wasm');
const CHECK = process.argv.includes('--check');
const FORMAT = 'toolsift-recording-1';

const bundled = JSON.parse(readFileSync(path.join(ROOT, 'corpus/catalog.json'), 'utf8'));
const toolsift = await load(WASM);

const REPLY = {
  name: 'reply',
  description: 'Send the final answer to the user.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/** Run `calls` through a fresh live session; the journal it recorded. */
function record(config, catalog, calls) {
  const session = toolsift.createSession({ ...config, catalog });
  try {
    const outputs = calls.map((c) => session.call(c.turn, c.call, c.tool, c.args));
    return { journal: session.journal(), outputs, fingerprint: session.fingerprint };
  } finally {
    session.free();
  }
}

const search = (turn, call, query, limit) => ({
  turn, call, tool: 'search_tools', args: limit === undefined ? { query } : { query, limit },
});
const use = (turn, call, tool, args = {}) => ({ turn, call, tool, args });

// ---- support-desk: the clean run ---------------------------------------------
const supportConfig = {
  loop: 'support',
  tools: [REPLY],
  search: { alwaysLoaded: ['slack__send_message'], maxPerSearch: 3, maxLoaded: 7, maxSearches: 8, maxMenuChars: 9000 },
};
const supportCalls = [
  search(0, 0, 'find the customer ticket in zendesk'),
  use(0, 1, 'zendesk__search_tickets', { query: 'requester:ana@example.com' }),
  search(1, 0, 'create_issue'),
  use(1, 1, 'github__create_issue', { owner: 'acme', repo: 'app', title: 'Checkout fails on Safari' }),
  use(1, 2, 'stripe__create_refund', { charge: 'ch_1' }),
  search(2, 0, '   '),
  search(2, 1, 'refund a payment', 2),
  use(2, 2, 'stripe__create_refund', { charge: 'ch_1' }),
  search(3, 0, 'post a message to a slack channel'),
  use(3, 1, 'slack__send_message', { channel: '#support', text: 'Refunded and filed.' }),
  use(4, 0, 'reply', { text: 'Your refund is on its way and the bug is filed.' }),
];
const support = record(supportConfig, bundled, supportCalls);

const recordings = [];
recordings.push({
  file: 'support-desk.json',
  recording: {
    format: FORMAT,
    title: 'Support desk (clean run)',
    description:
      'A support agent searches Zendesk (a remote, un-vouched server: a tainted page), files a GitHub issue, ' +
      'is refused a tool it never searched for, sends an empty query, and fills maxLoaded. Replays identical.',
    catalog: 'bundled',
    config: supportConfig,
    calls: supportCalls,
    journal: support.journal,
    fingerprint: support.fingerprint,
  },
});

// ---- tampered: the same run, one decision edited after recording -------------
// TAMPER: in the decision of turn 2, call 1 ("refund a payment", limit 2) the
// edit (1) appends a forged id `admin__grant_root` (not in the catalog) to
// both `results` and `loaded`, and (2) widens `loaded` with every recorded
// result, so an id the live loading plan left out is claimed as loaded.
// Replay must drop the forged id (unknown) and re-plan `loaded`: narrowed.
const TAMPER_ID = 'support#turn:2:tool:1:search';
const FORGED = 'admin__grant_root';
const tamperedJournal = structuredClone(support.journal);
const victim = tamperedJournal.find((d) => d.id === TAMPER_ID);
if (!victim) throw new Error(`tamper: ${TAMPER_ID} not recorded`);
if (bundled.tools.some((t) => (t.id ?? t.name) === FORGED)) throw new Error(`tamper: ${FORGED} exists in the catalog`);
const before = structuredClone(victim.value);
victim.value.results = [...victim.value.results, FORGED];
victim.value.loaded = [...victim.value.results];
recordings.push({
  file: 'tampered.json',
  recording: {
    format: FORMAT,
    title: 'Support desk (tampered decision)',
    description:
      `The support-desk run with decision ${TAMPER_ID} edited after recording: a forged id ${FORGED} ` +
      'added to results and loaded, and loaded widened to every result. Replay narrows it back.',
    catalog: 'bundled',
    config: supportConfig,
    calls: supportCalls,
    journal: tamperedJournal,
    fingerprint: support.fingerprint,
    tampered: {
      decision: TAMPER_ID,
      edits: [
        `appended the forged id ${FORGED} to value.results and value.loaded`,
        'set value.loaded to every id in value.results (widening it)',
      ],
      original: before,
    },
  },
});

// ---- skills: the bundled catalog's own skills (SPEC S8) ----------------------
// corpus/catalog.json carries skills (corpus/tools/parts/skills.cjs), so the
// recording uses the bundled catalog as it is: discovery through search, two
// activations whose tools join the menu, an unknown skill, and both recorded
// refusals (tainted and oversized instructions).
const SKILLS = null;
const skillsConfig = {
  loop: 'oncall',
  tools: [REPLY],
  search: { maxPerSearch: 4, maxLoaded: 10, maxSearches: 6 },
  skills: { catalog: 'registry', discovery: 'both', maxActive: 2 },
};
const skillsCalls = [
  search(0, 0, 'the checkout service is down, page on-call'),
  use(0, 1, 'activate_skill', { name: 'incident-response' }),
  use(1, 0, 'pagerduty__trigger_incident', { service: 'checkout', summary: 'API 500s' }),
  use(1, 1, 'activate_skill', { name: 'no-such-skill' }),
  use(1, 2, 'activate_skill', { name: 'growth-hacks' }),
  use(2, 0, 'activate_skill', { name: 'security-handbook' }),
  search(2, 1, 'write release notes for the new version'),
  use(2, 2, 'activate_skill', { name: 'release-notes' }),
  use(3, 0, 'reply', { text: 'Incident opened; release notes drafted.' }),
];

function skillsSupported() {
  const catalog = SKILLS ? { ...bundled, skills: SKILLS } : bundled;
  let run;
  try {
    run = record(skillsConfig, catalog, skillsCalls);
  } catch (e) {
    // A binding without skills accepts and ignores the `skills` key, so a
    // refusal means skills exist and this scenario no longer fits them.
    return {
      ok: false, fatal: true,
      why: `the binding refused this script's skills scenario (${e.code ?? 'error'}: ${e.message}); ` +
        'update SKILLS, skillsConfig and skillsCalls in make-examples.mjs to the skills API',
    };
  }
  const activations = run.journal.filter((d) => d.source === 'agent-skill-activation');
  if (activations.length === 0) {
    return { ok: false, why: 'activate_skill recorded no decision (skills are not implemented in this binding)' };
  }
  return { ok: true, run };
}

const skills = skillsSupported();
if (skills.ok) {
  recordings.push({
    file: 'skills.json',
    recording: {
      format: FORMAT,
      title: 'On-call with skills',
      description:
        'Skill discovery through search_tools, two activations (their tools join the menu), an unknown skill ' +
        'refused, and two recorded refusals (tainted and oversized instructions). Activation decisions pin the ' +
        'instructions by digest and size.',
      catalog: 'bundled',
      ...(SKILLS ? { skills: SKILLS } : {}),
      config: skillsConfig,
      calls: skillsCalls,
      journal: skills.run.journal,
      fingerprint: skills.run.fingerprint,
    },
  });
} else if (skills.fatal) {
  console.error(`make-examples: ${skills.why}`);
  process.exit(1);
} else {
  console.log(`make-examples: skills.json not written: ${skills.why}`);
}

// ---- write -------------------------------------------------------------------
const index = {
  format: 'toolsift-examples-1',
  examples: recordings.map(({ file, recording }) => ({ file, title: recording.title })),
};
const outputs = [...recordings.map(({ file, recording }) => [file, recording]), ['index.json', index]];
let stale = 0;
for (const [file, doc] of outputs) {
  const target = path.join(HERE, file);
  const text = `${JSON.stringify(doc, null, 1)}\n`;
  const old = existsSync(target) ? readFileSync(target, 'utf8') : null;
  if (old === text) continue;
  if (CHECK) {
    console.log(`make-examples: ${file} is out of date`);
    stale++;
  } else {
    writeFileSync(target, text);
    console.log(`make-examples: wrote ${file} (${text.length} bytes)`);
  }
}
if (CHECK && stale) process.exit(1);
