// gateway.js — the toolsift MCP gateway: upstream servers in, one MCP server
// per client session out.
//
// Owns: the set of upstreams (start, reload, close), the universe and its
// generation number (moves when the catalog built from the upstreams' tool
// lists changes: an upstream's list_changed, a server that failed for good or
// was removed), and the MCP server a client session talks to: tools/list
// answers the session's menu, tools/call answers search_tools /
// activate_skill, forwards loaded tools to their upstream (each call through
// the session's gate, which records it; a failed one is reported back to the
// session), and refuses the rest with a message that tells the model what to
// do. Journals are written one private file per client session that records
// something, under the journal folder's caps (journal.js). A server marked
// perSession gets one connection per client session for its calls; the
// shared one only lists its tools.

import { randomBytes } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { buildUniverse, checkVocabulary } from './catalog.js';
import { loadGatewayModel } from './model.js';
import { CODES, QuietLog, shown, shownText } from './errors.js';
import { JournalFile, JournalStore, ensurePrivateDir } from './journal.js';
import { ClientSession, errorResult } from './session.js';
import { Upstream } from './upstream.js';
import { VERSION } from './version.js';

export { VERSION };

// What the gateway says of itself. How to search, what a search loads and
// select: are the search tool's own description (the core's, with the
// catalog overview), so they are not repeated here.
const instructionsFor = (search, mode) =>
  mode === 'all'
    ? 'This server is a gateway to the tools of several servers; all of them are listed (few enough that no search ' +
      'is needed). Call them by their listed names.'
    : `This server is a gateway to many tools. Only a few are listed at first: call ${search} with a few words ` +
      'describing what you want to do (its description says how to search and which tools it loads). The tools it ' +
      'loads are added to your tool list (listed again after notifications/tools/list_changed); call them by the ' +
      `names ${search} returned.`;

// The gateway's own request (search.preSearch, docs/mcp-gateway.md): a host
// that owns the conversation sends the user's message before the model's
// turn, and the strong hits are loaded.
const PRE_SEARCH_METHOD = 'toolsift/preSearch';

// A meta-tool's answer: the core's result object as it is (grades, matched
// and unmatched words, vocabulary, unknown names, the note, tainted — plus
// inputSchema per loaded hit with includeSchemas) as JSON text, which every
// client shows the model, and as structuredContent for clients that read it.
// A refusal (invalid_input, search_limit_reached, …) is a tool error.
const metaResult = (result) => ({
  content: [{ type: 'text', text: JSON.stringify(result) }],
  structuredContent: result,
  isError: typeof result.error === 'string',
});

export class Gateway {
  /**
   * `config`: a checked configuration (config.js). `toolsift`: a loaded
   * module. `log(line)`: where diagnostics go (stderr in the CLI: stdout is
   * the stdio transport). `clock`: { now, schedule } for the lines written
   * once per interval (QuietLog: tests inject one).
   */
  constructor(config, { toolsift, log = () => {}, clock } = {}) {
    this.config = config;
    this.toolsift = toolsift;
    this.log = log;
    // lines a client (or an upstream) can cause over and over: one per 10 s, with a count
    this.quiet = new QuietLog(log, { clock });
    this.journals = null; // the journal folder's JournalStore (journal.dir), or null
    this.upstreams = new Map();
    this.universe = null;
    this.generation = -1;
    this.sessions = new Set();
    this.model = null; // the static model of config.search.model (model.js), or null
    this.onGeneration = null; // test hook: (universe) => void
  }

  /** Connect every upstream (each bounded by its connectTimeoutMs), then build generation 0. */
  async start() {
    // A journal folder another user owns fails the start, not the first session.
    this._journalStore();
    // a bad vocabulary or model fails the start, before any server is started
    checkVocabulary(this.toolsift, this.config.vocabulary);
    this.model = loadGatewayModel(this.toolsift, this.config.model);
    if (this.model) this.log(`search.model: ${this.model.id} (${this.model.dim} dimensions) from ${this.config.model.dir}`);
    await Promise.all(this.config.servers.map((s) => this._addUpstream(s)));
    this._rebuild('start');
    // The session settings are toolsift's to check: make one session now so
    // a bad cap or tool name fails the start, loudly, not the first client.
    const probe = new ClientSession(this.toolsift, this.config, null);
    try {
      probe.adopt(this.universe, 0);
    } catch (e) {
      await this.close();
      throw e;
    } finally {
      probe.close();
    }
  }

