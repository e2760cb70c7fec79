// errors.js — the gateway's errors: the configuration error every bad key or
// flag throws, and the JSON-RPC error codes it answers with, in one table
// (docs/mcp-gateway.md "Security" lists them). -32000 and -32001 are the
// MCP SDK transport's own (bad request, session not found); ours are
// -32010 and up, so a client can tell every refusal apart by code.
//
// Also how the log shows text it did not write (shown, shownText: an
// upstream's tool names and messages, a client's tool names: cut, control
// characters escaped, so no one else's string sets the size or the lines of
// the log), and QuietLog: lines a client can cause over and over (a
// refusal) are written once per interval, with a count of the rest.

export const CODES = Object.freeze({
  badRequest: -32000, // malformed request, wrong method, no session, Host refused
  sessionNotFound: -32001, // an id the gateway never issued or already forgot (HTTP 404)
  unauthorized: -32010, // no or wrong bearer token (HTTP 401)
  originRefused: -32011, // an Origin not in http.allowedOrigins (HTTP 403)
  tooManySessions: -32012, // http.maxSessions open already (HTTP 503)
  sessionExpired: -32013, // closed after http.idleTimeoutMs without a request (HTTP 404)
  journalFull: -32014, // journal.maxBytes (or the folder's caps) reached: no more decisions this session (tools/call)
  journalStorageFull: -32015, // journal.maxFiles / maxTotalBytes reached: no new session (HTTP 503)
});

/** A JSON-RPC error body (id null: the request was refused before it was read as a message). */
export const errorBody = (code, message, id = null) => JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });

/** A configuration error: `message` names the key (or flag) and the reason. */
export class GatewayConfigError extends Error {
  constructor(message) {
    super(message);
    this.name = 'GatewayConfigError';
  }
}

// Characters a log line must not carry as they are: C0 and C1 controls (a
// newline would forge a line, ESC drives the terminal), the line and
// paragraph separators, and the bidi controls (they reorder what is shown).
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const escapeUnsafe = (s) => s.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The longest name (in characters) the log shows whole: the id limit. */
export const LOG_NAME_CHARS = 128;
/** The longest message (in characters) the log shows whole: an upstream's stderr line, an error. */
export const LOG_TEXT_CHARS = 512;

// `s` cut to at most `max` characters (code points: a surrogate pair is
// never split), then "…" when anything was cut.
function cut(s, max) {
  if (s.length <= max) return s; // (UTF-16 units ≥ code points)
  const points = Array.from(s.slice(0, max * 2));
  return points.length <= max ? s.slice(0, max * 2) + (s.length > max * 2 ? '…' : '') : `${points.slice(0, max).join('')}…`;
}

/**
 * A name someone else chose (an upstream's tool name, a client's), as a log
 * line shows it: quoted, control characters escaped, cut at
 * LOG_NAME_CHARS characters with "…".
 */
export const shown = (name, max = LOG_NAME_CHARS) => `"${escapeUnsafe(cut(String(name), max)).replaceAll('"', '\\"')}"`;

/** Free text someone else wrote (an upstream's stderr line or error message): cut at LOG_TEXT_CHARS, controls escaped. */
export const shownText = (text, max = LOG_TEXT_CHARS) => escapeUnsafe(cut(String(text), max));

/**
 * Log lines of one kind at most once per interval: the first of a window is
 * written as it is; the ones after it in the window are counted, and one
 * summary line says how many and repeats the last ("… 57 more in 10 s; the
 * last: …") when the window ends (a timer) or at the next line of that kind
 * after it. `clock`: { now() (ms), schedule(fn, ms) } — injected by tests
 * so that what is written does not depend on time.
 */
export class QuietLog {
  constructor(log, { intervalMs = 10000, clock = {} } = {}) {
    this.log = log;
    this.intervalMs = intervalMs;
    this.now = clock.now ?? Date.now;
    this.schedule = clock.schedule ?? ((fn, ms) => setTimeout(fn, ms).unref?.());
    this.kinds = new Map(); // kind → { start, count, last, timer }
  }

  /** Log `line` (of `kind`) now, or count it for the window's summary. Returns true when it was written. */
  note(kind, line) {
    const t = this.now();
    let k = this.kinds.get(kind);
    if (k && t - k.start < this.intervalMs) {
      k.count++;
      k.last = line;
      if (!k.timer) {
        k.timer = true;
        this.schedule(() => this._summary(kind, k), Math.max(0, k.start + this.intervalMs - t));
      }
      return false;
    }
    if (k) this._summary(kind, k);
    k = { start: t, count: 0, last: null, timer: false };
    this.kinds.set(kind, k);
    this.log(line);
    return true;
  }

  _summary(kind, k) {
    if (k.count === 0) return;
    const secs = Math.max(0, Math.round((this.now() - k.start) / 1000));
    this.log(`${k.count} more like this in ${secs} s (one line per ${this.intervalMs / 1000} s); the last: ${k.last}`);
    k.count = 0;
    k.last = null;
  }

  /** Write every pending summary (at close). */
  flush() {
    for (const [kind, k] of this.kinds) this._summary(kind, k);
  }
}
