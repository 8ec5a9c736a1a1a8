// The options several commands take are each defined once (src/cli/shared_options.hpp): one
// value type, one check and one error, whichever command is given the value.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/app.hpp"
#include "cli/shared_options.hpp"
#include "integration_support.hpp"

using namespace planlint::test;

namespace {

/// The arguments that run `command` with `option` set to `value` and everything else it needs.
std::vector<std::string> with_option(const std::string& command, const std::string& option, const std::string& value,
                                     const std::string& plan) {
  if (command == "check") return {"check", option, value, plan};
  if (command == "diff") return {"diff", option, value, plan, plan};
  if (command == "new") return {"new", "training", option, value};
  if (command == "report") return {"report", option, value, plan};
  return {command, option, value};
}

/// The commands that take `option`, by the one command line's options.
std::set<std::string> commands_taking(const std::string& option) {
  planlint::cli::CommandLine line;
  std::set<std::string> commands;
  for (const CLI::App* command : line.app.get_subcommands({}))
    if (command->get_option_no_throw(option) != nullptr) commands.insert(command->get_name());
  return commands;
}

}  // namespace

TEST_CASE("an option several commands take has one value name and one help on all of them", "[cli][options]") {
  planlint::cli::CommandLine line;
  std::map<std::string, std::set<std::string>> value_names;
  std::map<std::string, std::set<std::string>> takers;
  for (const CLI::App* command : line.app.get_subcommands({}))
    for (const CLI::Option* option : command->get_options())
      for (const std::string& name : option->get_lnames()) {
        // The value name, without the choices CLI11 appends (each command's --format has its own).
        value_names["--" + name].insert(option->get_type_name().substr(0, option->get_type_name().find(':')));
        takers["--" + name].insert(command->get_name());
      }
  for (const auto& [option, names] : value_names) {
    INFO(option);
    CHECK(names.size() == 1);
  }
  CHECK(takers["--config"] ==
        std::set<std::string>{"check", "report", "diff", "solve", "rules", "explain", "gpus", "lsp"});
  CHECK(takers["--today"] == std::set<std::string>{"check", "diff", "lsp", "new"});
  CHECK(takers["--max-file-size"] == std::set<std::string>{"check", "diff", "lsp"});
  // The date option says the same of its default and its variable on each command.
  for (const std::string& command : takers["--today"]) {
    INFO(command);
    CHECK_THAT(run_cli({command, "--help"}).out, Catch::Contains("YYYY-MM-DD (default: today; also: PLANLINT_TODAY)"));
  }
}

TEST_CASE("the date of --today or PLANLINT_TODAY is checked alike by every command that takes it", "[cli][options]") {
  Scratch dir;
  const std::string plan = dir.write("plan.toml", inference_plan_with("")).string();
  const std::set<std::string> commands = commands_taking("--today");
  REQUIRE(commands.size() >= 4);
  for (const std::string& command : commands) {
    INFO(command);
    const CliRun bad = run_cli(with_option(command, "--today", "11/01/2026", plan));
    CHECK(bad.status == 2);
    CHECK(bad.err == "planlint: error: --today '11/01/2026' is not a date (YYYY-MM-DD)\n");
    const ScopedVariable yesterday("PLANLINT_TODAY", "yesterday");
    std::vector<std::string> args = with_option(command, "--today", "", plan);
    args.erase(args.begin() + (command == "new" ? 2 : 1), args.begin() + (command == "new" ? 4 : 3));
    const CliRun variable = run_cli(args);
    CHECK(variable.status == 2);
    CHECK(variable.err == "planlint: error: PLANLINT_TODAY 'yesterday' is not a date (YYYY-MM-DD)\n");
  }
}

TEST_CASE("a shared option's bad value is the same error on every command that takes it", "[cli][options]") {
  Scratch dir;
  const std::string plan = dir.write("plan.toml", inference_plan_with("")).string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--max-file-size", "12 parsecs"}, "--max-file-size 12 parsecs: expected a size in bytes, such as 64MiB or 100MB"},
      {{"--max-file-size", ""}, "--max-file-size: expected a size, such as 64MiB, got an empty string"},
      {{"--config", ""}, "--config: expected a file path, got an empty string"},
      {{"--today", ""}, "--today: expected a date, YYYY-MM-DD, got an empty string"},
      {{"--rules", ""}, "--rules: expected a rule file or folder, got an empty string"},
      {{"--jobs", "-1"}, "--jobs: expected a whole number, 0 (one per core) or more, got '-1'"},
      {{"--max-plans-per-file", "0"}, "--max-plans-per-file: expected a whole number, 1 or more, got '0'"},
      {{"--max-findings-per-file", "x"}, "--max-findings-per-file: expected a whole number, 0 (no limit) or more, got 'x'"},
      {{"--color", "sometimes"}, "--color: sometimes not in {auto,always,never}"},
      {{"--fail-on", "loud"}, "--fail-on: loud not in {error,warning,note}"},
  };
  for (const auto& [option, message] : cases) {
    const std::set<std::string> commands = commands_taking(option[0]);
    INFO(option[0]);
    CHECK(commands.size() >= 2);
    for (const std::string& command : commands) {
      INFO(command);
      const CliRun run = run_cli(with_option(command, option[0], option[1], plan));
      CHECK(run.status == 2);
      CHECK(run.out.empty());
      CHECK_THAT(run.err, Catch::StartsWith("planlint: error: " + message + "\n"));
    }
  }
}

TEST_CASE("a size in an option's help is written in its largest whole binary unit", "[cli][options]") {
  CHECK(planlint::cli::size_in_help(std::size_t{16} << 20) == "16MiB");
  CHECK(planlint::cli::size_in_help(std::size_t{1} << 30) == "1GiB");
  CHECK(planlint::cli::size_in_help(std::size_t{1536} << 10) == "1536KiB");
  CHECK(planlint::cli::size_in_help(1000) == "1000B");
}
