#include "planlint/change/model.hpp"

#include <algorithm>

namespace planlint {

std::optional<double> FigureChange::change() const {
  if (!base || !head) return std::nullopt;
  return *head - *base;
}

std::optional<double> FigureChange::change_fraction() const {
  if (!base || !head || *base == 0) return std::nullopt;
  return (*head - *base) / *base;
}

const FigureChange* PlanDiff::figure(std::string_view name) const {
  for (const FigureChange& figure : figures)
    if (figure.name == name) return &figure;
  return nullptr;
}

bool PlanDiff::cost_rose() const {
  for (const char* name : {"cost.total", "cost.gpu_hours_billed", "train.gpu_hours", "infer.cost_per_month"})
    if (const FigureChange* figure = this->figure(name); figure && figure->head && *figure->head > figure->base.value_or(0))
      return true;
  return false;
}

bool DiffReport::cost_rose() const {
  return std::any_of(plans.begin(), plans.end(), [](const PlanDiff& plan) { return plan.cost_rose(); });
}

std::string_view to_string(PlanStatus status) {
  switch (status) {
    case PlanStatus::changed: return "changed";
    case PlanStatus::added: return "added";
    case PlanStatus::removed: return "removed";
    case PlanStatus::renamed: return "renamed";
  }
  return "changed";
}

std::string_view to_string(AssumptionChange::Kind kind) {
  switch (kind) {
    case AssumptionChange::Kind::added: return "added";
    case AssumptionChange::Kind::removed: return "removed";
    case AssumptionChange::Kind::reranged: return "re-ranged";
    case AssumptionChange::Kind::edited: return "edited";
  }
  return "edited";
}

}  // namespace planlint
