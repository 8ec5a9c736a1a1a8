// Baselines: --write-baseline records findings by file, rule and key path; --baseline hides
// them after unrelated edits and reports entries that no longer match.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/baseline/baseline.hpp"
#include "support.hpp"

using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

constexpr const char* plan = R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
[cluster]
gpu = "h100-sxm"
count = 8
hmb = "80 GB"
hbmm = "80 GB"
)";

}  // namespace

TEST_CASE("a baseline hides recorded findings even after lines are inserted above them", "[baseline][cli]") {
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plans/plan.toml", plan);

  auto write = run_cli({"--no-color", "--write-baseline", "baseline.json", "plans/plan.toml"});
  CHECK(write.status == 0);  // what is recorded is accepted
  CHECK(write.out == "no problems in 1 file (2 suppressed)\n");
  CHECK(write.err == "planlint: wrote 2 findings to the baseline baseline.json\n");
  auto baseline = nlohmann::json::parse(planlint::test::read_text(dir.path / "baseline.json"));
  REQUIRE(baseline["entries"].size() == 2);
  CHECK(baseline["entries"][0]["file"] == "plans/plan.toml");
  CHECK(baseline["entries"][0]["rule"] == "unknown-key");
  CHECK(baseline["entries"][0]["key"] == "cluster.hbmm");
  CHECK(baseline["entries"][1]["key"] == "cluster.hmb");

  // Lines inserted above the findings: still accepted.
  dir.write("plans/plan.toml", std::string("# reviewed 2026-11\n\n") + plan);
  auto after_edit = run_cli({"--no-color", "--baseline", "baseline.json", "plans/plan.toml"});
  CHECK(after_edit.status == 0);
  CHECK(after_edit.out == "no problems in 1 file (2 suppressed)\n");
  CHECK(after_edit.err.empty());

  // A new finding is not in the baseline.
  dir.write("plans/plan.toml", std::string(plan) + "nvlink = 1\n");
  auto new_finding = run_cli({"--no-color", "--baseline", "baseline.json", "plans/plan.toml"});
  CHECK(new_finding.status == 1);
  CHECK_THAT(new_finding.out, Catch::Contains("unknown key 'nvlink'"));
  CHECK_THAT(new_finding.out, Catch::EndsWith("1 error in 1 file (2 suppressed)\n"));

  // From another working directory, the baseline's paths still match (they are relative to it).
  planlint::test::InDirectory elsewhere(dir.path / "plans");
  auto from_plans = run_cli({"--no-color", "--baseline", "../baseline.json", "plan.toml"});
  CHECK_THAT(from_plans.out, Catch::EndsWith("1 error in 1 file (2 suppressed)\n"));
}

TEST_CASE("baseline entries that no longer match are reported on stderr", "[baseline][cli]") {
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", plan);
  dir.write("other.toml", plan);
  REQUIRE(run_cli({"--write-baseline", "baseline.json", "plan.toml", "other.toml"}).status == 0);

  std::string fixed = plan;
  fixed.erase(fixed.find("hbmm = \"80 GB\"\n"));
  dir.write("plan.toml", fixed);
  auto run = run_cli({"--no-color", "--baseline", "baseline.json", "plan.toml"});
  CHECK(run.status == 0);
  CHECK(run.out == "no problems in 1 file (1 suppressed)\n");
  // other.toml was not linted, so its entries are not stale.
  CHECK(run.err == "planlint: note: baseline entry no longer matches: plan.toml [unknown-key] at cluster.hbmm (baseline.json)\n");
}

TEST_CASE("findings sharing file, rule and key are told apart by the message digest", "[baseline]") {
  auto make = [](std::string message) {
    planlint::Diagnostic d;
    d.rule = "r";
    d.message = std::move(message);
    d.key_path = "k";
    d.primary = planlint::Location{"a.toml", planlint::Span{{1, 1}, {1, 2}}};
    return d;
  };
  auto key = [](const std::string& path) { return path; };
  std::vector<planlint::Diagnostic> recorded = {make("one"), make("two"), make("two")};
  auto entries = planlint::baseline_entries(recorded, key);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].count + entries[1].count == 3);

  std::string error;
  auto baseline = planlint::parse_baseline("b.json", planlint::baseline_text(entries), error);
  REQUIRE(baseline);
  // "three" matches no digest but shares file, rule and key: accepted in the second pass.
  std::vector<planlint::Diagnostic> now = {make("two"), make("three"), make("four"), make("five")};
  auto stale = planlint::apply_baseline(now, *baseline, key, [](const std::string&) { return true; });
  CHECK(now[0].suppression);
  CHECK(now[1].suppression);
  CHECK(now[2].suppression);
  CHECK_FALSE(now[3].suppression);
  CHECK(stale.empty());
  CHECK(now[0].suppression->kind == planlint::Suppression::Kind::baseline);

  CHECK_FALSE(planlint::parse_baseline("b.json", "{\"version\": 2}", error));
  CHECK_FALSE(planlint::parse_baseline("b.json", "not json", error));
  // A version that is not a number was an exception from the JSON library, not this message.
  CHECK_FALSE(planlint::parse_baseline("b.json", "{\"version\": \"1\", \"entries\": []}", error));
  CHECK_THAT(error, Catch::StartsWith("not a planlint baseline"));
  // A syntax error says where it is (it said only "not valid JSON").
  CHECK_FALSE(planlint::parse_baseline("b.json", "{\"version\": 1,\n  \"entries\": [ {\"file\": x} ]\n}\n", error));
  CHECK_THAT(error, Catch::StartsWith("not valid JSON: parse error at line 2, column 25: "));
}

TEST_CASE("an unreadable baseline is exit status 2", "[baseline][cli]") {
  Scratch dir;
  auto file = dir.write("plan.toml", plan);
  auto run = run_cli({"--baseline", (dir.path / "missing.json").string(), file.string()});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::StartsWith("planlint: error: cannot read baseline"));
}

TEST_CASE("a baseline-accepted finding's suppression location in JSON counts from 1", "[baseline][cli][json]") {
  // Audit 3, D15: JSON gave {"line": 0, "column": 0}, SARIF line 1 column 1.
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", plan);
  REQUIRE(run_cli({"--write-baseline", "baseline.json", "plan.toml"}).status == 0);
  auto run = run_cli({"--format", "json", "--baseline", "baseline.json", "plan.toml"});
  auto log = nlohmann::json::parse(run.out);
  REQUIRE(log["diagnostics"].size() == 2);
  const auto& suppression = log["diagnostics"][0]["suppression"];
  CHECK(suppression["kind"] == "baseline");
  CHECK(suppression["location"] == nlohmann::json({{"file", "baseline.json"}, {"line", 1}, {"column", 1}}));
}
