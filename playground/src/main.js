// The playground page (docs/playground.md): a CodeMirror 6 editor whose findings, hover,
// quick fixes and commands all come from planlint's engine in a Web Worker (engine.js). Every
// string from the plan or the engine reaches the page as text (textContent, CodeMirror's own
// text rendering); the one HTML document shown, planlint's report page, is planlint's output
// in a sandboxed frame that runs no script.
import {EditorState} from '@codemirror/state';
import {EditorView, keymap, lineNumbers, highlightActiveLine, hoverTooltip} from '@codemirror/view';
import {defaultKeymap, history, historyKeymap} from '@codemirror/commands';
import {StreamLanguage, syntaxHighlighting, defaultHighlightStyle, bracketMatching} from '@codemirror/language';
import {toml} from '@codemirror/legacy-modes/mode/toml';
import {setDiagnostics, lintGutter} from '@codemirror/lint';
import {autocompletion} from '@codemirror/autocomplete';

import {Engine} from './engine.js';
import {encode_plan, decode_plan} from './permalink.js';
import examples from './examples.json';

const default_example = 'cluster-plan.toml';
const engine = new Engine();
const $ = (id) => document.getElementById(id);

/// Creates an element whose content is `text`, as text.
function element(tag, text, class_name) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (class_name) node.className = class_name;
  return node;
}

// ---- positions: LSP's (0-based line, UTF-16 character) and CodeMirror's (UTF-16 offset) ----

function offset_of(doc, position) {
  const line = doc.line(Math.min(Math.max(position.line + 1, 1), doc.lines));
  return Math.min(line.from + position.character, line.to);
}

function position_of(doc, offset) {
  const line = doc.lineAt(offset);
  return {line: line.number - 1, character: offset - line.from};
}

const severities = {1: 'error', 2: 'warning', 3: 'info', 4: 'hint'};
const severity_words = {1: 'error', 2: 'warning', 3: 'note', 4: 'note'};

// ---- the current lint: its text, findings and quick fixes ----

let version = 0;
let current = {version: 0, text: '', diagnostics: [], actions: []};

function same_range(a, b) {
  return a.start.line === b.start.line && a.start.character === b.start.character &&
         a.end.line === b.end.line && a.end.character === b.end.character;
}

/// The quick fixes the engine offers for `diagnostic` (its fix first, then the suppression).
function fixes_of(diagnostic) {
  return current.actions.filter((action) => (action.diagnostics || []).some(
      (d) => d.code === diagnostic.code && d.message === diagnostic.message && same_range(d.range, diagnostic.range)));
}

/// Applies a WorkspaceEdit of the engine to the editor, if it is still about the text shown.
function apply_edit(view, edit, linted_version) {
  if (linted_version !== current.version || view.state.doc.toString() !== current.text) return false;
  const changes = [];
  for (const edits of Object.values(edit.changes || {}))
    for (const e of edits)
      changes.push({from: offset_of(view.state.doc, e.range.start), to: offset_of(view.state.doc, e.range.end),
                    insert: e.newText});
  view.dispatch({changes});
  return true;
}

function show_findings(view) {
  const doc = view.state.doc;
  const marks = current.diagnostics.map((d) => ({
    from: offset_of(doc, d.range.start),
    to: Math.max(offset_of(doc, d.range.end), offset_of(doc, d.range.start)),
    severity: severities[d.severity] || 'info',
    source: d.code,
    message: d.message,
    actions: fixes_of(d).map((action) => ({
      name: action.isPreferred ? 'Fix' : (action.title.startsWith('Suppress') ? 'Suppress' : 'Fix (unsafe)'),
      apply: (v) => apply_edit(v, action.edit, current.version),
    })),
  }));
  view.dispatch(setDiagnostics(view.state, marks));

  const list = $('findings');
  list.replaceChildren();
  for (const d of current.diagnostics) {
    const item = element('li', undefined, `finding ${severities[d.severity] || 'info'}`);
    item.dataset.rule = d.code || '';
    item.dataset.line = d.range.start.line + 1;
    item.dataset.column = d.range.start.character + 1;
    const place = element('a', `${d.range.start.line + 1}:${d.range.start.character + 1}`, 'place');
    place.href = '#';
    place.addEventListener('click', (event) => {
      event.preventDefault();
      const at = offset_of(view.state.doc, d.range.start);
      view.dispatch({selection: {anchor: at}, scrollIntoView: true});
      view.focus();
    });
    item.append(place, ' ', element('span', severity_words[d.severity] || 'note', 'severity'), ' ');
    const [first, ...rest] = d.message.split('\n');
    item.append(element('span', first, 'message'), ' ');
    if (d.code) item.append(element('code', `[${d.code}]`, 'rule'));
    if (rest.length) item.append(element('pre', rest.join('\n'), 'notes'));
    for (const related of d.relatedInformation || [])
      item.append(element('div', `${related.location.range.start.line + 1}:${related.location.range.start.character + 1}: ${related.message}`, 'related'));
    const buttons = element('div', undefined, 'buttons');
    for (const action of fixes_of(d)) {
      const button = element('button', action.title, action.isPreferred ? 'fix preferred' : 'fix');
      button.addEventListener('click', () => apply_edit(view, action.edit, current.version));
      buttons.append(button);
    }
    if (d.code) {
      const explain = element('button', `Explain ${d.code}`, 'explain');
      explain.addEventListener('click', () => run_command('explain', ['explain', d.code]));
      buttons.append(explain);
    }
    item.append(buttons);
    list.append(item);
  }
  const counts = {1: 0, 2: 0, 3: 0};
  for (const d of current.diagnostics) counts[d.severity in counts ? d.severity : 3] += 1;
  $('summary').textContent = current.diagnostics.length === 0 ? 'no findings'
      : `${counts[1]} error(s), ${counts[2]} warning(s), ${counts[3]} note(s)`;
}

