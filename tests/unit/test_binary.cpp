// The built planlint executable, run as users run it (the other tests drive the CLI in-process,
// linked differently): the static link, and the paths where an error leaves the usual flow
// (CLI11's --version and --help, a TOML syntax error, a unit typo), which a static link must
// handle as a dynamic one does.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "cli/app.hpp"
#include "integration_support.hpp"
#include "support.hpp"

namespace {

struct Run {
  int status = -1;
  std::string output;  ///< stdout and stderr
};

Run planlint_binary(const std::string& arguments) {
  Run run;
  run.status = planlint::test::run_command(planlint::test::quote(PLANLINT_BINARY) + " " + arguments, run.output);
  return run;
}

}  // namespace

TEST_CASE("the binary answers --version and --help", "[binary]") {
  Run version = planlint_binary("--version");
  CHECK(version.status == 0);
  CHECK(version.output == planlint::cli::version_line() + "\n");
  Run help = planlint_binary("--help");
  CHECK(help.status == 0);
  CHECK_THAT(help.output, Catch::Contains("Usage: planlint") && Catch::Contains("check"));
}

TEST_CASE("the binary reports bad input with the documented status", "[binary]") {
  planlint::test::Scratch dir;
  using planlint::test::quote;
  // A usage error: exit 2.
  Run usage = planlint_binary("check --no-such-option x.toml");
  CHECK(usage.status == 2);
  CHECK_THAT(usage.output, Catch::Contains("--no-such-option"));
  // A TOML syntax error: a finding, exit 1.
  const auto broken = dir.write("broken.toml", "a = [\n");
  Run syntax = planlint_binary("check --no-color " + quote(broken.string()));
  CHECK(syntax.status == 1);
  CHECK_THAT(syntax.output, Catch::Contains("broken.toml:1:7: error: invalid TOML") &&
                                Catch::Contains("[toml-syntax]"));
  // A unit typo: a finding, exit 1.
  const auto typo = dir.write("typo.toml", "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7 Bq\"\n");
  Run unit = planlint_binary("check --no-color " + quote(typo.string()));
  CHECK(unit.status == 1);
  CHECK_THAT(unit.output, Catch::Contains("typo.toml:5:13: error: model.params = \"7 Bq\": unknown unit 'Bq'"));
  // A quantity the grammar cannot read (X3's expectation points): a finding, exit 1.
  const auto slash = dir.write("slash.toml", "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7 B/\"\n");
  Run quantity = planlint_binary("check --no-color " + quote(slash.string()));
  CHECK(quantity.status == 1);
  CHECK_THAT(quantity.output, Catch::Contains("slash.toml:5:14: error: model.params = \"7 B/\": expected a unit after '/'"));
}

TEST_CASE("the binary lints the example as the in-process CLI does", "[binary]") {
  const std::string example = std::string(PLANLINT_SOURCE_DIR) + "/examples/cluster-plan.toml";
  Run binary = planlint_binary("check --no-color --today 2026-11-30 " + planlint::test::quote(example));
  auto in_process = planlint::test::run_cli({"check", "--no-color", "--today", "2026-11-30", example});
  CHECK(binary.status == in_process.status);
  CHECK(binary.output == in_process.out + in_process.err);
}

// A run over many plans, on one thread and on two, must say what the in-process CLI says.
TEST_CASE("the binary lints folders on one and two threads as the in-process CLI does", "[binary]") {
  const std::string folders = planlint::test::quote(std::string(PLANLINT_SOURCE_DIR) + "/tests/golden") + " " +
                              planlint::test::quote(std::string(PLANLINT_SOURCE_DIR) + "/tests/rules");
  auto in_process = planlint::test::run_cli({"check", "--no-color", "--today", "2026-11-30", "-j", "1",
                                             std::string(PLANLINT_SOURCE_DIR) + "/tests/golden",
                                             std::string(PLANLINT_SOURCE_DIR) + "/tests/rules"});
  REQUIRE(in_process.status == 1);
  REQUIRE_THAT(in_process.out, Catch::Contains("error"));
  for (const char* jobs : {"1", "2"}) {
    INFO("-j " << jobs);
    Run binary = planlint_binary(std::string("check --no-color --today 2026-11-30 -j ") + jobs + " " + folders);
    CHECK(binary.status == in_process.status);
    CHECK(binary.output == in_process.out + in_process.err);
  }
}

TEST_CASE("the binary exits 2 when its report cannot be written to stdout", "[binary][stdout]") {
  planlint::test::Scratch dir;
  using planlint::test::quote;
  const auto plan = dir.write("plan.toml", planlint::test::inference_plan_with(""));
  std::string output;
  // stderr to the pipe, stdout to /dev/full or closed.
  if (std::filesystem::exists("/dev/full")) {
    const int status = planlint::test::run_command(
        "( " + quote(PLANLINT_BINARY) + " " + quote(plan.string()) + " 2>&1 >/dev/full )", output);
    CHECK(status == 2);
    CHECK(output == "planlint: error: cannot write the report to standard output: No space left on device\n");
  }
  const int closed = planlint::test::run_command(
      "( " + quote(PLANLINT_BINARY) + " --format sarif " + quote(plan.string()) + " 2>&1 >&- )", output);
  CHECK(closed == 2);
  CHECK_THAT(output, Catch::StartsWith("planlint: error: cannot write the report to standard output"));
}
