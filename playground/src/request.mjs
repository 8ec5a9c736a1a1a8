// The engine's one entry point (src/wasm/playground.cpp): a JSON request in the module's memory,
// a JSON answer out. The request is copied to the heap, not the stack: a plan may be megabytes.
// The page's worker and the node tests (tests/playground/engine.mjs) both call it.
export function engine_request(engine, body) {
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