/// Lints the editor's text; a newer keystroke supersedes it (engine.js).
async function lint(view) {
  const text = view.state.doc.toString();
  const this_version = ++version;
  const started = performance.now();
  const done = await engine.call([
    {op: 'lint', text, version: this_version},
    {op: 'actions', range: {start: {line: 0, character: 0}, end: position_of(view.state.doc, view.state.doc.length)},
     context: {only: ['quickfix']}},
  ], {lint: true});
  if (!done || this_version !== version) return;  // superseded
  const [published, actions] = done.answers;
  if (published.error) {
    $('status').textContent = `planlint: ${published.error}`;
    return;
  }
  current = {version: this_version, text, diagnostics: published.diagnostics || [],
             actions: Array.isArray(actions) ? actions : []};
  show_findings(view);
  const total = performance.now() - started;
  $('status').textContent = `linted in ${done.ms.toFixed(1)} ms (${total.toFixed(1)} ms to the page)`;
  window.planlint_linted_text = text;  // for the browser test
  document.body.dataset.lintedVersion = String(this_version);
  document.body.dataset.lintMs = total.toFixed(2);
  schedule_permalink(text);
}

// ---- hover and completion: the language server's answers ----

const hover = hoverTooltip(async (view, pos) => {
  const text = view.state.doc.toString();
  if (text !== current.text) return null;
  const done = await engine.call([{op: 'hover', position: position_of(view.state.doc, pos)}]);
  const answer = done && done.answers[0];
  if (!answer || !answer.contents || text !== view.state.doc.toString()) return null;
  const value = typeof answer.contents === 'string' ? answer.contents : answer.contents.value;
  const range = answer.range;
  return {
    pos: range ? offset_of(view.state.doc, range.start) : pos,
    end: range ? offset_of(view.state.doc, range.end) : pos,
    above: true,
    create: () => ({dom: element('pre', value, 'hover')}),
  };
}, {hoverTime: 250});

async function complete(context) {
  if (context.state.doc.toString() !== current.text) return null;
  const done = await engine.call([{op: 'completion', position: position_of(context.state.doc, context.pos)}]);
  const answer = done && done.answers[0];
  const items = answer && (Array.isArray(answer) ? answer : answer.items);
  if (!items || items.length === 0) return null;
  const word = context.matchBefore(/[A-Za-z0-9_.-]*/);
  return {
    from: word ? word.from : context.pos,
    options: items.map((item) => ({
      label: item.label,
      apply: item.insertText || (item.textEdit && item.textEdit.newText) || item.label,
      detail: item.detail,
      info: typeof item.documentation === 'string' ? item.documentation
          : item.documentation ? () => element('pre', item.documentation.value, 'hover') : undefined,
    })),
  };
}

// ---- commands: report, solve, gpus, explain, check — the command line's own output ----

/// Runs `planlint ARGS...` on the editor's plan (plan.toml in the engine's folder) and shows
/// its output in the pane `pane`.
async function run_command(pane, args, {html = false, files = null} = {}) {
  select_tab(pane);
  const out = $(`out-${pane}`);
  const text = view.state.doc.toString();
  const done = await engine.call([{op: 'run', args, files: files || {'plan.toml': text}}]);
  if (!done) return;
  const answer = done.answers[0];
  if (answer.error) {
    out.textContent = `planlint: ${answer.error}`;
    return;
  }
  if (html) {
    // planlint's own page, in a frame that runs nothing: sandbox without allow-scripts.
    const frame = $('report-frame');
    if (answer.status <= 1 && answer.stdout) frame.srcdoc = answer.stdout;
    out.textContent = answer.stderr;
    return;
  }
  out.textContent = answer.stdout + answer.stderr;
  out.dataset.status = String(answer.status);
}

