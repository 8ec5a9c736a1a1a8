// `planlint lsp` as a plan is written in it: completion in a new document and above [plan],
// short hovers with plain links, a document that is not TOML, the unsafe "set the claim to
// planlint's value" fix, and "fix all" (source.fixAll) against what `check --fix` writes (the
// built binary over pipes, as an editor drives it).
#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "lsp_client.hpp"

using namespace planlint::test;

namespace {

/// A plan whose sparse peak is on line 8 (0-based), with `extra` at its end.
std::string plan_with(std::string_view peak, std::string_view extra = "") {
  return "[plan]\nname = \"p\"\nkind = \"training\"\nupdated = 2026-11-01\n\n"
         "[cluster]\ngpu = \"h100-sxm\"\ncount = 128\npeak = \"" +
         std::string(peak) + "\"\n\n[model]\nparams = \"7B\"\n\n[training]\ntokens = \"1T\"\nprecision = \"bf16\"\nmfu = \"40%\"\n" +
         std::string(extra);
}

json whole_text_change(const std::string& uri, std::int64_t version, const std::string& text) {
  return {{"textDocument", {{"uri", uri}, {"version", version}}}, {"contentChanges", json::array({{{"text", text}}})}};
}

json completion_at(LspClient& server, const std::string& uri, std::uint32_t line, std::uint32_t character) {
  return server.request("textDocument/completion", {{"textDocument", {{"uri", uri}}}, {"position", position(line, character)}});
}

std::string hover_text(LspClient& server, const std::string& uri, std::uint32_t line, std::uint32_t character) {
  const json hovered = server.request("textDocument/hover", {{"textDocument", {{"uri", uri}}}, {"position", position(line, character)}});
  REQUIRE(hovered.is_object());
  return hovered["contents"]["value"];
}

/// The byte offset of an LSP position in ASCII `text` (a UTF-16 unit is a byte there).
std::size_t offset_of(const std::string& text, const json& at) {
  std::size_t offset = 0;
  for (int line = 0; line < at["line"].get<int>(); ++line) offset = text.find('\n', offset) + 1;
  return offset + at["character"].get<std::size_t>();
}

/// `text` with a WorkspaceEdit's edits of `uri` made, as an editor makes them: each range is
/// of the text before any of them.
std::string apply(std::string text, const json& edit, const std::string& uri) {
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> edits;
  for (const json& e : edit["changes"][uri])
    edits.emplace_back(offset_of(text, e["range"]["start"]), offset_of(text, e["range"]["end"]), e["newText"]);
  std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
  for (const auto& [begin, end, replacement] : edits) text.replace(begin, end - begin, replacement);
  return text;
}

/// The code actions `server` offers at a place of `text`, opened as `uri`, whose findings include
/// one of `rule`'s.
json actions_at(LspClient& server, const std::string& uri, const std::string& text, std::string_view rule,
                std::uint32_t line, std::uint32_t character) {
  server.notify("textDocument/didOpen", opened(uri, text));
  const auto published = server.diagnostics_of(uri);
  REQUIRE(published);
  REQUIRE(has(codes(*published), std::string(rule)));
  const json actions = server.request("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                                                  {"range", range(line, character, line, character)},
                                                                  {"context", {{"diagnostics", json::array()}}}});
  REQUIRE(actions.is_array());
  return actions;
}

void end_session(LspClient& server) {
  CHECK(server.request("shutdown", nullptr).is_null());
  server.notify("exit", nullptr);
  CHECK(server.exit_status() == 0);
}

}  // namespace

