// journal.js — the client sessions' journal files: private, bounded one by
// one and all together.
//
// Owns: the journal folder's mode (0700), a file's name and mode (0600),
// when a file comes to exist, the byte count behind journal.maxBytes, and
// the folder's caps (JournalStore: journal.maxFiles, journal.maxTotalBytes,
// and what happens at them, journal.whenFull).
//
// When a file comes to exist: only once the session is real (an HTTP
// initialize the transport accepted: a refused request leaves nothing) AND
// it has something to record — its first decision or call record. A session
// that records nothing (an initialize and a DELETE) leaves no file: its
// segment line and chain header wait in memory, and are written first when
// a record comes, so the file is the whole chain and verifies and replays as
// before. (A second segment line is a file too, so that no more than one
// segment waits in memory.) A segment line waits as its pieces (session.js
// segmentLinePieces): its catalog's text is the generation's one string,
// shared by every session of the generation, so an idle session costs its
// own fields, not a copy of the catalog; the pieces are joined only to be
// written.
//
// A session id is a bearer secret over HTTP (whoever has it can drive the
// session), so it appears nowhere here: the file is named by a random file
// id, which is also what log lines call the session.

import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
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

/** The name of a file the gateway writes: `<UTC time>-<transport>-<16 hex>.jsonl`. Only these are counted and rotated. */
export const JOURNAL_NAME = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[a-z]+-[0-9a-f]{16}\.jsonl$/;

/**
 * The journal folder's caps, for every session of the gateway together:
 * journal.maxFiles files and journal.maxTotalBytes bytes (0: no cap), over
 * the journal files in the folder (JOURNAL_NAME; nothing else there is
 * counted or touched), those of earlier runs included.
 *
 * At a cap (journal.whenFull):
 *   'rotate' (default): the oldest closed journals (by name: by the time
 *     their session started) are deleted to make room. A journal a session
 *     still writes is never deleted: when the open ones alone fill a cap, new
 *     sessions are refused and open ones decide nothing more, as under
 *     'refuse'.
 *   'refuse': nothing is deleted; a new session is refused (HTTP 503,
 *     CODES.journalStorageFull), and a session without a file yet, or whose
 *     journal would pass maxTotalBytes, decides nothing more (CODES.journalFull).
 * The caps are checked before every decision, so the total can pass
 * maxTotalBytes by the lines of the decisions already admitted — under
 * 'rotate' only while the open journals alone are over it.
 *
 * The counts are kept as the gateway writes and deletes; files moved away
 * by hand are seen at the next scan() (the gateway's start and SIGHUP).
 */
export class JournalStore {
  constructor(dir, { maxFiles = 0, maxTotalBytes = 0, whenFull = 'rotate', log = () => {}, quiet = null } = {}) {
    this.dir = dir;
    this.log = log;
    this.quiet = quiet; // a QuietLog (errors.js): deletions are logged once per interval, with a count
    this.open = new Set(); // JournalFiles with a file this gateway still writes
    this.openBytes = 0;
    this.closed = []; // { name, bytes }, by name: the oldest first
    this.closedBytes = 0;
    this.removed = 0; // journals deleted by rotation since the start
    this.configure({ maxFiles, maxTotalBytes, whenFull });
  }

  configure({ maxFiles = 0, maxTotalBytes = 0, whenFull = 'rotate' }) {
    this.maxFiles = maxFiles;
    this.maxTotalBytes = maxTotalBytes;
    this.whenFull = whenFull;
  }

  get files() {
    return this.closed.length + this.open.size;
  }

  get bytes() {
    return this.closedBytes + this.openBytes;
  }

