// The result type and the diagnostic sink every loader reports through (diag/result.hpp,
// diag/diagnostic_sink.hpp).
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/diag/result.hpp"

using namespace planlint;

namespace {

Result<int> half(int n) {
  if (n % 2 != 0) return Error{"odd", Location{"n.toml", Span{{3, 7}, {3, 8}}}, "give an even number"};
  return n / 2;
}

}  // namespace

TEST_CASE("a result holds its value or the error that kept it from being made", "[result]") {
  const Result<int> four = half(8);
  REQUIRE(four);
  CHECK(*four == 4);
  CHECK(four.value_or(0) == 4);
  const Result<int> odd = half(7);
  REQUIRE_FALSE(odd);
  CHECK(odd.value_or(-1) == -1);
  CHECK(odd.error().message == "odd");
  CHECK(odd.error().location.span.begin == Position{3, 7});

  // A value that only moves (a parsed document, a rule set) moves in and out.
  Result<std::unique_ptr<int>> owned = std::make_unique<int>(5);
  std::unique_ptr<int> taken = *std::move(owned);
  REQUIRE(taken);
  CHECK(*taken == 5);

  // A parser of one string says where in it.
  const Result<double, TextError> bad = TextError{4, "expected a unit"};
  REQUIRE_FALSE(bad);
  CHECK(bad.error().offset == 4);

  const Result<void> done;
  CHECK(done);
  const Result<void> failed = Error{"cannot write 'out.sarif': Permission denied"};
  REQUIRE_FALSE(failed);
  CHECK(failed.error().message == "cannot write 'out.sarif': Permission denied");
}

TEST_CASE("an error reads as one stderr line, with its place when it has one", "[result]") {
  CHECK(error_line(Error{"invalid config '.planlint.toml'"}) == "planlint: error: invalid config '.planlint.toml'");
  CHECK(error_line(Error{"cannot read config file: No such file or directory", Location{"a/.planlint.toml", {}}}) ==
        "planlint: error: a/.planlint.toml: cannot read config file: No such file or directory");
  CHECK(error_line(half(3).error()) == "n.toml:3:7: error: odd (give an even number)");
  // A diagnostic that stops a run reads the same way.
  Diagnostic d;
  d.message = "unknown key 'selct' in [lint]";
  d.primary = Location{".planlint.toml", Span{{2, 1}, {2, 6}}};
  d.help = "did you mean 'select'?";
  CHECK(error_line(d) == ".planlint.toml:2:1: error: unknown key 'selct' in [lint] (did you mean 'select'?)");
}

TEST_CASE("a sink keeps every problem reported, in order, until taken", "[result]") {
  DiagnosticSink problems;
  CHECK(problems.empty());
  Diagnostic first;
  first.message = "first";
  problems.report(first);
  Diagnostic second;
  second.message = "second";
  problems.add(second).help = "added help";
  REQUIRE(problems.size() == 2);
  CHECK(problems.diagnostics()[1].help == "added help");
  std::size_t seen = 0;
  for (const Diagnostic& d : problems) CHECK(d.message == (seen++ == 0 ? "first" : "second"));
  const std::vector<Diagnostic> taken = problems.take();
  CHECK(taken.size() == 2);
  CHECK(problems.empty());
}
