#include "planlint/rules/plan_environment.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "planlint/catalog/price_reference.hpp"
#include "planlint/expr/check.hpp"
#include "planlint/plan/assumed_keys.hpp"
#include "planlint/plan/defaults.hpp"
#include "planlint/plan/element_keys.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/estimate/tolerance.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

expr::Value to_value(const Scalar& scalar) {
  return std::visit([](const auto& v) { return expr::Value{v}; }, scalar);
}

namespace {

/// A metric's value (or a bound of its range); a fraction is marked to be shown as a
/// percentage, as a fraction key's plan value is.
units::Quantity metric_quantity(const MetricValue& metric, double value) {
  units::Quantity quantity{value, metric.dim};
  quantity.percent = metric.spec && metric.spec->fraction;
  return quantity;
}

expr::Value metric_value(const MetricValue& metric, double value) { return expr::Value{metric_quantity(metric, value)}; }

}  // namespace

expr::PathRef resolve_path(std::string_view path) {
  using Space = expr::PathRef::Space;
  auto index = [](std::size_t i) { return static_cast<std::uint16_t>(i); };
  if (path.starts_with("est.")) {
    std::string_view name = path.substr(4);
    if (const MetricSpec* m = find_metric(name)) return {Space::metric, index(static_cast<std::size_t>(m->id))};
    for (auto [suffix, space] : {std::pair{std::string_view(".low"), Space::metric_low},
                                 std::pair{std::string_view(".high"), Space::metric_high}})
      if (name.ends_with(suffix))
        if (const MetricSpec* m = find_metric(name.substr(0, name.size() - suffix.size())))
          return {space, index(static_cast<std::size_t>(m->id))};
    return {};
  }
  if (path.starts_with("it.")) {
    const std::vector<std::string_view>& fields = element_field_names();
    const auto field = std::find(fields.begin(), fields.end(), path.substr(3));
    return {Space::element, field == fields.end() ? std::uint16_t{0} : index(field - fields.begin() + 1)};
  }
  if (path.starts_with("options.")) return {Space::option, 0};
  if (path.starts_with("tolerances.")) return {};
  if (const KeySpec* key = find_key(path)) return {Space::plan_key, index(key - plan_keys().data())};
  return {};
}

std::optional<expr::ValueRef> PlanEnvironment::lookup_path(const expr::Node& path,
                                                           expr::ValueStore& keep) const {
  using Space = expr::PathRef::Space;
  switch (path.ref.space) {
    case Space::plan_key: {
      static const KeySpec* const keys = plan_keys().data();  // a call less for each read
      const PlanValue* value = inputs_.plan.find(keys[path.ref.index]);
      if (!value) return std::nullopt;
      return expr::view_of(value->value);
    }
    case Space::metric:
    case Space::metric_low:
    case Space::metric_high: {
      if (recording_) paths_read_.set(path.ref.index);
      const MetricValue* m = inputs_.estimates.find(static_cast<Metric>(path.ref.index));
      if (!m) return std::nullopt;
      const std::optional<double>& bound = path.ref.space == Space::metric        ? std::optional<double>(m->value)
                                           : path.ref.space == Space::metric_low ? m->low
                                                                                 : m->high;
      if (!bound) return std::nullopt;
      return expr::ValueRef::of(metric_quantity(*m, *bound));  // no Value around it
    }
    case Space::element: {
      const std::string_view field = path.text.substr(3);
      if (claim_) {
        if (field == "metric") return expr::ValueRef::of_text(claim_->metric);
        if (field == "is_range") return expr::ValueRef::of(claim_->is_range());
        const std::optional<PlanValue>& part = field == "value" ? claim_->value
                                               : field == "low" ? claim_->low
                                                                : claim_->high;
        if (!part) return std::nullopt;
        return expr::view_of(part->value);
      }
      if (!element_) return std::nullopt;
      // The field's spec in the element's section, read by its place; a field that section
      // does not have is looked for by name, and is not there.
      const std::size_t field_id = path.ref.index - 1u;  // index 0: a name no section has
      const KeySpec* key = path.ref.index && field_id < element_fields_.size() ? element_fields_[field_id] : nullptr;
      const PlanValue* value = key ? element_->values.find(*key) : element_->find(field);
      if (!value) return std::nullopt;
      return expr::view_of(value->value);
    }
    case Space::option: {
      const std::string_view name = path.text.substr(8);
      for (const auto& [key, value] : options_)
        if (key == name) return expr::view_of(value);
      return std::nullopt;
    }
    case Space::unresolved: break;
  }
  return Environment::lookup_path(path, keep);
}

