#include "planlint/estimate/tolerance.hpp"

namespace planlint {

std::optional<double> tier_tolerance(const Plan& plan, const MetricSpec& metric,
                                     const std::map<std::string, double>& configured) {
  if (metric.tier == Tier::latency) return std::nullopt;
  const std::string_view tier = to_string(metric.tier);
  // The key by the schema's two-part lookup: rules ask for a claim's tolerance several times
  // (its check, its place, its message), and "tolerances." + tier allocated on every call.
  const KeySpec* key = find_key("tolerances", tier);
  const PlanValue* stated = key ? plan.find(*key) : nullptr;
  if (stated && stated->origin == Origin::plan && stated->quantity()) return stated->quantity()->value;
  for (const auto& [name, tolerance] : configured)  // a few tiers: no key string
    if (name == tier) return tolerance;
  if (stated && stated->quantity()) return stated->quantity()->value;
  return std::nullopt;
}

}  // namespace planlint
