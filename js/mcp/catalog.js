// catalog.js — the gateway's searchable universe: one toolsift catalog built
// from the tool lists of every live upstream, and a generation number that
// moves whenever that catalog changes.
//
// Owns: namespacing (`<namespace>__<tool>`), the trust policy's inputs
// (every upstream tool is `origin: "remote"`, `trusted` only for servers the
// configuration marks trusted — SPEC S2), host annotations, per-server caps,
// the route from a namespaced id back to its server and upstream name, and
// dropping (with a warning that names it) any upstream tool toolsift would
// reject, so one bad tool never takes the catalog down.

import { createHash } from 'node:crypto';
import { GatewayConfigError } from './errors.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

export const namespaced = (namespace, name) => `${namespace}__${name}`;

/**
 * What identifies a generation: its catalog's key (the sha256 a segment
 * line records as catalogKey) and, with search.annotations, the
 * vocabulary's (vocabularyKey): a new vocabulary is a new generation.
 */
export const universeKey = (catalogKey, vocabularyKey = null) =>
  vocabularyKey ? createHash('sha256').update(`${catalogKey}:${vocabularyKey}`).digest('hex') : catalogKey;

/**
 * The core's check of a vocabulary (config.vocabulary, from
 * search.annotations) before the gateway builds anything with it: an index
 * of no tools over it. Throws a GatewayConfigError naming the file.
 */
export function checkVocabulary(toolsift, vocabulary) {
  if (!vocabulary) return;
  try {
    toolsift.createIndex({ tools: [] }, { annotations: vocabulary.text }).free();
  } catch (e) {
    throw new GatewayConfigError(`search.annotations ${vocabulary.file}: ${e.message}`);
  }
}

// A deep copy fit for the core: lone UTF-16 surrogates (which would reach
// cJSON as malformed escapes) become U+FFFD, in keys too, and nesting past
// MAX_DEPTH becomes {} (the core reads 8 levels of a schema).
const MAX_DEPTH = 64;
function wellFormed(v, depth = 0) {
  if (typeof v === 'string') return v.toWellFormed();
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) return {};
  if (Array.isArray(v)) return v.map((x) => wellFormed(x, depth + 1));
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k.toWellFormed()] = wellFormed(x, depth + 1);
  return out;
}

function catalogTool(server, tool, id) {
  const t = {
    id,
    name: tool.name,
    description: typeof tool.description === 'string' ? tool.description.toWellFormed() : '',
    inputSchema: wellFormed(tool.inputSchema),
    origin: 'remote',
    trusted: server.trusted,
  };
  if (typeof tool.title === 'string') t.title = tool.title.toWellFormed();
  else if (typeof tool.annotations?.title === 'string') t.title = tool.annotations.title.toWellFormed();
  const hints = hintsOf(tool);
  if (hints) t.annotations = hints; // booleans only; the listing shows them
  return t;
}

// MCP behaviour hints (booleans only: no upstream text) kept for the listing.
function hintsOf(tool) {
  const out = {};
  for (const h of HINTS) if (typeof tool.annotations?.[h] === 'boolean') out[h] = tool.annotations[h];
  return Object.keys(out).length ? out : null;
}

/**
 * Build the universe from the servers (configuration order) and their
 * upstreams' current tool lists. `toolsift` (a loaded module) checks the
 * catalog; a tool it rejects is dropped and named in `warnings`.
 * With config.vocabulary (search.annotations) the index is built with it
 * (the core merges it after the catalog's own annotations).
 * Returns { catalog, routes: Map(id or menu name → {server, name}), key (the
 * generation's: universeKey), catalogKey, vocabulary (config.vocabulary or
 * null), fingerprint, snapshot (the index's bytes, or null), warnings }.
 */
