#include "planlint/approval/summary.hpp"

namespace planlint {

namespace {

std::optional<RangedFigure> ranged(const Estimates& estimates, Metric metric) {
  const MetricValue* found = estimates.find(metric);
  if (!found) return std::nullopt;
  return RangedFigure{found->value, found->low.value_or(found->value), found->high.value_or(found->value)};
}

void add(RangedFigure& total, const RangedFigure& figure) {
  total.value += figure.value;
  total.low += figure.low;
  total.high += figure.high;
}

}  // namespace

PlanApproval plan_approval(const Plan& plan, const Estimates& estimates, const Sensitivity* sensitivity) {
  PlanApproval approval;
  approval.owner = plan.text("plan.owner").value_or("");
  approval.status = plan.text("plan.status").value_or("");
  if (const PlanValue* updated = plan.find("plan.updated"); updated && updated->date())
    approval.last_review = *updated->date();
  approval.training_cost = ranged(estimates, Metric::cost_total);
  approval.serving_per_month = ranged(estimates, Metric::infer_cost_per_month);
  if (sensitivity) {
    // The bars come widest first.
    for (const Metric metric : {Metric::cost_total, Metric::infer_cost_per_month}) {
      const MetricSensitivity* entry = sensitivity->find(metric_spec(metric).name);
      if (!entry || entry->bars.empty()) continue;
      approval.cost_driver = CostDriver{&metric_spec(metric), entry->bars.front()};
      break;
    }
  }
  return approval;
}

GrandTotal grand_total(const std::vector<PlanApproval>& plans) {
  GrandTotal total;
  for (const PlanApproval& plan : plans) {
    if (plan.training_cost) {
      ++total.training_plans;
      add(total.training_cost, *plan.training_cost);
    }
    if (plan.serving_per_month) {
      ++total.serving_plans;
      add(total.serving_per_month, *plan.serving_per_month);
    }
  }
  return total;
}

}  // namespace planlint
