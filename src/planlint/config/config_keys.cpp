/// The keys of `.planlint.toml` (config_keys.hpp): cli.md "Configuration", docs/review.md
/// "Guardrails", docs/catalog.md.
#include "planlint/config/config_keys.hpp"

#include <fmt/format.h>

namespace planlint {

namespace {

using Key = ConfigKey;
using Type = ConfigType;

constexpr std::string_view fail_on_levels[] = {"error", "warning", "note"};
constexpr std::string_view severity_levels[] = {"error", "warning", "note", "off"};

constexpr ConfigTableSpec tables[] = {
    {"lint", "Which rules run, at which level, with which options."},
    {"tolerances", "Default tolerance tiers; a plan's own [tolerances] win over these."},
    {"guardrails",
     "How far a change may move a plan's figures before `planlint diff` reports guardrail-exceeded on the changed "
     "key's line (docs/review.md). A limit left out is not checked."},
    {"solve",
     "What `planlint solve` may change beyond the layout keys, in the words of its options (docs/solve.md); the "
     "command line wins."},
};

constexpr ConfigKeySpec keys[] = {
    {Key::lint_select, "lint", "select", Type::strings, {}, {}, R"(["all"])",
     "Rule ids or groups to run; [\"all\"] (the default) runs every rule. --select replaces it."},
    {Key::lint_ignore, "lint", "ignore", Type::strings, {}, {}, R"(["chinchilla-ratio"])",
     "Rule ids or groups to skip. --ignore replaces it."},
    {Key::lint_severity, "lint", "severity", Type::choice_table, severity_levels, "rule id", R"({missing-range = "error"})",
     "Rule id or group = level; an id beats its group. --severity ID=LEVEL wins for the same id."},
    {Key::lint_rules, "lint", "rules", Type::strings, {}, {}, R"(["policies/"])",
     "Extra rule packs: rule files or folders of them, relative to this file. --rules adds to them."},
    {Key::lint_exclude, "lint", "exclude", Type::strings, {}, {}, R"(["drafts/", "*.old.toml"])",
     "Files and folders a folder search leaves out, written as .gitignore lines relative to this file (\"drafts/\", "
     "\"*.old.toml\"). A file named on the command line is linted all the same. --exclude adds to them."},
    {Key::lint_respect_gitignore, "lint", "respect_gitignore", Type::boolean, {}, {}, "false",
     "Whether the search of a folder this config governs (the --config file, or the folder's nearest "
     ".planlint.toml) leaves out what .gitignore files ignore (default true; a file git tracks is never left out). "
     "false reads no .gitignore file, so a pull request's cannot change what is linted. --no-ignore wins."},
    {Key::lint_docs_url, "lint", "docs_url", Type::url, {}, {}, R"("https://docs.example.com/planlint/")",
     "Base URL of planlint's documentation for SARIF's rule links (helpUri: rules/ID.md under it) and the language "
     "server's; replaces the one the build sets."},
    {Key::lint_fail_on, "lint", "fail_on", Type::choice, fail_on_levels, {}, R"("warning")",
     "Lowest level that makes the exit status 1 (default error). --fail-on wins."},
    {Key::lint_catalog, "lint", "catalog", Type::files, {}, {}, R"(["hardware.toml"])",
     "GPU catalog files of your own (same format as rules/catalog/gpus.toml): one file or a list, relative to this "
     "file, loaded in order; their entries add to or replace the built-in ones, and a later file's entry wins."},
    {Key::lint_options, "lint", "options", Type::quantity_table, {}, "option name", R"({assumption_max_age = "90 d"})",
     "Rule options by name, overriding the rules' defaults: a number or a quantity string such as \"90 d\"."},
    {Key::tolerances_capacity, "tolerances", "capacity", Type::tolerance, {}, {}, R"("10%")",
     "Tolerance of capacity metrics (default 15%)."},
    {Key::tolerances_cost, "tolerances", "cost", Type::tolerance, {}, {}, "0.3",
     "Tolerance of cost metrics (default 30%)."},
    {Key::tolerances_formula_vs_benchmark, "tolerances", "formula_vs_benchmark", Type::tolerance, {}, {}, R"("25%")",
     "Tolerance between a formula and a benchmark (default 25%)."},
    {Key::guardrails_cost_increase, "guardrails", "cost_increase", Type::share, {}, {}, R"("20%")",
     "The most a plan's cost (cost.total) may rise, as a share of its cost before: \"20%\"."},
    {Key::guardrails_cost_increase_amount, "guardrails", "cost_increase_amount", Type::usd, {}, {}, R"("$100K")",
     "The most a plan's cost may rise, in dollars: \"$100K\" (an added plan: its whole cost)."},
    {Key::guardrails_gpus_increase, "guardrails", "gpus_increase", Type::gpu_count, {}, {}, "256",
     "The most GPUs a plan's cluster.count may gain."},
    {Key::guardrails_days_increase, "guardrails", "days_increase", Type::duration, {}, {}, R"("7 d")",
     "The most a plan's wall-clock training days may grow: \"7 d\" (a plain number counts days)."},
    {Key::guardrails_memory_headroom, "guardrails", "memory_headroom", Type::share, {}, {}, R"("10%")",
     "The least share of its GPU's HBM a plan's memory per GPU may leave free after a change (unless it was less "
     "before): \"10%\"."},
    {Key::guardrails_new_errors, "guardrails", "new_errors", Type::boolean, {}, {}, "true",
     "Whether an error the change introduces is a breach."},
    {Key::solve_vary, "solve", "vary", Type::text, {}, {}, R"("gpu,count")",
     "What planlint solve may change beyond the layout keys, as --vary says it: gpu, count, global_batch."},
    {Key::solve_gpus, "solve", "gpus", Type::text, {}, {}, R"("h100-sxm,a100-sxm")",
     "The catalog GPUs planlint solve searches, comma-separated, as --gpus says them."},
    {Key::solve_count, "solve", "count", Type::text, {}, {}, R"("512..4096")",
     "The GPU counts planlint solve searches, in whole nodes, as --count says them: \"512..4096\", \"2048\"."},
    {Key::solve_keep, "solve", "keep", Type::text, {}, {}, R"("offload,zero")",
     "The layout keys planlint solve holds at a plan's values, comma-separated, as --keep says them (a training "
     "plan's keys; an inference plan holds tp and pp of them)."},
};

/// "error, warning or note".
std::string one_of(std::span<const std::string_view> choices) {
  std::string words;
  for (std::size_t i = 0; i < choices.size(); ++i)
    words += fmt::format("{}{}", i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ", choices[i]);
  return words;
}

}  // namespace

std::span<const ConfigTableSpec> config_tables() { return tables; }

std::span<const ConfigKeySpec> config_keys() { return keys; }

const ConfigKeySpec* find_config_key(std::string_view table, std::string_view name) {
  for (const ConfigKeySpec& spec : keys)
    if (spec.table == table && spec.name == name) return &spec;
  return nullptr;
}

std::string expected_entry(const ConfigKeySpec& spec) {
  return spec.type == ConfigType::quantity_table ? "a number or a quantity string" : one_of(spec.choices);
}

std::string expected_value(const ConfigKeySpec& spec) {
  switch (spec.type) {
    case Type::strings: return "an array of strings";
    case Type::files: return "a file name or an array of them";
    case Type::boolean: return "true or false";
    case Type::choice: return one_of(spec.choices);
    case Type::url: return "an http:// or https:// URL";
    case Type::choice_table:
    case Type::quantity_table: return fmt::format("a table of {} = {}", spec.entry, expected_entry(spec));
    case Type::tolerance: return "a fraction such as \"10%\" or 0.1";
    case Type::share: return "a share such as \"20%\" or 0.2";
    case Type::usd: return "an amount of dollars such as \"$100K\"";
    case Type::gpu_count: return "a whole number of GPUs, 0 or more";
    case Type::duration: return "a duration such as \"7 d\" (a plain number counts days)";
    case Type::text: return "a string";
  }
  return {};
}

}  // namespace planlint
