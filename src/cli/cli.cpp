#include "cli/cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <string_view>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/diag/printable.hpp"

namespace planlint::cli {

void print_line(std::ostream& stream, std::string_view line) { stream << printable(line) << '\n'; }

Environment detect_environment() {
  Environment environment;
  environment.stdout_is_terminal = ::isatty(STDOUT_FILENO) == 1;
  const char* no_color = std::getenv("NO_COLOR");
  environment.no_color = no_color != nullptr && no_color[0] != '\0';
  const char* force_color = std::getenv("FORCE_COLOR");
  environment.force_color = force_color != nullptr && force_color[0] != '\0';
  return environment;
}

bool use_color(std::string_view color, bool to_stdout, const Environment& environment) {
  if (color == "always") return true;
  if (color == "never") return false;
  if (environment.no_color) return false;
  return environment.force_color || (to_stdout && environment.stdout_is_terminal);
}

namespace {

/// A first argument that is no path and reads as a misspelt command ("chek"): the command
/// meant, rather than "cannot read 'chek'".
std::optional<std::string> misspelt_command(const std::string& first) {
  std::error_code ec;
  if (first.empty() || first.front() == '-' || first.find_first_of("./") != std::string::npos ||
      std::filesystem::exists(first, ec))
    return std::nullopt;
  const std::vector<std::string_view> names(subcommand_names.begin(), subcommand_names.end());
  if (std::find(names.begin(), names.end(), first) != names.end()) return std::nullopt;
  return closest_match(first, names);
}

/// The option of `command` closest to `word` ("--formt" → "--format").
std::optional<std::string> misspelt_option(const CLI::App& command, std::string_view word) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  const std::vector<std::string_view> views(names.begin(), names.end());
  return closest_match(word.substr(0, word.find('=')), views);
}

/// `planlint PATH...` means `planlint check PATH...`: insert the subcommand unless the first
/// argument already names one, or asks for help or the version.
std::vector<std::string> with_default_subcommand(int argc, const char* const argv[]) {
  std::vector<std::string> args(argv, argv + argc);
  if (args.size() < 2) return args;
  const std::string& first = args[1];
  for (std::string_view name : subcommand_names)
    if (first == name) return args;
  if (first == "--help" || first == "-h" || first == "--version") return args;
  args.insert(args.begin() + 1, std::string(default_subcommand));
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
  // Only the subcommand invoked is set up (CommandLine); every one is when none is invoked
  // (`planlint --help` lists them with their options in its "all" mode).
  if (argc > 1)
    if (std::optional<std::string> command = misspelt_command(argv[1])) {
      err << "planlint: error: unknown command '" << printable(argv[1]) << "'; did you mean '" << *command << "'?\n"
          << "Run 'planlint --help' for usage.\n";
      return exit_failure;
    }
  std::vector<std::string> args = with_default_subcommand(argc, argv);
  const bool invokes_one = args.size() > 1 && std::find(subcommand_names.begin(), subcommand_names.end(),
                                                        args[1]) != subcommand_names.end();
  CommandLine line([&](std::string_view name) { return !invokes_one || args[1] == name; });
  CLI::App& app = line.app;

  std::vector<const char*> raw;
  for (const std::string& arg : args) raw.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(raw.size()), raw.data());
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    // `planlint --help`: check is what `planlint PATH...` runs, so its options follow.
    if (line.check != nullptr && app.get_subcommands().empty())
      out << "\nOptions of check, the default command:\n" << line.check->help("planlint");
    return exit_clean;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return exit_clean;
  } catch (const CLI::CallForVersion&) {
    out << version_line() << '\n';
    return exit_clean;
  } catch (const CLI::ParseError& error) {
    err << printable(std::string("planlint: error: ") + error.what());
    // An option no command has: the closest one of the command run ("--formt" → "--format").
    const CLI::App* command = &app;
    for (const CLI::App* sub :
         {line.check, line.report, line.diff, line.solve, line.rules, line.explain, line.new_command, line.lsp})
      if (sub != nullptr && sub->parsed()) command = sub;
    const bool unknown_option = dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr;
    for (std::size_t i = 2; unknown_option && i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg == "--") break;
      if (!arg.starts_with("-") || arg == "-") continue;
      const std::string name = arg.substr(0, arg.find('='));
      if (command->get_option_no_throw(name) != nullptr || app.get_option_no_throw(name) != nullptr) continue;
      if (std::optional<std::string> option = misspelt_option(*command, name)) {
        err << "; did you mean '" << *option << "'?";
        break;
      }
    }
    err << "\n"
        << "Run 'planlint --help' for usage.\n";
    return exit_failure;
  }

  try {
    auto invoked = [](const CLI::App* command) { return command != nullptr && command->parsed(); };
    if (invoked(line.check)) return run_check(line.check_options, out, err, environment);
    if (invoked(line.report)) {
      if (line.report_options.paths.size() == 1) line.report_options.path = line.report_options.paths.front();
      return run_report(line.report_options, out, err, environment);
    }
    if (invoked(line.diff)) return run_diff_command(line.diff_options, out, err, environment);
    if (invoked(line.solve)) return run_solve(line.solve_options, out, err);
    if (invoked(line.rules)) return run_rules_command(line.rules_options, out, err);
    if (invoked(line.explain)) return run_explain_command(line.explain_options, out, err);
    if (invoked(line.gpus)) return run_gpus_command(line.gpus_options, out, err);
    if (invoked(line.new_command)) return run_new(line.new_options, out, err);
    if (invoked(line.lsp)) return run_lsp(line.lsp_options, err);
    out << app.help();
    return exit_clean;
  } catch (const std::exception& error) {
    print_line(err, std::string("planlint: error: ") + error.what());
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
