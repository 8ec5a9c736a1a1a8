/// `planlint report PLAN [--format text|markdown|json]`: the plan's estimates with their
/// arithmetic and ranges (cli.md). Lints the plan like `check` (the built-in rules, the config's
/// selection, the plan's inline suppressions), prints the plan's own structure findings and
/// every error on stderr, states the errors above the numbers in every format, and exits 1
/// when there is one.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/shared_options.hpp"
#include "planlint/config/config.hpp"
#include "planlint/diag/native_rules.hpp"
#include "planlint/emit/lint_report.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/emit/report.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/settings/settings.hpp"
#include "planlint/suppress/suppress.hpp"

namespace planlint::cli {

CLI::App* add_report_command(CLI::App& app, ReportOptions& options) {
  CLI::App* report = app.add_subcommand(
      "report", "Print the plan's estimates with their arithmetic and ranges");
  report->add_option("paths", options.paths,
                     "Plan files, folders or Markdown docs: one plan file or doc for text, markdown and json; any "
                     "number of each with --format html")
      ->type_name("PATH")
      ->required();
  add_format_option(*report, options.format, report_format_names());
  add_output_option(*report, options.output, "With --format html: write the page to FILE (atomically)");
  add_color_options(*report, options.color, options.no_color);
  add_config_option(*report, options.config, " whose GPU catalog applies", "PLAN");
  report->add_option("--compare-to", options.compare_to,
                     "With --format html: add what changed since BASE, a path or git:REV[:PATH] (as planlint diff)")
      ->type_name("BASE")
      ->check(non_empty("a path or git:REV[:PATH]"));
  report->add_option("--block", options.block, "In a Markdown doc with several plans, the Nth plan block (1-based)")
      ->type_name("N")
      ->check(whole_number<std::size_t>(1, "a plan block's number, 1 or more"));
  return report;
}

namespace {

/// The plan `path` names for a one-plan report: `path` itself, or the one plan file or doc a
/// folder holds (searched as `check` searches it). A folder of several plans is an error that
/// names them, as a doc of several plans is.
Result<std::string> plan_in_folder(const std::string& path, std::string_view format) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return path;
  Result<std::vector<Input>> found = expand_inputs({path});
  if (!found) return Error(fmt::format("cannot read '{}': {}", found.error().location.file, found.error().message));
  if (found->size() == 1) return found->front().path;
  if (found->empty())
    return Error(fmt::format("no plan found in {}: no *.toml file with a [plan] table, no Markdown doc with a "
                             "```toml plan block",
                             path));
  constexpr std::size_t most_named = 5;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < found->size() && i < most_named; ++i) names.push_back((*found)[i].path);
  return Error(fmt::format("{} is a folder of {} plans ({}{}): report --format {} reports one plan; name one, or give "
                           "--format html for a page of them all",
                           path, found->size(), fmt::join(names, ", "), found->size() > most_named ? ", ..." : "",
                           format));
}

}  // namespace

