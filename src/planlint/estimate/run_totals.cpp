#include "planlint/estimate/run_totals.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "planlint/estimate/engine.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint {

namespace {

/// A run metric and what each stage gives it: a stage metric, or (run.tokens) a plan key.
struct Total {
  Metric run;
  std::string_view of;  ///< the stage's metric or plan key
  bool plan_key = false;
  bool largest = false;  ///< the largest stage's, not the sum
};

constexpr Total totals[] = {
    {Metric::run_tokens, "training.tokens", true},
    {Metric::run_flops, "train.flops"},
    {Metric::run_gpu_hours, "train.gpu_hours"},
    {Metric::run_gpu_hours_billed, "cost.gpu_hours_billed"},
    {Metric::run_days, "train.days"},
    {Metric::run_wall_days, "train.wall_days"},
    {Metric::run_cost, "cost.total"},
    {Metric::run_memory_per_gpu, "train.memory.total", false, true},
};

}  // namespace

Estimates run_totals(const Plan& plan, std::span<const Estimates> stages, EstimateScope scope) {
  Estimates run;
  for (const Total& total : totals) {
    const MetricSpec& spec = metric_spec(total.run);
    std::vector<double> values;
    std::vector<MetricInput> inputs;
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < stages.size() && i < plan.stages.size(); ++i) {
      const Stage& stage = plan.stages[i];
      if (total.plan_key) {
        const PlanValue* tokens = stage.plan->find(total.of);
        if (!tokens || !tokens->quantity()) {
          missing.push_back(fmt::format("{} of stage '{}'", total.of, stage.name));
          continue;
        }
        values.push_back(tokens->quantity()->value);
        if (scope.provenance)
          inputs.push_back(MetricInput{fmt::format("{}[{}]", total.of, stage.name), values.back(), tokens->quantity()->dim, tokens->origin,
                                       tokens->span, false, {}, fmt::format("stage '{}'", stage.name)});
        continue;
      }
      const MetricValue* value = stages[i].find(total.of);
      if (!value) {
        const std::vector<std::string>* inputs = stages[i].missing_inputs(total.of);
        if (!inputs || inputs->empty()) missing.push_back(fmt::format("{} of stage '{}'", total.of, stage.name));
        if (inputs)
          for (const std::string& input : *inputs) missing.push_back(fmt::format("{} of stage '{}'", input, stage.name));
        continue;
      }
      values.push_back(value->value);
      if (scope.provenance)
        inputs.push_back(MetricInput{fmt::format("{}[{}]", total.of, stage.name), value->value, value->dim, Origin::plan, stage.header, true,
                                     {}, fmt::format("stage '{}'", stage.name)});
    }
    if (!missing.empty() || values.empty()) {
      run.set_absent(std::string(spec.name), std::move(missing));
      continue;
    }
    MetricValue metric;
    metric.name = std::string(spec.name);
    metric.dim = spec.dim;
    double result = total.largest ? *std::max_element(values.begin(), values.end()) : 0;
    if (!total.largest)
      for (double v : values) result += v;
    metric.value = result;
    if (scope.provenance) {
      metric.formula = fmt::format("{} {} over the stages", total.largest ? "max of" : "Σ", total.of);
      metric.inputs = std::move(inputs);
    }
    metric.arithmetic = LazyText::deferred([&spec, values, result, largest = total.largest, key = total.plan_key] {
      // A run's days add its stages' days in one unit, not "51.6 d + 13.3 h + 40.6 h".
      const bool in_days = spec.plain.unit == "days";
      std::string terms;
      for (double v : values) {
        if (!terms.empty()) terms += largest ? ", " : " + ";
        terms += key ? detail::show_count(v) : in_days ? units::format_in(v, spec.dim, "d") : detail::show_metric_value(spec, v);
      }
      return largest ? fmt::format("max({}) = {}", terms, detail::show_metric_value(spec, result))
                     : fmt::format("{} = {}", terms, detail::show_metric_value(spec, result));
    });
    run.set(std::move(metric), &spec);
  }
  // Chinchilla's ratio of the whole run (Hoffmann et al. 2022), as train.tokens_per_param is a stage's.
  const MetricSpec& ratio = metric_spec(Metric::run_tokens_per_param);
  const MetricValue* tokens = run.find(Metric::run_tokens);
  const std::optional<double> params = plan.number("model.params");
  if (!tokens || !params || *params <= 0) {
    run.set_absent(std::string(ratio.name), {tokens ? "model.params" : "run.tokens"});
    return run;
  }
  MetricValue metric;
  metric.name = std::string(ratio.name);
  metric.dim = ratio.dim;
  metric.value = tokens->value / *params;
  if (scope.provenance) {
    metric.formula = "run.tokens / N";
    metric.inputs = {MetricInput{"run.tokens", tokens->value, tokens->dim, Origin::plan, {}, true, {}, {}},
                     MetricInput{"model.params", *params, units::Dimension{}, plan.find("model.params")->origin,
                                 plan.find("model.params")->span, false, {}, {}}};
  }
  metric.arithmetic = LazyText::deferred([run_tokens = tokens->value, n = *params, value = metric.value] {
    return fmt::format("{} / {} = {}", units::format(run_tokens, units::dims::tokens), detail::show_count(n),
                       detail::show_count(value));
  });
  run.set(std::move(metric), &ratio);
  return run;
}

RunEstimates estimate_run(const Plan& plan, const Catalog& catalog, EstimateScope scope) {
  RunEstimates result;
  if (plan.stages.empty()) {
    result.run = estimate(plan, catalog, scope);
    return result;
  }
  // Each stage estimated as the plan it is, the run from their figures.
  result.stages.reserve(plan.stages.size());
  for (const Stage& stage : plan.stages) result.stages.push_back(estimate(*stage.plan, catalog, scope));
  result.run = run_totals(plan, result.stages);
  for (Estimates& stage : result.stages)
    for (const MetricValue& total : result.run.values()) stage.set(MetricValue(total), total.spec);
  return result;
}

}  // namespace planlint
