#include "planlint/estimate/estimates.hpp"


namespace planlint {

namespace {

/// The metric's slot in by_metric_.
std::size_t slot_of(const MetricSpec& metric) { return static_cast<std::size_t>(metric.id); }

}  // namespace

Estimates::Estimates(Estimates&& other) noexcept
    : range_sources_(std::move(other.range_sources_)),
      values_(std::move(other.values_)),
      absent_(std::move(other.absent_)),
      by_metric_(other.by_metric_) {
  other.values_.clear();
  other.by_metric_.fill(0);
}

Estimates& Estimates::operator=(Estimates&& other) noexcept {
  if (this != &other) {
    range_sources_ = std::move(other.range_sources_);
    values_ = std::move(other.values_);
    absent_ = std::move(other.absent_);
    by_metric_ = other.by_metric_;
    other.values_.clear();
    other.by_metric_.fill(0);
  }
  return *this;
}

const MetricValue* Estimates::find(std::string_view name) const {
  if (const MetricSpec* known = find_metric(name)) return find(known->id);
  // A name outside the metric table (a test's): a scan.
  for (const MetricValue& metric : values_)
    if (metric.name == name) return &metric;
  return nullptr;
}

void Estimates::set(MetricValue&& value) {
  const MetricSpec* known = value.spec ? value.spec : find_metric(value.name);
  set(std::move(value), known);
}

void Estimates::set(MetricValue&& value, const MetricSpec* known) {
  value.spec = known;
  // erase() would look the name up even when no metric is absent.
  if (!absent_.empty()) absent_.erase(value.name);
  if (const MetricValue* held = known ? find(known->id) : find(value.name)) {
    values_[static_cast<std::size_t>(held - values_.data())] = std::move(value);
    return;
  }
  if (values_.empty()) values_.reserve(metric_count);  // one allocation a plan
  values_.push_back(std::move(value));
  if (known) by_metric_[slot_of(*known)] = static_cast<std::uint16_t>(values_.size());
}

void Estimates::set_absent(std::string name, std::vector<std::string> missing) {
  if (const MetricValue* held = find(name)) {
    // The last metric takes the place of the one that goes; its slot follows it.
    const std::size_t place = static_cast<std::size_t>(held - values_.data());
    if (const MetricSpec* known = find_metric(name)) by_metric_[slot_of(*known)] = 0;
    if (place + 1 != values_.size()) {
      values_[place] = std::move(values_.back());
      if (const MetricSpec* moved = values_[place].spec)
        by_metric_[slot_of(*moved)] = static_cast<std::uint16_t>(place + 1);
    }
    values_.pop_back();
  }
  absent_.insert_or_assign(std::move(name), std::move(missing));
}

}  // namespace planlint
