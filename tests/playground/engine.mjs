// The playground's engine (build-playground/site/planlint-engine.{js,wasm}) under node, as the
// page's worker drives it (playground/src/worker.js): one JSON request in, one JSON answer out.
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join, resolve} from 'node:path';

export async function load_engine(site) {
  const require = createRequire(import.meta.url);
  const create = require(resolve(site, 'planlint-engine.js'));
  // The bytes are handed over: emscripten 3.1.6's loader would `fetch` a file path under node.
  const engine = await create({wasmBinary: readFileSync(join(site, 'planlint-engine.wasm')), print() {}, printErr() {}});
  return (body) => {
    const text = JSON.stringify(body);
    const size = engine.lengthBytesUTF8(text) + 1;
    const pointer = engine._malloc(size);
    try {
      engine.stringToUTF8(text, pointer, size);
      return JSON.parse(engine.UTF8ToString(engine._planlint_request(pointer)));
    } finally {
      engine._free(pointer);
    }
  };
}
