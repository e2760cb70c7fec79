# config.capnp — run the edge worker locally with workerd:
#   node build.mjs            # dist/: index.tsi, toolsift.js, toolsift.wasm
#   npx workerd serve config.capnp
#   curl 'http://127.0.0.1:8787/search_tools?query=open+a+pull+request&limit=3'
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "edge", worker = .edgeWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "edge") ],
);

const edgeWorker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "toolsift.js", esModule = embed "dist/toolsift.js"),
    (name = "toolsift.wasm", wasm = embed "dist/toolsift.wasm"),
    (name = "index.tsi", data = embed "dist/index.tsi"),
  ],
  compatibilityDate = "2025-09-01",
);
