#pragma once
/// The metric table: every metric planlint computes, once, with the properties that the
/// estimate code, the plan loader (claims and targets name metrics), the rules, `planlint
/// report`, the plan schema and docs/estimates.md read. Nothing else lists metrics or guesses
/// a metric's properties from its name.
///
///     const MetricSpec& days = metric_spec(Metric::train_days);   // "train.days", seconds, cost
///     if (const MetricSpec* found = find_metric("train.days")) ...
///
/// Depends on units/ only, so that every layer may read it.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/units/dimension.hpp"

namespace planlint {

/// How a claim, a target or a benchmark of the metric is held to it (docs/estimates.md,
/// "Tolerance tiers"): capacity 15%, cost 30% by default; a latency metric is a bound that
/// only an SLA is compared with.
enum class Tier : std::uint8_t { capacity, cost, latency };

std::string_view to_string(Tier tier);

/// The section of `planlint report` a metric is shown in, in report order; `json_only` is
/// left out of the text and Markdown reports (train.gpu_seconds: train.gpu_hours in GPU·s).
enum class ReportSection : std::uint8_t {
  run,                                                   // a plan of [[stages]]: the whole run
  compute, time, cost, memory, communication,            // training and finetune plans
  serving_memory, serving_compute, latency, serving_cost,  // inference plans
  model, hardware,                                       // every plan
  json_only,
};

/// The section's heading ("Memory per GPU").
std::string_view section_title(ReportSection section);
/// Whether a plan of this kind (training or finetune: `training`) shows the section.
bool shows_section(ReportSection section, bool training);

/// How a metric follows the parameters of a mixture-of-experts model, where the active
/// parameters N_a are fewer than the total N.
enum class MoeScaling : std::uint8_t {
  none,            ///< no parameter count in it
  active_params,   ///< ∝ N_a: compute, and the time and cost derived from it
  total_params,    ///< ∝ N: memory, gradients, tokens per parameter
  routed_experts,  ///< reads the experts its tokens are routed to: between N_a / N and all of N
};

std::string_view to_string(MoeScaling scaling);

/// The plan keys whose [[assumptions]] low/high give the cost-tier metrics their ranges
/// (docs/estimates.md, "Ranges"), as bits of RangedKeys.
enum class RangedKey : std::uint8_t { mfu = 1, goodput = 2, price = 4 };
using RangedKeys = std::uint8_t;
/// "training.mfu", "training.goodput", "cluster.price".
std::string_view plan_key_of(RangedKey key);
inline constexpr RangedKey ranged_keys[] = {RangedKey::mfu, RangedKey::goodput, RangedKey::price};

/// What a plain TOML number means in a claim or target of the metric (`"train.days" = 9.6`
/// is 9.6 days): `scale` base units, named `unit` ("days"); an empty unit is the base unit,
/// named after the metric's dimension.
struct PlainNumber {
  double scale = 1;
  std::string_view unit;
};

/// Every metric, in report order (metrics.def): the enumerator is the metric's place in the table.
enum class Metric : std::uint8_t {
#define PLANLINT_METRIC(id, ...) id,
#include "planlint/metrics/metrics.def"
#undef PLANLINT_METRIC
};

struct MetricSpec {
  Metric id;
  std::string_view name;  ///< "train.days"
  units::Dimension dim;   ///< of the value, in base units (seconds for days)
  Tier tier;
  ReportSection section;
  /// A share of something, shown as a percentage ("16.7%"); a rule may not compare it with a
  /// bare number above 1.
  bool fraction = false;
  MoeScaling moe = MoeScaling::none;
  /// The ranged keys whose assumptions move it (cost tier): none for pure physics (6 · N · D).
  RangedKeys ranged_by = 0;
  PlainNumber plain = {};
  std::string_view summary;  ///< one line: what it is, with its formula where short
};

/// The table, in report order: metric_table()[i].id == Metric(i).
std::span<const MetricSpec> metric_table();
inline constexpr std::size_t metric_count = 0
#define PLANLINT_METRIC(id, ...) +1
#include "planlint/metrics/metrics.def"
#undef PLANLINT_METRIC
    ;

const MetricSpec& metric_spec(Metric metric);
/// The metric called `name`, or nullptr.
const MetricSpec* find_metric(std::string_view name);
/// Every metric name, in table order, for did-you-mean suggestions.
std::vector<std::string_view> metric_name_list();

/// Whether the metric rests on the ranged key's assumption.
inline bool ranged_by(const MetricSpec& metric, RangedKey key) {
  return (metric.ranged_by & static_cast<RangedKeys>(key)) != 0;
}
/// What a plain number means for the metric, in words: "GPU-hours", "days", "fraction",
/// "plain numbers", or its dimension's name ("bytes").
std::string plain_number_unit(const MetricSpec& metric);

/// The metric table as the Markdown table of docs/estimates.md (a test keeps the doc in step).
std::string metric_table_markdown();

}  // namespace planlint
