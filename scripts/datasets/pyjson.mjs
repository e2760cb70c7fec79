// pyjson.mjs — JSON that round-trips the way the public sets were written.
//
// The sets' authors (and ../shared/datasets) write JSON with Python's
// json.dumps defaults: ", " and ": " separators, every non-ASCII character as
// \uXXXX, numbers as written (2500.0 stays 2500.0). JavaScript's JSON.parse
// loses both the number's text and the order of integer-like keys ("151"
// before "208" whatever the file said), so the converters read with parse()
// here, which keeps objects as ordered [key, value] pairs and numbers as their
// source text, and write with dump(). Strictness: one value per input, no
// trailing garbage, errors name the byte offset.

/** A number kept as its source text. */
export class Num {
  constructor(text) {
    this.text = text;
  }
}

/** An object as ordered pairs (duplicate keys are an error). */
export class Obj {
  constructor(pairs = []) {
    this.pairs = pairs;
  }
  get(key) {
    const p = this.pairs.find(([k]) => k === key);
    return p ? p[1] : undefined;
  }
  has(key) {
    return this.pairs.some(([k]) => k === key);
  }
  set(key, value) {
    const p = this.pairs.find(([k]) => k === key);
    if (p) p[1] = value;
    else this.pairs.push([key, value]);
    return this;
  }
  keys() {
    return this.pairs.map(([k]) => k);
  }
}

/** Parse one JSON text; `where` names it in errors. */
export function parse(text, where = 'input') {
  let i = 0;
  const fail = (what) => {
    throw new Error(`${where}: ${what} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const value = (depth) => {
    if (depth > 512) fail('nesting deeper than 512');
    ws();
    const c = text[i];
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]])
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    // Python writes these for non-finite floats; accept them as numbers.
    for (const word of ['NaN', 'Infinity', '-Infinity'])
      if (text.startsWith(word, i)) {
        i += word.length;
        return new Num(word);
      }
    return fail(c === undefined ? 'unexpected end' : `unexpected ${JSON.stringify(c)}`);
  };
  const object = (depth) => {
    i++;
    const o = new Obj();
    ws();
    if (text[i] === '}') {
      i++;
      return o;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') fail('expected a key');
      const k = string();
      if (o.has(k)) fail(`duplicate key ${JSON.stringify(k)}`);
      ws();
      if (text[i] !== ':') fail('expected ":"');
      i++;
      o.pairs.push([k, value(depth + 1)]);
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return o;
      }
      fail('expected "," or "}"');
    }
  };
  const array = (depth) => {
    i++;
    const a = [];
    ws();
    if (text[i] === ']') {
      i++;
      return a;
    }
    for (;;) {
      a.push(value(depth + 1));
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return a;
      }
      fail('expected "," or "]"');
    }
  };
  const string = () => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('control character in a string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const number = () => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 64));
    if (!m) fail('bad number');
    i += m[0].length;
    return new Num(m[0]);
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail('text after the value');
  return v;
}

const ESC = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function str(s, ascii) {
  let out = '"';
  for (let k = 0; k < s.length; k++) {
    const ch = s[k];
    const code = s.charCodeAt(k);
    if (ESC[ch]) out += ESC[ch];
    else if (code < 0x20 || (ascii && code > 0x7f)) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/**
 * Write a value as Python's json.dumps(value) would: with `ascii` (Python's
 * default ensure_ascii) every UTF-16 unit above 0x7e as \uXXXX, as Python
 * does; without it (ensure_ascii=False) characters as they are.
 */
export function dump(v, { ascii = true } = {}) {
  const d = (x) => dump(x, { ascii });
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (v instanceof Num) return v.text;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`dump: ${v} is not an integer; keep numbers as Num`);
    return String(v);
  }
  if (typeof v === 'string') return str(v, ascii);
  if (Array.isArray(v)) return '[' + v.map(d).join(', ') + ']';
  if (v instanceof Obj) return '{' + v.pairs.map(([k, x]) => str(k, ascii) + ': ' + d(x)).join(', ') + '}';
  throw new Error(`dump: cannot write ${Object.prototype.toString.call(v)}`);
}

/** An Obj from [key, value] pairs, leaving out pairs whose value is undefined. */
export const obj = (...pairs) => new Obj(pairs.filter(([, v]) => v !== undefined));
