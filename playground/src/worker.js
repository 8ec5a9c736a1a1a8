// The playground's Web Worker: one planlint engine (the library compiled to WebAssembly,
// src/wasm/playground.cpp) answering the page, one request at a time. The page terminates it
// and starts another when a request outlives the next keystroke (engine.js), so a slow lint
// never holds the editor.
//
// Messages in:  {init: WebAssembly.Module} once, then {id, requests: [{op, ...}]}
// Messages out: {ready: true} | {failed: message} | {id, answers: [...], ms} | {id, failed: message}
/* global importScripts, createPlanlint */
import {engine_request} from './request.mjs';

importScripts('planlint-engine.js');

let engine = null;

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
    const answers = message.requests.map((body) => engine_request(engine, body));
    self.postMessage({id: message.id, answers, ms: performance.now() - start});
  } catch (error) {
    // The engine aborted (out of memory, a trap): this module is done; the page starts another.
    self.postMessage({id: message.id, failed: String(error)});
  }
};
