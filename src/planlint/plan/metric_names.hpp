#pragma once
/// The metric vocabulary of estimates.md: names, dimensions and tolerance tiers. Part of the
/// plan format, since `[[targets]]`, `[estimates]` and `[[benchmarks]]` name metrics; the
/// formulas themselves live in src/planlint/estimate/.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/plan/literal_lookup.hpp"
#include "planlint/units/dimension.hpp"

namespace planlint {

enum class Tier { capacity, cost, latency };

std::string_view to_string(Tier tier);

struct MetricName {
  std::string_view name;  ///< "train.days"
  units::Dimension dim;   ///< dimension of the value in base units
  Tier tier;
  std::string_view summary;
};

/// Every metric of estimates.md, in report order.
std::span<const MetricName> metric_names();
/// At most this many (checked where the table is): Estimates keeps a slot for each.
inline constexpr std::size_t max_metric_count = 64;

/// The metric called `name`, or nullptr.
const MetricName* find_metric(std::string_view name);

/// A metric written as a string literal in the code ("train.flops"), found by its address
/// after the first lookup (literal_lookup.hpp). Only a constant converts to it.
class MetricLiteral {
 public:
  template <std::size_t N>
  consteval MetricLiteral(const char (&name)[N]) : name_(name, N - 1) {}  // NOLINT: a literal reads as its metric
  std::string_view name() const { return name_; }
  /// find_metric(name()).
  const MetricName* metric() const { return find_by_literal<MetricName>(name_, &find_metric); }

 private:
  std::string_view name_;
};

/// Whether the metric called `name` is a fraction, shown as a percentage ("6.27%"):
/// train.comm.fraction and train.pipeline_bubble.
bool is_fraction_metric(std::string_view name);

/// Every metric name, for did-you-mean suggestions.
std::vector<std::string_view> metric_name_list();

/// What a plain TOML number means for this metric, in base units: names say their unit, so
/// `"train.gpu_hours" = 93500` is GPU-hours and `"train.days" = 9.6` is days (86400 s); other
/// metrics take their base unit.
double plain_number_scale(const MetricName& metric);
/// What a plain number means for the metric, in words: "GPU-hours" for train.gpu_hours,
/// "GPU-seconds" for train.gpu_seconds, "days", "fraction", "plain numbers".
std::string plain_number_unit(const MetricName& metric);

}  // namespace planlint
