// `planlint lsp` and the documents an editor holds: debounced re-lints where the last version
// wins, the config and rule packs found as `check` finds them and re-read when they change,
// Markdown capacity docs, TOML errors, suppressions, and hover and completion beyond the
// editor's first session (the built binary over pipes).
#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "lsp_client.hpp"

using namespace planlint::test;

namespace {

/// A plan whose finding is the sparse peak `peak` on line 8 (0-based), the last line 16.
std::string plan_with_peak(std::string_view peak = "1979 TFLOPS") {
  return "[plan]\nname = \"p\"\nkind = \"training\"\nupdated = 2026-11-01\n\n"
         "[cluster]\ngpu = \"h100-sxm\"\ncount = 128\npeak = \"" +
         std::string(peak) +
         "\"\n\n[model]\nparams = \"7B\"\n\n[training]\ntokens = \"1T\"\nprecision = \"bf16\"\nmfu = \"40%\"\n";
}

json whole_text_change(const std::string& uri, std::int64_t version, const std::string& text) {
  return {{"textDocument", {{"uri", uri}, {"version", version}}}, {"contentChanges", json::array({{{"text", text}}})}};
}

void end_session(LspClient& server) {
  CHECK(server.request("shutdown", nullptr).is_null());
  server.notify("exit", nullptr);
  CHECK(server.exit_status() == 0);
}

}  // namespace

TEST_CASE("lsp: rapid edits are linted once, debounced, and the last version wins", "[lsp]") {
  Scratch dir;
  const std::string uri = file_uri(dir.write("plan.toml", "").string());
  LspClient server(planlint_lsp({"--debounce", "300"}));
  server.initialize();
  server.notify("textDocument/didOpen", opened(uri, plan_with_peak()));
  const auto first = server.diagnostics_of(uri);
  REQUIRE(first);
  CHECK(has(codes(*first), "sparse-peak"));

  // Twenty versions, alternating the sparse and the dense peak; the last has the dense one.
  for (int version = 2; version <= 21; ++version)
    server.notify("textDocument/didChange",
                  whole_text_change(uri, version, plan_with_peak(version % 2 ? "989 TFLOPS" : "1979 TFLOPS")));
  const auto last = server.diagnostics_of(uri);
  REQUIRE(last);
  CHECK((*last)["params"]["version"] == 21);
  CHECK_FALSE(has(codes(*last), "sparse-peak"));
  // Nothing of an older version follows.
  CHECK_FALSE(server.diagnostics_of(uri, std::chrono::milliseconds(700)));

  // A save lints at once, without waiting for the debounce.
  server.notify("textDocument/didChange", whole_text_change(uri, 22, plan_with_peak()));
  server.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
  const auto saved = server.diagnostics_of(uri);
  REQUIRE(saved);
  CHECK((*saved)["params"]["version"] == 22);
  CHECK(has(codes(*saved), "sparse-peak"));

  // A closed document's findings go with it.
  server.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  const auto closed = server.diagnostics_of(uri);
  REQUIRE(closed);
  CHECK((*closed)["params"]["diagnostics"].empty());
  end_session(server);
}