bool PlanEnvironment::stated_path(const expr::Node& path) const {
  if (path.ref.space != expr::PathRef::Space::plan_key) return stated(path.text);
  static const KeySpec* const keys = plan_keys().data();
  const PlanValue* value = inputs_.plan.find(keys[path.ref.index]);
  return (value && value->origin == Origin::plan) || inputs_.plan.states_unread(path.text);
}

std::optional<expr::Value> PlanEnvironment::lookup(std::string_view path) const {
  // A path the rules could resolve is read as a resolved rule path is: one way to read each.
  if (const expr::PathRef ref = resolve_path(path); ref.space != expr::PathRef::Space::unresolved) {
    expr::Node node;
    node.kind = expr::Node::Kind::path;
    node.text = path;
    node.ref = ref;
    expr::ValueStore keep;
    const std::optional<expr::ValueRef> value = lookup_path(node, keep);
    if (!value) return std::nullopt;
    return expr::value_of(*value);
  }
  // Config's [tolerances] stand in for the plan's defaults (the plan's own values win).
  if (path.starts_with("tolerances.")) {
    const PlanValue* stated = inputs_.plan.find(path);
    if (!stated || stated->origin != Origin::plan)
      for (const auto& [tier, tolerance] : inputs_.tolerances)  // a few tiers: no key string
        if (tier == path.substr(11))
          return expr::Value{units::Quantity{tolerance, units::dims::none}};
  }
  // An est. name that is no metric, or a key of no section: absent, as plan_value says.
  if (path.starts_with("est.")) return std::nullopt;
  return plan_value(path);
}

bool PlanEnvironment::stated(std::string_view path) const {
  if (path.starts_with("it.")) return lookup(path).has_value();
  const PlanValue* value = assumed_value(inputs_.plan, path);
  // A key stated with an invalid value or under a misspelt name is stated: missing-goodput
  // must not say "no training.goodput" to a plan whose goodput is "94 percent" or `goodpt`.
  return (value && value->origin == Origin::plan) || inputs_.plan.states_unread(path);
}

bool PlanEnvironment::stated_in_bits(std::string_view path) const {
  const PlanValue* value = inputs_.plan.find(path);
  return value && value->origin == Origin::plan && value->in_bits;
}

bool PlanEnvironment::unread(std::string_view path) const { return inputs_.plan.states_unread(path); }

namespace {

/// Whether `key` is unread (Plan::states_unread) or would have had a default from one that is:
/// training.dp, which cluster.count written as `cont` leaves without its default.
bool rests_on_unread(const Plan& plan, std::string_view key, int depth = 0) {
  if (plan.states_unread(key)) return true;
  if (depth > 8) return false;  // default chains are a few keys long
  for (std::string_view source : default_sources(key))
    if (rests_on_unread(plan, source, depth + 1)) return true;
  return false;
}

}  // namespace

bool PlanEnvironment::blocked(std::string_view metric) const {
  if (inputs_.plan.invalid_keys.empty() && inputs_.plan.misspellings.empty()) return false;
  const std::vector<std::string>* inputs = inputs_.estimates.missing_inputs(metric);
  if (!inputs) return false;
  // Each missing input is named by its key, then a space and the reason (missing_name).
  for (const std::string& missing : *inputs)
    if (rests_on_unread(inputs_.plan, std::string_view(missing).substr(0, missing.find(' ')))) return true;
  return false;
}

