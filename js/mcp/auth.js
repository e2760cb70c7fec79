// auth.js — who may talk to the HTTP gateway: bearer tokens and Origins.
//
// Owns: the token set (from http.tokens, a --token-file, or one generated at
// start-up), the constant-time check of an Authorization header against it,
// and the Origin allowlist. Nothing here reads a request body or touches a
// session: http.js asks these questions before it does either.
//
// Why tokens on a loopback listener: every local process (and every user on
// the machine) can reach 127.0.0.1, and fs__write_file is one call away.
// Why Origin: a web page in the user's browser can POST to 127.0.0.1 too (a
// "simple" text/plain request needs no preflight); browsers always send
// Origin on such requests, MCP clients never do.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { GatewayConfigError } from './errors.js';

/** Shortest token accepted (a configured or file token): 16 characters. */
export const MIN_TOKEN_CHARS = 16;
const TOKEN_RE = /^[\x21-\x7e]+$/; // printable ASCII, no spaces: what fits "Bearer <token>"
const NAME_RE = /^[A-Za-z0-9_.:-]{1,64}$/;

// Tokens are compared as sha256 digests: equal lengths (32 bytes) whatever
// was presented, so timingSafeEqual applies and the time says nothing of the
// length or prefix of a stored token.
const digest = (s) => createHash('sha256').update(s, 'utf8').digest();

/** Check one token's text; `where` names it in the error. */
export function checkToken(token, where) {
  if (typeof token !== 'string' || token.length < MIN_TOKEN_CHARS || !TOKEN_RE.test(token)) {
    throw new GatewayConfigError(`${where}: a token is at least ${MIN_TOKEN_CHARS} printable ASCII characters without spaces`);
  }
  return token;
}

export class TokenSet {
  /** `entries`: [{ name, token }]; names are what logs and journals show. */
  constructor(entries = []) {
    this.entries = [];
    for (const { name, token } of entries) this.add(name, token);
  }

  add(name, token) {
    if (!NAME_RE.test(name)) throw new GatewayConfigError(`token name ${JSON.stringify(name)}: expected 1-64 characters of [A-Za-z0-9_.:-]`);
    if (this.entries.some((e) => e.name === name)) throw new GatewayConfigError(`token name "${name}" is used twice`);
    this.entries.push({ name, digest: digest(token) });
  }

  get size() {
    return this.entries.length;
  }

  /**
   * The name of the token an Authorization header carries, or null. The
   * scheme is case-insensitive (RFC 6750). Every stored token is compared,
   * matched or not, so the time does not say which one matched.
   */
  identify(header) {
    const m = /^Bearer +([\x21-\x7e]+) *$/i.exec(typeof header === 'string' ? header : '');
    if (!m) return null;
    const d = digest(m[1]);
    let found = null;
    for (const e of this.entries) {
      if (timingSafeEqual(d, e.digest) && found === null) found = e.name;
    }
    return found;
  }
}

/**
 * A secret's file (`flag` names the option in messages), refused when other
 * users may read or write it, as ssh refuses a private key.
 */
export function readPrivateFile(file, flag) {
  let st;
  let text;
  try {
    st = statSync(file);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new GatewayConfigError(`${flag} ${file}: ${e.message}`);
  }
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    throw new GatewayConfigError(`${flag} ${file}: other users can read or write it (mode ${(st.mode & 0o777).toString(8)}): chmod 600 ${file}`);
  }
  return text;
}

/**
 * The journal key (the gateway, its --replay and its learn): the text of
 * `file` (--journal-key-file, private as a token file) less one line ending,
 * else env TOOLSIFT_JOURNAL_KEY when it is set — even to "" — checked by
 * the core's one reader (toolsift.checkJournalKey): an empty, white-space,
 * short, long, non-hex or NUL-holding key is a GatewayConfigError naming its
 * source, never "no key" (a host given a key source that is not a key must
 * not accept unkeyed journals). null when neither is given.
 */
