#pragma once
/// A whole `planlint check` run: inputs → configuration → per-file lint (in parallel with
/// jobs > 1) → inline suppressions → baseline → one Report, sorted, whatever the job count.
///
///     RunOptions options;
///     options.paths = {"plans/"};
///     RunResult result = run_lint(options);
///     for (const Error& e : result.errors) std::cerr << error_line(e) << '\n';  // exit 2
///     emit_text(std::cout, result.report, {});
///     return result.failing ? 1 : 0;
///
/// Or file by file, for an emitter that writes as it goes and a run that holds one file at a
/// time rather than all of them:
///
///     TextEmitter text(std::cout, {});
///     RunResult result = run_lint(options, text);   // result.report stays empty
///     if (!result.errors.empty()) ...          // exit 2; the files before the first that
///                                              // could not be linted were delivered, and
///                                              // the summary line was not written
#include <optional>
#include <string>
#include <vector>

#include "planlint/emit/lint_report.hpp"
#include "planlint/emit/report_sink.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/diag/rule_descriptor.hpp"
#include "planlint/lint/findings_cap.hpp"
#include "planlint/settings/settings.hpp"
#include "planlint/source/limits.hpp"

namespace planlint {

/// The command line's settings (SettingsOverrides: select, ignore, severity, rules, fail_on,
/// today) win over each file's config.
struct RunOptions : SettingsOverrides {
  std::vector<std::string> paths;  ///< files, folders, Markdown docs; `-`: standard input
  /// The text `-` in `paths` stands for (standard input, read by the caller); without it, `-`
  /// is a file name like any other.
  std::optional<std::string> stdin_text;
  /// --stdin-filename: the name standard input's findings carry; its folder's config applies,
  /// and a Markdown name (`docs/q3.md`) makes it a doc.
  std::string stdin_filename = "-";
  /// A file named in `paths` that holds no plan is skipped rather than linted (pre-commit
  /// passes every *.toml and *.md of a commit).
  bool skip_non_plans = false;
  /// A run that finds no file to lint is an error (a CI job given a wrong path would pass
  /// while checking nothing), unless allowed, or `skip_non_plans` (pre-commit passes a
  /// commit's files, which may hold no plan).
  bool allow_empty = false;
  /// A folder search honours .gitignore files (--no-ignore: false).
  bool gitignore = true;
  /// --exclude: globs, written as .gitignore lines relative to the working folder, that a
  /// folder search leaves out; a config's `exclude` adds its own, relative to its folder.
  std::vector<std::string> exclude;
  /// --config: this file configures every linted file; otherwise each file's nearest
  /// .planlint.toml (discover_config) does, when it has one.
  std::optional<std::string> config;
  bool discover_config = true;

  unsigned jobs = 1;  ///< files linted in parallel; 0: one per core
  /// --max-file-size: larger plans and docs are an exit-2 error (docs/hardening.md).
  std::size_t max_file_bytes = default_max_file_bytes;
  /// --max-plans-per-file: a Markdown doc with more plan blocks is an exit-2 error.
  std::size_t max_plans_per_file = default_max_markdown_plans;
  /// --max-findings-per-file: the most findings of one file delivered, its most severe
  /// (lint/findings_cap.hpp), after the baseline has matched them all; 0: every finding. A
  /// file over it adds a note to RunResult::messages.
  std::size_t max_findings_per_file = default_max_findings_per_file;
  std::optional<std::string> baseline;        ///< --baseline FILE
  std::optional<std::string> write_baseline;  ///< --write-baseline FILE
  /// -o FILE, which the caller writes: the run only checks, before linting, that it is not a
  /// linted file nor --baseline's or --write-baseline's file (exit 2 otherwise).
  std::optional<std::string> output;
  /// --output-follow-symlinks: -o and --write-baseline may write through a symbolic link
  /// (refused otherwise: a checkout can plant one).
  bool output_follow_symlinks = false;
  /// Whether RunResult::rules is filled: SARIF's tool.driver.rules needs it, the other formats
  /// do not (61 descriptors copied, sorted and looked up for every finding, ~4% of a one-plan run).
  bool list_rules = true;
};

struct RunResult {
  Report report;  ///< every linted file and finding; empty when a sink received them
  /// The rules that ran (on at least one file), sorted by id, at their effective level; every
  /// diagnostic's rule is among them. Empty unless RunOptions::list_rules.
  std::vector<RuleDescriptor> rules;
  /// Findings that are not suppressed and at or above the fail_on of their file's settings.
  std::size_t failing = 0;
  /// Lines for stderr that do not change the exit status: baseline entries that no longer
  /// match, the baseline written.
  std::vector<std::string> messages;
  /// When not empty, planlint could not do its job (exit status 2), each where it is when it
  /// has a place: error_line(e) prints ".planlint.toml:3:1: error: unknown key 'selct' in [lint]".
  std::vector<Error> errors;
};

RunResult run_lint(const RunOptions& options);

/// The same run, delivering the report to `sink` file by file (ReportSink) instead of into
/// RunResult::report, which stays empty. Files come in the report's order, by path. When a file
/// cannot be read or linted, no file after it is delivered and `errors` says why; otherwise the
/// run ends with sink.finish(rules). With `write_baseline`, every file is held until the
/// baseline is written, then delivered.
RunResult run_lint(const RunOptions& options, ReportSink& sink);

}  // namespace planlint