TEST_CASE("lsp: completion offers the sections in a new document, after an opening bracket and above the plan table, not those written", "[lsp]") {
  Scratch dir;
  LspClient server(planlint_lsp());
  server.initialize();
  const std::string uri = file_uri(dir.write("new.toml", "").string());

  SECTION("an empty document: every section, [plan] among them, as a header") {
    server.notify("textDocument/didOpen", opened(uri, ""));
    const json items = completion_at(server, uri, 0, 0);
    INFO(items.dump(1));
    const auto shown = labels(items);
    CHECK(has(shown, "[plan]"));
    CHECK(has(shown, "[model]"));
    CHECK(has(shown, "[[targets]]"));
    for (const json& item : items["items"])
      if (item["label"] == "[plan]") CHECK(item["textEdit"]["newText"] == "[plan]");
  }
  SECTION("a document of just '[': the section names, closed") {
    server.notify("textDocument/didOpen", opened(uri, "["));
    const json items = completion_at(server, uri, 0, 1);
    INFO(items.dump(1));
    const auto shown = labels(items);
    CHECK(has(shown, "plan"));
    CHECK(has(shown, "cluster"));
    CHECK_FALSE(has(shown, "targets"));  // an array of tables opens with [[
    for (const json& item : items["items"])
      if (item["label"] == "plan") CHECK(item["textEdit"]["newText"] == "plan]");
  }
  SECTION("'[' offers no section the plan has already, wherever it is written") {
    const std::string text = "[\n\n[plan]\nname = \"n\"\nkind = \"training\"\n\n[model]\nparams = \"7B\"\n";
    server.notify("textDocument/didOpen", opened(uri, text));
    const auto shown = labels(completion_at(server, uri, 0, 1));
    CHECK_FALSE(has(shown, "plan"));
    CHECK_FALSE(has(shown, "model"));
    CHECK(has(shown, "cluster"));
    CHECK(has(shown, "training"));
  }
  SECTION("above [plan], the headers the plan does not have yet") {
    const std::string text = "\n[plan]\nname = \"n\"\nkind = \"training\"\n";
    server.notify("textDocument/didOpen", opened(uri, text));
    const auto shown = labels(completion_at(server, uri, 0, 0));
    CHECK_FALSE(has(shown, "[plan]"));
    CHECK(has(shown, "[cluster]"));
    CHECK(has(shown, "[[assumptions]]"));
  }
  SECTION("a TOML file of another tool still gets none") {
    server.notify("textDocument/didOpen", opened(uri, "[project]\nname = \"x\"\n\n"));
    CHECK(completion_at(server, uri, 2, 0)["items"].empty());
  }
  end_session(server);
}

TEST_CASE("lsp: a document that is not TOML gets the toml-syntax finding check gives", "[lsp]") {
  Scratch dir;
  const std::string text = "capacity for Q1:\nthis is not TOML\n";
  const fs::path path = dir.write("notes.toml", text);
  std::string output;
  CHECK(run_command(fmt::format("{} check --format json {}", quote(PLANLINT_BINARY), quote(path.string())), output) == 1);
  const json checked = json::parse(output);
  REQUIRE(checked["diagnostics"].size() == 1);
  const json& expected = checked["diagnostics"][0];
  REQUIRE(expected["rule"] == "toml-syntax");

  LspClient server(planlint_lsp());
  server.initialize();
  const std::string uri = file_uri(path.string());
  server.notify("textDocument/didOpen", opened(uri, text));
  const auto published = server.diagnostics_of(uri);
  REQUIRE(published);
  INFO(published->dump(1));
  const json syntax = finding(*published, "toml-syntax");
  REQUIRE(syntax.is_object());
  CHECK(syntax["severity"] == 1);
  CHECK(syntax["range"]["start"]["line"] == expected["line"].get<int>() - 1);
  CHECK(syntax["message"].get<std::string>().starts_with(expected["message"].get<std::string>()));
  end_session(server);
}

TEST_CASE("lsp: a hover is short, the value and its arithmetic first, with plain links", "[lsp]") {
  Scratch dir;
  LspClient server(planlint_lsp());
  server.initialize();
  const std::string uri = file_uri(dir.write("plan.toml", "").string());
  const std::string text = plan_with("1979 TFLOPS", "\n[estimates]\n\"train.gpu_seconds\" = 5.3e7\n");
  server.notify("textDocument/didOpen", opened(uri, text));
  REQUIRE(server.diagnostics_of(uri));

  SECTION("on the peak: value, then the metric that reads it, then the catalog in a few lines") {
    const std::string shown = hover_text(server, uri, 8, 9);
    INFO(shown);
    CHECK(shown.starts_with("`cluster.peak` = **1979 TFLOPS**\n\n"));
    // The sparse peak is flagged: the figures are those once sparse-peak's fix is in place.
    CHECK(shown.find("once cluster.peak is 989 TFLOPS:") != std::string::npos);
    const std::size_t arithmetic = shown.find("4.2e22 FLOP / (989 TFLOPS × 40%) = 29.5K GPU·h");
    const std::size_t catalog = shown.find("catalog `h100-sxm`");
    REQUIRE(arithmetic != std::string::npos);
    REQUIRE(catalog != std::string::npos);
    CHECK(arithmetic < catalog);
    CHECK(shown.find("bf16 dense 989 TFLOPS, sparse (2:4) 1979 TFLOPS") != std::string::npos);
    CHECK(std::count(shown.begin(), shown.end(), '\n') <= 16);
    // The catalog's source as a link a Markdown renderer follows: no backslash in it.
    const std::size_t link = shown.find("<https://resources.nvidia.com/");
    REQUIRE(link != std::string::npos);
    CHECK(shown.substr(link, shown.find('>', link) - link).find('\\') == std::string::npos);
  }
  SECTION("on a claim of train.gpu_seconds: the value in GPU-seconds, the claim, then what it is") {
    const std::string shown = hover_text(server, uri, 19, 3);
    INFO(shown);
    CHECK(shown.starts_with("`train.gpu_seconds` = **106\\.2M GPU·s**: `"));
    CHECK(shown.find("(once cluster.peak is 989 TFLOPS)") < shown.find("claimed"));
    const std::size_t claimed = shown.find("claimed **53M GPU·s**");
    REQUIRE(claimed != std::string::npos);
    CHECK(claimed < shown.find("GPU time at the assumed MFU"));
  }
  end_session(server);
}