  async _addUpstream(server) {
    this.log(trustLine(server));
    const up = new Upstream(server, {
      version: VERSION,
      log: this.log,
      onTools: () => {
        if (this.universe !== null) this._rebuild(`server "${server.key}" changed its tools`);
      },
    });
    this.upstreams.set(server.key, up);
    await up.start();
  }

  // The journal folder's store (its caps), made or re-read: at start and on
  // SIGHUP (files moved away by hand are counted again then).
  _journalStore() {
    const c = this.config;
    if (!c.journalDir) {
      this.journals = null;
      return;
    }
    ensurePrivateDir(c.journalDir, this.log);
    const limits = { maxFiles: c.journalMaxFiles, maxTotalBytes: c.journalMaxTotalBytes, whenFull: c.journalWhenFull };
    // a session keeps the store it was opened with: one of another folder is left to it
    if (this.journals?.dir !== c.journalDir) this.journals = new JournalStore(c.journalDir, { ...limits, log: this.log, quiet: this.quiet });
    else this.journals.configure(limits);
    this.journals.scan();
    const j = this.journals;
    const full = j.blocked(0, true);
    this.log(`journal folder ${c.journalDir}: ${j.files} journal files, ${j.bytes} bytes (journal.maxFiles ${c.journalMaxFiles}, ` +
      `journal.maxTotalBytes ${c.journalMaxTotalBytes}, whenFull "${c.journalWhenFull}")` +
      `${full ? `; full: ${full.why} — new sessions are refused until journals are moved away (then SIGHUP)` : ''}`);
  }

  // A session's journal starts with its segment line, the catalog's JSON
  // most of it, and stays while the session is open (rotation deletes only
  // closed journals): when http.maxSessions such lines come near
  // journal.maxTotalBytes, open sessions alone can fill the folder, and then
  // every session's decisions are refused (-32014). Said at each generation.
  _warnJournalRoom(catalog) {
    const c = this.config;
    const sessions = c.http?.maxSessions ?? 0;
    if (!c.journalDir || !c.journalMaxTotalBytes || !sessions) return;
    const line = Buffer.byteLength(JSON.stringify(catalog));
    if (2 * sessions * line <= c.journalMaxTotalBytes) return;
    this.log(`warning: journal.maxTotalBytes (${c.journalMaxTotalBytes}) is under twice http.maxSessions (${sessions}) × a ` +
      `session's first journal line (about ${line} bytes, the catalog): open sessions alone could fill the folder, and then ` +
      `every decision is refused (-32014); raise journal.maxTotalBytes or lower http.maxSessions`);
  }

  /**
   * Why a new client session would record nothing (the journal folder is at
   * a cap it cannot make room under), or null: { limit, value, why }.
   */
  journalRefusal() {
    return this.journals?.blocked(0, true) ?? null;
  }

  _rebuild(why) {
    let u;
    try {
      u = buildUniverse(this.toolsift, this.config, this.upstreams, this.model);
    } catch (e) {
      this.log(`catalog not rebuilt (${why}): ${e.message}; keeping generation ${this.generation}`);
      if (this.universe === null) {
        this.generation += 1;
        this.universe = { catalog: { tools: [], annotations: {} }, routes: new Map(), key: 'empty', fingerprint: null,
          warnings: [], generation: this.generation };
      }
      return;
    }
    for (const w of u.warnings) this.log(`warning: ${w}`);
    if (this.universe && this.universe.key === u.key) return;
    this.generation += 1;
    this.universe = { ...u, generation: this.generation };
    this.log(`generation ${this.generation} (${why}): ${u.catalog.tools.length} tools, fingerprint ${u.fingerprint}`);
    this._warnJournalRoom(u.catalog);
    this.onGeneration?.(this.universe);
  }

