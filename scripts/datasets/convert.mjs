// convert.mjs — the public sets' own files → the layout eval and bench read
// (docs/datasets.md): tools.jsonl {id, name, description, parameters: JSON
// Schema or null, meta} and queries_dev.jsonl {id, query, relevant: {tool id:
// grade}, split}. One function per set; each gets the fetched files as text
// by their path in the set's sources entry and returns {files: {name: text},
// tools, queries}. Every shape it does not recognise is an error naming the
// file and line, so a changed upstream stops the run instead of converting
// into something else.
import { Obj, dump, obj, parse } from './pyjson.mjs';

const lines = (text, file) =>
  text
    .split('\n')
    .map((l, n) => [l.replace(/\r$/, ''), n + 1])
    .filter(([l]) => l.trim())
    .map(([l, n]) => {
      const v = parse(l, `${file}:${n}`);
      if (!(v instanceof Obj)) throw new Error(`${file}:${n}: expected a JSON object per line`);
      return [v, `${file}:${n}`];
    });

const need = (o, key, type, where) => {
  const v = o.get(key);
  const ok = type === 'string' ? typeof v === 'string' : type === 'object' ? v instanceof Obj : Array.isArray(v);
  if (!ok) throw new Error(`${where}: "${key}" must be a ${type === 'array' ? 'list' : type}`);
  return v;
};

const jsonl = (records, ascii) => records.map((r) => dump(r, { ascii }) + '\n').join('');

// ---------------------------------------------------------------------------
// Seal-Tools: tool.jsonl (one API per line: api_name, api_description, field,
// parameters {name: {type, description}}, required, responses) and the
// official dev split dev.jsonl ({id, query, calling: [{api, …}]}).
// Parameter types are Python's names; JSON Schema's are written.
const SEAL_TYPES = { str: 'string', int: 'integer', float: 'number', bool: 'boolean', list: 'array', dict: 'object' };

function sealTool(t, where) {
  const name = need(t, 'api_name', 'string', where);
  const params = t.get('parameters') ?? new Obj();
  if (!(params instanceof Obj)) throw new Error(`${where}: "parameters" must be an object`);
  const properties = new Obj();
  for (const [p, spec] of params.pairs) {
    if (!(spec instanceof Obj)) throw new Error(`${where}: parameter "${p}" must be an object`);
    const type = spec.get('type');
    properties.set(p, obj(['type', SEAL_TYPES[type] ?? (typeof type === 'string' ? 'string' : undefined)], ['description', spec.get('description')]));
  }
  const required = t.get('required');
  const schema = params.pairs.length
    ? obj(['type', 'object'], ['properties', properties], ['required', Array.isArray(required) && required.length ? required : undefined])
    : null;
  return obj(['id', name], ['name', name], ['description', need(t, 'api_description', 'string', where)], ['parameters', schema],
    ['meta', obj(['field', t.get('field')], ['responses', t.get('responses')])]);
}

function sealQuery(q, where) {
  const relevant = new Obj();
  for (const call of need(q, 'calling', 'array', where)) {
    if (!(call instanceof Obj) || typeof call.get('api') !== 'string') throw new Error(`${where}: every "calling" entry needs an "api" name`);
    relevant.set(call.get('api'), 1);
  }
  return obj(['id', need(q, 'id', 'string', where)], ['query', need(q, 'query', 'string', where)], ['relevant', relevant], ['split', 'dev']);
}

export function sealtools(files) {
  const tools = lines(files['Seal-Tools_Dataset/tool.jsonl'], 'tool.jsonl').map(([t, w]) => sealTool(t, w));
  const queries = lines(files['Seal-Tools_Dataset/dev.jsonl'], 'dev.jsonl').map(([q, w]) => sealQuery(q, w));
  return { tools: tools.length, queries: queries.length,
    files: { 'tools.jsonl': jsonl(tools, false), 'queries_dev.jsonl': jsonl(queries, false) } };
}

// ---------------------------------------------------------------------------
// ToolLens (COLT): corpus.jsonl is BEIR-shaped, {_id, title, text}, with the
// tool flattened into text as "category_name:…, tool_name:…, api_name:…,
// api_description:…, required_params: [...], optional_params: [...],
// return_schema: …"; queries.jsonl {_id, text}; qrels/train.tsv
// (query-id, corpus-id, score). Only the official train split is written:
// its queries are the development set, the test split is left alone.
const LENS_FIELDS = /^category_name:(.*?), tool_name:(.*?), api_name:(.*?), api_description:([\s\S]*), required_params: (\[[\s\S]*?\]), optional_params: (\[[\s\S]*?\]), return_schema: ([\s\S]*)$/;
const LENS_TYPES = { NUMBER: 'number', INTEGER: 'number', FLOAT: 'number', BOOLEAN: 'boolean' };

function lensParams(required, optional, where) {
  const properties = new Obj();
  const names = [];
  for (const [list, isRequired] of [[required, true], [optional, false]])
    for (const p of list) {
      if (!(p instanceof Obj) || typeof p.get('name') !== 'string') throw new Error(`${where}: every parameter needs a "name"`);
      const type = LENS_TYPES[String(p.get('type')).toUpperCase()] ?? 'string';
      const description = p.get('description');
      properties.set(p.get('name'), obj(['type', type], ['description', typeof description === 'string' && description ? description : undefined]));
      if (isRequired) names.push(p.get('name'));
    }
  if (!properties.pairs.length) return null;
  return obj(['type', 'object'], ['properties', properties], ['required', names.length ? names : undefined]);
}

