// `planlint new training|inference`: each template is a whole plan that lints with warnings
// only for the sources the writer must supply, carries the day it was printed, and is never
// written over an existing file.
#include <regex>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/plan/templates.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

/// The rule ids of the findings in text output.
std::multiset<std::string> rules_in(const std::string& text) {
  std::multiset<std::string> rules;
  static const std::regex header(R"(^\S+:\d+:\d+: (error|warning|note): .* \[([a-z0-9-]+)\]$)");
  std::smatch match;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (std::regex_match(line, match, header)) rules.insert(match[2]);
  return rules;
}

}  // namespace

TEST_CASE("each plan template lints clean but for the sources it asks for", "[new]") {
  REQUIRE(planlint::template_kinds().size() == 2);
  for (std::string_view kind : planlint::template_kinds()) {
    CAPTURE(kind);
    auto printed = run_cli({"new", std::string(kind), "--today", "2026-12-01"});
    REQUIRE(printed.status == 0);
    CHECK(printed.err.empty());
    CHECK_THAT(printed.out, Catch::Contains("kind = \"" + std::string(kind) + "\""));
    CHECK_THAT(printed.out, Catch::Contains("updated = 2026-12-01"));
    CHECK_THAT(printed.out, !Catch::Contains("2000-01-01"));

    Scratch dir;
    const fs::path plan = dir.write("plan.toml", printed.out);
    auto check = run_cli({"--no-color", "--today", "2026-12-01", plan.string()});
    INFO(check.out);
    CHECK(check.status == 0);
    const std::multiset<std::string> rules = rules_in(check.out);
    CHECK_FALSE(rules.empty());
    CHECK(rules.size() == rules.count("assumption-missing-source"));
    CHECK(run_cli({"report", plan.string()}).status == 0);

    // With the sources written in, nothing is left to say.
    const std::string sourced = std::regex_replace(printed.out, std::regex("# source = "), "source = ");
    const fs::path complete = dir.write("complete.toml", sourced);
    auto clean = run_cli({"--no-color", "--today", "2026-12-01", complete.string()});
    INFO(clean.out);
    CHECK(clean.status == 0);
    CHECK_THAT(clean.out, Catch::StartsWith("no problems in 1 file"));

    // A month on, the same template is still current; two years on, it is stale.
    CHECK(rules_in(run_cli({"--no-color", "--today", "2027-01-01", complete.string()}).out).empty());
    CHECK(rules_in(run_cli({"--no-color", "--today", "2028-12-01", complete.string()}).out).count("plan-stale") == 1);
  }
}

TEST_CASE("planlint new writes to -o only a file that does not exist", "[new]") {
  Scratch dir;
  const fs::path plan = dir.path / "plans/new.toml";
  fs::create_directories(plan.parent_path());
  auto written = run_cli({"new", "inference", "--today", "2026-12-01", "-o", plan.string()});
  CHECK(written.status == 0);
  CHECK(written.out.empty());
  CHECK_THAT(written.err, Catch::Contains("wrote the inference plan template to"));
  const std::string text = planlint::test::read_text(plan);
  CHECK(text == run_cli({"new", "inference", "--today", "2026-12-01"}).out);

  dir.write("plans/new.toml", "# my plan\n");
  auto again = run_cli({"new", "training", "-o", plan.string()});
  CHECK(again.status == 2);
  CHECK_THAT(again.err, Catch::Contains("already exists"));
  CHECK(planlint::test::read_text(plan) == "# my plan\n");
}

TEST_CASE("planlint new rejects an unknown kind and a bad date", "[new]") {
  auto unknown = run_cli({"new", "finetuning"});
  CHECK(unknown.status == 2);
  CHECK_THAT(unknown.err, Catch::Contains("training") && Catch::Contains("inference"));
  CHECK(run_cli({"new", "training", "--today", "2026-13-01"}).status == 2);
  CHECK_FALSE(planlint::plan_template("finetune", planlint::Date{2026, 12, 1}));
}

TEST_CASE("each template's gpu line points to planlint gpus, which lists the catalog's ids", "[new][docs]") {
  for (std::string_view kind : planlint::template_kinds()) {
    CAPTURE(kind);
    const std::string text = *planlint::plan_template(kind, planlint::Date{2026, 12, 1});
    const std::size_t gpu = text.find("\ngpu = ");
    REQUIRE(gpu != std::string::npos);
    const std::string line = text.substr(gpu + 1, text.find('\n', gpu + 1) - gpu - 1);
    CHECK_THAT(line, Catch::Contains("`planlint gpus`"));
    CHECK(line.find("planlint rules") == std::string::npos);
  }
}