  /** Count the journal files in the folder again (the open ones are this gateway's own), then apply the caps. */
  scan() {
    const mine = new Set([...this.open].map((j) => path.basename(j.file)));
    const closed = [];
    let bytes = 0;
    let entries = [];
    try {
      entries = readdirSync(this.dir, { withFileTypes: true });
    } catch (e) {
      if (e.code !== 'ENOENT') this.log(`journal folder ${this.dir}: cannot list it: ${e.message}`);
    }
    for (const d of entries) {
      if (!d.isFile() || !JOURNAL_NAME.test(d.name) || mine.has(d.name)) continue; // a link is not a file here
      try {
        const size = lstatSync(path.join(this.dir, d.name)).size;
        closed.push({ name: d.name, bytes: size });
        bytes += size;
      } catch {
        /* gone meanwhile */
      }
    }
    closed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.closed = closed;
    this.closedBytes = bytes;
    this.enforce();
  }

  /**
   * What stops a session from recording now, or null: `bytes` more bytes in
   * a journal, `newFile`: in a file yet to be created. Under 'rotate' only
   * the open journals count (closed ones make room); nothing is deleted here.
   */
  blocked(bytes, newFile) {
    const rotate = this.whenFull === 'rotate';
    const files = (rotate ? this.open.size : this.files) + (newFile ? 1 : 0);
    const total = (rotate ? this.openBytes : this.bytes) + bytes;
    if (this.maxFiles > 0 && files > this.maxFiles) {
      return { limit: 'journal.maxFiles', value: this.maxFiles,
        why: `the journal folder holds ${this.files} journal files, and journal.maxFiles is ${this.maxFiles}${rotate ? ' (all of them open)' : ''}` };
    }
    if (this.maxTotalBytes > 0 && total >= this.maxTotalBytes) {
      return { limit: 'journal.maxTotalBytes', value: this.maxTotalBytes,
        why: `the journals in the folder hold ${this.bytes} bytes${rotate ? ` (${this.openBytes} in open ones)` : ''}, and journal.maxTotalBytes is ${this.maxTotalBytes}` };
    }
    return null;
  }

  opened(journal) {
    this.open.add(journal);
    this.enforce();
  }

  wrote(journal, n) {
    if (this.open.has(journal)) this.openBytes += n;
    this.enforce();
  }

  closedFile(journal) {
    if (!this.open.delete(journal)) return;
    this.openBytes -= journal.written;
    const entry = { name: path.basename(journal.file), bytes: journal.written };
    let i = this.closed.length; // sessions mostly close in the order they started
    while (i > 0 && this.closed[i - 1].name > entry.name) i--;
    this.closed.splice(i, 0, entry);
    this.closedBytes += entry.bytes;
    this.enforce();
  }

  // 'rotate': delete the oldest closed journals while a cap is passed.
  enforce() {
    if (this.whenFull !== 'rotate') return;
    while (this.closed.length > 0 && ((this.maxFiles > 0 && this.files > this.maxFiles) ||
      (this.maxTotalBytes > 0 && this.bytes > this.maxTotalBytes))) {
      const old = this.closed.shift();
      this.closedBytes -= old.bytes;
      const file = path.join(this.dir, old.name);
      try {
        if (lstatSync(file).isFile()) unlinkSync(file);
      } catch (e) {
        if (e.code !== 'ENOENT') this.log(`journal ${old.name}: cannot delete it: ${e.message}`);
      }
      this.removed += 1;
      const line = `journal folder at its caps (journal.maxFiles ${this.maxFiles}, journal.maxTotalBytes ${this.maxTotalBytes}): ` +
        `deleted the oldest closed journal ${old.name} (${old.bytes} bytes); ${this.files} files, ${this.bytes} bytes now`;
      if (this.quiet) this.quiet.note('journal-rotate', line);
      else this.log(line);
    }
  }
}

