// The page in a real browser (playwright-core driving Debian's chromium): it opens on the
// default example with its findings, a typed plan's sparse peak is marked at its line and
// column, its quick fix clears it, the report opens, a permalink carries the plan, markup in a
// plan (typed or in a link) stays text, and a keystroke's findings come back in time.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';

import {serve} from './serve.mjs';

/// Waits until the page has linted a version after `after` and returns the version.
async function linted(page, after = 0) {
  await page.waitForFunction((v) => Number(document.body.dataset.lintedVersion || 0) > v, after, {timeout: 20000});
  return Number(await page.evaluate(() => document.body.dataset.lintedVersion));
}

/// Replaces the editor's text as a paste does, then types `typed` at its end, key by key.
async function type_plan(page, text, typed = '\n') {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Control+End');
  const before = Number(await page.evaluate(() => document.body.dataset.lintedVersion || 0));
  await page.keyboard.type(typed);
  await page.waitForFunction((t) => window.planlint_view.state.doc.toString() === t, text + typed);
  // The lint of the last keystroke: its text is the editor's.
  await page.waitForFunction((v) => Number(document.body.dataset.lintedVersion || 0) > v, before);
  await page.waitForFunction(() => window.planlint_linted_text === window.planlint_view.state.doc.toString());
}

async function findings(page) {
  return page.$$eval('#findings li', (items) => items.map((li) => ({
    rule: li.dataset.rule, line: Number(li.dataset.line), column: Number(li.dataset.column), text: li.textContent})));
}

/// The line and column (1-based) where each of CodeMirror's lint marks of `severity` starts.
async function marks(page, severity) {
  return page.$$eval(`.cm-lintRange-${severity}`, (spans) => spans.map((span) => {
    const view = window.planlint_view;
    const at = view.posAtDOM(span, 0);
    const line = view.state.doc.lineAt(at);
    return {line: line.number, column: at - line.from + 1};
  }));
}

