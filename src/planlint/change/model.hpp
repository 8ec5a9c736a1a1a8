#pragma once
/// What `planlint diff` found between two versions of a set of plans, as plain data for the
/// emitters (emit/diff_report.hpp) to show: each plan that changed with its figures before and
/// after, the inputs, assumptions, findings and targets that moved, the guardrails it breaks,
/// and the totals over the change (docs/review.md).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/estimate/corrected.hpp"
#include "planlint/estimate/portfolio.hpp"
#include "planlint/source/source_file.hpp"
#include "planlint/diag/span.hpp"

namespace planlint {

/// One figure of a plan before and after: a metric (cost.total, train.wall_days) or a plan
/// value (cluster.count), in base units, with its range where the assumptions give one.
struct FigureChange {
  std::string name;                  ///< "cost.total", "cluster.count"
  std::string label;                 ///< "cost", "GPUs"
  const MetricSpec* spec = nullptr;  ///< null for a plan value (cluster.count)
  units::Dimension dim;
  bool headline = false;             ///< one of the figures shown without --all
  std::optional<double> base, head;
  std::optional<double> base_low, base_high, head_low, head_high;
  /// Memory per GPU: the GPU's HBM on each side (cluster.hbm), what the figure is held against.
  std::optional<double> base_hbm, head_hbm;

  /// Whether the value (or, for memory per GPU, the HBM it is held against) differs.
  bool changed() const { return base != head || base_hbm != head_hbm; }
  /// head − base, when both are known.
  std::optional<double> change() const;
  /// (head − base) / base, when both are known and base is not 0.
  std::optional<double> change_fraction() const;
};

/// A value of the plan file that differs, as written on each side with its line.
struct InputChange {
  std::string key;                              ///< "cluster.count", "targets[name=days].max"
  std::optional<std::string> base_text, head_text;  ///< as written; nullopt: not stated
  std::uint32_t base_line = 0, head_line = 0;   ///< 0 on a side that does not state it
  Span head_span;                               ///< the head's value, where a guardrail points
};

/// An `[[assumptions]]` entry added, removed, or whose range or other fields changed.
struct AssumptionChange {
  enum class Kind { added, removed, reranged, edited };
  Kind kind = Kind::edited;
  std::string id;                        ///< its id, else "assumptions[N]"
  std::string key;                       ///< the plan key it justifies
  std::optional<std::string> base_range, head_range;  ///< "30%–45%", as written
  std::vector<std::string> fields;  ///< re-ranged or edited: the fields that differ ("value", "source")
  std::uint32_t base_line = 0, head_line = 0;
  Span head_span;  ///< the head's [[assumptions]] header
};

/// A finding of one side, with its fingerprint (emit/fingerprint.hpp), by which the two sides'
/// findings are matched.
struct DiffFinding {
  Diagnostic diagnostic;
  std::string fingerprint;
};

/// A `[[targets]]` entry met on one side and not the other.
struct TargetFlip {
  std::string name;
  std::string metric;
  const MetricSpec* spec = nullptr;
  bool hard = true;
  bool is_max = true;
  std::optional<double> bound;
  std::optional<bool> base_met, head_met;  ///< nullopt: not computed (or no such target)
  std::optional<double> base_value, head_value;
};

enum class PlanStatus { changed, added, removed, renamed };

/// One plan of the change.
struct PlanDiff {
  PlanStatus status = PlanStatus::changed;
  std::string name;  ///< plan.name (the head's, else the base's), else its file
  std::string kind;  ///< "training", "finetune", "inference"
  std::string base_file, head_file;  ///< from the repository root; empty on a side without it
  std::uint32_t base_line = 0, head_line = 0;  ///< the plan's first line (a Markdown block's)
  std::string base_gpu, head_gpu;
  std::vector<FigureChange> figures;
  /// The inputs each side's figures are computed with once its findings' fixes are applied
  /// (estimate/corrected.hpp); empty where no finding corrects one.
  std::vector<InputCorrection> base_corrections, head_corrections;
  std::vector<InputChange> inputs;
  std::vector<AssumptionChange> assumptions;
  std::vector<DiffFinding> introduced, resolved, unchanged;
  std::vector<TargetFlip> targets;
  /// guardrail-exceeded findings in the head version, suppressed ones included.
  std::vector<Diagnostic> guardrails;

  /// The figure called `name`, or nullptr.
  const FigureChange* figure(std::string_view name) const;
  /// Whether a cost figure rose (cost.total, GPU-hours, serving cost per month).
  bool cost_rose() const;
};

/// The sums of one GPU type's plans of the change before and after (make_portfolio's totals),
/// or of all of them (DiffReport::overall, whose `gpu` is empty).
struct TotalChange {
  std::string gpu;
  PortfolioTotal base, head;
};

struct DiffReport {
  std::string base_label, head_label;  ///< "git:origin/main", "plans/"
  std::string repository_root;         ///< absolute: what the files' paths are relative to
  std::vector<PlanDiff> plans;         ///< by head file (base file for removed plans), then line
  std::size_t unchanged_plans = 0;
  std::vector<TotalChange> totals;     ///< by GPU type
  TotalChange overall;                 ///< every plan of the change
  /// The head version's files of the plans listed, sorted by path: what annotations and findings quote.
  std::vector<std::shared_ptr<const SourceFile>> head_sources;
  /// Findings the change introduces (guardrails included) at or above the fail_on of their
  /// file's settings, not suppressed: the exit status is 1 when there is one.
  std::size_t failing = 0;
  /// Whether --all asked for every metric (emitters show what `figures` holds either way).
  bool all_metrics = false;

  bool empty() const { return plans.empty(); }
  /// Whether any plan's cost figure rose (--only-if-increase).
  bool cost_rose() const;
};

std::string_view to_string(PlanStatus status);
std::string_view to_string(AssumptionChange::Kind kind);

}  // namespace planlint
