// adapter.mjs — the component's `engine` interface (as jco transpiles it)
// seen through the few methods of the JS binding that the runtime-matrix
// scenario (tests/runtimes/scenario.mjs) calls, so the very same scenario
// runs through the component. Nothing is computed here: every string is the
// component's return value, every failure its `result` error (jco throws a
// ComponentError whose `payload` is the WIT `error` record).

/** {"limit":N,"explain":B} (text or object) as the WIT search-options record. */
export function searchOptions(options) {
  const o = typeof options === 'string' ? JSON.parse(options) : options ?? {};
  for (const key of Object.keys(o)) {
    if (key !== 'limit' && key !== 'explain') throw new Error(`search option ${key} has no place in the WIT record`);
  }
  return { limit: o.limit, explain: o.explain === true };
}

const dispose = (resource) => resource[Symbol.dispose]();

class IndexAdapter {
  constructor(resource) {
    this.resource = resource;
  }
  infoJSON() {
    return this.resource.info();
  }
  searchJSON(query, options) {
    return this.resource.search(query, searchOptions(options));
  }
  snapshot() {
    return this.resource.snapshot();
  }
  free() {
    dispose(this.resource);
  }
}

class SessionAdapter {
  constructor(resource) {
    this.resource = resource;
  }
  callJSON(turn, call, tool, args) {
    return this.resource.call(turn, call, tool, args);
  }
  journalJSONL() {
    return this.resource.journal();
  }
  finishJSON() {
    return this.resource.finish();
  }
  applyJournal() {
    this.resource.applyJournal();
  }
  menuJSON(format) {
    return this.resource.menu(format);
  }
  free() {
    dispose(this.resource);
  }
}

/** A toolsift-like object over the transpiled `engine` interface. */
export function adapt(engine) {
  return {
    version: engine.version(),
    createIndex(catalog) {
      return new IndexAdapter(new engine.Index({ tag: 'catalog', val: { json: catalog } }));
    },
    indexFromSnapshot(bytes) {
      return new IndexAdapter(new engine.Index({ tag: 'snapshot', val: bytes }));
    },
    createSession(config, { journal, divergence = 'fail' } = {}) {
      return new SessionAdapter(new engine.Session(config, journal ?? undefined, divergence));
    },
  };
}

/** A component error as the CLI prints it: "toolsift: <code>: <message>". */
export function errorLine(e, prefix = '') {
  if (!e?.payload || typeof e.payload.code !== 'string') throw e; // not a result error
  return `toolsift: ${e.payload.code}: ${prefix}${e.payload.message}`;
}