TEST_CASE("estimate-mismatch: setting the claim to planlint's value is an unsafe fix, in the editor and on the command line", "[lsp][fix]") {
  Scratch dir;
  const std::string text = plan_with("989 TFLOPS", "\n[estimates]\n\"train.days\" = \"20 d\"\n");
  const fs::path path = dir.write("plan.toml", text);
  const std::string binary = quote(PLANLINT_BINARY);
  std::string output;

  SECTION("--fix leaves it; --fix --unsafe-fixes sets the claim, and check then passes it") {
    CHECK(run_command(fmt::format("{} check --fix --today 2026-12-01 {}", binary, quote(path.string())), output) == 1);
    INFO(output);
    CHECK(read_text(path) == text);
    CHECK(run_command(fmt::format("{} check --fix --unsafe-fixes --today 2026-12-01 {}", binary, quote(path.string())),
                      output) == 0);
    CHECK(read_text(path) == plan_with("989 TFLOPS", "\n[estimates]\n\"train.days\" = \"9.6 d\"\n"));
  }
  SECTION("the editor offers it, not as the preferred fix, and applying it clears the finding") {
    LspClient server(planlint_lsp());
    server.initialize();
    const std::string uri = file_uri(path.string());
    const json actions = actions_at(server, uri, text, "estimate-mismatch", 19, 16);
    INFO(actions.dump(1));
    REQUIRE(!actions.empty());
    const json& set = actions[0];
    CHECK(set["kind"] == "quickfix");
    CHECK(set["isPreferred"] == false);
    CHECK(set["title"] == "Set estimates.train.days to \"9.6 d\" (unsafe fix of estimate-mismatch: check it)");
    const std::string fixed = apply(text, set["edit"], uri);
    CHECK(fixed == plan_with("989 TFLOPS", "\n[estimates]\n\"train.days\" = \"9.6 d\"\n"));
    server.notify("textDocument/didChange", whole_text_change(uri, 2, fixed));
    const auto after = server.diagnostics_of(uri);
    REQUIRE(after);
    CHECK_FALSE(has(codes(*after), "estimate-mismatch"));
    end_session(server);
  }
}

