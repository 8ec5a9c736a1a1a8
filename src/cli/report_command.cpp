/// `planlint report PLAN [--format text|markdown|json]`: the plan's estimates with their
/// arithmetic and ranges (cli.md). Loads through the library like `check`, runs no rules, and
/// prints the plan's own errors (which leave values out of the estimates) on stderr.
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "planlint/diag/report.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/estimate/report.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::cli {

CLI::App* add_report_command(CLI::App& app, ReportOptions& options, bool with_options) {
  CLI::App* report = app.add_subcommand(
      "report", "Print the plan's estimates with their arithmetic and ranges");
  if (!with_options) return report;
  report->add_option("plan", options.path, "Plan file (TOML)")->required();
  report->add_option("--format", options.format, "Output format")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->capture_default_str();
  report->add_flag("--no-color", options.no_color, "Never colour the diagnostics (also: NO_COLOR)");
  return report;
}

int run_report(const ReportOptions& options, std::ostream& out, std::ostream& err,
               const Environment& environment) {
  const std::optional<ReportFormat> format = parse_report_format(options.format);
  if (!format) {
    err << fmt::format("planlint: error: unknown report format '{}'\n", options.format);
    return exit_failure;
  }
  std::string reason;
  auto text = read_file(options.path, reason);
  if (!text) {
    err << fmt::format("planlint: error: cannot read '{}': {}\n", options.path, reason);
    return exit_failure;
  }
  auto source = std::make_shared<const SourceFile>(options.path, std::move(*text));

  // The report shows estimates, not rule findings (that is `check`): an empty rule set leaves
  // only the plan's own structure checks.
  const RuleSet no_rules;
  LintOptions lint_options;
  lint_options.rules = &no_rules;
  const FileResult result = lint_source(source, lint_options);

  if (!result.diagnostics.empty()) {
    Report diagnostics;
    diagnostics.files.push_back(source);
    diagnostics.diagnostics = result.diagnostics;
    TextStyle style;
    style.color = environment.stdout_is_terminal && !environment.no_color && !options.no_color;
    emit_text(err, diagnostics, style);
  }

  ReportInput input;
  input.plan = result.plan ? &*result.plan : nullptr;
  input.estimates = result.estimates ? &*result.estimates : nullptr;
  input.path = options.path;
  render_report(out, input, *format);

  for (const Diagnostic& d : result.diagnostics)
    if (d.severity == Severity::error && !d.suppression) return exit_findings;
  return exit_clean;
}

}  // namespace planlint::cli