TEST_CASE("lsp: the nearest .planlint.toml configures a document, and a change to it or its rule pack re-lints", "[lsp]") {
  Scratch dir;
  dir.write(".planlint.toml", "[lint]\nrules = [\"policies/\"]\n");
  const std::string pack =
      "id = \"org-named-owner\"\ngroup = \"governance\"\nseverity = \"error\"\n"
      "summary = \"A plan names its owner\"\ncheck = \"exists(plan.owner)\"\nat = \"plan.name\"\n"
      "message = \"plan '{plan.name}' has no owner\"\nhelp = \"add plan.owner\"\n"
      "docs = \"\"\"\n## What it does\nAsks for an owner.\n## Why is this bad?\nNo one answers for it.\n"
      "## Example\nNo owner.\n## Use instead\nowner = \\\"team\\\".\n## References\nChecklist.\n\"\"\"\n";
  const auto pack_path = dir.write("policies/owner.toml", pack);
  const std::string uri = file_uri(dir.write("team/plan.toml", "").string());

  LspClient server(planlint_lsp());
  server.initialize(nullptr, file_uri(dir.path.string()));
  server.notify("textDocument/didOpen", opened(uri, plan_with_peak("989 TFLOPS")));
  auto published = server.diagnostics_of(uri);
  REQUIRE(published);
  INFO(published->dump(1));
  const json owner = finding(*published, "org-named-owner");
  REQUIRE(owner.is_object());
  CHECK(owner["severity"] == 1);
  // A pack's rule links to its own file.
  CHECK(owner["codeDescription"]["href"] == file_uri(fs::weakly_canonical(pack_path).string()));

  SECTION("the rule pack changes: the open document is linted with the new rule") {
    std::string warning = pack;
    warning.replace(warning.find("\"error\""), 7, "\"warning\"");
    dir.write("policies/owner.toml", warning);
    server.notify("workspace/didChangeWatchedFiles",
                  {{"changes", json::array({{{"uri", file_uri(pack_path.string())}, {"type", 2}}})}});
    published = server.diagnostics_of(uri);
    REQUIRE(published);
    INFO(published->dump(1));
    CHECK(finding(*published, "org-named-owner")["severity"] == 2);
  }
  SECTION("the config changes: the open document is linted with the new one") {
    dir.write(".planlint.toml", "[lint]\nrules = [\"policies/\"]\nignore = [\"org-named-owner\"]\n");
    server.notify("workspace/didChangeWatchedFiles",
                  {{"changes", json::array({{{"uri", file_uri((dir.path / ".planlint.toml").string())}, {"type", 2}}})}});
    published = server.diagnostics_of(uri);
    REQUIRE(published);
    CHECK_FALSE(has(codes(*published), "org-named-owner"));
  }
  SECTION("an invalid config is one finding at the top, naming the config's problem") {
    dir.write(".planlint.toml", "[lint]\nrules = [\"policies/\"]\nignore = [\"org-named-ownr\"]\n");
    server.notify("workspace/didChangeWatchedFiles",
                  {{"changes", json::array({{{"uri", file_uri((dir.path / ".planlint.toml").string())}, {"type", 2}}})}});
    published = server.diagnostics_of(uri);
    REQUIRE(published);
    INFO(published->dump(1));
    REQUIRE((*published)["params"]["diagnostics"].size() == 1);
    const json& d = (*published)["params"]["diagnostics"][0];
    CHECK(d["range"]["start"] == position(0, 0));
    CHECK(d["message"].get<std::string>().find("invalid config") != std::string::npos);
    REQUIRE(d["relatedInformation"].size() == 1);
    CHECK(d["relatedInformation"][0]["message"].get<std::string>().find("did you mean 'org-named-owner'?") !=
          std::string::npos);
  }
  end_session(server);
}

TEST_CASE("lsp: Markdown capacity docs, TOML errors and suppressions", "[lsp]") {
  Scratch dir;
  LspClient server(planlint_lsp());
  server.initialize();

  SECTION("a Markdown doc's ```toml block is linted at its lines in the doc") {
    const std::string uri = file_uri(dir.write("capacity.md", "").string());
    const std::string doc = "# Capacity – Q1\n\nThe plan:\n\n```toml\n" + plan_with_peak() + "```\n";
    server.notify("textDocument/didOpen", opened(uri, doc, 1, "markdown"));
    const auto published = server.diagnostics_of(uri);
    REQUIRE(published);
    INFO(published->dump(1));
    // The block's line 9 (0-based 8), the doc's 14: peak = "1979 TFLOPS".
    CHECK(finding(*published, "sparse-peak")["range"] == range(13, 7, 13, 20));
    const json hovered = server.request("textDocument/hover", {{"textDocument", {{"uri", uri}}}, {"position", position(12, 9)}});
    REQUIRE(hovered.is_object());
    CHECK(hovered["contents"]["value"].get<std::string>().find("128 GPUs") != std::string::npos);
  }
  SECTION("a plan that is not valid TOML reports the error at its place") {
    const std::string uri = file_uri(dir.write("broken.toml", "").string());
    server.notify("textDocument/didOpen", opened(uri, "[plan]\nname = \"b\"\nkind = \"training\n"));
    const auto published = server.diagnostics_of(uri);
    REQUIRE(published);
    INFO(published->dump(1));
    REQUIRE(has(codes(*published), "toml-syntax"));
    CHECK((*published)["params"]["diagnostics"][0]["range"]["start"]["line"] == 2);
  }
  SECTION("a suppressed finding is not shown; the suppression's reason is required") {
    const std::string uri = file_uri(dir.write("allowed.toml", "").string());
    std::string text = plan_with_peak();
    text.replace(text.find("peak = \"1979 TFLOPS\"\n"), 21,
                 "peak = \"1979 TFLOPS\"  # planlint: allow sparse-peak -- vendor quote is sparse\n");
    server.notify("textDocument/didOpen", opened(uri, text));
    const auto published = server.diagnostics_of(uri);
    REQUIRE(published);
    INFO(published->dump(1));
    CHECK_FALSE(has(codes(*published), "sparse-peak"));
  }
  SECTION("a TOML file that is no plan (no [plan] table) is passed over") {
    const std::string uri = file_uri(dir.write("pyproject.toml", "").string());
    server.notify("textDocument/didOpen", opened(uri, "[project]\nname = \"x\"\n"));
    const auto published = server.diagnostics_of(uri);
    REQUIRE(published);
    CHECK((*published)["params"]["diagnostics"].empty());
  }
  end_session(server);
}

