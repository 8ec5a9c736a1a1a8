// The playground's Web Worker: one planlint engine (the library compiled to WebAssembly,
// src/wasm/playground.cpp) answering the page, one request at a time. The page terminates it
// and starts another when a request outlives the next keystroke (engine.js), so a slow lint
// never holds the editor.
//
// Messages in:  {init: WebAssembly.Module} once, then {id, requests: [{op, ...}]}
// Messages out: {ready: true} | {failed: message} | {id, answers: [...], ms} | {id, failed: message}
/* global importScripts, createPlanlint */
importScripts('planlint-engine.js');

let engine = null;

/// The engine's one entry point: a JSON request in the module's memory, a JSON answer out.
/// The request is copied to the heap, not the stack: a plan may be megabytes.
function request(body) {
  const text = JSON.stringify(body);
  const size = engine.lengthBytesUTF8(text) + 1;
  const pointer = engine._malloc(size);
  try {
    engine.stringToUTF8(text, pointer, size);
    return JSON.parse(engine.UTF8ToString(engine._planlint_request(pointer)));
  } finally {
    engine._free(pointer);
  }
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.init) {
    try {
      engine = await createPlanlint({
        instantiateWasm(imports, receive) {
          WebAssembly.instantiate(message.init, imports).then((instance) => receive(instance, message.init));
          return {};
        },
        print() {},
        printErr() {},
      });
      self.postMessage({ready: true});
    } catch (error) {
      self.postMessage({failed: String(error)});
    }
    return;
  }
  const start = performance.now();
  try {
    const answers = message.requests.map((body) => request(body));
    self.postMessage({id: message.id, answers, ms: performance.now() - start});
  } catch (error) {
    // The engine aborted (out of memory, a trap): this module is done; the page starts another.
    self.postMessage({id: message.id, failed: String(error)});
  }
};
