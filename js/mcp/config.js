// config.js — the gateway's configuration: read, checked and given defaults.
//
// Owns: the shape of toolsift-mcp's JSON configuration (docs/mcp-gateway.md)
// and its errors. Every error names the key that is wrong; unknown keys are
// errors too, so a typo never silently turns a setting off. Nothing here
// connects to anything.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { checkToken, normaliseOrigin } from './auth.js';
import { GatewayConfigError } from './errors.js';
import { GLOVE } from '../model-dir.js';

export { GatewayConfigError };

const ID_RE = /^[A-Za-z0-9_.:-]{1,128}$/;
const NAMESPACE_RE = /^[A-Za-z0-9_.:-]{1,64}$/;

const fail = (where, why) => {
  throw new GatewayConfigError(`${where}: ${why}`);
};
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkKeys(obj, allowed, where) {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) fail(where, `unknown key "${k}" (allowed: ${allowed.join(', ')})`);
  }
}

function optInt(obj, key, where, lo, hi, dflt) {
  const v = obj[key];
  if (v === undefined || v === null) return dflt;
  if (!Number.isInteger(v) || v < lo || v > hi) fail(`${where}.${key}`, `expected an integer from ${lo} to ${hi}`);
  return v;
}

function optBool(obj, key, where, dflt) {
  const v = obj[key];
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') fail(`${where}.${key}`, 'expected true or false');
  return v;
}

function stringList(v, where) {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) fail(where, 'expected an array of strings');
  return [...v];
}

function stringMap(v, where) {
  if (v === undefined || v === null) return {};
  if (!isObject(v) || Object.values(v).some((s) => typeof s !== 'string')) {
    fail(where, 'expected an object of string values');
  }
  return { ...v };
}

const SERVER_KEYS = [
  'type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'trusted', 'namespace', 'annotations',
  'alwaysLoaded', 'maxTools', 'callTimeoutMs', 'connectTimeoutMs', 'restart', 'disabled', 'perSession',
];

