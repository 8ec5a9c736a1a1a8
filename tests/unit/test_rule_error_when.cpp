// `error_when`: a finding is an error where the condition holds, else the rule's severity; the
// config's [lint.severity] still wins; a rule of severity error cannot have one.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "support.hpp"

using planlint::test::InDirectory;
using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

/// A pack rule that fires for more than 4 GPUs, an error from `error_from` GPUs.
std::string rule_file(const std::string& severity, const std::string& error_from) {
  return fmt::format("id = \"org-many-gpus\"\ngroup = \"org\"\nseverity = \"{}\"\nsummary = \"s\"\n"
                     "check = \"cluster.count <= 4 GPU\"\nerror_when = \"cluster.count >= {} GPU\"\n"
                     "at = \"cluster.count\"\nmessage = \"{{cluster.count}}\"\n{}",
                     severity, error_from, planlint::test::rule_docs_stub);
}

}  // namespace

TEST_CASE("error_when raises a finding to an error where it holds, and only there", "[rules][packs][error-when]") {
  Scratch dir;
  dir.write("plan.toml", planlint::test::inference_plan_with(""));  // 8 GPUs
  InDirectory in(dir.path);
  const std::vector<std::string> check = {"check", "--no-color", "--rules", "policies", "--select", "org", "plan.toml"};

  SECTION("far past the check: an error") {
    dir.write("policies/rule.toml", rule_file("warning", "8"));
    auto run = run_cli(check);
    INFO(run.out << run.err);
    CHECK_THAT(run.out, Catch::Contains("error:") && Catch::Contains("[org-many-gpus]"));
    CHECK(run.status == 1);
  }
  SECTION("past the check but not as far: the rule's severity") {
    dir.write("policies/rule.toml", rule_file("warning", "100000"));
    auto run = run_cli(check);
    INFO(run.out << run.err);
    CHECK_THAT(run.out, Catch::Contains("warning:") && Catch::Contains("[org-many-gpus]"));
    CHECK(run.status == 0);
  }
  SECTION("a configured severity wins") {
    dir.write("policies/rule.toml", rule_file("warning", "8"));
    dir.write(".planlint.toml", "[lint.severity]\norg-many-gpus = \"note\"\n");
    auto run = run_cli(check);
    INFO(run.out << run.err);
    CHECK_THAT(run.out, Catch::Contains("note:") && Catch::Contains("[org-many-gpus]"));
  }
  SECTION("a rule whose severity is error already cannot have one") {
    dir.write("policies/rule.toml", rule_file("error", "8"));
    auto run = run_cli(check);
    INFO(run.out << run.err);
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("error_when raises a finding to an error"));
  }
}
