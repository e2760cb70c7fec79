// model.js — the gateway's model (config search.model): a static-embedding
// model read by name ("glove") or folder through the one rule every JS host
// follows (js/model-dir.js) and loaded by toolsift, once per gateway. Every
// generation's index is embedded with it (catalog.js) and every live session
// embeds its queries with it (session.js); replays need it not.

import { readModelDir } from '../model-dir.js';
import { GatewayConfigError } from './errors.js';

/** The StaticModel of config.model ({ dir }: "glove" or an absolute folder), or null without one. */
export function loadGatewayModel(toolsift, model) {
  if (!model) return null;
  let files;
  try {
    files = readModelDir(model.dir);
  } catch (e) {
    throw new GatewayConfigError(`search.model: ${e.message}`);
  }
  try {
    return toolsift.loadStaticModel(files.bytes.safetensors, files.bytes.tokenizer, files.bytes.config,
      { sentenceTransformers: files.layout === 'sentence-transformers' });
  } catch (e) {
    throw new GatewayConfigError(`search.model: ${model.dir}: ${e.message}`);
  }
}