  /**
   * Apply a new configuration: servers that left are closed (their tools
   * leave the universe), new or changed ones are started.
   */
  async reload(config) {
    // a vocabulary the core refuses keeps the running configuration whole
    checkVocabulary(this.toolsift, config.vocabulary);
    if (config.model?.dir !== this.config.model?.dir) {
      // sessions embed with the loaded model; another one takes a restart
      this.log(`search.model changed: the gateway keeps ${this.config.model?.dir ?? 'no model'} until it restarts`);
      config = { ...config, model: this.config.model };
    }
    const old = new Map(this.config.servers.map((s) => [s.key, s]));
    this.config = config;
    const next = new Map(config.servers.map((s) => [s.key, s]));
    const starts = [];
    for (const [key, up] of this.upstreams) {
      if (!next.has(key) || JSON.stringify(next.get(key)) !== JSON.stringify(old.get(key))) {
        this.upstreams.delete(key);
        this.log(`[${key}] ${next.has(key) ? 'configuration changed: restarting' : 'removed from the configuration'}`);
        await up.close();
        // Sessions' own connections to it go too; the next call starts one
        // with the new settings.
        for (const entry of this.sessions) await closeSessionUpstream(entry, key);
      }
    }
    for (const [key, s] of next) if (!this.upstreams.has(key)) starts.push(this._addUpstream(s));
    await Promise.all(starts);
    this._journalStore();
    this._rebuild('configuration reloaded');
  }

