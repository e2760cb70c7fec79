# config-storage.capnp — the storage-backed edge worker (worker-storage.mjs)
# under workerd, with a local HTTP server standing in for storage:
#   node build.mjs                      # dist/: toolsift.js, binding/, toolsift-serving.wasm
#   (serve DIR with <tenant>.tsi files on 127.0.0.1:8788, e.g. python3 -m http.server 8788)
#   npx workerd serve config-storage.capnp
#   curl 'http://127.0.0.1:8787/search_tools?tenant=default&query=open+a+pull+request'
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "edge", worker = .edgeWorker),
    (name = "storage", external = (address = "127.0.0.1:8788", http = ())),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "edge") ],
);

const edgeWorker :Workerd.Worker = (
  modules = [
    (name = "worker-storage.mjs", esModule = embed "worker-storage.mjs"),
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
  ],
  bindings = [ (name = "STORAGE", service = "storage") ],
  compatibilityDate = "2025-09-01",
);
