// The time budget of rules (rules/rule_cost.hpp): a rule's cost on one plan is its nodes times
// the elements its `each` walks, the rules of a run share one budget, and a pack that would
// cross it is refused before any plan is linted, naming the rule.
#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_cost.hpp"
#include "planlint/rules/rule_set.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

/// A rule file whose check doubles `it.value` through `depth` lets: 2^(depth+1) + 1 nodes.
std::string doubling_rule(const std::string& id, std::string_view each, int depth) {
  std::string lets = "a0 = \"" + std::string(each.empty() ? "training.mfu" : "it.value") + "\"\n";
  for (int i = 1; i <= depth; ++i) lets += fmt::format("a{} = \"(a{} + a{})\"\n", i, i - 1, i - 1);
  return fmt::format("id = \"{}\"\ngroup = \"governance\"\nseverity = \"warning\"\nsummary = \"s\"\n{}"
                     "check = \"a{} > 0% or true\"\nmessage = \"m\"\n{}[let]\n{}",
                     id, each.empty() ? "" : fmt::format("each = \"{}\"\n", each), depth, rule_docs_stub, lets);
}

std::uint64_t cost_of(const std::string& text) {
  RuleSet rules;
  std::vector<Diagnostic> errors;
  REQUIRE(rules.load(std::make_shared<const SourceFile>("rule.toml", text), errors));
  REQUIRE(rules.rules().size() == 1);
  return evaluation_cost(*rules.rules().front());
}

}  // namespace

TEST_CASE("a rule's cost is its nodes times the elements its each walks", "[rules][budget]") {
  CHECK(max_elements("") == 1);
  CHECK(max_elements("assumptions") == max_array_entries);
  CHECK(max_elements("targets") == max_array_entries);
  CHECK(max_elements("benchmarks") == max_array_entries);
  CHECK(max_elements("estimates") == metric_count);
  // The check (31 nodes of doubled value, then `> 0%` and `or true`, two each), the message none.
  const std::uint64_t once = cost_of(doubling_rule("org-once", "", 4));
  CHECK(once == 31 + 2 + 2);
  CHECK(cost_of(doubling_rule("org-each", "assumptions", 4)) == once * max_array_entries);
  CHECK(cost_of(doubling_rule("org-claims", "estimates", 4)) == once * metric_count);
}

TEST_CASE("the built-in rules leave most of the evaluation budget to packs", "[rules][budget]") {
  std::uint64_t builtin = 0;
  for (const auto& rule : RuleSet::builtin().rules()) builtin += evaluation_cost(*rule);
  INFO(builtin << " of " << max_rules_evaluation_cost);
  CHECK(builtin > 0);
  CHECK(builtin * 3 < max_rules_evaluation_cost);
}

TEST_CASE("a pack of each rules past the time budget is refused before a plan is linted, naming the rule",
          "[rules][budget][hostile]") {
  Scratch dir;
  // 20 rules within every node budget (2,051 nodes each) over up to 10,000 assumptions: 410
  // million nodes, which ran for a minute.
  for (int r = 0; r < 20; ++r)
    dir.write(fmt::format("pack/heavy{:02}.toml", r), doubling_rule(fmt::format("org-heavy-{}", r), "assumptions", 10));
  const std::string plan = dir.write("plan.toml", read_text(data_path("rules/sparse-peak/fires.toml"))).string();
  auto run = run_cli({"check", "--rules", (dir.path / "pack").string(), plan});
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::StartsWith((dir.path / "pack/heavy00.toml").string() +
                                        ":5:8: error: rule org-heavy-0 may evaluate 20510000 expression nodes on one "
                                        "plan (2051 nodes for each of up to 10000 assumptions), more than the "));
  CHECK_THAT(run.err, Catch::Contains("planlint's fixed budget of 16777216"));

  // One such rule of a tenth the size fits, and runs.
  auto one = run_cli({"check", "--rules", dir.write("small.toml", doubling_rule("org-small", "assumptions", 7)).string(),
                      plan});
  CHECK(one.status == 1);
  CHECK(one.err.empty());
}
