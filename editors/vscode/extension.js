// Starts `planlint lsp` for the TOML plans and Markdown capacity docs of the workspace
// (docs/editors.md). Everything else (diagnostics, quick fixes, hover, completion, re-lints
// when .planlint.toml or a rule pack changes) is the server's.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate() {
  const settings = vscode.workspace.getConfiguration('planlint');
  const command = settings.get('path', 'planlint');
  const args = ['lsp', ...settings.get('args', [])];
  const server = { command, args };
  client = new LanguageClient('planlint', 'planlint', { run: server, debug: server }, {
    // By file name as well as by language: VS Code has no TOML language without an extension.
    documentSelector: [
      { scheme: 'file', pattern: '**/*.toml' },
      { scheme: 'file', language: 'toml' },
      { scheme: 'untitled', language: 'toml' },
      { scheme: 'file', language: 'markdown' },
    ],
  });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