int run_report(const ReportOptions& options, std::ostream& out, std::ostream& err,
               const Environment& environment) {
  const ReportFormatSpec* spec = find_report_format(options.format);
  if (!spec) {
    print_line(err, fmt::format("planlint: error: unknown report format '{}'", options.format));
    return exit_failure;
  }
  if (spec->many_plans) return run_html_report(options, out, err);
  if (!options.compare_to.empty()) {
    print_line(err, fmt::format("planlint: error: --compare-to: applies to --format html, not --format {} (planlint "
                                "diff compares plans in the other formats)",
                                options.format));
    return exit_failure;
  }
  if (options.paths.size() != 1 || !options.output.empty()) {
    print_line(err, fmt::format("planlint: error: report --format {} takes one plan and writes to stdout, not {}{}; "
                                "--format html takes several files and folders, and -o FILE",
                                options.format, fmt::join(options.paths, " "),
                                options.output.empty() ? "" : " -o " + options.output));
    return exit_failure;
  }
  const std::optional<ReportFormat> format = spec->format;
  // A folder: its one plan, found as `check` finds plans in it; with several, which to report.
  const Result<std::string> named = plan_in_folder(options.path, options.format);
  if (!named) {
    print_line(err, fmt::format("planlint: error: {}", named.error().message));
    return exit_failure;
  }
  const std::string& path = *named;
  Result<std::string> text = read_file(path);
  if (!text) {
    print_line(err, fmt::format("planlint: error: cannot read '{}': {}", path, text.error().message));
    return exit_failure;
  }
  auto source = std::make_shared<const SourceFile>(path, *std::move(text));

  // The GPU catalog `check` would use for this file: the built-in one with the config's files
  // over it (docs/catalog.md), so that both agree on a GPU of the team's own.
  std::optional<std::string> config_path;
  if (!options.config.empty()) config_path = options.config;
  else config_path = discover_config(path);
  Catalog catalog = Catalog::builtin();
  std::optional<Config> config;
  if (config_path) {
    config = load_config_and_catalog(
        *config_path, options.config.empty() ? ConfigOrigin::discovered : ConfigOrigin::command_line, catalog, err);
    if (!config) return exit_failure;
  }

  // A Markdown capacity doc: its plan block, read from its own lines with the doc's line
  // numbers (as `check` reads it).
  const Result<PlanText> plan_text = one_plan_text(*source, options.block);
  if (!plan_text) {
    print_line(err, fmt::format("planlint: error: {}", plan_text.error().message));
    return exit_failure;
  }
  const std::string_view toml_text = plan_text->toml_text;
  const std::uint32_t first_line = plan_text->first_line;

  // The checks run as `check` runs them: a plan that needs 423 GB on an 80 GB GPU, or uses a
  // sparse peak, must not make a clean-looking table for a pull request.
  LintOptions lint_options;
  lint_options.catalog = &catalog;
  // The plan's errors as `check` shows them: with the config's selection (an ignored or
  // lowered rule) and the plan's inline suppressions, so that a plan `check` passes does not
  // fail here.
  lint_options.selection = make_selection(config ? &*config : nullptr, SettingsOverrides{});
  FileResult result = lint_text(source, toml_text, lint_options, first_line);
  // Valid TOML without a top-level [plan] table (pyproject.toml, a config) is no plan to report
  // on: it printed an empty report under a plan header after the missing sections. A file that
  // does not parse may be a plan; its syntax error is the finding to show (exit 1).
  if (!is_markdown_path(path) && result.plan && !toml_holds_plan(toml_text)) {
    print_line(err, fmt::format("planlint: error: {}: no plan found: a plan file has a top-level [plan] table (`planlint "
                       "new training` or `planlint new inference` prints one to start from)",
                       path));
    return exit_failure;
  }
  SuppressionRules suppression_rules;
  for (const RuleDescriptor& rule : RuleSet::builtin().descriptors())
    suppression_rules.group_of.emplace(rule.id, rule.group);
  suppression_rules.enabled = [](std::string_view, std::string_view) { return true; };
  // The suppressions' own findings (unused, without a reason) are `check`'s: with no rules run,
  // every suppression of a rule's finding would look unused.
  (void)apply_suppressions(result.diagnostics, find_suppressions(*source, toml_text, first_line), suppression_rules,
                           source->path());

  // On stderr: the plan's structure findings (which leave values out of the estimates) and
  // every error; the rules' warnings and notes are `check`'s to show.
  const auto structural = [](const Diagnostic& d) {
    return std::find(native_rules::all.begin(), native_rules::all.end(), d.rule) != native_rules::all.end();
  };
  std::vector<Diagnostic> shown;
  for (const Diagnostic& d : result.diagnostics)
    if (structural(d) || d.severity == Severity::error) shown.push_back(d);
  const bool any_shown = std::any_of(shown.begin(), shown.end(), [](const Diagnostic& d) { return !d.suppression; });
  if (any_shown) {
    Report diagnostics;
    diagnostics.files.push_back(source);
    diagnostics.diagnostics = shown;
    TextStyle style;
    style.color = use_color(options.no_color ? "never" : options.color, true, environment);
    emit_text(err, diagnostics, style);
  }

  // A finding that corrects an input (sparse-peak's dense peak): every figure is the one that
  // holds once that fix is in place, and the report says so.
  ReportInput input;
  input.plan = result.plan ? &*result.plan : nullptr;
  input.estimates = result.estimates ? &*result.estimates : nullptr;
  const std::vector<Estimates>* stage_estimates = &result.stage_estimates;
  if (result.corrected) {
    input.plan = &result.corrected->plan;
    input.estimates = &result.corrected->estimates;
    input.corrections = result.corrected->corrections;
    stage_estimates = &result.corrected->stage_estimates;
  }
  input.path = path;
  if (input.plan) input.stages = report_stages(*input.plan, *stage_estimates);
  // Which assumption moves each figure: computed here, by estimate/, for the renderers to show
  // (of a plan of one stage: a run's totals are sums of its stages').
  std::optional<Sensitivity> sensitivity;
  if (input.plan && input.estimates && input.stages.empty()) {
    sensitivity = planlint::sensitivity(*input.plan, catalog, *input.estimates);
    input.sensitivity = &*sensitivity;
  }
  for (const Diagnostic& d : result.diagnostics)
    if (d.severity == Severity::error && !d.suppression)
      input.errors.push_back(ReportError{d.rule, d.primary.span.begin.line, d.primary.span.begin.column, d.message});
  render_report(out, input, *format);

  for (const Diagnostic& d : result.diagnostics)
    if (d.severity == Severity::error && !d.suppression) return exit_findings;
  return exit_clean;
}

}  // namespace planlint::cli
