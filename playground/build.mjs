// Writes the playground's static site (docs/playground.md): the page, its bundle (CodeMirror
// and the page's script, by esbuild), the worker and the engine (the WebAssembly build), and the
// examples the template picker offers, compiled into the bundle.
//
//   node playground/build.mjs --engine build-wasm/src/wasm --modules .cache/playground-npm/node_modules \
//        --out build-playground/site
import {copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const {values} = parseArgs({options: {engine: {type: 'string'}, modules: {type: 'string'}, out: {type: 'string'}}});
const out = resolve(values.out);
// esbuild from the pinned packages (package-lock.json), installed outside the source tree.
const {build} = createRequire(join(resolve(values.modules), 'resolve.js'))('esbuild');
rmSync(out, {recursive: true, force: true});
mkdirSync(out, {recursive: true});

// The examples, by file name: examples/*.toml as the repository has them.
const examples = Object.fromEntries(readdirSync(join(root, 'examples')).filter((name) => name.endsWith('.toml')).sort()
  .map((name) => [name, readFileSync(join(root, 'examples', name), 'utf8')]));
const examples_module = {
  name: 'examples',
  setup(on) {
    on.onResolve({filter: /examples\.json$/}, () => ({path: 'examples.json', namespace: 'examples'}));
    on.onLoad({filter: /.*/, namespace: 'examples'}, () => ({contents: JSON.stringify(examples), loader: 'json'}));
  },
};

const common = {bundle: true, minify: true, format: 'iife', target: ['chrome103', 'firefox113', 'safari16.4'],
                nodePaths: [resolve(values.modules)], logLevel: 'warning', legalComments: 'eof'};
await build({...common, entryPoints: [join(here, 'src/main.js')], outfile: join(out, 'playground.js'),
             plugins: [examples_module]});
await build({...common, entryPoints: [join(here, 'src/worker.js')], outfile: join(out, 'worker.js')});
for (const name of ['index.html', 'style.css']) copyFileSync(join(here, name), join(out, name));
for (const name of ['planlint-engine.js', 'planlint-engine.wasm'])
  copyFileSync(join(resolve(values.engine), name), join(out, name));
