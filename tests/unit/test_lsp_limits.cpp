// `planlint lsp` given documents and messages built to exhaust it: diagnostics capped per
// document (a 5 MB plan of 270,000 unknown keys sent a 97.5 MB message), columns of a long line
// converted in one pass (a 439 KB line took 6.5 s), a closed document's memory given back (584
// MB held after close), and every message read within its memory budget (a 60 MiB message
// aborted the server). The built binary over pipes, as an editor runs it.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "lsp_client.hpp"
#include "planlint/lsp/text_document.hpp"

using namespace planlint::test;

namespace {

const std::string plan_head = "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n";

/// A plan whose `keys` unknown keys share one line, after a character of two UTF-16 units.
std::string one_line_of_keys(std::size_t keys) {
  std::string plan = "cluster = { gpu = \"h100-sxm\", count = 8, note = \"\U0001F999\"";
  for (std::size_t i = 0; i < keys; ++i) plan += fmt::format(", k{} = 1", i);
  return plan + " }\n" + plan_head;
}

/// CPU seconds (user + system) the process `pid` has used, from /proc/PID/stat: its work, not
/// the time it waited for a core on a busy machine.
double cpu_seconds_of(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  // Fields after the command name, which is in parentheses and may hold spaces: state is the
  // 3rd field, utime the 14th, stime the 15th (proc(5)).
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i)
    if (i >= 14) ticks += std::stod(field);
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

/// The server's CPU seconds from didOpen to the document's diagnostics, and those diagnostics.
std::pair<double, json> open_and_wait(LspClient& server, const std::string& uri, const std::string& text) {
  const double start = cpu_seconds_of(server.pid());
  server.notify("textDocument/didOpen", opened(uri, text));
  const auto published = server.diagnostics_of(uri, std::chrono::seconds(120));
  REQUIRE(published);
  return {cpu_seconds_of(server.pid()) - start, *published};
}

/// The server without AddressSanitizer's quarantine, whose freed blocks stay resident (other
/// builds ignore the variable).
struct NoQuarantine {
  NoQuarantine() {
    const char* inherited = std::getenv("ASAN_OPTIONS");
    if (inherited) saved = inherited;
    had = inherited != nullptr;
    ::setenv("ASAN_OPTIONS", (saved + (saved.empty() ? "" : ":") + "quarantine_size_mb=0").c_str(), 1);
  }
  ~NoQuarantine() {
    if (had) ::setenv("ASAN_OPTIONS", saved.c_str(), 1);
    else ::unsetenv("ASAN_OPTIONS");
  }
  std::string saved;
  bool had = false;
};

}  // namespace

TEST_CASE("lsp: a document shows at most --max-findings-per-file diagnostics, then one that says how many more",
          "[lsp][hostile]") {
  Scratch dir;
  // Unknown keys made warnings by the document's config, and an unknown GPU (an error) after
  // them: the error is among those shown.
  dir.write(".planlint.toml", "[lint.severity]\nunknown-key = \"warning\"\n");
  std::string plan = plan_head;
  for (int i = 0; i < 3000; ++i) plan += fmt::format("k{} = 1\n", i);
  plan += "[cluster]\ngpu = \"h999-sxm\"\ncount = 8\n";
  const std::string uri = file_uri(dir.write("plan.toml", "").string());

  SECTION("the default, 1,000") {
    LspClient server(planlint_lsp());
    server.initialize();
    const json published = open_and_wait(server, uri, plan).second;
    const json& diagnostics = published["params"]["diagnostics"];
    REQUIRE(diagnostics.size() == 1001);
    CHECK(diagnostics[999]["code"] == "unknown-gpu");
    CHECK(diagnostics[999]["severity"] == 1);
    CHECK(diagnostics[0]["severity"] == 2);
    const json& last = diagnostics[1000];
    CHECK(last["message"] == "2001 more findings are not shown: only the 1000 most severe are (--max-findings-per-file "
                             "1000; 0 shows all)");
    CHECK(last["severity"] == 3);
    CHECK(last["range"] == range(0, 0, 0, 0));
    CHECK_FALSE(last.contains("code"));
  }
  SECTION("0 shows them all") {
    LspClient server(planlint_lsp({"--max-findings-per-file", "0"}));
    server.initialize();
    CHECK(open_and_wait(server, uri, plan).second["params"]["diagnostics"].size() == 3001);
  }
}

