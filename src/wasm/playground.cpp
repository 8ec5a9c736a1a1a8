// The playground's engine (docs/playground.md): the planlint library compiled to WebAssembly,
// answering the page's Web Worker. It is a shell like src/cli/: what the editor shows comes
// from the language server's own functions (lsp/analysis.hpp, lsp/features.hpp), and every
// command (report, explain, gpus, solve, new, check's text output) from the command line's own
// `cli::run`, over files the worker writes into emscripten's in-memory file system.
//
//     planlint_request('{"op": "lint", "text": "[plan]\n..."}')
//       → '{"diagnostics": [...LSP Diagnostic...], "version": 1}'
//
// One request at a time (a worker runs one module): no thread, no lock is contended.
#include <emscripten/emscripten.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli.hpp"
#include "planlint/lsp/analysis.hpp"
#include "planlint/lsp/features.hpp"
#include "planlint/lsp/jsonrpc.hpp"
#include "planlint/lsp/params.hpp"
#include "planlint/lsp/server.hpp"
#include "planlint/lsp/text_document.hpp"
#include "planlint/lsp/uri.hpp"
#include "planlint/lsp/workspace.hpp"

namespace planlint::wasm {

namespace {

using lsp::json;

/// The editor's document: a file of its own folder, so that no config of the commands' files
/// (the `run` request's) configures it. Findings name it by this path, as `planlint lsp` names
/// a file it opens.
constexpr const char* document_path = "/playground/plan.toml";

/// The limits of `planlint lsp` at its defaults (docs/hardening.md): the largest document
/// linted, plans per Markdown doc, findings shown.
lsp::WorkspaceOptions workspace_options() {
  const lsp::ServerOptions server;
  return lsp::WorkspaceOptions{server.config, server.today, server.max_file_bytes, server.max_plans_per_file,
                               server.max_findings_per_file};
}

/// What the page's editor supports, as an LSP client would say it: related locations and
/// rule links, hover as plain text (the page shows every string as text, never as markup).
lsp::ClientSupport client_support() {
  lsp::ClientSupport client;
  client.related_information = true;
  client.code_description = true;
  return client;
}

struct State {
  lsp::Workspace workspace{workspace_options()};
  lsp::ClientSupport client = client_support();
  std::shared_ptr<const lsp::Analysis> analysis;  ///< of the latest `lint` request
  std::string uri = lsp::path_to_uri(document_path);
};

State& state() {
  static State instance;
  return instance;
}

/// lint: {text, version?} → publishDiagnostics's params. The analysis is kept for the hover,
/// codeAction and completion requests that follow.
json lint(const json& request) {
  State& s = state();
  lsp::DocumentSnapshot snapshot;
  snapshot.uri = s.uri;
  snapshot.path = document_path;
  snapshot.language_id = "toml";
  snapshot.version = request.value("version", std::int64_t{0});
  snapshot.text = lsp::TextDocument(lsp::string_field(request, "text", "request"));
  s.analysis = lsp::analyse(snapshot, s.workspace);
  return lsp::publish_diagnostics_params(s.uri, *s.analysis, s.client, s.workspace.options().max_findings_per_file);
}

/// One of `planlint lsp`'s requests on the latest lint: textDocument/hover, /completion and
/// /codeAction, their params as LSP has them (without textDocument).
json feature(const std::string& op, const json& params) {
  const State& s = state();
  if (!s.analysis) return nullptr;
  if (op == "hover") return lsp::hover(*s.analysis, lsp::position_field(params, "position", "params"), s.client);
  if (op == "completion")
    return lsp::completion(*s.analysis, lsp::position_field(params, "position", "params"), s.client);
  const auto context = params.find("context");
  return lsp::code_actions(s.uri, *s.analysis, lsp::range_field(params, "range", "params"),
                           context == params.end() ? json() : *context, s.client);
}

/// run: {args: [...], files: {path: text}} → {status, stdout, stderr}: the command line as
/// `planlint ARGS...` runs it in /run, after the files are written there (relative paths, none
/// of them leaving it). Nothing in /run outlives the request.
json run(const json& request) {
  namespace fs = std::filesystem;
  const fs::path cwd = "/run";
  std::vector<std::pair<fs::path, std::string>> files;
  if (const auto listed = request.find("files"); listed != request.end() && listed->is_object()) {
    for (const auto& [name, text] : listed->items()) {
      const fs::path path = fs::path(name).lexically_normal();
      if (name.empty() || path.is_absolute() || *path.begin() == "..")
        return {{"error", "a file's path is relative and stays in the folder it is run in"}};
      files.emplace_back(cwd / path, text.get<std::string>());
    }
  }
  std::error_code ec;
  fs::remove_all(cwd, ec);
  fs::create_directories(cwd);
  fs::current_path(cwd);
  for (const auto& [path, text] : files) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }
  std::vector<std::string> args{"planlint"};
  for (const json& arg : lsp::field(request, "args", "request")) args.push_back(arg.get<std::string>());
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out, err;
  cli::Environment environment;  // not a terminal: no colour, as output to a file or pipe
  const int status = cli::run(static_cast<int>(argv.size()), argv.data(), out, err, environment);
  fs::current_path("/", ec);
  fs::remove_all(cwd, ec);
  return {{"status", status}, {"stdout", out.str()}, {"stderr", err.str()}};
}

json answer(const json& request) {
  const std::string op = lsp::string_field(request, "op", "request");
  if (op == "lint") return lint(request);
  if (op == "hover" || op == "completion" || op == "actions") return feature(op, request);
  if (op == "run") return run(request);
  return {{"error", "unknown request"}};
}

}  // namespace

}  // namespace planlint::wasm

/// Answers one request (JSON text) with JSON text; the pointer stays valid until the next call.
/// A request that cannot be answered is {"error": message}: a malformed request, or an error
/// of planlint's own.
extern "C" EMSCRIPTEN_KEEPALIVE const char* planlint_request(const char* request_text) {
  static std::string response;
  using planlint::lsp::json;
  json result;
  try {
    result = planlint::wasm::answer(json::parse(request_text));
  } catch (const planlint::lsp::RpcError& error) {
    result = {{"error", error.message}};
  } catch (const std::exception& error) {
    result = {{"error", error.what()}};
  }
  response = result.dump(-1, ' ', false, json::error_handler_t::replace);
  return response.c_str();
}
