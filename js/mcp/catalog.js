// catalog.js — the gateway's searchable universe: one toolsift catalog built
// from the tool lists of every live upstream, and a generation number that
// moves whenever that catalog changes.
//
// Owns: namespacing (`<namespace>__<tool>`), the trust policy's inputs
// (every upstream tool is `origin: "remote"`, `trusted` only for servers the
// configuration marks trusted — SPEC S2), host annotations, per-server caps,
// the route from a namespaced id back to its server and upstream name, and
// isolation per upstream: any upstream tool toolsift rejects is dropped
// (with a warning naming the server, the tool and the reason), however many
// there are, and a server whose whole list is rejected is unavailable while
// the others keep working — so no upstream can take the catalog down.

import { createHash } from 'node:crypto';
import { GatewayConfigError, shown, shownText } from './errors.js';

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
 * upstreams' current tool lists. `toolsift` (a loaded module) is the judge
 * of what it can index: when it refuses the catalog, every tool is checked
 * alone once and each one it refuses is dropped (a warning names the
 * server, the tool and the core's reason), then the catalog is built once
 * more — however many bad tools there are. If it is still refused, each
 * server's tools are checked together and a server whose list is refused
 * as a whole leaves the catalog (unavailable); if even that is not enough,
 * the servers' tools are refused together and this throws (the caller keeps
 * the generation it has). A server that listed tools of which none is left
 * is unavailable too: logged, and absent from the catalog (so from the
 * search tool's overview, which the core writes from the catalog).
 * With config.vocabulary (search.annotations) the index is built with it
 * (the core merges it after the catalog's own annotations).
 * Returns { catalog, routes: Map(id or menu name → {server, name}), key (the
 * generation's: universeKey), catalogKey, vocabulary (config.vocabulary or
 * null), fingerprint, snapshot (the index's bytes), warnings, unavailable
 * (Map server key → why) }.
 */
export function buildUniverse(toolsift, config, upstreams, model = null) {
  const warnings = [];
  const skips = new Map(); // server key → [{ name (null: none), why, at }]: the tools skipped (logged by logSkips)
  const skip = (server, name, why, at = -1) => {
    if (!skips.has(server.key)) skips.set(server.key, []);
    skips.get(server.key).push({ name, why, at });
  };
  const entries = []; // { server, tool (the catalog's), annotation (host's, or undefined) }
  const listed = new Map(); // server key → how many tools it listed
  const unavailable = new Map(); // server key → why
  const ids = new Set();
  for (const server of config.servers) {
    const up = upstreams.get(server.key);
    if (!up || !Array.isArray(up.tools)) continue;
    listed.set(server.key, up.tools.length);
    const where = `server "${server.key}"`;
    let kept = 0;
    for (const [at, tool] of up.tools.entries()) {
      if (!tool || typeof tool !== 'object' || typeof tool.name !== 'string') {
        // under the same bound as the other skipped tools: 5,000 of them are not 5,000 lines
        skip(server, null, 'it has no name', at);
        continue;
      }
      const schema = tool.inputSchema;
      if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || schema.type !== 'object') {
        skip(server, tool.name, 'its inputSchema is not a JSON Schema of type "object"');
        continue;
      }
      // any name: one the model cannot call by gets a safe name from the
      // core (routes below), and the upstream still gets its own name
      const id = namespaced(server.namespace, tool.name);
      if (ids.has(id)) {
        skip(server, tool.name, 'listed twice');
        continue;
      }
      if (kept >= server.maxTools) {
        warnings.push(`${where}: tools past maxTools (${server.maxTools}) skipped, from ${shown(tool.name)} on`);
        break;
      }
      kept++;
      ids.add(id);
      entries.push({ server, name: tool.name, tool: catalogTool(server, tool, id), annotation: server.annotations[tool.name] });
    }
    for (const name of Object.keys(server.annotations)) {
      if (!ids.has(namespaced(server.namespace, name))) {
        warnings.push(`${where}: annotations name ${shown(name)}, which the server does not list`);
      }
    }
  }
  // toolsift is the judge of a valid catalog. The index it builds is the
  // one every client session of this generation starts from (a snapshot:
  // no re-analysis per session).
  const stopwords = config.search.stopwords;
  const vocabulary = config.vocabulary ?? null;
  const options = { ...(stopwords === undefined ? {} : { stopwords }), ...(model ? { model } : {}),
    ...(vocabulary ? { annotations: vocabulary.text } : {}) };
  const build = (list) => {
    try {
      return { index: indexOf(toolsift, list, options) };
    } catch (e) {
      // an error of the options (the vocabulary's, checked at start and on
      // reload, so rare) is no tool's: the generation is not built
      if (/^options\b/.test(e.message)) throw new Error(vocabulary ? `search.annotations ${vocabulary.file}: ${e.message}` : e.message);
      return { error: e };
    }
  };
  let live = entries;
  let built = build(live);
  if (built.error) {
    // Each tool alone, once (its own text first: a refusal there is the
    // upstream's; then with the host's annotations: a refusal there is the
    // configuration's, and the tool stays without them).
    const one = stopwords === undefined ? {} : { stopwords };
    live = [];
    for (const entry of entries) {
      const own = checkAlone(toolsift, entry.tool, undefined, one);
      if (own) {
        skip(entry.server, entry.name, `toolsift refused it${own}`);
        continue;
      }
      if (entry.annotation) {
        const annotated = checkAlone(toolsift, entry.tool, entry.annotation, one);
        if (annotated) {
          warnings.push(`mcpServers.${entry.server.key}.annotations.${shown(entry.name)}: toolsift refused it${annotated}; the tool is indexed without it`);
          entry.annotation = undefined;
        }
      }
      live.push(entry);
    }
    built = build(live);
    if (built.error) {
      // Still refused: each server's tools together; a server whose list
      // the core refuses as a whole leaves this generation.
      for (const server of config.servers) {
        const mine = live.filter((e) => e.server === server);
        if (mine.length === 0) continue;
        const alone = build(mine);
        if (alone.error) {
          unavailable.set(server.key, `toolsift refused its tool list as a whole: ${shownText(alone.error.message)}`);
          live = live.filter((e) => e.server !== server);
        } else {
          alone.index.free();
        }
      }
      built = build(live);
      if (built.error) {
        const servers = [...new Set(live.map((e) => e.server.key))].map((k) => `"${k}"`).join(', ');
        throw new Error(`toolsift refused the tools of servers ${servers} together (each server's alone is accepted): ${shownText(built.error.message)}`);
      }
    }
  }
  let fingerprint;
  let snapshot;
  let menuNames;
  try {
    const info = built.index.info();
    fingerprint = info.fingerprint;
    menuNames = info.menuNames ?? {};
    snapshot = built.index.snapshot();
  } finally {
    built.index.free();
  }
  // A server that listed tools of which none is left is unavailable: it
  // stays connected, and is judged again when it lists its tools again.
  const kept = new Map();
  for (const e of live) kept.set(e.server.key, (kept.get(e.server.key) ?? 0) + 1);
  for (const [key, n] of listed) {
    if (n > 0 && !kept.has(key) && !unavailable.has(key)) {
      unavailable.set(key, `none of the ${n} tool(s) it lists can be indexed (the skipped tools are named above)`);
    }
  }
  logSkips(skips, warnings);
  for (const [key, why] of unavailable) {
    warnings.push(`server "${key}" is unavailable: ${why}; it offers no tools until it lists tools toolsift accepts (the other servers are not affected)`);
  }
  const tools = live.map((e) => e.tool);
  const annotations = {};
  const routes = new Map();
  for (const e of live) {
    routes.set(e.tool.id, { server: e.server.key, name: e.name });
    if (e.annotation) annotations[e.tool.id] = e.annotation;
  }
  const always = [...config.alwaysLoaded, ...config.servers.flatMap((s) => s.alwaysLoaded.map((n) => namespaced(s.namespace, n)))];
  for (const id of always) {
    if (!routes.has(id)) warnings.push(`alwaysLoaded ${shown(id)} is not offered by any connected server now; left out`);
  }
  const skills = skillsFor(config, routes, warnings);
  // A tool whose name the model cannot call by (a space, a non-ASCII
  // letter, more than 128 bytes, or a look-alike of another) is on the menu
  // under the core's safe name (docs/usage.md, "Tool ids"): the route
  // answers to both names, and the upstream is called by its own.
  for (const [id, menuName] of Object.entries(menuNames)) {
    const route = routes.get(id);
    if (!route) continue;
    routes.set(menuName, route);
    warnings.push(`server "${route.server}": tool ${shown(route.name)} is offered to models as "${menuName}" (its name ${shown(id)} is not one a model can call by)`);
  }
  const catalog = { tools, annotations, ...(skills ? { skills } : {}) };
  const catalogKey = createHash('sha256').update(JSON.stringify(catalog)).digest('hex');
  const key = universeKey(catalogKey, vocabulary?.key);
  // embedder: the model each session of this generation embeds queries with
  return { catalog, routes, key, catalogKey, vocabulary, fingerprint, snapshot, warnings, unavailable, embedder: model };
}

// Skipped tools in the warnings: per server, the first SKIPS_NAMED one by
// one (the name and the reason), then one line for the rest — how many, for
// which reasons, and their first names — so that one upstream's list sets
// how many tools are dropped but not how many lines the log gets.
const SKIPS_NAMED = 10;
function logSkips(skips, warnings) {
  for (const [key, list] of skips) {
    for (const { name, why, at } of list.slice(0, SKIPS_NAMED)) {
      // a tool without a name is told by its place in the server's list
      warnings.push(name === null ? `server "${key}": a tool without a name was skipped (item ${at + 1} of its list)`
        : `server "${key}": tool ${shown(name)} skipped: ${why}`);
    }
    const rest = list.slice(SKIPS_NAMED);
    if (rest.length === 0) continue;
    const reasons = new Map();
    for (const { why } of rest) reasons.set(why, (reasons.get(why) ?? 0) + 1);
    const named = rest.slice(0, 20).map((r) => (r.name === null ? `item ${r.at + 1} (no name)` : shown(r.name))).join(', ');
    const whys = [...reasons].slice(0, 5).map(([why, n]) => `${n} × ${why}`).join('; ');
    warnings.push(`server "${key}": ${rest.length} more tools skipped (${list.length} in all): ${whys}` +
      `${reasons.size > 5 ? `; and ${reasons.size - 5} other reasons` : ''} — ${named}${rest.length > 20 ? `, and ${rest.length - 20} more` : ''}`);
  }
}

// The index of `entries` (the tools and the host's annotations of them).
function indexOf(toolsift, entries, options) {
  const annotations = {};
  for (const e of entries) if (e.annotation) annotations[e.tool.id] = e.annotation;
  return toolsift.createIndex({ tools: entries.map((e) => e.tool), annotations }, Object.keys(options).length ? options : undefined);
}

// The core's verdict on one tool alone (with `annotation`, the host's, when
// given): null when it is accepted, else the reason, as the core says it.
// The JSON is written here, so a byte position in the core's message can be
// told as the tool's field it falls in ("in its \"description\"").
function checkAlone(toolsift, tool, annotation, options) {
  let text = '{"tools":[{';
  const fields = [];
  for (const [k, v] of Object.entries(tool)) {
    if (v === undefined) continue;
    if (fields.length) text += ',';
    const from = Buffer.byteLength(text);
    text += `${JSON.stringify(k)}:${JSON.stringify(v)}`;
    fields.push([k, from, Buffer.byteLength(text)]);
  }
  text += '}],';
  const from = Buffer.byteLength(text);
  text += `"annotations":${JSON.stringify(annotation ? { [tool.id]: annotation } : {})}`;
  fields.push(['annotations', from, Buffer.byteLength(text)]);
  text += '}';
  try {
    toolsift.createIndex(text, Object.keys(options).length ? options : undefined).free();
    return null;
  } catch (e) {
    let message = String(e.message).replace(/^catalog: /, '');
    const at = /^(.*?) at byte (\d+) \(line \d+, column \d+\)(.*)$/s.exec(message);
    const field = at && fields.find(([, from, to]) => Number(at[2]) >= from && Number(at[2]) < to);
    if (field) message = `${at[1]}${at[3]}`;
    const place = field ? ` (in its ${JSON.stringify(field[0])})` : '';
    return `${place}: ${shownText(message)}`;
  }
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
