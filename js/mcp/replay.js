// replay.js — `toolsift-mcp --replay JOURNAL`: a client session's menus,
// rebuilt from its journal alone, with zero ranking.
//
// Owns: reading a gateway journal (segment lines and toolsift decisions),
// running each segment's decisions through the same ClientSession code the
// gateway runs (a toolsift session in replay mode, divergence 'fail'), and
// the output: one JSON line per step with the menu's tool names, then the
// full MCP tool list the session ended with.
//
// Each segment line carries the toolsift configuration (catalog included)
// the gateway made that segment with, and a sha256 of its catalog; a catalog
// that does not match its key is an error (the file was damaged or edited),
// and so is a segment whose replayed toolsift session fingerprint is not the
// recorded one: that fingerprint covers the index (every tool's text and
// trust class), the caps, the load rule, namespaces, alwaysLoaded and skills,
// so an edited configuration shows as such (as does another toolsift
// version: the record cannot vouch for this one's decisions either).
// The decisions are untrusted as in any toolsift replay (SPEC S9): re-admitted
// against that catalog and configuration, so an edited decision can only
// narrow the menu.
//
// A segment line also carries the vocabulary its index was built with
// (search.annotations, the file's text, with its sha256: vocabularyKey) and
// the principal its session served (the chain header's client). The call
// records between the decisions are replayed too, in order, through the same
// gate (a call is allowed only if its tool is on the replayed menu), so the
// replayed session writes its journal again; for a chained segment that
// journal must be the recorded one, line for line — so the chain runs on into
// the next segment, and a record edited and re-chained without a key (which
// re-admission would narrow) is reported instead of served.

import { createHash } from 'node:crypto';
import { ClientSession, SEGMENT_SOURCE, decisionTurn } from './session.js';

const DECISION_SOURCES = new Set(['agent-tool-search', 'agent-skill-activation', 'host-pre-search']);
// The core's call records: chained with the decisions, not decisions
// themselves (the replayed session passes over them).
const CALL_SOURCES = new Set(['agent-tool-call', 'agent-tool-call-failed']);
const HEADER_SOURCE = 'toolsift-journal'; // a segment's hash-chain header (the core's)

export class JournalError extends Error {
  constructor(message) {
    super(message);
    this.name = 'JournalError';
  }
}

/** Parse a journal's text into segments: [{ value, decisions: [line text] }]. */
export function readJournal(text) {
  const segments = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    let rec;
    try {
      rec = JSON.parse(line);
    } catch (e) {
      throw new JournalError(`line ${i + 1}: not JSON (${e.message})`);
    }
    if (rec?.source === SEGMENT_SOURCE) {
      const v = rec.value;
      if (!v || typeof v !== 'object' || !v.config || typeof v.config !== 'object' || !Number.isInteger(v.turn)) {
        throw new JournalError(`line ${i + 1}: a segment line needs value.config and value.turn`);
      }
      const key = createHash('sha256').update(JSON.stringify(v.config.catalog)).digest('hex');
      if (key !== v.catalogKey) {
        throw new JournalError(`line ${i + 1}: segment ${v.segment}'s catalog does not match its catalogKey (the journal was damaged or edited)`);
      }
      if (v.vocabulary !== undefined || v.vocabularyKey !== undefined) {
        const vkey = typeof v.vocabulary === 'string' ? createHash('sha256').update(v.vocabulary, 'utf8').digest('hex') : null;
        if (vkey === null || vkey !== v.vocabularyKey) {
          throw new JournalError(`line ${i + 1}: segment ${v.segment}'s vocabulary does not match its vocabularyKey (the journal was damaged or edited)`);
        }
      }
      if (v.principal !== undefined && typeof v.principal !== 'string') {
        throw new JournalError(`line ${i + 1}: segment ${v.segment}'s principal is not a string`);
      }
      segments.push({ value: v, header: null, decisions: [], lines: [] });
    } else if (rec?.source === HEADER_SOURCE) {
      const seg = segments[segments.length - 1];
      if (!seg || seg.header !== null || seg.lines.length) {
        throw new JournalError(`line ${i + 1}: a chain header that does not follow a segment line`);
      }
      seg.header = line;
    } else if (DECISION_SOURCES.has(rec?.source) || CALL_SOURCES.has(rec?.source)) {
      if (segments.length === 0) throw new JournalError(`line ${i + 1}: a decision before any segment line`);
      const seg = segments[segments.length - 1];
      seg.lines.push(line);
      if (DECISION_SOURCES.has(rec.source)) seg.decisions.push(line);
    } else {
      throw new JournalError(`line ${i + 1}: unknown record source ${JSON.stringify(rec?.source)}`);
    }
  }
  if (segments.length === 0) throw new JournalError('no segment line: this is not a toolsift-mcp journal');
  return segments;
}

// The journal the replayed segment wrote against the recorded one: the same
// header (the same parent, key, client and vocabulary), the same decisions
// (re-admitted whole: nothing narrowed) and the same call records.
function sameRecord(seg, replayed) {
  const recorded = [seg.header, ...seg.lines].map((l) => l.trim());
  for (let k = 0; k < Math.max(recorded.length, replayed.length); k++) {
    if (recorded[k] !== replayed[k]) {
      const what = k === 0 ? 'its chain header' : `its record ${k} (${JSON.stringify(JSON.parse(recorded[k] ?? replayed[k]).id)})`;
      throw new JournalError(`segment ${seg.value.segment}: the replay wrote another journal than the recorded one at ${what}: the record was edited (a decision narrowed on replay, or the segment line's principal or vocabulary changed) or another toolsift version wrote it`);
    }
  }
}

