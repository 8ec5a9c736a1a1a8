// `planlint diff BASE HEAD` and `planlint diff --base-ref REV [PATH...]`: options → run_diff()
// (src/planlint/diff/) → a renderer of emit/diff_report.hpp → exit status (docs/review.md).
#include <filesystem>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/shared_options.hpp"
#include "planlint/diff/diff.hpp"
#include "planlint/emit/diff_report.hpp"
#include "planlint/files/output_file.hpp"

namespace planlint::cli {

namespace {

/// The command line as the library's options, or the first bad value.
Result<planlint::DiffOptions> to_diff_options(const DiffCommandOptions& options) {
  planlint::DiffOptions diff;
  if (options.base_ref.empty()) {
    if (options.sides.size() != 2)
      return Error(fmt::format("diff takes two sides, BASE and HEAD (a path or git:REV[:PATH]), or --base-ref REV "
                               "[PATH...]; got {}",
                               options.sides.empty() ? std::string("none") : fmt::format("{}", fmt::join(options.sides, " "))));
    for (const auto& [side, text] : {std::pair{&diff.base, &options.sides[0]}, std::pair{&diff.head, &options.sides[1]}}) {
      Result<DiffSide> parsed = parse_diff_side(*text);
      if (!parsed) return parsed.error();
      *side = *std::move(parsed);
    }
  } else {
    // The usual CI case: the working tree's PATHs (default: the working folder) against the
    // same paths at REV.
    Result<DiffSide> base = parse_diff_side("git:" + options.base_ref);
    if (!base) return Error(fmt::format("--base-ref {}", base.error().message));
    diff.base = *std::move(base);
    diff.base.paths = options.sides;
    diff.head.paths = options.sides.empty() ? std::vector<std::string>{"."} : options.sides;
    for (const std::string& path : options.sides)
      if (path.starts_with("git:"))
        return Error(fmt::format("--base-ref {}: the paths are of the working tree, not '{}'", options.base_ref, path));
    diff.head.label = fmt::format("{}", fmt::join(diff.head.paths, " "));
    if (!options.sides.empty()) diff.base.label += ":" + diff.head.label;
  }
  if (!options.config.empty()) diff.config = options.config;
  if (!options.fail_on.empty()) diff.fail_on = parse_severity(options.fail_on);
  Result<std::optional<Date>> today = today_option(options.today);
  if (!today) return today.error();
  diff.today = *today;
  diff.jobs = options.jobs;
  Result<std::optional<std::size_t>> max_file_bytes = byte_size_option("--max-file-size", options.max_file_size);
  if (!max_file_bytes) return max_file_bytes.error();
  if (*max_file_bytes) diff.max_file_bytes = **max_file_bytes;
  diff.all_metrics = options.all;
  return diff;
}

}  // namespace

CLI::App* add_diff_command(CLI::App& app, DiffCommandOptions& options) {
  CLI::App* diff = app.add_subcommand("diff", "Show what a change does to plans: figures, findings, guardrails");
  diff->add_option("sides", options.sides,
                   "BASE and HEAD: each a plan file, folder or Markdown doc, or git:REV[:PATH]; with --base-ref, "
                   "the working tree's paths to compare (default: the working folder)")
      ->type_name("SIDE");
  diff->add_option("--base-ref", options.base_ref,
                   "Compare the working tree's paths with the same paths at this git revision (origin/main)")
      ->type_name("REV")
      ->check(non_empty("a git revision"));
  add_format_option(*diff, options.format, diff_format_names());
  add_output_option(*diff, options.output, "Write the diff to FILE (atomically) instead of stdout");
  diff->add_flag("--all", options.all, "Every metric of each changed plan, not only the headline figures that moved");
  diff->add_flag("--only-if-increase", options.only_if_increase,
                 "Print nothing, and exit 0, when no plan's cost figure rose");
  add_config_option(*diff, options.config, " for every plan", "each file in the working tree");
  add_fail_on_option(*diff, options.fail_on, " of a finding the change introduces");
  add_color_options(*diff, options.color, options.no_color);
  add_output_follow_symlinks_option(*diff, options.output_follow_symlinks, "-o");
  add_jobs_option(*diff, options.jobs);
  add_max_file_size_option(*diff, options.max_file_size, "file planlint reads, on either side", "a larger one is an error");
  add_today_option(*diff, options.today, "The date staleness rules compare with");
  return diff;
}

int run_diff_command(const DiffCommandOptions& options, std::ostream& out, std::ostream& err,
                     const Environment& environment) {
  Result<planlint::DiffOptions> diff_options = to_diff_options(options);
  if (!diff_options) {
    err << error_line(diff_options.error()) << '\n';
    return exit_failure;
  }
  if (!options.output.empty())
    if (std::optional<Error> refused =
            refused_symlink(options.output, OutputTarget{"-o", options.output_follow_symlinks})) {
      err << error_line(*refused) << '\n';
      return exit_failure;
    }
  const DiffRun run = planlint::run_diff(*diff_options);
  for (const Error& error : run.errors) err << error_line(error) << '\n';
  if (!run.errors.empty()) return exit_failure;
  for (const std::string& line : run.messages) print_line(err, line);
  // --only-if-increase: nothing (an empty -o file, which a script posts as nothing) and exit 0.
  const bool silent = options.only_if_increase && !run.report.cost_rose();

  DiffStyle style;
  style.color = use_color(options.no_color ? "never" : options.color, options.output.empty(), environment);
  style.working_directory = std::filesystem::current_path().string();
  style.repository_root = run.report.repository_root;
  const DiffFormatSpec* format = find_diff_format(options.format);
  std::ostringstream text;
  if (!silent) render_diff(options.output.empty() ? out : text, run.report, format->format, style);
  if (!options.output.empty())
    if (Result<void> written =
            write_file_atomically(options.output, text.str(), OutputTarget{"-o", options.output_follow_symlinks});
        !written) {
      err << error_line(written.error()) << '\n';
      return exit_failure;
    }
  return run.report.failing > 0 && !silent ? exit_findings : exit_clean;
}

}  // namespace planlint::cli