std::optional<expr::Value> PlanEnvironment::metric(std::string_view name) const {
  const MetricValue* m = inputs_.estimates.find(name);
  if (!m) return std::nullopt;
  if (recording_ && std::find(metrics_read_.begin(), metrics_read_.end(), name) == metrics_read_.end())
    metrics_read_.emplace_back(name);
  return metric_value(*m, m->value);
}

std::optional<expr::Value> PlanEnvironment::metric_bound(std::string_view name, bool high) const {
  const MetricValue* m = inputs_.estimates.find(name);
  if (!m) return std::nullopt;
  if (inputs_.ranges) {
    const std::optional<MetricRange> range = inputs_.ranges->range(name);
    if (!range) return std::nullopt;
    return metric_value(*m, high ? range->high : range->low);
  }
  const std::optional<double>& bound = high ? m->high : m->low;
  if (!bound) return std::nullopt;
  return metric_value(*m, *bound);
}

std::optional<expr::Value> PlanEnvironment::plan_value(std::string_view key) const {
  // An assumption's key may name a [[capacity]] slice's field (value(it.key)).
  const PlanValue* value = assumed_value(inputs_.plan, key);
  if (!value) return std::nullopt;
  return to_value(value->value);
}

bool PlanEnvironment::assumed(std::string_view key) const {
  for (const PlanTable& assumption : inputs_.plan.assumptions)
    if (const PlanValue* k = assumption.find("key"); k && k->text() && *k->text() == key) return true;
  return false;
}

std::optional<std::string> PlanEnvironment::unassumed_field(std::string_view field) const {
  const std::vector<PlanTable>& slices = inputs_.plan.capacity;
  if (!element_ || slices.empty() || element_ < slices.data() || element_ >= slices.data() + slices.size())
    return std::nullopt;
  const auto index = static_cast<std::size_t>(element_ - slices.data());
  const KeySpec* spec = find_key("capacity", field);
  const PlanValue* value = spec ? element_->values.find(*spec) : nullptr;
  if (!value || value->origin != Origin::plan) return std::nullopt;
  // An entry may name the slice by what it is or by its place.
  const SliceFields fields(inputs_.plan);
  for (const PlanTable& assumption : inputs_.plan.assumptions)
    if (const PlanValue* key = assumption.find("key"); key && key->text())
      if (const std::optional<SliceField> named = fields.find(*key->text());
          named && named->slice == index && named->field == spec)
        return std::nullopt;
  const std::string name = element_names("capacity", slices)[index];
  return name.empty() ? SliceField{index, spec}.path() : fmt::format("capacity[{}].{}", name, field);
}

bool PlanEnvironment::claimed(std::string_view metric) const {
  for (const Claim& claim : inputs_.plan.estimates)
    if (claim.metric == metric) return true;
  for (const PlanTable& target : inputs_.plan.targets)
    if (const PlanValue* m = target.find("metric"); m && m->text() && *m->text() == metric) return true;
  return false;
}

bool PlanEnvironment::computed(std::string_view metric) const {
  return inputs_.estimates.find(metric) != nullptr;
}

std::vector<std::string> PlanEnvironment::missing_inputs(std::string_view metric) const {
  if (const std::vector<std::string>* inputs = inputs_.estimates.missing_inputs(metric)) return *inputs;
  return {};
}

bool PlanEnvironment::benchmarked(std::string_view metric) const {
  for (const PlanTable& benchmark : inputs_.plan.benchmarks)
    if (const PlanValue* m = benchmark.find("metric"); m && m->text() && *m->text() == metric) return true;
  return false;
}

