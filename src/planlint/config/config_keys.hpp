#pragma once
/// The keys of `.planlint.toml`, declared once: each key's table, name, type, allowed values,
/// an example and its doc line. The reader (config.cpp) checks every value against its key's
/// spec and finds unknown keys by it; schemas/config.schema.json is generated from it
/// (emit/config_schema.hpp), and a test keeps the checked-in file equal to what it generates.
///
///     {ConfigKey::lint_fail_on, "lint", "fail_on", ConfigType::choice, fail_on_levels, {}, "\"warning\"",
///      "Lowest level that makes the exit status 1 (default error). --fail-on wins."},
#include <span>
#include <string>
#include <string_view>

namespace planlint {

/// Every key, for the reader's switch over what each one sets (config.cpp, no `default:`).
enum class ConfigKey {
  lint_select,
  lint_ignore,
  lint_severity,
  lint_rules,
  lint_exclude,
  lint_respect_gitignore,
  lint_docs_url,
  lint_fail_on,
  lint_catalog,
  lint_options,
  tolerances_capacity,
  tolerances_cost,
  tolerances_formula_vs_benchmark,
  guardrails_cost_increase,
  guardrails_cost_increase_amount,
  guardrails_gpus_increase,
  guardrails_days_increase,
  guardrails_memory_headroom,
  guardrails_new_errors,
  solve_vary,
  solve_gpus,
  solve_count,
  solve_keep,
};

/// What a key's value must be.
enum class ConfigType {
  strings,         ///< an array of strings
  files,           ///< a file name or an array of them
  boolean,         ///< true or false
  choice,          ///< a string, one of `choices`
  url,             ///< a string, an http:// or https:// URL
  choice_table,    ///< a table of `entry` = one of `choices`
  quantity_table,  ///< a table of `entry` = a number or a quantity string ("90 d")
  tolerance,       ///< a fraction, 0 to max_tolerance: "10%" or 0.1
  share,           ///< a fraction, 0 to 1 ("20%" may say more): "20%" or 0.2
  usd,             ///< dollars, 0 or more: "$100K" or 100000
  gpu_count,       ///< a whole number of GPUs, 0 or more
  duration,        ///< a duration, 0 or more: "7 d"; a plain number counts days
  text,            ///< a string, read by what it configures ([solve]'s, as the options' text)
};

/// A table of the file: `[lint]`, `[tolerances]`, `[guardrails]`, `[solve]`.
struct ConfigTableSpec {
  std::string_view name;
  std::string_view doc;
};

struct ConfigKeySpec {
  ConfigKey key;
  std::string_view table;  ///< the table it is a key of: "lint"
  std::string_view name;   ///< "fail_on"
  ConfigType type;
  std::span<const std::string_view> choices;  ///< choice, choice_table: the values allowed
  std::string_view entry;    ///< choice_table, quantity_table: what an entry's name is ("rule id")
  std::string_view example;  ///< a value as TOML text: "\"warning\"", "[\"policies/\"]"
  std::string_view doc;      ///< one or two sentences, the schema's description
};

/// The tables, in the order the schema lists them.
std::span<const ConfigTableSpec> config_tables();
/// Every key, table by table, in the order the schema lists them.
std::span<const ConfigKeySpec> config_keys();
/// The key `name` of `table`, or nullptr.
const ConfigKeySpec* find_config_key(std::string_view table, std::string_view name);

/// What a value of `spec` must be, in words for an error: "error, warning or note", "an array
/// of strings", "a share such as \"20%\" or 0.2".
std::string expected_value(const ConfigKeySpec& spec);
/// What one entry of a choice_table or quantity_table must be: "error, warning, note or off".
std::string expected_entry(const ConfigKeySpec& spec);

}  // namespace planlint
