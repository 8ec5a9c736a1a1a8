// planlint's TOML lexer (source/toml_lexer.hpp): tokens that tile the text, keys told from
// values and headers from arrays as TOML's grammar does, strings that close where toml++
// closes them and decode to toml++'s values, with the map back to the file.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <toml++/toml.h>

#include "integration_support.hpp"
#include "planlint/source/toml_lexer.hpp"
#include "support.hpp"

using namespace planlint;
using Kind = TomlTokenKind;

namespace {

std::vector<TomlToken> tokens_of(std::string_view text) {
  std::vector<TomlToken> tokens;
  TomlLexer lexer(text);
  for (TomlToken token = lexer.next(); token.kind != Kind::end; token = lexer.next()) tokens.push_back(token);
  return tokens;
}

/// "kind:text" for each token that is not blank, `key:` for a key's part.
std::vector<std::string> shown(std::string_view text) {
  std::vector<std::string> out;
  for (const TomlToken& token : tokens_of(text)) {
    if (token.kind == Kind::whitespace) continue;
    static const char* const names[] = {"end",    "ws",     "nl",     "comment", "bare",   "basic",
                                        "literal", "ml-basic", "ml-literal", "dot", "equals", "comma",
                                        "header[", "header]", "array[",  "array]", "table{", "table}"};
    std::string name = names[static_cast<int>(token.kind)];
    if (token.key) name = "key-" + name;
    out.push_back(name + ":" + std::string(token.text(text)));
  }
  return out;
}

using Shown = std::vector<std::string>;

}  // namespace

TEST_CASE("the lexer's tokens tile the text, each with its line", "[toml-lexer]") {
  const std::string text = "# c\r\n[a] # h\n x = \"\"\"\n1\n\"\"\" \t\n\xEF\xBB\xBF\r";
  std::size_t at = 0;
  std::uint32_t line = 1;
  for (const TomlToken& token : tokens_of(text)) {
    CHECK(token.begin == at);
    CHECK(token.end > token.begin);
    CHECK(token.line == line);
    for (std::size_t i = token.begin; i < token.end; ++i) line += text[i] == '\n';
    at = token.end;
  }
  CHECK(at == text.size());
}

TEST_CASE("keys are told from values, and headers from arrays", "[toml-lexer]") {
  CHECK(shown("a.\"b\".'c' = 1.5e3\n") ==
        Shown{"key-bare:a", "dot:.", "key-basic:\"b\"", "dot:.", "key-literal:'c'", "equals:=", "bare:1.5e3", "nl:\n"});
  CHECK(shown("[a . b]\n[[c]] # x\r\n") ==
        Shown{"header[:[", "key-bare:a", "dot:.", "key-bare:b", "header]:]", "nl:\n", "header[:[[", "key-bare:c",
              "header]:]]", "comment:# x", "nl:\r\n"});
  // A '[' after '=' or inside an array is an array's, on any line.
  CHECK(shown("x = [\n[1],\n]\n") ==
        Shown{"key-bare:x", "equals:=", "array[:[", "nl:\n", "array[:[", "bare:1", "array]:]", "comma:,", "nl:\n",
              "array]:]", "nl:\n"});
  // An inline table's keys: after '{' and after its commas, not after an array's.
  CHECK(shown("t = {a = [1, 2], b.c = 'x'}\n") ==
        Shown{"key-bare:t", "equals:=", "table{:{", "key-bare:a", "equals:=", "array[:[", "bare:1", "comma:,",
              "bare:2", "array]:]", "comma:,", "key-bare:b", "dot:.", "key-bare:c", "equals:=", "literal:'x'",
              "table}:}", "nl:\n"});
  // Dates and times, with their space; a value's dots are its own.
  CHECK(shown("d = 1979-05-27 07:32:00.5\n") ==
        Shown{"key-bare:d", "equals:=", "bare:1979-05-27", "bare:07:32:00.5", "nl:\n"});
  // A byte order mark at the start is blank, as toml++ reads it: the header after it is one.
  CHECK(shown("\xEF\xBB\xBF[plan]\n") == Shown{"header[:[", "key-bare:plan", "header]:]", "nl:\n"});
  // What TOML has no place for is still a token: toml++ reports it.
  CHECK(shown("a\rb = \x01\n") == Shown{"key-bare:a\rb", "equals:=", "bare:\x01", "nl:\n"});
}

