/// Looking up the plan format's keys (schema.hpp) by name, and the names they offer.
#include <algorithm>
#include <array>
#include <string>

#include "planlint/plan/name_index.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

const SectionSpec* find_section(std::string_view name) {
  static const NameIndex<SectionSpec> index(plan_sections(), [](const SectionSpec& section) { return section.name; });
  return index.find(name);
}

const KeySpec* find_key(std::string_view section, std::string_view key) {
  // Each section's keys by their own names, which mostly fit the index's 16 compared bytes
  // where "section.key" joined did not: the loader looks up every key of every plan this way.
  static const std::array<std::vector<const KeySpec*>, plan_section_count> keys = [] {
    std::array<std::vector<const KeySpec*>, plan_section_count> of_section;
    for (const KeySpec& spec : plan_keys()) of_section[spec.section_index].push_back(&spec);
    return of_section;
  }();
  static const std::vector<NameIndex<const KeySpec*>> by_section = [] {
    std::vector<NameIndex<const KeySpec*>> indexes;
    for (const std::vector<const KeySpec*>& of_section : keys)
      indexes.emplace_back(of_section, [](const KeySpec* spec) { return spec->key; });
    return indexes;
  }();
  const SectionSpec* found = find_section(section);
  if (!found) return nullptr;
  const KeySpec* const* spec = by_section[static_cast<std::size_t>(found - plan_sections().data())].find(key);
  return spec ? *spec : nullptr;
}

const KeySpec* find_key(std::string_view dotted_path) {
  // The estimates and the rules name keys by their dotted path, hundreds of times a plan: one
  // index of the paths, where splitting one and finding its section first cost three times
  // the lookup.
  static const NameIndex<KeySpec> by_path(plan_keys(), [](const KeySpec& spec) {
    return std::string(spec.section) + "." + std::string(spec.key);
  });
  return by_path.find(dotted_path);
}

const std::vector<std::string_view>& element_field_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const KeySpec& key : plan_keys())
      if (plan_sections()[key.section_index].array && std::find(all.begin(), all.end(), key.key) == all.end())
        all.push_back(key.key);
    return all;
  }();
  return names;
}

std::span<const KeySpec* const> element_fields_of(const SectionSpec& section) {
  static const auto by_section = [] {
    const std::vector<std::string_view>& names = element_field_names();
    std::array<std::vector<const KeySpec*>, plan_section_count> table;
    for (std::vector<const KeySpec*>& row : table) row.assign(names.size(), nullptr);
    for (const KeySpec& key : plan_keys())
      if (plan_sections()[key.section_index].array)
        table[key.section_index][static_cast<std::size_t>(std::find(names.begin(), names.end(), key.key) - names.begin())] = &key;
    return table;
  }();
  if (!section.array) return {};
  return by_section[static_cast<std::size_t>(&section - plan_sections().data())];
}

namespace {
/// Whether `key` is a key of a table, not a field of each element of an array of tables.
bool names_one_value(const KeySpec& key) { return !plan_sections()[key.section_index].array; }
}  // namespace

const KeySpec* find_value_key(std::string_view dotted_path) {
  const KeySpec* key = find_key(dotted_path);
  return key && names_one_value(*key) ? key : nullptr;
}

const std::vector<std::string>& value_key_paths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> all;
    for (const KeySpec& key : plan_keys())
      if (names_one_value(key)) all.push_back(std::string(key.section) + "." + std::string(key.key));
    return all;
  }();
  return paths;
}

std::string element_field_refusal(std::string_view dotted_path) {
  const KeySpec* key = find_key(dotted_path);
  if (!key || names_one_value(*key)) return {};
  return "the " + std::string(key->key) + " field of every [[" + std::string(key->section) +
         "]] entry, not one plan value";
}

std::vector<std::string_view> keys_of(std::string_view section) {
  std::vector<std::string_view> keys;
  for (const KeySpec& spec : plan_keys())
    if (spec.section == section) keys.push_back(spec.key);
  return keys;
}

}  // namespace planlint