  /**
   * A new client session: { server (an SDK Server to connect to a
   * transport), session (its ClientSession), label (a random id that log
   * lines use: never the transport's session id, which is a secret),
   * journal (its file or null), transport, principal, commit() }.
   *
   * `principal`: who opened it (a token name), recorded in the segment line.
   * `commit`: false when the transport has yet to accept the session (HTTP):
   * the journal file is created only by entry.commit(), so a refused
   * initialize leaves no file.
   */
  createClientSession(transport = 'stdio', { principal = null, commit = true } = {}) {
    const dir = this.config.journalDir;
    const journal = dir ? new JournalFile(dir, transport, { maxBytes: this.config.journalMaxBytes, log: this.log, store: this.journals }) : null;
    const label = journal?.id ?? randomBytes(8).toString('hex');
    // segment lines in pieces: an idle session's pending line holds the
    // generation's catalog text, not a copy of it (journal.js)
    const cs = new ClientSession(this.toolsift, this.config, journal ? (line, kind) => journal.write(line, kind) : null,
      { principal, full: () => journal?.full ?? false, pieces: true });
    cs.adopt(this.universe, 0);
    if (journal && journal.maxBytes > 0 && journal.bytes >= journal.maxBytes) {
      this.log(`session ${label}: journal.maxBytes (${journal.maxBytes}) is less than its first segment line (${journal.bytes} bytes): every search will be refused and no call recorded`);
    }
    const mode = cs.mode;
    // which mode a session is in (search.auto): a session with every tool
    // listed has no search tool, so a host should know
    if (this.config.search.auto !== undefined) {
      this.log(`session ${label}: mode ${mode}${mode === 'all' ? ` (every tool listed, no ${cs.searchToolName}: search.auto)` : ''}`);
    }
    let instructions = instructionsFor(cs.searchToolName, mode);
    const skillIndex = cs.segment.session.skillIndex();
    if (skillIndex) instructions += `\n\nSkills (activate one with ${cs.skillToolName}):\n${skillIndex}`;
    const server = new Server({ name: this.config.name, version: VERSION },
      { capabilities: { tools: { listChanged: true } }, instructions });
    const entry = {
      server, session: cs, label, journal: journal?.file ?? null, transport, principal,
      upstreams: new Map(), // server key → Promise<Upstream>: this session's own (perSession servers)
      commit: () => journal?.commit(),
      journalFile: journal,
      closed: null, // once closed: a promise of its own upstreams' closing
    };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: cs.listTools() }));
    server.setRequestHandler(CallToolRequestSchema, (req, extra) => this._call(entry, req, extra));
    if (this.config.preSearch) {
      // A method of its own, not a tool: the model never sees or calls it.
      server.fallbackRequestHandler = async (req, extra) => {
        if (req.method === PRE_SEARCH_METHOD) return this._preSearch(entry, req, extra);
        throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
      };
    }
    this.sessions.add(entry);
    server.onclose = () => {
      this.sessions.delete(entry);
      cs.close();
      journal?.close();
      entry.closed = Promise.all([...entry.upstreams.keys()].map((key) => closeSessionUpstream(entry, key)));
    };
    if (commit) entry.commit();
    return entry;
  }

  // The upstream a call of `entry` goes to: its own for a perSession server
  // (started on the session's first call to it: a session that never calls
  // the server costs no process), else the shared one.
  _upstreamFor(entry, key) {
    const server = this.config.servers.find((s) => s.key === key);
    if (!server?.perSession) return this.upstreams.get(key);
    // a call still in flight when its session closed must not start a process nobody closes
    if (entry.closed) throw new Error('the client session has closed');
    let pending = entry.upstreams.get(key);
    if (!pending) {
      const up = new Upstream(forSession(server, entry.label), { version: VERSION, log: this.log, onTools: () => {} });
      pending = up.start().then(() => up);
      entry.upstreams.set(key, pending);
    }
    return pending;
  }

  async _call(entry, req, extra) {
    const cs = entry.session;
    const name = req.params.name;
    const args = req.params.arguments ?? {};
    // Everything up to the forward is synchronous: the turn number, the
    // segment and the menu follow the order the requests arrived in.
    const turn = cs.nextTurn();
    let decision;
    let changed;
    const journal = entry.journalFile;
    // A full journal records nothing more, so nothing more may be decided:
    // no search or activation, and no new segment (the session stays on the
    // catalog it has). Calls of tools already loaded go on: their decisions
    // are on record. (Full: journal.maxBytes, or the journal folder's caps;
    // a journal that left a call record out has ended for good.)
    const full = journal ? journal.fullReason() ?? (cs.journalEnded ? journal.lastFull : null) : null;
    if (full && cs.isMeta(name)) throw this._journalFull(entry, full, name);
    const live = this.universe;
    try {
      changed = full ? false : cs.adopt(live, turn);
      if (cs.isMeta(name)) {
        const r = cs.callMeta(turn, name, args);
        // Only a listed menu that changed is announced: a miss, a select: of
        // unknown names or a refusal loads nothing and sends nothing.
        if (changed || r.menuChanged) await this._listChanged(extra);
        return metaResult(r.result);
      }
      decision = cs.gate(turn, name, args, live);
    } catch (e) {
      this.log(`session ${entry.label}: tools/call ${shown(name)} (turn ${turn}): ${shownText(e.message)}`);
      return errorResult(`toolsift-mcp could not handle the call to "${name}": ${e.message}`);
    }
    if (changed) await this._listChanged(extra);
    if (decision.error) return errorResult(decision.error);
    // The session allowed the call and recorded it; from here on a failure
    // (an error result, a throw, a timeout, a server gone) is reported back.
    const route = live.routes.get(decision.forward);
    try {
      const up = route && (await this._upstreamFor(entry, route.server));
      if (!up) {
        this._callFailed(entry, turn, name);
        return errorResult(`The tool "${name}" cannot be reached: its server is no longer configured.`);
      }
      const result = await up.callTool(route.name, args);
      if (result?.isError === true) this._callFailed(entry, turn, name);
      return result;
    } catch (e) {
      this._callFailed(entry, turn, name);
      return errorResult(`The call to "${name}" failed at its server "${route.server}": ${e?.message ?? e}`);
    }
  }

  // toolsift/preSearch { text }: the session's pre-search of a user message
  // on the next turn (it takes a turn number of its own, so two in a row
  // are fine). Answers { mode, loaded: [names], result: the core's page }.
  async _preSearch(entry, req, extra) {
    const cs = entry.session;
    const text = req.params?.text;
    if (typeof text !== 'string') {
      throw new McpError(ErrorCode.InvalidParams, `${PRE_SEARCH_METHOD}: params.text must be a string (the user's message)`);
    }
    const journal = entry.journalFile;
    const full = journal ? journal.fullReason() ?? (cs.journalEnded ? journal.lastFull : null) : null;
    if (full) throw this._journalFull(entry, full, PRE_SEARCH_METHOD);
    const turn = cs.nextTurn();
    const changed = cs.adopt(this.universe, turn);
    if (cs.mode === 'all') {
      if (changed) await this._listChanged(extra);
      return { mode: 'all', loaded: [] };
    }
    let r;
    try {
      r = cs.preSearch(turn, text);
    } catch (e) {
      this.log(`session ${entry.label}: ${PRE_SEARCH_METHOD} (turn ${turn}): ${shownText(e.message)}`);
      throw new McpError(ErrorCode.InternalError, `${PRE_SEARCH_METHOD}: ${e.message}`);
    }
    if (changed || r.menuChanged) await this._listChanged(extra);
    const result = r.output.result ?? {};
    const loaded = Array.isArray(result.tools) ? result.tools.filter((t) => t.loaded).map((t) => t.name) : [];
    return { mode: 'search', loaded, result };
  }

  // The refusal of a decision a full journal could not record (-32014), and
  // its log line (once per interval: a client decides how often it asks).
  _journalFull(entry, full, what) {
    const rest = full.limit === 'journal.maxBytes'
      ? `${what} is refused for the rest of the session (tools already loaded can still be called; start a new session to search again)`
      : `${what} is refused while the journal folder is full (tools already loaded can still be called)`;
    this.quiet.note('journal-full', `session ${entry.label}: journal full (${full.short ?? full.why}): ${what} refused`);
    const data = { limit: full.limit, [full.limit.slice('journal.'.length)]: full.value };
    return new McpError(CODES.journalFull, `journal full: ${full.why}, and a decision that is not recorded cannot be audited; ${rest}`, data);
  }

  // A call the session allowed failed: recorded in its journal when its
  // segment is still the session's (docs/mcp-gateway.md, "Call records").
  _callFailed(entry, turn, name) {
    try {
      if (!entry.session.callFailed(turn, name)) {
        this.log(`session ${entry.label}: the failure of the call on turn ${turn} is not recorded: the session moved on (a new catalog generation, or it closed) while the call was in flight`);
      }
    } catch (e) {
      this.log(`session ${entry.label}: the failure of the call on turn ${turn} is not recorded: ${e.message}`);
    }
  }

  // notifications/tools/list_changed on the request's own stream (over
  // streamable HTTP a notification not tied to a request needs the client's
  // GET stream, which a client may not have opened).
  async _listChanged(extra) {
    try {
      await extra.sendNotification({ method: 'notifications/tools/list_changed' });
    } catch (e) {
      this.log(`cannot send tools/list_changed: ${shownText(e.message)}`);
    }
  }

  /** Close every client session and upstream. */
  async close() {
    const entries = [...this.sessions];
    for (const entry of entries) {
      try {
        await entry.server.close();
      } catch {
        /* already closed */
      }
    }
    // sessions' own upstream processes end before the gateway does
    await Promise.all(entries.map((e) => e.closed));
    await Promise.all([...this.upstreams.values()].map((u) => u.close()));
    this.upstreams.clear();
    this.quiet.flush();
    try {
      this.model?.free();
    } catch (e) {
      this.log(`search.model not freed: ${e.message}`);
    }
  }
}

