// `planlint check`: options → library run (config, lint, suppressions, baseline) → emitter →
// exit status. Everything else happens in planlint/lint/run.cpp.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <filesystem>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/shared_options.hpp"
#include "planlint/config/config.hpp"
#include "planlint/emit/formats.hpp"
#include "planlint/files/output_file.hpp"
#include "planlint/fix/files.hpp"
#include "planlint/lint/run.hpp"
#include "planlint/source/repository.hpp"
#include "planlint/source/limits.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint::cli {

namespace {

constexpr const char* levels = "error, warning, note or off";

/// The command line as the library's options, or the first bad value.
Result<RunOptions> to_run_options(const CheckOptions& options) {
  RunOptions run;
  // No path: the working folder, as ruff and eslint lint it.
  run.paths = options.paths.empty() ? std::vector<std::string>{"."} : options.paths;
  run.skip_non_plans = options.skip_non_plans;
  run.gitignore = !options.no_ignore;
  run.exclude = options.exclude;
  if (!options.config.empty()) run.config = options.config;
  if (!options.select.empty()) run.select = options.select;
  if (!options.ignore.empty()) run.ignore = options.ignore;
  for (const std::string& entry : options.severity) {
    auto equals = entry.find('=');
    std::string rule = entry.substr(0, equals);
    std::string level = equals == std::string::npos ? "" : entry.substr(equals + 1);
    if (rule.empty() || (level != "off" && !parse_severity(level)))
      return Error(fmt::format("--severity {}: expected ID=LEVEL with LEVEL one of {}", entry, levels));
    run.severity[rule] = level;
  }
  run.rules = options.rules;
  if (!options.fail_on.empty()) run.fail_on = parse_severity(options.fail_on);
  const OutputFormat* format = find_output_format(options.format);
  if (options.statistics && format->name != "text" && format->name != "concise")
    return Error(fmt::format("--statistics: applies to the text and concise formats, not --format {}", options.format));
  run.allow_empty = options.allow_empty;
  if (options.unsafe_fixes && !options.fix && !options.diff)
    return Error("--unsafe-fixes: applies with --fix or --diff");
  Result<std::optional<Date>> today = today_option(options.today);
  if (!today) return today.error();
  run.today = *today;
  run.jobs = options.jobs;
  Result<std::optional<std::size_t>> max_file_bytes = byte_size_option("--max-file-size", options.max_file_size);
  if (!max_file_bytes) return max_file_bytes.error();
  if (*max_file_bytes) run.max_file_bytes = **max_file_bytes;
  if (options.max_plans_per_file > 0) run.max_plans_per_file = options.max_plans_per_file;
  run.max_findings_per_file = options.max_findings_per_file;
  if (!options.baseline.empty()) run.baseline = options.baseline;
  if (!options.write_baseline.empty()) run.write_baseline = options.write_baseline;
  if (!options.output.empty()) run.output = options.output;
  run.output_follow_symlinks = options.output_follow_symlinks;
  const bool reads_stdin = std::find(options.paths.begin(), options.paths.end(), "-") != options.paths.end();
  if (!options.stdin_filename.empty()) {
    if (!reads_stdin) return Error("--stdin-filename: names standard input, which is read when a PATH is '-'");
    run.stdin_filename = options.stdin_filename;
  }
  if (reads_stdin && options.fix)
    return Error("--fix: standard input ('-') has no file to write; --diff prints its fixes");
  return run;
}

/// The text of `-`: standard input, read once, whole, with the file size limit.
Result<void> read_standard_input(const CheckOptions& options, const Environment& environment, RunOptions& run) {
  if (std::find(options.paths.begin(), options.paths.end(), "-") == options.paths.end()) return {};
  std::istream& in = environment.input != nullptr ? *environment.input : std::cin;
  std::string text;
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > run.max_file_bytes)
      return Error(fmt::format("cannot read '{}' (standard input): it is over the {} size limit (raise it with "
                               "--max-file-size)",
                               run.stdin_filename, format_byte_size(run.max_file_bytes)));
  }
  if (in.bad()) return Error(fmt::format("cannot read '{}' (standard input): read error", run.stdin_filename));
  run.stdin_text = std::move(text);
  return {};
}

