// tests/playground: the playground's tests (docs/playground.md), run by
// `scripts/build-playground --test` and by the ctest test `playground`, which skips them with a
// "skipped:" line when build-playground/site has not been built.
//
//   node tests/playground/run.mjs --site build-playground/site --native build/planlint \
//        --modules .cache/playground-npm/node_modules
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {gzipSync} from 'node:zlib';

import {browser_test, markup_test} from './browser.mjs';
import {same_output} from './same_output.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const {values} = parseArgs({options: {site: {type: 'string'}, native: {type: 'string'}, modules: {type: 'string'},
                                      chromium: {type: 'string', default: '/usr/bin/chromium'}}});
const site = resolve(values.site);
const log = (line) => console.log(`  ${line}`);
if (!existsSync(resolve(site, 'index.html'))) {
  console.log(`skipped: the playground is not built (${site}): scripts/build-playground builds it`);
  process.exit(77);
}

let failed = false;
// What a static host sends: every file of the site compressed, under 2 MB.
const compressed = readdirSync(site).reduce((sum, name) => sum + gzipSync(readFileSync(join(site, name)), {level: 9}).length, 0);
console.log(`the site is ${(compressed / 1e6).toFixed(2)} MB gzip-compressed`);
if (compressed >= 2e6) {
  console.log('  FAIL the site is over 2 MB compressed');
  failed = true;
}

console.log('the engine\'s `planlint check` output is the native binary\'s');
const same = await same_output({root, site, native: resolve(values.native)});
for (const failure of same.failures) console.log(`  FAIL ${failure}`);
log(`${same.files} plans (examples and rule cases), ${same.findings} findings: ` +
    `${same.files - new Set(same.failures.map((f) => f.split(':')[0])).size} identical`);
failed ||= same.failures.length > 0;

for (const [title, test] of [['the page in chromium', browser_test], ['markup in a plan stays text', markup_test]]) {
  console.log(title);
  try {
    const result = await test({root, site, modules: resolve(values.modules), chromium: values.chromium, log});
    if (result.skipped) console.log(`skipped: ${title}: ${result.skipped}`);
  } catch (error) {
    failed = true;
    console.log(`  FAIL ${error.stack || error}`);
  }
}
process.exit(failed ? 1 : 0);