export function buildUniverse(toolsift, config, upstreams, model = null) {
  const warnings = [];
  const tools = [];
  const annotations = {};
  const routes = new Map();
  for (const server of config.servers) {
    const up = upstreams.get(server.key);
    if (!up || !Array.isArray(up.tools)) continue;
    let kept = 0;
    for (const tool of up.tools) {
      if (!tool || typeof tool !== 'object' || typeof tool.name !== 'string') {
        warnings.push(`server "${server.key}": a tool without a name was skipped`);
        continue;
      }
      const schema = tool.inputSchema;
      if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || schema.type !== 'object') {
        warnings.push(`server "${server.key}": tool "${tool.name}" skipped: its inputSchema is not a JSON Schema of type "object"`);
        continue;
      }
      // any name: one the model cannot call by gets a safe name from the
      // core (routes below), and the upstream still gets its own name
      const id = namespaced(server.namespace, tool.name);
      if (routes.has(id)) {
        warnings.push(`server "${server.key}": tool "${tool.name}" skipped: listed twice`);
        continue;
      }
      if (kept >= server.maxTools) {
        warnings.push(`server "${server.key}": tools past maxTools (${server.maxTools}) skipped, from "${tool.name}" on`);
        break;
      }
      kept++;
      tools.push(catalogTool(server, tool, id));
      routes.set(id, { server: server.key, name: tool.name });
      const a = server.annotations[tool.name];
      if (a) annotations[id] = a;
    }
    for (const name of Object.keys(server.annotations)) {
      if (!routes.has(namespaced(server.namespace, name))) {
        warnings.push(`server "${server.key}": annotations name "${name}", which the server does not list`);
      }
    }
  }
  const always = [...config.alwaysLoaded, ...config.servers.flatMap((s) => s.alwaysLoaded.map((n) => namespaced(s.namespace, n)))];
  for (const id of always) {
    if (!routes.has(id)) warnings.push(`alwaysLoaded "${id}" is not offered by any connected server now; left out`);
  }
  const skills = skillsFor(config, routes, warnings);
  // toolsift is the judge of a valid catalog: drop what it names, retry.
  // The index it builds is the one every client session of this generation
  // starts from (a snapshot: no re-analysis per session).
  let fingerprint = null;
  let snapshot = null;
  let menuNames = {};
  const stopwords = config.search.stopwords;
  const vocabulary = config.vocabulary ?? null;
  for (let attempt = 0; attempt < 64; attempt++) {
    const catalog = { tools, annotations };
    let index;
    try {
      // with a model, the tools' vectors too (the snapshot carries them);
      // with a vocabulary, its text as the file has it (the core digests it)
      const options = { ...(stopwords === undefined ? {} : { stopwords }), ...(model ? { model } : {}),
        ...(vocabulary ? { annotations: vocabulary.text } : {}) };
      index = toolsift.createIndex(catalog, Object.keys(options).length ? options : undefined);
      const info = index.info();
      fingerprint = info.fingerprint;
      menuNames = info.menuNames ?? {};
      try {
        snapshot = index.snapshot();
      } finally {
        index.free();
      }
      break;
    } catch (e) {
      // an error of the options (the vocabulary's, checked at start and on
      // reload, so rare) is no tool's: the generation is not built
      if (/^options\b/.test(e.message)) throw new Error(vocabulary ? `search.annotations ${vocabulary.file}: ${e.message}` : e.message);
      let bad = tools.findIndex((t) => e.message.includes(`"${t.id}"`) || e.message.includes(`${t.id}:`));
      if (bad < 0) bad = firstRejected(toolsift, tools, annotations);
      if (bad < 0) throw new Error(`the gateway's catalog was rejected: ${e.message}`);
      warnings.push(`tool "${tools[bad].id}" skipped: ${e.message}`);
      routes.delete(tools[bad].id);
      delete annotations[tools[bad].id];
      tools.splice(bad, 1);
    }
  }
  // A tool whose name the model cannot call by (a space, a non-ASCII
  // letter, more than 128 bytes, or a look-alike of another) is on the menu
  // under the core's safe name (docs/usage.md, "Tool ids"): the route
  // answers to both names, and the upstream is called by its own.
  for (const [id, menuName] of Object.entries(menuNames)) {
    const route = routes.get(id);
    if (!route) continue;
    routes.set(menuName, route);
    warnings.push(`server "${route.server}": tool ${JSON.stringify(route.name)} is offered to models as "${menuName}" (its name "${id}" is not one a model can call by)`);
  }
  const catalog = { tools, annotations, ...(skills ? { skills } : {}) };
  const catalogKey = createHash('sha256').update(JSON.stringify(catalog)).digest('hex');
  const key = universeKey(catalogKey, vocabulary?.key);
  // embedder: the model each session of this generation embeds queries with
  return { catalog, routes, key, catalogKey, vocabulary, fingerprint, snapshot, warnings, embedder: model };
}

// The error named no tool: try each alone (rare, so the cost is fine).
function firstRejected(toolsift, tools, annotations) {
  for (let i = 0; i < tools.length; i++) {
    const a = annotations[tools[i].id];
    try {
      toolsift.createIndex({ tools: [tools[i]], annotations: a ? { [tools[i].id]: a } : {} }).free();
    } catch {
      return i;
    }
  }
  return -1;
}

// Configured skills whose tools are in the universe (a tool that is not is
// dropped from the skill, with a warning): toolsift refuses unknown ids.
function skillsFor(config, routes, warnings) {
  if (!config.skills) return null;
  return config.skills.list.map((skill) => {
    if (!skill || typeof skill !== 'object' || !Array.isArray(skill.tools)) return skill; // toolsift names the error
    const tools = skill.tools.filter((id) => {
      const ok = routes.has(id);
      if (!ok) warnings.push(`skill "${skill.id ?? skill.name}": tool "${id}" is not offered by any upstream now; left out`);
      return ok;
    });
    return { ...skill, tools };
  });
}