export function readJournalKey(toolsift, file, env = process.env) {
  let key;
  let where;
  if (file) {
    key = readPrivateFile(file, '--journal-key-file').replace(/\r?\n$/, '');
    where = `--journal-key-file ${file}`;
  } else if (env.TOOLSIFT_JOURNAL_KEY !== undefined) {
    key = env.TOOLSIFT_JOURNAL_KEY;
    where = 'TOOLSIFT_JOURNAL_KEY';
  } else {
    return null;
  }
  try {
    toolsift.checkJournalKey(key, where);
  } catch (e) {
    throw new GatewayConfigError(e.message);
  }
  return key;
}

/**
 * Read a token file: one token a line, `NAME TOKEN` or a bare `TOKEN`
 * (named `file:LINE`); blank lines and `#` comments are skipped. A file other users may read or write is refused, as ssh
 * refuses a private key: its tokens are no secret any more.
 */
export function readTokenFile(file, tokens) {
  const text = readPrivateFile(file, '--token-file');
  let n = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const parts = line.split(/\s+/);
    if (parts.length > 2) throw new GatewayConfigError(`--token-file ${file}:${i + 1}: expected "NAME TOKEN" or "TOKEN"`);
    const [name, token] = parts.length === 2 ? parts : [`file:${i + 1}`, parts[0]];
    tokens.add(name, checkToken(token, `--token-file ${file}:${i + 1}`));
    n++;
  });
  if (n === 0) throw new GatewayConfigError(`--token-file ${file}: no token in it`);
  return n;
}

/**
 * A new random token (32 bytes, base64url) written to `file` with mode 0600
 * (an existing file is replaced: the old token stops working), the token and
 * a newline only, so that `Authorization: Bearer $(cat FILE)` is the header
 * (and FILE is a valid --token-file). Returns it: never log it.
 */
export function generateTokenFile(file) {
  const token = randomBytes(32).toString('base64url');
  try {
    try {
      unlinkSync(file); // so the new file is created with our mode, not an old one's
    } catch (e) {
      if (e.code !== 'ENOENT') throw e;
    }
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, `${token}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw new GatewayConfigError(`--generate-token ${file}: ${e.message}`);
  }
  return token;
}

/** An Origin allowlist entry or header, normalised (scheme://host[:port]); null when it is not one. */
export function normaliseOrigin(value) {
  if (typeof value !== 'string' || value === 'null') return null;
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

/**
 * The Origin question: { ok: true, origin } when the request has no Origin
 * (origin null: no CORS headers) or an allowed one; { ok: false, origin }
 * otherwise. `Origin: null` (sandboxed frames, file: pages) is never allowed.
 */
export function checkOrigin(header, allowed) {
  if (header === undefined) return { ok: true, origin: null };
  const origin = normaliseOrigin(Array.isArray(header) ? header[0] : header);
  return { ok: origin !== null && allowed.has(origin), origin: origin ?? String(header) };
}

/**
 * The authentication of a listener: the TokenSet to check, or null for
 * none. `tokens`: a TokenSet or [{ name, token }]; `noAuth`: the operator's
 * explicit --no-auth. No token without noAuth is refused (a gateway is never
 * open by accident), and so are both at once (which one was meant?).
 */
export function authSettings({ tokens, noAuth = false, generating = false }) {
  const set = tokens instanceof TokenSet ? tokens : new TokenSet(tokens ?? []);
  if (noAuth && (set.size > 0 || generating)) {
    throw new GatewayConfigError('--no-auth and tokens (http.tokens, --token-file, --generate-token) exclude each other: choose one');
  }
  if (!noAuth && set.size === 0 && !generating) {
    throw new GatewayConfigError('--http needs a bearer token: set http.tokens in the configuration, pass --token-file FILE or --generate-token FILE, ' +
      'or pass --no-auth to serve without one (then any process on this machine can call every tool it offers)');
  }
  return noAuth ? null : set;
}
