#include "planlint/emit/plan_schema.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "planlint/plan/metric_names.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

namespace {

using json = nlohmann::ordered_json;

/// A number in the key's base unit, or a quantity string ("80 GB", "40%").
json quantity_json(std::string_view description, std::string_view base_unit) {
  std::string text(description);
  if (!base_unit.empty())
    text += fmt::format(". A number in {}, or a quantity string with a unit (\"80 GB\", \"40%\", \"7B\")", base_unit);
  return {{"description", text}, {"type", json::array({"number", "string"})}};
}

json key_json(const KeySpec& spec) {
  switch (spec.kind) {
    case ValueKind::string:
    case ValueKind::metric:
    case ValueKind::plan_key:
      return {{"description", spec.description}, {"type", "string"}};
    case ValueKind::choice: {
      json choices = json::array();
      for (std::string_view choice : spec.choices) choices.push_back(choice);
      return {{"description", spec.description}, {"type", "string"}, {"enum", std::move(choices)}};
    }
    case ValueKind::boolean:
      return {{"description", spec.description}, {"type", "boolean"}};
    case ValueKind::date:
      return {{"description", std::string(spec.description) + " (a TOML date: 2026-11-01)"},
              {"type", "string"},
              {"format", "date"}};
    case ValueKind::quantity:
    case ValueKind::whole:
      return quantity_json(spec.description, spec.base_unit);
    case ValueKind::any_quantity:
      return {{"description", std::string(spec.description) +
                                  ". A number or a quantity string in the metric's or key's unit"},
              {"type", json::array({"number", "string"})}};
  }
  return json::object();
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

json estimates_json(const SectionSpec& section) {
  json properties = json::object();
  for (const MetricName& metric : metric_names())
    properties[std::string(metric.name)] = {{"description", metric.summary}, {"$ref", "#/definitions/claim"}};
  return {{"description", std::string(section.description) +
                              ": metric names (quote dotted names) with a quantity or {value, low, high}"},
          {"type", "object"},
          {"additionalProperties", false},
          {"properties", std::move(properties)}};
}

}  // namespace

std::string plan_json_schema() {
  json properties = json::object();
  json required = json::array();
  for (const SectionSpec& section : plan_sections()) {
    properties[std::string(section.name)] =
        section.name == "estimates" ? estimates_json(section) : section_json(section);
    if (section.required) required.push_back(section.name);
  }
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
  return schema.dump(2) + "\n";
}

}  // namespace planlint
