// libFuzzer target: `planlint lsp` given arbitrary bytes as its input stream. The server reads
// them as an editor's messages (the Content-Length framing, the JSON-RPC decoding with its
// limits) and dispatches what decodes (initialize, didOpen and the lint it starts, hover,
// completion, code actions, ...). The input is also decoded on its own as one message's content,
// with limits small enough for the fuzzer's inputs to cross them. Besides crashes, sanitizer
// reports and libFuzzer's memory limit, it checks that every frame the server writes is whole,
// its Content-Length that of its content, and its content a JSON-RPC 2.0 message.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "planlint/lsp/jsonrpc.hpp"
#include "planlint/lsp/server.hpp"

using namespace planlint;

namespace {

/// A file in memory holding `bytes`, read from its start.
int memory_file(std::string_view bytes) {
  const int fd = ::memfd_create("fuzz_lsp_message", 0);
  if (fd < 0) std::abort();
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) std::abort();
    done += static_cast<std::size_t>(n);
  }
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

std::string read_all(int fd) {
  ::lseek(fd, 0, SEEK_SET);
  std::string text;
  char chunk[65536];
  for (ssize_t n; (n = ::read(fd, chunk, sizeof chunk)) > 0;) text.append(chunk, static_cast<std::size_t>(n));
  return text;
}

/// A JSON-RPC 2.0 message as the server may write one: a response (an id, and a result or an
/// error with an integer code and a message), a notification or a request.
void check_message(const nlohmann::json& message) {
  if (!message.is_object() || message.value("jsonrpc", "") != "2.0") std::abort();
  if (message.contains("method")) {
    if (!message["method"].is_string()) std::abort();
    return;
  }
  if (!message.contains("id") || (message.contains("result") == message.contains("error"))) std::abort();
  if (message.contains("error")) {
    const nlohmann::json& error = message["error"];
    if (!error.is_object() || !error["code"].is_number_integer() || !error["message"].is_string()) std::abort();
  }
}

/// Every frame of the server's output: "Content-Length: N\r\n\r\n" and N bytes of a message.
void check_output(std::string_view out) {
  constexpr std::string_view header = "Content-Length: ";
  while (!out.empty()) {
    if (!out.starts_with(header)) std::abort();
    out.remove_prefix(header.size());
    const std::size_t end = out.find("\r\n\r\n");
    if (end == std::string_view::npos) std::abort();
    std::size_t length = 0;
    for (const char c : out.substr(0, end)) {
      if (c < '0' || c > '9') std::abort();
      length = length * 10 + static_cast<std::size_t>(c - '0');
    }
    out.remove_prefix(end + 4);
    if (length > out.size()) std::abort();
    const nlohmann::json message = nlohmann::json::parse(out.substr(0, length), nullptr, false);
    if (message.is_discarded()) std::abort();
    check_message(message);
    out.remove_prefix(length);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  // One message's content, under limits the fuzzer's small inputs can cross.
  const lsp::Decoded decoded = lsp::decode(bytes, lsp::JsonLimits{16, 15, 256});
  if (decoded.message.has_value() == decoded.error_response.has_value()) std::abort();
  if (decoded.error_response) check_message(nlohmann::json::parse(lsp::serialize(*decoded.error_response)));
  if (decoded.refused && !decoded.error_response) std::abort();

  // The stream, served: no config is looked for (a URI names any path), no debounce, and a
  // message limit the fuzzer's inputs can cross.
  lsp::ServerOptions options;
  options.config = "/dev/null";
  options.today = parse_date("2026-12-01");
  options.debounce = std::chrono::milliseconds(0);
  options.max_message_bytes = 1024;
  const int in = memory_file(bytes);
  const int out = memory_file("");
  const int status = lsp::serve(options, in, out, nullptr);
  if (status != 0 && status != 1) std::abort();
  check_output(read_all(out));
  ::close(in);
  ::close(out);
  return 0;
}
