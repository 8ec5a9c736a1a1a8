// The playground's engine (build-playground/site/planlint-engine.{js,wasm}) under node, as the
// page's worker drives it (playground/src/worker.js): one JSON request in, one JSON answer out.
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join, resolve} from 'node:path';

import {engine_request} from '../../playground/src/request.mjs';

export async function load_engine(site) {
  const require = createRequire(import.meta.url);
  const create = require(resolve(site, 'planlint-engine.js'));
  // The bytes are handed over: emscripten 3.1.6's loader would `fetch` a file path under node.
  const engine = await create({wasmBinary: readFileSync(join(site, 'planlint-engine.wasm')), print() {}, printErr() {}});
  return (body) => engine_request(engine, body);
}
