#pragma once
/// A batch of files through the pipeline, what a run's workers do (lint/run.cpp): each file read
/// (unless the search for inputs read it), its plans found (the file itself, or a Markdown
/// doc's ```toml blocks), linted with its settings, its inline suppressions applied and its
/// findings sorted.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planlint/baseline/baseline.hpp"
#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/estimate/corrected.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/lint/findings_cap.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

struct Settings;

/// A file of a batch: its path, its text when the search for inputs read it already, and the
/// settings of its config.
struct FileTask {
  const std::string* path = nullptr;
  std::optional<std::string> text;
  const Settings* settings = nullptr;
  /// Whether the output keeps each plan with its estimates (FileOutput::plans).
  bool keep_plans = false;
};

/// A plan of a linted file, kept when its task asks (an editor's hover reads it).
struct LintedPlan {
  std::uint32_t first_line = 1;  ///< its lines in the file: a Markdown block's, else all
  std::uint32_t last_line = 0;
  std::optional<Plan> plan;            ///< absent when its text is not valid TOML
  std::optional<Estimates> estimates;  ///< with the provenance its settings asked for
  /// The cost-tier ranges the rules computed (metric_ranges), when one read them.
  std::optional<std::map<std::string, MetricRange, std::less<>>> ranges;
  /// The plan and its estimates with the inputs its findings' fixes correct in place, when a
  /// finding corrects one (FileResult::corrected): what its figures are computed from.
  std::optional<CorrectedInputs> corrected = std::nullopt;
  /// The estimates of plan->stages, in order (FileResult::stage_estimates).
  std::vector<Estimates> stage_estimates = {};
};

/// A linted file.
struct FileOutput {
  std::shared_ptr<const SourceFile> source;
  /// Sorted with diagnostic_less, selected, the inline suppressions applied.
  std::vector<Diagnostic> diagnostics;
  FormerKeys former_keys;  ///< how older releases keyed the findings, for their baselines
  /// Why the file could not be read or linted: the run ends with exit status 2.
  std::optional<Error> error;
  /// A Markdown doc without a plan block: nothing in it was linted (only a named doc gets
  /// here; a folder search and --skip-non-plans pass over it).
  bool without_plan = false;
  /// The file's plans, in file order, when FileTask::keep_plans.
  std::vector<LintedPlan> plans;
  /// The findings its plans' loaders counted and did not keep (BatchLimits): when there are
  /// any, the findings are not all there for the baseline to match.
  DroppedFindings findings_not_kept{};
};

struct BatchLimits {
  std::size_t max_file_bytes = 0;      ///< --max-file-size
  std::size_t max_plans_per_file = 0;  ///< --max-plans-per-file
  /// --max-findings-per-file (0: all): a plan's loader keeps findings_kept_per_shown times as
  /// many at most (FileOutput::findings_not_kept).
  std::size_t max_findings_per_file = 0;
};

/// Lints a batch of files: the plan files with lint_texts, each stage over all of them in a
/// row; then each Markdown doc's blocks, each parsed from its own lines (block_text). A batch whose lint throws is linted again file by file, so that the error names
/// its file.
std::vector<FileOutput> lint_batch(std::span<FileTask> tasks, const BatchLimits& limits);

/// How many files a batch holds: enough for each stage's code to stay in the caches over
/// several plans, few enough that `jobs` threads each get several batches of a small run.
std::size_t batch_size(std::size_t files, unsigned jobs);

}  // namespace planlint
