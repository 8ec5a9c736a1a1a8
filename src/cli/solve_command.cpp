/// `planlint solve PLAN`: the layouts a training plan leaves free, searched exhaustively, the
/// best that fit and meet its hard targets printed with the figures that decided them
/// (docs/solve.md). Exit status 0 when one does, 1 when none does, 2 on bad input.
#include <algorithm>
#include <tuple>
#include <variant>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/shared_options.hpp"
#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/diag/printable.hpp"
#include "planlint/fix/files.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/settings/settings.hpp"
#include "planlint/solve/serving_solve.hpp"
#include "planlint/solve/solve.hpp"

namespace planlint::cli {

CLI::App* add_solve_command(CLI::App& app, SolveCommandOptions& options) {
  CLI::App* solve = app.add_subcommand(
      "solve", "Search the layouts a training or inference plan leaves free for the best that fit and meet its hard "
      "targets (and SLAs)");
  // Not required here: `solve --apply PLAN` gives the plan to --apply's optional value (run_solve).
  solve->add_option("path", options.path, "A training or inference plan file, or a Markdown doc with one (see --block)")
      ->type_name("PLAN");
  solve->add_option("--minimize", options.minimize, "What the best layout has least of: cost (the default; per month for an inference plan), days "
                    "(training) or gpus")
      ->type_name("WHAT")
      ->check(CLI::IsMember({"cost", "days", "gpus"}));
  solve->add_option("-n", options.top, "Print the N best layouts (default 5)")
      ->type_name("N")
      ->check(whole_number(1, 1000, "a number of layouts, 1 to 1000"));
  solve->add_option("--keep", options.keep,
                    fmt::format("Hold these layout keys at the plan's values ({}; of an inference plan, tp and pp)",
                                solve::layout_key_list()))
      ->type_name("KEY,...")
      ->delimiter(',')
      ->allow_extra_args(false);
  solve->add_option("--vary", options.vary,
                    "Let these plan keys change too: gpu (every catalog GPU with a price, or --gpus), count (whole "
                    "nodes from one to the plan's cluster.count, or --count) and global_batch (the plan's times 1/4 "
                    "to 4, in powers of two)")
      ->type_name("KEY,...")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"gpu", "count", "global_batch"}));
  solve->add_option("--gpus", options.gpus, "Search these catalog GPUs (implies --vary gpu)")
      ->type_name("GPU,...")
      ->delimiter(',')
      ->allow_extra_args(false);
  solve->add_option("--count", options.count,
                    "Search these GPU counts, in whole nodes: N, LOW..HIGH, ..HIGH or LOW.. (implies --vary count; "
                    "with --minimize gpus, the fewest that meet the targets)")
      ->type_name("RANGE");
  add_format_option(*solve, options.format, {"text", "markdown", "json"});
  solve->add_option("--apply", options.apply,
                    "Write layout N (default 1) into the plan, atomically, keeping its comments and Markdown prose")
      ->type_name("N")
      ->expected(0, 1)
      ->default_str("1");
  solve->add_flag("--diff", options.diff,
                  "Print the changes of layout N (--apply N, else 1) as a unified diff and write nothing");
  add_config_option(*solve, options.config, " whose GPU catalog and rule options apply", "PLAN");
  solve->add_option("--block", options.block, "In a Markdown doc with several plans, the Nth plan block (1-based)")
      ->type_name("N")
      ->check(whole_number<std::size_t>(1, "a plan block's number, 1 or more"));
  return solve;
}

namespace {

/// --apply's layout number: 1 when given alone; nullopt when not a number from 1.
std::optional<std::size_t> layout_number(const std::string& apply) {
  if (apply.empty()) return 1;
  std::size_t number = 0;
  for (const char c : apply) {
    if (c < '0' || c > '9' || number > 100000) return std::nullopt;
    number = number * 10 + static_cast<std::size_t>(c - '0');
  }
  return number >= 1 ? std::optional<std::size_t>(number) : std::nullopt;
}

}  // namespace

