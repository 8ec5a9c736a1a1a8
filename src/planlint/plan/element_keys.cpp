#include "planlint/plan/element_keys.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "planlint/source/toml_lexer.hpp"
#include "planlint/source/toml_value.hpp"

namespace planlint {

namespace {

/// The text of an element's field as the plan states it; nullptr when absent, not a string, or
/// empty.
const std::string* stated_text(const PlanTable& element, std::string_view field) {
  const PlanValue* value = element.find(field);
  if (!value || value->origin != Origin::plan) return nullptr;
  const std::string* text = value->text();
  return text && !text->empty() ? text : nullptr;
}

bool is_bare(std::string_view text) {
  for (unsigned char c : text)
    if (!(std::isalnum(c) || c == '_' || c == '-' || c == '.')) return false;
  return !text.empty();
}

/// `text` as is, or as a TOML basic string when it holds more than letters, digits, `_`, `-`
/// and `.` (a `]`, `,` or `"` in it would end the name).
std::string name_text(std::string_view text) { return is_bare(text) ? std::string(text) : toml_basic_string(text); }

/// What names an element of `section`, "id=mfu"; empty when it has no such field.
std::string element_name(std::string_view section, const PlanTable& element) {
  if (section == "targets") {
    const std::string* name = stated_text(element, "name");
    return name ? "name=" + name_text(*name) : std::string();
  }
  if (section == "assumptions") {
    const std::string* id = stated_text(element, "id");
    return id ? "id=" + name_text(*id) : std::string();
  }
  // [[capacity]]: how the slice is bought (a mix buys each kind once, as a rule).
  if (section == "capacity") {
    const std::string* kind = stated_text(element, "kind");
    return kind ? "kind=" + name_text(*kind) : std::string();
  }
  // [[benchmarks]]: the metric measured and, when stated, the day it was.
  const std::string* metric = stated_text(element, "metric");
  if (!metric) return {};
  std::string name = "metric=" + name_text(*metric);
  if (const PlanValue* date = element.find("date"); date && date->origin == Origin::plan && date->date())
    name += fmt::format(",date={:04}-{:02}-{:02}", date->date()->year, date->date()->month, date->date()->day);
  return name;
}

}  // namespace

namespace {

/// Tells apart a name an earlier one has by its count among them ("metric=train.mfu,n=2"), so
/// that a second benchmark of a metric added after the first leaves the first's key as it was.
void count_repeats(std::vector<std::string>& names) {
  std::unordered_map<std::string, std::size_t> uses;
  for (std::string& name : names) {
    if (name.empty()) continue;
    if (const std::size_t seen = ++uses[name]; seen > 1) name += fmt::format(",n={}", seen);
  }
}

/// An array of tables whose elements a key path names by index ("targets[1]").
struct NamedArray {
  std::string_view name;
  const std::vector<PlanTable>* elements;
  std::optional<std::vector<std::string>> names = std::nullopt;  ///< computed for the first key that needs them
};

/// The index `key` names after `open` ("[3]" → 3) and the place past its bracket.
std::optional<std::pair<std::size_t, std::size_t>> index_at(std::string_view key, std::size_t open) {
  if (key.size() < open + 3 || key[open] != '[') return std::nullopt;
  std::size_t index = 0, at = open + 1;
  for (; at < key.size() && std::isdigit(static_cast<unsigned char>(key[at])); ++at)
    index = index * 10 + static_cast<std::size_t>(key[at] - '0');
  if (at == open + 1 || at >= key.size() || key[at] != ']') return std::nullopt;
  return std::pair{index, at + 1};
}

/// `key` with the element of one of `arrays` it names by index named by what it is; nullopt
/// when it names none, or one without its naming field.
std::optional<std::string> named_path(std::string_view key, std::span<NamedArray> arrays) {
  for (NamedArray& array : arrays) {
    if (!key.starts_with(array.name)) continue;
    const auto index = index_at(key, array.name.size());
    if (!index || index->first >= array.elements->size()) return std::nullopt;
    if (!array.names) array.names = element_names(array.name, *array.elements);
    const std::string& name = (*array.names)[index->first];
    if (name.empty()) return std::nullopt;
    return fmt::format("{}[{}]{}", array.name, name, key.substr(index->second));
  }
  return std::nullopt;
}

/// A stage's key path ("stages[1].targets[0].max") named: the stage by its name, an element of
/// its own [[stages.targets]] or [[stages.assumptions]] by what it is
/// ("stages[name=long-context].targets[name=day]").
std::optional<std::string> named_stage_path(std::string_view key, const Plan& plan,
                                            std::optional<std::vector<std::string>>& stage_names) {
  constexpr std::string_view stages = "stages";
  if (!key.starts_with(stages)) return std::nullopt;
  const auto index = index_at(key, stages.size());
  if (!index || index->first >= plan.stages.size()) return std::nullopt;
  if (!stage_names) {
    stage_names.emplace();
    for (const Stage& stage : plan.stages)
      stage_names->push_back(stage.name.empty() ? std::string() : "name=" + name_text(stage.name));
    count_repeats(*stage_names);
  }
  std::string_view rest = key.substr(index->second);
  std::string named_rest(rest);
  // The stage's own elements: those not inherited from the plan's lists (stage_findings.hpp).
  const Plan& own = *plan.stages[index->first].plan;
  const auto own_elements = [](const std::vector<PlanTable>& in_stage, const std::vector<PlanTable>& in_plan) {
    std::vector<PlanTable> elements;
    for (const PlanTable& table : in_stage)
      if (std::none_of(in_plan.begin(), in_plan.end(), [&](const PlanTable& p) { return p.header == table.header; }))
        elements.push_back(table);
    return elements;
  };
  if (rest.starts_with(".targets[") || rest.starts_with(".assumptions[")) {
    const bool targets = rest.starts_with(".targets[");
    const std::vector<PlanTable> elements =
        targets ? own_elements(own.targets, plan.targets) : own_elements(own.assumptions, plan.assumptions);
    std::array<NamedArray, 1> array{{{targets ? "targets" : "assumptions", &elements}}};
    if (std::optional<std::string> named = named_path(rest.substr(1), array)) named_rest = "." + *named;
  }
  const std::string& name = (*stage_names)[index->first];
  if (name.empty() && named_rest == rest) return std::nullopt;
  return fmt::format("stages[{}]{}", name.empty() ? std::to_string(index->first) : name, named_rest);
}

}  // namespace

std::vector<std::string> element_names(std::string_view section, const std::vector<PlanTable>& elements) {
  std::vector<std::string> names;
  names.reserve(elements.size());
  for (const PlanTable& element : elements) names.push_back(element_name(section, element));
  count_repeats(names);
  return names;
}

std::vector<std::pair<std::string, std::string>> name_elements_in_key_paths(std::vector<Diagnostic>& diagnostics,
                                                                            const Plan& plan) {
  std::vector<std::pair<std::string, std::string>> renamed;
  std::array<NamedArray, 4> arrays{{{"targets", &plan.targets},
                                    {"assumptions", &plan.assumptions},
                                    {"benchmarks", &plan.benchmarks},
                                    {"capacity", &plan.capacity}}};
  std::optional<std::vector<std::string>> stage_names;  // computed for the first stage key
  for (Diagnostic& d : diagnostics) {
    std::optional<std::string> named = named_path(d.key_path, arrays);
    if (!named && !plan.stages.empty()) named = named_stage_path(d.key_path, plan, stage_names);
    if (named) renamed.emplace_back(*named, std::exchange(d.key_path, *named));
  }
  return renamed;
}

bool has_positional_index(std::string_view key_path) {
  for (std::size_t i = 0; i < key_path.size(); ++i) {
    if (key_path[i] != '[') continue;
    std::size_t j = i + 1;
    while (j < key_path.size() && std::isdigit(static_cast<unsigned char>(key_path[j]))) ++j;
    if (j > i + 1 && j < key_path.size() && key_path[j] == ']') return true;
    // A name ("[id=mfu]"): on to its closing bracket, the first ']' outside the quoted values in
    // it (TOML basic strings, name_text()), which the lexer finds.
    TomlLexer values(key_path.substr(j));
    std::size_t close = key_path.find(']', j);
    for (TomlToken value = values.next_comment_or_string();
         value.kind != TomlTokenKind::end && close != std::string_view::npos && j + value.begin < close;
         value = values.next_comment_or_string())
      close = key_path.find(']', j + value.end);
    i = std::min(close, key_path.size());
  }
  return false;
}

std::string plan_block_key(const std::vector<std::string>& names, std::size_t index) {
  const std::string& name = names[index];
  if (name.empty()) return fmt::format("plans[{}]", index);
  // As an element's: a name an earlier plan of the doc has is told apart by its count.
  const auto seen = std::count(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(index) + 1, name);
  return "plans[name=" + name_text(name) + (seen > 1 ? fmt::format(",n={}", seen) : "") + "]";
}

std::string key_in_block(const std::string& block_key, const std::string& key_path) {
  if (key_path.empty()) return block_key;
  // A path that starts with its own bracket (a suppression's "#allow(…)") joins without a dot.
  return block_key + (key_path.front() == '#' ? "" : ".") + key_path;
}

std::optional<std::string> key_outside_block(std::string_view block_key, std::string_view key_path) {
  if (!key_path.starts_with(block_key)) return std::nullopt;
  std::string_view rest = key_path.substr(block_key.size());
  if (rest.empty() || rest.front() == '#') return std::string(rest);
  if (rest.front() != '.') return std::nullopt;
  return std::string(rest.substr(1));
}

void prefix_key_paths(std::vector<Diagnostic>& diagnostics, const std::string& block_key) {
  for (Diagnostic& d : diagnostics) d.key_path = key_in_block(block_key, d.key_path);
}

}  // namespace planlint