function checkFingerprint(value, replayed) {
  const recorded = value.sessionFingerprint;
  if (typeof recorded !== 'string') {
    throw new JournalError(`segment ${value.segment}: no sessionFingerprint, so its configuration cannot be checked (the journal was damaged or edited)`);
  }
  if (recorded !== replayed) {
    throw new JournalError(`segment ${value.segment}: its configuration does not match the recorded session fingerprint (recorded ${recorded}, replayed ${replayed}): the segment's catalog, trust, caps, alwaysLoaded, namespaces or skills were edited, or another toolsift version wrote the journal`);
  }
}

/**
 * Replay a journal's text. Returns { steps, tools, warnings }: steps are
 * { segment, turn, menu } at each segment start and { decision, turn,
 * ranker, results, grades?, loaded, menu } after each search decision
 * ({ decision, turn, loaded, menu } after a skill activation; { call, turn,
 * tool, failed?, menu } for each call record; menu: the tool names listed
 * then); tools: the final MCP tool list.
 */
export function replayJournal(toolsift, text, { journalKey = null } = {}) {
  const segments = readJournal(text);
  const first = segments[0].value.config;
  const gatewayConfig = {
    loop: first.loop ?? 'agent',
    search: { toolName: first.search?.toolName },
    skills: first.skills ? { settings: first.skills, list: [] } : null,
    includeSchemas: false,
    servers: [],
    alwaysLoaded: [],
    journalKey,
  };
  const cs = new ClientSession(toolsift, gatewayConfig, null, { chain: true });
  const steps = [];
  const warnings = [];
  const names = () => cs.listTools().map((t) => t.name);
  try {
    for (const seg of segments) {
      if (cs.segment) cs.segment.session.finish();
      // The core verifies the segment's chain (header, parent, digests, key)
      // before serving: an edit is a 'tampered' error naming the decision.
      cs.startSegment(seg.value, [...(seg.header ? [seg.header] : []), ...seg.lines].join('\n'));
      checkFingerprint(seg.value, cs.segment.fingerprint);
      steps.push({ segment: seg.value.segment, turn: seg.value.turn, generation: seg.value.generation, menu: names() });
      for (const line of seg.lines) {
        const rec = JSON.parse(line);
        const at = decisionTurn(rec.id);
        if (CALL_SOURCES.has(rec.source)) {
          if (!at || at.kind !== 'call') throw new JournalError(`call record ${JSON.stringify(rec.id)}: not a <loop>#turn:N:tool:M:call id`);
          const tool = rec.value?.tool;
          const failed = rec.source === 'agent-tool-call-failed';
          if (typeof tool !== 'string' || !cs.replayCall(at.turn, at.call, tool, failed)) {
            throw new JournalError(`call record ${rec.id}: ${failed ? 'no allowed call of' : 'not allowed:'} ${JSON.stringify(tool)} ${failed ? 'at that turn' : 'is not on the replayed menu'} (the journal was damaged or edited)`);
          }
          steps.push({ call: rec.id, turn: at.turn, tool, ...(failed ? { failed: true } : {}), menu: names() });
          continue;
        }
        if (!at || at.kind === 'call') throw new JournalError(`decision ${JSON.stringify(rec.id)}: not a <loop>#turn:N:tool:M:search|skill id`);
        if (at.kind === 'pre-search') { // the host's search of a user message, served from the record
          const { output } = cs.preSearch(at.turn, String(rec.value?.query ?? ''));
          for (const w of output.warnings ?? []) warnings.push(`${rec.id}: ${typeof w === 'string' ? w : JSON.stringify(w)}`);
          const v = output.decision?.value ?? {};
          steps.push({ decision: rec.id, turn: at.turn, preSearch: true, ranker: v.ranker, results: v.results ?? [],
            ...(Array.isArray(v.grades) ? { grades: v.grades } : {}), loaded: v.loaded ?? [], menu: names() });
          continue;
        }
        const search = at.kind === 'search';
        const tool = search ? cs.searchToolName : cs.skillToolName;
        if (!tool) throw new JournalError(`decision ${rec.id}: a skill activation, but skills are off`);
        const args = search ? { query: String(rec.value?.query ?? '') || '-' } : { name: String(rec.value?.skill ?? '') || '-' };
        const { output } = cs.callMeta(at.turn, tool, args);
        for (const w of output.warnings ?? []) warnings.push(`${rec.id}: ${typeof w === 'string' ? w : JSON.stringify(w)}`);
        // The decision as the replayed session wrote it (re-admitted, so an
        // edited record shows what it was narrowed to): its results, their
        // grades when the page was graded, what loaded.
        const v = output.decision?.value ?? {};
        const step = { decision: rec.id, turn: at.turn };
        if (search) {
          step.ranker = v.ranker;
          step.results = v.results ?? [];
          if (Array.isArray(v.grades)) step.grades = v.grades;
        }
        step.loaded = v.loaded ?? [];
        step.menu = names();
        steps.push(step);
      }
      // A chained segment replays into its own record, line for line.
      if (seg.header) sameRecord(seg, cs.segmentJournalLines());
    }
    cs.segment.session.finish();
    warnings.push(...cs.warnings);
    return { steps, tools: cs.listTools(), warnings };
  } finally {
    cs.close();
  }
}
