// catalog.mjs — the repository's bundled catalog (corpus/catalog.json: 418
// tools of 112 products) as plain tool definitions, for the examples.
import { readFileSync } from 'node:fs';

export function corpusTools() {
  const url = new URL('../../corpus/catalog.json', import.meta.url);
  const { tools } = JSON.parse(readFileSync(url, 'utf8'));
  // The catalog mixes MCP, OpenAI and Anthropic shapes; third-party
  // (remote, un-vouched) and tainted tools are left out of the examples.
  // id "github__create_issue" → product "github", name "create_issue"
  return tools
    .filter((t) => !t.tainted && !((t.origin === 'remote' || t.origin === 'a2a') && !t.trusted))
    .map((t) => {
      const fn = t.function ?? t;
      const id = t.id ?? fn.name;
      const [product, ...rest] = id.split('__');
      const schema = t.inputSchema ?? t.input_schema ?? fn.parameters ?? { type: 'object' };
      return { id, product, name: rest.join('__') || id, description: fn.description ?? '', schema };
    });
}

/** Placeholder arguments for a schema's required properties (the offline models use them). */
export function placeholderArgs(schema) {
  const args = {};
  for (const key of schema?.required ?? []) {
    const type = schema.properties?.[key]?.type;
    args[key] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : type === 'array' ? [] : type === 'object' ? {} : 'example';
  }
  return args;
}
