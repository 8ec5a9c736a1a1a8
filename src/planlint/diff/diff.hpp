#pragma once
/// `planlint diff BASE HEAD`: what a change does to a set of plans (docs/review.md). Both sides
/// are read (sides.hpp), linted as `check` lints them with the working tree's configs, their
/// plans matched by path and name (a rename is a rename), and each plan that changed compared:
/// its figures by the same estimate code as `planlint report`, its findings by their
/// fingerprints, its targets by estimate/targets; a change past the config's `[guardrails]` is
/// a `guardrail-exceeded` finding in the head version.
///
///     DiffOptions options;
///     options.base = *parse_diff_side("git:origin/main");
///     options.head = *parse_diff_side("plans/");
///     DiffRun run = run_diff(options);
///     if (!run.errors.empty()) ...   // exit 2
///     render_diff(std::cout, run.report, DiffFormat::markdown);
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "planlint/diag/result.hpp"
#include "planlint/change/model.hpp"
#include "planlint/diff/sides.hpp"
#include "planlint/settings/settings.hpp"
#include "planlint/source/limits.hpp"

namespace planlint {

/// The command line's settings (select, ignore, severity, rules, fail_on, today) win over each
/// file's config, as in `check`.
struct DiffOptions : SettingsOverrides {
  DiffSide base, head;
  std::optional<std::string> config;  ///< --config: one config for every file
  unsigned jobs = 1;                  ///< files linted in parallel; 0: one per core
  std::size_t max_file_bytes = default_max_file_bytes;
  std::size_t max_plans_per_file = default_max_markdown_plans;
  bool all_metrics = false;  ///< --all: every metric, not only the headline figures that changed
};

struct DiffRun {
  DiffReport report;
  /// Lines for stderr that do not change the exit status ("a base plan is not valid TOML").
  std::vector<std::string> messages;
  /// When not empty, planlint could not do its job (exit status 2).
  std::vector<Error> errors;
};

DiffRun run_diff(const DiffOptions& options);

}  // namespace planlint
