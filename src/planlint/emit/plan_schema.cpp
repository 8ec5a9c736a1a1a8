#include "planlint/emit/plan_schema.hpp"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/key_docs.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

namespace {

using json = nlohmann::ordered_json;

/// What the key means, with its default (schema.cpp).
std::string key_description(const KeySpec& spec) {
  std::string text(spec.reference());
  if (const std::string fallback = default_text(spec); !fallback.empty()) text += ". Default: " + fallback;
  return text;
}

/// A number in the key's base unit, or a quantity string ("80 GB", "40%").
json quantity_json(std::string text, std::string_view base_unit) {
  if (!base_unit.empty())
    text += fmt::format(". A number in {}, or a quantity string with a unit (\"80 GB\", \"40%\", \"7B\")", base_unit);
  return {{"description", text}, {"type", json::array({"number", "string"})}};
}

json key_type_json(const KeySpec& spec) {
  const std::string description = key_description(spec);
  switch (spec.kind) {
    case ValueKind::string:
    case ValueKind::metric:
    case ValueKind::plan_key:
      return {{"description", description}, {"type", "string"}};
    case ValueKind::choice: {
      json choices = json::array();
      for (std::string_view choice : spec.choices) choices.push_back(choice);
      return {{"description", description}, {"type", "string"}, {"enum", std::move(choices)}};
    }
    case ValueKind::boolean:
      return {{"description", description}, {"type", "boolean"}};
    case ValueKind::date:
      return {{"description", description + " (a TOML date: 2026-11-01)"}, {"type", "string"}, {"format", "date"}};
    case ValueKind::quantity:
    case ValueKind::whole:
      return quantity_json(description, spec.base_unit);
    case ValueKind::any_quantity:
      return {{"description", description + ". A number or a quantity string in the metric's or key's unit"},
              {"type", json::array({"number", "string"})}};
  }
  return json::object();
}

/// The key's property, with its fixed default as JSON Schema's `default`.
json key_json(const KeySpec& spec) {
  json property = key_type_json(spec);
  const KeyDefault& fallback = spec.by_default;
  if (fallback.how.empty()) {
    if (const double* number = fallback.number()) property["default"] = *number;
    else if (const auto* choice = std::get_if<std::string_view>(&fallback.fixed)) property["default"] = *choice;
    else if (const bool* flag = std::get_if<bool>(&fallback.fixed)) property["default"] = *flag;
  }
  return property;
}

json section_json(const SectionSpec& section) {
  json properties = json::object();
  json required = json::array();
  for (const KeySpec& spec : plan_keys()) {
    if (spec.section != section.name) continue;
    properties[std::string(spec.key)] = key_json(spec);
    if (spec.required) required.push_back(spec.key);
  }
  json table = {{"description", section.description}, {"type", "object"}, {"additionalProperties", false},
                {"properties", std::move(properties)}};
  if (!required.empty()) table["required"] = std::move(required);
  if (!section.array) return table;
  return {{"description", section.description}, {"type", "array"}, {"items", std::move(table)}};
}

/// Whether `name` is a metric under `prefix` ("train.days" under "train"; all are under "").
bool under(std::string_view name, std::string_view prefix) {
  return prefix.empty() ||
         (name.size() > prefix.size() && name.starts_with(prefix) && name[prefix.size()] == '.');
}

/// The metrics under `prefix` ("" for [estimates] itself, "train" for [estimates.train]), as
/// the loader reads them (Loader::read_estimates): the rest of each one's name is a claim
/// ("days", or "memory.total" as a quoted key), and each dotted start of a rest that is not a
/// metric itself ("memory") a table of the metrics under it, defined once in `definitions` as
/// "estimates.train.memory". So every spelling of a metric name, quoted or nested at any dot,
/// is accepted, and a name that is not a metric is rejected in each.
json estimates_table(const std::string& prefix, std::string description, json& definitions) {
  json properties = json::object();
  std::vector<std::string> tables;
  for (const MetricSpec& metric : planlint::metric_table()) {
    if (!under(metric.name, prefix)) continue;
    const std::string rest(prefix.empty() ? metric.name : metric.name.substr(prefix.size() + 1));
    properties[rest] = {{"description", metric.summary}, {"$ref", "#/definitions/claim"}};
    for (std::size_t dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.', dot + 1)) {
      const std::string start = rest.substr(0, dot);
      // A metric's own name is its claim, never a table (the loader reads it as one).
      if (!find_metric(prefix.empty() ? start : prefix + "." + start) &&
          std::find(tables.begin(), tables.end(), start) == tables.end())
        tables.push_back(start);
    }
  }
  for (const std::string& start : tables) {
    const std::string nested = prefix.empty() ? start : prefix + "." + start;
    const std::string definition = "estimates." + nested;
    if (!definitions.contains(definition)) {
      definitions[definition] = nullptr;  // its place, before the tables nested in it
      const auto metrics = planlint::metric_table();
      const auto example =
          std::find_if(metrics.begin(), metrics.end(), [&](const MetricSpec& m) { return under(m.name, nested); });
      definitions[definition] = estimates_table(
          nested,
          fmt::format("the metrics {0}.*, as the table [estimates.{0}] or an unquoted dotted name "
                      "(`{1} = ...` in [estimates]), which planlint reads as \"{1}\"",
                      nested, example->name),
          definitions);
    }
    properties[start] = {{"$ref", "#/definitions/" + definition}};
  }
  return {{"description", std::move(description)},
          {"type", "object"},
          {"additionalProperties", false},
          {"properties", std::move(properties)}};
}

}  // namespace

