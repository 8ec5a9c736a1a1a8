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
      by_metric_(other.by_metric_),
      absent_by_metric_(other.absent_by_metric_) {
  other.values_.clear();
  other.absent_.clear();
  other.by_metric_.fill(0);
  other.absent_by_metric_.fill(0);
}

Estimates& Estimates::operator=(Estimates&& other) noexcept {
  if (this != &other) {
    range_sources_ = std::move(other.range_sources_);
    values_ = std::move(other.values_);
    absent_ = std::move(other.absent_);
    by_metric_ = other.by_metric_;
    absent_by_metric_ = other.absent_by_metric_;
    other.values_.clear();
    other.absent_.clear();
    other.by_metric_.fill(0);
    other.absent_by_metric_.fill(0);
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
  if (!absent_.empty()) forget_absent(known, value.name);
  if (const MetricValue* held = known ? find(known->id) : find(value.name)) {
    values_[static_cast<std::size_t>(held - values_.data())] = std::move(value);
    return;
  }
  if (values_.empty()) values_.reserve(metric_count);  // one allocation a plan
  values_.push_back(std::move(value));
  if (known) by_metric_[slot_of(*known)] = static_cast<std::uint16_t>(values_.size());
}

void Estimates::set_absent(std::string name, std::vector<std::string> missing) {
  const MetricSpec* known = find_metric(name);
  set_absent(std::move(name), known, std::move(missing));
}

void Estimates::set_absent(std::string name, const MetricSpec* known, std::vector<std::string> missing) {
  if (const MetricValue* held = known ? find(known->id) : find(name)) {
    // The last metric takes the place of the one that goes; its slot follows it.
    const std::size_t place = static_cast<std::size_t>(held - values_.data());
    if (known) by_metric_[slot_of(*known)] = 0;
    if (place + 1 != values_.size()) {
      values_[place] = std::move(values_.back());
      if (const MetricSpec* moved = values_[place].spec)
        by_metric_[slot_of(*moved)] = static_cast<std::uint16_t>(place + 1);
    }
    values_.pop_back();
  }
  if (known) {
    if (const std::uint16_t held = absent_by_metric_[slot_of(*known)]) {
      absent_[held - 1u].missing = std::move(missing);
      return;
    }
    absent_.push_back(Absent{known, {}, std::move(missing)});
    absent_by_metric_[slot_of(*known)] = static_cast<std::uint16_t>(absent_.size());
    return;
  }
  for (Absent& held : absent_)
    if (!held.spec && held.name == name) {
      held.missing = std::move(missing);
      return;
    }
  absent_.push_back(Absent{nullptr, std::move(name), std::move(missing)});
}

void Estimates::forget_absent(const MetricSpec* known, std::string_view name) {
  std::size_t place = absent_.size();
  if (known) {
    if (const std::uint16_t held = absent_by_metric_[slot_of(*known)]) place = held - 1u;
    absent_by_metric_[slot_of(*known)] = 0;
  } else {
    for (std::size_t i = 0; i < absent_.size(); ++i)
      if (!absent_[i].spec && absent_[i].name == name) place = i;
  }
  if (place == absent_.size()) return;
  // The last entry takes the place of the one that goes; its slot follows it.
  if (place + 1 != absent_.size()) {
    absent_[place] = std::move(absent_.back());
    if (const MetricSpec* moved = absent_[place].spec)
      absent_by_metric_[slot_of(*moved)] = static_cast<std::uint16_t>(place + 1);
  }
  absent_.pop_back();
}

std::vector<std::string_view> Estimates::absent_names() const {
  std::vector<std::string_view> names;
  names.reserve(absent_.size());
  for (const Absent& held : absent_) names.push_back(held.spec ? held.spec->name : std::string_view(held.name));
  return names;
}

const std::vector<std::string>* Estimates::missing_inputs(std::string_view name) const {
  if (const MetricSpec* known = find_metric(name)) return missing_inputs(known->id);
  for (const Absent& held : absent_)
    if (!held.spec && held.name == name) return &held.missing;
  return nullptr;
}

}  // namespace planlint
