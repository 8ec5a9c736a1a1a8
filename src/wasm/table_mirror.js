// Appended to the engine's JavaScript (--post-js, src/wasm/CMakeLists.txt). Emscripten 3.1.6
// looks a function up in the WebAssembly table (Table.prototype.get) on every indirect call
// made from JavaScript, and its C++ exceptions make every call that may throw one: a mirror of
// the table, as later emscripten releases keep, spares the lookups. The engine adds no
// function to the table at run time, so the mirror never goes stale.
var wasmTableMirror = [];
// eslint-disable-next-line no-global-assign
getWasmTableEntry = function (index) {
  var func = wasmTableMirror[index];
  if (!func) wasmTableMirror[index] = func = wasmTable.get(index);
  return func;
};
