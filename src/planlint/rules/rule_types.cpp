#include "planlint/rules/rule_types.hpp"

#include <fmt/format.h>

#include "planlint/diag/suggest.hpp"
#include "planlint/expr/check.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

namespace {
using expr::Type;
using Kind = expr::Type::Kind;

Type type_of_key(const KeySpec& key) {
  switch (key.kind) {
    case ValueKind::string:
    case ValueKind::choice:
    case ValueKind::metric:
    case ValueKind::plan_key: return Type::of(Kind::string);
    case ValueKind::boolean: return Type::of(Kind::boolean);
    case ValueKind::date: return Type::of(Kind::date);
    case ValueKind::quantity:
    case ValueKind::whole:
      // A key that takes several dimensions (global_batch) is known only at run time.
      return Type::number(key.dims.size() == 1 || key.dims.front() == units::dims::bytes_per_second
                              ? std::optional(key.dims.front())
                              : std::nullopt);
    case ValueKind::any_quantity: return Type::number(std::nullopt);
  }
  return Type::of(Kind::any);
}

std::vector<std::string> known_paths(std::string_view each,
                                     const std::map<std::string, expr::Value>& options) {
  std::vector<std::string> paths;
  for (const KeySpec& key : plan_keys()) paths.push_back(fmt::format("{}.{}", key.section, key.key));
  for (const MetricSpec& metric : metric_table()) paths.push_back(fmt::format("est.{}", metric.name));
  if (!each.empty())
    for (const auto& [field, type] : element_fields(each)) paths.push_back("it." + field);
  for (const auto& [name, value] : options) paths.push_back("options." + name);
  return paths;
}

}  // namespace

const std::map<std::string, Type>& element_fields(std::string_view collection) {
  static const std::map<std::string, Type> targets = {
      {"name", Type::of(Kind::string)},       {"metric", Type::of(Kind::string)},
      {"max", Type::number(std::nullopt)},    {"min", Type::number(std::nullopt)},
      {"hard", Type::of(Kind::boolean)}};
  static const std::map<std::string, Type> assumptions = {
      {"id", Type::of(Kind::string)},        {"key", Type::of(Kind::string)},
      {"value", Type::number(std::nullopt)}, {"low", Type::number(std::nullopt)},
      {"high", Type::number(std::nullopt)},  {"source", Type::of(Kind::string)},
      {"updated", Type::of(Kind::date)}};
  static const std::map<std::string, Type> benchmarks = {
      {"metric", Type::of(Kind::string)}, {"value", Type::number(std::nullopt)},
      {"date", Type::of(Kind::date)},     {"source", Type::of(Kind::string)}};
  // A slice's fields are keys of their own rows: their types, choices and ranges are the rows'.
  static const std::map<std::string, Type> capacity = [] {
    std::map<std::string, Type> fields;
    for (const KeySpec& key : plan_keys())
      if (key.section == "capacity") fields.emplace(std::string(key.key), type_of_key(key));
    return fields;
  }();
  static const std::map<std::string, Type> estimates = {
      {"metric", Type::of(Kind::string)},    {"value", Type::number(std::nullopt)},
      {"low", Type::number(std::nullopt)},   {"high", Type::number(std::nullopt)},
      {"is_range", Type::of(Kind::boolean)}};
  static const std::map<std::string, Type> none;
  if (collection == "targets") return targets;
  if (collection == "assumptions") return assumptions;
  if (collection == "benchmarks") return benchmarks;
  if (collection == "capacity") return capacity;
  if (collection == "estimates") return estimates;
  return none;
}

Type type_of(const expr::Value& value) {
  if (auto q = value.quantity()) return Type::number(q->dim);
  if (value.text()) return Type::of(Kind::string);
  if (value.boolean()) return Type::of(Kind::boolean);
  if (value.date()) return Type::of(Kind::date);
  return Type::of(Kind::list);
}

std::optional<Type> RuleTypeEnvironment::path_type(std::string_view path, std::string& error) const {
  // A fraction compared with a bare number above 1 (`training.mfu <= 50`) is a load error.
  auto metric_type = [](const MetricSpec& metric) {
    Type type = Type::number(metric.dim);
    if (metric.fraction) type.fraction_max = 1;
    return type;
  };
  if (path.starts_with("est.")) {
    std::string_view name = path.substr(4);
    if (const MetricSpec* metric = find_metric(name)) return metric_type(*metric);
    for (std::string_view suffix : {".low", ".high"})
      if (name.ends_with(suffix))
        if (const MetricSpec* metric = find_metric(name.substr(0, name.size() - suffix.size())))
          return metric_type(*metric);
  } else if (path.starts_with("it.")) {
    if (each_.empty()) {
      error = fmt::format("'{}': `it` exists only in a rule with `each`", path);
      return std::nullopt;
    }
    const auto& fields = element_fields(each_);
    if (auto field = fields.find(std::string(path.substr(3))); field != fields.end()) {
      Type type = field->second;
      // A claim's metric, a target's or a benchmark's, an assumption's key: a literal compared
      // with it must be a metric name (a plan key).
      const KeySpec* key = find_key(each_, field->first);
      if ((each_ == "estimates" && field->first == "metric") || (key && key->kind == ValueKind::metric))
        type.vocabulary = expr::metric_vocabulary();
      else if (key && key->kind == ValueKind::plan_key)
        type.vocabulary = expr::plan_key_vocabulary();
      else if (key && key->kind == ValueKind::choice)
        type.vocabulary.words = &key->choices;  // it.kind == 'spot' is never true
      if (key && key->base_unit == "fraction") type.fraction_max = key->max;
      return type;
    }
  } else if (path.starts_with("options.")) {
    if (auto option = options_.find(std::string(path.substr(8))); option != options_.end())
      return type_of(option->second);
    error = fmt::format("unknown option '{}': declare it with its default in the rule's [options]",
                        path.substr(8));
    return std::nullopt;
  } else if (const KeySpec* key = find_key(path)) {
    Type type = type_of_key(*key);
    // plan.kind == 'trainng' is never true: a literal compared with a key of a few choices
    // must be one of them.
    if (key->kind == ValueKind::choice) type.vocabulary.words = &key->choices;
    // A tolerance may come from config, which takes up to 1000%.
    if (key->base_unit == "fraction") type.fraction_max = key->section == "tolerances" ? max_tolerance : key->max;
    return type;
  }
  std::vector<std::string> paths = known_paths(each_, options_);
  std::vector<std::string_view> views(paths.begin(), paths.end());
  error = fmt::format("unknown name '{}'", path);
  if (auto suggestion = closest_match(path, views)) error += fmt::format("; did you mean '{}'?", *suggestion);
  return std::nullopt;
}

}  // namespace planlint