function lensTool(d, where) {
  const id = need(d, '_id', 'string', where);
  const m = LENS_FIELDS.exec(need(d, 'text', 'string', where));
  if (!m) throw new Error(`${where}: "text" is not "category_name:…, tool_name:…, api_name:…, api_description:…, required_params: […], optional_params: […], return_schema: …"`);
  const [, category, tool, api, description, req, opt, returns] = m;
  const params = lensParams(parse(req, `${where} required_params`), parse(opt, `${where} optional_params`), where);
  return obj(['id', id], ['name', `${tool}: ${api}`], ['description', description], ['parameters', params],
    ['meta', obj(['category', category], ['tool_name', tool], ['api_name', api], ['return_schema', returns])]);
}

function lensQrels(text) {
  const byQuery = new Map();
  text.split('\n').forEach((line, n) => {
    const l = line.replace(/\r$/, '');
    if (!l.trim() || (n === 0 && l.startsWith('query-id'))) return;
    const f = l.split('\t');
    if (f.length !== 3 || !/^-?\d+$/.test(f[2])) throw new Error(`qrels/train.tsv:${n + 1}: expected "query-id<TAB>corpus-id<TAB>score"`);
    if (!byQuery.has(f[0])) byQuery.set(f[0], new Obj());
    byQuery.get(f[0]).set(f[1], Number(f[2]));
  });
  return byQuery;
}

export function toollens(files) {
  const tools = lines(files['datasets/ToolLens/corpus.jsonl'], 'corpus.jsonl').map(([d, w]) => lensTool(d, w));
  const ids = new Set(tools.map((t) => t.get('id')));
  const qrels = lensQrels(files['datasets/ToolLens/qrels/train.tsv']);
  const queries = [];
  for (const [q, where] of lines(files['datasets/ToolLens/queries.jsonl'], 'queries.jsonl')) {
    const id = need(q, '_id', 'string', where);
    const relevant = qrels.get(id);
    if (!relevant) continue; // not a train query
    for (const t of relevant.keys()) if (!ids.has(t)) throw new Error(`qrels/train.tsv: query ${id} names tool ${t}, which corpus.jsonl lacks`);
    queries.push(obj(['id', id], ['query', need(q, 'text', 'string', where)], ['relevant', relevant], ['split', 'train']));
  }
  return { tools: tools.length, queries: queries.length,
    files: { 'tools.jsonl': jsonl(tools, false), 'queries_dev.jsonl': jsonl(queries, true) } };
}

// ---------------------------------------------------------------------------
// MetaTool: dataset/plugin_info.json (ChatGPT plugin manifests:
// name_for_model, name_for_human, description_for_human,
// description_for_model) and dataset/plugin_des.json (name → description)
// for the tools the manifests lack. The tools only: MetaTool publishes no
// split of its queries, and the project's development split is held with
// its test split (docs/datasets.md).
function manifests(v, file) {
  const list = Array.isArray(v) ? v : v instanceof Obj ? v.pairs.map(([, x]) => x) : null;
  if (!list) throw new Error(`${file}: expected a list (or an object) of plugin manifests`);
  return list.map((m, n) => {
    const where = `${file}: entry ${n + 1}`;
    if (!(m instanceof Obj)) throw new Error(`${where}: expected an object`);
    return obj(['id', need(m, 'name_for_model', 'string', where)], ['name', m.get('name_for_model')],
      ['description', need(m, 'description_for_human', 'string', where)], ['parameters', null],
      ['meta', obj(['name_for_human', m.get('name_for_human')], ['description_for_model', m.get('description_for_model')])]);
  });
}

function descriptions(v, file) {
  const pairs = v instanceof Obj ? v.pairs
    : Array.isArray(v) ? v.map((e) => [e instanceof Obj ? e.get('name') : undefined, e instanceof Obj ? e.get('description') : undefined]) : null;
  if (!pairs) throw new Error(`${file}: expected an object of name → description`);
  return pairs.map(([name, description], n) => {
    if (typeof name !== 'string' || typeof description !== 'string') throw new Error(`${file}: entry ${n + 1}: expected a name and a description text`);
    return obj(['id', name], ['name', name], ['description', description], ['parameters', null], ['meta', new Obj()]);
  });
}

export function metatool(files) {
  const tools = manifests(parse(files['dataset/plugin_info.json'], 'plugin_info.json'), 'plugin_info.json');
  const seen = new Set(tools.map((t) => t.get('id')));
  for (const t of descriptions(parse(files['dataset/plugin_des.json'], 'plugin_des.json'), 'plugin_des.json'))
    if (!seen.has(t.get('id'))) {
      seen.add(t.get('id'));
      tools.push(t);
    }
  return { tools: tools.length, queries: 0, files: { 'tools.jsonl': jsonl(tools, false) } };
}

export const CONVERTERS = { sealtools, toollens, metatool };
