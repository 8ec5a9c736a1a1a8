// The engine's findings are the native binary's: `planlint check FILE` on every example and
// every rule case (tests/rules/<id>/*.toml), its text output, stderr and exit status, byte for
// byte, run by the WebAssembly build in node and by build/planlint.
import {spawnSync} from 'node:child_process';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';

import {load_engine} from './engine.mjs';

function plan_files(root) {
  const files = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.toml')).map((f) => `examples/${f}`);
  for (const rule of readdirSync(join(root, 'tests/rules')).sort())
    for (const f of readdirSync(join(root, 'tests/rules', rule)).sort())
      if (f.endsWith('.toml')) files.push(`tests/rules/${rule}/${f}`);
  return files;
}

function first_difference(a, b) {
  const x = a.split('\n'), y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if (x[i] !== y[i]) return `line ${i + 1}:\n  native: ${JSON.stringify(x[i])}\n  wasm:   ${JSON.stringify(y[i])}`;
  return 'none';
}

export async function same_output({root, site, native}) {
  const request = await load_engine(site);
  const files = plan_files(root);
  const failures = [];
  let findings = 0;
  for (const file of files) {
    const args = ['check', file];
    const expected = spawnSync(native, args, {cwd: root, encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}});
    const actual = request({op: 'run', args, files: {[file]: readFileSync(join(root, file), 'utf8')}});
    if (actual.error) {
      failures.push(`${file}: the engine answered ${actual.error}`);
      continue;
    }
    for (const [stream, a, b] of [['stdout', expected.stdout, actual.stdout], ['stderr', expected.stderr, actual.stderr]])
      if (a !== b) failures.push(`${file}: ${stream} differs at ${first_difference(a, b)}`);
    if (expected.status !== actual.status)
      failures.push(`${file}: exit status ${expected.status} natively, ${actual.status} in the engine`);
    findings += (expected.stdout.match(/^\S+:\d+:\d+: /gm) || []).length;
  }
  return {files: files.length, findings, failures};
}
