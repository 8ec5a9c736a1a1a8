// `planlint lsp` given what a broken or hostile client sends: every message gets the JSON-RPC
// error the protocol defines, and the server goes on serving (the built binary over pipes).
#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "lsp_client.hpp"

using namespace planlint::test;

namespace {

/// The next message, which must be an error response: its id and error.
json next_error(LspClient& server) {
  const auto message = server.wait_for([](const json& m) { return m.contains("error"); });
  REQUIRE(message);
  return *message;
}

/// The server still answers: a request it knows gets its result.
void still_serving(LspClient& server) {
  const auto id = server.send_request("textDocument/hover", {{"textDocument", {{"uri", "file:///nowhere.toml"}}},
                                                             {"position", position(0, 0)}});
  const auto answer = server.response(id);
  REQUIRE(answer);
  CHECK(answer->contains("result"));
}

}  // namespace

TEST_CASE("lsp: malformed JSON-RPC, unknown methods and huge messages get the protocol's errors", "[lsp]") {
  LspClient server(planlint_lsp({"--max-message-size", "4KiB"}));

  SECTION("a request before initialize is ServerNotInitialized") {
    const auto id = server.send_request("textDocument/hover", json::object());
    const auto answer = server.response(id);
    REQUIRE(answer);
    CHECK((*answer)["error"]["code"] == -32002);
  }

  server.initialize();

  SECTION("text that is not JSON is ParseError, with a null id") {
    REQUIRE(server.write_frame(R"({"jsonrpc":"2.0","id":7,"method":)"));
    const json error = next_error(server);
    CHECK(error["id"].is_null());
    CHECK(error["error"]["code"] == -32700);
    CHECK(error["error"]["message"].get<std::string>().find("not valid JSON") != std::string::npos);
  }
  SECTION("nesting deep enough to exhaust a recursive parser is ParseError") {
    REQUIRE(server.write_frame(std::string(1000, '[') + std::string(1000, ']')));
    CHECK(next_error(server)["error"]["code"] == -32700);
  }
  SECTION("JSON that is not a JSON-RPC message is InvalidRequest, with its id when it has one") {
    REQUIRE(server.write_frame(R"({"id":3,"method":"shutdown"})"));  // no "jsonrpc": "2.0"
    json error = next_error(server);
    CHECK(error["id"] == 3);
    CHECK(error["error"]["code"] == -32600);
    REQUIRE(server.write_frame(R"([{"jsonrpc":"2.0","id":4,"method":"shutdown"}])"));  // a batch
    error = next_error(server);
    CHECK(error["id"].is_null());
    CHECK(error["error"]["code"] == -32600);
    REQUIRE(server.write_frame(R"({"jsonrpc":"2.0","id":5,"method":42})"));
    error = next_error(server);
    CHECK(error["id"] == 5);
    CHECK(error["error"]["code"] == -32600);
    REQUIRE(server.write_frame(R"({"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"})"));
    CHECK(next_error(server)["error"]["code"] == -32600);
  }
  SECTION("an unknown method is MethodNotFound; an unknown notification is ignored") {
    server.notify("planlint/unheard-of", json::object());
    const auto id = server.send_request("textDocument/semanticTokens/full", {{"textDocument", {{"uri", "file:///a.toml"}}}});
    const auto answer = server.response(id);
    REQUIRE(answer);
    CHECK((*answer)["error"]["code"] == -32601);
    CHECK((*answer)["error"]["message"].get<std::string>().find("semanticTokens") != std::string::npos);
  }
  SECTION("params of the wrong shape are InvalidParams") {
    const auto id = server.send_request("textDocument/hover", {{"textDocument", 12}});
    const auto answer = server.response(id);
    REQUIRE(answer);
    CHECK((*answer)["error"]["code"] == -32602);
  }
  SECTION("a message over the size limit is answered, with its id, and read through") {
    const json huge = {{"jsonrpc", "2.0"},
                       {"id", 9},
                       {"method", "textDocument/hover"},
                       {"params", {{"padding", std::string(64 * 1024, 'x')}}}};
    REQUIRE(server.send(huge));
    const json error = next_error(server);
    CHECK(error["id"] == 9);
    CHECK(error["error"]["code"] == -32600);
    const std::string message = error["error"]["message"];
    CHECK(message.find("over planlint lsp's limit of 4 KiB") != std::string::npos);
    CHECK(message.find("--max-message-size") != std::string::npos);
  }
  SECTION("a didOpen over the size limit: the document says why it is not linted") {
    const std::string uri = "file:///tmp/planlint-lsp-huge/plan.toml";
    REQUIRE(server.send({{"jsonrpc", "2.0"},
                         {"method", "textDocument/didOpen"},
                         {"params", opened(uri, "[plan]\nname = \"" + std::string(8 * 1024, 'n') + "\"\n")}}));
    const auto shown = server.wait_for_notification("window/showMessage");
    REQUIRE(shown);
    CHECK((*shown)["params"]["type"] == 1);
    const auto published = server.diagnostics_of(uri);
    REQUIRE(published);
    REQUIRE((*published)["params"]["diagnostics"].size() == 1);
    CHECK((*published)["params"]["diagnostics"][0]["message"].get<std::string>().find("over planlint lsp's limit") !=
          std::string::npos);
  }
  SECTION("a header without Content-Length is ParseError, and the next frame is read") {
    REQUIRE(server.write_raw("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"));
    CHECK(next_error(server)["error"]["code"] == -32700);
    REQUIRE(server.write_raw("Content-Length: twelve\r\n\r\n"));
    CHECK(next_error(server)["error"]["message"].get<std::string>().find("Content-Length") != std::string::npos);
  }

  still_serving(server);
  CHECK(server.request("shutdown", nullptr).is_null());
  // After shutdown, every request but exit is InvalidRequest.
  const auto late = server.response(server.send_request("textDocument/hover", json::object()));
  REQUIRE(late);
  CHECK((*late)["error"]["code"] == -32600);
  server.notify("exit", nullptr);
  CHECK(server.exit_status() == 0);
}

