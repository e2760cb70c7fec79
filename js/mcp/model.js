// model.js — the gateway's static-embedding model (config search.model):
// its two files read from the configured directory and loaded by toolsift,
// once per gateway. Every generation's index is embedded with it
// (catalog.js) and every live session embeds its queries with it
// (session.js); replays need it not.

import { readFileSync } from 'node:fs';
import path from 'node:path';

import { GatewayConfigError } from './errors.js';

/** The StaticModel of config.model ({ dir }), or null without one. */
export function loadGatewayModel(toolsift, model) {
  if (!model) return null;
  const read = (name, encoding) => {
    const file = path.join(model.dir, name);
    try {
      return readFileSync(file, encoding);
    } catch (e) {
      throw new GatewayConfigError(`search.model: cannot read ${file}: ${e.message}`);
    }
  };
  const st = read('model.safetensors');
  const tok = read('tokenizer.json', 'utf8');
  try {
    return toolsift.loadStaticModel(st, tok);
  } catch (e) {
    throw new GatewayConfigError(`search.model: ${model.dir}: ${e.message}`);
  }
}