TEST_CASE("lsp: fix all (source.fixAll) makes the safe fixes check --fix makes, and no unsafe one", "[lsp][fix]") {
  Scratch dir;
  // A sparse peak and a misspelt key (safe fixes), a claim off by 2× (an unsafe one).
  std::string text = plan_with("1979 TFLOPS", "\n[estimates]\n\"train.days\" = \"20 d\"\n");
  text.replace(text.find("count = 128\n"), 12, "count = 128\nhmb = \"80 GB\"\n");
  const fs::path path = dir.write("plan.toml", text);
  const std::string uri = file_uri(path.string());

  LspClient server(planlint_lsp());
  const json init = server.initialize();
  CHECK(has(init["capabilities"]["codeActionProvider"]["codeActionKinds"].get<std::vector<std::string>>(), "source.fixAll"));
  server.notify("textDocument/didOpen", opened(uri, text));
  const auto published = server.diagnostics_of(uri);
  REQUIRE(published);
  INFO(published->dump(1));
  REQUIRE(has(codes(*published), "sparse-peak"));
  REQUIRE(has(codes(*published), "unknown-key"));

  const json actions = server.request("textDocument/codeAction",
                                      {{"textDocument", {{"uri", uri}}},
                                       {"range", range(0, 0, 0, 0)},
                                       {"context", {{"diagnostics", json::array()}, {"only", {"source.fixAll"}}}}});
  INFO(actions.dump(1));
  REQUIRE(actions.size() == 1);
  CHECK(actions[0]["kind"] == "source.fixAll");
  CHECK(actions[0]["title"].get<std::string>().starts_with("Fix all safe planlint findings"));
  const std::string fixed = apply(text, actions[0]["edit"], uri);

  std::string output;
  CHECK(run_command(fmt::format("{} check --fix --today 2026-12-01 {}", quote(PLANLINT_BINARY), quote(path.string())),
                    output) == 1);
  INFO(output);
  CHECK(fixed == read_text(path));
  CHECK(fixed.find("hbm = \"80 GB\"") != std::string::npos);
  CHECK(fixed.find("peak = \"989 TFLOPS\"") != std::string::npos);
  CHECK(fixed.find("\"train.days\" = \"20 d\"") != std::string::npos);  // unsafe: left for the author

  server.notify("textDocument/didChange", whole_text_change(uri, 2, fixed));
  const auto after = server.diagnostics_of(uri);
  REQUIRE(after);
  CHECK_FALSE(has(codes(*after), "sparse-peak"));
  CHECK_FALSE(has(codes(*after), "unknown-key"));
  CHECK(has(codes(*after), "estimate-mismatch"));
  // Nothing left to fix safely: no fix-all action, and none in a quick-fix request either.
  const json none = server.request("textDocument/codeAction",
                                   {{"textDocument", {{"uri", uri}}},
                                    {"range", range(0, 0, 0, 0)},
                                    {"context", {{"diagnostics", json::array()}, {"only", {"source"}}}}});
  CHECK(none.empty());
  const json quick = server.request("textDocument/codeAction",
                                    {{"textDocument", {{"uri", uri}}},
                                     {"range", range(0, 0, 0, 0)},
                                     {"context", {{"diagnostics", json::array()}, {"only", {"quickfix"}}}}});
  for (const json& action : quick) CHECK(action["kind"] == "quickfix");
  end_session(server);
}

TEST_CASE("lsp: fix all makes the fixes of findings over --max-findings-per-file too", "[lsp][fix]") {
  Scratch dir;
  // The one finding shown is the first error, a key with no fix; the fixable ones come after.
  std::string text = plan_with("1979 TFLOPS");
  text.replace(text.find("name = \"p\"\n"), 11, "name = \"p\"\nzzzz = 1\n");
  text.replace(text.find("count = 128\n"), 12, "count = 128\nhmb = \"80 GB\"\n");
  const std::string uri = file_uri(dir.write("plan.toml", text).string());
  LspClient server(planlint_lsp({"--max-findings-per-file", "1"}));
  server.initialize();
  server.notify("textDocument/didOpen", opened(uri, text));
  const auto published = server.diagnostics_of(uri);
  REQUIRE(published);
  INFO(published->dump(1));
  // One finding shown, and one saying how many more there are.
  REQUIRE((*published)["params"]["diagnostics"].size() == 2);
  REQUIRE((*published)["params"]["diagnostics"][0]["code"] == "unknown-key");
  REQUIRE((*published)["params"]["diagnostics"][0]["range"]["start"]["line"] == 2);
  const json actions = server.request("textDocument/codeAction",
                                      {{"textDocument", {{"uri", uri}}},
                                       {"range", range(0, 0, 0, 0)},
                                       {"context", {{"diagnostics", json::array()}, {"only", {"source.fixAll"}}}}});
  INFO(actions.dump(1));
  REQUIRE(actions.size() == 1);
  const std::string fixed = apply(text, actions[0]["edit"], uri);
  CHECK(fixed.find("hbm = \"80 GB\"") != std::string::npos);
  CHECK(fixed.find("peak = \"989 TFLOPS\"") != std::string::npos);
  end_session(server);
}

