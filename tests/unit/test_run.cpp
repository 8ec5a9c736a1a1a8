// The whole run: -j determinism, -o written atomically, text headers readable by VS Code's
// $gcc problem matcher, --today.
#include <regex>
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/lint/run.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::test::run_cli;
using planlint::test::Scratch;
using planlint::test::inference_plan_with;

TEST_CASE("linting with -j N gives the same output as -j 1, whatever the scheduling", "[run][jobs]") {
  Scratch dir;
  for (int i = 0; i < 24; ++i)
    dir.write(fmt::format("plans/p{:02}.toml", i),
              inference_plan_with(i % 3 == 0 ? "hmb = 1\n" : i % 3 == 1 ? "gpu_typo = 2\nhbmm = 3\n" : ""));
  const std::string folder = (dir.path / "plans").string();
  auto serial = run_cli({"--no-color", "-j", "1", folder});
  REQUIRE(serial.status == 1);
  for (const char* format : {"text", "json", "sarif"}) {
    auto one = run_cli({"--no-color", "--format", format, "-j", "1", folder});
    for (int attempt = 0; attempt < 3; ++attempt) {
      auto many = run_cli({"--no-color", "--format", format, "-j", "4", folder});
      CHECK(many.status == one.status);
      CHECK(many.out == one.out);
    }
  }
  CHECK(run_cli({"--no-color", "-j", "0", folder}).out == serial.out);
}

TEST_CASE("the -o report is written atomically and an old one is left alone when the run fails", "[run][output]") {
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with("hmb = 1\n"));
  const fs::path report = dir.path / "out/report.sarif";
  fs::create_directories(report.parent_path());

  auto run = run_cli({"--format", "sarif", "-o", report.string(), plan.string()});
  CHECK(run.status == 1);
  CHECK(run.out.empty());
  const std::string written = planlint::test::read_text(report);
  CHECK_THAT(written, Catch::Contains("\"ruleId\": \"unknown-key\""));

  // A run that cannot do its job (a missing input) exits 2 and does not touch the report.
  auto failed = run_cli({"--format", "sarif", "-o", report.string(), plan.string(), (dir.path / "nope.toml").string()});
  CHECK(failed.status == 2);
  CHECK(planlint::test::read_text(report) == written);
  // Nothing but the report is left in its folder (no temporary files).
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(report.parent_path())) ++entries;
  CHECK(entries == 1);

  // An -o into a folder that does not exist is exit 2 with a reason.
  auto unwritable = run_cli({"-o", (dir.path / "no/such/dir/r.txt").string(), plan.string()});
  CHECK(unwritable.status == 2);
  CHECK_THAT(unwritable.err, Catch::StartsWith("planlint: error: cannot write"));
}

TEST_CASE("every text header line matches VS Code's $gcc problem matcher", "[run][text]") {
  const std::regex gcc(R"(^(.*):(\d+):(\d+):\s+(?:fatal\s+)?(warning|error):\s+(.*)$)");
  planlint::test::InDirectory cwd(PLANLINT_SOURCE_DIR);
  auto run = run_cli({"--no-color", "tests/golden", "tests/data/markdown/capacity-review.md", "examples"});
  REQUIRE(run.status != 2);
  std::istringstream lines(run.out);
  std::string line;
  std::size_t headers = 0;
  const std::regex header_shape(R"(^[^ ].*?:\d+:\d+: (error|warning|note): .*)");
  while (std::getline(lines, line)) {
    std::smatch shape;
    if (!std::regex_match(line, shape, header_shape)) continue;
    if (shape[1] == "note") continue;  // note-level findings: $gcc reads warnings and errors
    ++headers;
    INFO(line);
    std::smatch match;
    REQUIRE(std::regex_match(line, match, gcc));
    CHECK(fs::exists(match[1].str()));
  }
  CHECK(headers >= 8);
}

TEST_CASE("the --today option and PLANLINT_TODAY must be dates", "[run]") {
  CHECK(planlint::parse_date("2026-11-01") == planlint::Date{2026, 11, 1});
  CHECK_FALSE(planlint::parse_date("2026-13-01"));
  CHECK_FALSE(planlint::parse_date("2026-02-29"));
  CHECK(planlint::parse_date("2028-02-29"));
  CHECK_FALSE(planlint::parse_date("yesterday"));
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with(""));
  CHECK(run_cli({"--today", "2026-11-01", plan.string()}).status == 0);
  auto bad = run_cli({"--today", "11/01/2026", plan.string()});
  CHECK(bad.status == 2);
  CHECK(bad.err == "planlint: error: --today '11/01/2026' is not a date (YYYY-MM-DD)\n");
}