/// The files that fixes change, each fixed to a fixed point (fix_to_fixed_point), from runs
/// that report nothing and write no baseline; nullopt after printing why the run failed (exit
/// 2). Notes on fixes not made go to `notes`.
std::optional<std::vector<fix::FixedFile>> planned_fixes(const CheckOptions& options, RunOptions run,
                                                          std::ostream& err, std::vector<std::string>& notes) {
  run.list_rules = true;  // each rule's fix safety
  run.max_findings_per_file = 0;  // every fix applies, not only those of the findings a report shows
  run.write_baseline.reset();
  run.output.reset();
  const RunResult result = run_lint(run);
  for (const Error& error : result.errors) err << error_line(error) << '\n';
  if (!result.errors.empty()) return std::nullopt;
  const fix::SafetyOf safety = fix::fix_safety_of(result.rules);
  std::vector<fix::FixedFile> files = fix::plan_fixes(result.report, safety, options.unsafe_fixes, &notes);
  // Each later pass lints one file's fixed text as standard input named as the file: its
  // config, rule packs, suppressions and baseline apply as they did.
  RunOptions again = run;
  again.list_rules = false;
  again.allow_empty = true;
  again.skip_non_plans = false;
  const fix::Relint relint = [&again](const std::string& path, const std::string& text)
      -> std::optional<std::vector<Diagnostic>> {
    again.paths = {"-"};
    again.stdin_text = text;
    again.stdin_filename = path;
    RunResult linted = run_lint(again);
    if (!linted.errors.empty()) return std::nullopt;
    return std::move(linted.report.diagnostics);
  };
  for (fix::FixedFile& file : files) {
    fix::fix_to_fixed_point(file, relint, safety, options.unsafe_fixes);
    notes.insert(notes.end(), file.notes.begin(), file.notes.end());
  }
  return files;
}

void print_notes(const CheckOptions& options, const std::vector<std::string>& notes, std::ostream& err) {
  if (options.quiet) return;
  for (const std::string& note : notes) err << "planlint: note: " << note << '\n';
}

/// --diff: the fixes as a unified diff on stdout (or -o FILE); exit 1 when there is one.
int run_diff(const CheckOptions& options, const RunOptions& run, std::ostream& out, std::ostream& err) {
  std::vector<std::string> notes;
  std::optional<std::vector<fix::FixedFile>> files = planned_fixes(options, run, err, notes);
  if (!files) return exit_failure;
  std::string diff;
  std::size_t fixed = 0;
  for (const fix::FixedFile& file : *files) {
    diff += fix::unified_diff(file.before, file.edits, file.path);
    fixed += file.fixed;
  }
  if (!options.output.empty()) {
    if (Result<void> written = write_file_atomically(options.output, diff, OutputTarget{"-o", options.output_follow_symlinks});
        !written) {
      err << error_line(written.error()) << '\n';
      return exit_failure;
    }
  } else {
    out << diff;
  }
  print_notes(options, notes, err);
  if (!options.quiet)
    err << fmt::format("planlint: {} fixable finding{} in {} file{}{}\n", fixed, fixed == 1 ? "" : "s",
                       files->size(), files->size() == 1 ? "" : "s", fixed ? " (--fix applies them)" : "");
  return files->empty() || options.exit_zero ? exit_clean : exit_findings;
}

/// --fix: writes every file its fixes change; nullopt to go on and report what remains, else
/// the exit status of a run that failed.
std::optional<int> run_fix(const CheckOptions& options, const RunOptions& run, std::ostream& err) {
  std::vector<std::string> notes;
  std::optional<std::vector<fix::FixedFile>> files = planned_fixes(options, run, err, notes);
  if (!files) return exit_failure;
  std::size_t fixed = 0, written = 0;
  bool failed = false;
  for (const fix::FixedFile& file : *files) {
    if (Result<void> done = fix::write_fixed(file); !done) {
      err << error_line(done.error()) << '\n';
      failed = true;
      continue;
    }
    fixed += file.fixed;
    ++written;
  }
  print_notes(options, notes, err);
  if (!options.quiet)
    err << fmt::format("planlint: fixed {} finding{} in {} file{}\n", fixed, fixed == 1 ? "" : "s", written,
                       written == 1 ? "" : "s");
  if (failed) return exit_failure;
  return std::nullopt;
}

