// error.js — ToolsiftError, the core's status numbers, and the error a
// failed ABI call becomes (the core's error JSON, or a generic message).

const STATUS_NAMES = [
  'ok', 'arg', 'json', 'utf8', 'config', 'limit', 'nomem', 'snapshot', 'state', 'ranker',
  'diverged', 'tampered', 'model',
];
export const STATUS_NOMEM = 6;
export const STATUS_STATE = 8;
export const STATUS_ARG = 1;
export const STATUS_CONFIG = 4;
export const STATUS_SNAPSHOT = 7;
export const STATUS_RANKER = 9;

// ignoreBOM keeps output bytes exactly as the core wrote them.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** An error reported by the core (or by this binding before calling it). */
export class ToolsiftError extends Error {
  constructor(code, message, status) {
    super(message);
    this.name = 'ToolsiftError';
    this.code = code;
    this.status = status;
  }
}

function statusCode(status) {
  return STATUS_NAMES[status] ?? 'unknown';
}

export function errorFrom(status, bytes) {
  if (bytes && bytes.length) {
    try {
      const e = JSON.parse(decoder.decode(bytes));
      return new ToolsiftError(e.code ?? statusCode(status), e.message ?? '', e.status ?? status);
    } catch {
      /* fall through to a generic message */
    }
  }
  const code = statusCode(status);
  return new ToolsiftError(code, `toolsift call failed (${code})`, status);
}
