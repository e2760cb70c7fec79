// pack-utf8proc.mjs — utf8proc's tables, stored so gzip packs them well.
//
//   node scripts/pack-utf8proc.mjs UTF8PROC_DIR OUT_DIR
//
// utf8proc.c #includes "utf8proc_data.c": 350 KB of tables, half of the
// wasm module by gzip -9 (~70 KB), because gzip finds few repeats in rows of
// 24-byte structs and little-endian uint16s. This writes OUT_DIR/utf8proc.c,
// a byte-identical copy of the pinned one (a quoted #include is looked up
// beside the including file first, so the copy picks up the data file next
// to it), and OUT_DIR/utf8proc_data.c with the same tables, stored as byte
// planes (one array per struct field, uint16s as a low-byte then a high-byte
// plane) and varint streams of small codes (the stage-2 table, the
// properties' uint16 fields), rebuilt in place by a constructor, which runs
// in _initialize for the wasm reactors and before main natively. stage1table
// and combinations are small and stay as they are. The rebuilt tables are
// the same bytes as upstream's (tests/c/test_utf8proc_tables.c compares them
// with the original file's); lookups are unchanged, so nothing downstream
// can tell. About 45 KB gzip off the module (39 KB as planes, 6 KB more as
// codes); the same linear memory.
import { readFileSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import path from 'node:path';

const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error('usage: pack-utf8proc.mjs UTF8PROC_DIR OUT_DIR');
  process.exit(2);
}
const header = readFileSync(path.join(dir, 'utf8proc.h'), 'utf8');
const data = readFileSync(path.join(dir, 'utf8proc_data.c'), 'utf8');

// The data file's names: enum constants from utf8proc.h (all given
// explicitly there), UINT16_MAX, true and false.
const names = new Map([['UINT16_MAX', 65535], ['true', 1], ['false', 0]]);
for (const m of header.matchAll(/^\s*(UTF8PROC_[A-Z0-9_]+)\s*=\s*(\d+)\s*,?/gm)) names.set(m[1], Number(m[2]));
const value = (tok) => {
  if (/^\d+$/.test(tok)) return Number(tok);
  if (names.has(tok)) return names.get(tok);
  throw new Error(`pack-utf8proc: unknown name ${tok}`);
};

// Each table: `static const TYPE NAME[] = { ... };`, in file order.
const tables = [];
for (const m of data.matchAll(/static const (\w+) (\w+)\[\] = \{([\s\S]*?)\};/g)) {
  tables.push({ type: m[1], name: m[2], body: m[3] });
}
const want = ['utf8proc_sequences', 'utf8proc_stage1table', 'utf8proc_stage2table',
  'utf8proc_properties', 'utf8proc_combinations'];
if (tables.map((t) => t.name).join() !== want.join()) {
  throw new Error(`pack-utf8proc: unexpected tables ${tables.map((t) => t.name)}`);
}
const numbers = (body) => body.split(',').map((s) => s.trim()).filter(Boolean).map(value);

// utf8proc_property_t, in declaration order (utf8proc.h 2.8.0): 4 propvals
// and 6 uint16s, then the bitfields bidi_mirrored:1 comp_exclusion:1
// ignorable:1 control_boundary:1 charwidth:2 pad:2 boundclass:8.
const FIELDS = ['category', 'combining_class', 'bidi_class', 'decomp_type', 'decomp_seqindex',
  'casefold_seqindex', 'uppercase_seqindex', 'lowercase_seqindex', 'titlecase_seqindex',
  'comb_index', 'bidi_mirrored', 'comp_exclusion', 'ignorable', 'control_boundary',
  'charwidth', 'pad', 'boundclass'];
if (!/bidi_mirrored:1;[\s\S]*comp_exclusion:1;[\s\S]*ignorable:1;[\s\S]*control_boundary:1;[\s\S]*charwidth:2;[\s\S]*pad:2;[\s\S]*boundclass:8;\s*\} utf8proc_property_t;/.test(header)) {
  throw new Error('pack-utf8proc: utf8proc_property_t is not the one this packs');
}
const props = [...tables[3].body.matchAll(/\{([^}]*)\}/g)].map((m) => numbers(m[1]));
for (const p of props) if (p.length !== FIELDS.length) throw new Error('pack-utf8proc: bad property row');

