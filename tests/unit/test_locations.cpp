// Lines and columns (cli.md "Lines and columns"): spans count bytes, whatever text precedes
// them on the line; each output shows the column its readers expect (characters in the text
// and GitHub outputs, bytes in JSON, UTF-16 code units in SARIF), and a fix replaces exactly
// the bytes of the key it renames.
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "integration_support.hpp"
#include "planlint/emit/sarif.hpp"
#include "planlint/source/column_cursor.hpp"
#include "planlint/source/columns.hpp"
#include "planlint/source/limits.hpp"
#include "planlint/source/source_file.hpp"
#include "planlint/source/toml_span.hpp"
#include "support.hpp"

using nlohmann::json;
using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

// Line 1: a quoted key of CJK, a two-byte sign, a three-byte dash and an emoji (four bytes,
// two UTF-16 units) before the misspelt `layrs`. In bytes `layrs` starts at column 49; in
// code points at 39; in UTF-16 code units at 40.
const std::string non_ascii_plan =
    "model = { params = \"7B\", \"\xE6\x95\xB0\xE6\x8D\xAE\xC3\x97\xE2\x80\x94\xF0\x9F\x9A\x80\" = 1, layrs = 32 }\n"
    "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-27\n[training]\ntokens = \"1T\"\n"
    "[cluster]\ngpu = \"h100-sxm\"\ncount = 64\n";

struct Output {
  int status;
  std::string out;
};

Output check(const Scratch& dir, const std::string& name, const std::string& format) {
  planlint::test::InDirectory cwd(dir.path);
  auto run = run_cli({"check", "--no-color", "--today", "2026-12-01", "--format", format, name});
  INFO(run.err);
  REQUIRE(run.status != 2);
  return {run.status, run.out};
}

const json& finding(const json& diagnostics, const std::string& key) {
  for (const json& d : diagnostics)
    if (d["key"] == key) return d;
  FAIL("no finding at " << key);
  return diagnostics;
}

/// The byte offset of 1-based `line` in `text`.
std::size_t line_start(const std::string& text, std::size_t line) {
  std::size_t offset = 0;
  for (std::size_t i = 1; i < line; ++i) offset = text.find('\n', offset) + 1;
  return offset;
}

/// The byte offset of a 1-based UTF-16 column of `line`, as a SARIF consumer reads it.
std::size_t utf16_offset(const std::string& text, std::size_t line, std::size_t column) {
  std::size_t at = line_start(text, line);
  for (std::size_t units = 1; units < column;) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    units += length == 4 ? 2 : 1;
    at += length;
  }
  return at;
}

std::string replaced(std::string text, std::size_t begin, std::size_t end, const std::string& with) {
  return text.replace(begin, end - begin, with);
}

/// The file after the edit is valid TOML whose [model] has `layers` and no `layrs`.
void require_corrected(const std::string& fixed) {
  INFO(fixed);
  toml::parse_result parsed = toml::parse(fixed);
  REQUIRE(parsed);
  const toml::table& root = parsed.table();
  CHECK(root["model"]["layers"].value<int>() == 32);
  CHECK_FALSE(root["model"]["layrs"]);
  CHECK(fixed.substr(0, fixed.find('\n')) ==
        "model = { params = \"7B\", \"\xE6\x95\xB0\xE6\x8D\xAE\xC3\x97\xE2\x80\x94\xF0\x9F\x9A\x80\" = 1, layers = 32 }");
}

}  // namespace

TEST_CASE("columns convert between bytes, code points and UTF-16 code units", "[locations][columns]") {
  using namespace planlint;
  const std::string_view line = "a\xC3\x97" "b\xE2\x80\x94" "c\xF0\x9F\x9A\x80" "d";  // a×b—c🚀d
  CHECK(byte_column(line, 1) == 1);
  CHECK(byte_column(line, 3) == 4);    // b
  CHECK(byte_column(line, 5) == 8);    // c
  CHECK(byte_column(line, 7) == 13);   // d
  CHECK(byte_column(line, 8) == 14);   // the end of the line
  CHECK(byte_column(line, 10) == 16);  // past it: one per column
  CHECK(code_point_column(line, 13) == 7);
  CHECK(code_point_column(line, 16) == 10);
  CHECK(utf16_column(line, 13) == 8);  // the emoji is a surrogate pair
  CHECK(after_character(line, 2) == 4);
  CHECK(after_character(line, 9) == 13);
  CHECK(after_character(line, 14) == 15);
  CHECK(byte_column(line, 0) == 0);
  CHECK(code_point_column(line, 0) == 0);
  for (std::uint32_t column = 1; column <= 10; ++column)
    CHECK(code_point_column(line, byte_column(line, column)) == column);
}

