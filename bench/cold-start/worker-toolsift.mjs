// worker-toolsift.mjs — toolsift's cold-start Worker (bench/cold-start.mjs
// runs it under workerd; harness.mjs says what is timed): the serving module
// imported compiled, as examples/edge-worker does; a load is Toolsift#indexFromSnapshot
// over the bytes (or #indexFromSnapshotStream over the response body, what
// examples/edge-worker/worker-storage.mjs uses) + the first Index#search.
import wasm from '../../build/wasm/toolsift-serving.wasm'; // the module bench/cold-start.mjs stages under this name
import { load } from '../../js/toolsift.js';
import { coldStartWorker } from './harness.mjs';

const top = (index, query, k) => ({ state: index, ids: index.search(query, { limit: k }).hits.map((h) => h.id) });

export default coldStartWorker({
  init: () => load(wasm),
  open: (ts, bytes, query, k) => top(ts.indexFromSnapshot(bytes), query, k),
  openStream: async (ts, body, length, query, k) => top(await ts.indexFromSnapshotStream(body, length), query, k),
  free: (ts, index) => index.free(),
  memory: (ts) => ts.memory.buffer.byteLength,
});
