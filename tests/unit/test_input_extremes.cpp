// Inputs at the extremes, as fuzzing and hostile input produce them (scripts/fuzz,
// docs/hardening.md): each case is the smallest input of one failure. A case tagged
// [!mayfail] is a bug reported but not fixed yet: it runs and reports, without failing the
// suite; remove the tag with the fix. An open bug
// that is undefined behaviour is also hidden ([.]), because the sanitizer build aborts on it:
// run those with `planlint_tests "[open]"`.
#include <limits>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "support.hpp"

#include "planlint/expr/syntax.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/source/source_file.hpp"
#include "planlint/units/quantity.hpp"

using namespace planlint;

namespace {

FileResult lint(std::string text, std::string path = "plan.toml") {
  LintOptions options;
  options.today = Date{2026, 12, 1};
  return lint_source(std::make_shared<const SourceFile>(std::move(path), std::move(text)), options);
}

}  // namespace

TEST_CASE("keys nested 60,000 levels deep do not overflow toml++'s stack", "[extremes][toml-depth]") {
  // toml++ recursed once per level of a dotted key (parser::update_region_ends, the table
  // destructor) and crashed near 50,000 levels on an 8 MiB stack. Fixed by parse_toml's limit.
  std::string key = "a";
  for (int i = 0; i < 60'000; ++i) key += ".a";
  FileResult result = lint("[plan]\nname = \"deep\"\n" + key + " = 1\n");
  REQUIRE_FALSE(result.diagnostics.empty());
  CHECK(result.diagnostics.front().rule == "toml-syntax");
}

TEST_CASE("'not' and 'if' separated by line breaks count toward the expression nesting limit",
          "[extremes][expr]") {
  // parse_expression's check_bounds counted "not " and "if " only when a space followed; the
  // grammar's skipper also takes tabs and line breaks, so 1,000 nested `not` passed the limit
  // of 64 levels and recursed 1,000 deep in the parser, the checker and the evaluator.
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "not\n";
  text += "true";
  CHECK(std::holds_alternative<expr::SyntaxError>(expr::parse_expression(text)));
}

TEST_CASE("an infinite or NaN value formats in a chosen unit without undefined behaviour",
          "[extremes][units]") {
  // fuzz_quantity, input "1e300B": format_in → up_to_four → scientific → decimal_exponent
  // cast floor(log10(inf)) to int (UBSan: "inf is outside the range of representable values
  // of type 'int'"). Reachable from a plan: params = "1e150B" with tokens = "1e200" makes
  // train.flops infinite, and a message placeholder {est.train.flops:FLOP} formats it.
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THAT(units::format_in(inf, units::dims::bytes, "GB"), Catch::Contains("inf"));
  CHECK_THAT(units::format_in(-inf, units::dims::none, ""), Catch::Contains("inf"));
  CHECK_THAT(units::format_in(std::numeric_limits<double>::quiet_NaN(), units::dims::bytes, "GB"),
             Catch::Contains("nan"));
  // usd_per_gpu_second multiplies by 3600 before formatting: a finite value overflows.
  CHECK_THAT(units::format(1e306, units::dims::usd_per_gpu_second), Catch::Contains("inf"));
}

TEST_CASE("a Markdown doc with more plan blocks than the limit is an error that names it",
          "[extremes][markdown][limits]") {
  // Each plan block was linted with a copy of the whole doc whose other lines are blanked, so a
  // doc of n blocks cost n × its size: 2,000 blocks in 38 KB took 3.8 s, and a 16 MiB doc of
  // blocks would not finish. Fixed: at most 100 plans per Markdown file (--max-plans-per-file
  // raises it), and a block's copy stops at the block's end.
  test::Scratch dir;
  std::string doc = "# Capacity review\n";
  for (int i = 0; i < 150; ++i) doc += "```toml\n[plan]\nname = \"p\"\n```\n";
  const auto file = dir.write("review.md", doc);
  auto run = test::run_cli({"check", "--no-color", file.string()});
  INFO(run.out.substr(0, 2000) << run.err);
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains("150 plans") && Catch::Contains("limit of 100 plans") &&
                          Catch::Contains("--max-plans-per-file"));
}

TEST_CASE("a file that is not UTF-8 still gives valid JSON and SARIF", "[extremes][json][sarif]") {
  // fuzz_lint, input "# \xC3\n": the SARIF snippet holds the line's bytes and nlohmann's
  // dump() threw type_error 316 "invalid UTF-8 byte" (exit 2). A file name that is not UTF-8
  // did the same to the JSON output. Fixed: dump() replaces such bytes with U+FFFD.
  test::Scratch dir;
  const auto bad_content = dir.write("plan.toml", "# \xC3\n[plan]\n");
  const auto bad_name = dir.write("bad\xFF.toml", "[plan]\nname = \"x\"\n");
  for (const char* format : {"json", "sarif"}) {
    for (const auto& file : {bad_content, bad_name}) {
      auto run = test::run_cli({"check", "--format", format, file.string()});
      INFO(format << " " << file.string() << "\n" << run.out << run.err);
      CHECK(run.status == 1);
      CHECK(nlohmann::json::accept(run.out));
    }
  }
}

