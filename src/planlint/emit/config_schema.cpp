#include "planlint/emit/config_schema.hpp"

#include <nlohmann/json.hpp>

#include "planlint/config/config_keys.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

namespace {

using json = nlohmann::ordered_json;

/// A percentage string: "20%", " 7.5 % ".
constexpr const char* percent_pattern = "^\\s*[0-9][0-9_]*(\\.[0-9]+)?\\s*%\\s*$";

json choices_json(const ConfigKeySpec& spec) {
  json choices = json::array();
  for (std::string_view choice : spec.choices) choices.push_back(choice);
  return {{"enum", std::move(choices)}};
}

/// A number from 0 to `maximum`, or a percentage.
json fraction_json(double maximum) {
  return {{"oneOf", json::array({{{"type", "number"}, {"minimum", 0}, {"maximum", maximum}},
                                 {{"type", "string"}, {"pattern", percent_pattern}}})}};
}

/// A number, 0 or more, or a quantity string ("$100K", "7 d").
json amount_json() {
  return {{"oneOf", json::array({{{"type", "number"}, {"minimum", 0}}, {{"type", "string"}}})}};
}

/// What the reader accepts for `spec` (config.cpp checks the rest: a quantity's unit, a file
/// inside the repository).
json value_json(const ConfigKeySpec& spec) {
  const json strings = {{"type", "array"}, {"items", {{"type", "string"}}}};
  switch (spec.type) {
    case ConfigType::strings: return strings;
    case ConfigType::files: return {{"oneOf", json::array({{{"type", "string"}}, strings})}};
    case ConfigType::boolean: return {{"type", "boolean"}};
    case ConfigType::choice: return choices_json(spec);
    case ConfigType::url: return {{"type", "string"}, {"pattern", "^https?://"}};
    case ConfigType::text: return {{"type", "string"}};
    case ConfigType::choice_table: return {{"type", "object"}, {"additionalProperties", choices_json(spec)}};
    case ConfigType::quantity_table:
      return {{"type", "object"}, {"additionalProperties", {{"type", json::array({"number", "string"})}}}};
    case ConfigType::tolerance: return fraction_json(max_tolerance);
    case ConfigType::share: return fraction_json(1);
    case ConfigType::usd:
    case ConfigType::duration: return amount_json();
    case ConfigType::gpu_count:
      return {{"oneOf", json::array({{{"type", "integer"}, {"minimum", 0}}, {{"type", "string"}}})}};
  }
  return json::object();
}

}  // namespace

std::string config_json_schema() {
  json properties = json::object();
  for (const ConfigTableSpec& table : config_tables()) {
    json keys = json::object();
    for (const ConfigKeySpec& spec : config_keys()) {
      if (spec.table != table.name) continue;
      json key = {{"description", spec.doc}};
      key.update(value_json(spec));
      keys[std::string(spec.name)] = std::move(key);
    }
    properties[std::string(table.name)] = {{"description", table.doc},
                                           {"type", "object"},
                                           {"additionalProperties", false},
                                           {"properties", std::move(keys)}};
  }
  const json schema = {{"$schema", "http://json-schema.org/draft-07/schema#"},
                       {"title", "planlint configuration (.planlint.toml)"},
                       {"description",
                        "planlint reads the nearest .planlint.toml up from each linted file (stopping at a "
                        "repository root), or the file named by --config. Command-line options win over it. "
                        "Generated from src/planlint/config/config_keys.cpp; do not edit by hand."},
                       {"type", "object"},
                       {"additionalProperties", false},
                       {"properties", std::move(properties)}};
  return schema.dump(2) + "\n";
}

}  // namespace planlint