TEST_CASE("lsp: the columns of a long line are converted in one pass", "[lsp][hostile]") {
  // Every finding's range was counted from its line's start: 439 KB of one line took 6.5 s,
  // and a 1.2 MB document never got its diagnostics.
  Scratch dir;
  const std::string uri = file_uri(dir.write("plan.toml", "").string());
  LspClient server(planlint_lsp({"--max-findings-per-file", "0"}));
  server.initialize();
  const auto [small_seconds, small] = open_and_wait(server, uri, one_line_of_keys(3000));
  server.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  REQUIRE(server.diagnostics_of(uri));
  const auto [large_seconds, large] = open_and_wait(server, uri, one_line_of_keys(30000));
  INFO("3,000 findings: " << small_seconds << " s; 30,000: " << large_seconds << " s");
  REQUIRE(large["params"]["diagnostics"].size() == 30001);  // `note` is not a key of [cluster] either
  CHECK(small["params"]["diagnostics"].size() == 3001);
  // The ranges: `, kN = 1` after `note = "🦙"` (the llama: one character, two UTF-16 units).
  const std::string text = one_line_of_keys(30000);
  const std::string line = text.substr(0, text.find('\n'));
  for (const json& d : large["params"]["diagnostics"]) {
    const std::string message = d["message"];
    if (message.rfind("unknown key 'k29999'", 0) != 0) continue;
    const std::size_t byte = line.find("k29999 =");
    CHECK(d["range"]["start"]["character"] == byte - 2);  // the llama's four bytes are two units
  }
  // Linear: about 10 times; counted from each line's start, about 100 times.
  CHECK(large_seconds <= 40 * std::max(small_seconds, 0.05));
  server.request("shutdown", nullptr);
  server.notify("exit", nullptr);
  CHECK(server.exit_status() == 0);
}

TEST_CASE("lsp: a closed document's memory is given back", "[lsp][hostile][rss]") {
  NoQuarantine no_quarantine;
  Scratch dir;
  const std::string uri = file_uri(dir.write("plan.toml", "").string());
  std::string plan = plan_head + "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";
  for (int i = 0; i < 100000; ++i) plan += fmt::format("unknown_key_{:06} = 1\n", i);  // 2.3 MB
  LspClient server(planlint_lsp());
  server.initialize();
  // A small document first: the settings and the allocator's arenas are made.
  const std::string small = file_uri(dir.write("small.toml", "").string());
  open_and_wait(server, small, plan_head + "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\nhmb = 1\n");
  const long before = server.rss_kib().first;
  open_and_wait(server, uri, plan);
  const long open = server.rss_kib().first;
  server.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  REQUIRE(server.diagnostics_of(uri));
  server.request("shutdown", nullptr);  // answered after the close is handled
  const long closed = server.rss_kib().first;
  INFO("RSS before: " << before << " KiB; open: " << open << " KiB; closed: " << closed << " KiB");
  CHECK(closed - before < 8 * 1024);
  server.notify("exit", nullptr);
  CHECK(server.exit_status() == 0);
}