TEST_CASE("the column converter gives byte_column's answer in any order of lines and columns",
          "[locations][columns]") {
  using namespace planlint;
  const SourceFile file("f.toml", "a = \"\xC3\x97\xE6\x95\xB0\" # x\nplain = 1\n\xF0\x9F\x9A\x80 = 2\n");
  detail::ColumnConverter columns(file);
  const std::pair<std::uint32_t, std::uint32_t> positions[] = {
      {1, 9}, {1, 3}, {2, 4}, {1, 12}, {3, 1}, {3, 2}, {1, 6}, {3, 40}, {2, 11}, {1, 7}};
  for (const auto& [line, column] : positions) {
    INFO(line << ":" << column);
    CHECK(columns.position(toml::source_position{line, column}) ==
          Position{line, byte_column(file.line(line), column)});
  }
}

TEST_CASE("the column cursor gives code_point_column's and utf16_column's answers in any order",
          "[locations][columns]") {
  using namespace planlint;
  const SourceFile file("f.toml", "a = \"\xC3\x97\xE6\x95\xB0\" # \xF0\x9F\x9A\x80 x\nplain = 1\n\xF0\x9F\x9A\x80 = 2\n");
  ColumnCursor characters, units(ColumnUnit::utf16);
  // Forward, back a little, back to the start, to another line and past a line's end.
  const std::pair<std::uint32_t, std::uint32_t> positions[] = {
      {1, 9}, {1, 3}, {1, 17}, {1, 16}, {2, 4}, {1, 12}, {3, 1}, {3, 5}, {1, 6}, {3, 40}, {2, 11}, {1, 7}, {1, 0}, {1, 18}};
  for (const auto& [line, column] : positions) {
    INFO(line << ":" << column);
    CHECK(characters.column(file.line(line), column) == code_point_column(file.line(line), column));
    CHECK(units.column(file.line(line), column) == utf16_column(file.line(line), column));
    CHECK(characters.shown(&file, "f.toml", Position{line, column}) == shown_column(&file, "f.toml", Position{line, column}));
  }
  CHECK(characters.shown(&file, "other.toml", Position{1, 9}) == 9);  // another file: its byte column
}

TEST_CASE("a key after non-ASCII text on its line has its byte columns in JSON, and the fix "
          "replaces exactly its bytes", "[locations][json]") {
  Scratch dir;
  dir.write("na.toml", non_ascii_plan);
  const json report = json::parse(check(dir, "na.toml", "json").out);
  const json& typo = finding(report["diagnostics"], "model.layrs");
  CHECK(typo["line"] == 1);
  CHECK(typo["column"] == 49);
  CHECK(typo["end_line"] == 1);
  CHECK(typo["end_column"] == 54);
  REQUIRE(typo["fixes"].size() == 1);
  const json& fix = typo["fixes"][0];
  CHECK(fix["replacement"] == "layers");
  REQUIRE(fix["line"] == fix["end_line"]);
  const std::size_t line = fix["line"].get<std::size_t>();
  const std::size_t begin = line_start(non_ascii_plan, line) + fix["column"].get<std::size_t>() - 1;
  const std::size_t end = line_start(non_ascii_plan, line) + fix["end_column"].get<std::size_t>() - 1;
  CHECK(non_ascii_plan.substr(begin, end - begin) == "layrs");
  require_corrected(replaced(non_ascii_plan, begin, end, "layers"));
}

TEST_CASE("a key after non-ASCII text has UTF-16 columns in SARIF, a snippet of its own bytes, "
          "and a fix that replaces exactly it", "[locations][sarif]") {
  Scratch dir;
  dir.write("na.toml", non_ascii_plan);
  const json log = json::parse(check(dir, "na.toml", "sarif").out);
  const json* typo = nullptr;
  for (const json& result : log["runs"][0]["results"])
    if (result["properties"]["key"] == "model.layrs") typo = &result;
  REQUIRE(typo != nullptr);
  const json& region = (*typo)["locations"][0]["physicalLocation"]["region"];
  CHECK(region["startColumn"] == 40);
  CHECK(region["endColumn"] == 45);
  CHECK(region["snippet"]["text"] == "layrs");
  for (const json& result : log["runs"][0]["results"]) {
    const std::string snippet = result["locations"][0]["physicalLocation"]["region"]["snippet"]["text"];
    CHECK(snippet.find("\xEF\xBF\xBD") == std::string::npos);  // U+FFFD: a cut UTF-8 sequence
  }
  const json& replacement = (*typo)["fixes"][0]["artifactChanges"][0]["replacements"][0];
  const json& deleted = replacement["deletedRegion"];
  const std::size_t begin = utf16_offset(non_ascii_plan, deleted["startLine"], deleted["startColumn"]);
  const std::size_t end = utf16_offset(non_ascii_plan, deleted["endLine"], deleted["endColumn"]);
  CHECK(non_ascii_plan.substr(begin, end - begin) == "layrs");
  require_corrected(replaced(non_ascii_plan, begin, end, replacement["insertedContent"]["text"]));
}

