#include "planlint/lsp/server.hpp"

#include <atomic>
#include <csignal>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/lsp/analysis.hpp"
#include "planlint/lsp/features.hpp"
#include "planlint/lsp/framing.hpp"
#include "planlint/lsp/free_memory.hpp"
#include "planlint/lsp/jsonrpc.hpp"
#include "planlint/lsp/lint_scheduler.hpp"
#include "planlint/lsp/params.hpp"
#include "planlint/lsp/uri.hpp"
#include "planlint/lsp/workspace.hpp"
#include "planlint/source/limits.hpp"

namespace planlint::lsp {

namespace {

using Clock = std::chrono::steady_clock;

/// The bytes a didChange's edits may rewrite between them, per byte of --max-message-size
/// (each edit rewrites the whole text): 64 edits of a document at the limit, ten thousand of a
/// 100 KB one at the default. Past it the document is dropped, rather than the server stalled.
constexpr std::size_t edit_work_per_message_byte = 64;

/// LSP's MessageType.
enum class MessageType { error = 1, warning = 2, info = 3, log = 4 };

/// A text from the client as a log shows it: JSON-quoted, so that control characters, bidi
/// controls and anything outside ASCII are escapes (`\u001b`, `\u202e`), never raw bytes on
/// stderr. Every line the log writes holds the client's texts only through here.
std::string log_quoted(std::string_view text) {
  return json(std::string(text)).dump(-1, ' ', true, json::error_handler_t::replace);
}

/// The value at `path` in nested objects, or null.
const json* find_path(const json& object, std::initializer_list<std::string_view> path) {
  const json* at = &object;
  for (std::string_view name : path) {
    if (!at->is_object()) return nullptr;
    const auto it = at->find(name);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

bool flag(const json& object, std::initializer_list<std::string_view> path) {
  const json* at = find_path(object, path);
  return at && at->is_boolean() && at->get<bool>();
}

bool lists(const json& object, std::initializer_list<std::string_view> path, std::string_view value) {
  const json* at = find_path(object, path);
  if (!at || !at->is_array()) return false;
  for (const json& item : *at)
    if (item.is_string() && item.get<std::string>() == value) return true;
  return false;
}

struct Document {
  DocumentSnapshot snapshot;
  std::shared_ptr<const Analysis> analysis;  ///< of some version, not necessarily the latest
  std::int64_t published = -1;               ///< the version whose diagnostics were sent
};

class Server {
 public:
  Server(const ServerOptions& options, int in_fd, int out_fd, std::ostream* log)
      : options_(options),
        reader_(in_fd, options.max_message_bytes),
        writer_(out_fd),
        log_(log),
        workspace_(WorkspaceOptions{options.config, options.today, options.max_file_bytes, options.max_plans_per_file,
                                    options.max_findings_per_file}) {}

  int run();

 private:
  void receive(Frame& frame);
  void too_large(const Frame& frame);
  /// Answers a message over a limit: an error response when it has an id; else a message to
  /// the user, and a document it would have opened or changed is dropped (drop_document).
  void refuse(const MessageHead& head, const std::string& why);
  /// Forgets a document whose text is no longer known, its diagnostics saying `why`.
  void drop_document(const std::string& uri, const std::string& why);
  void dispatch(Incoming& message);
  json answer(const std::string& method, const json& params);
  void notice(const std::string& method, const json& params);

  json initialize(const json& params);
  void initialized();
  void did_open(const json& params);
  void did_change(const json& params);
  void did_save(const json& params);
  void did_close(const json& params);
  void watched_files_changed(const json& params);

  void lint_document(const std::string& uri);
  std::shared_ptr<const Analysis> current_analysis(const std::string& uri);
  void relint_open_documents();

  void send(const json& message);
  void show_message(MessageType type, const std::string& text);
  void log(const std::string& line);

  const ServerOptions& options_;
  MessageReader reader_;
  MessageWriter writer_;
  std::ostream* log_;
  std::mutex log_mutex_;
  Workspace workspace_;
  ClientSupport client_;
  bool watch_registration_ = false;  ///< the client registers file watchers when asked

  enum class State { starting, running, shutting_down };
  State state_ = State::starting;
  bool exit_ = false;
  std::atomic<bool> client_gone_ = false;

  std::mutex documents_mutex_;
  std::map<std::string, Document, std::less<>> documents_;
  /// Held from the check that a version is the latest to the end of its publication, so that
  /// an older version's findings never follow a newer one's.
  std::mutex publish_mutex_;
  std::unique_ptr<LintScheduler> scheduler_;
};

int Server::run() {
  // A client that goes away closes the pipe: a write then fails with EPIPE rather than
  // killing the process, and the server ends as at the end of its input.
  std::signal(SIGPIPE, SIG_IGN);
  scheduler_ = std::make_unique<LintScheduler>(
      [this](const std::string& uri) {
        lint_document(uri);
        release_free_memory();  // what the lint no longer needs: its TOML document, findings past the cap
      },
      options_.debounce, options_.debounce * 8);
  while (!exit_ && !client_gone_) {
    Frame frame = reader_.read();
    if (frame.kind == Frame::Kind::end) {
      if (!frame.problem.empty()) log("input: " + frame.problem);
      break;
    }
    receive(frame);
  }
  scheduler_->stop();
  // LSP: "exit with success code 0 if the shutdown request has been received before;
  // otherwise with error code 1".
  return state_ == State::shutting_down ? 0 : 1;
}

void Server::receive(Frame& frame) {
  if (frame.kind == Frame::Kind::bad_header) {
    log("input: " + frame.problem);
    send(error_response(nullptr, ErrorCode::parse_error, "invalid message header: " + frame.problem));
    return;
  }
  if (frame.kind == Frame::Kind::too_large) {
    too_large(frame);
    return;
  }
  Decoded decoded = decode(frame.content);
  frame.content.clear();
  frame.content.shrink_to_fit();
  if (decoded.refused) {
    refuse(decoded.refused->head, decoded.refused->why);
    return;
  }
  if (decoded.error_response) {
    log("input: " + (*decoded.error_response)["error"]["message"].get<std::string>());
    send(*decoded.error_response);
    return;
  }
  dispatch(*decoded.message);
}

void Server::too_large(const Frame& frame) {
  refuse(read_head(frame.content),
         fmt::format("a message of {} is over planlint lsp's limit of {} (raise it with --max-message-size)",
                     format_byte_size(frame.declared_bytes), format_byte_size(options_.max_message_bytes)));
}

void Server::refuse(const MessageHead& head, const std::string& why) {
  log("input: " + why + (head.method ? " (" + log_quoted(*head.method) + ")" : std::string()));
  if (head.id) {
    send(error_response(*head.id, ErrorCode::invalid_request, why));
    return;
  }
  if (!head.method) {
    send(error_response(nullptr, ErrorCode::invalid_request, why));
    return;
  }
  // A notification gets no response. A document's text it carried is now unknown: the
  // document is dropped, and its diagnostics say why, until it is opened again.
  show_message(MessageType::error, why);
  if (!head.document_uri) return;
  if (*head.method != "textDocument/didOpen" && *head.method != "textDocument/didChange") return;
  drop_document(*head.document_uri, why);
}

void Server::drop_document(const std::string& uri, const std::string& why) {
  {
    std::lock_guard lock(documents_mutex_);
    documents_.erase(uri);
  }
  scheduler_->forget(uri);
  release_free_memory();
  json diagnostic = {{"range", to_json(LspRange{})},
                     {"severity", 1},
                     {"source", "planlint"},
                     {"message", why + ": the document is not linted until it is closed and opened again"}};
  std::lock_guard publishing(publish_mutex_);
  send(notification("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array({diagnostic})}}));
}

void Server::dispatch(Incoming& message) {
  const auto started = Clock::now();
  if (message.kind == Incoming::Kind::response) {
    // The answers to the server's own requests (client/registerCapability): an error is logged.
    if (message.error) log("client answered " + log_quoted(message.id.dump()) + " with an error: " + message.error->dump(-1, ' ', true, json::error_handler_t::replace));
    return;
  }
  if (message.kind == Incoming::Kind::notification) {
    try {
      notice(message.method, message.params);
    } catch (const RpcError& error) {
      log(fmt::format("{}: {}", log_quoted(message.method), error.message));
    } catch (const std::exception& error) {
      log(fmt::format("{}: {}", log_quoted(message.method), error.what()));
    }
  } else {
    json reply;
    try {
      reply = response(message.id, answer(message.method, message.params));
    } catch (const RpcError& error) {
      reply = error_response(message.id, error.code, error.message);
    } catch (const std::exception& error) {
      reply = error_response(message.id, ErrorCode::internal_error, error.what());
    }
    send(reply);
  }
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started).count();
  log(fmt::format("{} {:.2f} ms", log_quoted(message.method), micros / 1000.0));
}

json Server::answer(const std::string& method, const json& params) {
  if (method == "initialize") {
    if (state_ != State::starting) throw RpcError{ErrorCode::invalid_request, "initialize was sent already"};
    return initialize(params);
  }
  if (state_ == State::starting)
    throw RpcError{ErrorCode::server_not_initialized, "the first request is initialize"};
  if (state_ == State::shutting_down)
    throw RpcError{ErrorCode::invalid_request, "the server is shutting down: only exit follows shutdown"};
  if (method == "shutdown") {
    state_ = State::shutting_down;
    return nullptr;
  }
  if (method == "textDocument/hover") {
    const auto analysis = current_analysis(document_uri(params));
    return analysis ? hover(*analysis, position_field(params, "position", "params"), client_) : json();
  }
  if (method == "textDocument/completion") {
    const auto analysis = current_analysis(document_uri(params));
    return analysis ? completion(*analysis, position_field(params, "position", "params"), client_) : json();
  }
  if (method == "textDocument/codeAction") {
    const std::string uri = document_uri(params);
    const LspRange range = range_field(params, "range", "params");
    const auto analysis = current_analysis(uri);
    const auto context = params.find("context");
    return analysis ? code_actions(uri, *analysis, range, context == params.end() ? json() : *context, client_)
                    : json::array();
  }
  throw RpcError{ErrorCode::method_not_found, fmt::format("planlint lsp has no method {}", log_quoted(method))};
}

void Server::notice(const std::string& method, const json& params) {
  if (method == "exit") {
    exit_ = true;
    return;
  }
  // Before initialize, notifications are dropped (LSP); after shutdown, all but exit.
  if (state_ != State::running) return;
  if (method == "initialized") initialized();
  else if (method == "textDocument/didOpen") did_open(params);
  else if (method == "textDocument/didChange") did_change(params);
  else if (method == "textDocument/didSave") did_save(params);
  else if (method == "textDocument/didClose") did_close(params);
  else if (method == "workspace/didChangeWatchedFiles") watched_files_changed(params);
  else if (method == "workspace/didChangeConfiguration") relint_open_documents();
  // Anything else ($/cancelRequest, $/setTrace, a notification of a newer protocol) needs
  // nothing: requests are answered in order, and a notification has no answer.
}

json Server::initialize(const json& params) {
  const json capabilities = params.is_object() && params.contains("capabilities") ? params["capabilities"] : json::object();
  client_.related_information = flag(capabilities, {"textDocument", "publishDiagnostics", "relatedInformation"});
  client_.code_description = flag(capabilities, {"textDocument", "publishDiagnostics", "codeDescriptionSupport"});
  client_.markdown_hover = lists(capabilities, {"textDocument", "hover", "contentFormat"}, "markdown");
  client_.markdown_documentation =
      lists(capabilities, {"textDocument", "completion", "completionItem", "documentationFormat"}, "markdown");
  client_.document_changes = flag(capabilities, {"workspace", "workspaceEdit", "documentChanges"});
  watch_registration_ = flag(capabilities, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});

  std::optional<std::string> root;
  if (params.is_object()) {
    if (auto folders = params.find("workspaceFolders"); folders != params.end() && folders->is_array() &&
                                                        !folders->empty() && (*folders)[0].contains("uri") &&
                                                        (*folders)[0]["uri"].is_string())
      root = uri_to_path((*folders)[0]["uri"].get<std::string>());
    else if (auto uri = params.find("rootUri"); uri != params.end() && uri->is_string())
      root = uri_to_path(uri->get<std::string>());
  }
  workspace_.set_root(root);
  state_ = State::running;

  json sync = {{"openClose", true}, {"change", 2 /* incremental */}, {"save", {{"includeText", false}}}};
  json result = {
      {"capabilities",
       {{"positionEncoding", "utf-16"},
        {"textDocumentSync", sync},
        {"hoverProvider", true},
        {"completionProvider", {{"triggerCharacters", {"\"", "[", "."}}, {"resolveProvider", false}}},
        {"codeActionProvider", {{"codeActionKinds", {"quickfix", "source.fixAll"}}, {"resolveProvider", false}}}}},
      {"serverInfo", {{"name", "planlint"}, {"version", PLANLINT_VERSION}}}};
  return result;
}

void Server::initialized() {
  if (!watch_registration_) return;
  // Configs, rule packs and catalogs are TOML files; which of them matter is decided when one
  // changes (Workspace::file_changed), since a config may name a pack anywhere.
  json watchers = json::array({{{"globPattern", "**/*.toml"}}});
  send(request("planlint/watch-files", "client/registerCapability",
               {{"registrations",
                 json::array({{{"id", "planlint/watch-files"},
                               {"method", "workspace/didChangeWatchedFiles"},
                               {"registerOptions", {{"watchers", watchers}}}}})}}));
}

void Server::did_open(const json& params) {
  const json& item = field(params, "textDocument", "params");
  DocumentSnapshot snapshot;
  snapshot.uri = string_field(item, "uri", "params.textDocument");
  snapshot.path = uri_to_path(snapshot.uri);
  snapshot.language_id = item.contains("languageId") && item["languageId"].is_string() ? item["languageId"].get<std::string>() : "";
  snapshot.version = integer_field(item, "version", "params.textDocument");
  snapshot.text = TextDocument(string_field(item, "text", "params.textDocument"));
  {
    std::lock_guard lock(documents_mutex_);
    Document& document = documents_[snapshot.uri];
    document = Document{};
    document.snapshot = std::move(snapshot);
  }
  scheduler_->now(item["uri"].get<std::string>());
}

void Server::did_change(const json& params) {
  const json& item = field(params, "textDocument", "params");
  const std::string uri = string_field(item, "uri", "params.textDocument");
  const std::int64_t version = integer_field(item, "version", "params.textDocument");
  const json& changes = field(params, "contentChanges", "params");
  if (!changes.is_array()) throw RpcError{ErrorCode::invalid_params, "params.contentChanges is not an array"};
  std::vector<TextChange> edits;
  for (const json& change : changes) {
    TextChange edit;
    edit.text = string_field(change, "text", "params.contentChanges[]");
    if (change.contains("range")) edit.range = range_field(change, "range", "params.contentChanges[]");
    edits.push_back(std::move(edit));
  }
  std::optional<std::string> refused;
  {
    std::lock_guard lock(documents_mutex_);
    const auto it = documents_.find(uri);
    if (it == documents_.end()) {
      log("didChange of a document that is not open: " + log_quoted(uri));
      return;
    }
    refused = apply_edits(it->second.snapshot.text, edits,
                          EditLimits{options_.max_message_bytes, edit_work_per_message_byte * options_.max_message_bytes});
    it->second.snapshot.version = version;
  }
  if (refused) {
    drop_document(uri, *refused);
    return;
  }
  scheduler_->edited(uri);
}

void Server::did_save(const json& params) {
  const std::string uri = document_uri(params);
  // A config, rule pack or catalog saved in the editor changes the other documents' settings.
  if (const auto path = uri_to_path(uri); path && workspace_.file_changed(*path)) relint_open_documents();
  bool open = false;
  {
    std::lock_guard lock(documents_mutex_);
    open = documents_.count(uri) > 0;
  }
  if (open) scheduler_->now(uri);
}

void Server::did_close(const json& params) {
  const std::string uri = document_uri(params);
  {
    std::lock_guard lock(documents_mutex_);
    documents_.erase(uri);
  }
  scheduler_->forget(uri);
  release_free_memory();
  // The findings of a closed document go with it (as in clangd and ruff).
  std::lock_guard publishing(publish_mutex_);
  send(notification("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}}));
}

void Server::watched_files_changed(const json& params) {
  const json& changes = field(params, "changes", "params");
  if (!changes.is_array()) throw RpcError{ErrorCode::invalid_params, "params.changes is not an array"};
  bool relint = false;
  for (const json& change : changes) {
    const auto path = uri_to_path(string_field(change, "uri", "params.changes[]"));
    if (path && workspace_.file_changed(*path)) relint = true;
  }
  if (relint) relint_open_documents();
}

void Server::relint_open_documents() {
  std::vector<std::string> uris;
  {
    std::lock_guard lock(documents_mutex_);
    for (auto& [uri, document] : documents_) {
      document.analysis.reset();  // made with the settings before the change
      document.published = -1;
      uris.push_back(uri);
    }
  }
  for (const std::string& uri : uris) scheduler_->now(uri);
}

void Server::lint_document(const std::string& uri) {
  try {
    DocumentSnapshot snapshot;
    std::shared_ptr<const Analysis> analysis;
    {
      std::lock_guard lock(documents_mutex_);
      const auto it = documents_.find(uri);
      if (it == documents_.end()) return;
      const Document& document = it->second;
      if (document.published == document.snapshot.version) return;
      if (document.analysis && document.analysis->version == document.snapshot.version) analysis = document.analysis;
      else snapshot = document.snapshot;
    }
    if (!analysis) analysis = analyse(snapshot, workspace_);
    std::lock_guard publishing(publish_mutex_);
    {
      std::lock_guard lock(documents_mutex_);
      const auto it = documents_.find(uri);
      // Edited meanwhile: the edit scheduled another lint, whose findings win.
      if (it == documents_.end() || it->second.snapshot.version != analysis->version) return;
      it->second.analysis = analysis;
      if (it->second.published == analysis->version) return;
      it->second.published = analysis->version;
    }
    send(notification("textDocument/publishDiagnostics",
                      publish_diagnostics_params(uri, *analysis, client_, options_.max_findings_per_file)));
  } catch (const std::exception& error) {
    log(fmt::format("lint of {}: {}", log_quoted(uri), error.what()));
  }
}

std::shared_ptr<const Analysis> Server::current_analysis(const std::string& uri) {
  DocumentSnapshot snapshot;
  {
    std::lock_guard lock(documents_mutex_);
    const auto it = documents_.find(uri);
    if (it == documents_.end()) return nullptr;
    const Document& document = it->second;
    if (document.analysis && document.analysis->version == document.snapshot.version) return document.analysis;
    snapshot = document.snapshot;
  }
  std::shared_ptr<const Analysis> analysis = analyse(snapshot, workspace_);
  std::lock_guard lock(documents_mutex_);
  const auto it = documents_.find(uri);
  if (it != documents_.end() && it->second.snapshot.version == analysis->version) it->second.analysis = analysis;
  return analysis;
}

void Server::send(const json& message) {
  if (!writer_.write(serialize(message))) client_gone_ = true;
}

void Server::show_message(MessageType type, const std::string& text) {
  // A message may name a file or quote a config: the printable policy, its line breaks kept.
  send(notification("window/showMessage",
                    {{"type", static_cast<int>(type)}, {"message", "planlint: " + printable_lines(text)}}));
}

void Server::log(const std::string& line) {
  if (!log_) return;
  // Texts from the client come log_quoted(); a library's message may still quote a file's bytes.
  std::string shown;
  for (const char c : line) {
    if (c >= 0x20 && c < 0x7f) shown += c;
    else shown += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
  }
  std::lock_guard lock(log_mutex_);
  *log_ << "planlint lsp: " << shown << '\n' << std::flush;
}

}  // namespace

int serve(const ServerOptions& options, int in_fd, int out_fd, std::ostream* log) {
  bound_free_memory();
  Server server(options, in_fd, out_fd, log);
  return server.run();
}

}  // namespace planlint::lsp
