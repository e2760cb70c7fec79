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
//                       (see TAMPER below); replay marks it narrowed and the
//                       core's chain check finds the chain broken there
//   graded.json         the graded loop (ranker bm25f-6): a miss that loads
//                       nothing and offers vocabulary, strong hits loaded and
//                       partial ones listed, a call to a listed tool refused,
//                       then select: loading it (one name unknown)
//   skills.json         a run with activate_skill and skill discovery, written
//                       only when the binding supports skills (SPEC S8); the
//                       script says so and leaves it out otherwise
//   billing-*.json      three billing-desk runs by three clients (web, mobile,
//                       api: the session option `client`) whose users say
//                       "chargeback" for a refund: each search misses, the
//                       agent searches again in the catalog's words and calls
//                       stripe__create_refund (the mobile run first calls
//                       paypal__refund_capture, which the host reports failed).
//                       Enough for the learner's default rule (3 sessions, 2
//                       clients): "Learn from the sessions here" learns
//                       "chargeback" for stripe__create_refund
//   billing-learned.json  a run under the vocabulary learned from those three
//                       (its `annotations`, the header's "vocabulary" digest):
//                       "reverse the chargeback" now finds the refund at once
//   pre-search.json     the host searches each user message before the
//                       model's turn (Session#preSearch, host-pre-search
//                       decisions): the first loads the refund tool, the
//                       second only lists partial hits and the model searches
//   auto-mode.json      search.auto over the seven Stripe tools (namespaces):
//                       every one on the menu from the start, no search_tools
//                       (mode "all" in the journal header)
//   index.json          the list the playground preloads (the clean run is
//                       its "default": the page opens it when a link names none)
//
// A recording is { format, title, description, catalog, skills?, config,
// calls, journal, annotations?, fingerprint, tampered? }: `catalog` is
// "bundled" (the page's corpus/catalog.json) or a catalog object, `skills`
// is merged into the catalog as its skills, `config` is the session
// configuration without its catalog, `calls` are the model's tool calls in
// order, with the host's pre-searches among them ({ turn, preSearch: the
// user's message }, a calls file's pre-search line), `journal` the journal the session recorded (its chain header
// first, then the decisions and call records, as session.journal() returns
// it; a call the host reported failed is in it, not in `calls`),
// `annotations` the learned vocabulary the session ran under (the session
// option), `fingerprint` the session's metrics fingerprint when recorded
// (the page warns when the live one differs).

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

/**
 * Run `calls` through a fresh live session; the journal it recorded.
 * `options` are the session's (client, annotations); `failed` lists the
 * calls ({ turn, call, tool }) the host reports failed right after making them.
 */
function record(config, catalog, calls, options = {}, failed = []) {
  const session = toolsift.createSession({ ...config, catalog }, options);
  try {
    const outputs = calls.map((c) => {
      // A pre-search { turn, preSearch } is the host's search of the user's message (Session#preSearch).
      if (typeof c.preSearch === 'string') return session.preSearch(c.turn, c.preSearch);
      const out = session.call(c.turn, c.call, c.tool, c.args);
      if (failed.some((f) => f.turn === c.turn && f.call === c.call && f.tool === c.tool)) session.callFailed(c.turn, c.call, c.tool);
      return out;
    });
    return { journal: session.journal(), outputs, fingerprint: session.fingerprint, mode: session.mode, menu: session.menu('mcp').tools.map((t) => t.name) };
  } finally {
    session.free();
  }
}

