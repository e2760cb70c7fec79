// bytes.js — moving values into the bytes the ABI takes: UTF-8 text, raw
// bytes passed through, options JSON, vectors as base64, C strings read
// back out of linear memory.

import { ToolsiftError, STATUS_ARG } from './error.js';

export const encoder = new TextEncoder();
// ignoreBOM keeps output bytes exactly as the core wrote them.
export const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

// "annotations" given as text or bytes (a vocabulary file as it was read)
// goes in verbatim: the core's strict reader reads it, and its digest is of
// what the file says, not of what JSON.parse kept (docs/learning.md).
export function optionsJson(pairs) {
  const parts = [];
  for (const [k, v] of pairs) {
    if (v === undefined) continue;
    const raw = k === 'annotations' && (typeof v === 'string' || isBytes(v));
    parts.push(`${JSON.stringify(k)}:${raw ? (typeof v === 'string' ? v : decoder.decode(asBytes(v))) : JSON.stringify(v)}`);
  }
  return parts.length ? `{${parts.join(',')}}` : null;
}

// Options of any call: a string is raw JSON passed verbatim; an object
// passes exactly the keys it has (undefined values dropped); null/undefined
// passes none.
export function encodeOptions(options) {
  if (options === undefined || options === null) return null;
  if (typeof options === 'string') return encoder.encode(options);
  if (options instanceof Uint8Array) return options; /* raw JSON bytes, verbatim */
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new ToolsiftError('arg', 'options must be an object or a JSON string', STATUS_ARG);
  }
  const json = optionsJson(Object.entries(options));
  return json === null ? null : encoder.encode(json);
}

/** A vector as the core reads it: base64 of float32 little-endian. */
export function vectorBase64(vector) {
  const f = vector instanceof Float32Array ? vector : Float32Array.from(vector);
  const b = new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
  let bin = '';
  for (let i = 0; i < b.length; i++) bin += String.fromCharCode(b[i]);
  return btoa(bin);
}

// Search options with a numeric "vector" as base64 (exact float32, and a
// fraction of the JSON text of the numbers).
export function withVectorText(options) {
  if (!options || typeof options !== 'object' || isBytes(options) || options.vector === undefined) return options;
  const v = options.vector;
  if (typeof v === 'string' || v === null) return options;
  return { ...options, vector: vectorBase64(v) };
}

export function asBytes(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return encoder.encode(value);
}


// Tool names and arguments: text, or raw bytes passed through untouched.
export function textOrBytes(value) {
  return typeof value === 'string' ? encoder.encode(value) : asBytes(value);
}

export function isBytes(value) {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

// A catalog or configuration: text or bytes as they are, any other value
// JSON.stringify'd.
export function jsonBytes(value) {
  return typeof value === 'string' || value instanceof ArrayBuffer || ArrayBuffer.isView(value)
    ? asBytes(value)
    : asBytes(JSON.stringify(value) ?? '');
}

// The NUL-terminated string at `ptr` in the module's memory.
export function cString(ex, ptr) {
  const mem = new Uint8Array(ex.memory.buffer);
  let end = ptr;
  while (end < mem.length && mem[end] !== 0) end++;
  return decoder.decode(mem.subarray(ptr, end));
}