const u8 = (vals, what) => {
  for (const v of vals) if (!(v >= 0 && v <= 255)) throw new Error(`pack-utf8proc: ${what} ${v} > 255`);
  return vals;
};
const planes16 = (vals) => [...vals.map((v) => v & 255), ...vals.map((v) => v >> 8)];
const col = (i) => props.map((p) => p[i]);

// The uint16 property fields (sequence and combination indices, UINT16_MAX
// for none) mostly count up from row to row: each is stored as code 0 for
// UINT16_MAX, else 1 + the difference from the field's previous value other
// than UINT16_MAX, one little-endian base-128 varint stream per field (see
// varint). The sequences are stored as differences from the value two
// before (mappings come in UTF-16 pairs and runs), zigzagged. Each shrinks
// the module by gzip -9 by 2 KB or more over plain byte planes.
const varint = (codes) => codes.flatMap((c) => {
  const out = [];
  do {
    out.push((c & 127) | (c > 127 ? 128 : 0));
    c >>= 7;
  } while (c);
  return out;
});
const skipDelta = (vals) => {
  let last = 0;
  return vals.map((v) => {
    if (v === 65535) return 0;
    const x = ((v - last) & 65535) + 1;
    last = v;
    return x;
  });
};
const delta2 = (vals) => vals.map((v, i) => (v - (i >= 2 ? vals[i - 2] : 0)) & 65535);
// A difference as a small unsigned number: 0, -1, 1, -2, 2, … as 0, 1, 2, 3, 4, …
const zigzag = (vals) => vals.map((d) => (d < 32768 ? 2 * d : 2 * (65536 - d) - 1));

// The stage-2 table maps each code point of a block to its property row.
// Rows are numbered in order of first use, so a value is mostly the next
// new row (code 0) or its left neighbour's (code 1); any other value v is
// code v + 2. Codes are stored as little-endian base-128 varints (1 to 3
// bytes). ~3 KB smaller by gzip -9 than the table's byte planes.
const stage2Codes = (vals) => {
  let next = 0;
  return varint(vals.map((v, i) => {
    const c = v === next ? 0 : i > 0 && v === vals[i - 1] ? 1 : v + 2;
    next = Math.max(next, v + 1);
    return c;
  }));
};
const seq = numbers(tables[0].body);
const stage2 = numbers(tables[2].body);
const P = props.length;
const propPlanes = [
  ...u8(col(0), 'category'), ...u8(col(1), 'combining_class'), ...u8(col(2), 'bidi_class'),
  ...u8(col(3), 'decomp_type'),
  ...props.map((p) => p[10] | p[11] << 1 | p[12] << 2 | p[13] << 3 | p[14] << 4 | p[15] << 6),
  ...u8(col(16), 'boundclass'),
];
const propStreams = [4, 5, 6, 7, 8, 9].map((i) => varint(skipDelta(col(i))));
const propStreamAt = propStreams.map((_, k) => propPlanes.length +
  propStreams.slice(0, k).reduce((n, st) => n + st.length, 0));
propPlanes.push(...propStreams.flat());

// A table and its planes share storage: the planes are the initial bytes
// of a union with the table, and the constructor rebuilds the table in
// place through a scratch copy on the stack (at most 102 KB, once), so the
// module's memory stays what it was. utf8proc.c reads each table through
// its upstream name, defined here as the union's table member.
const bytes = (vals) => {
  let s = '{';
  for (let i = 0; i < vals.length; i++) s += (i % 24 ? '' : '\n') + vals[i] + ',';
  return s + '\n}';
};
const packed = (type, name, n, planes) => `static union {
  ${type} t[${n}];
  unsigned char planes[${planes.length}];
} tsift_u8p_${name.replace('utf8proc_', '')} = {.planes = ${bytes(planes)}};
#define ${name} tsift_u8p_${name.replace('utf8proc_', '')}.t
`;
const verbatim = (t) => `static const ${t.type} ${t.name}[] = {${t.body}};\n`;
const propBytes = propPlanes.length;
const stage2Bytes = stage2Codes(stage2);
const scratch = Math.max(2 * seq.length, stage2Bytes.length, propBytes);

