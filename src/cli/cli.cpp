#include "cli/cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <iterator>
#include <string_view>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/info_commands.hpp"

namespace planlint::cli {

Environment detect_environment() {
  Environment environment;
  environment.stdout_is_terminal = ::isatty(STDOUT_FILENO) == 1;
  const char* no_color = std::getenv("NO_COLOR");
  environment.no_color = no_color != nullptr && no_color[0] != '\0';
  return environment;
}

namespace {

constexpr const char* subcommands[] = {"check", "report", "rules", "explain", "new"};

/// `planlint PATH...` means `planlint check PATH...`: insert the subcommand unless the first
/// argument already names one, or asks for help or the version.
std::vector<std::string> with_default_subcommand(int argc, const char* const argv[]) {
  std::vector<std::string> args(argv, argv + argc);
  if (args.size() < 2) return args;
  const std::string& first = args[1];
  for (const char* name : subcommands)
    if (first == name) return args;
  if (first == "--help" || first == "-h" || first == "--version") return args;
  args.insert(args.begin() + 1, "check");
  return args;
}

/// A report that did not reach stdout (a full disk, a closed descriptor) is not a clean run:
/// exit 2 with the reason. A stream that failed earlier is flushed once more, after clear(),
/// for the reason: errno of the write that failed is long gone, and a full disk or a closed
/// descriptor fails again.
int check_output(std::ostream& out, std::ostream& err, int status) {
  const bool failed = out.fail();
  out.clear();
  errno = 0;
  out.flush();
  if (!failed && !out.fail()) return status;
  const int code = errno;
  err << "planlint: error: cannot write the report to standard output"
      << (code != 0 ? std::string(": ") + std::strerror(code) : std::string()) << '\n';
  return exit_failure;
}

int run_command(int argc, const char* const argv[], std::ostream& out, std::ostream& err,
                const Environment& environment) {
  CLI::App app{"planlint: a linter for AI compute capacity plans", "planlint"};
  app.set_version_flag("--version", std::string("planlint ") + PLANLINT_VERSION);
  app.require_subcommand(0, 1);
  app.footer("Run `planlint PATH...` to lint plan files, folders or Markdown docs.\n"
             "Exit status: 0 no findings at --fail-on or above, 1 findings, 2 planlint could not run.");

  // Only the subcommand invoked is set up; every one is when none is invoked (`planlint
  // --help` lists them with their options in its "all" mode). Setting up a subcommand and its
  // options costs CLI11 an App, several strings an option and a comparison with every earlier
  // name: the four not invoked were an eighth of a one-plan run. After the subcommand's name,
  // CLI11 does not switch to another subcommand, so the others would never be parsed.
  std::vector<std::string> args = with_default_subcommand(argc, argv);
  const bool invokes_one = args.size() > 1 && std::find(std::begin(subcommands), std::end(subcommands),
                                                        args[1]) != std::end(subcommands);
  auto wanted = [&](std::string_view name) { return !invokes_one || args[1] == name; };
  CheckOptions check_options;
  CLI::App* check = wanted("check") ? add_check_command(app, check_options) : nullptr;
  ReportOptions report_options;
  CLI::App* report = wanted("report") ? add_report_command(app, report_options) : nullptr;
  RulesOptions rules_options;
  CLI::App* rules = wanted("rules") ? add_rules_command(app, rules_options) : nullptr;
  ExplainOptions explain_options;
  CLI::App* explain = wanted("explain") ? add_explain_command(app, explain_options) : nullptr;
  NewOptions new_options;
  CLI::App* new_command = wanted("new") ? add_new_command(app, new_options) : nullptr;

  std::vector<const char*> raw;
  for (const std::string& arg : args) raw.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(raw.size()), raw.data());
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return exit_clean;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return exit_clean;
  } catch (const CLI::CallForVersion&) {
    out << "planlint " << PLANLINT_VERSION << '\n';
    return exit_clean;
  } catch (const CLI::ParseError& error) {
    err << "planlint: error: " << error.what() << "\n"
        << "Run 'planlint --help' for usage.\n";
    return exit_failure;
  }

  try {
    auto invoked = [](const CLI::App* command) { return command != nullptr && command->parsed(); };
    if (invoked(check)) return run_check(check_options, out, err, environment);
    if (invoked(report)) return run_report(report_options, out, err, environment);
    if (invoked(rules)) return run_rules_command(rules_options, out, err);
    if (invoked(explain)) return run_explain_command(explain_options, out, err);
    if (invoked(new_command)) return run_new(new_options, out, err);
    out << app.help();
    return exit_clean;
  } catch (const std::exception& error) {
    err << "planlint: error: " << error.what() << '\n';
    return exit_failure;
  }
}

}  // namespace

int run(int argc, const char* const argv[], std::ostream& out, std::ostream& err,
        const Environment& environment) {
  const int status = run_command(argc, argv, out, err, environment);
  return check_output(out, err, status);
}

}  // namespace planlint::cli
