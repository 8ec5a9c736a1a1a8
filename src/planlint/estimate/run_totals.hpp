#pragma once
/// The whole run of a plan of [[stages]]: the run.* metrics, each stage's metric summed over the
/// stages, which run one after another (run.memory_per_gpu: the largest). Each stage is
/// estimated as a plan of its own by estimate(); this adds nothing to a stage's figures.
///
///     Estimates run = run_totals(plan, stage_estimates);  // run.gpu_hours, run.days, ...
#include <span>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// The run.* metrics of `plan` from `stages`, the estimates of plan.stages in order. A total
/// some stage cannot compute is absent, with the inputs that stage lacks.
Estimates run_totals(const Plan& plan, std::span<const Estimates> stages, EstimateScope scope = {});

/// A plan's estimates, staged or not: what lint, a report and the corrected inputs read.
struct RunEstimates {
  /// estimate() of a plan of one stage; for a plan of [[stages]], the whole run's (run_totals).
  Estimates run;
  /// Each stage's estimate() in order, holding the run's totals too (a rule that judges the whole
  /// run, chinchilla-ratio, reads them there); empty for a plan of one stage.
  std::vector<Estimates> stages;
};
RunEstimates estimate_run(const Plan& plan, const Catalog& catalog, EstimateScope scope = {});

}  // namespace planlint
