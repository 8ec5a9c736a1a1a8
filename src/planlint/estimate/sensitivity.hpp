#pragma once
/// Which assumption moves each figure most: a one-at-a-time sensitivity (a tornado). Each
/// [[assumptions]] entry with a low or high end is moved from its low to its high end with every
/// other input at the plan's value, the metrics recomputed at each end; the bars of a metric are
/// sorted by swing, largest first (docs/estimates.md, "Sensitivity"). Where the metric's range
/// (MetricValue::low/high) moves every ranged assumption at once, a bar moves one.
///
///     const Sensitivity s = sensitivity(plan, catalog, estimates);
///     for (const SensitivityBar& bar : s.find("cost.total")->bars) ...
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/estimate/estimates.hpp"

namespace planlint {

/// One assumption's effect on one metric: the metric recomputed at the assumption's low end and
/// at its high end, every other input at the plan's value.
struct SensitivityBar {
  std::string key;         ///< the plan key the assumption justifies: "training.mfu"
  std::string assumption;  ///< the assumption's id: "mfu" (empty when it has none)
  double key_low = 0, key_high = 0;  ///< the assumption's ends, base units of the key
  units::Dimension key_dim;
  double at_low = 0, at_high = 0;  ///< the metric at the key's low and at its high end
  double swing() const { return at_high > at_low ? at_high - at_low : at_low - at_high; }
};

/// A metric's bars, largest swing first, and the assumptions behind it that have no range.
struct MetricSensitivity {
  const MetricSpec* spec = nullptr;
  std::vector<SensitivityBar> bars;
  /// Plan keys the metric rests on (through its inputs) that are assumptions, an [[assumptions]]
  /// entry's key or a ranged key (training.mfu, training.goodput, cluster.price), with no low
  /// or high: point estimates that neither the range nor the bars cover. In the metric's input
  /// order.
  std::vector<std::string> unranged;
};

/// A hard target that one assumption's end breaks, the others at the plan's values.
struct TargetBreak {
  std::string target;  ///< the target's name
  const MetricSpec* metric = nullptr;
  bool is_max = true;  ///< the bound is a max (else a min)
  double bound = 0;    ///< base units of the metric
  std::string key, assumption;
  bool at_high = false;  ///< the assumption's high end breaks it (else its low end)
  double key_value = 0;  ///< that end, base units of the key
  units::Dimension key_dim;
  double metric_value = 0;  ///< the metric at that end
  /// The target already fails at the plan's own values (hard-target-violated's finding).
  bool broken_at_value = false;
};

struct Sensitivity {
  /// Metrics with a bar or an unranged assumption, in the metric table's order.
  std::vector<MetricSensitivity> metrics;
  /// Every end of an assumption that breaks a hard target, in the targets' order.
  std::vector<TargetBreak> target_breaks;
  /// The assumptions moved, one bar each per metric they move; in the plan's order.
  std::vector<RangeSource> assumptions;

  const MetricSensitivity* find(std::string_view metric) const;
};

/// The sensitivity of every computed metric of `estimates` (estimate() of `plan` with its
/// provenance) to the plan's assumptions: two evaluations per assumption with a range.
Sensitivity sensitivity(const Plan& plan, const Catalog& catalog, const Estimates& estimates);

}  // namespace planlint
