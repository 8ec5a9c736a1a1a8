// `planlint lsp` as an editor drives it: the built binary started as a child process, framed
// JSON-RPC written to its stdin and read from its stdout (tests/lsp/lsp_client.hpp).
#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "lsp_client.hpp"
#include "planlint/plan/key_docs.hpp"
#include "planlint/plan/schema.hpp"

using namespace planlint::test;

namespace {

/// A plan with a sparse peak and a misspelt key on one line, after a non-ASCII character (·,
/// two bytes of UTF-8 and one UTF-16 unit): the LSP columns of both differ from their bytes.
const std::string plan_text =
    "cluster = { gpu = \"h100-sxm\", count = 128, price = \"$3/GPU\u00b7h\", peak = \"1979 TFLOPS\", hmb = \"80 GB\" }\n"
    "\n"
    "[plan]\n"
    "name = \"d\u00e9mo \U0001F999\"\n"
    "kind = \"training\"\n"
    "updated = 2026-11-01\n"
    "\n"
    "[model]\n"
    "params = \"7B\"\n"
    "\n"
    "[training]\n"
    "tokens = \"1T\"\n"
    "precision = \"bf16\"\n"
    "mfu = \"40%\"\n";

}  // namespace

TEST_CASE("an editor's session: diagnostics in UTF-16, the fix applied, hover, completion, shutdown", "[lsp]") {
  Scratch dir;
  const std::string uri = file_uri(dir.write("plan.toml", "").string());
  LspClient server(planlint_lsp());
  const json init = server.initialize();
  CHECK(init["capabilities"]["positionEncoding"] == "utf-16");
  CHECK(init["serverInfo"]["name"] == "planlint");

  server.notify("textDocument/didOpen", opened(uri, plan_text));
  const auto published = server.diagnostics_of(uri);
  REQUIRE(published);
  CHECK((*published)["params"]["version"] == 1);
  INFO(published->dump(1));
  // Line 0: the peak's value starts after 70 UTF-16 units (71 bytes: '·' is two), the key hmb
  // after 85.
  const json peak = finding(*published, "sparse-peak");
  REQUIRE(peak.is_object());
  CHECK(peak["range"] == range(0, 70, 0, 83));
  CHECK(peak["severity"] == 1);
  CHECK(peak["source"] == "planlint");
  CHECK(peak["codeDescription"]["href"].get<std::string>().ends_with("/docs/rules/sparse-peak.md"));
  CHECK(peak["message"].get<std::string>().find("help: use the dense peak: peak = \"989 TFLOPS\"") != std::string::npos);
  REQUIRE(peak["relatedInformation"].size() == 1);
  CHECK(peak["relatedInformation"][0]["location"]["uri"] == uri);
  CHECK(peak["relatedInformation"][0]["location"]["range"] == range(12, 12, 12, 18));  // precision = "bf16"
  const json key = finding(*published, "unknown-key");
  REQUIRE(key.is_object());
  CHECK(key["range"] == range(0, 85, 0, 88));
  CHECK(key["message"].get<std::string>().find("did you mean 'hbm'?") != std::string::npos);

  SECTION("hover: the catalog's figures on the peak, the GPU-hours arithmetic on count") {
    const json on_peak = server.request("textDocument/hover", {{"textDocument", {{"uri", uri}}}, {"position", position(0, 75)}});
    REQUIRE(on_peak.is_object());
    const std::string peak_text = on_peak["contents"]["value"];
    INFO(peak_text);
    CHECK(on_peak["contents"]["kind"] == "markdown");
    CHECK(on_peak["range"] == range(0, 70, 0, 83));
    CHECK(peak_text.find("bf16 dense 989 TFLOPS, sparse (2:4) 1979 TFLOPS") != std::string::npos);
    CHECK(peak_text.find("NVIDIA H100 SXM5 80GB") != std::string::npos);
    // The figures are those once sparse-peak's fix is in place, as the findings' are.
    CHECK(peak_text.find("once cluster.peak is 989 TFLOPS:") != std::string::npos);
    CHECK(peak_text.find("4.2e22 FLOP / (989 TFLOPS × 40%) = 29.5K GPU·h") != std::string::npos);

    const json on_count = server.request("textDocument/hover", {{"textDocument", {{"uri", uri}}}, {"position", position(0, 32)}});
    REQUIRE(on_count.is_object());
    const std::string count_text = on_count["contents"]["value"];
    INFO(count_text);
    CHECK(count_text.find("`cluster.count` = **128 GPUs**") != std::string::npos);
    CHECK(count_text.find("`train.days` = **9\\.6 d**") != std::string::npos);
    CHECK(count_text.find("`29.5K GPU·h / 128 GPUs / 24 = 9.6 d`") != std::string::npos);
  }

  SECTION("the dense-peak fix, applied as the editor applies it, clears that finding only") {
    const json actions = server.request(
        "textDocument/codeAction",
        {{"textDocument", {{"uri", uri}}}, {"range", range(0, 75, 0, 75)}, {"context", {{"diagnostics", json::array()}}}});
    INFO(actions.dump(1));
    REQUIRE(actions.is_array());
    REQUIRE(actions.size() >= 2);
    const json& fix = actions[0];
    CHECK(fix["kind"] == "quickfix");
    CHECK(fix["isPreferred"] == true);
    CHECK(fix["diagnostics"][0]["code"] == "sparse-peak");
    const json edits = fix["edit"]["changes"][uri];
    REQUIRE(edits.size() == 1);
    CHECK(edits[0]["range"] == range(0, 70, 0, 83));
    CHECK(edits[0]["newText"] == "\"989 TFLOPS\"");
    // The suppression comment for the author to give a reason.
    CHECK(actions[1]["title"] == "Suppress sparse-peak on this line, with a reason");
    CHECK(actions[1]["edit"]["changes"][uri][0]["newText"] == "  # planlint: allow sparse-peak -- ");

    server.notify("textDocument/didChange",
                  {{"textDocument", {{"uri", uri}, {"version", 2}}},
                   {"contentChanges", json::array({{{"range", edits[0]["range"]}, {"text", edits[0]["newText"]}}})}});
    const auto after = server.diagnostics_of(uri);
    REQUIRE(after);
    INFO(after->dump(1));
    CHECK((*after)["params"]["version"] == 2);
    CHECK_FALSE(has(codes(*after), "sparse-peak"));
    CHECK(finding(*after, "unknown-key")["range"] == range(0, 84, 0, 87));  // one character fewer before it
  }

  SECTION("completion: the keys of [cluster], and after gpu = \" the catalog's ids") {
    const std::string other = file_uri(dir.write("new.toml", "").string());
    server.notify("textDocument/didOpen", opened(other, "[plan]\nname = \"n\"\nkind = \"training\"\n\n[cluster]\n\n"));
    const json keys = server.request("textDocument/completion", {{"textDocument", {{"uri", other}}}, {"position", position(5, 0)}});
    const auto key_labels = labels(keys);
    INFO(keys.dump(1));
    CHECK(has(key_labels, "gpu"));
    CHECK(has(key_labels, "count"));
    CHECK(has(key_labels, "peak"));
    CHECK_FALSE(has(key_labels, "tokens"));  // [training]'s
    // A key's documentation is its row of plan-format.md's table: what it means, its default.
    REQUIRE(has(key_labels, "gpus_per_node"));
    const planlint::KeySpec& per_node = *planlint::find_key("cluster.gpus_per_node");
    for (const json& item : keys["items"])
      if (item["label"] == "gpus_per_node") {
        CHECK(item["documentation"]["kind"] == "markdown");
        CHECK(item["documentation"]["value"] ==
              std::string(per_node.reference()) + "\n\nDefault: " + planlint::default_text(per_node));
      }

    server.notify("textDocument/didChange", {{"textDocument", {{"uri", other}, {"version", 2}}},
                                             {"contentChanges", json::array({{{"range", range(5, 0, 5, 0)}, {"text", "gpu = \"\""}}})}});
    const json ids = server.request("textDocument/completion", {{"textDocument", {{"uri", other}}}, {"position", position(5, 7)}});
    INFO(ids.dump(1));
    const auto id_labels = labels(ids);
    CHECK(has(id_labels, "h100-sxm"));
    CHECK(has(id_labels, "a100-sxm"));
    for (const json& item : ids["items"])
      if (item["label"] == "h100-sxm") {
        CHECK(item["textEdit"]["newText"] == "h100-sxm");  // the editor closed the quote already
        CHECK(item["textEdit"]["range"] == range(5, 7, 5, 7));
      }
  }

  const json shutdown = server.request("shutdown", nullptr);
  CHECK(shutdown.is_null());
  server.notify("exit", nullptr);
  CHECK(server.exit_status() == 0);
}