/// SARIF's run-level details from the config of the run (--config, else the one that governs
/// the working folder): its `docs_url` for the rules' helpUri, and automationDetails.id
/// "planlint/CONFIG" by the config's path from the repository root, so that code scanning
/// tells apart the analyses of one commit made with different configs. A config that does not
/// load leaves the defaults (the run reports its problems).
void set_sarif_run_details(const CheckOptions& options, EmitterSettings& settings) {
  const std::optional<std::string> config =
      options.config.empty() ? discover_folder_config(settings.working_directory) : std::optional(options.config);
  if (!config) return;
  DiagnosticSink ignored;
  Result<Config> loaded = load_config(*config, ignored, options.config.empty() ? ConfigOrigin::discovered : ConfigOrigin::command_line);
  if (!loaded) return;
  if (loaded->docs_url) settings.docs_url = *loaded->docs_url;
  std::error_code ec;
  const std::filesystem::path path = std::filesystem::absolute(*config, ec).lexically_normal();
  const std::filesystem::path from_root = path.lexically_relative(settings.repository_root);
  settings.automation_id = "planlint/" + (from_root.empty() || *from_root.begin() == ".." ? path : from_root).generic_string();
}

/// "Output format (full is text)": the table's aliases (emit/formats.hpp), each with its format.
std::string output_format_help() {
  std::string aliases;
  for (const OutputFormat& format : output_formats())
    if (!format.alias.empty())
      aliases += fmt::format("{}{} is {}", aliases.empty() ? "" : ", ", format.alias, format.name);
  return aliases.empty() ? "Output format" : fmt::format("Output format ({})", aliases);
}

}  // namespace