const src = `/* Generated by scripts/pack-utf8proc.mjs from ${path.basename(dir)}/utf8proc_data.c:
 * the same tables (see that file for the copyright), stored as byte planes
 * and rebuilt into upstream's layout at start-up. Do not edit. */
#include <stddef.h>
#include <string.h>

${packed('utf8proc_uint16_t', 'utf8proc_sequences', seq.length, planes16(zigzag(delta2(seq))))}
${verbatim(tables[1])}
${packed('utf8proc_uint16_t', 'utf8proc_stage2table', stage2.length, stage2Bytes)}
${packed('utf8proc_property_t', 'utf8proc_properties', P, propPlanes)}
${verbatim(tables[4])}
/* dst[i] = lo[i] | lo[n + i] << 8, where lo (a copy) was dst's own bytes. */
static void tsift_u8p_unplane16(utf8proc_uint16_t *dst, const unsigned char *lo, int n) {
  for (int i = 0; i < n; i++) dst[i] = (utf8proc_uint16_t)(lo[i] | lo[n + i] << 8);
}

/* The next little-endian base-128 varint at *s (most are one byte). */
static inline unsigned tsift_u8p_varint(const unsigned char **s) {
  const unsigned char *p = *s;
  unsigned c = *p++;
  if (c & 128) {
    c &= 127;
    for (int sh = 7;; sh += 7) {
      c |= (unsigned)(*p & 127) << sh;
      if (!(*p++ & 128)) break;
    }
  }
  *s = p;
  return c;
}

enum { N = ${P} };

/* One uint16 field of every property row, from its stream of codes: 0 for
 * UINT16_MAX, else 1 + the step from the field's last other value. */
static void tsift_u8p_field(const unsigned char *s, size_t at) {
  unsigned last = 0;
  for (int i = 0; i < N; i++) {
    unsigned c = tsift_u8p_varint(&s);
    utf8proc_uint16_t v = (utf8proc_uint16_t)(c ? (last = (last + c - 1) & 0xFFFF) : 0xFFFF);
    memcpy((unsigned char *)&utf8proc_properties[i] + at, &v, sizeof v);
  }
}

__attribute__((constructor)) static void tsift_u8p_unpack(void) {
  unsigned char b[${scratch}];
  memcpy(b, tsift_u8p_sequences.planes, ${2 * seq.length});
  tsift_u8p_unplane16(utf8proc_sequences, b, ${seq.length});
  for (int i = 0; i < ${seq.length}; i++) { /* zigzag: d = z / 2, or -(z + 1) / 2 when z is odd */
    unsigned z = utf8proc_sequences[i], d = z & 1 ? 0u - (z >> 1) - 1 : z >> 1;
    utf8proc_sequences[i] = (utf8proc_uint16_t)(d + (i >= 2 ? utf8proc_sequences[i - 2] : 0));
  }
  memcpy(b, tsift_u8p_stage2table.planes, ${stage2Bytes.length});
  const unsigned char *s = b;
  for (unsigned i = 0, next = 0; i < ${stage2.length}; i++) { /* codes: new row, left's, v + 2 */
    unsigned c = tsift_u8p_varint(&s);
    unsigned v = c == 0 ? next : c == 1 ? utf8proc_stage2table[i - 1] : c - 2;
    utf8proc_stage2table[i] = (utf8proc_uint16_t)v;
    if (v >= next) next = v + 1;
  }
  memcpy(b, tsift_u8p_properties.planes, ${propBytes});
  for (int i = 0; i < N; i++) {
    utf8proc_property_t *p = &utf8proc_properties[i];
    unsigned f = b[4 * N + i];
    /* Every byte of the entry, padding included, as a static initialiser
     * leaves it; the planes were where it is. */
    memset(p, 0, sizeof *p);
    p->category = b[i];
    p->combining_class = b[N + i];
    p->bidi_class = b[2 * N + i];
    p->decomp_type = b[3 * N + i];
    p->bidi_mirrored = f & 1;
    p->comp_exclusion = f >> 1 & 1;
    p->ignorable = f >> 2 & 1;
    p->control_boundary = f >> 3 & 1;
    p->charwidth = f >> 4 & 3;
    p->pad = f >> 6 & 3;
    p->boundclass = b[5 * N + i];
  }
${[4, 5, 6, 7, 8, 9].map((i, k) => `  tsift_u8p_field(b + ${propStreamAt[k]}, offsetof(utf8proc_property_t, ${FIELDS[i]}));`).join('\n')}
}
`;
mkdirSync(out, { recursive: true });
copyFileSync(path.join(dir, 'utf8proc.c'), path.join(out, 'utf8proc.c'));
writeFileSync(path.join(out, 'utf8proc_data.c'), src);
