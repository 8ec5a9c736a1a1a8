// SARIF's rule and tool metadata: a helpUri on every rule (the documentation's base URL from
// the build, or a config's docs_url), the driver's fullName and informationUri, and the run's
// automationDetails.id.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/diag/docs_links.hpp"

using namespace planlint::test;
using nlohmann::json;

namespace {

json sarif_of(const std::vector<std::string>& paths) {
  std::vector<std::string> args = {"check", "--format", "sarif"};
  args.insert(args.end(), paths.begin(), paths.end());
  const auto run = run_cli(args);
  INFO(run.err);
  REQUIRE(run.status == 1);
  return json::parse(run.out);
}

}  // namespace

TEST_CASE("SARIF: every rule has a helpUri under the build's docs URL, and the driver names planlint", "[sarif][metadata]") {
  Scratch dir;
  dir.write("plan.toml", inference_plan_with("hmb = 1\n") + "[inference]\nprecision = \"bf16\n");
  dir.write("b.toml", inference_plan_with("hmb = 1\ngpu_count = 3\n"));
  InDirectory here(dir.path);
  const json log = sarif_of({"plan.toml", "b.toml"});
  const json& run = log["runs"][0];
  const json& driver = run["tool"]["driver"];
  CHECK(driver["fullName"] == std::string("planlint ") + PLANLINT_VERSION + ": a linter for AI compute capacity plans");
  CHECK(driver["informationUri"] == "https://github.com/planlint/planlint");
  REQUIRE(driver["rules"].size() >= 2);
  const std::string base(planlint::build_docs_url());
  CHECK(base.starts_with("https://"));
  CHECK(base.ends_with("/"));
  for (const json& rule : driver["rules"]) {
    INFO(rule["id"]);
    CHECK(rule["helpUri"] == base + "rules/" + rule["id"].get<std::string>() + ".md");
    // The page exists in this tree's docs.
    CHECK(fs::exists(fs::path(PLANLINT_SOURCE_DIR) / "docs" / "rules" / (rule["id"].get<std::string>() + ".md")));
  }
  CHECK(run["automationDetails"]["id"] == "planlint/");
}

TEST_CASE("SARIF: a config's docs_url replaces the build's, and names the automation id", "[sarif][metadata][config]") {
  Scratch dir;
  dir.write("plans/plan.toml", inference_plan_with("hmb = 1\n"));
  dir.write(".planlint.toml", "[lint]\ndocs_url = \"https://docs.example.com/planlint\"\n");
  InDirectory here(dir.path);
  const json log = sarif_of({"plans"});
  for (const json& rule : log["runs"][0]["tool"]["driver"]["rules"])
    CHECK(rule["helpUri"] == "https://docs.example.com/planlint/rules/" + rule["id"].get<std::string>() + ".md");
  CHECK(log["runs"][0]["automationDetails"]["id"] == "planlint/.planlint.toml");
  // --config names the configuration of the analysis.
  dir.write("ci/strict.toml", "[lint]\nfail_on = \"warning\"\n");
  const auto strict = run_cli({"check", "--format", "sarif", "--config", "ci/strict.toml", "plans"});
  CHECK(json::parse(strict.out)["runs"][0]["automationDetails"]["id"] == "planlint/ci/strict.toml");
  // Not a URL: the config is invalid.
  dir.write(".planlint.toml", "[lint]\ndocs_url = \"docs/\"\n");
  const auto bad = run_cli({"check", "plans"});
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Contains(".planlint.toml:2:12: error: lint.docs_url = \"docs/\": expected an http:// or https:// URL"));
}

TEST_CASE("the language server links a built-in rule to the same page", "[sarif][metadata][lsp]") {
  CHECK(planlint::rule_docs_url("https://x.example/docs/", "memory-fit") == "https://x.example/docs/rules/memory-fit.md");
  CHECK(planlint::rule_docs_url("https://x.example/docs", "memory-fit") == "https://x.example/docs/rules/memory-fit.md");
}
