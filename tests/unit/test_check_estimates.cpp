// A check records the metrics' values and arithmetic only, and computes the cost-tier metrics'
// ranges (est.NAME.low / .high: up to eight more evaluations per plan) only when a rule reads
// one; `planlint report` always has the provenance and the ranges.
#include <string>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/source/source_file.hpp"
#include "support.hpp"

using namespace planlint;

namespace {

const std::string example = std::string(PLANLINT_SOURCE_DIR) + "/examples/llama-70b-pretrain.toml";

/// A rule pack whose one rule reads the upper end of train.days' range.
constexpr const char* range_rule = R"(id = "org-days-spread"
group = "governance"
severity = "warning"
summary = "The pessimistic schedule is within 20% of the estimate"
check = "est.train.days.high <= est.train.days * 1.2"
at = "training.mfu"
message = "at the pessimistic end of the assumptions training takes {est.train.days.high}, against {est.train.days}"
help = "narrow the assumptions' ranges, or plan for the pessimistic end"
docs = """
## What it does
Flags plans whose schedule could slip by more than a fifth.
## Why is this bad?
A budget signed on the point estimate will not hold.
## Example
mfu from 30% to 50%.
## Use instead
A measured MFU range.
## References
Internal checklist.
"""
)";

}  // namespace

TEST_CASE("the built-in rules read no metric range, and a rule that does says so", "[rules][ranges]") {
  CHECK_FALSE(RuleSet::builtin().reads_metric_ranges());
  test::Scratch dir;
  RuleSet rules = RuleSet::with_builtin();
  CHECK_FALSE(rules.reads_metric_ranges());
  std::vector<Diagnostic> errors;
  REQUIRE(rules.load_path(dir.write("days-spread.toml", range_rule).string(), errors));
  REQUIRE(errors.empty());
  CHECK(rules.reads_metric_ranges());
}

TEST_CASE("a check computes the metrics' ranges only when a rule reads them", "[rules][ranges]") {
  auto text = read_file(example);
  REQUIRE(text);
  const auto source = std::make_shared<const SourceFile>(example, *std::move(text));

  LintOptions report_options;  // planlint report: always
  const FileResult reported = lint_source(source, report_options);
  REQUIRE(reported.estimates);
  const MetricValue* days = reported.estimates->find("train.days");
  REQUIRE(days);
  REQUIRE(days->has_range());
  CHECK(*days->high > days->value * 1.2);  // mfu 30–50%: the rule below fires

  CHECK_FALSE(days->inputs.empty());
  CHECK_FALSE(days->formula.empty());

  LintOptions check_options;  // planlint check with the built-in rules: values and arithmetic
  check_options.full_estimates = false;
  const FileResult checked = lint_source(source, check_options);
  REQUIRE(checked.estimates);
  const MetricValue* checked_days = checked.estimates->find("train.days");
  REQUIRE(checked_days);
  CHECK(checked_days->value == days->value);
  CHECK(checked_days->arithmetic.str() == days->arithmetic.str());
  CHECK_FALSE(checked_days->has_range());
  CHECK(checked_days->inputs.empty());
  CHECK(checked_days->formula.empty());
  CHECK(checked.estimates->range_sources().empty());
  // Every metric has the same value and arithmetic as the full estimate's.
  REQUIRE(checked.estimates->values().size() == reported.estimates->values().size());
  for (const MetricValue& metric : reported.estimates->values()) {
    INFO(metric.name);
    const MetricValue* same = checked.estimates->find(metric.name);
    REQUIRE(same);
    CHECK(same->value == metric.value);
    CHECK(same->arithmetic.str() == metric.arithmetic.str());
  }
  // Nothing a check shows changes: the same findings either way.
  REQUIRE(checked.diagnostics.size() == reported.diagnostics.size());
  for (std::size_t i = 0; i < checked.diagnostics.size(); ++i) {
    CHECK(checked.diagnostics[i].rule == reported.diagnostics[i].rule);
    CHECK(checked.diagnostics[i].message == reported.diagnostics[i].message);
    CHECK(checked.diagnostics[i].notes == reported.diagnostics[i].notes);
  }

  SECTION("a rule pack that reads a range gets it, with the provenance it is found through") {
    test::Scratch dir;
    RuleSet rules = RuleSet::with_builtin();
    std::vector<Diagnostic> errors;
    REQUIRE(rules.load_path(dir.write("days-spread.toml", range_rule).string(), errors));
    check_options.rules = &rules;
    const FileResult with_pack = lint_source(source, check_options);
    REQUIRE(with_pack.estimates);
    CHECK(with_pack.estimates->find("train.days")->has_range());
    CHECK(with_pack.estimates->find("train.days")->high == days->high);
    bool fired = false;
    for (const Diagnostic& d : with_pack.diagnostics)
      if (d.rule == "org-days-spread") fired = true;
    CHECK(fired);
  }

  SECTION("through --rules on the command line") {
    test::Scratch dir;
    dir.write("pack/days-spread.toml", range_rule);
    auto run = test::run_cli({"check", "--no-color", "--today", "2026-11-30", "--rules",
                              (dir.path / "pack").string(), example});
    CHECK_THAT(run.out, Catch::Contains("[org-days-spread]") &&
                            Catch::Contains("at the pessimistic end of the assumptions training takes"));
  }
}