function checkServer(key, s, baseDir) {
  const where = `mcpServers.${key}`;
  if (!isObject(s)) fail(where, 'expected an object');
  checkKeys(s, SERVER_KEYS, where);
  let type = s.type;
  if (type === undefined) type = s.url !== undefined ? 'http' : 'stdio';
  if (type === 'streamable-http' || type === 'streamableHttp') type = 'http';
  if (type !== 'stdio' && type !== 'http') fail(`${where}.type`, 'expected "stdio" or "http"');
  const out = { key, type };
  if (type === 'stdio') {
    if (typeof s.command !== 'string' || s.command === '') fail(`${where}.command`, 'a stdio server needs a command');
    if (s.url !== undefined) fail(`${where}.url`, 'a stdio server has a command, not a url');
    out.command = s.command;
    out.args = stringList(s.args, `${where}.args`);
    out.env = stringMap(s.env, `${where}.env`);
    if (s.cwd !== undefined && typeof s.cwd !== 'string') fail(`${where}.cwd`, 'expected a string');
    out.cwd = s.cwd === undefined ? undefined : path.resolve(baseDir, s.cwd);
  } else {
    if (typeof s.url !== 'string') fail(`${where}.url`, 'an http server needs a url');
    let url;
    try {
      url = new URL(s.url);
    } catch {
      fail(`${where}.url`, `not a URL: ${JSON.stringify(s.url)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`${where}.url`, 'expected an http(s) URL');
    if (s.command !== undefined) fail(`${where}.command`, 'an http server has a url, not a command');
    out.url = url.href;
    out.headers = stringMap(s.headers, `${where}.headers`);
  }
  out.trusted = optBool(s, 'trusted', where, false);
  out.disabled = optBool(s, 'disabled', where, false);
  // perSession: every client session gets its own connection (a stdio
  // server: its own process) for its calls, so a stateful server's state is
  // never shared between sessions. Off by default: stateless servers share one.
  out.perSession = optBool(s, 'perSession', where, false);
  const ns = s.namespace === undefined ? key : s.namespace;
  if (typeof ns !== 'string' || !NAMESPACE_RE.test(ns) || ns.includes('__')) {
    fail(`${where}.namespace`, `expected 1-64 characters of [A-Za-z0-9_.:-] without "__", got ${JSON.stringify(ns)}`);
  }
  out.namespace = ns;
  out.annotations = {};
  if (s.annotations !== undefined) {
    if (!isObject(s.annotations)) fail(`${where}.annotations`, 'expected { toolName: { tags, aliases } }');
    for (const [tool, a] of Object.entries(s.annotations)) {
      const w = `${where}.annotations.${tool}`;
      if (!isObject(a)) fail(w, 'expected { tags, aliases }');
      checkKeys(a, ['tags', 'aliases'], w);
      out.annotations[tool] = { tags: stringList(a.tags, `${w}.tags`), aliases: stringList(a.aliases, `${w}.aliases`) };
    }
  }
  out.alwaysLoaded = stringList(s.alwaysLoaded, `${where}.alwaysLoaded`);
  out.maxTools = optInt(s, 'maxTools', where, 0, 100000, 1000);
  out.callTimeoutMs = optInt(s, 'callTimeoutMs', where, 1, 3600000, 60000);
  out.connectTimeoutMs = optInt(s, 'connectTimeoutMs', where, 1, 600000, 15000);
  const r = s.restart ?? {};
  if (!isObject(r)) fail(`${where}.restart`, 'expected { maxAttempts, backoffMs }');
  checkKeys(r, ['maxAttempts', 'backoffMs'], `${where}.restart`);
  out.restart = {
    maxAttempts: optInt(r, 'maxAttempts', `${where}.restart`, 0, 1000, 5),
    backoffMs: optInt(r, 'backoffMs', `${where}.restart`, 1, 600000, 500),
  };
  return out;
}

// The keys handed to every segment's toolsift session as they are
// (toolsift checks their values and names the key: a bad one fails the
// gateway's start). `load`, `strong`, `overview` and `overviewChars` are the
// confident loop's: which hits a search loads, the grade rule's thresholds,
// the catalog overview in the search tool's description and its budget.
// `auto` is auto mode (docs/sessions.md): every tool on the menu and no
// search tool while the universe fits its budgets.
const SESSION_SEARCH_KEYS = [
  'toolName', 'maxPerSearch', 'maxLoaded', 'maxSearches', 'maxMenuChars', 'namespaces', 'stopwords',
  'load', 'strong', 'overview', 'overviewChars', 'auto',
];
// `model` and `minSimilarity` are the gateway's: a static-embedding model
// ("glove" or a folder, js/model-dir.js's rule, docs/semantic.md)
// whose vectors every generation's index carries and with which each
// session embeds its queries; minSimilarity is the grade's floor for them.
// `annotations` is the gateway's too: the path of a vocabulary file (what
// `toolsift-mcp learn` writes, or the host's own) that every generation's
// index is built with (readVocabulary below; the core's own check is
// catalog.js checkVocabulary).
// `preSearch` is the gateway's too: true offers clients the request
// toolsift/preSearch (gateway.js), the core's pre-search of a user message.
const SEARCH_KEYS = [...SESSION_SEARCH_KEYS, 'alwaysLoaded', 'includeSchemas', 'model', 'minSimilarity', 'annotations',
  'preSearch'];

/**
 * Check a configuration object. `baseDir` resolves relative paths (a stdio
 * server's cwd, the journal directory). Returns a normalised copy.
 */
export function checkConfig(raw, baseDir = process.cwd()) {
  if (!isObject(raw)) fail('config', 'expected a JSON object');
  checkKeys(raw, ['mcpServers', 'search', 'skills', 'journal', 'http', 'loop', 'name'], 'config');
  if (!isObject(raw.mcpServers)) fail('config.mcpServers', 'expected an object of servers by name');
  const servers = [];
  const namespaces = new Map();
  for (const [key, s] of Object.entries(raw.mcpServers)) {
    if (!NAMESPACE_RE.test(key)) fail(`mcpServers.${key}`, 'server names are 1-64 characters of [A-Za-z0-9_.:-]');
    const server = checkServer(key, s, baseDir);
    if (server.disabled) continue;
    const other = namespaces.get(server.namespace);
    if (other) fail(`mcpServers.${key}.namespace`, `"${server.namespace}" is also the namespace of server "${other}"`);
    namespaces.set(server.namespace, key);
    servers.push(server);
  }
  const s = raw.search ?? {};
  if (!isObject(s)) fail('config.search', 'expected an object');
  checkKeys(s, SEARCH_KEYS, 'search');
  const search = {};
  for (const k of SESSION_SEARCH_KEYS) {
    if (s[k] !== undefined) search[k] = s[k]; // toolsift checks these and names the key
  }
  const alwaysLoaded = stringList(s.alwaysLoaded, 'search.alwaysLoaded');
  for (const id of alwaysLoaded) {
    // any catalog id (docs/usage.md, "Tool ids"); the core names one no tool has
    if (id === '' || id.length > 1024) fail('search.alwaysLoaded', `not a tool id: ${JSON.stringify(id.slice(0, 80))}`);
  }
  const includeSchemas = optBool(s, 'includeSchemas', 'search', true);
  const preSearch = optBool(s, 'preSearch', 'search', false);
  if (s.model !== undefined && (typeof s.model !== 'string' || s.model === '')) {
    fail('search.model', 'expected "glove" or the directory of a static model (model.safetensors and tokenizer.json)');
  }
  // "glove" is the name of the project's model (js/model-dir.js), not a path:
  // a folder of that name beside the config is written "./glove".
  const model = s.model === undefined ? null : { dir: s.model === GLOVE ? GLOVE : path.resolve(baseDir, s.model) };
  if (s.minSimilarity !== undefined && !(typeof s.minSimilarity === 'number' && s.minSimilarity >= -1 && s.minSimilarity <= 1)) {
    fail('search.minSimilarity', 'expected a number from -1 to 1');
  }
  if (s.minSimilarity !== undefined && !model) fail('search.minSimilarity', 'is a setting of search.model, which is not given');
  if (model) model.minSimilarity = s.minSimilarity ?? -2;
  if (s.annotations !== undefined && (typeof s.annotations !== 'string' || s.annotations === '')) {
    fail('search.annotations', 'expected the path of a vocabulary file ({"annotations": {"<tool id>": {"tags", "aliases"}}}, what toolsift-mcp learn writes)');
  }
  const vocabulary = s.annotations === undefined ? null : readVocabulary(path.resolve(baseDir, s.annotations));
  let skills = null;
  if (raw.skills !== undefined && raw.skills !== null) {
    if (!isObject(raw.skills)) fail('config.skills', 'expected { skills: [...], ...session skills settings }');
    const { skills: list, ...settings } = raw.skills;
    if (!Array.isArray(list)) fail('skills.skills', 'expected an array of skills ({ id, description, tools, instructions })');
    skills = { list, settings };
  }
  const j = raw.journal ?? {};
  if (!isObject(j)) fail('config.journal', `expected { ${JOURNAL_KEYS.join(', ')} }`);
  checkKeys(j, JOURNAL_KEYS, 'journal');
  if (j.dir !== undefined && typeof j.dir !== 'string') fail('journal.dir', 'expected a directory path');
  const journalDir = j.dir === undefined ? null : path.resolve(baseDir, j.dir);
  // One session's journal may not grow past this (a client could otherwise
  // fill the disk with searches); 0 = no limit.
  const journalMaxBytes = optInt(j, 'maxBytes', 'journal', 0, Number.MAX_SAFE_INTEGER, 64 * 1024 * 1024);
  // The folder's caps, every session's journals together (any client with a
  // token can open sessions): journal.js JournalStore. 0 = no cap.
  const journalMaxFiles = optInt(j, 'maxFiles', 'journal', 0, 10000000, 10000);
  const journalMaxTotalBytes = optInt(j, 'maxTotalBytes', 'journal', 0, Number.MAX_SAFE_INTEGER, 1024 * 1024 * 1024);
  const journalWhenFull = j.whenFull ?? 'rotate';
  if (journalWhenFull !== 'rotate' && journalWhenFull !== 'refuse') {
    fail('journal.whenFull', 'expected "rotate" (delete the oldest closed journals) or "refuse" (refuse new sessions and decisions)');
  }
  const http = checkHttp(raw.http ?? {});
  const loop = raw.loop ?? 'mcp';
  if (typeof loop !== 'string' || !ID_RE.test(loop)) fail('config.loop', 'expected a string matching ^[A-Za-z0-9_.:-]{1,128}$');
  const name = raw.name ?? 'toolsift-mcp';
  if (typeof name !== 'string' || name === '') fail('config.name', 'expected a non-empty string');
  return { servers, search, alwaysLoaded, includeSchemas, preSearch, model, vocabulary, skills, journalDir, journalMaxBytes,
    journalMaxFiles, journalMaxTotalBytes, journalWhenFull, http, loop, name };
}

// A vocabulary's label lists, as the core reads them (checked here for every
// entry: the core skips entries of ids no tool has without reading them, so
// a bad entry would otherwise fail only once its tool appears).
const VOCABULARY_KEYS = ['annotations', 'learned', 'evidence'];

/**
 * Read the vocabulary file of search.annotations: { file, text (the file's
 * UTF-8 text, verbatim: the core digests what the file says), key (sha256 of
 * the text) }. A file that cannot be read, is not UTF-8 JSON or is not a
 * vocabulary is a configuration error naming the file. The core reads it
 * once more, strictly, before the gateway uses it (catalog.js
 * checkVocabulary).
 */
export function readVocabulary(file) {
  const where = `search.annotations ${file}`;
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    fail(where, `cannot read it: ${e.message}`);
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    fail(where, 'not UTF-8 text');
  }
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    fail(where, `not JSON: ${e.message}`);
  }
  if (!isObject(v) || !isObject(v.annotations)) {
    fail(where, 'expected a vocabulary {"annotations": {"<tool id>": {"tags": [...], "aliases": [...]}}} (what toolsift-mcp learn writes)');
  }
  for (const k of Object.keys(v)) {
    if (!VOCABULARY_KEYS.includes(k)) fail(where, `unknown key "${k}" (a vocabulary has ${VOCABULARY_KEYS.map((x) => `"${x}"`).join(', ')})`);
  }
  for (const [id, a] of Object.entries(v.annotations)) {
    const w = `${where}: annotations[${JSON.stringify(id)}]`;
    if (!isObject(a)) fail(w, 'expected { tags, aliases }');
    for (const k of Object.keys(a)) {
      if (k !== 'tags' && k !== 'aliases') fail(w, `unknown key "${k}" (expected "tags" or "aliases")`);
      if (!Array.isArray(a[k]) || a[k].some((x) => typeof x !== 'string')) fail(`${w}.${k}`, 'expected an array of strings');
    }
  }
  return { file, text, key: createHash('sha256').update(text, 'utf8').digest('hex') };
}

const JOURNAL_KEYS = ['dir', 'maxBytes', 'maxFiles', 'maxTotalBytes', 'whenFull'];

const HTTP_KEYS = ['port', 'path', 'idleTimeoutMs', 'maxSessions', 'maxSessionsPerToken', 'tokens', 'allowedOrigins', 'headersTimeoutMs',
  'requestTimeoutMs'];

function checkHttp(h) {
  if (!isObject(h)) fail('config.http', `expected { ${HTTP_KEYS.join(', ')} }`);
  checkKeys(h, HTTP_KEYS, 'http');
  const http = {
    port: optInt(h, 'port', 'http', 0, 65535, 8931),
    path: h.path ?? '/mcp',
    idleTimeoutMs: optInt(h, 'idleTimeoutMs', 'http', 100, 7 * 24 * 3600000, 3600000),
    maxSessions: optInt(h, 'maxSessions', 'http', 1, 100000, 64),
    // One token's share of maxSessions (several parties, one gateway: a
    // token cannot take every slot); by default the whole.
    maxSessionsPerToken: null,
    // How long a client may take to send a request's headers, and the whole
    // request (a POST's body too), before the socket is answered 408 and
    // closed (Node's own defaults, 60 s and 300 s, let a client that
    // trickles bytes hold sockets that long).
    headersTimeoutMs: optInt(h, 'headersTimeoutMs', 'http', 100, 600000, 10000),
    requestTimeoutMs: optInt(h, 'requestTimeoutMs', 'http', 100, 3600000, 30000),
    tokens: [],
    allowedOrigins: [],
  };
  http.maxSessionsPerToken = optInt(h, 'maxSessionsPerToken', 'http', 1, http.maxSessions, http.maxSessions);
  if (typeof http.path !== 'string' || !http.path.startsWith('/')) fail('http.path', 'expected a path starting with "/"');
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    fail('http.headersTimeoutMs', `is ${http.headersTimeoutMs}, more than http.requestTimeoutMs (${http.requestTimeoutMs}): the headers are part of the request`);
  }
  if (h.tokens !== undefined) {
    if (!Array.isArray(h.tokens)) fail('http.tokens', 'expected an array of { name, token }');
    h.tokens.forEach((t, i) => {
      const w = `http.tokens[${i}]`;
      if (!isObject(t)) fail(w, 'expected { name, token }');
      checkKeys(t, ['name', 'token'], w);
      if (typeof t.name !== 'string' || !NAMESPACE_RE.test(t.name)) fail(`${w}.name`, 'expected 1-64 characters of [A-Za-z0-9_.:-] (logs and journals show it; never the token)');
      if (http.tokens.some((o) => o.name === t.name)) fail(`${w}.name`, `"${t.name}" is the name of another token`);
      http.tokens.push({ name: t.name, token: checkToken(t.token, `${w}.token`) });
    });
  }
  for (const [i, o] of stringList(h.allowedOrigins, 'http.allowedOrigins').entries()) {
    const origin = normaliseOrigin(o);
    const bare = origin !== null && /^[a-z]+:\/\/[^/?#]+\/?$/i.test(o); // no path, query or fragment
    if (!bare) {
      fail(`http.allowedOrigins[${i}]`, `expected an origin like "https://app.example" or "http://localhost:5173" (scheme, host, port; no path; "null" and "*" are never allowed), got ${JSON.stringify(o)}`);
    }
    http.allowedOrigins.push(origin);
  }
  return http;
}

/** Read and check a configuration file; relative paths resolve against its folder. */
export function readConfig(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new GatewayConfigError(`cannot read the configuration ${file}: ${e.message}`);
  }
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new GatewayConfigError(`${file}: not JSON: ${e.message}`);
  }
  return checkConfig(raw, path.dirname(path.resolve(file)));
}