TEST_CASE("lsp: exit without shutdown, or the client going away, ends the server with status 1", "[lsp]") {
  SECTION("exit without shutdown") {
    LspClient server(planlint_lsp());
    server.initialize();
    server.notify("exit", nullptr);
    CHECK(server.exit_status() == 1);
  }
  SECTION("the input ends") {
    LspClient server(planlint_lsp());
    server.initialize();
    server.close_input();
    CHECK(server.exit_status() == 1);
  }
  SECTION("the input ends inside a message") {
    LspClient server(planlint_lsp());
    REQUIRE(server.write_raw("Content-Length: 100\r\n\r\n{\"jsonrpc\""));
    server.close_input();
    CHECK(server.exit_status() == 1);
  }
}

TEST_CASE("lsp: --log writes a line per message with the client's text escaped, and is off by default", "[lsp]") {
  Scratch dir;
  const std::string log_path = (dir.path / "stderr.txt").string();
  {
    LspClient server(planlint_lsp({"--log"}), log_path);
    server.initialize();
    const auto id = server.send_request("evil/\x1b[31m\u202e", json::object());
    REQUIRE(server.response(id));
    server.request("shutdown", nullptr);
    server.notify("exit", nullptr);
    REQUIRE(server.exit_status() == 0);
  }
  const std::string log = read_text(log_path);
  CHECK(log.find("planlint lsp: \"initialize\"") != std::string::npos);
  CHECK(log.find("\\u001b[31m\\u202e") != std::string::npos);
  CHECK(log.find('\x1b') == std::string::npos);

  const std::string quiet_path = (dir.path / "quiet.txt").string();
  {
    LspClient server(planlint_lsp(), quiet_path);
    server.initialize();
    server.request("shutdown", nullptr);
    server.notify("exit", nullptr);
    REQUIRE(server.exit_status() == 0);
  }
  CHECK(read_text(quiet_path).empty());
}