TEST_CASE("the library run reports the rules that ran, each diagnostic's among them", "[run]") {
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with("hmb = 1\n"));
  planlint::RunOptions options;
  options.paths = {plan.string()};
  options.ignore = std::vector<std::string>{"unknown-gpu"};
  planlint::RunResult result = planlint::run_lint(options);
  REQUIRE(result.errors.empty());
  CHECK(result.failing == 1);
  auto has = [&](std::string_view id) {
    return std::any_of(result.rules.begin(), result.rules.end(), [&](const auto& r) { return r.id == id; });
  };
  CHECK(has("unknown-key"));
  CHECK(has("unused-suppression"));
  CHECK_FALSE(has("unknown-gpu"));
  CHECK(std::is_sorted(result.rules.begin(), result.rules.end(),
                       [](const auto& a, const auto& b) { return a.id < b.id; }));
}

TEST_CASE("a run that is not asked to list its rules finds the same and lists none", "[run]") {
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with("hmb = 1\n"));
  planlint::RunOptions options;
  options.paths = {plan.string()};
  const planlint::RunResult listed = planlint::run_lint(options);
  options.list_rules = false;
  const planlint::RunResult unlisted = planlint::run_lint(options);
  REQUIRE(unlisted.errors.empty());
  CHECK_FALSE(listed.rules.empty());
  CHECK(unlisted.rules.empty());
  CHECK(unlisted.failing == listed.failing);
  REQUIRE(unlisted.report.diagnostics.size() == listed.report.diagnostics.size());
  for (std::size_t i = 0; i < listed.report.diagnostics.size(); ++i)
    CHECK(unlisted.report.diagnostics[i].rule == listed.report.diagnostics[i].rule);
}

TEST_CASE("the -o report and --write-baseline may not name a linted file or each other", "[run][output]") {
  Scratch dir;
  const std::string plan_text = inference_plan_with("hmb = 1\n");
  auto plan = dir.write("plans/victim.toml", plan_text);
  const std::string plans = (dir.path / "plans").string();
  auto refused = [&](std::vector<std::string> args, const std::string& message) {
    INFO(message);
    auto run = run_cli(args);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::StartsWith("planlint: error: " + message));
    CHECK(planlint::test::read_text(plan) == plan_text);
  };
  refused({"--write-baseline", plan.string(), plan.string()},
          "--write-baseline '" + plan.string() + "' and the linted file '" + plan.string() + "' are the same file");
  refused({"-o", plan.string(), plan.string()},
          "-o '" + plan.string() + "' and the linted file '" + plan.string() + "' are the same file");
  // Another spelling of the path, a file found in a folder, a hard link: the same file.
  const std::string roundabout = plans + "/../plans/./victim.toml";
  refused({"-o", roundabout, plan.string()}, "-o '" + roundabout + "' and the linted file");
  refused({"-o", plan.string(), plans}, "-o '" + plan.string() + "' and the linted file '");
  const fs::path hard_link = dir.path / "hard.toml";
  fs::create_hard_link(plan, hard_link);
  refused({"--write-baseline", hard_link.string(), plan.string()},
          "--write-baseline '" + hard_link.string() + "' and the linted file '" + plan.string() + "'");

  // -o and --write-baseline into one file, there or not yet.
  const std::string same = (dir.path / "same.out").string();
  refused({"-o", same, "--write-baseline", same, plan.string()},
          "-o '" + same + "' and --write-baseline '" + same + "' are the same file");
  CHECK_FALSE(fs::exists(same));
  dir.write("same.out", "old\n");
  refused({"-o", same, "--write-baseline", same, plan.string()}, "-o '" + same + "' and --write-baseline");
  CHECK(planlint::test::read_text(same) == "old\n");
  // -o over the baseline it reads.
  const std::string baseline = (dir.path / "baseline.json").string();
  REQUIRE(run_cli({"--write-baseline", baseline, plan.string()}).status == 0);
  refused({"-o", baseline, "--baseline", baseline, plan.string()}, "-o '" + baseline + "' and --baseline");

  // Files of their own are fine; --baseline and --write-baseline may share one (a refresh).
  auto ok = run_cli({"-o", (dir.path / "report.txt").string(), "--baseline", baseline, "--write-baseline", baseline,
                     plan.string()});
  CHECK(ok.status == 0);
  CHECK(ok.err == "planlint: wrote 1 finding to the baseline " + baseline + "\n");
}
