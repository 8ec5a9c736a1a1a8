#include "planlint/estimate/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/targets.hpp"
#include "planlint/plan/assumed_keys.hpp"

namespace planlint {

namespace {

/// The [[assumptions]] entries with a low or high end, the first for each key the plan holds a
/// number at (as the ranges take them); an end left out is the plan's value.
std::vector<RangeSource> moved_assumptions(const Plan& plan) {
  std::vector<RangeSource> moved;
  const SliceFields fields(plan);
  for (const PlanTable& assumption : plan.assumptions) {
    const PlanValue* key = assumption.find("key");
    if (!key || !key->text()) continue;
    // A slice's field by the key the metrics' inputs name it by ("capacity[1].price").
    const std::optional<SliceField> slice = fields.find(*key->text());
    if (!slice && !find_key(*key->text())) continue;
    const std::string name = slice ? slice->path() : *key->text();
    if (std::any_of(moved.begin(), moved.end(), [&](const RangeSource& range) { return range.key == name; })) continue;
    const PlanValue* value = assumed_value(plan, *key->text());
    if (!value || !value->quantity()) continue;
    const PlanValue* low = assumption.find("low");
    const PlanValue* high = assumption.find("high");
    if ((!low || !low->quantity()) && (!high || !high->quantity())) continue;
    RangeSource range;
    range.key = name;
    range.dim = value->quantity()->dim;
    range.low = low && low->quantity() ? low->quantity()->value : value->quantity()->value;
    range.high = high && high->quantity() ? high->quantity()->value : value->quantity()->value;
    range.span = assumption.header;
    if (const PlanValue* id = assumption.find("id"); id && id->text()) range.assumption = *id->text();
    if (range.low != value->quantity()->value || range.high != value->quantity()->value)
      moved.push_back(std::move(range));
  }
  return moved;
}

/// The plan keys that are assumptions: every [[assumptions]] entry's key, the ranged keys, and
/// each [[capacity]] slice's price and goodput (by place, as the metrics' inputs name them).
std::set<std::string, std::less<>> assumption_keys(const Plan& plan) {
  std::set<std::string, std::less<>> keys;
  for (const RangedKey ranged : ranged_keys) keys.emplace(plan_key_of(ranged));
  for (std::size_t i = 0; i < plan.capacity.size(); ++i)
    for (const std::string_view field : {"price", "goodput"}) keys.insert(SliceField{i, find_key("capacity", field)}.path());
  for (const PlanTable& assumption : plan.assumptions)
    if (const PlanValue* key = assumption.find("key"); key && key->text()) keys.insert(*key->text());
  return keys;
}

/// The plan keys `metric` rests on, through the metrics it uses, each once, in input order.
void plan_inputs(const Estimates& estimates, const MetricValue& metric, std::vector<std::string>& keys,
                 std::set<std::string_view>& visited) {
  if (!visited.insert(metric.name).second) return;
  for (const MetricInput& input : metric.inputs) {
    if (!input.is_metric) {
      if (std::find(keys.begin(), keys.end(), input.name) == keys.end()) keys.push_back(input.name);
    } else if (const MetricValue* used = estimates.find(input.name)) {
      plan_inputs(estimates, *used, keys, visited);
    }
  }
}

/// The value of `metric` in an evaluation, NaN when it is absent there.
double value_in(const Estimates& evaluation, const MetricSpec& metric) {
  const MetricValue* found = evaluation.find(metric.id);
  return found ? found->value : std::nan("");
}

}  // namespace

const MetricSensitivity* Sensitivity::find(std::string_view metric) const {
  for (const MetricSensitivity& entry : metrics)
    if (entry.spec && entry.spec->name == metric) return &entry;
  return nullptr;
}

Sensitivity sensitivity(const Plan& plan, const Catalog& catalog, const Estimates& estimates) {
  Sensitivity result;
  result.assumptions = moved_assumptions(plan);

  // Each assumption at its low end and at its high end, the others at the plan's values.
  struct Ends {
    Estimates low, high;
  };
  std::vector<Ends> evaluations;
  evaluations.reserve(result.assumptions.size());
  for (const RangeSource& range : result.assumptions) {
    detail::Overrides overrides{detail::override_at(range.key, range.low)};
    Estimates low = detail::evaluate_overridden(plan, catalog, overrides);
    overrides[0].value = range.high;
    evaluations.push_back({std::move(low), detail::evaluate_overridden(plan, catalog, overrides)});
  }

  const std::set<std::string, std::less<>> assumed = assumption_keys(plan);
  for (const MetricSpec& spec : metric_table()) {
    const MetricValue* metric = estimates.find(spec.id);
    if (!metric) continue;
    MetricSensitivity entry;
    entry.spec = &spec;
    for (std::size_t i = 0; i < result.assumptions.size(); ++i) {
      const RangeSource& range = result.assumptions[i];
      SensitivityBar bar{range.key, range.assumption, range.low, range.high, range.dim,
                         value_in(evaluations[i].low, spec), value_in(evaluations[i].high, spec)};
      if (!std::isfinite(bar.at_low) || !std::isfinite(bar.at_high)) continue;
      if (bar.at_low == metric->value && bar.at_high == metric->value) continue;  // not moved
      entry.bars.push_back(std::move(bar));
    }
    // Largest swing first; equal swings in the plan's order of the assumptions.
    std::stable_sort(entry.bars.begin(), entry.bars.end(),
                     [](const SensitivityBar& a, const SensitivityBar& b) { return a.swing() > b.swing(); });
    std::vector<std::string> inputs;
    std::set<std::string_view> visited;
    plan_inputs(estimates, *metric, inputs, visited);
    for (const std::string& key : inputs) {
      if (!assumed.count(key)) continue;
      if (std::any_of(result.assumptions.begin(), result.assumptions.end(),
                      [&](const RangeSource& range) { return range.key == key; }))
        continue;
      entry.unranged.push_back(key);
    }
    if (!entry.bars.empty() || !entry.unranged.empty()) result.metrics.push_back(std::move(entry));
  }

  // Every hard target with a metric and a bound.
  for (const TargetResult& target : target_results(plan, estimates)) {
    if (!target.hard || !target.spec || !target.bound) continue;
    const auto breaks = [&](double value) { return target.is_max ? value > *target.bound : value < *target.bound; };
    const MetricSensitivity* entry = result.find(target.spec->name);
    if (!entry || !target.value) continue;
    for (const SensitivityBar& bar : entry->bars)
      for (const bool at_high : {false, true}) {
        const double value = at_high ? bar.at_high : bar.at_low;
        if (!breaks(value)) continue;
        result.target_breaks.push_back({target.name, target.spec, target.is_max, *target.bound, bar.key,
                                        bar.assumption, at_high, at_high ? bar.key_high : bar.key_low, bar.key_dim,
                                        value, breaks(*target.value)});
      }
  }
  return result;
}

}  // namespace planlint
