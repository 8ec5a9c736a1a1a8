#include "planlint/plan/plan.hpp"

namespace planlint {

const PlanValue* PlanTable::find(std::string_view key) const {
  return values.find(key);
}

const PlanTable& Plan::section(std::string_view name) const {
  static const PlanTable absent;
  const PlanTable* table = sections.find(name);
  return table ? *table : absent;
}

const PlanValue* Plan::find(std::string_view path) const {
  auto dot = path.find('.');
  if (dot == std::string_view::npos) return nullptr;
  return section(path.substr(0, dot)).find(path.substr(dot + 1));
}

bool Plan::states_invalid(std::string_view path) const {
  for (const std::string& key : invalid_keys)
    if (key == path) return true;
  return false;
}

std::optional<double> Plan::number(std::string_view path) const {
  const PlanValue* value = find(path);
  if (!value || !value->quantity()) return std::nullopt;
  return value->quantity()->value;
}

std::optional<std::string> Plan::text(std::string_view path) const {
  const PlanValue* value = find(path);
  if (!value || !value->text()) return std::nullopt;
  return *value->text();
}

std::optional<bool> Plan::boolean(std::string_view path) const {
  const PlanValue* value = find(path);
  if (!value || !value->boolean()) return std::nullopt;
  return *value->boolean();
}

}  // namespace planlint
