#pragma once
/// How far a claim, a target or a benchmark of a metric may be from the recomputed value:
/// its tier's tolerance (docs/estimates.md, "Tolerance tiers").
#include <map>
#include <optional>
#include <string>

#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// The tolerance of `metric`'s tier for `plan`: the plan's own `[tolerances]` entry, else the
/// config's (`configured`, by tier name), else the default; nullopt for a latency metric,
/// which has none.
std::optional<double> tier_tolerance(const Plan& plan, const MetricSpec& metric,
                                     const std::map<std::string, double>& configured);

}  // namespace planlint
