#include "planlint/estimate/portfolio.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace planlint {

namespace {

/// The metric that a plan kind's memory bar totals: the memory section's per-GPU total.
Metric memory_total_of(const Plan& plan) {
  return plan.is_training() ? Metric::train_memory_total : Metric::infer_memory_total;
}

std::optional<double> value_of(const Estimates& estimates, Metric metric) {
  if (const MetricValue* found = estimates.find(metric)) return found->value;
  return std::nullopt;
}

}  // namespace

std::optional<MemoryBar> memory_bar(const Plan& plan, const Estimates& estimates) {
  const MetricValue* total = estimates.find(memory_total_of(plan));
  if (!total || !total->spec) return std::nullopt;
  MemoryBar bar;
  bar.total = total->spec;
  bar.total_bytes = total->value;
  // The parts: the total's inputs that are metrics of its own section, in the table's order.
  double sum = 0;
  for (const MetricSpec& spec : metric_table()) {
    if (spec.section != total->spec->section || spec.id == total->spec->id) continue;
    const bool is_input = std::any_of(total->inputs.begin(), total->inputs.end(), [&](const MetricInput& input) {
      return input.is_metric && input.name == spec.name;
    });
    const MetricValue* part = is_input ? estimates.find(spec.id) : nullptr;
    if (!part) continue;
    bar.parts.push_back({&spec, part->value});
    sum += part->value;
  }
  if (bar.parts.empty() || std::fabs(sum - total->value) > 1e-6 * std::fabs(total->value)) return std::nullopt;
  bar.hbm_bytes = plan.number("cluster.hbm");
  return bar;
}

PortfolioPlan portfolio_plan(const Plan* plan, const Estimates& estimates, std::string file, std::string anchor,
                             std::size_t errors, std::size_t warnings) {
  PortfolioPlan row;
  row.file = std::move(file);
  row.anchor = std::move(anchor);
  row.errors = errors;
  row.warnings = warnings;
  row.name = row.file;
  row.kind = "unknown";
  if (!plan) return row;
  if (auto name = plan->text("plan.name")) row.name = *name;
  switch (plan->kind) {
    case PlanKind::training: row.kind = "training"; break;
    case PlanKind::finetune: row.kind = "finetune"; break;
    case PlanKind::inference: row.kind = "inference"; break;
  }
  if (auto gpu = plan->text("cluster.gpu")) row.gpu = *gpu;
  row.gpus = plan->number("cluster.count");
  row.days = value_of(estimates, Metric::train_wall_days);
  if (!row.days) row.days = value_of(estimates, Metric::train_days);
  row.gpu_hours = value_of(estimates, Metric::cost_gpu_hours_billed);
  if (!row.gpu_hours) row.gpu_hours = value_of(estimates, Metric::train_gpu_hours);
  if (const MetricValue* cost = estimates.find(Metric::cost_total)) {
    row.cost = cost->value;
    row.cost_low = cost->low.value_or(cost->value);
    row.cost_high = cost->high.value_or(cost->value);
  }
  if (const PlanValue* updated = plan->find("plan.updated"); updated && updated->date())
    row.last_reviewed = *updated->date();
  return row;
}

Portfolio make_portfolio(std::vector<PortfolioPlan> plans) {
  Portfolio portfolio;
  // Dearest first; plans without a cost after, by name.
  std::stable_sort(plans.begin(), plans.end(), [](const PortfolioPlan& a, const PortfolioPlan& b) {
    if (a.cost.has_value() != b.cost.has_value()) return a.cost.has_value();
    if (a.cost && *a.cost != *b.cost) return *a.cost > *b.cost;
    return a.name < b.name;
  });
  std::map<std::string, PortfolioTotal> totals;
  for (const PortfolioPlan& plan : plans) {
    PortfolioTotal& total = totals[plan.gpu];
    total.gpu = plan.gpu;
    ++total.plans;
    if (plan.cost) ++total.costed_plans;
    total.gpus += plan.gpus.value_or(0);
    total.gpu_hours += plan.gpu_hours.value_or(0);
    total.cost += plan.cost.value_or(0);
    total.cost_low += plan.cost_low.value_or(0);
    total.cost_high += plan.cost_high.value_or(0);
  }
  for (auto& [gpu, total] : totals) portfolio.totals.push_back(std::move(total));
  portfolio.plans = std::move(plans);
  return portfolio;
}

}  // namespace planlint
