#pragma once
/// The metrics of estimates.md computed from a plan, each with its provenance (formula and
/// inputs with their plan locations) and, for cost-tier metrics, the low/high range implied by
/// the assumptions behind MFU, goodput and price. A metric whose inputs are missing is absent,
/// with the names of the missing inputs.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// One input of a metric: a plan value (stated or defaulted), a catalog figure, or another
/// metric.
struct MetricInput {
  std::string name;  ///< "training.mfu", "model.params", "catalog h100-sxm bf16 dense peak", "train.flops"
  double value = 0;  ///< base units
  units::Dimension dim;
  Origin origin = Origin::plan;
  Span span;         ///< where it is in the plan (catalog values: cluster.gpu); unknown for metrics
  bool is_metric = false;  ///< the input is another metric (its own inputs are in its MetricValue)
};

struct MetricValue {
  std::string name;  ///< "train.days"
  double value = 0;  ///< base units (seconds for days, GPU·s for GPU-hours, ...)
  units::Dimension dim;
  std::optional<double> low, high;  ///< the range at the assumptions' low/high (cost tier)
  std::string formula;      ///< symbolic: "train.gpu_hours / n / 24"
  std::string arithmetic;   ///< substituted: "4.42M GPU·h / 2048 / 24 = 90.0 d"
  std::vector<MetricInput> inputs;
};

class Estimates {
 public:
  const MetricValue* find(std::string_view name) const;
  /// Computed metrics, by name.
  const std::map<std::string, MetricValue, std::less<>>& values() const { return values_; }
  /// Metrics that could not be computed, with the inputs they lack ("model.layers").
  const std::map<std::string, std::vector<std::string>, std::less<>>& absent() const { return absent_; }

  void set(MetricValue value);
  void set_absent(std::string name, std::vector<std::string> missing);

 private:
  std::map<std::string, MetricValue, std::less<>> values_;
  std::map<std::string, std::vector<std::string>, std::less<>> absent_;
};

/// Computes every metric of estimates.md that the plan's inputs allow.
Estimates estimate(const Plan& plan, const Catalog& catalog);

}  // namespace planlint