std::string plan_json_schema() {
  json properties = json::object();
  json required = json::array();
  json metric_tables = json::object();
  for (const SectionSpec& section : plan_sections()) {
    properties[std::string(section.name)] =
        section.name == "estimates"
            ? estimates_table("",
                           std::string(section.description) +
                               ": metric names (quote dotted names; unquoted, they nest tables, which "
                               "planlint reads back as the name) with a quantity or {value, low, high}",
                           metric_tables)
            : section_json(section);
    if (section.required) required.push_back(section.name);
  }
  // A stage's keys are the [training] keys and cluster.count, with their own rows, and its
  // claims those of [estimates] (Loader::read_stage).
  json& stage = properties["stages"]["items"]["properties"];
  json training = section_json(*find_section("training"));
  training.erase("required");
  training["description"] = "the stage's own [training] keys, in place of the plan's";
  stage["training"] = std::move(training);
  stage["cluster"] = {{"description", "the stage's GPU count, in place of the plan's"},
                      {"type", "object"},
                      {"additionalProperties", false},
                      {"properties", {{"count", key_json(*find_key("cluster", "count"))}}}};
  stage["assumptions"] = properties["assumptions"];
  stage["targets"] = properties["targets"];
  stage["targets"]["description"] = "the stage's own targets, on its metrics (the plan's [[targets]] are the whole run's)";
  stage["estimates"] = properties["estimates"];
  stage["estimates"]["description"] = "what the document claims for this stage, by metric name";
  json quantity = {{"type", json::array({"number", "string"})}};
  json claim = {
      {"description", "a claimed value: a quantity, or a range {value, low, high}"},
      {"oneOf", json::array({quantity,
                             {{"type", "object"},
                              {"additionalProperties", false},
                              {"properties", {{"value", quantity}, {"low", quantity}, {"high", quantity}}}}})}};
  json schema = {{"$schema", "http://json-schema.org/draft-07/schema#"},
                 {"title", "planlint plan file"},
                 {"description",
                  "An AI compute capacity plan (docs/plan-format.md). Generated from "
                  "src/planlint/plan/schema.cpp; do not edit by hand."},
                 {"type", "object"},
                 {"additionalProperties", false},
                 {"required", std::move(required)},
                 {"properties", std::move(properties)},
                 {"definitions", {{"claim", std::move(claim)}}}};
  schema["definitions"].update(metric_tables);
  return schema.dump(2) + "\n";
}

}  // namespace planlint
