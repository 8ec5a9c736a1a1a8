#pragma once
/// A Language Server Protocol client for the tests and the benchmark: it starts `planlint lsp`
/// as an editor does (a child process, its stdin and stdout as pipes), writes Content-Length
/// framed JSON-RPC and reads what the server writes back. No Catch2 here: the benchmark
/// (tests/bench/lsp_bench.cpp) uses it too.
///
///     LspClient server({PLANLINT_BINARY, "lsp", "--today", "2026-12-01"});
///     json result = server.request("initialize", {{"capabilities", json::object()}});
///     server.notify("textDocument/didOpen", ...);
///     json published = server.wait_for_notification("textDocument/publishDiagnostics");
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace planlint::test {

using json = nlohmann::json;

class LspClient {
 public:
  using Clock = std::chrono::steady_clock;

  /// Starts `argv[0]` with `argv`, its stderr to `stderr_path` (default: discarded).
  explicit LspClient(const std::vector<std::string>& argv, const std::string& stderr_path = "/dev/null") {
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0)
      throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::dup2(to_child[0], STDIN_FILENO);
      ::dup2(from_child[1], STDOUT_FILENO);
      const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) ::dup2(err, STDERR_FILENO);
      std::vector<char*> args;
      for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
    ::signal(SIGPIPE, SIG_IGN);
  }
  ~LspClient() {
    close_input();
    if (out_ >= 0) ::close(out_);
    if (pid_ > 0 && !status_) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  LspClient(const LspClient&) = delete;
  LspClient& operator=(const LspClient&) = delete;

  pid_t pid() const { return pid_; }

  /// Writes bytes as they are (a frame of the test's own making); false when the pipe is closed.
  bool write_raw(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::write(in_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }
  /// Writes `content` with its Content-Length header.
  bool write_frame(std::string_view content) {
    return write_raw("Content-Length: " + std::to_string(content.size()) + "\r\n\r\n") && write_raw(content);
  }
  bool send(const json& message) { return write_frame(message.dump()); }

  /// Sends a request and returns its id.
  std::int64_t send_request(const std::string& method, json params) {
    const std::int64_t id = next_id_++;
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    return id;
  }
  void notify(const std::string& method, json params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }

  /// The next message the server writes, or nullopt after `timeout` or at the end of its output.
  std::optional<json> receive(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    if (!queued_.empty()) {
      json message = std::move(queued_.front());
      queued_.pop_front();
      return message;
    }
    return read_message(Clock::now() + timeout);
  }

  /// Messages up to the first that `match` accepts (the others are kept for receive()).
  std::optional<json> wait_for(const std::function<bool(const json&)>& match,
                               std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    for (auto it = queued_.begin(); it != queued_.end(); ++it)
      if (match(*it)) {
        json message = std::move(*it);
        queued_.erase(it);
        return message;
      }
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      auto message = read_message(deadline);
      if (!message) return std::nullopt;
      if (match(*message)) return message;
      queued_.push_back(std::move(*message));
    }
    return std::nullopt;
  }
  /// The response to request `id` (result or error), the whole message.
  std::optional<json> response(std::int64_t id, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return wait_for([id](const json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); }, timeout);
  }
  /// A request's result; throws when the server answered with an error or not at all.
  json request(const std::string& method, json params) {
    const auto answer = response(send_request(method, std::move(params)));
    if (!answer) throw std::runtime_error("no response to " + method);
    if (answer->contains("error")) throw std::runtime_error(method + ": " + (*answer)["error"].dump());
    return (*answer)["result"];
  }
  std::optional<json> wait_for_notification(const std::string& method,
                                            std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return wait_for([&](const json& m) { return m.value("method", "") == method && !m.contains("id"); }, timeout);
  }
  /// The next publishDiagnostics of `uri`.
  std::optional<json> diagnostics_of(const std::string& uri, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return wait_for(
        [&](const json& m) {
          return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
        },
        timeout);
  }

  /// The initialize exchange of a client that supports what planlint offers.
  json initialize(json capabilities = nullptr, const std::string& root_uri = "") {
    if (capabilities.is_null())
      capabilities = {{"textDocument",
                       {{"publishDiagnostics", {{"relatedInformation", true}, {"codeDescriptionSupport", true}}},
                        {"hover", {{"contentFormat", {"markdown", "plaintext"}}}},
                        {"completion", {{"completionItem", {{"documentationFormat", {"markdown"}}}}}}}},
                      {"workspace", {{"didChangeWatchedFiles", {{"dynamicRegistration", true}}}}}};
    json params = {{"processId", ::getpid()}, {"capabilities", capabilities}};
    params["rootUri"] = root_uri.empty() ? json() : json(root_uri);
    json result = request("initialize", params);
    notify("initialized", json::object());
    return result;
  }

  void close_input() {
    if (in_ >= 0) ::close(in_);
    in_ = -1;
  }

  /// The server's exit status, once it ends (nullopt after `timeout`; -1: killed by a signal).
  std::optional<int> exit_status(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    if (status_) return status_;
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      int status = 0;
      const pid_t done = ::waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return status_;
      }
      ::usleep(2000);
    }
    return std::nullopt;
  }

  /// The server's resident memory now and at its peak, in KiB (/proc/PID/status).
  std::pair<long, long> rss_kib() const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    long now = -1, peak = -1;
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("VmRSS:", 0) == 0) now = std::stol(line.substr(6));
      if (line.rfind("VmHWM:", 0) == 0) peak = std::stol(line.substr(6));
    }
    return {now, peak};
  }

 private:
  /// Reads bytes until `buffer_` holds a whole frame or the deadline passes.
  std::optional<json> read_message(Clock::time_point deadline) {
    for (;;) {
      const std::size_t header_end = buffer_.find("\r\n\r\n");
      if (header_end != std::string::npos) {
        const std::size_t at = buffer_.find("Content-Length:");
        if (at == std::string::npos || at > header_end) throw std::runtime_error("a frame without Content-Length");
        const std::size_t length = std::stoul(buffer_.substr(at + 15, header_end - at - 15));
        if (buffer_.size() >= header_end + 4 + length) {
          json message = json::parse(buffer_.substr(header_end + 4, length));
          buffer_.erase(0, header_end + 4 + length);
          return message;
        }
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return std::nullopt;
      pollfd ready{out_, POLLIN, 0};
      if (::poll(&ready, 1, static_cast<int>(left)) <= 0) continue;
      char chunk[65536];
      const ssize_t n = ::read(out_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffer_;
  std::deque<json> queued_;
  std::int64_t next_id_ = 1;
  std::optional<int> status_;
};

/// Sends `count` didChange notifications of `uri` at once, each replacing the whole text with
/// `texts[i % texts.size()]` (versions `first_version` on), and waits for the diagnostics of
/// the last version: the server's resident memory then, in KiB (-1 when they never came).
inline long rss_after_changes(LspClient& server, const std::string& uri, const std::vector<std::string>& texts,
                              std::int64_t first_version, int count) {
  std::int64_t version = first_version;
  for (int i = 0; i < count; ++i, ++version)
    server.notify("textDocument/didChange",
                  {{"textDocument", {{"uri", uri}, {"version", version}}},
                   {"contentChanges", json::array({{{"text", texts[static_cast<std::size_t>(i) % texts.size()]}}})}});
  const std::int64_t last = version - 1;
  for (;;) {
    const auto published = server.diagnostics_of(uri, std::chrono::seconds(60));
    if (!published) return -1;
    if ((*published)["params"]["version"] == last) return server.rss_kib().first;
  }
}

#ifdef PLANLINT_BINARY
/// The command line of the built `planlint lsp`, with a fixed date for the staleness rules.
inline std::vector<std::string> planlint_lsp(std::vector<std::string> options = {}) {
  std::vector<std::string> argv = {PLANLINT_BINARY, "lsp", "--today", "2026-12-01"};
  argv.insert(argv.end(), options.begin(), options.end());
  return argv;
}
#endif

/// The rule ids of a publishDiagnostics notification's findings.
inline std::vector<std::string> codes(const json& published) {
  std::vector<std::string> out;
  for (const json& d : published["params"]["diagnostics"]) out.push_back(d["code"]);
  return out;
}

/// The published diagnostic of `rule`, or null.
inline json finding(const json& published, const std::string& rule) {
  for (const json& d : published["params"]["diagnostics"])
    if (d["code"] == rule) return d;
  return nullptr;
}

/// The labels of a completion result's items.
inline std::vector<std::string> labels(const json& completion) {
  std::vector<std::string> out;
  for (const json& item : completion["items"]) out.push_back(item["label"]);
  return out;
}

inline bool has(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

/// A `file:` URI of an absolute path of plain characters (the tests' scratch folders).
inline std::string file_uri(const std::string& path) { return "file://" + path; }

/// textDocument/didOpen's params.
inline json opened(const std::string& uri, const std::string& text, std::int64_t version = 1,
                   const std::string& language = "toml") {
  return {{"textDocument", {{"uri", uri}, {"languageId", language}, {"version", version}, {"text", text}}}};
}

inline json position(std::uint32_t line, std::uint32_t character) { return {{"line", line}, {"character", character}}; }
inline json range(std::uint32_t line, std::uint32_t start, std::uint32_t end_line, std::uint32_t end) {
  return {{"start", position(line, start)}, {"end", position(end_line, end)}};
}

}  // namespace planlint::test
