// `planlint lsp` reads the TOML around the cursor through the lexer (source/toml_lexer.hpp): a
// '[' or '=' inside a string, a quoted key or a multi-line string is not a header or a key's.
#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "lsp_client.hpp"

using namespace planlint::test;

TEST_CASE("lsp: completion reads headers and keys as TOML does, not inside strings", "[lsp][toml-lexer]") {
  Scratch dir;
  const std::string uri = file_uri(dir.write("plan.toml", "").string());
  LspClient server(planlint_lsp());
  server.initialize();
  // Line 4 starts with '[' inside a multi-line string; line 7 is [cluster]'s `count`, with a
  // quoted key holding '=' before it.
  const std::string text =
      "[plan]\nname = \"n\"\nkind = \"training\"\nnotes = \"\"\"\n[clu\n\"\"\"\n[cluster]\n\"a=b\" = 1\ncount = 8\n\n";
  server.notify("textDocument/didOpen", opened(uri, text));
  REQUIRE(server.diagnostics_of(uri));

  // Inside the string: no section names.
  const json in_string = server.request("textDocument/completion", {{"textDocument", {{"uri", uri}}}, {"position", position(4, 4)}});
  INFO(in_string.dump(1));
  CHECK_FALSE(has(labels(in_string), "cluster"));

  // A new line of [cluster]: its keys but the stated `count`.
  const json keys = server.request("textDocument/completion", {{"textDocument", {{"uri", uri}}}, {"position", position(9, 0)}});
  INFO(keys.dump(1));
  CHECK(has(labels(keys), "gpu"));
  CHECK_FALSE(has(labels(keys), "count"));

  CHECK(server.request("shutdown", nullptr).is_null());
  server.notify("exit", nullptr);
  CHECK(server.exit_status() == 0);
}
