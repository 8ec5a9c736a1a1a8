// The text output never hands a file's control characters to the terminal: the source excerpt
// and the file name are shown escaped (as messages are), and the carets follow the escapes.
#include <memory>
#include <sstream>

#include <catch2/catch.hpp>

#include "planlint/emit/lint_report.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/source/source_file.hpp"
#include "support.hpp"

using namespace planlint;

namespace {

/// The text output of one finding at `span` of a file `path` holding `text`, written whole
/// (emit_text) and file by file (TextEmitter), which must agree.
std::string finding_in(const std::string& path, const std::string& text, Span span) {
  auto source = std::make_shared<const SourceFile>(path, text);
  Diagnostic d;
  d.rule = "r";
  d.message = "m";
  d.primary = Location{path, span};
  d.related.push_back(RelatedLocation{Location{path, span}, "here"});
  Report report;
  report.files.push_back(source);
  report.diagnostics.push_back(d);
  std::ostringstream whole;
  emit_text(whole, report, TextStyle{});
  std::ostringstream streamed;
  TextEmitter emitter(streamed, TextStyle{});
  std::vector<Diagnostic> diagnostics{d};
  emitter.file(source, diagnostics);
  emitter.finish({});
  CHECK(streamed.str() == whole.str());
  return whole.str();
}

/// No byte of `output` but the line breaks is a control character (C0, DEL or UTF-8 C1).
bool terminal_safe(const std::string& output) {
  for (std::size_t i = 0; i < output.size(); ++i) {
    const auto c = static_cast<unsigned char>(output[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < output.size() && static_cast<unsigned char>(output[i + 1]) <= 0x9f) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("an excerpt's escape sequences are shown escaped, with the carets under them", "[emit][text]") {
  const std::string out = finding_in("plan.toml", "[plan]\nname = \"x\" # \x1b]0;pwned\a\x1b[2J hi\n",
                                     Span{{2, 14}, {2, 15}});
  CHECK(terminal_safe(out));
  CHECK(out ==
        "plan.toml:2:14: error: m [r]\n"
        "    2 | name = \"x\" # \\x1b]0;pwned\\x07\\x1b[2J hi\n"
        "      | " + std::string(13, ' ') + "^^^^\n"
        "   note: here (plan.toml:2:14)\n"
        "\n1 error in 1 file\n");
  // A span after the escapes starts where its text is shown.
  const std::string after = finding_in("plan.toml", "[plan]\nname = \"x\" # \x1b]0;pwned\a\x1b[2J hi\n",
                                       Span{{2, 29}, {2, 31}});
  CHECK_THAT(after, Catch::Contains("    2 | name = \"x\" # \\x1b]0;pwned\\x07\\x1b[2J hi\n"
                                    "      | " + std::string(37, ' ') + "^^\n"));
}

TEST_CASE("NUL bytes, DEL and C1 characters of an excerpt are shown escaped", "[emit][text]") {
  const std::string nul = finding_in("bin.toml", std::string("[plan]\n\0\0x = 1\x7f\n", 16), Span{{2, 1}, {2, 4}});
  CHECK(terminal_safe(nul));
  CHECK_THAT(nul, Catch::Contains("    2 | \\x00\\x00x = 1\\x7f\n"
                                  "      | " + std::string(9, '^') + "\n"));
  const std::string c1 = finding_in("c1.toml", "[plan]\nname = \"\xc2\x9b" "2J \xc3\xa9\"\n", Span{{2, 9}, {2, 13}});
  CHECK(terminal_safe(c1));
  CHECK_THAT(c1, Catch::Contains("    2 | name = \"\\u009b2J \xc3\xa9\"\n"
                                 "      | " + std::string(8, ' ') + std::string(8, '^') + "\n"));
}

TEST_CASE("a file name with a line break keeps each header on one line", "[emit][text]") {
  // The colons that would read as a position's separators are escaped too (printable_path).
  const std::string name = "a\nfake.toml:1:1: error: x [y]\x1b[2J.toml";
  const std::string out = finding_in(name, "[plan]\n", Span{{1, 1}, {1, 2}});
  CHECK(terminal_safe(out));
  CHECK(out ==
        "a\\nfake.toml\\x3a1\\x3a1\\x3a error\\x3a x [y]\\x1b[2J.toml:1:1: error: m [r]\n"
        "    1 | [plan]\n"
        "      | ^\n"
        "   note: here (a\\nfake.toml\\x3a1\\x3a1\\x3a error\\x3a x [y]\\x1b[2J.toml:1:1)\n"
        "\n1 error in 1 file\n");
}

TEST_CASE("an excerpt without control characters is shown as it is, tabs expanded", "[emit][text]") {
  const std::string out = finding_in("plan.toml", "[plan]\n\tname = \"\xc3\xa9t\xc3\xa9\"\n", Span{{2, 2}, {2, 6}});
  CHECK_THAT(out, Catch::Contains("    2 |     name = \"\xc3\xa9t\xc3\xa9\"\n"
                                  "      |     ^^^^\n"));
}

TEST_CASE("carets follow both escaped control characters and wide characters on one line", "[emit][text]") {
  // The escapes (one cell a byte of "\x1b") and the wide characters (two cells each) were
  // measured by two branches of the emitter that met in a merge.
  const std::string line = "k = \"\x1b数据\" # x";  // the span is the "#"
  const std::size_t hash = line.find('#');
  const std::string out = finding_in("plan.toml", line + "\n", Span{{1, static_cast<std::uint32_t>(hash + 1)},
                                                                    {1, static_cast<std::uint32_t>(hash + 2)}});
  CHECK(terminal_safe(out));
  // k = " (5) + \x1b (4) + 数据 (4 cells) + " and space (2) = 15 cells before the "#".
  CHECK_THAT(out, Catch::Contains("    1 | k = \"\\x1b数据\" # x\n      | " + std::string(15, ' ') + "^\n"));
}