namespace {

/// The claim's value (a range's `value`) over the metric planlint computes; nullopt when either
/// is missing, the metric is 0 or the dimensions differ.
std::optional<double> claim_ratio(const Claim& claim, const Estimates& estimates) {
  if (!claim.value || !claim.value->quantity()) return std::nullopt;
  const MetricValue* computed = estimates.find(claim.metric);
  const units::Quantity& claimed = *claim.value->quantity();
  if (!computed || computed->value == 0 || claimed.dim != computed->dim) return std::nullopt;
  return claimed.value / computed->value;
}

}  // namespace

std::vector<std::string> PlanEnvironment::claims_with_ratio(double ratio, double tolerance) const {
  std::vector<std::string> found;
  for (const Claim& claim : inputs_.plan.estimates) {
    const std::optional<double> off = claim_ratio(claim, inputs_.estimates);
    if (off && std::abs(*off - ratio) <= tolerance * std::abs(ratio)) found.push_back(claim.metric);
  }
  return found;
}

namespace {

/// Adds to `out` the stated quantity keys that `key` is or rests on (a default's sources).
void add_stated_key(const Plan& plan, std::string_view key, std::set<std::string, std::less<>>& out) {
  const PlanValue* value = plan.find(key);
  if (!value) return;
  if (value->origin == Origin::plan) {
    if (value->quantity()) out.emplace(key);
    return;
  }
  if (value->origin == Origin::default_)
    for (std::string_view source : default_sources(key)) add_stated_key(plan, source, out);
}

/// The stated quantity keys `metric` is computed from, through the metrics it reads.
void add_stated_inputs(const Plan& plan, const Estimates& estimates, const MetricValue& metric,
                       std::set<std::string, std::less<>>& out) {
  for (const MetricInput& input : metric.inputs) {
    if (!input.is_metric) add_stated_key(plan, input.name, out);
    else if (const MetricValue* used = estimates.find(input.name)) add_stated_inputs(plan, estimates, *used, out);
  }
}

}  // namespace

const Estimates& PlanEnvironment::estimates_with_inputs() const {
  if (inputs_.provenance) return inputs_.provenance->estimates();
  if (!own_provenance_) own_provenance_.emplace(inputs_.plan, inputs_.catalog, inputs_.estimates, false);
  return own_provenance_->estimates();
}

