// SARIF output: the official validator (Sarif.Multitool with the GitHub rule kinds) accepts
// every golden case's log, and the log carries what code scanning needs.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/emit/fingerprint.hpp"
#include "planlint/emit/sarif.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

/// Every input of the golden tests (tests/golden/*.toml, the Markdown docs of tests/data) and
/// the examples, whose findings carry related locations and notes.
std::vector<fs::path> golden_inputs() {
  std::vector<fs::path> inputs;
  for (const auto& entry : fs::directory_iterator(fs::path(PLANLINT_SOURCE_DIR) / "examples"))
    if (entry.path().extension() == ".toml") inputs.push_back(entry.path());
  for (const auto& entry : fs::directory_iterator(fs::path(PLANLINT_SOURCE_DIR) / "tests/golden"))
    if (entry.path().extension() == ".toml") inputs.push_back(entry.path());
  for (const auto& entry : fs::directory_iterator(fs::path(PLANLINT_SOURCE_DIR) / "tests/data/markdown"))
    if (entry.path().extension() == ".md") inputs.push_back(entry.path());
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

json sarif_of(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"check", "--format", "sarif"};
  all.insert(all.end(), args.begin(), args.end());
  auto run = run_cli(all);
  INFO(run.err);
  REQUIRE(run.status != 2);
  return json::parse(run.out);
}

constexpr const char* plan_with_typo = R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
[cluster]
gpu = "h100-sxm"
count = 8
hmb = "80 GB"
)";

}  // namespace

TEST_CASE("every golden case's SARIF passes the official validator with the GitHub rules",
          "[sarif][validator]") {
  planlint::test::InDirectory cwd(PLANLINT_SOURCE_DIR);
  Scratch scratch;
  std::vector<std::string> logs;
  for (const fs::path& input : golden_inputs()) {
    auto run = run_cli({"check", "--format", "sarif", fs::relative(input).string()});
    INFO(input.string() << "\n" << run.err);
    REQUIRE(run.status != 2);
    fs::path log = scratch.write(input.filename().string() + ".sarif", run.out);
    logs.push_back(log.string());
  }
  // A log over its result limit, with the run's notification that says so.
  auto limited = run_cli({"check", "--format", "sarif", "--sarif-max-results", "2", "examples"});
  REQUIRE(limited.status != 2);
  REQUIRE_THAT(limited.out, Catch::Contains("toolExecutionNotifications"));
  logs.push_back(scratch.write("limited.sarif", limited.out).string());
  const auto multitool = planlint::test::sarif_multitool();
  if (!multitool) return;
  // One validator run for all logs: it takes seconds to start.
  const fs::path report = scratch.path / "validation.sarif";
  std::string command = planlint::test::quote(*multitool) + " validate";
  for (const std::string& log : logs) command += " " + planlint::test::quote(log);
  command += " --rule-kind \"Gh;Sarif\" --log ForceOverwrite -o " + planlint::test::quote(report.string());
  std::string output;
  int status = planlint::test::run_command(command, output);
  INFO(command << "\n" << output);
  REQUIRE(status == 0);
  json validation = json::parse(planlint::test::read_text(report));
  std::vector<std::string> problems;
  for (const json& result : validation["runs"][0]["results"]) {
    // A result without a level is a warning (SARIF 3.27.10); notes are advice only.
    std::string level = result.value("level", "warning");
    if (level != "error" && level != "warning") continue;
    problems.push_back(result.dump());
  }
  INFO("validator findings:\n" << [&] {
    std::string all;
    for (const auto& p : problems) all += p + "\n";
    return all;
  }());
  CHECK(problems.empty());
}

