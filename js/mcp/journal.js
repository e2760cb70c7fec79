// journal.js — one client session's journal file, private and bounded.
//
// Owns: the journal folder's mode (0700), the file's name and mode (0600),
// when the file comes to exist (commit(): only once the session is real —
// an HTTP initialize the transport accepted; a refused request leaves no
// file), and the byte count behind journal.maxBytes.
//
// A session id is a bearer secret over HTTP (whoever has it can drive the
// session), so it appears nowhere here: the file is named by a random file
// id, which is also what log lines call the session.

import { chmodSync, closeSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { GatewayConfigError } from './errors.js';

/**
 * Make `dir` (and its parents) if missing, mode 0700. An existing folder we
 * own is narrowed to 0700 (said once in the log: journals hold every query
 * and the whole catalog); one another user owns is refused, since they could
 * read or swap our files.
 */
export function ensurePrivateDir(dir, log = () => {}) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const st = statSync(dir);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new GatewayConfigError(`journal.dir ${dir}: owned by uid ${st.uid}, not by this user (uid ${process.getuid()}): choose a folder of your own`);
  }
  if ((st.mode & 0o077) !== 0) {
    chmodSync(dir, 0o700);
    log(`journal folder ${dir} was mode ${(st.mode & 0o777).toString(8)}: now 700 (journals are private)`);
  }
}

export class JournalFile {
  /**
   * `dir`: the journal folder; `transport`: 'stdio' | 'http' (in the name);
   * `maxBytes`: the limit (0 = none); `log(line)`.
   */
  constructor(dir, transport, { maxBytes = 0, log = () => {} } = {}) {
    this.id = randomBytes(8).toString('hex');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    this.dir = dir;
    this.file = path.join(dir, `${stamp}-${transport}-${this.id}.jsonl`);
    this.maxBytes = maxBytes;
    this.bytes = 0; // written or waiting to be
    this._log = log;
    this._pending = []; // lines before commit()
    this._fd = null;
    this._state = 'pending'; // → 'open' → 'closed'
  }

  /** True once the journal holds maxBytes or more: the session records no more decisions. */
  get full() {
    return this.maxBytes > 0 && this.bytes >= this.maxBytes;
  }

  /** Append one line (no newline). Before commit() it waits in memory. */
  write(line) {
    const text = `${line}\n`;
    this.bytes += Buffer.byteLength(text);
    if (this._state === 'pending') this._pending.push(text);
    else if (this._state === 'open') this._append(text);
  }

  /** The session is real: create the file (0600, never an existing one) and write what waited. */
  commit() {
    if (this._state !== 'pending') return;
    try {
      ensurePrivateDir(this.dir, this._log);
      // 'ax': append, and fail if the name exists (a planted file or link is never written through)
      this._fd = openSync(this.file, 'ax', 0o600);
      this._state = 'open';
    } catch (e) {
      this._log(`journal ${this.id}: cannot create ${this.file}: ${e.message}`);
      this._state = 'closed';
    }
    const pending = this._pending;
    this._pending = [];
    for (const text of pending) if (this._state === 'open') this._append(text);
  }

  _append(text) {
    try {
      writeSync(this._fd, text);
    } catch (e) {
      this._log(`journal ${this.id}: ${e.message}`);
    }
  }

  /** End the journal (a journal never committed leaves nothing behind). */
  close() {
    if (this._fd !== null) {
      try {
        closeSync(this._fd);
      } catch {
        /* already closed */
      }
      this._fd = null;
    }
    this._pending = [];
    this._state = 'closed';
  }
}
