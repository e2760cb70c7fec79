import fs from 'node:fs';
const text = fs.readFileSync(process.argv[2], 'utf8');
const doc = JSON.parse(text);
const re = /^[A-Za-z0-9_.:-]{1,128}$/;
const errs = [];
const shapes = {}, trust = {}, ns = {}, ids = new Set();
let titled = 0, emptySchema = 0, long = 0, terse = 0, nestedAnyOf = 0;
function walk(sc, path, fn) { if (!sc || typeof sc !== 'object') return; fn(sc, path);
  for (const [k, v] of Object.entries(sc.properties || {})) walk(v, path + '.' + k, fn);
  if (sc.items) walk(sc.items, path + '[]', fn);
  for (const k of ['anyOf', 'oneOf', 'allOf']) (sc[k] || []).forEach((v, j) => walk(v, `${path}.${k}${j}`, fn));
  if (sc.additionalProperties && typeof sc.additionalProperties === 'object') walk(sc.additionalProperties, path + '{}', fn); }
for (const t of doc.tools) {
  let shape, name, desc, schema, id;
  if (t.type === 'function' && t.function) { shape = 'openai'; name = t.function.name; desc = t.function.description; schema = t.function.parameters; id = name; }
  else if ('input_schema' in t) { shape = 'anthropic'; name = t.name; desc = t.description; schema = t.input_schema; id = t.id ?? name; }
  else { shape = 'id' in t ? 'native' : 'mcp'; name = t.name; desc = t.description; schema = t.inputSchema; id = t.id ?? name; }
  shapes[shape] = (shapes[shape] || 0) + 1;
  if (!name) errs.push('no name: ' + JSON.stringify(t).slice(0, 80));
  if (!re.test(id)) errs.push('bad id ' + id);
  if (ids.has(id)) errs.push('dup id ' + id); ids.add(id);
  if (t.id && t.id.split('__')[1] !== t.name) errs.push('name mismatch ' + t.id);
  const p = id.split('__'); if (p.length !== 2) errs.push('not namespaced ' + id);
  ns[p[0]] = (ns[p[0]] || 0) + 1;
  const cls = t.tainted ? 'tainted' : (t.origin === 'remote' || t.origin === 'a2a') ? (t.trusted ? `${t.origin}-vouched` : `${t.origin}-unvouched`) : 'local';
  trust[cls] = (trust[cls] || 0) + 1;
  if (t.title || t.annotations?.title) titled++;
  if (!schema || !schema.properties || Object.keys(schema.properties).length === 0) emptySchema++;
  if (!desc) errs.push('no description ' + id);
  if (desc.length > 400) long++; if (desc.length < 45) terse++;
  for (const f of ['tags', 'aliases']) if (t[f]) { if (t[f].length > 16 || t[f].some(x => typeof x !== 'string' || x.length > 80)) errs.push('labels ' + id); }
  walk(schema, id, (sc, path) => {
    if (sc.anyOf) nestedAnyOf++;
    if (sc.required) for (const r of sc.required) if (!sc.properties || !(r in sc.properties)) errs.push(`required ${r} missing at ${path}`);
    if ('description' in sc && typeof sc.description !== 'string') errs.push('non-string description at ' + path);
    if (sc.enum && sc.default !== undefined && !sc.enum.includes(sc.default)) errs.push('default not in enum at ' + path);
  });
}
for (const [k, v] of Object.entries(doc.annotations)) { if (!ids.has(k)) errs.push('annotation for unknown id ' + k); }
if (text.includes('undefined')) errs.push('"undefined" in text');
const remote = doc.tools.filter(t => t.origin === 'remote').length;
console.log(JSON.stringify({ bytes: text.length, tools: doc.tools.length, namespaces: Object.keys(ns).length, shapes, trust, remote, titled, emptySchema, longDescriptions: long, terseDescriptions: terse, anyOfNodes: nestedAnyOf, annotations: Object.keys(doc.annotations).length }, null, 1));
console.log(Object.entries(ns).map(([k, v]) => `${k} ${v}`).join(', '));
if (errs.length) { console.log('ERRORS', errs); process.exit(1); } else console.log('OK');