namespace {

/// Whether `metric` reads the plan key `key`, directly or through the metrics it reads.
bool reads_key(const Estimates& estimates, const MetricValue& metric, std::string_view key, int depth = 0) {
  if (depth > static_cast<int>(metric_count)) return false;  // the metrics read earlier ones: no cycle
  for (const MetricInput& input : metric.inputs) {
    if (!input.is_metric) {
      if (input.name == key) return true;
    } else if (const MetricValue* used = estimates.find(input.name); used && reads_key(estimates, *used, key, depth + 1)) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool PlanEnvironment::computed_from(std::string_view metric, std::string_view key) const {
  if (!inputs_.estimates.find(metric)) return false;
  const Estimates& with_inputs = estimates_with_inputs();
  const MetricValue* found = with_inputs.find(metric);
  return found && reads_key(with_inputs, *found, key);
}

std::vector<std::string> PlanEnvironment::shared_inputs(const std::vector<std::string>& metrics) const {
  if (metrics.empty()) return {};
  const Estimates* with_inputs = &estimates_with_inputs();
  std::optional<std::set<std::string, std::less<>>> shared;
  for (const std::string& name : metrics) {
    const MetricValue* metric = with_inputs->find(name);
    if (!metric) return {};
    std::set<std::string, std::less<>> keys;
    add_stated_inputs(inputs_.plan, *with_inputs, *metric, keys);
    if (!shared) {
      shared = std::move(keys);
    } else {
      std::erase_if(*shared, [&](const std::string& key) { return !keys.contains(key); });
    }
  }
  // An input that a claim which agrees with planlint (within 3%) also rests on is cleared by
  // it: 6 · N · D matching train.flops says params and tokens are right, whatever else slipped.
  // A fraction (an MFU, a goodput) cannot be 1000× off and stay in range.
  for (const Claim& claim : inputs_.plan.estimates) {
    if (std::find(metrics.begin(), metrics.end(), claim.metric) != metrics.end()) continue;
    const std::optional<double> off = claim_ratio(claim, *with_inputs);
    if (!off || std::abs(*off - 1) > 0.03) continue;
    std::set<std::string, std::less<>> cleared;
    add_stated_inputs(inputs_.plan, *with_inputs, *with_inputs->find(claim.metric), cleared);
    std::erase_if(*shared, [&](const std::string& key) { return cleared.contains(key); });
  }
  std::vector<std::string> ordered;
  for (const KeySpec& key : plan_keys()) {
    if (key.base_unit == "fraction") continue;
    std::string path = fmt::format("{}.{}", key.section, key.key);
    if (shared->contains(path)) ordered.push_back(std::move(path));
  }
  return ordered;
}

std::optional<double> PlanEnvironment::tolerance(std::string_view metric) const {
  const MetricSpec* m = find_metric(metric);
  if (!m) return std::nullopt;
  return tier_tolerance(inputs_.plan, *m, inputs_.tolerances);
}

std::optional<expr::Value> PlanEnvironment::catalog(std::string_view gpu, std::string_view field,
                                                    std::string_view precision) const {
  const GpuSpec* spec = inputs_.catalog.find(gpu);
  if (!spec) return std::nullopt;
  if (field == "scale_out") return expr::Value{std::string(to_string(spec->scale_out()))};
  if (field == "scale_up_link" || field == "scale_up_link_name") {
    if (!spec->scale_up_link) return std::nullopt;
    return expr::Value{std::string(field == "scale_up_link" ? to_string(*spec->scale_up_link)
                                                            : display_name(*spec->scale_up_link))};
  }
  if (field == "price_reference" || field == "price_high_reference") {
    const std::optional<PriceReference> reference = price_reference(inputs_.catalog, *spec);
    if (!reference) return std::nullopt;
    if (field == "price_reference") return expr::Value{reference->entry->id};
    return expr::Value{units::Quantity{reference->high, units::dims::usd_per_gpu_second}};
  }
  auto dim = expr::catalog_field_dimension(field);
  if (!dim) return std::nullopt;
  std::optional<double> value;
  if (field == "dense_peak" || field == "sparse_peak") {
    auto p = parse_precision(precision);
    if (!p) return std::nullopt;
    value = field == "dense_peak" ? spec->dense_peak(*p) : spec->sparse_peak(*p);
  } else if (field == "hbm") {
    value = spec->hbm_bytes;
  } else if (field == "hbm_bandwidth") {
    value = spec->hbm_bandwidth_bytes_per_s;
  } else if (field == "price_low" || field == "price_high") {
    if (spec->price) value = field == "price_low" ? spec->price->low : spec->price->high;
  } else if (field == "scale_up_domain" || field == "gpus_per_node") {
    value = field == "scale_up_domain" ? spec->scale_up_domain : spec->gpus_per_node;
  } else {
    value = spec->link_bandwidth_bytes_per_s;
  }
  if (!value) return std::nullopt;
  return expr::Value{units::Quantity{*value, *dim}};
}

std::optional<expr::Value> PlanEnvironment::compute_precision() const {
  return expr::Value{planlint::compute_precision(inputs_.plan, inputs_.catalog)};
}

double PlanEnvironment::seconds_since(const Date& date) const {
  using namespace std::chrono;
  auto days_of = [](const Date& d) {
    return sys_days{year{d.year} / month{static_cast<unsigned>(d.month)} / day{static_cast<unsigned>(d.day)}};
  };
  return static_cast<double>((days_of(inputs_.today) - days_of(date)).count()) * 86400.0;
}

}  // namespace planlint