// What the operator's `trusted` means for a server, said once when it starts
// (docs/mcp-gateway.md "Trust"): a description is text the server's author
// wrote that the model reads, so it can carry instructions.
export function trustLine(server) {
  return server.trusted
    ? `[${server.key}] trusted: true — its tools' descriptions are searched and shown to the model: ` +
      'you vouch that this text carries no instructions to it'
    : `[${server.key}] trusted: false — its tools' descriptions are withheld from the model and not searched ` +
      '(names, schema property names and annotations are); "trusted": true in its entry vouches for them';
}

// A perSession server's settings for one session: named `key@label` in
// logs and errors, `{session}` in args, env values, cwd, url and header
// values replaced by the session's label (a random id, no secret), and
// TOOLSIFT_MCP_SESSION set to it — so a server that keeps state in a file
// (server-memory's MEMORY_FILE_PATH) can be given one file per session.
function forSession(server, label) {
  // (a url's `{session}` was percent-encoded when config.js parsed it)
  const sub = (v) => (typeof v === 'string' ? v.replaceAll('{session}', label).replaceAll('%7Bsession%7D', label) : v);
  const subAll = (o) => Object.fromEntries(Object.entries(o ?? {}).map(([k, v]) => [k, sub(v)]));
  const out = { ...server, key: `${server.key}@${label}` };
  if (server.type === 'stdio') {
    out.args = server.args.map(sub);
    out.env = { ...subAll(server.env), TOOLSIFT_MCP_SESSION: label };
    out.cwd = sub(server.cwd);
  } else {
    out.url = sub(server.url);
    out.headers = subAll(server.headers);
  }
  return out;
}

// Close a session's own connection to server `key` (one still connecting is
// closed once it is: Upstream.close stops a connect in flight from keeping it).
async function closeSessionUpstream(entry, key) {
  const pending = entry.upstreams.get(key);
  if (!pending) return;
  entry.upstreams.delete(key);
  const up = await pending;
  await up.close();
}