export async function browser_test({root, site, modules, chromium = '/usr/bin/chromium', log}) {
  let playwright;
  try {
    const {createRequire} = await import('node:module');
    playwright = createRequire(join(modules, 'resolve.js'))('playwright-core');
  } catch {
    return {skipped: `playwright-core is not installed in ${modules} (scripts/build-playground installs it)`};
  }
  try {
    readFileSync(chromium);
  } catch {
    return {skipped: `${chromium} is not installed (Debian's chromium package)`};
  }
  const server = await serve(site);
  const browser = await playwright.chromium.launch({executablePath: chromium, args: ['--no-sandbox']});
  const result = {};
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));

    // With no permalink: examples/cluster-plan.toml and its findings.
    await page.goto(server.url);
    await linted(page);
    const opening = await page.evaluate(() => window.planlint_view.state.doc.toString());
    assert.equal(opening, readFileSync(join(root, 'examples/cluster-plan.toml'), 'utf8').replace(/\r\n?/g, '\n'));
    log(`opens on examples/cluster-plan.toml with ${(await findings(page)).length} findings`);

    // Completion (Ctrl-Space): the language server's, here a key of [cluster] from the schema.
    await page.evaluate(() => {
      const view = window.planlint_view;
      const cluster = view.state.doc.toString().indexOf('\n[cluster]\n') + '\n[cluster]\n'.length;
      view.dispatch({changes: {from: cluster, insert: 'gpus_per\n'}, selection: {anchor: cluster + 'gpus_per'.length}});
      view.focus();
    });
    await page.waitForFunction(() => window.planlint_linted_text === window.planlint_view.state.doc.toString());
    await page.keyboard.press('Control+Space');
    await page.waitForSelector('.cm-tooltip-autocomplete li');
    const offered = await page.$$eval('.cm-tooltip-autocomplete li', (items) => items.map((li) => li.textContent));
    assert.ok(offered.some((label) => label.startsWith('gpus_per_node')), `completion offers gpus_per_node: ${offered}`);
    await page.keyboard.press('Escape');

    // A typed plan with a sparse peak: the finding and its mark at 27:8, as the rule case has it.
    const sparse = readFileSync(join(root, 'tests/rules/sparse-peak/fires.toml'), 'utf8');
    await type_plan(page, sparse, '# typed\n');
    const found = (await findings(page)).filter((f) => f.rule === 'sparse-peak');
    assert.deepEqual(found.map((f) => [f.line, f.column]), [[27, 8]], 'the sparse-peak finding at 27:8');
    assert.ok((await marks(page, 'error')).some((m) => m.line === 27 && m.column === 8), 'an error mark at 27:8');

    // Hover on the peak: the arithmetic as the language server gives it.
    const peak = await page.evaluate(() => {
      const view = window.planlint_view;
      const line = view.state.doc.line(27);
      const rect = view.coordsAtPos(line.from + 10);
      return {x: rect.left + 2, y: (rect.top + rect.bottom) / 2};
    });
    await page.mouse.move(peak.x, peak.y);
    const hover = await page.waitForSelector('.cm-tooltip pre.hover', {timeout: 10000});
    result.hover = (await hover.textContent()).split('\n')[0];
    log(`hover at 27:11: ${result.hover}`);

    // The rule's documentation: `planlint explain sparse-peak`.
    await page.click('#findings li[data-rule="sparse-peak"] button.explain');
    await page.waitForFunction(() => !document.getElementById('out-explain').textContent.startsWith('Choose'));
    assert.match(await page.textContent('#out-explain'), /sparse-peak/);
    await page.click('[role=tab][data-pane=findings]');

    // Its fix, applied from the findings list: the finding clears and the dense peak is written.
    const before = Number(await page.evaluate(() => document.body.dataset.lintedVersion));
    await page.click('#findings li[data-rule="sparse-peak"] button.preferred');
    await linted(page, before);
    assert.deepEqual((await findings(page)).filter((f) => f.rule === 'sparse-peak'), []);
    const fixed_line = await page.evaluate(() => window.planlint_view.state.doc.line(27).text);
    assert.equal(fixed_line, 'peak = "989 TFLOPS"');
    log(`the fix wrote ${fixed_line} and the finding cleared`);

    // The report: `planlint report` of the editor's plan.
    await page.click('#run-report');
    await page.waitForFunction(() => document.getElementById('out-report').textContent.length > 0);
    const report = await page.textContent('#out-report');
    assert.match(report, /TFLOPS|GPU/, 'the report shows the estimates');
    assert.ok(['0', '1'].includes(await page.getAttribute('#out-report', 'data-status')), 'a report written');
    log(`report: ${report.split('\n').length} lines`);

    // The other commands, each the command line's output on the editor's plan.
    for (const [button, pane, expect] of [['#run-solve', 'solve', /layouts|needs cluster\.price/], ['#run-gpus', 'gpus', /h100-sxm/],
                                          ['#run-check', 'check', /\bfile\b/],
                                          ['#run-diff', 'diff', /plan\.toml/]]) {
      await page.click(button);
      await page.waitForFunction((id) => document.getElementById(id).textContent.length > 0, `out-${pane}`);
      assert.match(await page.textContent(`#out-${pane}`), expect, `${pane} shows its output`);
    }
    log('solve, gpus, check and diff show the command line\'s output');

    // The permalink: the plan, compressed, in the fragment, opened in a new page.
    const text = await page.evaluate(() => window.planlint_view.state.doc.toString());
    await page.waitForFunction(() => location.hash.startsWith('#plan='));
    await page.waitForFunction((t) => document.getElementById('permalink').dataset.ready === 'true' &&
                                      window.planlint_view.state.doc.toString() === t, text);
    await page.waitForTimeout(400);  // the fragment follows the text after 300 ms
    const link = await page.evaluate(() => location.href);
    const second = await browser.newPage();
    await second.goto(link);
    await linted(second);
    assert.equal(await second.evaluate(() => window.planlint_view.state.doc.toString()), text);
    log(`a permalink of ${link.length} characters carries the ${text.length}-character plan`);
    await second.close();

    // A plan that takes long to lint does not hold the editor: the next keystroke's text is
    // linted within the cancel delay (250 ms) and a fresh worker's start, the slow lint cancelled.
    const huge = big_plan(sparse);
    const restarts = await page.evaluate(() => window.planlint_engine.restarts);
    const recovered_ms = await page.evaluate(async ({huge, small}) => {
      const view = window.planlint_view;
      view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: huge}});
      await new Promise((resolve) => setTimeout(resolve, 50));  // its lint is running
      const start = performance.now();
      view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: small}});
      while (window.planlint_linted_text !== small) await new Promise((resolve) => setTimeout(resolve, 5));
      return performance.now() - start;
    }, {huge, small: sparse});
    assert.ok(recovered_ms < 2000, `the next text's findings came ${recovered_ms} ms after it`);
    assert.equal(await page.evaluate(() => window.planlint_engine.restarts), restarts + 1, 'the slow lint was cancelled');
    assert.deepEqual((await findings(page)).filter((f) => f.rule === 'sparse-peak').map((f) => f.line), [27]);
    result.recovered_ms = recovered_ms;
    log(`a ${(huge.length / 1048576).toFixed(1)} MiB plan's lint cancelled by the next text, ` +
        `whose findings came ${recovered_ms.toFixed(0)} ms after it`);

    // A template: `planlint new training`, linted.
    const before_template = Number(await page.evaluate(() => document.body.dataset.lintedVersion));
    await page.selectOption('#template', 'new:training');
    await linted(page, before_template);
    assert.match(await page.evaluate(() => window.planlint_view.state.doc.toString()), /^# A training capacity plan/);
    log(`"planlint new training" opens with ${(await findings(page)).length} findings`);

    // Keystroke latency: a character typed into each example to its findings on the page.
    result.latency = await latency(page, root);
    log(`keystroke to findings: median ${result.latency.median.toFixed(1)} ms, ` +
        `slowest example's median ${result.latency.worst.toFixed(1)} ms (${result.latency.worst_example})`);
    assert.ok(result.latency.worst < 50, 'a keystroke to its findings in under 50 ms for every example (median)');

    assert.deepEqual(errors, [], 'no error in the page');
  } finally {
    await browser.close();
    server.close();
  }
  return result;
}