TEST_CASE("strings close where TOML closes them", "[toml-lexer]") {
  auto first_string = [](std::string_view text) {
    for (const TomlToken& token : tokens_of(text))
      if (token.is_string()) return token;
    return TomlToken{};
  };
  struct Case {
    const char* text;
    const char* string;
    bool closed;
  };
  const Case cases[] = {
      {"a = \"x # y\" # z", "\"x # y\"", true},
      {"a = \"\\\"#\"", "\"\\\"#\"", true},
      {"a = 'it''", "'it'", true},
      {"a = \"\"\"x\"\"\"\"\" # z", "\"\"\"x\"\"\"\"\"", true},  // up to two quotes before the closing three are the string's
      {"a = '''\n# not\n''' #", "'''\n# not\n'''", true},
      {"a = \"\"\n", "\"\"", true},
      {"a = \"open\nb = 1", "\"open", false},
      {"a = \"open\r\nb = 1", "\"open", false},   // the line break, '\r' included, is not the string's
      {"a = \"x\\\nb = \"", "\"x\\", false},      // an escape does not take a line break into a one-line string
      {"a = '''open\n", "'''open\n", false},
      {"a = \"\"\"", "\"\"\"", false},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const TomlToken token = first_string(c.text);
    CHECK(token.text(c.text) == c.string);
    CHECK(token.closed == c.closed);
    // toml++ agrees: a string left open is a syntax error.
    if (!c.closed) CHECK_FALSE(toml::parse(std::string("k = ") + c.string));
  }
}

TEST_CASE("a string decodes to toml++'s value, each byte mapped back to its place", "[toml-lexer]") {
  const std::string text = "k = \"a\\tb\\u00E9c\\\\\"";
  TomlLexer lexer(text);
  TomlToken token;
  do token = lexer.next();
  while (!token.is_string());
  TomlStringValue value;
  REQUIRE(decode_toml_string(text, token, value));
  CHECK(value.text == "a\tb\xC3\xA9" "c\\");
  // a, \t, b, \u00E9 (two bytes), c, \\ and the end at the closing quote.
  const std::vector<std::size_t> expected = {5, 6, 8, 9, 9, 15, 16, 18};
  for (std::size_t d = 0; d <= value.text.size(); ++d) CHECK(value.source_offset(d) == expected[d]);

  struct Case {
    const char* string;
    const char* value;
  };
  const Case cases[] = {
      {"'C:\\path'", "C:\\path"},
      {"\"\"\"\nline 1\r\nline 2\"\"\"", "line 1\nline 2"},  // the first line break trimmed, CRLF read as LF
      {"\"\"\"a \\  \n\n   b\"\"\"", "a b"},                  // a line-ending backslash trims what follows
      {"'''\r\nx''''", "x'"},
      {"\"\\U0001F600\"", "\xF0\x9F\x98\x80"},
  };
  for (const Case& c : cases) {
    INFO(c.string);
    const std::string document = std::string("k = ") + c.string + "\n";
    TomlLexer strings(document);
    TomlToken string = strings.next_comment_or_string();
    REQUIRE(decode_toml_string(document, string, value));
    CHECK(value.text == c.value);
    CHECK(toml::parse(document)["k"].value<std::string>() == std::string(c.value));
  }
  // What toml++ rejects does not decode.
  for (const char* rejected : {"\"\\x41\"", "\"\\uD800\"", "\"a\x01\"", "\"\\u12\"", "'''a\rb'''", "\"\"\"a\\ b\"\"\""}) {
    INFO(rejected);
    const std::string document = std::string("k = ") + rejected + "\n";
    TomlLexer strings(document);
    CHECK_FALSE(decode_toml_string(document, strings.next_comment_or_string(), value));
    CHECK_FALSE(toml::parse(document));
  }
}

TEST_CASE("the lexer agrees with toml++ on every string of the project's TOML files", "[toml-lexer]") {
  // Every string token as a key's value: toml++ reads what the lexer decodes, and fails on what
  // it leaves open. And next_comment_or_string finds the comments and strings next() finds.
  const std::vector<std::string> files = planlint::test::project_toml_files();
  REQUIRE(files.size() > 500);
  std::size_t strings = 0, agreed = 0;
  TomlStringValue value;
  for (const std::string& path : files) {
    const std::string text = planlint::test::read_text(path);
    INFO(path);
    std::vector<TomlToken> found;
    for (const TomlToken& token : tokens_of(text)) {
      if (token.kind != Kind::comment && !token.is_string()) continue;
      found.push_back(token);
      if (!token.is_string()) continue;
      ++strings;
      const bool decoded = decode_toml_string(text, token, value);
      const std::string document = "k = " + std::string(token.text(text)) + "\n";
      const toml::parse_result parsed = toml::parse(document);
      if (!token.closed) CHECK_FALSE(parsed);
      if (!parsed) continue;
      CHECK(decoded);
      CHECK(parsed["k"].value<std::string>() == value.text);
      ++agreed;
    }
    TomlLexer coarse(text);
    std::size_t index = 0;
    for (TomlToken token = coarse.next_comment_or_string(); token.kind != Kind::end;
         token = coarse.next_comment_or_string(), ++index) {
      REQUIRE(index < found.size());
      CHECK((token.begin == found[index].begin && token.end == found[index].end && token.line == found[index].line));
    }
    CHECK(index == found.size());
  }
  CHECK(agreed > 5000);
  CHECK(strings > agreed);  // the invalid documents' strings are exercised too
}