TEST_CASE("a SARIF result names its rule by id and index, with a repository-relative location",
          "[sarif]") {
  Scratch dir;
  auto plan = dir.write("plans/plan.toml", plan_with_typo);
  planlint::test::InDirectory cwd(dir.path);
  json log = sarif_of({"plans/plan.toml"});
  const json& run = log["runs"][0];
  CHECK(log["version"] == "2.1.0");
  CHECK(run["tool"]["driver"]["name"] == "planlint");
  CHECK(run["originalUriBaseIds"]["%SRCROOT%"]["uri"].get<std::string>().starts_with("file:///"));
  REQUIRE(run["results"].size() == 1);
  const json& result = run["results"][0];
  CHECK(result["ruleId"] == "unknown-key");
  const json& rule = run["tool"]["driver"]["rules"][result["ruleIndex"].get<std::size_t>()];
  CHECK(rule["id"] == "unknown-key");
  CHECK(rule["properties"]["tags"] == json::array({"structure"}));
  CHECK(rule["defaultConfiguration"]["level"] == "error");
  CHECK(rule["help"]["markdown"].get<std::string>().find("## What it does") != std::string::npos);
  const json& location = result["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"]["uri"] == "plans/plan.toml");
  CHECK(location["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(location["region"]["startLine"] == 9);
  CHECK(location["region"]["startColumn"] == 1);
  CHECK(location["region"]["endColumn"] == 4);
  CHECK(location["region"]["snippet"]["text"] == "hmb");
  // The unknown key has a safe rename.
  REQUIRE(result["fixes"].size() == 1);
  CHECK(result["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] == "hbm");
  CHECK(!result.contains("suppressions"));
}

TEST_CASE("SARIF fingerprints survive edits elsewhere in the file", "[sarif]") {
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", plan_with_typo);
  json before = sarif_of({"plan.toml"});
  dir.write("plan.toml", std::string("# a comment\n\n") + plan_with_typo);
  json after = sarif_of({"plan.toml"});
  const json& a = before["runs"][0]["results"][0];
  const json& b = after["runs"][0]["results"][0];
  CHECK(a["locations"][0]["physicalLocation"]["region"]["startLine"] !=
        b["locations"][0]["physicalLocation"]["region"]["startLine"]);
  CHECK(a["partialFingerprints"] == b["partialFingerprints"]);
}

TEST_CASE("inline-suppressed findings are SARIF results with an inSource suppression", "[sarif][suppress]") {
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  std::string plan = plan_with_typo;
  plan.replace(plan.find("hmb = \"80 GB\""), 13, "hmb = \"80 GB\"  # planlint: allow unknown-key -- legacy key, read by our tooling");
  dir.write("plan.toml", plan);
  auto run = run_cli({"check", "--format", "sarif", "plan.toml"});
  CHECK(run.status == 0);
  json log = json::parse(run.out);
  REQUIRE(log["runs"][0]["results"].size() == 1);
  const json& suppression = log["runs"][0]["results"][0]["suppressions"][0];
  CHECK(suppression["kind"] == "inSource");
  CHECK(suppression["justification"] == "legacy key, read by our tooling");
}

TEST_CASE("rule names and fingerprints are stable strings", "[sarif]") {
  CHECK(planlint::sarif_rule_name("memory-fit") == "MemoryFit");
  CHECK(planlint::sarif_rule_name("toml-syntax") == "TomlSyntax");
  CHECK(planlint::finding_fingerprint("a.toml", "r", "k", 0) ==
        planlint::finding_fingerprint("a.toml", "r", "k", 0));
  CHECK(planlint::finding_fingerprint("a.toml", "r", "k", 0) !=
        planlint::finding_fingerprint("a.toml", "r", "k", 1));
  CHECK(planlint::finding_fingerprint("a.toml", "r", "k", 0).size() == 16);
}

TEST_CASE("a SARIF log over the result limit keeps the most severe findings and says so", "[sarif]") {
  // Six findings in one file: two suppressed, and errors, warnings and notes among the rest.
  planlint::Report report;
  auto add = [&](planlint::Severity severity, std::uint32_t line, bool suppressed) {
    planlint::Diagnostic d;
    d.rule = "unknown-key";
    d.severity = severity;
    d.message = "finding on line " + std::to_string(line);
    d.key_path = "cluster.k";
    d.primary = planlint::Location{"plan.toml", planlint::Span{{line, 1}, {line, 2}}};
    if (suppressed) d.suppression = planlint::Suppression{};
    report.diagnostics.push_back(d);
  };
  add(planlint::Severity::note, 1, false);
  add(planlint::Severity::error, 2, true);
  add(planlint::Severity::warning, 3, false);
  add(planlint::Severity::error, 4, false);
  add(planlint::Severity::note, 5, false);
  add(planlint::Severity::error, 6, false);
  planlint::RuleDescriptor unknown_key;
  unknown_key.id = "unknown-key";
  const std::vector<planlint::RuleDescriptor> rules = {unknown_key};

  const auto at_most = [](std::size_t results) {
    planlint::SarifOptions options;
    options.max_results = results;
    return options;
  };
  std::ostringstream all_out;
  CHECK(planlint::emit_sarif(all_out, report, rules, at_most(0)) == 0);
  const json all = json::parse(all_out.str())["runs"][0];
  REQUIRE(all["results"].size() == 6);
  CHECK_FALSE(all.contains("invocations"));

  std::ostringstream limited_out;
  CHECK(planlint::emit_sarif(limited_out, report, rules, at_most(4)) == 2);
  const json limited = json::parse(limited_out.str())["runs"][0];
  // The errors not suppressed (lines 4, 6), the warning (3) and the first note (1), in the
  // report's order; the suppressed error and the second note are left out.
  std::vector<int> lines;
  for (const json& result : limited["results"])
    lines.push_back(result["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>());
  CHECK(lines == std::vector<int>{1, 3, 4, 6});
  // A kept finding has the fingerprint it has in the whole log.
  for (const json& result : limited["results"]) {
    const auto same = std::find_if(all["results"].begin(), all["results"].end(), [&](const json& other) {
      return other["message"] == result["message"];
    });
    REQUIRE(same != all["results"].end());
    CHECK((*same)["partialFingerprints"] == result["partialFingerprints"]);
  }
  const json& notification = limited["invocations"][0]["toolExecutionNotifications"][0];
  CHECK(limited["invocations"][0]["executionSuccessful"] == true);
  CHECK(notification["level"] == "warning");
  CHECK_THAT(notification["message"]["text"].get<std::string>(),
             Catch::Contains("4 most severe of 6") && Catch::Contains("--sarif-max-results"));

  // GitHub's limit is the default; the command line warns on stderr when it applies.
  CHECK(planlint::SarifOptions{}.max_results == 25000);
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", std::string(plan_with_typo) + "hbmm = 1\nzzz = 2\n");
  auto run = run_cli({"check", "--format", "sarif", "--sarif-max-results", "1", "plan.toml"});
  CHECK(run.status == 1);
  CHECK(json::parse(run.out)["runs"][0]["results"].size() == 1);
  CHECK_THAT(run.err, Catch::Contains("holds the 1 most severe of 3 findings"));
  CHECK(run_cli({"check", "--format", "sarif", "--sarif-max-results", "0", "plan.toml"}).err.empty());
}