CLI::App* add_check_command(CLI::App& app, CheckOptions& options) {
  CLI::App* check = app.add_subcommand("check", "Lint plan files, folders and Markdown docs (the default command)");
  check->add_option("paths", options.paths,
                    "Plan files, folders (searched for *.toml plans and *.md docs with plans), Markdown docs; - reads "
                    "standard input; default: the working folder")
      ->type_name("PATH");
  check->add_option("--stdin-filename", options.stdin_filename,
                    "The name of standard input ('-' among the paths) in messages; its folder's config applies, "
                    "and a Markdown name reads it as a doc")
      ->type_name("NAME")
      ->check(non_empty("a file name"));
  add_format_option(*check, options.format, output_format_choices(), output_format_help(), "--format,--output-format");
  add_output_option(*check, options.output, "Write the report to FILE (atomically) instead of stdout");
  add_config_option(*check, options.config, "", "each linted file");
  check->add_option("--select", options.select, "Rules or groups to run (comma-separated)")
      ->type_name("IDS")
      ->delimiter(',')
      ->allow_extra_args(false);
  check->add_option("--ignore", options.ignore, "Rules or groups to skip (comma-separated)")
      ->type_name("IDS")
      ->delimiter(',')
      ->allow_extra_args(false);
  check->add_option("--severity", options.severity, "Override a rule's level: ID=error|warning|note|off (repeatable)")
      ->type_name("ID=LEVEL")
      ->allow_extra_args(false);
  add_rule_packs_option(*check, options.rules);
  add_fail_on_option(*check, options.fail_on, "");
  check->add_option("--baseline", options.baseline, "Accept the findings recorded in this baseline file")
      ->type_name("FILE")
      ->check(non_empty("a file path"));
  check->add_option("--write-baseline", options.write_baseline, "Record the current findings in this baseline file")
      ->type_name("FILE")
      ->check(non_empty("a file path"));
  add_output_follow_symlinks_option(*check, options.output_follow_symlinks, "-o and --write-baseline");
  check->add_flag("--no-ignore", options.no_ignore,
                  "Search folders for plans in what .gitignore files ignore too (--exclude still applies)");
  check->add_option("--exclude", options.exclude,
                    "Leave what GLOB matches out of a folder search, as a .gitignore line relative to the "
                    "working folder ('drafts/', '*.old.toml'); repeatable. Named files are linted all the same")
      ->type_name("GLOB")
      ->allow_extra_args(false)
      ->check(non_empty("a glob"));
  check->add_flag("--skip-non-plans", options.skip_non_plans,
                  "Skip named files that hold no plan instead of reporting them (for pre-commit)");
  add_color_options(*check, options.color, options.no_color);
  check->add_flag("--exit-zero", options.exit_zero, "Exit 0 even when findings are at or above --fail-on (2 still means planlint could not run)");
  check->add_flag("-q,--quiet", options.quiet, "Print the findings only: no summary line, no notes on stderr");
  check->add_flag("--statistics", options.statistics, "Print how many findings each rule has instead of the findings (text and concise formats)");
  check->add_flag("--allow-empty", options.allow_empty, "Exit 0 when the paths hold no plan, instead of 2");
  add_jobs_option(*check, options.jobs);
  add_max_file_size_option(*check, options.max_file_size, "file planlint reads", "a larger one is an error");
  add_max_plans_option(*check, options.max_plans_per_file, "more is an error");
  add_max_findings_option(*check, options.max_findings_per_file);
  check->add_option("--sarif-max-results", options.sarif_max_results,
                    fmt::format("Most results in a SARIF log, the most severe kept (default {}, GitHub's limit; 0: none)",
                                SarifOptions::github_max_results))
      ->type_name("N")
      ->check(whole_number<std::size_t>(0, "a whole number, 0 (no limit) or more"));
  CLI::Option* fix = check->add_flag("--fix", options.fix,
                                     "Apply the safe fixes to the files in place (atomically), then report what remains");
  check->add_flag("--diff", options.diff, "Print the fixes --fix would make as a unified diff; change no file")
      ->excludes(fix);
  check->add_flag("--unsafe-fixes", options.unsafe_fixes,
                  "With --fix or --diff: apply the unsafe fixes too (they may change what a plan means)");
  add_today_option(*check, options.today, "The date staleness rules compare with");
  return check;
}

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err,
              const Environment& environment) {
  Result<RunOptions> run_options = to_run_options(options);
  if (!run_options) {
    err << error_line(run_options.error()) << '\n';
    return exit_failure;
  }
  if (Result<void> read = read_standard_input(options, environment, *run_options); !read) {
    err << error_line(read.error()) << '\n';
    return exit_failure;
  }
  if (options.diff) return run_diff(options, *run_options, out, err);
  if (options.fix)
    if (std::optional<int> failed = run_fix(options, *run_options, err)) return *failed;
  // One of the table's, or full: --format checks it.
  const OutputFormat* format = find_output_format(options.format);
  run_options->list_rules = format->lists_rules;
  std::ostringstream buffer;  // -o: the report is written atomically, and only when complete
  EmitterSettings settings;
  settings.style.color = use_color(options.no_color ? "never" : options.color, options.output.empty(), environment);
  settings.style.quiet = options.quiet;
  settings.style.statistics = options.statistics;
  // SARIF URIs, GitHub annotations and JSON repository_file name files from the repository
  // root, wherever planlint runs.
  settings.working_directory = std::filesystem::current_path().string();
  settings.repository_root = repository_root(settings.working_directory);
  settings.sarif_max_results = options.sarif_max_results;
  if (format->lists_rules) set_sarif_run_details(options, settings);
  const std::unique_ptr<Emitter> emitter = format->make(options.output.empty() ? out : buffer, settings);
  const RunResult result = run_lint(*run_options, *emitter);
  for (const Error& error : result.errors) err << error_line(error) << '\n';
  if (!result.errors.empty()) return exit_failure;
  if (!options.quiet)
    for (const std::string& line : result.messages) print_line(err, line);
  for (const std::string& line : emitter->warnings()) print_line(err, line);
  if (!options.output.empty())
    if (Result<void> written =
            write_file_atomically(options.output, buffer.str(), OutputTarget{"-o", options.output_follow_symlinks});
        !written) {
      err << error_line(written.error()) << '\n';
      return exit_failure;
    }
  return result.failing > 0 && !options.exit_zero ? exit_findings : exit_clean;
}

}  // namespace planlint::cli
