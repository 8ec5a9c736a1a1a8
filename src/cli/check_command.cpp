#include <fmt/format.h>

#include "cli/commands.hpp"
#include "planlint/diag/report.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/lint/lint.hpp"

namespace planlint::cli {

CLI::App* add_check_command(CLI::App& app, CheckOptions& options) {
  CLI::App* check = app.add_subcommand("check", "Lint plan files and folders (the default command)");
  check->add_option("paths", options.paths, "Plan files or folders (searched for *.toml plans)")
      ->required();
  check->add_option("--format", options.format, "Output format")
      ->check(CLI::IsMember({"text"}))
      ->capture_default_str();
  check->add_flag("--no-color", options.no_color, "Never colour the output (also: NO_COLOR)");
  check->add_option("--fail-on", options.fail_on,
                    "Lowest level that makes the exit status 1")
      ->check(CLI::IsMember({"error", "warning", "note"}))
      ->capture_default_str();
  return check;
}

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err,
              const Environment& environment) {
  std::optional<InputError> input_error;
  std::vector<std::string> paths = expand_inputs(options.paths, input_error);
  if (input_error) {
    err << fmt::format("planlint: error: cannot read '{}': {}\n", input_error->path,
                       input_error->reason);
    return exit_failure;
  }

  LintOptions lint_options;
  Report report;
  for (const std::string& path : paths) {
    std::string reason;
    auto text = read_file(path, reason);
    if (!text) {
      err << fmt::format("planlint: error: cannot read '{}': {}\n", path, reason);
      return exit_failure;
    }
    auto source = std::make_shared<const SourceFile>(path, std::move(*text));
    FileResult result = lint_source(source, lint_options);
    report.files.push_back(source);
    for (Diagnostic& d : result.diagnostics) report.diagnostics.push_back(std::move(d));
  }
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(), diagnostic_less);

  TextStyle style;
  style.color = environment.stdout_is_terminal && !environment.no_color && !options.no_color;
  emit_text(out, report, style);

  const Severity fail_on = parse_severity(options.fail_on).value_or(Severity::error);
  for (const Diagnostic& d : report.diagnostics)
    if (d.severity >= fail_on) return exit_findings;
  return exit_clean;
}

}  // namespace planlint::cli
