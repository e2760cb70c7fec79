# config.capnp — run the edge worker locally with workerd:
#   node build.mjs            # dist/: index.tsi, toolsift.js, binding/, toolsift-serving.wasm
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
    (name = "binding/bytes.js", esModule = embed "dist/binding/bytes.js"),
    (name = "binding/error.js", esModule = embed "dist/binding/error.js"),
    (name = "binding/handle.js", esModule = embed "dist/binding/handle.js"),
    (name = "binding/index.js", esModule = embed "dist/binding/index.js"),
    (name = "binding/learner.js", esModule = embed "dist/binding/learner.js"),
    (name = "binding/load.js", esModule = embed "dist/binding/load.js"),
    (name = "binding/module.js", esModule = embed "dist/binding/module.js"),
    (name = "binding/session.js", esModule = embed "dist/binding/session.js"),
    (name = "binding/static-model.js", esModule = embed "dist/binding/static-model.js"),
    (name = "toolsift-serving.wasm", wasm = embed "dist/toolsift-serving.wasm"),
    (name = "index.tsi", data = embed "dist/index.tsi"),
  ],
  compatibilityDate = "2025-09-01",
);
