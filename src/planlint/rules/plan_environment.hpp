#pragma once
/// The run-time names of a rule expression, read from one plan and its estimates: plan keys,
/// est.METRIC, it.FIELD (the current element of `each`), options.NAME.
#include <bitset>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/expr/environment.hpp"
#include "planlint/expr/syntax.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// The ranges of a plan's cost-tier metrics, computed on first use: a check estimates without
/// the ranges unless a rule names est.METRIC.low or .high (EstimateScope), and metric_low() /
/// metric_high() need them only for the plans whose claims they are asked about.
class PlanRanges {
 public:
  /// `estimates` are the plan's; `with_ranges` says whether they already hold the ranges.
  PlanRanges(const Plan& plan, const Catalog& catalog, const Estimates& estimates, bool with_ranges)
      : plan_(plan), catalog_(catalog), estimates_(estimates), with_ranges_(with_ranges) {}

  /// The range of the metric `name`, or nullopt when it has none.
  std::optional<MetricRange> range(std::string_view name) const {
    if (with_ranges_) {
      const MetricValue* m = estimates_.find(name);
      if (!m || !m->low || !m->high) return std::nullopt;
      return MetricRange{*m->low, *m->high};
    }
    if (!ranges_) ranges_ = metric_ranges(plan_, catalog_, estimates_);
    if (auto found = ranges_->find(name); found != ranges_->end()) return found->second;
    return std::nullopt;
  }

  /// The ranges metric_ranges() gave, when a rule asked for one (else nullopt), moved out: a
  /// caller that keeps the plan (`planlint diff`) shows them without computing them again.
  std::optional<std::map<std::string, MetricRange, std::less<>>> take_computed() { return std::move(ranges_); }

 private:
  const Plan& plan_;
  const Catalog& catalog_;
  const Estimates& estimates_;
  bool with_ranges_;
  mutable std::optional<std::map<std::string, MetricRange, std::less<>>> ranges_;
};

/// The plan's estimates with their provenance (which inputs each metric reads), computed on
/// first use when the check's estimates were made without it (EstimateScope::provenance):
/// shared_inputs() needs it only for the plans whose claims slip together.
class PlanProvenance {
 public:
  /// `estimates` are the plan's; `with_provenance` says whether they record their inputs.
  PlanProvenance(const Plan& plan, const Catalog& catalog, const Estimates& estimates, bool with_provenance)
      : plan_(plan), catalog_(catalog), estimates_(estimates), with_provenance_(with_provenance) {}

  const Estimates& estimates() const {
    if (with_provenance_) return estimates_;
    if (!own_) own_ = estimate(plan_, catalog_, EstimateScope{true, false});
    return *own_;
  }

 private:
  const Plan& plan_;
  const Catalog& catalog_;
  const Estimates& estimates_;
  bool with_provenance_;
  mutable std::optional<Estimates> own_;
};

struct RuleInputs {
  const Plan& plan;
  const Estimates& estimates;
  const Catalog& catalog;
  Date today;
  /// Config's [tolerances]; the plan's own stated tolerances win.
  const std::map<std::string, double>& tolerances;
  /// The ranges of the plan's metrics, for metric_low() and metric_high(); without it, the
  /// ranges `estimates` holds (none unless they were computed).
  const PlanRanges* ranges = nullptr;
  /// The estimates with their inputs, for shared_inputs(); without it, computed on first use.
  const PlanProvenance* provenance = nullptr;
};

class PlanEnvironment : public expr::Environment {
 public:
  PlanEnvironment(const RuleInputs& inputs, const std::map<std::string, expr::Value>& options)
      : inputs_(inputs), options_(options) {}

  /// The element of an `each` rule: a table of [[targets]] etc. (of the array section
  /// `section`, plan_sections()), or a claim of [estimates].
  void set_element(const PlanTable* table, const Claim* claim, const SectionSpec* section = nullptr) {
    element_ = table;
    claim_ = claim;
    element_fields_ = section ? element_fields_of(*section) : std::span<const KeySpec* const>{};
  }

  std::optional<expr::Value> lookup(std::string_view path) const override;
  std::optional<expr::ValueRef> lookup_path(const expr::Node& path, expr::ValueStore& keep) const override;
  bool stated(std::string_view path) const override;
  bool stated_path(const expr::Node& path) const override;
  bool stated_in_bits(std::string_view path) const override;
  bool has_invalid_values() const override { return !inputs_.plan.invalid_keys.empty(); }
  bool unread(std::string_view path) const override;
  bool blocked(std::string_view metric) const override;
  std::optional<expr::Value> metric(std::string_view name) const override;
  std::optional<expr::Value> metric_bound(std::string_view name, bool high) const override;
  std::optional<expr::Value> plan_value(std::string_view key) const override;
  bool assumed(std::string_view key) const override;
  std::optional<std::string> unassumed_field(std::string_view field) const override;
  bool claimed(std::string_view metric) const override;
  bool computed(std::string_view metric) const override;
  bool computed_from(std::string_view metric, std::string_view key) const override;
  std::vector<std::string> missing_inputs(std::string_view metric) const override;
  bool benchmarked(std::string_view metric) const override;
  std::vector<std::string> claims_with_ratio(double ratio, double tolerance) const override;
  std::vector<std::string> shared_inputs(const std::vector<std::string>& metrics) const override;
  std::optional<double> tolerance(std::string_view metric) const override;
  std::optional<expr::Value> catalog(std::string_view gpu, std::string_view field,
                                     std::string_view precision) const override;
  std::optional<expr::Value> compute_precision() const override;
  double seconds_since(const Date& date) const override;

  /// Metrics read through metric(NAME) since the last reset, for the provenance notes.
  const std::vector<std::string>& metrics_read() const { return metrics_read_; }
  /// Whether an est.NAME path of the metric was read since the last reset: a finding notes
  /// the arithmetic of the metrics it read, not of those its other branches name.
  bool read_path(const MetricSpec& metric) const { return paths_read_[static_cast<std::size_t>(metric.id)]; }
  void reset_metrics_read() {
    metrics_read_.clear();
    paths_read_.reset();
    recording_ = true;
  }
  /// Stops recording the metrics read until the next reset: a finding notes the arithmetic of
  /// the metrics its check read, which decide it, not of those its message and help print.
  void stop_recording() { recording_ = false; }

 private:
  const RuleInputs& inputs_;
  const std::map<std::string, expr::Value>& options_;
  const PlanTable* element_ = nullptr;
  const Claim* claim_ = nullptr;
  /// The element's section's fields by field id (element_fields_of): what it.FIELD reads.
  std::span<const KeySpec* const> element_fields_;
  mutable std::vector<std::string> metrics_read_;
  mutable std::bitset<metric_count> paths_read_;
  bool recording_ = true;
  /// The estimates with the inputs of each metric: RuleInputs' provenance, else own_provenance_.
  const Estimates& estimates_with_inputs() const;
  /// The provenance when RuleInputs has none.
  mutable std::optional<PlanProvenance> own_provenance_;
};

/// The plan value as an expression value.
expr::Value to_value(const Scalar& scalar);

/// What a rule's dotted path names (expr::PathRef): a plan key, est.METRIC (.low, .high),
/// it.FIELD (its index: 1 + the field's place in element_field_names(), 0 for a name no
/// element table has) or options.NAME; `unresolved` for the rest (tolerances.TIER, which config can
/// override, and names no plan has), which PlanEnvironment looks up by text. The rule loader
/// gives it to parse_expression.
expr::PathRef resolve_path(std::string_view path);

}  // namespace planlint
