#pragma once
/// The whole run of a plan of [[stages]]: the run.* metrics, each stage's metric summed over the
/// stages, which run one after another (run.memory_per_gpu: the largest). Each stage is
/// estimated as a plan of its own by estimate(); this adds nothing to a stage's figures.
///
///     Estimates run = run_totals(plan, stage_estimates);  // run.gpu_hours, run.days, ...
#include <span>

#include "planlint/estimate/estimates.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// The run.* metrics of `plan` from `stages`, the estimates of plan.stages in order. A total
/// some stage cannot compute is absent, with the inputs that stage lacks.
Estimates run_totals(const Plan& plan, std::span<const Estimates> stages, EstimateScope scope = {});

}  // namespace planlint
