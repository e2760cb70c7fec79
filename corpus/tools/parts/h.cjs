const s = (description, extra = {}) => ({ type: 'string', description, ...extra });
const i = (description, extra = {}) => ({ type: 'integer', description, ...extra });
const n = (description, extra = {}) => ({ type: 'number', description, ...extra });
const b = (description, def) => (def === undefined ? { type: 'boolean', description } : { type: 'boolean', description, default: def });
const e = (values, description, def) => ({ type: 'string', enum: values, ...(description ? { description } : {}), ...(def !== undefined ? { default: def } : {}) });
const a = (items, description, extra = {}) => ({ type: 'array', items, ...(description ? { description } : {}), ...extra });
const o = (properties, required, description, extra = {}) => {
  const r = { type: 'object' };
  if (description) r.description = description;
  r.properties = properties;
  if (required && required.length) r.required = required;
  return Object.assign(r, extra);
};
const schema = (props, required) => o(props || {}, required);
// native / MCP-shaped tool with an id
function T(ns, name, description, props, required, extra = {}) {
  const t = { id: `${ns}__${name}`, name };
  if (extra.title) t.title = extra.title;
  t.description = Array.isArray(description) ? description.join('\n\n') : description;
  t.inputSchema = extra.rawSchema !== undefined ? extra.rawSchema : schema(props, required);
  for (const k of ['tags', 'aliases', 'origin', 'trusted', 'tainted', 'annotations']) if (extra[k] !== undefined) t[k] = extra[k];
  return t;
}
// OpenAI function tool: namespace lives in the name
function OAI(ns, name, description, props, required, extra = {}) {
  const f = { name: `${ns}__${name}`, description: Array.isArray(description) ? description.join('\n\n') : description, parameters: schema(props, required) };
  if (extra.strict) { f.strict = true; f.parameters.additionalProperties = false; }
  return { type: 'function', function: f };
}
// Anthropic tool: name, description, input_schema
function ANT(ns, name, description, props, required) {
  return { name: `${ns}__${name}`, description: Array.isArray(description) ? description.join('\n\n') : description, input_schema: schema(props, required) };
}
module.exports = { s, i, n, b, e, a, o, schema, T, OAI, ANT };