const search = (turn, call, query, limit) => ({
  turn, call, tool: 'search_tools', args: limit === undefined ? { query } : { query, limit },
});
const use = (turn, call, tool, args = {}) => ({ turn, call, tool, args });
/** The host searches the user's message before the model's turn `turn` (a calls file's pre-search line). */
const preSearch = (turn, text) => ({ turn, preSearch: text });

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
// `default`: the page opens this one when its link names no example (the
// clean run, so a first look shows a run as recorded, not the tampered one).
recordings.push({
  file: 'support-desk.json',
  default: true,
  recording: {
    format: FORMAT,
    title: 'Support desk (clean run)',
    description:
      'A support agent searches Zendesk (a remote, un-vouched server: a tainted page), files a GitHub issue, ' +
      'is refused a tool it never searched for, sends an empty query, and fills maxLoaded: the last search\'s ' +
      'hits are strong but listed unloaded (they do not fit). Replays identical.',
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
// The edit keeps the decision's recorded `chain` digest (whoever edits it
// does not recompute the chain): the core must find the chain broken at the
// edited decision and nowhere else, and the clean run's chain intact.
const decisionAt = tamperedJournal.filter((d) => d.source !== 'toolsift-journal').findIndex((d) => d.id === TAMPER_ID) + 1;
function verifyJournal(config, journal) {
  const session = toolsift.createSession({ ...config, catalog: bundled }, { journal, divergence: 'warn' });
  try {
    return session.verify();
  } finally {
    session.free();
  }
}
{
  const clean = verifyJournal(supportConfig, support.journal);
  const edited = verifyJournal(supportConfig, tamperedJournal);
  if (!clean.verified || clean.problems.length) {
    console.error(`make-examples: the clean support-desk journal does not verify: ${JSON.stringify(clean)}`);
    process.exit(1);
  }
  if (edited.problems.length !== 1 || edited.problems[0].at !== decisionAt || !/chain broken/.test(edited.problems[0].problem)) {
    console.error(`make-examples: the tampered journal's chain is not broken at decision ${decisionAt} only: ${JSON.stringify(edited.problems)}`);
    process.exit(1);
  }
}
recordings.push({
  file: 'tampered.json',
  recording: {
    format: FORMAT,
    title: 'Support desk (tampered decision)',
    description:
      `The support-desk run with decision ${decisionAt} (${TAMPER_ID}) edited after recording: a forged id ${FORGED} ` +
      'added to results and loaded, and loaded widened to every result. The journal\'s hash chain is broken at that ' +
      'decision (the edit kept its recorded digest), and replay narrows it back.',
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

// ---- graded: the loop that knows how sure it is --------------------------------
// Searches load only strong hits (search.load "strong", the default); partial
// ones are listed with loaded: false and a note. The model follows the note:
// after a miss it searches again with the catalog's words, and when a listed
// partial hit is the tool it needs it loads it by name with select:.
const gradedConfig = {
  loop: 'frontdesk',
  tools: [REPLY],
  search: { maxPerSearch: 4, maxLoaded: 6, maxSearches: 6 },
};
const SELECTED = 'outlook__create_calendar_event';
const gradedCalls = [
  search(0, 0, 'send a fax to the clinic'),
  search(1, 0, 'send an sms reminder'),
  use(1, 1, 'twilio__send_sms', { to: '+15550100', body: 'Reminder: your check-up is on Friday at 9:00.' }),
  search(2, 0, 'book a follow-up appointment in the calendar'),
  use(2, 1, SELECTED, { subject: 'Follow-up', start: '2026-12-11T09:00' }),
  search(2, 2, `select:${SELECTED},calendar__book_appointment`),
  use(2, 3, SELECTED, { subject: 'Follow-up', start: '2026-12-11T09:00' }),
  use(3, 0, 'reply', { text: 'Reminder sent by SMS and the follow-up is in the calendar.' }),
];
const graded = record(gradedConfig, bundled, gradedCalls);
{
  // The story holds only if the loop answers as described: check it here, so
  // a core change that breaks it fails this script instead of recording a
  // run whose description is wrong.
  const [miss, sms, calendar, refused, select] = [0, 1, 3, 4, 5].map((i) => graded.outputs[i].result);
  const problems = [];
  if (miss.tools.some((t) => t.loaded) || !miss.vocabulary?.length || !miss.unmatched?.includes('fax')) problems.push('the fax search is not a miss with vocabulary');
  if (!sms.tools.some((t) => t.loaded && t.name === 'twilio__send_sms') || !sms.tools.some((t) => t.match === 'partial' && !t.loaded)) {
    problems.push('the sms search does not load twilio__send_sms and list a partial hit');
  }
  if (!calendar.tools.some((t) => t.name === SELECTED && t.match === 'partial' && !t.loaded)) problems.push(`${SELECTED} is not a listed partial hit`);
  if (refused.error !== 'not_on_menu') problems.push(`the call to ${SELECTED} before select: is not refused`);
  if (!select.tools.some((t) => t.name === SELECTED && t.loaded && t.match === 'selected') || !select.unknown?.includes('calendar__book_appointment')) {
    problems.push('select: does not load the listed tool and name the unknown one');
  }
  if (problems.length) {
    console.error(`make-examples: the graded story no longer holds: ${problems.join('; ')}; update gradedCalls`);
    process.exit(1);
  }
}
recordings.push({
  file: 'graded.json',
  recording: {
    format: FORMAT,
    title: 'Front desk (graded loop, select:)',
    description:
      'Searches load only strong hits. "send a fax" matches only "send": nothing loads, and the page names ' +
      'the unmatched words and the catalog\'s vocabulary. The agent searches again in those words: the two SMS ' +
      'tools are strong and load, two partial hits are only listed. For the calendar every hit is partial, so ' +
      `a call to ${SELECTED} is refused (listed, not loaded); the agent loads it with ` +
      `select:${SELECTED},calendar__book_appointment (the second name is unknown) and the call is allowed.`,
    catalog: 'bundled',
    config: gradedConfig,
    calls: gradedCalls,
    journal: graded.journal,
    fingerprint: graded.fingerprint,
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
  search(2, 1, 'draft release notes'),
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
        'The first search loads the one strong hit (pagerduty__trigger_incident) and lists three partial ones; the ' +
        'agent activates incident-response from the skill index, and its tools join the menu. An unknown skill is ' +
        'refused, two activations are recorded refusals (tainted and oversized instructions), and "draft release ' +
        'notes" finds the release-notes skill through search_tools beside a strong tool hit, then activates it. ' +
        'Activation decisions pin the instructions by digest and size.',
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

// ---- billing: three clients teach the catalog a word (docs/learning.md) -------
// Users of a billing desk say "chargeback"; no tool's text has the word, so
// each run's first search misses the refund tool and the agent searches
// again in the catalog's words. The three runs come from three clients, so
// the learner's default rule (a word used for a tool in 3 sessions from 2
// clients) learns "chargeback" for stripe__create_refund. The mobile run
// calls paypal__refund_capture first and the host reports it failed: a
// failed call teaches nothing.
const billingConfig = {
  loop: 'billing',
  tools: [REPLY],
  search: { maxPerSearch: 4, maxLoaded: 8, maxSearches: 6 },
};
const REFUND = 'stripe__create_refund';
const FAILED = { turn: 0, call: 2, tool: 'paypal__refund_capture' };
const billingRuns = [
  {
    client: 'web', file: 'billing-web.json',
    calls: [search(0, 0, 'reverse the chargeback on order 1182'), search(0, 1, 'refund a payment'),
      use(0, 2, REFUND, { payment_intent: 'pi_1182' }), use(1, 0, 'reply', { text: 'The chargeback is refunded.' })],
  },
  {
    client: 'mobile', file: 'billing-mobile.json', failed: [FAILED],
    calls: [search(0, 0, 'customer filed a chargeback, reverse it'), search(0, 1, 'refund a payment'),
      use(FAILED.turn, FAILED.call, FAILED.tool, { capture_id: 'cap_7' }), use(0, 3, REFUND, { payment_intent: 'pi_7' }),
      use(1, 0, 'reply', { text: 'Refunded through Stripe.' })],
  },
  {
    client: 'api', file: 'billing-api.json',
    calls: [search(0, 0, 'chargeback reverse'), search(0, 1, 'refund payment'),
      use(0, 2, REFUND, { payment_intent: 'pi_9' }), use(1, 0, 'reply', { text: 'ok' })],
  },
];
for (const run of billingRuns) Object.assign(run, record(billingConfig, bundled, run.calls, { client: run.client }, run.failed));
const learner = toolsift.createLearner(bundled);
let learnedText;
try {
  for (const run of billingRuns) learner.addJournal(run.file, `${run.journal.map((d) => JSON.stringify(d)).join('\n')}\n`);
  learnedText = learner.finishJSON();
} finally {
  learner.free();
}
const learned = JSON.parse(learnedText);
const LEARNED_QUERY = 'reverse the chargeback';
const billingLearnedCalls = [search(0, 0, LEARNED_QUERY), use(0, 1, REFUND, { payment_intent: 'pi_2040' }), use(1, 0, 'reply', { text: 'Done.' })];
const billingLearned = record(billingConfig, bundled, billingLearnedCalls, { client: 'web', annotations: learned });
{
  // The story holds only as told: check it, so a core change that breaks it
  // fails this script instead of recording runs whose descriptions are wrong.
  const problems = [];
  for (const run of billingRuns) {
    const first = run.outputs[0].result;
    if (first.tools.some((t) => t.name === REFUND)) problems.push(`${run.file}: the first search already finds ${REFUND}`);
    if (!run.outputs[1].result.tools.some((t) => t.name === REFUND && t.loaded)) problems.push(`${run.file}: the second search does not load ${REFUND}`);
    if (!run.journal.some((d) => d.source === 'agent-tool-call' && d.value.tool === REFUND)) problems.push(`${run.file}: no call record of ${REFUND}`);
  }
  if (!billingRuns[1].journal.some((d) => d.source === 'agent-tool-call-failed' && d.value.tool === FAILED.tool)) problems.push('the mobile run records no failed call');
  if (!learned.annotations?.[REFUND]?.tags?.includes('chargeback')) problems.push(`the learner did not learn "chargeback" for ${REFUND}: ${learnedText}`);
  const page = billingLearned.outputs[0].result;
  if (!page.tools.some((t) => t.name === REFUND && t.match === 'strong' && t.loaded)) problems.push(`under the vocabulary "${LEARNED_QUERY}" does not load ${REFUND}`);
  if (billingLearned.journal[0].value.vocabulary === undefined) problems.push('the journal header records no vocabulary');
  if (billingLearned.outputs[1].result.allowed !== true) problems.push(`the call to ${REFUND} is not allowed under the vocabulary`);
  if (problems.length) {
    console.error(`make-examples: the billing story no longer holds: ${problems.join('; ')}`);
    process.exit(1);
  }
}
for (const run of billingRuns) {
  recordings.push({
    file: run.file,
    recording: {
      format: FORMAT,
      title: `Billing desk, client ${run.client} (learning)`,
      description:
        `One of three billing-desk runs by different clients (this one: "${run.client}", the session option client, in the journal header). ` +
        'The user says "chargeback", a word no tool has: the first search misses the refund tool, the agent searches again in the ' +
        `catalog's words and calls ${REFUND}.` +
        (run.failed ? ` It first calls ${FAILED.tool}, which the host reports failed (an agent-tool-call-failed record): a failed call teaches nothing.` : '') +
        ' Learn from the three in Vocabulary: the default rule (3 sessions, 2 clients) learns "chargeback" for the refund tool.',
      catalog: 'bundled',
      config: billingConfig,
      calls: run.calls,
      journal: run.journal,
      fingerprint: run.fingerprint,
    },
  });
}
recordings.push({
  file: 'billing-learned.json',
  recording: {
    format: FORMAT,
    title: 'Billing desk under the learned vocabulary',
    description:
      `The same desk under the vocabulary learned from the three billing runs (the recording's "annotations"; its digest is in the ` +
      `journal header). "${LEARNED_QUERY}" now loads ${REFUND} at once: its learned tags match. Replayed under no vocabulary, or ` +
      'another one, the core reports the divergence.',
    catalog: 'bundled',
    config: billingConfig,
    calls: billingLearnedCalls,
    journal: billingLearned.journal,
    annotations: learned,
    fingerprint: billingLearned.fingerprint,
  },
});

// ---- pre-search: the host searches the user's message (docs/sessions.md) ------
// Before each model turn the host searches the user's latest message
// (Session#preSearch): its strong hits load, at most search.preSearchLimit
// (default 2) of them, and the model calls the refund tool without a
// search_tools round trip. The second message gets only partial hits:
// nothing loads, and the model searches for what the pre-search missed.
const conciergeConfig = {
  loop: 'concierge',
  tools: [REPLY],
  search: { maxPerSearch: 4, maxLoaded: 6, maxSearches: 4 },
};
const FIRST_MESSAGE = 'Hi! Could you refund the payment for order 1182 to the customer? Thanks!';
const SECOND_MESSAGE = 'Thanks! Can you also translate the refund note into German for them?';
const TRANSLATE = 'deepl__translate_document';
const conciergeCalls = [
  preSearch(0, FIRST_MESSAGE),
  use(0, 0, REFUND, { payment_intent: 'pi_1182' }),
  use(1, 0, 'reply', { text: 'The payment for order 1182 is refunded.' }),
  preSearch(2, SECOND_MESSAGE),
  search(2, 0, 'translate a document with deepl'),
  use(2, 1, TRANSLATE, { document: 'refund-note.txt', target_lang: 'DE' }),
  use(3, 0, 'reply', { text: 'Here is the refund note in German.' }),
];
const concierge = record(conciergeConfig, bundled, conciergeCalls);
{
  // The story holds only as told: check it here.
  const [first, refundCall, , second, searched, translated] = concierge.outputs;
  const problems = [];
  const loaded = (page) => page.tools.filter((t) => t.loaded).map((t) => t.name);
  if (JSON.stringify(loaded(first.result)) !== JSON.stringify([REFUND]) || !first.result.tools.some((t) => !t.loaded)) {
    problems.push(`the first pre-search does not load ${REFUND} alone and list another hit: ${JSON.stringify(first.result.tools)}`);
  }
  if (first.decision?.source !== 'host-pre-search' || first.decision.id !== 'concierge#turn:0:pre-search') problems.push('the first pre-search is not the host\'s decision of turn 0');
  if (refundCall.result.allowed !== true) problems.push(`the call to ${REFUND} is not allowed after the pre-search`);
  if (loaded(second.result).length !== 0 || !second.result.tools.length) problems.push('the second pre-search loads a tool or finds none');
  if (!loaded(searched.result).includes(TRANSLATE)) problems.push(`search_tools does not load ${TRANSLATE}`);
  if (translated.result.allowed !== true) problems.push(`the call to ${TRANSLATE} is not allowed`);
  const ids = concierge.journal.map((d) => d.id);
  if (ids.indexOf('concierge#turn:2:pre-search') > ids.indexOf('concierge#turn:2:tool:0:search')) problems.push('the pre-search of turn 2 is not before its calls');
  if (problems.length) {
    console.error(`make-examples: the pre-search story no longer holds: ${problems.join('; ')}`);
    process.exit(1);
  }
}
recordings.push({
  file: 'pre-search.json',
  recording: {
    format: FORMAT,
    title: 'Concierge (pre-search of the user\'s messages)',
    description:
      'Before each model turn the host searches the user\'s message itself (pre-search: the host\'s decision, ' +
      '"<loop>#turn:T:pre-search", before the turn\'s calls). The first message loads its one strong hit, ' +
      `${REFUND}, and lists a partial one; the model calls the refund tool without calling search_tools. The second ` +
      'message gets only partial hits, so nothing loads; the model searches for what the pre-search missed and loads ' +
      `${TRANSLATE}. Replays identical: each pre-search is served from its record, like a search.`,
    catalog: 'bundled',
    config: conciergeConfig,
    calls: conciergeCalls,
    journal: concierge.journal,
    fingerprint: concierge.fingerprint,
  },
});

// ---- auto mode: every tool on the menu (docs/sessions.md, "Auto mode") ------
// search.auto with the namespace "stripe": the session's universe is the
// bundled catalog's seven Stripe tools, within auto mode's budget (30
// tools, 24,000 characters of specs), so every one of them is on the menu
// from the start and search_tools is not (mode "all", in the journal
// header). A call to search_tools is refused; a call to any Stripe tool is
// allowed at once.
const autoConfig = {
  loop: 'payments',
  tools: [REPLY],
  search: { auto: true, namespaces: ['stripe'] },
};
const autoCalls = [
  use(0, 0, 'search_tools', { query: 'refund a payment' }),
  use(0, 1, REFUND, { payment_intent: 'pi_77' }),
  use(1, 0, 'stripe__create_customer', { email: 'ana@example.com' }),
  use(2, 0, 'reply', { text: 'Refunded, and the customer is created.' }),
];
const auto = record(autoConfig, bundled, autoCalls);
{
  const problems = [];
  const ix = toolsift.createIndex(bundled);
  const stripe = ix.documents().tools.map((t) => t.id).filter((id) => id.startsWith('stripe__'));
  ix.free();
  if (stripe.length !== 7) problems.push(`the catalog has ${stripe.length} Stripe tools, not the seven the description says`);
  if (auto.mode !== 'all') problems.push(`the session's mode is ${auto.mode}, not all`);
  if (auto.journal[0]?.value?.mode !== 'all') problems.push('the journal header does not record "mode": "all"');
  if (auto.menu.includes('search_tools')) problems.push('search_tools is on the menu');
  if (!stripe.every((id) => auto.menu.includes(id))) problems.push(`not every Stripe tool is on the menu: ${auto.menu}`);
  if (auto.outputs[0].result.error !== 'not_on_menu') problems.push('the call to search_tools is not refused');
  if (auto.outputs[1].result.allowed !== true || auto.outputs[2].result.allowed !== true) problems.push('a Stripe tool is not allowed at once');
  if (problems.length) {
    console.error(`make-examples: the auto-mode story no longer holds: ${problems.join('; ')}`);
    process.exit(1);
  }
}
recordings.push({
  file: 'auto-mode.json',
  recording: {
    format: FORMAT,
    title: 'Payments (auto mode: every tool on the menu)',
    description:
      'search.auto with the namespace "stripe": the session may use the bundled catalog\'s seven Stripe tools, few enough ' +
      'for auto mode (30 tools and 24,000 characters of specs by default), so all of them are on the menu from the start and ' +
      'search_tools is not (mode "all", recorded in the journal header). The model\'s call to search_tools is refused; ' +
      `its calls to ${REFUND} and stripe__create_customer are allowed at once. The journal holds the header and two call records, no decision.`,
    catalog: 'bundled',
    config: autoConfig,
    calls: autoCalls,
    journal: auto.journal,
    fingerprint: auto.fingerprint,
  },
});

// ---- write -------------------------------------------------------------------
const index = {
  format: 'toolsift-examples-1',
  examples: recordings.map(({ file, recording, ...r }) => ({ file, title: recording.title, ...(r.default ? { default: true } : {}) })),
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
