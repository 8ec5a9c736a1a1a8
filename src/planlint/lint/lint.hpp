#pragma once
/// The pipeline for one plan, or a batch of plans a stage at a time: source text → plan →
/// estimates → rules → diagnostics.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/baseline/baseline.hpp"
#include "planlint/catalog/catalog.hpp"
#include "planlint/diag/diagnostic.hpp"
#include "planlint/estimate/corrected.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/lint/findings_cap.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/settings/lint_options.hpp"

namespace planlint {

struct FileResult {
  std::shared_ptr<const SourceFile> source;
  std::optional<Plan> plan;            ///< absent when the file is not valid TOML
  /// Absent with the plan. For a plan of [[stages]], the whole run's (run.*, run_totals), each
  /// stage's in stage_estimates.
  std::optional<Estimates> estimates;
  std::vector<Diagnostic> diagnostics; ///< sorted
  /// The keys older releases gave these findings, for the baselines they wrote.
  FormerKeys former_keys;
  /// The findings of the plan's loader past lint_texts's `most_findings`, counted and not kept.
  DroppedFindings findings_not_kept{};
  /// The cost-tier ranges of metric_ranges(), when a rule read one (PlanRanges), else nullopt.
  std::optional<std::map<std::string, MetricRange, std::less<>>> ranges = std::nullopt;
  /// The estimates of plan->stages, in order; empty for a plan without [[stages]].
  std::vector<Estimates> stage_estimates = {};
  /// The plan and its estimates once the inputs its findings' fixes correct are in place
  /// (corrected.hpp), when a finding carries such a fix: what the findings' figures, and a
  /// report's, are computed from.
  std::optional<CorrectedInputs> corrected = std::nullopt;
};

/// Lints one loaded file.
FileResult lint_source(std::shared_ptr<const SourceFile> source, const LintOptions& options);

/// Lints `toml_text` as the plan while diagnostics name `source`: `toml_text` is `source`'s
/// lines from `first_line` on (a Markdown block's: block_text), and findings carry the
/// source's own line and column numbers (load_plan).
FileResult lint_text(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                     const LintOptions& options, std::uint32_t first_line = 1);

/// One plan of a batch (lint_texts): lint_text's arguments.
struct PlanText {
  std::shared_ptr<const SourceFile> source;
  std::string_view toml_text;
  std::uint32_t first_line = 1;
  const LintOptions* options = nullptr;  ///< never null; plans of one batch may differ
};

/// lint_text on each plan, a stage at a time over all of them: the same results, faster over
/// many plans (docs/development.md, "Layout"). With `most_findings`, the loader of a plan keeps
/// that many of its findings at most, the most severe of those selected, while it reads the
/// plan; the others are counted in FileResult::findings_not_kept.
std::vector<FileResult> lint_texts(std::span<const PlanText> plans, std::size_t most_findings = 0);

/// Keeps the findings that `options.selection` runs, each at its level there: what lint_texts
/// does to a plan's findings, and a run to the findings of the plan's suppressions.
void select_findings(std::vector<Diagnostic>& diagnostics, const LintOptions& options);

}  // namespace planlint
