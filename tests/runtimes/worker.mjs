// worker.mjs — the scenario as a Cloudflare Worker (run under workerd by
// run.mjs). The serving module (toolsift-serving.wasm: no evaluation or
// learning, what an edge deployment ships) is imported the way Workers
// import it, as a compiled WebAssembly.Module, and handed to load(); the
// inputs are text modules.
// GET / answers the scenario document.

import wasm from './toolsift-serving.wasm';
import { load } from './toolsift.js';
import { runScenario } from './scenario.mjs';
import catalog from './inputs/catalog.json';
import sessionConfig from './inputs/session.json';
import calls from './inputs/calls.jsonl';

let toolsift = null;

export default {
  async fetch() {
    try {
      toolsift ??= await load(wasm);
      if (!toolsift.serving) throw new Error('expected the serving module (toolsift-serving.wasm)');
      const doc = await runScenario(toolsift, { catalog, sessionConfig, calls });
      return new Response(doc, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    } catch (e) {
      return new Response(`worker: ${e?.stack ?? e}\n`, { status: 500 });
    }
  },
};