export class JournalFile {
  /**
   * `dir`: the journal folder; `transport`: 'stdio' | 'http' (in the name);
   * `maxBytes`: the limit (0 = none); `log(line)`; `store`: the folder's
   * JournalStore (its caps), or null.
   */
  constructor(dir, transport, { maxBytes = 0, log = () => {}, store = null } = {}) {
    this.id = randomBytes(8).toString('hex');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    this.dir = dir;
    this.file = path.join(dir, `${stamp}-${transport}-${this.id}.jsonl`);
    this.maxBytes = maxBytes;
    this.bytes = 0; // written or waiting to be
    this.written = 0; // in the file
    this.store = store;
    this.lastFull = null; // the last reason the journal could take no more
    this._log = log;
    this._pending = []; // lines waiting for the file
    this._pendingSegments = 0;
    this._hasRecord = false;
    this._fd = null;
    this._state = 'pending'; // → 'accepted' (commit()) → 'open' (a file: the first record) → 'closed'
  }

  /** True while the journal can take no more: the session records no more decisions. */
  get full() {
    return this.fullReason() !== null;
  }

  /**
   * Why the journal can take no more, or null: { limit, value, why } —
   * journal.maxBytes (this journal), or the folder's caps (JournalStore).
   */
  fullReason() {
    let r = null;
    if (this.maxBytes > 0 && this.bytes >= this.maxBytes) {
      r = { limit: 'journal.maxBytes', value: this.maxBytes, why: `this session's journal reached journal.maxBytes (${this.maxBytes} bytes)`,
        short: `${this.bytes} of journal.maxBytes ${this.maxBytes} bytes` };
    } else if (this.store && this._state === 'open') {
      r = this.store.blocked(0, false);
    } else if (this.store && this._state !== 'closed') {
      r = this.store.blocked(this.bytes, true);
    }
    if (r) this.lastFull = r;
    return r;
  }

  /** True once the file exists. */
  get created() {
    return this._state === 'open' || (this._state === 'closed' && this.written > 0);
  }

  /**
   * Append one line (no newline): a string, or an array of strings whose
   * concatenation is the line (a segment line: its shared pieces are held,
   * not copied). `kind`: 'segment', 'header' or 'record' (session.js).
   * Lines wait in memory until the file exists: the session's first record
   * (or second segment) once commit() has accepted it.
   */
  write(line, kind = 'record') {
    const text = typeof line === 'string' ? `${line}\n` : [...line, '\n'];
    this.bytes += typeof text === 'string' ? Buffer.byteLength(text) : text.reduce((n, piece) => n + Buffer.byteLength(piece), 0);
    if (this._state === 'open') {
      this._append(text);
      return;
    }
    if (this._state === 'closed') return;
    this._pending.push(text);
    if (kind === 'record') this._hasRecord = true;
    if (kind === 'segment') this._pendingSegments += 1;
    if (this._state === 'accepted') this._createIfDue();
  }

  /** The session is real (the transport accepted it): its file is created with its first record. */
  commit() {
    if (this._state !== 'pending') return;
    this._state = 'accepted';
    this._createIfDue();
  }

  // Create the file (0600, never an existing one) and write what waited.
  _createIfDue() {
    if (!this._hasRecord && this._pendingSegments < 2) return;
    try {
      ensurePrivateDir(this.dir, this._log);
      // 'ax': append, and fail if the name exists (a planted file or link is never written through)
      this._fd = openSync(this.file, 'ax', 0o600);
      this._state = 'open';
      this.store?.opened(this);
    } catch (e) {
      this._log(`journal ${this.id}: cannot create ${this.file}: ${e.message}`);
      this._state = 'closed';
    }
    const pending = this._pending;
    this._pending = [];
    for (const text of pending) if (this._state === 'open') this._append(text);
  }

  // One write of one whole line (a line in pieces is joined for it).
  _append(text) {
    try {
      const n = writeSync(this._fd, typeof text === 'string' ? text : text.join(''));
      this.written += n;
      this.store?.wrote(this, n);
    } catch (e) {
      this._log(`journal ${this.id}: ${e.message}`);
    }
  }

  /** End the journal (one that recorded nothing leaves nothing behind). */
  close() {
    if (this._fd !== null) {
      try {
        closeSync(this._fd);
      } catch {
        /* already closed */
      }
      this._fd = null;
      this._state = 'closed';
      this.store?.closedFile(this);
    }
    this._pending = [];
    this._state = 'closed';
  }
}