/// A plan name with markup stays text: typed, in a permalink, in the findings and the report.
export async function markup_test({root, site, modules, chromium = '/usr/bin/chromium', log}) {
  const {createRequire} = await import('node:module');
  let playwright;
  try {
    playwright = createRequire(join(modules, 'resolve.js'))('playwright-core');
    readFileSync(chromium);
  } catch {
    return {skipped: 'playwright-core or chromium is not installed'};
  }
  const markup = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b id="bold">b</b>';
  // The example with the markup as its name (the report shows it) and as a value (a finding quotes it).
  const example = readFileSync(join(root, 'examples/cluster-plan.toml'), 'utf8');
  const plan = example.replace('name = "llama-7b-pretrain"', `name = '${markup}'`)
                      .replace(/^\[model\]$/m, `[model]\nvocab = '${markup}'`);
  assert.notEqual(plan, example);
  const server = await serve(site);
  const browser = await playwright.chromium.launch({executablePath: chromium, args: ['--no-sandbox']});
  const check = async (p) => p.evaluate(() => ({
    pwned: window.pwned, bold: document.getElementById('bold') !== null,
    images: document.querySelectorAll('img').length, scripts: document.querySelectorAll('script').length}));
  const clean = {pwned: undefined, bold: false, images: 0, scripts: 1};
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await linted(page);
    await type_plan(page, plan, '#\n');
    const shown = await page.textContent('#findings');
    assert.ok(shown.includes('<img src=x onerror="window.pwned=1"><script>'), 'the findings show the markup as text');
    await page.click('#run-report');
    await page.waitForFunction(() => document.getElementById('out-report').textContent.length > 0);
    assert.ok((await page.textContent('#out-report')).includes(markup), 'the report shows the name as text');
    await page.click('#run-report-html');
    await page.waitForFunction(() => document.getElementById('report-frame').srcdoc.length > 0);
    // In the report page too, the name is text: planlint escapes it, and the frame runs nothing.
    const frame = page.frameLocator('#report-frame');
    assert.ok((await frame.locator('body').textContent()).includes(markup), 'the report page shows the name as text');
    assert.equal(await frame.locator('#bold').count(), 0);
    await page.waitForTimeout(300);
    assert.deepEqual(await check(page), clean);

    // The same plan from a permalink.
    await page.waitForTimeout(400);
    const link = await page.evaluate(() => location.href);
    assert.match(link, /#plan=/);
    const second = await browser.newPage();
    await second.goto(link);
    await linted(second);
    assert.equal(await second.evaluate(() => window.planlint_view.state.doc.toString()), plan + '#\n');
    assert.deepEqual(await check(second), clean);
    // A fragment that is not a plan link: the default example, and why.
    await second.goto(`${server.url}#plan=<img src=x onerror=alert(1)>`);
    await second.reload();
    await linted(second);
    assert.match(await second.textContent('#notice'), /no readable plan/);
    assert.equal(await second.evaluate(() => window.planlint_view.state.doc.toString()), example);
    assert.deepEqual(await check(second), clean);
    log('markup in a plan\'s name and a value stays text: findings, report, report page, permalink');
  } finally {
    await browser.close();
    server.close();
  }
  return {};
}

/// `plan` with thousands of [[assumptions]] after it: a plan that takes seconds to lint.
function big_plan(plan) {
  const entries = [];
  for (let i = 0; i < 3000; i++)
    entries.push(`[[assumptions]]\nkey = "training.goodput"\nvalue = "90%"\nlow = "80%"\nhigh = "95%"\n` +
                 `source = "entry ${i} of a generated plan, to be slow ${"x".repeat(1000)}"\nupdated = "2025-01-01"\n`);
  return `${plan}\n${entries.join('\n')}`;
}

async function latency(page, root) {
  const { readdirSync } = await import('node:fs');
  const per_example = [];
  const all = [];
  for (const name of readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.toml')).sort()) {
    const text = readFileSync(join(root, 'examples', name), 'utf8');
    await type_plan(page, text, '#');
    const times = [];
    for (let i = 0; i < 15; i++) {
      const v = Number(await page.evaluate(() => document.body.dataset.lintedVersion));
      // From the key event to the findings on the page, timed in the page.
      const ms = await page.evaluate((after) => new Promise((resolve) => {
        const start = performance.now();
        const observer = new MutationObserver(() => {
          if (Number(document.body.dataset.lintedVersion) > after) {
            observer.disconnect();
            resolve(performance.now() - start);
          }
        });
        observer.observe(document.body, {attributes: true});
        window.planlint_view.dispatch({changes: {from: window.planlint_view.state.doc.length, insert: 'x'}});
      }), v);
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    per_example.push([name, times[Math.floor(times.length / 2)]]);
    all.push(...times);
  }
  all.sort((a, b) => a - b);
  const worst = per_example.reduce((a, b) => (b[1] > a[1] ? b : a));
  return {median: all[Math.floor(all.length / 2)], worst: worst[1], worst_example: worst[0], per_example};
}