namespace {

/// --apply or --diff of layout `number`, and the report: a training or an inference plan's.
template <typename Report>
int finish_solve(const SolveCommandOptions& options, const SourceFile& source, const Report& report,
                 std::size_t number, std::ostream& out, std::ostream& err) {
  const bool applying = !options.apply.empty();
  if (applying || options.diff) {
    if (number > report.solutions.size()) {
      print_line(err, fmt::format("planlint: error: --apply {}: solve found {} layout{}", number,
                                  report.solutions.size(), report.solutions.size() == 1 ? "" : "s"));
      return report.solutions.empty() ? exit_findings : exit_failure;
    }
    const auto& chosen = report.solutions[number - 1];
    if (options.diff) {
      out << fix::unified_diff(source.text(), chosen.edits, options.path);
      return exit_clean;
    }
    fix::FixedFile file;
    file.path = options.path;
    file.before = source.text();
    file.edits = chosen.edits;
    if (const Result<void> written = fix::write_fixed(file); !written) {
      print_line(err, fmt::format("planlint: error: {}", written.error().message));
      return exit_failure;
    }
  }
  if (options.format == "json") solve::render_solve_json(out, report);
  else if (options.format == "markdown") solve::render_solve_markdown(out, report);
  else solve::render_solve_text(out, report);
  if (applying && options.format != "json")
    out << fmt::format("{}: layout {} written{}\n", printable_path(options.path), number,
                       report.solutions[number - 1].changes.empty() ? " (no change)" : "");
  return report.solutions.empty() ? exit_findings : exit_clean;
}

}  // namespace

int run_solve(const SolveCommandOptions& given, std::ostream& out, std::ostream& err) {
  SolveCommandOptions options = given;
  // `solve --apply PLAN`: CLI11 gave the plan to --apply's optional N.
  if (options.path.empty() && !options.apply.empty() && !layout_number(options.apply)) {
    options.path = options.apply;
    options.apply = "1";
  }
  if (options.path.empty()) {
    print_line(err, "planlint: error: solve: PLAN is required (planlint solve PLAN)");
    return exit_failure;
  }
  const bool applying = !options.apply.empty();
  const std::optional<std::size_t> number = layout_number(options.apply);
  if (!number) {
    print_line(err, fmt::format("planlint: error: --apply: '{}' is not a layout's number (1, 2, ...)", options.apply));
    return exit_failure;
  }
  Result<std::string> text = read_file(options.path);
  if (!text) {
    print_line(err, fmt::format("planlint: error: cannot read '{}': {}", options.path, text.error().message));
    return exit_failure;
  }
  auto source = std::make_shared<const SourceFile>(options.path, *std::move(text));
  const Result<PlanText> plan_text = one_plan_text(*source, options.block);
  if (!plan_text) {
    print_line(err, fmt::format("planlint: error: {}", plan_text.error().message));
    return exit_failure;
  }

  // The settings `check` would use for this file: the config's catalog, rule packs, options
  // and selection.
  std::optional<std::string> config_path;
  if (!options.config.empty()) config_path = options.config;
  else config_path = discover_config(options.path);
  std::optional<Config> config;
  if (config_path) {
    Catalog catalog = Catalog::builtin();
    config = load_config_and_catalog(
        *config_path, options.config.empty() ? ConfigOrigin::discovered : ConfigOrigin::command_line, catalog, err);
    if (!config) return exit_failure;
  }
  DiagnosticSink problems;
  const std::unique_ptr<Settings> settings = make_settings(std::move(config), SettingsOverrides{}, problems);
  for (const Diagnostic& problem : problems) print_line(err, error_line(problem));
  if (!settings || !problems.empty()) return exit_failure;
  const LintOptions& lint_options = settings->lint;

  solve::SolveOptions solve_options;
  solve_options.objective = options.minimize == "days"   ? solve::Objective::days
                            : options.minimize == "gpus" ? solve::Objective::gpus
                                                         : solve::Objective::cost;
  solve_options.top = std::max(options.top, (applying || options.diff) ? *number : std::size_t{1});
  solve_options.keep = options.keep;
  solve_options.vary_gpu = std::find(options.vary.begin(), options.vary.end(), "gpu") != options.vary.end();
  solve_options.vary_count = std::find(options.vary.begin(), options.vary.end(), "count") != options.vary.end();
  solve_options.vary_batch =
      std::find(options.vary.begin(), options.vary.end(), "global_batch") != options.vary.end();
  solve_options.gpus = options.gpus;
  if (settings->config) {
    solve_options.config = settings->config->solve;
    solve_options.config_path = settings->config->path;
  }
  if (!options.count.empty()) {
    const Result<std::pair<double, double>> range = solve::parse_count_range(options.count);
    if (!range) {
      print_line(err, fmt::format("planlint: error: {}", range.error().message));
      return exit_failure;
    }
    solve_options.vary_count = true;
    std::tie(solve_options.count_low, solve_options.count_high) = *range;
  }
  const Result<solve::AnyReport> any =
      solve::solve_any(source, plan_text->toml_text, plan_text->first_line, lint_options, solve_options);
  if (!any) {
    print_line(err, fmt::format("planlint: error: {}", any.error().message));
    return exit_failure;
  }
  return std::visit([&](const auto& report) { return finish_solve(options, *source, report, *number, out, err); },
                    *any);
}


}  // namespace planlint::cli
