#include "planlint/estimate/estimates.hpp"

#include "planlint/plan/metric_names.hpp"

namespace planlint {

namespace {

/// The place of the metric `name` in metric_names(), or -1 for a name it does not hold.
std::ptrdiff_t metric_slot(std::string_view name) {
  const MetricName* metric = find_metric(name);
  return metric ? metric - metric_names().data() : -1;
}

}  // namespace

Estimates::Estimates(const Estimates& other)
    : range_sources_(other.range_sources_), values_(other.values_), absent_(other.absent_) {
  index_values();
}

Estimates& Estimates::operator=(const Estimates& other) {
  if (this != &other) {
    range_sources_ = other.range_sources_;
    values_ = other.values_;
    absent_ = other.absent_;
    index_values();
  }
  return *this;
}

Estimates::Estimates(Estimates&& other) noexcept
    : range_sources_(std::move(other.range_sources_)),
      values_(std::move(other.values_)),
      absent_(std::move(other.absent_)),
      by_metric_(other.by_metric_) {
  other.values_.clear();
  other.by_metric_.fill(nullptr);
}

Estimates& Estimates::operator=(Estimates&& other) noexcept {
  if (this != &other) {
    range_sources_ = std::move(other.range_sources_);
    values_ = std::move(other.values_);
    absent_ = std::move(other.absent_);
    by_metric_ = other.by_metric_;
    other.values_.clear();
    other.by_metric_.fill(nullptr);
  }
  return *this;
}

void Estimates::index_values() {
  by_metric_.fill(nullptr);
  for (const auto& [name, metric] : values_)
    if (const std::ptrdiff_t slot = metric_slot(name); slot >= 0) by_metric_[static_cast<std::size_t>(slot)] = &metric;
}

const MetricValue* Estimates::find(std::string_view name) const {
  if (const std::ptrdiff_t slot = metric_slot(name); slot >= 0) return by_metric_[static_cast<std::size_t>(slot)];
  // A name outside the metric table (a test's): the map.
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

void Estimates::set(MetricValue&& value) {
  const MetricName* known = find_metric(value.name);
  set(std::move(value), known);
}

void Estimates::set(MetricValue&& value, const MetricName* known) {
  // erase() would look the name up even when no metric is absent.
  if (!absent_.empty()) absent_.erase(value.name);
  const std::ptrdiff_t slot = known ? known - metric_names().data() : -1;
  std::string name = value.name;
  auto [it, inserted] = values_.insert_or_assign(std::move(name), std::move(value));
  if (slot >= 0) by_metric_[static_cast<std::size_t>(slot)] = &it->second;
}

void Estimates::set_absent(std::string name, std::vector<std::string> missing) {
  if (const std::ptrdiff_t slot = metric_slot(name); slot >= 0) by_metric_[static_cast<std::size_t>(slot)] = nullptr;
  values_.erase(name);
  absent_.insert_or_assign(std::move(name), std::move(missing));
}

}  // namespace planlint