TEST_CASE("lsp: hover on an [estimates] claim and completion of metrics and enum values", "[lsp]") {
  Scratch dir;
  const std::string uri = file_uri(dir.write("plan.toml", "").string());
  LspClient server(planlint_lsp());
  server.initialize();
  const std::string text = plan_with_peak("989 TFLOPS") + "\n[estimates]\n\"train.days\" = \"10 d\"\n\n";
  server.notify("textDocument/didOpen", opened(uri, text));
  const auto published = server.diagnostics_of(uri);
  REQUIRE(published);
  const std::uint32_t claim_line = 19;

  const json claim = server.request("textDocument/hover", {{"textDocument", {{"uri", uri}}}, {"position", position(claim_line, 3)}});
  REQUIRE(claim.is_object());
  const std::string shown = claim["contents"]["value"];
  INFO(shown);
  CHECK(shown.find("`train.days`") != std::string::npos);
  CHECK(shown.find("claimed **10 d**") != std::string::npos);
  CHECK(shown.find("+4.2% from planlint's value; cost tier, tolerance **30%**") != std::string::npos);

  const json metrics = server.request("textDocument/completion", {{"textDocument", {{"uri", uri}}}, {"position", position(claim_line + 1, 0)}});
  const auto metric_labels = labels(metrics);
  INFO(metrics.dump(1));
  CHECK(has(metric_labels, "train.gpu_hours"));
  CHECK_FALSE(has(metric_labels, "train.days"));  // claimed already

  server.notify("textDocument/didChange",
                {{"textDocument", {{"uri", uri}, {"version", 2}}},
                 {"contentChanges", json::array({{{"range", range(17, 0, 17, 0)}, {"text", "optimizer = \""}}})}});
  const json optimizers = server.request("textDocument/completion", {{"textDocument", {{"uri", uri}}}, {"position", position(17, 13)}});
  INFO(optimizers.dump(1));
  CHECK(has(labels(optimizers), "adam"));

  // A claim in another dimension is a bad value (the loader's error), with no percentage from the
  // metric in its hover.
  const std::string other_uri = file_uri(dir.write("other.toml", "").string());
  server.notify("textDocument/didOpen",
                opened(other_uri, plan_with_peak("989 TFLOPS") + "\n[estimates]\n\"train.days\" = \"10 GB\"\n\n"));
  REQUIRE(server.diagnostics_of(other_uri));
  const json wrong = server.request("textDocument/hover", {{"textDocument", {{"uri", other_uri}}}, {"position", position(claim_line, 3)}});
  REQUIRE(wrong.is_object());
  const std::string wrong_shown = wrong["contents"]["value"];
  INFO(wrong_shown);
  CHECK(wrong_shown.find("`train.days`") != std::string::npos);
  CHECK(wrong_shown.find("from planlint's value") == std::string::npos);
  end_session(server);
}
