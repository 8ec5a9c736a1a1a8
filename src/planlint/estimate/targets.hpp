#pragma once
/// A plan's [[targets]] as data: each entry's metric and bound, and whether the recomputed
/// metric meets it. What the HTML report's table of targets and the sensitivity's broken hard
/// targets read.
#include <optional>
#include <string>
#include <vector>

#include "planlint/estimate/estimates.hpp"

namespace planlint {

/// One [[targets]] entry and the recomputed metric against its bound.
struct TargetResult {
  std::string name;
  std::string metric;                 ///< as written
  const MetricSpec* spec = nullptr;   ///< null: not a metric
  bool hard = true;
  bool is_max = true;
  std::optional<double> bound;        ///< base units
  std::optional<double> value;        ///< the metric, when computed
  /// Met at the plan's values; nullopt when the metric or the bound is missing.
  std::optional<bool> met;
};

std::vector<TargetResult> target_results(const Plan& plan, const Estimates& estimates);

}  // namespace planlint