function select_tab(name) {
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const selected = tab.dataset.pane === name;
    tab.setAttribute('aria-selected', String(selected));
    $(`pane-${tab.dataset.pane}`).hidden = !selected;
  }
}

// ---- templates, examples and the permalink ----

let permalink_timer = 0;
function schedule_permalink(text) {
  clearTimeout(permalink_timer);
  permalink_timer = setTimeout(async () => {
    const fragment = await encode_plan(text);
    if (view.state.doc.toString() === text) window.history.replaceState(null, '', fragment);
    $('permalink').dataset.ready = 'true';
  }, 300);
}

/// The plan as it was opened (a template, an example, a link): what "Diff" compares with.
let opened_text = '';

function set_text(text) {
  opened_text = text;
  view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: text}});
}

async function choose_template(value) {
  if (value.startsWith('new:')) {
    const done = await engine.call([{op: 'run', args: ['new', value.slice(4)]}]);
    if (done && done.answers[0].status === 0) set_text(done.answers[0].stdout);
  } else if (value in examples) {
    set_text(examples[value]);
  }
}

// ---- the page ----

let lint_timer = 0;
const view = new EditorView({
  parent: $('editor'),
  state: EditorState.create({
    doc: '',
    extensions: [
      lineNumbers(), history(), highlightActiveLine(), bracketMatching(), lintGutter(),
      StreamLanguage.define(toml), syntaxHighlighting(defaultHighlightStyle),
      keymap.of([...defaultKeymap, ...historyKeymap]), hover,
      autocompletion({override: [complete], activateOnTyping: false}),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        // Every keystroke: the engine drops or cancels the lint it supersedes.
        clearTimeout(lint_timer);
        lint_timer = setTimeout(() => lint(view), 0);
      }),
    ],
  }),
});
// For the browser test (tests/playground/browser.mjs): the editor, and the engine's restarts.
window.planlint_view = view;
window.planlint_engine = engine;

const picker = $('template');
picker.append(element('option', 'Start from…', ''));
picker.append(element('option', 'planlint new training', ''));
picker.lastChild.value = 'new:training';
picker.append(element('option', 'planlint new inference', ''));
picker.lastChild.value = 'new:inference';
for (const name of Object.keys(examples).sort()) {
  const option = element('option', `examples/${name}`);
  option.value = name;
  picker.append(option);
}
picker.firstChild.value = '';
picker.addEventListener('change', () => {
  if (picker.value) choose_template(picker.value);
  picker.value = '';
});

for (const tab of document.querySelectorAll('[role=tab]'))
  tab.addEventListener('click', () => select_tab(tab.dataset.pane));
$('run-report').addEventListener('click', () => run_command('report', ['report', 'plan.toml']));
$('run-report-html').addEventListener('click', () =>
  run_command('report-html', ['report', '--format', 'html', 'plan.toml'], {html: true}));
$('run-solve').addEventListener('click', () => run_command('solve', ['solve', 'plan.toml']));
$('run-diff').addEventListener('click', () => run_command('diff', ['diff', 'opened/plan.toml', 'edited/plan.toml'], {
  files: {'opened/plan.toml': opened_text, 'edited/plan.toml': view.state.doc.toString()}}));
$('run-gpus').addEventListener('click', () => run_command('gpus', ['gpus']));
$('run-check').addEventListener('click', () => run_command('check', ['check', 'plan.toml']));
$('fix-all').addEventListener('click', async () => {
  const done = await engine.call([{op: 'actions', range: {start: {line: 0, character: 0}, end: {line: 0, character: 0}},
                                   context: {only: ['source.fixAll']}}]);
  const action = done && Array.isArray(done.answers[0]) && done.answers[0][0];
  if (action) apply_edit(view, action.edit, current.version);
});
$('permalink').addEventListener('click', async () => {
  const fragment = await encode_plan(view.state.doc.toString());
  window.history.replaceState(null, '', fragment);
  try {
    await navigator.clipboard.writeText(location.href);
    $('status').textContent = 'link copied';
  } catch {
    $('status').textContent = 'the link is in the address bar';
  }
});

async function open_from_location() {
  let text = null;
  try {
    text = await decode_plan(location.hash);
  } catch (error) {
    $('notice').textContent = `the link holds no readable plan (${error.message}): opened ${default_example}`;
  }
  set_text(text ?? examples[default_example]);
}
window.addEventListener('hashchange', async () => {
  const text = await decode_plan(location.hash).catch(() => null);
  if (text !== null && text !== view.state.doc.toString()) set_text(text);
});
select_tab('findings');
open_from_location();