TEST_CASE("the text and GitHub outputs count characters, and the carets sit under the key",
          "[locations][text][github]") {
  Scratch dir;
  dir.write("na.toml", non_ascii_plan);
  const std::string text = check(dir, "na.toml", "text").out;
  CHECK_THAT(text, Catch::Contains("na.toml:1:39: error: unknown key 'layrs' in [model]"));
  // 25 characters, the quoted key (quotes 1 + 1, CJK 2 + 2, × 1, — 1, the emoji 2 terminal
  // cells) and " = 1, ": 41 cells before the key.
  CHECK_THAT(text, Catch::Contains("\n      | " + std::string(41, ' ') + "^^^^^\n"));
  const std::string github = check(dir, "na.toml", "github").out;
  CHECK_THAT(github, Catch::Contains("file=na.toml,line=1,col=39,endLine=1,endColumn=43,title=unknown-key::"
                                     "unknown key 'layrs' in [model]"));
}

TEST_CASE("a TOML syntax error after non-ASCII text points at its byte", "[locations][loader]") {
  auto loaded = planlint::test::load_text("[plan]\nname = \"\xE6\x95\xB0\xE6\x8D\xAE\xC3\x97\" x\n");
  REQUIRE(loaded.diagnostics.size() == 1);
  const planlint::Span span = loaded.diagnostics[0].primary.span;
  CHECK(loaded.diagnostics[0].rule == "toml-syntax");
  CHECK(span.begin == planlint::Position{2, 19});  // the x: the 9th character, the 19th byte
  CHECK(span.end == planlint::Position{2, 20});
}

TEST_CASE("the nesting limit's error after non-ASCII text points at its byte", "[locations][limits]") {
  const std::string text = "x = { \"\xE6\x95\xB0\" = " + std::string(planlint::max_toml_depth + 10, '[');
  auto loaded = planlint::test::load_text(text);
  REQUIRE(loaded.diagnostics.size() == 1);
  const planlint::Position at = loaded.diagnostics[0].primary.span.begin;
  CHECK(at.line == 1);
  CHECK(text[at.column - 1] == '[');
  CHECK(at.column == planlint::find_toml_limit_excess(text, planlint::TomlLimits{})->position.column);
}

TEST_CASE("a config error after non-ASCII text points at its byte", "[locations][config]") {
  Scratch dir;
  dir.write(".planlint.toml", "[lint]\nignore = [\"\xC3\x97\xC3\x97\", \"x\"] x\n");
  dir.write("plan.toml", planlint::test::inference_plan_with(""));
  planlint::test::InDirectory cwd(dir.path);
  auto run = run_cli({"check", "plan.toml"});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains(".planlint.toml:2:24: error: invalid TOML"));  // the x
}

TEST_CASE("a byte order mark is not part of line 1: columns start after it and the caret lines up",
          "[locations][bom]") {
  Scratch dir;
  dir.write("bom.toml", "\xEF\xBB\xBFhmb = 1\n" + planlint::test::inference_plan_with(""));
  const std::string text = check(dir, "bom.toml", "text").out;
  CHECK_THAT(text, Catch::Contains("bom.toml:1:1: error: unknown key 'hmb' in the plan (top level)"));
  CHECK_THAT(text, Catch::Contains("    1 | hmb = 1\n      | ^^^\n"));
  const json report = json::parse(check(dir, "bom.toml", "json").out);
  const json& typo = finding(report["diagnostics"], "hmb");
  CHECK(typo["column"] == 1);
  CHECK(typo["end_column"] == 4);
  const json log = json::parse(check(dir, "bom.toml", "sarif").out);
  const json& region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  CHECK(region["startColumn"] == 1);
  CHECK(region["endColumn"] == 4);
  CHECK(region["snippet"]["text"] == "hmb");
}

TEST_CASE("SARIF snippets are the file's text: CRLF kept, no line break added", "[locations][sarif]") {
  using namespace planlint;
  Report report;
  report.files.push_back(std::make_shared<const SourceFile>("crlf.toml", "a = 1\r\nbb = 2\r\ncc = 3"));
  Diagnostic d;
  d.rule = "unknown-key";
  d.message = "two lines";
  d.primary = Location{"crlf.toml", Span{{2, 1}, {3, 3}}};
  report.diagnostics.push_back(d);
  d.message = "the last line";
  d.primary = Location{"crlf.toml", Span{{3, 1}, {3, 3}}};
  report.diagnostics.push_back(d);
  std::ostringstream out;
  RuleDescriptor rule;
  rule.id = "unknown-key";
  emit_sarif(out, report, {rule}, SarifOptions{});
  const json log = json::parse(out.str());
  const json& first = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
  CHECK(first["region"]["snippet"]["text"] == "bb = 2\r\ncc");
  CHECK(first["contextRegion"]["snippet"]["text"] == "bb = 2\r\ncc = 3");
  const json& last = log["runs"][0]["results"][1]["locations"][0]["physicalLocation"];
  CHECK(last["contextRegion"]["snippet"]["text"] == "cc = 3");
}
