// parse_ascii_toml (source/toml_ascii.hpp): toml++'s parser fed by planlint's reader of ASCII
// text reads every ASCII document as toml::parse does: the same table with the same regions,
// or the same error at the same place. On every ASCII TOML file the project has (the toml-test
// suite, examples, fixtures, rule files), on their prefixes around the reader's 32-byte blocks,
// and on texts made for the reader's edges.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "planlint/source/columns.hpp"
#include "planlint/source/toml_ascii.hpp"
#include "planlint/source/toml_comments.hpp"
#include "planlint/source/toml_limits.hpp"
#include "integration_support.hpp"
#include "support.hpp"
#include "toml_reading.hpp"

using planlint::test::read_text;
using planlint::test::read_toml;
using planlint::test::read_toml_with;
using planlint::test::TomlReading;

namespace {

TomlReading read_ascii(std::string_view text) {
  return read_toml_with(text, [](std::string_view doc, std::string_view path) {
    return planlint::parse_ascii_toml(doc, path);
  });
}

/// Both readers read `text` alike. Returns whether it parsed.
bool check_same_reading(std::string_view text, const std::string& label) {
  INFO(label);
  REQUIRE(planlint::is_ascii(text));
  const TomlReading decoded = read_toml(text), ascii = read_ascii(text);
  REQUIRE(decoded.parsed == ascii.parsed);
  CHECK(decoded.error == ascii.error);
  CHECK(decoded.regions == ascii.regions);
  CHECK(decoded.table == ascii.table);
  return decoded.parsed;
}

}  // namespace

TEST_CASE("parse_ascii_toml reads every ASCII TOML file of the project as toml::parse does", "[toml-ascii]") {
  std::size_t ascii_files = 0, parsed = 0, errors = 0;
  for (const std::string& path : planlint::test::project_toml_files()) {
    const std::string text = read_text(path);
    REQUIRE(text.size() == std::filesystem::file_size(path));  // read whole
    if (!planlint::is_ascii(text)) continue;
    ++ascii_files;
    if (check_same_reading(text, path)) ++parsed;
    else ++errors;
    // As parse_toml gives it: without comment bodies.
    if (const auto lean = planlint::without_comment_bodies(text)) check_same_reading(*lean, path + " (lean)");
    // Cut off inside and at the ends of the reader's blocks: ends of input everywhere.
    for (const std::size_t length : {std::size_t{1}, std::size_t{31}, std::size_t{32}, std::size_t{33},
                                     std::size_t{64}, std::size_t{65}, text.size() / 2, text.size() - 1})
      if (length < text.size()) check_same_reading(std::string_view(text).substr(0, length), path + " cut");
  }
  // The suite's valid and invalid documents (tests/corpus/toml-test) are both here, so both
  // branches ran.
  CHECK(ascii_files > 500);
  CHECK(parsed > 100);
  CHECK(errors > 100);
}

TEST_CASE("parse_ascii_toml at the reader's edges", "[toml-ascii]") {
  // Empty, blank and one-line documents; no final line break; CRLF; a NUL byte; tabs.
  const std::vector<std::string> texts = {"", "\n", "\n\n\n", "a = 1", "a = 1\n", "a = 1\r\nb = 2\r\n",
                                          "a = \"x\ty\"\n", std::string("a = \"\0\"\n", 8), "[t]\nk = [1,\n 2,\n]\n",
                                          "a = 1\nb\n", "a =", "[", "a = \"\"\"\nx\n\"\"\"", "a = 1 # no line break"};
  for (const std::string& text : texts) check_same_reading(text, "'" + text + "'");
  // Values and errors at every place around the block boundaries (32 bytes).
  for (std::size_t pad = 0; pad < 70; ++pad) {
    const std::string key = "k" + std::string(pad, 'x');
    check_same_reading(key + " = 1\n", key);
    check_same_reading(key + " = \"v\"\nnext = 2", key + " string");
    check_same_reading(key + " = \n", key + " error");
    check_same_reading(key + "\n= 1\n", key + " error on the next line");
  }
  // Lines and columns that carry over from block to block.
  std::string long_lines;
  for (int line = 0; line < 40; ++line) long_lines += "key" + std::to_string(line) + " = \"" + std::string(line * 3, 'v') + "\"\n";
  REQUIRE(check_same_reading(long_lines, "long lines"));
  check_same_reading(long_lines + "bad = [\n", "long lines, then an error");
}

TEST_CASE("parse_ascii_toml names the file in its errors and nodes, as toml::parse does", "[toml-ascii]") {
  try {
    (void)planlint::parse_ascii_toml("a = \n", "plans/a.toml");
    FAIL("no error");
  } catch (const toml::parse_error& error) {
    REQUIRE(error.source().path);
    CHECK(*error.source().path == "plans/a.toml");
    CHECK(error.source().begin == toml::source_position{1, 5});
  }
  const toml::table named = planlint::parse_ascii_toml("a = 1\n", "plans/a.toml");
  REQUIRE(named.source().path);
  CHECK(*named.source().path == "plans/a.toml");
  REQUIRE(named["a"].node()->source().path);
  CHECK(*named["a"].node()->source().path == "plans/a.toml");
  // No path, no name: as toml::parse(text).
  const toml::table unnamed = planlint::parse_ascii_toml("a = 1\n");
  CHECK_FALSE(unnamed.source().path);
  CHECK_FALSE(toml::parse("a = 1\n").source().path);
}

TEST_CASE("parse_toml reads ASCII and non-ASCII plans alike", "[toml-ascii]") {
  // parse_toml takes the ASCII reader when the text (comment bodies removed) is ASCII, and
  // toml::parse otherwise: a comment's "×" does not keep a plan from the ASCII reader, a value's
  // "×" does. Either way the document is toml::parse's.
  const std::string commented = "# 8 × H100\n[plan]\nname = \"x\"\n";
  const std::string valued = "[plan]\nname = \"8 × H100\"\n";
  for (const std::string* text : {&commented, &valued}) {
    bool ascii = false;
    const toml::table parsed = planlint::parse_toml(*text, "doc.toml", &ascii);
    CHECK(ascii == (text == &commented));
    CHECK(parsed == toml::parse(*text, std::string_view("doc.toml")));
  }
}
