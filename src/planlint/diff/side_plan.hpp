#pragma once
/// A plan of one side of a diff, linted, and how two of them are compared (compare.cpp) and
/// checked against the guardrails (guardrails.cpp). Internal to diff/.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/change/model.hpp"
#include "planlint/estimate/corrected.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/settings/settings.hpp"

namespace planlint::detail {

struct SidePlan {
  std::string path;  ///< its file from the repository root (SideFile::path)
  std::string key;   ///< what its file is matched by (SideFile::key)
  std::shared_ptr<const SourceFile> source;
  const Settings* settings = nullptr;
  std::uint32_t first_line = 1, last_line = 0;  ///< a Markdown block's lines, else the file's
  std::string block_key;  ///< "plans[name=a]" in a doc of several plans, else ""
  std::string name;       ///< plan.name, "" without one
  const Plan* plan = nullptr;           ///< null when its text is not valid TOML
  /// What its figures are computed from: the plan with the inputs its findings' fixes correct
  /// in place (estimate/corrected.hpp), else `plan`; `estimates` are this plan's.
  const Plan* figures_plan = nullptr;
  const Estimates* estimates = nullptr;
  /// The inputs corrected in figures_plan, in the order of the findings; empty for none.
  std::vector<InputCorrection> corrections;
  /// Its findings, the inline suppressions applied, key paths without the block key.
  std::vector<Diagnostic> findings;

  /// The plan's TOML text (a Markdown block's lines, else the file's).
  std::string_view toml_text() const;
  /// Its cost-tier ranges from the assumptions (metric_ranges): the lint's when a rule read
  /// them, else computed the first time a figure shows one. Empty without a plan.
  const std::map<std::string, MetricRange, std::less<>>& ranges() const;

  /// ranges(): the lint's (LintedPlan::ranges) when it computed them, else set on first use.
  mutable std::optional<std::map<std::string, MetricRange, std::less<>>> cost_ranges;
};

/// What `base` and `head` (either may be null: an added or a removed plan) differ in. The
/// findings are matched by fingerprints made from the head's path (else the base's), so a
/// renamed plan's findings match; they move from the sides into the result.
PlanDiff compare_plans(SidePlan* base, SidePlan* head, PlanStatus status, bool all_metrics);

/// Whether a comparison found nothing that differs (a plan whose edit changed only comments).
bool nothing_differs(const PlanDiff& diff);

/// The plan's row for the portfolio's totals (estimate/portfolio.hpp).
PortfolioPlan total_row(const SidePlan& plan);

/// The guardrail-exceeded findings of `diff` (guardrails.cpp), in the head version of the plan,
/// selected and suppressed as its other findings are.
std::vector<Diagnostic> guardrail_findings(const PlanDiff& diff, const SidePlan& head);

}  // namespace planlint::detail
