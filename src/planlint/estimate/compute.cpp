/// estimate(): runs the metric groups of the plan's kind, then the sensitivity ranges of the
/// cost-tier metrics (docs/estimates.md, "Ranges": a range, not a point).
#include <algorithm>
#include <cmath>

#include "planlint/estimate/engine.hpp"
#include "planlint/plan/assumed_keys.hpp"

namespace planlint {

namespace {

using detail::Overrides;

/// Whether a higher value of the ranged key `key` lowers the cost-tier metrics: a higher MFU or
/// goodput does, a higher price (cluster.price, a slice's "capacity[1].price") raises them.
bool higher_is_cheaper(std::string_view key) {
  return key != plan_key_of(RangedKey::price) && !key.ends_with("].price");
}

/// The range `assumption` gives `value` (the plan's, at `key_path`): nullopt when it states no
/// low or high; `moved` false when both ends are the value (no range, though the entry is the
/// key's).
std::optional<RangeSource> range_of(const PlanTable& assumption, const PlanValue& value, std::string key_path,
                                    bool& moved) {
  const PlanValue* low = assumption.find("low");
  const PlanValue* high = assumption.find("high");
  if ((!low || !low->quantity()) && (!high || !high->quantity())) return std::nullopt;
  RangeSource range;
  range.key = std::move(key_path);
  range.low = range.high = value.quantity()->value;
  range.dim = value.quantity()->dim;
  range.span = assumption.header;
  if (const PlanValue* id = assumption.find("id"); id && id->text()) range.assumption = *id->text();
  if (low && low->quantity()) range.low = low->quantity()->value;
  if (high && high->quantity()) range.high = high->quantity()->value;
  moved = range.low != value.quantity()->value || range.high != value.quantity()->value;
  return range;
}

/// For each ranged key the plan states, and each [[capacity]] slice's price and goodput, the
/// low/high of the first assumption that justifies it with an end; an end the assumption leaves
/// out is the plan's value.
std::vector<RangeSource> assumed_ranges(const Plan& plan) {
  std::vector<RangeSource> ranges;
  for (const RangedKey ranged : ranged_keys) {
    const std::string_view key = plan_key_of(ranged);
    const PlanValue* value = plan.find(key);
    if (!value || !value->quantity()) continue;
    for (const PlanTable& assumption : plan.assumptions) {
      const PlanValue* justified = assumption.find("key");
      if (!justified || !justified->text() || *justified->text() != key) continue;
      bool moved = false;
      std::optional<RangeSource> range = range_of(assumption, *value, std::string(key), moved);
      if (!range) continue;
      if (moved) ranges.push_back(std::move(*range));
      break;
    }
  }
  // A slice's field by the key its metrics' inputs name it by ("capacity[1].price"), its
  // assumption by name or by place: one pass over the entries, the first with an end each.
  if (plan.assumptions.empty() || plan.capacity.empty()) return ranges;
  const SliceFields fields(plan);
  std::vector<bool> taken(2 * plan.capacity.size(), false);
  for (const PlanTable& assumption : plan.assumptions) {
    const PlanValue* key = assumption.find("key");
    const std::optional<SliceField> named = key && key->text() ? fields.find(*key->text()) : std::nullopt;
    if (!named) continue;
    const std::size_t slot = 2 * named->slice + (named->field->key == "price" ? 0 : 1);
    const PlanValue* value = plan.capacity[named->slice].values.find(*named->field);
    if (taken[slot] || !value || !value->quantity()) continue;
    bool moved = false;
    std::optional<RangeSource> range = range_of(assumption, *value, named->path(), moved);
    if (!range) continue;
    taken[slot] = true;
    if (moved) ranges.push_back(std::move(*range));
  }
  return ranges;
}

using Record = detail::EstimateContext::Record;

/// Runs the metric groups of the plan's kind on `context`. With Record::values it computes
/// only what the ranges read, the cost-tier metrics; otherwise every metric.
void run_groups(detail::EstimateContext& context, const Plan& plan, Record record) {
  if (plan.is_training()) {
    detail::estimate_training_compute(context);
    // Every cost-tier metric of a training plan is computed by the compute group, before
    // memory and communication run (a test holds this): the ranges' re-evaluations, half of
    // all evaluations, skip the other two.
    if (record != Record::values) {
      detail::estimate_training_memory(context);
      detail::estimate_training_comm(context);
    }
  } else {
    detail::estimate_inference(context);
    // The reads group computes no cost-tier metric an assumption moves (the serving cost is the
    // inference group's; a test holds this): the ranges' re-evaluations skip it.
    if (record != Record::values) detail::estimate_inference_reads(context);
  }
  if (record != Record::values) {
    detail::estimate_model_structure(context);
    detail::estimate_hardware(context);
  }
}

/// One evaluation with every metric's arithmetic and, with Record::provenance, its provenance.
Estimates evaluate(const Plan& plan, const Catalog& catalog, const Overrides& overrides,
                   Record record) {
  detail::EstimateContext context(plan, catalog, overrides, record);
  run_groups(context, plan, record);
  return context.take();
}

/// One evaluation of the ranges: the cost-tier metrics' values only.
detail::MetricValues evaluate_values(const Plan& plan, const Catalog& catalog, const Overrides& overrides) {
  detail::EstimateContext context(plan, catalog, overrides, Record::values);
  run_groups(context, plan, Record::values);
  return context.values();
}

/// Whether `metric` depends on the plan key `key`, directly or through the metrics it uses.
bool depends_on(const Estimates& estimates, const MetricValue& metric, std::string_view key) {
  for (const MetricInput& input : metric.inputs) {
    if (!input.is_metric) {
      if (input.name == key) return true;
    } else if (const MetricValue* used = estimates.find(input.name);
               used && depends_on(estimates, *used, key)) {
      return true;
    }
  }
  return false;
}

/// Whether the two corners stand for every combination: each cost-tier metric is a product of
/// powers of the ranged keys (MFU and goodput to negative powers, price to the first: the
/// formulas of estimates.md), so over a box of positive values it is monotonic in each key,
/// and its lowest and highest values are at the corner where every key is at its cheaper end
/// and at the opposite one (which is which depends on the sign of the rest of the product).
/// A zero or negative end, which no valid plan has, takes every combination.
bool corners_suffice(const std::vector<RangeSource>& ranges) {
  return std::all_of(ranges.begin(), ranges.end(), [](const RangeSource& range) {
    return range.low > 0 && range.high > 0 && std::isfinite(range.low) && std::isfinite(range.high);
  });
}

/// The evaluations of the ranges, the values of the cost-tier metrics only: at the cheaper and
/// the dearer corner of the assumptions' lows and highs, or (how = every_combination, or
/// !corners_suffice) at every combination of the ends, at most 2⁴ = 16.
std::vector<detail::MetricValues> range_variants(const Plan& plan, const Catalog& catalog,
                                                 const std::vector<RangeSource>& ranges,
                                                 RangeEvaluations how = RangeEvaluations::corners) {
  std::vector<detail::MetricValues> variants;
  Overrides overrides(ranges.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) overrides[i] = detail::override_at(ranges[i].key, 0);
  // Every combination of many ends is more evaluations than a range is worth: past a few
  // assumptions (a mix's slices each add two) the corners stand for them.
  constexpr std::size_t most_combined = 4;
  if (ranges.size() > most_combined || (how == RangeEvaluations::corners && corners_suffice(ranges))) {
    variants.reserve(2);
    for (const bool cheaper : {true, false}) {
      // The ends by value: an inverted assumption (low above high) is assumption-range-
      // inverted's finding, and its range is still the one every combination gives.
      for (std::size_t i = 0; i < ranges.size(); ++i)
        overrides[i].value = cheaper == higher_is_cheaper(ranges[i].key) ? std::max(ranges[i].low, ranges[i].high)
                                                                         : std::min(ranges[i].low, ranges[i].high);
      variants.push_back(evaluate_values(plan, catalog, overrides));
    }
    return variants;
  }
  variants.reserve(std::size_t{1} << ranges.size());
  for (unsigned mask = 0; mask < (1u << ranges.size()); ++mask) {
    for (std::size_t i = 0; i < ranges.size(); ++i)
      overrides[i].value = (mask >> i) & 1u ? ranges[i].high : ranges[i].low;
    variants.push_back(evaluate_values(plan, catalog, overrides));
  }
  return variants;
}

/// `value`'s range over the variants' values of `name`: min and max are the optimistic and the
/// pessimistic end, even where one metric moves two ways. `moved` tells whether any differs.
MetricRange range_over(const std::vector<detail::MetricValues>& variants, const MetricSpec& metric, double value,
                       bool* moved = nullptr) {
  MetricRange range{value, value};
  const auto slot = static_cast<std::size_t>(metric.id);
  for (const detail::MetricValues& variant : variants) {
    const double at = variant[slot];
    if (!std::isfinite(at)) continue;  // absent, or not a number
    if (moved && at != value) *moved = true;
    range.low = std::min(range.low, at);
    range.high = std::max(range.high, at);
  }
  return range;
}

}  // namespace

Estimates detail::evaluate_overridden(const Plan& plan, const Catalog& catalog, const Overrides& overrides) {
  return evaluate(plan, catalog, overrides, Record::arithmetic);
}

std::map<std::string, MetricRange, std::less<>> metric_ranges(const Plan& plan, const Catalog& catalog,
                                                              const Estimates& estimates, RangeEvaluations how) {
  std::map<std::string, MetricRange, std::less<>> result;
  const std::vector<RangeSource> ranges = assumed_ranges(plan);
  if (ranges.empty()) return result;
  const std::vector<detail::MetricValues> variants = range_variants(plan, catalog, ranges, how);
  for (const MetricValue& metric : estimates.values()) {
    const MetricSpec* known = metric.spec;
    if (!known || known->tier != Tier::cost) continue;
    // A cost-tier metric that depends on a ranged key moves with it (each is monotonic in
    // MFU, goodput and price, and an assumption whose ends are both the value is no range).
    bool moved = false;
    const MetricRange range = range_over(variants, *known, metric.value, &moved);
    if (moved) result.emplace(metric.name, range);
  }
  return result;
}

Estimates estimate(const Plan& plan, const Catalog& catalog, EstimateScope scope) {
  const Overrides none;
  const bool provenance = scope.provenance || scope.ranges;
  Estimates estimates =
      evaluate(plan, catalog, none, provenance ? Record::provenance : Record::arithmetic);
  if (!scope.ranges) return estimates;
  const std::vector<RangeSource> ranges = assumed_ranges(plan);
  if (ranges.empty()) return estimates;

  // Only the values of the variants' cost-tier metrics are read: no provenance.
  const std::vector<detail::MetricValues> variants = range_variants(plan, catalog, ranges);

  std::vector<MetricValue> ranged;
  for (const MetricValue& metric : estimates.values()) {
    const MetricSpec* known = metric.spec;
    if (!known || known->tier != Tier::cost) continue;
    std::vector<std::string> range_keys;
    for (const RangeSource& range : ranges)
      if (depends_on(estimates, metric, range.key)) range_keys.push_back(range.key);
    if (range_keys.empty()) continue;
    MetricValue with_range = metric;
    with_range.range_keys = std::move(range_keys);
    const MetricRange range = range_over(variants, *known, metric.value);
    with_range.low = range.low;
    with_range.high = range.high;
    ranged.push_back(std::move(with_range));
  }
  // The assumptions that moved some metric, in ranged_keys order.
  for (const RangeSource& range : ranges)
    if (std::any_of(ranged.begin(), ranged.end(), [&](const MetricValue& metric) {
          return std::find(metric.range_keys.begin(), metric.range_keys.end(), range.key) !=
                 metric.range_keys.end();
        }))
      estimates.add_range_source(range);
  for (MetricValue& metric : ranged) estimates.set(std::move(metric));
  return estimates;
}

}  // namespace planlint
