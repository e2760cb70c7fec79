// catalog.mjs — the repository's bundled catalog (corpus/catalog.json: 418
// tools of 112 products) as plain tool definitions, for the examples: the
// 399 that are neither third-party un-vouched nor tainted.
import { readFileSync } from 'node:fs';

function corpus() {
  return JSON.parse(readFileSync(new URL('../../corpus/catalog.json', import.meta.url), 'utf8'));
}

export function corpusTools() {
  const { tools } = corpus();
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

/**
 * The catalog's annotations (extra tags and aliases per tool id, e.g.
 * slack__send_message: "notify the team", "ping a channel") for the tools
 * corpusTools() keeps: pass them as the adapters' `annotations`, so the
 * examples search the same documents as `toolsift search --catalog
 * corpus/catalog.json`.
 */
export function corpusAnnotations() {
  const kept = new Set(corpusTools().map((t) => t.id));
  return Object.fromEntries(Object.entries(corpus().annotations ?? {}).filter(([id]) => kept.has(id)));
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
