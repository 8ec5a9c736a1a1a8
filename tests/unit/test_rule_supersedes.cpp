// `supersedes`: a rule that names the cause of another rule's finding leaves that finding out
// where both point at one place, and only there; only findings the run reports count; an id no
// loaded rule has, or the rule's own, is an error where it is written.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"
#include "support.hpp"

using planlint::test::InDirectory;
using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

/// A rule of a test pack that always fires at `at`, superseding `supersedes` (TOML list items).
std::string rule_file(const std::string& id, const std::string& at, const std::string& supersedes = "") {
  return fmt::format("id = \"{}\"\ngroup = \"org\"\nseverity = \"warning\"\nsummary = \"s\"\ncheck = \"false\"\n"
                     "at = \"{}\"\nmessage = \"{} fired\"\n{}{}",
                     id, at, id, supersedes.empty() ? "" : fmt::format("supersedes = [{}]\n", supersedes),
                     planlint::test::rule_docs_stub);
}

}  // namespace

TEST_CASE("a finding is left out where a rule that supersedes its rule fires at the same place",
          "[rules][packs][supersedes]") {
  Scratch dir;
  dir.write("plan.toml", planlint::test::inference_plan_with(""));
  dir.write("policies/cause.toml", rule_file("org-cause", "cluster.gpu", "\"org-symptom\""));
  dir.write("policies/symptom.toml", rule_file("org-symptom", "cluster.gpu"));
  dir.write("policies/elsewhere.toml", rule_file("org-elsewhere", "cluster.count", "\"org-other\""));
  dir.write("policies/other.toml", rule_file("org-other", "cluster.gpu"));
  InDirectory in(dir.path);
  const std::vector<std::string> check = {"check", "--no-color", "--rules", "policies", "--select", "org"};

  SECTION("the same place: the superseded finding is left out") {
    auto args = check;
    args.push_back("plan.toml");
    auto run = run_cli(args);
    INFO(run.out << run.err);
    CHECK_THAT(run.out, Catch::Contains("[org-cause]"));
    CHECK_THAT(run.out, !Catch::Contains("[org-symptom]"));
    // Another place: both report.
    CHECK_THAT(run.out, Catch::Contains("[org-elsewhere]") && Catch::Contains("[org-other]"));
  }

  SECTION("a superseding rule the run does not report hides nothing") {
    auto args = check;
    args.insert(args.end(), {"--ignore", "org-cause", "plan.toml"});
    auto run = run_cli(args);
    INFO(run.out << run.err);
    CHECK_THAT(run.out, Catch::Contains("[org-symptom]"));
  }

  SECTION("a suppressed superseding finding still leaves the superseded one out") {
    // The suppression acknowledges the cause, and with it what the cause makes of the value.
    std::string text = planlint::test::inference_plan_with("");
    const std::string gpu = "gpu = \"h100-sxm\"\n";
    text.replace(text.find(gpu), gpu.size(), "gpu = \"h100-sxm\"  # planlint: allow org-cause -- intended\n");
    dir.write("plan.toml", text);
    auto args = check;
    args.push_back("plan.toml");
    auto run = run_cli(args);
    INFO(run.out << run.err);
    CHECK_THAT(run.out, !Catch::Contains("[org-cause]") && !Catch::Contains("[org-symptom]"));
    CHECK_THAT(run.out, Catch::Contains("[org-elsewhere]"));
  }

  SECTION("a pack's rule supersedes a built-in rule") {
    dir.write("builtin/cause.toml", rule_file("org-link", "cluster.intra_node_bandwidth", "\"gpu-link-mismatch\""));
    dir.write("plan.toml", planlint::test::inference_plan_with("intra_node_bandwidth = \"7200 GB/s\"\n"));
    auto without = run_cli({"check", "--no-color", "--select", "gpu-link-mismatch", "plan.toml"});
    CHECK_THAT(without.out, Catch::Contains("[gpu-link-mismatch]"));
    auto with = run_cli({"check", "--no-color", "--rules", "builtin", "--select", "gpu-link-mismatch,org-link",
                         "plan.toml"});
    INFO(with.out << with.err);
    CHECK_THAT(with.out, Catch::Contains("[org-link]") && !Catch::Contains("[gpu-link-mismatch]"));
  }
}

TEST_CASE("supersedes names loaded rules other than its own, and explain lists them", "[rules][packs][supersedes]") {
  Scratch dir;
  dir.write("plan.toml", planlint::test::inference_plan_with(""));
  InDirectory in(dir.path);

  SECTION("an id no loaded rule has is an error at the field, with the closest id") {
    dir.write("policies/a.toml", rule_file("org-a", "cluster.gpu", "\"estimate-mismatc\""));
    auto run = run_cli({"check", "--rules", "policies", "plan.toml"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("policies/a.toml:8:14: error: rule org-a supersedes 'estimate-mismatc', "
                                        "which is no rule of this run; did you mean 'estimate-mismatch'?"));
  }

  SECTION("a rule of a pack loaded after it is known") {
    dir.write("first/a.toml", rule_file("org-a", "cluster.gpu", "\"org-z\""));
    dir.write("second/z.toml", rule_file("org-z", "cluster.gpu"));
    CHECK(run_cli({"check", "--rules", "first", "--rules", "second", "plan.toml"}).err.empty());
  }

  SECTION("its own id, or an id that is no id, where it is written") {
    dir.write("policies/a.toml", rule_file("org-a", "cluster.gpu", "\"org-a\", \"Not An Id\""));
    auto run = run_cli({"check", "--rules", "policies", "plan.toml"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("a.toml:8:15: error: rule org-a cannot supersede itself"));
    CHECK_THAT(run.err, Catch::Contains("a.toml:8:24: error: supersedes lists rule ids as strings"));
  }

  SECTION("explain and the built-in rules' pages say what a rule supersedes") {
    auto explain = run_cli({"explain", "unit-slip"});
    CHECK_THAT(explain.out, Catch::Contains("## Supersedes") && Catch::Contains("`estimate-mismatch`"));
    std::size_t superseding = 0;
    for (const auto& rule : planlint::RuleSet::builtin().rules()) superseding += !rule->supersedes.empty();
    CHECK(superseding >= 3);  // unit-slip, moe-compute-params, goodput-not-applied
  }
}
