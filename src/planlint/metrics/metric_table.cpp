#include "planlint/metrics/metric_table.hpp"

#include <algorithm>
#include <array>
#include <iterator>

#include <fmt/format.h>

namespace planlint {

namespace {

using namespace units::dims;
using enum Metric;
using enum ReportSection;
constexpr auto flop_per_token = flop / tokens;
constexpr RangedKeys mfu = static_cast<RangedKeys>(RangedKey::mfu);
constexpr RangedKeys mfu_goodput = mfu | static_cast<RangedKeys>(RangedKey::goodput);
constexpr RangedKeys mfu_goodput_price = mfu_goodput | static_cast<RangedKeys>(RangedKey::price);
constexpr RangedKeys price = static_cast<RangedKeys>(RangedKey::price);
constexpr RangedKeys goodput = static_cast<RangedKeys>(RangedKey::goodput);
constexpr PlainNumber in_usd_per_gpu_hour{1.0 / 3600, "USD per GPU-hour"};
constexpr PlainNumber in_days{86400, "days"};
constexpr PlainNumber in_gpu_hours{3600, "GPU-hours"};
constexpr PlainNumber in_seconds{1, "seconds"};
constexpr PlainNumber in_gpu_seconds{1, "GPU-seconds"};
constexpr MoeScaling active = MoeScaling::active_params, total = MoeScaling::total_params,
                     routed = MoeScaling::routed_experts, no_moe = MoeScaling::none;

// metrics.def, one row a metric; docs/estimates.md has each formula with its source.
constexpr MetricSpec table[] = {
#define PLANLINT_METRIC(id, ...) {Metric::id, __VA_ARGS__},
#include "planlint/metrics/metrics.def"
#undef PLANLINT_METRIC
};

consteval bool in_enum_order() {
  for (std::size_t i = 0; i < std::size(table); ++i)
    if (static_cast<std::size_t>(table[i].id) != i) return false;
  return std::size(table) == metric_count;
}
static_assert(in_enum_order(), "the table lists every Metric once, in the enum's order");

}  // namespace

std::string_view to_string(Tier tier) {
  switch (tier) {
    case Tier::capacity: return "capacity";
    case Tier::cost: return "cost";
    case Tier::latency: return "latency";
  }
  return "cost";
}

std::string_view to_string(MoeScaling scaling) {
  switch (scaling) {
    case MoeScaling::none: return "none";
    case MoeScaling::active_params: return "active_params";
    case MoeScaling::total_params: return "total_params";
    case MoeScaling::routed_experts: return "routed_experts";
  }
  return "none";
}

std::string_view section_title(ReportSection section) {
  switch (section) {
    case ReportSection::compute: return "Compute";
    case ReportSection::time: return "Time";
    case ReportSection::cost: return "Cost";
    case ReportSection::memory: return "Memory per GPU";
    case ReportSection::communication: return "Communication and checkpoints";
    case ReportSection::serving_memory: return "Memory";
    case ReportSection::serving_compute: return "Compute";
    case ReportSection::latency: return "Latency bounds";
    case ReportSection::serving_cost: return "Cost";
    case ReportSection::model: return "Parameters (structural keys)";
    case ReportSection::hardware: return "GPU figures (catalog)";
    case ReportSection::run: return "Whole run (sums over the stages)";
    case ReportSection::json_only: return "";
  }
  return "";
}

bool shows_section(ReportSection section, bool training) {
  switch (section) {
    case ReportSection::run:
    case ReportSection::compute:
    case ReportSection::time:
    case ReportSection::cost:
    case ReportSection::memory:
    case ReportSection::communication: return training;
    case ReportSection::serving_memory:
    case ReportSection::serving_compute:
    case ReportSection::latency:
    case ReportSection::serving_cost: return !training;
    case ReportSection::model:
    case ReportSection::hardware: return true;
    case ReportSection::json_only: return false;
  }
  return false;
}

std::string_view plan_key_of(RangedKey key) {
  switch (key) {
    case RangedKey::mfu: return "training.mfu";
    case RangedKey::goodput: return "training.goodput";
    case RangedKey::price: return "cluster.price";
  }
  return "training.mfu";
}

std::span<const MetricSpec> metric_table() { return table; }

const MetricSpec& metric_spec(Metric metric) { return table[static_cast<std::size_t>(metric)]; }

const MetricSpec* find_metric(std::string_view name) {
  // By name, through the names sorted once: claims, targets and rule literals name metrics.
  static const auto by_name = [] {
    std::array<const MetricSpec*, metric_count> sorted{};
    for (std::size_t i = 0; i < metric_count; ++i) sorted[i] = &table[i];
    std::sort(sorted.begin(), sorted.end(), [](const MetricSpec* a, const MetricSpec* b) { return a->name < b->name; });
    return sorted;
  }();
  const auto it = std::lower_bound(by_name.begin(), by_name.end(), name,
                                   [](const MetricSpec* metric, std::string_view n) { return metric->name < n; });
  return it != by_name.end() && (*it)->name == name ? *it : nullptr;
}

std::vector<std::string_view> metric_name_list() {
  std::vector<std::string_view> names;
  for (const MetricSpec& metric : table) names.push_back(metric.name);
  return names;
}

std::string plain_number_unit(const MetricSpec& metric) {
  if (!metric.plain.unit.empty()) return std::string(metric.plain.unit);
  if (metric.fraction) return "fraction";
  if (metric.dim.dimensionless()) return "plain numbers";
  return units::describe(metric.dim);
}

std::string metric_table_markdown() {
  std::string out =
      "| metric | unit | tier | section | MoE | ranged by | what it is |\n|---|---|---|---|---|---|---|\n";
  for (const MetricSpec& metric : table) {
    std::string ranged;
    for (RangedKey key : ranged_keys)
      if (ranged_by(metric, key)) ranged += fmt::format("{}`{}`", ranged.empty() ? "" : ", ", plan_key_of(key));
    const std::string section = metric.section == ReportSection::json_only
                                    ? std::string("(JSON only)")
                                    : std::string(section_title(metric.section));
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", metric.name,
                       metric.fraction ? std::string("fraction") : plain_number_unit(metric), to_string(metric.tier),
                       section, metric.moe == MoeScaling::none ? "" : to_string(metric.moe),
                       ranged.empty() ? "—" : ranged, metric.summary);
  }
  return out;
}

}  // namespace planlint
