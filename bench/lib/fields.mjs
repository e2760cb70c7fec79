// fields.mjs — the text of a tool as the peer engines index it, and the
// identifier-aware preprocessing every peer gets.
//
// toolsift indexes six fields (SPEC S2/S5, weights in `toolsift info`):
// name 3 (name, id and title), aliases 2, tags 2, description 1, params 1.5
// (schema property names), param_docs 1 (schema descriptions). The peers get
// the same six fields as plain strings with the same boosts. Where toolsift's
// trust policy withholds a field of a tool (an un-vouched remote tool's
// description), the peers do not see it either: `mask` comes from toolsift's
// own search documents.

export const FIELDS = ['name', 'aliases', 'tags', 'description', 'params', 'param_docs'];
export const BOOSTS = { name: 3, aliases: 2, tags: 2, description: 1, params: 1.5, param_docs: 1 };

/**
 * Split identifiers into words: createPullRequest → create Pull Request,
 * HTTPServer → HTTP Server, snake_case / kebab-case / dotted.names → words;
 * every other non-letter, non-digit becomes a space.
 */
export function splitIdent(s) {
  return String(s ?? '')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// English function words (same role as toolsift's built-in list; written here).
export const STOPWORDS = new Set(`a an the and or but if then else of to in on at by for from with without into onto
about as is are was were be been being am do does did doing have has had having it its it's this that these those
i me my we our you your he she they them their there here what which who whom whose when where why how can could
should would will shall may might must please not no so too very just also than such any some all each both
only own same other more most few nor up down out over under again further once`.split(/\s+/));

/** Lowercased word tokens of a string after identifier splitting. */
export function words(s) {
  const t = splitIdent(s).toLowerCase();
  return t ? t.split(' ') : [];
}

function schemaText(schema, names, docs, depth = 0, budget = { nodes: 256 }) {
  if (!schema || typeof schema !== 'object' || depth > 8 || budget.nodes-- <= 0) return;
  if (typeof schema.description === 'string' && depth > 0) docs.push(schema.description);
  if (Array.isArray(schema.enum)) docs.push(schema.enum.filter((x) => typeof x === 'string').join(' '));
  const props = schema.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    for (const [k, v] of Object.entries(props)) {
      names.push(k);
      schemaText(v, names, docs, depth + 1, budget);
    }
  }
  if (schema.items) schemaText(schema.items, names, docs, depth + 1, budget);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(schema[key])) for (const s of schema[key]) schemaText(s, names, docs, depth + 1, budget);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    schemaText(schema.additionalProperties, names, docs, depth + 1, budget);
  for (const key of ['$defs', 'definitions'])
    if (schema[key] && typeof schema[key] === 'object')
      for (const s of Object.values(schema[key])) schemaText(s, names, docs, depth + 1, budget);
}

const list = (x) => (Array.isArray(x) ? x.filter((s) => typeof s === 'string') : []);

/** The tools array of any catalog shape toolsift accepts (object, array, MCP result). */
export function toolsOf(catalog) {
  return Array.isArray(catalog) ? catalog : catalog.tools ?? [];
}

/**
 * One plain document per tool: { id, name, aliases, tags, description,
 * params, param_docs } (strings). `annotations` are the catalog's host
 * annotations; `mask` (optional) maps id → set of fields toolsift left empty.
 */
export function toolDoc(tool, annotations, mask) {
  const f = tool.type === 'function' && tool.function ? tool.function : tool;
  const name = f.name ?? tool.name ?? '';
  const id = tool.id ?? name;
  const title = tool.title ?? tool.annotations?.title ?? f.title ?? '';
  const ann = annotations?.[id] ?? {};
  const schema = f.inputSchema ?? f.input_schema ?? f.parameters ?? tool.inputSchema ?? tool.input_schema ?? tool.parameters;
  const names = [];
  const docs = [];
  schemaText(schema, names, docs);
  const doc = {
    id: String(id),
    name: [id !== name ? id : '', name, title].filter(Boolean).join(' '),
    aliases: [...list(tool.aliases), ...list(ann.aliases)].join(' '),
    tags: [...list(tool.tags), ...list(ann.tags)].join(' '),
    description: typeof f.description === 'string' ? f.description : '',
    params: names.join(' '),
    param_docs: docs.join(' '),
  };
  const hidden = mask?.get(doc.id);
  if (hidden) for (const k of hidden) doc[k] = '';
  return doc;
}

/** Documents of a catalog (parsed), with identifier splitting applied to every field. */
export function catalogDocs(catalog, mask) {
  const annotations = Array.isArray(catalog) ? undefined : catalog.annotations;
  return toolsOf(catalog).map((t) => {
    const d = toolDoc(t, annotations, mask);
    for (const k of FIELDS) d[k] = splitIdent(d[k]);
    return d;
  });
}

/**
 * Fields toolsift's trust policy left empty while the raw tool has text:
 * id → [field…], from toolsift's own search documents (Index#documents()).
 */
export function trustMask(catalog, documents) {
  const annotations = Array.isArray(catalog) ? undefined : catalog.annotations;
  const raw = new Map(toolsOf(catalog).map((t) => {
    const d = toolDoc(t, annotations);
    return [d.id, d];
  }));
  const mask = new Map();
  for (const d of documents.tools) {
    const r = raw.get(d.id);
    if (!r) continue;
    const hidden = FIELDS.filter((k) => k !== 'name' && r[k] && !(d.fields[k] ?? []).length);
    if (hidden.length) mask.set(d.id, hidden);
  }
  return mask;
}

/** Does any tool carry trust markers (so a mask is needed)? */
export function needsMask(catalog) {
  return toolsOf(catalog).some((t) => 'origin' in t || 'tainted' in t || 'trusted' in t);
}
