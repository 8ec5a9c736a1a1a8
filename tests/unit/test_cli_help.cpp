// `planlint --help` shows check's options (check is the default command); each command's help
// is its own: its options, its PATH, its exit statuses.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace planlint::test;

TEST_CASE("planlint --help lists the commands, then check's options", "[cli][help]") {
  const auto help = run_cli({"--help"});
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Catch::Contains("Subcommands:"));
  CHECK_THAT(help.out, Catch::Contains("Options of check, the default command:"));
  CHECK_THAT(help.out, Catch::Contains("Usage: planlint check [OPTIONS] [paths...]"));
  for (const char* option : {"--fail-on", "--format", "--select", "--baseline", "--fix", "--exit-zero", "--no-ignore",
                             "--exclude", "--stdin-filename"})
    CHECK_THAT(help.out, Catch::Contains(option));
  CHECK(run_cli({"-h"}).out == help.out);
  // check's own help is the same section.
  const auto check = run_cli({"check", "--help"});
  CHECK(check.status == 0);
  CHECK_THAT(help.out, Catch::Contains(check.out.substr(0, check.out.find("Exit status"))));
}

TEST_CASE("each command's help is its own", "[cli][help]") {
  const auto report = run_cli({"report", "--help"});
  CHECK(report.status == 0);
  // Options report rejects are not mentioned, not even in a footer.
  for (const char* option : {"--fail-on", "--select", "--baseline", "--fix", "--exit-zero"})
    CHECK_THAT(report.out, !Catch::Contains(option));
  CHECK_THAT(report.out, Catch::Contains("Plan files, folders or Markdown docs"));
  CHECK_THAT(report.out, !Catch::Contains("Plan file (TOML)"));
  CHECK_THAT(report.out, Catch::Contains("Exit status: 0, 1 when a plan has errors"));
  for (const char* command : {"rules", "explain", "gpus", "new", "lsp"}) {
    INFO(command);
    const auto help = run_cli({command, "--help"});
    CHECK(help.status == 0);
    CHECK_THAT(help.out, Catch::Contains(std::string("Usage: planlint ") + command));
    CHECK_THAT(help.out, !Catch::Contains("--fail-on"));
    CHECK_THAT(help.out, !Catch::Contains("Subcommands:"));
  }
  CHECK_THAT(run_cli({"check", "--help"}).out,
             Catch::Contains("Exit status: 0 no findings at --fail-on or above, 1 findings, 2 planlint could not run."));
}
