// A string left open is reported at its opening quote, saying so, rather than where toml++
// gives up (the end of the line, in its words about control characters).
#include <catch2/catch.hpp>

#include "planlint/source/toml_limits.hpp"
#include "support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

struct Unclosed {
  const char* text;
  std::uint32_t line, column;  ///< of the opening quote (code points)
  const char* description;
};

}  // namespace

TEST_CASE("an unclosed string is an error at its opening quote", "[toml-syntax][unclosed-string]") {
  const Unclosed cases[] = {
      {"[model]\nprecision = \"bf16\nx = 1\n", 2, 13,
       "the string that opens here is not closed: end it with \" on the same line"},
      {"a = 'bf16\n", 1, 5, "the literal string that opens here is not closed: end it with ' on the same line"},
      {"a = \"\"\"\nline\nb = 1\n", 1, 5, "the multi-line string that opens here is not closed: end it with \"\"\""},
      {"a = '''\nline\n", 1, 5, "the multi-line literal string that opens here is not closed: end it with '''"},
      // After closed strings of every kind, a comment with a quote, and wide characters.
      {"a = \"x\\\"y\" # it's\nb = '''\n'q'\n'''\nc = \"\"\"\n\"\n\"\"\"\n\"é\" = 'ü'\nd = \"ß\n", 9, 5,
       "the string that opens here is not closed: end it with \" on the same line"},
      {"\"key = 1\n", 1, 1, "the string that opens here is not closed: end it with \" on the same line"},
  };
  for (const Unclosed& c : cases) {
    INFO(c.text);
    const TomlResult parsed = parse_toml(c.text);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().description == c.description);
    CHECK(parsed.error().source.begin.line == c.line);
    CHECK(parsed.error().source.begin.column == c.column);
  }
}

TEST_CASE("an error before an unclosed string keeps toml++'s words", "[toml-syntax][unclosed-string]") {
  const TomlResult parsed = parse_toml("a = = 1\nb = \"open\n");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().source.begin.line == 1);
  CHECK_THAT(parsed.error().description, !Catch::Contains("not closed"));
}

TEST_CASE("a plan's unclosed string: toml-syntax at the quote, the span one character", "[toml-syntax][unclosed-string]") {
  const LoadResult result = load_text("[plan]\nname = \"x\"\n[model]\nprecision = \"bf16\n");
  REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"toml-syntax"});
  const Diagnostic& d = result.diagnostics.front();
  CHECK(d.message == "invalid TOML: the string that opens here is not closed: end it with \" on the same line");
  CHECK(d.primary.span.begin == Position{4, 13});
  CHECK(d.primary.span.end == Position{4, 14});
}
