// Regressions found by fuzzing and hostile input (scripts/fuzz, docs/hardening.md): each case is
// the minimal reproducer of one bug. A case tagged [!mayfail] is a bug reported but not fixed
// yet: it runs and reports, without failing the suite; remove the tag with the fix.
#include <string>

#include <catch2/catch.hpp>

#include "planlint/expr/syntax.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/source/source_file.hpp"

using namespace planlint;

namespace {

FileResult lint(std::string text, std::string path = "plan.toml") {
  LintOptions options;
  options.today = Date{2026, 12, 1};
  return lint_source(std::make_shared<const SourceFile>(std::move(path), std::move(text)), options);
}

}  // namespace

TEST_CASE("keys nested 60,000 levels deep do not overflow toml++'s stack", "[regression][toml-depth]") {
  // toml++ recursed once per level of a dotted key (parser::update_region_ends, the table
  // destructor) and crashed near 50,000 levels on an 8 MiB stack. Fixed by parse_toml's limit.
  std::string key = "a";
  for (int i = 0; i < 60'000; ++i) key += ".a";
  FileResult result = lint("[plan]\nname = \"deep\"\n" + key + " = 1\n");
  REQUIRE_FALSE(result.diagnostics.empty());
  CHECK(result.diagnostics.front().rule == "toml-syntax");
}

TEST_CASE("'not' and 'if' separated by line breaks count toward the expression nesting limit",
          "[regression][expr][!mayfail]") {
  // parse_expression's check_bounds counts "not " and "if " only when a space follows; the
  // grammar's skipper also takes tabs and line breaks, so 1,000 nested `not` passed the limit
  // of 64 levels and recursed 1,000 deep in the parser, the checker and the evaluator.
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "not\n";
  text += "true";
  CHECK(std::holds_alternative<expr::SyntaxError>(expr::parse_expression(text)));
}
