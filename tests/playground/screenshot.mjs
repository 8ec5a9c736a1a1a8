// docs/images/playground.png, README's picture of the playground: the built page in Debian's
// chromium, on examples/llama-70b-pretrain.toml with a sparse peak typed in, its finding's
// arithmetic on hover (`scripts/build-playground --screenshot`).
//
//   node tests/playground/screenshot.mjs --site build-playground/site \
//        --modules .cache/playground-npm/node_modules --out docs/images/playground.png
import {createRequire} from 'node:module';
import {join, resolve} from 'node:path';
import {parseArgs} from 'node:util';

import {serve} from './serve.mjs';

const {values} = parseArgs({options: {site: {type: 'string'}, modules: {type: 'string'}, out: {type: 'string'},
                                      chromium: {type: 'string', default: '/usr/bin/chromium'}}});
const playwright = createRequire(join(resolve(values.modules), 'resolve.js'))('playwright-core');
const server = await serve(resolve(values.site));
const browser = await playwright.chromium.launch({executablePath: values.chromium, args: ['--no-sandbox']});
try {
  const page = await browser.newPage({viewport: {width: 1400, height: 760}});
  await page.goto(server.url);
  await page.waitForFunction(() => Number(document.body.dataset.lintedVersion || 0) > 0);
  // A sparse peak written under the example's gpu line, its line in view, its arithmetic on hover.
  const line = await page.evaluate(() => {
    const view = window.planlint_view;
    const doc = view.state.doc;
    for (let n = 1; n <= doc.lines; n++) {
      if (!/^gpu\s*=/.test(doc.line(n).text)) continue;
      const at = doc.line(n).to;
      view.dispatch({changes: {from: at, insert: '\npeak = "1979 TFLOPS"'}});
      const below = view.state.doc.line(n + 1);
      view.dispatch({selection: {anchor: below.to}});
      view.scrollDOM.scrollTop = view.lineBlockAt(below.from).top - 260;
      return n + 1;
    }
    return 0;
  });
  if (!line) throw new Error('examples/cluster-plan.toml has no gpu line');
  await page.waitForFunction(() => window.planlint_linted_text === window.planlint_view.state.doc.toString());
  const where = await page.evaluate((n) => {
    const view = window.planlint_view;
    const rect = view.coordsAtPos(view.state.doc.line(n).from + 10);
    return {x: rect.left + 2, y: (rect.top + rect.bottom) / 2};
  }, line);
  await page.mouse.move(where.x, where.y);
  await page.waitForSelector('.cm-tooltip pre.hover');
  await page.screenshot({path: resolve(values.out)});
} finally {
  await browser.close();
  server.close();
}