TEST_CASE("a baseline records findings of a file whose name is not UTF-8",
          "[extremes][baseline]") {
  // baseline.cpp dumped with nlohmann's default error handler: --write-baseline threw
  // type_error 316 (exit 2) for a file named "bad\xFF.toml". Fixed: the name is recorded with
  // U+FFFD for that byte, and matched the same way, so the baseline still accepts the findings.
  test::Scratch dir;
  const auto file = dir.write("bad\xFF.toml", "[plan]\nname = \"x\"\nhmb = 1\n");
  const std::string baseline = (dir.path / "baseline.json").string();
  auto write = test::run_cli({"check", "--write-baseline", baseline, file.string()});
  INFO(write.out << write.err);
  CHECK(write.status == 0);
  CHECK(nlohmann::json::accept(test::read_text(baseline)));
  auto check = test::run_cli({"check", "--baseline", baseline, file.string()});
  INFO(check.out << check.err);
  CHECK(check.status == 0);
}

TEST_CASE("a subnormal value formats without undefined behaviour or an exception",
          "[extremes][units]") {
  // fuzz_quantity, input "1E-323": scientific() divided by std::pow(10.0, exponent), which
  // underflows to 0 below 1e-323, so decimal_exponent() casts floor(log10(inf)) to int (UBSan:
  // "inf is outside the range of representable values of type 'int'") and fixed_significant()
  // then asks fmt for a negative precision: format(5e-324, dims::none) throws
  // fmt::format_error. A plan can state such a value ("5e-324").
  const double tiny = std::numeric_limits<double>::denorm_min();
  std::string shown;
  CHECK_NOTHROW(shown = units::format(tiny, units::dims::none));
  CHECK_THAT(shown, Catch::Contains("e-324"));
  CHECK_NOTHROW(shown = units::format_in(tiny, units::dims::none, ""));
  CHECK_THAT(shown, Catch::Contains("e-324"));
}


TEST_CASE("a value quoted in a note is cut at a character boundary and says it was cut", "[extremes][text]") {
  // A related note cut a value at 60 bytes, inside a character: text and
  // --format github output was invalid UTF-8, and "… 8 × H1" read as another GPU.
  const std::string source = "Vendor quote (Nebius) for 1-year reserved H100: 2.10 \xE2\x82\xAC \xE2\x89\x88 $2.30 per GPU-hour";
  const SourceFile file("p.toml", "source = \"" + source + "\"\nshort = \"80 GB\"\nmulti = [1,\n  2]\n");
  auto span_of = [&](std::uint32_t line, std::uint32_t column, std::uint32_t end_line, std::uint32_t end_column) {
    return Span{{line, column}, {end_line, end_column}};
  };
  const std::string cut = value_excerpt(file, span_of(1, 10, 1, static_cast<std::uint32_t>(12 + source.size())));
  CHECK(cut == "\"Vendor quote (Nebius) for 1-year reserved H100: 2.10 \xE2\x82\xAC\xE2\x80\xA6\"");
  for (std::size_t limit = 1; limit < source.size() + 2; ++limit) {
    const std::string text = value_excerpt(file, span_of(1, 10, 1, static_cast<std::uint32_t>(12 + source.size())), limit);
    INFO(limit << ": " << text);
    // Whole characters: no continuation byte right after a character's start was dropped.
    std::size_t i = 0;
    while (i < text.size()) {
      const auto lead = static_cast<unsigned char>(text[i]);
      const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
      REQUIRE(i + length <= text.size());
      for (std::size_t k = 1; k < length; ++k) REQUIRE((static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80);
      i += length;
    }
  }
  CHECK(value_excerpt(file, span_of(2, 9, 2, 16)) == "\"80 GB\"");
  CHECK(value_excerpt(file, span_of(3, 9, 4, 5)) == "[1,\xE2\x80\xA6");
  // A multi-line string showed as its opening delimiter and a single quote.
  const SourceFile strings("s.toml", "a = \"\"\"\n40\"\"\"\nb = '''\nthirty\ntwo'''\n");
  CHECK(value_excerpt(strings, span_of(1, 5, 2, 6)) == "\"\"\"40\"\"\"");
  CHECK(value_excerpt(strings, span_of(3, 5, 5, 7)) == "'''thirty\xE2\x80\xA6'''");
}

TEST_CASE("a quantity string that does not parse is quoted as a value excerpt, not whole", "[extremes][text]") {
  // "expected a number" quoted the parsed string whole: 300 characters on one line,
  // and a multi-line string's line breaks inside a GitHub annotation's message.
  const std::string plan = planlint::test::inference_plan_with("hbm = \"" + std::string(300, 'x') + "\"\n");
  const auto diagnostics = planlint::test::lint_plan_text(plan, Date{2026, 12, 2});
  bool found = false;
  for (const Diagnostic& d : diagnostics) {
    if (d.rule != "bad-quantity") continue;
    found = true;
    CHECK(d.message.size() < 140);
    CHECK_THAT(d.message, Catch::StartsWith("cluster.hbm = \"xxxx") && Catch::Contains("\xE2\x80\xA6\": expected a number"));
  }
  CHECK(found);
}
