// toolsift.js — the ESM binding over the toolsift WebAssembly module: the
// public entry. Its names are those of the files under js/binding/, one per
// class:
//
//   error.js         ToolsiftError, the core's status numbers, errorFrom
//   bytes.js         text, bytes, options JSON and vectors as the ABI takes them
//   handle.js        Handle: the one base of every object owning a module handle
//                    (FinalizationRegistry backstop, "has been freed", free())
//   load.js          load(): find, compile and instantiate the module
//   module.js        Toolsift: one instance; _call runs every ABI call
//   index.js         Index          session.js   Session (and host rankers)
//   static-model.js  StaticModel    learner.js   Learner
//
// Owns: loading the module, moving UTF-8 buffers across the ABI of
// wasm/abi.c, wrapping handles (free() plus a FinalizationRegistry backstop)
// and turning error JSON into ToolsiftError. No ranking or analysis lives
// here: everything the core can own, the core owns, so every host gets the
// same bytes. Works unchanged in Node, Deno, Bun, browsers and Cloudflare
// workerd (which must be handed an already compiled WebAssembly.Module).

export { ToolsiftError } from './binding/error.js';
export { load } from './binding/load.js';
export { vectorBase64 } from './binding/bytes.js';
export { Toolsift } from './binding/module.js';
export { Index } from './binding/index.js';
export { Session } from './binding/session.js';
export { StaticModel } from './binding/static-model.js';
export { Learner } from './binding/learner.js';
