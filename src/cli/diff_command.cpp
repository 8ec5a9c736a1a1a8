// `planlint diff BASE HEAD` and `planlint diff --base-ref REV [PATH...]`: options → run_diff()
// (src/planlint/diff/) → a renderer of emit/diff_report.hpp → exit status (docs/review.md).
#include <filesystem>
#include <sstream>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
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
  if (!options.max_file_size.empty()) {
    const std::optional<std::size_t> bytes = parse_byte_size(options.max_file_size);
    if (!bytes)
      return Error(fmt::format("--max-file-size {}: expected a size in bytes, such as 64MiB or 100MB",
                               options.max_file_size));
    diff.max_file_bytes = *bytes;
  }
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
  diff->add_option("--format", options.format, "Output format")
      ->type_name("FORMAT")
      ->check(CLI::IsMember(diff_format_names()))
      ->capture_default_str();
  diff->add_option("-o,--output", options.output, "Write the diff to FILE (atomically) instead of stdout")
      ->type_name("FILE")
      ->check(non_empty("a file path"));
  diff->add_flag("--all", options.all, "Every metric of each changed plan, not only the headline figures that moved");
  diff->add_flag("--only-if-increase", options.only_if_increase,
                 "Print nothing, and exit 0, when no plan's cost figure rose");
  diff->add_option("--config", options.config,
                   "Config file for every plan (default: the nearest .planlint.toml up from each file in the working tree)")
      ->type_name("FILE")
      ->check(non_empty("a file path"));
  diff->add_option("--fail-on", options.fail_on,
                   "Lowest level of a finding the change introduces that makes the exit status 1 (default: the "
                   "config's, else error)")
      ->type_name("LEVEL")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  add_color_options(*diff, options.color, options.no_color);
  diff->add_flag("--output-follow-symlinks", options.output_follow_symlinks,
                 "Let -o write through a symbolic link (refused by default)");
  diff->add_option("-j,--jobs", options.jobs, "Files linted in parallel (0: one per core); output order is fixed")
      ->type_name("N")
      ->check(whole_number<unsigned>(0, "a whole number, 0 (one per core) or more"));
  diff->add_option("--max-file-size", options.max_file_size,
                   "Largest file planlint reads, on either side, e.g. 64MiB (default 16MiB)")
      ->type_name("SIZE")
      ->check(non_empty("a size, such as 64MiB"));
  diff->add_option("--today", options.today,
                   "The date staleness rules compare with, YYYY-MM-DD (also: PLANLINT_TODAY)")
      ->type_name("DATE")
      ->check(non_empty("a date, YYYY-MM-DD"));
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
  if (!silent && !std::getenv("X_NORENDER")) render_diff(options.output.empty() ? out : text, run.report, format->format, style);
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