TEST_CASE("lsp: a memory-fit finding offers the nearest layout that fits as a code action", "[lsp][fix]") {
  // 13B with ZeRO-1 and pure data parallelism on 64 H100: 123 GB a GPU (tests/rules/memory-fit/fires.toml).
  const std::string text =
      "[plan]\nname = \"p\"\nkind = \"training\"\nupdated = 2026-11-01\n\n[model]\nparams = \"13B\"\nlayers = 40\n"
      "hidden = 5120\nheads = 40\n\n[training]\ntokens = \"260B\"\nprecision = \"bf16\"\nseq_len = 4096\n"
      "micro_batch = 2\nzero = 1\n\n[cluster]\ngpu = \"h100-sxm\"\ncount = 64\n";
  Scratch dir;
  const fs::path path = dir.write("plan.toml", text);
  LspClient server(planlint_lsp());
  server.initialize();
  const std::string uri = file_uri(path.string());
  // cluster.gpu, where the finding is (line 19, 0-based).
  const json actions = actions_at(server, uri, text, "memory-fit", 19, 7);
  INFO(actions.dump(1));
  const auto layout = std::find_if(actions.begin(), actions.end(), [](const json& a) {
    return a["title"].get<std::string>().starts_with("Set zero = 3 (was 1)");
  });
  REQUIRE(layout != actions.end());
  CHECK((*layout)["isPreferred"] == false);
  CHECK_THAT((*layout)["title"].get<std::string>(), Catch::EndsWith("per GPU of 80 GB) (unsafe fix of memory-fit: check it)"));
  const std::string fixed = apply(text, (*layout)["edit"], uri);
  CHECK(fixed.find("zero = 3\n") != std::string::npos);
  server.notify("textDocument/didChange", whole_text_change(uri, 2, fixed));
  const auto after = server.diagnostics_of(uri);
  REQUIRE(after);
  CHECK_FALSE(has(codes(*after), "memory-fit"));
  end_session(server);
}

TEST_CASE("lsp: a hover in a run in stages reads the stage's figures, and a run's claim the run's", "[lsp][stages]") {
  Scratch dir;
  LspClient server(planlint_lsp());
  server.initialize();
  const std::string uri = file_uri(dir.write("run.toml", "").string());
  const std::string text = R"([plan]
name = "run"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
mfu = "40%"
zero = 3
[cluster]
gpu = "h100-sxm"
count = 128
[[stages]]
name = "pre-training"
[[stages]]
name = "long-context"
training.tokens = "100B"
cluster.count = 64
estimates."train.days" = "2 d"
[estimates]
"run.days" = "10 d"
[[capacity]]
kind = "reserved"
share = "100%"
price = "$2.5/GPU/h"
)";
  server.notify("textDocument/didOpen", opened(uri, text));
  REQUIRE(server.diagnostics_of(uri));
  // The 0-based line and a column inside `needle`'s first occurrence.
  const auto at = [&](std::string_view needle) {
    const std::size_t offset = text.find(needle);
    REQUIRE(offset != std::string::npos);
    const auto line = static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    const std::size_t line_start = text.rfind('\n', offset) + 1;
    return std::pair{line, static_cast<std::uint32_t>(offset - line_start + needle.size() - 2)};
  };
  SECTION("a stage's own value: the stage's metrics that read it") {
    const auto [line, column] = at("\"100B\"");
    const std::string shown = hover_text(server, uri, line, column);
    INFO(shown);
    CHECK(shown.starts_with("`training.tokens` = **100B tokens**"));
    CHECK_THAT(shown, Catch::Contains("in stage 'long-context'") && Catch::Contains("6 × 7B × 100B tokens"));
  }
  SECTION("the plan's value: the first stage's metrics, which read it") {
    const auto [line, column] = at("\"1T\"");
    const std::string shown = hover_text(server, uri, line, column);
    INFO(shown);
    CHECK_THAT(shown, Catch::Contains("in stage 'pre-training'") && Catch::Contains("6 × 7B × 1T tokens"));
  }
  SECTION("a stage's claim against the stage's figure, the run's against the run's") {
    const auto [stage_line, stage_column] = at("\"2 d\"");
    const std::string stage = hover_text(server, uri, stage_line, stage_column);
    INFO(stage);
    CHECK(stage.starts_with("`train.days` = **46\\.1 h**"));  // 1.92 d: 2.95K GPU-hours on 64 GPUs
    CHECK_THAT(stage, Catch::Contains("claimed **2 d**"));
    const auto [run_line, run_column] = at("\"10 d\"");
    const std::string run = hover_text(server, uri, run_line, run_column);
    INFO(run);
    CHECK(run.starts_with("`run.days` = **11\\.5 d**"));
    CHECK_THAT(run, Catch::Contains("claimed **10 d**"));
  }
  SECTION("a [[capacity]] slice's field") {
    const auto [line, column] = at("\"$2.5/GPU/h\"");
    const std::string shown = hover_text(server, uri, line, column);
    INFO(shown);
    CHECK(shown.starts_with("`capacity.price` = **"));
  }
  end_session(server);
}
