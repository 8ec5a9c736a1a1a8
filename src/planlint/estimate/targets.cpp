#include "planlint/estimate/targets.hpp"

namespace planlint {

std::vector<TargetResult> target_results(const Plan& plan, const Estimates& estimates) {
  std::vector<TargetResult> results;
  for (const PlanTable& target : plan.targets) {
    TargetResult result;
    if (const PlanValue* name = target.find("name"); name && name->text()) result.name = *name->text();
    if (const PlanValue* metric = target.find("metric"); metric && metric->text()) {
      result.metric = *metric->text();
      result.spec = find_metric(result.metric);
    }
    if (const PlanValue* hard = target.find("hard"); hard && hard->boolean()) result.hard = *hard->boolean();
    if (const PlanValue* max = target.find("max"); max && max->quantity()) {
      result.bound = max->quantity()->value;
    } else if (const PlanValue* min = target.find("min"); min && min->quantity()) {
      result.is_max = false;
      result.bound = min->quantity()->value;
    }
    if (result.spec)
      if (const MetricValue* found = estimates.find(result.spec->id)) result.value = found->value;
    if (result.value && result.bound)
      result.met = result.is_max ? *result.value <= *result.bound : *result.value >= *result.bound;
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace planlint
