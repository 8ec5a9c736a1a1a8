#include "planlint/estimate/estimates.hpp"

namespace planlint {

const MetricValue* Estimates::find(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

void Estimates::set(MetricValue&& value) {
  // erase() would look the name up even when no metric is absent.
  if (!absent_.empty()) absent_.erase(value.name);
  std::string name = value.name;
  values_.insert_or_assign(std::move(name), std::move(value));
}

void Estimates::set_absent(std::string name, std::vector<std::string> missing) {
  values_.erase(name);
  absent_.insert_or_assign(std::move(name), std::move(missing));
}

}  // namespace planlint