TEST_CASE("lsp: a message is read within its memory budget, or answered with an error", "[lsp][hostile]") {
  Scratch dir;
  SECTION("values too many and too small: the tree would take 21 times the text") {
    LspClient server(planlint_lsp());
    server.initialize();
    std::string padding = "[";
    for (int i = 0; i < 300000; ++i) padding += i ? ",{}" : "{}";
    padding += "]";
    REQUIRE(server.write_frame(R"({"jsonrpc":"2.0","id":41,"method":"textDocument/hover","params":{"padding":)" +
                               padding + "}}"));
    const auto answer = server.response(41);
    REQUIRE(answer);
    CHECK((*answer)["error"]["code"] == -32600);
    CHECK_THAT((*answer)["error"]["message"].get<std::string>(),
               Catch::Contains("over planlint lsp's limit of 15 times its size"));
    CHECK(server.rss_kib().second < 96 * 1024);  // its 0.9 MB tree was 20 MB; the server's own is less
    // A didOpen refused so: the document says why.
    const std::string uri = file_uri(dir.write("plan.toml", "").string());
    REQUIRE(server.write_frame(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":")" +
                               uri + R"(","languageId":"toml","version":1,"text":"[plan]\n","x":)" + padding + "}}}"));
    const auto published = server.diagnostics_of(uri);
    REQUIRE(published);
    CHECK_THAT((*published)["params"]["diagnostics"][0]["message"].get<std::string>(),
               Catch::Contains("15 times its size"));
    CHECK(server.request("shutdown", nullptr).is_null());
  }
  SECTION("the default message limit is 16 MiB: 256 MiB at most to read one") {
    LspClient server(planlint_lsp());
    server.initialize();
    const json huge = {{"jsonrpc", "2.0"},
                       {"id", 42},
                       {"method", "textDocument/hover"},
                       {"params", {{"padding", std::string((std::size_t{16} << 20) + 1, 'x')}}}};
    REQUIRE(server.send(huge));
    const auto answer = server.response(42, std::chrono::seconds(60));
    REQUIRE(answer);
    CHECK((*answer)["error"]["code"] == -32600);
    CHECK_THAT((*answer)["error"]["message"].get<std::string>(), Catch::Contains("over planlint lsp's limit of 16 MiB"));
    CHECK(server.request("shutdown", nullptr).is_null());
  }
  SECTION("a document grown past the message limit by edits is dropped, and says why") {
    LspClient server(planlint_lsp({"--max-message-size", "4KiB"}));
    server.initialize();
    const std::string uri = file_uri(dir.write("grown.toml", "").string());
    server.notify("textDocument/didOpen", opened(uri, plan_head));
    REQUIRE(server.diagnostics_of(uri));
    for (int version = 2; version < 5; ++version)
      server.notify("textDocument/didChange",
                    {{"textDocument", {{"uri", uri}, {"version", version}}},
                     {"contentChanges", json::array({{{"range", range(0, 0, 0, 0)}, {"text", "#" + std::string(2000, 'x') + "\n"}}})}});
    const auto dropped = server.wait_for([&](const json& m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri &&
             !m["params"]["diagnostics"].empty() &&
             m["params"]["diagnostics"][0]["message"].get<std::string>().find("grew to") != std::string::npos;
    });
    REQUIRE(dropped);
    CHECK_THAT((*dropped)["params"]["diagnostics"][0]["message"].get<std::string>(),
               Catch::Contains("over planlint lsp's limit of 4 KiB for a message"));
    // It is no longer open: hover has nothing to say of it.
    CHECK(server.request("textDocument/hover", {{"textDocument", {{"uri", uri}}}, {"position", position(0, 1)}}).is_null());
    CHECK(server.request("shutdown", nullptr).is_null());
  }
}

TEST_CASE("lsp: one didChange's edits may grow the text to the message limit and rewrite it a bounded number of times",
          "[lsp][hostile]") {
  using planlint::lsp::EditLimits;
  using planlint::lsp::TextChange;
  using planlint::lsp::TextDocument;
  auto insert_at_start = [](std::string text) {
    return TextChange{planlint::lsp::LspRange{{0, 0}, {0, 0}}, std::move(text)};
  };
  const std::vector<TextChange> edits(10, insert_at_start("0123456789"));

  TextDocument within("a = 1\n");
  CHECK_FALSE(planlint::lsp::apply_edits(within, edits, EditLimits{1000, 10000}));
  std::string expected;
  for (int i = 0; i < 10; ++i) expected += "0123456789";
  CHECK(within.text() == expected + "a = 1\n");

  // Each edit rewrites the whole text: 16 + 26 + 36 + 46 = 124 bytes after the fourth.
  TextDocument rewritten("a = 1\n");
  const auto too_much = planlint::lsp::apply_edits(rewritten, edits, EditLimits{1000, 100});
  REQUIRE(too_much);
  CHECK_THAT(*too_much, Catch::Contains("a didChange of 10 edits would rewrite more than 100 bytes of text"));
  CHECK(rewritten.text().size() == 46);

  TextDocument grown("a = 1\n");
  const auto too_large = planlint::lsp::apply_edits(grown, edits, EditLimits{50, 10000});
  REQUIRE(too_large);
  CHECK_THAT(*too_large, Catch::Contains("the document grew to 56 bytes, over planlint lsp's limit of 50 bytes for a message"));
}
